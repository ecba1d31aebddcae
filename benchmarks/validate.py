#!/usr/bin/env python3
"""Accuracy and speed on the validation split, in one run of compare.py's ``measure()``.

The validation split (never trained on, see docs/architecture.md): within each
dev corpus, in compare.py's loader order (sorted ids), the first ceil(20%)
pages.  This script imports ``../shared/tools/compare.py``, narrows each
corpus loader to exactly those pages and runs ``measure()`` on them for every
extractor, in one process.  Besides compare.py's figures (F1, precision,
recall, mean ms/page) it records each page's wall time (the fastest of --repeat calls, 5 by
default, for every extractor alike: one call per page varies by a third
between runs on this machine) and prints the median ms/page, the speed
figure the targets are stated in.

    python benchmarks/validate.py                       # the full table
    python benchmarks/validate.py --extractors fastx:default,trafilatura --datasets dragnet
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
if str(ROOT) not in sys.path:          # measure this checkout's fastx, installed or not
    sys.path.insert(0, str(ROOT))
CORPORA = ("cleaneval-dev", "cpe", "l3s", "readability", "dragnet", "wcxb-dev")
EXTRACTORS = ("fastx:default", "fastx:bayes", "fastx:bayes-table", "fastx:cetd", "trafilatura",
              "resiliparse", "parse-only")
VALIDATION_SHARE = 0.2


def load_compare():
    """compare.py as a module (it is a script, not a package)."""
    path = SHARED / "tools" / "compare.py"
    if not path.exists():
        sys.exit(f"validate.py: {path} not found; the dev corpora and tools live in ../shared")
    spec = importlib.util.spec_from_file_location("fastx_compare", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def peer_table(cmp, table: dict) -> dict:
    """`table` (compare.py's peer extractors, ``cmp.extractors()``: name -> fn(html, meta) -> text)
    with ``rs-trafilatura`` added: the Rust port of trafilatura, page-type-aware (WCXB's strongest
    published baseline), through its Python bindings ``trafipy`` (``pip install trafipy``: one
    wheel, CPython 3.12+ on Linux x86-64, so it runs where fastx is built for such a Python).
    trafipy takes text: the page's bytes are decoded as compare.py decodes them for the other
    str-based peers (readability, boilerpy3).  Like compare.py's peers, it is imported on its
    first call (ImportError when not installed)."""

    def rs_trafilatura(html, meta):
        import trafipy
        return trafipy.extract(cmp.decode(html), url=meta.get("url")).text or ""
    table.setdefault("rs-trafilatura", rs_trafilatura)
    return table


def n_validation(n_pages: int) -> int:
    """Size of the validation split of a corpus of `n_pages` pages: ceil(20%)."""
    return math.ceil(VALIDATION_SHARE * n_pages)


_SECOND_LEVEL = frozenset(("co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go"))


def domain(url: str | None) -> str:
    """The registrable domain of `url` (last two host labels; three under a two-letter country
    code's generic second level such as co.uk or com.au): the unit of wcxb-dev's split."""
    host = (urlsplit(url or "").hostname or "").lower().rstrip(".")
    labels = host.split(".")
    keep = 3 if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL else 2
    return ".".join(labels[-keep:])


def in_domain_validation(url: str | None) -> bool:
    """wcxb-dev's validation split: one domain in five, by a hash of the domain (no domain on
    both sides of the split)."""
    return int(hashlib.md5(domain(url).encode()).hexdigest(), 16) % 5 == 0


def split(docs: list) -> tuple[list, list]:
    """(validation, training) of a corpus's pages in loader order: the first ceil(20%) pages, or,
    for pages that carry a page type (wcxb-dev: modern pages of many sites), one domain in five."""
    if docs and "type" in docs[0][2]:
        val = [d for d in docs if in_domain_validation(d[2].get("url"))]
        return val, [d for d in docs if not in_domain_validation(d[2].get("url"))]
    k = n_validation(len(docs))
    return docs[:k], docs[k:]


def _timed(fn, sink: list, repeat: int = 1):
    """fn, recording per call the fastest of `repeat` runs (the same output each time)."""
    def run(html, meta):
        best = float("inf")
        try:
            for _ in range(repeat):
                t0 = time.perf_counter()
                out = fn(html, meta)
                best = min(best, time.perf_counter() - t0)
            return out
        finally:
            sink.append(best)
    return run


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default=",".join(CORPORA))
    ap.add_argument("--extractors", default=",".join(EXTRACTORS))
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--repeat", type=int, default=5,
                    help="time each page as the fastest of N calls, every extractor alike (default 5; "
                         "compare.py's own ms/doc column then sums all N); 1 = compare.py's single call")
    ap.add_argument("--interleave", action="store_true",
                    help="page by page: every extractor on a page (seeded shuffled order) before the next "
                         "page, so that the machine's slow spells fall on all extractors alike; F1 scored "
                         "as compare.py scores it (default: compare.py's measure(), one extractor at a time)")
    ap.add_argument("--runs", type=int, default=1,
                    help="repeat the whole run N times (a noisy machine moves one run's speed ratios by a "
                         "third): the first run's full table, then each run's pooled ratios and their median")
    a = ap.parse_args(argv)
    if a.runs < 1 or a.repeat < 1:
        ap.error("--runs and --repeat must be at least 1")
    cmp = load_compare()
    names = a.extractors.split(",")
    datasets = a.datasets.split(",")

    # narrow every corpus loader to its validation pages
    loaders = dict(cmp.CORPORA)
    for name in datasets:
        cmp.CORPORA[name] = (lambda load: (lambda: split(list(load()))[0]))(loaders[name])

    # per-call wall times, for medians: wrap the extractor factories compare.py uses
    times: dict[str, list[float]] = {}
    base_extractors, base_fastx = cmp.extractors, cmp.fastx_extractor

    def base_table():
        return peer_table(cmp, base_extractors())

    def extractors():
        return {k: _timed(fn, times.setdefault(k, []), a.repeat) for k, fn in base_table().items()}

    def fastx_extractor(spec):
        return _timed(base_fastx(spec), times.setdefault(spec, []), a.repeat)
    cmp.extractors, cmp.fastx_extractor = extractors, fastx_extractor

    if a.interleave:
        def make(name):
            return base_fastx(name) if name.startswith("fastx") else base_table()[name]
        runs = [_run_interleaved(cmp, datasets, names, make, a.repeat) for _ in range(a.runs)]
    else:
        runs = [_run(cmp, datasets, names, times) for _ in range(a.runs)]
    out = runs[0]
    _print_table(out, datasets, names)
    if a.runs > 1 and "parse-only" in names:
        ratios = {name: [r["all"][name]["median_ms"] / r["all"]["parse-only"]["median_ms"] for r in runs]
                  for name in names}
        print()
        print(f"x parse-only (pooled medians) in each of {a.runs} runs, and their median")
        for name in names:
            print(f"{name:<20}" + "".join(f"{v:7.2f}" for v in ratios[name])
                  + f"   median {statistics.median(ratios[name]):.2f}")
        out["runs"] = ratios
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))
    return out


def _run_interleaved(cmp, datasets, names, make, repeat: int) -> dict:
    """One run over the validation pages, page by page (see --interleave)."""
    fns = {name: make(name) for name in names}
    rng = random.Random(20240601)
    out = {}
    pooled: dict[str, list[float]] = {name: [] for name in names}
    for d in datasets:
        docs = list(cmp.CORPORA[d]())
        for name in names:                      # warm-up, as compare.py does
            try:
                fns[name](docs[0][1], docs[0][2])
            except Exception:
                pass
        rows = {name: [] for name in names}
        words = {name: [] for name in names}        # (page type, WCXB word F1) where pages have a type
        times = {name: [] for name in names}
        errors = dict.fromkeys(names, 0)
        empty = dict.fromkeys(names, 0)         # pages with no output although the gold has text
        order = list(names)
        for _, html, meta in docs:
            rng.shuffle(order)
            for name in order:
                best, text = float("inf"), ""
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    try:
                        text = fns[name](html, meta) or ""
                    except Exception:
                        text = ""
                        errors[name] += 1
                    best = min(best, time.perf_counter() - t0)
                times[name].append(best)
                empty[name] += not text.strip() and bool(meta["text"].strip())
                rows[name].append(cmp.shingle_counts(meta["text"], text))
                if "type" in meta:
                    words[name].append((meta["type"], cmp.word_f1(text, meta["text"])[2]))
        res = {}
        for name in names:
            res[name] = cmp.summarize_text(rows[name])
            res[name].update(_word_f1(words[name]))
            res[name].update(docs=len(docs), errors=errors[name] // repeat, empty=empty[name],
                             median_ms=1000 * statistics.median(times[name]))
            pooled[name].extend(times[name])
        out[d] = res
    out["all"] = {name: {"median_ms": 1000 * statistics.median(t) if t else float("nan"), "pages": len(t)}
                  for name, t in pooled.items()}
    return out


def _word_f1(rows) -> dict:
    """compare.py's WCXB figures from (page type, word F1) rows: the mean, overall and per type."""
    if not rows:
        return {}
    out = {"word_f1": statistics.mean(f for _, f in rows)}
    for kind in sorted({k for k, _ in rows}):
        out[f"word_f1.{kind}"] = statistics.mean(f for k, f in rows if k == kind)
    return out


def _run(cmp, datasets, names, times) -> dict:
    """One run of compare.py's measure() over the validation pages of every corpus."""
    out = {}
    pooled: dict[str, list[float]] = {name: [] for name in names}
    for d in datasets:
        times.clear()
        res = cmp.measure(d, names, None, False)
        for name in names:
            # the first call is compare.py's warm-up: not part of the figures
            t = times.get(name, [])[1:]
            pooled[name].extend(t)
            res[name]["median_ms"] = 1000 * statistics.median(t) if t else float("nan")
        out[d] = res
    out["all"] = {name: {"median_ms": 1000 * statistics.median(t) if t else float("nan"), "pages": len(t)}
                  for name, t in pooled.items()}
    return out


def _print_table(out, datasets, names) -> None:
    print()
    print("validation split (first ceil(20%) of each corpus, sorted ids); F1 per corpus")
    print(f"{'extractor':<20}" + "".join(f"{d[:12]:>13}" for d in datasets) + f"{'mean':>9}"
          + f"{'median ms':>11}{'x parse':>9}")
    parse_med = out["all"]["parse-only"]["median_ms"] if "parse-only" in names else float("nan")
    for name in names:
        f1 = [out[d][name]["f1"] for d in datasets]
        med = out["all"][name]["median_ms"]
        print(f"{name:<20}" + "".join(f"{v:13.4f}" for v in f1) + f"{statistics.mean(f1):9.4f}"
              + f"{med:11.3f}{med / parse_med:9.2f}")
    print("(median ms and x parse: over all validation pages pooled)")
    if all("empty" in out[d][names[0]] for d in datasets):
        print()
        print("pages with empty output where the gold has text")
        for name in names:
            print(f"{name:<20}" + "".join(f"{out[d][name]['empty']:13d}" for d in datasets))
    for d in datasets:
        keys = [k for k in out[d][names[0]] if k.startswith("word_f1")]
        if keys:
            print()
            print(f"{d}: WCXB word F1 (mean per page), overall and per page type")
            print(f"{'extractor':<20}" + "".join(f"{k.replace('word_f1.', '')[:12]:>13}" for k in keys))
            for name in names:
                print(f"{name:<20}" + "".join(f"{out[d][name].get(k, float('nan')):13.4f}" for k in keys))
    print()
    print("median ms/page per corpus")
    for name in names:
        print(f"{name:<20}" + "".join(f"{out[d][name]['median_ms']:13.3f}" for d in datasets))
    if "parse-only" in names:
        print("ratio to parse-only (per corpus)")
        for name in names:
            print(f"{name:<20}" + "".join(
                f"{out[d][name]['median_ms'] / out[d]['parse-only']['median_ms']:13.2f}" for d in datasets))


if __name__ == "__main__":
    main()
