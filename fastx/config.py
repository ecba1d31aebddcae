"""Every limit, timeout and environment knob of fastx, in one place (hostile input: issue 15).

The guard's older limits keep their names in `fastx._core` (GUARD_MAX_DEPTH,
GUARD_MAX_FORMATTING, GUARD_MAX_ATTRS, GUARD_MAX_FOSTERED, TG_MAX_HTML_BODY);
the ones below are read by `_core.parse_guarded` at import and by the batch
runner and the CLI.

Budgets of the guarded parse (`_parse.pxi`), both linear in the input's size n
(bytes), past which the rest of the page is read as text (tags dropped, text
kept):

- GUARD_COPIED_BASE + GUARD_COPIED_PER_BYTE * n bytes of text nodes that lexbor
  copied to grow them (it grows a text node by exactly what it appends, so runs
  of text that reach one node while something else is allocated between them
  cost O(runs^2) time and memory);
- 2 * (GUARD_ELEMENTS_BASE + n // GUARD_BYTES_PER_ELEMENT) tags (start and
  end tags, passed or dropped: an end tag can create an element too, '</p>')
  plus formatting elements the tree builder re-created.
  The densest page of the development corpora (5,721 pages over 2 KB) has one
  element per 30 bytes, the median one per 83 (one per 193 over all their
  bytes), and none has more than 15,799 elements: no page there reaches the
  budget (a page of more than 24,576 elements reaches it when it holds more
  than one per 256 bytes: its tags past the budget are dropped, its text kept).
  The per-byte part is what the whole pipeline can afford: every element (and
  the text node beside it) costs `default` about 1.2 us, so a page at the
  budget's density (one element per 128 bytes, counting start tags only) costs
  9-10 ns a byte, about 2x selectolax's parse of an ordinary page (4-5 ns a byte);
  at one per 64 bytes (the budget before issue 15's last round) '<p>x' * N
  cost 3.3-3.6x (benchmarks/fuzz.py shapes --only run-p);
- 2 * (GUARD_ELEMENTS_BASE + n // GUARD_BYTES_PER_ELEMENT) attributes.

Past a budget the runs of text between the dropped tags reach lexbor as one
text token, and the rest of the page reaches it with its tags stripped.

Memory cap of batches (`fastx.extract_many`, `fastx batch --memory-limit`):
every worker process gets RLIMIT_AS = BATCH_MEMORY_LIMIT bytes unless the
caller passes another `memory_limit` (None or 0: no cap).  An input of n bytes
needs about 0.5 GB + 60 n at the most (fuzz figures in benchmarks/fuzz.py
`shapes`), so 4 GiB covers pages up to ~50 MB.
"""
from typing import Literal

GUARD_COPIED_BASE = 1 << 20
GUARD_COPIED_PER_BYTE = 2
GUARD_ELEMENTS_BASE = 24576
GUARD_BYTES_PER_ELEMENT = 256

BATCH_MEMORY_LIMIT = 4 << 30

# Input size and time limits of the entry points (each module keeps its public name for it):
PARSE_MAX_BYTES = 512 * 1024 * 1024   # fastx.parse / extract: larger input -> InputError (core/parse.py MAX_BYTES)
BATCH_TIMEOUT = 60.0                  # seconds per page in batches (pipeline/batch.py DEFAULT_TIMEOUT)
FETCH_TIMEOUT = 30.0                  # seconds for a whole HTTP exchange, connect min(10, this) (pipeline/fetch.py)
FETCH_MAX_BYTES = 20 * 1024 * 1024    # decoded body size cap of a fetched page (pipeline/fetch.py MAX_BYTES)
FETCH_MAX_REDIRECTS = 5               # redirects followed (pipeline/fetch.py MAX_REDIRECTS)

# Environment knob: FASTX_BYTE_GUARD=1 forces the portable byte-level guard (guard_html) instead of
# the guarded parse through lexbor's entry points (read once, at import of core/parse.py).
BYTE_GUARD_ENV = "FASTX_BYTE_GUARD"


def _address_space() -> int:
    """Bytes of address space this process maps now (Linux /proc; 0 where unknown)."""
    import os
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


class limit_memory:
    """Cap this process's memory for a block of fastx calls and get a typed error instead of
    the kernel's out-of-memory kill::

        with fastx.limit_memory(2 << 30):        # 2 GiB more than the process maps now
            r = fastx.extract(page)               # fastx.OutOfMemoryError past the cap

    Sets the address-space limit (RLIMIT_AS, POSIX) to what the process maps on entry plus
    `nbytes` and restores the previous limit on exit; a MemoryError raised inside (Python,
    NumPy, or lexbor failing to allocate) leaves as ``fastx.OutOfMemoryError``.  The limit
    is the process's: other threads share it.  Where RLIMIT_AS does not exist (Windows) only
    the MemoryError mapping applies.  Batches (``fastx.extract_many``) cap each worker
    process themselves (``memory_limit``, on by default).
    """

    def __init__(self, nbytes: int):
        if int(nbytes) <= 0:
            from .errors import InputError
            raise InputError(f"limit_memory needs a positive number of bytes, got {nbytes!r}")
        self.nbytes = int(nbytes)
        self._saved: tuple[int, int] | None = None

    def __enter__(self) -> "limit_memory":
        try:
            import resource
        except ImportError:
            return self
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = _address_space() + self.nbytes
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        if soft == resource.RLIM_INFINITY or want < soft:
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))
            self._saved = (soft, hard)
        return self

    def __exit__(self, kind, exc, tb) -> Literal[False]:
        if self._saved is not None:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, self._saved)
            self._saved = None
        if kind is not None and issubclass(kind, MemoryError):
            from .errors import FastxError, OutOfMemoryError
            if isinstance(exc, FastxError):
                return False
            raise OutOfMemoryError(f"the page needed more than the {self.nbytes:,} bytes of memory "
                                   f"allowed by fastx.limit_memory") from None
        return False
