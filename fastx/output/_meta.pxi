# Page metadata: one C pass over lexbor's tree collecting the raw evidence
# fastx.metadata resolves (docs/metadata.md).
#
# The Doc drops <head>, scripts and hidden elements; metadata lives exactly
# there, so this pass walks lexbor's own tree (iteratively, from the Doc's
# parser root) and emits only what can name a title, author, date, language,
# canonical URL, image, tags or type:
#
#   <meta> name/property/itemprop/http-equiv + content, <link rel> + href,
#   <base href>, <html lang>, <script type=application/ld+json> text,
#   microdata itemprop values in the body, <time datetime>, <h1> text,
#   elements whose class/id/rel name an author, byline or date (their text),
#   short text nodes that open a byline or dateline ("By ...", "Posted on",
#   作者/来源/发布时间/日期).
#
# Each record is (kind, key, value, order): order is the element's preorder
# position, so the resolver can prefer what sits near the headline.  Every
# count and every text is bounded (a hostile page cannot make this pass emit
# more than a few hundred short strings), and skipped subtrees (script,
# style, template) are never entered.

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
# the bounded look at the body: bylines, datelines and microdata are looked for up to the first
# h1 (at most _META_BEFORE_H1 elements) and _META_AFTER_H1 elements after it (comments, related
# posts and footers after that are not read: only <meta> and JSON-LD <script> tags are)
DEF _META_BEFORE_H1 = 4000
DEF _META_AFTER_H1 = 800
DEF _META_MAX_JSONLD = 24

# record kinds (fastx.metadata reads them by these names)
META_KIND = {"meta": 0, "link": 1, "jsonld": 2, "lang": 3, "itemprop": 4, "time": 5, "h1": 6,
             "hint": 7, "text": 8, "base": 9, "year": 10}

# <meta> names that may repeat, each value meaningful (article:tag, several authors)
_META_MULTI = frozenset(("article:tag", "article:author", "og:article:tag", "book:tag", "video:tag",
                         "citation_author", "article:section", "author"))

cdef int32_t _meta_id_meta = -1, _meta_id_link = -1, _meta_id_script = -1, _meta_id_html = -1
cdef int32_t _meta_id_time = -1, _meta_id_h1 = -1, _meta_id_base = -1, _meta_id_style = -1
cdef int32_t _meta_id_template = -1, _meta_id_body = -1, _meta_id_a = -1, _meta_id_img = -1
cdef int32_t _meta_id_noscript = -1, _meta_id_svg = -1


cdef void _meta_init():
    global _meta_id_meta, _meta_id_link, _meta_id_script, _meta_id_html, _meta_id_time, _meta_id_h1
    global _meta_id_base, _meta_id_style, _meta_id_template, _meta_id_body, _meta_id_a, _meta_id_img
    global _meta_id_noscript, _meta_id_svg
    _meta_id_meta = TAG_IDS["meta"]
    _meta_id_link = TAG_IDS["link"]
    _meta_id_script = TAG_IDS["script"]
    _meta_id_html = TAG_IDS["html"]
    _meta_id_time = TAG_IDS["time"]
    _meta_id_h1 = TAG_IDS["h1"]
    _meta_id_base = TAG_IDS["base"]
    _meta_id_style = TAG_IDS["style"]
    _meta_id_template = TAG_IDS["template"]
    _meta_id_body = TAG_IDS["body"]
    _meta_id_a = TAG_IDS["a"]
    _meta_id_img = TAG_IDS["img"]
    _meta_id_noscript = TAG_IDS["noscript"]
    _meta_id_svg = TAG_IDS["svg"]
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


# the first two letters (lower-cased) of the words _meta_hint_name looks for, as a bit set over
# the 65,536 byte pairs: one table lookup rejects almost every position of a class value
cdef uint8_t _META_PAIR[8192]


cdef void _meta_pair_init():
    cdef const char *pairs = b"aubydapupowrustiso"
    cdef int i, k
    memset(_META_PAIR, 0, sizeof(_META_PAIR))
    for i in range(0, 18, 2):
        k = (<unsigned char>pairs[i] << 8) | <unsigned char>pairs[i + 1]
        _META_PAIR[k >> 3] |= <uint8_t>(1 << (k & 7))


cdef bint _meta_hint_name(const unsigned char *v, size_t n) noexcept nogil:
    """A class/id/rel value naming an author, byline, writer, user name, source or a date/time
    (one pass: a byte-pair table lookup at each position, the word compared only where the
    pair opens one)."""
    cdef size_t i
    cdef unsigned int k
    cdef unsigned char c
    if n < 4:
        return False
    for i in range(n - 3):
        c = v[i] | 32
        k = (<unsigned int>c << 8) | (v[i + 1] | 32)
        if not (_META_PAIR[k >> 3] & (1 << (k & 7))):
            continue
        if c == 97:
            if _meta_ci_at(v + i, n - i, b"author", 6):
                return True
        elif c == 98:
            if _meta_ci_at(v + i, n - i, b"byline", 6):
                return True
        elif c == 100:
            if _meta_ci_at(v + i, n - i, b"date", 4):
                return True
        elif c == 112:
            if _meta_ci_at(v + i, n - i, b"publish", 7) or _meta_ci_at(v + i, n - i, b"posted", 6):
                return True
        elif c == 119:
            if _meta_ci_at(v + i, n - i, b"writer", 6):
                return True
        elif c == 117:
            if _meta_ci_at(v + i, n - i, b"username", 8) or _meta_ci_at(v + i, n - i, b"user-name", 9):
                return True
        elif c == 116:
            if _meta_ci_at(v + i, n - i, b"time", 4):
                return True
        elif c == 115:
            if _meta_ci_at(v + i, n - i, b"source", 6):
                return True
    return False


cdef str _meta_attr(fx_node *node, const char *name, size_t m):
    cdef fx_attr *a = _find_attr(node, name, m)
    if a == NULL or a.value == NULL:
        return None
    return _fx_str(a.value)


cdef str _meta_text(fx_node *node, size_t limit):
    """Text of a lexbor subtree, at most `limit` bytes from at most _META_TEXT_NODES nodes
    (iterative; script/style/template skipped)."""
    cdef unsigned char buf[_META_TEXT_MAX + 8]
    cdef size_t k = 0, take
    cdef fx_node *cur = node.first_child
    cdef fx_chardata *cd
    cdef int32_t tag
    cdef int visits = 0
    if limit > _META_TEXT_MAX:
        limit = _META_TEXT_MAX
    # at most _META_TEXT_NODES nodes: a class naming a date on a container of the whole article
    # must not make the pass walk the article (once per such container)
    while cur != NULL and k < limit and visits < _META_TEXT_NODES:
        visits += 1
        if cur.type == LXB_TEXT:
            cd = <fx_chardata *>cur
            take = cd.data.length
            if take > limit - k:
                take = limit - k
            if k > 0 and k < limit:
                buf[k] = 10          # text nodes are separate lines (a byline's name, then its role)
                k += 1
                if take > limit - k:
                    take = limit - k
            if take:
                memcpy(buf + k, cd.data.data, take)
                k += take
        elif cur.type == LXB_ELEMENT and cur.first_child != NULL:
            tag = <int32_t>cur.local_name if cur.local_name < STATIC_LIMIT else -2     # custom: none of ours
            if tag != _meta_id_script and tag != _meta_id_style and tag != _meta_id_template \
                    and tag != _meta_id_noscript and tag != _meta_id_svg:
                cur = cur.first_child
                continue
        cur = _dom_next(cur, node, False)
    return (<bytes>buf[:k]).decode("utf-8", "ignore")


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
    """Raw metadata evidence of a parsed page, from one bounded iterative pass over lexbor's
    tree: (metas, multi, records). metas: <meta> name/property/itemprop/http-equiv (lower-cased)
    -> its first non-empty content; multi: the names in _META_MULTI -> all their contents;
    records: (kind, key, value, order) of every other kind in META_KIND."""
    if _meta_id_meta < 0:
        _meta_init()
    out = []
    cdef dict metas = {}
    cdef dict multi = {}
    cdef list lst
    parser = doc.parser
    if parser is None:
        return metas, multi, out
    root_node = parser.root
    if root_node is None:
        return metas, multi, out
    cdef fx_node *root = <fx_node *><uintptr_t>root_node.mem_id
    cdef fx_node *node = root
    cdef fx_node *up
    cdef fx_attr *a
    cdef int32_t tag
    cdef int order = 0
    cdef int n_meta = 0, n_items = 0, n_hints = 0, n_texts = 0, n_times = 0, n_h1 = 0, n_ld = 0, n_years = 0
    cdef bint descend, in_body = False, near = False
    cdef int h1_at = -1
    cdef size_t an, vn
    cdef const unsigned char *s
    cdef const unsigned char *v
    cdef fx_chardata *cd
    cdef int bl
    cdef str key, val
    while node != NULL:
        descend = node.first_child != NULL
        if node.type == LXB_ELEMENT:
            order += 1
            # every tag this pass looks for has a static lexbor id: a custom element's name is not hashed
            tag = <int32_t>node.local_name if node.local_name < STATIC_LIMIT else -2
            if tag == _meta_id_meta:
                if n_meta < _META_MAX_META:
                    val = _meta_attr(node, b"content", 7)
                    if val is not None:
                        key = _meta_attr(node, b"property", 8) or _meta_attr(node, b"name", 4) \
                            or _meta_attr(node, b"itemprop", 8) or _meta_attr(node, b"http-equiv", 10)
                        if key:
                            # the <meta> names land in a dict here (lower-cased name -> first
                            # non-empty value; the multi-valued ones also listed in `multi`)
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
            elif tag == _meta_id_link:
                a = _find_attr(node, b"rel", 3)
                key = None
                if a != NULL and a.value != NULL and (_meta_ci_has(a.value.data, a.value.length, b"canonical", 9)
                                                      or _meta_ci_has(a.value.data, a.value.length, b"author", 6)):
                    key = _fx_str(a.value)
                val = _meta_attr(node, b"href", 4)
                if key and val and n_meta < _META_MAX_META:
                    out.append((1, key, val, order))
                    n_meta += 1
                key = _meta_attr(node, b"itemprop", 8)
                if key and val and n_items < _META_MAX_ITEMS:
                    out.append((4, key, val, order))
                    n_items += 1
            elif tag == _meta_id_script:
                a = _find_attr(node, b"type", 4)
                if a != NULL and a.value != NULL and n_ld < _META_MAX_JSONLD \
                        and _meta_ci_has(a.value.data, a.value.length, b"ld+json", 7):
                    out.append((2, "", _meta_script_text(node), order))
                    n_ld += 1
                descend = False
            elif tag == _meta_id_style or tag == _meta_id_template or tag == _meta_id_svg:
                descend = False
            elif tag == _meta_id_html:
                val = _meta_attr(node, b"lang", 4) or _meta_attr(node, b"xml:lang", 8)
                if val:
                    out.append((3, "html", val, order))
            elif tag == _meta_id_base:
                val = _meta_attr(node, b"href", 4)
                if val:
                    out.append((9, "base", val, order))
            else:
                if tag == _meta_id_body:
                    in_body = True
                elif tag == _meta_id_h1 and h1_at < 0 and in_body:
                    h1_at = order
                near = in_body and (order - h1_at < _META_AFTER_H1 if h1_at >= 0 else order < _META_BEFORE_H1)
                if tag == _meta_id_time and n_times < _META_MAX_TIMES and near:
                    val = _meta_attr(node, b"datetime", 8)
                    out.append((5, val or "", _meta_text(node, 80), order))
                    n_times += 1
                if tag == _meta_id_h1 and n_h1 < _META_MAX_H1:
                    out.append((6, "", _meta_text(node, _META_TEXT_MAX), order))
                    n_h1 += 1
                # one pass over the attributes: itemprop, and class/id/rel naming an author or date
                # (in the head and in the window around the headline: after it only the tags are
                # read, looking for <meta> and JSON-LD)
                a = (<fx_element *>node).first_attr if near or not in_body else NULL
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
                                    val = _meta_text(node, _META_TEXT_MAX)
                                out.append((4, _fx_str(a.value), val, order))
                                n_items += 1
                        elif near and n_hints < _META_MAX_HINTS and vn and vn < 200 and (
                                (an == 5 and memcmp(s, b"class", 5) == 0) or (an == 2 and memcmp(s, b"id", 2) == 0)
                                or (an == 3 and memcmp(s, b"rel", 3) == 0)):
                            if _meta_hint_name(v, vn):
                                out.append((7, _fx_str(a.value), _meta_text(node, _META_TEXT_MAX), order))
                                n_hints += 1
                    a = a.next
        elif node.type == LXB_TEXT and near and (n_texts < _META_MAX_TEXTS or n_years < _META_MAX_YEARS):
            cd = <fx_chardata *>node
            if cd.data.length <= 400:
                bl = _meta_byline_text(cd.data.data, cd.data.length)
                if bl == 3:
                    if n_years < _META_MAX_YEARS:
                        out.append((10, "", _fx_str(&cd.data), order))
                        n_years += 1
                elif bl and n_texts < _META_MAX_TEXTS:
                    # the byline's element, or its parent when the text node is all of it
                    # ("<span>By</span> <a>Name</a>")
                    up = node.parent
                    val = _meta_text(up, _META_TEXT_MAX) if up != NULL else ""
                    key = ""
                    if up != NULL and up.parent != NULL and len(val.strip()) <= <Py_ssize_t>cd.data.length + 2:
                        key = _meta_text(up.parent, _META_TEXT_MAX)
                    out.append((8, key, val, order))
                    n_texts += 1
        node = _dom_next(node, root, descend)
    return metas, multi, out
