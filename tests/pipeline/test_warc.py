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


# ---------------------------------------------------------------- damaged WARCs (issue 15)

def _five(tmp_path, name, compress):
    path = tmp_path / name
    write_warc(path, _pages(5), compress=compress)
    return path


def _members(data: bytes) -> list[int]:
    """Start offsets of the gzip members (one per record, as write_warc writes them)."""
    import zlib
    starts, pos = [], 0
    while pos < len(data):
        starts.append(pos)
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        d.decompress(data[pos:])
        pos = len(data) - len(d.unused_data)
    return starts


def _urls_and_errors(pages):
    return [(p.url, p.error is not None) for p in pages]


def test_gzip_cut_inside_a_record_is_an_error_record(tmp_path):
    data = _five(tmp_path, "a.warc.gz", True).read_bytes()
    m = _members(data)
    cut = data[:m[2] + (m[3] - m[2]) // 2]                       # the file ends inside record 2
    got = list(read_warc(cut))
    assert [p.url for p in got[:2]] == ["http://example.com/0", "http://example.com/1"]
    assert len(got) == 3 and got[2].error.startswith("InputError") and got[2].html is None


def test_plain_cut_inside_a_record_is_an_error_record(tmp_path):
    data = _five(tmp_path, "a.warc", False).read_bytes()
    cut = data[:data.index(b"page 3") + 3]
    got = list(read_warc(cut))
    assert _urls_and_errors(got) == [(f"http://example.com/{i}", i == 3) for i in range(4)]
    assert "cut short" in got[3].error


def test_overlong_content_length_is_an_error_and_reading_resumes(tmp_path):
    data = _five(tmp_path, "a.warc", False).read_bytes()
    k = data.index(b"WARC-Target-URI: http://example.com/1")
    h = data.index(b"Content-Length: ", data.index(b"Content-Type: application/http", k))
    e = data.index(b"\r\n", h)
    n = int(data[h + 16:e])
    bad = data[:h + 16] + str(n + 5000).encode() + data[e:]
    got = list(read_warc(bad))
    assert _urls_and_errors(got) == [(f"http://example.com/{i}", i == 1) for i in range(5)]
    assert "Content-Length" in got[1].error
    assert [p.html for p in got if p.error is None] == [p.html for i, p in enumerate(_pages(5)) if i != 1]


def test_unknown_warc_type_is_an_error_record(tmp_path):
    data = _five(tmp_path, "a.warc", False).read_bytes()
    k = data.index(b"WARC-Type: response", data.index(b"WARC-Type: response") + 1)   # record 1
    bad = data[:k] + b"WARC-Type: respnse" + data[k + len(b"WARC-Type: response"):]
    got = list(read_warc(bad))
    assert _urls_and_errors(got) == [(f"http://example.com/{i}", i == 1) for i in range(5)]
    assert "respnse" in got[1].error


def test_corrupt_deflate_block_resumes_at_the_next_member(tmp_path):
    data = bytearray(_five(tmp_path, "a.warc.gz", True).read_bytes())
    m = _members(bytes(data))
    mid = m[1] + 12
    data[mid:mid + 40] = bytes(40)                               # zeroes inside member 1's deflate data
    got = list(read_warc(bytes(data)))
    ok = [p.url for p in got if p.error is None]
    assert ok == ["http://example.com/0", "http://example.com/2", "http://example.com/3",
                  "http://example.com/4"]
    assert sum(p.error is not None for p in got) == 1


def test_junk_between_records_is_skipped_with_an_error(tmp_path):
    data = _five(tmp_path, "a.warc", False).read_bytes()
    k = data.index(b"WARC/1.0", 10)
    bad = data[:k] + b"GARBAGE GARBAGE\r\n" + data[k:]
    got = list(read_warc(bad))
    assert [p.url for p in got if p.error is None] == [f"http://example.com/{i}" for i in range(5)]
    assert sum(p.error is not None for p in got) == 1


def test_damaged_records_reach_the_batch_as_error_records(tmp_path):
    data = _five(tmp_path, "a.warc", False).read_bytes()
    bad = data[:data.index(b"page 4") + 3]
    recs = list(extract_many(read_warc(bad), jobs=0, method="cetd"))
    assert len(recs) == 5 and [r["error"] is not None for r in recs] == [False] * 4 + [True]
