"""The training run of the profile-guided build (setup.py; ``FASTX_PGO``).

GCC builds the compiled core twice: once instrumented (``-fprofile-generate``), then, after this
run has recorded which branches the kernels take and how often each function runs, again with
that profile (``-fprofile-use``), which lays out the hot paths, inlines and unrolls where the
calls are frequent. The run is what users run: `default` on the bench corpus shipped in the
package (``fastx/data/bench.tar.xz``: 60 pages, ten from each development corpus, modern pages of
seven types among them), with every output a pipeline asks for (text, Markdown, HTML, the
metadata), and each other method once per page so that its kernels are profiled too.

    python -m fastx.tools.pgo          # what setup.py runs against the instrumented build

Measured on a 2-core x86-64 machine (``benchmarks/ab_builds.py``, both ways): `default` about 2%
faster on dragnet pages, extraction with metadata about 3% faster on wcxb-dev pages.
"""
from __future__ import annotations

import sys

# the methods profiled besides `default` (those that run on a page alone: `layout` needs a
# reference page, `site` a learned model)
OTHER_METHODS = ("cetd", "cetd-td", "cetd-s", "vsse", "vsse-agg", "bayes")


def main(rounds: int = 2) -> int:
    """Run the workload `rounds` times over the shipped bench corpus; returns the page count."""
    import fastx
    from .bench import load_corpus

    pages = load_corpus().pages
    for _ in range(rounds):
        for page in pages:
            result = fastx.extract(page.html, url=page.url)
            result.text
            result.markdown
            result.html
            result.metadata.as_flat()
    for page in pages:
        for method in OTHER_METHODS:
            fastx.extract(page.html, url=page.url, method=method).text
    return len(pages)


if __name__ == "__main__":
    print(f"fastx profile run: {main()} pages", file=sys.stderr)
