# The language of a text: langid.py's Naive Bayes classifier over py3langid's model, compiled
# (include/langid_nb.h).  fastx.output.language builds a LangidModel from py3langid's arrays
# once and classifies with it; py3langid's own classify walks the bytes in Python (0.26 ms for
# 600 characters, about what a page's parse takes) and scores with a BLAS product.

cdef extern from "langid_nb.h":
    ptrdiff_t fx_nb_visit(const uint32_t *nextmove, const uint16_t *row, const int32_t *output,
                          const unsigned char *s, size_t n, int32_t *feat, uint32_t *count) nogil
    int32_t fx_nb_decide(const uint16_t *ptc, const float *pc, size_t C, const int32_t *feat,
                         const uint32_t *count, size_t k, const float *h2f, const int32_t *aliases,
                         size_t n_alias, size_t nbytes, int f16c, float *w, float *scores, float *conf) nogil
    int fx_nb_f16c_usable() nogil

cdef int _langid_f16c = fx_nb_f16c_usable()
DEF _LANGID_MAX_BYTES = 1 << 30     # a text's bytes: its feature indices fit an int32


@cython.auto_pickle(False)
cdef class LangidModel:
    """py3langid's model (0.4's layout) for the compiled classifier (langid_nb.h): the automaton
    (`nextmove`: uint32, 256 moves per row; `row`: uint16, the row of each state; `output`:
    int32, the feature a state completes, -1 none), `ptc` (features x languages, float16:
    log P(f | L)), `pc` (float32: log P(L)) and `aliases`, (first, duplicate) column pairs of a
    label that appears twice.  Every bound is checked here, once: no walk of any bytes reads
    past the arrays; ValueError names the first that does not hold."""
    cdef const uint32_t[::1] nextmove
    cdef const uint16_t[::1] row
    cdef const int32_t[::1] output
    cdef const uint16_t[:, ::1] ptc
    cdef const float[::1] pc
    cdef const float[::1] h2f
    cdef const int32_t[:, ::1] aliases

    def __init__(self, nextmove, row, output, ptc, pc, aliases):
        ptc = np.asarray(ptc)
        if ptc.dtype != np.float16 or ptc.ndim != 2:
            raise ValueError(f"ptc: a 2-d float16 table expected, got {ptc.dtype} of {ptc.ndim} dimensions")
        self.nextmove = np.ascontiguousarray(nextmove, dtype=np.uint32)
        self.row = np.ascontiguousarray(row, dtype=np.uint16)
        self.output = np.ascontiguousarray(output, dtype=np.int32)
        self.ptc = np.ascontiguousarray(ptc).view(np.uint16)
        self.pc = np.ascontiguousarray(pc, dtype=np.float32)
        self.aliases = np.ascontiguousarray(aliases, dtype=np.int32).reshape(-1, 2)
        # the float of every float16 bit pattern (the table's weights read through it)
        self.h2f = np.arange(65536, dtype=np.uint16).view(np.float16).astype(np.float32)
        cdef Py_ssize_t n_states = self.row.shape[0], n_rows = self.nextmove.shape[0] // 256
        cdef Py_ssize_t n_feat = self.ptc.shape[0], n_lang = self.ptc.shape[1], i
        if n_states == 0 or self.output.shape[0] != n_states:
            raise ValueError("row and output: one entry per state of the automaton")
        if n_rows == 0 or self.nextmove.shape[0] % 256:
            raise ValueError("nextmove: 256 moves per row")
        if n_lang == 0 or self.pc.shape[0] != n_lang:
            raise ValueError("pc: one prior per language of ptc")
        for i in range(n_states):
            if self.row[i] >= n_rows:
                raise ValueError(f"row: state {i} has row {self.row[i]}, past the {n_rows} rows")
            if not -1 <= self.output[i] < n_feat:
                raise ValueError(f"output: state {i} completes feature {self.output[i]} of {n_feat}")
        for i in range(self.nextmove.shape[0]):
            if self.nextmove[i] >= <uint32_t>n_states:
                raise ValueError(f"nextmove: move {i} goes to state {self.nextmove[i]} of {n_states}")
        for i in range(self.aliases.shape[0]):
            if not (0 <= self.aliases[i, 0] < n_lang and 0 <= self.aliases[i, 1] < n_lang):
                raise ValueError(f"aliases: pair {i} names a column past the {n_lang} languages")

    def classify(self, bytes text):
        """(language index, probability) of the most probable language of UTF-8 `text`
        (langid_nb.h: log P(L) + sum_f log(1 + count(f)) log P(f | L), scaled by 1/sqrt(bytes),
        softmax, aliased columns folded)."""
        cdef Py_ssize_t n = len(text), k = 0
        cdef size_t C = <size_t>self.ptc.shape[1]
        cdef const unsigned char *s = text
        cdef int32_t *feat
        cdef uint32_t *count
        cdef float *w
        cdef float *scores
        cdef float conf = 0
        cdef int32_t best = 0
        cdef size_t n_alias = <size_t>self.aliases.shape[0]
        cdef const int32_t *al = &self.aliases[0, 0] if n_alias else NULL
        if n > _LANGID_MAX_BYTES:
            raise ValueError(f"LangidModel.classify: {n:,} bytes exceed {_LANGID_MAX_BYTES:,}")
        feat = <int32_t *>malloc((n + 1) * sizeof(int32_t))
        count = <uint32_t *>malloc((n + 1) * sizeof(uint32_t))
        w = <float *>malloc((n + 1) * sizeof(float))
        scores = <float *>malloc(C * sizeof(float))
        try:
            if feat == NULL or count == NULL or w == NULL or scores == NULL:
                raise MemoryError()
            with nogil:
                k = fx_nb_visit(&self.nextmove[0], &self.row[0], &self.output[0], s, <size_t>n, feat, count)
                if k >= 0:
                    best = fx_nb_decide(&self.ptc[0, 0], &self.pc[0], C, feat, count, <size_t>k, &self.h2f[0],
                                        al, n_alias, <size_t>n, _langid_f16c, w, scores, &conf)
            if k < 0:
                raise MemoryError()
            return best, conf
        finally:
            free(feat)
            free(count)
            free(w)
            free(scores)
