"""Learned site rules as a method (seeds/001): ``method="site"`` with ``model=`` or ``rules=``.

>>> model = fastx.SiteModel.learn(pages)
>>> fastx.extract(page, method="site", model=model)
>>> fastx.extract(page, method="site", rules="site.json")

This folder: the method (here), its model (``model.py``: SiteModel, learning and applying
the rules) and its kernels (``_kernels.pxi``: consolidated selectors matched in one sweep).  May
import core/, output/ (Extraction), the registry, ``bayes.model``'s JSON reader and
fastx.errors; the browser only lazily (learning with rendered styles).
"""
from __future__ import annotations

import os

from ...errors import InputError
from .. import register

_LOADED: dict = {}


def _model(model, rules):
    from .model import SiteModel
    if model is not None and rules is not None:
        raise InputError("pass either model= or rules=, not both")
    if model is not None:
        if not isinstance(model, SiteModel):
            raise InputError(f"model= must be a fastx.SiteModel, got {type(model).__name__}")
        return model
    if rules is None:
        raise InputError("method 'site' applies learned site rules: pass model= (fastx.SiteModel.learn(pages)) "
                         "or rules= (a file written by SiteModel.save / `fastx learn-site`)")
    if isinstance(rules, dict):
        return SiteModel.from_dict(rules)
    path = os.fspath(rules)
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        stamp = None
    hit = _LOADED.get(path)
    if hit is None or hit[0] != stamp:
        hit = _LOADED[path] = (stamp, SiteModel.load(path))
    return hit[1]


@register("site", "learned site rules: consolidated CSS selectors from clustered text blocks "
                  "(Zhou & Sun; pass model= or rules=)",
          needs="model= or rules= learned from pages of the site (fastx.SiteModel.learn)")
def site(doc, model=None, rules=None):
    """Keep mask of a learned SiteModel's rules over `doc` (no clustering at extraction time)."""
    return _model(model, rules).keep(doc)
