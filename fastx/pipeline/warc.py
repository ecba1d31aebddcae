"""WARC input: the HTML responses of a web archive as fastx pages (FastWARC).

>>> from fastx.warc import read_warc
>>> for page in read_warc("CC-MAIN-...-00000.warc.gz"):
...     page.url, page.encoding, len(page.html)
>>> for rec in fastx.extract_many(read_warc(path), jobs=4):
...     ...

Plain and gzip WARCs (one member per record, as Common Crawl writes them, or
one stream) are read by fastx's own record reader, which survives damage:
every damaged record becomes a page carrying the error (a record cut short by
the end of the file, a Content-Length that runs past the record's end, a
missing or unknown ``WARC-Type``, a header that is not a WARC header, a corrupt
gzip member), and reading resumes at the next intact record (the next
``WARC/1.x`` header line; in a gzip file, the next gzip member header after a
corrupt deflate block).  zstd, lz4 and brotli WARCs are read by FastWARC
(``pip install 'fastx-extract[warc]'``), which stops at the first damage.
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
from typing import Any, BinaryIO, Iterable, Iterator

from .batch import Page
from ..errors import InputError

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


# ---------------------------------------------------------------- fastx's own reader (plain, gzip)

WARC_TYPES = ("warcinfo", "response", "resource", "request", "metadata", "revisit", "conversion",
              "continuation")
_MAX_HEADER = 1 << 16            # bytes of one WARC or HTTP header block
_CHUNK = 1 << 16
_GZIP_MAGIC = b"\x1f\x8b\x08"


class _Damage:
    """A marker in the decompressed stream: bytes were lost here (corrupt or cut gzip member)."""

    def __init__(self, why: str):
        self.why = why


def _plain_chunks(raw) -> Iterator[bytes]:
    while True:
        data = raw.read(_CHUNK)
        if not data:
            return
        yield data


def _gzip_chunks(raw) -> Iterator["bytes | _Damage"]:
    """The decompressed bytes of consecutive gzip members.  A member whose deflate data is
    corrupt, or cut by the end of the file, yields a _Damage; decompression resumes at the
    next gzip member header (1f 8b 08) after the damaged member's start."""
    pending = b""
    eof = False
    d = None
    while True:
        if not pending and not eof:
            pending = raw.read(_CHUNK)
            eof = not pending
        if not pending:
            if d is not None and not d.eof:
                yield _Damage("the file ends inside a gzip member")
            return
        if d is None:
            if len(pending) < 3 and not eof:
                more = raw.read(_CHUNK)
                eof = not more
                pending += more
                continue
            if not pending.startswith(_GZIP_MAGIC):
                if not pending.strip(b"\x00\r\n\t "):     # padding between members
                    pending = b""
                    continue
                yield _Damage("bytes that are not a gzip member")
                pending = yield from _gzip_resync(raw, pending, 1)
                if pending is None:
                    return
                continue
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            out = d.decompress(pending, 1 << 22)
        except zlib.error as exc:
            yield _Damage(f"corrupt gzip data ({exc})")
            d = None
            pending = yield from _gzip_resync(raw, pending, 1)
            if pending is None:
                return
            continue
        if out:
            yield out
        if d.eof:
            pending = d.unused_data
            d = None
        else:
            pending = d.unconsumed_tail
            if not pending and eof:
                yield _Damage("the file ends inside a gzip member")
                return


def _gzip_resync(raw, pending: bytes, start: int):
    """Skip to the next gzip member header at or after pending[start:]; returns the bytes from
    there (None at the end of the file).  A generator only so the caller can `yield from` it."""
    if False:
        yield
    while True:
        k = pending.find(_GZIP_MAGIC, start)
        if k >= 0:
            return pending[k:]
        keep = pending[-2:]
        more = raw.read(_CHUNK)
        if not more:
            return None
        pending, start = keep + more, 0


class _Records:
    """WARC records from a stream of decompressed chunks (and _Damage markers): yields
    (headers, block, error) with headers a dict of lower-case names, error None for an
    intact record.  A damaged record yields its error and reading resumes at the next
    'WARC/1.' line."""

    def __init__(self, chunks):
        self.chunks = iter(chunks)
        self.buf = bytearray()
        self.pos = 0
        self.marks: list[tuple[int, str]] = []     # (buffer index, why) of each damage marker
        self.done = False

    def _fill(self) -> bool:
        """Read one more chunk into the buffer; False at the end."""
        if self.done:
            return False
        if self.pos > (1 << 20) and self.pos > len(self.buf) // 2:
            del self.buf[:self.pos]
            self.marks = [(i - self.pos, w) for i, w in self.marks if i >= self.pos]
            self.pos = 0
        for item in self.chunks:
            if isinstance(item, _Damage):
                self.marks.append((len(self.buf), item.why))
                self.buf += b"\n"         # a damage is a record boundary: resync from here
                return True
            self.buf += item
            return True
        self.done = True
        return False

    def _find(self, needle: bytes, start: int, limit: int | None = None) -> int:
        """Index of needle at or after start (absolute buffer index), filling as needed; -1."""
        while True:
            k = self.buf.find(needle, start)
            if k >= 0 and (limit is None or k - start <= limit):
                return k
            if k >= 0 or (limit is not None and len(self.buf) - start > limit) or not self._fill():
                return -1

    def _need(self, end: int) -> bool:
        while len(self.buf) < end:
            if not self._fill():
                return False
        return True

    def _resync(self, start: int) -> bool:
        """Move to the next line that starts 'WARC/1.' at or after start; False at the end."""
        while True:
            k = self._find(b"WARC/1.", start)
            if k < 0:
                self.pos = len(self.buf)
                return False
            if k == 0 or self.buf[k - 1] in (10, 13):
                self.pos = k
                self.marks = [(i, w) for i, w in self.marks if i >= k]    # reported with the record
                return True
            start = k + 1

    def __iter__(self):
        while True:
            # skip the blank lines between records
            while True:
                if self.pos >= len(self.buf) and not self._fill():
                    late = [w for i, w in self.marks if i >= self.pos]
                    if late:
                        yield None, b"", f"the WARC ends in damaged data: {late[0]}"
                    return
                while self.pos < len(self.buf) and self.buf[self.pos] in b"\r\n\t \x00":
                    self.pos += 1
                if self.pos < len(self.buf):
                    break
            start = self.pos
            lost = [w for i, w in self.marks if i < start]
            self.marks = [(i, w) for i, w in self.marks if i >= start]
            if lost:        # damage where a record should begin: its record is lost
                yield None, b"", f"a damaged WARC record (nothing of it could be read): {lost[0]}"
            if not self._need(start + 7) or bytes(self.buf[start:start + 7]) != b"WARC/1.":
                got = bytes(self.buf[start:start + 40])
                yield None, b"", f"not a WARC record header at this point (starts {got!r})"
                if not self._resync(start + 1):
                    return
                continue
            end = self._find(b"\r\n\r\n", start, _MAX_HEADER)
            if end < 0:
                yield None, b"", ("the WARC ends inside a record header" if self.done and
                                  len(self.buf) - start <= _MAX_HEADER else "a WARC record header over 64 KB")
                if not self._resync(start + 1):
                    return
                continue
            headers = _parse_headers(bytes(self.buf[start:end]).decode("utf-8", "replace").split("\r\n")[1:])
            if any(start <= i < end for i, _ in self.marks):
                yield headers, b"", "the WARC record's header is damaged"
                if not self._resync(start + 1):
                    return
                continue
            body_at = end + 4
            length = headers.get("content-length", "").strip()
            if not length.isdigit():
                yield headers, b"", f"a WARC record without a valid Content-Length ({length!r})"
                if not self._resync(body_at):
                    return
                continue
            n = int(length)
            complete = self._need(body_at + n + 4)
            if not complete:
                got = max(0, len(self.buf) - body_at)
                yield headers, b"", (f"the WARC record is cut short: Content-Length {n}, "
                                     f"{min(got, n)} bytes before the end of the file")
                if not self._resync(body_at):
                    return
                continue
            hurt = [w for i, w in self.marks if start <= i < body_at + n + 4]
            if hurt:
                yield headers, b"", f"the WARC record's data is damaged: {hurt[0]}"
                if not self._resync(body_at):
                    return
                continue
            if bytes(self.buf[body_at + n:body_at + n + 4]) != b"\r\n\r\n":
                yield headers, b"", (f"the WARC record's Content-Length ({n}) does not end the record "
                                     "(it runs past the record's end, or the record is damaged)")
                if not self._resync(body_at):
                    return
                continue
            block = bytes(self.buf[body_at:body_at + n])
            self.pos = body_at + n + 4
            yield headers, block, None


def _parse_headers(lines: list[str]) -> dict:
    headers: dict[str, str] = {}
    for line in lines:
        if ":" in line:
            k, v = line.split(":", 1)
            headers.setdefault(k.strip().lower(), v.strip())
    return headers


def _dechunk(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(data):
        j = data.find(b"\r\n", i)
        if j < 0:
            raise ValueError("chunked transfer encoding cut short")
        size = int(data[i:j].split(b";", 1)[0].strip() or b"0", 16)
        if size == 0:
            break
        out += data[j + 2:j + 2 + size]
        if j + 2 + size > len(data):
            raise ValueError("chunked transfer encoding cut short")
        i = j + 2 + size + 2
    return bytes(out)


def _decode_body(body: bytes, encodings: list[str]) -> bytes:
    for enc in reversed(encodings):
        if enc in ("", "identity"):
            continue
        if enc == "chunked":
            body = _dechunk(body)
        elif enc in ("gzip", "x-gzip"):
            body = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(body, 1 << 30)
        elif enc == "deflate":
            try:
                body = zlib.decompress(body)
            except zlib.error:
                body = zlib.decompress(body, -zlib.MAX_WBITS)
        elif enc == "br":
            import brotli  # optional; ImportError reported as the record's error
            body = brotli.decompress(body)
        else:
            raise ValueError(f"unknown content encoding {enc!r}")
    return body


def _http(block: bytes):
    """(status line ok, lower-case headers, body with its transfer/content encodings undone)."""
    end = block.find(b"\r\n\r\n", 0, _MAX_HEADER)
    sep = 4
    if end < 0:
        end = block.find(b"\n\n", 0, _MAX_HEADER)
        sep = 2
    if end < 0 or not block.startswith(b"HTTP/"):
        raise ValueError("the response record holds no HTTP header")
    lines = block[:end].decode("latin-1").replace("\r\n", "\n").split("\n")
    headers = _parse_headers(lines[1:])
    body = block[end + sep:]
    encs = [e.strip().lower() for e in headers.get("transfer-encoding", "").split(",") if e.strip()]
    encs = [e.strip().lower() for e in headers.get("content-encoding", "").split(",") if e.strip()] + encs
    return headers, _decode_body(body, encs)


def _charset(content_type: str | None) -> str | None:
    if not content_type:
        return None
    for part in content_type.split(";")[1:]:
        k, _, v = part.partition("=")
        if k.strip().lower() == "charset" and v.strip().strip("\"'"):
            return v.strip().strip("\"'")
    return None


def _read_own(stream, label: str, html_only: bool, gz: bool) -> Iterator[Page]:
    chunks = _gzip_chunks(stream) if gz else _plain_chunks(stream)
    k = 0
    for headers, block, error in _Records(chunks):
        k += 1
        h = headers or {}
        rid = h.get("warc-record-id") or f"{label}#{k}"
        url = h.get("warc-target-uri") or None
        if error is not None:
            yield Page(input=rid, url=url, error=f"InputError: damaged WARC record in {label}: {error}")
            continue
        wtype = h.get("warc-type", "").strip().lower()
        if wtype not in WARC_TYPES:
            yield Page(input=rid, url=url, error=(f"InputError: WARC record with "
                                                  + (f"unknown WARC-Type {h.get('warc-type')!r}"
                                                     if wtype else "no WARC-Type") + f" in {label}"))
            continue
        if wtype not in ("response", "resource"):
            continue
        try:
            if wtype == "response" and "application/http" in h.get("content-type", "").lower():
                http, body = _http(block)
                ctype = http.get("content-type")
            else:
                body, ctype = block, h.get("content-type")
        except Exception as exc:  # a record's HTTP part that cannot be read: its own error
            if not html_only or _is_html(h.get("content-type"), block[:64]):
                yield Page(input=rid, url=url, error=f"InputError: unreadable WARC record {rid}: {exc}")
            continue
        if html_only and not _is_html(ctype, body[:64]):
            continue
        yield Page(html=body, url=url, encoding=_charset(ctype), input=rid)


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

    Raises InputError if the file cannot be opened (or, for a zstd/lz4/brotli
    WARC, FastWARC is missing).  Input that is not a WARC, and every damaged
    record, becomes a Page with ``error`` set; reading resumes at the next
    intact record (plain and gzip WARCs; see the module's docstring).
    """
    label = name or (str(source) if isinstance(source, (str, os.PathLike)) else "<warc>")
    if isinstance(source, (bytes, bytearray, memoryview)):
        stream: Any = io.BytesIO(bytes(source))
    elif isinstance(source, (str, os.PathLike)):
        try:
            stream = own = open(source, "rb")
        except OSError as exc:
            raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None
    else:
        stream = source
    try:
        head = _peek(stream)
        if head is None:                            # a pipe without peek: read the head, then go on
            head = stream.read(64) or b""
            stream = _Prefixed(head, stream)
        if not _other_compression(head):
            yield from _read_own(stream, label, html_only, head[:3] == _GZIP_MAGIC)
            return
        warc = _fastwarc()
        seekable = getattr(stream, "seekable", None)
        if seekable is not None and not seekable():
            stream = _Forward(stream)
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
            own.close()


def _peek(stream) -> bytes | None:
    """The first bytes of a stream without consuming them (None where that is impossible)."""
    peek = getattr(stream, "peek", None)
    if peek is not None:
        try:
            return peek(64)[:64]
        except Exception:
            return None
    seekable = getattr(stream, "seekable", None)
    if seekable is not None and seekable():
        pos = stream.tell()
        head = stream.read(64)
        stream.seek(pos)
        return head
    return None


class _Prefixed:
    """Bytes already read from a stream, then the stream."""

    def __init__(self, head: bytes, raw):
        self.head, self.raw = head, raw

    def read(self, size: int = -1) -> bytes:
        if self.head:
            out, self.head = (self.head, b"") if size < 0 or size >= len(self.head) else \
                (self.head[:size], self.head[size:])
            return out
        return self.raw.read(size)

    def seekable(self) -> bool:
        return False


def _other_compression(head: bytes) -> bool:
    """zstd or lz4 frame magic (brotli has none): FastWARC's job."""
    return head[:4] in (b"\x28\xb5\x2f\xfd", b"\x04\x22\x4d\x18")


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
    out: BinaryIO = open(target, "wb") if isinstance(target, (str, os.PathLike)) else target
    n = 0
    try:
        for item in pages:
            url, html = (item.url, item.html) if isinstance(item, Page) else item
            body = html.encode("utf-8") if isinstance(html, str) else bytes(html or b"")
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
