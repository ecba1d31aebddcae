r"""Turn page bytes in any encoding into text, robustly and fast.

Web archives hold pages in every encoding, often mislabelled, truncated,
corrupt or mixed. :func:`decode` never fails on bytes: it picks the encoding
by the rules below, in order, and when nothing fits exactly it decodes with
replacement characters rather than lose the page.

1. ``str`` input is already text.
2. A byte order mark (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE).
3. UTF-16/32 without a BOM, recognised by NUL bytes in alternate positions of
   the first 4 KB (ASCII markup leaves one byte of each code unit zero).
4. Valid UTF-8 with non-ASCII bytes, or bytes with at least twice as many
   valid multi-byte UTF-8 sequences as invalid ones, are UTF-8 whatever the
   page declares: legacy CJK text forms one valid sequence for every two to
   four invalid ones, Western code pages almost none, and pages re-saved as
   UTF-8 (archives, crawlers) often keep a stale ``charset=gb2312``.
5. The encoding declared by the caller (a label or a whole ``Content-Type``
   value, e.g. from HTTP or WARC headers), then those of the
   ``<meta charset>`` / ``<meta http-equiv="Content-Type">`` tags and the XML
   declaration in the first 8 KB, read as WHATWG labels (``gb2312``/``gbk``
   -> gb18030, ``x-sjis``/``shift-jis`` -> cp932, ``iso-8859-1``/``latin1``/
   ``ascii`` -> cp1252, ``euc-kr`` -> cp949, ...). Declared UTF-8 is used if
   valid sequences are at least as many as invalid ones; a multi-byte legacy
   encoding if it decodes strictly; a single-byte one, which cannot fail
   (e.g. the ISO-8859-1 default of many servers), only if no multi-byte
   declaration after it decodes strictly. Otherwise the next rule applies.
6. ASCII is UTF-8 (or ISO-2022-JP if it has its escape sequences).
7. A guess for the rest: gb18030, cp932 (Shift_JIS), EUC-JP, Big5 and
   EUC-KR decode up to 64 KB from the first non-ASCII byte and are scored by
   the share of the non-ASCII bytes they turn into common characters of
   their language (first-level hanzi/kanji, kana, hangul, punctuation),
   against cp1252 scored on Western letters and punctuation. The best decodes
   the whole page, invalid sequences as U+FFFD.

UTF-8 is decoded with its invalid bytes read as cp1252, which restores pages
that mix the two (a UTF-8 template around cp1252 content); a sequence cut off
at the end of the data becomes U+FFFD. Single-byte code pages decode like
WHATWG's windows-1252: a byte the code page leaves undefined becomes the C1
control of the same value. NUL characters become U+FFFD in every result.

Example:

>>> decode("<p>caf\u00e9 \u20ac5</p>".encode("cp1252"))
('<p>café €5</p>', 'cp1252')
>>> decode('<meta charset="gbk"><p>\u4e2d\u6587</p>'.encode("gbk"))
('<meta charset="gbk"><p>中文</p>', 'gb18030')
>>> decode(b"<p>\xe4\xb8\xad\xe6\x96\x87</p>", declared="text/html; charset=ISO-8859-1")
('<p>中文</p>', 'utf-8')
"""

import codecs
import functools
import re

from .. import _core
from ..errors import InputError

__all__ = ["decode", "to_utf8"]

# The name decode() gives UTF-8 that was not valid throughout: its invalid
# bytes were read as cp1252 (so the text differs from a plain UTF-8 decode).
REPAIRED_UTF8 = "utf-8+cp1252"

_HEAD = 8192            # bytes searched for <meta charset> and the XML declaration
_WIDE_HEAD = 4096       # bytes looked at for UTF-16/32 without a BOM
_SAMPLE = 65536         # bytes scored by the guess
_MOSTLY_UTF8 = 2        # valid UTF-8 sequences per invalid one that outweigh any declaration

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),  # before UTF-16 LE, whose BOM it starts with
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

# WHATWG Encoding Standard labels -> the Python codec that decodes them. A
# declaration of UTF-16/32 maps to UTF-8 as in WHATWG: bytes whose declaration
# reads as ASCII are not UTF-16, and real UTF-16/32 is found by BOM or NULs.
_LABELS = {
    label: codec
    for codec, labels in {
        "utf-8": "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8 "
                 "utf-16 utf-16le utf-16be unicodefffe unicodefeff csunicode iso-10646-ucs-2 "
                 "ucs-2 unicode utf-32 utf-32le utf-32be",
        "cp866": "866 cp866 csibm866 ibm866",
        "iso8859_2": "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 "
                     "iso_8859-2:1987 l2 latin2",
        "iso8859_3": "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 "
                     "iso_8859-3:1988 l3 latin3",
        "iso8859_4": "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 "
                     "iso_8859-4:1988 l4 latin4",
        "iso8859_5": "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 "
                     "iso_8859-5 iso_8859-5:1988",
        "iso8859_6": "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 "
                     "iso-8859-6 iso-8859-6-e iso-8859-6-i iso-ir-127 iso8859-6 iso88596 "
                     "iso_8859-6 iso_8859-6:1987",
        "iso8859_7": "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 "
                     "iso8859-7 iso88597 iso_8859-7 iso_8859-7:1987 sun_eu_greek",
        "iso8859_8": "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 "
                     "iso8859-8 iso88598 iso_8859-8 iso_8859-8:1988 visual csiso88598i "
                     "iso-8859-8-i logical",
        "iso8859_10": "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6",
        "iso8859_13": "iso-8859-13 iso8859-13 iso885913",
        "iso8859_14": "iso-8859-14 iso8859-14 iso885914",
        "iso8859_15": "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9",
        "iso8859_16": "iso-8859-16",
        "koi8_r": "cskoi8r koi koi8 koi8-r koi8_r",
        "koi8_u": "koi8-ru koi8-u",
        "mac_roman": "csmacintosh mac macintosh x-mac-roman",
        "mac_cyrillic": "x-mac-cyrillic x-mac-ukrainian",
        "cp874": "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874",
        "cp1250": "cp1250 windows-1250 x-cp1250",
        "cp1251": "cp1251 windows-1251 x-cp1251",
        "cp1252": "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 "
                  "iso8859-1 iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii "
                  "windows-1252 x-cp1252",
        "cp1253": "cp1253 windows-1253 x-cp1253",
        "cp1254": "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 "
                  "iso_8859-9:1989 l5 latin5 windows-1254 x-cp1254",
        "cp1255": "cp1255 windows-1255 x-cp1255",
        "cp1256": "cp1256 windows-1256 x-cp1256",
        "cp1257": "cp1257 windows-1257 x-cp1257",
        "cp1258": "cp1258 windows-1258 x-cp1258",
        "gb18030": "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 "
                   "x-gbk gb18030",
        "big5hkscs": "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
        "euc_jis_2004": "cseucpkdfmtjapanese euc-jp x-euc-jp",
        "iso2022_jp": "csiso2022jp iso-2022-jp",
        "cp932": "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis",
        "cp949": "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 "
                 "ks_c_5601-1989 ksc5601 ksc_5601 windows-949",
    }.items()
    for label in (codec, *labels.split())
}
_MULTI_BYTE = frozenset({"utf-8", "gb18030", "big5hkscs", "euc_jis_2004", "iso2022_jp", "cp932",
                         "cp949"})
_SINGLE_BYTE = frozenset(_LABELS.values()) - _MULTI_BYTE

_CHARSET = re.compile(rb"""charset\s*=\s*["']?\s*([\w.:+-]+)""", re.I)
_META = re.compile(rb"""<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:+-]+)""", re.I)
_XML = re.compile(rb"""\s*<\?xml\s[^>]*?encoding\s*=\s*["']?([\w.:+-]+)""", re.I)
_LONG_RUN = re.compile(rb"[\x80-\xff]{3,}")
_ASCII_RUN = re.compile("[\x00-\x7f]+")
_ASCII_BYTES = bytes(range(0x80))

# Non-ASCII characters of ordinary Western text in cp1252.
_WESTERN = frozenset(
    "\u00a0\u00a1\u00a9\u00ab\u00ae\u00b0\u00b7\u00bb\u00bf"
    "ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÕÖØÙÚÛÜÝßàáâãäåæçèéêëìíîïñòóôõöøùúûüýÿ"
    "ŒœŠšŸŽž€‘’‚“”„–—…•™"
)


def decode(data: bytes | bytearray | memoryview | str, declared: str | None = None) -> tuple[str, str]:
    """Decode page bytes to text; return ``(text, encoding)``.

    ``data`` is bytes, bytearray, memoryview or str (returned unchanged but
    for NULs, with encoding ``"str"``). ``declared`` is an encoding label or a whole
    ``Content-Type`` value from the transport (HTTP, WARC), or None. The
    returned encoding is the Python codec that decoded the text (e.g.
    ``"utf-8"``, ``"gb18030"``, ``"cp932"``, ``"cp1252"``, ``"utf-16-le"``);
    the module docstring gives the rules. Never raises on bytes input; NUL
    characters become U+FFFD.

    Raises:
        InputError: ``data`` is not bytes-like or str, or ``declared`` is
            neither a str nor None.
    """
    if declared is not None and not isinstance(declared, str):
        raise InputError(f"decode(): the declared encoding must be a str or None, "
                         f"not {type(declared).__name__}")
    if isinstance(data, str):
        return data.replace("\x00", "\ufffd"), "str"
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    elif not isinstance(data, bytes):
        raise InputError(f"decode(): expected bytes, bytearray, memoryview or str, "
                         f"not {type(data).__name__}")
    text, payload, codec, encoding = _decode_bytes(data, declared)
    return _text(data, text, payload, codec), encoding


def to_utf8(data: bytes, declared: str | None = None) -> tuple[bytes, str]:
    """``data`` as UTF-8 bytes for the parser, and its encoding: what
    ``decode(data, declared)`` gives, encoded as UTF-8, but valid UTF-8 comes
    back unchanged and single-byte code pages are transcoded in one C pass
    (``_core.single_byte_utf8``) instead of through a str."""
    text, payload, codec, encoding = _decode_bytes(data, declared)
    if text is not None and codec == "utf-8" and payload is data:
        return data, encoding
    if text is None and codec in _SINGLE_BYTE:
        return _core.single_byte_utf8(payload, _utf8_table(codec)), encoding
    return _text(data, text, payload, codec).encode("utf-8", "ignore"), encoding


def _text(data, text, payload, codec):
    """decode()'s text from _decode_bytes' answer: the payload decoded if that is still
    to be done, NUL characters as U+FFFD."""
    if text is None:
        text = _decode_with(payload, codec)
    return text.replace("\x00", "\ufffd") if b"\x00" in data else text


def _decode_bytes(data, declared):
    """Apply the rules of the module docstring to ``data`` (bytes): returns
    ``(text, payload, codec, encoding)``, `text` None when it is still to be
    made: ``_decode_with(payload, codec)`` (the payload is `data` without
    its byte order mark); `encoding` is the name decode() reports."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return None, data[len(bom):], encoding, encoding
    encoding = _sniff_wide(data[:_WIDE_HEAD])
    if encoding:
        return None, data, encoding, encoding
    text = _strict(data, "utf-8")
    if text is not None:
        if not data.isascii():
            return text, data, "utf-8", "utf-8"
        valid = invalid = 0
    else:
        valid, invalid = _core.utf8_counts(data)
        if valid >= _MOSTLY_UTF8 * invalid:
            return None, data, "utf-8", REPAIRED_UTF8
    single_byte = None
    for encoding in _declared(declared, data[:_HEAD]):
        if encoding == "utf-8":
            if text is not None:
                return text, data, "utf-8", "utf-8"
            if valid >= invalid:
                return None, data, "utf-8", REPAIRED_UTF8
        elif encoding in _SINGLE_BYTE:
            single_byte = single_byte or encoding
        else:
            decoded = _strict(data, encoding)
            if decoded is not None:
                return decoded, data, encoding, encoding
    if single_byte:
        return None, data, single_byte, single_byte
    if text is not None:
        if b"\x1b" in data:  # ISO-2022-JP switches character sets by escape sequences
            decoded = _strict(data, "iso2022_jp")
            if decoded is not None:
                return decoded, data, "iso2022_jp", "iso2022_jp"
        return text, data, "utf-8", "utf-8"
    encoding = _guess(data)
    return None, data, encoding, encoding


def _strict(data, encoding):
    """``data`` decoded strictly, or None if it is not valid in ``encoding``."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def _decode_with(data, encoding):
    """``data`` decoded in ``encoding`` without fail: UTF-8 with its invalid
    bytes read as cp1252, single-byte code pages through their filled-in
    table, anything else with invalid sequences as U+FFFD."""
    if encoding == "utf-8":
        return data.decode(encoding, "fastx-utf8-cp1252")
    if encoding in _SINGLE_BYTE:
        return codecs.charmap_decode(data, "strict", _table(encoding))[0]
    return data.decode(encoding, "replace")


def _utf8_fallback(error):
    """Codec error handler for UTF-8: undecodable bytes are read as cp1252, a
    sequence cut off by the end of the data becomes U+FFFD."""
    if error.reason == "unexpected end of data":
        return "\ufffd", error.end
    return _decode_with(error.object[error.start:error.end], "cp1252"), error.end


codecs.register_error("fastx-utf8-cp1252", _utf8_fallback)


@functools.cache
def _table(encoding):
    """The 256-character decoding table of a single-byte code page, with each
    undefined byte mapped to the code point of the same value."""
    return "".join(bytes((b,)).decode(encoding, "ignore") or chr(b) for b in range(256))


@functools.cache
def _utf8_table(encoding):
    """``_core.single_byte_utf8``'s table for a single-byte code page."""
    return _core.single_byte_table(_table(encoding))


def _sniff_wide(head):
    """'utf-16-le', 'utf-16-be', 'utf-32-le' or 'utf-32-be' if the NUL bytes of
    ``head`` sit where ASCII characters leave zeros in that form, else None."""
    if len(head) < 2:
        return None
    size = len(head) // 4 * 4
    quarter = size // 4
    zeros = [head[i:size:4].count(0) for i in range(4)]
    if quarter and zeros[3] == quarter and zeros[2] > 0.9 * quarter and zeros[0] < 0.5 * quarter:
        return "utf-32-le"
    if quarter and zeros[0] == quarter and zeros[1] > 0.9 * quarter and zeros[3] < 0.5 * quarter:
        return "utf-32-be"
    size = len(head) // 2 * 2
    even, odd = head[0:size:2].count(0), head[1:size:2].count(0)
    if odd >= size / 8 and even <= odd / 8:
        return "utf-16-le"
    if even >= size / 8 and odd <= even / 8:
        return "utf-16-be"
    return None


def _declared(declared, head):
    """The Python codecs named by the caller's label, then by the ``<meta>``
    tags and the XML declaration in ``head``, in order; unknown labels skipped."""
    labels = []
    if declared:
        found = _CHARSET.search(declared.encode("ascii", "replace"))
        labels.append(found.group(1).decode("ascii") if found else declared)
    labels.extend(label.decode("ascii") for label in _META.findall(head))
    xml = _XML.match(head)
    if xml:
        labels.append(xml.group(1).decode("ascii"))
    return [codec for codec in map(_lookup, labels) if codec]


def _lookup(label):
    """The Python codec for an encoding label (WHATWG or Python spelling), or None."""
    key = label.strip().strip("\"'").lower()
    if key in _LABELS:
        return _LABELS[key]
    try:
        name = codecs.lookup(key).name
    except (LookupError, ValueError):  # ValueError: NUL or lone surrogate in the label
        return None
    return _LABELS.get(name) or _LABELS.get(name.replace("_", "-"))


def _guess(data):
    """The encoding that best explains undeclared, non-UTF-8 ``data``."""
    first = _core.first_high_byte(data)       # there is one: the data is not valid UTF-8
    sample = data[first:first + _SAMPLE]
    final = first + _SAMPLE >= len(data)
    # Only the non-ASCII runs carry evidence: score them alone, each with the
    # byte after it (the trail byte of a GBK, Big5 or Shift_JIS character,
    # and the 2nd and 4th of a GB18030 four-byte one, may be ASCII), joined as
    # they come.  A run starts where a decoder is between characters, so it
    # decodes as in place, and the scores (shares of non-ASCII bytes) are the
    # whole sample's, at a fraction of the decoding.  One C pass also counts
    # "high byte, space, high byte": Korean separates words by spaces,
    # Chinese and Japanese do not.
    sample, pairs, high = _core.nonascii_islands(sample)
    spaced = pairs > 0.04 * high
    # Western text has its non-ASCII letters one or two at a time between
    # ASCII ones: runs of three or more non-ASCII bytes are no evidence for it.
    text = _decode_with(_LONG_RUN.sub(b"", sample), "cp1252")
    best, best_score = "cp1252", _score(text, _WESTERN, len(sample), 1)
    for encoding, common in _common_chars().items():
        text = codecs.getincrementaldecoder(encoding)("replace").decode(sample, final)
        score = _score(text, common, len(sample), 2)
        if spaced != (encoding == "cp949"):
            score *= 0.8
        if score > best_score:
            best, best_score = encoding, score
    return best


def _score(text, common, size, width):
    """How well ``text``, decoded from ``size`` bytes, is explained: the share
    of the bytes behind its non-ASCII characters that are ``common``
    characters (``width`` bytes each), less those that failed to decode."""
    chars = _ASCII_RUN.sub("", text)
    non_ascii = size - (len(text) - len(chars))
    good = sum(map(common.__contains__, chars))
    return width * (good - chars.count("\ufffd")) / max(non_ascii, 1)


@functools.cache
def _common_chars():
    """For each guessed CJK codec, the characters common in its language:
    punctuation, kana for Japanese, the first-level hanzi/kanji of GB 2312,
    Big5 and JIS X 0208, the hangul of KS X 1001."""
    euc = range(0xA1, 0xFF)
    big5 = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
    japanese = _chars("euc_jp", [0xA1, 0xA4, 0xA5, *range(0xB0, 0xD0)], euc)
    return {
        "gb18030": _chars("gb2312", [0xA1, 0xA3, *range(0xB0, 0xD8)], euc),
        "cp932": japanese,
        "euc_jis_2004": japanese,
        "big5hkscs": _chars("big5", range(0xA1, 0xC6), big5) | _chars("big5", [0xC6], range(0x40, 0x7F)),
        "cp949": _chars("euc_kr", [0xA1, *range(0xB0, 0xC9)], euc),
    }


def _chars(encoding, leads, trails):
    """The characters that the two-byte codes ``leads`` x ``trails`` decode to."""
    return frozenset(
        "".join(bytes((lead, trail)).decode(encoding, "ignore") for lead in leads for trail in trails)
    )


# ---------------------------------------------------------------- non-HTML and compressed input

# (magic bytes at offset 0, what the bytes are); checked before any decoding. File signatures
# from the formats' specifications (PDF 1.7 §7.5.2, PNG §5.2, JFIF, GIF89a, RIFF/WebP, APPNOTE
# 4.3.7 (ZIP), 7z, RAR 4/5, ELF, PE/COFF (MZ), Mach-O, bzip2, xz, SQLite, WebAssembly, ...)
_MAGIC = (
    (b"%PDF-", "PDF"), (b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"), (b"GIF89a", "a GIF image"), (b"PK\x03\x04", "a ZIP archive"),
    (b"PK\x05\x06", "a ZIP archive"), (b"PK\x07\x08", "a ZIP archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive"), (b"Rar!\x1a\x07", "a RAR archive"),
    (b"\x7fELF", "an ELF executable"), (b"\xfe\xed\xfa\xce", "a Mach-O executable"),
    (b"\xfe\xed\xfa\xcf", "a Mach-O executable"), (b"\xce\xfa\xed\xfe", "a Mach-O executable"),
    (b"\xcf\xfa\xed\xfe", "a Mach-O executable"), (b"\xca\xfe\xba\xbe", "a Mach-O universal binary or Java class"),
    (b"BZh", "bzip2-compressed data"), (b"\xfd7zXZ\x00", "xz-compressed data"),
    (b"SQLite format 3\x00", "an SQLite database"), (b"\x00asm", "WebAssembly"),
    (b"OggS", "Ogg media"), (b"ID3", "MP3 audio"), (b"fLaC", "FLAC audio"), (b"\x1aE\xdf\xa3", "Matroska/WebM video"),
    (b"II*\x00", "a TIFF image"), (b"MM\x00*", "a TIFF image"), (b"\x00\x00\x01\x00", "an ICO image"),
    (b"wOFF", "a WOFF font"), (b"wOF2", "a WOFF2 font"), (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an OLE (MS Office) file"),
)
_MAGIC_FIRST = bytes(sorted({m[0] for m, _ in _MAGIC}))
_GZIP, _ZSTD = b"\x1f\x8b", b"\x28\xb5\x2f\xfd"


def sniff_binary(data: bytes) -> str | None:
    """What non-text bytes are ("PDF", "a PNG image", "an ELF executable", "binary data"...),
    or None for text (HTML, XML, plain text in any encoding, UTF-16/32 with or without BOM).

    File signatures first (the first bytes, plus "ustar" at offset 257 for tar, "WEBP" at
    8 for WebP, "ftyp" at 4 for MP4, PE's "MZ" with a PE header); then, over the first
    4 KB less trailing NUL padding: more than 0.5% NUL bytes that are not UTF-16/32's zero
    halves, or more than 5% C0 control bytes (TAB, LF, FF, CR and ESC excepted; random or
    compressed bytes have 10.5%), are binary data. A stray control byte in a page is not;
    bytes that are only NUL padding are an empty page."""
    if not data:
        return None
    if data[0] in _MAGIC_FIRST:
        for magic, what in _MAGIC:
            if data.startswith(magic):
                return what
    if data[4:8] == b"ftyp":
        return "MP4/QuickTime media"
    if data[:4] == b"RIFF" and data[8:12] in (b"WEBP", b"WAVE", b"AVI "):
        return {b"WEBP": "a WebP image", b"WAVE": "WAV audio", b"AVI ": "AVI video"}[data[8:12]]
    if len(data) >= 262 and data[257:262] == b"ustar":
        return "a tar archive"
    if data.startswith(b"MZ") and (b"PE\x00\x00" in data[:4096] or b"This program" in data[:512]):
        return "a Windows executable (PE)"
    controls, nuls = _core.control_bytes(data, 4096)      # the head, without copying it
    if not controls:
        return None
    head = data if len(data) <= 4096 else data[:4096]
    if head.endswith(b"\x00"):
        head = head.rstrip(b"\x00")            # NUL padding after a page (archives, disk images)
        if not head:
            return None                         # padding only: an empty page
        controls, nuls = _core.control_bytes(head, 4096)
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or _sniff_wide(head):
        return None                         # UTF-16/32 text: its NULs are the code units' zero halves
    if nuls > 0.005 * len(head) or controls > 0.05 * len(head):
        return "binary data"
    return None


def _capped(chunks, limit: int, what: str) -> bytes:
    out, size = [], 0
    for c in chunks:
        size += len(c)
        if size > limit:
            raise InputError(f"{what} page decompresses to more than fastx's limit of {limit:,} bytes")
        out.append(c)
    return b"".join(out)


def _gunzip(data: bytes, limit: int):
    import zlib
    step = 1 << 20
    while data:
        d = zlib.decompressobj(wbits=47)        # gzip or zlib header; one member per object
        buf = data
        while True:
            c = d.decompress(buf, step)
            if c:
                yield c
            buf = d.unconsumed_tail
            if d.eof or (not buf and not c):
                break
        if not d.eof:
            break                               # a truncated stream: what it held
        data = d.unused_data.lstrip(b"\x00")    # concatenated gzip members
        if not data.startswith(_GZIP):
            break


def _unzstd(data: bytes, limit: int):
    import io
    try:
        import zstandard
    except ImportError:
        raise InputError("the page is zstd-compressed; install the optional library to read it: "
                         "pip install 'fastx-extract[compressed]' (zstandard)") from None
    with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True) as r:
        while True:
            c = r.read(1 << 20)
            if not c:
                break
            yield c


def _unbrotli(data: bytes, limit: int):
    import brotli
    d = brotli.Decompressor()
    try:
        c = d.process(data, output_buffer_limit=1 << 20)
    except TypeError:   # brotli < 1.2: no bounded output
        raise InputError("the page is brotli-compressed; bounded decompression needs brotli >= 1.2: "
                         "pip install 'fastx-extract[compressed]'") from None
    yield c
    while not d.is_finished() and not d.can_accept_more_data():
        c = d.process(b"", output_buffer_limit=1 << 20)
        if not c:
            break
        yield c


def _looks_brotli(data: bytes) -> bool:
    """Brotli has no signature: binary-looking bytes whose first 64 KB decompress to text are
    taken as brotli-compressed (when the brotli library is installed)."""
    try:
        import brotli
    except ImportError:
        return False
    try:
        d = brotli.Decompressor()
        out = d.process(data[:65536], output_buffer_limit=4096)
    except Exception:  # brotli.error: not brotli
        return False
    return bool(out) and sniff_binary(out[:4096]) is None


def unwrap(data: bytes, limit: int) -> bytes:
    """Page bytes ready for decoding: gzip, zstd and brotli (by magic bytes; brotli by trial)
    decompressed, streaming, never beyond `limit` bytes of output (a decompression bomb is an
    InputError), one level deep; non-HTML bytes (PDF, images, archives, executables, other
    binary data) raise ``InputError("not HTML: looks like PDF")``."""
    what = None
    try:
        if data.startswith(_GZIP):
            what = "gzip"
            data = _capped(_gunzip(data, limit), limit, "the gzip-compressed")
        elif data.startswith(_ZSTD):
            what = "zstd"
            data = _capped(_unzstd(data, limit), limit, "the zstd-compressed")
    except InputError:
        raise
    except Exception as exc:  # zlib.error, zstandard.ZstdError: corrupt compressed data
        raise InputError(f"not HTML: corrupt {what}-compressed data ({exc})") from None
    kind = sniff_binary(data)
    if kind is None:
        return data
    if kind == "binary data" and what is None:
        if _looks_brotli(data):
            try:
                return unwrap(_capped(_unbrotli(data, limit), limit, "the brotli-compressed"), limit)
            except InputError:
                raise
            except Exception as exc:
                raise InputError(f"not HTML: corrupt brotli-compressed data ({exc})") from None
        try:
            import brotli  # noqa: F401
        except ImportError:
            raise InputError("not HTML: looks like binary data (if it is brotli-compressed HTML, "
                             "install the optional library: pip install 'fastx-extract[compressed]')") from None
    inner = f" inside {what}-compressed data" if what else ""
    raise InputError(f"not HTML: looks like {kind}{inner}")
