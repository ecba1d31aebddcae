"""The guarded parse against lexbor's own on every dev page (issue 15): Doc text unchanged or better.

    PYTHONPATH=. python benchmarks/guard_text_check.py

For every page of every corpus compare.py loads (../shared/datasets): the Doc
built from `_core.parse_guarded` (the hostile-input guard, the <noscript> repair)
and from selectolax's unguarded `LexborHTMLParser`.  Counts pages whose Doc text
is identical, pages where the guard hit a budget, pages where a <noscript> was
repaired, and pages with more text (words recovered) or less (words lost, with
their ids).  Exit status 1 if any page lost text.
"""
from __future__ import annotations

import sys
from collections import Counter

from conftest import load_compare  # benchmarks/: the one compare.py loader


def main() -> int:
    from selectolax.lexbor import LexborHTMLParser

    from fastx import _core
    from fastx.decode import decode
    compare = load_compare()
    if compare is None:
        print("../shared is not beside the repo", file=sys.stderr)
        return 2
    tot: Counter = Counter()
    lost_pages = []
    for corpus in compare.CORPORA:
        for pid, html, _ in compare.CORPORA[corpus]():
            data = decode(html)[0].encode("utf-8", "surrogatepass")
            parser, st = _core.parse_guarded(data, stats="dict")
            a, b = _core.build_doc(parser), _core.build_doc(LexborHTMLParser(data))
            tot["pages"] += 1
            tot["budget hit"] += bool(st["flat"] or st["dropped_attrs"])
            tot["noscript repaired"] += bool(st["noscript_fixes"])
            if a.text_buf == b.text_buf:
                tot["identical text"] += 1
                continue
            wa, wb = Counter(a.text_buf.split()), Counter(b.text_buf.split())
            lost, gained = sum((wb - wa).values()), sum((wa - wb).values())
            if lost:
                tot["pages with less text"] += 1
                tot["words lost"] += lost
                lost_pages.append(f"{corpus}/{pid}")
            else:
                tot["pages with more text"] += 1
                tot["words recovered"] += gained
    for k in ("pages", "identical text", "pages with more text", "words recovered", "pages with less text",
              "words lost", "noscript repaired", "budget hit"):
        print(f"{k:>22s}: {tot[k]:,}")
    for p in lost_pages[:50]:
        print("  less text:", p)
    return 1 if lost_pages else 0


if __name__ == "__main__":
    sys.exit(main())
