"""Cleaned HTML keeps the kept text: the sanitizing serializer (_sanitize.pxi) against the
serializer it replaced, over the dev corpora.

Run: python benchmarks/html_text_check.py [--corpus all] [--method default] [--limit N]

`reference_html` below is the previous serializer (every kept node with its
original tag and attributes, the ancestors that hold them), written over the
Doc's Python API.  Per page, both outputs are compared by their text:

- "markup text": tags removed (`<...>`), entities decoded: the character data
  each serializer wrote, in order; compared exactly, and with runs of
  whitespace made one space ("words": the reference writes a space around
  preformatted text whose stored raw text already holds its whitespace);
- "reparsed text": both parsed again with selectolax, the text of the result.

Every page is also checked against the allow-list (`tests/test_sanitize.py`'s
`violations`) and for a `javascript:`-like URL.  Counts are printed per corpus.
"""
import argparse
import html as _html
import importlib.util
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from selectolax.lexbor import LexborHTMLParser  # noqa: E402

import fastx  # noqa: E402
from fastx import _core  # noqa: E402

from conftest import load_compare  # noqa: E402

_OLD_VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                       "source", "track", "wbr"))
_TAG = re.compile(r"<[^>]*>")


def reference_html(doc, keep):
    """The serializer _sanitize.pxi replaced: kept nodes with all their attributes."""
    n = doc.n
    parent, end, kind, flags = doc.parent, doc.end, doc.kind, doc.flags
    em = [0] * n
    for i in range(n - 1, -1, -1):
        if keep[i]:
            em[i] = 1
        if em[i] and parent[i] >= 0:
            em[parent[i]] = 1
    parts, stack = [], []
    for i in range(n):
        while stack and stack[-1][0] <= i:
            parts.append(stack.pop()[1])
        if not em[i]:
            continue
        if kind[i] == _core.KIND_TEXT:
            fl = int(flags[i])
            parts.append((" " if fl & _core.NODE_FLAGS["ws_before"] else "") + _html.escape(doc.text(i), quote=False)
                         + (" " if fl & _core.NODE_FLAGS["ws_after"] else ""))
            continue
        name = doc.tag_name(i)
        attrs = "".join(f' {k}="{_html.escape(v)}"' for k, v in doc.attributes(i).items())
        parts.append(f"<{name}{attrs}>")
        if name not in _OLD_VOID:
            stack.append((int(end[i]), f"</{name}>"))
    while stack:
        parts.append(stack.pop()[1])
    return "".join(parts)


def markup_text(h):
    return _html.unescape(_TAG.sub("", h))


def reparsed_text(h):
    tree = LexborHTMLParser(f"<html><body>{h}</body></html>")
    return " ".join(tree.body.text(separator=" ").split()) if tree.body is not None else ""


def load_violations():
    path = HERE.parent / "tests" / "test_sanitize.py"
    spec = importlib.util.spec_from_file_location("fastx_test_sanitize", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.violations


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="all", help="a compare.py corpus name, or all")
    ap.add_argument("--method", default="default")
    ap.add_argument("--limit", type=int, default=None, help="pages per corpus")
    ap.add_argument("--show", type=int, default=3, help="page ids shown per kind of difference")
    args = ap.parse_args(argv)
    cmp = load_compare()
    if cmp is None:
        sys.exit("../shared (dev corpora) not present")
    violations = load_violations()
    names = list(cmp.CORPORA) if args.corpus == "all" else [args.corpus]
    totals = [0] * 6
    for name in names:
        pages = same_markup = same_words = same_reparsed = unsafe = errors = 0
        shown = []
        for pid, page, _ in list(cmp.CORPORA[name]())[:args.limit]:
            try:
                r = fastx.extract(page, method=args.method)
            except fastx.FastxError:
                errors += 1
                continue
            pages += 1
            new, old = r.html, reference_html(r.doc, r.keep)
            mn, mo = markup_text(new), markup_text(old)
            a = mn == mo
            w = mn.split() == mo.split()
            b = reparsed_text(new) == reparsed_text(old)
            bad = violations(new)
            same_markup += a
            same_words += w
            same_reparsed += b
            unsafe += bool(bad)
            if (not w or not b or bad) and len(shown) < args.show:
                shown.append((pid, a, w, b, bad[:3]))
        print(f"{name}: {pages} pages ({errors} typed errors); same markup text {same_markup}, same words "
              f"{same_words}, same reparsed text {same_reparsed}, allow-list violations {unsafe}")
        for s in shown:
            print("   ", *s)
        for k, v in enumerate((pages, same_markup, same_words, same_reparsed, unsafe, errors)):
            totals[k] += v
    print(f"all: {totals[0]} pages; same markup text {totals[1]}, same words {totals[2]}, same reparsed text "
          f"{totals[3]}, allow-list violations {totals[4]}, typed errors {totals[5]}")


if __name__ == "__main__":
    main()
