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
from .errors import (DecodeError, ExtractionTimeout, FastxError, InputError, LayoutError,
                     MissingPositionsError, ModelError, ParseError, RenderError, UnknownMethodError,
                     WorkerCrash)
from ._core import Doc, PAGE_TYPES
from .api import Extraction, extract, methods, parse
from . import evaluate
from .site import SiteModel
from .bayes import BayesModel
from .records import Record, records
from .simhash import hamming, simhash
from .batch import BatchStats, Page, extract_many
from .config import limit_memory
from .errors import OutOfMemoryError

__version__ = "0.1.0"

__all__ = ["extract", "parse", "methods", "evaluate", "Doc", "Extraction", "FastxError", "InputError",
           "DecodeError", "ParseError", "LayoutError", "UnknownMethodError", "MissingPositionsError",
           "ModelError", "RenderError", "ExtractionTimeout", "__version__", "SiteModel",
           "records", "Record", "simhash", "hamming", "extract_many", "Page", "BatchStats", "WorkerCrash",
           "BayesModel", "PAGE_TYPES", "limit_memory", "OutOfMemoryError"]
