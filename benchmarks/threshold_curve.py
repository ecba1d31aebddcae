#!/usr/bin/env python3
"""Precision and recall of method ``default`` at several ``threshold`` values, on held-out pages.

The figures behind docs/precision-recall.md.  Pages: the validation split of
each corpus (benchmarks/validate.py's ``split``: wcxb-dev one domain in five,
the others their first ceil(20%); never trained on).  Each page is parsed
once and extracted at every threshold; scoring is compare.py's (4-token
shingles, precision and recall averaged over pages, F1 of the averages) and,
on wcxb-dev, its mean per-page word F1.

    python benchmarks/threshold_curve.py                                  # wcxb-dev and dragnet
    python benchmarks/threshold_curve.py --datasets wcxb-dev --thresholds 0.3,0.5,0.7 --json out.json
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:          # this checkout's fastx, installed or not
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from validate import load_compare, split  # noqa: E402

THRESHOLDS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, None)  # None: the model's own (per page type)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", default="wcxb-dev,dragnet")
    ap.add_argument("--thresholds", help="comma-separated probabilities ('model': the model's own)")
    ap.add_argument("--limit", type=int, help="first N validation pages of each corpus")
    ap.add_argument("--json", help="write the figures to this file")
    a = ap.parse_args(argv)
    import fastx
    from fastx.methods.default import shipped
    thresholds = THRESHOLDS if not a.thresholds else tuple(
        None if t.strip() == "model" else float(t) for t in a.thresholds.split(","))
    model = shipped()
    cmp = load_compare()
    tt = getattr(model, "type_thresholds", None)
    out = {"model_threshold": model.threshold, "page_threshold": model.page_threshold,
           "type_thresholds": None if tt is None else tt.tolist(), "datasets": {}}
    for name in a.datasets.split(","):
        val = split(list(cmp.CORPORA[name]()))[0][: a.limit or None]
        rows = {t: [] for t in thresholds}
        words = {t: [] for t in thresholds}
        for _, html, meta in val:
            try:
                doc = fastx.parse(html, url=meta.get("url"))
            except fastx.FastxError:
                doc = None
            for t in thresholds:
                text = fastx.extract(doc, method="default", threshold=t).text if doc is not None else ""
                rows[t].append(cmp.shingle_counts(meta["text"], text))
                if "type" in meta:
                    words[t].append(cmp.word_f1(text, meta["text"])[2])
        res = {}
        print(f"{name}: {len(val)} validation pages")
        print(f"  {'threshold':>10} {'precision':>9} {'recall':>7} {'F1':>6}" + ("  word F1" if words[thresholds[0]] else ""))
        for t in thresholds:
            m = cmp.summarize_text(rows[t])
            if words[t]:
                m["word_f1"] = statistics.mean(words[t])
            key = f"{t:.2f}" if t is not None else (
                "model" if getattr(model, "type_thresholds", None) is not None else f"{model.threshold:.2f} (model)")
            res[key] = m
            print(f"  {key:>10} {m['precision']:9.3f} {m['recall']:7.3f} {m['f1']:6.3f}"
                  + (f"  {m['word_f1']:7.3f}" if "word_f1" in m else ""), flush=True)
        out["datasets"][name] = {"pages": len(val), "thresholds": res}
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
