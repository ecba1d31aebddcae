/* every lexbor 3.1 layout fastx reads, declared once (checked at import: _calibrate in
   core/_doc.pxi for the DOM, _tg_calibrate in core/_parse.pxi for the parser).
   Compiled into fastx._core through core/_lexbor_abi.pxi; plain C, no Python. */
#ifndef FX_LEXBOR_ABI_H
#define FX_LEXBOR_ABI_H

#include <stddef.h>
#include <stdint.h>
typedef struct fx_str_s { unsigned char *data; size_t length; } fx_str;
typedef struct fx_node_s fx_node;
struct fx_node_s {                 /* lxb_dom_node_t */
    void *events;                  /* lxb_dom_event_target_t */
    uintptr_t local_name;          /* tag id (elements), attr id (attributes) */
    uintptr_t prefix;
    uintptr_t ns;
    void *owner_document;
    fx_node *next;
    fx_node *prev;
    fx_node *parent;
    fx_node *first_child;
    fx_node *last_child;
    void *user;
    int type;                      /* lxb_dom_node_type_t */
};
typedef struct fx_attr_s fx_attr;
struct fx_attr_s {                 /* lxb_dom_attr_t */
    fx_node node;
    uintptr_t upper_name;
    uintptr_t qualified_name;
    fx_str *value;
    void *owner;
    fx_attr *next;
    fx_attr *prev;
};
typedef struct fx_element_s {      /* lxb_dom_element_t */
    fx_node node;
    uintptr_t upper_name;
    uintptr_t qualified_name;
    fx_str *is_value;
    fx_attr *first_attr;
    fx_attr *last_attr;
    fx_attr *attr_id;
    fx_attr *attr_class;
    int custom_state;
} fx_element;
typedef struct fx_chardata_s {     /* lxb_dom_character_data_t */
    fx_node node;
    fx_str data;
} fx_chardata;
typedef struct fx_hash_entry_s {   /* lexbor_hash_entry_t, LEXBOR_HASH_SHORT_SIZE 16 */
    union { unsigned char *long_str; unsigned char short_str[17]; } u;
    size_t length;
    void *next;
} fx_hash_entry;
static const unsigned char *fx_hash_entry_str(const fx_hash_entry *e) {
    return e->length <= 16 ? e->u.short_str : e->u.long_str;
}


/* the namespace id of a node (lexbor's ns; fastx compares it with the root's, HTML) */
static inline uintptr_t fx_node_ns(const fx_node *n) { return n->ns; }

/* lexbor's parser, tokenizer, tree builder, document and arenas: the leading fields the
   guarded parse (core/_parse.pxi, include/tree_guard.h) reads and sets */
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
    void *tags, *attrs;
    void *attrs_mraw;                              /* where attribute values are allocated */
    void *mraw;
    fx_token *token;                               /* the token being read */
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

typedef struct {                                   /* lexbor_mem_t */
    void *chunk, *chunk_first;
    size_t chunk_min_size, chunk_length;
} fx_mem;
typedef struct {                                   /* lexbor_mraw_t, leading field */
    fx_mem *mem;
} fx_mraw;

typedef struct {                                   /* lexbor_hash_t */
    void *entries, *mraw;
    void **table;
    size_t table_size, struct_size;
} fx_hash;

#endif
