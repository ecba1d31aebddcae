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
_rm_ready = False


cdef int _rm_element(_SerBuf *b, fx_node *node, uintptr_t html_ns, bint nojs, Py_ssize_t idx,
                     _SerOpen *top) noexcept nogil:
    """SER_BROWSER's element (_serialize.pxi): its start tag with every attribute (names from the
    one attribute table, _static_attr_name, learned ones included) and `data-fx="idx"` when it is
    Doc node idx (idx >= 0); returns 1 with its end tag and properties in `top`, 2 for a void
    element, 0 when it is left out with its subtree."""
    cdef uint8_t pr = _rm_props[node.local_name] if node.local_name < STATIC_LIMIT else 0
    cdef size_t m, am
    cdef const unsigned char *nm
    cdef const unsigned char *an
    cdef fx_attr *a
    if fx_node_ns(node) != html_ns:
        pr = 0      # SVG/MathML: none of the HTML properties (RP_*: all eight bits) apply
    if pr & RP_SKIP or (nojs and pr & RP_SKIP_NOJS):
        return 0
    nm = _ser_name(node, &m)
    _ser_lit(b, b"<")
    _ser_put(b, nm, m)
    if idx >= 0:
        _ser_lit(b, b" data-fx=\"")
        _ser_int(b, idx)
        _ser_lit(b, b"\"")
    if pr & RP_STILL:
        _ser_lit(b, b" scrollamount=\"0\"")
    a = (<fx_element *>node).first_attr
    while a != NULL:
        an = _id_name(a.node.local_name, _static_attr_name, _static_attr_len, &am)
        if an != NULL and am > 0 and not _name_is(an, am, b"data-fx", 7) and not (
                pr & RP_NOSRC and (_name_is(an, am, b"src", 3) or _name_is(an, am, b"data", 4))) \
                and not (pr & RP_STILL and _name_is(an, am, b"scrollamount", 12)):
            _ser_lit(b, b" ")
            _ser_put(b, an, am)
            if pr & RP_IMGSRC and (_name_is(an, am, b"src", 3) or _name_is(an, am, b"srcset", 6)):
                _ser_lit(b, b"=\"fastx-blocked:\"")
            elif a.value != NULL and a.value.data != NULL:
                _ser_lit(b, b"=\"")
                _ser_escaped(b, a.value.data, a.value.length, 1)
                _ser_lit(b, b"\"")
            else:
                _ser_lit(b, b"=\"\"")
        a = a.next
    _ser_lit(b, b">")
    if pr & RP_VOID:
        return 2
    top.name = nm
    top.len = m
    top.props = pr
    return 1


def _rm_init():
    """Name tables and per-tag serialization properties from the calibrated ids."""
    global _rm_ready
    cdef Py_ssize_t i
    for i in range(STATIC_LIMIT):
        _rm_props[i] = 0
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
                if a.node.local_name < STATIC_LIMIT and _static_attr_name[a.node.local_name] == NULL:
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
            if lid < STATIC_LIMIT and _static_attr_name[lid] == NULL:
                if names is None:
                    names = list(el.attributes)
                # an id selectolax cannot name is learned as '' and left out
                _set_static_attr_name(lid, names[k].encode() if k < len(names) else b"", True)
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


cdef void _rm_prepare(parser, fx_node *root):
    """The tables ready for a serialization of the tree under `root` (names learned if needed)."""
    if not _rm_ready:
        _rm_init()
    if not _rm_known(root):
        _rm_learn(parser)


def render_markup(Doc d, bint scripts=False):
    """HTML of the Doc's page for a browser, every Doc node marked with its index.

    Elements carry ``data-fx="i"``; text node i is preceded by ``<!--fx:i-->``
    (except inside textarea/title and raw-text elements, where a comment would
    be text; those take their parent's box).  Returns UTF-8 bytes, the page's
    own doctype first.  See the module comment above for what is left out;
    the walk is the one serializer's (_serialize.pxi, policy SER_BROWSER).
    """
    if d.parser is None or d.parser.root is None or d.n == 0:
        return b""
    return _serialize(d, None, SER_BROWSER, None, scripts, _rm_doctype(getattr(d.parser, "raw_html", b"")))
