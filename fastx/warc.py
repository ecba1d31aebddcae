"""WARC input: the HTML responses of a web archive as fastx pages (FastWARC).

>>> from fastx.warc import read_warc
>>> for page in read_warc("CC-MAIN-...-00000.warc.gz"):
...     page.url, page.encoding, len(page.html)
>>> for rec in fastx.extract_many(read_warc(path), jobs=4):
...     ...

Plain, gzip (one member per record, as Common Crawl writes them), zstd, lz4
and brotli WARCs are detected by FastWARC (``pip install 'fastx-extract[warc]'``).
Each WARC ``response`` (and ``resource``) record whose HTTP Content-Type is
HTML (``text/html``, ``application/xhtml+xml``; a record without a type
counts if its body starts with ``<``) becomes one :class:`fastx.Page`:
``url`` from ``WARC-Target-URI``, ``encoding`` from the HTTP charset (a hint
for fastx's decoder), ``input`` the ``WARC-Record-ID``, ``html`` the HTTP
body with any Content-/Transfer-Encoding (gzip, chunked, ...) undone.  A
record that cannot be read becomes a page carrying the error, so the batch
still reports it: nothing is lost silently.

:func:`write_warc` writes pages as WARC/1.0 response records (for tests,
benchmarks and round trips).
"""
from __future__ import annotations

import gzip as _gzip
import io
import os
import uuid
import zlib
from datetime import datetime, timezone
from typing import BinaryIO, Iterable, Iterator

from .batch import Page
from .errors import InputError

__all__ = ["read_warc", "write_warc", "is_warc", "HTML_TYPES"]

HTML_TYPES = ("text/html", "application/xhtml+xml", "application/xml+xhtml")
_WARC_SUFFIXES = (".warc", ".warc.gz", ".warc.zst", ".warc.lz4", ".warc.br", ".arc", ".arc.gz")


def _fastwarc():
    try:
        from fastwarc import warc
    except ImportError:
        raise InputError("reading WARC files needs FastWARC: pip install 'fastx-extract[warc]'") from None
    return warc


def is_warc(name: "str | os.PathLike", head: bytes | None = None) -> bool:
    """True for a WARC by its name (.warc, .warc.gz, ...) or its first bytes."""
    if str(name).lower().endswith(_WARC_SUFFIXES):
        return True
    if head:
        if head.startswith(b"WARC/"):
            return True
        if head.startswith(b"\x1f\x8b"):
            try:
                return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 5) == b"WARC/"
            except zlib.error:
                return False
    return False


class _Forward:
    """A forward-only view of a pipe (stdin) that answers tell() and no-op seeks, which FastWARC asks for."""

    def __init__(self, raw):
        self.raw = raw
        self.pos = 0

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.pos += len(data)
        return data

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = 0) -> int:
        if (whence == 0 and offset == self.pos) or (whence == 1 and offset == 0):
            return self.pos
        raise OSError(29, "Illegal seek")

    def close(self) -> None:
        pass


def _failed(exc: BaseException) -> bool:
    """FastWARC (Rust) reports some damage as a PanicException, a BaseException: treat those
    like errors, but let interrupts through."""
    return not isinstance(exc, (KeyboardInterrupt, SystemExit, GeneratorExit))


def _is_html(content_type: str | None, body_start: bytes) -> bool:
    if content_type:
        return content_type.split(";", 1)[0].strip().lower() in HTML_TYPES
    return body_start.lstrip()[:1] == b"<"


def read_warc(source: "str | os.PathLike | bytes | BinaryIO", *, html_only: bool = True,
              name: str | None = None) -> Iterator[Page]:
    """Yield one :class:`fastx.Page` per HTML response record of a WARC.

    source: a path, the bytes of a whole WARC file, or a binary stream.
    html_only: skip responses whose HTTP Content-Type is not HTML (images,
        PDFs, ...); with False every response/resource record is a page.
    name: how records without a WARC-Record-ID are named (default: the path).

    Raises InputError if the file cannot be opened (or FastWARC is missing).
    Input that is not a WARC, or a damaged record, becomes a Page with
    ``error`` set (reading stops at a damaged record header).
    """
    warc = _fastwarc()
    label = name or (str(source) if isinstance(source, (str, os.PathLike)) else "<warc>")
    if isinstance(source, (bytes, bytearray, memoryview)):
        stream: object = io.BytesIO(bytes(source))
    elif isinstance(source, (str, os.PathLike)):
        try:
            stream = open(source, "rb")
        except OSError as exc:
            raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None
    else:
        seekable = getattr(source, "seekable", None)
        stream = source if seekable is None or seekable() else _Forward(source)
    try:
        k = 0
        try:
            records = warc.ArchiveIterator(stream, record_types=warc.response | warc.resource,
                                           parse_http=True, auto_decode="all")
        except BaseException as exc:
            if not _failed(exc):
                raise
            yield Page(input=label, error=f"InputError: cannot read {label} as a WARC: {exc}")
            return
        while True:
            try:
                record = next(records)
            except StopIteration:
                return
            except BaseException as exc:  # damaged input: FastWARC's own exception types, or a panic
                if not _failed(exc):
                    raise
                yield Page(input=f"{label}#{k}", error=f"InputError: unreadable WARC record in {label}: {exc}")
                return
            k += 1
            rid = record.record_id or f"{label}#{k}"
            url = record.headers.get("WARC-Target-URI")
            try:
                body = record.reader.read()
                ctype = record.http_content_type if record.is_http else record.headers.get("Content-Type")
                charset = record.http_charset if record.is_http else None
            except BaseException as exc:
                if not _failed(exc):
                    raise
                yield Page(input=rid, url=url, error=f"InputError: unreadable WARC record {rid}: {exc}")
                continue
            if html_only and not _is_html(ctype, body[:64]):
                continue
            yield Page(html=body, url=url, encoding=charset or None, input=rid)
    finally:
        if isinstance(source, (str, os.PathLike)):
            stream.close()  # type: ignore[attr-defined]


def write_warc(target: "str | os.PathLike | BinaryIO", pages: Iterable, *, compress: bool | None = None,
               content_type: str = "text/html; charset=utf-8") -> int:
    """Write pages as WARC/1.0 ``response`` records; return the number written.

    pages: :class:`fastx.Page` objects (html + url) or (url, html) tuples.
    compress: gzip each record as its own member (what Common Crawl does);
        default: when the target's name ends in ``.gz``.
    """
    own = isinstance(target, (str, os.PathLike))
    if compress is None:
        compress = own and str(target).endswith(".gz")
    out: BinaryIO = open(target, "wb") if own else target  # type: ignore[assignment]
    n = 0
    try:
        for item in pages:
            url, html = (item.url, item.html) if isinstance(item, Page) else item
            body = html.encode("utf-8") if isinstance(html, str) else bytes(html)
            http = (f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n"
                    f"Content-Length: {len(body)}\r\n\r\n").encode("latin-1") + body
            date = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
                    f"WARC-Date: {date}\r\nWARC-Target-URI: {url or ''}\r\n"
                    f"Content-Type: application/http; msgtype=response\r\n"
                    f"Content-Length: {len(http)}\r\n\r\n").encode("utf-8")
            record = head + http + b"\r\n\r\n"
            out.write(_gzip.compress(record, compresslevel=6) if compress else record)
            n += 1
    finally:
        if own:
            out.close()
    return n
