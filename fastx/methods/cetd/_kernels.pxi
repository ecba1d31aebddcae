# CETD kernels: Sun, Song & Liao's content extraction via text density
# (seeds/004).  Every function works on a Doc's arrays in one or two linear
# sweeps; none walks the tree recursively.

from libc.math cimport log, erf, sqrt, INFINITY, isfinite, isnan

cdef double _E = 2.718281828459045


cdef inline double *_f64(object arr):
    """Data of a float64 array (a fresh output, or one _node_f64 checked)."""
    return <double *>cnp.PyArray_DATA(<cnp.ndarray>arr)


cdef void _td_core(Py_ssize_t n, const int32_t *C, const int32_t *T, double *td) noexcept nogil:
    """Eq. 1 for every node (see text_density)."""
    cdef Py_ssize_t i
    for i in range(n):
        td[i] = C[i] / <double>(T[i] if T[i] > 0 else 1)


def text_density(Doc d):
    """Text Density, Def. 3.1 / Eq. 1: TD_i = C_i / T_i, with T_i = 1 when it is 0.

    Text nodes are DOM leaves: TD = their character count.
    """
    out = np.empty(d.n, dtype=np.float64)
    cdef double *td = _f64(out)
    with nogil:
        _td_core(d.n, d.view.chars, d.view.tags, td)
    return out


DEF _CTD_LOG_SMALL = 2048
cdef double _ctd_log_small[_CTD_LOG_SMALL]      # log(k) for 1 <= k < _CTD_LOG_SMALL (libm's own values)
for _k in range(1, _CTD_LOG_SMALL):
    _ctd_log_small[_k] = log(<double>_k)


cdef inline double _ctd(double c, double t, double lc, double lt, double nlc, double lcb_cb) noexcept nogil:
    """Eq. 2 for one node: (C/T) * log_{ln(C/nLC*LC + LC_b/C_b*C + e)} (C/LC * T/LT).

    Zero denominators become 1 (the paper's rule).  A node without characters
    has density 0; where the log base is 1 (no hyperlink anywhere on the page)
    the density is infinite, as the paper notes.

    The logarithms a text node needs are mostly known without libm's call: a text inside a
    link has C/LC * T/LT = 1 (density 0 wherever the base is not 1: its argument x is above
    1e-6, so ln(x + e) > 1 + 3e-7), one outside has the argument C, a small whole number
    whose log the table holds (log(k) as libm computes it: the same double)."""
    cdef double x, base, arg, la
    if c <= 0:
        return 0.0
    x = c / (nlc if nlc > 0 else 1.0) * lc + lcb_cb * c
    arg = (c / (lc if lc > 0 else 1.0)) * (t / (lt if lt > 0 else 1.0))
    if arg == 1.0 and x > 1e-6:
        return 0.0
    base = log(x + _E)
    if base <= 1.0 + 1e-12:
        return INFINITY
    if 1.0 <= arg < _CTD_LOG_SMALL and arg == <double><int>arg:
        la = _ctd_log_small[<int>arg]
    else:
        la = log(arg)
    return (c / t) * la / log(base)


def composite_text_density(Doc d, object hybrid_chars=None):
    """Composite Text Density (Def. 3.2, Eq. 2); with `hybrid_chars` (HC from
    `hybrid_chars()`), Hybrid Text Density (Def. 3.4, Eq. 4): C_i and C_b are
    replaced by HC_i and HC_b, and T_i = 0 becomes HC_i / C_i."""
    cdef Py_ssize_t i, n = d.n
    cdef Py_ssize_t b = d.body if d.body >= 0 else 0
    cdef DocView dv = d.view
    cdef const double[::1] HC
    cdef bint hybrid = hybrid_chars is not None
    out = np.zeros(n, dtype=np.float64)
    if n == 0:
        return out
    cdef const double *hc = NULL
    cdef double *ctd = _f64(out)
    if hybrid:
        HC = np.ascontiguousarray(hybrid_chars, dtype=np.float64)
        if HC.shape[0] != n:
            raise ValueError(f"hybrid_chars has {HC.shape[0]} entries, the Doc has {n} nodes")
        hc = &HC[0]
    with nogil:
        _ctd_core(n, b, dv.chars, dv.tags, dv.link_chars, dv.link_tags, hc, ctd)
    return out


cdef void _ctd_core(Py_ssize_t n, Py_ssize_t b, const int32_t *C, const int32_t *T, const int32_t *LC,
                    const int32_t *LT, const double *HC, double *ctd) noexcept nogil:
    """Eq. 2 (Eq. 4 with hybrid characters HC, NULL for none) for every node;
    `b` is <body> (see composite_text_density)."""
    cdef Py_ssize_t i
    cdef double c, t, lcb_cb
    if n == 0:
        return
    if HC != NULL:
        lcb_cb = LC[b] / (HC[b] if HC[b] > 0 else 1.0)
    else:
        lcb_cb = LC[b] / <double>(C[b] if C[b] > 0 else 1)
    for i in range(n):
        c = HC[i] if HC != NULL else C[i]
        if T[i] > 0:
            t = T[i]
        elif HC != NULL and C[i] > 0 and HC[i] > 0:
            t = HC[i] / C[i]
        else:
            t = 1.0
        ctd[i] = _ctd(c, t, LC[i], LT[i], C[i] - LC[i], lcb_cb)


def hybrid_chars(Doc d, object positions):
    """Hybrid CharNumber (Sect. 3.4): HC_i = VI_i * C_i for leaves, the sum of the
    children's HC for other nodes.

    `positions` is an (n, 2) array of each node's horizontal extent [x1, x2]
    (NaN where unknown; a text node without its own extent takes its
    parent's).  Node_L is the element under <body> with the longest horizontal
    span; VI (Def. 3.3, Eq. 3) is the integral over [x1, x2] of the normal
    density N(mu=(xL1+xL2)/2, sigma=(xL2-xL1)/2).
    """
    cdef Py_ssize_t i, n = d.n, p
    cdef Py_ssize_t b = d.body if d.body >= 0 else 0
    pos = np.ascontiguousarray(positions, dtype=np.float64)
    if pos.ndim != 2 or pos.shape[0] != n or pos.shape[1] < 2:
        raise ValueError(f"positions must have shape ({n}, 2): one [x1, x2] per Doc node")
    cdef const double[:, ::1] P = pos
    cdef DocView dv = d.view
    cdef double best = -1.0, xl1 = 0.0, xl2 = 0.0, w, x1, x2, mu, sigma
    hc_arr = np.zeros(n, dtype=np.float64)
    cdef double[::1] hc = hc_arr
    for i in range(b + 1, dv.end[b] if n else 0):
        if dv.kind[i] == LXB_ELEMENT and isfinite(P[i, 0]) and isfinite(P[i, 1]):
            w = P[i, 1] - P[i, 0]
            if w > best:
                best, xl1, xl2 = w, P[i, 0], P[i, 1]
    if best <= 0:
        from .errors import MissingPositionsError
        raise MissingPositionsError("positions give no element under <body> a horizontal extent; "
                                    "Hybrid Text Density needs rendered positions (fastx.render)")
    mu = (xl1 + xl2) / 2.0
    sigma = (xl2 - xl1) / 2.0
    with nogil:
        for i in range(n):
            if dv.kind[i] != LXB_TEXT:
                continue
            x1, x2 = P[i, 0], P[i, 1]
            if not (isfinite(x1) and isfinite(x2)) and dv.parent[i] >= 0:
                x1, x2 = P[dv.parent[i], 0], P[dv.parent[i], 1]
            if isfinite(x1) and isfinite(x2) and x2 > x1:
                hc[i] = dv.chars[i] * 0.5 * (erf((x2 - mu) / (sigma * sqrt(2.0)))
                                             - erf((x1 - mu) / (sigma * sqrt(2.0))))
        for i in range(n - 1, 0, -1):
            p = dv.parent[i]
            if p >= 0:
                hc[p] += hc[i]
    return hc_arr


def density_sum(Doc d, object density):
    """DensitySum, Def. 3.5 / Eq. 5: the sum of the children's text densities
    (children are elements and text nodes, the DOM's leaves)."""
    cdef cnp.ndarray td = _node_f64(d, density, "density")
    out = np.zeros(d.n, dtype=np.float64)
    cdef const double *tdp = _f64(td)
    cdef double *ds = _f64(out)
    with nogil:
        _dsum_core(d.n, d.view.parent, tdp, ds)
    return out


cdef void _dsum_core(Py_ssize_t n, const int32_t *parent, const double *td, double *ds) noexcept nogil:
    """Eq. 5 for every node into ds (which holds zeros)."""
    cdef Py_ssize_t i
    for i in range(1, n):
        if parent[i] >= 0:
            ds[parent[i]] += td[i]


cdef cnp.ndarray _node_f64(Doc d, object a, str what):
    """`a` as a contiguous float64 array of one value per node of `d` (no copy when it is one)."""
    cdef cnp.ndarray arr = _contiguous(a, cnp.NPY_FLOAT64, what)
    if cnp.PyArray_NDIM(arr) != 1 or cnp.PyArray_SIZE(arr) != d.n:
        raise ValueError(f"{what}: expected {d.n} values (one per node), got shape {np.shape(a)}")
    return arr


cdef Py_ssize_t _root(Doc d):
    return d.body if d.body >= 0 else 0


def densitysum_threshold(Doc d, object density, object dsum):
    """Sect. 3.5.2: the node with the maximum DensitySum under <body>, and the
    threshold = the minimum text density on the path from it up to <body>.
    Returns (node index, threshold)."""
    cdef cnp.ndarray td = _node_f64(d, density, "density")
    cdef cnp.ndarray ds = _node_f64(d, dsum, "dsum")
    cdef double thr = 0.0
    if d.n == 0:
        return -1, 0.0
    g = _dsthr_core(_root(d), d.view.end, d.view.parent, _f64(td), _f64(ds), &thr)
    return g, thr


cdef Py_ssize_t _dsthr_core(Py_ssize_t b, const int32_t *end, const int32_t *parent, const double *td,
                            const double *ds, double *thr) noexcept nogil:
    """densitysum_threshold on arrays: returns the node, writes the threshold."""
    cdef Py_ssize_t i, g = b
    for i in range(b, end[b]):
        if ds[i] > ds[g]:
            g = i
    thr[0] = td[g]
    i = g
    while i != b and i >= 0:
        i = parent[i]
        if i >= 0 and td[i] < thr[0]:
            thr[0] = td[i]
    return g


def densitysum_extract(Doc d, object density, object dsum):
    """Algorithm 2 (ExtractContent) with the Sect. 3.5.2 threshold.

    From <body> down: a node whose density reaches the threshold marks the
    node of maximum DensitySum in its subtree as content and passes on to its
    children; a node below it ends that branch.  The kept set is the union of
    the marked subtrees (uint8 mask).  Iterative: the subtree argmax comes
    from one reverse sweep, the walk is a preorder scan that skips subtrees.
    """
    cdef Py_ssize_t n = d.n
    cdef cnp.ndarray td = _node_f64(d, density, "density")
    cdef cnp.ndarray ds = _node_f64(d, dsum, "dsum")
    keep_arr = np.zeros(n, dtype=np.uint8)
    if n == 0:
        return keep_arr
    cdef const double *tdp = _f64(td)
    cdef const double *dsp = _f64(ds)
    cdef uint8_t *keep = <uint8_t *>cnp.PyArray_DATA(keep_arr)
    cdef Py_ssize_t b = _root(d)
    cdef double thr
    cdef int32_t *best = <int32_t *>malloc(n * sizeof(int32_t))
    if best == NULL:
        raise MemoryError()
    with nogil:
        _dsthr_core(b, d.view.end, d.view.parent, tdp, dsp, &thr)
        _dsext_core(n, b, d.view.end, d.view.parent, d.view.kind, tdp, dsp, thr, best, keep)
    free(best)
    return keep_arr


cdef void _dsext_core(Py_ssize_t n, Py_ssize_t b, const int32_t *end, const int32_t *parent,
                      const uint8_t *kind, const double *td, const double *ds, double thr, int32_t *best,
                      uint8_t *keep) noexcept nogil:
    """densitysum_extract on arrays, given _dsthr_core's threshold: `best` is scratch for n
    entries, `keep` holds n zeros."""
    cdef Py_ssize_t i, p
    for i in range(n):
        best[i] = <int32_t>i
    for i in range(n - 1, 0, -1):
        p = parent[i]
        if p >= 0 and kind[i] == LXB_ELEMENT and ds[best[i]] > ds[best[p]]:
            best[p] = best[i]
    i = b
    while i < end[b]:
        if kind[i] == LXB_ELEMENT and td[i] >= thr:
            keep[best[i]] = 1
            i += 1
        else:
            i = end[i]
    _spread_keep(parent, keep, b, end[b])


cdef void _spread_keep(const int32_t *parent, uint8_t *keep, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    """keep[i] |= keep[parent[i]] in preorder: a kept node keeps its whole subtree."""
    cdef Py_ssize_t i
    for i in range(lo + 1, hi):
        if parent[i] >= 0 and keep[parent[i]]:
            keep[i] = 1


def smooth_siblings(Doc d, object density):
    """Data smoothing of the CECTD-S baseline (Sect. 4.1.3): each node's density
    is averaged with its siblings', weights 1-2-1 (previous, itself, next)."""
    cdef Py_ssize_t i, n = d.n, nx
    cdef const double[::1] td = np.ascontiguousarray(density, dtype=np.float64)
    cdef DocView dv = d.view
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] s = out
    prev_arr = np.full(n, -1, dtype=np.int32)
    cdef int32_t[::1] prev = prev_arr
    cdef double tot, w
    with nogil:
        for i in range(n):
            nx = dv.end[i]
            if dv.parent[i] >= 0 and nx < dv.end[dv.parent[i]]:
                prev[nx] = <int32_t>i
        for i in range(n):
            tot = 2.0 * td[i]
            w = 2.0
            if prev[i] >= 0:
                tot += td[prev[i]]
                w += 1.0
            nx = dv.end[i]
            if dv.parent[i] >= 0 and nx < dv.end[dv.parent[i]]:
                tot += td[nx]
                w += 1.0
            s[i] = tot / w
    return out


def threshold_extract(Doc d, object density):
    """Threshold extraction without DensitySum (the CECTD-S comparison).

    The threshold is chosen as in Sect. 3.5.2, on the given (smoothed)
    densities; then every node from <body> down whose density reaches it is
    content and passes on to its children; a node below it ends that branch.
    Only the DensitySum marking of Algorithm 2 is replaced."""
    cdef Py_ssize_t i, n = d.n, b = _root(d)
    cdef const double[::1] td = np.ascontiguousarray(density, dtype=np.float64)
    cdef DocView dv = d.view
    keep_arr = np.zeros(n, dtype=np.uint8)
    cdef uint8_t[::1] keep = keep_arr
    if n == 0:
        return keep_arr
    _, thr_obj = densitysum_threshold(d, density, density_sum(d, density))
    cdef double thr = thr_obj
    with nogil:
        i = b
        while i < dv.end[b]:
            if td[i] >= thr:
                keep[i] = 1
                i += 1
            else:
                i = dv.end[i]
    return keep_arr
