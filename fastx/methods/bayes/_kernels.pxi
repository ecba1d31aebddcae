# Naive Bayes block classification (seeds/003: "Web content extraction
# based on Naive Bayes Model").  Blocking (Sect. 3, step four), the four
# discretized block features (Sect. 4.2-4.3) and the log-space class
# score (Eq. 12-15); the Laplace-smoothed tables come from fastx.bayes.
# Every function is one or two linear sweeps over a Doc's preorder arrays.

DEF _BAYES_NF = 4           # features: unlinksum, link, punc, psum
DEF _BAYES_MAXBINS = 16


cdef Py_ssize_t _bayes_block_sweep(Py_ssize_t n, const int32_t *parent, const int32_t *tag,
                                   const uint8_t *kind, const uint16_t *flags,
                                   const int32_t *chars, const int32_t *punct,
                                   const uint8_t *is_block, int32_t *nearest,
                                   int32_t *node_block, int32_t *block_of,
                                   int64_t *feats, Py_ssize_t cap) noexcept nogil:
    """Blocking rules (1)-(3) and the raw block features; returns the block count.

    nearest[i]: the nearest block-tag ancestor-or-self of i (the page root
    when there is none).  Text nodes in document order (the leaf queue of
    rule 1) open the block of their nearest block node (rule 2); a block node
    met for the first time that is a sibling of the previous leaf's block
    node joins that block (rule 3).  feats[4 * b + k]: non-link characters,
    link characters, punctuation marks, <p> elements of block b.
    """
    cdef Py_ssize_t i, m = 0, p, cur, prev = -1
    for i in range(n):
        p = parent[i]
        if kind[i] == LXB_ELEMENT and tag[i] < STATIC_LIMIT and is_block[tag[i]]:
            nearest[i] = <int32_t>i
        elif p >= 0:
            nearest[i] = nearest[p]
        else:
            nearest[i] = 0
        node_block[i] = -1
        block_of[i] = -1
    for i in range(n):
        if kind[i] != LXB_TEXT:
            continue
        cur = nearest[i]
        if node_block[cur] < 0:
            if prev >= 0 and prev != cur and parent[cur] >= 0 and parent[cur] == parent[prev]:
                node_block[cur] = node_block[prev]
            else:
                if m >= cap:
                    return -1
                feats[4 * m] = 0
                feats[4 * m + 1] = 0
                feats[4 * m + 2] = 0
                feats[4 * m + 3] = 0
                node_block[cur] = <int32_t>m
                m += 1
        prev = cur
        block_of[i] = node_block[cur]
        if flags[i] & NF_IN_LINK:
            feats[4 * block_of[i] + 1] += chars[i]
        else:
            feats[4 * block_of[i]] += chars[i]
        feats[4 * block_of[i] + 2] += punct[i]
    for i in range(n):
        if kind[i] == LXB_ELEMENT:
            block_of[i] = node_block[nearest[i]]
            if flags[i] & NF_P and block_of[i] >= 0:
                feats[4 * block_of[i] + 3] += 1
    return m


cdef const uint8_t *_bayes_mask(cnp.ndarray m) except NULL:
    """Data of a block-tag mask made by _contiguous (checked to cover every static tag id)."""
    if cnp.PyArray_SIZE(m) < STATIC_LIMIT:
        raise ValueError(f"block_tags must be a mask over {STATIC_LIMIT} tag ids")
    return <const uint8_t *>cnp.PyArray_DATA(m)


def bayes_blocks(Doc d, object block_tags):
    """Segment a Doc into the blocks of paper 003 (Sect. 3, step four).

    `block_tags`: uint8 mask over static tag ids (1 = block tag; the paper's
    table/td/tr/div, or table alone for its baseline).  Returns
    ``(block_of, feats)``: ``block_of[i]`` is the block of node i (-1 for
    elements outside any block with text), ``feats`` an int64 array
    (blocks, 4) of non-link characters, link characters, punctuation marks
    and <p> elements per block.
    """
    cdef Py_ssize_t n = d.n, m
    cdef cnp.ndarray mask_arr = _contiguous(block_tags, cnp.NPY_UINT8, "block_tags")
    cdef const uint8_t *is_block = _bayes_mask(mask_arr)
    block_of = np.empty(n, dtype=np.int32)
    feats = np.zeros((max(n, 1), _BAYES_NF), dtype=np.int64)
    cdef int64_t *fp = <int64_t *>cnp.PyArray_DATA(feats)
    cdef int32_t *bof = <int32_t *>cnp.PyArray_DATA(block_of)
    cdef int32_t *scratch = <int32_t *>malloc((2 * n + 1) * sizeof(int32_t))
    if scratch == NULL:
        raise MemoryError()
    with nogil:
        m = _bayes_block_sweep(n, d.view.parent, d.view.tag, d.view.kind, d.view.flags, d.view.chars, d.view.punct,
                               is_block, scratch, scratch + n, bof, fp, n)
    free(scratch)
    return block_of, feats[:max(m, 0)].copy()


cdef inline int _bayes_bin(double x, const double *edges, int k) noexcept nogil:
    """Number of edges at or below x: the bin of x (edges ascending)."""
    cdef int b = 0
    while b < k and x >= edges[b]:
        b += 1
    return b


cdef void _bayes_bins(Py_ssize_t m, const int64_t *feats, const double *edges, Py_ssize_t ew,
                      const int32_t *nedges, uint8_t *out) noexcept nogil:
    """Sect. 4.3.1-4.3.4: unlinksum, link = linktextsum/textsum (Eq. 2),
    punc = puncsum/linktextsum (Eq. 3; a block without link characters
    divides by 1) and psum, each discretized by its bin edges (row j of
    `edges`, `ew` wide, holds feature j's)."""
    cdef Py_ssize_t b
    cdef double unlink, link, text, punc
    for b in range(m):
        unlink = <double>feats[4 * b]
        link = <double>feats[4 * b + 1]
        text = unlink + link
        punc = <double>feats[4 * b + 2]
        out[4 * b] = _bayes_bin(unlink, edges, nedges[0])
        out[4 * b + 1] = _bayes_bin(link / text if text > 0 else 0.0, edges + ew, nedges[1])
        out[4 * b + 2] = _bayes_bin(punc / (link if link > 0 else 1.0), edges + 2 * ew, nedges[2])
        out[4 * b + 3] = _bayes_bin(<double>feats[4 * b + 3], edges + 3 * ew, nedges[3])


cdef Py_ssize_t _bayes_edges(object edges, object nedges, const double **e, const int32_t **ne,
                             list keep) except -1:
    """Validated pointers to the bin edges (4, <=16) and their counts (4); returns the row width."""
    cdef cnp.ndarray ea = _contiguous(edges, cnp.NPY_FLOAT64, "edges")
    cdef cnp.ndarray na = _contiguous(nedges, cnp.NPY_INT32, "nedges")
    cdef Py_ssize_t j
    if cnp.PyArray_NDIM(ea) != 2 or ea.shape[0] != _BAYES_NF or ea.shape[1] > _BAYES_MAXBINS \
            or cnp.PyArray_SIZE(na) != _BAYES_NF:
        raise ValueError("edges must have shape (4, <=16) and nedges 4 entries")
    e[0] = <const double *>cnp.PyArray_DATA(ea)
    ne[0] = <const int32_t *>cnp.PyArray_DATA(na)
    for j in range(_BAYES_NF):
        if not 0 <= ne[0][j] <= ea.shape[1]:
            raise ValueError(f"nedges[{j}] = {ne[0][j]} is not a count of edges in 0..{ea.shape[1]}")
    keep.append(ea)
    keep.append(na)
    return ea.shape[1]


def bayes_bins(object feats, object edges, object nedges):
    """Bin index of each block feature (uint8 array (blocks, 4)).

    `edges`: float64 (4, MAXBINS) ascending bin edges per feature, `nedges`
    how many are used; a value's bin is the number of edges <= it."""
    cdef cnp.ndarray f = _contiguous(feats, cnp.NPY_INT64, "feats").reshape(-1, _BAYES_NF)
    cdef const double *e
    cdef const int32_t *ne
    cdef list hold = []
    cdef Py_ssize_t ew = _bayes_edges(edges, nedges, &e, &ne, hold)
    cdef Py_ssize_t m = f.shape[0]
    out = np.zeros((m, _BAYES_NF), dtype=np.uint8)
    cdef const int64_t *fp = <const int64_t *>cnp.PyArray_DATA(f)
    cdef uint8_t *op = <uint8_t *>cnp.PyArray_DATA(out)
    with nogil:
        _bayes_bins(m, fp, e, ew, ne, op)
    return out


def bayes_keep(Doc d, object block_tags, object edges, object nedges, object loglik, object logprior,
               double threshold=0.0):
    """Keep mask of the Naive Bayes method: blocks whose log-odds of being a
    theme block (Eq. 14 vs 15) reach `threshold` (0: p(c1|x) >= p(c2|x)).

    `loglik`: float64 (2, 4, MAXBINS) log p(bin | class), class 0 = theme
    block; `logprior`: float64 (2,).  Returns ``(keep, block_of, log_odds)``.
    One pass over the Doc: blocking (`bayes_blocks`), bins (`bayes_bins`)
    and Eq. 14 - Eq. 15 in log space, with scratch memory only.
    """
    cdef cnp.ndarray mask_arr = _contiguous(block_tags, cnp.NPY_UINT8, "block_tags")
    cdef const uint8_t *is_block = _bayes_mask(mask_arr)
    cdef const double *e
    cdef const int32_t *ne
    cdef list hold = []
    cdef Py_ssize_t ew = _bayes_edges(edges, nedges, &e, &ne, hold)
    cdef cnp.ndarray lla = _contiguous(loglik, cnp.NPY_FLOAT64, "loglik")
    cdef cnp.ndarray lpa = _contiguous(logprior, cnp.NPY_FLOAT64, "logprior")
    if cnp.PyArray_NDIM(lla) != 3 or lla.shape[0] != 2 or lla.shape[1] != _BAYES_NF \
            or lla.shape[2] > _BAYES_MAXBINS or cnp.PyArray_SIZE(lpa) != 2:
        raise ValueError("loglik must have shape (2, 4, <=16) and logprior 2 entries")
    cdef Py_ssize_t nb = lla.shape[2], j
    for j in range(_BAYES_NF):
        if ne[j] >= nb:
            raise ValueError("a bin index exceeds the likelihood table; edges and table disagree")
    cdef const double *ll = <const double *>cnp.PyArray_DATA(lla)
    cdef const double *lp = <const double *>cnp.PyArray_DATA(lpa)
    cdef Py_ssize_t n = d.n, m, b, i
    keep = np.zeros(n, dtype=np.uint8)
    block_of = np.empty(n, dtype=np.int32)
    cdef uint8_t *kp = <uint8_t *>cnp.PyArray_DATA(keep)
    cdef int32_t *bo = <int32_t *>cnp.PyArray_DATA(block_of)
    cdef int32_t *scratch = <int32_t *>malloc((2 * n + 1) * sizeof(int32_t))
    cdef int64_t *feats = <int64_t *>malloc((4 * n + 4) * sizeof(int64_t))
    cdef uint8_t *bins = <uint8_t *>malloc(4 * n + 4)
    cdef double *o
    cdef double s
    if scratch == NULL or feats == NULL or bins == NULL:
        free(scratch)
        free(feats)
        free(bins)
        raise MemoryError()
    with nogil:
        m = _bayes_block_sweep(n, d.view.parent, d.view.tag, d.view.kind, d.view.flags, d.view.chars, d.view.punct,
                               is_block, scratch, scratch + n, bo, feats, n)
        if m < 0:
            m = 0
        _bayes_bins(m, feats, e, ew, ne, bins)
    odds = np.empty(m, dtype=np.float64)
    o = <double *>cnp.PyArray_DATA(odds)
    with nogil:
        for b in range(m):
            # log p(c1) - log p(c2) + sum_j log p(x_j|c1) - log p(x_j|c2)
            s = lp[0] - lp[1]
            for j in range(_BAYES_NF):
                s += ll[j * nb + bins[4 * b + j]] - ll[(_BAYES_NF + j) * nb + bins[4 * b + j]]
            o[b] = s
        for i in range(n):
            if bo[i] >= 0 and o[bo[i]] >= threshold:
                kp[i] = 1
    free(scratch)
    free(feats)
    free(bins)
    return keep, block_of, odds
