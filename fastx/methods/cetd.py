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
"""
from __future__ import annotations

from .. import _core
from ..errors import InputError, MissingPositionsError
from . import register

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
                "pass render=True (headless Chromium, fastx[render]) or layout= (a fastx.render.Layout), "
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
