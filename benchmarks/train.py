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
- ``fastx/data/default_model.npz``: the ``default`` method's tree ensembles
  (LightGBM, soft-label cross-entropy on the units' covered token shares),
  as complete trees of one depth; with ``--stages 2``, in two stages
  (stacking): the first on the unit rows; the second on the unit rows and
  their context in the first stage's scores (``_core.default_context``),
  trained on 5-fold out-of-fold first-stage scores (folds by page), which is
  what it sees on unseen pages.
  5-fold out-of-fold predictions of the last stage choose the unit threshold (the best mean over corpora of
  the page-averaged F1 on the training pages; with ``--page-gate`` the page threshold too, else 0: every page
  has main content) and the early-exit margins (at each checkpoint, the
  distance from the threshold beyond which the partial sum's decision
  almost never differs from the whole ensemble's).

Every page weighs the same in training (a unit's weight is its share of its
page's tokens), and every corpus is scaled to the same total weight so that
the largest corpus does not dictate the model; trees are shallow with large
leaves, and row/feature subsampling uses fixed seeds.
"""
from __future__ import annotations

import argparse
import hashlib
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
from fastx import _core  # noqa: E402
from fastx.methods import default as dm  # noqa: E402
from fastx.methods import page_type as ptm  # noqa: E402
from validate import CORPORA, domain, load_compare, split  # noqa: E402

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
# page thresholds tried: 0 only (every page has main content) unless --page-gate.  A gate
# learned on the old corpora's index pages (cpe's BBC front pages, whose gold is a few words)
# empties modern pages that have content: one retrain chose 0.5 and returned nothing on 5 of
# wcxb-dev's 351 validation pages, the fault issue 13 reports.
PAGE_GRID = (0.0,)
PAGE_GATE_GRID = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9)                # with --page-gate


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
    page_x: np.ndarray      # the page-type model's input row (ptm.FEATURE_NAMES; word columns 0: type_rows())
    page_words: np.ndarray  # the page's words for the page-type word model (_core.page_type_words)
    page_type: str | None   # the gold page type (wcxb-dev), else None
    domain: str
    parent: np.ndarray      # the page's preorder parent array (Doc.parent): the context stage's containers


# corpora whose pages are all articles (news and blog posts): the page-type model learns from them
# as articles besides wcxb-dev's typed pages, so that the older markup of news sites does not read
# as a listing (cleaneval-dev's pages are of every kind and stay untyped)
ARTICLE_CORPORA = {"cpe": "article", "l3s": "article", "readability": "article", "dragnet": "article"}


def prepare(corpus: str, pid: str, html: bytes, meta: dict) -> Page:
    doc = fastx.parse(html, url=meta.get("url"))
    gold = meta["text"]
    label, ntok = text_node_labels(doc, gold)
    unit_of, units, X, row = _core.default_features(doc)      # pt_* columns: set_page_types()
    ulab, utok = group_labels(unit_of, len(units), label, ntok)
    bayes = {"paper": BayesModel.count_blocks(doc, label, ntok, PAPER_BLOCK_TAGS),
             "table": BayesModel.count_blocks(doc, label, ntok, TABLE_BLOCK_TAGS)}
    page_x = ptm.page_row(doc, row)
    return Page(corpus, pid, len(tokens(main_text(gold))), units, np.asarray(X).copy(),
                ulab, utok, bayes, page_x, _core.page_type_words(doc), meta.get("type") or ARTICLE_CORPORA.get(corpus),
                domain(meta.get("url")) or f"{corpus}/{pid}", np.asarray(doc.parent, dtype=np.int32).copy())


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

CORPUS_WEIGHT: dict[str, float] = {}      # --weight CORPUS=W: a corpus's total weight relative to the others


def weights(pages: list[Page]) -> list[np.ndarray]:
    """Per-unit weights: a unit's share of its page's tokens; each corpus sums
    to the same total (the mean pages per corpus), times its CORPUS_WEIGHT."""
    per_corpus: dict[str, int] = {}
    for p in pages:
        per_corpus[p.corpus] = per_corpus.get(p.corpus, 0) + 1
    scale = statistics.mean(per_corpus.values())
    out = []
    for p in pages:
        tot = max(1, int(p.tok.sum()))
        out.append(p.tok / tot * (scale / per_corpus[p.corpus]) * CORPUS_WEIGHT.get(p.corpus, 1.0))
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


TYPE_MIN_PAGES = 40          # pages of a predicted type needed to give it thresholds of its own


def page_f1(p: Page, pr: np.ndarray, t: float) -> float:
    """One page's F1 from unit labels (token counts) when the units with probability >= t are kept."""
    k = pr >= t
    tp = float((p.label * p.tok)[k].sum())
    fp = float(((1 - p.label) * p.tok)[k].sum())
    fn = max(0.0, p.gold_tokens - tp)
    return 2 * tp / (2 * tp + fp + fn) if tp + fp + fn > 0 else 1.0


def predicted_type(p: Page) -> int:
    """The page type the unit model sees (argmax of its pt_* columns), -1 for a page without units."""
    return int(np.argmax(p.X[0, -len(ptm.PAGE_TYPES):])) if len(p.X) else -1


def choose_type_thresholds(pages: list[Page], probs: list[np.ndarray], t: float, pt: float) -> np.ndarray:
    """(threshold, page threshold) per page type: for the pages predicted as a type (at least
    TYPE_MIN_PAGES of them, else the global pair), the threshold with the best mean page F1 of
    out-of-fold probabilities, every corpus weighing the same.  The page threshold stays the
    global one: the typed pages (wcxb-dev) all have main content, so a type's own "no main
    content" gate could only learn to empty the pages the model reads badly (it chose 0.5 for
    listings and 0.8 for service pages once, and returned nothing on 6 of 351 validation pages)."""
    per_corpus: dict[str, int] = {}
    for p in pages:
        per_corpus[p.corpus] = per_corpus.get(p.corpus, 0) + 1
    out = np.array([[t, pt]] * len(ptm.PAGE_TYPES))
    kinds = [predicted_type(p) for p in pages]
    for k in range(len(ptm.PAGE_TYPES)):
        if ptm.PAGE_TYPES[k] == "article":
            # every corpus has articles: the global pair is their pair (a pair of their own
            # moved between 0.38 and 0.50 from one training run to the next)
            continue
        idx = [i for i, kk in enumerate(kinds) if kk == k]
        if len(idx) < TYPE_MIN_PAGES:
            continue
        w = np.array([1.0 / per_corpus[pages[i].corpus] for i in idx])
        best, best_f1 = (t, pt), -1.0
        for g in (pt,):
            gated = [probs[i] if len(probs[i]) and probs[i].max() >= g else np.zeros_like(probs[i]) for i in idx]
            for u in UNIT_GRID:
                f1 = float(np.dot(w, [page_f1(pages[i], pr, u) for i, pr in zip(idx, gated)])) / w.sum()
                if f1 > best_f1 + 1e-9:
                    best, best_f1 = (float(u), float(g)), f1
        out[k] = best
    return out


STAGES = 1              # --stages: 1, the unit scorer alone; 2, a context stage on its out-of-fold scores
LIKE_FOLDS = 3          # folds of the first stage's out-of-fold scores in the leave-one-corpus-out runs


def first_stage(pages: list[Page], X, y, w, folds: int):
    """(the first-stage booster on every unit, the context stage's rows): each page's rows
    with the context of its out-of-fold first-stage log-odds (folds by page)."""
    sizes = [len(p.units) for p in pages]
    row_fold = np.repeat(np.arange(len(pages)) % folds, sizes)
    z = np.zeros(len(y))
    for f in range(folds):
        b = fit_trees(X[row_fold != f], y[row_fold != f], w[row_fold != f])
        z[row_fold == f] = b.predict(X[row_fold == f], raw_score=True)
    zs = np.split(z, np.cumsum(sizes)[:-1])
    X2 = np.vstack([_core.default_context(p.parent, p.units, p.X, zp) for p, zp in zip(pages, zs)])
    return fit_trees(X, y, w), X2


def train_default(pages: list[Page], verbose=True, like: dm.DefaultModel | None = None) -> dm.DefaultModel:
    """The default model: LightGBM on all training units (STAGES 2: then the context stage on
    the rows of `first_stage`); thresholds and early-exit margins from 5-fold out-of-fold
    predictions of the last stage (folds by page).  With `like`, no out-of-fold thresholds:
    they and the margins are `like`'s (the leave-one-corpus-out runs, which would otherwise fit
    six times as often; their first stage's out-of-fold scores use LIKE_FOLDS folds)."""
    X = np.vstack([p.X for p in pages])
    y = np.concatenate([p.label for p in pages])
    w = np.concatenate(weights(pages))
    first = None
    if STAGES == 2:
        b1, X = first_stage(pages, X, y, w, LIKE_FOLDS if like is not None else FOLDS)
        first = complete_trees(b1, PARAMS["max_depth"])
    if like is not None:
        booster = fit_trees(X, y, w)
        return dm.DefaultModel(PARAMS["max_depth"], *complete_trees(booster, PARAMS["max_depth"]),
                               like.threshold, like.exit_at, like.exit_margin, like.page_threshold,
                               like.type_thresholds, first)
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
    tt = choose_type_thresholds(pages, probs, t, pt)
    cuts = tuple(sorted({dm.logit(v) for v in tt.ravel()} | {dm.logit(t), dm.logit(pt)}))
    margins = exit_schedule(partial, z, tuple(c for c in cuts if np.isfinite(c)))
    booster = fit_trees(X, y, w)
    model = dm.DefaultModel(PARAMS["max_depth"], *complete_trees(booster, PARAMS["max_depth"]), t,
                            EXIT_AT, margins, pt, tt, first)
    if verbose:
        full = model.log_odds(X)
        fast = model.log_odds(X, early_exit=True)
        changed = sum(int(((full >= c) != (fast >= c)).sum()) for c in (dm.logit(t), dm.logit(pt)))
        print(f"default: {STAGES} stage(s), {model.trees} trees of depth {model.depth}; threshold {t:.2f}, page threshold "
              f"{pt:.2f} (out-of-fold approx F1, mean over corpora, {f1:.4f}); early-exit margins "
              f"{[round(float(m), 2) for m in margins]} change {changed} of {len(y)} training decisions",
              flush=True)
        print("per page type (threshold, page threshold): " + ", ".join(
            f"{k} {a:.2f}/{b:.2f}" for k, (a, b) in zip(ptm.PAGE_TYPES, tt)), flush=True)
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


# ---------------------------------------------------------------- page-type model

PT_PARAMS = {
    "objective": "multiclass", "num_class": len(ptm.PAGE_TYPES), "learning_rate": 0.05, "num_leaves": 15,
    "max_depth": 4, "min_data_in_leaf": 8, "lambda_l2": 5.0, "feature_fraction": 0.3,
    "bagging_fraction": 0.8, "bagging_freq": 1, "max_bin": 63, "seed": SEED, "deterministic": True,
    "force_row_wise": True, "num_threads": 2, "verbose": -1,
}
PT_ROUNDS = 300


def set_page_type_rounds(rounds: int, learning_rate: float) -> None:
    """The page-type model: `rounds` trees per page type at `learning_rate` (every tree is
    walked on every page: fewer trees are a faster model)."""
    global PT_ROUNDS
    if rounds < 1 or not 0 < learning_rate <= 1:
        raise SystemExit("train.py: --pt-rounds must be at least 1 and --pt-learning-rate in (0, 1]")
    PT_ROUNDS = rounds
    PT_PARAMS["learning_rate"] = learning_rate


WORD_MIN_PAGES = 3      # the word model's vocabulary: words on at least this many training pages
WORD_ALPHA = 0.3        # its additive smoothing
WORD_FOLDS = 5          # folds (by domain) of the out-of-fold word columns the trees learn from


def type_weights(y: np.ndarray) -> np.ndarray:
    """Per-page training weights of the page-type models: every type weighs the same, square-rooted
    (wcxb-dev has 790 articles and 91 documentation pages)."""
    counts = np.bincount(y, minlength=len(ptm.PAGE_TYPES)).astype(float)
    return (len(y) / (len(counts) * np.maximum(counts, 1)))[y] ** 0.5


def fit_word_model(pages: list[Page]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The page-type word model on pages with a gold type (see fastx.methods.page_type): a
    multinomial Naive Bayes model over the pages' distinct words (page_words) on at least
    WORD_MIN_PAGES of them, weighted as type_weights, smoothed by WORD_ALPHA; (hashes uint32,
    log P(word | type) (words x types, float32 of float16 precision, as the model file keeps
    them), log P(type) (types,))."""
    k = len(ptm.PAGE_TYPES)
    y = np.array([ptm.PAGE_TYPES.index(p.page_type) for p in pages])
    w = type_weights(y)
    words = np.concatenate([p.page_words for p in pages]).astype(np.uint32)
    page_of = np.repeat(np.arange(len(pages)), [len(p.page_words) for p in pages])
    vocab, inv, df = np.unique(words, return_inverse=True, return_counts=True)
    counts = np.zeros((len(vocab), k))
    np.add.at(counts, (inv, y[page_of]), w[page_of])
    keep = df >= WORD_MIN_PAGES
    counts = counts[keep]
    logp = np.log(counts + WORD_ALPHA) - np.log(counts.sum(0) + WORD_ALPHA * len(counts))
    cw = np.bincount(y, weights=w, minlength=k)
    prior = np.log(np.maximum(cw, 1e-9) / cw.sum())
    return vocab[keep].astype(np.uint32), logp.astype(np.float16).astype(np.float32), prior.astype(np.float32)


def type_rows(pages: list[Page], words) -> np.ndarray:
    """The page-type rows of `pages` with the word columns of the word model `words` (a
    PageTypeModel, or fit_word_model's arrays)."""
    columns = words.word_columns if isinstance(words, ptm.PageTypeModel) else _core.PageTypeWords(*words).scores
    k = len(ptm.PAGE_TYPES)
    X = np.vstack([p.page_x for p in pages]).astype(np.float32)
    for i, p in enumerate(pages):
        X[i, -k:] = columns(p.page_words)
    return X


def fit_page_type(pages: list[Page]) -> ptm.PageTypeModel:
    """The page-type model (LightGBM softmax) on pages with a gold type, as one complete-tree
    ensemble per class (LightGBM's tree t belongs to class t mod classes), with its word model
    (fit_word_model on every page); the trees learn from the word columns of word models fit
    without the page's domain (WORD_FOLDS folds by domain), as they will see them on new sites."""
    import lightgbm as lgb
    y = np.array([ptm.PAGE_TYPES.index(p.page_type) for p in pages])
    w = type_weights(y)
    words = fit_word_model(pages)
    X = np.vstack([p.page_x for p in pages]).astype(np.float32)
    fold = np.array([int(hashlib.md5(("words/" + p.domain).encode()).hexdigest(), 16) % WORD_FOLDS for p in pages])
    for f in range(WORD_FOLDS):
        held = np.where(fold == f)[0]
        if len(held) and len(held) < len(pages):
            X[held] = type_rows([pages[i] for i in held], fit_word_model([pages[i] for i in np.where(fold != f)[0]]))
    b = lgb.train(PT_PARAMS, lgb.Dataset(X, label=y, weight=w, params={"max_bin": PT_PARAMS["max_bin"]}),
                  num_boost_round=PT_ROUNDS)
    feat, thr, leaf = complete_trees(b, PT_PARAMS["max_depth"])
    k = len(ptm.PAGE_TYPES)
    split_ = lambda a: np.stack([a[c::k] for c in range(k)])      # noqa: E731
    return ptm.PageTypeModel(PT_PARAMS["max_depth"], split_(feat), split_(thr), split_(leaf), words)


def train_page_type(pages: list[Page], verbose=True):
    """(model on every typed page, {id(page): out-of-fold probabilities}): folds by domain, so
    that the unit model trains on the page-type probabilities it will see on unseen sites."""
    typed = [p for p in pages if p.page_type]
    if not typed:
        return None, {}
    model = fit_page_type(typed)
    oof = {}
    fold = [int(hashlib.md5(p.domain.encode()).hexdigest(), 16) % FOLDS for p in typed]
    for f in range(FOLDS):
        m = fit_page_type([p for p, g in zip(typed, fold) if g != f])
        held = [p for p, g in zip(typed, fold) if g == f]
        if held:
            for p, pr in zip(held, m.probabilities(type_rows(held, m))):
                oof[id(p)] = pr
    if verbose:
        acc = statistics.mean(ptm.PAGE_TYPES[int(np.argmax(oof[id(p)]))] == p.page_type for p in typed)
        print(f"page type: {model.feat.shape[1]} trees per type, depth {model.depth}; out-of-fold accuracy "
              f"(folds by domain) {acc:.3f} on {len(typed)} pages", flush=True)
    return model, oof


def set_page_types(pages: list[Page], model, oof: dict) -> None:
    """Fill the units' pt_* columns: out-of-fold probabilities for the pages the page-type model
    learned from, the model's for the others."""
    k = len(ptm.PAGE_TYPES)
    rest = [p for p in pages if id(p) not in oof]
    probs = dict(oof)
    if rest and model is not None:
        for p, pr in zip(rest, model.probabilities(type_rows(rest, model))):
            probs[id(p)] = pr
    for p in pages:
        if len(p.X):
            p.X[:, -k:] = probs[id(p)] if id(p) in probs else 0.0


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


def print_word_f1(cmp, corpus, docs, extractors) -> None:
    """WCXB's score (compare.py's word_f1: mean per page), overall and per page type."""
    kinds = sorted({meta["type"] for _, _, meta in docs})
    print(f"\n{corpus}: word F1 (mean per page) on {len(docs)} validation pages")
    print(f"{'':<26}{'all':>8}" + "".join(f"{k[:11]:>12}" for k in kinds) + f"{'empty':>7}")
    for name, fn in extractors.items():
        rows = [(meta["type"], cmp.word_f1(out, meta["text"])[2], not out.strip() and bool(meta["text"].strip()))
                for _, html, meta in docs for out in (fn(html, meta),)]
        print(f"{name:<26}{statistics.mean(r[1] for r in rows):8.4f}"
              + "".join(f"{statistics.mean(r[1] for r in rows if r[0] == k):12.4f}" for k in kinds)
              + f"{sum(r[2] for r in rows):7d}", flush=True)


def print_page_type_accuracy(docs, model) -> None:
    """Accuracy and confusion matrix (rows: gold, columns: predicted) of the page-type model."""
    k = len(ptm.PAGE_TYPES)
    conf = np.zeros((k, k), dtype=int)
    for _, html, meta in docs:
        doc = fastx.parse(html, url=meta.get("url"))
        _, _, _, row = _core.default_features(doc)
        pred = int(np.argmax(model(doc, row)))
        conf[ptm.PAGE_TYPES.index(meta["type"]), pred] += 1
    print(f"page type accuracy {np.trace(conf) / conf.sum():.3f} on {conf.sum()} validation pages")
    print(f"{'gold / predicted':<16}" + "".join(f"{t[:8]:>9}" for t in ptm.PAGE_TYPES))
    for i, t in enumerate(ptm.PAGE_TYPES):
        print(f"{t:<16}" + "".join(f"{v:9d}" for v in conf[i]))


def extractor(method, **kw):
    def run(html, meta):
        return fastx.extract(html, url=meta.get("url"), method=method, **kw).text
    return run


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cross", action="store_true", help="leave-one-corpus-out figures too")
    ap.add_argument("--shipped", action="store_true",
                    help="evaluate the shipped models instead of training them (with --cross: the held-out "
                         "models take the shipped model's thresholds); writes nothing")
    ap.add_argument("--cross-only", metavar="CORPUS", action="append", default=[],
                    help="with --cross: hold out only these corpora")
    ap.add_argument("--no-write", action="store_true", help="train and report, do not overwrite fastx/data")
    ap.add_argument("--keep-bayes", action="store_true",
                    help="write the default and page-type models only (the Bayes files stay as they are)")
    ap.add_argument("--rounds", type=int, default=ROUNDS, help=f"trees of the default model (default {ROUNDS})")
    ap.add_argument("--learning-rate", type=float, default=PARAMS["learning_rate"],
                    help=f"LightGBM learning rate (default {PARAMS['learning_rate']})")
    ap.add_argument("--pt-rounds", type=int, default=PT_ROUNDS,
                    help=f"trees per page type of the page-type model (default {PT_ROUNDS})")
    ap.add_argument("--pt-learning-rate", type=float, default=PT_PARAMS["learning_rate"],
                    help=f"the page-type model's learning rate (default {PT_PARAMS['learning_rate']})")
    ap.add_argument("--stages", type=int, choices=(1, 2), default=STAGES,
                    help="1 (default, the shipped model): the unit scorer alone; 2: and a context stage "
                         "trained on its out-of-fold scores (stacking)")
    ap.add_argument("--page-gate", action="store_true",
                    help="also try page thresholds (the best unit's probability a page needs, else it has "
                         "no main content) of " + ", ".join(map(str, PAGE_GATE_GRID[1:])) + "; default: 0 only")
    ap.add_argument("--weight", action="append", default=[], metavar="CORPUS=W",
                    help="a corpus's total training weight relative to the others (default 1 each)")
    a = ap.parse_args(argv)
    set_rounds(a.rounds, a.learning_rate)
    globals()["STAGES"] = a.stages
    if a.page_gate:
        globals()["PAGE_GRID"] = PAGE_GATE_GRID
    set_page_type_rounds(a.pt_rounds, a.pt_learning_rate)
    for spec in a.weight:
        name, _, w = spec.partition("=")
        CORPUS_WEIGHT[name] = float(w)
    cmp = load_compare()
    data = load_pages(cmp)
    pages = [p for c in CORPORA for p in data[c][1]]
    val = {c: data[c][0] for c in CORPORA}

    bayes = train_bayes(pages)
    if a.shipped:
        types, model = ptm.shipped(), dm.shipped()
        set_page_types(pages, types, {})
        a.no_write = True
    else:
        types, oof = train_page_type(pages)
        set_page_types(pages, types, oof)
        model = train_default(pages)
    if not a.no_write:
        written = ["default_model.npz", "page_type_model.npz"]
        if not a.keep_bayes:
            bayes["paper"].save(DATA / "bayes.json")
            bayes["table"].save(DATA / "bayes_table.json")
            written = ["bayes.json", "bayes_table.json"] + written
        model.save(DATA / "default_model.npz")
        types.save(DATA / "page_type_model.npz")
        for f in written:
            print(f"wrote fastx/data/{f} ({(DATA / f).stat().st_size:,} bytes)")
    ex = {"default": extractor("default", model=model, page_types=types),
          "bayes": extractor("bayes", model=bayes["paper"]),
          "bayes-table": extractor("bayes", model=bayes["table"]),
          "cetd": extractor("cetd")}
    print_table("validation split F1 (never trained on)", evaluate(cmp, val, ex), CORPORA)
    typed_val = {c: docs for c, docs in val.items() if docs and "type" in docs[0][2]}
    for c, docs in typed_val.items():
        print_word_f1(cmp, c, docs, {"default": ex["default"], "cetd": ex["cetd"]})
        print_page_type_accuracy(docs, types)

    if a.cross:
        res = {"default": {}, "default-all": {}}
        for held in a.cross_only or CORPORA:
            rest = [p for p in pages if p.corpus != held]
            m = train_default(rest, verbose=False, like=model)
            run = extractor("default", model=m, page_types=types)
            res["default"][held] = score(cmp, val[held], run)
            res["default-all"][held] = score(cmp, val[held], ex["default"])
            print(f"without {held}: {res['default'][held]:.4f} (with it: {res['default-all'][held]:.4f})",
                  flush=True)
            if held in typed_val:
                print_word_f1(cmp, held, val[held], {f"default without {held}": run})
        held_out = a.cross_only or list(CORPORA)
        for r in res.values():
            r["mean"] = statistics.mean(r[c] for c in held_out)
        print_table("cross-corpus: trained without the corpus, F1 on its validation split", res, held_out)


if __name__ == "__main__":
    main()
