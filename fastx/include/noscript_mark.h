/* the mark the guarded parse leaves on a <noscript> the page ended inside.
   Compiled into fastx._core through core/_doc.pxi; plain C, no Python. */
#ifndef FX_NOSCRIPT_MARK_H
#define FX_NOSCRIPT_MARK_H

#include "lexbor_abi.h"
/* Set (node->user) by the guarded parse (_parse.pxi) on a <noscript> in body
   that the page ended inside: no end tag closed it, so what it holds is the
   rest of the page, and the Doc keeps it.  Closed ones are dropped. */
static char fx_noscript_open_marker;
#define FX_NOSCRIPT_OPEN ((void *)&fx_noscript_open_marker)
static inline int fx_noscript_kept(const fx_node *n) { return n->user == FX_NOSCRIPT_OPEN; }

#endif
