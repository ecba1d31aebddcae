/* one complete, valid UTF-8 sequence.
   Compiled into fastx._core through core/_utf8.pxi; plain C, no Python. */
#ifndef FX_UTF8_VALID_H
#define FX_UTF8_VALID_H

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

#endif
