"""The public API: parse a page once, run any registered method on it."""
from __future__ import annotations

import re

import os

from dataclasses import dataclass, field

import numpy as np

from . import _core, methods as _methods
from .decode import to_utf8, unwrap
from .errors import FastxError, InputError, ParseError

Doc = _core.Doc
MAX_BYTES = 512 * 1024 * 1024
# lexbor's entry points found in selectolax's module (not on Windows builds): FASTX_BYTE_GUARD=1
# forces the portable byte-level guard instead
_GUARDED_PARSE = _core.parse_available() and not os.environ.get("FASTX_BYTE_GUARD")


def parse(html: "str | bytes | bytearray | memoryview | Doc", url: str | None = None,
          encoding: str | None = None) -> Doc:
    """Parse a page into a :class:`Doc` (the flat node array every method reads).

    `html` may be text or bytes in any encoding (`encoding` is a hint, e.g.
    from an HTTP header; otherwise BOM, <meta charset> and a guess decide).
    A Doc is returned unchanged, so callers can reuse one parse for several
    methods::

        doc = fastx.parse(page_bytes, url=url)
        a = fastx.extract(doc, method="cetd")
        b = fastx.extract(doc, method="cetd-td")
    """
    if isinstance(html, Doc):
        return html
    if not isinstance(html, (str, bytes, bytearray, memoryview)):
        raise InputError(f"fastx needs HTML as str or bytes, got {type(html).__name__}")
    size = len(html)
    if size > MAX_BYTES:
        raise InputError(f"page of {size:,} bytes exceeds fastx's limit of {MAX_BYTES:,} bytes")
    if isinstance(html, str):
        source = html.encode("utf-8", "ignore")
    else:
        # gzip/zstd/brotli decompressed (never past MAX_BYTES); PDF, images, archives, executables
        # and other binary bytes: InputError("not HTML: looks like ...")
        data = unwrap(bytes(html), MAX_BYTES)
        if encoding is None and not data.startswith(b"\xef\xbb\xbf") and _core.utf8_plain(data):
            source = data          # valid UTF-8, no NUL (UTF-16/32) or ESC (ISO-2022): lexbor reads it as is
        else:
            source, _ = to_utf8(data, declared=encoding)     # decode()'s text, as UTF-8 bytes
    # hostile markup: what would make lexbor's tree builder quadratic (nesting past 512, runaway
    # formatting elements, thousands of attributes) is dropped; any other page parses unchanged
    if _GUARDED_PARSE:
        parser = _core.parse_guarded(source)        # the limits read lexbor's own stack (_parse.pxi)
    else:
        from selectolax.lexbor import LexborHTMLParser
        try:
            parser = LexborHTMLParser(_core.guard_html(source))     # a byte-level model of it
        except Exception as exc:  # lexbor reports failures as generic errors
            raise ParseError(f"lexbor could not parse the page: {exc}") from exc
    return _core.build_doc(parser, "", url)


@dataclass
class Extraction:
    """What :func:`extract` returns.

    `text` is the main content (block elements on their own lines), `html`
    the cleaned HTML of the kept nodes (built on first access), `keep` the
    per-node mask over `doc`.
    """
    text: str
    title: str
    description: str
    method: str
    url: str | None
    doc: Doc = field(repr=False)
    keep: np.ndarray = field(repr=False)
    _html: str | None = field(default=None, repr=False)
    _markdown: str | None = field(default=None, repr=False)
    _metadata: "Metadata | None" = field(default=None, repr=False)

    @property
    def metadata(self) -> "Metadata":
        """Page metadata (fastx.metadata.Metadata: title, author, date, ... and where each came
        from in `.source`), computed on first access."""
        if self._metadata is None:
            from .metadata import extract_metadata
            self._metadata = extract_metadata(self.doc, self.url)
        return self._metadata

    @property
    def page_type(self) -> str:
        """The page's type, one of WCXB's seven (``fastx.PAGE_TYPES``: article, forum, product,
        collection, listing, documentation, service), from the compiled page-type model
        (fastx.methods.page_type); ``default`` computes it while extracting, other methods on
        first access."""
        from .methods.page_type import page_type
        return page_type(self.doc)

    @property
    def page_type_probabilities(self) -> dict[str, float]:
        """The page-type model's probability of each of ``fastx.PAGE_TYPES``."""
        from .methods.page_type import PAGE_TYPES, page_type_probabilities
        return dict(zip(PAGE_TYPES, (float(v) for v in page_type_probabilities(self.doc))))

    @property
    def html(self) -> str:
        """The cleaned HTML of the kept nodes in their original structure (``Doc.render_html``),
        made on first access."""
        if self._html is None:
            self._html = self.doc.render_html(self.keep)
        return self._html

    @property
    def markdown(self) -> str:
        """The kept content as Markdown (CommonMark with GitHub tables; ``to_markdown()`` with
        links and images), made on first access."""
        if self._markdown is None:
            self._markdown = self.to_markdown()
        return self._markdown

    def to_markdown(self, links: bool = True, images: bool = True) -> str:
        """The kept content as Markdown: headings, paragraphs, lists, pipe tables, fenced code
        (raw text, language from the class), emphasis, blockquotes, rules; links ``[text](url)``
        and images ``![alt](url)`` unless switched off.  Relative URLs are resolved against
        ``<base href>``, else the canonical URL, else `url`; only http(s), mailto and relative
        URLs (and ``data:image/*`` images) are written.  A compiled pass (fastx/_markdown.pxi)."""
        base = _core.markdown_base(self.doc, self.url)
        return _core.render_markdown(self.doc, self.keep, links=links, images=images, base=base)

    def to_dict(self, html: bool = False, markdown: bool = False) -> dict:
        """Plain dict (for JSON): url, title, description, method, text, the metadata fields
        (fastx.metadata.FIELDS: title is the page's headline, canonical_url the canonical URL),
        and html and markdown if asked."""
        d = {"url": self.url, "title": self.title, "description": self.description,
             "method": self.method, "page_type": self.page_type, "text": self.text}
        m = self.metadata.as_flat()
        m["title"] = m["title"] or self.title
        m["description"] = m["description"] or self.description
        d.update(m)
        if html:
            d["html"] = self.html
        if markdown:
            d["markdown"] = self.markdown
        for k, v in d.items():          # valid UTF-8 out: a caller's url= may hold lone surrogates
            if isinstance(v, str) and not v.isascii():
                d[k] = _utf8_safe(v)
        return d

    def __str__(self) -> str:
        return self.text


def _utf8_safe(s: str) -> str:
    """`s` with every lone surrogate (U+D800-U+DFFF, unencodable in UTF-8) replaced by U+FFFD."""
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return re.sub("[\ud800-\udfff]", "\ufffd", s)


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
    doc = parse(html, url=url, encoding=encoding)
    if url is None:
        url = doc.url
    if render is not False or layout is not None:
        from .render import attach
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
