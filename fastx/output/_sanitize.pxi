# Cleaned HTML, safe to embed by construction (issue 15, item 3): `Doc.render_html(keep)`.
#
# The one serializer (output/_serialize.pxi, policy SER_CLEAN) writes the kept nodes,
# inside the ancestors that hold them, through `_sz_element` below.  What comes out is
# decided by allow-lists, never by a list of what is dangerous:
#
# - Elements (HTML namespace only): the content set of _SZ_TAGS.  Any other
#   element is unwrapped: its tag is left out, its children are kept, so the
#   text is the text of `Extraction.text`.  The Doc itself never holds script,
#   style, iframe, object, embed, svg, math, template, noscript or the <head>
#   (_doc.pxi); form controls (form, input, button, select, textarea), html,
#   body and custom elements are unwrapped here (their text stays, no control).
# - Attributes: the per-element sets of _SZ_ATTRS (title, lang and dir on every
#   kept element; href on a; src, srcset, alt, width, height on img...).  No
#   on*, style, id, name (DOM clobbering), formaction, autofocus, open
#   (details' toggle event), xlink:href or anything else.  `class` is kept on
#   <code> and <pre> only, reduced to its `language-*` / `lang-*` tokens (the
#   code's language, which Markdown fences and highlighters read).
# - URLs (href, cite, src, every srcset candidate): http, https, mailto or
#   relative; images (img/source src and srcset) may also be
#   data:image/(png|gif|jpeg|webp).  The scheme is read as the WHATWG URL parser
#   reads it (https://url.spec.whatwg.org/#concept-basic-url-parser: leading C0
#   controls and spaces stripped, tab/LF/CR removed anywhere, ASCII
#   case-insensitive), only more strictly: every byte <= 0x20 or 0x7F before
#   the first ':' is skipped, so "java\tscript:" and " JaVaScRiPt:" are the
#   scheme "javascript".  Entities are already decoded by the parser.  A URL
#   whose scheme is not allowed drops its attribute.  srcset is split into
#   candidates as HTML's "parse a srcset attribute" does (commas outside
#   parentheses), and one bad candidate drops the attribute.
# - Text escapes & < >; attribute values & < > " ' (always double-quoted).
#   No comment, raw-text or foreign (svg/math) element is ever written, so the
#   output tokenizes in the data state only: reparsing it can move elements
#   (tables, nested links) but cannot create an element or an attribute.  The
#   buffer is decoded as UTF-8 with replacement, so the str is valid UTF-8.

_SZ_TAGS = ("p", "div", "span", "section", "article", "main", "header", "footer", "aside", "nav", "hgroup",
            "address", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead",
            "tbody", "tfoot", "tr", "td", "th", "caption", "colgroup", "col", "pre", "code", "kbd", "samp", "var",
            "blockquote", "q", "cite", "dfn", "em", "strong", "b", "i", "u", "s", "sub", "sup", "small", "mark",
            "abbr", "time", "data", "bdi", "bdo", "ruby", "rt", "rp", "br", "wbr", "hr", "img", "picture",
            "source", "figure", "figcaption", "a", "del", "ins", "details", "summary")

# attribute codes (bit positions in _sz_attrs) and how their values are checked
cdef enum:
    SA_TITLE = 1
    SA_LANG
    SA_DIR
    SA_HREF
    SA_CITE
    SA_SRC
    SA_SRCSET
    SA_ALT
    SA_WIDTH
    SA_HEIGHT
    SA_COLSPAN
    SA_ROWSPAN
    SA_SCOPE
    SA_SPAN
    SA_DATETIME
    SA_START
    SA_REVERSED
    SA_VALUE
    SA_TYPE
    SA_CLASS
    SA_COUNT

cdef enum:
    SV_PLAIN = 0        # escaped as it is
    SV_LINK = 1         # http(s), mailto or relative URL
    SV_IMAGE = 2        # a link URL or data:image/(png|gif|jpeg|webp)
    SV_SRCSET = 3       # every candidate an image URL
    SV_CLASS = 4        # language-* / lang-* tokens only

# code -> (name, value check); index = code
_SZ_ATTR_DEFS = (None, ("title", SV_PLAIN), ("lang", SV_PLAIN), ("dir", SV_PLAIN), ("href", SV_LINK),
                 ("cite", SV_LINK), ("src", SV_IMAGE), ("srcset", SV_SRCSET), ("alt", SV_PLAIN),
                 ("width", SV_PLAIN), ("height", SV_PLAIN), ("colspan", SV_PLAIN), ("rowspan", SV_PLAIN),
                 ("scope", SV_PLAIN), ("span", SV_PLAIN), ("datetime", SV_PLAIN), ("start", SV_PLAIN),
                 ("reversed", SV_PLAIN), ("value", SV_PLAIN), ("type", SV_PLAIN), ("class", SV_CLASS))
_SZ_GLOBAL_ATTRS = ("title", "lang", "dir")
# element -> attributes beyond the global ones
_SZ_ATTRS = {"a": ("href",), "img": ("src", "srcset", "alt", "width", "height"),
             "source": ("src", "srcset", "type", "width", "height"), "td": ("colspan", "rowspan"),
             "th": ("colspan", "rowspan", "scope"), "col": ("span",), "colgroup": ("span",),
             "ol": ("start", "reversed", "type"), "li": ("value",), "data": ("value",),
             "time": ("datetime",), "del": ("cite", "datetime"), "ins": ("cite", "datetime"),
             "blockquote": ("cite",), "q": ("cite",), "code": ("class",), "pre": ("class",)}

cdef enum:
    SZ_KEEP = 1         # allowed element: its tag is written
    SZ_VOID = 2         # no end tag

cdef uint8_t _sz_props[STATIC_LIMIT]
cdef uint32_t _sz_attrs[STATIC_LIMIT]          # allowed attribute codes per tag (bit = 1 << code)
cdef uint8_t _sz_attr_code[STATIC_LIMIT]       # static attribute id -> code (0: not allowed)
cdef const unsigned char *_sz_attr_name[SA_COUNT]
cdef size_t _sz_attr_len[SA_COUNT]
cdef uint8_t _sz_attr_check[SA_COUNT]
cdef uintptr_t _sz_html_ns = 0
_SZ_KEEP = []                                  # bytes the name tables point into
_sz_ready = False


def _sz_init():
    """Tag and attribute tables from the calibrated tag ids (TAG_IDS) and from lexbor's own
    ids of the allowed attribute names (read off one parsed element).  The tables start
    zeroed (C statics: nothing allowed) and are only ever set, each entry's name before its
    property, to the same values by every call: a serializer running in another thread
    while a second call fills them never reads an allowed tag without its name."""
    global _sz_ready, _sz_html_ns
    from selectolax.lexbor import LexborHTMLParser
    cdef Py_ssize_t k
    cdef fx_node *node
    cdef fx_attr *a
    cdef uint32_t mask
    codes = {}
    for k in range(1, SA_COUNT):
        name, check = _SZ_ATTR_DEFS[k]
        bname = name.encode()
        _SZ_KEEP.append(bname)
        _sz_attr_name[k] = <const unsigned char *>bname
        _sz_attr_len[k] = len(bname)
        _sz_attr_check[k] = check
        codes[name] = k
    for t in _SZ_TAGS:
        lid = TAG_IDS.get(t)
        if lid is None or lid >= STATIC_LIMIT:
            continue             # not learned: unwrapped, which is safe
        _sz_props[lid] = SZ_KEEP | (SZ_VOID if t in VOID_TAGS else 0)
        mask = 0
        for an in _SZ_GLOBAL_ATTRS + _SZ_ATTRS.get(t, ()):
            mask |= 1u << <int>codes[an]
        _sz_attrs[lid] = mask
    names = [_SZ_ATTR_DEFS[k][0] for k in range(1, SA_COUNT)]
    tree = LexborHTMLParser("<body><span " + " ".join(f'{nm}="{k}"' for k, nm in enumerate(names)) + ">x</span>")
    el = tree.css_first("span")
    node = <fx_node *><uintptr_t>el.mem_id
    _sz_html_ns = fx_node_ns(node)
    a = (<fx_element *>node).first_attr
    while a != NULL:
        k = int(_fx_str(a.value))
        if a.node.local_name < STATIC_LIMIT:
            _sz_attr_code[a.node.local_name] = <uint8_t>(k + 1)
        a = a.next
    _sz_ready = True


cdef uint8_t _sz_dyn_code(const unsigned char *s, size_t m) noexcept nogil:
    """Code of an attribute lexbor has no static id for (by name), 0 when not allowed."""
    cdef int k
    for k in range(1, SA_COUNT):
        if _sz_attr_len[k] == m and memcmp(_sz_attr_name[k], s, m) == 0:
            return <uint8_t>k
    return 0


cdef inline bint _sz_lower_eq(const unsigned char *s, size_t n, const char *lit, size_t m) noexcept nogil:
    """ASCII case-insensitive equality with a lower-case literal."""
    return n == m and fx_ascii_ci_prefix(s, n, lit, m)


cdef bint _sz_url_ok(const unsigned char *s, size_t n, bint image) noexcept nogil:
    """An allowed URL: relative, http:, https:, mailto:, and for images data:image/(png|gif|jpeg|webp).

    The scheme is what precedes the first ':' when no '/', '\\', '?' or '#'
    comes first (WHATWG URL parser, scheme state), read ASCII case-insensitively
    with every byte <= 0x20 and 0x7F skipped (a browser strips leading C0
    controls and spaces and removes tab/LF/CR anywhere; skipping all of them is
    stricter).  No ':' before those: a relative URL."""
    cdef unsigned char sch[8]
    cdef size_t i, k = 0, j
    cdef unsigned char c
    cdef bint long_scheme = False
    for i in range(n):
        c = s[i]
        if c <= 32 or c == 127:
            continue
        if c == 58:                    # ':'
            break
        if c == 47 or c == 92 or c == 63 or c == 35:     # / \ ? #: no scheme
            return True
        if k < 8:
            sch[k] = c + 32 if 65 <= c <= 90 else c
            k += 1
        else:
            long_scheme = True
    else:
        return True                    # no ':' at all: relative
    if long_scheme or k == 0:
        return False
    if (k == 4 and memcmp(sch, b"http", 4) == 0) or (k == 5 and memcmp(sch, b"https", 5) == 0) \
            or (k == 6 and memcmp(sch, b"mailto", 6) == 0):
        return True
    if not (image and k == 4 and memcmp(sch, b"data", 4) == 0):
        return False
    # data: the MIME type (RFC 2397) up to ';' or ',', spaces and controls around it skipped
    i += 1
    while i < n and (s[i] <= 32 or s[i] == 127):
        i += 1
    j = i
    while j < n and s[j] != 59 and s[j] != 44:
        j += 1
    k = j
    while k > i and (s[k - 1] <= 32 or s[k - 1] == 127):
        k -= 1
    if j >= n:
        return False
    return _sz_lower_eq(s + i, k - i, b"image/png", 9) or _sz_lower_eq(s + i, k - i, b"image/gif", 9) \
        or _sz_lower_eq(s + i, k - i, b"image/jpeg", 10) or _sz_lower_eq(s + i, k - i, b"image/webp", 10)


cdef inline bint _sz_ascii_ws(unsigned char c) noexcept nogil:
    return c == 32 or c == 9 or c == 10 or c == 12 or c == 13


cdef bint _sz_srcset_ok(const unsigned char *s, size_t n) noexcept nogil:
    """Every image candidate URL of a srcset is an allowed image URL.

    Candidates split as HTML's "parse a srcset attribute" splits them: skip
    whitespace and commas; the URL is the following run of non-whitespace
    (trailing commas removed, which end the candidate); descriptors run to the
    next comma outside parentheses."""
    cdef size_t i = 0, start, e
    cdef bint paren
    while True:
        while i < n and (_sz_ascii_ws(s[i]) or s[i] == 44):
            i += 1
        if i >= n:
            return True
        start = i
        while i < n and not _sz_ascii_ws(s[i]):
            i += 1
        e = i
        if s[e - 1] == 44:
            while e > start and s[e - 1] == 44:
                e -= 1
        else:
            paren = False
            while i < n:
                if paren:
                    if s[i] == 41:
                        paren = False
                elif s[i] == 40:
                    paren = True
                elif s[i] == 44:
                    i += 1
                    break
                i += 1
        if not _sz_url_ok(s + start, e - start, True):
            return False


cdef inline bint _sz_lang_char(unsigned char c) noexcept nogil:
    return (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122) or c == 95 or c == 43 or c == 35 \
        or c == 46 or c == 45


cdef void _sz_class(_SerBuf *b, const unsigned char *s, size_t n) noexcept nogil:
    """` class="..."` with the language-* / lang-* tokens of a class value (nothing when none)."""
    cdef size_t i = 0, start, j, p
    cdef bint first = True, ok
    while i < n:
        while i < n and _sz_ascii_ws(s[i]):
            i += 1
        start = i
        while i < n and not _sz_ascii_ws(s[i]):
            i += 1
        if i - start > 9 and _sz_lower_eq(s + start, 9, b"language-", 9):
            p = 9
        elif i - start > 5 and _sz_lower_eq(s + start, 5, b"lang-", 5):
            p = 5
        else:
            continue
        ok = True
        for j in range(start + p, i):
            if not _sz_lang_char(s[j]):
                ok = False
                break
        if not ok:
            continue
        _ser_lit(b, b" class=\"" if first else b" ")
        first = False
        _ser_put(b, s + start, i - start)
    if not first:
        _ser_lit(b, b"\"")


cdef void _sz_attrs_of(_SerBuf *b, fx_node *node, uint32_t allowed) noexcept nogil:
    """The allowed attributes of an element, values checked and escaped."""
    cdef fx_attr *a = (<fx_element *>node).first_attr
    cdef uintptr_t lid
    cdef uint8_t code
    cdef size_t m, vn
    cdef const unsigned char *s
    cdef const unsigned char *v
    cdef uint8_t check
    while a != NULL:
        lid = a.node.local_name
        if lid < STATIC_LIMIT:
            code = _sz_attr_code[lid]
        else:
            v = _lexbor_name(lid, &vn)
            code = _sz_dyn_code(v, vn)
        if code and allowed & (1u << code):
            if a.value != NULL and a.value.data != NULL:
                v = a.value.data
                vn = a.value.length
            else:
                v = <const unsigned char *>b""
                vn = 0
            check = _sz_attr_check[code]
            if check == SV_CLASS:
                _sz_class(b, v, vn)
            elif (check == SV_PLAIN or (check == SV_LINK and _sz_url_ok(v, vn, False))
                    or (check == SV_IMAGE and _sz_url_ok(v, vn, True))
                    or (check == SV_SRCSET and _sz_srcset_ok(v, vn))):
                _ser_lit(b, b" ")
                _ser_put(b, _sz_attr_name[code], _sz_attr_len[code])
                _ser_lit(b, b"=\"")
                _ser_escaped(b, v, vn, 2)
                _ser_lit(b, b"\"")
        a = a.next


cdef inline void _sz_prepare():
    if not _sz_ready:
        _sz_init()


cdef int _sz_element(_SerBuf *b, fx_node *node, int32_t t, _SerOpen *top) noexcept nogil:
    """SER_CLEAN's element (_serialize.pxi): written, with its allowed attributes, when its tag is
    allowed and it is in the HTML namespace (returns 1 and its end tag in `top`, or 2 for a void
    element); else 0: unwrapped (left out, its children still written)."""
    cdef uint8_t pr
    if t < 0 or t >= STATIC_LIMIT:
        return 0                         # custom element: unwrapped
    pr = _sz_props[t]
    if not (pr & SZ_KEEP):
        return 0                         # not allowed: unwrapped
    if fx_node_ns(node) != _sz_html_ns:
        return 0                         # foreign content: never written
    _ser_lit(b, b"<")
    _ser_put(b, _static_tag_name[t], _static_tag_len[t])
    _sz_attrs_of(b, node, _sz_attrs[t])
    _ser_lit(b, b">")
    if pr & SZ_VOID:
        return 2
    top.name = _static_tag_name[t]
    top.len = _static_tag_len[t]
    return 1


def safe_url(url, bint image=False):
    """True when cleaned HTML keeps this URL (see _sz_url_ok): relative, http(s), mailto, and with
    image=True also data:image/(png|gif|jpeg|webp).  For other writers of links (Markdown)."""
    if not isinstance(url, (str, bytes)):
        raise TypeError(f"safe_url needs str or bytes, got {type(url).__name__}")
    cdef bytes raw = url.encode("utf-8", "surrogatepass") if isinstance(url, str) else url
    return _sz_url_ok(<const unsigned char *>raw, len(raw), image)


def safe_srcset(srcset):
    """True when every candidate URL of a srcset value is an allowed image URL (_sz_srcset_ok)."""
    if not isinstance(srcset, (str, bytes)):
        raise TypeError(f"safe_srcset needs str or bytes, got {type(srcset).__name__}")
    cdef bytes raw = srcset.encode("utf-8", "surrogatepass") if isinstance(srcset, str) else srcset
    return _sz_srcset_ok(<const unsigned char *>raw, len(raw))
