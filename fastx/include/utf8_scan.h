/* UTF-8 scans eight bytes at a time.
   Compiled into fastx._core through core/_utf8.pxi; plain C, no Python. */
#ifndef FX_UTF8_SCAN_H
#define FX_UTF8_SCAN_H

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

#endif
