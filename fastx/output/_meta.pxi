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

cdef int32_t _meta_id_time = -1, _meta_id_h1 = -1, _meta_id_a = -1, _meta_id_img = -1
cdef int32_t _meta_id_meta = -1, _meta_id_link = -1, _meta_id_script = -1, _meta_id_html = -1
cdef int32_t _meta_id_base = -1, _meta_id_style = -1, _meta_id_template = -1, _meta_id_svg = -1


cdef void _meta_init():
    global _meta_id_time, _meta_id_h1, _meta_id_a, _meta_id_img
    global _meta_id_meta, _meta_id_link, _meta_id_script, _meta_id_html
    global _meta_id_base, _meta_id_style, _meta_id_template, _meta_id_svg
    _meta_id_meta = TAG_IDS["meta"]
    _meta_id_link = TAG_IDS["link"]
    _meta_id_script = TAG_IDS["script"]
    _meta_id_html = TAG_IDS["html"]
    _meta_id_base = TAG_IDS["base"]
    _meta_id_style = TAG_IDS["style"]
    _meta_id_template = TAG_IDS["template"]
    _meta_id_svg = TAG_IDS["svg"]
    _meta_id_time = TAG_IDS["time"]
    _meta_id_h1 = TAG_IDS["h1"]
    _meta_id_a = TAG_IDS["a"]
    _meta_id_img = TAG_IDS["img"]
    _meta_pair_init()


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
    cdef int32_t tag
    cdef bint descend
    cdef str key, val
    cdef list lst
    while node != NULL:
        descend = node.first_child != NULL
        if node.type == LXB_ELEMENT:
            # every tag looked for has a static lexbor id: a custom element's name is not hashed
            tag = <int32_t>node.local_name if node.local_name < STATIC_LIMIT else -2
            if tag == _meta_id_meta:
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
            elif tag == _meta_id_link:
                val = _meta_attr(node, b"href", 4)
                if val is not None:
                    a = _find_attr(node, b"rel", 3)
                    if a != NULL and a.value != NULL and st.n_meta < _META_MAX_META and (
                            _meta_ci_has(a.value.data, a.value.length, b"canonical", 9)
                            or _meta_ci_has(a.value.data, a.value.length, b"author", 6)):
                        out.append((1, _fx_str(a.value), val, 0))
                        st.n_meta += 1
                    key = _meta_attr(node, b"itemprop", 8)
                    if key and st.n_items < _META_MAX_ITEMS:
                        out.append((4, key, val, 0))
                        st.n_items += 1
            elif tag == _meta_id_script:
                a = _find_attr(node, b"type", 4)
                if a != NULL and a.value != NULL and st.n_ld < _META_MAX_JSONLD \
                        and _meta_ci_has(a.value.data, a.value.length, b"ld+json", 7):
                    out.append((2, "", _meta_script_text(node), 0))
                    st.n_ld += 1
                descend = False
            elif tag == _meta_id_style or tag == _meta_id_template or tag == _meta_id_svg:
                descend = False
            elif tag == _meta_id_html:
                val = _meta_attr(node, b"lang", 4) or _meta_attr(node, b"xml:lang", 8)
                if val:
                    out.append((3, "html", val, 0))
            elif tag == _meta_id_base and not st.seen_base:
                val = _meta_attr(node, b"href", 4)
                if val:
                    out.append((9, "base", val, 0))
                    st.seen_base = True
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
    if _meta_id_h1 < 0:
        _meta_init()
    out = []
    cdef dict metas = {}
    cdef dict multi = {}
    cdef Py_ssize_t n = doc.n, i, start = doc.body if doc.body >= 0 else 0, up
    cdef DocView docv = doc.view
    cdef _MetaWalk st
    cdef bytes skip = doc._skipped
    cdef fx_node *node
    cdef str key, val
    if doc.parser is None or skip is None:
        return metas, multi, out
    cdef const uint64_t *skipped = <const uint64_t *>PyBytes_AS_STRING(skip)
    # lexbor's tree where the Doc build did not go: <html> (the Doc's root), then, in page
    # order, every element the build noted without entering it (the head, meta, link, base,
    # script and other dropped or hidden elements): what a walk of the whole tree would find
    memset(&st, 0, sizeof(st))
    if n > 0 and docv.tag[0] == _meta_id_html:
        node = <fx_node *><uintptr_t>docv.ptr[0]
        val = _meta_attr(node, b"lang", 4) or _meta_attr(node, b"xml:lang", 8)
        if val:
            out.append((3, "html", val, 0))
    for i in range(len(skip) // 8):
        _meta_tag_walk(<fx_node *><uintptr_t>skipped[i], &st, metas, multi, out)
    cdef fx_attr *a
    cdef int32_t tag
    cdef int order = 0, h1_at = -1, n_items = 0, n_hints = 0, n_texts = 0, n_times = 0, n_h1 = 0
    cdef int n_years = 0
    cdef bint near = False
    cdef size_t an, vn, tlen
    cdef const unsigned char *s
    cdef const unsigned char *v
    cdef int bl
    # the first h1s of the body (their order: the rank among the Doc's elements)
    for i in range(n):
        if docv.kind[i] == 1:
            order += 1
            if docv.tag[i] == _meta_id_h1 and i > start and n_h1 < _META_MAX_H1:
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
            tag = docv.tag[i]
            if tag == _meta_id_time and n_times < _META_MAX_TIMES:
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
                            if val is None and tag == _meta_id_a:
                                if _meta_ci_has(v, vn, b"url", 3) or _meta_ci_has(v, vn, b"image", 5):
                                    val = _meta_attr(node, b"href", 4)
                            if val is None and tag == _meta_id_img:
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
_META_NONWORD = re.compile(r"[\W_]+")
# the latest plausible year of a date: next year (dates after it are typos or expiry dates)
cdef int _meta_max_year = _pydate.today().year + 1


ctypedef struct _MetaU:
    int kind
    const void *data
    Py_ssize_t n


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
    cdef _MetaU u
    u.kind = PyUnicode_KIND(s)
    u.data = PyUnicode_DATA(s)
    u.n = len(s)
    if _meta_ci_find(&u, b"ago") or _meta_ci_find(&u, b"yesterday") or _meta_ci_find(&u, b"today") \
            or _meta_has_cp(&u, 0x524D, 0) or _meta_has_cp(&u, 0x6628, 0x5929) or _meta_has_cp(&u, 0x4ECA, 0x5929):
        return _META_RE_RELATIVE.search(s) is not None
    return False


def meta_relative(str s):
    """A relative date ("3 days ago", "yesterday", "today", 3天前, 昨天, 今天) in `s`."""
    return _meta_relative(s)


def meta_parse_date(s, dayfirst=None):
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
    cdef _MetaU u
    u.kind = PyUnicode_KIND(t)
    u.data = PyUnicode_DATA(t)
    u.n = len(t)
    cdef Py_ssize_t p, q, r, w0, w1
    cdef int y, a, b, mo
    cdef bint any_month = False, has_year = False
    for p in range(u.n):                 # every form has a four-digit year: most texts stop here
        if _mu_year(&u, p) >= 0:
            has_year = True
            break
    if not has_year:
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
        q = _mu_run(&u, p + 4, 1)
        if _mu_at(&u, q) != 0x5E74:
            continue
        w0 = _mu_run(&u, q + 1, 1)
        w1 = _mu_exact(&u, w0)
        if w1 < 0:
            continue
        q = _mu_run(&u, w1, 1)
        if _mu_at(&u, q) != 0x6708:
            continue
        q = _mu_run(&u, q + 1, 1)
        r = _mu_exact(&u, q)
        if r < 0:
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
        # M D Y: (?<![^\W\d_])(word)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+((?:19|20)\d\d)(?!\d)
        for p in range(u.n):
            if not _mu_letter(_mu_at(&u, p)) or (p > 0 and _mu_letter(_mu_at(&u, p - 1))):
                continue
            w1 = _mu_run(&u, p, 2)
            if not 3 <= w1 - p <= 10:
                continue
            q = w1 + 1 if _mu_at(&u, w1) == 46 else w1
            r = _mu_run(&u, q, 1)
            if r == q:
                continue
            q = _mu_exact(&u, r)
            if q < 0:
                continue
            a = _mu_num(&u, r, q)
            if _mu_suffix(&u, q):
                q += 2
            if _mu_at(&u, q) == 44:
                q += 1
            r = _mu_run(&u, q, 1)
            if r == q:
                continue
            y = _mu_year(&u, r)
            if y < 0 or _mu_dec(&u, r + 4) >= 0:
                continue
            mo = _meta_month(&u, p, w1)
            if mo:
                return _meta_mkdate(y, mo, a)
        # D M Y: (?<!\d)(\d{1,2})(?:st|nd|rd|th|\.)?\s+(?:de\s+)?(word)\.?,?\s+(?:de\s+)?((?:19|20)\d\d)(?!\d)
        for p in range(u.n):
            if p > 0 and _mu_dec(&u, p - 1) >= 0:
                continue
            q = _mu_exact(&u, p)
            if q < 0:
                continue
            a = _mu_num(&u, p, q)
            if _mu_suffix(&u, q):
                q += 2
            elif _mu_at(&u, q) == 46:
                q += 1
            r = _mu_run(&u, q, 1)
            if r == q:
                continue
            if _mu_at(&u, r) == 100 and _mu_at(&u, r + 1) == 101 and _mu_space(_mu_at(&u, r + 2)):
                r = _mu_run(&u, r + 2, 1)
            w0 = r
            w1 = _mu_run(&u, w0, 2)
            if not 3 <= w1 - w0 <= 10:
                continue
            q = w1
            if _mu_at(&u, q) == 46:
                q += 1
            if _mu_at(&u, q) == 44:
                q += 1
            r = _mu_run(&u, q, 1)
            if r == q:
                continue
            if _mu_at(&u, r) == 100 and _mu_at(&u, r + 1) == 101 and _mu_space(_mu_at(&u, r + 2)):
                r = _mu_run(&u, r + 2, 1)
            y = _mu_year(&u, r)
            if y < 0 or _mu_dec(&u, r + 4) >= 0:
                continue
            mo = _meta_month(&u, w0, w1)
            if mo:
                return _meta_mkdate(y, mo, a)
        # Y M D: (?<!\d)((?:19|20)\d\d),?\s+(word)\.?\s+(\d{1,2})(?!\d)
        for p in range(u.n):
            if p > 0 and _mu_dec(&u, p - 1) >= 0:
                continue
            y = _mu_year(&u, p)
            if y < 0:
                continue
            q = p + 4
            if _mu_at(&u, q) == 44:
                q += 1
            w0 = _mu_run(&u, q, 1)
            if w0 == q:
                continue
            w1 = _mu_run(&u, w0, 2)
            if not 3 <= w1 - w0 <= 10:
                continue
            q = w1 + 1 if _mu_at(&u, w1) == 46 else w1
            r = _mu_run(&u, q, 1)
            if r == q:
                continue
            q = _mu_exact(&u, r)
            if q < 0:
                continue
            mo = _meta_month(&u, w0, w1)
            if mo:
                return _meta_mkdate(y, mo, _mu_num(&u, r, q))
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


def meta_clean(s):
    """`s` with its character references decoded and its whitespace collapsed to single
    spaces, stripped (" ".join(html.unescape(s).split())); "" when `s` is not a str."""
    if not isinstance(s, str):
        return ""
    cdef str t = s
    if "&" in t:
        t = _meta_unescape(t)
    cdef _MetaU u
    u.kind = PyUnicode_KIND(t)
    u.data = PyUnicode_DATA(t)
    u.n = len(t)
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


def meta_key(str s):
    """A comparison key: `s` case-folded, without punctuation, spaces and "_" (re.sub(r"[\\W_]+",
    "", s.casefold())); ASCII in C, other text through str.casefold."""
    if not s.isascii():
        return _META_NONWORD.sub("", s.casefold())
    cdef bytes b = s.encode("ascii")
    cdef const unsigned char *p = b
    cdef Py_ssize_t i, o = 0, n = len(b)
    cdef unsigned char c
    cdef unsigned char *buf = <unsigned char *>malloc(n + 1)
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
        return buf[:o].decode("ascii")
    finally:
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


def meta_title_split(str s):
    """The parts of a title between its separators, a separator being one of | - – — · • :: »
    / : with whitespace on both sides (re.split(r"\\s+(?:\\||-|–|—|·|•|::|»|/|:)\\s+", s))."""
    cdef _MetaU u
    u.kind = PyUnicode_KIND(s)
    u.data = PyUnicode_DATA(s)
    u.n = len(s)
    cdef Py_ssize_t i = 0, j, k, last = 0
    cdef int m
    parts = []
    while i < u.n:
        if _mu_space(_mu_at(&u, i)):
            j = _mu_run(&u, i, 1)
            m = _meta_sep_len(&u, j)
            if m:
                k = _mu_run(&u, j + m, 1)
                parts.append(s[last:i])
                last = k
                i = k
                continue
            i = j
        else:
            i += 1
    parts.append(s[last:])
    return parts
