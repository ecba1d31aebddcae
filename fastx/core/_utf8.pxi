# Input check: can lexbor read these bytes directly as UTF-8?

cdef extern from "utf8_scan.h":
    int fx_utf8_plain(const unsigned char *s, size_t n) nogil
    size_t fx_ascii_skip(const unsigned char *s, size_t i, size_t n, size_t *vec_from) nogil


def utf8_plain(bytes data):
    """True if `data` is valid UTF-8 without NUL or ESC bytes (so it is neither
    UTF-16/32 nor ISO-2022): bytes lexbor can parse as they are."""
    cdef const unsigned char *s = data
    cdef size_t n = len(data)
    cdef int ok
    with nogil:
        ok = fx_utf8_plain(s, n)
    return ok == 1


from cpython.bytes cimport PyBytes_FromStringAndSize

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)

cdef extern from "ucs_utf8.h":
    size_t fx_ucs1_utf8_len(const uint8_t *s, size_t n) nogil
    size_t fx_ucs1_utf8(const uint8_t *s, size_t n, unsigned char *out) nogil
    size_t fx_ucs2_utf8_len(const uint16_t *s, size_t n) nogil
    size_t fx_ucs2_utf8(const uint16_t *s, size_t n, unsigned char *out) nogil
    size_t fx_ucs4_utf8_len(const uint32_t *s, size_t n) nogil
    size_t fx_ucs4_utf8(const uint32_t *s, size_t n, unsigned char *out) nogil


def utf8_of(str text):
    """`text` as UTF-8 bytes, lone surrogates dropped: ``text.encode("utf-8", "ignore")``.

    The parse's first step for a page given as text. CPython encodes one code point at a
    time; this copies runs of ASCII (most of any page's markup) sixteen code points at a time
    (ucs_utf8.h): the exact length in a first pass, the bytes in a second, without the GIL."""
    if PyUnicode_IS_ASCII(text):
        return text.encode("utf-8")         # CPython copies ASCII text as it is
    cdef int kind = PyUnicode_KIND(text)
    cdef const void *data = PyUnicode_DATA(text)
    cdef size_t n = <size_t>PyUnicode_GET_LENGTH(text), size
    with nogil:
        if kind == 1:
            size = fx_ucs1_utf8_len(<const uint8_t *>data, n)
        elif kind == 2:
            size = fx_ucs2_utf8_len(<const uint16_t *>data, n)
        else:
            size = fx_ucs4_utf8_len(<const uint32_t *>data, n)
    cdef bytes out = PyBytes_FromStringAndSize(NULL, <Py_ssize_t>size)
    cdef unsigned char *w = <unsigned char *>PyBytes_AS_STRING(out)
    with nogil:
        if kind == 1:
            fx_ucs1_utf8(<const uint8_t *>data, n, w)
        elif kind == 2:
            fx_ucs2_utf8(<const uint16_t *>data, n, w)
        else:
            fx_ucs4_utf8(<const uint32_t *>data, n, w)
    return out


def nonascii_islands(bytes sample):
    """(islands, spaced, high) of `sample` for the encoding guess (fastx.decode):
    `islands` joins every run of bytes >= 0x80 with the byte after it (what the
    pattern [\\x80-\\xff]+[\\x00-\\x7f]? finds), `spaced` counts the places
    matching [\\x80-\\xff] [\\x80-\\xff] (scanned left to right without overlap,
    as re.findall does), `high` the bytes >= 0x80."""
    cdef const unsigned char *s = sample
    cdef Py_ssize_t n = len(sample), i = 0, o = 0, spaced = 0, high = 0, run
    cdef bint consumed = False      # the run's first byte ended the last counted match
    out = bytearray(n)
    cdef unsigned char *w = out
    with nogil:
        while i < n:
            if s[i] < 0x80:
                i += 1
                consumed = False
                continue
            run = 0
            while i < n and s[i] >= 0x80:
                w[o] = s[i]
                o += 1
                run += 1
                i += 1
            high += run
            if i < n:
                w[o] = s[i]                 # the byte after the run
                o += 1
                if s[i] == 32 and i + 1 < n and s[i + 1] >= 0x80 and not (consumed and run == 1):
                    spaced += 1
                    consumed = True
                else:
                    consumed = False
                i += 1
    return bytes(out[:o]), spaced, high


cdef extern from "utf8_valid.h":
    long fx_utf8_seq(const unsigned char *s, size_t i, size_t n) nogil


def utf8_counts(bytes data):
    """(valid, invalid) of `data` read as UTF-8: complete multi-byte sequences,
    and the U+FFFD a replacing decoder writes (one per maximal invalid subpart,
    as ``data.decode("utf-8", "replace")`` does); the evidence fastx.decode
    weighs for UTF-8 against legacy encodings."""
    cdef const unsigned char *s = data
    cdef size_t n = len(data), i = 0, vec_from = 0
    cdef Py_ssize_t valid = 0, invalid = 0
    cdef long k
    with nogil:
        while i < n:
            i += fx_ascii_skip(s, i, n, &vec_from)
            if i >= n:
                break
            if s[i] < 0x80:
                i += 1
                continue
            k = fx_utf8_seq(s, i, n)
            if k > 0:
                valid += 1
                i += <size_t>k
            else:
                invalid += 1
                i += <size_t>(-k)
    return valid, invalid


def single_byte_utf8(bytes data, bytes table):
    """`data` in a single-byte code page as UTF-8 bytes, in one C pass.

    `table` holds 4 bytes per byte value: the UTF-8 form of its character,
    zero-padded (``single_byte_table`` makes it from a code page's
    256-character decoding table)."""
    if len(table) != 1024:
        raise ValueError("table must hold 4 bytes for each of the 256 byte values")
    cdef const unsigned char *s = data
    cdef const unsigned char *t = table
    cdef size_t n = len(data), i = 0, o = 0, run, k, vec_from = 0
    cdef unsigned char c
    out = bytearray(3 * n)
    cdef unsigned char *w = out
    with nogil:
        while i < n:
            run = fx_ascii_skip(s, i, n, &vec_from)
            memcpy(w + o, s + i, run)
            o += run
            i += run
            if i >= n:
                break
            c = s[i]
            if c < 0x80 and c != 0:
                w[o] = c
                o += 1
            else:
                k = 0
                while k < 3 and t[4 * c + k]:
                    w[o] = t[4 * c + k]
                    o += 1
                    k += 1
            i += 1
    return bytes(out[:o])


def single_byte_table(str chars):
    """The `single_byte_utf8` table of a 256-character decoding table; NUL maps to U+FFFD
    (fastx.decode's rule for NUL characters)."""
    if len(chars) != 256:
        raise ValueError("a single-byte decoding table has 256 characters")
    out = bytearray(1024)
    for b, ch in enumerate(chars):
        u = ("\ufffd" if ch == "\x00" else ch).encode("utf-8", "replace")
        if len(u) > 3:
            raise ValueError(f"byte {b:#04x} maps outside the Basic Multilingual Plane")
        out[4 * b:4 * b + len(u)] = u
    return bytes(out)


def first_high_byte(bytes data):
    """Index of the first byte >= 0x80 in `data`, or -1 (32 bytes at a time)."""
    cdef const unsigned char *s = data
    cdef size_t n = len(data), i = 0, vec_from = 0
    cdef Py_ssize_t found = -1
    with nogil:
        while i < n:
            i += fx_ascii_skip(s, i, n, &vec_from)
            if i >= n:
                break
            if s[i] >= 0x80:
                found = <Py_ssize_t>i
                break
            i += 1
    return found
