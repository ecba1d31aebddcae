"""Bytes -> Doc: the guarded parse every method reads (fastx.parse).

Decoding (core/decode.py), the hostile-input bounds (core/_guard.pxi,
core/_parse.pxi) and the one C pass that builds the flat node array
(core/_doc.pxi) meet here.
"""
from __future__ import annotations

import os

from .. import _core
from ..config import BYTE_GUARD_ENV, PARSE_MAX_BYTES
from ..errors import InputError, ParseError
from .decode import to_utf8, unwrap

Doc = _core.Doc
MAX_BYTES = PARSE_MAX_BYTES
# lexbor's entry points found in selectolax's module (not on Windows builds): FASTX_BYTE_GUARD=1
# forces the portable byte-level guard instead
_GUARDED_PARSE = _core.parse_available() and not os.environ.get(BYTE_GUARD_ENV)


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
            guarded = _core.guard_html(source)                 # a byte-level model of it
            assert isinstance(guarded, bytes)                  # (a tuple only with stats=True)
            parser = LexborHTMLParser(guarded)
        except Exception as exc:  # lexbor reports failures as generic errors
            raise ParseError(f"lexbor could not parse the page: {exc}") from exc
    return _core.build_doc(parser, "", url)
