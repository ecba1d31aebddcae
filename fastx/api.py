"""The public API: parse a page once, run any registered method on it.

The front door only: :func:`parse` lives in fastx.core.parse, :class:`Extraction` in
fastx.output.extraction; this module runs a registered method between them.
"""
from __future__ import annotations

import numpy as np

from . import methods as _methods
from .core.parse import Doc, parse
from .errors import FastxError, InputError
from .output.extraction import Extraction

__all__ = ["extract", "parse", "methods", "Extraction", "Doc"]


def extract(html: "str | bytes | Doc", url: str | None = None, method: str = "default",
            encoding: str | None = None, render=False, layout=None, **params) -> Extraction:
    """Extract the main content of a page with a registered method.

    >>> r = fastx.extract(page, url="https://example.com/a.html")
    >>> r.text, r.title, r.html
    >>> fastx.extract(page, method="cetd", variant="td")

    Raises only :class:`fastx.FastxError` subclasses on bad input or bad
    parameters; see ``fastx.methods()`` for the method names.

    Methods that use what a browser shows (``method="cetd", variant="htd"``)
    read the page's layout: ``render=True`` renders it in headless Chromium
    (``render=`` may also be a :class:`fastx.render.Renderer`), ``layout=``
    takes one rendered before (a Layout or its saved file); see fastx.render.
    """
    m = _methods.get(method)
    doc = parse(html, url=url, encoding=encoding, full_tree=render is not False)
    if url is None:
        url = doc.url
    if render is not False or layout is not None:
        from .tools.browser import attach
        attach(doc, layout=layout, render=render)
    try:
        keep = _methods.call(m, doc, params)
    except FastxError:
        raise
    except (TypeError, ValueError) as exc:
        raise InputError(f"method {method!r}: {exc}") from exc
    keep = np.ascontiguousarray(keep, dtype=np.uint8)
    return Extraction(text=doc.render_text(keep), title=doc.title, description=doc.description,
                      method=method, url=url, doc=doc, keep=keep)


def methods() -> dict[str, str]:
    """Registered method names with a one-line description each."""
    return _methods.describe()
