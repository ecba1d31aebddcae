"""``default``: every source paper's characteristics fused in one trained unit scorer.

The page is cut into *units*, the text of one block-level element each
(``_core.block_ancestors``).  For every unit the compiled kernel
``_core.default_features`` computes one feature vector (names:
``_core.FEATURE_NAMES``): the unit's own text statistics (length, link share,
punctuation per character — the VSSE paper's vvtc, seeds/000 Formula 1),
CETD's densities of its block and four ancestors (TD Eq. 1, CTD Eq. 2,
DensitySum Eq. 5, seeds/004) and whether CETD's Algorithm 2 keeps it, link
char/tag densities (seeds/002's purification rules), ``<p>`` counts
(seeds/003), tag and tag-path categories, semantic markup (article, main,
role=main, itemprop=articleBody, nav/aside/footer/header, headings),
class/id words of the ancestors matched against a small fixed vocabulary,
relative position, and token overlap with the page title and meta
description (the VSSE paper's Formula 4 compares candidates with both).

A gradient-boosted tree ensemble (trained offline by ``benchmarks/train.py``
with LightGBM on the training split of the dev corpora) maps the vectors to
log-odds; it is evaluated by ``_core.gbt_predict`` from flat arrays shipped in
``fastx/data/default_model.npz``.  Two stages: the second sees the first
stage's probabilities of the unit's neighbours and of its ancestors' subtrees
(a content region is coherent).  Units whose probability reaches the stored
threshold are kept; the headline (the heading that best matches the page
title, before the kept text) is kept as part of the content.

Model file (numpy ``.npz``): for each stage ``s`` (``s0``, ``s1``) the arrays
``{s}_feat`` (int32), ``{s}_thr`` (float64), ``{s}_left``/``{s}_right``
(int32; a negative child c is leaf ~c), ``{s}_leaf`` (float64),
``{s}_roots`` (int32); ``feature_names`` (the kernel's, checked at load),
``threshold`` (probability), ``version``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import _core
from ..errors import InputError, ModelError
from . import register

MODEL_PATH = Path(__file__).resolve().parent.parent / "data" / "default_model.npz"
MODEL_VERSION = 1
_CACHE: dict = {}


class TreeEnsemble:
    """One stage: flat arrays of a gradient-boosted tree ensemble (see the module docstring)."""

    __slots__ = ("feat", "thr", "left", "right", "leaf", "roots")

    def __init__(self, feat, thr, left, right, leaf, roots):
        self.feat = np.ascontiguousarray(feat, dtype=np.int32)
        self.thr = np.ascontiguousarray(thr, dtype=np.float64)
        self.left = np.ascontiguousarray(left, dtype=np.int32)
        self.right = np.ascontiguousarray(right, dtype=np.int32)
        self.leaf = np.ascontiguousarray(leaf, dtype=np.float64)
        self.roots = np.ascontiguousarray(roots, dtype=np.int32)
        k = len(self.feat)
        if not (len(self.thr) == len(self.left) == len(self.right) == k):
            raise ModelError("tree arrays feat/thr/left/right differ in length")
        for child in (self.left, self.right, self.roots):
            if len(child) and (child.max() >= k or (~child[child < 0]).max(initial=-1) >= len(self.leaf)):
                raise ModelError("a tree references a node or leaf outside the model's arrays")

    def predict(self, X) -> np.ndarray:
        """Log-odds per row of X."""
        if len(self.feat) and self.feat.max() >= X.shape[1]:
            raise ModelError("the model tests a feature the kernel does not compute")
        return _core.gbt_predict(X, self.feat, self.thr, self.left, self.right, self.leaf, self.roots)


class DefaultModel:
    """The shipped (or a retrained) two-stage model of the ``default`` method."""

    def __init__(self, stages: list[TreeEnsemble], threshold: float, context_names: tuple[str, ...]):
        self.stages = stages
        self.threshold = float(threshold)
        self.context_names = tuple(context_names)

    @classmethod
    def load(cls, path: "str | Path" = MODEL_PATH) -> "DefaultModel":
        path = Path(path)
        try:
            z = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise ModelError(f"cannot read the default model {path}: {exc}; regenerate it with "
                             "`python benchmarks/train.py`") from exc
        with z:
            if int(z["version"]) != MODEL_VERSION:
                raise ModelError(f"{path} is model version {int(z['version'])}, fastx reads version "
                                 f"{MODEL_VERSION}; regenerate it with `python benchmarks/train.py`")
            names = tuple(str(s) for s in z["feature_names"])
            if names != tuple(_core.FEATURE_NAMES):
                raise ModelError(f"{path} was trained on other features than this build computes; "
                                 "regenerate it with `python benchmarks/train.py`")
            stages = []
            s = 0
            while f"s{s}_feat" in z:
                stages.append(TreeEnsemble(*(z[f"s{s}_{k}"] for k in TreeEnsemble.__slots__)))
                s += 1
            if not stages:
                raise ModelError(f"{path} holds no tree ensemble")
            return cls(stages, float(z["threshold"]), tuple(str(s) for s in z["context_names"]))

    def save(self, path: "str | Path", **extra) -> None:
        arrays = {"version": np.int32(MODEL_VERSION), "threshold": np.float64(self.threshold),
                  "feature_names": np.array(_core.FEATURE_NAMES),
                  "context_names": np.array(self.context_names, dtype=str)}
        for s, st in enumerate(self.stages):
            for k in TreeEnsemble.__slots__:
                arrays[f"s{s}_{k}"] = getattr(st, k)
        arrays.update(extra)
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)

    def probabilities(self, X, parents, units) -> np.ndarray:
        """Content probability of each unit (rows of X) after the last stage."""
        if len(units) == 0:
            return np.zeros(0)
        z = self.stages[0].predict(X)
        for st in self.stages[1:]:
            z = st.predict(np.hstack([X, context(parents, units, X, z)]))
        return 1.0 / (1.0 + np.exp(-z))


def features(doc):
    """(unit_of, units, X): the units of `doc` and their feature matrix (see the module docstring)."""
    ctd = _core.composite_text_density(doc)
    ds = _core.density_sum(doc, ctd)
    node, thr = _core.densitysum_threshold(doc, ctd, ds)
    keep = _core.densitysum_extract(doc, ctd, ds)
    return _core.default_features(doc, _core.block_ancestors(doc), _core.text_density(doc), ctd, ds, keep,
                                  node, thr)


CONTEXT_NAMES = ("ctx_self", "ctx_prev", "ctx_next", "ctx_a1", "ctx_a2", "ctx_a3", "ctx_a4", "ctx_page",
                 "ctx_rank")


def context(parents, units, X, z) -> np.ndarray:
    """Second-stage features from first-stage log-odds `z`: the unit's own
    probability, its neighbours', the character-weighted mean probability in
    the subtrees of its 4 nearest ancestors and on the whole page, and its
    rank among the page's units."""
    return _core.gbt_context(parents, units, X, z)


def _model(path=None) -> DefaultModel:
    key = str(path or MODEL_PATH)
    m = _CACHE.get(key)
    if m is None:
        m = _CACHE[key] = DefaultModel.load(key)
    return m


@register("default", "fused trained unit scorer over every paper's features (the best fastx method)")
def default(doc, threshold: float | None = None, model=None, headline: bool = True):
    """Keep mask of the ``default`` method.

    `threshold`: probability a unit needs (default: the model's, tuned on
    the training split); `model`: a DefaultModel or a path to a model file;
    `headline`: keep the heading that matches the page title."""
    if model is None or isinstance(model, (str, Path)):
        model = _model(model)
    elif not isinstance(model, DefaultModel):
        raise InputError(f"model must be a DefaultModel or a path, got {type(model).__name__}")
    t = model.threshold if threshold is None else float(threshold)
    if not 0.0 <= t <= 1.0:
        raise InputError(f"threshold must be a probability in [0, 1], got {t}")
    unit_of, units, X = features(doc)
    p = model.probabilities(X, doc.parent, units)
    unit_keep = (p >= t).astype(np.uint8)
    if headline:
        keep_headline(X, unit_keep)
    return _core.units_keep(doc, unit_of, unit_keep)


_COL = {name: j for j, name in enumerate(_core.FEATURE_NAMES)}


def keep_headline(X, unit_keep, min_overlap: float = 0.6) -> int:
    """Keep the page's headline: if no kept unit reads like the <title>, the
    heading unit before the first kept unit whose tokens are mostly title
    tokens and that covers most of the title (both shares >= `min_overlap`,
    the best sum) is kept.  Returns its index, or -1."""
    if not unit_keep.any():
        return -1
    sim, cov = X[:, _COL["title_sim"]], X[:, _COL["title_cov"]]
    match = (sim >= min_overlap) & (cov >= min_overlap)
    if (match & (unit_keep > 0)).any():
        return -1
    first = int(np.argmax(unit_keep > 0))
    cand = np.flatnonzero(match[:first] & (X[:first, _COL["b_heading"]] > 0))
    if len(cand) == 0:
        return -1
    best = int(cand[np.argmax(sim[cand] + cov[cand])])
    unit_keep[best] = 1
    return best
