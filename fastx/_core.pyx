# cython: language_level=3
"""fastx's compiled core: the flat node array and every hot loop.

Each kernel lives in an include file of its own (one job each) and is
compiled into this one extension module:

- ``_lexbor.pxi``  lexbor 3.1 struct declarations (verified at import)
- ``_doc.pxi``     Doc: one C pass over the DOM, subtree aggregates, text/HTML output
- ``_cetd.pxi``    CETD: TD, CTD, HTD, DensitySum, threshold, Algorithm 2, smoothing
- ``_lcs.pxi``     bit-parallel word LCS for the evaluation metrics
"""
cimport numpy as cnp
import numpy as np

cnp.import_array()

include "_lexbor.pxi"
include "_doc.pxi"
include "_cetd.pxi"
include "_lcs.pxi"

_calibrate()
