# The language of a text: langid.py's Naive Bayes classifier over py3langid's model, compiled
# (include/langid_nb.h).  fastx.output.language loads and checks the model and calls
# langid_classify; py3langid's own classify walks the bytes in Python (0.26 ms for 600
# characters, about what a page's parse takes) and scores with a BLAS product.

cdef extern from "langid_nb.h":
    ptrdiff_t fx_nb_visit(const uint32_t *nextmove, const uint16_t *row, const int32_t *output,
                          const unsigned char *s, size_t n, int32_t *feat, uint32_t *count) nogil
    int32_t fx_nb_decide(const uint16_t *ptc, const float *pc, size_t C, const int32_t *feat,
                         const uint32_t *count, size_t k, const float *h2f, const int32_t *aliases,
                         size_t n_alias, size_t nbytes, int f16c, float *scores, float *conf) nogil
    int fx_nb_f16c_usable() nogil

cdef int _langid_f16c = fx_nb_f16c_usable()


def langid_classify(bytes text, const uint32_t[::1] nextmove, const uint16_t[::1] row,
                    const int32_t[::1] output, const uint16_t[:, ::1] ptc, const float[::1] pc,
                    const float[::1] h2f, const int32_t[:, ::1] aliases):
    """(class index, probability) of the most probable language of UTF-8 `text` (langid_nb.h:
    log P(L) + sum_f log(1 + count(f)) log P(f | L), scaled by 1/sqrt(bytes), softmax, aliased
    columns folded).  The model's arrays as fastx.output.language checked them: `ptc` the float16
    table as its bits, `h2f` the float of each of the 65,536 bit patterns, `aliases` (first,
    duplicate) column pairs."""
    cdef Py_ssize_t n = len(text), k
    cdef size_t C = <size_t>ptc.shape[1]
    cdef const unsigned char *s = text
    cdef int32_t *feat
    cdef uint32_t *count
    cdef float *scores
    cdef float conf = 0
    cdef int32_t best
    if C == 0 or pc.shape[0] != ptc.shape[1] or h2f.shape[0] != 65536 or aliases.shape[1] != 2:
        raise ValueError("langid_classify: the model's arrays do not fit together")
    feat = <int32_t *>malloc((n + 1) * sizeof(int32_t))
    count = <uint32_t *>malloc((n + 1) * sizeof(uint32_t))
    scores = <float *>malloc(C * sizeof(float))
    try:
        if feat == NULL or count == NULL or scores == NULL:
            raise MemoryError()
        with nogil:
            k = fx_nb_visit(&nextmove[0], &row[0], &output[0], s, <size_t>n, feat, count)
            if k >= 0:
                best = fx_nb_decide(&ptc[0, 0], &pc[0], C, feat, count, <size_t>k, &h2f[0],
                                    &aliases[0, 0] if aliases.shape[0] else NULL,
                                    <size_t>aliases.shape[0], <size_t>n, _langid_f16c, scores, &conf)
        if k < 0:
            raise MemoryError()
        return best, conf
    finally:
        free(feat)
        free(count)
        free(scores)
