# Input check: can lexbor read these bytes directly as UTF-8?

cdef extern from *:
    """
    #include <string.h>
    #if defined(__GNUC__) || defined(__clang__)
    typedef unsigned char fx_u8x16 __attribute__((vector_size(16)));
    typedef signed char fx_i8x16 __attribute__((vector_size(16)));
    /* Length of the prefix of s[0..n) made of 32-byte blocks of ASCII
       without NUL or ESC (SSE2 / NEON through the compiler's vectors). */
    static inline size_t fx_ascii_blocks(const unsigned char *s, size_t n) {
        size_t i = 0;
        while (i + 32 <= n) {
            fx_u8x16 a, b;
            fx_i8x16 bad;
            uint64_t w[2];
            memcpy(&a, s + i, 16);
            memcpy(&b, s + i + 16, 16);
            bad = (a >= 0x80) | (a == 0) | (a == 0x1B) | (b >= 0x80) | (b == 0) | (b == 0x1B);
            memcpy(w, &bad, 16);
            if (w[0] | w[1]) break;
            i += 32;
        }
        return i;
    }
    #else
    static inline size_t fx_ascii_blocks(const unsigned char *s, size_t n) { (void)s; (void)n; return 0; }
    #endif

    /* The scans' fast path: how many bytes from s[i] are 32-byte blocks of
       ASCII without NUL or ESC.  A block holding another byte is then read
       byte by byte: the next attempt waits until i has passed it (*vec_from). */
    static inline size_t fx_ascii_skip(const unsigned char *s, size_t i, size_t n, size_t *vec_from) {
        size_t run;
        if (i < *vec_from || i + 32 > n) return 0;
        run = fx_ascii_blocks(s + i, n - i);
        *vec_from = i + run + 32;
        return run;
    }

    /* 1 if s[0..n) is valid UTF-8 (no overlongs, surrogates or code points
       above U+10FFFF) with no NUL and no ESC byte, else 0.  ASCII is checked
       32 bytes at a time with vectors where the compiler has them, else 8. */
    static int fx_utf8_plain(const unsigned char *s, size_t n) {
        const uint64_t hi = 0x8080808080808080ULL, ones = 0x0101010101010101ULL;
        const uint64_t esc = 0x1B1B1B1B1B1B1B1BULL;
        size_t i = 0, vec_from = 0;
        while (i < n) {
            i += fx_ascii_skip(s, i, n, &vec_from);
            if (i >= n) break;
            if (i + 8 <= n) {
                uint64_t w, e;
                memcpy(&w, s + i, 8);
                e = w ^ esc;
                if (!(w & hi) && !((w - ones) & ~w & hi) && !((e - ones) & ~e & hi)) { i += 8; continue; }
            }
            unsigned char c = s[i];
            if (c < 0x80) {
                if (c == 0 || c == 0x1B) return 0;
                i++;
                continue;
            }
            size_t need; uint32_t cp, min;
            if (c >= 0xC2 && c <= 0xDF) { need = 1; cp = c & 0x1F; min = 0x80; }
            else if (c >= 0xE0 && c <= 0xEF) { need = 2; cp = c & 0x0F; min = 0x800; }
            else if (c >= 0xF0 && c <= 0xF4) { need = 3; cp = c & 0x07; min = 0x10000; }
            else return 0;
            if (i + need >= n) return 0;
            for (size_t k = 1; k <= need; k++) {
                unsigned char d = s[i + k];
                if ((d & 0xC0) != 0x80) return 0;
                cp = (cp << 6) | (d & 0x3F);
            }
            if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
            i += need + 1;
        }
        return 1;
    }
    """
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


cdef extern from *:
    """
    /* Length of the UTF-8 sequence at s[i] (n bytes in all) if it is a
       complete valid one (no overlongs, surrogates or code points above
       U+10FFFF); else minus the length of its maximal valid prefix (at least
       1): the bytes one U+FFFD replaces under Unicode's "maximal subpart"
       practice, as Python's UTF-8 decoder does. */
    static inline long fx_utf8_seq(const unsigned char *s, size_t i, size_t n) {
        unsigned char c = s[i], lo = 0x80, hi = 0xBF;
        size_t need, k;
        if (c >= 0xC2 && c <= 0xDF) need = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0) lo = 0xA0;
            else if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0) lo = 0x90;
            else if (c == 0xF4) hi = 0x8F;
        } else return -1;
        for (k = 1; k <= need; k++) {
            unsigned char d;
            if (i + k >= n) return -(long)k;
            d = s[i + k];
            if (d < lo || d > hi) return -(long)k;
            lo = 0x80; hi = 0xBF;
        }
        return (long)(need + 1);
    }
    """
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
