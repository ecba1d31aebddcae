/* fastx's shared inline helpers (declared for Cython in fastx/_text.pxd): the one hash, the
   one binary search and the one whitespace tokenizer every kernel uses.  Plain C, no Python. */
#ifndef FX_TEXT_H
#define FX_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a (Fowler, Noll, Vo): from the offset basis, per unit c: h = (h XOR c) * prime. */
#define FX_FNV32_OFFSET 2166136261u
#define FX_FNV32_PRIME 16777619u
#define FX_FNV64_OFFSET 14695981039346656037ULL
#define FX_FNV64_PRIME 1099511628211ULL

static inline uint32_t fx_fnv32_step(uint32_t h, uint32_t c) { return (h ^ c) * FX_FNV32_PRIME; }
static inline uint64_t fx_fnv64_step(uint64_t h, uint64_t c) { return (h ^ c) * FX_FNV64_PRIME; }

/* The first index i of the ascending a[0..n) with a[i] >= key (n when there is none). */
static inline ptrdiff_t fx_lower_bound_u64(const uint64_t *a, ptrdiff_t n, uint64_t key) {
    ptrdiff_t lo = 0, hi = n, mid;
    while (lo < hi) {
        mid = lo + ((hi - lo) >> 1);
        if (a[mid] < key) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* Whether key is in the ascending a[0..n); its index in *at (where it would go when absent). */
static inline int fx_find_u64(const uint64_t *a, ptrdiff_t n, uint64_t key, ptrdiff_t *at) {
    ptrdiff_t i = fx_lower_bound_u64(a, n, key);
    *at = i;
    return i < n && a[i] == key;
}

/* The index of the lowest set bit of x (x != 0). */
static inline int fx_lowest_bit(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int k = 0;
    while (!((x >> k) & 1)) k++;
    return k;
#endif
}

/* Whether s[0..n) starts with the lower-case ASCII literal lit[0..m), ASCII case ignored. */
static inline int fx_ascii_ci_prefix(const unsigned char *s, size_t n, const char *lit, size_t m) {
    size_t j;
    unsigned char c;
    if (m > n) return 0;
    for (j = 0; j < m; j++) {
        c = s[j];
        if (c >= 'A' && c <= 'Z') c += 32;
        if (c != (unsigned char)lit[j]) return 0;
    }
    return 1;
}

/* The next token of s[*k..n) separated by bytes <= 0x20 (ASCII whitespace and controls, as
   class and rel values are split): returns its start, leaves *k at its end (start == *k: none). */
static inline ptrdiff_t fx_next_word(const unsigned char *s, ptrdiff_t n, ptrdiff_t *k) {
    ptrdiff_t i = *k, start;
    while (i < n && s[i] <= 32) i++;
    start = i;
    while (i < n && s[i] > 32) i++;
    *k = i;
    return start;
}

/* A hint to load the cache line at p (no fault on any address): a pass that chases pointers into
   lexbor's tree issues it a few elements ahead of their use (the metadata scan). */
#if defined(__GNUC__) || defined(__clang__)
#define fx_prefetch(p) __builtin_prefetch((const void *)(p))
#else
#define fx_prefetch(p) ((void)(p))
#endif

#endif
