/* the guarded parse: limits applied to lexbor's tokens in front of its tree builder.
   Compiled into fastx._core through core/_parse.pxi; plain C, no Python. */
#ifndef FX_TREE_GUARD_H
#define FX_TREE_GUARD_H

#include "lexbor_abi.h"
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <dlfcn.h>
#endif


typedef unsigned int (*fx_doc_fn)(void *document);
typedef void *(*fx_calloc_fn)(size_t num, size_t size);
typedef void *(*fx_free_fn)(void *p);
static fx_calloc_fn fx_tg_calloc = NULL;
static fx_free_fn fx_tg_free = NULL;
typedef unsigned int (*fx_chunk_fn)(void *document, const unsigned char *html, size_t size);
typedef void *(*fx_marker_fn)(void);
static fx_doc_fn fx_tg_begin = NULL, fx_tg_end = NULL;
typedef void (*fx_void_fn)(void *document);
static fx_void_fn fx_tg_clean = NULL;               /* lxb_html_document_clean (may be NULL) */
static void *fx_tg_data_before = NULL;             /* the tokenizer's data state */
static void *fx_tg_data_state = NULL;              /* ... and where it is after text (learnt) */
/* where the tree builder puts the tokenizer after <script> and after <style> (and the other
   RAWTEXT elements): where fx_tg_skip hands a passed-over element back (may be NULL) */
static void *fx_tg_script_before = NULL, *fx_tg_rawtext_before = NULL;

static fx_chunk_fn fx_tg_chunk = NULL;
static void *fx_tg_marker = NULL;

/* Learn the tokenizer's state after a chunk that ends in text. */
static void *fx_tg_dq_state = NULL, *fx_tg_sq_state = NULL;   /* in a "..." / '...' value */

static void *fx_tg_state_after(void *doc, const char *html) {
    fx_dom_document *d = (fx_dom_document *)doc;
    fx_tokenizer_head *tkz;
    void *state = NULL;
    if (fx_tg_begin == NULL || fx_tg_begin(doc) != 0) return NULL;
    tkz = (fx_tokenizer_head *)((fx_parser_head *)d->parser)->tkz;
    if (fx_tg_chunk(doc, (const unsigned char *)html, strlen(html)) == 0) state = tkz->state;
    (void)fx_tg_end(doc);
    return state;
}

/* the text arena's minimum chunk of a new document (fx_tg_parse sets it again at each parse: a
   document a Doc gave back keeps what the page before set) */
static size_t fx_tg_text_chunk = 0;

static void fx_tg_learn(void *doc) {
    fx_dom_document *d = (fx_dom_document *)doc;
    void *st;
    if (d->text != NULL && ((fx_mraw *)d->text)->mem != NULL) {
        size_t c = ((fx_mraw *)d->text)->mem->chunk_min_size;
        fx_tg_text_chunk = c > 0 && c < ((size_t)1 << 28) ? c : 0;
    }
    st = fx_tg_state_after(doc, "<p>abc");
    if (st != fx_tg_data_before) fx_tg_data_state = st;
    fx_tg_dq_state = fx_tg_state_after(doc, "<p a=\"b");
    fx_tg_sq_state = fx_tg_state_after(doc, "<p a='b");
    if (fx_tg_dq_state == fx_tg_sq_state || fx_tg_dq_state == st) fx_tg_dq_state = fx_tg_sq_state = NULL;
}

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
    fx_tg_data_before = dlsym(h, "lxb_html_tokenizer_state_data_before");   /* may be NULL */
    fx_tg_clean = (fx_void_fn)dlsym(h, "lxb_html_document_clean");
    fx_tg_script_before = dlsym(h, "lxb_html_tokenizer_state_script_data_before");
    fx_tg_rawtext_before = dlsym(h, "lxb_html_tokenizer_state_rawtext_before");
    return 1;
#endif
}

enum { FX_TG_TAGS = 1024 };                        /* lexbor's static tag ids are below */
enum {
    FX_TG_FORMAT = 1, FX_TG_RAW = 2, FX_TG_TABLE = 4, FX_TG_ROOT = 8, FX_TG_TABLE_EL = 16,
    FX_TG_NOSCRIPT = 32, FX_TG_HEAD = 64, FX_TG_SVG = 128
};
static uint8_t fx_tg_cat[FX_TG_TAGS];
/* raw-text elements (_TG_RAW's order): the name their end tag must carry */
enum { FX_TG_RAWKINDS = 9, FX_TG_NS = 1024 };
static const char *fx_tg_raw_names[FX_TG_RAWKINDS + 1] = {
    "script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title", "plaintext",
    "noscript"};
static uint8_t fx_tg_rawk[FX_TG_TAGS];               /* tag id -> kind + 1, 0 if not raw text */

typedef struct {
    fx_token_cb tree_cb;           /* the tree builder's own callback */
    void *tree;
    fx_array *open, *afe;
    size_t max_depth, max_formatting, max_attrs, max_html_body;
    size_t reconstructed, max_reconstructed, fostered, max_fostered;
    size_t dropped_tags, dropped_attrs, deepest, html_body;
    size_t copied, max_copied;     /* bytes of text nodes lexbor moved to grow them */
    size_t elements, max_elements; /* tags (start and end) read */
    size_t attrs_total, max_attrs_total;   /* attributes passed */
    /* text read while the rest of the page is read as text, not yet handed over */
    unsigned char *tbuf;
    size_t tlen, tcap, tnulls;
    int ttype;
    unsigned char *sbuf;           /* the rest of the page, tags stripped (fx_tg_feed) */
    size_t stripped;               /* input bytes read that way */
    size_t verbatim;               /* pieces fed as they are while the rest is read as text */
    int flat;
    int attrs_moved;               /* attribute values went to the document's node arena */
    /* what no method reads, passed over (fx_tg_skip): on or off, the element whose content is
       being passed over (1 script, 2 style, 3 svg, 0 none), bytes passed over */
    int skip_bodies, skip_kind;
    size_t skipped;
    const unsigned char *skip_to;  /* where the element passed over ends (its end tag), NULL before it is read */
    size_t svg_read;               /* bytes read ahead for <svg> elements (at most twice the input) */
    /* <noscript> elements open in body, innermost last: stack index and node */
    size_t ns_idx[FX_TG_NS];
    fx_node *ns_node[FX_TG_NS];
    size_t ns_len, noscript_fixes;
    /* the input, and per end-tag name the first "</name" found at or after a position */
    const unsigned char *in_begin, *in_end;
    const unsigned char *find_from[FX_TG_RAWKINDS + 1], *find_at[FX_TG_RAWKINDS + 1];
} fx_tg;

/* ---- reading names in the input */

static inline int fx_tg_ws(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
static inline int fx_tg_alpha(unsigned char c) { return (unsigned)((c | 0x20) - 'a') < 26; }
static inline unsigned char fx_tg_lower(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* Whether names a[0..alen) and b[0..blen) are equal, ASCII letters in any case. */
static int fx_tg_name_eq(const unsigned char *a, size_t alen, const unsigned char *b, size_t blen) {
    size_t i;
    if (alen != blen) return 0;
    for (i = 0; i < alen; i++)
        if (fx_tg_lower(a[i]) != fx_tg_lower(b[i])) return 0;
    return 1;
}

/* Whether "</name" (any case) followed by whitespace, '/' or '>' is at s[i]. */
static inline int fx_tg_end_tag_at(const unsigned char *s, size_t i, size_t n, const char *name, size_t len) {
    unsigned char c;
    if (i + len + 2 >= n || s[i + 1] != '/') return 0;
    if (!fx_tg_name_eq(s + i + 2, len, (const unsigned char *)name, len)) return 0;
    c = s[i + 2 + len];
    return fx_tg_ws(c) || c == '/' || c == '>';
}

static inline uintptr_t fx_tg_top(const fx_tg *g) {
    return g->open->length ? ((const fx_node *)g->open->list[g->open->length - 1])->local_name : 0;
}

static inline int fx_tg_has_text(const unsigned char *s, const unsigned char *e) {
    for (; s < e; s++)
        if (!fx_tg_ws(*s)) return 1;
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

/* The text nodes a token can make lexbor append to: the current node's last
   child and, while a table part is the current node, the text just before the
   table (where foster parenting appends). */
static inline void fx_tg_watch(const fx_tg *g, fx_chardata **w) {
    size_t len = g->open->length, k;
    const fx_node *top, *t;
    w[0] = w[1] = NULL;
    if (len == 0) return;
    top = (const fx_node *)g->open->list[len - 1];
    if (top->last_child != NULL && top->last_child->type == 3) w[0] = (fx_chardata *)top->last_child;
    if (top->local_name < FX_TG_TAGS && (fx_tg_cat[top->local_name] & FX_TG_TABLE)) {
        for (k = len; k > 0 && k + 4 > len; k--) {  /* table > tbody > tr: within three levels */
            t = (const fx_node *)g->open->list[k - 1];
            if (t->local_name < FX_TG_TAGS && (fx_tg_cat[t->local_name] & FX_TG_TABLE_EL)) {
                if (t->prev != NULL && t->prev->type == 3) w[1] = (fx_chardata *)t->prev;
                break;
            }
        }
    }
}

/* Hand a token to the tree builder.  lexbor grows a text node by exactly
   what it appends; where the node is not the last allocation of the text
   arena (other text, or a comment, was allocated since) the whole node is
   copied, and the old copy stays in the arena: appending k runs costs O(k^2)
   time and memory.  The bytes so moved are counted; past `max_copied` the
   rest of the page is read as text (which lexbor then appends in place). */
static inline fx_token *fx_tg_pass(fx_tg *g, void *tkz, fx_token *tok, size_t own);

/* Hand the buffered text over as one text token (carried by `tok`, whose own
   fields are restored after). */
static fx_token *fx_tg_flush(fx_tg *g, void *tkz, fx_token *tok) {
    fx_token saved = *tok, *r;
    size_t len = g->tlen;
    if (len == 0) return tok;
    g->tlen = 0;
    tok->tag_id = 2;                               /* LXB_TAG__TEXT */
    tok->type = g->ttype;
    tok->begin = tok->text_start = g->tbuf;
    tok->end = tok->text_end = g->tbuf + len;
    tok->attr_first = tok->attr_last = NULL;
    tok->null_count = g->tnulls;
    g->tnulls = 0;
    r = fx_tg_pass(g, tkz, tok, 0);
    if (r == NULL) return NULL;
    *r = saved;
    return r;
}

/* Keep a text token for one merged token (see fx_tg_token); 0 if out of memory. */
static int fx_tg_keep_text(fx_tg *g, const fx_token *tok) {
    size_t len = (size_t)(tok->text_end - tok->text_start), cap;
    unsigned char *q;
    if (g->tlen + len > g->tcap) {
        cap = g->tcap ? g->tcap : 65536;
        while (cap < g->tlen + len) cap *= 2;
        q = (unsigned char *)realloc(g->tbuf, cap);
        if (q == NULL) return 0;
        g->tbuf = q;
        g->tcap = cap;
    }
    if (g->tlen == 0) g->ttype = tok->type;
    memcpy(g->tbuf + g->tlen, tok->text_start, len);
    g->tlen += len;
    g->tnulls += tok->null_count;
    return 1;
}

static inline fx_token *fx_tg_call(fx_tg *g, void *tkz, fx_token *tok) {
    fx_chardata *w[2];
    unsigned char *d0 = NULL, *d1 = NULL;
    size_t l0 = 0, l1 = 0;
    uintptr_t top;
    fx_token *r;
    if (g->tlen && tok->tag_id != 2) {
        tok = fx_tg_flush(g, tkz, tok);
        if (tok == NULL) return NULL;
    }
    /* only a text token appends to a text node, and a token of any kind while a table
       part is the current node (the text the tree builder held back in "in table text"
       is inserted when the next token comes): other tokens copy no text */
    if (tok->tag_id == 2 || (top = fx_tg_top(g), top < FX_TG_TAGS && (fx_tg_cat[top] & FX_TG_TABLE)))
        fx_tg_watch(g, w);
    else
        w[0] = w[1] = NULL;
    if (w[0] != NULL) { d0 = w[0]->data.data; l0 = w[0]->data.length; }
    if (w[1] != NULL) { d1 = w[1]->data.data; l1 = w[1]->data.length; }
    r = g->tree_cb(tkz, tok, g->tree);
    if (w[0] != NULL && w[0]->data.data != d0) g->copied += l0;
    if (w[1] != NULL && w[1]->data.data != d1) g->copied += l1;
    if (g->copied > g->max_copied) g->flat = 1;
    return r;
}

/* First "</name" (any case, then whitespace, '/', '>' or the end) at or after p;
   e if none.  Kind k's answers are cached: a search from a later position up to
   the last answer has the same answer, so every byte is scanned once per kind. */
static const unsigned char *fx_tg_find_end(fx_tg *g, const unsigned char *p, int k) {
    const unsigned char *e = g->in_end, *q;
    const char *name = fx_tg_raw_names[k];
    size_t len = strlen(name);
    if (g->find_at[k] != NULL && p >= g->find_from[k] && p <= g->find_at[k]) return g->find_at[k];
    g->find_from[k] = p;
    while (p < e) {
        q = (const unsigned char *)memchr(p, '<', (size_t)(e - p));
        if (q == NULL) break;
        if (fx_tg_end_tag_at(q, 0, (size_t)(e - q), name, len)
                || ((size_t)(e - q) == len + 2 && q[1] == '/'
                    && fx_tg_name_eq(q + 2, len, (const unsigned char *)name, len))) {
            g->find_at[k] = q;
            return q;
        }
        p = q + 1;
    }
    g->find_at[k] = e;
    return e;
}

/* ---- what no method reads, passed over (skip_bodies; fastx.parse's default)

   Nothing fastx reads is in the text of a <script> (JSON-LD excepted) or a <style>, or inside
   an <svg>: the Doc drops those elements with all they hold, the metadata scan reads JSON-LD
   only.  Yet lexbor's tokenizer reads that text byte by byte and copies it twice (into its
   buffer, then into a text node), and builds an element of every tag in an <svg> (an icon's
   paths are thousands of coordinates): on modern pages half the bytes.  So with skip_bodies,
   once the tree builder has made such an element the current node, the tokenizer's state
   becomes fx_tg_skip: called first just after the start tag, it reads the input ahead to the
   end tag that ends the element, the way the tokenizer would (fx_tg_raw_end, fx_tg_svg_end),
   passes over what lies before it and hands the tokenizer back to lexbor's own state there, so
   the element gets its end tag and no content.  The tree is lexbor's but for that content
   (tests/core/test_parse.py). */

/* A <script> whose type names JSON-LD (the first type attribute, as the tree builder keeps
   the first of duplicates; the metadata scan's test, _meta.pxi). */
static int fx_tg_ld_json(const fx_token *tok) {
    const fx_token_attr *a;
    const fx_hash_entry *e;
    size_t i;
    for (a = tok->attr_first; a != NULL; a = a->next) {
        e = (const fx_hash_entry *)a->name;
        if (e == NULL || e->length != 4 || memcmp(fx_hash_entry_str(e), "type", 4) != 0) continue;
        if (a->value == NULL) return 0;
        for (i = 0; i + 7 <= a->value_size; i++) {
            if ((a->value[i] | 0x20) == 'l' && (a->value[i + 1] | 0x20) == 'd' && a->value[i + 2] == '+'
                    && (a->value[i + 3] | 0x20) == 'j' && (a->value[i + 4] | 0x20) == 's'
                    && (a->value[i + 5] | 0x20) == 'o' && (a->value[i + 6] | 0x20) == 'n')
                return 1;
        }
        return 0;
    }
    return 0;
}

/* The innermost <noscript> open in body (its stack index in *idx), or NULL. */
static inline fx_node *fx_tg_noscript(fx_tg *g, size_t *idx) {
    while (g->ns_len > 0) {
        size_t i = g->ns_idx[g->ns_len - 1];
        if (i < g->open->length && g->open->list[i] == (void *)g->ns_node[g->ns_len - 1]) {
            *idx = i;
            return g->ns_node[g->ns_len - 1];
        }
        g->ns_len--;                                /* closed since */
    }
    return NULL;
}

static inline fx_token *fx_tg_pass(fx_tg *g, void *tkz, fx_token *tok, size_t own) {
    size_t before = g->open->length, after;
    fx_token *r = fx_tg_call(g, tkz, tok);
    after = g->open->length;
    if (after > before + own) {                    /* formatting elements re-created */
        g->reconstructed += after - before - own;
        /* re-created elements count against the tag budget too: each costs what a tag does */
        if (g->reconstructed > g->max_reconstructed || g->reconstructed + g->elements > g->max_elements)
            g->flat = 1;
    }
    if (after > g->deepest) g->deepest = after;
    return r;
}

static fx_token *fx_tg_start(fx_tg *g, void *tkz, fx_token *tok, uint8_t cat);
static const unsigned char *fx_tg_skip(void *tkz_, const unsigned char *data, const unsigned char *end);
static fx_token *fx_tg_noscript_token(fx_tg *g, void *tkz, fx_token *tok, uint8_t cat);

static fx_token *fx_tg_token(void *tkz, fx_token *tok, void *ctx) {
    fx_tg *g = (fx_tg *)ctx;
    uintptr_t id = tok->tag_id;
    uint8_t cat = id < FX_TG_TAGS ? fx_tg_cat[id] : 0;
    uintptr_t top;
    if (id == 2) {                                 /* LXB_TAG__TEXT */
        top = fx_tg_top(g);
        if (!g->flat && top < FX_TG_TAGS && (fx_tg_cat[top] & FX_TG_TABLE)
                && fx_tg_has_text(tok->text_start, tok->text_end)) {
            if (++g->fostered > g->max_fostered) g->flat = 1;   /* text fostered out of a table */
        }
        /* Read as text, the rest of a page is runs of text between dropped tags,
           which lexbor would append to one node run by run (a third of a
           microsecond each): they are handed over as one token instead, when a
           token passes, at the end, or every 4 MB. */
        if (g->flat && fx_tg_keep_text(g, tok)) {
            if (g->tlen < ((size_t)4 << 20)) return tok;
            return fx_tg_flush(g, tkz, tok);
        }
        if (g->tlen) {
            tok = fx_tg_flush(g, tkz, tok);
            if (tok == NULL) return NULL;
        }
        return fx_tg_pass(g, tkz, tok, 0);
    }
    if (id == 4) {                                 /* LXB_TAG__EM_COMMENT */
        if (g->flat) { g->dropped_tags++; return tok; }
        return fx_tg_call(g, tkz, tok);
    }
    if (id == 1 && g->ns_len > 0) {                /* end of file */
        /* a <noscript> still open never had its end tag: a browser running
           scripts would show none of what follows it, one that does not shows
           all of it; keep it (the Doc build drops only closed ones) */
        size_t idx;
        while (fx_tg_noscript(g, &idx) != NULL) {
            g->ns_node[g->ns_len - 1]->user = FX_NOSCRIPT_OPEN;   /* _doc.pxi */
            g->noscript_fixes++;
            g->ns_len--;
        }
    }
    if (id < 7)                                    /* end of file, doctype, ... */
        return fx_tg_call(g, tkz, tok);
    if (++g->elements > g->max_elements) g->flat = 1;   /* tag budget spent: text from here on */
    if (g->flat && !(cat & FX_TG_RAW)) { g->dropped_tags++; return tok; }
    if (g->flat && !(tok->type & 1)) {
        /* read as text from here on: a raw-text element still passes, except where
           its text would alternate with text fostered out of a table */
        top = fx_tg_top(g);
        if (top < FX_TG_TAGS && (fx_tg_cat[top] & FX_TG_TABLE)) { g->dropped_tags++; return tok; }
    }
    if ((cat & (FX_TG_NOSCRIPT | FX_TG_RAW)) && g->ns_len > 0)
        return fx_tg_noscript_token(g, tkz, tok, cat);
    if (tok->type & 1)                             /* an end tag */
        return fx_tg_pass(g, tkz, tok, 0);
    return fx_tg_start(g, tkz, tok, cat);
}

/* A start tag within the limits passes (see fx_tg_token). */
static fx_token *fx_tg_start(fx_tg *g, void *tkz, fx_token *tok, uint8_t cat) {
    size_t k, before;
    int skip;
    fx_token_attr *a;
    fx_token *r;
    fx_node *top;
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
    g->attrs_total += k;                           /* attribute budget spent: text from here on */
    if (g->attrs_total > g->max_attrs_total) g->flat = 1;
    /* a script (not JSON-LD) or a style whose body is passed over, if the tree builder reads it so */
    skip = 0;
    if (g->skip_bodies && !g->flat && tok->tag_id < FX_TG_TAGS) {
        skip = fx_tg_rawk[tok->tag_id];
        if ((skip == 1 && (fx_tg_script_before == NULL || fx_tg_ld_json(tok)))
                || (skip == 2 && fx_tg_rawtext_before == NULL) || skip > 2)
            skip = 0;
    }
    before = g->open->length;
    r = fx_tg_pass(g, tkz, tok, 1);
    if (skip && r != NULL && !g->flat
            && ((fx_tokenizer_head *)tkz)->state == (skip == 1 ? fx_tg_script_before : fx_tg_rawtext_before)) {
        g->skip_kind = skip;
        g->skip_to = NULL;
        ((fx_tokenizer_head *)tkz)->state = (void *)fx_tg_skip;
    }
    /* an <svg> the tree builder made the current node: its content is passed over if it can be */
    if ((cat & FX_TG_SVG) && g->skip_bodies && r != NULL && !g->flat && g->open->length > before
            && ((fx_node *)g->open->list[g->open->length - 1])->local_name == tok->tag_id
            && ((fx_tokenizer_head *)tkz)->state == fx_tg_data_before
            && g->svg_read <= 2 * (size_t)(g->in_end - g->in_begin)) {
        g->skip_kind = 3;
        g->skip_to = NULL;
        ((fx_tokenizer_head *)tkz)->state = (void *)fx_tg_skip;
    }
    if ((cat & FX_TG_NOSCRIPT) && r != NULL && g->open->length > 0 && g->ns_len < FX_TG_NS) {
        top = (fx_node *)g->open->list[g->open->length - 1];
        if (top->local_name == tok->tag_id && top->parent != NULL
                && !(top->parent->local_name < FX_TG_TAGS && (fx_tg_cat[top->parent->local_name] & FX_TG_HEAD))) {
            g->ns_idx[g->ns_len] = g->open->length - 1;   /* a <noscript> in body */
            g->ns_node[g->ns_len++] = top;
        }
    }
    return r;
}

/* <noscript> in body.  lexbor parses with scripting off, as a browser that runs
   no scripts: the content is markup, and an element left open in it (an
   unclosed <p>, a raw-text element such as <iframe src=x /> whose end tag never
   comes) swallows the </noscript> and the page after it, which fastx then
   drops with the noscript.  A browser running scripts reads everything up to
   </noscript> as text and shows the page after it.  So the content is parsed
   as markup, but it ends at </noscript>: that end tag first closes what is
   still open inside (the tree builder's own end tags for them), and a raw-text
   start tag inside whose end tag does not come before the </noscript> is
   dropped (its content stays, as markup). */
static fx_token *fx_tg_noscript_token(fx_tg *g, void *tkz, fx_token *tok, uint8_t cat) {
    size_t idx, before, tries;
    fx_node *ns = fx_tg_noscript(g, &idx), *top;
    const unsigned char *close, *end;
    uintptr_t id = tok->tag_id;
    fx_token *r;
    if (ns == NULL || tok->end < g->in_begin || tok->end > g->in_end)
        return (tok->type & 1) ? fx_tg_pass(g, tkz, tok, 0) : fx_tg_start(g, tkz, tok, cat);
    if (!(tok->type & 1)) {
        if ((cat & FX_TG_RAW) && fx_tg_rawk[id]) {
            close = fx_tg_find_end(g, tok->end, FX_TG_RAWKINDS);
            end = fx_tg_rawk[id] == FX_TG_RAWKINDS ? g->in_end   /* plaintext never ends */
                  : fx_tg_find_end(g, tok->end, fx_tg_rawk[id] - 1);
            if (close < g->in_end && end > close) {
                g->dropped_tags++;
                g->noscript_fixes++;
                return tok;
            }
        }
        return fx_tg_start(g, tkz, tok, cat);
    }
    if (!(cat & FX_TG_NOSCRIPT))
        return fx_tg_pass(g, tkz, tok, 0);
    /* </noscript>: close what is open inside it first */
    tries = 2 * (g->open->length - idx) + 4;
    if (g->open->length > idx + 1) g->noscript_fixes++;
    while (g->open->length > idx + 1 && tries-- > 0) {
        before = g->open->length;
        top = (fx_node *)g->open->list[before - 1];
        tok->tag_id = top->local_name;
        r = fx_tg_call(g, tkz, tok);
        if (r == NULL) return NULL;
        tok = r;
        tok->tag_id = id;
        if (g->open->length >= before) break;      /* the tree builder kept it open */
    }
    return fx_tg_pass(g, tkz, tok, 0);
}

/* ---- reading the rest of a page as text without tokenizing its tags one by one

   Past a budget the guard drops every tag (but raw-text elements), so what
   lexbor builds from the rest is its text; yet lexbor's tokenizer still reads
   every tag (45 ms per MB of '<p>x', four times a parse of a real page).
   fx_tg_strip removes them first, following the HTML tokenizer's data, tag,
   attribute value and comment states: a tag, an end tag, a comment, a bogus
   comment or a doctype goes; text (character references included) stays as
   it is; a raw-text element (script, style, textarea, title, ...) is kept
   whole, from its start tag to its end tag, for lexbor to read.  Each piece
   is handed over only where lexbor's tokenizer is in its data state, so a
   piece never lands inside a tag, a comment or a raw-text element; where it
   is not, the next piece of the input goes over as it is. */


/* Index after the '>' of the tag whose name starts at s[i] (n: the input ends inside it);
   *sc (unless NULL) says whether the tag is self-closing ("/>" between attributes, not in an
   unquoted value: <path d=a/> is not). */
static size_t fx_tg_tag_end_sc(const unsigned char *s, size_t i, size_t n, int *sc) {
    const unsigned char *q;
    int slash;
    while (i < n && !fx_tg_ws(s[i]) && s[i] != '/' && s[i] != '>') i++;
    for (;;) {
        slash = 0;
        while (i < n && (fx_tg_ws(s[i]) || s[i] == '/')) slash = s[i++] == '/';
        if (i >= n) return n;
        if (s[i] == '>') {
            if (sc != NULL) *sc = slash;
            return i + 1;
        }
        i++;                                       /* an attribute name (its first byte may be '=') */
        while (i < n && !fx_tg_ws(s[i]) && s[i] != '/' && s[i] != '>' && s[i] != '=') i++;
        while (i < n && fx_tg_ws(s[i])) i++;
        if (i < n && s[i] == '=') {
            i++;
            while (i < n && fx_tg_ws(s[i])) i++;
            if (i >= n) return n;
            if (s[i] == '"' || s[i] == '\'') {
                q = (const unsigned char *)memchr(s + i + 1, s[i], n - i - 1);
                if (q == NULL) return n;
                i = (size_t)(q - s) + 1;
            } else {
                while (i < n && !fx_tg_ws(s[i]) && s[i] != '>') i++;
            }
        }
    }
}

static inline size_t fx_tg_tag_end(const unsigned char *s, size_t i, size_t n) {
    return fx_tg_tag_end_sc(s, i, n, NULL);
}

/* Index after the first '>' at or after i (n if none). */
static inline size_t fx_tg_gt(const unsigned char *s, size_t i, size_t n) {
    const unsigned char *q = i < n ? (const unsigned char *)memchr(s + i, '>', n - i) : NULL;
    return q ? (size_t)(q - s) + 1 : n;
}

/* Index after the comment whose "<!--" is at i. */
static size_t fx_tg_comment_end(const unsigned char *s, size_t i, size_t n) {
    const unsigned char *q;
    i += 4;
    if (i < n && s[i] == '>') return i + 1;                        /* <!--> */
    if (i + 1 < n && s[i] == '-' && s[i + 1] == '>') return i + 2;  /* <!---> */
    while (i + 2 < n) {
        q = (const unsigned char *)memchr(s + i, '-', n - i - 2);
        if (q == NULL) return n;
        i = (size_t)(q - s);
        if (s[i + 1] == '-') {
            if (s[i + 2] == '>') return i + 3;
            if (s[i + 2] == '!' && i + 3 < n && s[i + 3] == '>') return i + 4;
        }
        i++;
    }
    return n;
}

/* Which raw-text element a start tag name at s[i..] is (kind + 1; 0: none). */
static int fx_tg_raw_kind(const unsigned char *s, size_t i, size_t n) {
    size_t e = i, len, k, j;
    unsigned char c = s[i] | 0x20;
    if (c != 's' && c != 'x' && c != 'i' && c != 'n' && c != 't' && c != 'p') return 0;
    while (e < n && e - i < 10 && !fx_tg_ws(s[e]) && s[e] != '/' && s[e] != '>') e++;
    len = e - i;
    if (len < 3 || len > 9) return 0;
    for (k = 0; k < FX_TG_RAWKINDS; k++) {
        const char *name = fx_tg_raw_names[k];
        if (strlen(name) != len) continue;
        for (j = 0; j < len && (s[i + j] | 0x20) == (unsigned char)name[j]; j++) {}
        if (j == len) return (int)k + 1;
    }
    return 0;
}

/* ---- inline SVG images passed over (skip_bodies)

   The Doc drops an <svg> with all it holds (an icon's paths are thousands of coordinates), yet
   lexbor reads every tag and attribute in it and builds an element of each: a tenth of the
   parse of a modern page.  So with skip_bodies, once the tree builder has made an <svg> start
   tag the current node, fx_tg_svg_end reads the input after it ahead, tag by tag as the
   tokenizer and the tree builder's rules for foreign content would (elements opened and
   closed, self-closing tags, comments, CDATA sections, text), to the end tag that closes the
   <svg>; the tokenizer then passes over what lies before that end tag (fx_tg_skip) and the
   <svg> keeps no children.  Where something on the way could end the SVG subtree or put HTML
   in it, the <svg> is read as usual: a start tag that ends foreign content (<p>, <div>,
   <span>, ...: the HTML Standard's list, 13.2.6.5), an HTML integration point (<foreignObject>,
   <desc>, <title>) or <math>, an end tag that matches no element opened on the way (</div>
   closes the HTML element around the <svg>), elements nested deeper than FX_TG_SVG_DEPTH, the
   end of the input.  The read-ahead stops after twice the input's bytes in all (nested <svg>
   elements that are read as usual each read ahead again), so time stays linear. */
enum { FX_TG_SVG_DEPTH = 32 };

/* Start tags that end foreign content or hold HTML (lower case; "font" whatever its
   attributes, a superset of the standard's), the HTML integration points last: an icon's
   <title> or <desc> of text only, ended by its own end tag, is read as text in an element
   where the tree builder would not re-create formatting elements in it (`quiet`). */
#define FX_TG_NAME(s) {s, sizeof(s) - 1}        /* a name and its length, known when compiled */
static const struct { const char *name; size_t len; } fx_tg_svg_stop[] = {
    FX_TG_NAME("b"), FX_TG_NAME("big"), FX_TG_NAME("blockquote"), FX_TG_NAME("body"), FX_TG_NAME("br"),
    FX_TG_NAME("center"), FX_TG_NAME("code"), FX_TG_NAME("dd"), FX_TG_NAME("div"), FX_TG_NAME("dl"),
    FX_TG_NAME("dt"), FX_TG_NAME("em"), FX_TG_NAME("embed"), FX_TG_NAME("h1"), FX_TG_NAME("h2"),
    FX_TG_NAME("h3"), FX_TG_NAME("h4"), FX_TG_NAME("h5"), FX_TG_NAME("h6"), FX_TG_NAME("head"),
    FX_TG_NAME("hr"), FX_TG_NAME("i"), FX_TG_NAME("img"), FX_TG_NAME("li"), FX_TG_NAME("listing"),
    FX_TG_NAME("menu"), FX_TG_NAME("meta"), FX_TG_NAME("nobr"), FX_TG_NAME("ol"), FX_TG_NAME("p"),
    FX_TG_NAME("pre"), FX_TG_NAME("ruby"), FX_TG_NAME("s"), FX_TG_NAME("small"), FX_TG_NAME("span"),
    FX_TG_NAME("strong"), FX_TG_NAME("strike"), FX_TG_NAME("sub"), FX_TG_NAME("sup"), FX_TG_NAME("table"),
    FX_TG_NAME("tt"), FX_TG_NAME("u"), FX_TG_NAME("ul"), FX_TG_NAME("var"), FX_TG_NAME("font"),
    FX_TG_NAME("math"), FX_TG_NAME("foreignobject"), FX_TG_NAME("title"), FX_TG_NAME("desc"), {NULL, 0}};
#undef FX_TG_NAME
enum { FX_TG_SVG_TITLE = 47 };                     /* index of "title" above */

/* The length of the tag name at s[i..n) (it ends at whitespace, '/' or '>'). */
static inline size_t fx_tg_name_len(const unsigned char *s, size_t i, size_t n) {
    size_t e = i;
    while (e < n && !fx_tg_ws(s[e]) && s[e] != '/' && s[e] != '>') e++;
    return e - i;
}

/* Where the end tag closing an <svg> is (its '<'), reading from s[i] (just after the <svg>
   start tag) to n; NULL where the <svg> must be read as usual (see above).  `quiet`: text in
   an HTML integration point would re-create no formatting element.  *read: bytes read. */
static const unsigned char *fx_tg_svg_end(const unsigned char *s, size_t i, size_t n, int quiet, size_t *read) {
    const unsigned char *open_at[FX_TG_SVG_DEPTH];  /* names of the elements open, the <svg> first */
    size_t open_len[FX_TG_SVG_DEPTH], depth = 1, len, k, start = i, lt, e;
    const unsigned char *q;
    int sc;
    unsigned char c;
    open_at[0] = (const unsigned char *)"svg";
    open_len[0] = 3;
    for (;;) {
        q = i < n ? (const unsigned char *)memchr(s + i, '<', n - i) : NULL;
        if (q == NULL || (size_t)(q - s) + 1 >= n) break;
        lt = (size_t)(q - s);
        c = s[lt + 1];
        if (fx_tg_alpha(c)) {                      /* a start tag */
            len = fx_tg_name_len(s, lt + 1, n);
            for (k = 0; fx_tg_svg_stop[k].name != NULL; k++)
                if (fx_tg_name_eq(s + lt + 1, len, (const unsigned char *)fx_tg_svg_stop[k].name,
                                  fx_tg_svg_stop[k].len)) break;
            e = fx_tg_tag_end_sc(s, lt + 1, n, &sc);
            if (e >= n) break;                     /* the input ends in the tag or just after */
            if (fx_tg_svg_stop[k].name != NULL) {
                if (k < FX_TG_SVG_TITLE || !quiet || sc) break;
                q = (const unsigned char *)memchr(s + e, '<', n - e);   /* text, then its end tag? */
                if (q == NULL || (size_t)(q - s) + len + 2 >= n || q[1] != '/'
                        || !fx_tg_name_eq(q + 2, fx_tg_name_len(s, (size_t)(q - s) + 2, n), s + lt + 1, len))
                    break;
            }
            if (!sc) {
                if (depth == FX_TG_SVG_DEPTH) break;
                open_at[depth] = s + lt + 1;
                open_len[depth++] = len;
            }
            i = e;
        } else if (c == '/') {
            if (lt + 2 < n && fx_tg_alpha(s[lt + 2])) {   /* an end tag: the innermost element of its name */
                len = fx_tg_name_len(s, lt + 2, n);
                for (k = depth; k > 0 && !fx_tg_name_eq(s + lt + 2, len, open_at[k - 1], open_len[k - 1]); k--) {}
                if (k == 0) break;                 /* opened before the <svg>, or never */
                if (k == 1) {                      /* the <svg>'s own */
                    *read = lt - start;
                    return q;
                }
                depth = k - 1;
                i = fx_tg_tag_end_sc(s, lt + 2, n, &sc);
            } else {
                i = fx_tg_gt(s, lt + 2, n);        /* </> or a bogus comment */
            }
        } else if (c == '!') {
            if (lt + 3 < n && s[lt + 2] == '-' && s[lt + 3] == '-') {
                i = fx_tg_comment_end(s, lt, n);
            } else if (n - lt >= 9 && memcmp(s + lt + 2, "[CDATA[", 7) == 0) {
                for (e = lt + 9; e + 2 < n && !(s[e] == ']' && s[e + 1] == ']' && s[e + 2] == '>'); e++) {}
                if (e + 2 >= n) break;
                i = e + 3;
            } else {
                i = fx_tg_gt(s, lt + 2, n);        /* a doctype, a bogus comment */
            }
        } else if (c == '?') {
            i = fx_tg_gt(s, lt + 2, n);
        } else {
            i = lt + 1;                            /* text */
        }
        if (i >= n) break;
    }
    *read = (q == NULL ? n : (size_t)(q - s)) - start;
    return NULL;
}

/* Whether text inserted in HTML content now would re-create no formatting element: the last
   entry of the list of active formatting elements is a marker or an element still open (HTML
   Standard 13.2.4.3, "reconstruct the active formatting elements"). */
static int fx_tg_afe_quiet(const fx_tg *g) {
    void *last;
    size_t k;
    if (g->afe->length == 0) return 1;
    last = g->afe->list[g->afe->length - 1];
    if (last == fx_tg_marker) return 1;
    for (k = g->open->length; k > 0; k--)
        if (g->open->list[k - 1] == last) return 1;
    return 0;
}

/* Where the text of a <script> (`script`) or a <style> that starts at s[i] ends: the '<' of the
   end tag that ends it, n if the input ends first.  A style's (RAWTEXT) at the first "</style";
   a script's by the tokenizer's script data states (HTML Standard 13.2.5.4 and 13.2.5.15-31):
   after "<!--" the text is escaped, where "</script" still ends it but "<script" makes it double
   escaped, where it does not, until "</script" or "-->". */
static size_t fx_tg_raw_end(const unsigned char *s, size_t i, size_t n, int script) {
    enum { DATA, ESC, ESC_DASH, ESC_DASH_DASH, DESC, DESC_DASH, DESC_DASH_DASH };
    const char *name = script ? "script" : "style";
    size_t len = script ? 6 : 5;
    const unsigned char *q;
    int st = DATA;
    unsigned char c;
    while (i < n) {
        if (st == DATA) {
            q = (const unsigned char *)memchr(s + i, '<', n - i);
            if (q == NULL) return n;
            i = (size_t)(q - s);
            if (fx_tg_end_tag_at(s, i, n, name, len)) return i;
            if (script && i + 3 < n && s[i + 1] == '!' && s[i + 2] == '-' && s[i + 3] == '-') {
                st = ESC_DASH_DASH;                /* "<!--" */
                i += 4;
            } else {
                i++;
            }
            continue;
        }
        c = s[i];
        if (c == '-') {
            st = (st == ESC) ? ESC_DASH : (st == ESC_DASH || st == ESC_DASH_DASH) ? ESC_DASH_DASH
                 : (st == DESC) ? DESC_DASH : DESC_DASH_DASH;
            i++;
        } else if (c == '>' && (st == ESC_DASH_DASH || st == DESC_DASH_DASH)) {
            st = DATA;                             /* "-->" */
            i++;
        } else if (c == '<' && st <= ESC_DASH_DASH) {
            if (fx_tg_end_tag_at(s, i, n, "script", 6)) return i;
            if (i + 7 < n && fx_tg_name_eq(s + i + 1, 6, (const unsigned char *)"script", 6)
                    && (fx_tg_ws(s[i + 7]) || s[i + 7] == '/' || s[i + 7] == '>')) {
                st = DESC;                         /* "<script": double escaped */
                i += 7;
            } else {
                st = ESC;
                i++;
            }
        } else if (c == '<') {
            if (fx_tg_end_tag_at(s, i, n, "script", 6)) {
                st = ESC;                          /* "</script" ends the double escape */
                i += 8;
            } else {
                st = DESC;
                i++;
            }
        } else {
            st = (st <= ESC_DASH_DASH) ? ESC : DESC;
            i++;
        }
    }
    return n;
}

/* The tokenizer state that passes over the content of the current element (g->skip_kind: 1 a
   <script>, 2 a <style>, 3 an <svg>; see "what no method reads" above).  lexbor calls it as it
   calls its own states, with the rest of the piece [data, end), and it returns where reading
   goes on.  The first call, just after the start tag, reads ahead to the end (g->skip_to);
   there lexbor's own state takes over, the one the tree builder had set (an <svg> that
   fx_tg_svg_end cannot pass over, at once).  At the end of the input (lexbor's one-byte EOF
   piece) it returns `end` and the tree builder closes the element. */
static const unsigned char *fx_tg_skip(void *tkz_, const unsigned char *data, const unsigned char *end) {
    fx_tokenizer_head *tkz = (fx_tokenizer_head *)tkz_;
    fx_tg *g = (fx_tg *)tkz->callback_token_ctx;
    const unsigned char *to = g->skip_to;
    void *resume = g->skip_kind == 1 ? fx_tg_script_before : g->skip_kind == 2 ? fx_tg_rawtext_before
                   : fx_tg_data_before;
    size_t at, n, read = 0;
    if (to == NULL) {
        if (data >= g->in_begin && data < g->in_end) {
            at = (size_t)(data - g->in_begin);
            n = (size_t)(g->in_end - g->in_begin);
            if (g->skip_kind == 3) {
                to = fx_tg_svg_end(g->in_begin, at, n, fx_tg_afe_quiet(g), &read);
                g->svg_read += read;
            } else {
                to = g->in_begin + fx_tg_raw_end(g->in_begin, at, n, g->skip_kind == 1);
            }
        }
        if (to == NULL) {                          /* read as usual */
            g->skip_kind = 0;
            tkz->state = resume;
            return data;
        }
        g->skip_to = to;
    }
    if (to >= data && to < end) {                  /* the end tag: lexbor's again */
        g->skipped += (size_t)(to - data);
        g->skip_to = NULL;
        g->skip_kind = 0;
        tkz->state = resume;
        return to;
    }
    if (data >= g->in_begin && end <= g->in_end) g->skipped += (size_t)(end - data);
    return end;
}

/* Strip the tags of s[i..n) into out (appending at *olen) until about `want` bytes
   of input are read; returns where it stopped (between two tokens). */
static size_t fx_tg_strip(fx_tg *g, const unsigned char *s, size_t i, size_t n, size_t want,
                          unsigned char *out, size_t *olen) {
    size_t stop = i + want < n ? i + want : n, lt, e;
    const unsigned char *q;
    unsigned char c;
    int k;
    while (i < stop) {
        q = (const unsigned char *)memchr(s + i, '<', n - i);
        lt = q ? (size_t)(q - s) : n;
        memcpy(out + *olen, s + i, lt - i);
        *olen += lt - i;
        i = lt;
        if (i >= n) break;
        if (i + 1 >= n) { out[(*olen)++] = '<'; i++; break; }
        c = s[i + 1];
        if (fx_tg_alpha(c)) {
            k = fx_tg_raw_kind(s, i + 1, n);
            e = fx_tg_tag_end(s, i + 1, n);
            if (k) {                               /* kept whole, for lexbor to read */
                if (k == FX_TG_RAWKINDS) e = n;    /* plaintext: the rest */
                else {
                    q = fx_tg_find_end(g, s + e, k - 1);
                    e = q < s + n ? fx_tg_tag_end(s, (size_t)(q - s) + 2, n) : n;
                }
                memcpy(out + *olen, s + i, e - i);
                *olen += e - i;
            }
            i = e;
        } else if (c == '/') {
            if (i + 2 >= n) { memcpy(out + *olen, s + i, n - i); *olen += n - i; i = n; }
            else if (fx_tg_alpha(s[i + 2])) i = fx_tg_tag_end(s, i + 2, n);
            else i = fx_tg_gt(s, i + 2, n);        /* </> or a bogus comment */
        } else if (c == '!') {
            if (i + 3 < n && s[i + 2] == '-' && s[i + 3] == '-') i = fx_tg_comment_end(s, i, n);
            else i = fx_tg_gt(s, i + 2, n);        /* doctype, CDATA, bogus comment */
        } else if (c == '?') {
            i = fx_tg_gt(s, i + 2, n);
        } else {
            out[(*olen)++] = '<';
            i++;
        }
    }
    return i;
}

/* Index after the '>' ending a tag, from a point between its attributes. */
static size_t fx_tg_attrs_end(const unsigned char *s, size_t i, size_t n) {
    return fx_tg_tag_end(s, i, n);                 /* (a name's rest is skipped like one) */
}

/* lexbor reads all attributes of a tag before the guard sees it (a tag with a
   million attributes cost 1.4 s for 20 MB).  Between two pieces, a tag still
   being read that already has more than max_attrs attributes is ended there
   (lexbor is handed what closes it: '>', or '">' / "'>" inside a quoted value;
   the guard then keeps its first max_attrs attributes) and the input is
   skipped to the tag's own end. */
static unsigned int fx_tg_cut_tag(void *doc, fx_tokenizer_head *tkz, const unsigned char *html, size_t n,
                                  size_t *pos, fx_tg *g) {
    fx_token *tok = tkz->token;
    fx_token_attr *a;
    size_t k = 0, i = *pos;
    const unsigned char *q;
    const char *closer = ">";
    if (tok == NULL || tok->attr_first == NULL || fx_tg_dq_state == NULL) return 0;
    for (a = tok->attr_first; a != NULL && k <= g->max_attrs; a = a->next) k++;
    if (k <= g->max_attrs) return 0;
    if (tkz->state == fx_tg_dq_state || tkz->state == fx_tg_sq_state) {
        closer = tkz->state == fx_tg_dq_state ? "\">" : "'>";
        q = (const unsigned char *)memchr(html + i, closer[0], n - i);
        i = q ? (size_t)(q - html) + 1 : n;
    }
    *pos = fx_tg_attrs_end(html, i, n);
    g->dropped_attrs++;
    return fx_tg_chunk(doc, (const unsigned char *)closer, strlen(closer));
}

/* Comments no method reads, passed over (skip_bodies): lexbor reads a comment byte by byte
   into a comment node (old pages' commented-out markup: 3% of dragnet's bytes, 7% of its
   parse).  A comment of FX_TG_COMMENT_MIN bytes or more that starts where the tokenizer is in
   its data state is handed to lexbor as "<!---->" instead: the same empty comment node splits
   the text around it as the comment did. */
enum { FX_TG_COMMENT_MIN = 16 };
static const char fx_tg_empty_comment[] = "<!---->";

/* Hand html[pos..end) to lexbor, its long comments passed over (see above); *next: where the
   next piece starts (past `end` when a comment passed over runs beyond it). */
static unsigned int fx_tg_feed_piece(void *doc, fx_tokenizer_head *tkz, const unsigned char *html, size_t pos,
                                     size_t end, size_t n, fx_tg *g, size_t *next) {
    size_t from = pos, at = pos, lt, e;
    const unsigned char *q;
    unsigned int st;
    *next = end;
    while (g->skip_bodies && at + 4 <= end) {
        q = (const unsigned char *)memchr(html + at + 1, '!', end - at - 1);   /* "<!--": its '!' */
        if (q == NULL) break;
        lt = (size_t)(q - html) - 1;
        if (lt + 4 > n || html[lt] != '<' || q[1] != '-' || q[2] != '-') {
            at = lt + 1;
            continue;
        }
        /* a short comment's end within FX_TG_COMMENT_MIN bytes (a bounded look: "<!--" in a
           script's text may have no end at all, and the look must not run to the page's end
           at each); a long one's only where the tokenizer is in its data state, and then what
           the look reads is passed over */
        e = lt + FX_TG_COMMENT_MIN < n ? lt + FX_TG_COMMENT_MIN : n;
        if (fx_tg_comment_end(html, lt, e) < e) {
            at = lt + 4;
            continue;
        }
        if (lt > from) {
            st = fx_tg_chunk(doc, html + from, lt - from);
            if (st != 0) return st;
            from = lt;
        }
        at = lt + 4;
        if (tkz->state != fx_tg_data_before && tkz->state != fx_tg_data_state)
            continue;                              /* not a comment here (a script's text, a value ...) */
        e = fx_tg_comment_end(html, lt, n);
        st = fx_tg_chunk(doc, (const unsigned char *)fx_tg_empty_comment, sizeof(fx_tg_empty_comment) - 1);
        if (st != 0) return st;
        g->skipped += e - lt;
        from = at = e;
        if (e >= end) {
            *next = e;
            return 0;
        }
    }
    return from < end ? fx_tg_chunk(doc, html + from, end - from) : 0;
}

/* Feed the page to lexbor in pieces of 256 KB ending after a '>'; once the rest is
   read as text (g->flat) and the tokenizer is in its data state, the pieces are
   stripped of their tags first. */
static unsigned int fx_tg_feed(void *doc, fx_tokenizer_head *tkz, const unsigned char *html, size_t n,
                               fx_tg *g) {
    const size_t piece = (size_t)1 << 18;
    size_t pos = 0, end, olen = 0, start;
    const unsigned char *q;
    unsigned int st = 0;
    while (pos < n && st == 0) {
        if (g->flat && fx_tg_data_before != NULL
                && (tkz->state == fx_tg_data_before || tkz->state == fx_tg_data_state)) {
            if (g->sbuf == NULL) {
                g->sbuf = (unsigned char *)malloc(n - pos + 1);
                if (g->sbuf == NULL) return 2;     /* LXB_STATUS_ERROR_MEMORY_ALLOCATION */
            }
            start = olen;
            end = fx_tg_strip(g, html, pos, n, piece, g->sbuf, &olen);
            g->stripped += end - pos;
            pos = end;
            if (olen > start) st = fx_tg_chunk(doc, g->sbuf + start, olen - start);
            continue;
        }
        if (g->flat) g->verbatim++;
        end = pos + piece;
        if (end >= n) end = n;
        else {                                     /* after a '>' within the next piece, if any */
            q = (const unsigned char *)memchr(html + end, '>', n - end < piece ? n - end : piece);
            end = q ? (size_t)(q - html) + 1 : end;
        }
        st = fx_tg_feed_piece(doc, tkz, html, pos, end, n, g, &pos);
        if (st == 0 && pos < n) st = fx_tg_cut_tag(doc, tkz, html, n, &pos, g);
    }
    return st;
}

/* lexbor's name tables (tag, attribute, prefix and namespace names) have
   a fixed 128 buckets: a page with N distinct names costs N*N/256 string
   comparisons (1 MB of '<i a1=1 b1=2 c1=3>' took a second).  Give them
   a bucket per 64 bytes of input instead: the guard's budgets bound the
   names lexbor reads (tags and attributes past them never reach it) to
   about one per 32 bytes, so chains stay a few entries long (a chain of
   dozens of entries, each a cache miss, made 1 MB of distinct attribute
   names cost half a second); a bucket per 8 bytes cost 40 MB of touched
   table on a 20 MB page.
   fx_tg_table_size(n): the buckets for n bytes of input. */
static size_t fx_tg_table_size(size_t n) {
    size_t size = 128;
    while (size < n / 64 && size < ((size_t)1 << 24)) size <<= 1;
    return size;
}

/* A name table of the size n bytes of input need, from calloc in place of the old one: where it
   is smaller (`shrink` 0: after lexbor's begin, which zeroes the old one; the new one is zero
   already and its untouched pages stay untouched), or four times larger (`shrink` 1: a document
   kept for a later parse, fx_tg_release, before lexbor's clean would zero all of it).  Returns 0
   when out of memory. */
static int fx_tg_resize(fx_hash *h, size_t n, int shrink) {
    size_t size = fx_tg_table_size(n);
    void **table;
    if (h == NULL || (shrink ? h->table_size <= 4 * size : h->table_size >= size)) return 1;
    table = (void **)fx_tg_calloc(size, sizeof(void *));
    if (table == NULL) return 0;
    fx_tg_free(h->table);
    h->table = table;
    h->table_size = size;
    return 1;
}

/* Each of a document's four name tables (tags, attributes, prefixes, namespaces) resized. */
static int fx_tg_resize_all(fx_dom_document *d, size_t n, int shrink) {
    return fx_tg_resize((fx_hash *)d->tags, n, shrink) && fx_tg_resize((fx_hash *)d->attrs, n, shrink)
           && fx_tg_resize((fx_hash *)d->prefix, n, shrink) && fx_tg_resize((fx_hash *)d->ns, n, shrink);
}

/* A document kept for a later parse (core/_doc.pxi, _parser_release): its name tables back to
   lexbor's size and its tree and arenas emptied now, so that it holds no more memory than a new
   one while it waits (lexbor's begin then has nothing left to clean). */
static void fx_tg_release(void *doc) {
    (void)fx_tg_resize_all((fx_dom_document *)doc, 0, 1);
    if (fx_tg_clean != NULL) fx_tg_clean(doc);
}

/* One guarded parse of `html` into the (parsed-before) HTML document `doc`.
   Returns lexbor's status; 0 is success. */
static unsigned int fx_tg_parse(void *doc, const unsigned char *html, size_t n, fx_tg *g) {
    fx_dom_document *d = (fx_dom_document *)doc;
    fx_tokenizer_head *tkz;
    fx_parser_head *parser;
    unsigned int st;
    d->compat_mode = 0;            /* no-quirks until a doctype says otherwise, as in a new document
                                      (the empty parse before left it at quirks) */
    st = fx_tg_begin(doc);
    if (st != 0) return st;
    /* widened after the begin, which empties the tables (lexbor_hash_clean zeroes every
       bucket): a fresh table from calloc is zero already, and its untouched pages stay
       untouched (on a 50 MB page the clean wrote 32 MB of tables) */
    if (!fx_tg_resize_all(d, n, 0)) {
        (void)fx_tg_end(doc);
        return 2;                                  /* LXB_STATUS_ERROR_MEMORY_ALLOCATION */
    }
    parser = (fx_parser_head *)d->parser;
    tkz = (fx_tokenizer_head *)parser->tkz;
    /* lexbor grows a text node that fills its arena chunk into a new chunk of
       its size plus the arena's minimum chunk size, copying it: a node built
       from many runs of text (the rest of a page read as text, say) is copied
       once per minimum chunk size (4 KB), O(L^2) in all.  A minimum of a
       quarter of the input bounds that to four copies; a chunk's untouched
       pages cost no memory. */
    if (d->text != NULL && ((fx_mraw *)d->text)->mem != NULL) {
        fx_mem *m = ((fx_mraw *)d->text)->mem;
        size_t want = (n / 4 + 63) & ~(size_t)63;
        if (fx_tg_text_chunk > 0)                  /* a used document: what a new one has, or more */
            m->chunk_min_size = want > fx_tg_text_chunk ? want : fx_tg_text_chunk;
        else if (m->chunk_min_size > 0 && m->chunk_min_size < ((size_t)1 << 28) && m->chunk_min_size < want)
            m->chunk_min_size = want;
    }
    /* lexbor allocates attribute values in the text arena as it reads each tag,
       before the tree builder sees it, so a start tag between two runs of text
       that go to one node (a tag the guard drops, or one the tree builder
       ignores, such as <tr> in body) makes lexbor copy the whole node to grow
       it: quadratic time and memory.  Values go to the document's node arena
       instead (freed with the document, like the text arena). */
    g->attrs_moved = 0;
    if (tkz->tags == d->tags && tkz->attrs == d->attrs && tkz->attrs_mraw == d->text
            && d->mraw != NULL) {
        tkz->attrs_mraw = d->mraw;
        g->attrs_moved = 1;
    }
    if (fx_tg_data_before == NULL) g->skip_bodies = 0;
    g->skip_kind = 0;
    g->skip_to = NULL;
    g->svg_read = 0;
    g->in_begin = html;
    g->in_end = html + n;
    g->tree_cb = tkz->callback_token_done;
    g->tree = tkz->callback_token_ctx;
    g->open = ((fx_tree_head *)g->tree)->open_elements;
    g->afe = ((fx_tree_head *)g->tree)->active_formatting;
    tkz->callback_token_done = fx_tg_token;
    tkz->callback_token_ctx = g;
    st = fx_tg_feed(doc, tkz, html, n, g);
    if (st == 0) st = fx_tg_end(doc);
    else (void)fx_tg_end(doc);
    free(g->tbuf);
    g->tbuf = NULL;
    free(g->sbuf);
    g->sbuf = NULL;
    if (tkz->state == (void *)fx_tg_skip) tkz->state = fx_tg_data_before;   /* never outlives g */
    g->skip_kind = 0;
    tkz->callback_token_done = g->tree_cb;
    tkz->callback_token_ctx = g->tree;
    if (g->attrs_moved) tkz->attrs_mraw = d->text;
    return st;
}

#endif
