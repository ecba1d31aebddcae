"""Out-of-fold `default` on wcxb-dev's training split: each page scored by a model that never saw
its domain, the ground on which a page-level rule over the unit scores is chosen (issue 13).

    PYTHONPATH=. .venv/bin/python benchmarks/oof_scores.py --out /tmp/oof.pkl

The training split's pages fall in folds by domain (md5 of the domain, mod 5: the validation
split is fold 0, so its training pages are in folds 1-4). For each fold, one fit (feature_ablation.py's
`fit`: train.py's pages, weights and parameters, the shipped thresholds per page type) on every
corpus's training pages except that fold's, then that fold's pages are extracted with it.  The
shipped model scores its own training pages far more confidently than unseen ones (wcxb-dev
training pages: word F1 .859 in sample, .849 out of fold), so a rule tuned on its in-sample scores
learns nothing about pages it has not seen; these scores stand in for them.

Prints the out-of-fold word F1 (WCXB's score) overall and per page type; with --out, writes per
page: id, gold page type, the model's unit log-odds `z` (no early exit), the units kept by
`default` (`ukept`, the page rules applied), each unit's word bag (`bags`, lower-cased \\w+) and
the kept text's (`base`), and the most probable page type (`pt`): what a rule over the unit
scores needs to be scored page by page without extracting again.

Reads feature_ablation.py's cache of prepared pages (built on first use); 5 fits, about 10 to 15
minutes here.  Needs the ``train`` extra (LightGBM).
"""
from __future__ import annotations

import argparse
import hashlib
import os
import pickle
import re
import statistics
import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import feature_ablation as FA  # noqa: E402

import fastx  # noqa: E402
from fastx.methods.default import features  # noqa: E402

WORD = re.compile(r"\w+")
FOLDS = 5


def fold_of(domain: str) -> int:
    return int(hashlib.md5(domain.encode()).hexdigest(), 16) % FOLDS


def page_record(doc, model, types, meta: dict, pid: str, word_f1) -> dict:
    keep = model.keep(doc, page_types=types)
    unit_of, units, X = features(doc, page_types=types)
    unit_of = np.asarray(unit_of)
    bags = [Counter() for _ in range(len(units))]
    for i in np.flatnonzero(unit_of >= 0):
        t = doc.text(int(i))
        if t:
            bags[unit_of[i]].update(WORD.findall(t.lower()))
    ukept = np.zeros(len(units), bool)
    ukept[unit_of[(unit_of >= 0) & (keep > 0)]] = True
    return {"id": pid, "type": meta.get("type"), "z": model.log_odds(X) if len(units) else np.zeros(0),
            "ukept": ukept, "bags": bags, "base": Counter(WORD.findall(doc.render_text(keep).lower())),
            "pt": int(np.argmax(X[0, -len(FA.T.ptm.PAGE_TYPES):])) if len(units) else -1,
            "word_f1": word_f1(doc.render_text(keep), meta["text"])[2]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="write the per-page records (pickle) here")
    ap.add_argument("--cache", default=os.path.expanduser("~/.cache/fastx-ablation.pkl"))
    a = ap.parse_args(argv)
    T = FA.T
    T.CORPUS_WEIGHT["wcxb-dev"] = 2.0
    T.set_page_type_rounds(100, 0.15)
    tt = FA.shipped_type_thresholds()
    cache = Path(a.cache)
    if cache.exists():
        with open(cache, "rb") as fh:
            data = pickle.load(fh)
    else:
        data = T.load_pages(T.load_compare())
        cache.parent.mkdir(parents=True, exist_ok=True)
        with open(cache, "wb") as fh:
            pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
    pages = [p for c in T.CORPORA for p in data[c][1]]
    types, oof = T.train_page_type(pages, verbose=False)
    T.set_page_types(pages, types, oof)
    cmp = T.load_compare()
    source = {pid: (html, meta) for pid, html, meta in cmp.CORPORA["wcxb-dev"]()}
    out = []
    for k in range(FOLDS):
        held = [p for p in pages if p.corpus == "wcxb-dev" and fold_of(p.domain) == k]
        if not held:
            continue
        model = FA.fit([p for p in pages if p.corpus != "wcxb-dev" or fold_of(p.domain) != k], [], tt)
        for p in held:
            html, meta = source[p.id]
            out.append(page_record(fastx.parse(html, url=meta.get("url")), model, types, meta, p.id, cmp.word_f1))
        print(f"fold {k}: {len(held)} pages", flush=True)
    kinds = sorted({r["type"] for r in out})
    print(f"out-of-fold word F1 on {len(out)} wcxb-dev training pages: "
          f"{statistics.mean(r['word_f1'] for r in out):.4f} |"
          + "".join(f" {t} {statistics.mean(r['word_f1'] for r in out if r['type'] == t):.4f}" for t in kinds))
    if a.out:
        with open(a.out, "wb") as fh:
            pickle.dump(out, fh, protocol=pickle.HIGHEST_PROTOCOL)
    return 0


if __name__ == "__main__":
    sys.exit(main())
