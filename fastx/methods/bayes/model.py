"""Naive Bayes block classification (seeds/003: "Web content extraction based on
Naive Bayes Model").

The page is cut into blocks bottom-up (Sect. 3, step four): every text leaf
climbs to its nearest block node -- ``table``, ``td``, ``tr`` or ``div`` --
and a block node met right after a sibling block node joins that block.  The
paper's baseline blocks on ``<table>`` alone (its Table 3).  Each block is
described by four discretized features (Sect. 4.2-4.3):

================  =============================================  ============================
feature           definition                                     bins (paper)
================  =============================================  ============================
``unlinksum``     characters outside links                       <20, 20-40, 40-60, 60-80,
                                                                 80-100, >100
``link``          linktextsum / textsum (Eq. 2)                  <10%, 10-50%, 50-80%, >80%
``punc``          puncsum / linktextsum (Eq. 3; /1 without       <2%, 2-10%, >10%
                  link characters)
``psum``          ``<p>`` elements                               0, 1-3, >3
================  =============================================  ============================

Training counts, per class (theme block c1, noise c2), how often each
feature falls in each bin; with Laplace smoothing (add ``alpha``)::

    p(x_j = b | c) = (count_c(j, b) + alpha) / (N_c + alpha * bins_j)

A block is a theme block when (Eq. 14 >= Eq. 15)::

    sum_j log p(x_j | c1) [+ log p(c1)]  >=  sum_j log p(x_j | c2) [+ log p(c2)]

computed in log space by ``fastx._core.bayes_keep``.  The paper drops the
priors as constants (Eq. 13-15), so ``use_prior`` is False by default.

>>> model = fastx.BayesModel.fit(pages, gold_texts)
>>> model.save("bayes.json"); model = fastx.BayesModel.load("bayes.json")
>>> fastx.extract(html, method="bayes", model=model).text
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Iterable

import numpy as np

from ... import _core
from .._labels import group_labels, text_node_labels
from ...errors import InputError, ModelError


def read_json(path: "str | Path", what: str):
    """The JSON value stored in file `path` (a model, site rules).  ModelError, naming `what`,
    if the file cannot be read, is not UTF-8 JSON, or nests deeper than Python's JSON parser
    follows (a hostile file nested 5,000 deep raises RecursionError there)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise ModelError(f"{what} {path} is not UTF-8 text: {exc}") from None
    try:
        return json.loads(text)
    except RecursionError:
        raise ModelError(f"{what} {path} nests too deeply to be a fastx file") from None
    except ValueError as exc:
        raise ModelError(f"{what} {path} is not valid JSON: {exc}") from None

__all__ = ["BayesModel", "PAPER_BLOCK_TAGS", "TABLE_BLOCK_TAGS", "PAPER_EDGES", "FEATURES"]

FEATURES = ("unlinksum", "link", "punc", "psum")
PAPER_BLOCK_TAGS = ("table", "td", "tr", "div")
TABLE_BLOCK_TAGS = ("table",)
# A value's bin is the number of edges <= it (Sect. 4.3.1-4.3.4).
PAPER_EDGES = {
    "unlinksum": (20.0, 40.0, 60.0, 80.0, 100.0),
    "link": (0.10, 0.50, 0.80),
    "punc": (0.02, 0.10),
    "psum": (1.0, 4.0),
}
MAXBINS = 16
FORMAT = "fastx-bayes/1"


def block_tag_mask(block_tags: Iterable[str]) -> np.ndarray:
    """uint8 mask over lexbor's static tag ids with the given tags set."""
    mask = np.zeros(1024, dtype=np.uint8)
    for t in block_tags:
        tid = _core.TAG_IDS.get(str(t).lower())
        if tid is None:
            raise InputError(f"unknown block tag {t!r}; use HTML tag names such as 'div' or 'table'")
        mask[tid] = 1
    return mask


def _edge_arrays(edges: dict) -> tuple[np.ndarray, np.ndarray]:
    e = np.zeros((len(FEATURES), MAXBINS), dtype=np.float64)
    ne = np.zeros(len(FEATURES), dtype=np.int32)
    for j, f in enumerate(FEATURES):
        vals = [float(v) for v in edges[f]]
        if len(vals) >= MAXBINS or vals != sorted(vals):
            raise InputError(f"bin edges of {f!r} must be ascending and fewer than {MAXBINS}")
        e[j, :len(vals)] = vals
        ne[j] = len(vals)
    return e, ne


class BayesModel:
    """A trained Naive Bayes block classifier (paper 003)."""

    def __init__(self, counts, block_tags=PAPER_BLOCK_TAGS, edges=None, alpha: float = 1.0,
                 use_prior: bool = False):
        self.block_tags = tuple(block_tags)
        self.edges = {f: tuple(float(v) for v in (edges or PAPER_EDGES)[f]) for f in FEATURES}
        self.counts = np.asarray(counts, dtype=np.float64).reshape(2, len(FEATURES), MAXBINS)
        self.alpha = float(alpha)
        self.use_prior = bool(use_prior)
        if self.alpha <= 0:
            raise InputError("alpha (Laplace smoothing) must be positive")
        self._mask = block_tag_mask(self.block_tags)
        self._e, self._ne = _edge_arrays(self.edges)
        self._loglik, self._logprior = self._tables()

    # ------------------------------------------------------------ training
    @staticmethod
    def count_blocks(doc, label: np.ndarray, ntok: np.ndarray, block_tags=PAPER_BLOCK_TAGS,
                     edges=None) -> np.ndarray:
        """Bin counts (2, 4, MAXBINS) of one page's blocks: class 0 theme
        blocks (at least half of their tokens in the gold), class 1 noise.
        `label`, `ntok`: the page's text-node labels (fastx._labels)."""
        e, ne = _edge_arrays(edges or PAPER_EDGES)
        block_of, feats = _core.bayes_blocks(doc, block_tag_mask(block_tags))
        counts = np.zeros((2, len(FEATURES), MAXBINS), dtype=np.float64)
        if len(feats) == 0:
            return counts
        lab, tok = group_labels(block_of, len(feats), label, ntok)
        bins = _core.bayes_bins(feats, e, ne)
        cls = np.where(lab >= 0.5, 0, 1)
        for j in range(len(FEATURES)):
            np.add.at(counts, (cls, np.full_like(cls, j), bins[:, j]), 1.0)
        return counts

    @classmethod
    def fit(cls, pages, gold_texts, block_tags=PAPER_BLOCK_TAGS, edges=None, alpha: float = 1.0,
            use_prior: bool = False) -> "BayesModel":
        """Train on pages (HTML str/bytes or parsed Docs) and their gold texts."""
        from ...core.parse import parse
        counts = np.zeros((2, len(FEATURES), MAXBINS), dtype=np.float64)
        pages, gold_texts = list(pages), list(gold_texts)
        if len(pages) != len(gold_texts):
            raise InputError(f"fit needs one gold text per page: {len(pages)} pages, {len(gold_texts)} gold texts")
        if not pages:
            raise InputError("fit needs at least one page")
        for page, gold in zip(pages, gold_texts):
            if not isinstance(gold, str):
                raise InputError(f"gold texts must be str, got {type(gold).__name__}")
            doc = parse(page)
            label, ntok = text_node_labels(doc, gold)
            counts += cls.count_blocks(doc, label, ntok, block_tags, edges)
        return cls(counts, block_tags, edges, alpha, use_prior)

    # ------------------------------------------------------------ model
    def _tables(self):
        loglik = np.zeros((2, len(FEATURES), MAXBINS), dtype=np.float64)
        for j, f in enumerate(FEATURES):
            nb = len(self.edges[f]) + 1
            c = self.counts[:, j, :nb]
            loglik[:, j, :nb] = np.log((c + self.alpha) / (c.sum(axis=1, keepdims=True) + self.alpha * nb))
        n = self.counts[:, 0, :].sum(axis=1)
        if self.use_prior and n.sum() > 0:
            logprior = np.log((n + self.alpha) / (n.sum() + 2 * self.alpha))
        else:
            logprior = np.zeros(2)
        return loglik, logprior

    def probabilities(self) -> dict:
        """p(bin | class) per feature: {'theme': {feature: [...]}, 'noise': {...}}."""
        out = {}
        for c, name in enumerate(("theme", "noise")):
            out[name] = {f: np.exp(self._loglik[c, j, :len(self.edges[f]) + 1]).tolist()
                         for j, f in enumerate(FEATURES)}
        return out

    def classify(self, doc, threshold: float = 0.0):
        """(keep mask over the Doc, block of every node, log-odds per block)."""
        return _core.bayes_keep(doc, self._mask, self._e, self._ne, self._loglik, self._logprior, threshold)

    # ------------------------------------------------------------ files
    def to_dict(self) -> dict:
        """The model as plain JSON data (block tags, smoothing, feature bin edges, class counts);
        :meth:`from_dict` reads it back."""
        return {"format": FORMAT, "block_tags": list(self.block_tags), "alpha": self.alpha,
                "use_prior": self.use_prior, "features": list(FEATURES),
                "edges": {f: list(self.edges[f]) for f in FEATURES},
                "counts": {c: {f: self.counts[k, j, :len(self.edges[f]) + 1].tolist()
                               for j, f in enumerate(FEATURES)}
                           for k, c in enumerate(("theme", "noise"))}}

    @classmethod
    def from_dict(cls, d: dict) -> "BayesModel":
        """A BayesModel from :meth:`to_dict`'s data; ``ModelError`` if it is malformed."""
        try:
            if d.get("format") != FORMAT:
                raise ModelError(f"not a fastx Naive Bayes model (format {d.get('format')!r}, "
                                 f"expected {FORMAT!r})")
            edges = {f: tuple(d["edges"][f]) for f in FEATURES}
            counts = np.zeros((2, len(FEATURES), MAXBINS))
            for k, c in enumerate(("theme", "noise")):
                for j, f in enumerate(FEATURES):
                    v = [float(x) for x in d["counts"][c][f]]
                    if len(v) != len(edges[f]) + 1 or any(x < 0 or not math.isfinite(x) for x in v):
                        raise ModelError(f"counts of {f!r} do not match its {len(edges[f])} bin edges")
                    counts[k, j, :len(v)] = v
            return cls(counts, d["block_tags"], edges, float(d["alpha"]), bool(d["use_prior"]))
        except (KeyError, TypeError, ValueError, RecursionError) as exc:
            raise ModelError(f"malformed Naive Bayes model: {type(exc).__name__}: {str(exc)[:200]}") from None

    def save(self, path: "str | Path") -> None:
        """Write the model to `path` as JSON (:meth:`to_dict`)."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: "str | Path") -> "BayesModel":
        """Read a model written by :meth:`save`; ``ModelError`` if it cannot be read."""
        d = read_json(path, "Naive Bayes model")
        return cls.from_dict(d)

    def __repr__(self):
        n = self.counts[:, 0, :].sum(axis=1)
        return f"<BayesModel blocks={'/'.join(self.block_tags)} theme={int(n[0])} noise={int(n[1])}>"
