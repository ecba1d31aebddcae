/* One complete tree of the `default` method's ensemble over many rows, eight rows per AVX2
   vector (methods/default/_kernels.pxi: _gbt_tree is the scalar walk it must equal).
   Compiled into fastx._core through methods/default/_kernels.pxi; plain C, no Python.

   A row's walk is the scalar one: depth steps j = 2j + (x[f] > th) (j: the node's index
   within its level; after the last level, the leaf's index), float comparisons, NaN
   never greater, then out[row] += (double)leaf[j], one addition per row and tree as in
   _gbt_tree, so the sums are the same bits.  What differs is how a level's node is found:
   the nodes of level L are 2^L consecutive entries of the tree's breadth-first feat/thr
   arrays, so for L <= 5 (at most 32 nodes) each lane picks its node from one to four
   8-lane loads with permutes and blends, and only the row's feature value is gathered.
   Trees of depth 4 to 6 take this path (a shallower tree's short levels would read past
   its arrays; deeper ones have levels of more than 32 nodes); the caller walks the rest
   with the scalar loop.  Compiled for AVX2 by a function attribute and used only where
   the CPU has AVX2 (fx_gbt_avx2_usable), so the extension still runs on any x86-64. */
#ifndef FX_GBT_AVX2_H
#define FX_GBT_AVX2_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) && defined(__x86_64__) && !defined(FX_NO_AVX2)
#define FX_GBT_AVX2 1
#include <immintrin.h>

#define FX_AVX2 __attribute__((target("avx2")))

/* lane i: lvl[j_i] for a level of W * 8 >= 2^L nodes starting at lvl (W = 1, 2 or 4) */
#define FX_GBT_PICK(T, PERM, LOAD, BLEND, CAST, lvl, j, W, out) do {                              \
    __m256i lo_ = _mm256_and_si256(j, _mm256_set1_epi32(7));                                       \
    T a_ = PERM(LOAD(lvl), lo_);                                                                   \
    if ((W) >= 2) {                                                                                \
        __m256i b3_ = _mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(8)),                \
                                         _mm256_set1_epi32(8));                                    \
        a_ = BLEND(a_, PERM(LOAD((lvl) + 8), lo_), CAST(b3_));                                     \
        if ((W) == 4) {                                                                            \
            T c_ = BLEND(PERM(LOAD((lvl) + 16), lo_), PERM(LOAD((lvl) + 24), lo_), CAST(b3_));     \
            a_ = BLEND(a_, c_, CAST(_mm256_cmpeq_epi32(_mm256_and_si256(j, _mm256_set1_epi32(16)), \
                                                       _mm256_set1_epi32(16))));                   \
        }                                                                                          \
    }                                                                                              \
    out = a_;                                                                                      \
} while (0)
#define FX_LOADI(p) _mm256_loadu_si256((const __m256i *)(p))
#define FX_SAMEI(x) (x)

/* one level (nodes at f + 2^L - 1, th + 2^L - 1; W 8-lane loads hold them) for G groups */
#define FX_GBT_LEVEL(G, L, W) do {                                                                 \
    const int32_t *fl_ = f + ((1 << (L)) - 1);                                                     \
    const float *tl_ = th + ((1 << (L)) - 1);                                                      \
    int g_;                                                                                        \
    for (g_ = 0; g_ < (G); g_++) {                                                                 \
        __m256i fv_, gt_;                                                                          \
        __m256 tv_, x_;                                                                            \
        FX_GBT_PICK(__m256i, _mm256_permutevar8x32_epi32, FX_LOADI, _mm256_blendv_epi8, FX_SAMEI,  \
                    fl_, j[g_], W, fv_);                                                           \
        FX_GBT_PICK(__m256, _mm256_permutevar8x32_ps, _mm256_loadu_ps, _mm256_blendv_ps,           \
                    _mm256_castsi256_ps, tl_, j[g_], W, tv_);                                      \
        x_ = _mm256_i32gather_ps(X, _mm256_add_epi32(off[g_], fv_), 4);                            \
        gt_ = _mm256_castps_si256(_mm256_cmp_ps(x_, tv_, _CMP_GT_OQ));                             \
        j[g_] = _mm256_sub_epi32(_mm256_slli_epi32(j[g_], 1), gt_);       /* gt: -1 or 0 */        \
    }                                                                                              \
} while (0)

/* G groups of 8 rows from rows + a through the whole tree: out[row] += its leaf */
#define FX_GBT_GROUPS(G) do {                                                                      \
    __m256i off[G], j[G];                                                                          \
    int32_t leaf_[8 * (G)];                                                                        \
    int g_, L_;                                                                                    \
    for (g_ = 0; g_ < (G); g_++) {                                                                 \
        __m256i r_ = _mm256_loadu_si256((const __m256i *)(rows + a + 8 * g_));                     \
        off[g_] = _mm256_mullo_epi32(_mm256_sub_epi32(r_, vbase), vF);                             \
        j[g_] = _mm256_setzero_si256();                                                            \
    }                                                                                              \
    for (L_ = 0; L_ < depth && L_ < 4; L_++)                                                       \
        FX_GBT_LEVEL(G, L_, 1);                                                                    \
    if (depth > 4)                                                                                 \
        FX_GBT_LEVEL(G, 4, 2);                                                                     \
    if (depth > 5)                                                                                 \
        FX_GBT_LEVEL(G, 5, 4);                                                                     \
    for (g_ = 0; g_ < (G); g_++)                                                                   \
        _mm256_storeu_si256((__m256i *)(leaf_ + 8 * g_), j[g_]);                                   \
    for (g_ = 0; g_ < 8 * (G); g_++)                                                               \
        out[rows[a + g_]] += lv[leaf_[g_]];                                                        \
    a += 8 * (G);                                                                                  \
} while (0)

/* Rows rows[0 .. na) (indices of X's rows from row `base` on, (rows[i] - base) * F below 2^31;
   _gbt_ensemble_rows passes a block's own rows and 0, and the parameter stays: a build without
   it measured 0.5-0.9% slower, code layout and not work) through one
   tree of depth 4-6 (f, th: its 2^depth - 1 nodes; lv: its 2^depth leaves): out[row] +=
   its leaf.  Walks whole groups of 8 rows, six groups at a time (their gathers overlap),
   and returns how many rows it walked (a multiple of 8); the caller walks the rest. */
FX_AVX2 static size_t fx_gbt_tree_avx2(const float *X, ptrdiff_t F, ptrdiff_t base, const int32_t *rows,
                                       size_t na, int depth, const int32_t *f, const float *th,
                                       const float *lv, double *out) {
    size_t a = 0;
    const __m256i vF = _mm256_set1_epi32((int32_t)F), vbase = _mm256_set1_epi32((int32_t)base);
    while (a + 48 <= na)
        FX_GBT_GROUPS(6);
    while (a + 8 <= na)
        FX_GBT_GROUPS(1);
    return a;
}

/* whether this CPU runs AVX2 (checked once by the caller) */
static inline int fx_gbt_avx2_usable(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}
#else
static inline size_t fx_gbt_tree_avx2(const float *X, ptrdiff_t F, ptrdiff_t base, const int32_t *rows,
                                      size_t na, int depth, const int32_t *f, const float *th,
                                      const float *lv, double *out) {
    (void)X; (void)F; (void)base; (void)rows; (void)na; (void)depth; (void)f; (void)th; (void)lv;
    (void)out;
    return 0;
}
static inline int fx_gbt_avx2_usable(void) { return 0; }
#endif

#endif
