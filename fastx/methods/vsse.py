"""VSSE text content extraction (Wu et al., seeds/000, Sect. 4.2-4.4).

Three stages, each registered on its own so the bench can show what it adds:

``vsse-vvtc``   Sect. 4.2: leaves whose vvtc (Formula 1) reaches T1 * MaxVVTC
``vsse-agg``    + Sect. 4.3.1: the seeds' tag paths aggregated by pcs (Formula 2);
                the elements on the aggregated tag path, with their subtrees
``vsse``        + Sect. 4.4: content semantics; paragraphs the punctuation
                characteristic cannot vouch for are kept only if their SimHash
                (Formula 4 weights over the area) lies within T2 bits of the
                SimHash of the page's title + description
``vsse-strict`` Sect. 4.4 applied to every paragraph of the area

>>> fastx.extract(html, method="vsse").text
>>> fastx.extract(html, method="vsse", T1=0.6, T2=5)

Parameters (paper defaults): T1 = 0.8, T2 = 3, L = 1 (Formula 4's constant;
the paper leaves its value open), `characteristics` = the vvtc
characteristics of fastx.characteristics (default: every registered one
with vvtc=True, i.e. punctuation plus the user's).

Where the paper is vague, the reading measured to work on the dev corpora:
the area of an aggregated tag path is every element with that root path
(see fastx._core.vsse_aggregate), and the SimHash test judges only
paragraphs without punctuation: judging every paragraph (``vsse-strict``)
keeps 1-4% of the gold paragraphs at T2 = 3, because a paragraph's
fingerprint is within 3 of 64 bits of the title's only when both are
dominated by the same keywords.
"""
from __future__ import annotations

import numpy as np

from .. import _core
from .. import characteristics as _chars
from ..errors import InputError
from . import register

REFINE = ("unpunctuated", "all", "none")


def seeds(doc, T1: float = 0.8, characteristics=None) -> np.ndarray:
    """Leaves with vvtc_a / MaxVVTC >= T1 (Formula 1, Sect. 5.2), best first."""
    return _core.vvtc_seeds(doc, float(T1), _chars.vvtc_counts(doc, characteristics))


@register("vsse", "VSSE: vvtc seeds, tag-path aggregation, SimHash refinement (paper 000)")
@register("vsse-vvtc", "VSSE stage 1 only: leaves with vvtc >= T1 * MaxVVTC (paper 000, Formula 1)",
          aggregate=False, refine="none")
@register("vsse-agg", "VSSE stages 1-2: vvtc seeds + tag-path aggregation (Formula 2), no SimHash",
          refine="none")
@register("vsse-strict", "VSSE with SimHash judging every paragraph against title + description",
          refine="all")
def vsse(doc, T1: float = 0.8, T2: int = 3, L: float = 1.0, aggregate: bool = True,
         refine: str = "unpunctuated", characteristics=None):
    """Keep mask of VSSE over `doc` (see the module docstring)."""
    if not isinstance(T1, (int, float)) or not 0.0 < T1 <= 1.0:
        raise InputError(f"T1 must be in (0, 1], got {T1!r}")
    if isinstance(T2, bool) or not isinstance(T2, int) or not 0 <= T2 <= 64:
        raise InputError(f"T2 must be an int from 0 to 64 (bits), got {T2!r}")
    if not isinstance(L, (int, float)) or not L > 0:
        raise InputError(f"L must be a positive number, got {L!r}")
    if refine not in REFINE:
        raise InputError(f"refine must be one of {', '.join(REFINE)}, got {refine!r}")
    s = seeds(doc, T1, characteristics)
    if not aggregate:
        keep = np.zeros(doc.n, dtype=np.uint8)
        keep[s] = 1
        return keep
    keep, _ = _core.vsse_aggregate(doc, s)
    if refine != "none":
        keep = _core.vsse_refine(doc, keep, f"{doc.title} {doc.description}", T2, float(L), refine == "all")
    return keep
