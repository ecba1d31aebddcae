#!/usr/bin/env python3
"""Two builds of fastx side by side in one process: which is faster, page by page.

A change of a percent or two to a kernel is below what two runs of a benchmark can tell apart
(their ratios to parse-only move by 0.05-0.1 from run to run, as the machine's state does). Run
in one process, the two builds meet the same machine state: every page goes through selectolax's
parse, build A and build B (in a seeded shuffled order per page, each call the fastest of
`--rounds`), and the script prints each build's median ratio to the parse and the median over the
pages of A's time over B's.

The harness leans slightly towards one side (0.5-1.4% here, whichever build loads second or runs
after the other): run it both ways, A as the new build and then as the old, and read the two
per-page figures together (0.990 one way and 1/1.010 the other: 1% faster).

    git worktree add /tmp/old HEAD~1 && (cd /tmp/old && python setup.py build_ext --inplace)
    python benchmarks/ab_builds.py . /tmp/old --corpus dragnet
    python benchmarks/ab_builds.py /tmp/old . --corpus dragnet
    python benchmarks/ab_builds.py . /tmp/old --corpus wcxb-dev --metadata
    python benchmarks/ab_builds.py . /tmp/old --method cetd

Each directory is a checkout whose compiled core is built in place (``fastx/_core*.so``). The
corpora are compare.py's (``../shared`` beside the repository): 200 pages of the one named.
"""
from __future__ import annotations

import argparse
import atexit
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_builds(a: Path, b: Path):
    """The packages of checkouts `a` and `b`, imported as fxa and fxb (links to their fastx
    folders in a temporary directory). This checkout's fastx is imported first: a compiled core
    reads fastx.config when it loads."""
    sys.path.insert(0, str(ROOT))
    import fastx  # noqa: F401
    tmp = tempfile.mkdtemp(prefix="fastx-ab-")
    atexit.register(shutil.rmtree, tmp, True)
    for name, root in (("fxa", a), ("fxb", b)):
        pkg = root / "fastx"
        if not list(pkg.glob("_core*")):
            sys.exit(f"ab_builds.py: {pkg} has no compiled core (python setup.py build_ext --inplace)")
        os.symlink(pkg.resolve(), Path(tmp) / name)
    sys.path.insert(0, tmp)
    import fxa
    import fxb
    return fxa, fxb


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", type=Path, help="checkout of build A (the new one)")
    ap.add_argument("b", type=Path, help="checkout of build B (the old one)")
    ap.add_argument("--corpus", default="dragnet", help="a compare.py corpus (default dragnet)")
    ap.add_argument("--pages", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3, help="calls per page and function (the fastest counts)")
    ap.add_argument("--method", default="default", help="the extraction method (default: default)")
    ap.add_argument("--metadata", action="store_true", help="time extract with .metadata.as_flat()")
    args = ap.parse_args(argv)
    fxa, fxb = load_builds(args.a, args.b)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from conftest import interleaved_times, spread_pages
    from selectolax.lexbor import LexborHTMLParser
    pages = spread_pages(args.corpus, args.pages)
    if pages is None:
        sys.exit("ab_builds.py: ../shared is not beside the repository")

    def extraction(mod):
        def run(html, url):
            r = mod.extract(html, url=url, method=args.method)
            if args.metadata:
                r.metadata.as_flat()
        return run

    fns = {"parse": lambda html, url: LexborHTMLParser(html), "A": extraction(fxa), "B": extraction(fxb)}
    times = interleaved_times(pages, fns, rounds=args.rounds, seed=1)
    p = statistics.median(times["parse"])
    per_page = statistics.median(a / b for a, b in zip(times["A"], times["B"]))
    what = f"extract ({args.method})" + ("+metadata" if args.metadata else "")
    print(f"{args.corpus}, {len(pages)} pages, {what}: A {statistics.median(times['A']) / p:.3f}x parse-only, "
          f"B {statistics.median(times['B']) / p:.3f}x; A/B per page (median) {per_page:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
