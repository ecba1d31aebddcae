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
DEF _META_TEXT_NODES = 64         # nodes visited to gather an element's text
DEF _META_JSONLD_MAX = 1048576    # bytes of one JSON-LD script kept
DEF _META_MAX_META = 400          # <meta> records
DEF _META_MAX_ITEMS = 120         # itemprop records in the body
DEF _META_MAX_HINTS = 80          # class/id/rel hints
DEF _META_MAX_TEXTS = 60          # byline/dateline text nodes
DEF _META_MAX_YEARS = 40          # short text nodes holding a year
DEF _META_MAX_TIMES = 20
DEF _META_MAX_H1 = 6
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

# record kinds (fastx.metadata reads them by these names)
META_KIND = {"meta": 0, "link": 1, "jsonld": 2, "lang": 3, "itemprop": 4, "time": 5, "h1": 6,
             "hint": 7, "text": 8, "base": 9, "year": 10}

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
    _META_T_A
    _META_T_IMG
_META_TAG_ROLES = (("meta", _META_T_META), ("link", _META_T_LINK), ("script", _META_T_SCRIPT),
                   ("style", _META_T_SKIP), ("template", _META_T_SKIP), ("svg", _META_T_SKIP),
                   ("html", _META_T_HTML), ("base", _META_T_BASE), ("time", _META_T_TIME),
                   ("h1", _META_T_H1), ("a", _META_T_A), ("img", _META_T_IMG))
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
# each as a bit set over the 65,536 byte pairs: one table lookup rejects almost every position
cdef const char *_META_HINT_WORDS = b"author byline date publish posted writer username user-name time source"
cdef uint8_t _META_PAIR[8192]


cdef void _meta_pair_init():
    cdef const char *w = _META_HINT_WORDS
    cdef size_t i = 0
    cdef int k
    memset(_META_PAIR, 0, sizeof(_META_PAIR))
    while w[i]:
        k = (<unsigned char>w[i] << 8) | <unsigned char>w[i + 1]
        _META_PAIR[k >> 3] |= <uint8_t>(1 << (k & 7))
        while w[i] and w[i] != 32:
            i += 1
        while w[i] == 32:
            i += 1


cdef bint _meta_hint_name(const unsigned char *v, size_t n) noexcept nogil:
    """A class/id/rel value naming an author, byline, writer, user name, source or a date/time
    (one pass: a byte-pair table lookup at each position, the words of _META_HINT_WORDS compared
    only where the pair opens one)."""
    cdef const char *w = _META_HINT_WORDS
    cdef size_t i, j, m
    cdef unsigned int k
    cdef unsigned char c, c1
    if n < 4:
        return False
    for i in range(n - 3):
        c = v[i] | 32
        c1 = v[i + 1] | 32
        k = (<unsigned int>c << 8) | c1
        if not (_META_PAIR[k >> 3] & (1 << (k & 7))):
            continue
        j = 0
        while w[j]:
            m = 0
            while w[j + m] and w[j + m] != 32:
                m += 1
            if <unsigned char>w[j] == c and <unsigned char>w[j + 1] == c1 and _meta_ci_at(v + i, n - i, w + j, m):
                return True
            j += m
            while w[j] == 32:
                j += 1
    return False


cdef str _meta_attr(fx_node *node, const char *name, size_t m):
    cdef fx_attr *a = _find_attr(node, name, m)
    if a == NULL or a.value == NULL:
        return None
    return _fx_str(a.value)


cdef str _meta_doc_text(Doc d, Py_ssize_t i, size_t limit):
    """Text of Doc node i (an element's subtree or a text node), at most `limit` bytes from
    at most _META_TEXT_NODES nodes of the flat array; each text node a line of its own (a
    byline's name, then its role).  The Doc holds no script, style, template or hidden text."""
    cdef unsigned char buf[_META_TEXT_MAX + 8]
    cdef size_t k = 0, take
    cdef DocView dv = d.view
    cdef Py_ssize_t j = i, end = dv.end[i]
    cdef int visits = 0
    if limit > _META_TEXT_MAX:
        limit = _META_TEXT_MAX
    # at most _META_TEXT_NODES nodes: a class naming a date on a container of the whole article
    # must not make the pass read the article (once per such container)
    while j < end and k < limit and visits < _META_TEXT_NODES:
        visits += 1
        if dv.kind[j] == 3 and dv.text_len[j] > 0:
            take = <size_t>dv.text_len[j]
            if k > 0:
                buf[k] = 10
                k += 1
            if take > limit - k:
                take = limit - k
            memcpy(buf + k, dv.text_buf + dv.text_off[j], take)
            k += take
        j += 1
    return (<bytes>buf[:k]).decode("utf-8", "ignore")


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


cdef void _meta_tag_walk(fx_node *root, dict metas, dict multi, list out):
    """<meta> (name/property/itemprop/http-equiv -> content), <link rel=canonical/author>,
    <link itemprop>, the first <base href>, <html lang> and the text of JSON-LD scripts, from
    one iterative walk over lexbor's tree (the Doc holds none of them) that reads the
    attributes of those tags only and enters no script, style, template or svg.  Bounded: at
    most _META_MAX_META <meta>/<link> records and _META_MAX_JSONLD scripts."""
    cdef fx_node *node = root
    cdef fx_attr *a
    cdef int role
    cdef int n_meta = 0, n_items = 0, n_ld = 0
    cdef bint descend, seen_base = False
    cdef str key, val
    cdef list lst
    while node != NULL:
        descend = node.first_child != NULL
        if node.type == LXB_ELEMENT:
            # every tag looked for has a static lexbor id: a custom element's name is not hashed
            role = _meta_tag_role(node.local_name)
            if role == _META_T_META:
                if n_meta < _META_MAX_META:
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
                            n_meta += 1
            elif role == _META_T_LINK:
                val = _meta_attr(node, b"href", 4)
                if val is not None:
                    a = _find_attr(node, b"rel", 3)
                    if a != NULL and a.value != NULL and n_meta < _META_MAX_META and (
                            _meta_ci_has(a.value.data, a.value.length, b"canonical", 9)
                            or _meta_ci_has(a.value.data, a.value.length, b"author", 6)):
                        out.append((1, _fx_str(a.value), val, 0))
                        n_meta += 1
                    key = _meta_attr(node, b"itemprop", 8)
                    if key and n_items < _META_MAX_ITEMS:
                        out.append((4, key, val, 0))
                        n_items += 1
            elif role == _META_T_SCRIPT:
                a = _find_attr(node, b"type", 4)
                if a != NULL and a.value != NULL and n_ld < _META_MAX_JSONLD \
                        and _meta_ci_has(a.value.data, a.value.length, b"ld+json", 7):
                    out.append((2, "", _meta_script_text(node), 0))
                    n_ld += 1
                descend = False
            elif role == _META_T_SKIP:
                descend = False
            elif role == _META_T_HTML:
                val = _meta_attr(node, b"lang", 4) or _meta_attr(node, b"xml:lang", 8)
                if val:
                    out.append((3, "html", val, 0))
            elif role == _META_T_BASE and not seen_base:
                val = _meta_attr(node, b"href", 4)
                if val:
                    out.append((9, "base", val, 0))
                    seen_base = True
        node = _dom_next(node, root, descend)


# UTF-8 of the Chinese byline/dateline markers: 来源 作者 发布 日期 时间 记者 编辑 來源 發布 記者 出处
cdef const char *_META_ZH[11]
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


cdef int _meta_byline_text(const unsigned char *s, size_t n) noexcept nogil:
    """1 if a (short) text node opens an English byline/dateline, 2 if it holds a Chinese
    byline/dateline marker, 3 if it is a short text holding a year, 0 otherwise."""
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
    if _meta_ci_has(s, 16 if n > 16 else n, b"posted", 6) or _meta_ci_has(s, 16 if n > 16 else n, b"published", 9) \
            or _meta_ci_has(s, 16 if n > 16 else n, b"written by", 10) or _meta_ci_has(s, 16 if n > 16 else n, b"updated", 7) \
            or _meta_ci_has(s, 12 if n > 12 else n, b"author", 6):
        return 1
    for i in range(n - 5 if n > 5 else 0):
        if 0xe4 <= s[i] <= 0xe8:
            for k in range(11):
                if memcmp(s + i, _META_ZH[k], 6) == 0:
                    return 2
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


def meta_scan(Doc doc):
    """Raw metadata evidence of a parsed page: (metas, multi, records). metas: <meta>
    name/property/itemprop/http-equiv (lower-cased) -> its first non-empty content; multi: the
    names in _META_MULTI -> all their contents; records: (kind, key, value, order) of every
    other kind in META_KIND.

    Two bounded passes: lexbor's tree for <meta>, <link>, <base>, <html lang> and JSON-LD
    (_meta_tag_walk: the tags' ids compared, no other attributes read), and the Doc's flat
    arrays for the visible evidence around the headline: the first h1s, and in a window from
    _META_BEFORE_H1 elements before the first h1 to _META_AFTER_H1 elements past it (the first
    _META_NO_H1 of a body without h1), microdata itemprop values, <time datetime>, elements
    whose class/id/rel names an author, byline or date, and short text nodes that open a
    byline or dateline or hold a year.  `order` is an element's preorder rank among the Doc's
    elements (0 for the tag walk)."""
    if not _meta_ready:
        _meta_init()
    out = []
    cdef dict metas = {}
    cdef dict multi = {}
    parser = doc.parser
    if parser is None:
        return metas, multi, out
    root_node = parser.root
    if root_node is not None:
        _meta_tag_walk(<fx_node *><uintptr_t>root_node.mem_id, metas, multi, out)
    cdef Py_ssize_t n = doc.n, i, start = doc.body if doc.body >= 0 else 0, up
    cdef DocView docv = doc.view
    cdef fx_node *node
    cdef fx_attr *a
    cdef int role
    cdef int order = 0, h1_at = -1, n_items = 0, n_hints = 0, n_texts = 0, n_times = 0, n_h1 = 0
    cdef int n_years = 0
    cdef bint near = False
    cdef size_t an, vn, tlen
    cdef const unsigned char *s
    cdef const unsigned char *v
    cdef int bl
    cdef str key, val
    # the first h1s of the body (their order: the rank among the Doc's elements)
    for i in range(n):
        if docv.kind[i] == 1:
            order += 1
            if _meta_tag_role(<uintptr_t>docv.tag[i]) == _META_T_H1 and i > start and n_h1 < _META_MAX_H1:
                if h1_at < 0:
                    h1_at = order
                out.append((6, "", _meta_doc_text(doc, i, _META_TEXT_MAX), order))
                n_h1 += 1
                if n_h1 >= _META_MAX_H1:
                    break
    # the window: _META_BEFORE_H1 elements before the first h1 to _META_AFTER_H1 past it
    order = 0
    for i in range(n):
        if docv.kind[i] == 1:
            order += 1
            if i <= start:
                continue
            if h1_at >= 0:
                if order - h1_at >= _META_AFTER_H1:
                    break
                near = h1_at - order <= _META_BEFORE_H1
            else:
                near = order < _META_NO_H1
                if not near:
                    break
            if not near:
                continue
            node = <fx_node *><uintptr_t>docv.ptr[i]
            role = _meta_tag_role(<uintptr_t>docv.tag[i])
            if role == _META_T_TIME and n_times < _META_MAX_TIMES:
                val = _meta_attr(node, b"datetime", 8)
                out.append((5, val or "", _meta_doc_text(doc, i, 80), order))
                n_times += 1
            # one pass over the attributes: itemprop, and class/id/rel naming an author or date
            a = (<fx_element *>node).first_attr
            while a != NULL:
                s = _attr_name(a, &an)
                if s != NULL and a.value != NULL:
                    v = a.value.data
                    vn = a.value.length
                    if an == 8 and memcmp(s, b"itemprop", 8) == 0:
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
                    elif n_hints < _META_MAX_HINTS and vn and vn < 200 and (
                            (an == 5 and memcmp(s, b"class", 5) == 0) or (an == 2 and memcmp(s, b"id", 2) == 0)
                            or (an == 3 and memcmp(s, b"rel", 3) == 0)):
                        if _meta_hint_name(v, vn):
                            out.append((7, _fx_str(a.value), _meta_doc_text(doc, i, _META_TEXT_MAX), order))
                            n_hints += 1
                a = a.next
        elif docv.kind[i] == 3 and near and i > start and (n_texts < _META_MAX_TEXTS or n_years < _META_MAX_YEARS):
            tlen = <size_t>docv.text_len[i]
            if 0 < tlen <= 400:
                bl = _meta_byline_text(docv.text_buf + docv.text_off[i], tlen)
                if bl == 3:
                    if n_years < _META_MAX_YEARS:
                        out.append((10, "", (<const char *>docv.text_buf + docv.text_off[i])[:tlen].decode(
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
    return metas, multi, out
