# Page metadata: the raw evidence fastx.metadata resolves (docs/metadata.md), from two
# bounded passes:
#
#   lexbor's tree (the Doc drops <head>, scripts and hidden elements), walked iteratively
#   reading the attributes of a few tags only: <meta> name/property/itemprop/http-equiv +
#   content, <link rel=canonical/author> and <link itemprop> + href, <base href>, <html lang>,
#   the text of <script type=application/ld+json>;
#   the Doc's flat arrays, around the headline: the first h1s' text, and in a window of a few
#   hundred elements around the first h1, microdata itemprop values, <time datetime>, elements
#   whose class/id/rel name an author, byline or date (their text), short text nodes that open
#   a byline or dateline ("By ...", "Posted on", 作者/来源/发布时间/日期) or hold a year.  (The
#   Doc holds no hidden, script or style text.)
#
# Each record is (kind, key, value, order): order is the element's preorder rank among the
# Doc's elements, so the resolver can prefer what sits near the headline.  Every count and
# every text is bounded (a hostile page cannot make this pass emit more than a few hundred
# short strings).

DEF _META_TEXT_MAX = 320          # bytes of an element's text kept
DEF _META_LABEL_MAX = 48          # characters of the label before a year text (its element's text before it)
DEF _META_LABEL_NODES = 8         # nodes before a year text read for its label
DEF _META_TEXT_NODES = 64         # nodes visited to gather an element's text
DEF _META_JSONLD_MAX = 1048576    # bytes of one JSON-LD script kept
DEF _META_MAX_META = 400          # <meta> records
DEF _META_MAX_ITEMS = 120         # itemprop records in the body
DEF _META_MAX_HINTS = 80          # class/id/rel hints
DEF _META_MAX_TEXTS = 60          # byline/dateline text nodes
DEF _META_MAX_YEARS = 40          # short text nodes holding a year
DEF _META_MAX_TIMES = 20
DEF _META_MAX_H1 = 6
DEF _META_MAX_H2 = 6              # h2s recorded on a page whose h1s hold no text (a logo's)
# the bounded look at the body: bylines, datelines and microdata are looked for in the
# _META_BEFORE_H1 elements before the first h1 and the _META_AFTER_H1 elements after it (the
# navigation before and the comments, related posts and footers after are not read), or in the
# first _META_NO_H1 elements of a body without h1.  (wcxb-dev: reading 4,000 elements before
# the h1 instead of 300 gives the same titles, authors and dates and more spurious authors,
# 48 vs 34 of 181 validation pages without one; 150/400 loses authors and dates)
DEF _META_BEFORE_H1 = 300
DEF _META_AFTER_H1 = 800
DEF _META_NO_H1 = 4000
DEF _META_MAX_JSONLD = 24
# the elements past the first h1 whose class/id/rel hints the scan always reads: the datelines
# the resolver checks the metadata's date against (_META_SHOWN_NEAR is this)
DEF _META_NEAR = 40

# record kinds (fastx.metadata reads them by these names)
META_KIND = {"meta": 0, "link": 1, "jsonld": 2, "lang": 3, "itemprop": 4, "time": 5, "h1": 6,
             "hint": 7, "text": 8, "base": 9, "year": 10, "hints_later": 11, "h2": 12}

# <meta> names that may repeat, each value meaningful (article:tag, several authors)
_META_MULTI = frozenset(("article:tag", "article:author", "og:article:tag", "book:tag", "video:tag",
                         "citation_author", "article:section", "author"))

# what a tag is to the two passes, one code per tag in _meta_role (lexbor's static ids; 0 for every
# other tag, custom elements included): the tag walk's cases (_META_T_SKIP: style, template and
# svg, not entered) and the tags the Doc scan looks for
cdef enum:
    _META_T_META = 1
    _META_T_LINK
    _META_T_SCRIPT
    _META_T_SKIP
    _META_T_HTML
    _META_T_BASE
    _META_T_TIME
    _META_T_H1
    _META_T_H2
    _META_T_A
    _META_T_IMG
    _META_T_BUTTON
_META_TAG_ROLES = (("meta", _META_T_META), ("link", _META_T_LINK), ("script", _META_T_SCRIPT),
                   ("style", _META_T_SKIP), ("template", _META_T_SKIP), ("svg", _META_T_SKIP),
                   ("html", _META_T_HTML), ("base", _META_T_BASE), ("time", _META_T_TIME),
                   ("h1", _META_T_H1), ("h2", _META_T_H2), ("a", _META_T_A), ("img", _META_T_IMG),
                   ("button", _META_T_BUTTON))
cdef uint8_t _meta_role[STATIC_LIMIT]
cdef bint _meta_ready = False


cdef void _meta_init():
    """Fill _meta_role from _META_TAG_ROLES and the hint words' byte-pair filter (once)."""
    global _meta_ready
    memset(_meta_role, 0, sizeof(_meta_role))
    for name, role in _META_TAG_ROLES:
        _meta_role[<int32_t>TAG_IDS[name]] = role
    _meta_pair_init()
    _meta_ready = True


cdef inline int _meta_tag_role(uintptr_t tag) noexcept nogil:
    """The _META_T_ code of a tag id (a lexbor static id, or a Doc's tag: 0 for a text node,
    STATIC_LIMIT and above for a custom element); 0 for a tag neither pass looks for."""
    return _meta_role[tag] if tag < STATIC_LIMIT else 0


cdef inline bint _meta_ci_at(const unsigned char *s, size_t n, const char *lit, size_t m) noexcept nogil:
    """`s` starts with the lower-case literal, ASCII case ignored."""
    return fx_ascii_ci_prefix(s, n, lit, m)


cdef inline bint _meta_ci_has(const unsigned char *s, size_t n, const char *lit, size_t m) noexcept nogil:
    """ASCII case-insensitive substring test of a lower-case literal."""
    cdef size_t i
    cdef unsigned char c0 = <unsigned char>lit[0]
    if s == NULL or m > n:
        return False
    for i in range(n - m + 1):
        if (s[i] | 32) == c0 and _meta_ci_at(s + i, n - i, lit, m):
            return True
    return False


# the words _meta_hint_name looks for (lower case, space-separated), and the first two letters of
# each as a bit set over the 65,536 byte pairs: one table lookup rejects almost every position;
# each word's place in the string, length and pair (_meta_pair_init) for the positions it passes
cdef const char *_META_HINT_WORDS = b"author byline date publish posted writer username user-name time source"
cdef uint8_t _META_PAIR[8192]
DEF _META_HINT_MAX = 16
cdef int _META_HINT_N = 0
cdef size_t _META_HINT_AT[_META_HINT_MAX]
cdef size_t _META_HINT_LEN[_META_HINT_MAX]
cdef unsigned int _META_HINT_KEY[_META_HINT_MAX]


cdef void _meta_pair_init():
    global _META_HINT_N
    cdef const char *w = _META_HINT_WORDS
    cdef size_t i = 0
    cdef unsigned int k
    memset(_META_PAIR, 0, sizeof(_META_PAIR))
    _META_HINT_N = 0
    while w[i] and _META_HINT_N < _META_HINT_MAX:
        k = (<unsigned int><unsigned char>w[i] << 8) | <unsigned char>w[i + 1]
        _META_PAIR[k >> 3] |= <uint8_t>(1 << (k & 7))
        _META_HINT_AT[_META_HINT_N] = i
        _META_HINT_KEY[_META_HINT_N] = k
        while w[i] and w[i] != 32:
            i += 1
        _META_HINT_LEN[_META_HINT_N] = i - _META_HINT_AT[_META_HINT_N]
        _META_HINT_N += 1
        while w[i] == 32:
            i += 1


cdef bint _meta_hint_name(const unsigned char *v, size_t n) noexcept nogil:
    """A class/id/rel value naming an author, byline, writer, user name, source or a date/time
    (one pass: a byte-pair table lookup at each position, the words of _META_HINT_WORDS compared
    only where the pair opens one)."""
    cdef size_t i
    cdef int j
    cdef unsigned int k
    if n < 4:
        return False
    for i in range(n - 3):
        k = (<unsigned int>(v[i] | 32) << 8) | (v[i + 1] | 32)
        if not (_META_PAIR[k >> 3] & (1 << (k & 7))):
            continue
        for j in range(_META_HINT_N):
            if _META_HINT_KEY[j] == k and _meta_ci_at(v + i, n - i, _META_HINT_WORDS + _META_HINT_AT[j],
                                                      _META_HINT_LEN[j]):
                return True
    return False


cdef str _meta_attr(fx_node *node, const char *name, size_t m):
    cdef fx_attr *a = _find_attr(node, name, m)
    if a == NULL or a.value == NULL:
        return None
    return _fx_str(a.value)


cdef inline size_t _meta_put_text(unsigned char *buf, size_t k, size_t limit, const DocView *dv,
                                  Py_ssize_t j, unsigned char sep) noexcept nogil:
    """Text node j's text appended to buf[0..k) (k < limit), after the byte `sep` when k > 0 and
    `sep` is not 0, cut at `limit` bytes; the new length."""
    cdef size_t take = <size_t>dv.text_len[j]
    if k > 0 and sep != 0:
        buf[k] = sep
        k += 1
    if take > limit - k:
        take = limit - k
    memcpy(buf + k, dv.text_buf + dv.text_off[j], take)
    return k + take


cdef str _meta_doc_text(Doc d, Py_ssize_t i, size_t limit):
    """Text of Doc node i (an element's subtree or a text node), at most `limit` bytes from
    at most _META_TEXT_NODES nodes of the flat array; each text node a line of its own (a
    byline's name, then its role).  The Doc holds no script, style, template or hidden text."""
    return _meta_doc_span_text(d, i, d.view.end[i], limit)


cdef str _meta_doc_span_text(Doc d, Py_ssize_t i, Py_ssize_t end, size_t limit):
    """Text of the Doc's nodes i..end-1 (preorder ranks), as _meta_doc_text reads it."""
    cdef unsigned char buf[_META_TEXT_MAX + 8]
    cdef size_t k = 0
    cdef DocView dv = d.view
    cdef Py_ssize_t j = i
    cdef int visits = 0
    if limit > _META_TEXT_MAX:
        limit = _META_TEXT_MAX
    # at most _META_TEXT_NODES nodes: a class naming a date on a container of the whole article
    # must not make the pass read the article (once per such container)
    while j < end and k < limit and visits < _META_TEXT_NODES:
        visits += 1
        if dv.kind[j] == LXB_TEXT and dv.text_len[j] > 0:
            k = _meta_put_text(buf, k, limit, &dv, j, 10)
        j += 1
    return (<const char *>buf)[:k].decode("utf-8", "ignore")


cdef str _meta_heading_text(Doc d, Py_ssize_t i):
    """Text of the heading at Doc node i as a reader sees it: the pieces of inline elements
    joined as they stand in the source ("Planning <span>C</span>ycle" -> "Planning Cycle",
    "Staubsaugerzub<wbr>ehö" one word), a space where the source had whitespace or a block
    element or <br> starts or ends between two pieces; at most _META_TEXT_MAX bytes from at
    most _META_TEXT_NODES nodes (_meta_doc_text puts every text node on a line of its own).

    Not part of the headline: the text of a <button> in it (rustdoc's "Copy item path" after
    "Enum Result"; a heading whose text is all in buttons, an accordion's, keeps it).  Its
    permalink mark ("Middleware¶" of Sphinx and MkDocs) is not in the Doc (_permalink_mark)."""
    cdef str t = _meta_heading_span(d, i, True)
    if not t.strip():
        t = _meta_heading_span(d, i, False)
    return t


cdef str _meta_heading_span(Doc d, Py_ssize_t i, bint skip_buttons):
    """_meta_heading_text's pass over the heading's nodes, the <button>s' text left out when
    `skip_buttons`."""
    cdef unsigned char buf[_META_TEXT_MAX + 8]
    cdef int32_t blk[16]                # the ends of the block elements entered, innermost last
    cdef int sp = 0, visits = 0
    cdef size_t k = 0, limit = _META_TEXT_MAX
    cdef DocView dv = d.view
    cdef Py_ssize_t j = i + 1, end = dv.end[i]
    cdef bint sep = False, ws_after = False
    cdef uint16_t fl
    while j < end and k < limit and visits < _META_TEXT_NODES:
        visits += 1
        while sp > 0 and blk[sp - 1] <= j:
            sp -= 1
            sep = True
        fl = dv.flags[j]
        if dv.kind[j] == LXB_ELEMENT:
            if skip_buttons and _meta_tag_role(<uintptr_t>dv.tag[j]) == _META_T_BUTTON:
                j = dv.end[j]
                continue
            if fl & (NF_BLOCK | NF_BR):
                sep = True
                if fl & NF_BLOCK and sp < 16:
                    blk[sp] = dv.end[j]
                    sp += 1
        elif dv.kind[j] == LXB_TEXT and dv.text_len[j] > 0:
            k = _meta_put_text(buf, k, limit, &dv, j, 32 if sep or ws_after or fl & NF_WS_BEFORE else 0)
            sep = False
            ws_after = (fl & NF_WS_AFTER) != 0
        j += 1
    return (<const char *>buf)[:k].decode("utf-8", "ignore")


# ---- lexbor's tree: <meta>, <link>, <base>, <html lang> and JSON-LD <script> wherever they are

cdef str _meta_script_text(fx_node *node):
    """The (bounded) text of a <script>: its text children concatenated."""
    cdef fx_node *cur = node.first_child
    parts = []
    cdef size_t total = 0
    while cur != NULL and total < _META_JSONLD_MAX:
        if cur.type == LXB_TEXT:
            parts.append(_fx_str(&(<fx_chardata *>cur).data))
            total += (<fx_chardata *>cur).data.length
        cur = cur.next
    return "".join(parts)


cdef struct _MetaWalk:
    int n_meta          # <meta>/<link> records so far (at most _META_MAX_META)
    int n_items         # <link itemprop> records (at most _META_MAX_ITEMS)
    int n_ld            # JSON-LD scripts (at most _META_MAX_JSONLD)
    bint seen_base


cdef void _meta_tag_walk(fx_node *root, _MetaWalk *st, dict metas, dict multi, list out):
    """<meta> (name/property/itemprop/http-equiv -> content), <link rel=canonical/author>,
    <link itemprop>, the first <base href>, <html lang> and the text of JSON-LD scripts, from
    an iterative walk over the lexbor subtree of `root` that reads the attributes of those tags
    only and enters no script, style, template or svg.  meta_scan calls it on each element the
    Doc build did not enter (the Doc holds none of these tags), in page order, with one `st`:
    bounded, at most _META_MAX_META <meta>/<link> records and _META_MAX_JSONLD scripts."""
    cdef fx_node *node = root
    cdef fx_attr *a
    cdef int role
    cdef bint descend
    cdef str key, val
    cdef list lst
    while node != NULL:
        descend = node.first_child != NULL
        fx_prefetch(node.next)         # (loaded while this node is read: the next one is either)
        fx_prefetch(node.first_child)
        if node.type == LXB_ELEMENT:
            # every tag looked for has a static lexbor id: a custom element's name is not hashed
            role = _meta_tag_role(node.local_name)
            if role == _META_T_META:
                if st.n_meta < _META_MAX_META:
                    val = _meta_attr(node, b"content", 7)
                    if val is not None:
                        key = _meta_attr(node, b"property", 8) or _meta_attr(node, b"name", 4) \
                            or _meta_attr(node, b"itemprop", 8) or _meta_attr(node, b"http-equiv", 10)
                        if key:
                            val = val.strip()
                            if val:
                                key = key.strip().lower()
                                if key not in metas:
                                    metas[key] = val
                                if key in _META_MULTI:
                                    lst = multi.get(key)
                                    if lst is None:
                                        multi[key] = [val]
                                    else:
                                        lst.append(val)
                            st.n_meta += 1
            elif role == _META_T_LINK:
                # the href decoded only for a canonical/author link or one with an itemprop (not
                # for the stylesheets, preloads and icons that make most of a page's links)
                a = _find_attr(node, b"href", 4)
                if a != NULL and a.value != NULL:
                    val = None
                    a = _find_attr(node, b"rel", 3)
                    if a != NULL and a.value != NULL and st.n_meta < _META_MAX_META and (
                            _meta_ci_has(a.value.data, a.value.length, b"canonical", 9)
                            or _meta_ci_has(a.value.data, a.value.length, b"author", 6)):
                        val = _meta_attr(node, b"href", 4)
                        out.append((1, _fx_str(a.value), val, 0))
                        st.n_meta += 1
                    key = _meta_attr(node, b"itemprop", 8)
                    if key and st.n_items < _META_MAX_ITEMS:
                        if val is None:
                            val = _meta_attr(node, b"href", 4)
                        out.append((4, key, val, 0))
                        st.n_items += 1
            elif role == _META_T_SCRIPT:
                a = _find_attr(node, b"type", 4)
                if a != NULL and a.value != NULL and st.n_ld < _META_MAX_JSONLD \
                        and _meta_ci_has(a.value.data, a.value.length, b"ld+json", 7):
                    out.append((2, "", _meta_script_text(node), 0))
                    st.n_ld += 1
                descend = False
            elif role == _META_T_SKIP:
                descend = False
            elif role == _META_T_HTML:
                val = _meta_attr(node, b"lang", 4) or _meta_attr(node, b"xml:lang", 8)
                if val:
                    out.append((3, "html", val, 0))
            elif role == _META_T_BASE and not st.seen_base:
                val = _meta_attr(node, b"href", 4)
                if val:
                    out.append((9, "base", val, 0))
                    st.seen_base = True
        node = _dom_next(node, root, descend)


# UTF-8 of the Chinese byline/dateline markers: 来源 作者 发布 日期 时间 记者 编辑 來源 發布 記者 出处,
# and the writer's and source's labels the byline patterns read (_META_ZH_AUTHOR, _META_ZH_SOURCE):
# 稿源 撰文 撰稿 采写
DEF _META_ZH_N = 15
cdef const char *_META_ZH[_META_ZH_N]
_META_ZH[0] = b"\xe6\x9d\xa5\xe6\xba\x90"
_META_ZH[1] = b"\xe4\xbd\x9c\xe8\x80\x85"
_META_ZH[2] = b"\xe5\x8f\x91\xe5\xb8\x83"
_META_ZH[3] = b"\xe6\x97\xa5\xe6\x9c\x9f"
_META_ZH[4] = b"\xe6\x97\xb6\xe9\x97\xb4"
_META_ZH[5] = b"\xe8\xae\xb0\xe8\x80\x85"
_META_ZH[6] = b"\xe7\xbc\x96\xe8\xbe\x91"
_META_ZH[7] = b"\xe4\xbe\x86\xe6\xba\x90"
_META_ZH[8] = b"\xe7\x99\xbc\xe5\xb8\x83"
_META_ZH[9] = b"\xe8\xa8\x98\xe8\x80\x85"
_META_ZH[10] = b"\xe5\x87\xba\xe5\xa4\x84"
_META_ZH[11] = b"\xe7\xa8\xbf\xe6\xba\x90"
_META_ZH[12] = b"\xe6\x92\xb0\xe6\x96\x87"
_META_ZH[13] = b"\xe6\x92\xb0\xe7\xa8\xbf"
_META_ZH[14] = b"\xe9\x87\x87\xe5\x86\x99"


# the bytes that open a word _meta_byline_text looks for in a text's first bytes: p, w, u, a, b
# (of " by ") and their capitals (the bytes whose value | 32 is one of those letters)
cdef uint8_t _META_BYLINE_FIRST[256]
for _meta_c in range(256):
    _META_BYLINE_FIRST[_meta_c] = (_meta_c | 32) in (112, 119, 117, 97, 98)


cdef int _meta_byline_text(const unsigned char *s, size_t n, bint ascii) noexcept nogil:
    """1 if a (short) text node opens an English byline/dateline, 2 if it holds a Chinese
    byline/dateline marker, 3 if it is a short text holding a year, 0 otherwise. `ascii`: the
    text is known to hold only ASCII bytes (no Chinese marker is looked for: the bytes past the
    first 16 of a long text are not read)."""
    cdef size_t i = 0, k
    while i < n and (s[i] <= 32):
        i += 1
    s += i
    n -= i
    if n < 2:
        return 0
    if n >= 2 and (s[0] == 66 or s[0] == 98) and (s[1] == 121 or s[1] == 89) and (
            n == 2 or s[2] == 32 or s[2] == 58 or s[2] == 0xc2):     # "By", "by ", "BY:", "By&nbsp;"
        return 1
    # "posted", "published", "written by", "updated", a word then "by" ("Story by", "Reported by")
    # in the first 16 bytes, "author" in the first 12: one pass, each word compared where its
    # first letter is
    cdef size_t w16 = 16 if n > 16 else n, w12 = 12 if n > 12 else n, stop
    cdef unsigned char c
    cdef uint64_t word
    for i in range(w16):
        if not _META_BYLINE_FIRST[s[i]]:     # (most bytes: one lookup)
            continue
        c = s[i] | 32
        if c == 112:                    # p
            if _meta_ci_at(s + i, w16 - i, b"posted", 6) or _meta_ci_at(s + i, w16 - i, b"published", 9):
                return 1
        elif c == 119:                  # w
            if _meta_ci_at(s + i, w16 - i, b"written by", 10):
                return 1
        elif c == 117:                  # u
            if _meta_ci_at(s + i, w16 - i, b"updated", 7):
                return 1
        elif c == 97 and i < w12:       # a
            if _meta_ci_at(s + i, w12 - i, b"author", 6):
                return 1
        elif c == 98 and i > 0 and s[i - 1] == 32 and i + 2 < n and (s[i + 1] | 32) == 121 \
                and (s[i + 2] == 32 or s[i + 2] == 58):         # " by " (" by:")
            return 1
    # a Chinese marker (its first byte is 0xe4-0xe9) starting before the last 5 bytes, or 文
    # before a slash or bar ("文/张三", "文 | 张三": the writer); eight ASCII bytes at a time are
    # passed over at once
    stop = n - 5 if n > 5 and not ascii else 0
    i = 0
    while i < stop:
        if i + 8 <= stop:
            memcpy(&word, s + i, 8)
            if not (word & 0x8080808080808080ULL):
                i += 8
                continue
        if 0xe4 <= s[i] <= 0xe9:
            for k in range(_META_ZH_N):
                if memcmp(s + i, _META_ZH[k], 6) == 0:
                    return 2
            if memcmp(s + i, b"\xe6\x96\x87", 3) == 0:        # 文
                k = i + 3
                while k < n and s[k] == 32:
                    k += 1
                if k < n and (s[k] == 47 or s[k] == 124 or (k + 3 <= n and (
                        memcmp(s + k, b"\xef\xbc\x8f", 3) == 0 or memcmp(s + k, b"\xe4\xb8\xa8", 3) == 0))):
                    return 2                                   # (/ | ／ 丨)
        i += 1
    while n > 0 and s[n - 1] <= 32:
        n -= 1
    if 6 <= n <= 48:
        # a short text that holds a year (19xx/20xx standing alone): a dateline such as
        # "20 December 2025" or "Dec 15, 2025" on its own
        for i in range(n - 3):
            if ((s[i] == 49 and s[i + 1] == 57) or (s[i] == 50 and s[i + 1] == 48)) \
                    and 48 <= s[i + 2] <= 57 and 48 <= s[i + 3] <= 57 \
                    and (i == 0 or not (48 <= s[i - 1] <= 57)) and (i + 4 == n or not (48 <= s[i + 4] <= 57)):
                return 3
    return 0


cdef inline int _meta_in_window(int order, int h1_at) noexcept nogil:
    """Where the element of rank `order` stands against the window around the first h1 (rank
    h1_at, -1 for none): 1 inside it, 0 before it, -1 past its end."""
    if h1_at >= 0:
        if order - h1_at >= _META_AFTER_H1:
            return -1
        return 1 if h1_at - order <= _META_BEFORE_H1 else 0
    return 1 if order < _META_NO_H1 else -1


cdef inline bint _meta_hint_attr(const unsigned char *s, size_t an) noexcept nogil:
    """A class, id or rel attribute (name `s`, length `an`)."""
    return (an == 5 and memcmp(s, b"class", 5) == 0) or (an == 2 and memcmp(s, b"id", 2) == 0) \
        or (an == 3 and memcmp(s, b"rel", 3) == 0)


cdef inline void _meta_prefetch(const DocView *dv, Py_ssize_t i, Py_ssize_t n, uint16_t want) noexcept nogil:
    """The loads of what the window loop will read of the elements marked `want` (NF_ITEMPROP,
    NF_HINT_ATTR) ahead of Doc node i, issued early (prefetches: each a cache miss of lexbor's
    tree otherwise, one after the other): the element 32 nodes ahead, its first attribute and its
    class 16 ahead, their values 8 ahead, the class's bytes 4 ahead."""
    cdef Py_ssize_t j
    cdef fx_element *e
    cdef fx_attr *a
    j = i + 32
    if j < n and dv.flags[j] & want:
        fx_prefetch(<void *><uintptr_t>dv.ptr[j])
    j = i + 16
    if j < n and dv.flags[j] & want:
        e = <fx_element *><uintptr_t>dv.ptr[j]
        fx_prefetch(e.first_attr)
        fx_prefetch(e.attr_class)
    j = i + 8
    if j < n and dv.flags[j] & want:
        e = <fx_element *><uintptr_t>dv.ptr[j]
        a = e.first_attr
        if a != NULL:
            fx_prefetch(a.value)
        a = e.attr_class
        if a != NULL and a != e.first_attr:
            fx_prefetch(a.value)
    j = i + 4
    if j < n and dv.flags[j] & want:
        a = (<fx_element *><uintptr_t>dv.ptr[j]).attr_class
        if a != NULL and a.value != NULL:
            fx_prefetch(a.value.data)


cdef int _meta_hints_of(Doc doc, Py_ssize_t i, fx_node *node, int order, int n_hints, list out):
    """The hint records of element i (class/id/rel naming an author, byline or date: its text),
    while fewer than _META_MAX_HINTS are recorded; returns the new count."""
    cdef fx_attr *a
    cdef const unsigned char *s
    cdef size_t an, vn
    if not (doc.view.flags[i] & NF_HINT_ATTR):      # no class, id or rel (the Doc build's mark)
        return n_hints
    a = (<fx_element *>node).first_attr
    while a != NULL and n_hints < _META_MAX_HINTS:
        s = _attr_name(a, &an)
        if s != NULL and a.value != NULL and _meta_hint_attr(s, an):
            vn = a.value.length
            if vn and vn < 200 and _meta_hint_name(a.value.data, vn):
                out.append((7, _fx_str(a.value), _meta_doc_text(doc, i, _META_TEXT_MAX), order))
                n_hints += 1
        a = a.next
    return n_hints


cdef bint _meta_root_path(str href):
    """Whether `href` names a site's home page: "/", "./", "index.html", "http://blog.example.com/"
    (any host, no path but "/" or an index page; its query and fragment ignored)."""
    cdef Py_ssize_t k
    h = href.strip().lower()
    h = h[:_meta_run(h, 0, len(h), "?#")]
    if h.startswith(("http://", "https://", "//")):
        k = h.find("/", h.find("//") + 2)
        h = "/" if k < 0 else h[k:]
    return h in _META_ROOT_PATHS


_META_ROOT_PATHS = frozenset(("", "/", ".", "./", "index.html", "/index.html", "index.htm", "/index.htm",
                              "index.php", "/index.php", "/home", "/home/", "home"))


cdef bint _meta_home_link(Doc doc, Py_ssize_t i):
    """Whether the h1 at Doc node i is a link to a site's home page: all its text in links
    (``Doc.link_chars``), the first link's href a site's root (_meta_root_path). Such an h1 is
    the site's name or logo on every page of the site (a blog's "Seth's Blog" above the post's
    title), not the page's headline; the first 64 nodes of the h1 are read."""
    cdef DocView dv = doc.view
    cdef Py_ssize_t j, end = dv.end[i]
    cdef fx_attr *a
    if dv.chars[i] <= 0 or dv.link_chars[i] != dv.chars[i]:
        return False
    if end > i + 64:
        end = i + 64
    for j in range(i + 1, end):
        if dv.kind[j] == 1 and _meta_tag_role(<uintptr_t>dv.tag[j]) == _META_T_A:
            a = _find_attr(<fx_node *><uintptr_t>dv.ptr[j], b"href", 4)
            return a != NULL and a.value != NULL and _meta_root_path(_fx_str(a.value))
    return False


def meta_scan_hints(Doc doc, tuple resume):
    """The hint records (kind 7) meta_scan left for later: those of the window's elements from
    the one `resume` names on (the record of kind 11 meta_scan ends with: the element's index,
    its rank, the hints recorded before it, the first h1's rank), as the one pass would have
    recorded them (same order, same bound)."""
    cdef Py_ssize_t i = resume[0], n = doc.n
    cdef int order = <int>resume[1] - 1, n_hints = resume[2], h1_at = resume[3], w
    cdef DocView docv = doc.view
    out = []
    while i < n and n_hints < _META_MAX_HINTS:
        if docv.kind[i] == 1:
            order += 1
            w = _meta_in_window(order, h1_at)
            if w < 0:
                break
            if w > 0:
                _meta_prefetch(&docv, i, n, NF_HINT_ATTR)
                n_hints = _meta_hints_of(doc, i, <fx_node *><uintptr_t>docv.ptr[i], order, n_hints, out)
        else:
            _meta_prefetch(&docv, i, n, NF_HINT_ATTR)
        i += 1
    return out


def meta_scan(Doc doc, bint visible=True):
    """Raw metadata evidence of a parsed page: (metas, multi, records). metas: <meta>
    name/property/itemprop/http-equiv (lower-cased) -> its first non-empty content; multi: the
    names in _META_MULTI -> all their contents; records: (kind, key, value, order) of every
    other kind in META_KIND.

    Two bounded passes: lexbor's tree for <meta>, <link>, <base>, <html lang> and JSON-LD
    (_meta_tag_walk: the tags' ids compared, no other attributes read), and the Doc's flat
    arrays for the visible evidence around the headline: the first h1s (key "home" for one
    that links to a site's home page: _meta_home_link), and in a window from
    _META_BEFORE_H1 elements before the first h1 to _META_AFTER_H1 elements past it (the first
    _META_NO_H1 of a body without h1), microdata itemprop values, <time datetime>, elements
    whose class/id/rel names an author, byline or date, and short text nodes that open a
    byline or dateline or hold a year (a "year" record's key: the text before it in its
    element, its label).  `order` is an element's preorder rank among the Doc's elements (0
    for the tag walk).  With `visible` false the window gives its microdata only: no <time>,
    hint, byline or year records (what a page whose bylines and datelines are not read needs)."""
    if not _meta_ready:
        _meta_init()
    out = []
    cdef dict metas = {}
    cdef dict multi = {}
    cdef Py_ssize_t n = doc.n, i, start = doc.body if doc.body >= 0 else 0, up, nskip
    cdef DocView docv = doc.view
    cdef _MetaWalk st
    cdef bytes skip = doc._skipped
    cdef fx_node *node
    cdef str key, val
    if doc.parser is None or skip is None:
        return metas, multi, out
    cdef const uint64_t *skipped = <const uint64_t *>PyBytes_AS_STRING(skip)
    # lexbor's tree where the Doc build did not go: <html> (the Doc's root), then, in page
    # order, every element the build noted without entering it (the head's elements, meta, link, base,
    # script and other dropped or hidden elements): what a walk of the whole tree would find
    memset(&st, 0, sizeof(st))
    if n > 0 and _meta_tag_role(<uintptr_t>docv.tag[0]) == _META_T_HTML:
        node = <fx_node *><uintptr_t>docv.ptr[0]
        val = _meta_attr(node, b"lang", 4) or _meta_attr(node, b"xml:lang", 8)
        if val:
            out.append((3, "html", val, 0))
    nskip = len(skip) // 8
    for i in range(nskip):
        # (each an element: its node loaded 4 ahead, its first attribute 2 ahead)
        if i + 4 < nskip:
            fx_prefetch(<void *><uintptr_t>skipped[i + 4])
        if i + 2 < nskip:
            fx_prefetch((<fx_element *><uintptr_t>skipped[i + 2]).first_attr)
        _meta_tag_walk(<fx_node *><uintptr_t>skipped[i], &st, metas, multi, out)
    cdef fx_attr *a
    cdef int role
    cdef int order = 0, h1_at = -1, n_items = 0, n_hints = 0, n_texts = 0, n_times = 0, n_h1 = 0
    cdef int n_years = 0, n_h1_text = 0, n_h2 = 0, k2, hrole
    cdef Py_ssize_t h2_at[_META_MAX_H2]
    cdef int h2_order[_META_MAX_H2]
    cdef uint16_t fl, want = NF_ITEMPROP | NF_HINT_ATTR
    cdef bint near = False
    cdef size_t an, vn, tlen
    cdef const unsigned char *s
    cdef const unsigned char *v
    cdef int bl
    # the first h1s of the body (their order: the rank among the Doc's elements)
    for i in range(n):
        if docv.kind[i] == 1:
            order += 1
            hrole = _meta_tag_role(<uintptr_t>docv.tag[i])
            if hrole == _META_T_H1 and i > start and n_h1 < _META_MAX_H1:
                if h1_at < 0:
                    h1_at = order
                # (key "home": the h1 is a link to a site's home page, a logo or the site's name)
                out.append((6, "home" if _meta_home_link(doc, i) else "", _meta_heading_text(doc, i), order))
                n_h1 += 1
                if docv.chars[i] > 0:
                    n_h1_text += 1
                if n_h1 >= _META_MAX_H1:
                    break
            elif hrole == _META_T_H2 and n_h2 < _META_MAX_H2 and i > start and docv.chars[i] > 0:
                h2_at[n_h2] = i
                h2_order[n_h2] = order
                n_h2 += 1
    # a page whose h1s hold no text (a logo image) names its headline in an h2 (a forum's topic
    # subject): the first h2s with text, for the resolver to find the one holding the title
    if n_h1_text == 0:
        for k2 in range(n_h2):
            out.append((12, "", _meta_heading_text(doc, h2_at[k2]), h2_order[k2]))
    # the window: _META_BEFORE_H1 elements before the first h1 to _META_AFTER_H1 past it. The
    # class/id/rel hints (bylines, datelines) are read up to _META_NEAR elements past the h1 (what
    # the resolver checks on every page); the rest only when the resolver asks (meta_scan_hints,
    # from the record of kind 11 this pass ends with): most pages name their author and date in
    # their markup, and the hints past the headline are the scan's largest cost
    cdef int hint_limit = (h1_at if h1_at >= 0 else 0) + _META_NEAR, w
    cdef Py_ssize_t resume_i = -1
    cdef int resume_order = 0, resume_hints = 0
    order = 0
    for i in range(n):
        if docv.kind[i] == 1:
            order += 1
            if i <= start:
                continue
            w = _meta_in_window(order, h1_at)
            if w < 0:
                break
            near = w > 0
            if not near:
                continue
            if resume_i < 0 and (order > hint_limit or not visible):
                # past the hints' reach (without `visible`: from the window's first element on),
                # only the itemprop elements' attributes are read and prefetched
                resume_i, resume_order, resume_hints = i, order, n_hints
                want = NF_ITEMPROP
            _meta_prefetch(&docv, i, n, want)
            node = <fx_node *><uintptr_t>docv.ptr[i]
            role = _meta_tag_role(<uintptr_t>docv.tag[i])
            if role == _META_T_TIME and n_times < _META_MAX_TIMES and visible:
                val = _meta_attr(node, b"datetime", 8)
                out.append((5, val or "", _meta_doc_text(doc, i, 80), order))
                n_times += 1
            # one pass over the attributes: itemprop, and (near the h1) class/id/rel naming an
            # author or date; only of the elements the Doc build marked as having one of these
            # attributes (NF_ITEMPROP, NF_HINT_ATTR: past the h1's neighbourhood, where only
            # itemprops are read here, no attribute of the others is: a cache miss each)
            fl = docv.flags[i]
            if not (fl & NF_ITEMPROP or (fl & NF_HINT_ATTR and resume_i < 0 and n_hints < _META_MAX_HINTS)):
                continue
            a = (<fx_element *>node).first_attr
            while a != NULL:
                s = _attr_name(a, &an)
                if s != NULL and a.value != NULL:
                    if an == 8 and memcmp(s, b"itemprop", 8) == 0:
                        v = a.value.data
                        vn = a.value.length
                        if n_items < _META_MAX_ITEMS and vn:
                            val = _meta_attr(node, b"content", 7)
                            if val is None:
                                val = _meta_attr(node, b"datetime", 8)
                            if val is None and role == _META_T_A:
                                if _meta_ci_has(v, vn, b"url", 3) or _meta_ci_has(v, vn, b"image", 5):
                                    val = _meta_attr(node, b"href", 4)
                            if val is None and role == _META_T_IMG:
                                val = _meta_attr(node, b"src", 3)
                            if val is None:
                                val = _meta_doc_text(doc, i, _META_TEXT_MAX)
                            out.append((4, _fx_str(a.value), val, order))
                            n_items += 1
                    elif resume_i < 0 and n_hints < _META_MAX_HINTS and _meta_hint_attr(s, an):
                        vn = a.value.length
                        if vn and vn < 200 and _meta_hint_name(a.value.data, vn):
                            out.append((7, _fx_str(a.value), _meta_doc_text(doc, i, _META_TEXT_MAX), order))
                            n_hints += 1
                a = a.next
        elif docv.kind[i] == 3 and near and visible and i > start and (n_texts < _META_MAX_TEXTS or n_years < _META_MAX_YEARS):
            _meta_prefetch(&docv, i, n, want)
            tlen = <size_t>docv.text_len[i]
            if 0 < tlen <= 400:
                # (a text node's character count equals its byte length only when it is ASCII)
                bl = _meta_byline_text(docv.text_buf + docv.text_off[i], tlen, docv.chars[i] == docv.text_len[i])
                if bl == 3:
                    if n_years < _META_MAX_YEARS:
                        # with the text before it in its element: its label ("<dd><b>Joined:</b>
                        # Dec 11, 2021</dd>"), the last _META_LABEL_MAX characters of the
                        # _META_LABEL_NODES nodes before it (the words next to the date: "... and
                        # is valid through 01/23/2026")
                        up = docv.parent[i]
                        key = ""
                        if 0 <= up < i - 1:
                            key = _meta_doc_span_text(doc, max(up + 1, i - _META_LABEL_NODES), i, _META_TEXT_MAX)
                            key = key[max(0, len(key) - _META_LABEL_MAX):]
                        out.append((10, key, (<const char *>docv.text_buf + docv.text_off[i])[:tlen].decode(
                                    "utf-8", "replace"), order))
                        n_years += 1
                elif bl and n_texts < _META_MAX_TEXTS:
                    # the byline's element, or its parent when the text node is all of it
                    # ("<span>By</span> <a>Name</a>")
                    up = docv.parent[i]
                    val = _meta_doc_text(doc, up, _META_TEXT_MAX) if up >= 0 else ""
                    key = ""
                    if up >= 0 and docv.parent[up] >= 0 and len(val.strip()) <= <Py_ssize_t>tlen + 2:
                        key = _meta_doc_text(doc, docv.parent[up], _META_TEXT_MAX)
                    out.append((8, key, val, order))
                    n_texts += 1
    if resume_i >= 0 and n_hints < _META_MAX_HINTS and visible:
        out.append((11, "", "", (resume_i, resume_order, resume_hints, h1_at)))
    return metas, multi, out


# ---------------------------------------------------------------- the resolver's text kernels
#
# What fastx.metadata does with every candidate value, compiled: dates (meta_parse_date: the
# forms of htmldate's cascade, Barbaresi 2020), whitespace and entities (meta_clean), comparison
# keys (meta_key) and the split of a <title> at its separators (meta_title_split).  They read
# code points as Python's re module does for str patterns (\d a Unicode decimal, \s
# str.isspace, a letter an alphanumeric that is neither a decimal nor "_"), so that each gives
# what the regular expression it replaces gives.

import re
from datetime import date as _pydate
from html import unescape as _meta_unescape

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch) nogil
    bint Py_UNICODE_ISDECIMAL(Py_UCS4 ch) nogil
    bint Py_UNICODE_ISALPHA(Py_UCS4 ch) nogil
    int Py_UNICODE_TODECIMAL(Py_UCS4 ch) nogil
    Py_UCS4 Py_UNICODE_TOLOWER(Py_UCS4 ch) nogil
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND

# month names (English and the common European ones), lower case -> month
META_MONTHS = {
    "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
    "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9,
    "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
    # German, French, Spanish, Italian, Dutch, Portuguese month names (the common ones)
    "januar": 1, "janvier": 1, "enero": 1, "gennaio": 1, "januari": 1, "janeiro": 1,
    "februar": 2, "février": 2, "fevrier": 2, "febrero": 2, "febbraio": 2, "februari": 2, "fevereiro": 2,
    "märz": 3, "mars": 3, "marzo": 3, "maart": 3, "março": 3,
    "avril": 4, "abril": 4, "aprile": 4,
    "mai": 5, "mayo": 5, "maggio": 5, "mei": 5, "maio": 5,
    "juni": 6, "juin": 6, "junio": 6, "giugno": 6, "junho": 6,
    "juli": 7, "juillet": 7, "julio": 7, "luglio": 7, "julho": 7,
    "august": 8, "août": 8, "aout": 8, "agosto": 8, "augustus": 8,
    "septembre": 9, "septiembre": 9, "settembre": 9, "setembro": 9,
    "oktober": 10, "octobre": 10, "octubre": 10, "ottobre": 10, "outubro": 10,
    "novembre": 11, "noviembre": 11, "novembro": 11,
    "dezember": 12, "décembre": 12, "decembre": 12, "diciembre": 12, "dicembre": 12, "december": 12,
    "dezembro": 12,
}
_META_RE_RELATIVE = re.compile(
    r"\b(?:\d+|an?|one|few)\s+(?:sec|second|min|minute|hr|hour|day|week|month|year)s?\s+ago\b|"
    r"\b(?:yesterday|today)\b|\d+\s*(?:秒|分钟|小时|天)前|昨天|今天", re.I)
# the latest plausible year of a date: next year (dates after it are typos or expiry dates)
cdef int _meta_max_year = _pydate.today().year + 1


ctypedef struct _MetaU:
    int kind
    const void *data
    Py_ssize_t n


cdef inline _MetaU _mu_of(str s):
    """The code points of s as the _mu_ readers read them."""
    cdef _MetaU u
    u.kind = PyUnicode_KIND(s)
    u.data = PyUnicode_DATA(s)
    u.n = len(s)
    return u


cdef inline Py_UCS4 _mu_at(const _MetaU *u, Py_ssize_t i) noexcept nogil:
    """Code point i of the text, 0 past its end."""
    return PyUnicode_READ(u.kind, u.data, i) if 0 <= i < u.n else 0


cdef inline int _mu_dec(const _MetaU *u, Py_ssize_t i) noexcept nogil:
    """Value of the decimal digit at i (re's \\d), -1 when it is none."""
    cdef Py_UCS4 c = _mu_at(u, i)
    if 48 <= c <= 57:
        return <int>c - 48
    if c < 128 or not Py_UNICODE_ISDECIMAL(c):
        return -1
    return Py_UNICODE_TODECIMAL(c)


cdef inline bint _mu_space(Py_UCS4 c) noexcept nogil:
    """re's \\s for str patterns (str.isspace)."""
    return c != 0 and Py_UNICODE_ISSPACE(c)


cdef inline bint _mu_letter(Py_UCS4 c) noexcept nogil:
    """re's [^\\W\\d_]: alphanumeric, not a decimal digit, not "_"."""
    if c < 128:
        return (65 <= c <= 90) or (97 <= c <= 122)
    return Py_UNICODE_ISALNUM(c) and not Py_UNICODE_ISDECIMAL(c)


cdef inline Py_ssize_t _mu_run(const _MetaU *u, Py_ssize_t i, int what) noexcept nogil:
    """End of the run from i of decimals (what 0), whitespace (1) or letters (2)."""
    while i < u.n:
        if what == 0:
            if _mu_dec(u, i) < 0:
                break
        elif what == 1:
            if not _mu_space(_mu_at(u, i)):
                break
        elif not _mu_letter(_mu_at(u, i)):
            break
        i += 1
    return i


cdef inline int _mu_year(const _MetaU *u, Py_ssize_t p) noexcept nogil:
    """(?:19|20)\\d\\d at p: the year, or -1."""
    cdef Py_UCS4 a = _mu_at(u, p), b = _mu_at(u, p + 1)
    cdef int c, d
    if not ((a == 49 and b == 57) or (a == 50 and b == 48)):
        return -1
    c = _mu_dec(u, p + 2)
    d = _mu_dec(u, p + 3)
    if c < 0 or d < 0:
        return -1
    return (1900 if a == 49 else 2000) + 10 * c + d


cdef inline int _mu_num(const _MetaU *u, Py_ssize_t p, Py_ssize_t q) noexcept nogil:
    """Value of the decimals [p, q)."""
    cdef int v = 0
    while p < q:
        v = 10 * v + _mu_dec(u, p)
        p += 1
    return v


cdef object _meta_mkdate(int y, int m, int d):
    """ISO 8601 YYYY-MM-DD of a valid day of a plausible year (1995 to next year), else None."""
    cdef int days
    if not (1995 <= y <= _meta_max_year) or not (1 <= m <= 12) or d < 1:
        return None
    if m == 2:
        days = 29 if (y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)) else 28
    elif m == 4 or m == 6 or m == 9 or m == 11:
        days = 30
    else:
        days = 31
    if d > days:
        return None
    return f"{y:04d}-{m:02d}-{d:02d}"


cdef int _meta_month(const _MetaU *u, Py_ssize_t p, Py_ssize_t q):
    """The month named by the letters [p, q) (META_MONTHS, lower case), 0 if none."""
    cdef Py_UCS4 buf[10]
    cdef Py_ssize_t k
    cdef Py_UCS4 c
    if q - p < 3 or q - p > 10:
        return 0
    for k in range(q - p):
        c = _mu_at(u, p + k)
        if c == 0x130:          # str.lower() makes two code points of it: in no month name
            return 0
        buf[k] = Py_UNICODE_TOLOWER(c)
    v = META_MONTHS.get(PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, q - p))
    return 0 if v is None else <int>v


cdef inline Py_ssize_t _mu_exact(const _MetaU *u, Py_ssize_t p) noexcept nogil:
    """\\d{1,2} at p not followed by a decimal: its end, or -1."""
    cdef Py_ssize_t q = _mu_run(u, p, 0)
    return q if 1 <= q - p <= 2 else -1


cdef inline bint _mu_suffix(const _MetaU *u, Py_ssize_t q) noexcept nogil:
    """st, nd, rd or th at q (lower case)."""
    cdef Py_UCS4 a = _mu_at(u, q), b = _mu_at(u, q + 1)
    return (a == 115 and b == 116) or (a == 110 and b == 100) or (a == 114 and b == 100) or (a == 116 and b == 104)


cdef inline Py_ssize_t _mu_marked(const _MetaU *u, Py_ssize_t q, Py_UCS4 mark, Py_ssize_t *end) noexcept nogil:
    r"""``\s*MARK\s*(\d{1,2})`` at q (the CJK form's 年 and 月): the number's start, its end in
    end[0]; -1 when it is not there."""
    q = _mu_run(u, q, 1)
    if _mu_at(u, q) != mark:
        return -1
    q = _mu_run(u, q + 1, 1)
    end[0] = _mu_exact(u, q)
    return q if end[0] >= 0 else -1


cdef inline bint _mu_after_digit(const _MetaU *u, Py_ssize_t p) noexcept nogil:
    """A decimal digit stands before p (``(?<!\d)`` fails at p)."""
    return p > 0 and _mu_dec(u, p - 1) >= 0


cdef inline Py_ssize_t _mu_word(const _MetaU *u, Py_ssize_t p) noexcept nogil:
    """The end of a month-name candidate at p, a letter run of 3 to 10 (``word`` in
    meta_parse_date's patterns); -1 when the run is shorter or longer."""
    cdef Py_ssize_t q = _mu_run(u, p, 2)
    return q if 3 <= q - p <= 10 else -1


cdef inline Py_ssize_t _mu_gap(const _MetaU *u, Py_ssize_t q, bint de) noexcept nogil:
    """``\s+`` at q and, with `de`, an optional ``de\s+`` after it (Spanish and Portuguese
    dates): the index past them; -1 when q holds no space."""
    cdef Py_ssize_t r = _mu_run(u, q, 1)
    if r == q:
        return -1
    if de and _mu_at(u, r) == 100 and _mu_at(u, r + 1) == 101 and _mu_space(_mu_at(u, r + 2)):
        r = _mu_run(u, r + 2, 1)
    return r


cdef inline int _mu_year_at(const _MetaU *u, Py_ssize_t r) noexcept nogil:
    """``((?:19|20)\d\d)(?!\d)`` at r (-1 for r: none): the year, or -1."""
    if r < 0:
        return -1
    cdef int y = _mu_year(u, r)
    return -1 if y < 0 or _mu_dec(u, r + 4) >= 0 else y


cdef inline int _mu_comma_year(const _MetaU *u, Py_ssize_t q, bint dot, bint de) noexcept nogil:
    """``\.?,?\s+(?:de\s+)?((?:19|20)\d\d)(?!\d)`` at q, the dot only with `dot` and the
    ``de`` only with `de` (the tail of the month-name forms): the year, or -1."""
    if dot and _mu_at(u, q) == 46:
        q += 1
    if _mu_at(u, q) == 44:
        q += 1
    return _mu_year_at(u, _mu_gap(u, q, de))


cdef inline bint _mu_sep(Py_UCS4 c) noexcept nogil:
    """[-/.]"""
    return c == 45 or c == 47 or c == 46


cdef bint _meta_ci_find(const _MetaU *u, const char *lit) noexcept nogil:
    """A lower-case ASCII word in the text, ASCII case ignored (as `lit in text.lower()`: no
    other code point lower-cases to these letters)."""
    cdef Py_ssize_t i, k, m = strlen(lit)
    cdef Py_UCS4 c
    for i in range(u.n - m + 1):
        for k in range(m):
            c = _mu_at(u, i + k)
            if 65 <= c <= 90:
                c = <Py_UCS4>(<uint32_t>c + 32)
            if c != <Py_UCS4><unsigned char>lit[k]:
                break
        else:
            return True
    return False


cdef bint _meta_has_cp(const _MetaU *u, Py_UCS4 a, Py_UCS4 b) noexcept nogil:
    """The code point `a` (followed by `b` unless b is 0) in the text."""
    cdef Py_ssize_t i
    for i in range(u.n):
        if _mu_at(u, i) == a and (b == 0 or _mu_at(u, i + 1) == b):
            return True
    return False


cdef bint _meta_relative(str s):
    """A relative date ("3 days ago", "yesterday", 昨天): a substring test first, the pattern
    only where one of its words is."""
    cdef _MetaU u = _mu_of(s)
    if _meta_ci_find(&u, b"ago") or _meta_ci_find(&u, b"yesterday") or _meta_ci_find(&u, b"today") \
            or _meta_has_cp(&u, 0x524D, 0) or _meta_has_cp(&u, 0x6628, 0x5929) or _meta_has_cp(&u, 0x4ECA, 0x5929):
        return _META_RE_RELATIVE.search(s) is not None
    return False


cdef bint _meta_year_in(str s):
    """(?:19|20)\\d\\d somewhere in `s` (every date meta_parse_date reads has one)."""
    cdef _MetaU u
    cdef Py_ssize_t p
    if s is None:
        return False
    u = _mu_of(s)
    for p in range(u.n - 3):
        if _mu_year(&u, p) >= 0:
            return True
    return False


cpdef bint meta_relative(str s):
    """A relative date ("3 days ago", "yesterday", "today", 3天前, 昨天, 今天) in `s`."""
    return _meta_relative(s)


cdef bint _meta_mdy_at(const _MetaU *u, Py_ssize_t p, int *y, int *day, Py_ssize_t *w) noexcept nogil:
    r"""meta_parse_date's M D Y form at p,
    ``(?<![^\W\d_])(word)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)(?!\d)``:
    True with the year, the day and the word's bounds w[0], w[1] filled."""
    cdef Py_ssize_t q, r
    if not _mu_letter(_mu_at(u, p)) or (p > 0 and _mu_letter(_mu_at(u, p - 1))):
        return False
    w[0] = p
    w[1] = _mu_word(u, p)
    r = _mu_gap(u, w[1] + 1 if _mu_at(u, w[1]) == 46 else w[1], False) if w[1] >= 0 else -1
    q = _mu_exact(u, r) if r >= 0 else -1
    if q < 0:
        return False
    day[0] = _mu_num(u, r, q)
    y[0] = _mu_comma_year(u, q + 2 if _mu_suffix(u, q) else q, False, False)
    return y[0] >= 0


cdef bint _meta_dmy_at(const _MetaU *u, Py_ssize_t p, int *y, int *day, Py_ssize_t *w) noexcept nogil:
    r"""The D M Y form at p,
    ``(?<!\d)(\d{1,2})(?:st|nd|rd|th|\.)?\s+(?:de\s+)?(word)\.?,?\s+(?:de\s+)?((?:19|20)\d\d)(?!\d)``
    (as _meta_mdy_at)."""
    cdef Py_ssize_t q = -1 if _mu_after_digit(u, p) else _mu_exact(u, p)
    if q < 0:
        return False
    day[0] = _mu_num(u, p, q)
    if _mu_suffix(u, q):
        q += 2
    elif _mu_at(u, q) == 46:
        q += 1
    w[0] = _mu_gap(u, q, True)
    w[1] = _mu_word(u, w[0]) if w[0] >= 0 else -1
    y[0] = _mu_comma_year(u, w[1], True, True) if w[1] >= 0 else -1
    return y[0] >= 0


cdef bint _meta_ymd_at(const _MetaU *u, Py_ssize_t p, int *y, int *day, Py_ssize_t *w) noexcept nogil:
    r"""The Y M D form at p, ``(?<!\d)((?:19|20)\d\d),?\s+(word)\.?\s+(\d{1,2})(?!\d)``
    (as _meta_mdy_at)."""
    cdef Py_ssize_t q, r
    y[0] = -1 if _mu_after_digit(u, p) else _mu_year(u, p)
    if y[0] < 0:
        return False
    w[0] = _mu_gap(u, p + 5 if _mu_at(u, p + 4) == 44 else p + 4, False)
    w[1] = _mu_word(u, w[0]) if w[0] >= 0 else -1
    r = _mu_gap(u, w[1] + 1 if _mu_at(u, w[1]) == 46 else w[1], False) if w[1] >= 0 else -1
    q = _mu_exact(u, r) if r >= 0 else -1
    if q < 0:
        return False
    day[0] = _mu_num(u, r, q)
    return True


cpdef object meta_parse_date(s, dayfirst=None):
    """A date in `s` as ISO 8601 ``YYYY-MM-DD``, or None.

    Reads ISO 8601 and its slash/dot variants, "September 4, 2025", "4 Sept. 2025", "2023 Jan 7"
    (English and the main European month names), Chinese/Japanese 2025年9月4日,
    numeric D/M/Y or M/D/Y (unambiguous when a part exceeds 12; else month first
    unless `dayfirst`) and compact 20250904, tried in this order, the leftmost match of the
    first form found deciding. Relative dates ("3 days ago") and implausible years (before 1995
    or after next year) give None. The first 400 characters are read."""
    if not s:
        return None
    cdef str t = s
    if len(t) > 400:
        t = t[:400]
    cdef _MetaU u = _mu_of(t)
    cdef Py_ssize_t p, q, r, w0, w1
    cdef int y, a, b, mo
    cdef bint any_month = False
    cdef bint hit
    cdef int form
    cdef Py_ssize_t w[2]
    if not _meta_year_in(t):            # every form has a four-digit year: most texts stop here
        return None
    # ISO: (?<!\d)((?:19|20)\d\d)[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)
    for p in range(u.n):
        if _mu_dec(&u, p - 1) >= 0 if p > 0 else False:
            continue
        y = _mu_year(&u, p)
        if y < 0 or not _mu_sep(_mu_at(&u, p + 4)):
            continue
        q = _mu_exact(&u, p + 5)
        if q < 0 or not _mu_sep(_mu_at(&u, q)):
            continue
        r = _mu_exact(&u, q + 1)
        if r < 0:
            continue
        return _meta_mkdate(y, _mu_num(&u, p + 5, q), _mu_num(&u, q + 1, r))
    # CJK: ((?:19|20)\d\d)\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]
    for p in range(u.n):
        y = _mu_year(&u, p)
        if y < 0:
            continue
        w0 = _mu_marked(&u, p + 4, 0x5E74, &w1)           # 年
        q = _mu_marked(&u, w1, 0x6708, &r) if w0 >= 0 else -1     # 月
        if q < 0:
            continue
        b = _mu_at(&u, _mu_run(&u, r, 1))
        if b != 0x65E5 and b != 0x53F7:
            continue
        return _meta_mkdate(y, _mu_num(&u, w0, w1), _mu_num(&u, q, r))
    # month names: the costly forms, tried only when a word of three letters or more is one
    p = 0
    while p < u.n:
        if _mu_letter(_mu_at(&u, p)):
            q = _mu_run(&u, p, 2)
            if q - p >= 3 and _meta_month(&u, p, q):
                any_month = True
                break
            p = q
        else:
            p += 1
    if any_month:
        # the forms in order (_meta_mdy_at, _meta_dmy_at, _meta_ymd_at), each at every position
        for form in range(3):
            for p in range(u.n):
                if form == 0:
                    hit = _meta_mdy_at(&u, p, &y, &a, w)
                elif form == 1:
                    hit = _meta_dmy_at(&u, p, &y, &a, w)
                else:
                    hit = _meta_ymd_at(&u, p, &y, &a, w)
                mo = _meta_month(&u, w[0], w[1]) if hit else 0
                if mo:
                    return _meta_mkdate(y, mo, a)
    # numeric: (?<![\d/.-])(\d{1,2})[/.-](\d{1,2})[/.-]((?:19|20)\d\d)(?![\d/.-])
    for p in range(u.n):
        if p > 0 and (_mu_dec(&u, p - 1) >= 0 or _mu_sep(_mu_at(&u, p - 1))):
            continue
        q = _mu_exact(&u, p)
        if q < 0 or not _mu_sep(_mu_at(&u, q)):
            continue
        r = _mu_exact(&u, q + 1)
        if r < 0 or not _mu_sep(_mu_at(&u, r)):
            continue
        y = _mu_year(&u, r + 1)
        if y < 0 or _mu_dec(&u, r + 5) >= 0 or _mu_sep(_mu_at(&u, r + 5)):
            continue
        a = _mu_num(&u, p, q)
        b = _mu_num(&u, q + 1, r)
        if a > 12 or (dayfirst and b <= 12):
            return _meta_mkdate(y, b, a)
        return _meta_mkdate(y, a, b)
    if _meta_relative(t):
        return None
    # compact: (?<!\d)((?:19|20)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?!\d)
    for p in range(u.n):
        if p > 0 and _mu_dec(&u, p - 1) >= 0:
            continue
        y = _mu_year(&u, p)
        if y < 0:
            continue
        a = <int>_mu_at(&u, p + 4)
        b = <int>_mu_at(&u, p + 5)
        if a == 48 and 49 <= b <= 57:
            mo = b - 48
        elif a == 49 and 48 <= b <= 50:
            mo = 10 + b - 48
        else:
            continue
        a = <int>_mu_at(&u, p + 6)
        b = <int>_mu_at(&u, p + 7)
        if a == 48 and 49 <= b <= 57:
            b = b - 48
        elif (a == 49 or a == 50) and _mu_dec(&u, p + 7) >= 0:
            b = 10 * (a - 48) + _mu_dec(&u, p + 7)
        elif a == 51 and (b == 48 or b == 49):
            b = 30 + b - 48
        else:
            continue
        if _mu_dec(&u, p + 8) >= 0:
            continue
        return _meta_mkdate(y, mo, b)
    return None


cpdef str meta_clean(s):
    """`s` with its character references decoded and its whitespace collapsed to single
    spaces, stripped (" ".join(html.unescape(s).split())); "" when `s` is not a str."""
    if not isinstance(s, str):
        return ""
    cdef str t = s
    if "&" in t:
        t = _meta_unescape(t)
    cdef _MetaU u = _mu_of(t)
    cdef Py_ssize_t i, o = 0
    cdef Py_UCS4 c
    cdef bint pending = False, same = True
    for i in range(u.n):            # already collapsed: no run, no tab or newline, no edge space
        c = _mu_at(&u, i)
        if _mu_space(c) and (c != 32 or i == 0 or i == u.n - 1 or _mu_space(_mu_at(&u, i + 1))):
            same = False
            break
    if same:
        return t
    cdef Py_UCS4 *buf = <Py_UCS4 *>malloc((u.n + 1) * sizeof(Py_UCS4))
    if buf == NULL:
        raise MemoryError()
    try:
        for i in range(u.n):
            c = _mu_at(&u, i)
            if _mu_space(c):
                pending = o > 0
                continue
            if pending:
                buf[o] = 32
                o += 1
                pending = False
            buf[o] = c
            o += 1
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, o)
    finally:
        free(buf)


cdef str _meta_alnum(str t):
    """`t` without the code points re's [\\W_] matches in a str pattern: those kept are the
    ones Py_UNICODE_ISALNUM accepts (re's \\w without "_"), as re.sub(r"[\\W_]+", "", t) keeps
    them, in one pass in C (the expression costs twenty times more on a title)."""
    cdef _MetaU u = _mu_of(t)
    cdef Py_ssize_t i, o = 0
    cdef Py_UCS4 c
    cdef Py_UCS4 small[128]         # (a title's key: on the stack)
    cdef Py_UCS4 *buf = small
    if u.n > 128:
        buf = <Py_UCS4 *>malloc(u.n * sizeof(Py_UCS4))
    if buf == NULL:
        raise MemoryError()
    for i in range(u.n):
        c = _mu_at(&u, i)
        if Py_UNICODE_ISALNUM(c):
            buf[o] = c
            o += 1
    try:
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, buf, o)
    finally:
        if buf != small:
            free(buf)


cpdef str meta_key(str s):
    """A comparison key: `s` case-folded, without punctuation, spaces and "_" (re.sub(r"[\\W_]+",
    "", s.casefold())); ASCII in C (read in place, the key written on the stack unless long),
    other text through str.casefold, then _meta_alnum."""
    if not s.isascii():
        return _meta_alnum(s.casefold())
    cdef const unsigned char *p = <const unsigned char *>PyUnicode_DATA(s)      # (ASCII: one byte each)
    cdef Py_ssize_t i, o = 0, n = len(s)
    cdef unsigned char c
    cdef unsigned char small[256]
    cdef unsigned char *buf = small
    if n > 256:
        buf = <unsigned char *>malloc(n)
        if buf == NULL:
            raise MemoryError()
    try:
        for i in range(n):
            c = p[i]
            if 65 <= c <= 90:
                buf[o] = c + 32
                o += 1
            elif (97 <= c <= 122) or (48 <= c <= 57):
                buf[o] = c
                o += 1
        return (<const char *>buf)[:o].decode("ascii")
    finally:
        if buf != small:
            free(buf)


cdef inline int _meta_sep_len(const _MetaU *u, Py_ssize_t j) noexcept nogil:
    """A title separator at j followed by whitespace: its length (1, or 2 for "::"), else 0.
    Separators: | - – — · • :: » / :"""
    cdef Py_UCS4 c = _mu_at(u, j)
    if c == 58:
        if _mu_at(u, j + 1) == 58 and _mu_space(_mu_at(u, j + 2)):
            return 2
        return 1 if _mu_space(_mu_at(u, j + 1)) else 0
    if c == 124 or c == 45 or c == 0x2013 or c == 0x2014 or c == 0xB7 or c == 0x2022 or c == 0xBB or c == 47:
        return 1 if _mu_space(_mu_at(u, j + 1)) else 0
    return 0


cdef inline bint _mu_cjk(Py_UCS4 c) noexcept nogil:
    """A CJK character (_is_cjk) or CJK / fullwidth punctuation (U+3000-303F, U+FF00-FFEF)."""
    return _is_cjk(c) or (0x3000 <= c <= 0x303F) or (0xFF00 <= c <= 0xFFEF)


cdef inline bint _mu_cjk_sep(Py_UCS4 c) noexcept nogil:
    """A separator a CJK title writes without spaces: _ | - – ｜ 丨 ("标题_栏目_网站",
    "标题-新华网", "标题|游民星空")."""
    return c == 95 or c == 124 or c == 45 or c == 0x2013 or c == 0xFF5C or c == 0x4E28


cpdef list meta_title_split(str s):
    """The parts of a title between its separators, a separator being one of | - – — · • :: »
    / : with whitespace on both sides (re.split(r"\\s+(?:\\||-|–|—|·|•|::|»|/|:)\\s+", s)), or a run
    of _ | - – ｜ 丨 without whitespace next to a CJK character (_mu_cjk) on either side and not
    between two digits: Chinese and Japanese titles join headline, section and site so
    ("女童眼睛被塞几十片纸_凤凰网资讯_凤凰网", "法国全国大罢工再次严重影响交通-新华网"); "1-10月",
    "GPT-4" and "snake_case" stay whole."""
    cdef _MetaU u = _mu_of(s)
    cdef Py_ssize_t i = 0, j, k, last = 0
    cdef int m
    cdef Py_UCS4 c, prev, nxt
    parts = []
    while i < u.n:
        c = _mu_at(&u, i)
        if _mu_space(c):
            j = _mu_run(&u, i, 1)
            m = _meta_sep_len(&u, j)
            if m:
                k = _mu_run(&u, j + m, 1)
                parts.append(s[last:i])
                last = k
                i = k
                continue
            i = j
        elif i > last and _mu_cjk_sep(c):
            j = i + 1
            while j < u.n and _mu_cjk_sep(_mu_at(&u, j)):
                j += 1
            prev = _mu_at(&u, i - 1)
            nxt = _mu_at(&u, j)
            if j < u.n and not _mu_space(prev) and not _mu_space(nxt) and (_mu_cjk(prev) or _mu_cjk(nxt)) \
                    and not (_mu_dec(&u, i - 1) >= 0 and _mu_dec(&u, j) >= 0):
                parts.append(s[last:i])
                last = j
            i = j
        else:
            i += 1
    parts.append(s[last:])
    return parts


# ---------------------------------------------------------------- the resolver
#
# fastx.metadata.extract_metadata: the evidence of meta_scan resolved field by field, sources in
# the order of trust of the metadata extractors of the field (trafilatura's metadata.py, Barbaresi
# 2021, ACL demo "Trafilatura: A Web Scraping Library and Command-Line Tool for Text Discovery and
# Extraction"; htmldate's "extensive/fast" cascade, Barbaresi 2020, JOSS 5(51) 2439): JSON-LD
# (schema.org) > Open Graph / Twitter cards > <meta> names (DC.*, article:*, parsely-*, sailthru.*)
# > microdata itemprop > <time datetime> > visible bylines and datelines > dates in the URL path.
# Compiled with the rest of the core (Python's indexing kept: the wraparound/boundscheck
# directives of each function).

cimport cython
import functools as _meta_functools
import json as _meta_json
from urllib.parse import urljoin as _meta_urljoin, urlsplit as _meta_urlsplit

# a month is any word here, checked against META_MONTHS afterwards (an alternation of the hundred
# month names costs a hundred tries at every position)
_META_WORD_RE = r"[^\W\d_]{3,10}"
_META_RE_URL_DATE = re.compile(r"/((?:19|20)\d\d)[/_-]?(0[1-9]|1[0-2])[/_-]?(0[1-9]|[12]\d|3[01])?(?:/|[_-]|$)")
# /2023/october/03/: an English month name between the year and the day
_META_RE_URL_DATE_NAMED = re.compile(r"/((?:19|20)\d\d)/([a-z]{3,9})/(0?[1-9]|[12]\d|3[01])(?:/|$)", re.I)
# /t20190907_123456.html: the page file of the TRS publishing system most Chinese government and
# many Chinese news sites run on (its day after a "t")
_META_RE_URL_DATE_TRS = re.compile(r"/t((?:19|20)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])_\d+\.s?html?$")


cdef inline Py_ssize_t _meta_run(str s, Py_ssize_t i, Py_ssize_t n, str stops):
    """The end of the run of s[i:n] holding none of the characters `stops`."""
    while i < n and s[i] not in stops:
        i += 1
    return i


def _meta_host(url):
    """The host of an absolute URL, lower-cased: what the regular expression
    [A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]+) matches at its start gives (a scheme, "://",
    user information up to an "@", then the host up to "/", "?", "#" or ":"; without the user
    information when no host follows it), read in one pass (urlsplit costs ten times more)."""
    cdef str u
    cdef Py_ssize_t i = 1, j, e, n
    cdef unsigned int c
    if not url:
        return None
    u = url
    n = len(u)
    c = <Py_UCS4>u[0]
    if not (97 <= (c | 32) <= 122 and c < 128):
        return None
    while i < n:
        c = <Py_UCS4>u[i]
        if not ((97 <= (c | 32) <= 122 and c < 128) or 48 <= c <= 57 or c == 43 or c == 46 or c == 45):
            break
        i += 1
    if not u.startswith("://", i):
        return None
    i += 3
    j = _meta_run(u, i, n, "/?#@")
    if j < n and u[j] == "@":
        e = _meta_run(u, j + 1, n, "/?#:")
        if e > j + 1:
            return u[j + 1:e].lower()
    e = _meta_run(u, i, n, "/?#:")
    return u[i:e].lower() if e > i else None


@cython.wraparound(True)
@cython.boundscheck(True)
def meta_url_date(url):
    """A publication date in a URL path (/2025/09/04/, /2025-09-04-, /20250904/, /2023/october/03/,
    /t20250904_123.html); None if absent."""
    if not url:
        return None
    # the date opens with "/19", "/20", "/t19" or "/t20" in the path: a URL without any (and
    # without the tab or newline urlsplit removes, which could join one) holds none, and is not split
    if "/19" not in url and "/20" not in url and "/t19" not in url and "/t20" not in url \
            and "\t" not in url and "\n" not in url and "\r" not in url:
        return None
    path = _meta_urlsplit(url).path
    m = _META_RE_URL_DATE.search(path)
    if m and m[3]:
        return meta_parse_date(f"{m[1]}-{m[2]}-{m[3]}")
    m = _META_RE_URL_DATE_NAMED.search(path)
    if m and META_MONTHS.get(m[2].lower()):
        return meta_parse_date(f"{m[1]}-{META_MONTHS[m[2].lower()]:02d}-{int(m[3]):02d}")
    m = _META_RE_URL_DATE_TRS.search(path)
    if m:
        return meta_parse_date(f"{m[1]}-{m[2]}-{m[3]}")
    return None


@cython.wraparound(True)
@cython.boundscheck(True)
@_meta_functools.lru_cache(maxsize=256)
def _meta_site_keys(sitename, host):
    """Keys naming the site: og:site_name, the host's name ("example" of www.example.co.uk)."""
    keys = set()
    if sitename:
        keys.add(meta_key(sitename))
    if host:
        h = host.lower().removeprefix("www.").split(".")
        keys.add(meta_key(h[0]))
        if len(h) > 2:
            keys.add(meta_key(h[-2]))
        keys.add(meta_key(".".join(h)))
    keys.discard("")
    return frozenset(keys)


# the boilerplate a forum's or a blog's software puts before the topic in <title> (phpBB 3: "Site •
# View topic - Subject", WordPress: "Site » Blog Archive » Post"), as keys: a first part that is one
# of them is dropped; a title is split only when it opens with one of their first words
_META_TITLE_BOILERPLATE = frozenset(("viewtopic", "viewforum", "blogarchive"))
_META_TITLE_BOILERPLATE_START = ("view ", "blog archive ")


def meta_strip_site_suffix(title, sitename = None, host = None,
                      names = frozenset()):
    """<title> without the site name: " | Site", " - Site", " — Site", "Site | ..." .

    A part is dropped when it names the site (og:site_name, the host or one of `names`
    (keys: casefold, punctuation removed), spacing and case ignored, or a name of three or more
    words whose initials are the host's name: "Occupational Safety and Health Administration"
    on osha.gov); from the end, so
    " - Section | Site" loses both when both are known); otherwise a short last part (at
    most 4 words, the rest longer) is taken for the site name; in a CJK title, every trailing
    part of at most 16 characters after a headline of at least 6 ("标题_栏目_网站": the section
    and the site).  A forum software's "View topic"
    (phpBB's "Site • View topic - Subject") before the subject goes too, and WordPress's "Blog
    Archive" ("Site » Blog Archive » Post")."""
    t = _meta_strip_site(title, sitename, host, names)
    cdef list parts
    if len(t) > 10 and t[:13].lower().startswith(_META_TITLE_BOILERPLATE_START):
        parts = meta_title_split(t)
        if len(parts) > 1 and meta_key(parts[0]) in _META_TITLE_BOILERPLATE:
            return meta_clean(t[len(parts[0]):]).lstrip("|-–—·•:»/ ").strip()
    return t


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_strip_site(title, sitename, host, names):
    """meta_strip_site_suffix without the forum boilerplate."""
    title = meta_clean(title)
    if names:
        # "Site: Title", "Site › Title": a name of `names` (the site's, from the page's own h1s)
        # before a colon or a "›", which meta_title_split does not take for separators there
        for sep in (":", "›"):
            k = title.find(sep)
            if k > 0 and len(title) - k > 4 and meta_key(title[:k]) in names:
                title = title[k + 1:].strip()
                break
    parts = meta_title_split(title)
    if len(parts) < 2:
        return title
    while names and len(parts) > 1 and meta_key(parts[-1]) in names:
        title = _meta_strip_trailing_sep(title[:title.rfind(parts[-1])])
        parts = parts[:-1]
    if len(parts) < 2:
        return title
    keys = _meta_site_keys(sitename, host) | names if names else _meta_site_keys(sitename, host)
    if _meta_is_site(parts[-1], keys, host):
        rest = title[:title.rfind(parts[-1])]
        return _meta_strip_trailing_sep(rest)
    if _meta_is_site(parts[0], keys, host):
        return meta_clean(title[len(parts[0]):]).lstrip("|-–—·•:»/ ").strip()
    last = parts[-1]
    if _META_CJK.search(title) is not None:
        # a CJK title ("标题_栏目_网站"): its trailing parts of at most 16 characters after a
        # headline of at least 6 are the section's and the site's names, dropped one by one
        while len(parts) > 1 and len(parts[0]) >= 6 and len(parts[-1]) <= 16 \
                and len(title) - len(parts[-1]) > len(parts[-1]):
            title = _meta_strip_trailing_sep(title[:title.rfind(parts[-1])])
            parts = parts[:-1]
        return title
    if len(last.split()) <= 4 and len(title) - len(last) > len(last) and len(parts[0].split()) >= 3:
        return _meta_strip_trailing_sep(title[:title.rfind(last)])
    return title


cdef bint _meta_is_site(str p, keys, host):
    """A part of a title names the site: its key is one of `keys` (or holds one of at least 4
    characters, with at most 12 more), or, with a host, its initials are one ("Occupational
    Safety and Health Administration" on osha.gov)."""
    cdef str k = meta_key(p)
    if host and _meta_initials(p) in keys:
        return True
    if not k:
        return False
    for s in keys:
        if k == s or (len(s) >= 4 and (s in k and len(k) <= len(s) + 12)):
            return True
    return False


_META_MINOR_WORDS = frozenset(("of", "and", "the", "for", "in", "on", "at", "to", "&", "de", "du", "des", "la", "le", "für", "und"))


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_initials(p):
    """The initials of a name's words, minor words skipped ("Occupational Safety and Health
    Administration" -> "osha"); "" for fewer than three words."""
    w = p.split()
    if len(w) < 3:              # (fewer still without the minor words)
        return ""
    w = [x for x in w if x.casefold() not in _META_MINOR_WORDS]
    return "".join(x[0] for x in w).casefold() if len(w) >= 3 else ""


cdef str _meta_strip_trailing_sep(str s):
    """`s` without the separator that ends it (and the whitespace around), stripped: what
    re.sub(r"\s*(?:\||-|–|—|·|•|::|»|/|:)\s*$", "", s).strip() gives (the expression tried
    a match at every position: ten times the cost); "::" is removed whole, as the expression's
    alternation did. The last code point compared in C (not an endswith per separator)."""
    cdef str t = s.rstrip()
    cdef Py_ssize_t n = len(t)
    cdef Py_UCS4 c
    if n == 0:
        return s.strip()
    c = t[n - 1]
    if c == 58:                 # ":" or "::"
        return t[:n - 2 if n >= 2 and t[n - 2] == 58 else n - 1].strip()
    if c == 124 or c == 45 or c == 0x2013 or c == 0x2014 or c == 0xB7 or c == 0x2022 or c == 0xBB or c == 47:
        return t[:n - 1].strip()
    if _mu_cjk_sep(c):          # "标题__" of "标题__公报": the unspaced run meta_title_split cut at
        while n > 0 and _mu_cjk_sep(t[n - 1]):
            n -= 1
        return t[:n].strip()
    return s.strip()




# ---------------------------------------------------------------- JSON-LD

_META_ARTICLE_TYPES = {"article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
                  "opinionnewsarticle", "scholarlyarticle", "techarticle", "report", "socialmediaposting",
                  "discussionforumposting", "liveblogposting", "backgroundnewsarticle", "review",
                  "medicalwebpage", "howto", "recipe", "qapage", "question", "product", "event",
                  "videoobject", "podcastepisode", "course", "jobposting", "creativework", "book",
                  "webpage", "aboutpage", "faqpage", "collectionpage", "itempage", "profilepage",
                  "searchresultspage", "contactpage", "realestatelisting"}
_META_PAGE_TYPES = {"webpage", "aboutpage", "faqpage", "collectionpage", "itempage", "profilepage",
               "searchresultspage", "contactpage", "medicalwebpage", "qapage", "checkoutpage"}
# the main entity of a shop's or a catalogue's page: its datePublished is the day the listing went
# up (a Shopify product's creation), which the page does not show as its date (on wcxb-dev the
# gold of these pages has no date: 11 of 11)
_META_LISTING_TYPES = frozenset(("product", "course"))
# the types of a story, whose date is the page's even when a listing (a Product under review)
# comes first in the page's JSON-LD
_META_STORY_TYPES = frozenset(("article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
                               "opinionnewsarticle", "backgroundnewsarticle", "scholarlyarticle", "techarticle",
                               "review", "liveblogposting", "socialmediaposting", "discussionforumposting"))
_META_ORG_TYPES = {"organization", "newsmediaorganization", "corporation", "localbusiness", "website",
              "educationalorganization", "governmentorganization", "ngo", "onlinestore", "store"}


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_types(o):
    t = o.get("@type")
    if isinstance(t, str):
        return [t.rsplit("/", 1)[-1].lower()]
    if isinstance(t, list):
        return [x.rsplit("/", 1)[-1].lower() for x in t if isinstance(x, str)]
    return []


_META_JSON_LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)
_META_JSON_TRAILING_COMMA = re.compile(r",\s*([}\]])")


# one decoder for every script: json.loads(t, strict=False) builds a JSONDecoder per call; its
# scanner (C) is called directly, as JSONDecoder.decode does (two Python frames fewer per script)
_META_JSON_DECODER = _meta_json.JSONDecoder(strict=False)
_META_JSON_SCAN = _META_JSON_DECODER.scan_once


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_json_loads(str t):
    """json.loads(t, strict=False) (raw control characters allowed in strings): the value
    between JSON whitespace, ValueError when there is none or more follows."""
    cdef Py_ssize_t i = 0, n = len(t), end
    if t.startswith("\ufeff"):
        raise ValueError("Unexpected UTF-8 BOM")          # as json.loads
    while i < n and t[i] in " \t\n\r":
        i += 1
    try:
        obj, end = _META_JSON_SCAN(t, i)
    except StopIteration:
        raise ValueError("Expecting value") from None
    while end < n and t[end] in " \t\n\r":
        end += 1
    if end != n:
        raise ValueError("Extra data")
    return obj


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_ld_objects(texts):
    """Every JSON object of the page's JSON-LD scripts, @graph and arrays flattened (iterative).
    Malformed JSON is tolerated: comments, trailing commas and raw control characters are repaired
    first; a script that still does not parse is skipped."""
    out = []
    for t in texts:
        t = t.strip()
        if not t:
            continue
        if t.startswith("<!--"):
            t = t[4:]
        if t.endswith("-->"):
            t = t[:-3]
        try:
            data = _meta_json_loads(t)
        except RecursionError:      # nested past Python's limit: not metadata
            continue
        except ValueError:
            fixed = _META_JSON_TRAILING_COMMA.sub(r"\1", _META_JSON_LINE_COMMENT.sub("", t))
            try:
                data = _meta_json_loads(fixed)
            except (ValueError, RecursionError):
                continue
        stack = [data]
        seen = 0
        while stack and seen < 2000:
            x = stack.pop()
            seen += 1
            if isinstance(x, list):
                stack.extend(reversed(x))
            elif isinstance(x, dict):
                out.append(x)
                g = x.get("@graph")
                if isinstance(g, (list, dict)):
                    stack.append(g)
                me = x.get("mainEntity")
                if isinstance(me, dict):
                    stack.append(me)
    return out


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_ld_names(v, persons_only = False, ld = None):
    """Names in a JSON-LD author/creator value: a string, a {name} object (Person), a list.  An
    object that only refers to another by its "@id" (Yoast's and Rank Math's @graph: "author":
    {"@id": ".../#/schema/person/..."}) is read as the object of the page's JSON-LD `ld` that
    has that @id."""
    out = []
    items = v if isinstance(v, list) else [v]
    cdef dict ids = None
    for it in items[:20]:
        if isinstance(it, str):
            out.append(it)
        elif isinstance(it, dict):
            if ld and "name" not in it and "givenName" not in it and isinstance(it.get("@id"), str) and it["@id"]:
                if ids is None:
                    ids = {o["@id"]: o for o in ld if isinstance(o.get("@id"), str) and o.get("@id")}
                it = ids.get(it["@id"], it)
            if persons_only and any(t in _META_ORG_TYPES for t in _meta_types(it)):
                continue
            n = it.get("name")
            if isinstance(n, list):
                n = n[0] if n and isinstance(n[0], str) else None
            if isinstance(n, dict):
                n = n.get("@value")
            if isinstance(n, str):
                out.append(n)
            elif isinstance(it.get("givenName"), str):
                out.append(f"{it.get('givenName')} {it.get('familyName') or ''}")
    return out


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_ld_str(v):
    if isinstance(v, list):
        v = next((x for x in v if isinstance(x, (str, dict))), None)
    if isinstance(v, dict):
        v = v.get("url") or v.get("@id") or v.get("name") or v.get("@value")
    return meta_clean(v) if isinstance(v, str) else ""


# ---------------------------------------------------------------- authors

_META_BY = re.compile(r"^\s*(?:(?:(?:written|posted|reviewed|edited|story|text|words|reporting|reported|published)\s+)?"
                      r"by\s*[:\-]?\s+|authors?\s*:\s*)", re.I)
_META_NOT_NAME = re.compile(r"https?:|www\.|@|\d{3,}|©|\b(?:admin|administrator|staff|team|editor|editors|"
                       r"desk|guest|unknown|anonymous|contributor|contributors|redaktion)\b", re.I)
# a handle or an e-mail address beside a name, in brackets
_META_CONTACT = re.compile(r"\s*[(<\[][^()<>\[\]]*@[^()<>\[\]]*[)>\]]")
# the dash between a name and what follows it
_META_DASH_ROLE = re.compile(r"\s+[-–—]\s+")
# the words one of which _META_NOT_NAME's words, "http" and "www." need (lower case: _meta_not_name)
_META_NOT_NAME_WORDS = ("http", "www.", "@", "admin", "staff", "team", "editor", "desk", "guest", "unknown",
                        "anonymous", "contributor", "redaktion")
_META_STAMP_TAIL = re.compile(r"\s*(?:[|•·,–—-]\s*)?\b(?:posted|published|updated|last updated)\b.*$", re.I)
_META_TAIL_START = re.compile(rf"(?:[|•·,–—-]\s*)?\b(?:(?:posted|published|updated|last updated|on)\b|"
                         rf"({_META_WORD_RE})\.?\s+\d|\d{{1,2}}\s+({_META_WORD_RE})\b|\d{{1,4}}[/.-]\d)")     # on lower case


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_cut_date_tail(s):
    """`s` up to the date that ends it: "Jane Doe, March 3, 2025" -> "Jane Doe" (the leftmost
    start of "posted/on ...", a month name and a number, or a numeric date)."""
    low = s.lower()
    if len(low) != len(s):
        return s
    pos = 0
    while True:
        m = _META_TAIL_START.search(low, pos)
        if m is None:
            return s
        w = m[1] or m[2]
        if w is None or w in META_MONTHS:
            return s[:m.start()].rstrip()
        pos = m.start() + 1


cdef inline bint _mu_wordchar(Py_UCS4 c) noexcept nogil:
    """re's \\w for str patterns: alphanumeric (Py_UNICODE_ISALNUM) or "_"."""
    return c == 95 or Py_UNICODE_ISALNUM(c)


cdef bint _meta_has_decimal(str s):
    """re's \\d finds a code point of s (a Unicode decimal digit)."""
    cdef _MetaU u = _mu_of(s)
    cdef Py_ssize_t i
    for i in range(u.n):
        if _mu_dec(&u, i) >= 0:
            return True
    return False


cdef bint _meta_has_alpha(str s):
    """A code point of s is a letter (str.isalpha of one of its characters)."""
    cdef _MetaU u = _mu_of(s)
    cdef Py_ssize_t i
    for i in range(u.n):
        if Py_UNICODE_ISALPHA(_mu_at(&u, i)):
            return True
    return False


cdef inline Py_ssize_t _meta_name_sep(const _MetaU *u, Py_ssize_t i) noexcept nogil:
    """The length of the name separator at i (0 for none): one of ; & + , 、 ， / | ⋅ •, or one
    of the words and, AND, And, und, et, y standing alone (re's \\b on both sides)."""
    cdef Py_UCS4 c = _mu_at(u, i), c1, c2
    cdef Py_ssize_t m = 0
    if c == 59 or c == 38 or c == 43 or c == 44 or c == 0x3001 or c == 0xFF0C or c == 47 or c == 124 \
            or c == 0x22C5 or c == 0x2022:
        return 1
    if i > 0 and _mu_wordchar(_mu_at(u, i - 1)):
        return 0
    c1 = _mu_at(u, i + 1)
    c2 = _mu_at(u, i + 2)
    if c == 121:                                        # y
        m = 1
    elif c == 101 and c1 == 116:                        # et
        m = 2
    elif (c == 97 or c == 117) and c1 == 110 and c2 == 100:     # and, und
        m = 3
    elif c == 65 and ((c1 == 78 and c2 == 68) or (c1 == 110 and c2 == 100)):     # AND, And
        m = 3
    if m and _mu_wordchar(_mu_at(u, i + m)):
        return 0
    return m


cdef list _meta_name_split(str s):
    """The parts of a byline between its name separators (_meta_name_sep), empty ones kept:
    re.split(r"[;&+,、，/|⋅•]|\\b(?:and|AND|And|und|et|y)\\b", s), in one pass in C."""
    cdef _MetaU u = _mu_of(s)
    cdef Py_ssize_t i = 0, last = 0, m
    cdef list out = []
    while i < u.n:
        m = _meta_name_sep(&u, i)
        if m:
            out.append(s[last:i])
            i += m
            last = i
        else:
            i += 1
    out.append(s[last:])
    return out


cdef bint _meta_not_name(str p):
    """_META_NOT_NAME finds something in p (a URL, an e-mail address, a number of three digits
    or more, ©, a word such as admin, staff or editor): an ASCII p without a digit that holds
    none of _META_NOT_NAME_WORDS (case ignored) cannot match; other text is searched."""
    if p.isascii() and not _meta_has_decimal(p) and _meta_lacks(p, _META_NOT_NAME_WORDS):
        return False
    return _META_NOT_NAME.search(p) is not None


# author values that stand for no one: an unfilled template variable, a CMS account ("webmaster")
_META_PLACEHOLDER = frozenset(("undefined", "null", "none", "na", "webmaster"))
_META_CREDENTIAL = {"md", "phd", "rd", "ms", "mba", "ma", "bs", "ba", "rn", "jr", "sr", "cpa", "lpc", "msc",
               "dr", "prof", "mr", "mrs", "ms.", "ldn", "cde", "fand", "cscs", "np", "pa", "do", "dds"}


# the <meta> names whose value is one author written surname first ("Doe, Jane", "Doe, J. A."):
# Google Scholar's citation_author, Dublin Core's creator and contributor
_META_SURNAME_FIRST = ("citation_author", "dc.creator", "dc.contributor", "dcterms.creator", "dcterms.contributor")
_META_SURNAME_COMMA = re.compile(r"^\s*([^\W\d_][\w'’\-]*(?:\s+[^\W\d_][\w'’\-]*){0,2}),\s*"
                                 r"([^\W\d_][\w.'’\-]*(?:\s+[^\W\d_][\w.'’\-]*){0,2})\s*$")


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_surname_first(x):
    """One author's name written surname first, "Doe, Jane" -> "Jane Doe" (a value with one comma
    between a surname and given names of at most three words each); `x` otherwise ("Jane Doe",
    "Doe, Jane; Roe, John")."""
    m = _META_SURNAME_COMMA.match(x)
    return f"{m[2]} {m[1]}" if m is not None else x


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_split_names(s):
    """Author names in a byline value: "By A, B and C" -> [A, B, C]; job titles, dates, URLs and
    role words rejected; credentials ("MS, RD") kept with the preceding name."""
    s = meta_clean(s)
    if not s:
        return []
    # (each expression is tried only on a text that may hold what it needs: _meta_lacks)
    if not _meta_lacks(s, ("by",)):
        s = _META_BY.sub("", s)
    if _meta_has_decimal(s):
        s = _meta_cut_date_tail(s)              # "Jane Doe, March 3, 2025" (dates have digits)
    elif ("p" in s or "P" in s) and not _meta_lacks(s, ("posted", "published", "updated")):
        # (every word of the expression holds a "p", which no other letter folds to)
        s = _META_STAMP_TAIL.sub("", s)         # "Jane Doe | Updated"
    if ":" in s or "：" in s:
        s = _META_AUTHOR_LABEL.sub("", s)
    if "@" in s:
        s = _META_CONTACT.sub("", s)            # "Jane Doe (@janedoe)", "Jane Doe <jane@example.com>"
    if " - " in s or " – " in s or " — " in s:
        m = _META_DASH_ROLE.search(s)
        if m is not None and _META_ROLE.search(s[m.end():].lower()):
            s = s[:m.start()]                   # "Jane Doe - Staff Writer": the role after a dash
    names = []
    for p in _meta_name_split(s):
        p = p.strip(" .:-–—|\"'()[]")
        if not p:
            continue
        if names and meta_key(p) in _META_CREDENTIAL:
            names[-1] = f"{names[-1]}, {p}"
            continue
        if _meta_not_name(p) or len(p) > 60 or len(p.split()) > 5:
            continue
        if not _meta_has_alpha(p):
            continue
        if meta_key(p) in _META_PLACEHOLDER:     # "undefined", "Webmaster": a template's or CMS's stand-in
            continue
        names.append(p)
    return names


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_join_names(names):
    """At most 8 of the names, joined by "; ": each once (by meta_key), none empty or a Chinese
    non-name (_META_ZH_NOT_NAME); None for none."""
    out = _meta_unique(names, meta_key, _META_NAME_DROP)
    return "; ".join(out[:8]) if out else None


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_name_like(s):
    """A byline's text is a person's name: 1-4 words, each starting upper-case (or CJK)."""
    w = s.split()
    if not (1 <= len(w) <= 5):
        return False
    caps = sum(1 for x in w if x[:1].isupper() or "\u4e00" <= x[:1] <= "\u9fff")
    return caps >= max(1, len(w) - 1)


# Chinese bylines and datelines
# a name is a whole run (no CJK or word character after it) and not a label (no colon after it:
# "作者：张三 时间：2019-10-31", "作者：</li><li>转载请注明：")
_META_ZH_NAME = r"(?:[\u4e00-\u9fff·]{2,4}|[A-Za-z][\w.\-]{1,30})(?![\u4e00-\u9fff\w:：])"
# after "作者：" (a label and a colon) the author may be an office or a unit: up to 8 characters
# ("作者：医技药剂党支部"), still a whole run of CJK characters
_META_ZH_UNIT = r"(?:[\u4e00-\u9fff·]{2,8}|[A-Za-z][\w.\-]{1,30})(?![\u4e00-\u9fff\w:：])"
# "作者：张三", "记者 张三 李四", "（记者 张三）", "【作者】张三", "记者王小明／台北报导" (a name, then the place
# it was reported from), "文/张三", "撰文：张三"; editors (责任编辑) are not authors; the names are the
# group that matched (m.lastindex)
_META_ZH_AUTHOR = re.compile(rf"(?:作者\s*[:：]\s*({_META_ZH_UNIT}(?:[\s、，,]+{_META_ZH_UNIT}){{0,3}}))|"
                        rf"(?:(?:記者|记者|撰文|撰稿|采写)\s*[:：]\s*|(?:作者|记者|記者)\s+|[（(]\s*(?:记者|記者)\s*|"
                        rf"[【\[]\s*(?:作者|记者|記者|撰文)\s*[】\]]\s*|"
                        rf"(?:記者|记者)(?=[\u4e00-\u9fff·]{{2,4}}\s*[／/])|"
                        rf"(?:^|(?<=[\s(（【\[|丨]))文\s*[/／|丨]\s*)({_META_ZH_NAME}(?:[\s、，,]+{_META_ZH_NAME}){{0,3}})")

@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_zh_author(t):
    """_ZH_AUTHOR's match in `t`, or None: every form holds 者, 撰, 采 or 文, so a text without
    them is not searched (the pattern costs tens of microseconds on a line of Latin text)."""
    if "者" in t or "文" in t or "撰" in t or "采" in t:
        return _META_ZH_AUTHOR.search(t)
    return None


_META_CJK = re.compile(r"[\u4e00-\u9fff]")
_META_ZH_NOT_NAME = {"未知", "佚名", "匿名", "不详", "网友", "原标题", "本站", "小编", "admin", "name", "author", "unknown",
                "责任编辑", "編輯", "编辑", "记者", "通讯员", "全部", "整合", "综合", "原创", "本站原创", "转载",
                "来源", "出处", "报道", "摄影", "图片", "视频", "网络整理", "网络", "阅读", "互联网"}
# what _meta_join_names leaves out: no name, and the Chinese words that are not names
_META_NAME_DROP = frozenset(("", None)) | frozenset(_META_ZH_NOT_NAME)
_META_ZH_SOURCE = re.compile(r"(?:来源于|来源|來源|出处|稿源)\s*[:：|丨]\s*([^\s:：|丨]{2,20})")
_META_ZH_DATE = re.compile(r"(?:发布时间|發布時間|发表时间|时间|日期|发布日期|发布于|發表於)\s*[:：]?\s*([0-9年月日\-/.\s:]{8,30})")
# a publication dateline whose date has no year or a two-digit one: "发布时间：09-30", "发布时间：18-03-08",
# "Posted 09/30", "发布于 9月30日" (_meta_yearless_dateline); groups: two-digit year, month, day (numeric),
# or month, day (年月日 form)
_META_YEARLESS = re.compile(
    r"(?:发布时间|發布時間|发表时间|发布日期|发布于|發表於|发表于|published|posted)\s*(?:on)?\s*[:：]?\s*"
    r"(?:(?:(\d{2})[-/.])?(\d{1,2})[-/.](\d{1,2})|(\d{1,2})月(\d{1,2})日)(?![\d/.-])", re.I)


# ---------------------------------------------------------------- resolver

_META_DATE_META = ("article:published_time", "og:published_time", "og:article:published_time",
              "datepublished", "published_time", "publishdate", "publish-date", "publish_date",
              "pubdate", "publication_date", "date", "dc.date", "dc.date.issued", "dc.date.created",
              "dcterms.date", "dcterms.issued", "dcterms.created", "citation_publication_date",
              "citation_date", "sailthru.date", "parsely-pub-date", "article.published",
              "article_date_original", "original-publish-date", "cxenseparse:recs:publishtime",
              "og:updated_time_published", "displaydate", "release_date", "created", "datecreated",
              "article:published", "bt:pubdate", "analyticsattributes.articledate")
_META_MOD_META = ("article:modified_time", "og:updated_time", "datemodified", "modified_time", "dc.date.modified",
             "dcterms.modified", "last-modified", "lastmod", "article:modified", "dateupdated", "updated",
             "dateupdate")
_META_AUTHOR_META = ("author", "article:author", "parsely-author", "sailthru.author", "dc.creator",
                "dcterms.creator", "citation_author", "byl", "og:article:author", "book:author",
                "cxenseparse:author", "article.author", "authors", "creator", "twitter:data1")
_META_SITE_META = ("og:site_name", "application-name", "apple-mobile-web-app-title", "twitter:site",
              "al:ios:app_name", "publisher", "dc.publisher")
_META_TAG_META = ("article:tag", "keywords", "news_keywords", "parsely-tags", "sailthru.tags", "og:article:tag",
             "book:tag", "video:tag")
_META_CAT_META = ("article:section", "parsely-section", "og:article:section", "category", "section",
             "dc.subject", "sailthru.section")

# <meta> name -> [(field group, rank)]: a page's <meta> names are sorted into the groups above in
# one pass over them (a page has ~20; the groups list ~80 names)
_META_META_GROUPS = {}
for _meta_g, _meta_names in (("date", _META_DATE_META), ("mod", _META_MOD_META), ("author", _META_AUTHOR_META), ("site", _META_SITE_META),
                   ("tag", _META_TAG_META), ("cat", _META_CAT_META)):
    for _meta_i, _meta_k in enumerate(_meta_names):
        _META_META_GROUPS.setdefault(_meta_k, []).append((_meta_g, _meta_i))


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_meta_groups(metas):
    """The page's <meta> names of each field group, in the group's order of trust."""
    found = {}
    for k in metas:
        gs = _META_META_GROUPS.get(k)
        if gs is not None:
            for g, i in gs:
                v = found.get(g)
                if v is None:
                    found[g] = [(i, k)]
                else:
                    v.append((i, k))
    for g, v in found.items():
        if len(v) > 1:
            v.sort()
        found[g] = [k for _, k in v]
    return found


@cython.wraparound(True)
@cython.boundscheck(True)
def meta_resolve(doc, url, cls, page_type=None):
    """Metadata of a parsed page (a :class:`fastx.Doc`), filled into a new `cls()` (fastx.metadata.Metadata:
    extract_metadata); `url` defaults to ``doc.url``; `page_type`, when given, is called (at most
    once, only when the title's choice or a visible byline depends on it) for the page's type
    (_META_SLOGAN_TYPES, _META_UNSIGNED_TYPES)."""
    url = url or doc.url
    if page_type is not None:
        page_type = _meta_once(page_type)
    # a page the extraction has already typed (doc.cache holds its page-type probabilities, so
    # asking costs nothing) as one of _META_UNSIGNED_TYPES skips the search for a byline and
    # for a dateline, whose answers such a page drops: the same metadata, with the scan's
    # window read for its microdata only and no second pass (meta_scan_hints). An untyped page
    # is typed only where a byline or dateline is found
    cdef bint typed_unsigned = page_type is not None and "page_type" in doc.cache and _meta_unsigned(page_type)
    metas, meta_multi, recs = meta_scan(doc, not typed_unsigned)
    md = cls()
    src = md.source
    ld_texts = []
    items = {}
    times = []
    h1s = []
    h2s = []                    # recorded only when no h1 holds text
    home = set()                # the keys of the h1s that link to the site's home page
    hints = []                  # the hints up to _META_NEAR past the h1; all_hints() has the rest
    hints_later = None
    texts = []
    years = []
    item_author = {}
    canonical = base = lang = None
    link_author = None
    for kind, key, val, order in recs:
        if kind == 2:
            ld_texts.append(val)
        elif kind == 4:
            k = key.strip().lower()
            items.setdefault(k, []).append((val, order))           # raw: cleaned where used
            if k == "author" and "author" not in item_author:
                item_author["author"] = val
        elif kind == 1:
            k = key.lower()
            if "canonical" in k and canonical is None:
                canonical = val.strip()
            elif "author" in k and link_author is None and not val.startswith(("http", "/", "mailto"))\
                    and _META_HREF_PATH.search(val) is None:   # "../about.html" is a page, not a name
                link_author = val
        elif kind == 5:
            times.append((key, val, order))
        elif kind == 6:
            t = meta_clean(val)
            if t:
                h1s.append((t, order))
                if key:                 # a link to the site's home page: the site's name
                    home.add(meta_key(t))
        elif kind == 12:
            t = meta_clean(val)
            if t:
                h2s.append((t, order))
        elif kind == 7:
            hints.append((key, val, order))
        elif kind == 8:
            texts.append((key, val, order))
        elif kind == 3:
            lang = val.strip()
        elif kind == 9:
            base = val.strip()
        elif kind == 10:
            years.append((key, val, order))
        elif kind == 11:
            hints_later = order

    def all_hints():
        """The hints of the whole window: those past _META_NEAR elements after the h1 read now."""
        nonlocal hints_later
        if hints_later is not None:
            for _, key, val, order in meta_scan_hints(doc, hints_later):
                hints.append((key, val, order))
            hints_later = None
        return hints

    def later_hints():
        """The hints past _META_NEAR are still unread, and every one of them is more than
        _META_SHOWN_NEAR elements past the headline (h1s[0]): a reader of the nearest hints may
        load them (all_hints) only when it reaches that distance (_meta_nearest)."""
        return hints_later is not None and hints_later[1] - (h1s[0][1] if h1s else 0) > _META_SHOWN_NEAR

    if "script:ld+json" in metas:
        # JSON-LD a framework wrote into <meta name="script:ld+json" content="{...}"> (Remix's
        # meta export) in place of a <script type="application/ld+json">
        ld_texts.append(metas["script:ld+json"])
    ld = _meta_ld_objects(ld_texts) if ld_texts else []
    # the page's main JSON-LD entity: an article-like type first, else a WebPage, in page order
    main = None
    main_types = ()
    page_obj = None
    ld_types = []                   # each object's types, read once
    for o in ld:
        ts = _meta_types(o)
        ld_types.append(ts)
        if main is None and any(t in _META_ARTICLE_TYPES and t not in _META_PAGE_TYPES for t in ts):
            main = o
            main_types = ts
        if page_obj is None and any(t in _META_PAGE_TYPES for t in ts):
            page_obj = o
    host = _meta_host(url) or _meta_host(canonical)

    def set_(name, value, source):
        cur = getattr(md, name)
        if value and (cur is None or (type(cur) is list and not cur)):       # unset: None or []
            setattr(md, name, value)
            src[name] = source
            return True
        return False

    # ---- site name (needed to strip the title's suffix)
    for o, ts in zip(ld, ld_types):
        if "website" in ts and isinstance(o.get("name"), str):
            set_("sitename", meta_clean(o["name"]), "json-ld")
            break
    if md.sitename is None and main is not None:
        pub = main.get("publisher")
        if isinstance(pub, list):
            pub = pub[0] if pub else None
        if isinstance(pub, dict) and isinstance(pub.get("name"), str):
            set_("sitename", meta_clean(pub["name"]), "json-ld")
    groups = _meta_meta_groups(metas)
    for k in groups.get("site", ()):
        v = metas[k]
        if v and not v.startswith("http") and not (k == "twitter:site" and md.sitename):
            if set_("sitename", meta_clean(v.lstrip("@")), "opengraph" if k.startswith("og:") else "meta"):
                break

    # ---- title
    raw_title = meta_clean(doc.title)
    md.title = _meta_resolve_title(md, main, page_obj, metas, items, h1s, raw_title, host, page_type, home)
    if md.title and ("discussionforumposting" in main_types or "question" in main_types):
        md.title = _meta_thread_subject(md.title)
    if md.title and _META_C1.search(md.title) is not None:
        md.title = _meta_unmojibake(md.title)
    if not h1s and md.title:
        # no h1 with text: the headline the bylines and datelines are looked for around is the
        # h2 that holds the page's title (a forum's topic subject below a logo h1)
        key = meta_key(md.title)
        for t, order in h2s:
            if meta_key(t) == key:
                h1s.append((t, order))
                break
    if md.sitename is None and md.title and raw_title:
        set_("sitename", _meta_title_site(raw_title, md.title, h1s), "title")
    if md.title and len(h1s) > 1:
        # the bylines and datelines are measured from the h1 that shows the title
        _meta_headline_first(h1s, meta_key(md.title))

    # ---- author
    author = None
    if main is not None:
        for k in ("author", "creator"):
            names = []
            for n in _meta_ld_names(main.get(k), persons_only=True, ld=ld):
                names.extend(_meta_split_names(n))
            author = _meta_join_names(names)
            if author:
                set_("author", author, "json-ld")
                break
    if md.author is None:
        holder = meta_key(metas.get("copyright") or metas.get("dc.rights") or "")
        for k in groups.get("author", ()):
            vals = meta_multi.get(k) or [metas[k]]
            if not vals:
                continue
            if k == "twitter:data1" and "author" not in metas.get("twitter:label1", "").lower()\
                    and "written" not in metas.get("twitter:label1", "").lower():
                continue
            names = []
            for x in vals:
                if x.startswith("http"):
                    x = _meta_author_from_url(x)
                elif k.startswith(_META_SURNAME_FIRST):
                    x = _meta_surname_first(x)
                names.extend(_meta_split_names(x))
            if holder and names:
                # a name the page's copyright notice names is its publisher, a site-wide default
                # ("Redfin", "Condé Nast" of "Copyright (c) Condé Nast 2026", 网易 of
                # "网易版权所有"), not the page's writer: the byline is read instead
                names = [x for x in names if not _meta_in_notice(meta_key(x), holder)]
            if set_("author", _meta_join_names(names), "meta"):
                break
    if md.author is None and item_author:      # the first: on forums the original poster
        # (not on a product, collection, listing or service page: a review's or a listed item's)
        item = _meta_join_names(_meta_byline_names(item_author["author"], True))
        if item is not None and _meta_unsigned(page_type):
            item = None
        set_("author", item, "microdata")
    if md.author is None and not typed_unsigned:
        # the hints past _META_NEAR read only when the nearer candidates give no name (lazy: a
        # second pass over the window otherwise); eagerly when they could fall within
        # _META_SHOWN_NEAR of the h1 the date check below reads `hints` around
        if later_hints():
            byline = _meta_byline_author(hints, texts, link_author, h1s, md, all_hints, hints_later[1])
        else:
            byline = _meta_byline_author(all_hints(), texts, link_author, h1s, md)
        # a product, collection, listing or service page has no byline: the names by its headline
        # are a review's, a brand's, a filter menu's or a listed post's (the page type asked only
        # when the page shows one)
        if byline is not None and _meta_unsigned(page_type):
            byline = None
        set_("author", byline, "byline")
    if md.author is not None and "; " in md.author:
        # several authors: one that is the site (og:site_name or the host's name, a leading "The"
        # ignored) is its publisher beside the writers ("Jane Doe; John Roe; The Daily Paper")
        md.author = _meta_drop_site_names(md.author, _meta_site_keys(md.sitename, host) | _META_NOT_COAUTHOR)

    # ---- dates: the metadata's published and modified dates, then what the page shows
    dayfirst = _meta_dayfirst(lang or metas.get("og:locale") or metas.get("content-language"))
    # a page whose main entity is a listing (and that holds no story: a review's Product is not
    # its main entity) has no publication date: none is read for it
    dated = not any(t in _META_LISTING_TYPES for t in main_types) or\
        any(t in _META_STORY_TYPES for ts in ld_types for t in ts)
    if dated:
        _meta_resolve_published(md, set_, main, page_obj, metas, groups, items, times, hints, texts, years,
                                h1s, all_hints, later_hints, hints_later, dayfirst, page_type, typed_unsigned)
    if main is not None:
        set_("date_modified", meta_parse_date(_meta_ld_str(main.get("dateModified"))), "json-ld")
    if md.date_modified is None:
        if page_obj is not None:
            set_("date_modified", meta_parse_date(_meta_ld_str(page_obj.get("dateModified"))), "json-ld")
        for k in groups.get("mod", ()):
            if set_("date_modified", meta_parse_date(metas[k]), "meta"):
                break
    if md.date_modified is None:
        for v, _ in items.get("datemodified", [])[:2]:
            if set_("date_modified", meta_parse_date(v), "microdata"):
                break
    if md.date_modified is None:
        # other <meta> names that say what they hold ("post:updated_time")
        for k, v in metas.items():
            if ("date" in k or "time" in k or "publish" in k) and ("modif" in k or "updated" in k):
                set_("date_modified", meta_parse_date(v), "meta")
    if dated and md.date is None and md.date_modified is not None and len(md.date_modified) == 10 and \
            _meta_yearless_dateline(texts, hints, h1s[0][1] if h1s else 0, md.date_modified) and \
            not _meta_unsigned(page_type):
        # a dateline that shows the publication day without its year ("发布时间：09-30", "18-03-08":
        # Baidu's Baijiahao, and other platforms that print the year only for earlier years)
        # on the day of the metadata's modified date: the page was published that day
        md.date, src["date"] = md.date_modified, "byline"
    url_day = meta_url_date(url) or meta_url_date(canonical)
    if md.date is not None and url_day is not None and md.date != url_day and len(md.date) == 10:
        # a day in the URL path (/2025/12/18/) is the publication day as the site's CMS saw it,
        # in the site's time zone: a metadata or dateline date one day off it is the same moment
        # in another zone (UTC), and one with the URL's month and day swapped was read the
        # wrong way round (03/10/2023 on a day-first site)
        d0, d1 = _pydate.fromisoformat(md.date), _pydate.fromisoformat(url_day)
        if abs((d0 - d1).days) == 1 or (d0.year == d1.year and d0.month == d1.day and d0.day == d1.month):
            md.date, src["date"] = url_day, "url"
    if dated and md.date is None:
        set_("date", url_day, "url")

    # ---- language
    if lang:
        set_("language", _meta_bcp47(lang), "html")
    if md.language is None:
        for k, s in (("og:locale", "opengraph"), ("content-language", "meta"), ("language", "meta"),
                     ("dc.language", "meta")):
            if k in metas and set_("language", _meta_bcp47(metas[k].split(",")[0]), s):
                break
    if md.language is None and main is not None:
        set_("language", _meta_bcp47(_meta_ld_str(main.get("inLanguage"))), "json-ld")

    # ---- canonical URL, image, description
    ref = base or url
    if canonical:
        set_("url", _meta_abs(canonical, ref), "link")
    if md.url is None and "og:url" in metas:
        set_("url", _meta_abs(metas["og:url"], ref), "opengraph")
    if md.url is None and main is not None:
        set_("url", _meta_abs(_meta_ld_str(main.get("url")), ref), "json-ld")
    for k, s in (("og:image", "opengraph"), ("og:image:url", "opengraph"), ("og:image:secure_url", "opengraph"),
                 ("twitter:image", "twitter"), ("twitter:image:src", "twitter"), ("thumbnail", "meta")):
        if k in metas and set_("image", _meta_abs(metas[k], ref), s):
            break
    if md.image is None and main is not None:
        set_("image", _meta_abs(_meta_ld_str(main.get("image")) or _meta_ld_str(main.get("thumbnailUrl")), ref), "json-ld")
    if md.image is None and "image" in items:
        set_("image", _meta_abs(items["image"][0][0], ref), "microdata")
    if doc.description:
        set_("description", meta_clean(doc.description), "meta")
    for k, s in (("og:description", "opengraph"), ("twitter:description", "twitter"),
                 ("dc.description", "meta")):
        if k in metas and set_("description", meta_clean(metas[k]), s):
            break
    if md.description is None and main is not None:
        set_("description", _meta_ld_str(main.get("description")), "json-ld")

    # ---- tags, categories, type
    tags = []
    if main is not None:
        kw = main.get("keywords")
        if isinstance(kw, str):
            tags = [t for t in (x.strip() for x in kw.split(",")) if t]
        elif isinstance(kw, list):
            tags = [meta_clean(x) for x in kw if isinstance(x, str) and x.strip()]
        if set_("tags", _meta_dedupe(tags)[:50], "json-ld"):
            pass
    if not md.tags:
        for k in groups.get("tag", ()):
            vals = meta_multi.get(k) or [metas[k]]
            if vals:
                ts = [t.strip() for x in vals for t in (x.split(",") if len(vals) == 1 else [x]) if t.strip()]
                if set_("tags", _meta_dedupe(ts)[:50], "opengraph" if k.startswith(("article:", "og:")) else "meta"):
                    break
    cats = []
    if main is not None:
        sec = main.get("articleSection")
        if isinstance(sec, str):
            cats = [meta_clean(sec)]
        elif isinstance(sec, list):
            cats = [meta_clean(x) for x in sec if isinstance(x, str)]
        set_("categories", _meta_dedupe([c for c in cats if c])[:20], "json-ld")
    if not md.categories:
        for k in groups.get("cat", ()):
            vals = meta_multi.get(k) or [metas[k]]
            if vals and set_("categories", _meta_dedupe([meta_clean(x) for x in vals if x.strip()])[:20],
                          "opengraph" if k.startswith(("article:", "og:")) else "meta"):
                break
    if main is not None:
        mt = main.get("@type")
        set_("type", next((t for t in (mt if isinstance(mt, list) else [mt]) if isinstance(t, str)), None), "json-ld")
    if md.type is None and "og:type" in metas:
        set_("type", metas["og:type"], "opengraph")
    if md.type is None and page_obj is not None:
        set_("type", _meta_ld_str(page_obj.get("@type")), "json-ld")
    return md


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_dedupe(xs):
    """The strings xs in order, each once regardless of case."""
    return _meta_unique(xs, str.casefold, ())


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_unique(xs, key, drop):
    """xs in order, without an x whose key(x) came before or is in `drop`."""
    seen, out = set(drop), []
    for x in xs:
        k = key(x)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_abs(u, ref):
    if not u:
        return None
    u = u.strip()
    if u.lower().startswith(("javascript:", "data:", "vbscript:")):
        return None
    if ref and not u.startswith(("http://", "https://")):
        try:
            return _meta_urljoin(ref, u)
        except ValueError:
            return u
    return u


def _meta_dayfirst(tag):
    """Whether a page in language `tag` (its markup's, e.g. "de-DE", "en_US": _meta_bcp47) writes
    numeric dates day first (06.01.2008, 06/01/2008: 6 January): every language but English
    does (and the CJK languages write the year first, which meta_parse_date reads
    unambiguously); an English, untagged or unreadably tagged page is read month first, as its
    ambiguous dates are on the web."""
    t = _meta_bcp47(tag)
    return t is not None and t[2:3] in ("", "-") and not t.startswith("en")


# the first parts of character encodings' names, none a language code (ISO 639)
_META_CHARSET_SUBTAGS = frozenset(("utf", "ucs", "iso", "euc", "us"))
_META_BCP47 = re.compile(r"([A-Za-z]{2,3})(?:-([A-Za-z]{4}))?(?:-([A-Za-z]{2}|\d{3}))?(?:-[A-Za-z0-9]{1,8})*")


@cython.wraparound(True)
@cython.boundscheck(True)
@_meta_functools.lru_cache(maxsize=1024)
def _meta_bcp47(s):
    """A language tag as BCP 47: "en_US" -> "en-US", "EN" -> "en"; junk -> None, and so is a
    character encoding written where the language belongs (content-language "utf-8",
    "ISO-8859-1", "EUC-KR", "us-ascii": _META_CHARSET_SUBTAGS) (each value worked out once: the
    tags pages give are few)."""
    if not s:
        return None
    s = s.strip().replace("_", "-")
    m = _META_BCP47.fullmatch(s)
    if not m or m[1].lower() in _META_CHARSET_SUBTAGS:
        return None
    out = m[1].lower()
    if m[2]:
        out += "-" + m[2].title()
    if m[3]:
        out += "-" + m[3].upper()
    return out


_META_DASHES = re.compile(r"[-_]+")
# a <link rel=author> value that is a path or a file: a page about the authors, no name
_META_HREF_PATH = re.compile(r"/|\.(?:s?html?|php|aspx?|txt)$", re.I)


def _meta_once(f):
    """`f` called at most once: its answer kept for the calls after."""
    box = []
    def once():
        if not box:
            box.append(f())
        return box[0]
    return once


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_drop_site_names(author, keys):
    """`author` ("; "-joined names) without the names that are the site (their key, without a
    leading "the", one of `keys`; meta_resolve adds _META_NOT_COAUTHOR's agencies and weekdays),
    unless every name is."""
    parts = author.split("; ")
    keep = []
    for p in parts:
        k = meta_key(p)
        if k.startswith("the") and k[3:] in keys:
            k = k[3:]
        if k not in keys:
            keep.append(p)
    return "; ".join(keep) if keep else author


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_author_from_url(u):
    """Facebook/author-page URLs: the last path segment as a name ("/author/jane-doe/" -> "Jane Doe")."""
    path = _meta_urlsplit(u).path.rstrip("/")
    seg = path.rsplit("/", 1)[-1] if "/author" in path or "/authors" in path or "/people" in path else ""
    seg = _META_DASHES.sub(" ", seg)
    return seg.title() if seg and not any(c.isdigit() for c in seg) else ""


_META_WORDS = re.compile(r"\w+")


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_words(s):
    return set(_META_WORDS.findall(s.casefold()))


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_resolve_published(md, set_, main, page_obj, metas, groups, items, times, hints, texts, years, h1s,
                            all_hints, later_hints, hints_later, dayfirst, page_type=None, typed_unsigned=False):
    """The page's publication date into `md` (set_ sets a field that is still unset), from the
    sources in order of trust: the main JSON-LD entity's datePublished/dateCreated, the page
    object's, the <meta> date names, the first microdata date in page order, other <meta> names
    that say they hold one, other microdata dates, an embedded video's uploadDate; then the
    datelines beside the headline (checked against the metadata's date, or read when it has
    none).  meta_resolve calls it for pages that have one (not a listing's main entity).

    The datelines are not read on a page `page_type()` reads as one of _META_UNSIGNED_TYPES
    (product, collection, listing, service): the dates shown by its headline are a review's, a
    listed post's or an offer's, as its bylines are not its author (_meta_unsigned: the type
    asked only where a dateline would give the date); `typed_unsigned`: the page is known to be one
    (meta_resolve), and the datelines are not looked for."""
    src = md.source
    upload = None
    if main is not None:
        set_("date", meta_parse_date(_meta_ld_str(main.get("datePublished"))
                                     or _meta_ld_str(main.get("dateCreated"))), "json-ld")
        # a VideoObject's uploadDate is often a video embedded in the page (a forum post or an
        # article quoting a clip): the day the video went up, not the page's; it is taken
        # after the page's own <meta> and microdata published dates
        upload = meta_parse_date(_meta_ld_str(main.get("uploadDate")))
    if md.date is None and page_obj is not None:
        set_("date", meta_parse_date(_meta_ld_str(page_obj.get("datePublished"))), "json-ld")
    if md.date is None:
        for k in groups.get("date", ()):
            if set_("date", meta_parse_date(metas[k]), "opengraph" if k.startswith("og:") else "meta"):
                break
    if md.date is None:
        # the first microdata date in page order: the main item's (a forum's question, not the
        # comment under it that names its date datePublished)
        for _, v in sorted((o, v) for k in ("datepublished", "datecreated", "pubdate", "date")
                           for v, o in items.get(k, [])[:3]):
            if set_("date", meta_parse_date(v), "microdata"):
                break
    if md.date is None:
        # other <meta> names that say what they hold ("w-published-date")
        for k, v in metas.items():
            if ("date" in k or "time" in k or "publish" in k) and not ("modif" in k or "updated" in k) and (
                    "publish" in k or k.endswith((":date", "_date", "-date", ".date"))
                    and not any(w in k for w in ("expir", "valid", "event", "start", "end"))):
                set_("date", meta_parse_date(v), "meta")
    if md.date is None:
        for k, vs in items.items():
            if "date" in k and ("publish" in k or "creat" in k):
                for v, _ in vs[:2]:
                    if set_("date", meta_parse_date(v), "microdata"):
                        break
    if md.date is None:
        set_("date", upload, "json-ld")
    if typed_unsigned:
        return
    if md.date is not None:
        # the metadata's published date against the page's datelines: a date shown beside the
        # headline (within SHOWN_NEAR elements) that is earlier than the metadata's by more than
        # a time-zone shift, while the metadata's date is shown nowhere near it, is the date of
        # first publication (a CMS that migrated or republished the page stamped it anew). The
        # metadata's date shown only as an update ("Apr 26, 2023 · Updated Aug 21, 2025" where
        # the metadata says Aug 21) is the revision's, not a publication the page shows: the
        # unlabelled earlier date is then taken too, when it is not itself labelled an update.
        h1_order = h1s[0][1] if h1s else 0
        first = next(_meta_shown_dates(times, hints, texts, years, h1_order, _META_SHOWN_NEAR,
                                       dayfirst=dayfirst), None)
        if first is not None and first[0] < md.date and\
                (_pydate.fromisoformat(md.date) - _pydate.fromisoformat(first[0])).days >= 2:
            shown_as = [update for d, _, update, _ in _meta_shown_dates(times, all_hints(), texts, years, h1_order,
                                                                          dayfirst=dayfirst) if d == md.date]
            if (not shown_as or not first[2] and any(shown_as)) and not _meta_unsigned(page_type):
                md.date, src["date"] = first[0], first[1]
    else:
        shown = _meta_shown_date(times, hints, texts, years, h1s[0][1] if h1s else 0, all_hints, hints_later[1],
                                 dayfirst) if later_hints() else \
            _meta_shown_date(times, all_hints(), texts, years, h1s[0][1] if h1s else 0, dayfirst=dayfirst)
        if shown[0] is not None and not _meta_unsigned(page_type):
            set_("date", *shown)


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_resolve_title(md, main, page_obj, metas, items, h1s, raw_title, host, page_type=None, home=None):
    """The page's own headline: the visible main heading when the page's metadata confirms it.

    Candidates from the metadata, most trusted first: JSON-LD headline/name of the main
    entity, og:title, twitter:title, <meta name=title>, DC.title, microdata headline, and
    <title>; every one without its site-name part (strip_site_suffix). Then, over the
    first h1s:
    - an h1 equal to a candidate (casefold, punctuation ignored) is the title;
    - an h1 that is the site name (or a part of <title> its separator splits off) is not;
    - a candidate inside the h1 ("Title" in "Dec 18 2025 Title") is the title; so is the first
      segment of a candidate inside the h1 after a badge ("News Digital Cameras…" holding
      "Digital Cameras…" of "News - Digital Cameras… | Site"), but not one the h1 opens with:
      that h1 goes on with the rest of the headline the <title> cut ("Top 7 Kitchen Trends from
      KBIS & IBS 2025" of "Top 7 Kitchen Trends | Blog | Site") and is read by the next rule;
    - an h1 that shares at least 30% of the words of the best candidate is the title (editors
      rewrite the SEO title; the visible headline is the page's own); so is one that shares
      at least half the words of another candidate (_META_TITLE_OTHER_OVERLAP): the first
      candidate can be the wrong entity's (a JSON-LD headline of a case study on a product
      page) or a rewrite the <title> and the h1 both differ from. Neither overlap rule applies
      on a page `page_type()` reads as one of _META_SLOGAN_TYPES (a landing page's h1 is a slogan).
    Else the most trusted candidate.
    The JSON-LD name ranks after the <title> when its entity is not the page's own (a VideoObject;
    any entity but a story on a service page); a candidate that is only the site's name (but the
    og:title and the <title>) is dropped when another remains; an h1 that is the JSON-LD headline
    after a label of one or two words gives the headline; an og:title sharing no word with the
    <title> nor the h1s (a site's slogan) yields to the <title>; a <meta> candidate that the
    stripped <title> continues past a quote is that <title> (an unescaped quote cut the
    attribute's value short)."""
    site = md.sitename
    cands = []
    if main is not None:
        for k in ("headline", "name", "alternativeHeadline"):
            v = main.get(k)
            if isinstance(v, str) and meta_clean(v):
                cands.append((meta_strip_site_suffix(v, site, host), "json-ld"))
                break
    # the main entity's name when the entity is not the page's own (ranked after the <title>): a
    # VideoObject (a clip embedded in the page), or any entity but a story on a page read as a
    # service page (the company as a Product for its rating stars, an FAQ's Question, a case
    # study's CreativeWork); page_type() is asked only for such an entity
    ld_late = None
    if cands:
        ts = _meta_types(main)
        if "videoobject" in ts or (ts and page_type is not None and not any(t in _META_STORY_TYPES for t in ts)
                                   and page_type() in _META_SLOGAN_TYPES):
            ld_late = cands.pop()
    seen = set()         # og:title, twitter:title and <title> are often one text: stripped once
    for k, s in (("og:title", "opengraph"), ("twitter:title", "twitter"), ("title", "meta"),
                 ("dc.title", "meta"), ("parsely-title", "meta"), ("sailthru.title", "meta")):
        v = metas.get(k)
        if v and v not in seen and meta_clean(v):
            seen.add(v)
            cands.append((meta_strip_site_suffix(v, site, host), s))
    if "headline" in items and meta_clean(items["headline"][0][0]):
        cands.append((meta_clean(items["headline"][0][0]), "microdata"))
    stripped = meta_strip_site_suffix(raw_title, site, host) if raw_title and raw_title not in seen else ""
    if stripped:
        for i, (c, s) in enumerate(cands):
            if s != "json-ld" and len(stripped) > len(c) + 1 and stripped[len(c)] in "\"'" and stripped.startswith(c):
                # a <meta> content cut short by a quote its page left unescaped (content="A "B" C"
                # holds "A "): the <title> goes on past it ("多地项目连环爆雷 狂奔的龙湖集团" of
                # '多地项目连环爆雷 狂奔的龙湖集团"暗伤"曝露？_网易财经')
                cands[i] = (stripped, s)
        cands.append((stripped, "title"))
    if ld_late is not None:
        cands.append(ld_late)
    keys = [meta_key(c) for c, _ in cands]
    # a twitter:title, JSON-LD name, microdata headline or <meta name=title> that is only the
    # site's name (og:site_name, the host) is a site-wide default, not the page's title, when
    # another candidate remains (og:title and <title> keep it: a home page's title is its site's name)
    if len(cands) > 1 and any(s != "opengraph" and s != "title" for _, s in cands):
        sk = _meta_site_keys(site, host)
        drop = [i for i, (c, s) in enumerate(cands) if s != "opengraph" and s != "title" and keys[i] in sk]
        if drop and len(drop) < len(cands):
            cands = [c for i, c in enumerate(cands) if i not in drop]
            keys = [k for i, k in enumerate(keys) if i not in drop]
    site_keys = {meta_key(site)} if site else set()
    if raw_title:
        parts = meta_title_split(raw_title)
        if len(parts) > 1:
            site_keys.add(meta_key(parts[-1]))
    if host:
        site_keys.add(meta_key(host.removeprefix("www.")))
    if home:
        site_keys |= home           # an h1 linking to the site's home page names the site
    site_keys.discard("")
    # the leading segments of the candidates (a site or section name follows the separator)
    seg_keys = set()
    tail_keys = set()
    heads = []        # (key, text, source) of each candidate's first segment
    split_seen = set()
    for c, s in cands + [(raw_title, "title")]:
        if not c or c in split_seen:
            continue
        split_seen.add(c)
        ps = meta_title_split(c)
        seg_keys.update(meta_key(p) for p in ps[:-1])
        if len(ps) > 1:
            tail_keys.add(meta_key(ps[-1]))
            heads.append((meta_key(ps[0]), ps[0], s))
    seg_keys.discard("")
    tail_keys.discard("")
    found_site = set()
    tail_h1 = None      # an h1 skipped as the last part of a candidate that does not name the site
    best = None
    wc = None           # the words of the most trusted candidate (once, for every h1)
    wo = None           # the words of the other candidates (once, when an h1 needs them)
    cdef bint ld_prefix = bool(cands) and cands[0][1] == "json-ld" and len(keys[0]) >= 8
    for h, _ in h1s[:4]:
        kh = meta_key(h)
        if len(kh) < 3:
            continue
        if ld_prefix and kh != keys[0] and kh.endswith(keys[0]) and 0 < len(h.split()) - len(cands[0][0].split()) <= 2:
            # "Player Squad 2024 - 2025" of the JSON-LD headline "Squad 2024 - 2025": a label of a
            # word or two before the main entity's headline (a forum thread's prefix, a badge)
            md.source["title"] = "json-ld"
            return cands[0][0]
        if kh in keys:
            md.source["title"] = "h1"
            return h
        if kh in site_keys or kh in tail_keys:
            found_site.add(kh)           # an h1 naming the site ("The Rust Programming Language")
            if tail_h1 is None and kh not in site_keys:
                tail_h1 = h
            continue
        if kh in seg_keys:          # "Flexbox" of "Flexbox - Learn web development | MDN"
            md.source["title"] = "h1"
            return h
        for (c, s), kc in zip(cands, keys):
            if len(kc) >= 8 and kc in kh:
                md.source["title"] = s
                return c
        for kc, c, s in heads:        # "News Digital Cameras…" (a badge in the h1) holds "Digital Cameras…"
            if len(kc) >= 12 and kc in kh and not kh.startswith(kc):
                md.source["title"] = s
                return c
        if best is None and cands:
            if wc is None:
                wc = _meta_words(cands[0][0])
            wh = _meta_words(h)
            if not wc:
                continue
            if len(wh) >= 2:
                # at least 30% of the candidate's words, or every word of the h1 in it ("Writing &
                # Translation" of "Writing & Translation Services | Freelance Writers and Expert
                # Translators") unless the h1 names the site
                if len(wc & wh) >= _META_TITLE_OVERLAP * len(wc) or (
                        wh <= wc and kh not in _meta_site_keys(site, host)):
                    best = h
                else:
                    # half the words of another candidate: "Terminix discounts, coupons, and
                    # promo codes" of the <title> "Terminix Discounts, Coupons & Promo Codes"
                    # when the JSON-LD says "Pest Control Deals and Offers"
                    if wo is None:
                        wo = [w for w in (_meta_words(c) for c, _ in cands[1:]) if w]
                    for w in wo:
                        if len(w & wh) >= _META_TITLE_OTHER_OVERLAP * len(w):
                            best = h
                            break
            elif len(kh) >= 4 and wh <= wc and meta_key(cands[0][0]).startswith(kh):
                best = h        # a one-word h1 that opens the candidate: "Headlamps" of "Headlamps for Camping, Hiking & Running"
    if best is not None and cands and page_type is not None and page_type() in _META_SLOGAN_TYPES:
        best = None         # a landing page's h1 is its slogan, not its title
    if best is not None:
        md.source["title"] = "h1"
        return best
    if stripped and h1s and (cands[0][1] == "opengraph" or cands[0][1] == "twitter"):
        # an og:title (twitter:title) that shares no word with the <title> nor with an h1 is a
        # site-wide slogan ("Build software better, together" on "Trending repositories on GitHub
        # today · GitHub", h1 "Trending"): the <title> names the page.  Without an h1 there is no
        # second witness (a <title> that is the site's tagline beside the article's og:title)
        if wc is None:
            wc = _meta_words(cands[0][0])
        if not (wc & _meta_words(raw_title)) and not any(wc & _meta_words(h) for h, _ in h1s[:4]):
            cands = [(stripped, "title")] + cands
    if cands:
        md.source["title"] = cands[0][1]
        r = meta_strip_site_suffix(cands[0][0], site, host, found_site) if found_site else cands[0][0]
        if cands[0][1] == "title" and r != raw_title and len(meta_title_split(raw_title)) >= 3:
            # "Topic / Forum / Site" (a <title> that no og:title or JSON-LD precedes): the site
            # gone, a short section name (at most 3 words, no digit or comma) after a topic of
            # at least 3 words goes too
            parts = meta_title_split(r)
            if len(parts) >= 2 and len(parts[-1].split()) <= 3 and len(parts[0].split()) >= 3 \
                    and not any(ch.isdigit() or ch == "," for ch in parts[-1]):
                r = meta_strip_site_suffix(r)
        if meta_key(r) in _META_NAV_WORDS:
            # a navigation word alone ("Home", "About", "Shop") is not the page's headline: the h1
            # skipped as the last part of a candidate ("Products - Air Purifiers - Brand" and
            # h1 "Air Purifiers"), else the <title> whole ("Home - Ohio Artisan Collective")
            if tail_h1 is not None:
                md.source["title"] = "h1"
                return tail_h1
            if raw_title and meta_key(raw_title) not in _META_NAV_WORDS:
                md.source["title"] = "title"
                return raw_title
        return r
    if h1s:
        md.source["title"] = "h1"
        return h1s[0][0]
    return None


cdef inline bint _meta_holds_key(str kh, str key):
    """Whether a heading (comparison key `kh`) holds the title (`key`; meta_key both): the same,
    or holding it whole when it has 8 characters or more ("Title" in "Dec 18 2025 Title")."""
    return kh == key or (len(key) >= 8 and key in kh)


cdef int _meta_headline_first(list h1s, str key) except -1:
    """The page's headline first in `h1s` ((text, rank) of the first h1s with text; the first is
    where bylines and datelines are measured from): when the first h1 neither holds the title
    (`key`, its meta_key) nor is a part of it of 8 characters or more ("Title" of "Title: a
    Subtitle"), the first later h1 that holds it. The first h1 is then a site's logo, a section's
    name or a widget's ("Kid's TV" or "10°C" above a Times story's h1, "新闻中心" above Sina's),
    and the byline or date nearest to it a columnist's promo, a sidebar's or the site's date of
    the day. Added, it changed the author or the date of 24 pages of the dev corpora (none of
    wcxb-dev's, whose first h1 holds the title where a later one does), to the story's own where
    the URL, the gold text or the page tells (docs/metadata.md). A later h1 that is only a part of
    the title (a section of the story) is not taken, nor an h2 that holds it: a sidebar's list of
    recent posts repeats the title in h2s (the Facebook blog, whose headline is in no heading)."""
    cdef str k0 = meta_key(h1s[0][0])
    if _meta_holds_key(k0, key) or (len(k0) >= 8 and k0 in key):
        return 0
    cdef Py_ssize_t j
    for j in range(1, len(h1s)):
        if _meta_holds_key(meta_key(h1s[j][0]), key):
            h1s.insert(0, h1s[j])
            return 0
    return 0


def _meta_title_site(raw_title, title, h1s):
    """The site's name from a <title> of two parts whose first is the page's title: the second
    ("Kitchen Daily" of "Ten Ways to Cook Rice | Kitchen Daily"), when it is a name (at most five
    words, no digit, bracket or colon, not a navigation word); None otherwise (for a page whose
    metadata names no site).  Not the page's headline (an h1 of `h1s`): a title after the site's
    name ("Kitchen Daily - Ten Ways to Cook Rice") may resolve to the site's name itself."""
    parts = meta_title_split(raw_title)
    if len(parts) != 2 or meta_key(parts[0]) != meta_key(title):
        return None
    other = parts[1]
    key = meta_key(other)
    if len(other.split()) > 5 or any(ch.isdigit() or ch in "()[]:" for ch in other) \
            or key in _META_NAV_WORDS or any(meta_key(h) == key for h, _ in h1s[:4]):
        return None
    return other


cdef str _meta_thread_subject(str t):
    """A forum thread's subject without its prefix: "Label - Subject" (one separator) whose label is
    one or two words before a subject of three or more ("Payment issues - how to delete or change
    payment method", "2024 - Pros & Cons Of Using A Travel Agent") is the forum software's thread
    prefix or category before the subject the poster wrote; else `t`."""
    cdef list parts = meta_title_split(t)
    if len(parts) == 2 and len(parts[0].split()) <= 2 and len(parts[1].split()) >= 3:
        return parts[1]
    return t


_META_TITLE_OVERLAP = 0.3
# page types whose h1 is read as a slogan, not a title: the word-overlap rules of
# _meta_resolve_title do not pick their h1 (an h1 equal to a candidate, or holding one, still
# is the title).  A landing page's h1 says what the business does ("HR software for every
# business", "Open source project management software") and shares words with its <title>,
# which names the page ("Cloud Based HR Software | HRMS Solution"); WCXB's gold title is the
# <title>'s.  On pages read as service pages, the overlap rules chose the gold 23 times and missed
# it 36 times (wcxb-dev, both splits): without them, validation +8/-3, train +18/-13 pages; on
# every other page type they win (articles: -19/+9 on validation without them)
_META_SLOGAN_TYPES = ("service",)
# page types whose visible bylines are not the page's author (wcxb-dev: of the 64 authors the
# byline gave on such pages, none was the gold's) and whose datelines are not its publication
# date (of the 58 dates they gave on such pages, none was the gold's)
_META_UNSIGNED_TYPES = ("product", "collection", "listing", "service")


cdef bint _meta_unsigned(page_type):
    """Whether `page_type()` (meta_resolve's callable, None: not known) reads the page as one of
    _META_UNSIGNED_TYPES, whose bylines and datelines are a review's, a listed item's or an
    offer's, not the page's own; asked only where a byline or dateline would be used."""
    return page_type is not None and page_type() in _META_UNSIGNED_TYPES


# the share of another candidate's words (not the most trusted one's) an h1 must hold to be
# the title: wcxb-dev's training hosts, 0.3 -> 0.5 -> 0.7: 950, 952, 951 of 1166 right
_META_TITLE_OTHER_OVERLAP = 0.5
# UTF-8 read as Latin-1 (a page that encoded its text twice: "itertools \xe2\x80\x94 Functions"):
# C1 control characters, which no text holds, give it away; each lead and continuation
# characters that are one UTF-8 sequence are put back ("—")
_META_C1 = re.compile("[\x80-\x9f]")
_META_MOJIBAKE = re.compile("[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _meta_unmojibake_one(m):
    t = m.group()
    try:
        return t.encode("latin-1").decode("utf-8")
    except UnicodeDecodeError:
        return t


def _meta_unmojibake(s):
    """`s` with its UTF-8 sequences read as Latin-1 decoded (on a text holding a C1 control)."""
    return _META_MOJIBAKE.sub(_meta_unmojibake_one, s)


# navigation words (as keys) that are no page's headline alone
_META_NAV_WORDS = frozenset(("home", "homepage", "about", "aboutus", "products", "shop", "store", "blog",
                             "contact", "contactus", "index", "welcome", "startseite", "accueil", "inicio"))
# elements between the headline and a dateline that may overrule the metadata's published date
# (the scan reads the hints this far past the h1 on every page: _META_NEAR)
_META_SHOWN_NEAR = _META_NEAR


_META_ROLE = re.compile(r"\b(?:writer|reporter|editor|editors|founder|co-founder|contributor|contributing|author|"
                   r"authors|expert|senior|director|manager|ceo|cto|journalist|correspondent|columnist|"
                   r"moderator|member|joined|topic|head|chief|specialist|analyst|strategist|lead|"
                   r"marketing|insights|posts?|view|profile|follow|more|about|written|recipe|by|min|read|"
                   r"updated|published|posted|attorney|lawyer|psychologist|therapist|dietitian|nutritionist|"
                   r"physician|counselor)\b")          # searched in lower case
# what follows a name in a byline and is no part of it: a news agency ("JASON STRAZIUSO Associated
# Press"), the day of the week of a dateline ("David Richards; Monday"), a label ("Richard
# Beeston: Analysis"); only after a name (a byline that is only "The Associated Press" stays)
_META_NAME_TAIL = re.compile(r"[\s;,:|–—-]+(?:(?:the\s+)?associated\s+press|reuters|afp|analysis|monday|tuesday|"
                             r"wednesday|thursday|friday|saturday|sunday)\b.*$", re.I)
_META_NAME_TAIL_WORDS = ("press", "reuters", "afp", "analysis", "day")   # one of which it needs (_meta_lacks)
# the names that are never one of several authors: agencies beside the writer ("Pete Yost; Associated
# Press"), weekdays (meta_key form)
_META_NOT_COAUTHOR = frozenset(("associatedpress", "reuters", "afp", "monday", "tuesday", "wednesday",
                                "thursday", "friday", "saturday", "sunday"))
_META_AT = re.compile(r"\s+(?:at|from|of|für|de|in)\s+")      # "David at Acme", "Jane Doe in Woodworking"
_META_AT_END = re.compile(r"\s+(?:at|from|on|in)\s*$")
_META_AUTHOR_LABEL = re.compile(r"^(?:author|authors|autor|auteur|writer|by)\s*[:：]\s*", re.I)


_META_USER_NAME = re.compile(r"[\w.\-]{2,40}")


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_trim_role(n):
    """A name without the job title after it: "Keith Barry Senior Autos Reporter" -> "Keith Barry",
    "David at Acme" -> "David", "Jane Doe in Woodworking" (the post's category) -> "Jane Doe"; ""
    when the text starts with a role word. What follows the name and is no part of it goes too
    (_META_NAME_TAIL: "JASON STRAZIUSO Associated Press", "Richard Beeston: Analysis")."""
    if not _meta_lacks(n, _META_NAME_TAIL_WORDS):
        t = _META_NAME_TAIL.sub("", n)
        if t != n and meta_key(t) not in ("", "the"):
            n = t
    low = n.lower()
    m = _META_ROLE.search(low) if len(low) == len(n) else None
    if m:
        n = n[:m.start()]
    if "at" in n or "from" in n or "of" in n or "für" in n or "de" in n or "in" in n:     # (what _META_AT needs)
        n = _META_AT.split(n, maxsplit=1)[0]
        n = _META_AT_END.sub("", n)         # "Posted by David at December 16, 2025" (the date cut off)
    return n.strip(" ,.:-–—|⋅•")


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_byline_names(raw, single_words = False):
    """The names a byline element's text starts with, line by line (each text node of the
    element is a line): "By" / "and" / "," lines join names, the first line that is not a
    name (a job title: "Senior Autos Reporter", a date, "Founder at X") ends the byline.
    `single_words`: one-word names are accepted (forum user names), else a class naming an
    author must give a name of two words ("Industry" there is a label)."""
    lines = [x.strip() for x in raw.split("\n")]
    names = []
    expect = True
    for i, line in enumerate(x for x in lines if x):
        if i > 6:
            break
        low = line.lower().strip(" :,.-–—|")
        if low in ("by", "written by", "posted by", "words by", "and", "&", "", "author", "authors",
                   "reviewed by", "edited by", "story by"):
            expect = True
            continue
        if not expect:
            break
        if not _meta_lacks(line, ("by",)):
            line = _META_BY.sub("", line)
        found = [n for n in map(_meta_trim_role, _meta_split_names(line)) if n and not n.startswith((".", "/")) and (
                 _meta_name_like(n) and (single_words or len(n.split()) >= 2) and len(n) >= 2
                 and (single_words or not any(c.isdigit() for c in n))
                 or single_words and _META_USER_NAME.fullmatch(n))]
        if not found:
            if names or i > 1:
                break
            continue
        names.extend(found)
        expect = line.rstrip().endswith((",", " and", "&"))
    return names


# class/id/rel values naming an author's element, and those naming its picture, bio, label or
# a comment's author instead (searched in the value, case ignored)
# words of a class/id naming an author, and of one naming something else beside it (an avatar, a
# title): searched case-insensitively (_meta_has_word)
_META_AUTHOR_WORDS = ("author", "byline", "writer", "username", "user-name")
_META_NOT_AUTHOR_WORDS = ("avatar", "bio", "image", "img", "photo", "desc", "social", "title", "label", "box",
                          "comment", "reply", "quote", "authoriz")      # (authorized, authorization: a permission)
_META_AUTHOR_HINT = re.compile("|".join(_META_AUTHOR_WORDS), re.I)
_META_NOT_AUTHOR_HINT = re.compile("|".join(_META_NOT_AUTHOR_WORDS), re.I)


cdef bint _meta_lacks(str s, tuple words):
    """s is ASCII and holds none of the (lower-case) `words`, case ignored: a case-insensitive
    expression that needs one of them cannot match it (a text that is not ASCII may: re.I folds
    ſ to s, K to k ...)."""
    cdef str low
    if not s.isascii():
        return False
    low = s.lower()
    for w in words:
        if w in low:
            return False
    return True


cdef bint _meta_has_word(str s, tuple words, pattern):
    """`pattern` (`words` joined by "|", re.I) finds one of the words in s: for an ASCII s, a
    substring test of the lower-cased text (the same answer, without the expression's
    case-insensitive try at every position: _meta_lacks); other text is searched with it."""
    if s.isascii():
        return not _meta_lacks(s, words)
    return pattern.search(s) is not None


# "By ..." texts that are no byline: a consent line ("By clicking Subscribe, you agree to our Terms",
# "By using VS Code ...": a lower-case -ing word after "By") and a lone "By" and one word (a filter
# menu's "By Category", "By Price", "BY INDUSTRY"; a byline of one word says more: "Posted by X on")
_META_BY_NOT_BYLINE = re.compile(r"(?i:by)\s+[a-z]+ing\b|\s*(?i:by)\s+\w+\s*$")


# the visible candidates tried, nearest the headline first: a byline or dateline further away
# than the 30 nearest is another item's (comments, related posts)
_META_VISIBLE_TRIES = 30


_META_ZH_NAME_SEP = re.compile(r"[\s、，,]+")


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_zh_names(m):
    return [n for n in _META_ZH_NAME_SEP.split(m[m.lastindex]) if n and n.lower() not in _META_ZH_NOT_NAME
            and not n.endswith(("记者", "編輯", "编辑", "报道"))]


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_author_hints(hints, h1_order, entries):
    """The entries _meta_byline_author tries of the hint records `hints` (those whose class/id/rel
    names an author and not its picture, bio or label), appended to `entries`."""
    for key, raw, order in hints:
        if _meta_has_word(key, _META_AUTHOR_WORDS, _META_AUTHOR_HINT) \
                and not _meta_has_word(key, _META_NOT_AUTHOR_WORDS, _META_NOT_AUTHOR_HINT):
            key = key.lower()
            entries.append((order < h1_order, abs(order - h1_order), 0, raw, "username" in key or "user-name" in key))
    return entries


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_nearest(entries, more, bound):
    """The first _META_VISIBLE_TRIES of the sorted `entries` with those `more()` gives (a list;
    `more` None: none): every entry of `more()` sorts at or after `bound`, so it is called (once)
    only when the entries before `bound` are used up, and the order is that of sorting all."""
    entries.sort()
    cdef Py_ssize_t i = 0
    while i < _META_VISIBLE_TRIES:
        if more is not None and (i >= len(entries) or entries[i] >= bound):
            entries.extend(more())
            entries.sort()
            more = None
        if i >= len(entries):
            return
        yield entries[i]
        i += 1


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_byline_author(hints, texts, link_author, h1s, md, more = None, after = 0):
    """An author from the visible page: elements whose class/id/rel names an author or byline,
    "By ..." text, Chinese 作者/记者 bylines; the nearest after the first h1 is preferred (then the
    nearest before it). `hints`, `texts`: the raw scan records, cleaned only as they are tried,
    nearest first, until one gives a name. `more`: None, or a call that gives every hint record
    (those in `hints` and the ones the scan left for later, of rank `after` and past: all more
    than _META_SHOWN_NEAR elements past h1s[0]), made only when the candidates nearer than
    `after` give no name."""
    h1_order = h1s[0][1] if h1s else 0
    entries = _meta_author_hints(hints, h1_order, [])
    for key, raw, order in texts:
        entries.append((order < h1_order, abs(order - h1_order), 1, raw, key))
    later = None
    if more is not None:
        later = lambda: _meta_author_hints([x for x in more() if x[2] >= after], h1_order, [])
    for _, _, kind, raw, extra in _meta_nearest(entries, later, (False, after - h1_order)):
        if kind == 0:
            txt = meta_clean(raw)
            if not txt or len(txt) > 160:
                continue
            if _META_CJK.search(txt):
                m = _meta_zh_author(txt)
                if m:
                    names = _meta_zh_names(m)
                elif ":" in txt or "：" in txt:
                    names = []
                else:       # an author element holding just a name ("扬眼 企鹅号": the account's name)
                    names = txt.split()[:1]
            else:
                names = _meta_byline_names(raw, extra)
            if names:
                return _meta_join_names(names)
            continue
        for src in (raw, extra):
            t = meta_clean(_meta_label_line(src))
            if not t:
                continue
            m = _meta_zh_author(t)
            if m:
                names = _meta_zh_names(m)
                if names:
                    return _meta_join_names(names)
            if len(t) < 120 and not _meta_lacks(t, ("by",)) and not _META_BY.match(t):
                dated = _meta_dated_byline(src)
                if dated is not None:       # "Posted on March 3, 2023 by Jane Doe": the byline after the date
                    t = dated
            if len(t) < 120 and not _meta_lacks(t, ("by", "author")) and _META_BY.match(t) \
                    and not _META_BY_NOT_BYLINE.match(t):
                # a name starts upper-case ("By the Numbers", "By industry Retail Media" are not bylines)
                names = [n for n in map(_meta_trim_role, _meta_split_names(t))
                         if n and _meta_name_like(n) and (n[0].isupper() or not n[0].isalpha())]
                if names:
                    return _meta_join_names(names)
    if link_author:
        return link_author
    for key, raw, order in texts:
        m = _META_ZH_SOURCE.search(raw) or _META_ZH_SOURCE.search(key)
        if m and m[1] not in _META_ZH_NOT_NAME:
            return m[1]
    return None


# a dateline that goes on with its byline: "Posted on March 3, 2023 by Jane Doe", "Published 3 March
# 2023, 10:15 by Jane Doe" (the year before "by", at most 60 characters in)
_META_DATED_BY = re.compile(r"^\s*(?:posted|published)\b[^|•]{0,40}?\b(?:19|20)\d\d\b[^|•]{0,20}?\s+by\s+", re.I)


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_dated_byline(src):
    """The byline of a text record (its text nodes one a line) that opens with a dateline going on
    with its byline ("Posted on March 3, 2023 by Jane Doe"), as "By <names>": the rest of the line
    "by" stands on, or the next line when "by" ends it (a link holds the name); None for none.
    What follows on other lines (a permalink, the categories after "in") is not read."""
    m = _META_DATED_BY.match(src.replace("\n", " "))      # (one character for one: the offsets hold)
    if m is None:
        return None
    rest = src[m.end():].split("\n")
    name = rest[0].strip() or (rest[1].strip() if len(rest) > 1 else "")
    return "By " + meta_clean(name) if name else None


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_label_line(raw):
    """A text record (its text nodes one a line) that opens with an "Author:" label: the label's
    line, with the next line when the label stands alone ("Author:" / "Luke Van Leuveren" /
    "Started: 29 Dec, 2007": the name, not the next field's label); else `raw`."""
    if "\n" not in raw or _meta_lacks(raw[:12], ("author",)):
        return raw
    lines = [x for x in raw.split("\n") if x.strip()]
    if not lines or not _META_BY.match(lines[0]) or _meta_lacks(lines[0][:12], ("author",)):
        return raw
    label = lines[0].lstrip()
    m = _META_AUTHOR_LABEL.match(label)
    if m is not None and m.end() == len(label) and len(lines) > 1:      # the label alone on its line
        return lines[0] + " " + lines[1]
    return lines[0]


_META_UPDATED = re.compile(r"updated|modified|reviewed|revised|aktualisiert|mis à jour|更新", re.I)
# a member's profile beside a forum post ("Joined: Mar 2019", "Founded: Dec 11, 2021", "Member
# since ..."): the date of an account, not of the page
_META_PROFILE = re.compile(r"\b(?:joined|join date|member since|registered|founded|last (?:seen|active|visit|login))\b"
                           r"|注册时间|注册于|加入时间", re.I)
# a deadline or the end of a period, not a dateline: the date right after "through", "until",
# "valid", "as of", "expires", "ends", "due" ("Travel through December 31, 2025", "Offer valid
# through 01/23/2026", "Sources: Morningstar, as of December 31, 2025"); the label is the text
# before the year, so the month and day between the word and the year are allowed for
_META_DEADLINE = re.compile(r"\b(?:through|thru|until|till|valid|as of|expires?|expiring|ends?|ended|ending|deadline|due)"
                            r"\W*(?:on\W+)?(?:[^\W\d_]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?\W{0,3}|"
                            r"\d{1,2}(?:st|nd|rd|th)?\s+[^\W\d_]{3,9}\.?\W{0,3}|\d{1,2}[/.-]\d{1,2}[/.-])?$", re.I)
_META_NOT_DATELINE_WORDS = ("comment", "related", "footer", "copyright")     # class/id of other items' dates
_META_NOT_DATELINE = re.compile("|".join(_META_NOT_DATELINE_WORDS), re.I)


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_dateline_hints(hints, h1_order, limit, entries):
    """The entries _meta_shown_dates tries of the hint records `hints` (those at most `limit`
    elements from the headline, shorter than 400 characters, holding a year, not classed as a
    comment's, a related item's or the footer's), appended to `entries`."""
    for key, raw, order in hints:
        dist = abs(order - h1_order) + (0 if order >= h1_order else 50)
        if dist <= limit and len(raw) < 400 and _meta_year_in(raw) \
                and not _meta_has_word(key, _META_NOT_DATELINE_WORDS, _META_NOT_DATELINE):
            entries.append((dist, 2, "", raw))
    return entries


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_shown_dates(times, hints, texts, years, h1_order, limit = 1 << 30, more = None, after = 0,
                      dayfirst = False):
    """The dates the page shows in its datelines, nearest the headline first (after it before
    before it): <time> elements, elements classed date/published/posted/time, "Posted on ..." /
    发布时间：... text, short texts holding a date. The raw scan records are parsed lazily, nearest
    first, over the _VISIBLE_TRIES nearest (and at most `limit` elements away). Yields (date,
    "time" or "byline", labelled as an update ("Updated ...", "Last modified"), distance).
    `more`, `after`: as for _meta_byline_author (every hint record, called only when the
    datelines nearer than `after` are used up); `dayfirst`: numeric dates are D/M/Y when
    ambiguous (the page's language writes them so: _meta_dayfirst)."""
    entries = []
    # every date meta_parse_date reads has a year (_meta_year_in): the rest is not a dateline
    for dt, raw, order in times[:10]:
        dist = abs(order - h1_order) + (0 if order >= h1_order else 50)
        if dist <= limit and (_meta_year_in(dt) or _meta_year_in(raw)):
            entries.append((dist, 0, dt, raw))
    for key, raw, order in texts:
        dist = abs(order - h1_order) + (0 if order >= h1_order else 50)
        if dist <= limit and (_meta_year_in(key) or _meta_year_in(raw)):
            entries.append((dist, 1, key, raw))
    _meta_dateline_hints(hints, h1_order, limit, entries)
    for label, raw, order in years:
        dist = abs(order - h1_order) + (0 if order >= h1_order else 50)
        if dist <= limit and _META_PROFILE.search(label) is None and _META_DEADLINE.search(label) is None:
            entries.append((dist, 3, "", raw))
    later = None
    if more is not None:
        later = lambda: _meta_dateline_hints([x for x in more() if x[2] >= after], h1_order, limit, [])
    for dist, rank, a, b in _meta_nearest(entries, later, (after - h1_order,)):
        if rank == 0:
            d = meta_parse_date(a, dayfirst) or meta_parse_date(meta_clean(b), dayfirst)
            if d:
                yield d, "time", False, dist
            continue
        if rank == 1:
            key, txt = meta_clean(a), meta_clean(b)
            t = key if key and len(key) < 160 else txt
        else:
            t = meta_clean(b)
            if rank == 2 and len(t) >= 100:
                continue
        if not t or not _meta_year_in(t) or _meta_relative(t[:60]):
            continue
        m = _META_ZH_DATE.search(t)
        d = (meta_parse_date(m[1]) if m else None) or meta_parse_date(t[:160], dayfirst)
        if d:
            label = t[:t.find(d[:4]) if d[:4] in t else 60]
            if _META_PROFILE.search(label) is None and _META_DEADLINE.search(label) is None:
                yield d, "byline", _META_UPDATED.search(label) is not None, dist


cdef bint _meta_in_notice(str key, str holder):
    """Whether the comparison key of a name (meta_key) is in that of a copyright notice: at least
    4 characters of an ASCII key ("al" is in "allrightsreserved"), or 2 of another script's (网易)."""
    return len(key) >= (4 if key.isascii() else 2) and key in holder


def _meta_yearless_dateline(texts, hints, h1_order, modified):
    """Whether a publication dateline near the headline (bylines and elements classed date/time,
    within _META_SHOWN_NEAR elements) shows a day without its year, or with a two-digit one
    (_META_YEARLESS: "发布时间：09-30", "发布时间：18-03-08", "Posted 09/30"), that is the day of
    `modified` (ISO YYYY-MM-DD): month and day equal, and the two-digit year, if any, its last two
    digits.  Such a date alone names no year; the modified date gives it when they agree."""
    cdef int y = int(modified[:4]), mo = int(modified[5:7]), dy = int(modified[8:10])
    for key, raw, order in list(texts) + list(hints):
        if abs(order - h1_order) > _META_SHOWN_NEAR:
            continue
        for t in (raw, key):
            if not t or len(t) > 160:
                continue
            m = _META_YEARLESS.search(t)
            if m is None:
                continue
            if m[2] is not None:
                if int(m[2]) == mo and int(m[3]) == dy and (m[1] is None or int(m[1]) == y % 100):
                    return True
            elif int(m[4]) == mo and int(m[5]) == dy:
                return True
    return False


@cython.wraparound(True)
@cython.boundscheck(True)
def _meta_shown_date(times, hints, texts, years, h1_order, more = None, after = 0, dayfirst = False):
    """The date the page shows (_shown_dates), nearest the headline first; a date labelled as
    an update is taken only when no other is shown. Returns (date, "time" or "byline").
    `more`, `after`, `dayfirst`: as for _meta_shown_dates."""
    late = None
    for d, how, update, _ in _meta_shown_dates(times, hints, texts, years, h1_order, more=more, after=after,
                                               dayfirst=dayfirst):
        if not update:
            return d, how
        late = late or d
    return late, "byline"
