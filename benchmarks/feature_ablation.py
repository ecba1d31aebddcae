#!/usr/bin/env python3
"""Judge a change of the ``default`` method's unit features before a full retrain: held out first.

A full ``train.py`` run fits the ensemble six times (five folds for the thresholds and the
early-exit margins, then all pages) and moves the thresholds with every change, so two runs
differ by more than most feature changes do.  This script holds everything else still: one
LightGBM fit per variant on the training split of every corpus (``train.py``'s pages, weights and
parameters; the page-type columns from the same out-of-fold page-type model), the shipped
model's thresholds per page type (page thresholds 0: every page has main content), and reports

- the validation split: wcxb-dev's word F1 (WCXB's score) overall and per page type, and the
  shingle F1 of the other corpora;
- with ``--loco``: wcxb-dev held out (the model trained without any wcxb-dev page, scored on
  its validation split), the figure a change that learns the web and not these pages raises too.

A variant is a name and the feature columns it zeroes (a constant column is never split on, so
zeroing a column is training without it)::

    python benchmarks/feature_ablation.py --loco base= nocetd=cetd_rel,cetd_ratio
    python benchmarks/feature_ablation.py --loco base= nopos=pos_text,pos_node

To try a new feature, add it to the kernel, rebuild, and compare ``base=`` with ``without=NAME``.
The prepared pages are cached (``--cache``, default ``~/.cache/fastx-ablation.pkl``; delete it
after changing the kernel).  Each variant costs one fit (two with ``--loco``) and a pass over
the validation pages: about 2 to 5 minutes on this project's 2-core machine.

Needs the ``train`` extra (LightGBM).
"""
from __future__ import annotations

import argparse
import importlib
import os
import pickle
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train as T  # noqa: E402

import fastx  # noqa: E402
from fastx import _core  # noqa: E402

dm = importlib.import_module("fastx.methods.default")


def shipped_type_thresholds() -> np.ndarray:
    """The shipped model's unit threshold per page type, with page thresholds 0.  Read from the
    model file's arrays, so that they hold still when the kernel's features have changed since
    the model was trained (a new column: the file no longer loads as a model)."""
    with np.load(dm.MODEL_PATH, allow_pickle=False) as a:
        tt = np.array(a["type_thresholds"], dtype=np.float64) if "type_thresholds" in a.files else np.zeros((0, 2))
    if tt.shape != (len(T.ptm.PAGE_TYPES), 2):
        return np.array([[0.48, 0.0]] * len(T.ptm.PAGE_TYPES))
    tt[:, 1] = 0.0
    return tt


def fit(pages, zero: list[int], tt: np.ndarray) -> "dm.DefaultModel":
    """One fit on `pages` with the columns `zero` set to 0; thresholds `tt` per page type."""
    X = np.vstack([p.X for p in pages])
    X[:, zero] = 0.0
    y = np.concatenate([p.label for p in pages])
    w = np.concatenate(T.weights(pages))
    booster = T.fit_trees(X, y, w)
    return dm.DefaultModel(T.PARAMS["max_depth"], *T.complete_trees(booster, T.PARAMS["max_depth"]),
                           float(tt[0, 0]), (), (), 0.0, tt)


def word_f1_by_type(cmp, docs, model, types) -> str:
    rows = []
    for _, html, meta in docs:
        out = fastx.extract(html, url=meta.get("url"), method="default", model=model, page_types=types).text
        rows.append((meta["type"], cmp.word_f1(out, meta["text"])[2]))
    kinds = sorted({k for k, _ in rows})
    return f"{statistics.mean(f for _, f in rows):.4f} |" + "".join(
        f" {k[:5]} {statistics.mean(f for kk, f in rows if kk == k):.4f}" for k in kinds)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variants", nargs="+", metavar="NAME=COL,COL", help="a variant: its name and the "
                    "FEATURE_NAMES columns it zeroes (none: NAME=)")
    ap.add_argument("--loco", action="store_true", help="also train without wcxb-dev and score on it")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/fastx-ablation.pkl"))
    ap.add_argument("--weight", action="append", default=["wcxb-dev=2"], metavar="CORPUS=W",
                    help="as train.py's --weight (default: wcxb-dev=2, as the shipped model)")
    a = ap.parse_args(argv)
    names = list(_core.FEATURE_NAMES)
    variants = {}
    for spec in a.variants:
        name, _, cols = spec.partition("=")
        unknown = [c for c in cols.split(",") if c and c not in names]
        if unknown:
            ap.error(f"not in FEATURE_NAMES: {unknown}")
        variants[name] = [names.index(c) for c in cols.split(",") if c]
    for spec in a.weight:
        corpus, _, w = spec.partition("=")
        T.CORPUS_WEIGHT[corpus] = float(w)
    T.set_page_type_rounds(100, 0.15)
    tt = shipped_type_thresholds()
    cmp = T.load_compare()
    cache = Path(a.cache)
    if cache.exists():
        with open(cache, "rb") as fh:
            data = pickle.load(fh)
        if data[T.CORPORA[0]][1] and data[T.CORPORA[0]][1][0].X.shape[1] != len(names):
            sys.exit(f"{cache} was prepared by another build (other features): delete it")
    else:
        data = T.load_pages(cmp)
        cache.parent.mkdir(parents=True, exist_ok=True)
        with open(cache, "wb") as fh:
            pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
    pages = [p for c in T.CORPORA for p in data[c][1]]
    val = {c: data[c][0] for c in T.CORPORA}
    types, oof = T.train_page_type(pages, verbose=False)
    T.set_page_types(pages, types, oof)
    print(f"thresholds per page type: {dict(zip(T.ptm.PAGE_TYPES, tt[:, 0].round(2)))}", flush=True)
    for name, zero in variants.items():
        t0 = time.perf_counter()
        model = fit(pages, zero, tt)
        print(f"{name}: wcxb-dev validation word F1 {word_f1_by_type(cmp, val['wcxb-dev'], model, types)}",
              flush=True)
        other = {c: T.score(cmp, val[c], T.extractor("default", model=model, page_types=types))
                 for c in T.CORPORA if c != "wcxb-dev"}
        print(f"{name}: other validation splits (shingle F1) "
              + " ".join(f"{c} {v:.4f}" for c, v in other.items()), flush=True)
        if a.loco:
            held = fit([p for p in pages if p.corpus != "wcxb-dev"], zero, tt)
            print(f"{name}: without wcxb-dev, its validation word F1 "
                  f"{word_f1_by_type(cmp, val['wcxb-dev'], held, types)}", flush=True)
        print(f"{name}: {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
