# Own declarations of the few lexbor 3.1 structs fastx reads (see DESIGN.md).
#
# selectolax ships `lexbor.pxd` but not lexbor's C headers, so the layouts are
# restated as plain C in include/lexbor_abi.h (every layout fastx reads, DOM and
# parser, once).  They are checked against selectolax's own API at import
# (`_calibrate` in core/_doc.pxi, `_tg_calibrate` in core/_parse.pxi) and fastx
# refuses to run if they differ.

from libc.stdint cimport uintptr_t

cdef extern from "lexbor_abi.h":
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
    uintptr_t fx_node_ns(const fx_node *n) nogil

    ctypedef struct fx_dom_document:
        void *tags
        void *attrs
        void *prefix
        void *ns
    ctypedef struct fx_hash:
        size_t table_size

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


cdef inline const unsigned char *_lexbor_name(uintptr_t lid, size_t *n) noexcept nogil:
    """Name of a dynamic (custom) tag or attribute id, `lid` >= STATIC_LIMIT: the lexbor hash
    entry it points to (n[0] = its length)."""
    cdef const fx_hash_entry *e = <const fx_hash_entry *>lid
    n[0] = e.length
    return fx_hash_entry_str(e)
