"""Metadata accuracy on wcxb-dev: fastx beside trafilatura, against the gold title/author/publish_date.

    PYTHONPATH=. .venv/bin/python benchmarks/metadata_eval.py --split validation
    PYTHONPATH=. .venv/bin/python benchmarks/metadata_eval.py --split train --failures date

Split by domain (never by page): validation = pages whose URL host (lower-cased,
leading "www." removed) has int(md5(host), 16) % 5 == 0; train = the rest.

Scores, per field, over the pages whose gold has the field:
- title: normalized equality (casefold, whitespace collapsed, punctuation ignored);
- author: the same set of name words (casefold word tokens; "and", "by" and "&" ignored);
- date: the same day (YYYY-MM-DD).
"Spurious" counts pages whose gold has no value for the field but the extractor returns one.
Both extractors run on each page before the next (interleaved).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent / "shared" / "tools"))

_WORD = re.compile(r"\w+", re.UNICODE)
_STOP = {"and", "by", "und", "et"}


def host_of(url: str) -> str:
    from urllib.parse import urlsplit
    h = (urlsplit(url).hostname or "").lower()
    return h[4:] if h.startswith("www.") else h


def is_validation(url: str) -> bool:
    return int(hashlib.md5(host_of(url).encode()).hexdigest(), 16) % 5 == 0


def norm_title(s) -> str:
    return " ".join(_WORD.findall((s or "").casefold().replace("_", " ")))


def name_words(s) -> frozenset:
    return frozenset(w for w in _WORD.findall((s or "").casefold()) if w not in _STOP)


def day(s) -> str:
    from fastx.metadata import parse_date
    if not s:
        return ""
    return parse_date(str(s)) or ""


def pages(split: str, limit: int | None):
    from compare import unpack
    root = unpack("wcxb-dev") / "wcxb-dev"
    n = 0
    for g in sorted((root / "ground-truth").glob("*.json")):
        d = json.loads(g.read_text("utf-8"))
        url = d.get("url") or ""
        v = is_validation(url)
        if split == "validation" and not v or split == "train" and v:
            continue
        p = root / "html" / f"{g.stem}.html"
        if not p.exists():
            continue
        yield g.stem, p.read_bytes(), d
        n += 1
        if limit and n >= limit:
            return


def run_fastx(html: bytes, url: str):
    import fastx
    from fastx.metadata import extract_metadata
    m = extract_metadata(fastx.parse(html, url=url), url)      # what Extraction.metadata computes
    return {"title": m.title, "author": m.author, "date": m.date}, m.source


def run_trafilatura(html: bytes, url: str):
    import trafilatura
    try:
        r = trafilatura.bare_extraction(html, url=url, with_metadata=True)
    except Exception:
        r = None
    if r is None:
        return {"title": None, "author": None, "date": None}, {}
    get = (lambda k: getattr(r, k, None)) if not isinstance(r, dict) else r.get
    return {"title": get("title"), "author": get("author"), "date": get("date")}, {}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", choices=("validation", "train", "all"), default="validation")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--no-trafilatura", action="store_true")
    ap.add_argument("--failures", choices=("title", "author", "date"), help="print fastx's failures on a field")
    ap.add_argument("--json", help="write the figures to this file")
    a = ap.parse_args(argv)
    extractors = {"fastx": run_fastx} if a.no_trafilatura else {"fastx": run_fastx, "trafilatura": run_trafilatura}
    fields = ("title", "author", "date")
    stats = {e: {f: [0, 0, 0] for f in fields} for e in extractors}     # correct, gold-has, spurious
    secs = {e: 0.0 for e in extractors}
    npages = 0
    for pid, html, gold in pages(a.split, a.limit):
        npages += 1
        g = {"title": gold.get("title"), "author": gold.get("author"), "date": gold.get("publish_date")}
        for name, fn in extractors.items():
            t0 = time.perf_counter()
            out, src = fn(html, gold.get("url"))
            secs[name] += time.perf_counter() - t0
            for f in fields:
                st = stats[name][f]
                if not g[f]:
                    st[2] += bool(out[f])
                    continue
                st[1] += 1
                if f == "title":
                    ok = norm_title(out[f]) == norm_title(g[f])
                elif f == "author":
                    ok = bool(out[f]) and name_words(out[f]) == name_words(g[f])
                else:
                    ok = bool(out[f]) and day(out[f]) == day(g[f])
                st[0] += ok
                if not ok and name == "fastx" and a.failures == f:
                    print(f"{pid} {gold.get('url')}\n   gold {g[f]!r}\n   got  {out[f]!r} ({src.get(f)})")
    res = {"split": a.split, "pages": npages}
    print(f"wcxb-dev {a.split}: {npages} pages")
    print(f"{'extractor':12} {'title':>16} {'author':>16} {'date':>16}   spurious t/a/d   s/page")
    for name in extractors:
        row = []
        for f in fields:
            c, n, sp = stats[name][f]
            row.append(f"{c / max(n, 1):.3f} ({c}/{n})")
            res.setdefault(name, {})[f] = {"accuracy": c / max(n, 1), "correct": c, "gold": n,
                                            "spurious": sp, "gold_none": npages - n}
        sp = "/".join(str(stats[name][f][2]) for f in fields)
        print(f"{name:12} {row[0]:>16} {row[1]:>16} {row[2]:>16}   {sp:>14}   {secs[name] / max(npages, 1) * 1e3:.1f} ms")
    print("spurious: pages whose gold has no value but the extractor returns one "
          f"(gold without title/author/date: {', '.join(str(npages - stats['fastx'][f][1]) for f in fields)})")
    if a.json:
        Path(a.json).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
