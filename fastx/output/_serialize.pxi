# The one HTML serializer (issue 16): `_serialize(d, keep, policy)` writes the markup of the
# three HTML outputs fastx has, each a policy of one walk:
#
# - SER_CLEAN   cleaned HTML, safe to embed (`Doc.render_html`): the kept Doc nodes inside the
#               ancestors that hold them, through _sanitize.pxi's allow-lists (`_sz_element`);
#               text is the Doc's (whitespace collapsed, preformatted runs raw).
# - SER_BROWSER the whole page for a browser to lay out (`render_markup`, tools/_browser.pxi's
#               `_rm_element`): every node of lexbor's tree, each Doc node marked with its index.
# - SER_SHOW    the page view of `fastx show` (tools/show.py): every Doc node of the body, the
#               marks around each (kept/dropped classes...) given by a Python callable.
#
# The walk is lexbor's tree in preorder from a root, no recursion: an explicit stack of the
# written elements still open (closed when the walk climbs out of them), the Doc index j of the
# next Doc node kept in step (a node is Doc node j when the Doc's ptr[j] is that node: the Doc is
# lexbor's tree in preorder with subtrees left out, so the Doc policies skip every node that is
# not a Doc node, with its subtree).  Output goes into one growing C buffer (_SerBuf) through
# _ser_put/_ser_lit/_ser_escaped, the escaping of HTML serialization.

from libc.string cimport strlen

cdef enum:
    SER_CLEAN = 0
    SER_BROWSER = 1
    SER_SHOW = 2


cdef struct _SerBuf:
    unsigned char *data
    Py_ssize_t n
    Py_ssize_t cap
    int oom


cdef inline void _ser_put(_SerBuf *b, const unsigned char *s, size_t m) noexcept nogil:
    if b.oom:
        return
    if not _grow(<void **>&b.data, &b.cap, b.n + <Py_ssize_t>m + 1, 1):
        b.oom = 1
        return
    memcpy(b.data + b.n, s, m)
    b.n += m


cdef inline void _ser_lit(_SerBuf *b, const char *s) noexcept nogil:
    _ser_put(b, <const unsigned char *>s, strlen(s))


cdef void _ser_int(_SerBuf *b, Py_ssize_t v) noexcept nogil:
    cdef unsigned char tmp[24]
    cdef int k = 24
    if v == 0:
        _ser_lit(b, b"0")
        return
    while v > 0 and k > 0:
        k -= 1
        tmp[k] = <unsigned char>(48 + v % 10)
        v //= 10
    _ser_put(b, tmp + k, 24 - k)


cdef void _ser_escaped(_SerBuf *b, const unsigned char *s, size_t m, int attr) noexcept nogil:
    """HTML serialization escaping: & < > in text (attr 0); & and " in attribute values (attr 1);
    & < > " ' in attribute values (attr 2: cleaned HTML, _sanitize.pxi)."""
    cdef size_t i, start = 0
    cdef unsigned char c
    for i in range(m):
        c = s[i]
        if c == 38 or (attr and c == 34) or ((attr != 1) and (c == 60 or c == 62)) or (attr == 2 and c == 39):
            _ser_put(b, s + start, i - start)
            if c == 38:
                _ser_lit(b, b"&amp;")
            elif c == 34:
                _ser_lit(b, b"&quot;")
            elif c == 60:
                _ser_lit(b, b"&lt;")
            elif c == 39:
                _ser_lit(b, b"&#39;")
            else:
                _ser_lit(b, b"&gt;")
            start = i + 1
    _ser_put(b, s + start, m - start)


cdef inline const unsigned char *_ser_name(fx_node *node, size_t *m) noexcept nogil:
    """Tag name of an element: the static-id table or the custom element's own name."""
    cdef uintptr_t lid = node.local_name
    if lid < STATIC_LIMIT:
        if _static_tag_name[lid] == NULL:      # a name selectolax could not give: neutral inline
            m[0] = 4
            return <const unsigned char *>b"span"
        m[0] = _static_tag_len[lid]
        return _static_tag_name[lid]
    return _lexbor_name(lid, m)


cdef struct _SerOpen:
    fx_node *node               # the element (closed when the walk climbs out of it)
    const unsigned char *name   # its end tag writes </name> (SER_SHOW: name itself)
    size_t len
    uint8_t props               # the policy's properties of the element (SER_BROWSER: RP_* bits)
    bint literal                # name is the whole end tag (SER_SHOW's marks)


cdef inline void _ser_close(_SerBuf *b, const _SerOpen *o) noexcept nogil:
    if o.literal:
        _ser_put(b, o.name, o.len)
    else:
        _ser_lit(b, b"</")
        _ser_put(b, o.name, o.len)
        _ser_lit(b, b">")


cdef struct _SerWalk:
    _SerBuf b
    DocView dv
    int policy
    bint nojs                   # SER_BROWSER: scripts left out
    fx_node *root
    Py_ssize_t j                # the Doc index of the next Doc node
    Py_ssize_t jend             # ... up to this one
    const uint8_t *em           # SER_CLEAN: 1 = the node or a descendant is kept
    Py_ssize_t blen             # SER_CLEAN: bytes in the Doc's text buffer
    uintptr_t html_ns           # SER_BROWSER: the HTML namespace id
    _SerOpen *stack
    Py_ssize_t sp
    Py_ssize_t scap
    void *ctx                   # SER_SHOW: a list [marks callable, the bytes the walk points
                                # into, the exception the callable raised or None]
    bint failed                 # SER_SHOW: the callable raised


cdef bint _ser_show_marks(_SerWalk *w, Py_ssize_t i, const unsigned char **close, size_t *cn) noexcept:
    """SER_SHOW: write the opening marks of Doc node i (`marks(i)` -> (before, after) str) and
    return its closing marks in close/cn; False when the callable failed."""
    cdef list ctx = <list>w.ctx
    try:
        before, after = ctx[0](i)
        bb = before.encode("utf-8", "surrogatepass")
        ab = after.encode("utf-8", "surrogatepass")
    except BaseException as exc:
        w.failed = True
        ctx[2] = exc
        return False
    ctx[1].append(ab)
    _ser_put(&w.b, <const unsigned char *>bb, len(bb))
    close[0] = <const unsigned char *>ab
    cn[0] = len(ab)
    return True


cdef void _ser_walk(_SerWalk *w) noexcept nogil:
    """The walk of the module comment: lexbor's tree from w.root in preorder; each node written
    by w.policy; the written elements closed as the walk climbs out of them."""
    cdef fx_node *node = w.root
    cdef fx_chardata *cd
    cdef Py_ssize_t i, g
    cdef bint is_doc, descend, gap_written = False, pre
    cdef uint8_t pr, parent_pr
    cdef int opened
    cdef _SerOpen top
    cdef DocView *dv = &w.dv
    cdef _SerBuf *b = &w.b
    while node != NULL and not b.oom and not w.failed:
        i = w.j
        is_doc = i < w.jend and <uintptr_t>dv.ptr[i] == <uintptr_t>node
        if is_doc:
            w.j += 1
        descend = False
        top.node = node
        top.name = NULL
        top.len = 0
        top.props = 0
        top.literal = w.policy == SER_SHOW
        opened = 0                      # 1: written, its end tag due; 2: written, no end tag
        parent_pr = w.stack[w.sp - 1].props if w.sp > 0 else 0
        if w.policy != SER_BROWSER and not is_doc:
            pass                        # not in the Doc: left out with its subtree
        elif node.type == LXB_ELEMENT:
            if w.policy == SER_BROWSER:
                opened = _rm_element(b, node, w.html_ns, w.nojs, i if is_doc else -1, &top)
                descend = opened == 1 and node.first_child != NULL
            elif w.policy == SER_CLEAN:
                if w.em[i]:
                    opened = _sz_element(b, node, dv.tag[i], &top)
                    descend = node.first_child != NULL
                else:
                    w.j = dv.end[i]     # nothing kept inside: the Doc nodes of the subtree skipped
            else:
                with gil:
                    opened = 1 if _ser_show_marks(w, i, &top.name, &top.len) else 0
                descend = node.first_child != NULL
        elif node.type == LXB_TEXT or node.type == LXB_CDATA:
            if w.policy == SER_BROWSER:
                cd = <fx_chardata *>node
                if cd.data.data != NULL and cd.data.length > 0:
                    if parent_pr & RP_RAW:
                        _ser_put(b, cd.data.data, cd.data.length)
                    else:
                        if is_doc and not (parent_pr & RP_RCDATA):
                            _ser_lit(b, b"<!--fx:")
                            _ser_int(b, i)
                            _ser_lit(b, b"-->")
                        _ser_escaped(b, cd.data.data, cd.data.length, 0)
            elif w.policy == SER_CLEAN:
                if w.em[i]:
                    # collapsed text: a space where the source had whitespace.  Preformatted
                    # text (NF_PRE) is stored raw with the whitespace after a block boundary
                    # before it; the whitespace after it on its line follows it in the buffer
                    # (_text_gap, _add_raw_text), written right after it
                    pre = (dv.flags[i] & NF_PRE) != 0
                    if dv.flags[i] & NF_WS_BEFORE and not gap_written and \
                            not (pre and dv.text_len[i] > 0 and dv.text_buf[dv.text_off[i]] <= 32):
                        _ser_lit(b, b" ")
                    _ser_escaped(b, dv.text_buf + dv.text_off[i], <size_t>dv.text_len[i], 0)
                    g = _text_gap(w.jend, dv.kind, dv.flags, dv.text_off, dv.text_len, w.blen, i) if pre else 0
                    gap_written = g > 0
                    if gap_written:
                        _ser_escaped(b, dv.text_buf + dv.text_off[i] + dv.text_len[i], <size_t>g, 0)
                    elif dv.flags[i] & NF_WS_AFTER and not pre:
                        _ser_lit(b, b" ")
            else:
                with gil:
                    opened = 1 if _ser_show_marks(w, i, &top.name, &top.len) else 0
                _ser_escaped(b, dv.text_buf + dv.text_off[i], <size_t>dv.text_len[i], 0)
                _ser_put(b, top.name, top.len)
                opened = 0
        if opened == 1:
            if descend:
                if not _grow(<void **>&w.stack, &w.scap, w.sp + 1, sizeof(_SerOpen)):
                    b.oom = 1
                    break
                w.stack[w.sp] = top
                w.sp += 1
            else:
                _ser_close(b, &top)
        if descend:
            node = node.first_child
            continue
        # next sibling, or climb, closing the written elements we leave
        while node != w.root and node.next == NULL:
            node = node.parent
            if w.sp > 0 and w.stack[w.sp - 1].node == node:
                w.sp -= 1
                _ser_close(b, &w.stack[w.sp])
        if node == w.root:
            break
        node = node.next


cdef bytes _serialize(Doc d, const uint8_t[::1] keep, int policy, object marks=None, bint scripts=False,
                      bytes prefix=b""):
    """The markup of the Doc's page under `policy` (module comment above) as UTF-8 bytes, after
    `prefix`.  keep (SER_CLEAN, SER_SHOW): uint8 over the Doc; marks (SER_SHOW): i -> (before,
    after) str written around Doc node i (an element's after is its end tag)."""
    cdef Py_ssize_t i, n = d.n, rb
    cdef _SerWalk w
    cdef uint8_t *em = NULL
    w.b.data = NULL
    w.b.n = w.b.cap = 0
    w.b.oom = 0
    w.dv = d.view
    w.policy = policy
    w.nojs = not scripts
    w.j = 0
    w.jend = n
    w.em = NULL
    w.blen = len(d.text_buf)
    w.html_ns = 0
    w.stack = NULL
    w.sp = w.scap = 0
    ctx = [marks, [], None]
    w.ctx = <void *>ctx
    w.failed = False
    if policy != SER_BROWSER and keep.shape[0] != n:
        raise ValueError(f"keep mask has {keep.shape[0]} entries, the Doc has {n} nodes")
    if n == 0 or d.parser is None or d.parser.root is None:
        return b""
    if policy == SER_BROWSER:
        w.root = <fx_node *><uintptr_t>d.parser.root.mem_id
        w.html_ns = fx_node_ns(w.root)
        _rm_prepare(d.parser, w.root)
    elif policy == SER_CLEAN:
        _sz_prepare()
        w.root = <fx_node *><uintptr_t>w.dv.ptr[0]
    else:
        rb = d.body if d.body >= 0 else 0
        w.root = <fx_node *><uintptr_t>w.dv.ptr[rb]
        w.j = rb
        w.jend = w.dv.end[rb]
    try:
        _ser_put(&w.b, <const unsigned char *>prefix, len(prefix))
        if policy == SER_SHOW:
            _ser_walk(&w)
        else:
            if policy == SER_CLEAN:
                em = <uint8_t *>malloc(n)
                if em == NULL:
                    raise MemoryError("fastx: out of memory while serializing")
                w.em = em
            with nogil:
                if em != NULL:
                    # an element is written (or unwrapped) if it or a descendant is kept
                    memset(em, 0, n)
                    for i in range(n - 1, -1, -1):
                        if keep[i]:
                            em[i] = 1
                        if em[i] and w.dv.parent[i] >= 0:
                            em[w.dv.parent[i]] = 1
                    _grow(<void **>&w.b.data, &w.b.cap, w.blen // 2 + 1024, 1)
                _ser_walk(&w)
        if w.failed:
            raise ctx[2]
        if w.b.oom:
            raise MemoryError("fastx: out of memory while serializing")
        if policy == SER_BROWSER and w.j != n:
            from .errors import RenderError
            raise RenderError(f"fastx: the page's DOM changed since it was parsed ({w.j} of {n} nodes found); "
                              "render a fresh fastx.parse() of the page")
        return w.b.data[:w.b.n] if w.b.n else b""
    finally:
        free(em)
        free(w.stack)
        free(w.b.data)


def serialize(Doc d, const uint8_t[::1] keep, object marks):
    """The Doc's body as markup with `marks(i)` -> (before, after) written around every Doc node i
    in it (SER_SHOW: `fastx show`'s page view; an element's `after` is its end tag, a text
    node's escaped text stands between its two).  Returns str."""
    return _serialize(d, keep, SER_SHOW, marks).decode("utf-8", "replace")
