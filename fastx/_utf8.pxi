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

    /* 1 if s[0..n) is valid UTF-8 (no overlongs, surrogates or code points
       above U+10FFFF) with no NUL and no ESC byte, else 0.  ASCII is checked
       32 bytes at a time with vectors where the compiler has them, else 8. */
    static int fx_utf8_plain(const unsigned char *s, size_t n) {
        const uint64_t hi = 0x8080808080808080ULL, ones = 0x0101010101010101ULL;
        const uint64_t esc = 0x1B1B1B1B1B1B1B1BULL;
        size_t i = 0, vec_from = 0;
        while (i < n) {
            if (i >= vec_from && i + 32 <= n) {
                i += fx_ascii_blocks(s + i, n - i);
                vec_from = i + 32;             /* the block at i holds a special byte: bytewise through it */
                if (i >= n) break;
            }
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
