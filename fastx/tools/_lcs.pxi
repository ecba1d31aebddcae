# Word-level longest common subsequence, the kernel of fastx.evaluate.
# Included textually into fastx/_core.pyx (`include "_lcs.pxi"`).

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.string cimport memset

import numpy as np

cdef enum:
    # Pattern positions per strip: 32 words = 2048 tokens, so one strip's match
    # masks (<= 2048 rows x 32 words) stay within 512 KiB and a symbol absent
    # from a strip skips it (the fastest of 8-64 words on Zipf and uniform ids).
    _LCS_STRIP_WORDS = 32
    _LCS_STRIP_BITS = 64 * _LCS_STRIP_WORDS


cdef inline int _lcs_popcount(uint64_t x) noexcept nogil:
    """Set bits of one word (SWAR; portable to compilers without builtins)."""
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((x * 0x0101010101010101ULL) >> 56)


cdef Py_ssize_t _lcs_keep_common(const int32_t* x, Py_ssize_t nx, const int32_t* y, Py_ssize_t ny,
                                 uint8_t* seen, int32_t* out_x, int32_t* out_y,
                                 Py_ssize_t* out_ny) noexcept nogil:
    """Copy x and y without the symbols absent from the other sequence.

    Such a symbol can never be matched, so dropping it leaves the LCS length
    unchanged and shortens both axes of the bit matrix. `seen` is a zeroed
    table indexed by symbol. Returns the new length of x (y's in *out_ny)."""
    cdef Py_ssize_t i, kx = 0, ky = 0
    for i in range(nx):
        seen[x[i]] = 1
    for i in range(ny):
        if seen[y[i]] & 1:
            seen[y[i]] |= 2
            out_y[ky] = y[i]
            ky += 1
    for i in range(nx):
        if seen[x[i]] & 2:
            out_x[kx] = x[i]
            kx += 1
    out_ny[0] = ky
    return kx


cdef Py_ssize_t _lcs_bitparallel(const int32_t* x, Py_ssize_t nx, const int32_t* y, Py_ssize_t ny,
                                 int32_t* row_of, uint64_t* masks, uint8_t* carry) noexcept nogil:
    """LCS length of x and y by the bit-vector method.

    Allison & Dix, "A bit-string longest-common-subsequence algorithm", IPL
    23 (1986); Hyyro, "Bit-parallel LCS-length computation revisited",
    AWOCA 2004.

    Bit i of the vector V stands for pattern position x[i]; V starts all ones
    and, for each symbol c of y with match mask M[c] (bit i set iff x[i] == c),

        U = V & M[c];   V = (V + U) | (V - U)

    after which LCS = number of zero bits of V. Since U is a subset of V,
    V - U = V & ~U has no borrows; only the addition carries across words.

    The pattern is cut into strips of _LCS_STRIP_WORDS words. Strip s at step j
    needs only its own state after step j-1 and the carry out of strip s-1 at
    step j, so strips are swept one after another over all of y with the
    carries kept in `carry` (one byte per symbol of y). Only the symbols that
    occur in a strip get a mask row (`row_of[c]`, -1 elsewhere), which bounds
    the masks at strip width x strip width bits whatever the input size.

    row_of: one entry per symbol, all -1 (restored on return); masks:
    _LCS_STRIP_BITS * _LCS_STRIP_WORDS words; carry: ny bytes."""
    cdef uint64_t V[_LCS_STRIP_WORDS]
    cdef uint64_t* M
    cdef uint64_t v, u, s, c
    cdef Py_ssize_t lcs = 0, strip, start, stop, i, j, k, words, rows
    cdef int32_t r
    memset(carry, 0, ny)
    for strip in range((nx + _LCS_STRIP_BITS - 1) // _LCS_STRIP_BITS):
        start = strip * _LCS_STRIP_BITS
        stop = min(nx, start + _LCS_STRIP_BITS)
        words = (stop - start + 63) // 64
        rows = 0
        for i in range(start, stop):  # match masks of the symbols of this strip
            r = row_of[x[i]]
            if r < 0:
                r = row_of[x[i]] = <int32_t>rows
                memset(masks + rows * words, 0, words * sizeof(uint64_t))
                rows += 1
            masks[r * words + (i - start) // 64] |= (<uint64_t>1) << ((i - start) % 64)
        for k in range(words):  # the unused top bits of the last word stay 1
            V[k] = ~(<uint64_t>0)
        for j in range(ny):
            r = row_of[y[j]]
            c = carry[j]
            if r >= 0:
                M = masks + r * words
                for k in range(words):
                    v = V[k]
                    u = v & M[k]
                    s = v + u
                    V[k] = (s + c) | (v & ~u)
                    # carry out: the incoming one if s is all ones, else s's own
                    c = c if s == ~(<uint64_t>0) else s < v
                carry[j] = <uint8_t>c
            elif c:  # no match in this strip: only the incoming carry ripples
                for k in range(words):
                    v = V[k]
                    V[k] = (v + 1) | v
                    if v != ~(<uint64_t>0):
                        carry[j] = 0
                        break
        for k in range(words):
            lcs += 64 - _lcs_popcount(V[k])
        for i in range(start, stop):
            row_of[x[i]] = -1
    return lcs


def lcs_length(const int32_t[::1] a, const int32_t[::1] b):
    """Length of the longest common subsequence of two token-id sequences.

    The CETD paper (Song, Sun & Liao, "A hybrid approach for content
    extraction with text density and visual importance of DOM nodes", KAIS
    2013, Sect. 4.1.2) scores an extraction a against the gold text b by
    their LCS: P = |LCS|/|a|, R = |LCS|/|b| (Eq. 6), F1 = 2PR/(P+R) (Eq. 7),
    and the CleanEval score 1 - distance/alignmentLength (Eq. 8) as
    |LCS| / (|a| + |b| - |LCS|) (Eq. 9). Every word is distinct by position:
    this is the order-aware LCS, not a bag of words.

    a, b: contiguous int32 arrays of token ids (any values; dense ids
    0..V-1 with V <= 4 (|a| + |b|) index tables directly, others are
    renumbered first). Returns an int.

    Common prefix and suffix are matched directly, symbols absent from the
    other side are dropped, and the rest goes through the bit-vector method
    of Allison-Dix / Hyyro (O(|a||b|/64) word operations, 64-bit words with
    multi-word carries, memory O(|a| + |b| + alphabet)); the GIL is released
    throughout."""
    cdef Py_ssize_t n = a.shape[0], m = b.shape[0], pre = 0, suf = 0, middle = 0, i, nx, ny
    cdef int32_t lo, hi
    cdef const int32_t[::1] x
    cdef const int32_t[::1] y
    with nogil:
        while pre < n and pre < m and a[pre] == b[pre]:
            pre += 1
        while suf < n - pre and suf < m - pre and a[n - 1 - suf] == b[m - 1 - suf]:
            suf += 1
    x, y = a[pre:n - suf], b[pre:m - suf]
    nx, ny = x.shape[0], y.shape[0]
    if nx == 0 or ny == 0:
        return pre + suf
    lo = hi = x[0]
    with nogil:
        for i in range(nx):
            lo, hi = min(lo, x[i]), max(hi, x[i])
        for i in range(ny):
            lo, hi = min(lo, y[i]), max(hi, y[i])
    if lo < 0 or hi >= 4 * (nx + ny):
        symbols, ids = np.unique(np.concatenate((x, y)), return_inverse=True)
        ids = ids.astype(np.int32).ravel()
        x, y, hi = ids[:nx], ids[nx:], len(symbols) - 1
    cdef uint8_t[::1] seen = np.zeros(hi + 1, np.uint8)
    cdef int32_t[::1] keep_x = np.empty(nx, np.int32)
    cdef int32_t[::1] keep_y = np.empty(ny, np.int32)
    cdef int32_t[::1] row_of = np.full(hi + 1, -1, np.int32)
    cdef uint64_t[::1] masks = np.empty(_LCS_STRIP_BITS * _LCS_STRIP_WORDS, np.uint64)
    cdef uint8_t[::1] carry = np.empty(ny, np.uint8)
    with nogil:
        nx = _lcs_keep_common(&x[0], nx, &y[0], ny, &seen[0], &keep_x[0], &keep_y[0], &ny)
        if nx and ny:
            middle = _lcs_bitparallel(&keep_x[0], nx, &keep_y[0], ny, &row_of[0], &masks[0], &carry[0])
    return pre + middle + suf


# ---------------------------------------------------------------- tokens -> ids

cdef extern from "Python.h":
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch) nogil
    int PyUnicode_KIND(object o)
    void *PyUnicode_DATA(object o)
    Py_UCS4 PyUnicode_READ(int kind, const void *data, Py_ssize_t index) nogil


cdef inline bint _tok_cjk(Py_UCS4 c) noexcept nogil:
    """evaluate.CJK: kana, CJK ideographs (and extension A, compatibility), hangul."""
    return (0x3040 <= c <= 0x30FF) or (0x3400 <= c <= 0x4DBF) or (0x4E00 <= c <= 0x9FFF) \
        or (0xF900 <= c <= 0xFAFF) or (0xAC00 <= c <= 0xD7AF)


cdef inline bint _tok_word(Py_UCS4 c) noexcept nogil:
    """re's \\w for str patterns (alphanumeric or '_'), CJK excepted."""
    if c < 128:
        return (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122) or c == 95
    return (Py_UNICODE_ISALNUM(c) or c == 95) and not _tok_cjk(c)


cdef Py_ssize_t _tok_scan(int kind, const void *data, Py_ssize_t n, int32_t *start, int32_t *length) noexcept nogil:
    """Tokens of one text (evaluate.TOKEN: a CJK character alone, or a run of
    other word characters) as (start, length) in code points; returns the count.
    `start`/`length` may be NULL (count only)."""
    cdef Py_ssize_t i = 0, j, t = 0
    cdef Py_UCS4 c
    while i < n:
        c = PyUnicode_READ(kind, data, i)
        if _tok_cjk(c):
            j = i + 1
        elif _tok_word(c):
            j = i + 1
            while j < n and _tok_word(PyUnicode_READ(kind, data, j)):
                j += 1
        else:
            i += 1
            continue
        if start != NULL:
            start[t] = <int32_t>i
            length[t] = <int32_t>(j - i)
        t += 1
        i = j
    return t


def token_ids(str a, str b):
    """Token ids of two texts, equal ids for equal tokens: the same tokens as
    evaluate.tokens (the TOKEN pattern), numbered by a hash table in one C
    pass instead of regex matches and a dict.  Returns two int32 arrays."""
    cdef int ka = PyUnicode_KIND(a), kb = PyUnicode_KIND(b)
    cdef const void *da = PyUnicode_DATA(a)
    cdef const void *db = PyUnicode_DATA(b)
    cdef Py_ssize_t na = len(a), nb = len(b), ta, tb, t, k, size = 16, slot, next_id = 0, q
    cdef uint64_t h
    cdef int kind, okind
    cdef const void *data
    cdef const void *odata
    cdef bint same
    with nogil:
        ta = _tok_scan(ka, da, na, NULL, NULL)
        tb = _tok_scan(kb, db, nb, NULL, NULL)
    while size < 2 * (ta + tb):
        size <<= 1
    ids_arr = np.empty(ta + tb, dtype=np.int32)
    cdef int32_t[::1] ids = ids_arr
    # scratch: each token's start and length, the hash table (slot -> index of the first token of
    # its kind, -1 empty) and the slots' hashes
    cdef int32_t *st = <int32_t *>malloc((2 * (ta + tb) + size) * sizeof(int32_t))
    cdef uint64_t *hashes = <uint64_t *>malloc(size * sizeof(uint64_t))
    cdef int32_t *ln = st + (ta + tb) if st != NULL else NULL
    cdef int32_t *table = ln + (ta + tb) if st != NULL else NULL
    if st == NULL or hashes == NULL:
        free(st)
        free(hashes)
        raise MemoryError("fastx: out of memory while numbering tokens")
    try:
        with nogil:
            memset(table, 0xFF, size * sizeof(int32_t))
            if ta:
                _tok_scan(ka, da, na, st, ln)
            if tb:
                _tok_scan(kb, db, nb, st + ta, ln + ta)
            for t in range(ta + tb):
                if t < ta:
                    kind, data = ka, da
                else:
                    kind, data = kb, db
                h = FX_FNV64_OFFSET
                for k in range(st[t], st[t] + ln[t]):
                    h = fx_fnv64_step(h, <uint64_t>PyUnicode_READ(kind, data, k))
                slot = <Py_ssize_t>(h & <uint64_t>(size - 1))
                while True:
                    q = table[slot]
                    if q < 0:
                        table[slot] = <int32_t>t
                        hashes[slot] = h
                        ids[t] = <int32_t>next_id
                        next_id += 1
                        break
                    if hashes[slot] == h and ln[q] == ln[t]:
                        if q < ta:
                            okind, odata = ka, da
                        else:
                            okind, odata = kb, db
                        same = True
                        for k in range(ln[t]):
                            if PyUnicode_READ(kind, data, st[t] + k) != PyUnicode_READ(okind, odata, st[q] + k):
                                same = False
                                break
                        if same:
                            ids[t] = ids[q]
                            break
                    slot = (slot + 1) & (size - 1)
    finally:
        free(st)
        free(hashes)
    return ids_arr[:ta], ids_arr[ta:]
