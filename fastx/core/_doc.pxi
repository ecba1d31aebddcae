# The flat node array (DESIGN.md, "The flat node array").
#
# One C-level preorder pass over lexbor's DOM builds `Doc`: structure arrays,
# the text of every text node (whitespace-collapsed, UTF-8, in one buffer; raw
# inside preformatted elements, see _add_raw_text) and
# per-node own counts; one reverse sweep then turns them into subtree
# aggregates.  Every method is array arithmetic over the same Doc.
#
# Dropped while building (never counted): script, style, noscript, template,
# iframe, svg, math, object, embed, canvas, the whole <head> (its <title> and
# meta description are read), comments, elements with `hidden` (except
# React's streamed segments, id "S:<n>": see _hidden), `aria-hidden="true"`,
# inline `display:none` / `visibility:hidden` (except disclosure panels, a tab's or an
# accordion's: see _hidden), and `<input type=hidden>`.  a, button, select, input and textarea are links
# (CETD paper, 4.1.3: buttons and drop-down lists count as hyperlinks).

from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memcmp, memset
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_REFCNT
from cpython.type cimport PyType_Modified

# ---------------------------------------------------------------- constants

DEF STATIC_LIMIT = 1024       # lexbor's static tag/attribute ids are below this

# node kinds
KIND_ELEMENT = 1
KIND_TEXT = 3

# per-tag properties (index: static lexbor tag id)
cdef enum:
    TP_DROP = 1
    TP_LINK = 2
    TP_BLOCK = 4
    TP_P = 8
    TP_BR = 16
    TP_HEADING = 32
    TP_HEAD = 64
    TP_TITLE = 128
    TP_META = 256
    TP_INPUT = 512
    TP_BODY = 1024
    TP_PRE = 2048        # pre, textarea, listing, plaintext, xmp: text kept byte for byte
    TP_CELL = 4096       # td, th: cells of a table row (text output: one line per row)
    TP_PAGE = 8192       # html, body, main, article: the page or its content, never a consent dialog

# per-node flags (Doc.flags)
cdef enum:
    NF_LINK = 1          # the element is a link tag, or a custom element with an href
                         # (<dropdown-item href>: a link a script follows)
    NF_IN_LINK = 2       # the node is inside a link (or is one)
    NF_BLOCK = 4         # block-level element (a line break around it in text output)
    NF_WS_BEFORE = 8     # text node: whitespace before it in the source
    NF_WS_AFTER = 16     # text node: whitespace after it in the source
    NF_HEADING = 32      # h1-h6
    NF_P = 64            # <p>
    NF_BR = 128          # br / hr
    NF_PRE = 256         # inside (or is) a preformatted element: its text nodes hold their raw text
    NF_ITEMPROP = 512    # the element has an itemprop attribute (microdata)
    NF_HINT_ATTR = 1024  # it has a class, id or rel attribute (bylines, datelines): the metadata scan
                         # reads the attributes of these two kinds of element only (_meta.pxi), default's
                         # class and id words those of these elements only
    NF_ROLE = 2048       # it has a role attribute (WAI-ARIA landmarks: default's landmark rule and
                         # attribute semantics read the attributes of these and NF_ITEMPROP's only)

NODE_FLAGS = {"link": NF_LINK, "in_link": NF_IN_LINK, "block": NF_BLOCK, "ws_before": NF_WS_BEFORE,
              "ws_after": NF_WS_AFTER, "heading": NF_HEADING, "p": NF_P, "br": NF_BR, "pre": NF_PRE,
              "itemprop": NF_ITEMPROP, "hint_attr": NF_HINT_ATTR, "role": NF_ROLE}
PRE_TAGS = ("pre", "textarea", "listing", "plaintext", "xmp")

DROP_TAGS = ("script", "style", "noscript", "template", "iframe", "svg", "math", "object", "embed",
             "canvas", "frameset", "frame")
LINK_TAGS = ("a", "button", "select", "input", "textarea")
BLOCK_TAGS = ("address", "article", "aside", "blockquote", "body", "center", "dd", "details", "dialog",
              "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
              "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "li", "main", "menu", "nav", "ol", "p",
              "pre", "section", "summary", "table", "tbody", "thead", "tfoot", "tr", "td", "th", "ul",
              "br", "caption", "legend", "option", "html", "textarea", "select", "img")
# Every tag the calibration document names; lexbor gives each a static id.
TAG_NAMES = sorted(set(DROP_TAGS + LINK_TAGS + BLOCK_TAGS + (
    "abbr", "acronym", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i",
    "ins", "kbd", "label", "mark", "nobr", "q", "rp", "rt", "ruby", "s", "samp", "small", "span",
    "strike", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr", "area", "audio", "map", "picture",
    "source", "track", "video", "col", "colgroup", "datalist", "meter", "optgroup", "output",
    "progress", "head", "title", "meta", "link", "base", "image", "marquee", "blink", "noembed",
    "noframes", "param", "search", "slot", "menuitem", "keygen", "applet", "xmp", "listing",
    "plaintext", "rb", "rtc", "basefont", "bgsound", "nav", "legend")))
ATTR_NAMES = ("id", "class", "style", "href", "hidden", "aria-hidden", "type", "name", "content",
              "property", "role", "itemprop", "itemtype", "itemscope", "src", "alt", "title", "lang",
              "rel", "datetime", "for", "value", "width", "height", "align", "colspan", "rowspan",
              "target", "action", "method", "data-src", "srcset", "charset", "http-equiv", "dir")

cdef uint32_t _tag_props[STATIC_LIMIT]
cdef const unsigned char *_static_attr_name[STATIC_LIMIT]
cdef size_t _static_attr_len[STATIC_LIMIT]
# 1: a name the browser's serialization learned (tools/_browser.pxi, _rm_learn) for an id the
# calibration does not name; only serializers read those (_attr_name does not: what kernels
# see must not depend on whether a page was rendered before)
cdef uint8_t _static_attr_learned[STATIC_LIMIT]
_ATTR_NAME_KEEP = []          # bytes objects _static_attr_name points into
# the one C table of static tag names (filled from TAG_NAMES_BY_ID at import; the browser's
# serialization adds the names of ids it meets that fastx does not use): the serializers read it
cdef const unsigned char *_static_tag_name[STATIC_LIMIT]
cdef size_t _static_tag_len[STATIC_LIMIT]
_TAG_NAME_KEEP = []           # bytes objects _static_tag_name points into
TAG_IDS = {}                  # tag name -> fastx tag id (lexbor's static id), filled at import
TAG_NAMES_BY_ID = {}


cdef void _set_static_tag_name(uintptr_t lid, bytes name):
    """Name static tag id `lid` in the C table (the bytes are kept alive by _TAG_NAME_KEEP)."""
    _TAG_NAME_KEEP.append(name)
    _static_tag_name[lid] = <const unsigned char *>name
    _static_tag_len[lid] = len(name)


cdef void _set_static_attr_name(uintptr_t lid, bytes name, bint learned):
    """Name static attribute id `lid` in the C table (kept alive by _ATTR_NAME_KEEP); `learned`:
    a name only serializers read (_static_attr_learned)."""
    _ATTR_NAME_KEEP.append(name)
    _static_attr_name[lid] = <const unsigned char *>name
    _static_attr_len[lid] = len(name)
    _static_attr_learned[lid] = learned


# ---------------------------------------------------------------- small C helpers

cdef inline uint32_t _fnv1a(const unsigned char *s, size_t n) noexcept nogil:
    """32-bit FNV-1a of s[0..n)."""
    cdef uint32_t h = FX_FNV32_OFFSET
    cdef size_t i
    for i in range(n):
        h = fx_fnv32_step(h, s[i])
    return h


DEF _SIG_CLASS_BYTES = 128     # the bytes of a class value a sibling signature reads
DEF _SIG_MUL = 0xFF51AFD7ED558CCD   # _sig_hash's odd multiplier (murmur3's first fmix64 constant)


cdef inline uint32_t _sig_hash(int32_t tag, const unsigned char *s, size_t n) noexcept nogil:
    """The hash of a sibling signature with a class value s[0..n): the tag id and the length
    multiplied into a 64-bit state by an odd constant, then eight bytes of the value at a time
    xor-ed in and multiplied again (the last, shorter word padded with zeros), the two halves
    folded into 32 bits: one multiply per eight bytes, where FNV-1a's chain of multiplies went
    a byte at a time over Tailwind's long class values (2.5% of a `cetd` extraction on wcxb-dev,
    `ab_builds.py`)."""
    cdef uint64_t h = ((<uint64_t><uint32_t>tag << 32) | n) * <uint64_t>_SIG_MUL
    cdef uint64_t w
    cdef size_t i = 0
    while i + 8 <= n:
        memcpy(&w, s + i, 8)
        h = (h ^ w) * <uint64_t>_SIG_MUL
        i += 8
    if i < n:
        w = 0
        memcpy(&w, s + i, n - i)
        h = (h ^ w) * <uint64_t>_SIG_MUL
    return <uint32_t>(h >> 32) ^ <uint32_t>h


cdef inline uint32_t _sibling_sig(fx_node *node, int32_t tag) noexcept nogil:
    """An element's sibling signature (the Doc's ``sig``): a 32-bit hash of its tag id and of its
    class value's first _SIG_CLASS_BYTES bytes (_sig_hash; an element without a class: one FNV-1a
    step of its tag id).  Siblings with one signature are repeated records, the repetition VSSE's
    tag-path aggregation looks for over tag paths (seeds/000 Formula 2); default's sibling groups
    (_gbt_groups_add) and its class-word cache read it, for equality only.  Made while the walk
    has the element in the cache: read later, from the kernels, the class value was a cache miss
    after another in lexbor's tree."""
    cdef fx_attr *a = (<fx_element *>node).attr_class
    if a != NULL and a.value != NULL and a.value.data != NULL and a.value.length > 0:
        return _sig_hash(tag, a.value.data, a.value.length if a.value.length < _SIG_CLASS_BYTES
                         else _SIG_CLASS_BYTES)
    return fx_fnv32_step(FX_FNV32_OFFSET, <uint32_t>tag)


cdef inline int32_t _tag_of(fx_node *node) noexcept nogil:
    """fastx tag id: lexbor's static id, or 1024 + a 30-bit name hash for custom elements."""
    cdef uintptr_t lid = node.local_name
    cdef size_t n
    cdef const unsigned char *s
    if lid < STATIC_LIMIT:
        return <int32_t>lid
    s = _lexbor_name(lid, &n)
    return <int32_t>(STATIC_LIMIT + (_fnv1a(s, n) & 0x3FFFFFFF))


cdef inline const unsigned char *_id_name(uintptr_t lid, const unsigned char **names, const size_t *lens,
                                          size_t *n) noexcept nogil:
    """Name of tag or attribute id `lid`: a static id's from the table (`names`, `lens`; NULL
    when it has none), a dynamic one's from lexbor's hash entry."""
    if lid < STATIC_LIMIT:
        n[0] = lens[lid]
        return names[lid]
    return _lexbor_name(lid, n)


cdef inline const unsigned char *_attr_name(fx_attr *a, size_t *n) noexcept nogil:
    """Name of an attribute as kernels read it: NULL for a static id the calibration does not
    name (learned names included, see _static_attr_learned)."""
    cdef uintptr_t lid = a.node.local_name
    if lid < STATIC_LIMIT and _static_attr_learned[lid]:
        n[0] = 0
        return NULL
    return _id_name(lid, _static_attr_name, _static_attr_len, n)


cdef inline bint _name_is(const unsigned char *s, size_t n, const char *lit, size_t m) noexcept nogil:
    return s != NULL and n == m and memcmp(s, lit, m) == 0


cdef fx_attr *_find_attr(fx_node *node, const char *name, size_t m) noexcept nogil:
    """The attribute `name` (lower-case literal of length m) of an element, or NULL."""
    cdef fx_attr *a = (<fx_element *>node).first_attr
    cdef size_t n
    cdef const unsigned char *s
    while a != NULL:
        s = _attr_name(a, &n)
        if _name_is(s, n, name, m):
            return a
        a = a.next
    return NULL


cdef inline bint _attr_value_eq_ci(fx_attr *a, const char *lit, size_t m) noexcept nogil:
    """Case-insensitive, whitespace-trimmed equality of an attribute value with a lower-case literal."""
    cdef size_t i = 0, n
    if a == NULL or a.value == NULL:
        return False
    n = a.value.length
    while i < n and a.value.data[i] <= 32:
        i += 1
    while n > i and a.value.data[n - 1] <= 32:
        n -= 1
    return n - i == m and fx_ascii_ci_prefix(a.value.data + i, m, lit, m)


cdef int _style_bits(fx_attr *a) noexcept nogil:
    """Inline style, spaces and case ignored: 1 when it says display:none or visibility:hidden,
    2 when it says white-space: pre / pre-wrap / pre-line (CSS Text 3, 'white-space': the values
    that preserve line breaks)."""
    cdef unsigned char buf[256]
    cdef size_t i, k = 0, n
    cdef unsigned char c
    if a == NULL or a.value == NULL:
        return 0
    n = a.value.length
    for i in range(n):
        c = a.value.data[i]
        if c <= 32:
            continue
        if 65 <= c <= 90:
            c += 32
        if k < 255:
            buf[k] = c
            k += 1
    buf[k] = 0
    if _contains(buf, k, b"display:none", 12) or _contains(buf, k, b"visibility:hidden", 17):
        return 1
    return 2 if _contains(buf, k, b"white-space:pre", 15) else 0


cdef inline bint _contains(const unsigned char *s, size_t n, const char *lit, size_t m) noexcept nogil:
    cdef size_t i
    if m > n:
        return False
    for i in range(n - m + 1):
        if memcmp(s + i, lit, m) == 0:
            return True
    return False


# The roots of consent dialogs (the cookie banners of consent-management platforms), by the
# id/class words their vendors' scripts give them (OneTrust, Cookiebot, Quantcast Choice, Didomi,
# Usercentrics, TrustArc, Complianz, CookieYes, Google Funding Choices, Sourcepoint, Osano,
# iubenda, Termly, Borlabs, Axeptio, consentmanager, Evidon) and the names sites give their own
# banners; lower case, matched anywhere in the value, case aside (_consent_dialog).  At most 64.
CONSENT_MARKS = (
    b"onetrust-", b"optanon", b"cookiebot", b"qc-cmp2", b"didomi-", b"usercentrics", b"truste-", b"truste_",
    b"trustarc", b"cmplz-", b"cky-consent", b"cookie-law-info", b"fc-consent", b"sp_message_container",
    b"osano-cm", b"iubenda-cs", b"termly-", b"borlabscookie", b"axeptio", b"cmpbox", b"cmpwrapper",
    b"_evidon", b"cookie-banner", b"cookiebanner", b"cookie_banner", b"cookie-consent", b"cookieconsent",
    b"cookie_consent", b"cookie-notice", b"cookie_notice", b"consent-banner", b"gdpr-banner",
    b"gdpr-consent", b"gdpr-cookie", b"gdpr-modal", b"gdpr-notice")
# the deepest element read for them (html 0, body 1): a body's child to its great-grandchild, where
# the platforms put their roots (120 of the 142 wcxb-dev pages holding one); reading every
# element's id and class values would cost a seventh of the parse
DEF _CONSENT_DEPTH = 4
cdef const unsigned char *_consent_s[64]
cdef size_t _consent_n[64]
cdef uint64_t _consent_first[256]      # per byte (either case): the marks that start with it


cdef Py_ssize_t _word_table(tuple words, const unsigned char **at, size_t *lens, Py_ssize_t cap):
    """Fill a C table of words (`at`, `lens`: at most `cap`) from a module-level tuple of bytes,
    which keeps them alive; returns how many (the consent marks; default's class rules' words,
    _gbt_words)."""
    cdef Py_ssize_t k = 0
    for w in words[:cap]:
        at[k] = <const unsigned char *>(<bytes>w)
        lens[k] = len(w)
        k += 1
    return k


cdef void _consent_init():
    cdef int k, c
    cdef Py_ssize_t nmarks = _word_table(CONSENT_MARKS, _consent_s, _consent_n, 64)
    for c in range(256):
        _consent_first[c] = 0
    for k in range(nmarks):
        c = _consent_s[k][0]
        _consent_first[c] |= (<uint64_t>1) << k
        if 97 <= c <= 122:
            _consent_first[c - 32] |= (<uint64_t>1) << k


cdef bint _consent_dialog(fx_attr *a) noexcept nogil:
    """Whether an id or class value names a consent dialog's root (CONSENT_MARKS anywhere in it,
    case aside): one pass over the value, a mark compared only where a byte starts one."""
    cdef const unsigned char *v
    cdef size_t n, i
    cdef uint64_t cand
    cdef int k
    if a.value == NULL or a.value.data == NULL or a.value.length < 5:
        return False
    v = a.value.data
    n = a.value.length
    for i in range(n):
        cand = _consent_first[v[i]]
        while cand:
            k = fx_lowest_bit(cand)
            cand &= cand - 1
            if fx_ascii_ci_prefix(v + i, n - i, <const char *>_consent_s[k], _consent_n[k]):
                return True
    return False


cdef inline bint _ascii_alnum(unsigned char c) noexcept nogil:
    """An ASCII letter or digit (the kernels' one test of it)."""
    return (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122)


cdef bint _panel_class(fx_attr *a) noexcept nogil:
    """Whether a class value names a disclosure widget's panel: a word (an ASCII alphanumeric run,
    case aside) collapse, expander, accordion or tabpanel, or tab followed by pane or panel
    (Bootstrap's collapse and tab-pane, Chakra's chakra-collapse, Amazon's a-expander-content)."""
    cdef const unsigned char *s
    cdef size_t n, i = 0, j, w
    cdef bint tab = False
    if a == NULL or a.value == NULL or a.value.data == NULL:
        return False
    s = a.value.data
    n = a.value.length if a.value.length < 256 else 256
    while i < n:
        if not _ascii_alnum(s[i]):
            i += 1
            continue
        j = i
        while j < n and _ascii_alnum(s[j]):
            j += 1
        w = j - i
        if (w == 8 and (fx_ascii_ci_prefix(s + i, w, b"collapse", 8) or fx_ascii_ci_prefix(s + i, w, b"expander", 8)
                        or fx_ascii_ci_prefix(s + i, w, b"tabpanel", 8))) \
                or (w == 9 and fx_ascii_ci_prefix(s + i, w, b"accordion", 9)) \
                or (tab and ((w == 4 and fx_ascii_ci_prefix(s + i, w, b"pane", 4))
                             or (w == 5 and fx_ascii_ci_prefix(s + i, w, b"panel", 5)))):
            return True
        tab = w == 3 and fx_ascii_ci_prefix(s + i, w, b"tab", 3)
        i = j
    return False


cdef bint _hidden(fx_node *node, uint32_t props, bint custom, bint *style_pre, uint16_t *meta,
                  bint consent) noexcept nogil:
    """hidden, aria-hidden="true", inline display:none/visibility:hidden, <input type=hidden>:
    one pass over all the element's attributes (a hidden element's flags are complete too: a
    page rebuilt with its hidden elements, build_doc, reads them); `style_pre` set when the
    inline style says white-space: pre* (_style_bits); `meta` gets NF_ITEMPROP when the element
    has an itemprop, NF_HINT_ATTR when it has a class, id or rel (the names only are compared, as
    for the other attributes: their values are not read here), so that the metadata scan and
    default's class and id words read no attribute of the other elements; NF_ROLE when it has a
    role (default's landmark rule and attribute semantics read the attributes of these elements
    only); NF_LINK | NF_IN_LINK when it is a `custom` element (a web component,
    <dropdown-item href=...>: a link a script follows) with an href (a standard element's href,
    Webflow's <div href="#">, is a leftover, not a link).

    With `consent` (an element at most _CONSENT_DEPTH levels deep), a consent dialog's root (an id
    or class naming it, _consent_dialog; never html, body, main or article) counts as hidden: a
    cookie banner is what the page shows over its content, never content (its policy text is the
    site's, not the page's), and the sites that save the page save the dialog's markup with it
    (the platforms' scripts append it to the body).

    A `hidden` element whose id is "S:<n>" is a completed React streaming segment
    (React 18 server rendering: the inline $RC script moves it into its
    <template id="B:<n>"> placeholder as soon as it arrives), so what the browser shows:
    it counts as visible. 2% of wcxb-dev's modern pages put content there.

    A hidden disclosure panel -- role=tabpanel or role=region (WAI-ARIA's tabs and accordion
    patterns hide every panel but the open one), or a class naming a panel (_panel_class) --
    counts as visible: its text is the page's own, one click away (a product's description,
    specification and shipping tabs, a service's FAQ answers, a documentation page's code
    tabs), and WCXB's gold holds it.  Read so, `default`'s word F1 on wcxb-dev (the model not
    retrained; training / validation split): all pages .8746 -> .8765 / .8527 -> .8600 (40
    pages win, 18 lose, of 1,497); service .8314 -> .8397 / .8714 -> .8782, documentation
    .9294 -> .9423 / .9456 -> .9469, product .6820 -> .6817 / .6638 -> .6956 (a shop's own
    sales-pitch tabs lose on training pages), collection unchanged / .6692 -> .6913; the other
    corpora's validation pages unchanged.  Only a hidden element's class is read for it."""
    cdef fx_attr *a = (<fx_element *>node).first_attr
    cdef fx_attr *cls = NULL
    cdef size_t n
    cdef const unsigned char *s
    cdef int bits
    cdef bint hidden_attr = False, segment = False, hide = False, panel = False, always = False
    while a != NULL:
        s = _attr_name(a, &n)
        if s != NULL:
            if n == 6 and memcmp(s, b"hidden", 6) == 0:
                hidden_attr = True
            if (n == 2 and memcmp(s, b"id", 2) == 0 and a.value != NULL and a.value.length >= 3
                    and a.value.data[0] == 83 and a.value.data[1] == 58):      # "S:"
                segment = True
            if ((n == 2 and memcmp(s, b"id", 2) == 0) or (n == 5 and memcmp(s, b"class", 5) == 0)) \
                    and consent and not always and not props & TP_PAGE and _consent_dialog(a):
                always = True
            if n == 5 and memcmp(s, b"class", 5) == 0:
                cls = a
            elif n == 4 and memcmp(s, b"role", 4) == 0:
                meta[0] |= NF_ROLE
                if _attr_value_eq_ci(a, b"tabpanel", 8) or _attr_value_eq_ci(a, b"region", 6):
                    panel = True
            if custom and n == 4 and memcmp(s, b"href", 4) == 0:
                meta[0] |= NF_LINK | NF_IN_LINK
            if n == 8 and memcmp(s, b"itemprop", 8) == 0:
                meta[0] |= NF_ITEMPROP
            elif _meta_hint_attr(s, n):
                meta[0] |= NF_HINT_ATTR
            if n == 5 and memcmp(s, b"style", 5) == 0:
                bits = _style_bits(a)
                if bits & 1:
                    hide = True
                if bits & 2:
                    style_pre[0] = True
            if n == 11 and memcmp(s, b"aria-hidden", 11) == 0 and _attr_value_eq_ci(a, b"true", 4):
                hide = True
            if n == 4 and props & TP_INPUT and memcmp(s, b"type", 4) == 0 and _attr_value_eq_ci(a, b"hidden", 6):
                always = True
        a = a.next
    if always:
        return True
    hide = hide or (hidden_attr and not segment)
    return hide and not (panel or _panel_class(cls))


# ---------------------------------------------------------------- text measures

cdef uint8_t _ascii_class[128]     # bit 1 space, 2 punctuation, 4 word character

cdef extern from "text_run.h":
    size_t fx_ascii_run(const unsigned char *s, size_t i, size_t n, unsigned char *out, size_t *o_io,
                        int *prev_sp_io, int *prev_wd_io, int *words_io, int *punct_io,
                        const unsigned char *table) nogil


cdef void _init_ascii_class() noexcept:
    cdef uint32_t c
    for c in range(128):
        _ascii_class[c] = (1 if _is_space(c) else 0) | (2 if _is_punct(c) else 0) | \
            (4 if _is_word_char(c) and not _is_punct(c) else 0)

cdef inline bint _is_space(uint32_t cp) noexcept nogil:
    return (cp <= 32 or cp == 0xA0 or cp == 0x3000 or cp == 0xFEFF or cp == 0x1680
            or (0x2000 <= cp <= 0x200B) or cp == 0x2028 or cp == 0x2029 or cp == 0x202F or cp == 0x205F
            or cp == 0x85)


cdef inline bint _is_punct(uint32_t cp) noexcept nogil:
    """Punctuation marks of the VSSE paper's characteristic: ASCII and CJK/full-width sentence marks."""
    if cp < 128:
        return cp == 44 or cp == 46 or cp == 33 or cp == 63 or cp == 59 or cp == 58 or cp == 34 \
            or cp == 40 or cp == 41
    return (cp == 0xFF0C or cp == 0x3002 or cp == 0xFF01 or cp == 0xFF1F or cp == 0xFF1B or cp == 0xFF1A
            or cp == 0x3001 or cp == 0x201C or cp == 0x201D or cp == 0xFF08 or cp == 0xFF09
            or cp == 0x2026 or cp == 0x2018 or cp == 0x2019 or cp == 0x300A or cp == 0x300B
            or cp == 0x300C or cp == 0x300D or cp == 0xFF0E)


cdef inline bint _is_cjk(uint32_t cp) noexcept nogil:
    """Same ranges as the evaluation tokenizer: each such character is a token of its own."""
    return ((0x3040 <= cp <= 0x30FF) or (0x3400 <= cp <= 0x4DBF) or (0x4E00 <= cp <= 0x9FFF)
            or (0xF900 <= cp <= 0xFAFF) or (0xAC00 <= cp <= 0xD7AF))


cdef inline bint _is_word_char(uint32_t cp) noexcept nogil:
    if cp < 128:
        return (48 <= cp <= 57) or (65 <= cp <= 90) or (97 <= cp <= 122) or cp == 95
    return not _is_punct(cp) and not (0x2010 <= cp <= 0x2027) and not (0x3000 <= cp <= 0x303F) \
        and not (0xFF00 <= cp <= 0xFF20)


cdef inline uint32_t _utf8_next(const unsigned char *s, size_t n, size_t *i) noexcept nogil:
    """Decode one code point at s[i] (lenient: a bad byte is returned as itself)."""
    cdef unsigned char c = s[i[0]]
    cdef uint32_t cp
    cdef size_t k, need
    if c < 0x80:
        i[0] += 1
        return c
    if c >= 0xF0:
        need = 3
        cp = c & 0x07
    elif c >= 0xE0:
        need = 2
        cp = c & 0x0F
    elif c >= 0xC0:
        need = 1
        cp = c & 0x1F
    else:
        i[0] += 1
        return 0xFFFD
    if i[0] + need >= n:
        i[0] += 1
        return 0xFFFD
    for k in range(1, need + 1):
        if (s[i[0] + k] & 0xC0) != 0x80:
            i[0] += 1
            return 0xFFFD
        cp = (cp << 6) | (s[i[0] + k] & 0x3F)
    i[0] += need + 1
    return cp


# ---------------------------------------------------------------- the walk

cdef struct Rec:
    int32_t parent
    int32_t depth
    int32_t tag
    uint32_t sig
    int64_t text_off
    int32_t text_len
    int32_t chars
    int32_t punct
    int32_t words
    uintptr_t ptr
    uint16_t flags
    uint8_t kind


cdef struct Builder:
    Rec *recs
    Py_ssize_t n
    Py_ssize_t cap
    unsigned char *buf
    Py_ssize_t blen
    Py_ssize_t bcap
    int32_t *stack
    Py_ssize_t sp
    Py_ssize_t scap
    Py_ssize_t body
    int oom
    int pending_ws     # a whitespace-only text node since the last text record
    Py_ssize_t pre_pend   # preformatted whitespace waiting in buf for the next preformatted text, or -1
    int pre_blk           # a block element started or ended since the last text record
    int keep_noscript     # keep every <noscript> (a page whose content is only there: see build_doc)
    int keep_hidden       # keep hidden elements (a page whose content waits for a script: see build_doc)
    uint64_t *skip        # the elements the walk does not enter (the head's, meta, link, script, hidden, ...)
    Py_ssize_t nskip      # in preorder: what the metadata scan reads there (_meta.pxi)
    Py_ssize_t skipcap


cdef inline bint _grow(void **p, Py_ssize_t *cap, Py_ssize_t need, size_t item) noexcept nogil:
    cdef Py_ssize_t c = cap[0]
    cdef void *q
    if need <= c:
        return True
    while c < need:
        c = c * 2 if c else 64
    q = realloc(p[0], c * item)
    if q == NULL:
        return False
    p[0] = q
    cap[0] = c
    return True


cdef inline void _skip_push(Builder *b, fx_node *node) noexcept nogil:
    """Note an element the walk does not enter (Builder.skip)."""
    if not _grow(<void **>&b.skip, &b.skipcap, b.nskip + 1, sizeof(uint64_t)):
        b.oom = 1
        return
    b.skip[b.nskip] = <uintptr_t>node
    b.nskip += 1


cdef inline Rec *_push_rec(Builder *b) noexcept nogil:
    if not _grow(<void **>&b.recs, &b.cap, b.n + 1, sizeof(Rec)):
        b.oom = 1
        return NULL
    b.n += 1
    return &b.recs[b.n - 1]


cdef bint _invisible_only(const unsigned char *s, size_t n) noexcept nogil:
    """Whether the collapsed text s[0..n) holds nothing a reader sees: only spaces and the format
    characters that take no room and are not whitespace to _is_space (which already collapses
    the zero-width space and U+FEFF) -- the soft hyphen U+00AD, the zero-width non-joiner and
    joiner U+200C-U+200D, the word joiner U+2060.  (Inside other text they stay: a joiner binds
    an emoji sequence.)"""
    cdef size_t i = 0
    while i < n:
        if s[i] == 32:
            i += 1
        elif i + 1 < n and s[i] == 0xC2 and s[i + 1] == 0xAD:
            i += 2
        elif i + 2 < n and s[i] == 0xE2 and ((s[i + 1] == 0x80 and (s[i + 2] == 0x8C or s[i + 2] == 0x8D))
                                             or (s[i + 1] == 0x81 and s[i + 2] == 0xA0)):
            i += 3
        else:
            return False
    return True


cdef inline bint _permalink_mark(Builder *b, fx_node *node, int32_t parent) noexcept nogil:
    """Whether text node `node` is a permalink mark: one pilcrow, section sign, "#" or link
    symbol (U+1F517), whitespace aside, directly inside an <a> that links to a fragment of the
    page (href="#..."): the headerlink Sphinx and MkDocs put after every heading and signature
    ("Middleware¶", "json.dump(obj)¶") and the "#" of many static-site themes. It is no text of
    the page: the Doc leaves it out, and with it every output (text, Markdown, HTML)."""
    cdef fx_chardata *cd = <fx_chardata *>node
    cdef const unsigned char *s = cd.data.data
    cdef size_t n = cd.data.length, i = 0
    cdef fx_attr *a
    if s == NULL or n == 0 or n > 16:
        return False
    while i < n and s[i] <= 32:
        i += 1
    if i == n or not (s[i] == 35 or s[i] == 0xC2 or s[i] == 0xF0):     # (a link's text: a letter)
        return False
    while s[n - 1] <= 32:
        n -= 1
    s += i
    n -= i
    if parent < 0 or not (b.recs[parent].flags & NF_LINK):
        return False
    if not ((n == 1 and s[0] == 35) or (n == 2 and s[0] == 0xC2 and (s[1] == 0xB6 or s[1] == 0xA7))
            or (n == 4 and memcmp(s, b"\xf0\x9f\x94\x97", 4) == 0)):
        return False
    a = _find_attr(<fx_node *><uintptr_t>b.recs[parent].ptr, b"href", 4)
    return a != NULL and a.value != NULL and a.value.data != NULL and a.value.length > 0 \
        and a.value.data[0] == 35


cdef void _add_text(Builder *b, fx_node *node, int32_t parent, int32_t depth, uint16_t inherited) noexcept nogil:
    """Collapse whitespace, strip, count chars/punctuation/words; append to the text buffer.

    ASCII bytes take a branch-free path (class table, conditional moves);
    other code points are decoded one by one.  `prev_sp` starts true so that
    leading whitespace is dropped; a trailing space is removed at the end.

    Inside a preformatted element (NF_PRE in `inherited`) the counts are the
    same, but the buffer then keeps the node's raw text (_add_raw_text).
    """
    cdef fx_chardata *cd = <fx_chardata *>node
    cdef const unsigned char *s = cd.data.data
    cdef size_t n = cd.data.length, i = 0, start
    cdef uint32_t cp
    cdef unsigned char c, cls
    cdef unsigned char *out
    cdef int prev_sp = 1, prev_wd = 0, iwords = 0, ipunct = 0
    cdef size_t uo
    cdef bint lead_ws
    cdef int32_t chars = 0, punct = 0, words = 0, extra = 0
    cdef Py_ssize_t off = b.blen, o
    cdef Rec *r
    if not (inherited & NF_PRE):
        b.pre_pend = -1        # preformatted whitespace never joins text outside its element
    if s == NULL or n == 0 or (inherited & NF_IN_LINK and _permalink_mark(b, node, parent)):
        return
    if not _grow(<void **>&b.buf, &b.bcap, b.blen + (3 * n + 4 if inherited & NF_PRE else n + 1), 1):
        b.oom = 1
        return
    lead_ws = s[0] < 128 and (_ascii_class[s[0]] & 1) != 0
    out = b.buf
    o = b.blen
    while i < n:
        if s[i] < 128:
            uo = <size_t>o
            i = fx_ascii_run(s, i, n, out, &uo, &prev_sp, &prev_wd, &iwords, &ipunct, _ascii_class)
            o = <Py_ssize_t>uo
            continue
        start = i
        cp = _utf8_next(s, n, &i)
        if _is_space(cp):
            if o == off:
                lead_ws = True
            if not prev_sp:
                out[o] = 32
                o += 1
            prev_sp = 1
            prev_wd = 0
            continue
        prev_sp = 0
        if cp == 0xFFFD and i - start == 1:
            # a stray byte: write U+FFFD so the buffer stays valid UTF-8
            b.blen = o
            if not _grow(<void **>&b.buf, &b.bcap, o + (n - i) + 4, 1):
                b.oom = 1
                return
            out = b.buf
            out[o] = 0xEF
            out[o + 1] = 0xBF
            out[o + 2] = 0xBD
            o += 3
            extra += 2
        else:
            memcpy(out + o, s + start, i - start)
            o += i - start
            extra += <int32_t>(i - start) - 1
        if _is_punct(cp):
            punct += 1
            prev_wd = 0
        elif _is_cjk(cp):
            words += 1
            prev_wd = 0
        elif _is_word_char(cp):
            words += 1 - prev_wd
            prev_wd = 1
        else:
            prev_wd = 0
    words += iwords
    punct += ipunct
    if o > off and out[o - 1] == 32:
        o -= 1
        prev_sp = 2            # marks trailing whitespace
    b.blen = o
    chars = <int32_t>(o - off) - extra
    if inherited & NF_PRE:
        o = _add_raw_text(b, s, n, off, o == off)
        if o < 0:
            b.pending_ws = 1
            return
        off = b.pre_pend if b.pre_pend >= 0 else off
        b.pre_pend = -1        # the node's trailing whitespace stays after its text (the gap)
    elif o == off or (out[off] >= 0xC2 and _invisible_only(out + off, <size_t>(o - off))):
        # whitespace-only (or invisible characters only: the zero-width joiner Webflow's editor
        # writes as an empty paragraph, "<p>&zwj;</p>"): the next text starts after a space
        b.blen = off
        b.pending_ws = 1
        return
    r = _push_rec(b)
    if r == NULL:
        return
    r.parent = parent
    r.depth = depth
    r.tag = 0
    r.sig = 0
    r.kind = LXB_TEXT
    r.flags = inherited | (NF_WS_BEFORE if lead_ws or b.pending_ws else 0) | (NF_WS_AFTER if prev_sp == 2 else 0)
    b.pending_ws = 0
    b.pre_blk = 0
    r.text_off = off
    r.text_len = <int32_t>(o - off)
    r.chars = chars
    r.punct = punct
    r.words = words
    r.ptr = <uintptr_t>node


cdef Py_ssize_t _add_raw_text(Builder *b, const unsigned char *s, size_t n, Py_ssize_t off,
                              bint blank) noexcept nogil:
    """The raw text of a preformatted text node (HTML, 'pre' element: whitespace is
    significant) written over its collapsed copy at `off`: valid UTF-8 (a stray
    byte becomes U+FFFD, as in the collapsed text), nothing else changed.

    The Doc's counts stay the collapsed text's; the record's text must also
    end where the collapsed text does (kernels read its last code point), so
    whitespace never ends a record.  Whitespace on the same line of blocks as
    the previous text (its own trailing whitespace, a whitespace-only node with
    no block element started or ended since) stays in the buffer right after
    that text, before the next record's text: the gap the text and Markdown
    writers put back between two preformatted texts.  Whitespace after a block
    boundary (a whitespace-only node) starts the next preformatted record's
    text (b.pre_pend), so it is written after the boundary's line break.
    Returns the end of the node's text without trailing whitespace, or -1 for
    a blank node.  The caller grew the buffer to off + 3n + 4.
    """
    cdef unsigned char *out = b.buf
    cdef size_t i = 0, start
    cdef Py_ssize_t o = off, body = off, q
    cdef uint32_t cp
    while i < n:
        if s[i] < 128:
            out[o] = s[i]
            o += 1
            if s[i] > 32:
                body = o
            i += 1
            continue
        start = i
        cp = _utf8_next(s, n, &i)
        if cp == 0xFFFD and i - start == 1:
            out[o] = 0xEF
            out[o + 1] = 0xBF
            out[o + 2] = 0xBD
            o += 3
        else:
            memcpy(out + o, s + start, i - start)
            o += <Py_ssize_t>(i - start)
        if not _is_space(cp):
            body = o
    b.blen = o
    if blank:
        if b.pre_pend < 0 and o > off and b.pre_blk:
            b.pre_pend = off
        return -1
    return body


cdef inline bint _stack_push(Builder *b, int32_t v) noexcept nogil:
    if not _grow(<void **>&b.stack, &b.scap, b.sp + 1, sizeof(int32_t)):
        b.oom = 1
        return False
    b.stack[b.sp] = v
    b.sp += 1
    return True


cdef extern from "noscript_mark.h":
    bint fx_noscript_kept(const fx_node *n) noexcept nogil


cdef void _walk(Builder *b, fx_node *root, fx_node **title, fx_node **desc, fx_node **body) noexcept nogil:
    """Iterative preorder over lexbor's tree from `root`; no recursion, any depth."""
    cdef fx_node *node = root
    cdef fx_node *child
    cdef fx_attr *a
    cdef uint32_t props
    cdef int32_t tag, parent, idx
    cdef uint16_t inherited, fl, mfl
    cdef bint descend, style_pre
    cdef Rec *r
    while node != NULL and not b.oom:
        descend = False
        style_pre = False
        mfl = 0
        parent = b.stack[b.sp - 1] if b.sp > 0 else -1
        inherited = b.recs[parent].flags & (NF_IN_LINK | NF_PRE) if parent >= 0 else 0
        if node.type == LXB_ELEMENT:
            tag = _tag_of(node)
            props = _tag_props[tag] if tag < STATIC_LIMIT else 0
            if props & TP_HEAD:
                # read <title> and the meta description, never count the head; each element of
                # the head is noted for the metadata scan (an array it reads ahead in, where the
                # head's sibling chain would be a cache miss after another)
                child = node.first_child
                while child != NULL:
                    if child.type == LXB_ELEMENT:
                        _skip_push(b, child)
                    if child.type == LXB_ELEMENT and child.local_name < STATIC_LIMIT:
                        if _tag_props[child.local_name] & TP_TITLE and title[0] == NULL:
                            title[0] = child
                        elif _tag_props[child.local_name] & TP_META:
                            a = _find_attr(child, b"name", 4)
                            if a == NULL:
                                a = _find_attr(child, b"property", 8)
                            if _attr_value_eq_ci(a, b"description", 11) or (
                                    desc[0] == NULL and _attr_value_eq_ci(a, b"og:description", 14)):
                                desc[0] = child
                    child = child.next
            elif props & TP_TITLE and title[0] == NULL:
                title[0] = node          # a <title> lexbor placed in the body
                _skip_push(b, node)
            elif (not (props & TP_META) and (not (props & TP_DROP) or fx_noscript_kept(node)
                                              or (b.keep_noscript and tag == _noscript_tag))
                  and (not _hidden(node, props, tag >= STATIC_LIMIT, &style_pre, &mfl, b.sp <= _CONSENT_DEPTH)
                       or b.keep_hidden)):
                fl = inherited | mfl
                if not (fl & NF_PRE) and (props & TP_PRE or style_pre):
                    fl |= NF_PRE         # a preformatted element: its text is kept raw
                    b.pre_pend = -1
                if props & TP_LINK:
                    fl |= NF_LINK | NF_IN_LINK
                if props & TP_BLOCK:
                    fl |= NF_BLOCK
                if props & TP_HEADING:
                    fl |= NF_HEADING
                if props & TP_P:
                    fl |= NF_P
                if props & TP_BR:
                    fl |= NF_BR
                if fl & (NF_BLOCK | NF_BR):
                    b.pre_blk = 1
                r = _push_rec(b)
                if r == NULL:
                    return
                idx = <int32_t>(b.n - 1)
                r.parent = parent
                r.depth = <int32_t>b.sp
                r.tag = tag
                r.sig = _sibling_sig(node, tag)
                r.kind = LXB_ELEMENT
                r.flags = fl
                r.text_off = 0
                r.text_len = 0
                r.chars = 0
                r.punct = 0
                r.words = 0
                r.ptr = <uintptr_t>node
                if props & TP_BODY and body[0] == NULL:
                    body[0] = node
                    b.body = idx
                if node.first_child != NULL:
                    if not _stack_push(b, idx):
                        return
                    descend = True
            else:
                _skip_push(b, node)
        elif node.type == LXB_TEXT or node.type == LXB_CDATA:
            _add_text(b, node, parent, <int32_t>b.sp, inherited)
        if descend:
            node = node.first_child
            continue
        # next sibling, or climb (closing the elements we descended into)
        while node != root and node.next == NULL:
            node = node.parent
            if b.sp > 0 and b.recs[b.stack[b.sp - 1]].flags & (NF_BLOCK | NF_BR):
                b.pre_blk = 1
            b.sp -= 1
        if node == root:
            break
        node = node.next


# ---------------------------------------------------------------- Doc

# a Doc's arrays, in the order of their storage in Doc._mem: (name, dtype, bytes per node, offset
# in bytes per node); the 8-byte arrays first, so that every array is aligned to its item size.
# The one list of them: DocView's fields, Doc's NumPy attributes and _fill's pointers follow it.
_DOC_ARRAYS = []
_doc_off = 0
for _name, _dtype in (("text_off", np.int64), ("ptr", np.uint64), ("parent", np.int32), ("end", np.int32),
                      ("depth", np.int32), ("tag", np.int32), ("text_len", np.int32), ("chars", np.int32),
                      ("punct", np.int32), ("words", np.int32), ("tags", np.int32), ("link_chars", np.int32),
                      ("link_tags", np.int32), ("p_count", np.int32), ("leaves", np.int32),
                      ("text_nodes", np.int32), ("own_chars", np.int32), ("sig", np.uint32),
                      ("flags", np.uint16), ("kind", np.uint8)):
    _DOC_ARRAYS.append((_name, np.dtype(_dtype), np.dtype(_dtype).itemsize, _doc_off))
    _doc_off += np.dtype(_dtype).itemsize
_DOC_ARRAYS = tuple(_DOC_ARRAYS)
DEF _DOC_NODE_BYTES = 83       # the sum of the widths above (checked at import)
DEF _DOC_NARRAYS = 20          # their number (checked at import)
if _doc_off != _DOC_NODE_BYTES or len(_DOC_ARRAYS) != _DOC_NARRAYS:
    raise ImportError(f"fastx._core: Doc arrays take {_doc_off} bytes per node, not {_DOC_NODE_BYTES}")
cdef size_t _doc_array_off[_DOC_NARRAYS]       # the offsets above, for _fill
for _k in range(_DOC_NARRAYS):
    _doc_array_off[_k] = _DOC_ARRAYS[_k][3]


# The Doc's arrays seen from a kernel: one C pointer per array, named as the Doc's attribute, and
# the text buffer's bytes.  The Doc holds it (`d.view`, set by _fill); every kernel takes it in one
# line, `cdef DocView dv = d.view`, and reads `dv.parent[i]`, `dv.text_buf + dv.text_off[i]` ...
# (a local struct: the C compiler keeps its fields in registers as it kept separate pointers).
# Only _fill writes the arrays: a kernel reads them (the Doc, and what methods cache on it, is
# shared by every method run on the page).  The array pointers come first, in _DOC_ARRAYS's
# order (_fill sets them in one loop over it; the layout is checked at import).
ctypedef struct DocView:
    int64_t *text_off
    uint64_t *ptr
    int32_t *parent
    int32_t *end
    int32_t *depth
    int32_t *tag
    int32_t *text_len
    int32_t *chars
    int32_t *punct
    int32_t *words
    int32_t *tags
    int32_t *link_chars
    int32_t *link_tags
    int32_t *p_count
    int32_t *leaves
    int32_t *text_nodes
    int32_t *own_chars
    uint32_t *sig
    uint16_t *flags
    uint8_t *kind
    const unsigned char *text_buf


cdef DocView _doc_view_probe
if <size_t>(<char *>&_doc_view_probe.kind - <char *>&_doc_view_probe) != (_DOC_NARRAYS - 1) * sizeof(void *) \
        or <size_t>(<char *>&_doc_view_probe.text_buf - <char *>&_doc_view_probe) != _DOC_NARRAYS * sizeof(void *):
    raise ImportError("fastx._core: DocView is not one pointer per Doc array in _DOC_ARRAYS's order")


cdef class Doc:
    """A parsed page as flat arrays in preorder (elements and non-empty text nodes).

    Structure: ``parent``, ``end`` (subtree = index range ``[i, end[i])``),
    ``depth``, ``tag`` (lexbor tag id; 0 for text), ``kind`` (1 element,
    3 text), ``flags`` (NODE_FLAGS bits).  Own text (text nodes):
    ``text_off``/``text_len`` into ``text_buf`` (UTF-8, whitespace collapsed;
    raw in preformatted elements, flag ``pre``, whose counts are still the
    collapsed text's).
    Subtree totals, the node itself included: ``chars`` (C), ``tags`` (T:
    element descendants, the node itself excluded), ``link_chars`` (LC),
    ``link_tags`` (LT, excluding itself), ``punct``, ``words``, ``p_count``,
    ``leaves`` (elements with text and no element child), ``text_nodes``;
    ``own_chars`` (text directly under an element).  ``sig``: an element's sibling
    signature (its tag and class value hashed, _sibling_sig; 0 for text).  The parser is held so
    that node pointers (``ptr``) stay valid; ``full_tree`` says whether its tree
    still holds what no method reads (the text of scripts and styles: see
    ``fastx.parse``).
    """
    cdef public object parser
    cdef readonly Py_ssize_t n
    # every array lives in one buffer (_mem); kernels read the C pointers of `view`, Python reads
    # NumPy views made on first access (building 20 array objects per page cost more than a
    # small page's whole extraction when caches are cold)
    cdef object _mem
    cdef list _views
    cdef DocView view           # the arrays' C pointers and the text buffer (set by _fill)
    cdef readonly bytes text_buf
    cdef readonly str title, description
    cdef readonly Py_ssize_t body
    cdef readonly object url
    cdef readonly bint full_tree    # the parser's tree holds script and style text (fastx.parse's full_tree)
    cdef bint _pool                 # the parser is parse_guarded's: its document may serve a later parse
    cdef void *_document            # the parser's lexbor document (_parser_release)
    cdef dict _cache
    cdef bytes _skipped         # lexbor pointers (uint64) of the elements the build did not enter (the head's
                                # elements, scripts, hidden ...), in page order: the metadata scan walks them

    def __dealloc__(self):
        _parser_release(self)

    @property
    def cache(self):
        """A dict for what methods compute once per page (e.g. ``cache["layout"]``)."""
        if self._cache is None:
            self._cache = {}
        return self._cache

    cdef object _array(self, int k):
        """NumPy view of array k of _DOC_ARRAYS (made once, then cached)."""
        if self._views is None:
            self._views = [None] * len(_DOC_ARRAYS)
        v = self._views[k]
        if v is None:
            name, dtype, width, start = _DOC_ARRAYS[k]
            v = self._mem[start * self.n:(start + width) * self.n].view(dtype)
            self._views[k] = v
        return v

    # the arrays' NumPy attributes (parent, end, ..., kind): one _DocArray each, installed below

    def __len__(self):
        return self.n

    def __repr__(self):
        return f"<fastx.Doc nodes={self.n} title={self.title!r}>"

    def text(self, Py_ssize_t i):
        """The text of text node i (whitespace-collapsed; raw inside a preformatted element);
        '' for an element."""
        cdef int64_t off = self.text_off[i]
        return self.text_buf[off:off + self.text_len[i]].decode("utf-8", "replace")

    def tag_name(self, Py_ssize_t i):
        """Lower-case tag name of node i ('#text' for text nodes)."""
        if self.kind[i] == KIND_TEXT:
            return "#text"
        return _node_tag_name(<fx_node *><uintptr_t>self.ptr[i])

    def attr(self, Py_ssize_t i, str name):
        """Value of attribute `name` of element i, or None."""
        if self.kind[i] != KIND_ELEMENT:
            return None
        cdef bytes nm = name.lower().encode()
        cdef fx_attr *a = _find_attr(<fx_node *><uintptr_t>self.ptr[i], nm, len(nm))
        if a == NULL:
            return None
        return _fx_str(a.value)

    def attributes(self, Py_ssize_t i):
        """All attributes of element i as a dict (names lower-case)."""
        out = {}
        if self.kind[i] != KIND_ELEMENT:
            return out
        cdef fx_attr *a = (<fx_element *><uintptr_t>self.ptr[i]).first_attr
        cdef size_t n
        cdef const unsigned char *s
        while a != NULL:
            s = _attr_name(a, &n)
            if s != NULL:
                out[s[:n].decode("utf-8", "replace")] = _fx_str(a.value)
            a = a.next
        return out

    def subtree_text(self, Py_ssize_t i):
        """Text of node i's subtree, block elements on their own lines."""
        keep = np.zeros(self.n, dtype=np.uint8)
        keep[i:self.end[i]] = 1
        return self.render_text(keep)

    def render_text(self, const uint8_t[::1] keep):
        """Text of the kept text nodes in document order.

        A newline separates text on either side of a block element's start or
        end (or a <br>/<hr>); a space joins inline pieces that had whitespace
        between them in the source.
        """
        return _render_text(self, keep)

    def render_html(self, const uint8_t[::1] keep):
        """Cleaned HTML, safe to embed: the kept nodes inside the ancestors needed to hold
        them, through the allow-lists of elements, attributes and URLs of _sanitize.pxi."""
        return _serialize(self, keep, SER_CLEAN).decode("utf-8", "replace")


cdef class _DocArray:
    """A Doc attribute that is one of its arrays (`k`: the index in _DOC_ARRAYS): the NumPy view
    Doc._array makes on first access.  Read-only (a Doc has no instance dict)."""
    cdef int k

    def __cinit__(self, int k):
        self.k = k

    def __get__(self, obj, owner):
        return self if obj is None else (<Doc>obj)._array(self.k)


# one attribute per array of _DOC_ARRAYS, named as the array; put in the type's dict as Cython
# puts a cdef class's class attributes (Doc is an immutable type: setattr refuses), then the
# type's attribute cache is invalidated
for _k in range(_DOC_NARRAYS):
    (<object>(<PyTypeObject *>Doc).tp_dict)[_DOC_ARRAYS[_k][0]] = _DocArray(_k)
PyType_Modified(Doc)


cdef str _fx_str(fx_str *v):
    if v == NULL or v.data == NULL:
        return ""
    return v.data[:v.length].decode("utf-8", "replace")


cdef cnp.ndarray _contiguous(object a, int typenum, str what):
    """`a` as a C-contiguous NumPy array of `typenum` (no copy when it already is one);
    ValueError naming `what` when it cannot be one.  The kernels' array arguments."""
    if isinstance(a, np.ndarray) and cnp.PyArray_TYPE(<cnp.ndarray>a) == typenum \
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>a):
        return <cnp.ndarray>a
    try:
        return np.ascontiguousarray(a, dtype=cnp.PyArray_DescrFromType(typenum))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what}: {exc}") from None


cdef tuple _contiguous_each(tuple arrays, tuple typenums, str names):
    """_contiguous of each of `arrays`, its typenum and its name (a word of `names`) at the same
    place: the arrays a compiled model keeps and reads through their data pointers (SiteRules,
    _GbtModel)."""
    return tuple([_contiguous(a, t, w) for a, t, w in zip(arrays, typenums, names.split())])


cdef str _node_tag_name(fx_node *node):
    cdef uintptr_t lid = node.local_name
    cdef size_t n
    cdef const unsigned char *s
    if lid < STATIC_LIMIT:
        return TAG_NAMES_BY_ID.get(<int32_t>lid) or _lexbor_tag_name(lid)
    s = _lexbor_name(lid, &n)
    return s[:n].decode("utf-8", "replace")


_EXTRA_TAG_NAMES = {}


def _lexbor_tag_name(uintptr_t lid):
    """Name of a static lexbor tag id the calibration did not list (looked up once via selectolax)."""
    name = _EXTRA_TAG_NAMES.get(lid)
    if name is None:
        name = "span"    # unknown static ids serialize as a neutral inline element
    return name


cdef int32_t _noscript_tag = -1       # lexbor's id of <noscript>, set by the calibration


DEF _NOSCRIPT_ONLY_CHARS = 200      # body text below which <noscript> content is read (build_doc)
DEF _HIDDEN_ONLY_CHARS = 500        # body text below which hidden elements are read (build_doc)
DEF _HIDDEN_GAIN = 4                # ... when they hold this many times the visible text


# Documents parse_guarded may parse into again (at most _POOL_SIZE): a Doc whose parser nothing
# else holds gives it back when it goes (_parser_release), and the next parse takes it instead
# of creating a document and its arenas, name tables, parser and tokenizer anew (and destroying
# them after: 4 us a page of the 13 us a parse of a small page costs beyond selectolax's own).
# lexbor reads a new page into a used document as into a new one (lxb_html_document_parse_chunk_begin
# cleans it); what the guarded parse changed in it is set again at each parse (tree_guard.h:
# fx_tg_parse), and it is emptied as it is kept (fx_tg_release: its tree and arenas, and its name
# tables back to lexbor's size however far a page of megabytes widened them).
DEF _POOL_SIZE = 2
cdef list _PARSER_POOL = []
cdef Py_ssize_t _POOL_REFS = 0      # the parser's count of references when one Doc holds it (_pool_refs)

cdef extern from "tree_guard.h":
    void fx_tg_release(void *doc) noexcept nogil


cdef void _parser_release(Doc d):
    """Keep `d`'s parser for a later parse_guarded when `d` was the last to hold it (its Nodes, a
    user's reference, another Doc of the same parse would hold it too)."""
    cdef object p = d.parser
    if not d._pool or d._document == NULL or p is None or _PARSER_POOL is None \
            or Py_REFCNT(p) != _POOL_REFS or len(_PARSER_POOL) >= _POOL_SIZE:
        return
    fx_tg_release(d._document)   # emptied now: a kept document holds what a new one does
    p.raw_html = None
    _PARSER_POOL.append((p, <uintptr_t>d._document))   # (its tree empty, p.root no longer leads to it)


cdef Py_ssize_t _pool_refs(Doc d):
    """The parser's count of references as _parser_release sees it (`d.parser` and its own
    local), measured once on a Doc that alone holds its parser (_tg_calibrate): 0 (no document
    is ever kept) until then."""
    cdef object p = d.parser
    return Py_REFCNT(p)


def build_doc(parser, str title_fallback="", object url=None, bint keep_noscript=False,
              bint full_tree=True, bint pool=False):
    """Build the flat `Doc` from a selectolax LexborHTMLParser (kept alive by the Doc).

    `full_tree` says whether the parse kept what no method reads (``parse_guarded``'s
    full_tree; ``Doc.full_tree``): the Doc is the same either way.  `pool`: the parser is
    ``parse_guarded``'s, and once the Doc goes and nothing else holds it, its document may
    serve a later parse.

    ``<noscript>`` is dropped, unless `keep_noscript`, or unless the page has next to
    no text outside it (under 200 characters, while its noscript content has at least
    twice that): a page that shows its content only to browsers without scripts, such
    as a Discourse forum's crawler view, is read as they show it.

    Hidden elements (``hidden``, ``aria-hidden``, inline ``display:none``) are dropped, unless
    the page shows next to nothing without them (under 500 characters, while with them and its
    noscript content it has at least 4 times that, and 2,000 at least): a page whose content
    waits for a script to reveal it (a "defer" wrapper styled display:none, a client-rendered
    app's pre-rendered markup) is read as the browser shows it once the script has run."""
    cdef Doc d = _build_doc(parser, title_fallback, url, keep_noscript, False)
    cdef Doc full
    cdef int32_t shown = d.view.chars[d.body] if d.body >= 0 else 0
    if not keep_noscript and d.body >= 0 and shown < _NOSCRIPT_ONLY_CHARS:
        full = _build_doc(parser, title_fallback, url, True, False)
        if full.body >= 0 and full.view.chars[full.body] >= 2 * _NOSCRIPT_ONLY_CHARS:
            d = full
            shown = d.view.chars[d.body]
    if d.body >= 0 and shown < _HIDDEN_ONLY_CHARS:
        full = _build_doc(parser, title_fallback, url, True, True)
        if full.body >= 0 and full.view.chars[full.body] >= max(_HIDDEN_GAIN * shown, 4 * _HIDDEN_ONLY_CHARS):
            d = full
    d.full_tree = full_tree
    d._pool = pool
    return d


cdef Doc _build_doc(parser, str title_fallback, object url, bint keep_noscript, bint keep_hidden):
    """The Doc of one walk over lexbor's tree (`build_doc`)."""
    cdef Doc d = Doc.__new__(Doc)
    cdef Builder b
    cdef fx_node *root
    cdef fx_node *title = NULL
    cdef fx_node *desc = NULL
    cdef fx_node *body = NULL
    cdef Py_ssize_t i, n, p
    root_node = parser.root
    d.parser = parser
    d.url = url
    b.recs = NULL
    b.n = b.cap = 0
    b.buf = NULL
    b.blen = b.bcap = 0
    b.stack = NULL
    b.sp = b.scap = 0
    b.body = -1
    b.oom = 0
    b.keep_noscript = keep_noscript
    b.keep_hidden = keep_hidden
    b.skip = NULL
    b.nskip = b.skipcap = 0
    b.pending_ws = 0
    b.pre_pend = -1
    b.pre_blk = 0
    # first capacities from the page size (dev pages: a node per 80 bytes, text 11% of the
    # bytes, medians): most pages then build with at most one reallocation
    raw = getattr(parser, "raw_html", None)
    cdef Py_ssize_t size = len(raw) if isinstance(raw, bytes) else 0
    try:
        if size > 4096:
            if not _grow(<void **>&b.recs, &b.cap, size // 64, sizeof(Rec)) \
                    or not _grow(<void **>&b.buf, &b.bcap, size // 6, 1):
                raise MemoryError("fastx: out of memory while building the node array")
        if root_node is not None:
            root = <fx_node *><uintptr_t>root_node.mem_id
            d._document = root.owner_document
            with nogil:
                _walk(&b, root, &title, &desc, &body)
        if b.oom:
            raise MemoryError("fastx: out of memory while building the node array")
        n = b.n
        d.n = n
        _fill(&b, d)
        d.text_buf = b.buf[:b.blen] if b.blen else b""
        d.view.text_buf = <const unsigned char *>PyBytes_AS_STRING(d.text_buf)
        d._skipped = (<char *>b.skip)[:b.nskip * sizeof(uint64_t)] if b.nskip else b""
    finally:
        free(b.recs)
        free(b.buf)
        free(b.stack)
        free(b.skip)
    d.body = b.body
    d.title = _collapse(_text_of(title)) if title != NULL else title_fallback
    d.description = _collapse(_fx_str(_find_attr(desc, b"content", 7).value)) \
        if desc != NULL and _find_attr(desc, b"content", 7) != NULL else ""
    return d


cdef void _fill(Builder *b, Doc d):
    """Copy the records into the arrays, then one reverse sweep for the subtree aggregates."""
    cdef Py_ssize_t i, p, n = b.n
    d._mem = np.empty(max(n, 1) * _DOC_NODE_BYTES, dtype=np.uint8)
    cdef uint8_t *base = <uint8_t *>cnp.PyArray_DATA(d._mem)
    cdef void *arrays[_DOC_NARRAYS]
    cdef int k
    for k in range(_DOC_NARRAYS):
        arrays[k] = base + _doc_array_off[k] * n
    memcpy(&d.view, arrays, sizeof(arrays))       # DocView's pointers, in _DOC_ARRAYS's order
    cdef DocView dv = d.view
    cdef uint8_t *has_elem_child
    cdef Rec *r
    has_elem_child = <uint8_t *>malloc(n + 1)
    if has_elem_child == NULL:
        raise MemoryError()
    with nogil:
        memset(dv.tags, 0, 7 * n * sizeof(int32_t))      # tags .. own: the subtree aggregates
        for i in range(n):
            r = &b.recs[i]
            dv.parent[i] = r.parent
            dv.end[i] = <int32_t>(i + 1)
            dv.depth[i] = r.depth
            dv.tag[i] = r.tag
            dv.kind[i] = r.kind
            dv.flags[i] = r.flags
            dv.text_off[i] = r.text_off
            dv.text_len[i] = r.text_len
            dv.chars[i] = r.chars
            dv.punct[i] = r.punct
            dv.words[i] = r.words
            dv.ptr[i] = r.ptr
            dv.sig[i] = r.sig
            has_elem_child[i] = 0
            if r.kind == LXB_TEXT:
                dv.text_nodes[i] = 1
                if r.flags & NF_IN_LINK:
                    dv.link_chars[i] = r.chars
            elif r.flags & NF_P:
                dv.p_count[i] = 1
        for i in range(n - 1, -1, -1):
            if dv.kind[i] == LXB_ELEMENT and not has_elem_child[i] and dv.chars[i] > 0:
                dv.leaves[i] += 1
            p = dv.parent[i]
            if p < 0:
                continue
            if dv.end[i] > dv.end[p]:
                dv.end[p] = dv.end[i]
            dv.chars[p] += dv.chars[i]
            dv.punct[p] += dv.punct[i]
            dv.words[p] += dv.words[i]
            dv.link_chars[p] += dv.link_chars[i]
            dv.p_count[p] += dv.p_count[i]
            dv.text_nodes[p] += dv.text_nodes[i]
            dv.leaves[p] += dv.leaves[i]
            if dv.kind[i] == LXB_ELEMENT:
                has_elem_child[p] = 1
                dv.tags[p] += dv.tags[i] + 1
                dv.link_tags[p] += dv.link_tags[i] + (1 if dv.flags[i] & NF_LINK else 0)
            else:
                dv.own_chars[p] += dv.chars[i]
    free(has_elem_child)


cdef str _text_of(fx_node *node):
    """Concatenated text of a lexbor subtree (iterative); used for <title>."""
    parts = []
    cdef fx_node *cur = node.first_child
    while cur != NULL:
        if cur.type == LXB_TEXT:
            parts.append(_fx_str(&(<fx_chardata *>cur).data))
        cur = _dom_next(cur, node, True)
    return "".join(parts)


def _collapse(str s):
    return " ".join(s.split())


# ---------------------------------------------------------------- output

cdef Py_ssize_t _text_gap(Py_ssize_t n, const uint8_t *kind, const uint16_t *flags, const int64_t *off,
                          const int32_t *tlen, Py_ssize_t blen, Py_ssize_t i) noexcept nogil:
    """Bytes of preformatted whitespace stored right after text node i's text (its own
    trailing whitespace and whitespace-only nodes on the same line of blocks; _add_raw_text):
    up to the next text node's text.  0 unless i is preformatted (NF_PRE).  The scan to the
    next text node is O(distance): writers calling it once per text node stay O(n)."""
    cdef Py_ssize_t j = i + 1, stop
    if not (flags[i] & NF_PRE):
        return 0
    while j < n and kind[j] != LXB_TEXT:
        j += 1
    stop = off[j] if j < n else blen
    return stop - (off[i] + tlen[i]) if stop > off[i] + tlen[i] else 0


cdef str _render_text(Doc d, const uint8_t[::1] keep):
    """Kept text in document order: a newline where a block starts or ends
    between two texts, a tab between the cells of one table row (td/th are
    not blocks here, so a row whose cells hold only inline content is one
    line), a space where the source had whitespace between inline pieces.
    Preformatted text (NF_PRE) is written as stored: raw, its whitespace
    carried inside the text itself."""
    cdef Py_ssize_t n = d.n, i, last = -1, o = 0, total = 0
    if keep.shape[0] != n:
        raise ValueError(f"keep mask has {keep.shape[0]} entries, the Doc has {n} nodes")
    cdef DocView dv = d.view
    cdef int32_t *blk
    cdef int32_t *bcount
    cdef int32_t *cell
    cdef int32_t *proot
    cdef int32_t cnt = 0
    cdef Py_ssize_t gap = 0, blen = len(d.text_buf)
    cdef char *out
    cdef bint block, is_cell
    blk = <int32_t *>malloc((4 * n + 1) * sizeof(int32_t))
    out = <char *>malloc(len(d.text_buf) + n + 1)
    if blk == NULL or out == NULL:
        free(blk)
        free(out)
        raise MemoryError()
    bcount = blk + n
    cell = blk + 2 * n
    proot = blk + 3 * n
    with nogil:
        for i in range(n):
            # nearest block ancestor-or-self, nearest cell, and the block starts before i
            is_cell = dv.kind[i] == LXB_ELEMENT and dv.tag[i] < STATIC_LIMIT and (_tag_props[dv.tag[i]] & TP_CELL) != 0
            block = dv.kind[i] == LXB_ELEMENT and (dv.flags[i] & (NF_BLOCK | NF_BR)) != 0 and not is_cell
            if block:
                blk[i] = <int32_t>i
            else:
                blk[i] = blk[dv.parent[i]] if dv.parent[i] >= 0 else -1
            if is_cell:
                cell[i] = <int32_t>i
            else:
                cell[i] = cell[dv.parent[i]] if dv.parent[i] >= 0 else -1
            bcount[i] = cnt
            if block:
                cnt += 1
            # the outermost preformatted element holding i
            if not (dv.flags[i] & NF_PRE):
                proot[i] = -1
            elif dv.parent[i] >= 0 and dv.flags[dv.parent[i]] & NF_PRE:
                proot[i] = proot[dv.parent[i]]
            else:
                proot[i] = <int32_t>i
        for i in range(n):
            if dv.kind[i] != LXB_TEXT or not keep[i]:
                continue
            if last >= 0:
                if gap > 0 and proot[i] == proot[last]:
                    # preformatted whitespace on the previous text's line (_text_gap)
                    memcpy(out + o, dv.text_buf + dv.text_off[last] + dv.text_len[last], gap)
                    o += gap
                if blk[i] != blk[last] or bcount[i] != bcount[last]:
                    if not (dv.flags[i] & NF_PRE and o > 0 and out[o - 1] == 10):
                        out[o] = 10         # (unless the raw text already ended its line)
                        o += 1
                elif cell[i] != cell[last]:
                    out[o] = 9
                    o += 1
                elif dv.flags[i] & NF_PRE and (dv.flags[last] & NF_PRE
                                               or (dv.text_len[i] > 0 and dv.text_buf[dv.text_off[i]] <= 32)):
                    pass        # raw text: the whitespace between is in the buffer
                elif dv.flags[last] & NF_WS_AFTER or dv.flags[i] & NF_WS_BEFORE:
                    out[o] = 32
                    o += 1
            memcpy(out + o, dv.text_buf + dv.text_off[i], dv.text_len[i])
            o += dv.text_len[i]
            last = i
            gap = _text_gap(n, dv.kind, dv.flags, dv.text_off, dv.text_len, blen, i)
    try:
        return out[:o].decode("utf-8", "replace")
    finally:
        free(blk)
        free(out)


# the void elements (HTML Living Standard 13.1.2, with the legacy ones parsers still treat as
# void): no content, no end tag.  The one list for the calibration document below, the cleaned
# HTML (_sanitize.pxi) and the browser's serialization (_browser.pxi).
VOID_TAGS = frozenset(("area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img",
                       "input", "keygen", "link", "meta", "param", "source", "track", "wbr"))


# ---------------------------------------------------------------- calibration

_CALIBRATION = (
    "<!DOCTYPE html><html><head><title>T</title><meta name=description content=D><base href=x>"
    "<link rel=x href=y><style>s</style><script>1</script><noscript>n</noscript></head><body>{body}"
    "<table><caption>c</caption><colgroup><col></colgroup><thead><tr><th>h</th></tr></thead>"
    "<tbody><tr><td>d</td></tr></tbody><tfoot><tr><td>f</td></tr></tfoot></table>"
    "<select><optgroup><option>o</option></optgroup></select>"
    "<dl><dt>t</dt><dd>d</dd></dl><ul><li>l</li></ul><ol><li>l</li></ol>"
    "<ruby>r<rb>b</rb><rt>t</rt><rp>p</rp><rtc>c</rtc></ruby>"
    "<my-custom-element-with-a-long-name>x</my-custom-element-with-a-long-name><x-s>y</x-s>"
    "</body></html>")


def _calibrate():
    """Learn lexbor's static tag/attribute ids and verify fastx's struct layouts.

    Parses a document naming every tag and attribute fastx uses, walks it both
    with fastx's own struct declarations and with selectolax's public API, and
    raises LayoutError if the two disagree in any way.
    """
    from selectolax.lexbor import LexborHTMLParser
    from .errors import LayoutError
    cdef fx_node *node
    _init_ascii_class()
    _consent_init()
    cdef fx_attr *a
    cdef size_t ln
    inline_tags = [t for t in TAG_NAMES if t not in (
        "html", "head", "body", "title", "meta", "base", "link", "style", "script", "noscript",
        "table", "tbody", "thead", "tfoot", "tr", "td", "th", "caption", "col", "colgroup", "select",
        "option", "optgroup", "frameset", "frame", "dd", "dt", "li", "rb", "rt", "rp", "rtc",
        "plaintext", "image")]
    attrs = " ".join(f'{a}="v{k}"' for k, a in enumerate(ATTR_NAMES))
    body = "".join(f"<{t} {attrs}>x</{t}>" if t not in VOID_TAGS else f"<{t} {attrs}>" for t in inline_tags)
    tree = LexborHTMLParser(_CALIBRATION.format(body=body))
    ours = []
    node = <fx_node *><uintptr_t>tree.root.mem_id
    cdef fx_node *root = node
    while node != NULL:
        if node.type == LXB_ELEMENT:
            ours.append((<uintptr_t>node, node.local_name))
        node = _dom_next(node, root, True)
    theirs = [(el.mem_id, el.tag, el) for el in tree.root.traverse(include_text=False)]
    if [p for p, _ in ours] != [p for p, _, _ in theirs]:
        raise LayoutError("fastx: lexbor's DOM node layout differs from the one fastx was built for "
                          f"(selectolax {_selectolax_version()}); reinstall fastx for this selectolax")
    TAG_IDS.clear()
    for (p, lid), (_, name, el) in zip(ours, theirs):
        if lid < STATIC_LIMIT:
            if el.tag_id != lid:
                raise LayoutError(f"fastx: tag id of <{name}> read as {lid}, selectolax says {el.tag_id}")
            TAG_IDS.setdefault(name, <int32_t>lid)
        elif name != _node_tag_name(<fx_node *><uintptr_t>p):
            raise LayoutError(f"fastx: custom tag name read as {_node_tag_name(<fx_node *><uintptr_t>p)!r}, "
                              f"selectolax says {name!r}")
    needed = set(DROP_TAGS + LINK_TAGS + BLOCK_TAGS + ("head", "title", "meta", "body", "span")) - {
        "frameset", "frame"}
    missing = sorted(t for t in needed if t not in TAG_IDS)
    if missing:
        raise LayoutError(f"fastx: calibration did not find tags {missing}")
    TAG_NAMES_BY_ID.clear()
    TAG_NAMES_BY_ID.update({v: k for k, v in TAG_IDS.items()})
    global _noscript_tag
    _noscript_tag = TAG_IDS["noscript"]
    for i in range(STATIC_LIMIT):
        _tag_props[i] = 0
    def setp(names, bit):
        for t in names:
            if t in TAG_IDS:
                _tag_props[TAG_IDS[t]] |= bit
    setp(DROP_TAGS, TP_DROP)
    setp(LINK_TAGS, TP_LINK)
    setp(BLOCK_TAGS, TP_BLOCK)
    setp(("p",), TP_P)
    setp(("br", "hr"), TP_BR)
    setp(("h1", "h2", "h3", "h4", "h5", "h6"), TP_HEADING)
    setp(("head",), TP_HEAD)
    setp(("title",), TP_TITLE)
    setp(("meta", "link", "base"), TP_META)
    setp(("input",), TP_INPUT)
    setp(("body",), TP_BODY)
    if "plaintext" not in TAG_IDS:      # (it would swallow the calibration document: read on its own)
        el = LexborHTMLParser("<body><plaintext>x").css_first("plaintext")
        if el is not None and 0 < el.tag_id < STATIC_LIMIT:
            TAG_IDS["plaintext"] = el.tag_id
            TAG_NAMES_BY_ID[el.tag_id] = "plaintext"
    for i in range(STATIC_LIMIT):
        _static_tag_name[i] = NULL
        _static_tag_len[i] = 0
    _TAG_NAME_KEEP.clear()
    for lid, name in TAG_NAMES_BY_ID.items():
        if lid < STATIC_LIMIT:
            _set_static_tag_name(lid, name.encode())
    setp(PRE_TAGS, TP_PRE)
    setp(("td", "th"), TP_CELL)
    setp(("html", "body", "main", "article"), TP_PAGE)
    # attributes: names of static ids from an element carrying all of them
    el = tree.css_first("span")
    expected = el.attributes
    node = <fx_node *><uintptr_t>el.mem_id
    a = (<fx_element *>node).first_attr
    for i in range(STATIC_LIMIT):
        _static_attr_name[i] = NULL
        _static_attr_len[i] = 0
        _static_attr_learned[i] = 0
    _ATTR_NAME_KEEP.clear()
    seen = []
    while a != NULL:
        seen.append((a.node.local_name, _fx_str(a.value)))
        a = a.next
    if [v for _, v in seen] != list(expected.values()):
        raise LayoutError("fastx: lexbor's attribute layout differs from the one fastx was built for")
    for (lid, _), name in zip(seen, expected.keys()):
        if lid < STATIC_LIMIT:
            _set_static_attr_name(lid, name.encode(), False)
    for (lid, v), name in zip(seen, expected.keys()):
        a = _find_attr(node, name.encode(), len(name.encode()))
        if a == NULL or _fx_str(a.value) != v:
            raise LayoutError(f"fastx: attribute {name!r} not found through lexbor's attribute layout")
    if _fx_str((<fx_element *>node).attr_class.value) != expected["class"] or \
            _fx_str((<fx_element *>node).attr_id.value) != expected["id"]:
        raise LayoutError("fastx: lexbor's element layout (id/class) differs from the one fastx was built for")
    d = build_doc(tree)
    if d.title != "T" or d.description != "D":
        raise LayoutError("fastx: head reading failed during calibration")
    d = build_doc(LexborHTMLParser("<body><p> caf\u00e9 \n <b>na\u00efve</b>\u3002</p></body>"))
    texts = [d.text(i) for i in range(d.n) if d.kind[i] == KIND_TEXT]
    if texts != ["caf\u00e9", "na\u00efve", "\u3002"] or d.chars[d.body] != 10:
        raise LayoutError("fastx: lexbor's text node layout differs from the one fastx was built for")


def _selectolax_version():
    try:
        from importlib.metadata import version
        return version("selectolax")
    except Exception:
        return "unknown"
