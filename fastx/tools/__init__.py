"""tools: what people and scripts run around the library.

``cli`` (the ``fastx`` command), ``bench`` (the shipped benchmark corpus and
speed/accuracy runs), ``evaluate`` (LCS-based P/R/F1 and the CleanEval score,
over the bit-parallel LCS kernel ``_lcs.pxi``), ``plot`` (SVG charts),
``show`` (the ``fastx show`` HTML report; its CSS and JS are files in
``tools/assets/``) and ``browser`` (headless Chromium boxes for the methods
that read what a browser shows, with the marked serialization ``_browser.pxi``).

May import anything in fastx; nothing in core/, output/ or methods/ imports a
tool at import time (the browser and the evaluation tokenizer are reached lazily).
"""
