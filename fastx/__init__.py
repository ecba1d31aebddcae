"""fastx: fast, accurate main-content extraction from web pages.

>>> import fastx
>>> r = fastx.extract(html_bytes, url=url)          # -> Extraction
>>> r.text, r.title, r.description, r.html
>>> fastx.methods()                                  # name -> description
>>> doc = fastx.parse(html_bytes)                    # one parse, many methods
>>> fastx.extract(doc, method="cetd", variant="td")
>>> fastx.evaluate.scores(predicted_text, gold_text) # LCS P/R/F1 + CleanEval score
>>> for rec in fastx.extract_many(pages, jobs=4):     # batches: one record per page, in order
...     rec["text"], rec["error"]
>>> with fastx.limit_memory(2 << 30):                # OutOfMemoryError, not the kernel's OOM kill
...     fastx.extract(huge_page)
"""
from . import _compat

_compat.install()     # old import paths (fastx.render, fastx.site, fastx.batch ...) keep working

from .errors import (DecodeError, ExtractionTimeout, FastxError, InputError, LayoutError,
                     MissingPositionsError, ModelError, ParseError, RenderError, UnknownMethodError,
                     WorkerCrash)
from ._core import Doc, PAGE_TYPES
from .api import Extraction, extract, methods, parse
from .tools import evaluate
from .methods.site.model import SiteModel
from .methods.bayes.model import BayesModel
from .methods.vsse.records import Record, records
from .methods.vsse.simhash import hamming, simhash
from .pipeline.batch import BatchStats, Page, extract_many
from .config import limit_memory
from .errors import OutOfMemoryError

_compat.bind_loaded()     # fastx.records, fastx.simhash stay the functions after `import fastx.records`

__version__ = "0.1.0"

__all__ = ["extract", "parse", "methods", "evaluate", "Doc", "Extraction", "FastxError", "InputError",
           "DecodeError", "ParseError", "LayoutError", "UnknownMethodError", "MissingPositionsError",
           "ModelError", "RenderError", "ExtractionTimeout", "__version__", "SiteModel",
           "records", "Record", "simhash", "hamming", "extract_many", "Page", "BatchStats", "WorkerCrash",
           "BayesModel", "PAGE_TYPES", "limit_memory", "OutOfMemoryError"]


def __getattr__(name: str):
    """``fastx.site``, ``fastx.render`` ...: the old flat modules, at their new places."""
    return _compat.old_attribute(name)
