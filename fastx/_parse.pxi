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
# to `guard_html` + LexborHTMLParser.  The struct prefixes below are lexbor's
# (html/tree.h, html/tokenizer.h, html/token.h, dom/interfaces/document.h, core/array.h);
# `_tg_calibrate` checks them at import.

cdef extern from *:
    """
    #include <stddef.h>
    #include <stdint.h>
    #include <string.h>
    #if !defined(_WIN32)
    #include <dlfcn.h>
    #endif

    typedef struct { void **list; size_t size; size_t length; } fx_array;      /* lexbor_array_t */

    typedef struct fx_token_attr_s fx_token_attr;
    struct fx_token_attr_s {                           /* lxb_html_token_attr_t */
        const unsigned char *name_begin, *name_end, *value_begin, *value_end;
        const void *name;
        unsigned char *value;
        size_t value_size;
        fx_token_attr *next, *prev;
        int type;
    };
    typedef struct {                                   /* lxb_html_token_t */
        const unsigned char *begin, *end, *text_start, *text_end;
        fx_token_attr *attr_first, *attr_last;
        void *base_element;
        size_t null_count;
        uintptr_t tag_id;
        int type;                                      /* bit 0: end tag */
    } fx_token;

    typedef fx_token *(*fx_token_cb)(void *tkz, fx_token *token, void *ctx);
    typedef struct {                                   /* lxb_html_tokenizer_t, leading fields */
        void *state, *state_return;
        fx_token_cb callback_token_done;
        void *callback_token_ctx;
    } fx_tokenizer_head;
    typedef struct {                                   /* lxb_html_tree_t, leading fields */
        void *tkz_ref, *document, *fragment, *form;
        fx_array *open_elements;
        fx_array *active_formatting;
    } fx_tree_head;
    typedef struct {                                   /* lxb_html_parser_t, leading fields */
        void *tkz;
        void *tree;
    } fx_parser_head;
    typedef struct {                                   /* lxb_dom_document_t */
        fx_node node;
        int compat_mode, type;
        void *doctype, *element;
        void *create_interface, *clone_interface, *destroy_interface;
        const void *mutation, *attr_mutation;
        void *mraw, *text, *tags, *attrs, *prefix, *ns;
        void *parser;
        void *user;
        void *css;
        uint32_t options;
    } fx_dom_document;

    typedef struct {                                   /* lexbor_hash_t */
        void *entries, *mraw;
        void **table;
        size_t table_size, struct_size;
    } fx_hash;

    typedef unsigned int (*fx_doc_fn)(void *document);
    typedef void *(*fx_calloc_fn)(size_t num, size_t size);
    typedef void *(*fx_free_fn)(void *p);
    static fx_calloc_fn fx_tg_calloc = NULL;
    static fx_free_fn fx_tg_free = NULL;
    typedef unsigned int (*fx_chunk_fn)(void *document, const unsigned char *html, size_t size);
    typedef void *(*fx_marker_fn)(void);
    static fx_doc_fn fx_tg_begin = NULL, fx_tg_end = NULL;
    static fx_chunk_fn fx_tg_chunk = NULL;
    static void *fx_tg_marker = NULL;

    /* Resolve lexbor's chunk-parsing entry points in selectolax's module. */
    static int fx_tg_resolve(const char *path) {
    #if defined(_WIN32)
        (void)path;
        return 0;
    #else
        void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
        fx_marker_fn marker;
        if (h == NULL) return 0;
        fx_tg_begin = (fx_doc_fn)dlsym(h, "lxb_html_document_parse_chunk_begin");
        fx_tg_chunk = (fx_chunk_fn)dlsym(h, "lxb_html_document_parse_chunk");
        fx_tg_end = (fx_doc_fn)dlsym(h, "lxb_html_document_parse_chunk_end");
        marker = (fx_marker_fn)dlsym(h, "lxb_html_tree_active_formatting_marker");
        fx_tg_calloc = (fx_calloc_fn)dlsym(h, "lexbor_calloc");
        fx_tg_free = (fx_free_fn)dlsym(h, "lexbor_free");
        if (fx_tg_begin == NULL || fx_tg_chunk == NULL || fx_tg_end == NULL || marker == NULL
                || fx_tg_calloc == NULL || fx_tg_free == NULL) {
            fx_tg_begin = fx_tg_end = NULL;
            fx_tg_chunk = NULL;
            return 0;
        }
        fx_tg_marker = marker();
        return 1;
    #endif
    }

    enum { FX_TG_TAGS = 1024 };                        /* lexbor's static tag ids are below */
    enum {
        FX_TG_FORMAT = 1, FX_TG_RAW = 2, FX_TG_TABLE = 4, FX_TG_ROOT = 8
    };
    static uint8_t fx_tg_cat[FX_TG_TAGS];

    typedef struct {
        fx_token_cb tree_cb;           /* the tree builder's own callback */
        void *tree;
        fx_array *open, *afe;
        size_t max_depth, max_formatting, max_attrs, max_html_body;
        size_t reconstructed, max_reconstructed, fostered, max_fostered;
        size_t dropped_tags, dropped_attrs, deepest, html_body;
        int flat;
    } fx_tg;

    static inline uintptr_t fx_tg_top(const fx_tg *g) {
        return g->open->length ? ((const fx_node *)g->open->list[g->open->length - 1])->local_name : 0;
    }

    static inline int fx_tg_has_text(const unsigned char *s, const unsigned char *e) {
        for (; s < e; s++)
            if (*s != ' ' && *s != '\\n' && *s != '\\t' && *s != '\\r' && *s != '\\f') return 1;
        return 0;
    }

    /* Formatting elements after the last marker, counting up to `limit`. */
    static inline size_t fx_tg_formatting(const fx_tg *g, size_t limit) {
        size_t k = g->afe->length, count = 0;
        while (k > 0 && count < limit) {
            if (g->afe->list[--k] == fx_tg_marker) break;
            count++;
        }
        return count;
    }

    static inline fx_token *fx_tg_pass(fx_tg *g, void *tkz, fx_token *tok, size_t own) {
        size_t before = g->open->length, after;
        fx_token *r = g->tree_cb(tkz, tok, g->tree);
        after = g->open->length;
        if (after > before + own) {                    /* formatting elements re-created */
            g->reconstructed += after - before - own;
            if (g->reconstructed > g->max_reconstructed) g->flat = 1;
        }
        if (after > g->deepest) g->deepest = after;
        return r;
    }

    static fx_token *fx_tg_token(void *tkz, fx_token *tok, void *ctx) {
        fx_tg *g = (fx_tg *)ctx;
        uintptr_t id = tok->tag_id;
        uint8_t cat = id < FX_TG_TAGS ? fx_tg_cat[id] : 0;
        size_t k;
        fx_token_attr *a;
        uintptr_t top;
        if (id == 2) {                                 /* LXB_TAG__TEXT */
            top = fx_tg_top(g);
            if (!g->flat && top < FX_TG_TAGS && (fx_tg_cat[top] & FX_TG_TABLE)
                    && fx_tg_has_text(tok->text_start, tok->text_end)) {
                if (++g->fostered > g->max_fostered) g->flat = 1;   /* text fostered out of a table */
            }
            return fx_tg_pass(g, tkz, tok, 0);
        }
        if (id == 4) {                                 /* LXB_TAG__EM_COMMENT */
            if (g->flat) { g->dropped_tags++; return tok; }
            return g->tree_cb(tkz, tok, g->tree);
        }
        if (id < 7)                                    /* end of file, doctype, ... */
            return g->tree_cb(tkz, tok, g->tree);
        if (g->flat && !(cat & FX_TG_RAW)) { g->dropped_tags++; return tok; }
        if (tok->type & 1)                             /* an end tag */
            return fx_tg_pass(g, tkz, tok, 0);
        if (g->open->length >= g->max_depth
                && !((cat & FX_TG_RAW) && g->open->length < g->max_depth + 16)) {
            g->dropped_tags++;
            return tok;
        }
        if ((cat & FX_TG_FORMAT) && fx_tg_formatting(g, g->max_formatting) >= g->max_formatting) {
            g->dropped_tags++;
            return tok;
        }
        if ((cat & FX_TG_ROOT) && ++g->html_body > g->max_html_body) {
            g->dropped_tags++;
            return tok;
        }
        k = 0;
        for (a = tok->attr_first; a != NULL; a = a->next) {
            if (++k == g->max_attrs && a->next != NULL) {
                a->next = NULL;                        /* the rest stays in the token's pool */
                tok->attr_last = a;
                g->dropped_attrs++;
                break;
            }
        }
        return fx_tg_pass(g, tkz, tok, 1);
    }

    /* lexbor's name tables (tag, attribute, prefix and namespace names) have
       a fixed 128 buckets: a page with N distinct names costs N*N/256 string
       comparisons (1 MB of '<i a1=1 b1=2 c1=3>' took a second).  Give them
       a bucket per 256 bytes of input instead (a name takes at least 3).
       Returns 0 when out of memory. */
    static int fx_tg_widen(fx_hash *h, size_t n) {
        size_t size = 128;
        void **table;
        while (size < n / 256 && size < ((size_t)1 << 24)) size <<= 1;
        if (h == NULL || h->table_size >= size) return 1;
        table = (void **)fx_tg_calloc(size, sizeof(void *));
        if (table == NULL) return 0;
        fx_tg_free(h->table);
        h->table = table;
        h->table_size = size;
        return 1;
    }

    /* One guarded parse of `html` into the (parsed-before) HTML document `doc`.
       Returns lexbor's status; 0 is success. */
    static unsigned int fx_tg_parse(void *doc, const unsigned char *html, size_t n, fx_tg *g) {
        fx_dom_document *d = (fx_dom_document *)doc;
        fx_tokenizer_head *tkz;
        fx_parser_head *parser;
        unsigned int st;
        if (!fx_tg_widen((fx_hash *)d->tags, n) || !fx_tg_widen((fx_hash *)d->attrs, n)
                || !fx_tg_widen((fx_hash *)d->prefix, n) || !fx_tg_widen((fx_hash *)d->ns, n))
            return 2;                                  /* LXB_STATUS_ERROR_MEMORY_ALLOCATION */
        d->compat_mode = 0;            /* no-quirks until a doctype says otherwise, as in a new document
                                          (the empty parse before left it at quirks) */
        st = fx_tg_begin(doc);
        if (st != 0) return st;
        parser = (fx_parser_head *)d->parser;
        tkz = (fx_tokenizer_head *)parser->tkz;
        g->tree_cb = tkz->callback_token_done;
        g->tree = tkz->callback_token_ctx;
        g->open = ((fx_tree_head *)g->tree)->open_elements;
        g->afe = ((fx_tree_head *)g->tree)->active_formatting;
        tkz->callback_token_done = fx_tg_token;
        tkz->callback_token_ctx = g;
        st = fx_tg_chunk(doc, html, n);
        if (st == 0) st = fx_tg_end(doc);
        else (void)fx_tg_end(doc);
        tkz->callback_token_done = g->tree_cb;
        tkz->callback_token_ctx = g->tree;
        return st;
    }
    """
    ctypedef struct fx_tg:
        size_t max_depth, max_formatting, max_attrs, max_html_body
        size_t reconstructed, max_reconstructed, fostered, max_fostered
        size_t dropped_tags, dropped_attrs, deepest, html_body
        int flat
    ctypedef struct fx_dom_document:
        void *tags
        void *attrs
        void *prefix
        void *ns
    ctypedef struct fx_hash:
        size_t table_size
    int fx_tg_resolve(const char *path)
    unsigned int fx_tg_parse(void *doc, const unsigned char *html, size_t n, fx_tg *g) nogil
    uint8_t fx_tg_cat[1024]
    enum:
        FX_TG_FORMAT
        FX_TG_RAW
        FX_TG_TABLE
        FX_TG_ROOT

# documents are created without DOM mutation events: they only fill
# <selectedcontent> (selectolax's LexborDocumentOptions.WO_EVENTS)
TG_OPTIONS = 1
TG_MAX_HTML_BODY = 16
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
    + "<plaintext></body></html>")


def parse_available():
    """Whether `parse_guarded` can run here (lexbor's entry points were found)."""
    return _TG_STATE["available"]


def parse_guarded(bytes data, int max_depth=GUARD_MAX_DEPTH, int max_formatting=GUARD_MAX_FORMATTING,
                  int max_attrs=GUARD_MAX_ATTRS, object max_reconstructed=None,
                  Py_ssize_t max_fostered=GUARD_MAX_FOSTERED, bint stats=False):
    """Parse UTF-8 `data` with lexbor, the hostile-input limits applied to its tokens.

    Returns a selectolax ``LexborHTMLParser`` holding the tree (``raw_html`` is
    `data`); with stats=True a tuple (parser, deepest stack, tags dropped,
    tags with attributes cut, formatting elements re-created, text runs
    fostered out of tables).  The limits and their defaults are guard_html's
    (see the top of _parse.pxi); raises RuntimeError where unavailable
    (`parse_available()`), ParseError if lexbor fails.
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
    g.max_reconstructed = 4096 + len(data) // 64 if max_reconstructed is None else max_reconstructed
    g.max_fostered = max_fostered
    parser = _TG_STATE["parser_class"](b"", options=TG_OPTIONS)
    cdef void *doc = (<fx_node *><uintptr_t>parser.root.mem_id).owner_document
    with nogil:
        st = fx_tg_parse(doc, s, n, &g)
    if st != 0:
        from .errors import ParseError
        raise ParseError(f"lexbor could not parse the page (status {st})")
    parser.raw_html = data
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
    for names, bit in ((_TG_FORMAT, FX_TG_FORMAT), (_TG_RAW, FX_TG_RAW), (_TG_TABLE, FX_TG_TABLE),
                       (("html", "body"), FX_TG_ROOT)):
        for t in names:
            if t not in ids or not 7 <= ids[t] < 1024:
                return
            fx_tg_cat[ids[t]] |= bit
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
    cdef fx_dom_document *d = <fx_dom_document *>(<fx_node *><uintptr_t>parser.root.mem_id).owner_document
    return ((<fx_hash *>d.tags).table_size, (<fx_hash *>d.attrs).table_size,
            (<fx_hash *>d.prefix).table_size, (<fx_hash *>d.ns).table_size)
