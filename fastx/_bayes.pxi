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
    cdef const uint8_t[::1] is_block = np.ascontiguousarray(block_tags, dtype=np.uint8)
    if is_block.shape[0] < STATIC_LIMIT:
        raise ValueError(f"block_tags must be a mask over {STATIC_LIMIT} tag ids")
    nearest = np.empty(n, dtype=np.int32)
    node_block = np.empty(n, dtype=np.int32)
    block_of = np.empty(n, dtype=np.int32)
    feats = np.zeros((max(n, 1), _BAYES_NF), dtype=np.int64)
    cdef int64_t[:, ::1] f = feats
    cdef int64_t *fp = &f[0, 0]
    cdef const int32_t *parent = d.c_parent
    cdef const int32_t *tag = d.c_tag
    cdef const uint8_t *kind = d.c_kind
    cdef const uint16_t *flags = d.c_flags
    cdef const int32_t *chars = d.c_chars
    cdef const int32_t *punct = d.c_punct
    cdef int32_t[::1] near = nearest
    cdef int32_t[::1] nblk = node_block
    cdef int32_t[::1] bof = block_of
    with nogil:
        m = _bayes_block_sweep(n, parent, tag, kind, flags, chars, punct, &is_block[0], &near[0], &nblk[0],
                               &bof[0], fp, n)
    return block_of, feats[:max(m, 0)].copy()


cdef inline int _bayes_bin(double x, const double *edges, int k) noexcept nogil:
    """Number of edges at or below x: the bin of x (edges ascending)."""
    cdef int b = 0
    while b < k and x >= edges[b]:
        b += 1
    return b


cdef void _bayes_bins(const int64_t[:, ::1] feats, const double[:, ::1] edges, const int32_t[::1] nedges,
                      uint8_t[:, ::1] out) noexcept nogil:
    """Sect. 4.3.1-4.3.4: unlinksum, link = linktextsum/textsum (Eq. 2),
    punc = puncsum/linktextsum (Eq. 3; a block without link characters
    divides by 1) and psum, each discretized by its bin edges."""
    cdef Py_ssize_t b
    cdef double unlink, link, text, punc
    for b in range(feats.shape[0]):
        unlink = <double>feats[b, 0]
        link = <double>feats[b, 1]
        text = unlink + link
        punc = <double>feats[b, 2]
        out[b, 0] = _bayes_bin(unlink, &edges[0, 0], nedges[0])
        out[b, 1] = _bayes_bin(link / text if text > 0 else 0.0, &edges[1, 0], nedges[1])
        out[b, 2] = _bayes_bin(punc / (link if link > 0 else 1.0), &edges[2, 0], nedges[2])
        out[b, 3] = _bayes_bin(<double>feats[b, 3], &edges[3, 0], nedges[3])


def bayes_bins(object feats, object edges, object nedges):
    """Bin index of each block feature (uint8 array (blocks, 4)).

    `edges`: float64 (4, MAXBINS) ascending bin edges per feature, `nedges`
    how many are used; a value's bin is the number of edges <= it."""
    cdef const int64_t[:, ::1] f = np.ascontiguousarray(feats, dtype=np.int64).reshape(-1, _BAYES_NF)
    cdef const double[:, ::1] e = np.ascontiguousarray(edges, dtype=np.float64)
    cdef const int32_t[::1] ne = np.ascontiguousarray(nedges, dtype=np.int32)
    if e.shape[0] != _BAYES_NF or ne.shape[0] != _BAYES_NF or e.shape[1] > _BAYES_MAXBINS:
        raise ValueError("edges must have shape (4, <=16) and nedges 4 entries")
    out = np.zeros((f.shape[0], _BAYES_NF), dtype=np.uint8)
    cdef uint8_t[:, ::1] o = out
    with nogil:
        _bayes_bins(f, e, ne, o)
    return out


cdef void _bayes_log_odds(const uint8_t[:, ::1] bins, const double[:, :, ::1] loglik,
                          const double[::1] logprior, double[::1] out) noexcept nogil:
    """Eq. 14 minus Eq. 15 in log space: sum_j log p(x_j|c1) - log p(x_j|c2)
    (+ log p(c1) - log p(c2) when the priors are used)."""
    cdef Py_ssize_t b, j
    cdef double s
    for b in range(bins.shape[0]):
        s = logprior[0] - logprior[1]
        for j in range(_BAYES_NF):
            s += loglik[0, j, bins[b, j]] - loglik[1, j, bins[b, j]]
        out[b] = s


def bayes_keep(Doc d, object block_tags, object edges, object nedges, object loglik, object logprior,
               double threshold=0.0):
    """Keep mask of the Naive Bayes method: blocks whose log-odds of being a
    theme block (Eq. 14 vs 15) reach `threshold` (0: p(c1|x) >= p(c2|x)).

    `loglik`: float64 (2, 4, MAXBINS) log p(bin | class), class 0 = theme
    block; `logprior`: float64 (2,).  Returns ``(keep, block_of, log_odds)``.
    """
    block_of, feats = bayes_blocks(d, block_tags)
    bins = bayes_bins(feats, edges, nedges)
    cdef const double[:, :, ::1] ll = np.ascontiguousarray(loglik, dtype=np.float64)
    cdef const double[::1] lp = np.ascontiguousarray(logprior, dtype=np.float64)
    if ll.shape[0] != 2 or ll.shape[1] != _BAYES_NF or ll.shape[2] > _BAYES_MAXBINS or lp.shape[0] != 2:
        raise ValueError("loglik must have shape (2, 4, <=16) and logprior 2 entries")
    cdef const uint8_t[:, ::1] bv = bins
    cdef Py_ssize_t b, i, m = bins.shape[0], n = d.n
    for b in range(m):
        for i in range(_BAYES_NF):
            if bv[b, i] >= ll.shape[2]:
                raise ValueError("a bin index exceeds the likelihood table; edges and table disagree")
    odds = np.empty(m, dtype=np.float64)
    keep = np.zeros(n, dtype=np.uint8)
    cdef double[::1] o = odds
    cdef uint8_t[::1] k = keep
    cdef const int32_t[::1] bo = block_of
    with nogil:
        _bayes_log_odds(bv, ll, lp, o)
        for i in range(n):
            if bo[i] >= 0 and o[bo[i]] >= threshold:
                k[i] = 1
    return keep, block_of, odds
