#!/usr/bin/env python3
"""Site-level methods on site-grouped corpora, beside peers measured in the same run.

compare.py (../shared/tools) scores one page at a time and cannot hand a
method other pages of the site; this script reuses its corpus loaders and
scoring and adds what the site-level methods need:

- ``layout`` (seeds/002): every OTHER page of its site group is a candidate
  reference (``references=``); the method uses the ``--n-references`` most
  URL-similar (default all; 1 = the paper's single reference,
  ``fastx.methods.layout.rank_references``).  The page URL is the page's
  own canonical address (``og:url``, ``<link rel=canonical>`` or ``<base
  href>``) when it has one, else the gold file's ``URL:`` line.  Time per
  page includes parsing the references.
- ``site`` (seeds/001): per site group, folds of test pages; each fold's
  rules are learned from at most ``--train`` (10) other pages of the group
  and applied to the fold.  Learning seconds are reported per fold, apply
  time per page (the rules only, parse included).
- peers (trafilatura, readability, ...), fastx's ``cetd`` and, when it is
  registered, ``default``, and selectolax parse-only, on the same pages.

CleanPortalEval groups by site: the file name's domain (bbc.co.uk,
blogs.wsj.com, tv.msnbc.com, washingtonpost.com).  ``wcxb-sites`` is
wcxb-dev's pages grouped by their URL's host (``www.`` dropped), the hosts
with at least three pages (39 sites, modern pages of every type: product,
documentation, forum, article ...): site groups that neither layout nor
site was tuned on.  SWDE booksamillion is one site; it has no gold text,
so it reports compare.py's value recall (share of the ground-truth
attribute values found in the output) and the mean output length (the
noise proxy) instead of text precision and recall.

    python benchmarks/site_eval.py --dataset cpe --json site_eval.json
    python benchmarks/site_eval.py --dataset swde-book --limit 300 --methods layout
"""
from __future__ import annotations

import argparse
import html as html_lib
import importlib.util
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import fastx  # noqa: E402


def load_compare():
    path = ROOT.parent / "shared" / "tools" / "compare.py"
    if not path.exists():
        raise SystemExit(f"{path} not found: site_eval needs ../shared beside the repository")
    spec = importlib.util.spec_from_file_location("fastx_shared_compare", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_CANON = [re.compile(rb"""<meta[^>]+property=["']og:url["'][^>]+content=["']([^"']+)""", re.I),
          re.compile(rb"""<link[^>]+rel=["']canonical["'][^>]+href=["']([^"']+)""", re.I),
          re.compile(rb"""<base[^>]+href=["']([^"']+)""", re.I)]


WCXB_MIN_PAGES = 3      # wcxb-sites: a site group needs the page and two others


def page_url(html: bytes, meta: dict) -> str | None:
    head = html[:65536]
    for rx in _CANON:
        m = rx.search(head)
        if m:
            return m.group(1).decode("utf-8", "replace").strip()
    return meta.get("url")


def site_of(corpus: str, page_id: str, meta: dict | None = None) -> str:
    if corpus == "cpe":
        return page_id.split("/", 1)[1].split("_", 1)[0]
    if corpus == "wcxb-sites":
        host = (urlsplit((meta or {}).get("url") or "").hostname or "").lower()
        return host[4:] if host.startswith("www.") else host
    return page_id.split("/", 1)[0]


def load(compare, corpus: str, limit: int | None, decode_gold: bool = False):
    docs = list(compare.CORPORA["wcxb-dev" if corpus == "wcxb-sites" else corpus]())[: limit or None]
    pages = []
    for pid, html, meta in docs:
        if decode_gold and "text" in meta:
            meta = dict(meta, text=html_lib.unescape(meta["text"]))
        pages.append({"id": pid, "html": html, "meta": meta, "url": page_url(html, meta),
                      "site": site_of(corpus, pid, meta)})
    if corpus == "wcxb-sites":       # sites with at least WCXB_MIN_PAGES pages of the dev split
        count = defaultdict(int)
        for p in pages:
            count[p["site"]] += 1
        pages = [p for p in pages if p["site"] and count[p["site"]] >= WCXB_MIN_PAGES]
    return pages


class Scorer:
    """Per-extractor rows scored as compare.py does, also split per site group."""

    def __init__(self, compare):
        self.c = compare
        self.rows = defaultdict(list)
        self.site_rows = defaultdict(lambda: defaultdict(list))
        self.seconds = defaultdict(float)
        self.count = defaultdict(int)
        self.errors = defaultdict(int)
        self.extra = defaultdict(dict)

    def add(self, name, page, text, seconds):
        meta = page["meta"]
        row = self.c.values_found(meta, text) if "values" in meta else self.c.shingle_counts(meta["text"], text)
        self.rows[name].append(row)
        self.site_rows[name][page["site"]].append(row)
        self.seconds[name] += seconds
        self.count[name] += 1

    def summary(self, name):
        rows = self.rows[name]
        if rows and len(rows[0]) == 3 and isinstance(rows[0][0], int):
            found, total = sum(r[0] for r in rows), sum(r[1] for r in rows)
            m = {"value_recall": found / max(1, total), "mean_output_chars": statistics.mean(r[2] for r in rows)}
        else:
            m = self.c.summarize_text(rows)
            m["per_site"] = {s: self.c.summarize_text(r) for s, r in sorted(self.site_rows[name].items())}
        m.update(pages=self.count[name], errors=self.errors[name],
                 ms_per_page=1000 * self.seconds[name] / max(1, self.count[name]))
        m.update(self.extra[name])
        return m


def timed(fn, *args, **kw):
    t0 = time.perf_counter()
    try:
        out = fn(*args, **kw)
    except Exception as exc:  # an extractor failing on a page scores it as empty output
        return None, time.perf_counter() - t0, exc
    return out, time.perf_counter() - t0, None


def run_peers(compare, pages, names, scorer):
    table = compare.extractors()
    for name in names:
        fn = compare.fastx_extractor("fastx:" + name.split(":", 1)[1]) if name.startswith("fastx:") else table[name]
        _, _, err = timed(fn, pages[0]["html"], pages[0]["meta"])       # warm-up, as compare.py does
        if name.startswith("fastx:") and isinstance(err, fastx.ModelError):
            print(f"{name}: skipped, not usable here: {err}", file=sys.stderr)
            continue
        for p in pages:
            meta = dict(p["meta"], url=p["url"])
            text, s, err = timed(fn, p["html"], meta)
            if err is not None:
                scorer.errors[name] += 1
            scorer.add(name, p, text or "", s)


def run_layout(pages, scorer, name="fastx:layout", use_references=True, **params):
    by_site = defaultdict(list)
    for p in pages:
        by_site[p["site"]].append(p)
    refs_used = 0
    fastx.extract(pages[0]["html"], method="layout")        # warm-up
    for p in pages:
        others = [(q["url"], q["html"]) for q in by_site[p["site"]] if q is not p] if use_references else []
        kw = {"references": others} if others else {}
        res, s, err = timed(fastx.extract, p["html"], method="layout", url=p["url"], **kw, **params)
        if err is not None:
            scorer.errors[name] += 1
        refs_used += bool(others)
        scorer.add(name, p, res.text if res is not None else "", s)
    scorer.extra[name]["pages_with_reference"] = refs_used


def folds(group, train):
    """(train pages, test pages) per fold: every page tested once, each fold learned on <= train others."""
    n = len(group)
    if n < 2:
        return []
    k = min(train, n - 1)
    size = max(1, n - k)
    out = []
    for start in range(0, n, size):
        test = group[start:start + size]
        rest = [p for p in group if p not in test]
        out.append((rest[:k], test))
    return out


def run_site(pages, scorer, train=10, name="fastx:site", **params):
    by_site = defaultdict(list)
    for p in pages:
        by_site[p["site"]].append(p)
    learn_s, rules_n, failures = [], [], 0
    for site, group in sorted(by_site.items()):
        for tr, test in folds(group, train):
            t0 = time.perf_counter()
            try:
                model = fastx.SiteModel.learn([p["html"] for p in tr], [p["url"] for p in tr], **params)
            except fastx.FastxError as exc:
                failures += 1
                print(f"  site {site}: learning failed: {exc}", file=sys.stderr)
                model = None
            learn_s.append(time.perf_counter() - t0)
            if model is not None:
                rules_n.append(len(model.rules))
                model.extract(tr[0]["html"])                  # warm-up (compiles the rules)
            for p in test:
                if model is None:
                    scorer.errors[name] += 1
                    scorer.add(name, p, "", 0.0)
                    continue
                res, s, err = timed(model.extract, p["html"], url=p["url"])
                if err is not None:
                    scorer.errors[name] += 1
                scorer.add(name, p, res.text if res is not None else "", s)
    scorer.extra[name].update(
        folds=len(learn_s), learn_failures=failures, train_pages=train,
        learn_s_mean=statistics.mean(learn_s) if learn_s else 0.0, learn_s_max=max(learn_s, default=0.0),
        rules_mean=statistics.mean(rules_n) if rules_n else 0.0)


def show(corpus, name, m):
    keys = [k for k in ("f1", "precision", "recall", "value_recall", "mean_output_chars") if k in m]
    figs = "  ".join(f"{k} {m[k]:.3f}" if k != "mean_output_chars" else f"{k} {m[k]:.0f}" for k in keys)
    extra = "".join(f"  {k} {m[k]:.3f}" if isinstance(m[k], float) else f"  {k} {m[k]}"
                    for k in ("learn_s_mean", "learn_s_max", "rules_mean", "folds", "pages_with_reference")
                    if k in m)
    print(f"{corpus:<10}{name:<22}{figs}  {m['ms_per_page']:8.2f} ms/page  errors {m['errors']}{extra}",
          flush=True)
    per_site = m.get("per_site", {})
    for site, s in per_site.items() if len(per_site) <= 8 else ():      # wcxb-sites: the JSON has them
        print(f"{'':<12}{site:<24}f1 {s['f1']:.3f}  precision {s['precision']:.3f}  recall {s['recall']:.3f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="cpe,swde-book",
                    help="cpe, swde-book, wcxb-sites, or several joined by ','")
    ap.add_argument("--methods", default="layout,layout-norefine,layout-noref,site",
                    help="layout (references: the other pages of the group), layout-norefine (without the line "
                         "blocks), layout-refine (with them), layout-norecords (without step b' template records), "
                         "layout-noref (no reference), site")
    ap.add_argument("--peers", default="parse-only,trafilatura,readability,fastx:cetd,fastx:default",
                    help="compare.py extractors and fastx:METHOD (unregistered fastx methods are skipped)")
    ap.add_argument("--limit", type=int, help="first N pages of each corpus")
    ap.add_argument("--train", type=int, default=10, help="site: at most this many learning pages per fold")
    ap.add_argument("--link-ratio", type=float, default=0.3, help="layout: rule 1 threshold")
    ap.add_argument("--refine", action=argparse.BooleanOptionalAction, default=None,
                    help="layout: the line-block distribution on or off (default: the method's own default)")
    ap.add_argument("--n-references", type=int, default=None,
                    help="layout: use the N most URL-similar other pages of the group (default: all)")
    ap.add_argument("--decode-gold", action="store_true",
                    help="decode the HTML character references left in the gold text (CleanPortalEval's gold "
                         "has '&#8217;', '&#8220;' ... verbatim: no extractor outputs those tokens, so as "
                         "scored a page's recall is capped; the decoded text scores 0.877 mean recall against "
                         "the verbatim gold)")
    ap.add_argument("--json", help="write the figures to this file")
    a = ap.parse_args(argv)
    compare = load_compare()
    known = set(fastx.methods())
    peers = [p for p in a.peers.split(",") if p and (not p.startswith("fastx:") or p.split(":", 1)[1] in known)]
    out = {}
    for corpus in a.dataset.split(","):
        pages = load(compare, corpus, a.limit, a.decode_gold)
        scorer = Scorer(compare)
        methods = a.methods.split(",")
        refine = {} if a.refine is None else {"refine": a.refine}
        if "layout" in methods:
            run_layout(pages, scorer, link_ratio=a.link_ratio, n_references=a.n_references, **refine)
        for variant, name, kw in (("layout-refine", "fastx:layout+refine", {"refine": True}),
                                  ("layout-norefine", "fastx:layout-refine", {"refine": False}),
                                  ("layout-norecords", "fastx:layout-records", {"records": False, **refine})):
            if variant in methods:
                run_layout(pages, scorer, name, link_ratio=a.link_ratio, n_references=a.n_references, **kw)
        if "layout-noref" in methods:      # the documented fallback: no reference page
            run_layout(pages, scorer, "fastx:layout-noref", False, link_ratio=a.link_ratio, **refine)
        if "site" in methods and corpus != "swde-book":
            run_site(pages, scorer, a.train)
        run_peers(compare, pages, peers, scorer)
        out[corpus] = {}
        for name in list(scorer.rows):
            m = scorer.summary(name)
            out[corpus][name] = m
            show(corpus, name, m)
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
