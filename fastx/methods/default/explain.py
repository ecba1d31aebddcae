"""The explanation of method ``default`` for ``fastx show`` (the explanation protocol of
fastx.tools.show): each block's probability and the features that moved it most, from a
per-feature attribution of the model's log-odds (:func:`tree_contributions`, Saabas'
decision-path method).  Registered with the method (``fastx.methods.explains``).

May import: the default family (its package), the method registry, fastx.errors, numpy.
"""
from __future__ import annotations

import inspect
from pathlib import Path

import numpy as np

from ... import _core
from .. import explains, get as _method
from ...errors import InputError


def tree_contributions(model, X) -> tuple[float, np.ndarray]:
    """Per-feature contributions to a tree ensemble's log-odds: ``(bias, C)`` with
    ``bias + C[u].sum() == log-odds of row u`` (exactly, up to rounding).

    Saabas' decision-path attribution (A. Saabas, "Interpreting random forests",
    2014; the "Saabas" baseline of Lundberg et al., "Consistent individualized
    feature attribution for tree ensembles", 2018): every tree has an expected
    value E(k) at each node k; walking a row's path from the root, the step from
    node k to its child c is credited to the feature k tests,
    ``C[u, feat[k]] += E(c) - E(k)``; the path telescopes from E(root) (the
    bias, summed over trees) to the leaf the row reaches.  The model file keeps
    no training counts, so E(k) is the mean of the leaves below k: the padding
    of `fastx.methods.default`'s complete trees (a shallow leaf copied into every
    slot below it, the nodes between testing +inf) then credits nothing.

    `model`: a ``DefaultModel`` (arrays ``depth``, ``feat``, ``thr``, ``leaf``);
    `X`: float32 (rows, features) from ``fastx.methods.default.features``.  The
    walks are compiled (``_core.gbt_contributions``, the kernel's rule: first
    child when ``x <= thr``, NaN goes there too): rows x trees x depth steps."""
    depth, feat, thr = int(model.depth), np.asarray(model.feat), np.asarray(model.thr)
    leaf = np.asarray(model.leaf, dtype=np.float64)
    trees, inner = feat.shape[0], (1 << depth) - 1
    X = np.asarray(X, dtype=np.float32)
    F = X.shape[1] if X.ndim == 2 else 0
    if trees == 0:
        return 0.0, np.zeros((X.shape[0], F))
    E = np.empty((trees, 2 * inner + 1))
    E[:, inner:] = leaf
    for d in range(depth - 1, -1, -1):          # level by level, bottom-up: E(k) = mean of the children
        a, b = (1 << d) - 1, (1 << (d + 1)) - 1
        E[:, a:b] = 0.5 * (E[:, 2 * a + 1:2 * b + 1:2] + E[:, 2 * a + 2:2 * b + 2:2])
    return float(E[:, 0].sum()), _core.gbt_contributions(depth, feat, thr, E, X.reshape(X.shape[0], F))


def _default_model(model):
    """The model `default` would use for this `model` parameter (None, a DefaultModel or a path)."""
    from .. import default as dm
    if model is None:
        return dm.shipped()
    if isinstance(model, (str, Path)):
        return dm.DefaultModel.load(model)
    if not isinstance(model, dm.DefaultModel):
        raise InputError(f"model must be a DefaultModel or a path, got {type(model).__name__}")
    return model


@explains("default")
def explain_default(doc, top: int = 4, **params) -> dict:
    """The explanation protocol (module docstring) for method ``default``, with its parameters
    (`params`): per node, the probability of its unit (``P(keep)``, the score thresholded) and
    the log-odds; as reason, the unit's verdict and the `top` features that moved its log-odds
    most (:func:`tree_contributions`), each with its value.

    The verdicts are the method's own keep mask (the registered ``default`` run with the same
    parameters), so the report never disagrees with ``fastx.extract``; units kept below the
    threshold (the headline rule, or CETD's selection on a page where no unit reaches it) and
    pages where nothing is kept (no unit reaches the page threshold) say so.  The threshold is
    the one asked for, else the model's: with thresholds per page type (``type_thresholds``),
    the one of the page's most probable type (the ``pt_*`` feature columns, as
    ``_core.default_keep`` picks it)."""
    from .. import default as dm
    reg = _method("default")
    keep = np.asarray(reg.run(doc, **{k: v for k, v in params.items() if k in reg.params}), dtype=bool)
    m = _default_model(params.get("model"))
    threshold = params.get("threshold")
    if threshold is None and getattr(m, "type_thresholds", None) is None:
        threshold = m.threshold
    thr = None if threshold is None else float(threshold)
    ptype = ""
    feat_params = inspect.signature(dm.features).parameters
    unit_of, units, X = dm.features(doc, **{k: v for k, v in params.items() if k in feat_params and k != "doc"})
    n, nu = doc.n, len(units)
    X = m.rows(np.asarray(doc.parent), units, X) if nu else X    # a two-stage model: the context stage's rows
    names = list(m.feature_names)
    if thr is None and nu and params.get("page_threshold") is None:
        types = tuple(getattr(_core, "PAGE_TYPES", ()))
        if types and all(f"pt_{t}" in names for t in types) and len(m.type_thresholds) == len(types):
            k = int(np.argmax(X[0, [names.index(f"pt_{t}") for t in types]]))
            thr, ptype = float(m.type_thresholds[k][0]), f" (the threshold of {types[k]} pages)"
    # units with byte-identical rows (repetitive pages: a listing's cards, hostile runs of one
    # tag) have identical attributions: each distinct row is attributed and explained once
    X = np.ascontiguousarray(X, dtype=np.float32)
    if nu:
        rows = X.view(np.dtype((np.void, X.dtype.itemsize * X.shape[1]))).ravel()
        _, first, same = np.unique(rows, return_index=True, return_inverse=True)
        same = same.ravel()
    else:
        first, same = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    Xd = X[first]                                  # the distinct rows
    bias, C = tree_contributions(m, Xd)
    z = (bias + C.sum(axis=1))[same] if nu else np.zeros(0)
    prob = 1.0 / (1.0 + np.exp(-z))
    unit_of = np.asarray(unit_of, dtype=np.int64)
    has = unit_of >= 0
    p_node = np.full(n, np.nan)
    z_node = np.full(n, np.nan)
    p_node[has] = prob[unit_of[has]]
    z_node[has] = z[unit_of[has]]
    unit_kept = np.zeros(nu, dtype=bool)
    if nu:
        unit_kept[unit_of[has]] = keep[has]
    page_empty = not keep.any()
    reasons = ["not part of any text unit (no text below a block element)"]
    # the `top` features of each distinct row in one sort (each row sorted as np.argsort sorts it
    # alone); a unit's text depends on its row, its verdict and the page, so it is built once
    tops = np.argsort(-np.abs(C), axis=1)[:, :top] if nu else np.zeros((0, top), dtype=np.int64)
    Ct, Xt = np.take_along_axis(C, tops, 1).tolist(), np.take_along_axis(Xd.astype(np.float64), tops, 1).tolist()
    tops_l, pl, zl, same_l, kept_l = tops.tolist(), prob.tolist(), z.tolist(), same.tolist(), unit_kept.tolist()
    said: dict = {}
    for u in range(nu):
        r, kept = same_l[u], kept_l[u]
        text = said.get((r, kept))
        if text is None:
            pu = pl[u]
            verdict = "kept" if kept else "dropped"
            cmp = "" if thr is None else f" {'≥' if pu >= thr else '<'} {thr:.3f}{ptype}"
            if page_empty:
                why = (f"P {pu:.3f}; dropped with the whole page: no unit reaches the page threshold "
                       "(no main content)")
            elif kept and thr is not None and pu < thr:
                why = (f"P {pu:.3f}{cmp}, kept all the same: the headline (reads like the page title), "
                       "CETD's selection on a page where no unit reaches the threshold, or a page rule "
                       f"(a starved page keeps the units from P {dm.STARVED_THRESHOLD:g}; an unsure collection, "
                       f"listing or product, those from {'/'.join(f'{v:g}' for v in dm.REL_SHARE.values())} "
                       "(by type) times its best unit's P)")
            else:
                why = f"P {pu:.3f}{cmp}: {verdict}"
            moved = ", ".join(f"{c:+.2f} {names[j]}={x:.4g}" for j, c, x in zip(tops_l[r], Ct[r], Xt[r]) if c != 0.0)
            text = said[(r, kept)] = (f"{why}. Log-odds {zl[u]:+.2f} = base {bias:+.2f}"
                                      + (f"; moved most by {moved}" if moved else ""))
        reasons.append(text)
    reason = np.where(has, unit_of + 1, 0)
    return {"P(keep)": p_node, "log-odds": z_node, "threshold": thr, "reason": reason,
            "reasons": reasons, "cause": np.full(n, -1)}
