# VSSE kernels (seeds/000): web content extraction from visual text
# characteristics, tag-path aggregation, content semantics and an HMM over the
# DOM levels.  Every loop runs over a Doc's preorder arrays (a subtree of i is
# [i, end[i]), parent[i] < i) without recursion, and without the GIL where it
# touches no Python object.
#
#   keyword_hashes    Sect. 4.4 (a): keywords (words; CJK character bigrams), hashed to 64 bits
#   simhash_text      Sect. 4.4 / Formula 4 on one text: 64-bit SimHash of weighted keywords
#   hamming           bits in which two 64-bit fingerprints differ
#   vvtc              Formula 1: visual value of text characteristics per leaf
#   vvtc_seeds        Sect. 4.2 / 5.2: the leaves with vvtc >= T1 * MaxVVTC, best first
#   vsse_leaf_counts  punc_num without link text and form controls (Sect. 4.1 pruning), one sweep
#   pcs               Formula 2: common subsequence length of two tag paths
#   vsse_aggregate    Sect. 4.3.1: fold the seeds' tag paths, mark the area they cover
#   vsse_areas        Sect. 4.3.1 as fastx reads it: seeds grouped by common path prefix, area of most vvtc
#   vsse_refine       Sect. 4.4: Formula 4 over a content area, Hamming test per paragraph
#   attribute_hash    normalized hash of an attribute name (the dictionary's key)
#   records_scan      the delimiter / attribute-dictionary / title characteristics of each leaf
#   wvc               Formula 3: characteristic weight of every node, bottom up
#   records_viterbi   Sect. 4.3.2 B: the HMM decoded level by level from <body>
#   records_read      the attribute-value pairs of the area the HMM found

from libc.math cimport log as _vsse_log
from libc.string cimport memchr
from cpython.unicode cimport PyUnicode_DecodeUTF8

# ---------------------------------------------------------------- keywords and hashes

# Function words are not keywords (Sect. 4.4 (a) takes keywords from a word
# segmenter; for alphabetic scripts these are the words that are not stop words).
_VSSE_STOPWORDS = (
    "a about above after again against all also am an and any are aren as at be because been before "
    "being below between both but by can cannot could couldn did didn do does doesn doing don down "
    "during each few for from further had hadn has hasn have haven having he her here hers herself him "
    "himself his how i if in into is isn it its itself just let ll me more most must my myself no nor "
    "not now of off on once only or other ought our ours ourselves out over own re same shall she "
    "should so some such than that the their theirs them themselves then there these they this those "
    "through to too under until up upon us ve very was wasn we were weren what when where which while "
    "who whom why will with won would you your yours yourself yourselves said says say one two new "
    "get got may might like via per").split()


cdef inline uint64_t _vsse_fmix(uint64_t h) noexcept nogil:
    """64-bit finalizer (murmur3's fmix64): every input bit reaches every output bit."""
    h ^= h >> 33
    h *= 0xFF51AFD7ED558CCDULL
    h ^= h >> 33
    h *= 0xC4CEB9FE1A85EC53ULL
    h ^= h >> 33
    return h if h else 1      # 0 marks an empty hash-table slot


cdef inline uint64_t _vsse_fnv(uint64_t h, uint32_t cp) noexcept nogil:
    """FNV-1a over the code point's UTF-8 bytes (ASCII letters folded to lower case)."""
    if cp < 0x80:
        if 65 <= cp <= 90:
            cp += 32
        return fx_fnv64_step(h, cp)
    if cp < 0x800:
        h = fx_fnv64_step(h, (0xC0 | (cp >> 6)))
    elif cp < 0x10000:
        h = fx_fnv64_step(h, (0xE0 | (cp >> 12)))
        h = fx_fnv64_step(h, (0x80 | ((cp >> 6) & 0x3F)))
    else:
        h = fx_fnv64_step(h, (0xF0 | (cp >> 18)))
        h = fx_fnv64_step(h, (0x80 | ((cp >> 12) & 0x3F)))
        h = fx_fnv64_step(h, (0x80 | ((cp >> 6) & 0x3F)))
    return fx_fnv64_step(h, (0x80 | (cp & 0x3F)))


cdef inline bint _vsse_letter(uint32_t cp) noexcept nogil:
    """A character of an alphabetic-script word (digits included, CJK excluded)."""
    if cp < 128:
        return _ascii_alnum(<unsigned char>cp)
    return _is_word_char(cp) and not _is_cjk(cp) and not _is_space(cp)


cdef inline bint _vsse_is_stop(uint64_t h, const uint64_t *stop, Py_ssize_t nstop) noexcept nogil:
    cdef Py_ssize_t at
    return fx_find_u64(stop, nstop, h, &at)


cdef Py_ssize_t _vsse_keywords(const unsigned char *s, Py_ssize_t n, _VsseSink *out,
                               const uint64_t *stop, Py_ssize_t nstop) noexcept nogil:
    """Keyword hashes of a UTF-8 text, in order, each handed to the sink
    (_vsse_emit); returns their number (<= n).

    Alphabetic scripts: words (ASCII folded to lower case) of two or more
    characters, not all digits, not stop words.  CJK: the character bigrams
    of each run of CJK characters (a lone character is its own keyword), so
    Chinese needs no segmenter.  ASCII bytes take a fast path; the hashes are
    those of _vsse_fnv either way."""
    cdef size_t i = 0, j, m = <size_t>n
    cdef uint32_t cp, prev = 0
    cdef uint64_t h
    cdef Py_ssize_t k = 0, length
    cdef bint digits, lone = False
    cdef unsigned char c
    while i < m:
        c = s[i]
        if c < 128:
            cp = c
            j = i + 1
        else:
            j = i
            cp = _utf8_next(s, m, &j)
        if cp >= 128 and _is_cjk(cp):
            if prev:
                _vsse_emit(out, _vsse_fmix(_vsse_fnv(_vsse_fnv(0xCBF29CE484222325ULL, prev), cp)))
                k += 1
                lone = False
            else:
                lone = True
            prev = cp
            i = j
            continue
        if prev:                      # a CJK run ends
            if lone:
                _vsse_emit(out, _vsse_fmix(_vsse_fnv(0xCBF29CE484222325ULL, prev)))
                k += 1
            prev = 0
            lone = False
        if not (_ascii_alnum(c) if cp < 128 else _vsse_letter(cp)):
            i = j
            continue
        # a word: ASCII letters and digits, or letters of other alphabetic scripts
        h = 0xCBF29CE484222325ULL
        length = 0
        digits = True
        while i < m:
            c = s[i]
            if c < 128:
                if not _ascii_alnum(c):
                    break
                if c <= 57:
                    h = fx_fnv64_step(h, c)
                else:
                    digits = False
                    h = fx_fnv64_step(h, (c | 32))
                i += 1
            else:
                j = i
                cp = _utf8_next(s, m, &j)
                if not _vsse_letter(cp):
                    break             # a CJK character or a mark: the outer loop takes it
                digits = False
                h = _vsse_fnv(h, cp)
                i = j
            length += 1
        if length >= 2 and not digits:
            h = _vsse_fmix(h)
            if not _vsse_is_stop(h, stop, nstop):
                _vsse_emit(out, h)
                k += 1
    if prev and lone:
        _vsse_emit(out, _vsse_fmix(_vsse_fnv(0xCBF29CE484222325ULL, prev)))
        k += 1
    return k


def keyword_hashes(str text):
    """Keyword hashes of `text` (uint64 array), as Sect. 4.4 feeds them to SimHash."""
    cdef bytes b = text.encode("utf-8", "surrogatepass")
    out = np.empty(len(b) + 1, dtype=np.uint64)
    cdef uint64_t[::1] o = out
    cdef const uint64_t[::1] stop = _VSSE_STOP
    cdef Py_ssize_t k
    cdef const unsigned char *s = b
    cdef Py_ssize_t n = len(b)
    cdef _VsseSink sink
    sink.mode = _VSSE_STORE
    sink.out = &o[0]
    sink.k = 0
    with nogil:
        k = _vsse_keywords(s, n, &sink, &stop[0], stop.shape[0])
    return out[:k]


def _vsse_stop_table():
    """Sorted hashes of the stop words (computed once at import)."""
    cdef uint64_t h
    hashes = set()
    for w in _VSSE_STOPWORDS:
        h = 0xCBF29CE484222325ULL
        for ch in w:
            h = _vsse_fnv(h, ord(ch))
        hashes.add(_vsse_fmix(h))
    return np.array(sorted(hashes), dtype=np.uint64)


_VSSE_STOP = _vsse_stop_table()


# ---------------------------------------------------------------- keyword table

cdef struct _VsseKw:
    uint64_t key
    int32_t tf          # occurrences in the whole text area
    int32_t df          # paragraphs containing the keyword (N_k)
    int32_t last        # last paragraph counted in df / summed into a fingerprint
    double w            # Formula 4


cdef struct _VsseTable:
    _VsseKw *slot
    Py_ssize_t mask
    Py_ssize_t used     # keys held: the table doubles past half full, so its size
                        # follows the distinct keywords, not the text's length


cdef bint _vsse_table_init(_VsseTable *t, Py_ssize_t expected) noexcept nogil:
    cdef Py_ssize_t size = 16, i
    while size < 2 * expected + 2:
        size <<= 1
    t.slot = <_VsseKw *>malloc(size * sizeof(_VsseKw))
    t.used = 0
    if t.slot == NULL:
        return False
    t.mask = size - 1
    for i in range(size):
        t.slot[i].key = 0
    return True


cdef bint _vsse_table_grow(_VsseTable *t) noexcept nogil:
    """Double the table, every entry moved (amortized O(1) per insertion)."""
    cdef _VsseKw *old = t.slot
    cdef Py_ssize_t i, j, size = t.mask + 1
    cdef _VsseKw *slot = <_VsseKw *>malloc(2 * size * sizeof(_VsseKw))
    if slot == NULL:
        return False
    for i in range(2 * size):
        slot[i].key = 0
    for i in range(size):
        if old[i].key:
            j = <Py_ssize_t>(old[i].key & <uint64_t>(2 * size - 1))
            while slot[j].key != 0:
                j = (j + 1) & (2 * size - 1)
            slot[j] = old[i]
    free(old)
    t.slot = slot
    t.mask = 2 * size - 1
    return True


cdef inline _VsseKw *_vsse_table_get(_VsseTable *t, uint64_t key) noexcept nogil:
    """The entry of `key`, inserted (tf = df = 0, last = -1) if absent; NULL when
    the table cannot grow (out of memory)."""
    cdef Py_ssize_t i
    if 2 * (t.used + 1) > t.mask + 1 and not _vsse_table_grow(t):
        return NULL
    i = <Py_ssize_t>(key & <uint64_t>t.mask)
    while t.slot[i].key != 0 and t.slot[i].key != key:
        i = (i + 1) & t.mask
    if t.slot[i].key == 0:
        t.used += 1
        t.slot[i].key = key
        t.slot[i].tf = 0
        t.slot[i].df = 0
        t.slot[i].last = -1
        t.slot[i].w = 0.0
    return &t.slot[i]


cdef inline _VsseKw *_vsse_table_find(_VsseTable *t, uint64_t key) noexcept nogil:
    """The entry of `key`, or NULL."""
    cdef Py_ssize_t i = <Py_ssize_t>(key & <uint64_t>t.mask)
    while t.slot[i].key != 0:
        if t.slot[i].key == key:
            return &t.slot[i]
        i = (i + 1) & t.mask
    return NULL


cdef enum:
    _VSSE_STORE = 0         # keyword hashes written to out[k]
    _VSSE_COUNT = 1         # TF_k and N_k of Formula 4 counted, keywords inserted
    _VSSE_COUNT_KNOWN = 2   # the same for keywords already in the table only
    _VSSE_VOTE = 3          # Sect. 4.4 (c): +w / -w per bit into acc, once per keyword


cdef struct _VsseSink:
    int mode
    uint64_t *out
    Py_ssize_t k
    _VsseTable *t
    int32_t par         # the paragraph being read
    double *acc         # 64 sums (_VSSE_VOTE)
    bint failed         # out of memory


cdef inline void _vsse_emit(_VsseSink *s, uint64_t h) noexcept nogil:
    """Take one keyword hash: store it, count it for Formula 4 (TF_k over the
    area, N_k once per paragraph), or add its weight's vote to the paragraph's
    fingerprint sums (Sect. 4.4 (c), once per distinct keyword of a paragraph)."""
    cdef _VsseKw *e
    cdef Py_ssize_t b
    cdef double w
    if s.mode == _VSSE_STORE:
        s.out[s.k] = h
        s.k += 1
        return
    if s.mode == _VSSE_COUNT:
        e = _vsse_table_get(s.t, h)
        if e == NULL:
            s.failed = True
            return
    else:
        e = _vsse_table_find(s.t, h)
        if e == NULL:
            return
    if s.mode == _VSSE_VOTE:
        if e.last == s.par:
            return
        e.last = s.par
        w = e.w
        if w == 0.0:
            return
        for b in range(64):
            if (h >> b) & 1:
                s.acc[b] += w
            else:
                s.acc[b] -= w
        return
    e.tf += 1
    if e.last != s.par:
        e.last = s.par
        e.df += 1


cdef inline uint64_t _vsse_sign_bits(const double *acc) noexcept nogil:
    """Sect. 4.4 (d): the bits whose summed vote is positive."""
    cdef uint64_t fp = 0
    cdef Py_ssize_t b
    for b in range(64):
        if acc[b] > 0:
            fp |= (<uint64_t>1) << b
    return fp


def simhash_text(str text, double L=1.0):
    """64-bit SimHash of `text` (Sect. 4.4 (a)-(d) with `text` as the whole area).

    With one paragraph, N = N_k = 1 and Formula 4 reduces to weight(k) =
    TF_k * L: each distinct keyword votes with its frequency on every bit
    (+weight where its hash has a 1, -weight where it has a 0), and the
    fingerprint keeps the bits whose sum is positive.  0 for a text without
    keywords."""
    cdef bytes raw = text.encode("utf-8", "surrogatepass")
    cdef const unsigned char *s = raw
    cdef Py_ssize_t j, nkw, n = len(raw)
    cdef const uint64_t[::1] stop = _VSSE_STOP
    cdef _VsseTable t
    cdef _VsseSink sink
    cdef double acc[64]
    cdef uint64_t fp = 0
    if not _vsse_table_init(&t, 16):
        raise MemoryError()
    sink.t = &t
    sink.acc = acc
    sink.par = 0
    sink.failed = False
    sink.mode = _VSSE_COUNT
    try:
        with nogil:
            nkw = _vsse_keywords(s, n, &sink, &stop[0], stop.shape[0])
            if nkw and not sink.failed:
                for j in range(t.mask + 1):
                    if t.slot[j].key:
                        t.slot[j].w = t.slot[j].tf * (0.0 + L)      # log(N / N_k) = log(1 / 1)
                        t.slot[j].last = -1
                for j in range(64):
                    acc[j] = 0.0
                sink.mode = _VSSE_VOTE
                _vsse_keywords(s, n, &sink, &stop[0], stop.shape[0])
                fp = _vsse_sign_bits(acc)
        if sink.failed:
            raise MemoryError()
    finally:
        free(t.slot)
    return fp


def hamming(uint64_t a, uint64_t b):
    """Number of bits in which two 64-bit fingerprints differ."""
    return _lcs_popcount(a ^ b)


# ---------------------------------------------------------------- Formula 1

def vvtc(Doc d, object counts=None):
    """Formula 1 for every leaf a (a text node; 0.0 for elements):

        vvtc_a = text_length_a / nodes_num * punc_num_a / nodes_num

    text_length is the leaf's character count (Doc.chars), nodes_num the
    number of leaves in the tree, and punc_num the leaf's count of the
    characteristics taking part in vvtc: by default its punctuation marks
    (Doc.punct: ASCII and CJK/full-width), or `counts`, an int array over
    the Doc summing every registered vvtc characteristic
    (fastx.characteristics.vvtc_counts)."""
    cdef Py_ssize_t i, n = d.n, leaves = 0
    cdef DocView dv = d.view
    cdef const int32_t[::1] cnt
    cnt = d.punct if counts is None else np.ascontiguousarray(counts, dtype=np.int32)
    if cnt.shape[0] != n:
        raise ValueError(f"counts has {cnt.shape[0]} entries, the Doc has {n} nodes")
    out = np.zeros(n, dtype=np.float64)
    cdef double[::1] v = out
    cdef double nn
    with nogil:
        for i in range(n):
            if dv.kind[i] == LXB_TEXT:
                leaves += 1
        nn = <double>leaves
        for i in range(n):
            if dv.kind[i] == LXB_TEXT:
                v[i] = (dv.chars[i] / nn) * (cnt[i] / nn)
    return out


cdef object _vsse_tag_flags(object tags):
    """An optional uint8 table over static tag ids as a contiguous array (one 0 for None)."""
    return np.zeros(1, dtype=np.uint8) if tags is None else np.ascontiguousarray(tags, dtype=np.uint8)


def vsse_leaf_counts(Doc d, object counts, const uint8_t[::1] drop_tags, bint links=False,
                     bint prose=False, object mute_tags=None):
    """punc_num of Formula 1 as VSSE uses it, in one sweep: `counts` (int32 over the
    Doc) with 0 for the leaves inside a tag flagged in `drop_tags` (static tag id ->
    1: the form controls Sect. 4.1's pruning removes), unless `links`, for the
    leaves inside links, and with `prose`, for the leaves whose punctuation marks
    (Doc.punct) outnumber their words: JSON, code or a row of symbols shown as
    text, whose marks are syntax, not the marks "presented for easy reading"
    (Sect. 4.2).  `mute_tags` (uint8 over static tag ids, optional): the leaves
    inside these tags carry no characteristic either, though their text stays
    (the page's <footer> and <nav>: the legal notices and link lists a page
    wraps around its content).  Returns (counts int32, dropped uint8: 1 for the
    nodes inside a dropped tag)."""
    cdef Py_ssize_t i, p, n = d.n, ntags = drop_tags.shape[0]
    cdef const int32_t[::1] c = np.ascontiguousarray(counts, dtype=np.int32)
    cdef DocView dv = d.view
    if c.shape[0] != n:
        raise ValueError(f"counts has {c.shape[0]} entries, the Doc has {n} nodes")
    cdef const uint8_t[::1] mt = _vsse_tag_flags(mute_tags)
    cdef Py_ssize_t nmt = 0 if mute_tags is None else mt.shape[0]
    out_arr = np.zeros(n, dtype=np.int32)
    drop_arr = np.zeros(n, dtype=np.uint8)
    cdef int32_t[::1] out = out_arr
    cdef uint8_t[::1] dropped = drop_arr
    # muted nodes share the int32 output until their leaves are read: -1 marks a muted element
    with nogil:
        for i in range(n):
            p = dv.parent[i]
            if (p >= 0 and dropped[p]) or (dv.kind[i] == LXB_ELEMENT and 0 <= dv.tag[i] < ntags
                                           and drop_tags[dv.tag[i]]):
                dropped[i] = 1
            elif dv.kind[i] == LXB_ELEMENT:
                if (p >= 0 and out[p] < 0) or (0 <= dv.tag[i] < nmt and mt[dv.tag[i]]):
                    out[i] = -1
            elif dv.kind[i] == LXB_TEXT and (links or not (dv.flags[i] & NF_IN_LINK)) and not (
                    prose and dv.punct[i] > dv.words[i]) and not (p >= 0 and out[p] < 0):
                out[i] = c[i]
        for i in range(n):
            if out[i] < 0:
                out[i] = 0
    return out_arr, drop_arr


def vvtc_seeds(Doc d, double T1, object counts=None):
    """Sect. 4.2 / 5.2: the leaves with vvtc_a / MaxVVTC >= T1 (Formula 1, see
    vvtc), best first, ties in document order; none when MaxVVTC = 0."""
    cdef const double[::1] v = vvtc(d, counts)
    cdef Py_ssize_t i, j, k = 0, n = d.n
    cdef double vmax = 0.0, thr
    cdef int32_t x
    for i in range(n):
        if v[i] > vmax:
            vmax = v[i]
    if vmax <= 0.0:
        return np.zeros(0, dtype=np.int32)
    thr = T1 * vmax
    for i in range(n):
        if v[i] >= thr:
            k += 1
    out = np.empty(k, dtype=np.int32)
    cdef int32_t[::1] o = out
    if k > 64:
        idx = np.flatnonzero(np.asarray(v) >= thr)
        return idx[np.argsort(-np.asarray(v)[idx], kind="stable")].astype(np.int32)
    k = 0
    with nogil:
        for i in range(n):
            if v[i] >= thr:
                x = <int32_t>i
                j = k
                while j > 0 and v[o[j - 1]] < v[x]:      # stable insertion, best first
                    o[j] = o[j - 1]
                    j -= 1
                o[j] = x
                k += 1
    return out


# ---------------------------------------------------------------- Formula 2 and Sect. 4.3.1

cdef Py_ssize_t _vsse_pcs(const int32_t *x, Py_ssize_t nx, const int32_t *y, Py_ssize_t ny,
                          int32_t *row) noexcept nogil:
    """Formula 2 by dynamic programming, iteratively, one row of ny + 1 cells:

        pcs(X,i,Y,j) = 0                                  if i = 0 or j = 0
                     = pcs(X,i-1,Y,j-1) + 1               if x_i = y_j
                     = max(pcs(X,i,Y,j-1), pcs(X,i-1,Y,j)) otherwise
    """
    cdef Py_ssize_t i, j
    cdef int32_t diag, up
    for j in range(ny + 1):
        row[j] = 0
    for i in range(1, nx + 1):
        diag = 0                              # pcs(i-1, j-1)
        for j in range(1, ny + 1):
            up = row[j]                       # pcs(i-1, j)
            if x[i - 1] == y[j - 1]:
                row[j] = diag + 1
            elif row[j - 1] > up:
                row[j] = row[j - 1]           # pcs(i, j-1)
            diag = up
    return row[ny]


cdef enum:
    _VSSE_DP_CELLS = 1 << 24      # beyond this many cells pcs goes bit-parallel (_lcs.pxi)


cdef Py_ssize_t _vsse_pcs_any(const int32_t[::1] x, Py_ssize_t nx, const int32_t[::1] y, Py_ssize_t ny,
                              int32_t[::1] row) except -1:
    """pcs of x[:nx] and y[:ny]: the common prefix is matched directly (an LCS
    can always take it); the rest by Formula 2's table, or, when that table
    would be huge (paths thousands of levels deep), by the bit-parallel LCS
    of _lcs.pxi, which computes the same number."""
    cdef Py_ssize_t pre = 0, r
    while pre < nx and pre < ny and x[pre] == y[pre]:
        pre += 1
    if pre == nx or pre == ny:
        return pre
    if (nx - pre) * (ny - pre) > _VSSE_DP_CELLS:
        return pre + lcs_length(np.asarray(x[pre:nx]), np.asarray(y[pre:ny]))
    with nogil:
        r = _vsse_pcs(&x[pre], nx - pre, &y[pre], ny - pre, &row[0])
    return pre + r


def pcs(object x, object y):
    """Formula 2: the length of the longest common subsequence of two tag paths
    (sequences of tag ids)."""
    cdef const int32_t[::1] a = np.ascontiguousarray(x, dtype=np.int32)
    cdef const int32_t[::1] b = np.ascontiguousarray(y, dtype=np.int32)
    cdef int32_t[::1] row = np.empty(b.shape[0] + 1, dtype=np.int32)
    return _vsse_pcs_any(a, a.shape[0], b, b.shape[0], row)


cdef Py_ssize_t _vsse_path(const int32_t *parent, const int32_t *depth, const int32_t *tag,
                           Py_ssize_t node, int32_t[::1] out) noexcept nogil:
    """Tag path from the root down to `node` (inclusive) into out; returns its length."""
    cdef Py_ssize_t k = depth[node] + 1, i = node, j = k
    while i >= 0 and j > 0:
        j -= 1
        out[j] = tag[i]
        i = parent[i]
    return k



cdef Py_ssize_t _vsse_seed_depth(const int32_t[::1] sd, Py_ssize_t n, const int32_t *depth) except -1:
    """The deepest seed's depth; ValueError when a seed is not a node of the Doc."""
    cdef Py_ssize_t k, s, maxd = 0
    for k in range(sd.shape[0]):
        s = sd[k]
        if s < 0 or s >= n:
            raise ValueError(f"seed {s} is not a node of the Doc (0..{n - 1})")
        if depth[s] > maxd:
            maxd = depth[s]
    return maxd

def vsse_aggregate(Doc d, object seeds):
    """Sect. 4.3.1: aggregate the seeds' tag paths and mark the content area.

    `seeds` are leaves (text nodes), best first.  A leaf's tag path is the
    sequence of tags from the root to the element holding it.  Starting from
    the first seed's path P, every further seed's path Y shortens P to its
    first pcs(P, Y) tags (Formula 2).  The area covered by the resulting tag
    path is every element whose own root path is exactly P, with its whole
    subtree: a paragraph's siblings share its tag path, which is how the
    paths "locate broad content areas" around text nodes the punctuation
    characteristic missed (measured: reading the area as one subtree, the
    node at depth len(P) on the first seed's path, reaches about 0.3 F1 on
    the dev corpora against 0.7-0.85 for this reading).

    Returns (keep uint8 mask over the Doc, P as an int32 array)."""
    cdef Py_ssize_t n = d.n, ns, s, k, L, i, dp, maxd = 0
    cdef const int32_t[::1] sd = np.ascontiguousarray(seeds, dtype=np.int32)
    cdef DocView dv = d.view
    keep_arr = np.zeros(n, dtype=np.uint8)
    cdef uint8_t[::1] keep = keep_arr
    ns = sd.shape[0]
    if ns == 0 or n == 0:
        return keep_arr, np.zeros(0, dtype=np.int32)
    maxd = _vsse_seed_depth(sd, n, dv.depth)
    cdef int32_t[::1] P = np.empty(maxd + 1, dtype=np.int32)
    cdef int32_t[::1] Y = np.empty(maxd + 1, dtype=np.int32)
    cdef int32_t[::1] row = np.empty(maxd + 2, dtype=np.int32)
    s = sd[0]
    L = _vsse_path(dv.parent, dv.depth, dv.tag, dv.parent[s] if dv.kind[s] == LXB_TEXT and dv.parent[s] >= 0 else s, P)
    for k in range(1, ns):
        s = sd[k]
        i = _vsse_path(dv.parent, dv.depth, dv.tag,
                       dv.parent[s] if dv.kind[s] == LXB_TEXT and dv.parent[s] >= 0 else s, Y)
        L = _vsse_pcs_any(P, L, Y, i, row)
        if L == 0:
            break
    if L > 0:
        with nogil:
            # preorder, skipping every subtree whose root leaves P: a node reached
            # here has all its ancestors on P, so its own tag decides
            i = 0
            while i < n:
                dp = dv.depth[i]
                if dv.kind[i] == LXB_ELEMENT and dp < L and dv.tag[i] == P[dp]:
                    if dp == L - 1:
                        for k in range(i, dv.end[i]):
                            keep[k] = 1
                        i = dv.end[i]
                    else:
                        i += 1
                else:
                    i = dv.end[i]                # nothing below can match P
    return keep_arr, np.asarray(P[:L]).copy()


cdef double _vsse_area_pass(Py_ssize_t n, const int32_t *depth, const int32_t *tag, const int32_t *end,
                            const uint8_t *kind, const int32_t *parent, const int32_t *P, Py_ssize_t L,
                            bint container, const double *v, int32_t *stamp, int32_t mark,
                            uint8_t *out, double *vmax) noexcept nogil:
    """One area of vsse_areas: mark (stamp = `mark`, and out[k] = 1 when `out`) every node
    under the elements whose root path is P[:L] (with `container`, under their parents),
    each node once; returns the vvtc its leaves carry (and their largest in *vmax).
    A subtree already stamped is
    skipped whole (stamps always cover whole subtrees), so the paragraphs of one
    container cost one sweep of it."""
    cdef Py_ssize_t i = 0, k, r, dp
    cdef double score = 0.0
    vmax[0] = 0.0
    if L <= 0:
        return 0.0
    while i < n:
        dp = depth[i]
        if kind[i] == LXB_ELEMENT and dp < L and tag[i] == P[dp]:
            if dp == L - 1:
                r = parent[i] if container and parent[i] >= 0 else i
                if stamp[r] != mark:
                    k = r
                    while k < end[r]:
                        if stamp[k] == mark:          # a subtree marked before: whole
                            k = end[k]
                            continue
                        stamp[k] = mark
                        if out != NULL:
                            out[k] = 1
                        if kind[k] == LXB_TEXT:
                            score += v[k]
                            if v[k] > vmax[0]:
                                vmax[0] = v[k]
                        k += 1
                i = end[i]
            else:
                i += 1
        else:
            i = end[i]                # nothing below can match P
    return score


cdef inline int32_t _vsse_lca(const int32_t *parent, const int32_t *depth, Py_ssize_t x,
                              Py_ssize_t y) noexcept nogil:
    """Lowest common ancestor of nodes x and y (-1 if either is -1 or they share none)."""
    while x >= 0 and y >= 0 and x != y:
        if depth[x] >= depth[y]:
            x = parent[x]
        else:
            y = parent[y]
    return <int32_t>(x if x == y else -1)


cdef enum:
    _VSSE_MAX_AREAS = 64          # vsse_areas: areas founded at most (best seeds first)


def vsse_areas(Doc d, object seeds, const double[::1] v, double join=0.8, bint container=True,
               double T1=0.0, double together=0.0, double floor=0.1, double share=0.0,
               double extend=0.0, bint found=False, bint blocks=False, Py_ssize_t reach=0,
               bint lca=False):
    """Sect. 4.3.1 as fastx reads it: the seeds' tag paths aggregated into content
    areas, and the area of the largest visual value.

    `seeds` are leaves (text nodes), best first; `v` their vvtc (Formula 1)
    over the Doc.  A seed's tag path is the sequence of tags from the root to
    the element holding it.  Best first, each seed joins the first area
    whose path P shares a common prefix of at least `join` * the length of
    the area's founding path (its best seed's) ("aggregate tag paths to discover the
    maximum common path prefix"), and P becomes that prefix; otherwise the
    seed starts an area of its own (the first 64 areas only: a seed past
    them that joins none is left out).  The share is taken of the path that
    founded the area, so that neither a shallow seed (a notice under
    <body>) nor joins one after the other can shorten P below `join` of it.  An area covers every element whose own
    root path is exactly P, with its subtree, and with `container` the
    parent of each such element instead (the container of the paragraphs the
    path locates, where the headings, lists and image titles "nearby the
    discovered tag paths" sit).  The area returned is the one whose leaves
    carry the largest sum of vvtc: a seed far from the others (a copyright
    or browser notice with many full stops) forms its own small area instead
    of shortening the article's path to <body>.

    T1 > 0: only the seeds with v >= T1 * v[seeds[0]] are taken at first
    (pass every punctuated leaf, best first).  together > 0: while the
    chosen area's leaves carry less than `together` times the vvtc of its
    best leaf (one well-marked node, not several "organized together"),
    T1 is halved, down to `floor`, and the seeds it adds continue the
    aggregation (best first, so the areas of the first k seeds are a state
    of the areas of more).

    extend > 0: once the halving is over, the seeds down to `extend` times
    the best vvtc still join the areas they are near (the same `join`
    test), and with `found` also found areas of their own: a list of
    punctuated items one or two levels below the paragraphs (div/ol/li/p
    beside div/p), or an article whose comments carry the best leaves, is
    not left out because the first seeds were already organized together.

    share > 0: the content areas are the chosen one and every other area
    whose leaves carry at least `share` times its vvtc (the page's "broad
    content areas" when its text sits in several sections).

    blocks: a seed's tag path ends at the nearest block element holding it
    (its paragraph), not at the inline element (span, em, font, a) its text
    sits in: inline tags present a paragraph ("a paragraph of text is often
    organized by multiple HTML tag pairs for the purpose of presentation",
    Sect. 4.2), and with them the container of a <p><span> seed is the <p>
    alone, not the article holding the headings and lists beside it.

    lca: a content area also covers the subtree of the lowest common ancestor
    of its seeds' blocks ("a block of content area is just a subtree
    constructed by some tag paths with a common prefix"): seeds with one tag
    path in the items of a grid or list (li/div/p in every li) cover the list,
    not only the items' inner containers.

    reach > 0 (with lca): two content areas (the chosen one and those kept by
    `share`) whose founding paths part within `reach` tags of the longer one's
    end are one area: the subtree of their seeds' common ancestor (sections of
    one document nested at several depths).  Areas that are not content are
    never merged, so a notice beside the story stays out when `share` leaves
    it out.

    Returns (keep uint8 mask over the Doc, the chosen P as an int32 array)."""
    cdef Py_ssize_t n = d.n, ns, s, k, a, na = 0, L, ly, i, dp, best = -1, maxd = 0, r, lg
    cdef const int32_t[::1] sd = np.ascontiguousarray(seeds, dtype=np.int32)
    cdef DocView dv = d.view
    cdef double score, best_score = -1.0
    keep_arr = np.zeros(n, dtype=np.uint8)
    ns = sd.shape[0]
    if v.shape[0] != n:
        raise ValueError(f"v has {v.shape[0]} entries, the Doc has {n} nodes")
    if ns == 0 or n == 0:
        return keep_arr, np.zeros(0, dtype=np.int32)
    maxd = _vsse_seed_depth(sd, n, dv.depth)
    # areas: paths (cap x (maxd + 1)) and their lengths; at most _VSSE_MAX_AREAS areas, so that
    # a page of many punctuated leaves, each far from the others, costs bounded memory and time
    cdef Py_ssize_t cap = ns if ns < _VSSE_MAX_AREAS else _VSSE_MAX_AREAS
    paths_arr = np.empty((cap, maxd + 1), dtype=np.int32)
    plen_arr = np.zeros(cap, dtype=np.int64)
    plen0_arr = np.zeros(cap, dtype=np.int64)
    stamp_arr = np.zeros(n, dtype=np.int32)
    best_arr = np.zeros(n, dtype=np.uint8)
    cdef int32_t[:, ::1] paths = paths_arr
    cdef int64_t[::1] plen = plen_arr
    cdef int64_t[::1] plen0 = plen0_arr
    cdef int32_t[::1] Y = np.empty(maxd + 1, dtype=np.int32)
    cdef int32_t[::1] stamp = stamp_arr
    cdef uint8_t[::1] bestk = best_arr
    cdef double[::1] ascore = np.zeros(cap, dtype=np.float64)
    # per area: its seeds' blocks' common ancestor, whether its path changed since it was scored,
    # and the largest vvtc of its leaves (an area's score depends on its path alone)
    cdef int32_t alca[_VSSE_MAX_AREAS]
    cdef uint8_t adirty[_VSSE_MAX_AREAS]
    cdef double avmax[_VSSE_MAX_AREAS]
    cdef bint akeep[_VSSE_MAX_AREAS]
    cdef int32_t rmark
    cdef Py_ssize_t done = 0, upto = ns, nu, x
    cdef bint extending = False
    cdef int32_t mark = 0
    cdef double t1 = T1, vtop = v[sd[0]], vmx = 0.0, best_vmax = 0.0
    blk_arr = np.empty(n if blocks else 1, dtype=np.int32)
    cdef int32_t *blk = <int32_t *>cnp.PyArray_DATA(blk_arr)
    if T1 > 0:
        upto = 0
        while upto < ns and v[sd[upto]] >= t1 * vtop:
            upto += 1
    with nogil:
        if blocks:
            _blk_core(n, dv.parent, dv.kind, dv.flags, blk)
        while True:
            for k in range(done, upto):
                s = sd[k]
                if blocks and blk[s] >= 0:
                    r = blk[s]
                else:
                    r = dv.parent[s] if dv.kind[s] == LXB_TEXT and dv.parent[s] >= 0 else s
                ly = _vsse_path(dv.parent, dv.depth, dv.tag, r, Y)
                for a in range(na):
                    L = 0
                    while L < plen[a] and L < ly and paths[a, L] == Y[L]:
                        L += 1
                    lg = plen0[a] if plen0[a] > ly else ly
                    if L > 0 and L >= join * lg:
                        if L != plen[a]:
                            plen[a] = L
                            adirty[a] = 1
                        alca[a] = _vsse_lca(dv.parent, dv.depth, alca[a], r)   # of the seeds' blocks
                        break
                else:
                    if na < cap and (found or not extending):   # past the cap: no new area
                        for i in range(ly):
                            paths[na, i] = Y[i]
                        alca[na] = <int32_t>r
                        adirty[na] = 1
                        plen[na] = ly
                        plen0[na] = ly
                        na += 1
            done = upto
            best = -1
            best_score = -1.0
            for a in range(na):
                if adirty[a]:
                    mark += 1
                    ascore[a] = _vsse_area_pass(n, dv.depth, dv.tag, dv.end, dv.kind, dv.parent, &paths[a, 0],
                                                plen[a], container, &v[0], &stamp[0], mark, NULL, &avmax[a])
                    adirty[a] = 0
                if ascore[a] > best_score:
                    best_score = ascore[a]
                    best = a
                    best_vmax = avmax[a]
            if extending:
                break
            nu = upto
            if not (together <= 0 or T1 <= 0 or best_score >= together * best_vmax):
                while nu == upto and t1 / 2 >= floor:
                    t1 /= 2
                    while nu < ns and v[sd[nu]] >= t1 * vtop:
                        nu += 1
            if nu == upto:                    # the halving is over
                if extend <= 0:
                    break
                extending = True
                while nu < ns and v[sd[nu]] >= extend * vtop:
                    nu += 1
                if nu == upto:
                    break
            upto = nu
        mark += 1
        rmark = mark + 1                  # the subtrees the areas cover whole (lca): stamp == rmark
        for a in range(na):
            # the content areas: the chosen one and those `share` keeps
            akeep[a] = a == best or (share > 0 and ascore[a] >= share * best_score)
            if akeep[a]:
                _vsse_area_pass(n, dv.depth, dv.tag, dv.end, dv.kind, dv.parent, &paths[a, 0], plen[a], container,
                                &v[0],
                                &stamp[0], mark, &bestk[0], &vmx)
        if lca:
            for a in range(na):
                if akeep[a] and alca[a] >= 0:
                    stamp[alca[a]] = rmark
        if reach > 0 and lca:
            # content areas whose founding paths part within `reach` tags of their ends: the
            # subtree of their common ancestor is one area
            for a in range(na):
                if not akeep[a] or alca[a] < 0:
                    continue
                for k in range(a + 1, na):
                    if not akeep[k] or alca[k] < 0:
                        continue
                    L = 0
                    while L < plen0[a] and L < plen0[k] and paths[a, L] == paths[k, L]:
                        L += 1
                    lg = plen0[a] if plen0[a] > plen0[k] else plen0[k]
                    if L > 0 and L >= lg - reach:
                        x = _vsse_lca(dv.parent, dv.depth, alca[a], alca[k])
                        if x >= 0:
                            stamp[x] = rmark
        if lca:
            # the flagged subtrees, each node once (a flagged node inside another's subtree is
            # covered by it), so the many pairs of a page cost one sweep
            i = 0
            while i < n:
                if stamp[i] == rmark:
                    for k in range(i, dv.end[i]):
                        bestk[k] = 1
                    i = dv.end[i]
                else:
                    i += 1
    return best_arr, paths_arr[best, :plen[best]].copy()


def vsse_headline(Doc d, object keep, str title, const uint8_t[::1] heading_tags, double cover=0.4):
    """Sect. 4.4's content semantics for the headline: returns a new keep mask with
    the heading that repeats the page title added when the areas left it out.

    Candidates are the text nodes not kept whose nearest block ancestor is a
    heading (a tag flagged in `heading_tags`: h1-h6), whose text, ASCII case
    folded, occurs in `title` and is at least `cover` of its length (a logo
    or section heading repeats a word or two of the title, the headline most
    of it).  Link text counts: a blog's headline is its permalink.  The
    candidate nearest to the first kept text node (in document order, before
    or after it) is taken, with every text node of its heading.  Nothing
    happens when nothing is kept or no candidate exists."""
    cdef Py_ssize_t n = d.n, i, first = -1, best = -1, dist, best_dist = 0, h, nh = heading_tags.shape[0]
    cdef uint8_t[::1] out = np.array(keep, dtype=np.uint8, copy=True)
    if out.shape[0] != n:
        raise ValueError(f"keep has {out.shape[0]} entries, the Doc has {n} nodes")
    cdef bytes tb = title.lower().encode("utf-8", "surrogatepass")
    cdef const unsigned char *t = tb
    cdef Py_ssize_t tn = len(tb)
    cdef DocView dv = d.view
    if tn == 0 or n == 0:
        return np.asarray(out)
    blk_arr = np.empty(n, dtype=np.int32)
    cdef int32_t *blk = <int32_t *>cnp.PyArray_DATA(blk_arr)
    with nogil:
        _blk_core(n, dv.parent, dv.kind, dv.flags, blk)
        for i in range(n):
            if dv.kind[i] == LXB_TEXT and out[i]:
                first = i
                break
        if first >= 0:
            for i in range(n):
                h = blk[i]
                if dv.kind[i] != LXB_TEXT or out[i] or h < 0 or not (
                        0 <= dv.tag[h] < nh and heading_tags[dv.tag[h]]):
                    continue
                if dv.text_len[i] < cover * tn or not _vsse_in_title(dv.text_buf + dv.text_off[i], dv.text_len[i], t,
                                                                     tn):
                    continue
                dist = first - i if i < first else i - first
                if best < 0 or dist < best_dist:
                    best = i
                    best_dist = dist
            if best >= 0:
                h = blk[best]
                for i in range(h, dv.end[h]):
                    if dv.kind[i] == LXB_TEXT:
                        out[i] = 1
    return np.asarray(out)


# ---------------------------------------------------------------- Sect. 4.4 over an area

def vsse_refine(Doc d, object keep, str reference, int T2=3, double L=1.0, bint all_paragraphs=False,
                object exempt_tags=None, bint links_only=False):
    """Sect. 4.4 on the kept text: returns a new keep mask without the
    paragraphs judged unrelated to `reference` (the page's title and
    description).

    A paragraph is the kept text of one block element (the text nodes with
    the same nearest block ancestor), so a sentence split by <a> or <b> is
    one paragraph.  (a) Every keyword k of the area gets Formula 4's weight
        weight(k) = TF_k * (log(N / N_k) + L)
    with TF_k its occurrences in the whole area, N the paragraphs, N_k the
    paragraphs containing k; (b)-(d) a paragraph's fingerprint sums +weight
    / -weight per bit of each distinct keyword's 64-bit hash and keeps the
    positive bits.  The reference goes through the same steps as an area of
    its own (simhash_text).  A judged paragraph stays when the Hamming
    distance between the two fingerprints is at most T2.  A reference
    without keywords judges nothing.

    Judged paragraphs: with `all_paragraphs`, every one; otherwise only those
    without punctuation, i.e. the ones the aggregation added and the
    punctuation characteristic cannot vouch for (the image titles and
    captions of Sect. 4.3.1).  Measured on the dev corpora, T2 = 3 of 64
    bits keeps 1-4% of the gold paragraphs when every paragraph is judged.
    `exempt_tags` (uint8 over static tag ids): paragraphs whose block is one
    of these tags are never judged (the headings).  `links_only`: of a
    paragraph judged unrelated, only the leaves inside links go."""
    cdef Py_ssize_t n = d.n, i, j, p, np_ = 0, judged = 0, q
    cdef uint8_t[::1] out_keep = np.array(keep, dtype=np.uint8, copy=True)
    if out_keep.shape[0] != n:
        raise ValueError(f"keep has {out_keep.shape[0]} entries, the Doc has {n} nodes")
    out = np.asarray(out_keep)
    cdef DocView dv = d.view
    cdef const uint8_t[::1] ex = _vsse_tag_flags(exempt_tags)
    cdef Py_ssize_t nex = 0 if exempt_tags is None else ex.shape[0]
    cdef const uint64_t[::1] stop = _VSSE_STOP
    cdef uint64_t reference_fp
    cdef _VsseTable t
    cdef _VsseSink sink
    cdef double acc[64]
    cdef double logn
    cdef int pass_
    blk_arr = block_ancestors(d)
    cdef const int32_t *blk = <const int32_t *>cnp.PyArray_DATA(blk_arr)
    # one block: pid (block + 1 -> paragraph) | node_par | par_punct | par_start | order | drop
    cdef int32_t *pid = <int32_t *>malloc((7 * n + 8) * sizeof(int32_t))
    if pid == NULL:
        raise MemoryError()
    cdef int32_t *node_par = pid + n + 1
    cdef int32_t *par_punct = node_par + n
    cdef int32_t *par_start = par_punct + n + 1
    cdef int32_t *order = par_start + n + 2
    cdef int32_t *drop = order + n + 1
    cdef int32_t *par_blk = drop + n + 1         # the paragraph's block (-1: none)
    t.slot = NULL
    try:
        with nogil:
            # paragraphs: the kept text nodes with the same nearest block ancestor
            for i in range(n):
                pid[i] = -1
                node_par[i] = -1
                par_punct[i] = 0
            pid[n] = -1
            for i in range(n):
                if dv.kind[i] != LXB_TEXT or not out_keep[i]:
                    continue
                p = blk[i] + 1
                if pid[p] < 0:
                    pid[p] = <int32_t>np_
                    par_blk[np_] = blk[i]
                    np_ += 1
                node_par[i] = pid[p]
                par_punct[pid[p]] += dv.punct[i]
            # from here par_punct[p] is 1 for a judged paragraph, 0 otherwise
            for p in range(np_):
                q = par_blk[p]
                if (all_paragraphs or par_punct[p] == 0) and not (
                        q >= 0 and 0 <= dv.tag[q] < nex and ex[dv.tag[q]]):
                    par_punct[p] = 1
                    judged += 1
                else:
                    par_punct[p] = 0
        if judged == 0:
            return out
        reference_fp = simhash_text(reference, L)
        if reference_fp == 0:
            return out
        if not _vsse_table_init(&t, 16):
            raise MemoryError()
        sink.t = &t
        sink.acc = acc
        sink.failed = False
        with nogil:
            # kept leaves grouped by paragraph (counting sort)
            for p in range(np_ + 2):
                par_start[p] = 0
            for i in range(n):
                if node_par[i] >= 0:
                    par_start[node_par[i] + 1] += 1
            for p in range(np_):
                par_start[p + 1] += par_start[p]
                drop[p] = par_start[p]          # a cursor for now
            for i in range(n):
                if node_par[i] >= 0:
                    order[drop[node_par[i]]] = <int32_t>i
                    drop[node_par[i]] += 1
            for p in range(np_):
                drop[p] = 0
            # (a) Formula 4, the keywords streamed from the text (no copy of them is kept,
            # so memory follows the distinct keywords): the judged paragraphs' keywords
            # enter the table (pass 0), the other paragraphs only add to their TF_k and
            # N_k (pass 1)
            for pass_ in range(2):
                sink.mode = _VSSE_COUNT if pass_ == 0 else _VSSE_COUNT_KNOWN
                for p in range(np_):
                    if (par_punct[p] == 1) != (pass_ == 0):
                        continue
                    sink.par = <int32_t>p
                    for q in range(par_start[p], par_start[p + 1]):
                        i = order[q]
                        _vsse_keywords(dv.text_buf + dv.text_off[i], dv.text_len[i], &sink, &stop[0], stop.shape[0])
                    if sink.failed:
                        break
            if not sink.failed:
                logn = _vsse_log(<double>np_)
                for j in range(t.mask + 1):
                    if t.slot[j].key:
                        t.slot[j].w = t.slot[j].tf * (logn - _vsse_log(<double>t.slot[j].df) + L)
                        t.slot[j].last = -1
                # (b)-(d) the judged paragraphs read again, each distinct keyword voting
                # once, and the Hamming test
                sink.mode = _VSSE_VOTE
                for p in range(np_):
                    if par_punct[p] == 0:
                        continue
                    sink.par = <int32_t>p
                    for j in range(64):
                        acc[j] = 0.0
                    for q in range(par_start[p], par_start[p + 1]):
                        i = order[q]
                        _vsse_keywords(dv.text_buf + dv.text_off[i], dv.text_len[i], &sink, &stop[0], stop.shape[0])
                    if _lcs_popcount(_vsse_sign_bits(acc) ^ reference_fp) > T2:
                        drop[p] = 1
                for i in range(n):
                    if node_par[i] >= 0 and drop[node_par[i]] and (not links_only or dv.flags[i] & NF_IN_LINK):
                        out_keep[i] = 0
        if sink.failed:
            raise MemoryError()
    finally:
        free(pid)
        free(t.slot)
    return out


# ---------------------------------------------------------------- records: characteristics of leaves

cdef enum:
    _VSSE_LABEL_WORDS = 6         # an attribute name has at most this many words
    _VSSE_LABEL_BYTES = 64        # and this many bytes of UTF-8
    _VSSE_LABEL_CJK = 8           # and this many CJK characters


cdef uint64_t _vsse_label_hash(const unsigned char *s, Py_ssize_t n, Py_ssize_t *words) noexcept nogil:
    """Hash of an attribute name normalized: its runs of letters, digits and CJK
    characters, ASCII folded to lower case, joined by one space ("ISBN-13" and
    "isbn 13" agree).  *words receives the number of runs; past six runs or
    eight CJK characters (a Chinese name has two to six) it is no name and
    *words exceeds the limit."""
    cdef size_t i = 0, m = <size_t>n
    cdef uint32_t cp
    cdef uint64_t h = 0xCBF29CE484222325ULL
    cdef bint in_run = False
    cdef int cjk = 0
    words[0] = 0
    while i < m:
        cp = _utf8_next(s, m, &i)
        if _vsse_letter(cp) or _is_cjk(cp):
            if cp >= 0x3040 and _is_cjk(cp):
                cjk += 1
                if cjk > _VSSE_LABEL_CJK:
                    words[0] = _VSSE_LABEL_WORDS + 1
                    return 0
            if not in_run:
                if words[0]:
                    h = _vsse_fnv(h, 32)
                words[0] += 1
                if words[0] > _VSSE_LABEL_WORDS:
                    return 0              # too long for an attribute name
                in_run = True
            h = _vsse_fnv(h, cp)
        else:
            in_run = False
    return _vsse_fmix(h)


def attribute_hash(str name):
    """The dictionary key of an attribute name (see records_scan)."""
    cdef bytes b = name.encode("utf-8", "surrogatepass")
    cdef Py_ssize_t words
    return _vsse_label_hash(b, len(b), &words)


cdef inline Py_ssize_t _vsse_delimiter(const unsigned char *s, Py_ssize_t n) noexcept nogil:
    """Byte offset of the first attribute delimiter (':' or full-width '：'), or -1.

    A colon is no delimiter inside a URL ('://') or between two digits (10:30)."""
    cdef Py_ssize_t i, best = -1
    cdef const unsigned char *p
    # bytes suffice: UTF-8 never hides ':' or EF BC 9A inside another character
    p = <const unsigned char *>memchr(s, 58, <size_t>n)
    while p != NULL:
        i = p - s
        if not (i + 2 < n and s[i + 1] == 47 and s[i + 2] == 47) and \
                not (i > 0 and 48 <= s[i - 1] <= 57 and i + 1 < n and 48 <= s[i + 1] <= 57):
            best = i
            break
        p = <const unsigned char *>memchr(p + 1, 58, <size_t>(n - i - 1))
    p = <const unsigned char *>memchr(s, 0xEF, <size_t>(best if best >= 0 else n))
    while p != NULL:
        i = p - s
        if i + 2 < n and s[i + 1] == 0xBC and s[i + 2] == 0x9A:
            return i
        p = <const unsigned char *>memchr(p + 1, 0xEF, <size_t>((best if best >= 0 else n) - i - 1))
    return best


cdef bint _vsse_in_title(const unsigned char *s, Py_ssize_t n, const unsigned char *title,
                         Py_ssize_t tn) noexcept nogil:
    """s occurs in title (title lower-cased; ASCII letters of s folded)."""
    cdef const unsigned char *p = title
    cdef const unsigned char *last
    cdef Py_ssize_t j
    cdef unsigned char c, c0
    if n == 0 or n > tn:
        return False
    last = title + (tn - n)
    c0 = s[0] + 32 if 65 <= s[0] <= 90 else s[0]
    while p <= last:
        p = <const unsigned char *>memchr(p, c0, <size_t>(last - p) + 1)
        if p == NULL:
            return False
        for j in range(1, n):
            c = s[j]
            if 65 <= c <= 90:
                c += 32
            if c != p[j]:
                break
        else:
            return True
        p += 1
    return False


cdef bint _vsse_title_starts(const unsigned char *s, Py_ssize_t n, const unsigned char *title,
                             Py_ssize_t tn) noexcept nogil:
    """The title begins with s as a whole word (a one-word name: 'Whiplash - Shop')."""
    cdef Py_ssize_t j
    cdef unsigned char c
    if n == 0 or n > tn:
        return False
    for j in range(n):
        c = s[j]
        if 65 <= c <= 90:
            c += 32
        if c != title[j]:
            return False
    return n == tn or not (title[n] >= 128 or (48 <= title[n] <= 57) or (97 <= title[n] <= 122))


def records_scan(Doc d, const uint64_t[::1] dict_keys, const int32_t[::1] dict_vals, str title):
    """The record characteristics of every leaf (text node) outside links, in one
    pass (links are noise, Sect. 2: a link's text is a value at most).

    Returns int32 arrays over the Doc (elements: -1 / 0), (delim, label, in_title, has_delim):
      delim    byte offset of the leaf's attribute delimiter (':' / '：'), -1 if none
               or if the text before it is longer than an attribute name (six
               words, 64 bytes)
      label    attribute-dictionary entry of the leaf's label (the text before
               the delimiter, or the whole leaf when it has none), -1 if none
      in_title 1 when the leaf (two words or more) occurs in the page title, or
               the title begins with the leaf (one word)
      has_delim 1 where delim >= 0
    `dict_keys` are sorted attribute_hash values, `dict_vals` their entry ids."""
    cdef Py_ssize_t n = d.n, i, at, words, lo, nd = dict_keys.shape[0], tn
    cdef DocView dv = d.view
    cdef bytes tb = title.lower().encode("utf-8", "surrogatepass")
    cdef const unsigned char *tt = tb
    cdef uint64_t h
    block = np.empty((4, n), dtype=np.int32)           # one allocation, four rows
    delim_arr, label_arr, title_arr, has_arr = block
    cdef int32_t *delim = <int32_t *>cnp.PyArray_DATA(block)
    cdef int32_t *label = delim + n
    cdef int32_t *in_title = label + n
    cdef int32_t *has_delim = in_title + n
    if dict_vals.shape[0] != nd:
        raise ValueError("dict_keys and dict_vals differ in length")
    tn = len(tb)
    with nogil:
        for i in range(n):
            delim[i] = -1
            label[i] = -1
            in_title[i] = 0
            has_delim[i] = 0
            if dv.kind[i] != LXB_TEXT or dv.flags[i] & NF_IN_LINK:
                continue
            if dv.words[i] >= 2 and _vsse_in_title(dv.text_buf + dv.text_off[i], dv.text_len[i], tt, tn) or \
                    dv.words[i] == 1 and _vsse_title_starts(dv.text_buf + dv.text_off[i], dv.text_len[i], tt, tn):
                in_title[i] = 1
            at = _vsse_delimiter(dv.text_buf + dv.text_off[i], dv.text_len[i])
            if (at if at >= 0 else dv.text_len[i]) > _VSSE_LABEL_BYTES:
                continue
            h = _vsse_label_hash(dv.text_buf + dv.text_off[i], at if at >= 0 else dv.text_len[i], &words)
            if words > _VSSE_LABEL_WORDS:
                continue
            delim[i] = <int32_t>at
            has_delim[i] = at >= 0
            if words > 0 and nd > 0 and fx_find_u64(&dict_keys[0], nd, h, &lo):
                label[i] = dict_vals[lo]
    return delim_arr, label_arr, title_arr, has_arr


# ---------------------------------------------------------------- Formula 3

def wvc(Doc d, list codes, list kinds, list sizes, bint skip_links=True):
    """Formula 3 for every node, bottom up:

        WVC(i) = sum_k n_k * log(N / n_k)

    n_k is the number of leaves under i satisfying characteristic k, N the
    number of leaves of the tree.  Characteristic arrays (int32 over the Doc,
    read at the leaves): `codes[c]` with `kinds[c]` 0 (a leaf satisfies it
    when its value is > 0; one characteristic) or 1 (a category: a value v >= 0
    satisfies characteristic v of `sizes[c]`, e.g. one per dictionary
    attribute).  With `skip_links`, leaves inside links do not count (links
    are noise, Sect. 2).

    Returns (W, coverage): coverage(i) = sum_k n_k(i) / n_k(root) * log(N / n_k(root)),
    the share of each characteristic's leaves the subtree of i holds, weighted
    by the characteristic's rarity on the page (records_viterbi's termination
    compares states by it)."""
    cdef Py_ssize_t n = d.n, i, c, k, m = 0, leaves = 0, base = 0, npairs = 0, p, j, ncodes = len(codes)
    cdef Py_ssize_t ncounted = 0, total, chain, ntouched, size
    cdef DocView dv = d.view
    cdef const int32_t[::1] code
    cdef int32_t *scratch = NULL
    cdef int32_t *counted
    cdef int32_t *first
    cdef int32_t *pair_leaf
    cdef int32_t *pair_k
    cdef int32_t *order
    cdef int32_t *cursor
    cdef int32_t *cnt
    cdef int32_t *touched
    cdef double *tab = NULL
    cdef double idf, nn
    if not (ncodes == len(kinds) == len(sizes)):
        raise ValueError("codes, kinds and sizes differ in length")
    for c in range(ncodes):
        if int(sizes[c]) < 1:
            raise ValueError(f"characteristic {c} has size {sizes[c]}; sizes must be >= 1")
        m += int(sizes[c])
    out = np.zeros((2, n), dtype=np.float64)
    W_arr, C_arr = out[0], out[1]
    cdef double *W = <double *>cnp.PyArray_DATA(out)
    cdef double *C = W + n
    for i in range(n):
        if dv.kind[i] == LXB_TEXT:
            leaves += 1
    if leaves == 0:
        return W_arr, C_arr
    nn = <double>leaves
    # one block: counted | first | pair_leaf | pair_k | order | cursor | cnt | touched
    size = (n + 1) + (m + 1) + 3 * (leaves * ncodes + 1) + m + 2 * n
    scratch = <int32_t *>malloc(size * sizeof(int32_t))
    tab = <double *>malloc((leaves + 1) * sizeof(double))
    if scratch == NULL or tab == NULL:
        free(scratch)
        free(tab)
        raise MemoryError()
    counted = scratch
    first = counted + n + 1
    pair_leaf = first + m + 1
    pair_k = pair_leaf + leaves * ncodes + 1
    order = pair_k + leaves * ncodes + 1
    cursor = order + leaves * ncodes + 1
    cnt = cursor + m
    touched = cnt + n
    try:
        with nogil:
            for i in range(n):
                if dv.kind[i] == LXB_TEXT and not (skip_links and dv.flags[i] & NF_IN_LINK):
                    counted[ncounted] = <int32_t>i
                    ncounted += 1
            for k in range(m + 1):
                first[k] = 0
            for i in range(n):
                cnt[i] = 0
        # (leaf, characteristic) pairs, then grouped by characteristic
        for c in range(ncodes):
            code = np.ascontiguousarray(codes[c], dtype=np.int32)
            if code.shape[0] != n:
                raise ValueError(f"characteristic {c} has {code.shape[0]} entries, the Doc has {n} nodes")
            npairs = _vsse_collect(counted, ncounted, code, int(kinds[c]), int(sizes[c]), base, pair_leaf,
                                   pair_k, npairs)
            base += int(sizes[c])
        with nogil:
            for j in range(npairs):
                first[pair_k[j] + 1] += 1
            for k in range(m):
                first[k + 1] += first[k]
                cursor[k] = first[k]
            for j in range(npairs):
                k = pair_k[j]
                order[cursor[k]] = pair_leaf[j]
                cursor[k] += 1
            for j in range(leaves + 1):
                tab[j] = -1.0                 # n_k log(N / n_k), filled on first use
            for k in range(m):
                if first[k + 1] == first[k]:
                    continue
                total = first[k + 1] - first[k]
                idf = _vsse_log(nn / total) / total
                chain = 0
                for j in range(first[k], first[k + 1]):
                    chain += dv.depth[order[j]]
                if chain <= 2 * n:
                    # few leaves: count up their ancestor chains, touch only those nodes
                    ntouched = 0
                    for j in range(first[k], first[k + 1]):
                        p = order[j]
                        while p >= 0:
                            if cnt[p] == 0:
                                touched[ntouched] = <int32_t>p
                                ntouched += 1
                            cnt[p] += 1
                            p = dv.parent[p]
                    for j in range(ntouched):
                        i = touched[j]
                        _vsse_wvc_add(W, C, tab, i, cnt[i], nn, idf)
                        cnt[i] = 0
                else:
                    # many leaves: one reverse sweep over the tree
                    for j in range(first[k], first[k + 1]):
                        cnt[order[j]] += 1
                    for i in range(n - 1, 0, -1):
                        p = dv.parent[i]
                        if p >= 0:
                            cnt[p] += cnt[i]
                    for i in range(n):
                        if cnt[i] > 0:
                            _vsse_wvc_add(W, C, tab, i, cnt[i], nn, idf)
                            cnt[i] = 0
    finally:
        free(scratch)
        free(tab)
    return W_arr, C_arr


cdef inline void _vsse_wvc_add(double *W, double *C, double *tab, Py_ssize_t i, Py_ssize_t c, double nn,
                               double idf) noexcept nogil:
    """Add characteristic k's term of Formula 3 (c leaves under node i) and its coverage."""
    if tab[c] < 0.0:
        tab[c] = c * _vsse_log(nn / c)
    W[i] += tab[c]
    C[i] += idf * c


cdef Py_ssize_t _vsse_collect(const int32_t *counted, Py_ssize_t ncounted, const int32_t[::1] code, int kd,
                              Py_ssize_t size, Py_ssize_t base, int32_t *leaf, int32_t *kk,
                              Py_ssize_t j) noexcept:
    """Append the (leaf, characteristic) pairs of one characteristic array from
    position j; returns the new end."""
    cdef Py_ssize_t q, i
    cdef int32_t v
    with nogil:
        for q in range(ncounted):
            i = counted[q]
            v = code[i]
            if kd == 0:
                if v > 0:
                    leaf[j] = <int32_t>i
                    kk[j] = <int32_t>base
                    j += 1
            elif 0 <= v < size:
                leaf[j] = <int32_t>i
                kk[j] = <int32_t>(base + v)
                j += 1
    return j


# ---------------------------------------------------------------- Sect. 4.3.2 B: the HMM

def records_viterbi(Doc d, const double[::1] W, const double[::1] coverage, double tolerance=0.1):
    """Decode the HMM lambda = (pi, A, B) over the DOM levels from <body>.

    Hidden states are node numbers, time t_k is the k-th level of the path,
    the observation O_i the node's tag.  pi puts all mass on <body> (Phase 1:
    delta_0(0) = pi_0, psi(0) = body).  A is initialized equiprobably: a_ji =
    1 / (element children of j).  B weighs a node by its characteristics,
    b(O_i) = WVC(i) (Formula 3).  Phase 2: delta_k(i) = pi_j a_ji b(O_i) over
    the children i of j = psi(k-1), psi(k) = argmax_i delta_k(i).  Phase 3:
    stop at t_m when psi(m) >= psi(m+1), i.e. the state psi(m+1) is no
    better than psi(m).  The paper leaves the order of states open; here
    they are compared by the characteristics they hold, then by their size:
    psi(m+1) is worse when its coverage (see wvc: the rarity-weighted share
    of every characteristic's leaves it holds) falls below (1 - tolerance)
    of psi(m)'s, i.e. the area's characteristics were left behind (the
    boundary of the extraction area), and better otherwise (the same
    characteristics in a smaller subtree).  `tolerance` lets stray
    characteristic leaves outside the record area be dropped on the way down
    (measured on SWDE booksamillion: 0.05-0.2 give the same areas; 0 keeps
    the related-items list in, 0.3 cuts the title off).  Reading psi(m)
    >= psi(m+1) as a comparison of the WVC weights themselves never
    descends: Formula 3 only falls from a node to its children while
    n_k < N / e.

    Returns (path of node indices psi(0..m), delta along it)."""
    cdef Py_ssize_t n = d.n, j, i, best, nch
    cdef DocView dv = d.view
    cdef double bw, delta_j
    if W.shape[0] != n or coverage.shape[0] != n:
        raise ValueError(f"W and coverage need {n} entries (one per Doc node)")
    if n == 0:
        return np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float64)
    path_arr = np.empty(n + 1, dtype=np.int32)
    delta_arr = np.empty(n + 1, dtype=np.float64)
    cdef int32_t[::1] path = path_arr
    cdef double[::1] delta = delta_arr
    cdef Py_ssize_t m = 0
    j = d.body if d.body >= 0 else 0
    with nogil:
        path[0] = <int32_t>j
        delta[0] = 1.0                        # delta_0(0) = pi_0
        while True:
            best = -1
            bw = 0.0
            nch = 0
            i = j + 1
            while i < dv.end[j]:
                if dv.kind[i] == LXB_ELEMENT:
                    nch += 1
                    if W[i] > bw:
                        bw = W[i]
                        best = i
                i = dv.end[i]
            if best < 0:
                break
            if coverage[best] < (1.0 - tolerance) * coverage[j]:
                break                         # Phase 3: psi(m) >= psi(m+1)
            delta_j = (1.0 / nch) * bw        # pi_j = 1 on the decoded path
            j = best
            m += 1
            path[m] = <int32_t>j
            delta[m] = delta_j
    return path_arr[:m + 1], delta_arr[:m + 1]


# ---------------------------------------------------------------- records: reading the area

cdef inline bint _vsse_has_text(const unsigned char *s, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if s[i] > 32:
            return True
    return False


def records_read(Doc d, Py_ssize_t root, const int32_t[::1] delim, const int32_t[::1] label,
                 const int32_t[::1] in_title, Py_ssize_t gathered_words=20, str strip=" \t:：-",
                 object make=None, object keys=None):
    """The attribute-value pairs of the area rooted at `root`, in document order.

    `delim`, `label`, `in_title` come from records_scan.  Over the area's
    leaves (text nodes):
      - "Label: value" in one leaf;
      - ": value" after a label leaf of the same block (nearest block ancestor);
      - "Label:" or a dictionary name followed by its value: the next leaves of
        the same block up to the next label, or else the next leaf; when the
        label is not in the dictionary such a value has at most
        `gathered_words` words (more is prose, not a value);
      - the first leaf repeating the page title that is not itself labeled.
    Returns a list of (label, value, tag path of the value's element,
    dictionary entry of the label or -1); the title's label is "title".  With
    `make` and `keys` (the dictionary's attribute names by entry), a list of
    make(label, value, path, key), key the attribute name ("title" for the
    title, None for a label the dictionary does not know).  Labels lose
    surrounding `strip` characters; a value's leaves are joined by one space."""
    cdef Py_ssize_t n = d.n, hi, nl = 0, i
    cdef DocView dv = d.view
    if root < 0 or root >= n:
        raise ValueError(f"root {root} is not a node of the Doc (0..{n - 1})")
    if delim.shape[0] != n or label.shape[0] != n or in_title.shape[0] != n:
        raise ValueError(f"delim, label and in_title need {n} entries (one per Doc node)")
    hi = d.end[root]
    for i in range(root, hi):
        if dv.kind[i] == LXB_TEXT:
            nl += 1
    blk = block_ancestors(d)
    # one block: leaf | used | out (6 columns per record)
    cdef int32_t *leaf = <int32_t *>malloc(8 * (nl + 1) * sizeof(int32_t))
    if leaf == NULL:
        raise MemoryError()
    cdef int32_t *used = leaf + nl + 1
    cdef int32_t *out = used + nl + 1
    try:
        return _vsse_records_pairs(d, root, hi, nl, delim, label, in_title, gathered_words,
                                   <const int32_t *>cnp.PyArray_DATA(blk), leaf, used, out, strip, make, keys)
    finally:
        free(leaf)


cdef list _vsse_records_pairs(Doc d, Py_ssize_t root, Py_ssize_t hi, Py_ssize_t nl, const int32_t[::1] delim,
                              const int32_t[::1] label, const int32_t[::1] in_title, Py_ssize_t gathered_words,
                              const int32_t *blk, int32_t *leaf, int32_t *used, int32_t *out, str strip,
                              object make, object keys):
    """records_read over scratch memory (see there)."""
    cdef Py_ssize_t a, b, i, j, lab_leaf, lab_end, v0, v1, vstart, words, nrec = 0
    cdef int32_t key
    cdef bint title_done = False, nxt_value, known
    cdef DocView dv = d.view
    with nogil:
        for a in range(nl + 1):
            used[a] = 0
        j = 0
        for i in range(root, hi):
            if dv.kind[i] == LXB_TEXT:
                leaf[j] = <int32_t>i
                j += 1
        for a in range(nl):
            if used[a]:
                continue
            i = leaf[a]
            # the next leaf is ": value" and takes this one as its label
            nxt_value = a + 1 < nl and delim[leaf[a + 1]] == 0 and blk[leaf[a + 1]] == blk[i] \
                and delim[i] < 0
            if nxt_value:
                _vsse_label_hash(dv.text_buf + dv.text_off[i], dv.text_len[i], &words)
                nxt_value = 0 < words <= _VSSE_LABEL_WORDS and dv.text_len[i] <= _VSSE_LABEL_BYTES
            lab_leaf = -1
            if in_title[i] and label[i] < 0 and not title_done and not nxt_value:
                title_done = True
                used[a] = True
                v0 = v1 = i
                vstart = lab_end = 0
                key = -1
            elif delim[i] >= 0 or label[i] >= 0:
                if delim[i] >= 0:
                    _vsse_label_hash(dv.text_buf + dv.text_off[i], delim[i], &words)
                    if words > 0:
                        lab_leaf = i
                        lab_end = delim[i]
                    elif a > 0 and blk[leaf[a - 1]] == blk[i] and delim[leaf[a - 1]] < 0 \
                            and not used[a - 1]:
                        _vsse_label_hash(dv.text_buf + dv.text_off[leaf[a - 1]], dv.text_len[leaf[a - 1]], &words)
                        if 0 < words <= _VSSE_LABEL_WORDS and dv.text_len[leaf[a - 1]] <= _VSSE_LABEL_BYTES:
                            lab_leaf = leaf[a - 1]
                            lab_end = dv.text_len[lab_leaf]
                    if lab_leaf < 0:
                        continue
                    vstart = delim[i] + (1 if dv.text_buf[dv.text_off[i] + delim[i]] == 58 else 3)
                else:
                    if nxt_value:
                        continue              # the next leaf, ": value", takes this label
                    lab_leaf = i
                    lab_end = dv.text_len[i]
                    vstart = dv.text_len[i]
                key = label[lab_leaf]
                v0 = v1 = i
                if not _vsse_has_text(dv.text_buf + dv.text_off[i] + vstart, dv.text_len[i] - vstart):
                    # the value follows the label leaf
                    known = key >= 0
                    b = a + 1
                    words = 0
                    while b < nl and blk[leaf[b]] == blk[i] and delim[leaf[b]] < 0 \
                            and label[leaf[b]] < 0 and not used[b]:
                        words += dv.words[leaf[b]]
                        b += 1
                    if b == a + 1 and b < nl and delim[leaf[b]] < 0 and label[leaf[b]] < 0 and not used[b]:
                        words = dv.words[leaf[b]]
                        b += 1
                    if b == a + 1 or (not known and words > gathered_words):
                        continue
                    for j in range(a + 1, b):
                        used[j] = True
                    v0 = leaf[a + 1]
                    v1 = leaf[b - 1]
                    vstart = 0
                used[a] = True
                if lab_leaf != i:
                    used[a - 1] = True
            else:
                continue
            out[nrec * 6 + 0] = <int32_t>lab_leaf
            out[nrec * 6 + 1] = <int32_t>lab_end
            out[nrec * 6 + 2] = <int32_t>v0
            out[nrec * 6 + 3] = <int32_t>vstart
            out[nrec * 6 + 4] = <int32_t>v1
            out[nrec * 6 + 5] = key
            nrec += 1
    return _vsse_record_strings(d, out, nrec, strip, make, keys)


cdef list _vsse_record_strings(Doc d, const int32_t *rows, Py_ssize_t nrec, str strip, object make,
                               object keys):
    """The records of records_read's rows: make(label, value, path, key) per row,
    or (label, value, path, dictionary entry) tuples without `make`."""
    cdef DocView dv = d.view
    cdef Py_ssize_t r, lab, v0, v1, t, key
    cdef dict paths = {}
    cdef list out = []
    cdef list parts
    cdef str name, value
    cdef bint as_tuple = make is not None and isinstance(make, type) and issubclass(make, tuple)
    for r in range(nrec):
        lab, v0, v1, key = rows[r * 6 + 0], rows[r * 6 + 2], rows[r * 6 + 4], rows[r * 6 + 5]
        if lab < 0:
            name = "title"
        else:
            name = PyUnicode_DecodeUTF8(<const char *>dv.text_buf + dv.text_off[lab], rows[r * 6 + 1],
                                        "replace").strip(strip)
        value = PyUnicode_DecodeUTF8(<const char *>dv.text_buf + dv.text_off[v0] + rows[r * 6 + 3],
                                     dv.text_len[v0] - rows[r * 6 + 3],
                                     "replace").strip()
        if v1 > v0:
            parts = [value] if value else []
            for t in range(v0 + 1, v1 + 1):
                if dv.kind[t] == LXB_TEXT:
                    parts.append(PyUnicode_DecodeUTF8(<const char *>dv.text_buf + dv.text_off[t], dv.text_len[t],
                                                      "replace"))
            value = " ".join(parts)
        if not (name and value):
            continue
        if make is None:
            out.append((name, value, _vsse_tag_path(d, dv.parent, dv.tag, dv.parent[v0], paths), key))
        else:
            fields = (name, value, _vsse_tag_path(d, dv.parent, dv.tag, dv.parent[v0], paths),
                      keys[key] if key >= 0 else ("title" if lab < 0 else None))
            # a tuple type (a NamedTuple) is built directly, as its _make does
            out.append(tuple.__new__(make, fields) if as_tuple else make(*fields))
    return out


cdef list _VSSE_TAG_NAMES = []      # static tag id -> name (filled on first use)


cdef str _vsse_tag_path(Doc d, const int32_t *parent, const int32_t *tag, Py_ssize_t node, dict memo):
    """'html/body/.../tag' of an element; memo maps the nodes seen to their
    paths, so records under one list share the walk up."""
    cdef Py_ssize_t p = node, t, k
    cdef list chain = []
    cdef object prefix = None, name
    if not _VSSE_TAG_NAMES:
        table = [None] * STATIC_LIMIT
        for tid, nm in TAG_NAMES_BY_ID.items():
            if 0 <= tid < STATIC_LIMIT:
                table[tid] = nm
        _VSSE_TAG_NAMES.extend(table)
    while p >= 0:
        prefix = memo.get(p)
        if prefix is not None:
            break
        chain.append(p)
        p = parent[p]
    for k in range(len(chain) - 1, -1, -1):
        p = chain[k]
        t = tag[p]
        name = _VSSE_TAG_NAMES[t] if t < STATIC_LIMIT else None
        if name is None:
            name = d.tag_name(p)
        prefix = name if prefix is None else prefix + "/" + name
        memo[p] = prefix
    return prefix if prefix is not None else ""
