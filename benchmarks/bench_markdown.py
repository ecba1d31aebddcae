"""Speed of the Markdown serializer (`Extraction.markdown`, _markdown.pxi; issue 14: Markdown
output adds at most 0.2x selectolax's parse of the page).

Run: python -m pytest benchmarks/bench_markdown.py     (the speed target)
     python benchmarks/bench_markdown.py --corpus wcxb-dev --limit 300   (figures only)

The page is parsed and the method's keep mask computed beforehand; what is
timed is what `Extraction.markdown` adds: the base URL (`markdown_base`) and
`render_markdown(doc, keep)`, against `LexborHTMLParser(html)` on the same
page, interleaved page by page in one run (conftest.median_ratio: each page's
time is its fastest of 5, the ratio is of the medians over pages).
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from selectolax.lexbor import LexborHTMLParser  # noqa: E402

from fastx import _core  # noqa: E402

from bench_html import prepared  # noqa: E402
from conftest import corpus_pages, dragnet_pages, median_ratio  # noqa: E402

#: Markdown of the kept nodes costs at most this share of selectolax's parse of the page
MAX_MARKDOWN_RATIO = 0.2


def ratio_of(items, rounds=5):
    """(ratio, markdown s, parse-only s): medians over pages, measured interleaved."""
    by_page = {html: (doc, keep) for html, doc, keep in items}

    def markdown(html):
        doc, keep = by_page[html]
        _core.render_markdown(doc, keep, base=_core.markdown_base(doc, doc.url))
    return median_ratio(markdown, LexborHTMLParser, list(by_page), rounds)


def test_markdown_vs_parse_only():
    items = prepared(dragnet_pages(300))
    ratio, ours, base = ratio_of(items)
    print(f"\nmarkdown median {ours * 1e3:.3f} ms/page, parse-only {base * 1e3:.3f} ms/page, ratio {ratio:.3f}")
    assert ratio <= MAX_MARKDOWN_RATIO


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="dragnet", help="a compare.py corpus name (default dragnet)")
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--method", default="default", help="the method whose keep mask is written ('all': every node)")
    args = ap.parse_args(argv)
    pages = corpus_pages(args.corpus, args.limit)
    pages = dragnet_pages(args.limit) if pages is None else [html for _, html, _ in pages]
    ratio, ours, base = ratio_of(prepared(pages, args.method), args.rounds)
    print(f"{args.corpus}, {args.method}: {len(pages)} pages; markdown median {ours * 1e3:.3f} ms/page, "
          f"parse-only median {base * 1e3:.3f} ms/page, ratio of medians {ratio:.3f}")


if __name__ == "__main__":
    main()
