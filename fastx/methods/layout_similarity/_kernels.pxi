# Layout similarity kernels: Yang, Li & Geng, "Study of Web pages content
# extraction based on layout similarity" (seeds/002, Sect. 2.2).
#
# Every function is one or two linear sweeps over a Doc's preorder arrays
# (a subtree of i is [i, end[i]), parent[i] < i); none recurses.
#
#   layout_alive       step a): preprocessing (form/interactive elements, empty nodes)
#   subtree_hashes     the "fully identical" and "quasi-identical" keys of every node,
#                      in one reverse sweep
#   delete_identical   step b): fully identical node deletion between target and reference
#   link_rules         step c): the two link heuristics (rule 1 link-text ratio, rule 2 link-only)
#   line_blocks        step c), optional: line-block distribution refinement (ref. [15])
#   block_ancestors    nearest block-level ancestor-or-self of every node (text blocks;
#                      also used by the site model, seeds/001 Sect. 3.1)

cdef uint64_t _LAYOUT_TEXT_SEED = 0x9E3779B97F4A7C15ULL
cdef uint64_t _LAYOUT_ORDER = 0x100000001B3ULL          # odd: multiplier of a child's position


cdef inline uint64_t _layout_mix(uint64_t a, uint64_t b) noexcept nogil:
    """splitmix64 finalizer of a combined with b (order-dependent)."""
    cdef uint64_t z = a ^ (b + 0x9E3779B97F4A7C15ULL + (a << 6) + (a >> 2))
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t _layout_fnv64(uint64_t h, const unsigned char *s, size_t n) noexcept nogil:
    cdef size_t i
    for i in range(n):
        h = fx_fnv64_step(h, s[i])
    return h


cdef inline uint64_t _layout_fnv64_nodigits(uint64_t h, const unsigned char *s, size_t n) noexcept nogil:
    """FNV-1a of s with every run of ASCII digits hashed as one '0': template nodes that
    differ by a counter, a date, a time or a numeric id hash alike."""
    cdef size_t i = 0
    while i < n:
        if 48 <= s[i] <= 57:
            h = fx_fnv64_step(h, 48)
            while i < n and 48 <= s[i] <= 57:
                i += 1
        else:
            h = fx_fnv64_step(h, s[i])
            i += 1
    return h


cdef inline uint64_t _layout_text_hash(uint64_t h, const unsigned char *s, size_t n, bint digits) noexcept nogil:
    """FNV-1a of s from h; digits False: every run of digits as one (_layout_fnv64_nodigits)."""
    return _layout_fnv64(h, s, n) if digits else _layout_fnv64_nodigits(h, s, n)


cdef inline uint64_t _layout_quasi_key(fx_node *node, int32_t tag, bint digits) noexcept nogil:
    """An element's own key (subtree_hashes' quasi key): its tag and its attributes, each a mix of
    its name's and its value's hash, summed (the order of attributes does not matter), and
    their count."""
    cdef fx_attr *a = (<fx_element *>node).first_attr
    cdef const unsigned char *s
    cdef size_t ln
    cdef uint64_t h, hv, aset = 0, acount = 0
    while a != NULL:
        s = _attr_name(a, &ln)
        h = _layout_fnv64(0xCBF29CE484222325ULL, s, ln) if s != NULL else 0
        hv = 0xCBF29CE484222325ULL
        if a.value != NULL and a.value.data != NULL:
            hv = _layout_text_hash(hv, a.value.data, a.value.length, digits)
        aset += _layout_mix(h, hv)
        acount += 1
        a = a.next
    return _layout_mix(_layout_mix(<uint64_t>tag + 1, aset), acount)


cdef inline uint64_t _layout_attr_names(fx_node *node, uint64_t *cls, uint64_t *cls1) noexcept nogil:
    """The sum of an element's attribute name hashes (record_keys: order ignored); `cls`: the hash
    of its class value, `cls1`: of the first class name (runs of digits as one digit; 0 without
    a class)."""
    cdef fx_attr *a = (<fx_element *>node).first_attr
    cdef const unsigned char *s
    cdef size_t ln, k0, k1
    cdef uint64_t names = 0
    cls[0] = 0
    cls1[0] = 0
    while a != NULL:
        s = _attr_name(a, &ln)
        if s != NULL:
            names += _layout_mix(_layout_fnv64(0xCBF29CE484222325ULL, s, ln), 1)
            if ln == 5 and s[0] == b'c' and s[1] == b'l' and s[2] == b'a' and s[3] == b's' and s[4] == b's' \
                    and a.value != NULL and a.value.data != NULL:
                cls[0] = _layout_fnv64_nodigits(0xCBF29CE484222325ULL, a.value.data, a.value.length)
                k0 = 0
                while k0 < a.value.length and a.value.data[k0] <= 32:
                    k0 += 1
                k1 = k0
                while k1 < a.value.length and a.value.data[k1] > 32:
                    k1 += 1
                cls1[0] = _layout_fnv64_nodigits(0xCBF29CE484222325ULL, a.value.data + k0, k1 - k0)
        a = a.next
    return names


def layout_alive(Doc d, const uint8_t[::1] drop_tags):
    """Preprocessing of Sect. 2.2 a): 1 for every node that survives it.

    The Doc already lacks (a) script, noscript, style, link, meta, object and
    (c) invisible elements and (d) comments.  Here: (b) the subtrees of the
    form/interactive tags flagged in `drop_tags` (indexed by static tag id)
    and (e) empty nodes, i.e. elements left without any text once (b) is
    applied (``<img/>``, ``<br/>`` and ``<div></div>`` alike, as in the paper).
    """
    cdef Py_ssize_t i, p, n = d.n
    cdef DocView dv = d.view
    cdef Py_ssize_t ntags = drop_tags.shape[0]
    out = np.zeros(n, dtype=np.uint8)
    cdef uint8_t[::1] alive = out
    live_chars = np.zeros(n, dtype=np.int64)
    cdef int64_t[::1] lc = live_chars
    with nogil:
        # forward: dead when the node or an ancestor is a dropped tag (alive = 1 means "not dead")
        for i in range(n):
            p = dv.parent[i]
            if p >= 0 and not alive[p]:
                alive[i] = 0
            elif dv.kind[i] == LXB_ELEMENT and 0 <= dv.tag[i] < ntags and drop_tags[dv.tag[i]]:
                alive[i] = 0
            else:
                alive[i] = 1
        # reverse: text left in each subtree; an element without any is empty
        for i in range(n - 1, -1, -1):
            if alive[i] and dv.kind[i] == LXB_TEXT:
                lc[i] += dv.chars[i]
            p = dv.parent[i]
            if p >= 0:
                lc[p] += lc[i]
        for i in range(n):
            if alive[i] and lc[i] == 0:
                alive[i] = 0
    return out


def subtree_hashes(Doc d, const uint8_t[::1] alive, bint digits=False):
    """Keys of Sect. 2.2 for every node, in one reverse sweep: (full, quasi), uint64 each.

    quasi (elements): tag name and attribute set (names and values, order
    ignored): equal keys = "quasi-identical" nodes.  full: quasi plus the
    ordered full keys of the alive children (text nodes: their whitespace-
    collapsed text), so equal keys = "fully identical" nodes (tag, attributes
    and content, recursively).  Nodes not alive are left out of their parents'
    keys (the comparison runs on the preprocessed trees) and get key 0.

    digits: when False, every run of digits in texts and attribute values
    counts as one and the same digit, so that template nodes differing only
    by a counter, a date, a time or a numeric id ("Comments (15)", "11:43 AM
    on 04/28/2013", ``id="post-1917"``) are fully identical.
    """
    cdef Py_ssize_t i, p, n = d.n
    cdef DocView dv = d.view
    cdef uint64_t[::1] full, quasi, acc, mul, cnt
    hashes = np.zeros((2, n), dtype=np.uint64)
    full, quasi = hashes
    acc, mul, cnt = np.zeros((3, n), dtype=np.uint64)    # per parent: children's keys, multiplier, count
    mul[:] = 1
    with nogil:
        for i in range(n - 1, -1, -1):
            if not alive[i]:
                continue
            if dv.kind[i] == LXB_TEXT:
                full[i] = _layout_mix(_LAYOUT_TEXT_SEED, _layout_text_hash(
                    0xCBF29CE484222325ULL, dv.text_buf + dv.text_off[i], <size_t>dv.text_len[i], digits))
            else:
                quasi[i] = _layout_quasi_key(<fx_node *><uintptr_t>dv.ptr[i], dv.tag[i], digits)
                # children were visited before i (reverse preorder), last child first
                full[i] = _layout_mix(_layout_mix(quasi[i], acc[i]), cnt[i])
            p = dv.parent[i]
            if p >= 0:
                acc[p] += full[i] * mul[p]
                mul[p] *= _LAYOUT_ORDER
                cnt[p] += 1
    return hashes[0], hashes[1]


cdef inline Py_ssize_t _layout_root(Doc d) noexcept:
    return d.body if d.body >= 0 else 0


def delete_identical(Doc t, const uint64_t[::1] full_t, const uint8_t[::1] alive_t,
                     Doc r, const uint64_t[::1] full_r, const uint8_t[::1] alive_r, bint inline_text=True):
    """Fully identical node deletion of Sect. 2.2 b) (the paper's stack algorithm), linear time.

    Walks the target's body in document order (the paper's StackE); for each
    alive element TE, selectSim/compare become one lookup of TE's full key
    among the reference's alive body elements (a hash table of chains in
    preorder: the quasi-identical candidates whose content is equal); the
    first one not yet deleted is TE's match, and both subtrees are deleted
    (target: skipped whole; reference: marked, so it matches only once).
    Without a match the walk descends into TE's children.  Text nodes are
    compared only as parts of elements (jsoup's children() are elements).

    inline_text: an inline element (not block-level) whose parent holds
    words of its own is part of that running text (a link or an emphasis
    inside a paragraph that is not template), so it is not deleted even
    when the reference holds an identical one (a show's name linked in the
    text and in the navigation); False: the paper's literal deletion.

    Returns a uint8 mask over the target: 1 = deleted.
    """
    cdef Py_ssize_t nt = t.n, nr = r.n, i, j, k, tb, rb, size, slot, m = 0
    cdef DocView tv = t.view
    cdef DocView rv = r.view
    cdef uint64_t key
    out = np.zeros(nt, dtype=np.uint8)
    cdef uint8_t[::1] deleted = out
    if nt == 0 or nr == 0:
        return out
    cdef uint8_t[::1] prose = np.zeros(nt, dtype=np.uint8)
    if inline_text:
        with nogil:
            for i in range(nt):
                if alive_t[i] and tv.kind[i] == LXB_TEXT and tv.words[i] > 0 and tv.parent[i] >= 0:
                    prose[tv.parent[i]] = 1
    tb = _layout_root(t)
    rb = _layout_root(r)
    for j in range(rb + 1, rv.end[rb]):
        if alive_r[j] and rv.kind[j] == LXB_ELEMENT:
            m += 1
    size = 16
    while size < 2 * m + 2:
        size *= 2
    # the hash table (key, slot used, first node of its chain) and per reference node: next in chain, removed
    cdef uint64_t[::1] keys = np.zeros(size, dtype=np.uint64)
    cdef uint8_t[::1] used = np.zeros(size, dtype=np.uint8)
    cdef int64_t[::1] head = np.full(size, -1, dtype=np.int64)
    cdef int64_t[::1] nxt = np.full(nr, -1, dtype=np.int64)
    cdef uint8_t[::1] removed = np.zeros(nr, dtype=np.uint8)
    with nogil:
        # chains in preorder: insert in reverse preorder at the head
        for j in range(rv.end[rb] - 1, rb, -1):
            if not alive_r[j] or rv.kind[j] != LXB_ELEMENT:
                continue
            key = full_r[j]
            slot = <Py_ssize_t>(key & <uint64_t>(size - 1))
            while used[slot] and keys[slot] != key:
                slot = (slot + 1) & (size - 1)
            used[slot] = 1
            keys[slot] = key
            nxt[j] = head[slot]
            head[slot] = j
        i = tb + 1
        while i < tv.end[tb]:
            if not alive_t[i]:
                i = tv.end[i]              # a dead or empty node's subtree is dead or empty too
                continue
            if tv.kind[i] != LXB_ELEMENT or (prose[tv.parent[i]] and not tv.flags[i] & NF_BLOCK):
                i += 1                    # a text, or an inline element of running text
                continue
            key = full_t[i]
            slot = <Py_ssize_t>(key & <uint64_t>(size - 1))
            while used[slot] and keys[slot] != key:
                slot = (slot + 1) & (size - 1)
            j = head[slot] if used[slot] else -1
            while j >= 0 and removed[j]:
                j = nxt[j]
            if j < 0:
                if used[slot]:
                    head[slot] = -1
                i += 1                    # no fully identical node: compare the children
                continue
            head[slot] = nxt[j]
            k = j                         # delete the reference subtree, skipping deleted parts
            while k < rv.end[j]:
                if removed[k]:
                    k = rv.end[k]
                else:
                    removed[k] = 1
                    k += 1
            for k in range(i, tv.end[i]):
                deleted[k] = 1
            i = tv.end[i]
    return out


def link_rules(Doc d, const uint8_t[::1] keep, double ratio=0.3, bint rule1=True, bint rule2=True):
    """The two link heuristics of Sect. 2.2 c) on the kept nodes; returns the new keep mask.

    Rule 1: a node that contains a link element (the link's parent) is
    deleted when its link text density, the link text it holds over all its
    text, exceeds `ratio` (the paper: 0.25-0.3).
    Rule 2: a node whose only element children are links and whose own text
    between them is not substantive (no word characters: spaces, "_", "-",
    brackets, "|" ...) is deleted.
    Both rules read the tree left by the identical-node deletion; the body and
    the root are never deleted.  A deleted node takes its subtree with it.
    """
    cdef Py_ssize_t i, p, n = d.n, top = _layout_root(d)
    cdef DocView dv = d.view
    out = np.array(keep, dtype=np.uint8, copy=True)
    cdef uint8_t[::1] k2 = out
    if n == 0:
        return out
    # per node: text and link-text characters; link and other element children; a text child
    # with words; to be deleted
    cdef int64_t[::1] tc, lc
    cdef int32_t[::1] links, other
    cdef uint8_t[::1] word_text, drop
    tc, lc = np.zeros((2, n), dtype=np.int64)
    links, other = np.zeros((2, n), dtype=np.int32)
    word_text, drop = np.zeros((2, n), dtype=np.uint8)
    with nogil:
        for i in range(n - 1, -1, -1):
            if not keep[i]:
                continue
            if dv.kind[i] == LXB_TEXT:
                tc[i] += dv.chars[i]
                if dv.flags[i] & NF_IN_LINK:
                    lc[i] += dv.chars[i]
            p = dv.parent[i]
            if p < 0:
                continue
            tc[p] += tc[i]
            lc[p] += lc[i]
            if dv.kind[i] == LXB_ELEMENT:
                if dv.flags[i] & NF_LINK:
                    links[p] += 1
                else:
                    other[p] += 1
            elif dv.words[i] > 0:
                word_text[p] = 1
        for i in range(n):
            if not keep[i] or dv.kind[i] != LXB_ELEMENT or links[i] == 0 or i <= top or i >= dv.end[top]:
                continue
            if rule1 and tc[i] > 0 and lc[i] > ratio * tc[i]:
                drop[i] = 1
            if rule2 and other[i] == 0 and not word_text[i]:
                drop[i] = 1
        i = 0
        while i < n:
            if drop[i]:
                for p in range(i, dv.end[i]):
                    k2[p] = 0
                i = dv.end[i]
            else:
                i += 1
    return out


def block_ancestors(Doc d):
    """Nearest block-level ancestor-or-self element of every node (-1 above any block).

    The text blocks of the site model (seeds/001 Sect. 3.1: "for each text
    element, its closest parent element displayed as block") and the lines of
    the line-block distribution are the text nodes sharing this value.
    """
    out = np.empty(d.n, dtype=np.int32)
    cdef int32_t *blk = <int32_t *>cnp.PyArray_DATA(out)
    with nogil:
        _blk_core(d.n, d.view.parent, d.view.kind, d.view.flags, blk)
    return out


cdef void _blk_core(Py_ssize_t n, const int32_t *parent, const uint8_t *kind, const uint16_t *flags,
                    int32_t *blk) noexcept nogil:
    """block_ancestors on arrays."""
    cdef Py_ssize_t i
    for i in range(n):
        if kind[i] == LXB_ELEMENT and flags[i] & NF_BLOCK:
            blk[i] = <int32_t>i
        elif parent[i] >= 0:
            blk[i] = blk[parent[i]]
        else:
            blk[i] = -1


def line_blocks(Doc d, const uint8_t[::1] alive, const uint8_t[::1] keep, int width=3,
                int threshold=86):
    """Line-block distribution refinement (Sect. 2.2 c), ref. [15], cx-extractor).

    The preprocessed page as text lines (consecutive alive text nodes with
    the same block ancestor form a line); a line's length is its kept
    characters, so lines deleted by the earlier steps are blank.  Block k is
    lines [k, k + width); its length the sum of theirs.  A content region
    starts at a block longer than `threshold` followed, within the next three
    blocks, by a non-blank one, and ends before the first blank block (or a
    block followed by a blank one).  Text outside every region is dropped.
    Returns the refined keep mask.
    """
    cdef Py_ssize_t i, j, n = d.n, nl = 0, nb, start
    cdef DocView dv = d.view
    cdef const int32_t[::1] blk = block_ancestors(d)
    out = np.array(keep, dtype=np.uint8, copy=True)
    cdef uint8_t[::1] k2 = out
    if width < 1:
        raise ValueError(f"line-block width must be at least 1, got {width}")
    cdef int64_t[::1] line_of = np.full(n, -1, dtype=np.int64)
    cdef int64_t[::1] llen = np.zeros(n + 1, dtype=np.int64)
    cdef int32_t last_blk = -2
    with nogil:
        for i in range(n):
            if not alive[i] or dv.kind[i] != LXB_TEXT:
                continue
            if blk[i] != last_blk or nl == 0:
                nl += 1
                last_blk = blk[i]
            line_of[i] = nl - 1
            if keep[i]:
                llen[nl - 1] += dv.chars[i]
    nb = nl - width + 1 if nl >= width else (1 if nl > 0 else 0)
    cdef int64_t[::1] bl = np.zeros(nb + 4, dtype=np.int64)
    cdef uint8_t[::1] sel = np.zeros(nl + 1, dtype=np.uint8)
    with nogil:
        for i in range(nb):
            for j in range(i, min(i + width, nl)):
                bl[i] += llen[j]
        i = 0
        while i < nb:
            if bl[i] > threshold and (bl[i + 1] > 0 or bl[i + 2] > 0 or bl[i + 3] > 0 or i + 1 >= nb):
                start = i
                while i < nb and bl[i] > 0 and not (i + 1 < nb and bl[i + 1] == 0):
                    i += 1
                # the region covers the lines of blocks start..i (each block spans `width` lines)
                for j in range(start, min(i + width, nl)):
                    sel[j] = 1
            i += 1
        for i in range(n):
            if dv.kind[i] == LXB_TEXT and k2[i] and (line_of[i] < 0 or not sel[line_of[i]]):
                k2[i] = 0
    return out


def record_keys(Doc d, const uint8_t[::1] alive):
    """Shape keys of the template records (layout step b', see the module docstring).

    Returns (skel, nattr, shape): skel[i], for an alive element, hashes its tag, its
    attribute names (order ignored), its class value (runs of digits as one
    digit) and the ordered skel keys of its alive element children, a run of
    consecutive equal children counting once; texts and other attribute
    values are left out, so two records of one template (a comment, a related
    story) filled with different data, one or several paragraphs, have equal
    keys.  nattr[i]: the alive elements with attributes in i's subtree;
    shape[i]: tag, attribute names and the first class name (the item's
    kind without its modifiers: "comment" of "comment listFirst").
    One reverse sweep, as ``subtree_hashes``.
    """
    cdef Py_ssize_t i, p, n = d.n
    cdef DocView dv = d.view
    cdef fx_node *node
    cdef uint64_t names, cls, cls1, sh
    cdef uint64_t[::1] skel, shape, acc, last, cnt
    keys = np.zeros((2, n), dtype=np.uint64)
    skel, shape = keys
    nattr_arr = np.zeros(n, dtype=np.int32)
    cdef int32_t[::1] nattr = nattr_arr
    acc, last, cnt = np.zeros((3, n), dtype=np.uint64)    # per parent: children's keys, last key, count
    with nogil:
        for i in range(n - 1, -1, -1):
            if not alive[i] or dv.kind[i] != LXB_ELEMENT:
                continue
            node = <fx_node *><uintptr_t>dv.ptr[i]
            names = _layout_attr_names(node, &cls, &cls1)
            sh = _layout_mix(_layout_mix(<uint64_t>dv.tag[i] + 1, names), cls)
            shape[i] = _layout_mix(_layout_mix(<uint64_t>dv.tag[i] + 1, names), cls1)
            skel[i] = _layout_mix(_layout_mix(sh, acc[i]), cnt[i])
            nattr[i] += (<fx_element *>node).first_attr != NULL
            p = dv.parent[i]
            if p >= 0:
                nattr[p] += nattr[i]
                if cnt[p] and last[p] == skel[i]:
                    continue                  # a run of equal children counts once
                last[p] = skel[i]
                acc[p] = acc[p] * _LAYOUT_ORDER + skel[i]
                cnt[p] += 1
    return keys[0], nattr_arr, keys[1]


def template_records(Doc d, const uint8_t[::1] keep, const uint8_t[::1] record,
                     const uint64_t[::1] shape, double share=0.5, bint members=True, int min_items=2):
    """Template record lists of layout step b' (module docstring); returns a uint8 mask (1 = delete).

    `record[i]`: 2 when alive element i is a template record (its
    ``record_keys`` skel equals a reference element's, and at least three
    elements of it carry attributes), 1 when it only has the three such
    elements, 0 otherwise.  The members of an element P are its children
    with record 2 and, with `members`, those with record 1 and the `shape`
    (``record_keys``: tag, attribute names, first class name) of P's first
    or last record-2 child (the same template item whose content differs in
    structure: a comment with a link in it).  P is a list
    when it has `min_items` or more members, one at least a record-2 child, one at
    least kept, and every kept child holding kept text is a member; its
    kept members go when P lies after the main text container C (neither
    holding the other).  C is the element whose child blocks hold the most
    kept text outside any list (the parent of the block ancestor of each
    kept text node is credited).  Nothing goes when the lists would take
    more than `share` of the kept text (the page is then a list of records:
    a forum thread, a product grid).
    """
    cdef Py_ssize_t i, p, b, c = -1, n = d.n
    cdef DocView dv = d.view
    cdef int64_t total = 0, gone = 0, best = 0
    out = np.zeros(n, dtype=np.uint8)
    cdef uint8_t[::1] dele = out
    if n == 0:
        return out
    blk_arr = block_ancestors(d)
    cdef const int32_t[::1] blk = blk_arr
    # per node: kept text, a list's kept text, the credit of C; record, member and kept-member
    # children; the first and last record-2 shapes; impure parent, member
    cdef int64_t[::1] kt, ltext, credit
    cdef int32_t[::1] nrec, nmem, nkept
    cdef uint64_t[::1] first, last
    cdef uint8_t[::1] impure, member
    kt, ltext, credit = np.zeros((3, n), dtype=np.int64)
    nrec, nmem, nkept = np.zeros((3, n), dtype=np.int32)
    first, last = np.zeros((2, n), dtype=np.uint64)
    impure, member = np.zeros((2, n), dtype=np.uint8)
    with nogil:
        # kept text of every subtree; the shapes of each parent's first and last record-2 children
        for i in range(n - 1, -1, -1):
            if keep[i] and dv.kind[i] == LXB_TEXT:
                kt[i] += dv.chars[i]
                total += dv.chars[i]
            p = dv.parent[i]
            if p < 0:
                continue
            kt[p] += kt[i]
            if record[i] == 2:
                if nrec[p] == 0:
                    last[p] = shape[i]
                first[p] = shape[i]       # reverse order: the first child in the end
                nrec[p] += 1
        # members, kept members and impurity of every parent
        for i in range(n):
            p = dv.parent[i]
            if p < 0:
                continue
            if record[i] == 2 or (members and record[i] == 1 and nrec[p] > 0
                                  and (shape[i] == first[p] or shape[i] == last[p])):
                member[i] = 1
                nmem[p] += 1
                if keep[i]:
                    nkept[p] += 1
                    ltext[p] += kt[i]
            elif keep[i] and kt[i] > 0:
                impure[p] = 1
        # the lists' kept members (marked; a list inside another list's member goes with it)
        i = 0
        while i < n:
            p = dv.parent[i]
            if p >= 0 and member[i] and keep[i] and nrec[p] >= 1 and nmem[p] >= min_items and nkept[p] >= 1 \
                    and not impure[p] and ltext[p] <= share * total:
                for b in range(i, dv.end[i]):
                    dele[b] = 1
                i = dv.end[i]
            else:
                i += 1
        # the main text container C
        for i in range(n):
            if keep[i] and dv.kind[i] == LXB_TEXT and not dele[i]:
                b = blk[i]
                if b >= 0 and dv.parent[b] >= 0:
                    credit[dv.parent[b]] += dv.chars[i]
        for i in range(n):
            if credit[i] > best:
                best = credit[i]
                c = i
        # lists inside, around or before C stay
        i = 0
        while i < n:
            if dele[i] and (i == 0 or not dele[dv.parent[i]]):
                p = dv.parent[i]
                if c < 0 or p < dv.end[c]:
                    for b in range(i, dv.end[i]):
                        dele[b] = 0
                else:
                    for b in range(i, dv.end[i]):
                        if keep[b] and dv.kind[b] == LXB_TEXT:
                            gone += dv.chars[b]
                i = dv.end[i]
            else:
                i += 1
        if total and gone > share * total:
            for i in range(n):
                dele[i] = 0
    return out
