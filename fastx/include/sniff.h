/* control and NUL bytes of the head of the input.
   Compiled into fastx._core through core/_sniff.pxi; plain C, no Python. */
#ifndef FX_SNIFF_H
#define FX_SNIFF_H

#include <stdint.h>
#include <string.h>
/* fastx/_sniff.pxi: C0 controls (table `ctl`) and NUL bytes of s[0..n).  Eight bytes at a
   time (SWAR): a word with no byte below 0x20 and no DEL has neither, and most words of
   a page are such; the others are counted byte by byte. */
static void fx_sniff_count(const unsigned char *s, size_t n, const uint8_t *ctl,
                           size_t *ctl_out, size_t *nul_out) {
    const uint64_t ones = 0x0101010101010101ULL, hi = 0x8080808080808080ULL;
    size_t i = 0, c = 0, z = 0, k;
    for (; i + 8 <= n; i += 8) {
        uint64_t w, x;
        memcpy(&w, s + i, 8);
        x = w ^ (0x7F * ones);
        if (!(((w - 0x20 * ones) & ~w & hi) | ((x - ones) & ~x & hi))) continue;
        for (k = i; k < i + 8; k++) { c += ctl[s[k]]; z += s[k] == 0; }
    }
    for (; i < n; i++) { c += ctl[s[i]]; z += s[i] == 0; }
    *ctl_out = c;
    *nul_out = z;
}

#endif
