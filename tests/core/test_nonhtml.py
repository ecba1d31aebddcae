"""Non-HTML and compressed input (docs/metadata.md, "Non-HTML input"): through the API and the CLI.

The fixtures in tests/data/nonhtml are small real files (tests/data/nonhtml/make.py regenerates
them with the standard library). What happens to non-HTML bytes is decided by fastx.parse, before
any method runs, so the method does not matter here (cetd: no model file involved).
"""
import gzip
import io
import re
import subprocess
import sys
import tarfile
import zlib
from pathlib import Path

import pytest

import fastx
from fastx.decode import sniff_binary, unwrap

DATA = Path(__file__).resolve().parents[1] / "data" / "nonhtml"
ROOT = Path(__file__).resolve().parents[2]

# file -> None (extracted; the text it must contain) or the InputError message
EXPECTED = {
    "sample.pdf": "not HTML: looks like PDF",
    "sample.png": "not HTML: looks like a PNG image",
    "sample.jpg": "not HTML: looks like a JPEG image",
    "sample.zip": "not HTML: looks like a ZIP archive",
    "sample.elf": "not HTML: looks like an ELF executable",
}
TEXT = {
    "page.html.gz": "served with Content-Encoding: gzip",
    "plain.txt": "Just a line of plain text.",
    "empty.html": "",
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_api_rejects_non_html(name):
    with pytest.raises(fastx.InputError) as exc:
        fastx.extract((DATA / name).read_bytes(), method="cetd")
    assert str(exc.value) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(TEXT))
def test_api_reads_text_and_compressed(name):
    r = fastx.extract((DATA / name).read_bytes(), method="cetd")
    assert TEXT[name] in r.text
    if name == "empty.html":
        assert r.text == "" and r.metadata.title is None


def test_gzip_page_metadata_is_the_page_s():
    r = fastx.extract((DATA / "page.html.gz").read_bytes(), method="cetd")
    assert r.metadata.title == "Compressed page" and r.metadata.language == "en"


def _cli(*args):
    # run from the folder holding the fastx under test (the source tree, or site-packages when a
    # wheel is tested): `python -m` puts the working directory first on sys.path
    return subprocess.run([sys.executable, "-m", "fastx", "extract", "--method", "cetd", *args],
                          capture_output=True, text=True, cwd=Path(fastx.__file__).resolve().parents[1],
                          timeout=120)


@pytest.mark.parametrize("name", sorted(EXPECTED) + sorted(TEXT))
def test_cli(name):
    p = _cli(str(DATA / name))
    if name in EXPECTED:
        assert p.returncode == 1 and p.stdout == ""
        assert f"InputError: {EXPECTED[name]}" in p.stderr
    else:
        assert p.returncode == 0, p.stderr
        assert TEXT[name] in p.stdout


def test_cli_batch_error_records():
    import json
    p = _cli("--format", "json", str(DATA / "sample.pdf"), str(DATA / "page.html.gz"))
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    assert recs[0]["error"] == "InputError: not HTML: looks like PDF" and recs[0]["text"] is None
    assert recs[1]["error"] is None and recs[1]["title"] == "Compressed page"
    assert p.returncode == 1


@pytest.mark.parametrize("data, kind", [
    (b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "a GIF image"),
    (b"RIFF\x1a\x00\x00\x00WEBPVP8 ", "a WebP image"),
    (b"7z\xbc\xaf\x27\x1c\x00\x04", "a 7z archive"),
    (b"Rar!\x1a\x07\x01\x00", "a RAR archive"),
    (b"MZ\x90\x00\x03" + bytes(59) + b"PE\x00\x00", "a Windows executable (PE)"),
    (b"\xcf\xfa\xed\xfe\x07\x00\x00\x01", "a Mach-O executable"),
    (bytes(range(256)) * 8, "binary data"),
])
def test_signatures(data, kind):
    assert sniff_binary(data) == kind
    with pytest.raises(fastx.InputError, match=re.escape(f"not HTML: looks like {kind}")):
        fastx.parse(data)


def test_tar_archive():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        info = tarfile.TarInfo("page.html")
        info.size = 5
        tf.addfile(info, io.BytesIO(b"<p>x\n"))
    assert sniff_binary(buf.getvalue()) == "a tar archive"
    with pytest.raises(fastx.InputError, match="looks like a tar archive inside gzip-compressed data"):
        fastx.parse(gzip.compress(buf.getvalue()))


def test_text_is_not_binary():
    page = "<html><body><p>Ünïcödé 中文 text</p></body></html>"
    for data in (page.encode(), page.encode("utf-16"), page.encode("utf-16-le"), page.encode("utf-16-be"),
                 page.encode("utf-32"), b"plain text\x0c with a form feed\x1b$B and ESC",
                 b"<p>one stray NUL\x00 in a page</p>" + b"<p>more text</p>" * 300,
                 b"<p>archive padding</p>" + bytes(8192), bytes(100)):
        assert sniff_binary(data) is None, data[:40]


def test_gzip_variants():
    page = b"<title>T</title><p>" + b"hello " * 1000 + b"</p>"
    two = gzip.compress(page[:100]) + gzip.compress(page[100:])      # concatenated members
    assert unwrap(two, 10 ** 6) == page
    assert unwrap(gzip.compress(page)[:-20], 10 ** 6) == page[:len(unwrap(gzip.compress(page)[:-20], 10 ** 6))]
    with pytest.raises(fastx.InputError, match="corrupt gzip"):
        unwrap(b"\x1f\x8b\x08\x00garbage-not-deflate", 10 ** 6)
    with pytest.raises(fastx.InputError, match="not HTML: looks like binary data"):
        fastx.parse(zlib.compress(page))      # zlib is not a page format: binary bytes


def test_decompression_bomb_is_bounded():
    bomb = gzip.compress(b" " * 50_000_000)            # 50 MB of spaces in ~50 KB
    assert len(bomb) < 100_000
    with pytest.raises(fastx.InputError, match="decompresses to more than"):
        unwrap(bomb, 1_000_000)
    import fastx.core.parse as core_parse
    old = core_parse.MAX_BYTES
    try:
        core_parse.MAX_BYTES = 1_000_000
        with pytest.raises(fastx.InputError, match="decompresses to more than fastx's limit of 1,000,000"):
            fastx.parse(bomb)
    finally:
        core_parse.MAX_BYTES = old


def test_zstd_and_brotli():
    page = b"<title>Z</title><p>compressed page text</p>"
    zstandard = pytest.importorskip("zstandard")
    assert unwrap(zstandard.ZstdCompressor().compress(page), 10 ** 6) == page
    with pytest.raises(fastx.InputError, match="decompresses to more than"):
        unwrap(zstandard.ZstdCompressor().compress(b" " * 5_000_000), 100_000)
    brotli = pytest.importorskip("brotli")
    assert unwrap(brotli.compress(page), 10 ** 6) == page
    assert "compressed page text" in fastx.extract(brotli.compress(page), method="cetd").text
    varied = b"".join(b"<p>%d</p>" % i for i in range(500_000))      # 4.4 MB; brotli has no magic
    with pytest.raises(fastx.InputError, match="decompresses to more than"):  # bytes: it is tried on
        unwrap(brotli.compress(varied), 100_000)                            # binary-looking ones


def test_zstd_without_library(monkeypatch):
    import builtins
    real = builtins.__import__

    def no_zstd(name, *a, **k):
        if name == "zstandard":
            raise ImportError(name)
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", no_zstd)
    with pytest.raises(fastx.InputError, match=r"zstd-compressed; install .*fastx-extract\[compressed\]"):
        fastx.parse(b"\x28\xb5\x2f\xfd" + bytes(20))


@pytest.mark.parametrize("seed", range(4))
def test_control_bytes_counts_every_byte(seed):
    # the compiled count (eight bytes at a time where a word holds no control byte) against
    # a byte-by-byte count, on bytes where controls, NULs and DEL fall at every offset
    import random
    from fastx import _core
    rnd = random.Random(seed)
    pool = [0, 1, 9, 10, 12, 13, 27, 31, 32, 65, 126, 127, 128, 255]
    for n in (0, 1, 7, 8, 9, 63, 4095, 4096, 4097, 10_000):
        data = bytes(rnd.choice(pool) if rnd.random() < 0.3 else rnd.randrange(32, 127) for _ in range(n))
        for limit in (4096, 5):
            head = data[:limit]
            want = (sum(1 for c in head if (c < 32 and c not in (9, 10, 12, 13, 27)) or c == 127), head.count(0))
            assert _core.control_bytes(data, limit) == want
