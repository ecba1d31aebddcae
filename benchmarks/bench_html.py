"""Speed of the cleaned-HTML serializer (`Extraction.html`, `Doc.render_html`, _sanitize.pxi).

Run: python -m pytest benchmarks/bench_html.py     (the speed target)
     python benchmarks/bench_html.py --corpus dragnet --limit 300   (figures only)

The page is parsed and the default method's keep mask computed beforehand;
what is timed is `doc.render_html(keep)` alone, against `LexborHTMLParser(html)`
on the same page, interleaved page by page in one run (conftest.median_ratio:
each page's time is its fastest of 5, the ratio is of the medians over pages).
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from selectolax.lexbor import LexborHTMLParser  # noqa: E402

import fastx  # noqa: E402

from conftest import corpus_pages, dragnet_pages  # noqa: E402

#: cleaned HTML of the kept nodes costs at most this share of selectolax's parse of the page
MAX_HTML_RATIO = 0.25


def prepared(pages, method="default"):
    """(html, doc, keep) per page, keep from `method` ("all": every node, the whole page)."""
    import numpy as np
    out = []
    for html in pages:
        if method == "all":
            doc = fastx.parse(html)
            out.append((html, doc, np.ones(doc.n, dtype=np.uint8)))
            continue
        r = fastx.extract(html, method=method)
        out.append((html, r.doc, r.keep))
    return out


def measure(items, rounds=5):
    """Median per-page render_html and parse-only seconds (each page's fastest of `rounds`,
    interleaved), their ratio, and the total render_html seconds."""
    ours, base = [], []
    for html, doc, keep in items:
        best_p = best_h = float("inf")
        for _ in range(rounds):
            t = time.perf_counter()
            LexborHTMLParser(html)
            best_p = min(best_p, time.perf_counter() - t)
            t = time.perf_counter()
            doc.render_html(keep)
            best_h = min(best_h, time.perf_counter() - t)
        ours.append(best_h)
        base.append(best_p)
    return statistics.median(ours) / statistics.median(base), statistics.median(ours), statistics.median(base), \
        sum(ours), sum(base)


def test_render_html_vs_parse_only():
    items = prepared(dragnet_pages(300))
    ratio, ours, base, _, _ = measure(items)
    print(f"\nrender_html median {ours * 1e3:.3f} ms/page, parse-only {base * 1e3:.3f} ms/page, "
          f"ratio {ratio:.3f}")
    assert ratio <= MAX_HTML_RATIO


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="dragnet", help="a compare.py corpus name (default dragnet)")
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--method", default="default", help="the method whose keep mask is serialized ('all': every node)")
    args = ap.parse_args(argv)
    pages = corpus_pages(args.corpus, args.limit)
    if pages is None:
        pages = dragnet_pages(args.limit)
    else:
        pages = [html for _, html, _ in pages]
    items = prepared(pages, args.method)
    ratio, ours, base, tot_h, tot_p = measure(items, args.rounds)
    print(f"{args.corpus}, {args.method}: {len(items)} pages; render_html median {ours * 1e3:.3f} ms/page, "
          f"parse-only median {base * 1e3:.3f} ms/page, ratio of medians {ratio:.3f}; "
          f"totals {tot_h:.3f} s / {tot_p:.3f} s = {tot_h / tot_p:.3f}")


if __name__ == "__main__":
    main()
