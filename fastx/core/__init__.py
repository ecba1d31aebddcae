"""core: bytes -> Doc.

Decoding (``decode``: BOM, HTTP/meta charset, guess), the hostile-input bounds
(``_guard.pxi`` byte-level, ``_parse.pxi`` on lexbor's own tokens), the one C
pass that builds the flat node array (``_doc.pxi``: Doc, subtree aggregates,
text output), UTF-8 scans (``_utf8.pxi``), the non-HTML sniff (``_sniff.pxi``)
and the lexbor struct layouts (``_lexbor_abi.pxi``, checked at import), with
``parse`` (fastx.parse) over them.

May import: fastx._core, fastx.errors, fastx.config and the standard library.
Nothing here imports output/, methods/, pipeline/ or tools/.
"""
