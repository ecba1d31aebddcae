# Site rules kernel: applying consolidated CSS selectors (Zhou & Sun, "Web
# Content Extraction Through Machine Learning", seeds/001 Sect. 6) to a Doc
# in one forward sweep, without a DOM query per selector.
#
# A rule is a child-combinator path from <html>: one step per depth, each a
# tag id plus required ids/classes.  Every id/class token a rule names gets a
# bit; each element's tokens become a bitmask (hashes of its class/id values,
# looked up in the sorted token table); a node's rule bits are its parent's
# bits AND the rules whose step at its depth it satisfies.

cdef uint64_t _SITE_CLASS_SEED = 0xCBF29CE484222325ULL ^ 0x2E    # '.'
cdef uint64_t _SITE_ID_SEED = 0xCBF29CE484222325ULL ^ 0x23       # '#'


def site_token_hash(str kind, str token):
    """Hash of an id (`kind` '#') or class (`kind` '.') token, as site_match computes it."""
    cdef bytes b = token.encode("utf-8")
    if kind == "#":
        return _layout_fnv64(_SITE_ID_SEED, <const unsigned char *>b, len(b))
    if kind == ".":
        return _layout_fnv64(_SITE_CLASS_SEED, <const unsigned char *>b, len(b))
    raise ValueError(f"token kind must be '#' or '.', got {kind!r}")


def site_tag_id(str name):
    """fastx tag id of a tag name: lexbor's static id, or the custom-element id of `_tag_of`."""
    if name in TAG_IDS:
        return TAG_IDS[name]
    if name.startswith("#") and name[1:].isdigit():
        return int(name[1:])
    cdef bytes b = name.lower().encode("utf-8")
    return <int32_t>(STATIC_LIMIT + (_fnv1a(<const unsigned char *>b, len(b)) & 0x3FFFFFFF))


cdef inline void _site_set_token(uint64_t h, const uint64_t[::1] tok_hash, const int32_t[::1] tok_bit,
                                 uint64_t *bits) noexcept nogil:
    """Set the bit of token hash h (binary search in the sorted table), if a rule names it."""
    cdef Py_ssize_t lo = 0, hi = tok_hash.shape[0], mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if tok_hash[mid] < h:
            lo = mid + 1
        else:
            hi = mid
    if lo < tok_hash.shape[0] and tok_hash[lo] == h:
        bits[tok_bit[lo] >> 6] |= (<uint64_t>1) << (tok_bit[lo] & 63)


cdef void _site_tokens(fx_node *node, const uint64_t[::1] tok_hash, const int32_t[::1] tok_bit,
                       uint64_t *bits) noexcept nogil:
    """Token bits of an element: its id (trimmed) and each whitespace-separated class."""
    cdef fx_element *el = <fx_element *>node
    cdef fx_str *v
    cdef size_t i, j, n
    cdef const unsigned char *s
    if el.attr_id != NULL and el.attr_id.value != NULL and el.attr_id.value.data != NULL:
        v = el.attr_id.value
        s = v.data
        i = 0
        n = v.length
        while i < n and s[i] <= 32:
            i += 1
        while n > i and s[n - 1] <= 32:
            n -= 1
        if n > i:
            _site_set_token(_layout_fnv64(_SITE_ID_SEED, s + i, n - i), tok_hash, tok_bit, bits)
    if el.attr_class != NULL and el.attr_class.value != NULL and el.attr_class.value.data != NULL:
        v = el.attr_class.value
        s = v.data
        n = v.length
        i = 0
        while i < n:
            while i < n and s[i] <= 32:
                i += 1
            j = i
            while j < n and s[j] > 32:
                j += 1
            if j > i:
                _site_set_token(_layout_fnv64(_SITE_CLASS_SEED, s + i, j - i), tok_hash, tok_bit, bits)
            i = j


def site_match(Doc d, const uint64_t[::1] tok_hash, const int32_t[::1] tok_bit,
               const int32_t[:, ::1] step_tag, const uint64_t[:, :, ::1] step_need,
               const int32_t[::1] rule_len):
    """Keep mask of the text blocks selected by the rules (seeds/001 Sect. 6).

    `tok_hash` (sorted) / `tok_bit`: the rules' id and class tokens
    (site_token_hash) and their bit numbers.  Rule r has `rule_len[r]` steps;
    step k is `step_tag[r, k]` (a tag id) and `step_need[r, k]` (the token
    bits the element at depth k must have).  An element matches rule r when
    the path from <html> to it satisfies every step and its depth is
    rule_len[r] - 1; a node is kept when its nearest block-level
    ancestor-or-self (block_ancestors) matches some rule.
    """
    cdef Py_ssize_t i, r, w, p, dep, n = d.n
    cdef Py_ssize_t R = rule_len.shape[0], L = step_tag.shape[1], WT = step_need.shape[2]
    cdef Py_ssize_t WR = (R + 63) >> 6
    cdef const int32_t *parent = d.c_parent
    cdef const int32_t *depth = d.c_depth
    cdef const int32_t *tag = d.c_tag
    cdef const uint8_t *kind = d.c_kind
    cdef const uint64_t *ptr = d.c_ptr
    cdef const int32_t[::1] blk = block_ancestors(d)
    cdef bint ok, live
    cdef uint64_t need
    out = np.zeros(n, dtype=np.uint8)
    cdef uint8_t[::1] keep = out
    if n == 0 or R == 0:
        return out
    if step_tag.shape[0] != R or step_need.shape[0] != R or step_need.shape[1] != L:
        raise ValueError("site rules: step arrays do not match the rule count")
    if tok_bit.shape[0] != tok_hash.shape[0] or tok_hash.shape[0] > 64 * WT:
        raise ValueError("site rules: token table does not match the token bit width")
    tb_arr = np.zeros(WT, dtype=np.uint64)
    m_arr = np.zeros((n, WR), dtype=np.uint64)
    matched_arr = np.zeros(n, dtype=np.uint8)
    cdef uint64_t[::1] tb = tb_arr
    cdef uint64_t[:, ::1] m = m_arr
    cdef uint8_t[::1] matched = matched_arr
    with nogil:
        for i in range(n):
            if kind[i] != LXB_ELEMENT:
                continue
            p = parent[i]
            dep = depth[i]
            if dep >= L:
                continue
            live = p < 0
            if not live:
                for w in range(WR):
                    if m[p, w]:
                        live = True
                        break
            if not live:
                continue
            for w in range(WT):
                tb[w] = 0
            _site_tokens(<fx_node *><uintptr_t>ptr[i], tok_hash, tok_bit, &tb[0])
            for r in range(R):
                if p >= 0 and not (m[p, r >> 6] >> (r & 63)) & 1:
                    continue
                if rule_len[r] <= dep or step_tag[r, dep] != tag[i]:
                    continue
                ok = True
                for w in range(WT):
                    need = step_need[r, dep, w]
                    if (need & tb[w]) != need:
                        ok = False
                        break
                if not ok:
                    continue
                m[i, r >> 6] |= (<uint64_t>1) << (r & 63)
                if rule_len[r] == dep + 1:
                    matched[i] = 1
        for i in range(n):
            if blk[i] >= 0 and matched[blk[i]]:
                keep[i] = 1
    return out
