"""CETD: content extraction via text density (Sun, Song & Liao; seeds/004).

Variants (``variant=``): ``td`` Text Density (Eq. 1), ``ctd`` Composite Text
Density (Eq. 2), ``htd`` Hybrid Text Density (Eq. 3-4, needs rendered
horizontal positions).  Extraction (``extraction=``): ``densitysum``
(DensitySum, Eq. 5, with the Sect. 3.5.2 threshold and Algorithm 2) or
``smooth`` (the CECTD-S baseline: sibling smoothing, then thresholding).

>>> import fastx
>>> fastx.extract(html, method="cetd").text              # CECTD-DS
>>> fastx.extract(html, method="cetd", variant="td").text
>>> fastx.extract(html, method="cetd", variant="htd", positions=boxes)
>>> fastx.extract(html, method="cetd", variant="htd", render=True)   # CEHTD-DS, fastx.render

This folder: the method (here), its kernels (``_kernels.pxi``: TD, CTD, HTD, DensitySum,
the threshold, Algorithm 2, smoothing) and its ``explain`` for ``fastx show``.  May import core/,
the registry and fastx.errors; the browser only lazily (``htd`` with a rendered layout).
"""
from __future__ import annotations

import numpy as np

from ... import _core
from ...errors import InputError, MissingPositionsError
from .. import explains, register

VARIANTS = ("td", "ctd", "htd")
EXTRACTIONS = ("densitysum", "smooth")


def density(doc, variant: str = "ctd", positions=None):
    """Per-node text density of the chosen variant (float64 array over the Doc)."""
    if variant == "td":
        return _core.text_density(doc)
    if variant == "ctd":
        return _core.composite_text_density(doc)
    if variant == "htd":
        if positions is None and doc.cache.get("layout") is not None:
            positions = doc.cache["layout"].positions      # attached by fastx.render.attach
        if positions is None:
            raise MissingPositionsError(
                "variant 'htd' (Hybrid Text Density) needs each node's rendered horizontal extent: "
                "pass render=True (headless Chromium, fastx-extract[render]) or layout= (a fastx.render.Layout), "
                "or positions= (an (n, 2) array of [x1, x2] per Doc node), or use variant 'ctd'")
        return _core.composite_text_density(doc, _core.hybrid_chars(doc, positions))
    raise InputError(f"unknown CETD variant {variant!r}; use one of {', '.join(VARIANTS)}")


@register("cetd", "CECTD-DS: composite text density + DensitySum (CETD paper, best variant)")
@register("cetd-td", "CETD-DS: plain text density + DensitySum (CETD paper)", variant="td")
@register("cetd-s", "CECTD-S: composite text density + sibling smoothing (CETD paper baseline)",
          extraction="smooth")
def cetd(doc, variant: str = "ctd", extraction: str = "densitysum", positions=None):
    """Keep mask of the CETD family over `doc`."""
    d = density(doc, variant, positions)
    if extraction == "densitysum":
        return _core.densitysum_extract(doc, d, _core.density_sum(doc, d))
    if extraction == "smooth":
        return _core.threshold_extract(doc, _core.smooth_siblings(doc, d))
    raise InputError(f"unknown CETD extraction {extraction!r}; use one of {', '.join(EXTRACTIONS)}")


@explains("cetd", "cetd-td", "cetd-s")
def explain(doc, variant: str = "ctd", extraction: str = "densitysum", positions=None):
    """Why `cetd` keeps what it keeps, per node (the hover of ``fastx show``).

    Returns the explanation protocol of ``fastx.show``: per-node scores (the
    first is the one thresholded: TD/CTD/HTD, or its smoothed values for
    ``smooth``; NaN for text nodes, which Algorithm 2 never tests),
    ``DensitySum`` (Eq. 5, of that score), ``threshold`` (Sect. 3.5.2), ``focus`` (the node of
    maximum DensitySum the threshold comes from), and per node a ``reason``
    code into ``reasons`` with the ``cause`` node it names: for kept nodes the
    outermost kept ancestor (a node marked by Algorithm 2), for dropped ones
    the outermost ancestor whose density ends the walk.
    """
    d = density(doc, variant, positions)
    name = variant.upper()
    if extraction == "densitysum":
        score = d
        ds = _core.density_sum(doc, d)
        keep = _core.densitysum_extract(doc, d, ds)
        focus, thr = _core.densitysum_threshold(doc, d, ds)
        judged = doc.kind == _core.KIND_ELEMENT
        reasons = ("outside <body>",
                   f"kept: inside {{cause}}, the node of highest DensitySum in a subtree whose {name} "
                   f"reaches the threshold (Algorithm 2)",
                   f"dropped: {{cause}} has {name} below the threshold, which ends its branch",
                   f"dropped: {name} reaches the threshold on the whole path from <body>, "
                   f"but no highest-DensitySum node covers it")
    elif extraction == "smooth":
        score = _core.smooth_siblings(doc, d)
        ds = _core.density_sum(doc, score)
        keep = _core.threshold_extract(doc, score)
        focus, thr = _core.densitysum_threshold(doc, score, ds)
        judged = np.ones(doc.n, dtype=bool)
        reasons = ("outside <body>",
                   f"kept: smoothed {name} reaches the threshold on the whole path from <body>",
                   f"dropped: {{cause}} has smoothed {name} below the threshold, which ends its branch",
                   "dropped")
        name = f"{name} (smoothed)"
    else:
        raise InputError(f"unknown CETD extraction {extraction!r}; use one of {', '.join(EXTRACTIONS)}")
    n = doc.n
    b = doc.body if doc.body >= 0 else 0
    inside = np.zeros(n, dtype=bool)
    if n:
        inside[b:doc.end[b]] = True
    blocked = inside & judged & (score < thr)
    pruned_by = _outermost(doc, blocked)
    kept_in = _outermost(doc, keep.astype(bool) & inside)
    reason = np.where(~inside, 0, np.where(keep == 1, 1, np.where(pruned_by >= 0, 2, 3))).astype(np.uint8)
    cause = np.where(reason == 1, kept_in, np.where(reason == 2, pruned_by, -1)).astype(np.int32)
    if extraction == "smooth":
        cause[reason == 1] = -1
    shown = np.where(judged, score, np.nan)
    out: dict[str, object] = {name: shown, "DensitySum": np.where(doc.kind == _core.KIND_ELEMENT, ds, np.nan)}
    if extraction == "smooth":
        out[variant.upper()] = np.where(judged, d, np.nan)
    out.update(threshold=float(thr), focus=int(focus), reason=reason, reasons=reasons, cause=cause)
    return out


def _outermost(doc, mask):
    """For each node, the outermost ancestor-or-self where `mask` is set, else -1 (int32).

    No walk: nesting counts from one cumulative sum over the subtree ranges;
    the outermost marked subtrees are disjoint, so each node finds its own by
    a binary search over their starts."""
    n = doc.n
    idx = np.flatnonzero(mask)
    out = np.full(n, -1, dtype=np.int32)
    if not len(idx):
        return out
    delta = np.zeros(n + 1, dtype=np.int64)
    np.add.at(delta, idx, 1)
    np.add.at(delta, doc.end[idx], -1)
    cover = np.cumsum(delta[:n])
    tops = idx[cover[idx] == 1]
    j = np.searchsorted(tops, np.arange(n), side="right") - 1
    hit = cover > 0
    out[hit] = tops[j[hit]]
    return out
