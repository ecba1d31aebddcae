"""What a batch worker loads before its first page.

Importing this module extracts one small page with its metadata, which loads everything the
extraction reads lazily: the shipped default and page-type models and, when the extra
``fastx-extract[language]`` is installed, the language detector (py3langid's model: about half
a second). The batch pool's forkserver imports it (``set_forkserver_preload``), so every
worker, a replacement for a killed one too, is forked with them in memory and no page's time
limit pays for loading them; a spawned worker imports it before reading its first page.
"""
from __future__ import annotations

import fastx

__all__ = ["warm"]

# a page without a language in its markup (the detector runs), of a few sentences (the model runs)
_PAGE = ("<html><head><title>Warm-up</title></head><body><article><h1>Warm-up</h1><p>"
         + "This page is read once so that the models are loaded before the first real page. " * 3
         + "</p></article></body></html>")


def warm() -> None:
    """Load the models and the language detector (one extraction and its metadata). A failure
    here (a damaged model file) is left to the pages to report, each in its own error record:
    raised in the forkserver's preload it would stop the server, and every worker with it."""
    try:
        fastx.extract(_PAGE).metadata
    except Exception:  # noqa: BLE001  (see the docstring)
        pass


warm()
