"""Speed targets of the core (issue: parse + Doc + CECTD-DS <= 1.6x selectolax parse-only).

Run: python -m pytest benchmarks/bench_core.py

fastx.parse's own overhead (the non-HTML check, the UTF-8 check, the guarded
parse, the Doc build) as a ratio to selectolax's parse alone, interleaved page
by page (in random order per page, each the fastest of 5 process-CPU times) on
150 wcxb-dev and 150 dragnet pages:

    python benchmarks/bench_core.py parse [--seed 1] [--pages 300]

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


def parse_overhead(seed: int = 1, n: int = 300, rounds: int = 5) -> tuple[float, float]:
    """(median per-page ratio, total ratio) of fastx.parse to LexborHTMLParser, interleaved."""
    import glob
    import os
    import random
    import statistics
    import time
    home = os.path.expanduser("~/.cache/fastx-devsets")
    wcxb = sorted(glob.glob(f"{home}/wcxb-dev/wcxb-dev/html/*.html"))
    dragnet = sorted(glob.glob(f"{home}/dragnet_data/dragnet_data/input/*"))
    rnd = random.Random(seed)
    files = rnd.sample(wcxb, min(n // 2, len(wcxb))) + rnd.sample(dragnet, min(n // 2, len(dragnet)))
    pages = [open(f, "rb").read() for f in files]

    def best(f, page):
        t = 1e9
        for _ in range(rounds):
            a = time.process_time()
            f(page)
            t = min(t, time.process_time() - a)
        return t

    ours, base = [], []
    for page in pages:
        if rnd.random() < 0.5:
            base.append(best(LexborHTMLParser, page))
            ours.append(best(fastx.parse, page))
        else:
            ours.append(best(fastx.parse, page))
            base.append(best(LexborHTMLParser, page))
    return statistics.median(a / b for a, b in zip(ours, base)), sum(ours) / sum(base)


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["parse"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pages", type=int, default=300)
    a = ap.parse_args()
    med, tot = parse_overhead(a.seed, a.pages)
    print(f"fastx.parse / selectolax parse: median per page {med:.3f}, total {tot:.3f}")
