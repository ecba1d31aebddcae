"""Speed targets of the core (issue: parse + Doc + CECTD-DS <= 1.6x selectolax parse-only).

Run: python -m pytest benchmarks/bench_core.py

Ratios are measured in one run, interleaved page by page, on real dragnet
pages: the median per-page time of each stage over that of
``LexborHTMLParser(html)`` alone.
"""
from selectolax.lexbor import LexborHTMLParser

import fastx

from conftest import median_ratio

MAX_CETD_RATIO = 1.6


def parse_only(html):
    LexborHTMLParser(html)


def cetd(html):
    fastx.extract(html, method="cetd")


def test_parse_doc_cetd_vs_parse_only(benchmark, pages):
    ratio, ours, base = median_ratio(cetd, parse_only, pages)
    benchmark.extra_info.update(ratio=ratio, cetd_ms=ours * 1e3, parse_only_ms=base * 1e3)
    benchmark.pedantic(lambda: [cetd(h) for h in pages[:50]], rounds=3)
    print(f"\nCECTD-DS median {ours * 1e3:.3f} ms/page, parse-only {base * 1e3:.3f} ms/page, ratio {ratio:.2f}")
    assert ratio <= MAX_CETD_RATIO


def test_doc_build_alone(benchmark, pages):
    parsers = [LexborHTMLParser(h) for h in pages[:100]]
    benchmark(lambda: [fastx._core.build_doc(p) for p in parsers])
