"""Regenerate the non-HTML fixtures of tests/test_nonhtml.py with Python's standard library only:
    python tests/data/nonhtml/make.py
Each file is a small but real instance of its format (a PDF that PDF readers open, a PNG and a
JPEG that image viewers show, a ZIP that unzip lists, an ELF executable Linux runs (exit 0),
gzip'd HTML), plus an empty file and plain text."""
import gzip
import struct
import zipfile
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
PAGE = ("<!doctype html><html lang=en><head><meta charset=utf-8><title>Compressed page | Site</title>"
        "</head><body><h1>Compressed page</h1><p>This page was served with Content-Encoding: gzip "
        "and saved as it came over the wire.</p></body></html>\n").encode()


def pdf() -> bytes:
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> >> >>"]
    stream = b"BT /F1 12 Tf 20 50 Td (Hello PDF) Tj ET"
    objs.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, o)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


def png() -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    w = h = 4
    raw = b"".join(b"\x00" + bytes([255, 0, 0] * w) for _ in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# A baseline JPEG of one white 8x8 block (JFIF, standard luminance tables): the smallest
# valid JPEG the stdlib cannot encode for us, written out byte for byte.
JPEG = bytes.fromhex(
    "ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912"
    "130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffc0000b0800"
    "0800080101110000ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b51000"
    "02010303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f0"
    "2433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768"
    "696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3"
    "c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffda0008010100003f00fb"
    "d3ffd9")


def elf() -> bytes:
    """A 64-bit x86-64 Linux executable that calls exit(0): ELF header + one PT_LOAD segment."""
    code = bytes.fromhex("b83c000000" "31ff" "0f05")      # mov eax, 60; xor edi, edi; syscall
    base, ehsize, phsize = 0x400000, 64, 56
    entry = base + ehsize + phsize
    ehdr = (b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
            + struct.pack("<HHIQQQIHHHHHH", 2, 0x3E, 1, entry, ehsize, 0, 0, ehsize, phsize, 1, 0, 0, 0))
    size = ehsize + phsize + len(code)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, base, base, size, size, 0x1000)
    return ehdr + phdr + code


def zip_() -> bytes:
    import io
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("index.html", PAGE)
    return buf.getvalue()


FILES = {
    "sample.pdf": pdf, "sample.png": png, "sample.jpg": lambda: JPEG, "sample.zip": zip_,
    "page.html.gz": lambda: gzip.compress(PAGE, mtime=0), "sample.elf": elf,
    "empty.html": lambda: b"", "plain.txt": lambda: b"Just a line of plain text.\nAnd a second one.\n",
}

if __name__ == "__main__":
    for name, make in FILES.items():
        (HERE / name).write_bytes(make())
        print(name, len(make()), "bytes")
