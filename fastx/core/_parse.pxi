# Guarded parsing inside lexbor's own tokenizer (the fast path of fastx.parse).
#
# lexbor's tree builder has the quadratic corners listed at the top of
# _guard.pxi (deep nesting, thousands of attributes, runaway formatting
# reconstruction, text fostered out of tables).  `guard_html` bounds them with
# a byte-level model of the tokenizer and of the tree builder's stack, which
# costs a fifth of a parse.  Here the same limits are applied to the real
# thing: lexbor's tokenizer hands every token to one callback (the tree
# builder's); `parse_guarded` puts `fx_tg_token` in front of it for the length
# of one parse, so the limits read lexbor's actual stack of open elements and
# list of active formatting elements instead of a model of them:
#
# - a start tag is dropped while the stack holds `max_depth` elements (a few
#   raw-text elements excepted, so <script> bodies stay text);
# - a formatting start tag (a, b, font, ...) is dropped while `max_formatting`
#   formatting elements follow the last marker;
# - attributes beyond `max_attrs` on one tag are cut off, and repeated
#   <html>/<body> start tags (which merge their attributes into the first)
#   beyond `max_html_body` are dropped;
# - once the tree builder has re-created more than `max_reconstructed`
#   formatting elements (the stack growing under a text token or by more than
#   the one element of a start tag), or more than `max_fostered` runs of text
#   have arrived while a table is the current node, every later tag and
#   comment except raw-text elements is dropped: the rest is read as text.
#
# Text tokens always pass: text is never removed.  A page within the limits
# gets exactly the tree an unguarded parse gives (tests/test_parse.py checks the
# development corpora).  The lexbor entry points are taken from selectolax's
# own extension module (dlsym); where that module does not export them
# (Windows builds) `parse_guarded` is unavailable and fastx.parse falls back
# to `guard_html` + LexborHTMLParser.  The struct prefixes (include/lexbor_abi.h) are lexbor's
# (html/tree.h, html/tokenizer.h, html/token.h, dom/interfaces/document.h, core/array.h);
# `_tg_calibrate` checks them at import.

cdef extern from "tree_guard.h":
    ctypedef struct fx_tg:
        size_t max_depth, max_formatting, max_attrs, max_html_body
        size_t reconstructed, max_reconstructed, fostered, max_fostered
        size_t dropped_tags, dropped_attrs, deepest, html_body
        size_t copied, max_copied, elements, max_elements, attrs_total, max_attrs_total
        size_t noscript_fixes, stripped, verbatim, skipped
        int flat
        int attrs_moved
        int skip_bodies
    int fx_tg_resolve(const char *path)
    unsigned int fx_tg_parse(void *doc, const unsigned char *html, size_t n, fx_tg *g) nogil
    void fx_tg_learn(void *doc)
    uint8_t fx_tg_cat[1024]
    uint8_t fx_tg_rawk[1024]
    enum:
        FX_TG_FORMAT
        FX_TG_RAW
        FX_TG_TABLE
        FX_TG_ROOT
        FX_TG_TABLE_EL
        FX_TG_NOSCRIPT
        FX_TG_HEAD
        FX_TG_SVG

# documents are created without DOM mutation events: they only fill
# <selectedcontent> (selectolax's LexborDocumentOptions.WO_EVENTS)
TG_OPTIONS = 1
TG_MAX_HTML_BODY = 16
from fastx.config import (GUARD_BYTES_PER_ELEMENT, GUARD_COPIED_BASE, GUARD_COPIED_PER_BYTE,
                          GUARD_ELEMENTS_BASE)
_TG_STATE = {"available": False, "parser_class": None}      # parser_class: selectolax's LexborHTMLParser

_TG_FORMAT = ("a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong",
              "tt", "u")
_TG_RAW = ("script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title", "plaintext")
_TG_TABLE = ("table", "tbody", "tfoot", "thead", "tr")
_TG_CALIBRATION = (
    "<html><body><table><thead><tr><td>x</td></tr></thead><tbody><tr><td>x</td></tr></tbody>"
    "<tfoot><tr><td>x</td></tr></tfoot></table>"
    + "".join(f"<{t}>x</{t}>" for t in _TG_FORMAT)
    + "".join(f"<{t}></{t}>" for t in _TG_RAW if t != "plaintext")
    + "<svg></svg><noscript></noscript><plaintext></body></html>")


def parse_available():
    """Whether `parse_guarded` can run here (lexbor's entry points were found)."""
    return _TG_STATE["available"]


cdef void *_parser_document(parser):
    """The lexbor document behind a selectolax parser whose tree has its root (a new or a just
    parsed one; a kept one's emptied tree has none: the pool keeps its document beside it)."""
    return (<fx_node *><uintptr_t>parser.root.mem_id).owner_document


def parse_guarded(bytes data, int max_depth=GUARD_MAX_DEPTH, int max_formatting=GUARD_MAX_FORMATTING,
                  int max_attrs=GUARD_MAX_ATTRS, object max_reconstructed=None,
                  Py_ssize_t max_fostered=GUARD_MAX_FOSTERED, object stats=False,
                  object max_copied=None, object max_elements=None, bint full_tree=True):
    """Parse UTF-8 `data` with lexbor, the hostile-input limits applied to its tokens.

    Returns a selectolax ``LexborHTMLParser`` holding the tree (``raw_html`` is
    `data`); with stats=True a tuple (parser, deepest stack, tags dropped,
    tags with attributes cut, formatting elements re-created, text runs
    fostered out of tables), with stats="dict" (parser, dict of every counter,
    also: bytes of text nodes lexbor copied to grow them, start tags passed,
    <noscript> repairs, whether the rest of the page was read as text, whether
    attribute values were moved out of the text arena).  The limits and their
    defaults are guard_html's (see the top of _parse.pxi); max_copied and
    max_elements default to the budgets in fastx/config.py.  With
    full_tree=False what no method reads is passed over, not parsed: the text
    of <script> (JSON-LD excepted) and <style> elements, the content of
    <svg> elements (include/tree_guard.h, fx_tg_skip) and the text of comments
    of 16 bytes or more (read as empty comments: fx_tg_feed_piece); the
    tree is otherwise the same and the parse of a modern page faster (stats
    "dict": "skipped", the bytes passed over).  Raises
    RuntimeError where unavailable (`parse_available()`), ParseError if lexbor
    fails.
    """
    cdef fx_tg g
    cdef unsigned int st
    cdef const unsigned char *s = data
    cdef size_t n = <size_t>len(data)
    if not _TG_STATE["available"]:
        raise RuntimeError("fastx: lexbor's parsing entry points are not available; use guard_html")
    if max_depth < 1 or max_formatting < 0 or max_attrs < 1:
        raise ValueError("guard limits must be positive")
    memset(&g, 0, sizeof(g))
    g.max_depth = max_depth
    g.max_formatting = max_formatting
    g.max_attrs = max_attrs
    g.max_html_body = TG_MAX_HTML_BODY
    g.skip_bodies = not full_tree
    g.max_reconstructed = 4096 + len(data) // 64 if max_reconstructed is None else max_reconstructed
    g.max_fostered = max_fostered
    g.max_copied = GUARD_COPIED_BASE + GUARD_COPIED_PER_BYTE * len(data) if max_copied is None else max_copied
    g.max_attrs_total = 2 * (GUARD_ELEMENTS_BASE + len(data) // GUARD_BYTES_PER_ELEMENT)
    g.max_elements = (2 * (GUARD_ELEMENTS_BASE + len(data) // GUARD_BYTES_PER_ELEMENT) if max_elements is None
                      else max_elements)
    # a document a Doc gave back (_parser_release, core/_doc.pxi), else a new one
    cdef void *doc
    if _PARSER_POOL:
        parser, kept = _PARSER_POOL.pop()
        doc = <void *><uintptr_t>kept
    else:
        parser = _TG_STATE["parser_class"](b"", options=TG_OPTIONS)
        doc = _parser_document(parser)
    with nogil:
        st = fx_tg_parse(doc, s, n, &g)
    if st == 2:                                  # LXB_STATUS_ERROR_MEMORY_ALLOCATION
        from .errors import OutOfMemoryError
        raise OutOfMemoryError("lexbor ran out of memory parsing the page")
    if st != 0:
        from .errors import ParseError
        raise ParseError(f"lexbor could not parse the page (status {st})")
    parser.raw_html = data
    if stats == "dict":
        return parser, {"deepest": g.deepest, "dropped_tags": g.dropped_tags, "dropped_attrs": g.dropped_attrs,
                        "reconstructed": g.reconstructed, "fostered": g.fostered, "copied": g.copied,
                        "elements": g.elements, "noscript_fixes": g.noscript_fixes, "flat": bool(g.flat),
                        "stripped": g.stripped, "attributes": g.attrs_total, "verbatim_after_flat": g.verbatim,
                        "attrs_moved": bool(g.attrs_moved), "skipped": g.skipped}
    if stats:
        return parser, g.deepest, g.dropped_tags, g.dropped_attrs, g.reconstructed, g.fostered
    return parser


def _tg_calibrate():
    """Find lexbor's entry points, learn the tag ids the callback needs and check
    that a guarded parse of a calibration page equals selectolax's own."""
    from selectolax import lexbor as sx
    from selectolax.lexbor import LexborHTMLParser
    cdef bytes path = sx.__file__.encode()
    _TG_STATE["available"] = False
    _TG_STATE["parser_class"] = LexborHTMLParser
    if not fx_tg_resolve(path):
        return
    ids = {}
    for el in LexborHTMLParser(_TG_CALIBRATION).root.traverse(include_text=False):
        ids.setdefault(el.tag, el.tag_id)
    for k in range(1024):
        fx_tg_cat[k] = 0
        fx_tg_rawk[k] = 0
    for names, bit in ((_TG_FORMAT, FX_TG_FORMAT), (_TG_RAW, FX_TG_RAW), (_TG_TABLE, FX_TG_TABLE),
                       (("html", "body"), FX_TG_ROOT), (("table",), FX_TG_TABLE_EL),
                       (("noscript",), FX_TG_NOSCRIPT), (("head",), FX_TG_HEAD), (("svg",), FX_TG_SVG)):
        for t in names:
            if t not in ids or not 7 <= ids[t] < 1024:
                return
            fx_tg_cat[ids[t]] |= bit
    for k, t in enumerate(_TG_RAW):                  # the order of fx_tg_raw_names
        fx_tg_rawk[ids[t]] = k + 1
    global _POOL_REFS
    holder = Doc.__new__(Doc)           # a Doc alone holding its parser: the count the pool asks for
    holder.parser = LexborHTMLParser(b"", options=TG_OPTIONS)
    _POOL_REFS = _pool_refs(holder)
    del holder
    learner = LexborHTMLParser(b"", options=TG_OPTIONS)
    fx_tg_learn(_parser_document(learner))
    _TG_STATE["available"] = True
    try:
        for page in (_TG_CALIBRATION.encode(), _CALIBRATION.format(body="<p>x<b>y</b></p>").encode()):
            ours = parse_guarded(page)
            if ours.html != LexborHTMLParser(page).html:
                _TG_STATE["available"] = False
    except Exception:
        _TG_STATE["available"] = False


def name_table_sizes(parser):
    """Bucket counts of a parsed document's name tables (tags, attributes,
    prefixes, namespaces): 128 each from lexbor, more after `parse_guarded`
    of a large page."""
    cdef fx_dom_document *d = <fx_dom_document *>_parser_document(parser)
    return ((<fx_hash *>d.tags).table_size, (<fx_hash *>d.attrs).table_size,
            (<fx_hash *>d.prefix).table_size, (<fx_hash *>d.ns).table_size)
