#!/usr/bin/env python3
"""What wcxb-dev's gold allows: the best word F1 any of several extractors reaches, page by page.

WCXB's score of an extractor is the mean over pages of the bag-of-words F1 of its text against the
gold main content (compare.py's ``word_f1``).  This script scores every installed extractor on
each page of wcxb-dev's validation split (benchmarks/validate.py's ``split``: one registrable
domain in five, never trained on) and reports, overall and per page type:

- each extractor's mean word F1;
- the **oracle**: the mean over pages of the best F1 among the extractors on that page.  No
  extractor that behaves like one of them on each page can score more; a figure above it asks
  for pages on which every extractor fails to be read right;
- ``default`` given the gold page type (its page-type probabilities replaced by the gold type,
  through ``default``'s `page_types` hook): what a perfect page-type model would add;
- the pages on which every extractor scores below ``--floor`` (default 0.5), with their share of
  ``default``'s loss (1 - F1 summed over pages), and the pages whose gold is empty.

    python benchmarks/ceiling.py                              # every installed peer
    python benchmarks/ceiling.py --extractors fastx:default,trafilatura --json out.json
    python benchmarks/ceiling.py --split train                # the training pages (in sample)

Each page is scored, not timed; the peers are compare.py's (``../shared/tools/compare.py``).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:          # this checkout's fastx, installed or not
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from validate import load_compare, peer_table, split  # noqa: E402

PEERS = ("trafilatura", "rs-trafilatura", "resiliparse", "readability", "justext", "boilerpy3")
EXTRACTORS = ("fastx:default", "fastx:cetd") + PEERS
GOLD_TYPE = "default, gold page type"


def installed(cmp, names):
    """The extractors of `names` that can run here: fastx's always, a peer when its package
    imports (compare.py's table calls it lazily, so a missing one fails on its first page;
    validate.peer_table adds rs-trafilatura)."""
    table = peer_table(cmp, cmp.extractors())
    out = {}
    for name in names:
        if name.startswith("fastx"):
            out[name] = cmp.fastx_extractor(name)
        elif name in table:
            try:
                table[name](b"<html><body><p>probe</p></body></html>", {"url": None})
            except ImportError:
                print(f"ceiling.py: {name} is not installed, left out", file=sys.stderr)
                continue
            except Exception:         # installed; a failure on a page scores 0 there (score)
                pass
            out[name] = table[name]
        else:
            raise SystemExit(f"ceiling.py: unknown extractor {name!r}")
    return out


def gold_type_text(html: bytes, meta: dict) -> str:
    """`default`'s text with its page-type probabilities replaced by the gold type (one-hot)."""
    import fastx
    from fastx.methods.default.page_type import PAGE_TYPES
    onehot = np.zeros(len(PAGE_TYPES), dtype=np.float32)
    onehot[PAGE_TYPES.index(meta["type"])] = 1.0
    return fastx.extract(html, url=meta.get("url"), page_types=lambda d, row: onehot).text


def score(cmp, pages, extractors: dict, gold_type: bool) -> list[dict]:
    """Per page: id, url, gold type, gold words, and each extractor's word F1 (an extractor that
    raises scores 0 on that page, as compare.py scores a failure)."""
    rows = []
    for pid, html, meta in pages:
        row = {"id": pid, "url": meta.get("url"), "type": meta["type"],
               "gold_words": len(cmp.WORD.findall(meta["text"].lower())), "f1": {}}
        for name, fn in extractors.items():
            try:
                text = fn(html, meta)
            except Exception as exc:        # a peer's crash on one page is its score there
                print(f"ceiling.py: {name} failed on {pid}: {exc!r}", file=sys.stderr)
                text = ""
            row["f1"][name] = cmp.word_f1(text, meta["text"])[2]
        if gold_type:
            row["f1"][GOLD_TYPE] = cmp.word_f1(gold_type_text(html, meta), meta["text"])[2]
        rows.append(row)
    return rows


def summarize(rows: list[dict], names: list[str], floor: float, base: str) -> dict:
    """Mean F1 per extractor and the oracle (best of `names` per page), overall and per type;
    the pages all of `names` score below `floor` and their share of `base`'s loss."""
    groups = defaultdict(list)
    for r in rows:
        groups["all"].append(r)
        groups[r["type"]].append(r)
    out = {}
    for g, rs in groups.items():
        out[g] = {"pages": len(rs), "oracle": statistics.mean(max(r["f1"][n] for n in names) for r in rs)}
        for name in rs[0]["f1"]:
            out[g][name] = statistics.mean(r["f1"][name] for r in rs)
    hard = [r for r in rows if max(r["f1"][n] for n in names) < floor]
    loss = sum(1 - r["f1"][base] for r in rows)
    out["hard"] = {"floor": floor, "pages": [r["id"] for r in hard],
                   "share_of_loss": (sum(1 - r["f1"][base] for r in hard) / loss) if loss else 0.0,
                   "empty_gold": [r["id"] for r in rows if r["gold_words"] == 0]}
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--extractors", default=",".join(EXTRACTORS),
                    help="comma-separated; peers not installed are left out (default: %(default)s)")
    ap.add_argument("--split", choices=("validation", "train"), default="validation")
    ap.add_argument("--floor", type=float, default=0.5,
                    help="list the pages every extractor scores below this (default 0.5)")
    ap.add_argument("--no-gold-type", action="store_true", help="skip `default` with the gold page type")
    ap.add_argument("--json", help="write the summary and the per-page scores to this file")
    a = ap.parse_args(argv)
    cmp = load_compare()
    val, train = split(list(cmp.wcxb()))
    pages = val if a.split == "validation" else train
    extractors = installed(cmp, a.extractors.split(","))
    names = list(extractors)
    base = "fastx:default" if "fastx:default" in names else names[0]
    rows = score(cmp, pages, extractors, gold_type=not a.no_gold_type)
    summary = summarize(rows, names, a.floor, base)

    cols = names + ([] if a.no_gold_type else [GOLD_TYPE]) + ["oracle"]
    print(f"wcxb-dev {a.split}: {len(rows)} pages; mean word F1, the oracle the best of "
          f"{len(names)} extractors on each page")
    print(f"{'type':<15}{'pages':>6}" + "".join(f"{c[:14]:>15}" for c in cols))
    for g in ["all"] + sorted(k for k in summary if k not in ("all", "hard")):
        s = summary[g]
        print(f"{g:<15}{s['pages']:>6}" + "".join(f"{s[c]:>15.4f}" for c in cols))
    h = summary["hard"]
    print(f"\npages every extractor scores below {a.floor}: {len(h['pages'])} "
          f"({h['share_of_loss']:.0%} of {base}'s loss): {' '.join(h['pages'])}")
    print(f"pages with empty gold: {len(h['empty_gold'])}: {' '.join(h['empty_gold'])}")
    if a.json:
        Path(a.json).write_text(json.dumps({"summary": summary, "pages": rows}, indent=1))
    return summary


if __name__ == "__main__":
    main()
