/* langid.py's classifier over py3langid's model (Lui and Baldwin 2012, "langid.py: An
   Off-the-shelf Language Identification Tool", ACL 2012 System Demonstrations): multinomial
   Naive Bayes over byte n-grams,

       score(L) = log P(L) + sum_f w(f) * log P(f | L),    w(f) = log(1 + count(f, text))

   (py3langid's sublinear counts), the n-grams found by one walk of an Aho-Corasick automaton
   over the text's UTF-8 bytes.  Then, as py3langid's norm_probs: the scores scaled by
   1/sqrt(bytes), a softmax, the aliased labels' columns folded into the first.

   The model's arrays as py3langid 0.4 holds them: nextmove (uint32, 256 per row), row (uint16,
   the row of each state), output (the feature a state completes, -1 for none), ptc (n_features
   x n_classes, float16 as its bits: log P(f | L)), pc (float32: log P(L)).  _core.LangidModel
   (output/_langid.pxi) checks their shapes and bounds once, when it is built; nothing here reads
   past them then.
   Compiled into fastx._core through output/_langid.pxi; plain C, no Python. */
#ifndef FX_LANGID_NB_H
#define FX_LANGID_NB_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The walk: the distinct features the automaton's states complete over s[0..n), in the order
   first seen, into feat[], with how many times each, into count[] (both of n entries at least:
   a byte completes one feature at most).  Returns how many, or -1 when memory ran out. */
static ptrdiff_t fx_nb_visit(const uint32_t *nextmove, const uint16_t *row, const int32_t *output,
                             const unsigned char *s, size_t n, int32_t *feat, uint32_t *count) {
    size_t cap = 16, i, h;
    int32_t *slot;                 /* open addressing: feature -> its index in feat, -1 empty */
    uint32_t state = 0;
    ptrdiff_t k = 0;
    while (cap < 2 * n) cap <<= 1;
    slot = (int32_t *)malloc(cap * sizeof(int32_t));
    if (slot == NULL) return -1;
    memset(slot, 0xff, cap * sizeof(int32_t));
    for (i = 0; i < n; i++) {
        int32_t f;
        state = nextmove[((size_t)row[state] << 8) + s[i]];
        f = output[state];
        if (f < 0) continue;
        h = ((uint32_t)f * 2654435761u) & (cap - 1);
        while (slot[h] >= 0 && feat[slot[h]] != f) h = (h + 1) & (cap - 1);
        if (slot[h] < 0) {
            slot[h] = (int32_t)k;
            feat[k] = f;
            count[k] = 1;
            k++;
        } else {
            count[slot[h]]++;
        }
    }
    free(slot);
    return k;
}

/* acc[c] += w[i] * ptc[feat[i]][c] for the k features and the classes c0 <= c < c1 of the C
   (float32, feature after feature, a product then a sum: the same bits on every path), the
   float16 weights read through h2f (their 65,536 values) */
static void fx_nb_sum_scalar(const uint16_t *ptc, size_t C, size_t c0, size_t c1, const int32_t *feat,
                             const float *w, size_t k, const float *h2f, float *acc) {
    size_t i, c;
    for (i = 0; i < k; i++) {
        const uint16_t *r = ptc + (size_t)feat[i] * C;
        for (c = c0; c < c1; c++) {
            float p = w[i] * h2f[r[c]];
            acc[c] = acc[c] + p;
        }
    }
}

#if defined(__GNUC__) && defined(__x86_64__) && !defined(FX_NO_AVX2)
#include <immintrin.h>
#define FX_NB_F16C 1
/* the same sums, eight classes at a time: the float16 weights converted by the CPU (F16C); the
   classes past the last eight by fx_nb_sum_scalar */
__attribute__((target("avx,f16c")))
static void fx_nb_sum_f16c(const uint16_t *ptc, size_t C, const int32_t *feat, const float *w,
                           size_t k, const float *h2f, float *acc) {
    size_t i, c, C8 = C & ~(size_t)7;
    for (i = 0; i < k; i++) {
        const uint16_t *r = ptc + (size_t)feat[i] * C;
        __m256 wv = _mm256_set1_ps(w[i]);
        for (c = 0; c < C8; c += 8) {
            __m256 p = _mm256_mul_ps(wv, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(r + c))));
            _mm256_storeu_ps(acc + c, _mm256_add_ps(_mm256_loadu_ps(acc + c), p));
        }
    }
    fx_nb_sum_scalar(ptc, C, C8, C, feat, w, k, h2f, acc);
}

static int fx_nb_f16c_usable(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
}
#else
static int fx_nb_f16c_usable(void) { return 0; }
#endif

/* The class with the highest probability and that probability, over the C classes; `aliases`
   holds n_alias (first, duplicate) column pairs.  `nbytes` is the text's length in bytes; `w` k
   floats and `scores` C floats of scratch.  k = 0 (no feature): every score 0, the uniform
   distribution (py3langid's answer without evidence). */
static int32_t fx_nb_decide(const uint16_t *ptc, const float *pc, size_t C, const int32_t *feat,
                            const uint32_t *count, size_t k, const float *h2f, const int32_t *aliases,
                            size_t n_alias, size_t nbytes, int f16c, float *w, float *scores, float *conf) {
    size_t c;
    float scale = (float)(1.0 / sqrt((double)(nbytes ? nbytes : 1))), top, sum = 0.0f;
    int32_t best = 0;
    memset(scores, 0, C * sizeof(float));
    if (k > 0) {
        for (c = 0; c < k; c++) w[c] = log1pf((float)count[c]);     /* each feature's weight, once */
#ifdef FX_NB_F16C
        if (f16c) fx_nb_sum_f16c(ptc, C, feat, w, k, h2f, scores);
        else
#endif
        fx_nb_sum_scalar(ptc, C, 0, C, feat, w, k, h2f, scores);
        for (c = 0; c < C; c++) scores[c] = scores[c] + pc[c];
    }
    top = scores[0] * scale;
    for (c = 0; c < C; c++) {
        scores[c] = scores[c] * scale;
        if (scores[c] > top) top = scores[c];
    }
    for (c = 0; c < C; c++) {
        scores[c] = expf(scores[c] - top);
        sum += scores[c];
    }
    for (c = 0; c < C; c++) scores[c] = scores[c] / sum;
    for (c = 0; c < n_alias; c++) {
        scores[aliases[2 * c]] += scores[aliases[2 * c + 1]];
        scores[aliases[2 * c + 1]] = 0.0f;
    }
    for (c = 1; c < C; c++)
        if (scores[c] > scores[best]) best = (int32_t)c;
    *conf = scores[best];
    return best;
}

#endif
