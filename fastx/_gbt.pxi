# The `default` method's kernels: per-unit features that fuse every source
# paper's characteristics, and the evaluation of a gradient-boosted tree
# ensemble stored as flat arrays (fastx/data/default_model.npz).
#
# A *unit* is the text of one block-level element: the text nodes whose
# nearest block-level ancestor-or-self (`block_ancestors`) is that element.
# Features per unit (FEATURE_NAMES lists them in order):
#
# - the unit's own text: characters, words, link share, punctuation share
#   (the VSSE paper's vvtc, seeds/000 Formula 1, as punctuation per
#   character), sentence-final punctuation;
# - its block element and 4 ancestors: C, TD (CETD Eq. 1), CTD (Eq. 2),
#   DensitySum (Eq. 5), link char/tag densities (CETD, and the link rules of
#   seeds/002), <p> count (seeds/003), tag category;
# - the CETD extraction itself (inside the DensitySum-selected subtree, CTD
#   against the Sect. 3.5.2 threshold);
# - semantic markup of the ancestors (article, main, role=main,
#   itemprop=articleBody, nav, aside, footer, header, form, lists, tables,
#   headings);
# - class/id tokens of the element and its ancestors, matched against a small
#   fixed vocabulary of boilerplate and content words (hashed), as the level
#   distance to the nearest ancestor carrying each word group;
# - relative position in the document, and token similarity to the page's
#   <title> and meta description (the VSSE paper's Formula 4 compares
#   candidates with title and description the same way);
# - the previous and next unit's length and link share.
#
# Every loop is a linear sweep over the preorder arrays (parent[i] < i), with
# the GIL released; no recursion.

from libc.math cimport log1p as _gbt_log1p, exp as _gbt_exp
from libc.stdint cimport int16_t

DEF _GBT_ANC = 4              # ancestors described per unit
DEF _GBT_GROUPS = 16          # class/id word groups
DEF _GBT_FAR = 16             # "no ancestor carries the group"
DEF _GBT_TITLE_MAX = 64       # tokens of the title / description used
DEF _GBT_SCAN_MAX = 32        # tokens of a unit compared with title / description
DEF _GBT_NSEM = 12            # semantic bits
DEF _GBT_HT = 512             # open-addressing table size (power of 2)

# tag categories
cdef enum:
    _GC_OTHER = 0
    _GC_P = 1
    _GC_DIV = 2
    _GC_LI = 3
    _GC_TD = 4
    _GC_H1 = 5
    _GC_H2 = 6
    _GC_H3 = 7
    _GC_QUOTE = 8
    _GC_DL = 9
    _GC_SECTION = 10
    _GC_LIST = 11
    _GC_TABLE = 12
    _GC_FORM = 13
    _GC_BODY = 14
    _GC_INLINE = 15
    _GC_LANDMARK = 16
    _GC_FIGURE = 17
    _GC_LINK = 18

# semantic bits (inherited from ancestors)
cdef enum:
    _GS_ARTICLE = 1
    _GS_MAIN = 2
    _GS_NAV = 4
    _GS_ASIDE = 8
    _GS_FOOTER = 16
    _GS_HEADER = 32
    _GS_FORM = 64
    _GS_LIST = 128
    _GS_TABLE = 256
    _GS_HEADING = 512
    _GS_QUOTE = 1024
    _GS_FIGURE = 2048

_GBT_TAG_CATEGORIES = {
    "p": _GC_P, "div": _GC_DIV, "li": _GC_LI, "td": _GC_TD, "th": _GC_TD, "h1": _GC_H1, "h2": _GC_H2,
    "h3": _GC_H3, "h4": _GC_H3, "h5": _GC_H3, "h6": _GC_H3, "blockquote": _GC_QUOTE, "pre": _GC_QUOTE,
    "dl": _GC_DL, "dd": _GC_DL, "dt": _GC_DL, "article": _GC_SECTION, "section": _GC_SECTION,
    "main": _GC_SECTION, "ul": _GC_LIST, "ol": _GC_LIST, "menu": _GC_LIST, "table": _GC_TABLE,
    "tbody": _GC_TABLE, "thead": _GC_TABLE, "tfoot": _GC_TABLE, "tr": _GC_TABLE, "caption": _GC_TABLE,
    "form": _GC_FORM, "fieldset": _GC_FORM, "select": _GC_FORM, "option": _GC_FORM, "textarea": _GC_FORM,
    "body": _GC_BODY, "html": _GC_BODY, "span": _GC_INLINE, "font": _GC_INLINE, "b": _GC_INLINE,
    "strong": _GC_INLINE, "em": _GC_INLINE, "i": _GC_INLINE, "center": _GC_INLINE, "small": _GC_INLINE,
    "header": _GC_LANDMARK, "footer": _GC_LANDMARK, "nav": _GC_LANDMARK, "aside": _GC_LANDMARK,
    "figure": _GC_FIGURE, "figcaption": _GC_FIGURE, "a": _GC_LINK, "button": _GC_LINK,
    "address": _GC_DL, "time": _GC_INLINE, "label": _GC_FORM,
}
_GBT_TAG_SEMANTICS = {
    "article": _GS_ARTICLE, "main": _GS_MAIN, "nav": _GS_NAV, "menu": _GS_NAV, "aside": _GS_ASIDE,
    "footer": _GS_FOOTER, "header": _GS_HEADER, "form": _GS_FORM, "fieldset": _GS_FORM,
    "select": _GS_FORM, "textarea": _GS_FORM, "ul": _GS_LIST, "ol": _GS_LIST, "li": _GS_LIST,
    "dl": _GS_LIST, "table": _GS_TABLE, "h1": _GS_HEADING, "h2": _GS_HEADING, "h3": _GS_HEADING,
    "h4": _GS_HEADING, "h5": _GS_HEADING, "h6": _GS_HEADING, "blockquote": _GS_QUOTE,
    "figure": _GS_FIGURE, "figcaption": _GS_FIGURE,
}

# class/id word groups: (name, [(word, prefix?)]); a token matches a prefix
# word when it starts with it, an exact word only when equal.  Tokens are the
# lower-cased alphanumeric runs of class and id values, split at camelCase.
GBT_WORD_GROUPS = (
    ("comment", ("comment*", "disqus*", "respond*", "reply*", "replies", "discuss*", "talkback*")),
    ("footer", ("footer*", "foot", "copyright*", "legal*", "colophon*", "bottom*")),
    ("nav", ("nav*", "menu*", "breadcrumb*", "crumb*", "pagination*", "pager*", "paging*", "toolbar*",
             "topbar", "skip*", "tabs", "dropdown*", "jump*")),
    ("side", ("sidebar*", "side", "aside", "rail*", "widget*", "sidebox*", "module*", "secondary*")),
    ("share", ("share*", "sharing*", "social*", "facebook*", "twitter*", "tweet*", "addthis*", "print*",
               "email*", "follow*", "sociable*", "bookmark*")),
    ("related", ("related*", "recommend*", "popular*", "trending*", "most", "more", "also", "outbrain*",
                 "taboola*", "teaser*", "suggest*", "similar*", "other*")),
    ("ad", ("ad", "ads", "adv*", "advert*", "sponsor*", "promo*", "banner*", "dfp", "gpt", "commercial*",
            "doubleclick*", "adsense*", "affiliate*")),
    ("header", ("header*", "masthead*", "logo*", "brand*", "top", "head", "branding*")),
    ("modal", ("subscri*", "newsletter*", "signup*", "login*", "register*", "account*", "modal*", "popup*",
               "cookie*", "consent*", "overlay*", "paywall*", "signin*", "alert*")),
    ("tags", ("tag", "tags", "tagged", "category*", "categor*", "topic*", "label*", "keyword*")),
    ("meta", ("meta*", "byline*", "author*", "date*", "time", "timestamp*", "posted*", "published*",
              "dateline*", "info", "pubdate*", "updated*")),
    ("media", ("caption*", "credit*", "photo*", "image*", "img", "media*", "figure*", "gallery*", "video*",
               "thumb*", "slide*", "player*", "pic*")),
    ("article", ("article*", "post*", "entry*", "story*", "hentry", "blog*", "news*")),
    ("content", ("content*", "body*", "text*", "main*", "primary*", "detail*", "single*", "copy", "prose*",
                 "rich*", "markdown*", "page*")),
    ("title", ("title*", "headline*", "heading*", "h1", "headline*")),
    ("list", ("list*", "item*", "card*", "tile*", "summary*", "excerpt*", "feed*", "archive*", "listing*",
              "grid*", "index*")),
)

cdef uint8_t _gbt_tagcat[STATIC_LIMIT]
cdef uint16_t _gbt_tagsem[STATIC_LIMIT]
cdef uint32_t _gbt_word_hash[_GBT_HT]
cdef uint16_t _gbt_word_len[_GBT_HT]
cdef uint16_t _gbt_word_bits[_GBT_HT]     # groups of exact matches
cdef uint16_t _gbt_prefix_bits[_GBT_HT]   # groups of prefix matches
cdef int _gbt_ready = 0


def _gbt_init():
    """Fill the tag and word tables (after the lexbor calibration set TAG_IDS)."""
    global _gbt_ready
    cdef Py_ssize_t i, slot
    cdef uint32_t h
    cdef bytes bw
    for i in range(STATIC_LIMIT):
        _gbt_tagcat[i] = _GC_OTHER
        _gbt_tagsem[i] = 0
    for name, cat in _GBT_TAG_CATEGORIES.items():
        if name in TAG_IDS:
            _gbt_tagcat[TAG_IDS[name]] = cat
    for name, bit in _GBT_TAG_SEMANTICS.items():
        if name in TAG_IDS:
            _gbt_tagsem[TAG_IDS[name]] |= bit
    for i in range(_GBT_HT):
        _gbt_word_hash[i] = 0
        _gbt_word_len[i] = 0
        _gbt_word_bits[i] = 0
        _gbt_prefix_bits[i] = 0
    for g, (_, words) in enumerate(GBT_WORD_GROUPS):
        for w in words:
            prefix = w.endswith("*")
            bw = w.rstrip("*").encode()
            h = _fnv1a(<const unsigned char *>bw, len(bw))
            slot = h & (_GBT_HT - 1)
            while _gbt_word_len[slot] and not (_gbt_word_hash[slot] == h and _gbt_word_len[slot] == len(bw)):
                slot = (slot + 1) & (_GBT_HT - 1)
            _gbt_word_hash[slot] = h
            _gbt_word_len[slot] = len(bw)
            if prefix:
                _gbt_prefix_bits[slot] |= 1 << g
            else:
                _gbt_word_bits[slot] |= 1 << g
    _gbt_ready = 1


cdef inline uint16_t _gbt_lookup(uint32_t h, size_t n, bint whole) noexcept nogil:
    """Groups of a token prefix of length n with hash h (`whole`: it is the whole token)."""
    cdef size_t slot = h & (_GBT_HT - 1)
    while _gbt_word_len[slot]:
        if _gbt_word_hash[slot] == h and _gbt_word_len[slot] == n:
            return _gbt_prefix_bits[slot] | (_gbt_word_bits[slot] if whole else 0)
        slot = (slot + 1) & (_GBT_HT - 1)
    return 0


cdef uint16_t _gbt_value_groups(fx_attr *a) noexcept nogil:
    """Word groups named by one class/id value (tokens split at non-alphanumerics and camelCase)."""
    cdef const unsigned char *s
    cdef size_t n, i = 0, j, k
    cdef uint16_t bits = 0
    cdef uint32_t h
    cdef unsigned char c
    if a == NULL or a.value == NULL or a.value.data == NULL:
        return 0
    s = a.value.data
    n = a.value.length
    if n > 256:
        n = 256
    while i < n:
        c = s[i]
        if not ((48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122)):
            i += 1
            continue
        j = i + 1
        while j < n:
            c = s[j]
            if (97 <= c <= 122) or (48 <= c <= 57):
                j += 1
            elif 65 <= c <= 90 and 65 <= s[j - 1] <= 90:
                j += 1           # an all-caps run stays one token
            else:
                break
        h = 2166136261u
        for k in range(i, j):
            c = s[k]
            if 65 <= c <= 90:
                c += 32
            h = (h ^ c) * 16777619u
            if k - i >= 1 and k - i < 12:
                bits |= _gbt_lookup(h, k - i + 1, k + 1 == j)
        i = j
    return bits


cdef uint16_t _gbt_attr_sem(fx_node *node) noexcept nogil:
    """Semantic bits from attributes: role=main/article/navigation/complementary/
    contentinfo/banner and itemprop=articleBody/text (schema.org)."""
    cdef fx_attr *a = (<fx_element *>node).first_attr
    cdef size_t n
    cdef const unsigned char *s
    cdef uint16_t bits = 0
    while a != NULL:
        s = _attr_name(a, &n)
        if _name_is(s, n, b"role", 4):
            if _attr_value_eq_ci(a, b"main", 4) or _attr_value_eq_ci(a, b"article", 7):
                bits |= _GS_MAIN
            elif _attr_value_eq_ci(a, b"navigation", 10) or _attr_value_eq_ci(a, b"menu", 4):
                bits |= _GS_NAV
            elif _attr_value_eq_ci(a, b"complementary", 13):
                bits |= _GS_ASIDE
            elif _attr_value_eq_ci(a, b"contentinfo", 11):
                bits |= _GS_FOOTER
            elif _attr_value_eq_ci(a, b"banner", 6):
                bits |= _GS_HEADER
        elif _name_is(s, n, b"itemprop", 8):
            if _attr_value_eq_ci(a, b"articlebody", 11) or _attr_value_eq_ci(a, b"text", 4) \
                    or _attr_value_eq_ci(a, b"reviewbody", 10) or _attr_value_eq_ci(a, b"description", 11):
                bits |= _GS_MAIN
        a = a.next
    return bits


# ---------------------------------------------------------------- token sets (title, description)

cdef struct _GbtSet:
    uint32_t hash[_GBT_HT]
    int16_t idx[_GBT_HT]       # token index (0.._GBT_TITLE_MAX-1), -1 empty
    int32_t count


cdef inline uint32_t _gbt_fold(uint32_t cp) noexcept nogil:
    if 65 <= cp <= 90:
        return cp + 32
    return cp


cdef Py_ssize_t _gbt_next_token(const unsigned char *s, Py_ssize_t n, Py_ssize_t *pos,
                                uint32_t *hash) noexcept nogil:
    """Next token at or after *pos (a word, or one CJK character), case-folded
    and hashed; returns its length in code points (0: none left)."""
    cdef size_t i = <size_t>pos[0], start
    cdef uint32_t cp, h
    cdef Py_ssize_t k = 0
    while i < <size_t>n:
        start = i
        cp = _utf8_next(s, n, &i)
        if _is_cjk(cp):
            hash[0] = (2166136261u ^ cp) * 16777619u
            pos[0] = i
            return 1
        if cp < 128 and not ((48 <= cp <= 57) or (65 <= cp <= 90) or (97 <= cp <= 122) or cp == 95):
            continue
        if cp >= 128 and (not _is_word_char(cp) or _is_space(cp)):
            continue
        h = 2166136261u
        h = (h ^ _gbt_fold(cp)) * 16777619u
        k = 1
        while i < <size_t>n:
            start = i
            cp = _utf8_next(s, n, &i)
            if _is_cjk(cp) or (cp < 128 and not ((48 <= cp <= 57) or (65 <= cp <= 90) or (97 <= cp <= 122)
                                                  or cp == 95)) \
                    or (cp >= 128 and (not _is_word_char(cp) or _is_space(cp))):
                i = start
                break
            h = (h ^ _gbt_fold(cp)) * 16777619u
            k += 1
        hash[0] = h
        pos[0] = i
        return k
    pos[0] = i
    return 0


cdef void _gbt_set_build(_GbtSet *t, const unsigned char *s, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t pos = 0, slot
    cdef uint32_t h
    cdef int i
    for i in range(_GBT_HT):
        t.idx[i] = -1
    t.count = 0
    while t.count < _GBT_TITLE_MAX and _gbt_next_token(s, n, &pos, &h) > 0:
        slot = h & (_GBT_HT - 1)
        while t.idx[slot] >= 0 and t.hash[slot] != h:
            slot = (slot + 1) & (_GBT_HT - 1)
        if t.idx[slot] < 0:
            t.hash[slot] = h
            t.idx[slot] = <int16_t>t.count
            t.count += 1


cdef inline int _gbt_set_find(const _GbtSet *t, uint32_t h) noexcept nogil:
    cdef Py_ssize_t slot = h & (_GBT_HT - 1)
    while t.idx[slot] >= 0:
        if t.hash[slot] == h:
            return t.idx[slot]
        slot = (slot + 1) & (_GBT_HT - 1)
    return -1


cdef inline int _gbt_popcount(uint64_t x) noexcept nogil:
    cdef int c = 0
    while x:
        x &= x - 1
        c += 1
    return c


# ---------------------------------------------------------------- features

FEATURE_NAMES = (
    ["u_chars", "u_link", "u_punct", "u_words", "u_chars_per_word", "u_text_nodes", "u_end_punct",
     "u_link_nodes"]
    + ["b_tagcat", "b_heading", "b_chars", "b_td", "b_ctd", "b_link", "b_link_tags", "b_p", "b_punct",
       "b_dsum", "b_depth", "b_tags"]
    + [f"a{k}_{f}" for k in range(1, _GBT_ANC + 1)
       for f in ("chars", "td", "ctd", "link", "p", "punct", "share", "tagcat")]
    + ["pos_text", "pos_node", "body_share", "body_link", "body_chars", "cetd_keep", "cetd_ratio",
       "cetd_rel", "title_sim", "title_cov", "desc_sim", "desc_cov"]
    + ["sem_" + s for s in ("article", "main", "nav", "aside", "footer", "header", "form", "list", "table",
                            "heading", "quote", "figure")]
    + ["cls_" + g for g, _ in GBT_WORD_GROUPS]
    + ["prev_chars", "prev_link", "next_chars", "next_link", "siblings"]
)
cdef enum:
    _GF_U = 0
    _GF_B = 8
    _GF_A = 20
    _GF_PAGE = 20 + 8 * _GBT_ANC
    _GF_SEM = _GF_PAGE + 12
    _GF_CLS = _GF_SEM + 12
    _GF_NB = _GF_CLS + _GBT_GROUPS
    GBT_NFEAT = _GF_NB + 5


cdef inline bint _gbt_sentence_end(uint32_t cp) noexcept nogil:
    return cp == 46 or cp == 33 or cp == 63 or cp == 0x3002 or cp == 0xFF01 or cp == 0xFF1F \
        or cp == 34 or cp == 0x201D or cp == 0x2026 or cp == 41 or cp == 58


cdef inline float _gbt_ratio(double a, double b) noexcept nogil:
    return <float>(a / b) if b > 0 else 0.0


cdef inline float _gbt_finite(double x) noexcept nogil:
    """CTD is infinite on pages without links (CETD Sect. 3.2); trees need finite values."""
    if x != x:
        return 0.0
    if x > 1e6:
        return 1e6
    return <float>x


def default_features(Doc d, object blocks, object td, object ctd, object dsum, object cetd_keep,
                     Py_ssize_t cetd_node, double cetd_threshold):
    """Units and their feature matrix for the `default` method.

    `blocks`: the nearest block-level ancestor-or-self of every node
    (`block_ancestors`); `td`, `ctd`, `dsum`: CETD's text density, composite
    text density and DensitySum per node; `cetd_keep`, `cetd_node`,
    `cetd_threshold`: the CETD extraction (Algorithm 2) and its
    maximum-DensitySum node and threshold.  Returns ``(unit_of, units, X)``:
    ``unit_of[i]`` the unit of node i (-1 none), ``units[u]`` the block
    element of unit u, ``X`` float32 (units, len(FEATURE_NAMES)).
    """
    if not _gbt_ready:
        _gbt_init()
    cdef Py_ssize_t n = d.n, i, j, k, m = 0, b, a, p, u, nu
    cdef const int32_t[::1] parent = d.parent
    cdef const int32_t[::1] end = d.end
    cdef const int32_t[::1] depth = d.depth
    cdef const int32_t[::1] tag = d.tag
    cdef const uint8_t[::1] kind = d.kind
    cdef const uint16_t[::1] flags = d.flags
    cdef const int64_t[::1] text_off = d.text_off
    cdef const int32_t[::1] text_len = d.text_len
    cdef const int32_t[::1] C = d.chars
    cdef const int32_t[::1] T = d.tags
    cdef const int32_t[::1] LC = d.link_chars
    cdef const int32_t[::1] LT = d.link_tags
    cdef const int32_t[::1] P = d.punct
    cdef const int32_t[::1] W = d.words
    cdef const int32_t[::1] PC = d.p_count
    cdef const uint64_t[::1] ptr = d.ptr
    cdef const int32_t[::1] blk = np.ascontiguousarray(blocks, dtype=np.int32)
    cdef const double[::1] TD = np.ascontiguousarray(td, dtype=np.float64)
    cdef const double[::1] CTD = np.ascontiguousarray(ctd, dtype=np.float64)
    cdef const double[::1] DS = np.ascontiguousarray(dsum, dtype=np.float64)
    cdef const uint8_t[::1] ck = np.ascontiguousarray(cetd_keep, dtype=np.uint8)
    if blk.shape[0] != n or TD.shape[0] != n or CTD.shape[0] != n or DS.shape[0] != n or ck.shape[0] != n:
        raise ValueError(f"per-node arrays must have the Doc's {n} entries")
    cdef bytes title_b = (d.title or "").encode("utf-8", "replace")
    cdef bytes desc_b = (d.description or "").encode("utf-8", "replace")
    cdef const unsigned char *tb = title_b
    cdef const unsigned char *db = desc_b
    cdef Py_ssize_t tlen = len(title_b), dlen = len(desc_b)
    cdef const unsigned char *buf = d.text_buf
    unit_of_arr = np.full(n, -1, dtype=np.int32)
    cdef int32_t[::1] unit_of = unit_of_arr
    node_unit_arr = np.full(n, -1, dtype=np.int32)
    cdef int32_t[::1] node_unit = node_unit_arr
    sem_arr = np.zeros(n, dtype=np.uint16)
    cdef uint16_t[::1] sem = sem_arr
    near_arr = np.empty((n, _GBT_GROUPS), dtype=np.uint8)
    cdef uint8_t[:, ::1] near = near_arr
    # per-unit accumulators
    cdef Py_ssize_t ntext = 0
    for i in range(n):
        if kind[i] == LXB_TEXT:
            ntext += 1
    units_arr = np.empty(ntext, dtype=np.int32)
    cdef int32_t[::1] units = units_arr
    acc_arr = np.zeros((ntext, 12), dtype=np.float64)
    cdef double[:, ::1] acc = acc_arr
    tbits_arr = np.zeros((ntext, 2), dtype=np.uint64)
    cdef uint64_t[:, ::1] tbits = tbits_arr
    X_arr = np.zeros((ntext, GBT_NFEAT), dtype=np.float32)
    cdef float[:, ::1] X = X_arr
    cdef _GbtSet *tset = <_GbtSet *>malloc(sizeof(_GbtSet))
    cdef _GbtSet *dset = <_GbtSet *>malloc(sizeof(_GbtSet))
    if tset == NULL or dset == NULL:
        free(tset)
        free(dset)
        raise MemoryError()
    cdef uint16_t own, bits
    cdef int g, ti, last_cp
    cdef double total_chars, before, body_c, thr
    cdef Py_ssize_t root = d.body if d.body >= 0 else 0
    cdef Py_ssize_t pos, toklen
    cdef uint32_t h, cp
    cdef size_t q
    cdef fx_node *node
    try:
        with nogil:
            _gbt_set_build(tset, tb, tlen)
            _gbt_set_build(dset, db, dlen)
            # ancestor semantics and class/id word-group distances (preorder: parents first)
            for i in range(n):
                p = parent[i]
                if kind[i] != LXB_ELEMENT:
                    sem[i] = sem[p] if p >= 0 else 0
                    continue
                node = <fx_node *><uintptr_t>ptr[i]
                own = _gbt_tagsem[tag[i]] if tag[i] < STATIC_LIMIT else 0
                bits = 0
                if (<fx_element *>node).first_attr != NULL:
                    own |= _gbt_attr_sem(node)
                    bits = _gbt_value_groups((<fx_element *>node).attr_class) \
                        | _gbt_value_groups((<fx_element *>node).attr_id)
                sem[i] = (sem[p] if p >= 0 else 0) | own
                for g in range(_GBT_GROUPS):
                    if bits & (1 << g):
                        near[i, g] = 0
                    elif p >= 0 and near[p, g] < _GBT_FAR:
                        near[i, g] = near[p, g] + 1
                    else:
                        near[i, g] = _GBT_FAR
            # units: one per block element holding text, in order of first text
            total_chars = 0
            for i in range(n):
                if kind[i] != LXB_TEXT:
                    continue
                b = blk[i]
                if b < 0:
                    b = root
                if node_unit[b] < 0:
                    node_unit[b] = <int32_t>m
                    units[m] = <int32_t>b
                    acc[m, 8] = total_chars          # chars before the unit's first text
                    m += 1
                u = node_unit[b]
                acc[u, 0] += C[i]
                acc[u, 1] += W[i]
                acc[u, 2] += P[i]
                acc[u, 3] += 1
                if flags[i] & NF_IN_LINK:
                    acc[u, 4] += C[i]
                    acc[u, 5] += 1
                total_chars += C[i]
                # sentence-final punctuation: the last code point of the unit's latest text
                q = <size_t>(text_off[i] + text_len[i])
                while q > <size_t>text_off[i] + 1 and (buf[q - 1] & 0xC0) == 0x80:
                    q -= 1
                q -= 1 if q > <size_t>text_off[i] else 0
                last_cp = <int>_utf8_next(buf, text_off[i] + text_len[i], &q) if text_len[i] > 0 else 0
                acc[u, 6] = 1.0 if _gbt_sentence_end(last_cp) else 0.0
                # title / description token overlap (first tokens of the unit)
                if acc[u, 7] < _GBT_SCAN_MAX and (tset.count > 0 or dset.count > 0):
                    pos = text_off[i]
                    while acc[u, 7] < _GBT_SCAN_MAX:
                        toklen = _gbt_next_token(buf, text_off[i] + text_len[i], &pos, &h)
                        if toklen == 0:
                            break
                        acc[u, 7] += 1
                        ti = _gbt_set_find(tset, h)
                        if ti >= 0:
                            acc[u, 9] += 1
                            tbits[u, 0] |= (<uint64_t>1) << ti
                        ti = _gbt_set_find(dset, h)
                        if ti >= 0:
                            acc[u, 10] += 1
                            tbits[u, 1] |= (<uint64_t>1) << ti
            for i in range(n):
                b = blk[i] if blk[i] >= 0 else root
                unit_of[i] = node_unit[b]
            body_c = C[root]
            thr = cetd_threshold
            for u in range(m):
                b = units[u]
                # the unit's own text
                X[u, _GF_U + 0] = <float>_gbt_log1p(acc[u, 0])
                X[u, _GF_U + 1] = _gbt_ratio(acc[u, 4], acc[u, 0])
                X[u, _GF_U + 2] = _gbt_ratio(acc[u, 2], acc[u, 0])
                X[u, _GF_U + 3] = <float>_gbt_log1p(acc[u, 1])
                X[u, _GF_U + 4] = _gbt_ratio(acc[u, 0], acc[u, 1])
                X[u, _GF_U + 5] = <float>_gbt_log1p(acc[u, 3])
                X[u, _GF_U + 6] = <float>acc[u, 6]
                X[u, _GF_U + 7] = _gbt_ratio(acc[u, 5], acc[u, 3])
                # the block element
                X[u, _GF_B + 0] = _gbt_tagcat[tag[b]] if tag[b] < STATIC_LIMIT else _GC_OTHER
                X[u, _GF_B + 1] = 0
                if flags[b] & NF_HEADING:
                    X[u, _GF_B + 1] = 1 + (_gbt_tagcat[tag[b]] - _GC_H1) if _gbt_tagcat[tag[b]] <= _GC_H3 else 3
                X[u, _GF_B + 2] = <float>_gbt_log1p(C[b])
                X[u, _GF_B + 3] = _gbt_finite(TD[b])
                X[u, _GF_B + 4] = _gbt_finite(CTD[b])
                X[u, _GF_B + 5] = _gbt_ratio(LC[b], C[b])
                X[u, _GF_B + 6] = _gbt_ratio(LT[b], T[b] + 1)
                X[u, _GF_B + 7] = PC[b]
                X[u, _GF_B + 8] = _gbt_ratio(P[b], C[b])
                X[u, _GF_B + 9] = <float>_gbt_log1p(_gbt_finite(DS[b]))
                X[u, _GF_B + 10] = depth[b]
                X[u, _GF_B + 11] = <float>_gbt_log1p(T[b])
                # ancestors (missing ones repeat the last: the root)
                a = b
                for k in range(_GBT_ANC):
                    if parent[a] >= 0:
                        a = parent[a]
                    j = _GF_A + 8 * k
                    X[u, j + 0] = <float>_gbt_log1p(C[a])
                    X[u, j + 1] = _gbt_finite(TD[a])
                    X[u, j + 2] = _gbt_finite(CTD[a])
                    X[u, j + 3] = _gbt_ratio(LC[a], C[a])
                    X[u, j + 4] = PC[a]
                    X[u, j + 5] = _gbt_ratio(P[a], C[a])
                    X[u, j + 6] = _gbt_ratio(C[b], C[a])
                    X[u, j + 7] = _gbt_tagcat[tag[a]] if tag[a] < STATIC_LIMIT else _GC_OTHER
                # page level
                X[u, _GF_PAGE + 0] = _gbt_ratio(acc[u, 8], total_chars)
                X[u, _GF_PAGE + 1] = _gbt_ratio(b, n)
                X[u, _GF_PAGE + 2] = _gbt_ratio(C[b], body_c)
                X[u, _GF_PAGE + 3] = _gbt_ratio(LC[root], body_c)
                X[u, _GF_PAGE + 4] = <float>_gbt_log1p(body_c)
                X[u, _GF_PAGE + 5] = ck[b]
                X[u, _GF_PAGE + 6] = _gbt_finite(CTD[b] / thr) if thr > 0 else 0.0
                if cetd_node < 0:
                    X[u, _GF_PAGE + 7] = 0
                elif cetd_node <= b < end[cetd_node]:
                    X[u, _GF_PAGE + 7] = 0           # inside the max-DensitySum subtree
                elif b < cetd_node and end[b] > cetd_node:
                    X[u, _GF_PAGE + 7] = 2           # an ancestor of it
                elif b < cetd_node:
                    X[u, _GF_PAGE + 7] = -1          # before it
                else:
                    X[u, _GF_PAGE + 7] = 1           # after it
                X[u, _GF_PAGE + 8] = _gbt_ratio(acc[u, 9], acc[u, 7])
                X[u, _GF_PAGE + 9] = _gbt_ratio(_gbt_popcount(tbits[u, 0]), tset.count)
                X[u, _GF_PAGE + 10] = _gbt_ratio(acc[u, 10], acc[u, 7])
                X[u, _GF_PAGE + 11] = _gbt_ratio(_gbt_popcount(tbits[u, 1]), dset.count)
                for g in range(_GBT_NSEM):
                    X[u, _GF_SEM + g] = 1.0 if sem[b] & (1 << g) else 0.0
                for g in range(_GBT_GROUPS):
                    X[u, _GF_CLS + g] = near[b, g]
                # neighbours in reading order
                if u > 0:
                    X[u, _GF_NB + 0] = <float>_gbt_log1p(acc[u - 1, 0])
                    X[u, _GF_NB + 1] = _gbt_ratio(acc[u - 1, 4], acc[u - 1, 0])
                if u + 1 < m:
                    X[u, _GF_NB + 2] = <float>_gbt_log1p(acc[u + 1, 0])
                    X[u, _GF_NB + 3] = _gbt_ratio(acc[u + 1, 4], acc[u + 1, 0])
                X[u, _GF_NB + 4] = <float>_gbt_log1p(T[parent[b]] if parent[b] >= 0 else 0)
    finally:
        free(tset)
        free(dset)
    return unit_of_arr, units_arr[:m].copy(), X_arr[:m]


# ---------------------------------------------------------------- tree ensemble

cdef void _gbt_eval(const float[:, ::1] X, const int32_t[::1] feat, const double[::1] thr,
                    const int32_t[::1] left, const int32_t[::1] right, const double[::1] leaf,
                    const int32_t[::1] roots, double base, double[::1] out) noexcept nogil:
    """Sum of the trees' leaf values for every row of X.

    Internal node j tests X[row, feat[j]] <= thr[j] (LightGBM's rule) and
    goes to left[j], else right[j]; a child c < 0 is leaf ~c.  A tree whose
    root is a leaf has roots[t] < 0 as well."""
    cdef Py_ssize_t r, t, m = X.shape[0], nt = roots.shape[0]
    cdef int32_t j
    cdef double s
    for r in range(m):
        s = base
        for t in range(nt):
            j = roots[t]
            while j >= 0:
                if X[r, feat[j]] <= thr[j]:
                    j = left[j]
                else:
                    j = right[j]
            s += leaf[~j]
        out[r] = s


def gbt_predict(object X, object feat, object thr, object left, object right, object leaf,
                object roots, double base=0.0):
    """Raw scores (log-odds) of a tree ensemble stored as flat arrays; see
    ``fastx.methods.default`` for the file format."""
    cdef const float[:, ::1] x = np.ascontiguousarray(X, dtype=np.float32)
    out = np.empty(x.shape[0], dtype=np.float64)
    cdef double[::1] o = out
    cdef const int32_t[::1] f = feat
    cdef const double[::1] th = thr
    cdef const int32_t[::1] l = left
    cdef const int32_t[::1] r = right
    cdef const double[::1] lv = leaf
    cdef const int32_t[::1] rt = roots
    with nogil:
        _gbt_eval(x, f, th, l, r, lv, rt, base, o)
    return out


def units_keep(Doc d, object unit_of, object unit_keep):
    """Node keep mask from unit decisions: node i is kept when its unit is."""
    cdef Py_ssize_t i, n = d.n
    cdef const int32_t[::1] uo = np.ascontiguousarray(unit_of, dtype=np.int32)
    cdef const uint8_t[::1] uk = np.ascontiguousarray(unit_keep, dtype=np.uint8)
    if uo.shape[0] != n:
        raise ValueError(f"unit_of has {uo.shape[0]} entries, the Doc has {n} nodes")
    keep = np.zeros(n, dtype=np.uint8)
    cdef uint8_t[::1] k = keep
    with nogil:
        for i in range(n):
            if uo[i] >= 0 and uo[i] < uk.shape[0]:
                k[i] = uk[uo[i]]
    return keep


def gbt_context(object parents, object units, object X, object z):
    """Second-stage (context) features from first-stage log-odds `z` per unit
    (`parents`: the Doc's parent array; `units`, `X`: from default_features).

    Columns (``fastx.methods.default.CONTEXT_NAMES``): the unit's
    probability, the previous and next unit's, the character-weighted mean
    probability of the units inside the subtree of each of the unit's 4
    nearest ancestors, the page's, and the unit's probability over the page
    maximum.  One reverse sweep sums probability x characters bottom-up.
    """
    cdef const int32_t[::1] parent = np.ascontiguousarray(parents, dtype=np.int32)
    cdef Py_ssize_t n = parent.shape[0], m, u, i, k, a, b
    cdef const int32_t[::1] us = np.ascontiguousarray(units, dtype=np.int32)
    cdef const float[:, ::1] x = np.ascontiguousarray(X, dtype=np.float32)
    cdef const double[::1] zz = np.ascontiguousarray(z, dtype=np.float64)
    m = us.shape[0]
    if x.shape[0] != m or zz.shape[0] != m:
        raise ValueError("units, X and z must have one row per unit")
    out = np.zeros((m, 9), dtype=np.float32)
    cdef float[:, ::1] o = out
    pc_arr = np.zeros(n, dtype=np.float64)
    cc_arr = np.zeros(n, dtype=np.float64)
    pr_arr = np.empty(m, dtype=np.float64)
    cdef double[::1] pc = pc_arr, cc = cc_arr, pr = pr_arr
    cdef double c, pmax = 0.0
    with nogil:
        for u in range(m):
            pr[u] = 1.0 / (1.0 + _gbt_exp(-zz[u]))
            if pr[u] > pmax:
                pmax = pr[u]
            c = _gbt_exp(x[u, _GF_U + 0])      # exp(log1p(chars)): the unit's characters + 1
            pc[us[u]] += pr[u] * c
            cc[us[u]] += c
        for i in range(n - 1, 0, -1):
            if parent[i] >= 0:
                pc[parent[i]] += pc[i]
                cc[parent[i]] += cc[i]
        for u in range(m):
            b = us[u]
            o[u, 0] = <float>pr[u]
            o[u, 1] = <float>pr[u - 1] if u > 0 else -1.0
            o[u, 2] = <float>pr[u + 1] if u + 1 < m else -1.0
            a = b
            for k in range(_GBT_ANC):
                if parent[a] >= 0:
                    a = parent[a]
                o[u, 3 + k] = _gbt_ratio(pc[a], cc[a])
            o[u, 7] = _gbt_ratio(pc[0], cc[0])
            o[u, 8] = _gbt_ratio(pr[u], pmax)
    return out

if len(FEATURE_NAMES) != GBT_NFEAT:
    raise ImportError(f"fastx._core: {len(FEATURE_NAMES)} feature names for {GBT_NFEAT} features")
