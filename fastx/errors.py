"""Typed errors: everything fastx raises on bad input derives from FastxError."""


class FastxError(Exception):
    """Base class of every error fastx raises on purpose."""


class InputError(FastxError, ValueError):
    """The input is not something fastx can read (wrong type, empty, too large)."""


class DecodeError(InputError):
    """The bytes could not be turned into text in any declared or guessed encoding."""


class ParseError(FastxError):
    """The HTML parser (lexbor) failed on the input."""


class LayoutError(FastxError, RuntimeError):
    """The installed selectolax/lexbor does not have the DOM layout fastx was built for."""


class UnknownMethodError(FastxError, KeyError):
    """The method name is not in the registry (see fastx.methods())."""

    def __str__(self):  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else ""


class MissingPositionsError(FastxError, ValueError):
    """A method needs rendered node positions (e.g. CETD's Hybrid Text Density) and none were given."""


class ModelError(FastxError):
    """A model file is missing, corrupt, or of another version."""


class RenderError(FastxError, RuntimeError):
    """Rendering the page in a browser failed (no browser installed, timeout, crash)."""


class ExtractionTimeout(FastxError, TimeoutError):
    """A page took longer than the per-page time limit."""


class WorkerCrash(FastxError, RuntimeError):
    """A worker process of fastx.extract_many died (a signal, the out-of-memory killer) while
    extracting a page; the page's record carries this error and the batch goes on."""


class FetchError(FastxError, OSError):
    """Fetching a URL failed (network, timeout, HTTP status, too many redirects, an oversized or
    non-HTML answer): see fastx.fetch.  In a batch, the page's record carries it as its error."""


class OutOfMemoryError(FastxError, MemoryError):
    """A page needed more memory than the limit allows (``fastx.limit_memory``, or a batch's
    ``memory_limit`` per worker): the page failed, the process and the batch go on."""
