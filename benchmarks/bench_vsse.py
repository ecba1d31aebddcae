"""Speed targets of VSSE (issue #4): ``vsse`` and ``records`` each at most 2x selectolax parse-only.

Run: python -m pytest benchmarks/bench_vsse.py
     PYTHONPATH=. python benchmarks/bench_vsse.py   # ratios + the SWDE booksamillion record scores

Ratios are measured in one run, interleaved page by page (conftest.median_ratio):
the median per-page time of the whole call, parse included
(``fastx.extract(html, method="vsse")``, ``fastx.records(html)``), over that of
``LexborHTMLParser(html)`` alone.  ``vsse`` runs on real dragnet pages, ``records``
on the SWDE booksamillion product pages (dragnet pages without ../shared).
"""
import sys
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser

import fastx

from conftest import check_ratio, corpus_pages, dragnet_pages, median_ratio

MAX_RATIO = 2.0


def parse_only(html):
    LexborHTMLParser(html)


def vsse(html):
    fastx.extract(html, method="vsse")


def records(html):
    fastx.records(html)


def swde_pages(limit=None):
    return corpus_pages("swde-book", limit)


def test_vsse_vs_parse_only(benchmark, pages):
    check_ratio(benchmark, "vsse", vsse, parse_only, pages, MAX_RATIO)


def test_records_vs_parse_only(benchmark, pages):
    swde = swde_pages(300)
    product_pages = [html for _, html, _ in swde] if swde else pages
    check_ratio(benchmark, "records", records, parse_only, product_pages, MAX_RATIO)


def main():
    pages = dragnet_pages()
    for name, fn, pg in (("vsse (dragnet)", vsse, pages),
                         ("records (swde)", records, [h for _, h, _ in (swde_pages(300) or [])] or pages)):
        ratio, ours, base = median_ratio(fn, parse_only, pg)
        print(f"{name:<16} median {ours * 1e3:.3f} ms/page  parse-only {base * 1e3:.3f} ms/page  ratio {ratio:.2f}")
    swde = swde_pages()
    if swde:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "methods" / "vsse"))
        from test_records import swde_scores
        print("SWDE booksamillion, all pages:", swde_scores(swde))


if __name__ == "__main__":
    main()
