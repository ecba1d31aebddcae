"""WARC input (fastx.warc, FastWARC): records -> pages -> one output record each."""
import gzip
import io
import json
import sys

import pytest

pytest.importorskip("fastwarc")

import fastx
from fastx import cli
from fastx.batch import Page, extract_many
from fastx.warc import is_warc, read_warc, write_warc

PAGE = ("<html><head><title>{t}</title></head><body><article><h1>{t}</h1>"
        "<p>Paragraph {t}: café, naïve, déjà vu. Long enough to be the main content of a page.</p>"
        "</article></body></html>")


def _pages(n):
    return [Page(html=PAGE.format(t=f"page {i}").encode(), url=f"http://example.com/{i}") for i in range(n)]


def _record(url: str, http: bytes) -> bytes:
    head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{url[-1]}0000000-0000-0000-0000-000000000000>"
            f"\r\nWARC-Target-URI: {url}\r\nContent-Type: application/http; msgtype=response\r\n"
            f"Content-Length: {len(http)}\r\n\r\n").encode()
    return head + http + b"\r\n\r\n"


@pytest.mark.parametrize("name", ["a.warc", "a.warc.gz"])
def test_roundtrip(tmp_path, name):
    path = tmp_path / name
    assert write_warc(path, _pages(20)) == 20
    assert is_warc(path) and is_warc("x", path.read_bytes()[:4096])
    got = list(read_warc(path))
    assert [p.url for p in got] == [f"http://example.com/{i}" for i in range(20)]
    assert [p.html for p in got] == [p.html for p in _pages(20)]
    assert all(p.input.startswith("<urn:uuid:") and p.encoding == "utf-8" for p in got)
    recs = list(extract_many(read_warc(path), jobs=1))
    assert [r["title"] for r in recs] == [f"page {i}" for i in range(20)]
    assert [r["url"] for r in recs] == [p.url for p in got]


def test_http_charset_is_the_decoding_hint():
    body = PAGE.format(t="Café crème").encode("cp1252")
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    (page,) = read_warc(_record("http://x/1", http))
    assert page.encoding.lower() in ("windows-1252", "cp1252")
    assert fastx.extract(page.html, encoding=page.encoding).title == "Café crème"


def test_content_encoding_is_undone_and_non_html_skipped():
    body = gzip.compress(PAGE.format(t="zipped").encode())
    html = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n"
            b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    png = b"HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 4\r\n\r\n\x89PNG"
    data = _record("http://x/1", html) + _record("http://x/2", png)
    pages = list(read_warc(data))
    assert len(pages) == 1 and b"zipped" in pages[0].html
    assert len(list(read_warc(data, html_only=False))) == 2


def test_damaged_input_is_an_error_page_not_an_exception(tmp_path):
    (p,) = list(read_warc(b"this is not a WARC file at all"))
    assert p.error.startswith("InputError") and p.html is None
    recs = list(extract_many(read_warc(b"junk"), jobs=0))
    assert len(recs) == 1 and recs[0]["error"].startswith("InputError")
    with pytest.raises(fastx.InputError):
        list(read_warc(tmp_path / "missing.warc.gz"))


def test_non_seekable_stream(tmp_path):
    path = tmp_path / "s.warc.gz"
    write_warc(path, _pages(5))

    class Pipe(io.RawIOBase):       # like stdin: no seek, no tell
        def __init__(self, data):
            self.buf = io.BytesIO(data)

        def readable(self):
            return True

        def seekable(self):
            return False

        def readinto(self, b):
            return self.buf.readinto(b)

    got = list(read_warc(io.BufferedReader(Pipe(path.read_bytes()))))
    assert [p.url for p in got] == [f"http://example.com/{i}" for i in range(5)]


def test_cli_warc_file_and_stdin(tmp_path, capsys, monkeypatch):
    path = tmp_path / "c.warc.gz"
    write_warc(path, _pages(7))
    assert cli.main(["extract", str(path), "--jobs", "0"]) == 0
    recs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["url"] for r in recs] == [f"http://example.com/{i}" for i in range(7)]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(path.read_bytes()))))
    assert cli.main(["extract", "-", "-q", "--jobs", "0"]) == 0
    recs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["title"] for r in recs] == [f"page {i}" for i in range(7)]
