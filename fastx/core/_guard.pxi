# Hostile-input guard: bound the work lexbor's tree builder can be made to do.
#
# lexbor implements the HTML standard's tree construction faithfully, and the
# standard has quadratic corners that a page of a few hundred kilobytes can hit:
#
# - every block start tag looks for an open <p> "in button scope" by walking the
#   stack of open elements, so '<div>' * 100000 costs ~5e9 steps (30 s here);
# - the same for '</p>' / '</li>' / misnested '</b>' (adoption agency) with a
#   deep stack;
# - one element with 100,000 distinct attribute names costs as much (28 s);
# - unclosed formatting elements with distinct attributes are re-created after
#   every block ("reconstruct the active formatting elements"), so
#   '<p><b id=N>x</p>' * 20000 builds 2e8 elements (memory, then time);
# - text directly inside a table is moved before it ("foster parenting") and
#   lexbor appends each such run to one text node, reallocating it: 30,000
#   runs took 15 s.
#
# Browsers bound the same corners (Blink stops nesting at depth 512).
# `guard_html` runs a model of the HTML tokenizer and of the tree builder's stack
# of open elements (scopes, implied end tags, foreign content, raw text, the
# adoption agency's "furthest block") over the UTF-8 bytes, in one linear pass
# with O(1) work per token, and removes from the input only what would exceed
# the limits:
#
# - a start tag that would open an element deeper than `max_depth` (its text
#   stays, one level up; its end tag then closes the nearest open element of
#   that name, exactly as the model and lexbor both see it);
# - a formatting start tag (b, i, font, ...) while `max_formatting` formatting
#   elements are active (only inline formatting is lost);
# - the attributes of one tag beyond `max_attrs`;
# - and once the page has made the tree builder re-create more than
#   4096 + bytes/64 formatting elements, or moved more than 4096 runs of text
#   out of tables, every tag and comment after that point except raw-text
#   elements (<script>, <style>, ...): the rest of the page is read as text.
#
# Text is never removed.  A page within the limits comes back as the same
# bytes object: every page of the development corpora does (their deepest
# modelled stack is 54; they re-create at most 161 formatting elements and
# foster no text).  Where the model cannot follow lexbor exactly it errs
# towards more depth than lexbor builds; a shape where it falls behind is a
# bug: `benchmarks/fuzz.py patterns` hunts them, tests/test_fuzz.py
# MODEL_REGRESSIONS keeps the ones found fixed.

from libc.stdlib cimport calloc
from libc.string cimport memchr, memmove, memset

GUARD_MAX_DEPTH = 512
GUARD_MAX_FORMATTING = 32
GUARD_MAX_ATTRS = 512
GUARD_MAX_FOSTERED = 4096
# distinct tag and attribute names (not the standard's own) that reach lexbor through
# guard_html: lexbor's name tables keep their 128 buckets there (the guarded parse widens
# them), so N distinct names cost N * N / 256 comparisons, and every later use of a name
# a walk of N / 128 entries; 16,384 keep both to a few hundred milliseconds at 50 MB
GUARD_MAX_NAMES = 16384

cdef enum:
    _G_VOID = 1 << 0
    _G_RAW = 1 << 1           # raw text / RCDATA content: script style xmp iframe noembed noframes textarea title
    _G_PLAINTEXT = 1 << 2
    _G_FORMAT = 1 << 3        # formatting elements (active formatting list)
    _G_A = 1 << 4
    _G_SPECIAL = 1 << 5       # the standard's "special" category
    _G_SCOPE = 1 << 6         # boundary of the default scope
    _G_BUTTON = 1 << 7        # <button>: boundary of button scope, closes an open button
    _G_LISTS = 1 << 8         # ol ul: boundary of list item scope
    _G_TSCOPE = 1 << 9        # html table template: boundary of table scope
    _G_CLOSEP = 1 << 10       # start tag closes a <p> in button scope
    _G_HEADING = 1 << 11
    _G_LI = 1 << 12
    _G_DDDT = 1 << 13
    _G_MARKER = 1 << 14       # closing it clears the active formatting list
    _G_FOREIGN = 1 << 15      # svg math
    _G_INTEGRATION = 1 << 16  # MathML text / SVG HTML integration points
    _G_BREAKOUT = 1 << 17     # an HTML start tag that leaves foreign content
    _G_CELL = 1 << 18
    _G_TR = 1 << 19
    _G_TSECT = 1 << 20
    _G_TABLE = 1 << 21
    _G_OPTION = 1 << 22
    _G_OPTGROUP = 1 << 23
    _G_ADP = 1 << 24          # address div p (the li/dd/dt loop passes them)
    _G_IGNORE = 1 << 25       # html head body: never pushed again
    _G_RECON = 1 << 26        # special, yet its start tag reconstructs the active formatting elements
    _G_SVG_HIP = 1 << 27      # SVG HTML integration points (_G_INTEGRATION: the MathML ones)
    _G_IMPLIED = 1 << 28      # closed by "generate implied end tags"
    _G_RUBY = 1 << 29         # rb rtc rp rt: close the implied end tags in a ruby

DEF _GUARD_HT = 512           # known-name table (power of 2)
DEF _GUARD_UNKNOWN = 1024     # id buckets for other names
DEF _GUARD_NAME = 32          # longest known name
DEF _GUARD_WORDS = 4          # _GUARD_NAME / 8

cdef uint32_t _guard_ht_hash[_GUARD_HT]
cdef uint8_t _guard_ht_len[_GUARD_HT]
cdef int32_t _guard_ht_id[_GUARD_HT]
cdef uint64_t _guard_ht_name[_GUARD_HT][_GUARD_WORDS]   # zero-padded
cdef uint8_t _guard_cls[256]              # byte classes, below
cdef uint32_t _guard_cat[_GUARD_HT]       # category bits by id (ids < _GUARD_HT)
cdef int32_t _guard_nknown = 0
cdef int32_t _guard_id_p = 0, _guard_id_li = 0, _guard_id_dd = 0, _guard_id_dt = 0, _guard_id_a = 0
cdef int32_t _guard_id_nobr = 0, _guard_id_button = 0, _guard_id_tr = 0, _guard_id_td = 0
cdef int32_t _guard_id_th = 0, _guard_id_tbody = 0, _guard_id_thead = 0, _guard_id_tfoot = 0
cdef int32_t _guard_id_table = 0, _guard_id_select = 0, _guard_id_option = 0, _guard_id_optgroup = 0
cdef int32_t _guard_id_caption = 0, _guard_id_template = 0, _guard_id_br = 0
cdef int32_t _guard_id_colgroup = 0, _guard_id_form = 0, _guard_id_svg = 0
cdef int32_t _guard_id_ruby = 0, _guard_id_rtc = 0, _guard_id_input = 0, _guard_id_rb = 0
cdef int32_t _guard_id_h[6]


def _guard_categories():
    """Tag name -> category bits (names as the HTML standard's tree construction lists them)."""
    cats = {}

    def add(names, bit):
        for t in names.split():
            cats[t] = cats.get(t, 0) | bit

    add("area base br col embed hr img input link meta param source track wbr keygen frame basefont "
        "bgsound image", _G_VOID)
    add("script style xmp iframe noembed noframes textarea title", _G_RAW)
    add("plaintext", _G_PLAINTEXT)
    add("b big code em font i nobr s small strike strong tt u", _G_FORMAT)
    add("a", _G_A | _G_FORMAT)
    add("address applet area article aside base basefont bgsound blockquote body br button caption "
        "center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form frame "
        "frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link listing "
        "main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre script "
        "search section select source style summary table tbody td template textarea tfoot th thead "
        "title tr track ul wbr xmp", _G_SPECIAL)
    add("applet caption html table td th marquee object template", _G_SCOPE)
    add("button", _G_BUTTON)
    add("ol ul", _G_LISTS)
    add("html table template", _G_TSCOPE)
    add("address article aside blockquote center details dialog dir div dl fieldset figcaption figure "
        "footer header hgroup main menu nav ol p search section summary ul h1 h2 h3 h4 h5 h6 pre "
        "listing form plaintext table hr xmp li dd dt", _G_CLOSEP)
    add("h1 h2 h3 h4 h5 h6", _G_HEADING)
    add("li", _G_LI)
    add("dd dt", _G_DDDT)
    add("applet marquee object td th caption template", _G_MARKER)
    add("svg math", _G_FOREIGN)
    add("mi mo mn ms mtext annotation-xml", _G_INTEGRATION)      # in the MathML namespace
    add("foreignobject desc title", _G_SVG_HIP)                   # in the SVG namespace
    # (font only breaks out with color/face/size; counting it always keeps the model on the safe side)
    add("b big blockquote body br center code dd div dl dt em embed font h1 h2 h3 h4 h5 h6 head hr i img "
        "li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var",
        _G_BREAKOUT)
    add("td th", _G_CELL)
    add("tr", _G_TR)
    add("tbody thead tfoot", _G_TSECT)
    add("table", _G_TABLE)
    add("option", _G_OPTION)
    add("optgroup", _G_OPTGROUP)
    add("address div p", _G_ADP)
    add("html head body", _G_IGNORE)
    add("applet marquee object area br embed img keygen wbr input select button xmp optgroup option "
        "math svg image", _G_RECON)
    add("dd dt li optgroup option p rb rp rt rtc", _G_IMPLIED)
    add("rb rtc rp rt", _G_RUBY)
    add("span ruby", 0)
    return cats


cdef enum:
    _GC_WS = 1            # HTML whitespace
    _GC_NAME_END = 2      # ends a tag name: whitespace / >
    _GC_ATTR_END = 4      # ends an attribute name: whitespace / > =
    _GC_VALUE_END = 8     # ends an unquoted attribute value: whitespace >
    _GC_UPPER = 16


def _guard_init():
    """Fill the known-name table (once, at import)."""
    global _guard_nknown
    cdef uint32_t h, slot
    cdef int32_t ident = 0
    cdef bytes b
    memset(_guard_ht_len, 0, sizeof(_guard_ht_len))
    memset(_guard_ht_name, 0, sizeof(_guard_ht_name))
    memset(_guard_cls, 0, sizeof(_guard_cls))
    for c in b" \t\n\x0c\r":
        _guard_cls[c] |= _GC_WS | _GC_NAME_END | _GC_ATTR_END | _GC_VALUE_END
    for c in b"/>":
        _guard_cls[c] |= _GC_NAME_END | _GC_ATTR_END
    _guard_cls[61] |= _GC_ATTR_END
    _guard_cls[62] |= _GC_VALUE_END
    for c in range(65, 91):
        _guard_cls[c] |= _GC_UPPER
    memset(_guard_cat, 0, sizeof(_guard_cat))
    ids = {}
    for name, cat in sorted(_guard_categories().items()):
        b = name.encode()
        h = FX_FNV32_OFFSET
        for c in b:
            h = fx_fnv32_step(h, c)
        ident += 1
        slot = h & (_GUARD_HT - 1)
        while _guard_ht_len[slot]:
            slot = (slot + 1) & (_GUARD_HT - 1)
        _guard_ht_hash[slot] = h
        _guard_ht_len[slot] = len(b)
        _guard_ht_id[slot] = ident
        memcpy(<char *>_guard_ht_name[slot], <const char *>b, len(b))
        _guard_cat[ident] = cat
        ids[name] = ident
    _guard_nknown = ident + 1
    global _guard_id_p, _guard_id_li, _guard_id_dd, _guard_id_dt, _guard_id_a, _guard_id_nobr
    global _guard_id_button, _guard_id_tr, _guard_id_td, _guard_id_th, _guard_id_tbody, _guard_id_thead
    global _guard_id_tfoot, _guard_id_table, _guard_id_select, _guard_id_option, _guard_id_optgroup
    global _guard_id_caption, _guard_id_template, _guard_id_br, _guard_id_colgroup, _guard_id_form
    _guard_id_caption, _guard_id_template, _guard_id_br = ids["caption"], ids["template"], ids["br"]
    _guard_id_colgroup, _guard_id_form = ids["colgroup"], ids["form"]
    global _guard_id_svg, _guard_id_ruby, _guard_id_rtc, _guard_id_input, _guard_id_rb
    _guard_id_rb = ids["rb"]
    _guard_id_svg, _guard_id_ruby, _guard_id_rtc, _guard_id_input = ids["svg"], ids["ruby"], ids["rtc"], ids["input"]
    _guard_id_p, _guard_id_li, _guard_id_dd, _guard_id_dt = ids["p"], ids["li"], ids["dd"], ids["dt"]
    _guard_id_a, _guard_id_nobr, _guard_id_button = ids["a"], ids["nobr"], ids["button"]
    _guard_id_tr, _guard_id_td, _guard_id_th = ids["tr"], ids["td"], ids["th"]
    _guard_id_tbody, _guard_id_thead, _guard_id_tfoot = ids["tbody"], ids["thead"], ids["tfoot"]
    _guard_id_table, _guard_id_select = ids["table"], ids["select"]
    _guard_id_option, _guard_id_optgroup = ids["option"], ids["optgroup"]
    for k in range(6):
        _guard_id_h[k] = ids[f"h{k + 1}"]


cdef inline int32_t _guard_lookup(uint32_t h, const uint64_t *name, size_t n) noexcept nogil:
    """Id of a lower-case tag name (zero-padded words): 1.. for the known names, a hash
    bucket after them otherwise."""
    cdef uint32_t slot = h & (_GUARD_HT - 1)
    cdef const uint64_t *k
    if n <= _GUARD_NAME:
        while _guard_ht_len[slot]:
            if _guard_ht_hash[slot] == h and _guard_ht_len[slot] == n:
                k = _guard_ht_name[slot]
                if k[0] == name[0] and k[1] == name[1] and k[2] == name[2] and k[3] == name[3]:
                    return _guard_ht_id[slot]
            slot = (slot + 1) & (_GUARD_HT - 1)
    return _guard_nknown + <int32_t>(h & (_GUARD_UNKNOWN - 1))


# ---------------------------------------------------------------- the model of the stack

cdef struct _GuardEntry:
    int32_t id
    int32_t prev          # previous stack index holding the same id, -1
    uint32_t cat          # category bits in effect (foreign elements: only integration bits)
    int32_t b_scope       # index of the nearest boundary at or below, per scope kind; -1 none
    int32_t b_button
    int32_t b_list
    int32_t b_table
    int32_t b_special
    int32_t b_lialg       # nearest special element other than address/div/p
    int32_t b_html        # nearest element in the HTML namespace
    uint8_t foreign       # namespace: 0 HTML, 1 SVG, 2 MathML


cdef struct _GuardFmt:    # an entry of the list of active formatting elements
    uint32_t key          # tag id and attributes (Noah's ark compares them); 0 = a marker
    int32_t id
    int32_t at            # its stack index while open, -1 once popped (to be reconstructed)


cdef struct _Guard:
    const unsigned char *s
    Py_ssize_t n
    _GuardEntry *stack
    int32_t depth
    int32_t cap           # stack entries allocated
    int32_t max_depth
    int32_t max_formatting
    int32_t max_attrs
    Py_ssize_t max_reconstructed
    int32_t *top_of       # per id: stack index of the top-most entry with that id, -1
    _GuardFmt *afe
    int32_t afe_len
    int32_t afe_cap
    Py_ssize_t reconstructed
    Py_ssize_t fostered   # runs of text inside a table (outside its cells), moved before the table
    Py_ssize_t max_fostered
    bint flat             # budget spent: from here on only text (and raw-text elements) pass
    # the budgets of the guarded parse (fastx/config.py, _parse.pxi), modelled on the bytes
    Py_ssize_t elements, max_elements          # tags read (start and end), plus re-created elements
    Py_ssize_t attrs_total, max_attrs_total    # attributes passed
    Py_ssize_t pushes                          # elements the model opened so far
    Py_ssize_t run                             # bytes of the text node text is appended to now
    Py_ssize_t grown, max_grown                # bytes of text nodes lexbor copies to grow them
    Py_ssize_t frun                            # bytes of text fostered out of tables so far
    bint moved                                 # the text arena was used since the last fostered run
    uint32_t *names                            # hashes of the distinct names seen (open addressing)
    Py_ssize_t nnames, max_names
    # output: the input minus the dropped byte ranges, built only once something is dropped
    unsigned char *out
    Py_ssize_t olen
    Py_ssize_t copied
    # statistics
    int32_t deepest
    Py_ssize_t dropped_tags
    Py_ssize_t dropped_attrs
    int oom


# ---- the list of active formatting elements

cdef inline int32_t _guard_afe_start(_Guard *g) noexcept nogil:
    """Index just after the last marker."""
    cdef int32_t i = g.afe_len
    while i > 0 and g.afe[i - 1].key != 0:
        i -= 1
    return i


cdef inline void _guard_afe_append(_Guard *g, uint32_t key, int32_t ident, int32_t at) noexcept nogil:
    cdef void *q
    if g.afe_len == g.afe_cap:
        q = realloc(g.afe, 2 * g.afe_cap * sizeof(_GuardFmt))
        if q == NULL:
            g.oom = 1
            return
        g.afe = <_GuardFmt *>q
        g.afe_cap *= 2
    g.afe[g.afe_len].key = key
    g.afe[g.afe_len].id = ident
    g.afe[g.afe_len].at = at
    g.afe_len += 1


cdef inline void _guard_afe_delete(_Guard *g, int32_t i) noexcept nogil:
    memmove(&g.afe[i], &g.afe[i + 1], (g.afe_len - i - 1) * sizeof(_GuardFmt))
    g.afe_len -= 1


cdef inline int32_t _guard_afe_find(_Guard *g, int32_t ident) noexcept nogil:
    """Last entry with this tag after the last marker, -1."""
    cdef int32_t i = g.afe_len
    while i > 0 and g.afe[i - 1].key != 0:
        i -= 1
        if g.afe[i].id == ident:
            return i
    return -1


cdef inline int32_t _guard_noah(_Guard *g, uint32_t key) noexcept nogil:
    """Noah's ark: the earliest of three identical entries after the last marker, -1."""
    cdef int32_t i = g.afe_len, count = 0, earliest = -1
    while i > 0 and g.afe[i - 1].key != 0:
        i -= 1
        if g.afe[i].key == key:
            count += 1
            earliest = i
    return earliest if count >= 3 else -1


# ---- the stack of open elements

cdef inline void _guard_push(_Guard *g, int32_t ident, uint32_t cat, uint8_t foreign, uint32_t key) noexcept nogil:
    cdef int32_t k = g.depth
    cdef _GuardEntry *e
    cdef _GuardEntry *p
    cdef bint integration
    if k >= g.cap:
        return
    e = &g.stack[k]
    if foreign:
        integration = (foreign == 2 and cat & _G_INTEGRATION) or (foreign == 1 and cat & _G_SVG_HIP)
        cat = (_G_SCOPE | _G_BUTTON | _G_LISTS | _G_SPECIAL) if integration else 0
    e.id = ident
    e.cat = cat
    e.foreign = foreign
    e.prev = g.top_of[ident]
    g.top_of[ident] = k
    if k > 0:
        p = &g.stack[k - 1]
        e.b_scope, e.b_button, e.b_list = p.b_scope, p.b_button, p.b_list
        e.b_table, e.b_special, e.b_lialg, e.b_html = p.b_table, p.b_special, p.b_lialg, p.b_html
    else:
        e.b_scope = e.b_button = e.b_list = e.b_table = e.b_special = e.b_lialg = e.b_html = -1
    if not foreign:
        e.b_html = k
    if cat & _G_SCOPE:
        e.b_scope = e.b_button = e.b_list = k
    if cat & _G_BUTTON:
        e.b_button = k
    if cat & _G_LISTS:
        e.b_list = k
    if cat & _G_TSCOPE:
        e.b_table = k
    if cat & _G_SPECIAL:
        e.b_special = k
        if not cat & _G_ADP:
            e.b_lialg = k
    if cat & _G_MARKER:
        _guard_afe_append(g, 0, 0, -1)
    elif cat & _G_FORMAT and key != 0:
        _guard_afe_append(g, key, ident, k)
    g.depth = k + 1
    g.pushes += 1
    if g.depth > g.deepest:
        g.deepest = g.depth


cdef inline void _guard_pop_to(_Guard *g, int32_t j) noexcept nogil:
    """Pop entries until the stack holds j entries (entry j included in the pop)."""
    cdef _GuardEntry *e
    cdef int32_t i
    while g.depth > j:
        g.depth -= 1
        e = &g.stack[g.depth]
        g.top_of[e.id] = e.prev
        if e.cat & _G_MARKER:
            # clear the active formatting elements up to the last marker
            while g.afe_len > 0:
                g.afe_len -= 1
                if g.afe[g.afe_len].key == 0:
                    break
        elif e.cat & _G_FORMAT:
            i = g.afe_len
            while i > 0 and g.afe[i - 1].key != 0:
                i -= 1
                if g.afe[i].at == g.depth:
                    g.afe[i].at = -1          # still active: re-created at the next text
                    break


cdef void _guard_reconstruct(_Guard *g) noexcept nogil:
    """Reconstruct the active formatting elements: re-open those popped since."""
    cdef int32_t i = g.afe_len, k
    if i == 0 or g.afe[i - 1].key == 0 or g.afe[i - 1].at >= 0:
        return
    while i > 0 and g.afe[i - 1].key != 0 and g.afe[i - 1].at < 0:
        i -= 1
    for k in range(i, g.afe_len):
        if g.depth >= g.cap:
            break
        _guard_push(g, g.afe[k].id, _guard_cat[g.afe[k].id], 0, 0)
        g.afe[k].at = g.depth - 1
        g.reconstructed += 1
    if g.reconstructed > g.max_reconstructed:
        g.flat = True


cdef inline int32_t _guard_base(_Guard *g, int kind) noexcept nogil:
    cdef _GuardEntry *t
    if g.depth == 0:
        return -1
    t = &g.stack[g.depth - 1]
    if kind == 0:
        return t.b_scope
    if kind == 1:
        return t.b_button
    if kind == 2:
        return t.b_list
    if kind == 3:
        return t.b_table
    if kind == 4:
        return t.b_special
    return t.b_lialg


cdef inline void _guard_close(_Guard *g, int32_t j, int kind) noexcept nogil:
    """Close the open element at stack index `j` (and what is above it) when it is open (j >= 0)
    within the scope `kind` (_guard_base): the "generate implied end tags / pop until" step of
    the tree builder's start-tag rules (HTML Standard 13.2.6.4.7)."""
    if j >= 0 and j >= _guard_base(g, kind):
        _guard_pop_to(g, j)


cdef inline int32_t _guard_max2(int32_t a, int32_t b) noexcept nogil:
    return a if a > b else b


cdef inline bint _guard_select_in_scope(_Guard *g) noexcept nogil:
    cdef int32_t j = g.top_of[_guard_id_select]
    return j >= 0 and j >= _guard_base(g, 0)


cdef inline bint _guard_in_foreign(_Guard *g) noexcept nogil:
    cdef _GuardEntry *t
    if g.depth == 0:
        return False
    t = &g.stack[g.depth - 1]
    return t.foreign and not (t.cat & _G_SCOPE)


cdef void _guard_any_end(_Guard *g, int32_t ident) noexcept nogil:
    """'Any other end tag': close the element unless a special element is in between."""
    _guard_close(g, g.top_of[ident], 4)


cdef void _guard_adoption(_Guard *g, int32_t ident) noexcept nogil:
    """The adoption agency algorithm, as far as the stack's depth and the list go."""
    cdef int32_t f = _guard_afe_find(g, ident), j
    if f < 0:
        _guard_any_end(g, ident)
        return
    j = g.afe[f].at
    if j < 0:
        _guard_afe_delete(g, f)          # active but not open: dropped from the list
        return
    if j < _guard_base(g, 0):
        return                           # not in scope: ignored
    if _guard_base(g, 4) > j:
        return                           # a furthest block: the element moves, the depth stays
    _guard_pop_to(g, j)
    f = _guard_afe_find(g, ident)
    if f >= 0:
        _guard_afe_delete(g, f)


cdef enum:
    _GUARD_DROP = 0
    _GUARD_HTML = 1
    _GUARD_FOREIGN_TAG = 2


cdef int _guard_start(_Guard *g, int32_t ident, uint32_t cat, bint self_closing, uint32_t key) noexcept nogil:
    """Model a start tag: _GUARD_DROP (leave it out), _GUARD_HTML or _GUARD_FOREIGN_TAG (kept).

    The decision to drop comes first and changes nothing: lexbor never sees a
    dropped tag, so the model must not act on it (close, pop, break out)."""
    cdef int32_t j, noah, implied = 0
    cdef bint ignored = False
    cdef bint as_foreign = _guard_in_foreign(g) and not (cat & _G_BREAKOUT)
    cdef bint table_ctx = g.top_of[_guard_id_table] >= 0 or g.top_of[_guard_id_template] >= 0
    # 1. would the tag open an element, and may it?
    if as_foreign or cat & _G_FOREIGN:
        if self_closing:
            return _GUARD_FOREIGN_TAG
        if g.depth >= g.max_depth:
            return _GUARD_DROP
    elif cat & _G_IGNORE:
        ignored = True                   # html, head, body again: merged or ignored (after breaking out)
    elif (cat & (_G_CELL | _G_TR | _G_TSECT) or ident == _guard_id_caption
          or ident == _guard_id_colgroup) and not table_ctx:
        return _GUARD_HTML               # table structure outside a table: ignored
    elif not cat & (_G_VOID | _G_RAW | _G_PLAINTEXT) and not (
            ident == _guard_id_select and _guard_select_in_scope(g)):
        if cat & (_G_TR | _G_CELL) and g.depth > 0 and not g.stack[g.depth - 1].foreign:
            # rows and cells directly in a table get the tbody / tr the tree builder inserts
            if g.stack[g.depth - 1].cat & _G_TABLE:
                implied = 2 if cat & _G_CELL else 1
            elif cat & _G_CELL and g.stack[g.depth - 1].cat & _G_TSECT:
                implied = 1
        if g.depth + implied >= g.max_depth:
            return _GUARD_DROP
        if cat & _G_FORMAT and not cat & _G_A and _guard_noah(g, key) < 0 \
                and g.afe_len - _guard_afe_start(g) >= g.max_formatting:
            return _GUARD_DROP
    # 2. the tree builder's steps
    if as_foreign:
        _guard_push(g, ident, cat, g.stack[g.depth - 1].foreign, 0)   # the parent's namespace
        return _GUARD_FOREIGN_TAG
    while _guard_in_foreign(g):          # an HTML tag breaks out of foreign content
        _guard_pop_to(g, g.depth - 1)
    if ignored:
        return _GUARD_HTML
    if cat & _G_FOREIGN:
        _guard_reconstruct(g)
        _guard_push(g, ident, cat, 1 if ident == _guard_id_svg else 2, 0)
        return _GUARD_FOREIGN_TAG
    if cat & _G_RUBY:
        j = g.top_of[_guard_id_ruby]
        if j >= 0 and j >= _guard_base(g, 0):
            # rb, rtc: generate implied end tags; rp, rt: all but rtc
            while g.depth > 0 and g.stack[g.depth - 1].cat & _G_IMPLIED and not (
                    g.stack[g.depth - 1].id == _guard_id_rtc and ident != _guard_id_rtc
                    and ident != _guard_id_rb):
                _guard_pop_to(g, g.depth - 1)
    if (ident == _guard_id_select or ident == _guard_id_input) and _guard_select_in_scope(g):
        _guard_pop_to(g, g.top_of[_guard_id_select])
        if ident == _guard_id_select:
            return _GUARD_HTML           # <select> in a select closes it and is ignored
    if cat & _G_CLOSEP:
        _guard_close(g, g.top_of[_guard_id_p], 1)
    if cat & _G_HEADING and g.depth > 0 and g.stack[g.depth - 1].cat & _G_HEADING:
        _guard_pop_to(g, g.depth - 1)
    if cat & _G_LI:
        _guard_close(g, g.top_of[_guard_id_li], 5)
    if cat & _G_DDDT:
        _guard_close(g, _guard_max2(g.top_of[_guard_id_dd], g.top_of[_guard_id_dt]), 5)
    if cat & _G_A:
        j = _guard_afe_find(g, _guard_id_a)
        if j >= 0:
            _guard_adoption(g, _guard_id_a)
            j = _guard_afe_find(g, _guard_id_a)
            if j >= 0:
                _guard_afe_delete(g, j)
    if ident == _guard_id_nobr:
        j = g.top_of[_guard_id_nobr]
        if j >= 0 and j >= _guard_base(g, 0):
            _guard_adoption(g, _guard_id_nobr)
    if cat & _G_BUTTON:
        j = g.top_of[_guard_id_button]
        if j >= 0 and j >= _guard_base(g, 0) and not (
                _guard_select_in_scope(g) and g.top_of[_guard_id_select] > j):
            _guard_pop_to(g, j)              # (a button in a select nests)
    if cat & (_G_OPTION | _G_OPTGROUP) and g.depth > 0 and g.stack[g.depth - 1].id == _guard_id_option:
        _guard_pop_to(g, g.depth - 1)
    if cat & _G_OPTGROUP and g.depth > 0 and g.stack[g.depth - 1].id == _guard_id_optgroup \
            and g.top_of[_guard_id_select] >= 0:
        _guard_pop_to(g, g.depth - 1)    # (in a select only; in the body optgroups nest)
    if cat & _G_TR:
        _guard_close(g, g.top_of[_guard_id_tr], 3)
    if cat & _G_CELL:
        _guard_close(g, _guard_max2(g.top_of[_guard_id_td], g.top_of[_guard_id_th]), 3)
    if cat & _G_TSECT:
        _guard_close(g, _guard_max2(g.top_of[_guard_id_tbody],
                                    _guard_max2(g.top_of[_guard_id_thead], g.top_of[_guard_id_tfoot])), 3)
    if cat & _G_TABLE and g.depth > 0 and not g.stack[g.depth - 1].foreign \
            and g.stack[g.depth - 1].cat & (_G_TABLE | _G_TSECT | _G_TR) and g.top_of[_guard_id_table] >= 0 \
            and g.top_of[_guard_id_table] >= _guard_base(g, 3):
        _guard_pop_to(g, g.top_of[_guard_id_table])   # (a table in table scope: not across a template)
    if cat & _G_RECON or not cat & _G_SPECIAL:
        _guard_reconstruct(g)
    if cat & (_G_VOID | _G_RAW | _G_PLAINTEXT):
        return _GUARD_HTML               # no nesting: raw text ends at its own end tag
    # (the pops above may have made room: the implied tbody / tr count from here)
    implied = 0
    if cat & (_G_TR | _G_CELL) and g.depth > 0 and not g.stack[g.depth - 1].foreign:
        if g.stack[g.depth - 1].cat & _G_TABLE:
            implied = 2 if cat & _G_CELL else 1
        elif cat & _G_CELL and g.stack[g.depth - 1].cat & _G_TSECT:
            implied = 1
    if implied == 2 or (implied == 1 and cat & _G_TR):
        _guard_push(g, _guard_id_tbody, _guard_cat[_guard_id_tbody], 0, 0)
    if implied and cat & _G_CELL:
        _guard_push(g, _guard_id_tr, _guard_cat[_guard_id_tr], 0, 0)
    if cat & _G_FORMAT:
        noah = _guard_noah(g, key)
        if noah >= 0:
            _guard_afe_delete(g, noah)
    _guard_push(g, ident, cat, 0, key)
    return _GUARD_HTML


cdef void _guard_end(_Guard *g, int32_t ident, uint32_t cat) noexcept nogil:
    """Model an end tag."""
    cdef int32_t j = g.top_of[ident]
    cdef int k
    if (ident == _guard_id_p or ident == _guard_id_br) and _guard_in_foreign(g):
        while _guard_in_foreign(g):      # </p> and </br> leave foreign content, then act in HTML
            _guard_pop_to(g, g.depth - 1)
        j = g.top_of[ident]
    if _guard_in_foreign(g) and j >= 0 and g.stack[j].foreign and j > g.stack[g.depth - 1].b_html:
        _guard_pop_to(g, j)              # the walk for a foreign end tag stops at HTML elements
        return
    if ident == _guard_id_br:
        _guard_reconstruct(g)            # </br> is a <br>
        return
    if cat & _G_IGNORE or ident == _guard_id_form:
        return                           # </form> removes only the form: the depth stays (near enough)
    if cat & _G_FORMAT:
        _guard_adoption(g, ident)
        return
    if cat & _G_HEADING:
        j = -1
        for k in range(6):
            j = _guard_max2(j, g.top_of[_guard_id_h[k]])
    if j < 0:
        return
    if ident == _guard_id_p:
        if j >= _guard_base(g, 1):
            _guard_pop_to(g, j)
    elif cat & _G_LI:
        if j >= _guard_base(g, 2):
            _guard_pop_to(g, j)
    elif cat & (_G_CELL | _G_TR | _G_TSECT | _G_TABLE) or ident == _guard_id_caption:
        if j >= _guard_base(g, 3):
            _guard_pop_to(g, j)
    elif ident == _guard_id_template:
        _guard_pop_to(g, j)
    elif cat & _G_SPECIAL:
        if j >= _guard_base(g, 0):
            _guard_pop_to(g, j)
    elif j >= _guard_base(g, 4):
        _guard_pop_to(g, j)


# ---------------------------------------------------------------- the tokenizer

cdef inline bint _guard_ws(unsigned char c) noexcept nogil:
    return _guard_cls[c] & _GC_WS


cdef inline bint _guard_alpha(unsigned char c) noexcept nogil:
    return (65 <= c <= 90) or (97 <= c <= 122)


cdef void _guard_drop(_Guard *g, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """Leave the input bytes [a, b) out of the output.

    A '<' of text right before a dropped tag would join the text after it into a
    tag the model never saw ('<' + '<div>' + 'div>'); a space keeps it text."""
    if b <= a or g.oom:
        return
    if g.out == NULL:
        g.out = <unsigned char *>malloc(g.n + 1)
        if g.out == NULL:
            g.oom = 1
            return
        g.olen = 0
        g.copied = 0
    memcpy(g.out + g.olen, g.s + g.copied, a - g.copied)
    g.olen += a - g.copied
    g.copied = b
    if g.olen > 0 and g.out[g.olen - 1] == 60:
        g.out[g.olen] = 32                   # fits: the dropped range is at least one byte
        g.olen += 1


cdef Py_ssize_t _guard_find_gt(_Guard *g, Py_ssize_t i) noexcept nogil:
    """Index of the next '>' at or after i, or n."""
    cdef const unsigned char *p
    if i >= g.n:
        return g.n
    p = <const unsigned char *>memchr(g.s + i, 62, g.n - i)
    return (p - g.s) if p != NULL else g.n


cdef Py_ssize_t _guard_comment_end(_Guard *g, Py_ssize_t i) noexcept nogil:
    """i is just after '<!--'; index after the comment, or n."""
    cdef const unsigned char *s = g.s
    cdef Py_ssize_t p
    if i < g.n and s[i] == 62:                       # <!-->
        return i + 1
    if i + 1 < g.n and s[i] == 45 and s[i + 1] == 62:   # <!--->
        return i + 2
    p = i
    while True:
        p = _guard_find_gt(g, p)
        if p >= g.n:
            return g.n
        if p - 2 >= i and s[p - 1] == 45 and s[p - 2] == 45:
            return p + 1
        if p - 3 >= i and s[p - 1] == 33 and s[p - 2] == 45 and s[p - 3] == 45:
            return p + 1
        p += 1


cdef Py_ssize_t _guard_raw_end(_Guard *g, Py_ssize_t i, const unsigned char *name, size_t m) noexcept nogil:
    """Index of the '<' of the end tag '</name' that closes raw text starting at i, or n."""
    cdef const unsigned char *s = g.s
    cdef const unsigned char *p
    cdef Py_ssize_t k, q
    cdef unsigned char c
    while i < g.n:
        p = <const unsigned char *>memchr(s + i, 60, g.n - i)
        if p == NULL:
            return g.n
        q = p - s
        if q + 2 + <Py_ssize_t>m <= g.n and s[q + 1] == 47:
            for k in range(<Py_ssize_t>m):
                c = s[q + 2 + k]
                if 65 <= c <= 90:
                    c += 32
                if c != name[k]:
                    break
            else:
                if q + 2 + <Py_ssize_t>m == g.n:
                    return g.n
                c = s[q + 2 + m]
                if _guard_ws(c) or c == 47 or c == 62:
                    return q
        i = q + 1
    return g.n


cdef Py_ssize_t _guard_attrs(_Guard *g, Py_ssize_t i, Py_ssize_t *trunc, bint *self_closing,
                             int32_t *nattrs, bint record=False) noexcept nogil:
    """Scan a tag's attributes from i; index of its closing '>' (n at EOF).

    trunc: where the attribute beyond max_attrs begins (-1 if none); nattrs: the
    attributes read (all of them, also past max_attrs).  `record`: count the names of
    the first max_attrs among the distinct names (_guard_name)."""
    cdef const unsigned char *s = g.s
    cdef Py_ssize_t n = g.n
    cdef const unsigned char *p
    cdef int32_t count = 0
    cdef Py_ssize_t start, k
    cdef uint32_t h
    cdef unsigned char c
    trunc[0] = -1
    self_closing[0] = False
    nattrs[0] = 0
    while i < n:
        c = s[i]
        if _guard_ws(c):
            i += 1
            continue
        if c == 62:
            return i
        if c == 47:
            if i + 1 < n and s[i + 1] == 62:
                self_closing[0] = True
                return i + 1
            i += 1
            continue
        # an attribute name (a leading '=' belongs to it)
        count += 1
        nattrs[0] = count
        if count == g.max_attrs + 1:
            trunc[0] = i
        start = i
        i += 1
        while i < n and not (_guard_cls[s[i]] & _GC_ATTR_END):
            i += 1
        if record and count <= g.max_attrs:
            h = FX_FNV32_OFFSET
            for k in range(start, i):
                h = fx_fnv32_step(h, s[k] + 32 if 65 <= s[k] <= 90 else s[k])
            _guard_name(g, h)
        while i < n and _guard_ws(s[i]):
            i += 1
        if i >= n or s[i] != 61:
            continue
        i += 1
        while i < n and _guard_ws(s[i]):
            i += 1
        if i >= n:
            return n
        c = s[i]
        start = i
        if c == 34 or c == 39:
            i += 1
            while i < n and s[i] != c and i < start + 24:
                i += 1
            if i < n and s[i] != c:
                p = <const unsigned char *>memchr(s + i, c, n - i)
                i = (p - s) if p != NULL else n
            if i >= n:
                return n
            i += 1
        elif c == 62:
            return i
        else:
            while i < n and not (_guard_cls[s[i]] & _GC_VALUE_END):
                i += 1
    return n


cdef inline bint _guard_has_text(const unsigned char *s, Py_ssize_t last, Py_ssize_t first) noexcept nogil:
    """Whether s[first..last] holds anything but whitespace (scanned from the end)."""
    while last >= first:
        if not _guard_ws(s[last]):
            return True
        last -= 1
    return False


cdef inline void _guard_foster(_Guard *g, Py_ssize_t start, Py_ssize_t first) noexcept nogil:
    """Count the text run s[first..start) if the tree builder fosters it out of a table.

    lexbor appends each run of text fostered out of a table to the text node
    before the table, reallocating it: quadratic in the runs (a comment or a
    tag ends a run).  Past `max_fostered` runs the rest of the page is flat text.
    """
    if g.depth > 0 and g.stack[g.depth - 1].cat & (_G_TABLE | _G_TSECT | _G_TR) \
            and _guard_has_text(g.s, start - 1, first):
        g.fostered += 1
        # appended to the text node before the table, which lexbor copies to grow it when
        # anything went to the text arena since (text elsewhere, a comment, attribute
        # values): counted against the copy budget, as the parse guard counts it
        if g.moved and not g.flat:
            g.grown += g.frun
        g.frun += start - first
        g.moved = False
        if g.fostered > g.max_fostered or g.grown > g.max_grown:
            g.flat = True
    else:
        g.moved = True


cdef inline void _guard_name(_Guard *g, uint32_t h) noexcept nogil:
    """Count the name whose FNV-1a hash (lower case) is h among the distinct names that
    reach lexbor's name tables; past max_names the rest of the page is read as text.
    The table holds 2 * max_names + 2 slots or more (a power of two), so it never fills."""
    cdef size_t mask, k
    if g.flat or g.max_names <= 0:
        return
    mask = 1
    while mask < <size_t>(2 * g.max_names + 2):
        mask <<= 1
    if g.names == NULL:
        g.names = <uint32_t *>calloc(mask, sizeof(uint32_t))
        if g.names == NULL:
            g.oom = 1
            return
    mask -= 1
    h |= 1                                    # 0 marks a free slot
    k = h & mask
    while g.names[k] != 0:
        if g.names[k] == h:
            return
        k = (k + 1) & mask
    g.names[k] = h
    g.nnames += 1
    if g.nnames > g.max_names:
        g.flat = True


cdef inline void _guard_text(_Guard *g, Py_ssize_t length) noexcept nogil:
    """A run of `length` bytes of text reaches lexbor: appended to the text node of the
    runs before it unless a node was made since (g.run was reset)."""
    g.run += length


cdef inline void _guard_grown(_Guard *g, bint changed, int32_t nattrs) noexcept nogil:
    """After a tag that passes: lexbor allocated its attribute values in the text arena
    as it read it; if the tag made no node and closed none (ignored: <tr a=b> in body, an
    end tag nothing matches, <html>/<body> again), the next run of text is appended to the
    same text node, which lexbor then copies whole to grow it (quadratic in the runs).
    The copies are counted (the parse guard's GUARD_COPIED budget); past it the rest of the
    page is read as text.  A tag that made or closed a node starts a new text node."""
    if nattrs > 0:
        g.moved = True
    if changed:
        g.run = 0
    elif nattrs > 0 and g.run > 0:
        g.grown += g.run
        if g.grown > g.max_grown:
            g.flat = True


cdef void _guard_run(_Guard *g) noexcept nogil:
    cdef const unsigned char *s = g.s
    cdef Py_ssize_t n = g.n, i = 0, start, gt, trunc
    cdef const unsigned char *p
    cdef unsigned char c
    cdef uint64_t words[_GUARD_WORDS]
    cdef unsigned char *name = <unsigned char *>words
    cdef size_t m
    cdef uint32_t h, cat
    cdef int32_t ident
    cdef bint end_tag, self_closing, text_before
    cdef Py_ssize_t i0 = 0
    cdef uint32_t key
    cdef Py_ssize_t k, pushes0, ai
    cdef int32_t depth0, nattrs
    cdef int kind
    while i < n and not g.oom:
        p = <const unsigned char *>memchr(s + i, 60, n - i)
        if p == NULL:
            return
        start = p - s
        text_before = start > i
        i0 = i
        i = start + 1
        if i >= n:
            return
        c = s[i]
        end_tag = False
        if c == 33:                                   # <!
            if text_before:
                _guard_text(g, start - i0)
                if not _guard_in_foreign(g):
                    _guard_foster(g, start, i0)
                else:
                    g.moved = True
            # a comment's data goes to the text arena; the text after it reaches the same
            # text node when the comment went elsewhere (after </body>: to <html>)
            g.moved = True
            if not g.flat:
                _guard_grown(g, False, 1)
            if i + 2 < n and s[i + 1] == 45 and s[i + 2] == 45:
                i = _guard_comment_end(g, i + 3)
                if g.flat:                            # flat text: no comment splits it into runs
                    _guard_drop(g, start, i if i < n else n)
            elif _guard_in_foreign(g) and i + 7 < n and memcmp(s + i + 1, b"[CDATA[", 7) == 0:
                i += 8
                while True:
                    i = _guard_find_gt(g, i)
                    if i >= n or (s[i - 1] == 93 and s[i - 2] == 93):
                        break
                    i += 1
                i += 1
            else:
                i = _guard_find_gt(g, i) + 1
                if g.flat:
                    _guard_drop(g, start, i if i < n else n)
            continue
        if c == 63:                                   # <? bogus comment
            i = _guard_find_gt(g, i) + 1
            if g.flat:
                _guard_drop(g, start, i if i < n else n)
            continue
        if c == 47:                                   # </
            i += 1
            if i >= n:
                return
            c = s[i]
            if c == 62:
                i += 1
                continue
            if not _guard_alpha(c):
                i = _guard_find_gt(g, i) + 1
                if g.flat:
                    _guard_drop(g, start, i if i < n else n)
                continue
            end_tag = True
        elif not _guard_alpha(c):
            continue                                  # '<' as text
        # tag name
        h = FX_FNV32_OFFSET
        m = 0
        words[0] = words[1] = words[2] = words[3] = 0
        while i < n:
            c = s[i]
            if _guard_cls[c] & (_GC_NAME_END | _GC_UPPER):
                if _guard_cls[c] & _GC_NAME_END:
                    break
                c += 32
            h = fx_fnv32_step(h, c)
            if m < _GUARD_NAME:
                name[m] = c
            m += 1
            i += 1
        ident = _guard_lookup(h, words, m)
        cat = _guard_cat[ident] if ident < _GUARD_HT else 0
        ai = i
        gt = _guard_attrs(g, i, &trunc, &self_closing, &nattrs)
        if gt >= n:
            return                                    # EOF in a tag: the tokenizer emits nothing
        pushes0 = g.pushes
        depth0 = g.depth
        if text_before:
            _guard_text(g, start - i0)
            if not _guard_in_foreign(g):
                _guard_reconstruct(g)
                _guard_foster(g, start, i0)
            else:
                g.moved = True
        # the tag budget: every tag read, and every formatting element re-created (each costs
        # what a tag does); spent, the rest of the page is read as text
        g.elements += 1
        if g.elements + g.reconstructed > g.max_elements:
            g.flat = True
        key = 0
        if cat & _G_FORMAT and not end_tag:
            key = <uint32_t>ident * 2654435761u
            if not cat & _G_A:                        # (at most one <a> is ever active)
                for k in range(i, gt):                # Noah's ark tells entries apart by attributes
                    key = fx_fnv32_step(key, s[k])
            key |= 1
        i = gt + 1
        if g.flat:
            # the reconstruction budget is spent: only raw-text elements keep their tags
            kind = _GUARD_HTML if cat & (_G_RAW | _G_PLAINTEXT) and not _guard_in_foreign(g) else _GUARD_DROP
            if end_tag and kind == _GUARD_HTML:
                kind = _GUARD_FOREIGN_TAG
        elif end_tag:
            _guard_end(g, ident, cat)
            kind = _GUARD_FOREIGN_TAG
        else:
            kind = _guard_start(g, ident, cat, self_closing, key)
        if kind == _GUARD_DROP:
            g.dropped_tags += 1
            _guard_drop(g, start, gt + 1)
            continue
        if trunc >= 0:
            g.dropped_attrs += 1
            _guard_drop(g, trunc, gt - 1 if self_closing else gt)
            nattrs = g.max_attrs
        if not g.flat:
            if ident >= _guard_nknown:
                _guard_name(g, h)                 # a tag name lexbor interns
            if nattrs > 0:
                _guard_attrs(g, ai, &trunc, &self_closing, &nattrs, True)
                if trunc >= 0:
                    nattrs = g.max_attrs
            if not end_tag:
                g.attrs_total += nattrs           # the attribute budget: spent, text from here on
                if g.attrs_total > g.max_attrs_total:
                    g.flat = True
            _guard_grown(g, g.pushes != pushes0 or g.depth != depth0 or (
                not end_tag and (cat & (_G_VOID | _G_RAW | _G_PLAINTEXT) or kind == _GUARD_FOREIGN_TAG)),
                nattrs)
        if kind != _GUARD_HTML:
            continue
        if cat & _G_RAW and m <= _GUARD_NAME:
            i = _guard_raw_end(g, i, name, m)         # raw text up to its end tag
        elif cat & _G_PLAINTEXT:
            return


def guard_html(bytes data, int max_depth=GUARD_MAX_DEPTH, int max_formatting=GUARD_MAX_FORMATTING,
               int max_attrs=GUARD_MAX_ATTRS, object max_reconstructed=None,
               Py_ssize_t max_fostered=GUARD_MAX_FOSTERED, object stats=False,
               object max_copied=None, object max_elements=None):
    """`data` (UTF-8 HTML) with the tags removed that would make lexbor's tree
    builder quadratic: see the comment at the top of _guard.pxi.

    Returns `data` itself when nothing exceeds the limits; with stats=True,
    a tuple (bytes, deepest modelled stack, tags dropped, tags with attributes cut,
    formatting elements reconstructed, text runs fostered out of tables).
    `max_reconstructed` (default 4096 + len(data) // 64; the dev corpora need at most 161) bounds the formatting
    elements re-created after blocks; past it the rest of the page is read as
    text (raw-text elements such as <script> keep their tags).  So past
    `max_fostered` runs of text directly inside tables (outside cells).

    The budgets of the guarded parse (`parse_guarded`, fastx/config.py) are
    modelled too: `max_elements` (default 2 * (GUARD_ELEMENTS_BASE + n //
    GUARD_BYTES_PER_ELEMENT)) tags read plus formatting elements re-created, the
    same number of attributes passed, and `max_copied` (default
    GUARD_COPIED_BASE + GUARD_COPIED_PER_BYTE * n) bytes of text nodes lexbor
    would copy to grow them (runs of text that reach one node across a tag the
    tree builder ignores but whose attribute values lexbor allocates between
    them): past any of them the rest of the page is read as text.
    stats="dict": (bytes, dict of every counter).
    """
    cdef _Guard g
    cdef Py_ssize_t nids = _guard_nknown + _GUARD_UNKNOWN, k
    cdef bytes result
    if max_depth < 1 or max_formatting < 0 or max_attrs < 1:
        raise ValueError("guard limits must be positive")
    g.s = <const unsigned char *>data
    g.n = len(data)
    g.depth = 0
    g.max_depth = max_depth
    g.max_formatting = max_formatting
    g.max_attrs = max_attrs
    g.cap = max_depth + max_formatting + 8
    g.max_reconstructed = 4096 + g.n // 64 if max_reconstructed is None else max_reconstructed
    g.reconstructed = 0
    g.fostered = 0
    g.max_fostered = max_fostered
    g.flat = False
    g.elements = g.attrs_total = g.pushes = g.run = g.grown = g.frun = g.nnames = 0
    g.moved = False
    g.names = NULL
    g.max_names = GUARD_MAX_NAMES
    g.max_attrs_total = 2 * (GUARD_ELEMENTS_BASE + g.n // GUARD_BYTES_PER_ELEMENT)
    g.max_elements = g.max_attrs_total if max_elements is None else max_elements
    g.max_grown = GUARD_COPIED_BASE + GUARD_COPIED_PER_BYTE * g.n if max_copied is None else max_copied
    g.afe_len = 0
    g.afe_cap = 64
    g.out = NULL
    g.olen = g.copied = 0
    g.deepest = 0
    g.dropped_tags = g.dropped_attrs = 0
    g.oom = 0
    g.stack = <_GuardEntry *>malloc(g.cap * sizeof(_GuardEntry))
    g.top_of = <int32_t *>malloc(nids * sizeof(int32_t))
    g.afe = <_GuardFmt *>malloc(g.afe_cap * sizeof(_GuardFmt))
    try:
        if g.stack == NULL or g.top_of == NULL or g.afe == NULL:
            raise MemoryError()
        for k in range(nids):
            g.top_of[k] = -1
        with nogil:
            _guard_run(&g)
            if g.out != NULL and not g.oom:
                memcpy(g.out + g.olen, g.s + g.copied, g.n - g.copied)
                g.olen += g.n - g.copied
        if g.oom:
            raise MemoryError()
        result = g.out[:g.olen] if g.out != NULL else data
    finally:
        free(g.stack)
        free(g.top_of)
        free(g.afe)
        free(g.out)
        free(g.names)
    if stats == "dict":
        return result, {"deepest": g.deepest, "dropped_tags": g.dropped_tags, "dropped_attrs": g.dropped_attrs,
                        "reconstructed": g.reconstructed, "fostered": g.fostered, "copied": g.grown,
                        "elements": g.elements, "attributes": g.attrs_total, "names": g.nnames,
                        "flat": bool(g.flat)}
    if stats:
        return result, g.deepest, g.dropped_tags, g.dropped_attrs, g.reconstructed, g.fostered
    return result


_guard_init()
