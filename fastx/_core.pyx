# cython: language_level=3
"""fastx's compiled core: the flat node array and every hot loop.

Each kernel lives in an include file of its own (one job each) and is
compiled into this one extension module:

- ``_lexbor.pxi``  lexbor 3.1 struct declarations (verified at import)
- ``_doc.pxi``     Doc: one C pass over the DOM, subtree aggregates, text output
- ``_sanitize.pxi`` cleaned HTML output: allow-listed elements, attributes and URLs (safe to embed)
- ``_cetd.pxi``    CETD: TD, CTD, HTD, DensitySum, threshold, Algorithm 2, smoothing
- ``_lcs.pxi``     bit-parallel word LCS for the evaluation metrics
- ``_layout.pxi``  layout similarity: subtree hashes, identical-node deletion, link rules
- ``_site.pxi``    site rules: consolidated selectors matched over the Doc in one sweep
- ``_render.pxi``  marked serialization of a page for the browser (fastx.render)
- ``_bayes.pxi``   Naive Bayes blocks: DOM blocking, binned block features, log-space NB score
- ``_gbt.pxi``     the default method: fused per-unit features, tree-ensemble evaluation
- ``_guard.pxi``   hostile input: bounds lexbor's tree-builder work (depth, formatting, attributes)
- ``_parse.pxi``   the same bounds applied to lexbor's tokens during the parse (the fast path)
- ``_vsse.pxi``    VSSE: vvtc, tag-path pcs aggregation, SimHash/Hamming, WVC, HMM over DOM levels
- ``_markdown.pxi`` Markdown output: CommonMark + GitHub tables over the Doc and a keep mask
- ``_meta.pxi``    page metadata: one bounded pass over lexbor's tree collecting meta/JSON-LD/byline evidence
- ``_sniff.pxi``   non-HTML input: control/NUL byte counts of the head of the bytes
"""
cimport numpy as cnp
import numpy as np

cnp.import_array()

from fastx._text cimport (FX_FNV32_OFFSET, FX_FNV64_OFFSET, fx_ascii_ci_prefix, fx_find_u64, fx_fnv32_step,
                          fx_fnv64_step, fx_lower_bound_u64, fx_next_word)

include "core/_lexbor_abi.pxi"
include "core/_doc.pxi"
include "output/_serialize.pxi"
include "output/_sanitize.pxi"
include "methods/cetd/_kernels.pxi"
include "tools/_lcs.pxi"
include "core/_utf8.pxi"
include "methods/layout_similarity/_kernels.pxi"
include "methods/site/_kernels.pxi"
include "tools/_browser.pxi"
include "methods/bayes/_kernels.pxi"
include "methods/default/_kernels.pxi"
include "core/_guard.pxi"
include "core/_parse.pxi"
include "methods/vsse/_kernels.pxi"
include "output/_markdown.pxi"
include "output/_meta.pxi"
include "core/_sniff.pxi"

_calibrate()
_tg_calibrate()
