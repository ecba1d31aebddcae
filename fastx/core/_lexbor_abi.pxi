# Own declarations of the few lexbor 3.1 structs fastx reads (see DESIGN.md).
#
# selectolax ships `lexbor.pxd` but not lexbor's C headers, so the layouts are
# restated here as plain C.  They are checked against selectolax's own API at
# import (`_calibrate` in _doc.pxi) and fastx refuses to run if they differ.

from libc.stdint cimport uintptr_t

cdef extern from *:
    """
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
    """
    ctypedef struct fx_str:
        unsigned char *data
        size_t length

    ctypedef struct fx_node:
        uintptr_t local_name
        void *owner_document
        fx_node *next
        fx_node *parent
        fx_node *first_child
        int type

    ctypedef struct fx_attr:
        fx_node node
        fx_str *value
        fx_attr *next

    ctypedef struct fx_element:
        fx_node node
        fx_attr *first_attr
        fx_attr *attr_id
        fx_attr *attr_class

    ctypedef struct fx_chardata:
        fx_node node
        fx_str data

    ctypedef struct fx_hash_entry:
        size_t length

    const unsigned char *fx_hash_entry_str(const fx_hash_entry *e) nogil

# lxb_dom_node_type_t values used
cdef enum:
    LXB_ELEMENT = 1
    LXB_TEXT = 3
    LXB_CDATA = 4
    LXB_COMMENT = 8


cdef inline fx_node *_dom_next(fx_node *node, fx_node *root, bint descend) noexcept nogil:
    """Preorder successor of `node` within the subtree of `root` (NULL at its end): the first
    child when `descend` and there is one, else the next sibling of the nearest ancestor-or-self
    below `root` that has one.  Every iterative walk over lexbor's tree takes its steps here."""
    if descend and node.first_child != NULL:
        return node.first_child
    while node != root and node.next == NULL:
        node = node.parent
    if node == root:
        return NULL
    return node.next
