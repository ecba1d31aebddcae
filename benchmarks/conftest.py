"""Shared helpers for the speed suites: real pages and same-run ratios to parse-only."""
import statistics
import time
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def load_compare():
    """The shared compare.py module (corpus loaders and scoring), or None when ../shared is absent."""
    import importlib.util
    path = SHARED / "tools" / "compare.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("fastx_bench_compare", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def save_check_parser(doc: str, what: str):
    """The command line of a before/after script (doc_identity.py, metadata_identity.py): one of
    --save FILE (record this build's `what`) or --check FILE (compare this build with it), and
    --limit N (pages per corpus)."""
    import argparse
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--save", help=f"record this build's {what} into this file")
    g.add_argument("--check", help=f"compare this build with the {what} recorded in this file")
    ap.add_argument("--limit", type=int, default=None, help="pages per corpus")
    return ap


def corpus_pages(name, limit=None):
    """(id, html bytes, meta) of a dev corpus through compare.py's loaders, or None without ../shared."""
    cmp = load_compare()
    return None if cmp is None else list(cmp.CORPORA[name]())[:limit]


def spread_pages(name, n=200):
    """(html bytes, url) of `n` pages of a dev corpus spread over it (every k-th, in the loader's
    order), or None without ../shared: the pages the interleaved speed checks time."""
    docs = corpus_pages(name)
    if docs is None:
        return None
    return [(html, meta.get("url")) for _, html, meta in docs[::max(1, len(docs) // n)]][:n]


def dragnet_pages(limit=300):
    """Real dragnet pages (bytes) from ../shared, or the shipped bench corpus when absent."""
    pages = corpus_pages("dragnet", limit)
    if pages is not None:
        return [html for _, html, _ in pages]
    from fastx.bench import load_corpus
    return [p.html for p in load_corpus().pages]


def median_ratio(fn, baseline, pages, rounds=5):
    """Median over pages of fn's per-page time, over baseline's, both measured
    interleaved in this run (each page's time = its fastest of `rounds`)."""
    a, b = [], []
    for html in pages:          # interleave so both see the same machine state
        a.extend(per_page_one(fn, html, rounds))
        b.extend(per_page_one(baseline, html, rounds))
    return statistics.median(a) / statistics.median(b), statistics.median(a), statistics.median(b)


def check_ratio(benchmark, name, fn, baseline, pages, target):
    """The speed-target test every suite runs: fn's median per-page time over the
    baseline's (median_ratio), recorded in the benchmark report and printed;
    pytest-benchmark also times fn over the first 50 pages.  Returns the ratio."""
    ratio, ours, base = median_ratio(fn, baseline, pages)
    benchmark.extra_info.update(ratio=ratio, ms=ours * 1e3, parse_only_ms=base * 1e3)
    benchmark.pedantic(lambda: [fn(h) for h in pages[:50]], rounds=3)
    print(f"\n{name} median {ours * 1e3:.3f} ms/page, parse-only {base * 1e3:.3f} ms/page, ratio {ratio:.2f}")
    assert ratio <= target
    return ratio


def interleaved_times(pages, fns, rounds=3, seed=20240601):
    """Each function's time on each page of `pages` ((html, url) pairs; fns: name -> f(html,
    url)), every function run on a page (its fastest of `rounds` calls) before the next page,
    in a seeded shuffled order per page: {name: [seconds per page]}."""
    import random
    rng = random.Random(seed)
    times = {k: [] for k in fns}
    order = list(fns)
    for html, url in pages:
        rng.shuffle(order)
        for k in order:
            best = float("inf")
            for _ in range(rounds):
                t0 = time.perf_counter()
                fns[k](html, url)
                best = min(best, time.perf_counter() - t0)
            times[k].append(best)
    return times


def per_page_one(f, html, rounds):
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        f(html)
        best = min(best, time.perf_counter() - t)
    return [best]


@pytest.fixture(scope="session")
def pages():
    return dragnet_pages()
