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

include "_lexbor.pxi"
include "_doc.pxi"
include "_sanitize.pxi"
include "_cetd.pxi"
include "_lcs.pxi"
include "_utf8.pxi"
include "_layout.pxi"
include "_site.pxi"
include "_render.pxi"
include "_bayes.pxi"
include "_gbt.pxi"
include "_guard.pxi"
include "_parse.pxi"
include "_vsse.pxi"
include "_markdown.pxi"
include "_meta.pxi"
include "_sniff.pxi"

_calibrate()
_tg_calibrate()
