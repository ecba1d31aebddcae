"""output: a Doc and a keep mask -> what a caller reads.

Plain text is written by the Doc itself (core/_doc.pxi); here are the cleaned
HTML (``_sanitize.pxi``: allow-listed elements, attributes and URLs), Markdown
(``_markdown.pxi``), page metadata (``metadata`` over the bounded evidence pass
``_meta.pxi``; ``language``: the text's language where the markup names none) and ``Extraction``, the result object of fastx.extract that
makes them on first access.

May import: core/, fastx._core, fastx.errors, fastx.config.  The one upward
reference is lazy: ``Extraction.page_type`` and the metadata's title rules for
landing pages ask the default family's page-type model
(methods/default/page_type.py) when first needed.
"""
