# cython: language_level=3
"""fastx's compiled core: the flat node array and every hot loop.

Each kernel lives in an include file in the folder of its concern and is compiled into this
one extension module (the `include` lines below, in dependency order):

- ``core/_lexbor_abi.pxi``  every lexbor layout fastx reads (verified at import), ``_dom_next``
- ``core/_doc.pxi``         Doc: one C pass over the DOM, subtree aggregates, text output, the tag
                            and attribute name tables, ``DocView`` (the arrays' C pointers)
- ``output/_serialize.pxi`` the one HTML serializer (cleaned HTML, browser markup, show's view)
- ``output/_sanitize.pxi``  cleaned HTML's policy: allow-listed elements, attributes and URLs
- ``methods/cetd/_kernels.pxi``  CETD: TD, CTD, HTD, DensitySum, threshold, Algorithm 2, smoothing
- ``tools/_lcs.pxi``        bit-parallel word LCS for the evaluation metrics
- ``core/_utf8.pxi``        input check: can lexbor read the bytes directly as UTF-8
- ``methods/layout_similarity/_kernels.pxi``  subtree hashes, identical-node deletion, link rules
- ``methods/site/_kernels.pxi``  site rules: consolidated selectors matched over the Doc in one sweep
- ``tools/_browser.pxi``    the browser's marked serialization policy (fastx.render)
- ``methods/bayes/_kernels.pxi``  Naive Bayes blocks: DOM blocking, binned features, log-space score
- ``methods/default/_kernels.pxi``  the default method: fused per-unit features, tree ensembles
- ``core/_guard.pxi``       hostile input: bounds lexbor's tree-builder work (depth, formatting, attributes)
- ``core/_parse.pxi``       the same bounds applied to lexbor's tokens during the parse (the fast path)
- ``methods/vsse/_kernels.pxi``  VSSE: vvtc, tag-path pcs, SimHash/Hamming, WVC, HMM over DOM levels
- ``output/_markdown.pxi``  Markdown output: CommonMark + GitHub tables over the Doc and a keep mask
- ``output/_meta.pxi``      page metadata evidence: a tag walk over lexbor's tree (meta/link/JSON-LD) and a window of the Doc around the h1
- ``core/_sniff.pxi``       non-HTML input: control/NUL byte counts of the head of the bytes
- ``output/_langid.pxi``    the metadata's language from the text: langid.py's byte n-gram Naive Bayes
"""
cimport numpy as cnp
import numpy as np

cnp.import_array()

from fastx._text cimport (FX_FNV32_OFFSET, FX_FNV64_OFFSET, fx_ascii_ci_prefix, fx_find_u64, fx_fnv32_step,
                          fx_fnv64_step, fx_lower_bound_u64, fx_lowest_bit, fx_next_word, fx_prefetch)

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
include "output/_langid.pxi"

_calibrate()
_tg_calibrate()
