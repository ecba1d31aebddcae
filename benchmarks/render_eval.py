#!/usr/bin/env python3
"""What real layout buys, measured in one run on the dev corpora.

1. Render: every page is rendered once in headless Chromium (fastx.render,
   scripts off, network blocked) into a layout cache (one .npz per page);
   pages rendered per second is timed over the rendering alone (browser
   launch reported apart).  With a warm cache nothing is rendered again
   (``--fresh`` empties it first).
2. CETD (seeds/004): CECTD-DS (composite text density + DensitySum) beside
   CEHTD-DS (hybrid text density: Visual Importance from the cached layout,
   Def. 3.3-3.4, + DensitySum) on the same pages; CEHTD-DS/glyphs measures
   each text node by its own glyphs' box instead of its leaf tag's.  A page
   where HTD raises (nothing visible: no Node_L) is scored as empty output.  Scored with compare.py's
   4-token shingles (its loaders and scoring, loaded by importlib) and the
   paper's word-level LCS precision/recall (fastx.evaluate, Eq. 6-7).  Pages
   whose rendering failed are left out of both rows and counted.
3. ``--site``: the site rules (seeds/001) on CleanPortalEval without and with
   computed CSS block features (``SiteModel.learn(..., render=renderer)``),
   through benchmarks/site_eval.py's folds and scoring.

    python benchmarks/render_eval.py --limit 80 --site --json render_eval.json
    python benchmarks/render_eval.py --dataset cleaneval-dev --limit 20 --fresh
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import fastx  # noqa: E402
from fastx import evaluate  # noqa: E402
from fastx.render import Layout, Renderer  # noqa: E402

# name -> extract() keywords given the page's layout.  CEHTD-DS measures a text node by its
# leaf tag's box (Def. 3.3, Layout.positions); CEHTD-DS/glyphs by its own Range box.
METHODS = {"CECTD-DS": lambda lay: {"method": "cetd"},
           "CEHTD-DS": lambda lay: {"method": "cetd", "variant": "htd", "layout": lay},
           "CEHTD-DS/glyphs": lambda lay: {"method": "cetd", "variant": "htd",
                                           "positions": lay.extents(own_text=True)}}


def load_module(name: str, path: Path):
    if not path.exists():
        raise SystemExit(f"{path} not found (render_eval needs ../shared beside the repository)")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def render_corpus(renderer: Renderer, pages) -> dict:
    """Render (or find in the cache) every page; returns timing and the layouts by page id."""
    rendered0, t0 = renderer.rendered, time.perf_counter()
    docs = [fastx.parse(html, url=meta.get("url")) for _, html, meta in pages]
    t_parse = time.perf_counter() - t0
    t1 = time.perf_counter()
    layouts, errors = {}, []
    for (pid, _, _), out in zip(pages, renderer.render_many(docs)):
        if isinstance(out, Layout):
            layouts[pid] = out
        else:
            errors.append(f"{pid}: {type(out).__name__}: {out}")
    seconds = time.perf_counter() - t1
    rendered = renderer.rendered - rendered0
    return {"layouts": layouts, "docs": dict(zip((p[0] for p in pages), docs)), "errors": errors,
            "rendered": rendered, "render_seconds": seconds, "parse_seconds": t_parse,
            "pages_per_s": rendered / seconds if rendered and seconds else None}


def score_corpus(compare, pages, rendered) -> dict:
    rows = {name: {"shingle": [], "lcs": [], "seconds": 0.0, "errors": []} for name in METHODS}
    for pid, html, meta in pages:
        layout = rendered["layouts"].get(pid)
        if layout is None:
            continue
        for name, kw in METHODS.items():
            doc = fastx.parse(html, url=meta.get("url"))       # a fresh parse per method
            t0 = time.perf_counter()
            try:
                text = fastx.extract(doc, **kw(layout)).text
            except fastx.FastxError as exc:    # e.g. the page shows nothing: no Node_L (scored as empty)
                text = ""
                rows[name]["errors"].append(f"{pid}: {type(exc).__name__}")
            rows[name]["seconds"] += time.perf_counter() - t0
            rows[name]["shingle"].append(compare.shingle_counts(meta["text"], text))
            rows[name]["lcs"].append(evaluate.scores(text, meta["text"]))
    out = {}
    for name, r in rows.items():
        n = len(r["shingle"])
        sh = compare.summarize_text(r["shingle"]) if n else {}
        lcs = evaluate.aggregate(r["lcs"]) if n else {}
        out[name] = {"pages": n, "shingle": sh,
                     "lcs": {k: lcs[k] for k in ("precision", "recall", "f1") if k in lcs},
                     "ms_per_page": 1000 * r["seconds"] / max(1, n), "errors": r["errors"]}
    return out


def run_site(compare, site_eval, renderer: Renderer, train: int) -> dict:
    """Site rules on CleanPortalEval without and with computed CSS (same folds, same run)."""
    pages = site_eval.load(compare, "cpe", None)
    scorer = site_eval.Scorer(compare)
    t0 = time.perf_counter()
    site_eval.run_site(pages, scorer, train, name="site")
    t1 = time.perf_counter()
    site_eval.run_site(pages, scorer, train, name="site+css", render=renderer)
    t2 = time.perf_counter()
    out = {}
    for name, secs in (("site", t1 - t0), ("site+css", t2 - t1)):
        out[name] = scorer.summary(name)
        out[name]["wall_seconds"] = round(secs, 2)
    return out


def fmt(m: dict) -> str:
    return f"P {m.get('precision', 0):.3f}  R {m.get('recall', 0):.3f}  F1 {m.get('f1', 0):.3f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="cleaneval-dev,cpe,l3s,readability,dragnet",
                    help="compare.py corpora joined by ','")
    ap.add_argument("--limit", type=int, default=80, help="first N pages of each corpus (0: all)")
    ap.add_argument("--cache", default=str(Path.home() / ".cache" / "fastx-layouts"),
                    help="layout cache directory (one .npz per page)")
    ap.add_argument("--fresh", action="store_true", help="empty the layout cache first (time every render)")
    ap.add_argument("--pages", type=int, default=2, help="browser tabs rendering at once")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per page")
    ap.add_argument("--site", action="store_true", help="also the site rules with/without computed CSS (cpe)")
    ap.add_argument("--train", type=int, default=10, help="site: learning pages per fold")
    ap.add_argument("--json", help="write the figures to this file")
    a = ap.parse_args(argv)
    compare = load_module("fastx_shared_compare", ROOT.parent / "shared" / "tools" / "compare.py")
    cache = Path(a.cache)
    if a.fresh and cache.exists():
        shutil.rmtree(cache)
    out = {"corpora": {}}
    with Renderer(pages=a.pages, timeout=a.timeout, cache_dir=cache) as renderer:
        t0 = time.perf_counter()
        renderer.start()
        out["browser"] = renderer.browser_version
        out["launch_seconds"] = round(time.perf_counter() - t0, 3)
        print(f"Chromium {renderer.browser_version}: launched in {out['launch_seconds']:.2f} s, "
              f"{a.pages} tabs, cache {cache}", flush=True)
        total_rendered, total_seconds = 0, 0.0
        for corpus in a.dataset.split(","):
            pages = list(compare.CORPORA[corpus]())[: a.limit or None]
            pages = [p for p in pages if "text" in p[2]]
            rendered = render_corpus(renderer, pages)
            total_rendered += rendered["rendered"]
            total_seconds += rendered["render_seconds"] if rendered["rendered"] else 0.0
            scores = score_corpus(compare, pages, rendered)
            rate = f"{rendered['pages_per_s']:.2f} pages/s" if rendered["pages_per_s"] else "all cached"
            print(f"\n{corpus}: {len(pages)} pages, rendered {rendered['rendered']} in "
                  f"{rendered['render_seconds']:.1f} s ({rate}), render errors {len(rendered['errors'])}",
                  flush=True)
            for e in rendered["errors"][:5]:
                print(f"  {e}")
            for name, m in scores.items():
                print(f"  {name:<16} shingle {fmt(m['shingle'])}   LCS {fmt(m['lcs'])}   "
                      f"{m['ms_per_page']:.2f} ms/page  ({m['pages']} pages"
                      + (f", {len(m['errors'])} empty: {', '.join(m['errors'][:3])}" if m["errors"] else "")
                      + ")", flush=True)
            out["corpora"][corpus] = {"pages": len(pages), "rendered": rendered["rendered"],
                                      "render_seconds": round(rendered["render_seconds"], 3),
                                      "pages_per_s": rendered["pages_per_s"],
                                      "render_errors": rendered["errors"], "scores": scores}
        out["pages_per_s"] = total_rendered / total_seconds if total_rendered else None
        if out["pages_per_s"]:
            print(f"\nall corpora: {total_rendered} pages rendered in {total_seconds:.1f} s = "
                  f"{out['pages_per_s']:.2f} pages/s ({a.pages} tabs)", flush=True)
        if a.site:
            site_eval = load_module("fastx_site_eval", ROOT / "benchmarks" / "site_eval.py")
            before = renderer.rendered
            site = run_site(compare, site_eval, renderer, a.train)
            print(f"\ncpe site rules (all {site['site']['pages']} pages, folds of <= {a.train} learning pages; "
                  f"{renderer.rendered - before} pages newly rendered for CSS):")
            for name, m in site.items():
                print(f"  {name:<9} shingle {fmt(m)}  learn {m['learn_s_mean']:.2f} s/fold  "
                      f"errors {m['errors']}  ({m['wall_seconds']} s)")
                for s, sm in m.get("per_site", {}).items():
                    print(f"      {s:<22}{fmt(sm)}")
            out["site"] = site
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1, default=str))


if __name__ == "__main__":
    main()
