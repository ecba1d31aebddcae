"""Bytes -> Doc: the guarded parse every method reads (fastx.parse).

Decoding (core/decode.py), the hostile-input bounds (core/_guard.pxi,
core/_parse.pxi) and the one C pass that builds the flat node array
(core/_doc.pxi) meet here.
"""
from __future__ import annotations

import os
import re

from .. import _core
from ..config import BYTE_GUARD_ENV, PARSE_MAX_BYTES
from ..errors import InputError, ParseError
from .decode import to_utf8, unwrap

Doc = _core.Doc
MAX_BYTES = PARSE_MAX_BYTES
# lexbor's entry points found in selectolax's module (not on Windows builds): FASTX_BYTE_GUARD=1
# forces the portable byte-level guard instead
_GUARDED_PARSE = _core.parse_available() and not os.environ.get(BYTE_GUARD_ENV)


_TAG_START = re.compile(rb"<[A-Za-z/!]")


def _close_runaway_title(source: bytes) -> bytes | None:
    """`source` with its ``<title>`` closed before the first tag inside it, when the title has
    no end tag; None when it has one.

    ``<title>`` is RCDATA: without ``</title>`` the tokenizer reads the whole rest of the page
    as the title (HTML Standard 13.2.5.2), so a page whose end tag was lost in transit (crawls
    cut bytes out of pages) parses to an empty body.  libxml2 and the browsers of the pages'
    time ended the title at the next tag; so does this recovery, used only on such pages."""
    low = source.lower()
    start = low.find(b"<title")
    gt = low.find(b">", start) if start >= 0 else -1
    if gt < 0 or low.find(b"</title", gt) >= 0:
        return None
    m = _TAG_START.search(source, gt + 1)
    return None if m is None else source[:m.start()] + b"</title>" + source[m.start():]


def parse(html: "str | bytes | bytearray | memoryview | Doc", url: str | None = None,
          encoding: str | None = None, full_tree: bool = False) -> Doc:
    """Parse a page into a :class:`Doc` (the flat node array every method reads).

    `html` may be text or bytes in any encoding (`encoding` is a hint, e.g.
    from an HTTP header; otherwise BOM, <meta charset> and a guess decide).
    A Doc is returned unchanged, so callers can reuse one parse for several
    methods::

        doc = fastx.parse(page_bytes, url=url)
        a = fastx.extract(doc, method="cetd")
        b = fastx.extract(doc, method="cetd-td")

    What no method reads is passed over, not parsed: the text of ``<script>``
    (JSON-LD excepted) and ``<style>`` elements, the content of ``<svg>``
    elements and the text of long comments (kept as empty comments), half the
    bytes of a modern page.  The Doc is the same either way; ``full_tree=True``
    keeps it in the lexbor tree behind the Doc (``doc.parser``), as the
    browser's render needs (fastx.tools.browser asks for it).
    """
    if isinstance(html, Doc):
        return html
    if not isinstance(html, (str, bytes, bytearray, memoryview)):
        raise InputError(f"fastx needs HTML as str or bytes, got {type(html).__name__}")
    size = len(html)
    if size > MAX_BYTES:
        raise InputError(f"page of {size:,} bytes exceeds fastx's limit of {MAX_BYTES:,} bytes")
    if isinstance(html, str):
        source = _core.utf8_of(html)           # html.encode("utf-8", "ignore"), faster
    else:
        # gzip/zstd/brotli decompressed (never past MAX_BYTES); PDF, images, archives, executables
        # and other binary bytes: InputError("not HTML: looks like ...")
        data = unwrap(bytes(html), MAX_BYTES)
        if encoding is None and not data.startswith(b"\xef\xbb\xbf") and _core.utf8_plain(data):
            source = data          # valid UTF-8, no NUL (UTF-16/32) or ESC (ISO-2022): lexbor reads it as is
        else:
            source, _ = to_utf8(data, declared=encoding)     # decode()'s text, as UTF-8 bytes
    doc = _parse_bytes(source, url, full_tree)
    if "<" in doc.title and doc.body >= 0 and doc.chars[doc.body] == 0:
        # the title holds markup and the body no text: a title without its end tag (the title
        # tested first: reading doc.chars makes its NumPy view, a few microseconds a page)
        repaired = _close_runaway_title(source)
        if repaired is not None:
            doc = _parse_bytes(repaired, url, full_tree)
    return doc


def _parse_bytes(source: bytes, url: str | None, full_tree: bool) -> Doc:
    """The guarded lexbor parse of UTF-8 `source` and the Doc built from it."""
    # hostile markup: what would make lexbor's tree builder quadratic (nesting past 512, runaway
    # formatting elements, thousands of attributes) is dropped; any other page parses unchanged
    if _GUARDED_PARSE:
        # the limits read lexbor's own stack (_parse.pxi)
        parser = _core.parse_guarded(source, full_tree=full_tree)
    else:
        from selectolax.lexbor import LexborHTMLParser
        try:
            guarded = _core.guard_html(source)                 # a byte-level model of it
            assert isinstance(guarded, bytes)                  # (a tuple only with stats=True)
            parser = LexborHTMLParser(guarded)
        except Exception as exc:  # lexbor reports failures as generic errors
            raise ParseError(f"lexbor could not parse the page: {exc}") from exc
        full_tree = True                                       # (nothing passed over)
    # pool: once the Doc goes, parse_guarded's document may serve the next page
    return _core.build_doc(parser, "", url, full_tree=full_tree, pool=_GUARDED_PARSE)


def with_full_tree(doc: Doc) -> Doc:
    """`doc` when its lexbor tree is whole (``doc.full_tree``), else the same page parsed again
    keeping what the first parse passed over: the same nodes at the same indices, for what
    reads the tree itself (the browser's render serializes it, styles and scripts included)."""
    if doc.full_tree:
        return doc
    return _parse_bytes(doc.parser.raw_html, doc.url, True)
