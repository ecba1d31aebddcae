#!/usr/bin/env python3
"""Regenerate every shipped model from ../shared/datasets, deterministically.

    python benchmarks/train.py                 # train, write fastx/data/*, print validation figures
    python benchmarks/train.py --cross         # also: leave one corpus out (train without it, test on it)

Needs the ``train`` extra (``pip install -e .[train]``: LightGBM); the
runtime never imports it.

Data: the five text corpora of ../shared/datasets through compare.py's
loaders.  Within each corpus the first ceil(20%) pages in loader order are
the validation split (``benchmarks/validate.py``); they are never seen here
except to print the validation figures at the end.

Labels: ``fastx._labels`` aligns each gold text to the page's text nodes (the
covered share of each node's tokens); both trained methods learn from them.
Reader comments are not main content: Dragnet's gold appends them after a
marker line, and the labels use the text before it (``main_text``).  The
validation figures score against compare.py's gold, comments included.

Models written:

- ``fastx/data/bayes.json``, ``fastx/data/bayes_table.json``: Naive Bayes
  block models (paper 003) for table/td/tr/div and <table>-only blocking.
- ``fastx/data/default_model.npz``: the ``default`` method's tree ensemble
  (LightGBM, soft-label cross-entropy on the units' covered token shares),
  as complete trees of one depth.  5-fold out-of-fold predictions (folds by
  page) choose the unit and page thresholds (the best mean over corpora of
  the page-averaged F1 on the training pages) and the early-exit margins (at each checkpoint, the
  distance from the threshold beyond which the partial sum's decision
  almost never differs from the whole ensemble's).

Every page weighs the same in training (a unit's weight is its share of its
page's tokens), and every corpus is scaled to the same total weight so that
the largest corpus does not dictate the model; trees are shallow with large
leaves, and row/feature subsampling uses fixed seeds.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "benchmarks"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import fastx  # noqa: E402
from fastx._labels import group_labels, main_text, text_node_labels  # noqa: E402
from fastx.bayes import PAPER_BLOCK_TAGS, TABLE_BLOCK_TAGS, BayesModel  # noqa: E402
from fastx.evaluate import tokens  # noqa: E402
from fastx.methods import default as dm  # noqa: E402
from validate import CORPORA, load_compare, split  # noqa: E402

DATA = ROOT / "fastx" / "data"
SEED = 20130606
FOLDS = 5
PARAMS = {
    "objective": "cross_entropy", "learning_rate": 0.1, "num_leaves": 31, "max_depth": 6,
    "min_data_in_leaf": 80, "min_sum_hessian_in_leaf": 1.0, "lambda_l2": 10.0, "feature_fraction": 0.7,
    "bagging_fraction": 0.8, "bagging_freq": 1, "max_bin": 63, "seed": SEED, "deterministic": True,
    "force_row_wise": True, "num_threads": 2, "verbose": -1,
}
ROUNDS = 120
EXIT_AT = (5,) + tuple(range(10, ROUNDS, 10))     # early-exit checkpoints (trees evaluated)


def set_rounds(rounds: int, learning_rate: float) -> None:
    """Train `rounds` trees at `learning_rate` (checkpoints every 10 trees after the 5th)."""
    global ROUNDS, EXIT_AT
    if rounds < 10 or not 0 < learning_rate <= 1:
        raise SystemExit("train.py: --rounds must be at least 10 and --learning-rate in (0, 1]")
    ROUNDS = rounds
    EXIT_AT = (5,) + tuple(range(10, ROUNDS, 10))
    PARAMS["learning_rate"] = learning_rate


EXIT_FLIPS = 2e-5                          # decisions early exit may change, per checkpoint
EXIT_MIN_MARGIN = 0.25                     # log-odds
UNIT_GRID = np.round(np.arange(0.30, 0.71, 0.02), 2)          # unit thresholds tried
PAGE_GRID = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9)                     # page thresholds tried


@dataclass
class Page:
    corpus: str
    id: str
    gold_tokens: int
    units: np.ndarray
    X: np.ndarray
    label: np.ndarray       # covered share of each unit's tokens
    tok: np.ndarray         # tokens per unit
    bayes: dict             # blocking -> bin counts


def prepare(corpus: str, pid: str, html: bytes, meta: dict) -> Page:
    doc = fastx.parse(html, url=meta.get("url"))
    gold = meta["text"]
    label, ntok = text_node_labels(doc, gold)
    unit_of, units, X = dm.features(doc)
    ulab, utok = group_labels(unit_of, len(units), label, ntok)
    bayes = {"paper": BayesModel.count_blocks(doc, label, ntok, PAPER_BLOCK_TAGS),
             "table": BayesModel.count_blocks(doc, label, ntok, TABLE_BLOCK_TAGS)}
    return Page(corpus, pid, len(tokens(main_text(gold))), units, np.asarray(X).copy(),
                ulab, utok, bayes)


def load_pages(cmp, corpora=CORPORA):
    """{corpus: (validation docs, training Pages)} in loader order."""
    out = {}
    for c in corpora:
        t0 = time.perf_counter()
        val, train = split(list(cmp.CORPORA[c]()))
        pages = [prepare(c, pid, html, meta) for pid, html, meta in train]
        print(f"{c:<14} {len(val):4d} validation, {len(pages):4d} training pages "
              f"({time.perf_counter() - t0:.1f} s)", flush=True)
        out[c] = (val, pages)
    return out


# ---------------------------------------------------------------- default model

def weights(pages: list[Page]) -> list[np.ndarray]:
    """Per-unit weights: a unit's share of its page's tokens; each corpus sums
    to the same total (the mean pages per corpus)."""
    per_corpus: dict[str, int] = {}
    for p in pages:
        per_corpus[p.corpus] = per_corpus.get(p.corpus, 0) + 1
    scale = statistics.mean(per_corpus.values())
    out = []
    for p in pages:
        tot = max(1, int(p.tok.sum()))
        out.append(p.tok / tot * (scale / per_corpus[p.corpus]))
    return out


def fit_trees(X, y, w):
    import lightgbm as lgb
    ds = lgb.Dataset(X, label=y, weight=w, params={"max_bin": PARAMS["max_bin"]})
    return lgb.train(PARAMS, ds, num_boost_round=ROUNDS)


def complete_trees(booster, depth: int):
    """LightGBM trees -> (feat, thr, leaf) of complete binary trees of `depth`
    levels, breadth-first (node k's children at 2k+1, 2k+2).  A leaf above the
    last level fills every leaf slot below it, and the nodes between test
    +inf (always the first child).  Thresholds become the largest float32 <=
    LightGBM's double, so float32 features compare exactly as in training.
    No recursion."""
    trees = booster.dump_model()["tree_info"]
    inner = (1 << depth) - 1
    feat = np.zeros((len(trees), inner), dtype=np.int32)
    thr = np.full((len(trees), inner), np.inf, dtype=np.float32)
    leaf = np.zeros((len(trees), inner + 1), dtype=np.float32)
    for t, info in enumerate(trees):
        stack = [(info["tree_structure"], 0, 0)]
        while stack:
            node, k, d = stack.pop()
            if "leaf_value" in node:
                span = 1 << (depth - d)
                first = (k + 1) * span - 1 - inner
                leaf[t, first:first + span] = node["leaf_value"]
                continue
            if d >= depth or node.get("decision_type", "<=") != "<=":
                raise ValueError(f"tree {t} is deeper than {depth} levels or has a non-numerical split")
            feat[t, k] = node["split_feature"]
            x = np.float32(node["threshold"])
            thr[t, k] = x if float(x) <= node["threshold"] else np.nextafter(x, np.float32(-np.inf))
            stack.append((node["left_child"], 2 * k + 1, d + 1))
            stack.append((node["right_child"], 2 * k + 2, d + 1))
    return feat, thr, leaf


def exit_schedule(partial: np.ndarray, full: np.ndarray, cuts: tuple[float, ...]) -> np.ndarray:
    """Early-exit margins from out-of-fold scores.

    `partial[c]`: each unit's score after EXIT_AT[c] trees, `full`: after all;
    `cuts`: the decision thresholds (log-odds).  At each checkpoint, of the
    units still running, those farther than the margin from every cut whose
    partial decision at some cut differs from the final one may be at most
    EXIT_FLIPS of all units; the margin is the smallest such distance (at
    least EXIT_MIN_MARGIN)."""
    active = np.ones(len(full), dtype=bool)
    budget = int(EXIT_FLIPS * len(full))
    margins = []
    for part in partial:
        dist = np.min([np.abs(part - c) for c in cuts], axis=0)
        wrong = np.zeros(len(full), dtype=bool)
        for c in cuts:
            wrong |= (part >= c) != (full >= c)
        far = np.sort(dist[active & wrong])[::-1]
        margin = max(float(far[budget]) if len(far) > budget else 0.0, EXIT_MIN_MARGIN)
        margins.append(margin)
        active &= dist <= margin
    return np.array(margins, dtype=np.float32)


def choose_thresholds(pages: list[Page], probs: list[np.ndarray]) -> tuple[float, float, float]:
    """(unit threshold, page threshold, F1): the pair with the best mean over
    corpora of the page-averaged F1 (approx_f1) of out-of-fold probabilities.
    A page whose best unit stays below the page threshold keeps nothing."""
    by_corpus: dict[str, list[int]] = {}
    for i, p in enumerate(pages):
        by_corpus.setdefault(p.corpus, []).append(i)
    best = (0.5, 0.0, -1.0)
    for pt in PAGE_GRID:
        gated = [p if len(p) and p.max() >= pt else np.zeros_like(p) for p in probs]
        for t in UNIT_GRID:
            f1 = statistics.mean(approx_f1([pages[i] for i in idx], [gated[i] for i in idx], t)
                                 for idx in by_corpus.values())
            if f1 > best[2] + 1e-9:
                best = (float(t), float(pt), f1)
    return best


def train_default(pages: list[Page], verbose=True) -> dm.DefaultModel:
    """The default model: LightGBM on all training units; thresholds and
    early-exit margins from 5-fold out-of-fold predictions (folds by page)."""
    X = np.vstack([p.X for p in pages])
    y = np.concatenate([p.label for p in pages])
    w = np.concatenate(weights(pages))
    sizes = [len(p.units) for p in pages]
    row_fold = np.repeat(np.arange(len(pages)) % FOLDS, sizes)
    z = np.zeros(len(y))
    partial = np.zeros((len(EXIT_AT), len(y)))
    for f in range(FOLDS):
        tr, te = row_fold != f, row_fold == f
        b = fit_trees(X[tr], y[tr], w[tr])
        z[te] = b.predict(X[te], raw_score=True)
        for c, k in enumerate(EXIT_AT):
            partial[c, te] = b.predict(X[te], raw_score=True, num_iteration=k)
    probs = np.split(1 / (1 + np.exp(-z)), np.cumsum(sizes)[:-1])
    t, pt, f1 = choose_thresholds(pages, probs)
    margins = exit_schedule(partial, z, (dm.logit(t), dm.logit(pt)))
    booster = fit_trees(X, y, w)
    model = dm.DefaultModel(PARAMS["max_depth"], *complete_trees(booster, PARAMS["max_depth"]), t,
                            EXIT_AT, margins, pt)
    if verbose:
        full = model.log_odds(X)
        fast = model.log_odds(X, early_exit=True)
        changed = sum(int(((full >= c) != (fast >= c)).sum()) for c in (dm.logit(t), dm.logit(pt)))
        print(f"default: {model.trees} trees of depth {model.depth}; threshold {t:.2f}, page threshold "
              f"{pt:.2f} (out-of-fold approx F1, mean over corpora, {f1:.4f}); early-exit margins "
              f"{[round(float(m), 2) for m in margins]} change {changed} of {len(y)} training decisions",
              flush=True)
    return model


def approx_f1(pages, probs, t) -> float:
    """Page-averaged precision/recall -> F1 from unit labels (token counts), as compare.py averages."""
    ps, rs = [], []
    for p, pr in zip(pages, probs):
        k = pr >= t
        tp = float((p.label * p.tok)[k].sum())
        fp = float(((1 - p.label) * p.tok)[k].sum())
        fn = max(0.0, p.gold_tokens - tp)
        if tp + fp > 0:
            ps.append(tp / (tp + fp))
        if tp + fn > 0:
            rs.append(tp / (tp + fn))
    P, R = (statistics.mean(ps) if ps else 0.0), (statistics.mean(rs) if rs else 0.0)
    return 2 * P * R / (P + R) if P + R else 0.0


# ---------------------------------------------------------------- Bayes models

def train_bayes(pages: list[Page]) -> dict:
    out = {}
    for blocking, tags in (("paper", PAPER_BLOCK_TAGS), ("table", TABLE_BLOCK_TAGS)):
        counts = sum(p.bayes[blocking] for p in pages)
        out[blocking] = BayesModel(counts, tags)
    return out


# ---------------------------------------------------------------- evaluation

def score(cmp, docs, fn) -> float:
    rows = [cmp.shingle_counts(meta["text"], fn(html, meta)) for _, html, meta in docs]
    return cmp.summarize_text(rows)["f1"]


def evaluate(cmp, sets: dict, extractors: dict) -> dict:
    """F1 per corpus (and mean) of each extractor on the given {corpus: docs}."""
    res = {}
    for name, fn in extractors.items():
        res[name] = {c: score(cmp, docs, fn) for c, docs in sets.items()}
        res[name]["mean"] = statistics.mean(res[name][c] for c in sets)
    return res


def print_table(title, res, corpora):
    print(f"\n{title}")
    print(f"{'':<14}" + "".join(f"{c[:12]:>13}" for c in corpora) + f"{'mean':>9}")
    for name, r in res.items():
        print(f"{name:<14}" + "".join(f"{r[c]:13.4f}" for c in corpora) + f"{r['mean']:9.4f}")


def extractor(method, **kw):
    def run(html, meta):
        return fastx.extract(html, url=meta.get("url"), method=method, **kw).text
    return run


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cross", action="store_true", help="leave-one-corpus-out figures too")
    ap.add_argument("--no-write", action="store_true", help="train and report, do not overwrite fastx/data")
    ap.add_argument("--rounds", type=int, default=ROUNDS, help=f"trees of the default model (default {ROUNDS})")
    ap.add_argument("--learning-rate", type=float, default=PARAMS["learning_rate"],
                    help=f"LightGBM learning rate (default {PARAMS['learning_rate']})")
    a = ap.parse_args(argv)
    set_rounds(a.rounds, a.learning_rate)
    cmp = load_compare()
    data = load_pages(cmp)
    pages = [p for c in CORPORA for p in data[c][1]]
    val = {c: data[c][0] for c in CORPORA}

    bayes = train_bayes(pages)
    model = train_default(pages)
    if not a.no_write:
        bayes["paper"].save(DATA / "bayes.json")
        bayes["table"].save(DATA / "bayes_table.json")
        model.save(DATA / "default_model.npz")
        for f in ("bayes.json", "bayes_table.json", "default_model.npz"):
            print(f"wrote fastx/data/{f} ({(DATA / f).stat().st_size:,} bytes)")
    ex = {"default": extractor("default", model=model),
          "bayes": extractor("bayes", model=bayes["paper"]),
          "bayes-table": extractor("bayes", model=bayes["table"]),
          "cetd": extractor("cetd")}
    print_table("validation split F1 (never trained on)", evaluate(cmp, val, ex), CORPORA)

    if a.cross:
        res = {"default": {}, "default-all": {}}
        for held in CORPORA:
            rest = [p for p in pages if p.corpus != held]
            m = train_default(rest, verbose=False)
            res["default"][held] = score(cmp, val[held], extractor("default", model=m))
            res["default-all"][held] = score(cmp, val[held], extractor("default", model=model))
            print(f"without {held}: {res['default'][held]:.4f} (with it: {res['default-all'][held]:.4f})",
                  flush=True)
        for r in res.values():
            r["mean"] = statistics.mean(r[c] for c in CORPORA)
        print_table("cross-corpus: trained without the corpus, F1 on its validation split", res, CORPORA)


if __name__ == "__main__":
    main()
