# Marked serialization for rendering (fastx.render).
#
# The browser must lay out the page fastx parsed, and every box it reports must
# land on the right Doc node.  `render_markup` serializes lexbor's whole tree
# (head styles, hidden and dropped elements included, so the layout is the
# page's) and marks the Doc's nodes as it goes: each Doc element gets a
# `data-fx="<index>"` attribute and each Doc text node is preceded by a
# `<!--fx:<index>-->` comment (comments take no space and match no selector).
# Indices come from walking the same lexbor tree in the same preorder as
# build_doc, so the marks cannot drift from the Doc whatever the browser's
# parser does with the markup.
#
# Left out: script (unless scripts are on), noscript, template, meta, link and
# base (no network, no refresh, no <base> navigation); the src of
# iframe/frame/embed and the data of object (network is off anyway).  Image
# sources (img, source: src, srcset) become `fastx-blocked:`, a URL that fails
# inside the renderer: every image shows broken, as on the page's own URL with
# its image requests failing (an aborted absolute URL gives the same boxes; a
# relative one, unresolvable in a page without a URL, would show nothing),
# and no image costs a request (about half the render time on news pages).
# A <marquee> gets scrollamount="0": its text stays where layout put it instead
# of moving with the clock, so a page always gives the same boxes.

from libc.string cimport strlen

cdef enum:
    RP_SKIP = 1         # subtree left out
    RP_SKIP_NOJS = 2    # left out unless scripts are on
    RP_RAW = 4          # raw text children (no escaping, no markers)
    RP_RCDATA = 8       # escaped text children, but no comment markers
    RP_VOID = 16        # no end tag (HTML namespace)
    RP_NOSRC = 32       # drop src / data attributes
    RP_IMGSRC = 64      # src / srcset point at a scheme that fails at once
    RP_STILL = 128      # marquee: scrollamount=0, so boxes do not depend on when they are read

cdef uint8_t _rm_props[STATIC_LIMIT]
cdef const unsigned char *_rm_attr_name[STATIC_LIMIT]
cdef size_t _rm_attr_len[STATIC_LIMIT]
_RM_KEEP = []                 # bytes the name tables point into
_rm_ready = False



cdef struct _RmBuf:
    unsigned char *data
    Py_ssize_t n
    Py_ssize_t cap
    int oom


cdef inline void _rm_put(_RmBuf *b, const unsigned char *s, size_t m) noexcept nogil:
    if b.oom:
        return
    if not _grow(<void **>&b.data, &b.cap, b.n + <Py_ssize_t>m + 1, 1):
        b.oom = 1
        return
    memcpy(b.data + b.n, s, m)
    b.n += m


cdef inline void _rm_lit(_RmBuf *b, const char *s) noexcept nogil:
    _rm_put(b, <const unsigned char *>s, strlen(s))


cdef void _rm_int(_RmBuf *b, Py_ssize_t v) noexcept nogil:
    cdef unsigned char tmp[24]
    cdef int k = 24
    if v == 0:
        _rm_lit(b, b"0")
        return
    while v > 0 and k > 0:
        k -= 1
        tmp[k] = <unsigned char>(48 + v % 10)
        v //= 10
    _rm_put(b, tmp + k, 24 - k)


cdef void _rm_escaped(_RmBuf *b, const unsigned char *s, size_t m, int attr) noexcept nogil:
    """HTML serialization escaping: & < > in text (attr 0); & and " in attribute values (attr 1);
    & < > " ' in attribute values (attr 2: cleaned HTML, _sanitize.pxi)."""
    cdef size_t i, start = 0
    cdef unsigned char c
    for i in range(m):
        c = s[i]
        if c == 38 or (attr and c == 34) or ((attr != 1) and (c == 60 or c == 62)) or (attr == 2 and c == 39):
            _rm_put(b, s + start, i - start)
            if c == 38:
                _rm_lit(b, b"&amp;")
            elif c == 34:
                _rm_lit(b, b"&quot;")
            elif c == 60:
                _rm_lit(b, b"&lt;")
            elif c == 39:
                _rm_lit(b, b"&#39;")
            else:
                _rm_lit(b, b"&gt;")
            start = i + 1
    _rm_put(b, s + start, m - start)


cdef inline const unsigned char *_rm_name(fx_node *node, size_t *m) noexcept nogil:
    """Tag name of an element: the learned static-id table or the custom element's own name."""
    cdef uintptr_t lid = node.local_name
    if lid < STATIC_LIMIT:
        if _static_tag_name[lid] == NULL:      # a name selectolax could not give: neutral inline
            m[0] = 4
            return <const unsigned char *>b"span"
        m[0] = _static_tag_len[lid]
        return _static_tag_name[lid]
    return _lexbor_name(lid, m)


cdef inline const unsigned char *_rm_aname(fx_attr *a, size_t *m) noexcept nogil:
    """Attribute name for the serialization: the static names plus those learned from selectolax."""
    return _id_name(a.node.local_name, _rm_attr_name, _rm_attr_len, m)


cdef void _rm_set_attr(uintptr_t lid, bytes name):
    _RM_KEEP.append(name)
    _rm_attr_name[lid] = <const unsigned char *>name
    _rm_attr_len[lid] = len(name)


def _rm_init():
    """Name tables and per-tag serialization properties from the calibrated ids."""
    global _rm_ready
    cdef Py_ssize_t i
    for i in range(STATIC_LIMIT):
        _rm_props[i] = 0
        _rm_attr_name[i] = _static_attr_name[i]
        _rm_attr_len[i] = _static_attr_len[i] if _static_attr_name[i] != NULL else 0
    props = {RP_SKIP: ("noscript", "template", "meta", "link", "base"), RP_SKIP_NOJS: ("script",),
             RP_RAW: ("style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext"),
             RP_RCDATA: ("textarea", "title"), RP_VOID: VOID_TAGS,
             RP_NOSRC: ("iframe", "frame", "embed", "object"), RP_IMGSRC: ("img", "source"),
             RP_STILL: ("marquee",)}
    for bit, names in props.items():
        for t in names:
            if t in TAG_IDS:
                _rm_props[TAG_IDS[t]] |= bit
    _rm_ready = True


cdef bint _rm_known(fx_node *root) noexcept nogil:
    """True when every static tag and attribute id under root has a name in the tables."""
    cdef fx_node *node = root
    cdef fx_attr *a
    while node != NULL:
        if node.type == LXB_ELEMENT:
            if node.local_name < STATIC_LIMIT and _static_tag_name[node.local_name] == NULL:
                return False
            a = (<fx_element *>node).first_attr
            while a != NULL:
                if a.node.local_name < STATIC_LIMIT and _rm_attr_name[a.node.local_name] == NULL:
                    return False
                a = a.next
        node = _dom_next(node, root, True)
    return True


def _rm_learn(parser):
    """Learn names of static tag/attribute ids the tables lack, from selectolax's own API.

    lexbor keeps names of static ids in its own tables; selectolax reports them
    per node, so one traversal of a page that uses new ids fills the gaps (rarely:
    SVG/MathML tags, presentational attributes)."""
    cdef fx_node *node
    cdef fx_attr *a
    cdef uintptr_t lid
    for el in parser.root.traverse(include_text=False):
        node = <fx_node *><uintptr_t>el.mem_id
        if node.type != LXB_ELEMENT:
            continue
        lid = node.local_name
        if lid < STATIC_LIMIT and _static_tag_name[lid] == NULL:
            _set_static_tag_name(lid, (el.tag or "span").encode())
        a = (<fx_element *>node).first_attr
        names = None
        k = 0
        while a != NULL:
            lid = a.node.local_name
            if lid < STATIC_LIMIT and _rm_attr_name[lid] == NULL:
                if names is None:
                    names = list(el.attributes)
                # an id selectolax cannot name is learned as '' and left out
                _rm_set_attr(lid, names[k].encode() if k < len(names) else b"")
            k += 1
            a = a.next


_RM_DOCTYPE = None


def _rm_doctype(raw):
    """The page's own <!DOCTYPE ...> (it decides standards or quirks layout), or b''."""
    global _RM_DOCTYPE
    if _RM_DOCTYPE is None:
        import re
        _RM_DOCTYPE = re.compile(rb"^(?:\xef\xbb\xbf)?(?:\s|<!--.*?-->|<\?[^>]*>)*(<!doctype[^>]*>)",
                                 re.I | re.S)
    if isinstance(raw, str):
        raw = raw[:4096].encode("utf-8", "replace")
    m = _RM_DOCTYPE.match(raw[:4096] if raw else b"")
    return m.group(1) if m else b""


def render_markup(Doc d, bint scripts=False):
    """HTML of the Doc's page for a browser, every Doc node marked with its index.

    Elements carry ``data-fx="i"``; text node i is preceded by ``<!--fx:i-->``
    (except inside textarea/title and raw-text elements, where a comment would
    be text; those take their parent's box).  Returns UTF-8 bytes, the page's
    own doctype first.  See the module comment of _render.pxi for what is left
    out.
    """
    cdef fx_node *root
    cdef fx_node *node
    cdef fx_attr *a
    cdef _RmBuf b
    cdef Py_ssize_t j = 0, n = d.n, sp = 0, scap = 0, pcap = 0
    cdef DocView dv = _doc_view(d)
    cdef uint8_t *stack_props = NULL
    cdef fx_node **stack = NULL
    cdef uint8_t pr, parent_pr
    cdef size_t m, am
    cdef const unsigned char *nm
    cdef const unsigned char *an
    cdef bint is_doc, descend, nojs = not scripts
    cdef uintptr_t html_ns
    cdef fx_chardata *cd
    if not _rm_ready:
        _rm_init()
    if d.parser is None or d.parser.root is None or n == 0:
        return b""
    root = <fx_node *><uintptr_t>d.parser.root.mem_id
    if not _rm_known(root):
        _rm_learn(d.parser)
    html_ns = fx_node_ns(root)
    b.data = NULL
    b.n = b.cap = 0
    b.oom = 0
    doctype = _rm_doctype(getattr(d.parser, "raw_html", b""))
    try:
        _rm_put(&b, <const unsigned char *>doctype, len(doctype))
        with nogil:
            node = root
            while node != NULL and not b.oom:
                is_doc = j < n and <uintptr_t>dv.ptr[j] == <uintptr_t>node
                if is_doc:
                    j += 1
                descend = False
                parent_pr = stack_props[sp - 1] if sp > 0 else 0
                if node.type == LXB_ELEMENT:
                    pr = _rm_props[node.local_name] if node.local_name < STATIC_LIMIT else 0
                    if fx_node_ns(node) != html_ns:
                        pr = 0      # SVG/MathML: none of the HTML properties (RP_*: all eight bits) apply
                    if not (pr & RP_SKIP or (nojs and pr & RP_SKIP_NOJS)):
                        nm = _rm_name(node, &m)
                        _rm_lit(&b, b"<")
                        _rm_put(&b, nm, m)
                        if is_doc:
                            _rm_lit(&b, b" data-fx=\"")
                            _rm_int(&b, j - 1)
                            _rm_lit(&b, b"\"")
                        if pr & RP_STILL:
                            _rm_lit(&b, b" scrollamount=\"0\"")
                        a = (<fx_element *>node).first_attr
                        while a != NULL:
                            an = _rm_aname(a, &am)
                            if an != NULL and am > 0 and not _name_is(an, am, b"data-fx", 7) and not (
                                    pr & RP_NOSRC and (_name_is(an, am, b"src", 3) or _name_is(an, am, b"data", 4))) \
                                    and not (pr & RP_STILL and _name_is(an, am, b"scrollamount", 12)):
                                _rm_lit(&b, b" ")
                                _rm_put(&b, an, am)
                                if pr & RP_IMGSRC and (_name_is(an, am, b"src", 3) or _name_is(an, am, b"srcset", 6)):
                                    _rm_lit(&b, b"=\"fastx-blocked:\"")
                                elif a.value != NULL and a.value.data != NULL:
                                    _rm_lit(&b, b"=\"")
                                    _rm_escaped(&b, a.value.data, a.value.length, True)
                                    _rm_lit(&b, b"\"")
                                else:
                                    _rm_lit(&b, b"=\"\"")
                            a = a.next
                        _rm_lit(&b, b">")
                        if not (pr & RP_VOID):
                            if node.first_child != NULL:
                                if not _grow(<void **>&stack, &scap, sp + 1, sizeof(fx_node *)) or \
                                        not _grow(<void **>&stack_props, &pcap, sp + 1, 1):
                                    b.oom = 1
                                    break
                                stack[sp] = node
                                stack_props[sp] = pr
                                sp += 1
                                descend = True
                            else:
                                _rm_lit(&b, b"</")
                                _rm_put(&b, nm, m)
                                _rm_lit(&b, b">")
                elif node.type == LXB_TEXT or node.type == LXB_CDATA:
                    cd = <fx_chardata *>node
                    if cd.data.data != NULL and cd.data.length > 0:
                        if parent_pr & RP_RAW:
                            _rm_put(&b, cd.data.data, cd.data.length)
                        else:
                            if is_doc and not (parent_pr & RP_RCDATA):
                                _rm_lit(&b, b"<!--fx:")
                                _rm_int(&b, j - 1)
                                _rm_lit(&b, b"-->")
                            _rm_escaped(&b, cd.data.data, cd.data.length, False)
                if descend:
                    node = node.first_child
                    continue
                # next sibling, or climb, closing the elements we leave
                while node != root and node.next == NULL:
                    node = node.parent
                    if sp > 0 and stack[sp - 1] == node:
                        sp -= 1
                        nm = _rm_name(node, &m)
                        _rm_lit(&b, b"</")
                        _rm_put(&b, nm, m)
                        _rm_lit(&b, b">")
                if node == root:
                    break
                node = node.next
        if b.oom:
            raise MemoryError("fastx: out of memory while serializing the page for rendering")
        if j != n:
            from .errors import RenderError
            raise RenderError(f"fastx: the page's DOM changed since it was parsed ({j} of {n} nodes found); "
                              "render a fresh fastx.parse() of the page")
        return b.data[:b.n] if b.n else b""
    finally:
        free(b.data)
        free(stack)
        free(stack_props)
