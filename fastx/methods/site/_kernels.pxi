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


cdef inline void _site_set_token(uint64_t h, const uint64_t *tok_hash, Py_ssize_t ntok, const int32_t *tok_bit,
                                 uint64_t *bits) noexcept nogil:
    """Set the bit of token hash h (binary search in the sorted table), if a rule names it."""
    cdef Py_ssize_t at
    if fx_find_u64(tok_hash, ntok, h, &at):
        bits[tok_bit[at] >> 6] |= (<uint64_t>1) << (tok_bit[at] & 63)


cdef void _site_tokens(fx_node *node, const uint64_t *tok_hash, Py_ssize_t ntok, const int32_t *tok_bit,
                       uint64_t *bits) noexcept nogil:
    """Token bits of an element: its id (trimmed) and each whitespace-separated class."""
    cdef fx_element *el = <fx_element *>node
    cdef fx_str *v
    cdef Py_ssize_t i, j, n
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
            _site_set_token(_layout_fnv64(_SITE_ID_SEED, s + i, n - i), tok_hash, ntok, tok_bit, bits)
    if el.attr_class != NULL and el.attr_class.value != NULL and el.attr_class.value.data != NULL:
        v = el.attr_class.value
        s = v.data
        n = v.length
        j = 0
        while j < n:
            i = fx_next_word(s, n, &j)
            if j > i:
                _site_set_token(_layout_fnv64(_SITE_CLASS_SEED, s + i, j - i), tok_hash, ntok, tok_bit, bits)


cdef inline bint _site_step_ok(Py_ssize_t r, Py_ssize_t k, Py_ssize_t L, Py_ssize_t WT,
                               const int32_t *step_tag, const uint64_t *step_need, int32_t tag,
                               const uint64_t *tb) noexcept nogil:
    """Whether an element (tag id `tag`, token bits `tb`) satisfies step k of rule r."""
    cdef Py_ssize_t w
    cdef uint64_t need
    if step_tag[r * L + k] != tag:
        return False
    for w in range(WT):
        need = step_need[(r * L + k) * WT + w]
        if (need & tb[w]) != need:
            return False
    return True


cdef inline bint _site_step_named(Py_ssize_t r, Py_ssize_t k, Py_ssize_t L, Py_ssize_t WT,
                                  const uint64_t *step_need) noexcept nogil:
    """Whether step k of rule r requires an id or a class (a named container)."""
    cdef Py_ssize_t w
    for w in range(WT):
        if step_need[(r * L + k) * WT + w]:
            return True
    return False


cdef class SiteRules:
    """Compiled site rules for `site_match`, checked once (see site_rules)."""
    cdef const uint64_t *tok_hash
    cdef const int32_t *tok_bit
    cdef const int32_t *step_tag
    cdef const uint64_t *step_need
    cdef const int32_t *rule_len
    cdef Py_ssize_t ntok, R, L, WT
    cdef object keep          # the arrays the pointers point into

    def __init__(self, tok_hash, tok_bit, step_tag, step_need, rule_len):
        th, tb, st, sn, rl = self.keep = _contiguous_each(
            (tok_hash, tok_bit, step_tag, step_need, rule_len),
            (cnp.NPY_UINT64, cnp.NPY_INT32, cnp.NPY_INT32, cnp.NPY_UINT64, cnp.NPY_INT32),
            "tok_hash tok_bit step_tag step_need rule_len")
        if th.ndim != 1 or tb.shape != th.shape or st.ndim != 2 or sn.ndim != 3 or rl.ndim != 1:
            raise ValueError("site rules: expected 1-D token arrays, (rules, steps) tags, "
                             "(rules, steps, words) token bits and 1-D rule lengths")
        if st.shape[0] != rl.shape[0] or sn.shape[0] != rl.shape[0] or sn.shape[1] != st.shape[1]:
            raise ValueError("site rules: step arrays do not match the rule count")
        if th.shape[0] > 64 * sn.shape[2] or (tb.size and (tb.min() < 0 or tb.max() >= 64 * sn.shape[2])):
            raise ValueError("site rules: token table does not match the token bit width")
        if rl.size and (rl.min() < 0 or rl.max() > st.shape[1]):
            raise ValueError("site rules: a rule is longer than the step arrays")
        if th.size > 1 and (th[1:] < th[:th.shape[0] - 1]).any():
            raise ValueError("site rules: the token hashes must be sorted")
        self.tok_hash = <const uint64_t *>cnp.PyArray_DATA(th)
        self.tok_bit = <const int32_t *>cnp.PyArray_DATA(tb)
        self.step_tag = <const int32_t *>cnp.PyArray_DATA(st)
        self.step_need = <const uint64_t *>cnp.PyArray_DATA(sn)
        self.rule_len = <const int32_t *>cnp.PyArray_DATA(rl)
        self.ntok = th.shape[0]
        self.R = rl.shape[0]
        self.L = st.shape[1]
        self.WT = sn.shape[2]


def site_rules(tok_hash, tok_bit, step_tag, step_need, rule_len):
    """Rules for `site_match`: `tok_hash` (sorted) / `tok_bit`: the rules' id
    and class tokens (site_token_hash) and their bit numbers; rule r has
    `rule_len[r]` steps; step k is `step_tag[r, k]` (a tag id) and
    `step_need[r, k]` (the token bits, words of 64, the element at depth k
    must have)."""
    return SiteRules(tok_hash, tok_bit, step_tag, step_need, rule_len)


def site_match(Doc d, SiteRules rules not None):
    """Keep mask of the text blocks selected by the rules (seeds/001 Sect. 6).

    An element matches rule r of L = rule_len[r] steps when the path from
    <html> to it satisfies every step (child combinators, one step per
    depth).  When step L - 2 names an id or a class (a named container),
    the last step is also a descendant of the element P completing the
    first L - 1 steps: the CSS selector ``s0 > ... > s(L-2) s(L-1)``
    (``div.entry-content p`` also selects the paragraphs of a blockquote or
    a caption inside the content container, see fastx.site).  A node is
    kept when its nearest block-level ancestor-or-self (block_ancestors)
    matches some rule.
    """
    cdef Py_ssize_t i, r, w, p, dep, n = d.n
    cdef Py_ssize_t R = rules.R, L = rules.L, WT = rules.WT, ntok = rules.ntok
    cdef Py_ssize_t WR = (R + 63) >> 6
    cdef DocView dv = d.view
    cdef const uint64_t *tok_hash = rules.tok_hash
    cdef const int32_t *tok_bit = rules.tok_bit
    cdef const int32_t *step_tag = rules.step_tag
    cdef const uint64_t *step_need = rules.step_need
    cdef const int32_t *rule_len = rules.rule_len
    cdef bint live, under
    out = np.zeros(n, dtype=np.uint8)
    if n == 0 or R == 0:
        return out
    cdef uint8_t *keep = <uint8_t *>cnp.PyArray_DATA(out)
    # scratch: nearest block ancestors, the rules each element's path still satisfies (WR words
    # each), elements that complete a rule, one element's token bits
    cdef int32_t *blk = <int32_t *>malloc(n * sizeof(int32_t))
    cdef uint64_t *m = <uint64_t *>calloc(n * WR, sizeof(uint64_t))
    # pm: the rules whose first L - 1 steps an ancestor-or-self of the element completes
    cdef uint64_t *pm = <uint64_t *>calloc(n * WR, sizeof(uint64_t))
    cdef uint8_t *matched = <uint8_t *>calloc(n, 1)
    cdef uint64_t *tb = <uint64_t *>malloc(WT * sizeof(uint64_t))
    if blk == NULL or m == NULL or pm == NULL or matched == NULL or tb == NULL:
        free(blk)
        free(m)
        free(pm)
        free(matched)
        free(tb)
        raise MemoryError()
    with nogil:
        _blk_core(n, dv.parent, dv.kind, dv.flags, blk)
        for i in range(n):
            if dv.kind[i] != LXB_ELEMENT:
                continue
            p = dv.parent[i]
            dep = dv.depth[i]
            under = False
            if p >= 0:
                for w in range(WR):
                    pm[i * WR + w] = pm[p * WR + w]
                    if pm[p * WR + w]:
                        under = True
            live = p < 0
            if not live and dep < L:
                for w in range(WR):
                    if m[p * WR + w]:
                        live = True
                        break
            if not live and not under:
                continue
            for w in range(WT):
                tb[w] = 0
            _site_tokens(<fx_node *><uintptr_t>dv.ptr[i], tok_hash, ntok, tok_bit, tb)
            for r in range(R):
                if p >= 0 and (pm[p * WR + (r >> 6)] >> (r & 63)) & 1:
                    # the last step, anywhere below the container completing the others
                    if _site_step_ok(r, rule_len[r] - 1, L, WT, step_tag, step_need, dv.tag[i], tb):
                        matched[i] = 1
                if not live or dep >= L or dep >= rule_len[r]:
                    continue
                if p >= 0 and not (m[p * WR + (r >> 6)] >> (r & 63)) & 1:
                    continue
                if not _site_step_ok(r, dep, L, WT, step_tag, step_need, dv.tag[i], tb):
                    continue
                m[i * WR + (r >> 6)] |= (<uint64_t>1) << (r & 63)
                if dep == rule_len[r] - 1:
                    matched[i] = 1        # the whole path, child step by child step
                elif dep == rule_len[r] - 2 and _site_step_named(r, dep, L, WT, step_need):
                    pm[i * WR + (r >> 6)] |= (<uint64_t>1) << (r & 63)
        for i in range(n):
            if blk[i] >= 0 and matched[blk[i]]:
                keep[i] = 1
    free(blk)
    free(m)
    free(pm)
    free(matched)
    free(tb)
    return out
