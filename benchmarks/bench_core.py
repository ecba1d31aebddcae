"""Speed targets of the core (issue: parse + Doc + CECTD-DS <= 1.6x selectolax parse-only).

Run: python -m pytest benchmarks/bench_core.py

Ratios are measured in one run, interleaved page by page, on real dragnet
pages: the median per-page time of each stage over that of
``LexborHTMLParser(html)`` alone.
"""
from selectolax.lexbor import LexborHTMLParser

import fastx

from conftest import check_ratio

MAX_CETD_RATIO = 1.6


def parse_only(html):
    LexborHTMLParser(html)


def cetd(html):
    fastx.extract(html, method="cetd")


def test_parse_doc_cetd_vs_parse_only(benchmark, pages):
    check_ratio(benchmark, "CECTD-DS", cetd, parse_only, pages, MAX_CETD_RATIO)


def test_doc_build_alone(benchmark, pages):
    parsers = [LexborHTMLParser(h) for h in pages[:100]]
    benchmark(lambda: [fastx._core.build_doc(p) for p in parsers])
