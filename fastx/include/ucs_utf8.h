/* Python text (PEP 393's one-, two- and four-byte code point arrays) as
   UTF-8, lone surrogates dropped: what str.encode("utf-8", "ignore")
   gives, faster on the mostly-ASCII text of HTML (runs of ASCII are
   copied sixteen code points at a time).
   Compiled into fastx._core through core/_utf8.pxi; plain C, no Python. */
#ifndef FX_UCS_UTF8_H
#define FX_UCS_UTF8_H

#include <stdint.h>
#include <string.h>

/* UTF-8 bytes of code point c: 0 for a surrogate (U+D800..U+DFFF). */
static inline size_t fx_utf8_width(uint32_t c) {
    if (c < 0x80) return 1;
    if (c < 0x800) return 2;
    if (c < 0x10000) return (c & 0xF800) == 0xD800 ? 0 : 3;
    return 4;
}

/* Writes code point c as UTF-8 at out (fx_utf8_width(c) bytes). */
static inline size_t fx_utf8_put(uint32_t c, unsigned char *out) {
    if (c < 0x80) { out[0] = (unsigned char)c; return 1; }
    if (c < 0x800) {
        out[0] = (unsigned char)(0xC0 | (c >> 6));
        out[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        if ((c & 0xF800) == 0xD800) return 0;
        out[0] = (unsigned char)(0xE0 | (c >> 12));
        out[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (c >> 18));
    out[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

/* Blocks of 16 code points: fx_<kind>_ascii16(s) is 1 when s[0..16) are
   all below U+0080, fx_<kind>_narrow16(s, out) copies such a block as 16
   bytes (SSE2 / NEON through the compiler's vectors, else plain loops). */
#if defined(__GNUC__) || defined(__clang__)
typedef uint8_t fx_v8x16 __attribute__((vector_size(16)));
typedef uint8_t fx_v8x8 __attribute__((vector_size(8)));
typedef uint8_t fx_v8x4 __attribute__((vector_size(4)));
typedef uint16_t fx_v16x8 __attribute__((vector_size(16)));
typedef uint32_t fx_v32x4 __attribute__((vector_size(16)));

static inline int fx_vzero(const void *v) {
    uint64_t w[2];
    memcpy(w, v, 16);
    return !(w[0] | w[1]);
}
static inline int fx_ucs1_ascii16(const uint8_t *s) {
    fx_v8x16 a;
    memcpy(&a, s, 16);
    a &= 0x80;
    return fx_vzero(&a);
}
static inline void fx_ucs1_narrow16(const uint8_t *s, unsigned char *out) { memcpy(out, s, 16); }
static inline int fx_ucs2_ascii16(const uint16_t *s) {
    fx_v16x8 a, b;
    memcpy(&a, s, 16);
    memcpy(&b, s + 8, 16);
    a = (a | b) & 0xFF80;
    return fx_vzero(&a);
}
static inline void fx_ucs2_narrow16(const uint16_t *s, unsigned char *out) {
    fx_v16x8 a, b;
    fx_v8x8 x, y;
    memcpy(&a, s, 16);
    memcpy(&b, s + 8, 16);
    x = __builtin_convertvector(a, fx_v8x8);
    y = __builtin_convertvector(b, fx_v8x8);
    memcpy(out, &x, 8);
    memcpy(out + 8, &y, 8);
}
static inline int fx_ucs4_ascii16(const uint32_t *s) {
    fx_v32x4 a, b, c, d;
    memcpy(&a, s, 16);
    memcpy(&b, s + 4, 16);
    memcpy(&c, s + 8, 16);
    memcpy(&d, s + 12, 16);
    a = (a | b | c | d) & 0xFFFFFF80u;
    return fx_vzero(&a);
}
static inline void fx_ucs4_narrow16(const uint32_t *s, unsigned char *out) {
    int k;
    for (k = 0; k < 16; k += 4) {
        fx_v32x4 a;
        fx_v8x4 x;
        memcpy(&a, s + k, 16);
        x = __builtin_convertvector(a, fx_v8x4);
        memcpy(out + k, &x, 4);
    }
}
#define FX_BLOCK_FNS(NAME, T)
#else
#define FX_BLOCK_FNS(NAME, T)                                                   \
static inline int fx_##NAME##_ascii16(const T *s) {                             \
    T any = 0;                                                                  \
    int k;                                                                      \
    for (k = 0; k < 16; k++) any |= s[k];                                       \
    return any < 0x80;                                                          \
}                                                                               \
static inline void fx_##NAME##_narrow16(const T *s, unsigned char *out) {       \
    int k;                                                                      \
    for (k = 0; k < 16; k++) out[k] = (unsigned char)s[k];                      \
}
#endif

/* The UTF-8 length and the encoder of one PEP 393 kind (T the code unit).
   Both take 16 code points below U+0080 at a time; a block holding another
   code point is read one code point at a time, and the block test resumes
   after it (text in a non-Latin script does not pay the test at every code
   point). */
#define FX_UCS_UTF8(NAME, T)                                                    \
FX_BLOCK_FNS(NAME, T)                                                           \
static size_t fx_##NAME##_utf8_len(const T *s, size_t n) {                      \
    size_t i = 0, len = 0, end;                                                 \
    while (i < n) {                                                             \
        while (i + 16 <= n && fx_##NAME##_ascii16(s + i)) {                     \
            i += 16;                                                            \
            len += 16;                                                          \
        }                                                                       \
        end = i + 16 < n ? i + 16 : n;                                          \
        for (; i < end; i++) len += fx_utf8_width(s[i]);                        \
    }                                                                           \
    return len;                                                                 \
}                                                                               \
static size_t fx_##NAME##_utf8(const T *s, size_t n, unsigned char *out) {      \
    size_t i = 0, o = 0, end;                                                   \
    while (i < n) {                                                             \
        while (i + 16 <= n && fx_##NAME##_ascii16(s + i)) {                     \
            fx_##NAME##_narrow16(s + i, out + o);                               \
            i += 16;                                                            \
            o += 16;                                                            \
        }                                                                       \
        end = i + 16 < n ? i + 16 : n;                                          \
        for (; i < end; i++) o += fx_utf8_put(s[i], out + o);                   \
    }                                                                           \
    return o;                                                                   \
}

FX_UCS_UTF8(ucs1, uint8_t)
FX_UCS_UTF8(ucs2, uint16_t)
FX_UCS_UTF8(ucs4, uint32_t)

#undef FX_UCS_UTF8
#undef FX_BLOCK_FNS

#endif
