"""The method registry: one list of extraction methods for the API, the CLI and the bench.

A method is a function ``run(doc, **params) -> keep`` that returns a uint8
mask over the Doc's nodes (1 = main content).  Register one with
:func:`register` (and its explanation for ``fastx show`` with :func:`explains`);
``fastx.methods()`` lists them.

This folder: the registry (here), one sub-folder per method family (cetd, vsse,
layout_similarity, bayes, site, default), each holding its method (the family's
``__init__.py``), its model and its kernels (``_kernels.pxi``), and ``_labels.py``
(training labels from gold text).  May import core/, output/, fastx.errors and
fastx.config; never pipeline/ or tools/ at import time.
"""
from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, replace
from typing import Callable

from ..errors import InputError, UnknownMethodError


@dataclass(frozen=True)
class Method:
    name: str
    description: str
    run: Callable
    params: tuple[str, ...]
    defaults: dict
    needs: str | None = None   # what a page alone does not give (e.g. a learned site model)
    explain: Callable | None = None    # explain(doc, **params) -> dict for `fastx show` (see explains)


REGISTRY: dict[str, Method] = {}
# modules that register methods when imported; loaded on first use
_MODULES = ("cetd", "layout_similarity", "site", "bayes", "default", "vsse")
_loaded = False


def register(name: str, description: str, *, needs: str | None = None, **defaults):
    """Decorator: add ``fn(doc, **params)`` to the registry under `name`.

    `defaults` fix parameters for this name (e.g. a variant of a family);
    `needs` says what a method requires beyond the page itself (the bench
    skips such methods and says why)."""
    def deco(fn):
        sig = inspect.signature(fn)
        params = tuple(p for p in list(sig.parameters)[1:]
                       if sig.parameters[p].kind in (inspect.Parameter.KEYWORD_ONLY,
                                                     inspect.Parameter.POSITIONAL_OR_KEYWORD))
        REGISTRY[name] = Method(name, description, fn, params, dict(defaults), needs)
        return fn
    return deco


def explains(*names: str):
    """Decorator: register ``fn(doc, **params) -> dict`` as the explanation of the methods
    `names` (the protocol of fastx.tools.show: per-node scores, threshold, focus, reasons).

    The methods must be registered already; ``fastx show`` reads ``Method.explain``."""
    def deco(fn):
        for name in names:
            REGISTRY[name] = replace(REGISTRY[name], explain=fn)
        return fn
    return deco


def _load():
    global _loaded
    if not _loaded:
        for mod in _MODULES:
            importlib.import_module(f"{__name__}.{mod}")
        # registration order is _MODULES' order, whichever family a caller imported first
        # (importing fastx.methods.site.model runs the site family's registration early)
        rank = {f"{__name__}.{mod}": i for i, mod in enumerate(_MODULES)}
        ordered = sorted(REGISTRY.values(), key=lambda m: rank.get(m.run.__module__, len(rank)))
        REGISTRY.clear()
        REGISTRY.update((m.name, m) for m in ordered)
        _loaded = True


def get(name: str) -> Method:
    """The registered method `name`, or UnknownMethodError listing the known ones."""
    _load()
    try:
        return REGISTRY[name]
    except KeyError:
        raise UnknownMethodError(f"unknown method {name!r}; known methods: {', '.join(sorted(REGISTRY))}") from None


def call(method: Method, doc, params: dict):
    """Run `method` on `doc` with user `params` over the registered defaults; check names."""
    if not params:
        return method.run(doc, **method.defaults)
    bad = [k for k in params if k not in method.params]
    if bad:
        raise InputError(f"method {method.name!r} has no parameter {', '.join(map(repr, bad))}; "
                         f"it takes: {', '.join(method.params) or 'none'}")
    return method.run(doc, **{**method.defaults, **params})


def describe() -> dict[str, str]:
    """Method name -> one-line description, in registration order."""
    _load()
    return {name: m.description for name, m in REGISTRY.items()}


def requirements() -> dict[str, str]:
    """Method name -> what it needs beyond the page, for the methods that need something."""
    _load()
    return {name: m.needs for name, m in REGISTRY.items() if m.needs}
