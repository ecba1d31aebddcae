/* The page row's byte counts over a page's text (methods/default/_kernels.pxi, _gbt_page_row):
   digits, currency signs and question marks.
   Compiled into fastx._core through methods/default/_kernels.pxi; plain C, no Python. */
#ifndef FX_PAGE_BYTES_H
#define FX_PAGE_BYTES_H

#include <stddef.h>

/* Over the UTF-8 bytes s[0..n): *dig the ASCII digits, *cur the currency signs ($, and the
   two- and three-byte £ ¥ = C2 A3, C2 A5 and € ₹ = E2 82 AC, E2 82 B9), *q the '?'.  One
   branch-free pass (each byte and the two after it compared, sums of 0/1), which the
   compiler vectorizes: the counts are the same as a byte-by-byte scan's. */
static void fx_page_byte_counts(const unsigned char *restrict s, size_t n, size_t *dig,
                                size_t *cur, size_t *q) {
    size_t d = 0, c = 0, k = 0, i = 0;
    for (; i + 2 < n; i++) {
        unsigned char b = s[i], b1 = s[i + 1], b2 = s[i + 2];
        d += (unsigned char)(b - 48) < 10;
        k += b == 63;
        c += (b == 36)
             | ((b == 0xC2) & ((b1 == 0xA3) | (b1 == 0xA5)))
             | ((b == 0xE2) & (b1 == 0x82) & ((b2 == 0xAC) | (b2 == 0xB9)));
    }
    for (; i < n; i++) {            /* the last two bytes: no three-byte sign starts there */
        unsigned char b = s[i];
        d += (unsigned char)(b - 48) < 10;
        k += b == 63;
        if (b == 36 || (b == 0xC2 && i + 1 < n && (s[i + 1] == 0xA3 || s[i + 1] == 0xA5)))
            c++;
    }
    *dig = d;
    *cur = c;
    *q = k;
}

#endif
