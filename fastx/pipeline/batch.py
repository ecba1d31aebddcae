"""Batch extraction: many pages, worker processes, a per-page time limit, nothing lost.

>>> import fastx
>>> for rec in fastx.extract_many(pages, jobs=4, timeout=30):
...     rec["url"], rec["title"], rec["text"], rec["error"]

:func:`extract_many` yields exactly one record (a dict) per input, in input
order.  A page that fails -- bad input, a parser error, longer than the time
limit, a worker process that dies under it (a segfault, the out-of-memory
killer) -- yields an error record instead of a result, and the batch goes on:

    {"input": ..., "url": ..., "title": ..., "description": ..., "text": ...,
     "method": ..., "error": None | "ExtractionTimeout: ..."}

Inputs may be ``bytes``/``str`` (the HTML), :class:`Page` objects (HTML or a
file path, with URL, encoding hint and a name), dicts with the same keys, or
``(url, html)`` tuples.

Execution (``jobs``):

- ``jobs >= 1``: that many worker processes (default start method
  ``forkserver``, with fastx and its models preloaded (fastx.pipeline.warm), so replacing a
  killed worker is cheap).
  The per-page ``timeout`` is enforced by killing the worker and starting
  another; the pages queued behind it are re-sent, never lost.
- ``jobs=0``: in the calling process, one page after another (no isolation:
  the time limit is not enforced).
- ``threads=True``: ``jobs`` threads of the calling process.  fastx's parser
  and kernels release the GIL, so threads scale on multi-core machines; the
  time limit is not enforced (a thread cannot be killed).
"""
from __future__ import annotations

import argparse
import contextlib
import inspect
import os
import queue
import signal
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from .. import api
from ..output import metadata as _metadata_fields
from ..methods import get as _get_method
from ..config import BATCH_MEMORY_LIMIT, BATCH_TIMEOUT
from ..errors import FastxError, InputError

__all__ = ["Page", "BatchStats", "extract_many", "DEFAULT_TIMEOUT", "DEFAULT_MEMORY_LIMIT"]

DEFAULT_TIMEOUT = BATCH_TIMEOUT      # seconds per page (fastx/config.py)
DEFAULT_MEMORY_LIMIT = BATCH_MEMORY_LIMIT >> 20     # MB of address space per worker (fastx/config.py)
_PREFETCH = 2               # pages queued per worker (one running, one waiting)


@dataclass
class Page:
    """One input page: `html` (bytes or str) or a file `path` read by the worker.

    `url` and `encoding` (an HTTP charset or Content-Type, a hint) are passed
    to :func:`fastx.extract`; `input` names the page in its record (a file
    path, a WARC record id, a row number).  A page whose reading already
    failed carries the message in `error`; its record reports it.
    """
    html: "bytes | str | None" = None
    url: str | None = None
    encoding: str | None = None
    input: str | None = None
    path: str | None = None
    error: str | None = None


@dataclass
class BatchStats:
    """Counters of one :func:`extract_many` run (filled as records are yielded)."""
    pages: int = 0
    errors: int = 0
    bytes: int = 0
    seconds: float = 0.0
    timeouts: int = 0
    crashes: int = 0
    _start: float = field(default=0.0, repr=False)

    @property
    def pages_per_s(self) -> float:
        """Pages per second of wall time so far."""
        return self.pages / self.seconds if self.seconds > 0 else 0.0

    @property
    def mb_per_s(self) -> float:
        """Megabytes (10^6 bytes) of input per second of wall time so far."""
        return self.bytes / 1e6 / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> str:
        """One line: pages, errors (timeouts, crashes), MB, seconds, pages/s and MB/s."""
        return (f"{self.pages:,} pages, {self.errors:,} errors ({self.timeouts} timeouts, "
                f"{self.crashes} worker crashes), {self.bytes / 1e6:,.1f} MB in {self.seconds:.1f} s: "
                f"{self.pages_per_s:,.1f} pages/s, {self.mb_per_s:,.1f} MB/s")


# ---------------------------------------------------------------- one page

def _record(page: Page | None, method: str) -> dict:
    return {"input": page.input if page else None, "url": page.url if page else None, "title": None,
            "description": None, "text": None, "method": method, "error": None}


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _run_one(page: Page, method: str, params: dict, outputs: int) -> tuple[dict, int]:
    """Extract one page; (record without 'input', bytes read).  Never raises for a page's fault.
    `outputs`: the extra fields, OUT_HTML | OUT_MARKDOWN bits (a bool: html or not)."""
    rec = _record(page, method)
    del rec["input"]
    nbytes = 0
    if page.error is not None:
        rec["error"] = page.error
        return rec, 0
    try:
        html = page.html
        if html is None and page.path is not None:
            try:
                with open(page.path, "rb") as f:
                    html = f.read()
            except OSError as exc:
                raise InputError(f"cannot read {page.path}: {exc.strerror or exc}") from None
        if html is None:
            raise InputError("the page has no HTML (neither html nor path given)")
        nbytes = len(html)
        r = api.extract(html, url=page.url, method=method, encoding=page.encoding, **params)
        rec.update(r.to_dict(html=bool(outputs & OUT_HTML), markdown=bool(outputs & OUT_MARKDOWN)))
    except FastxError as exc:
        rec["error"] = _error_text(exc)
    except MemoryError:     # the worker's memory_limit (RLIMIT_AS) or the machine's memory
        rec["error"] = "OutOfMemoryError: not enough memory to extract this page (the batch's memory_limit)"
    except Exception as exc:  # a bug (fastx raises only FastxError): recorded, the batch goes on
        rec["error"] = f"InternalError: {_error_text(exc)}"
    return rec, nbytes


def _as_page(item: Any, index: int) -> "Page | str":
    """Normalize one input item to a Page, or return an error message."""
    if isinstance(item, Page):
        return item
    if isinstance(item, (bytes, bytearray, memoryview)):
        return Page(html=bytes(item))
    if isinstance(item, str):
        return Page(html=item)
    if isinstance(item, dict):
        unknown = set(item) - {"html", "url", "encoding", "input", "path", "error"}
        if unknown:
            return f"InputError: item {index}: unknown keys {sorted(unknown)} (use html, url, encoding, input, path)"
        return Page(**item)
    if isinstance(item, tuple) and len(item) == 2:
        return Page(url=item[0], html=item[1])
    return (f"InputError: item {index} is a {type(item).__name__}; give HTML (bytes/str), a fastx.Page, "
            "a dict with 'html' or 'path', or a (url, html) tuple")


def _default_method() -> str:
    return inspect.signature(api.extract).parameters["method"].default


def _check(method: str, params: dict) -> None:
    """Fail fast on the caller's mistakes (a bad method or parameter name) instead of once per page."""
    m = _get_method(method)
    api_params = set(inspect.signature(api.extract).parameters) - {"html", "url", "method", "encoding", "params"}
    bad = [k for k in params if k not in m.params and k not in api_params]
    if bad:
        raise InputError(f"method {method!r} has no parameter {', '.join(map(repr, bad))}; "
                         f"it takes: {', '.join(m.params) or 'none'}")


# ---------------------------------------------------------------- public entry point

def extract_many(pages: Iterable, jobs: int = 1, *, method: str | None = None,
                 timeout: float | None = DEFAULT_TIMEOUT, html: bool = False, threads: bool = False,
                 progress: bool = False, stats: BatchStats | None = None, start_method: str | None = None,
                 initializer: Callable | None = None, initargs: tuple = (),
                 memory_limit: int | None = DEFAULT_MEMORY_LIMIT, markdown: bool = False,
                 **params) -> Iterator[dict]:
    """Extract many pages; yield one record per input, in input order.

    pages: an iterable (read lazily) of HTML bytes/str, :class:`Page`,
        dicts (html/path, url, encoding, input) or (url, html) tuples.
    jobs: worker processes (0: in this process; with ``threads=True``: threads).
    method, **params: as for :func:`fastx.extract` (default: its default method).
    timeout: seconds per page (worker processes only); a page over it yields
        an ``ExtractionTimeout`` record and its worker is replaced.
    html: add the cleaned HTML of the kept nodes to each record.
    markdown: add the Markdown of the kept nodes (``Extraction.markdown``) to each record.
    progress: a progress bar on stderr (needs tqdm: ``pip install fastx-extract[progress]``).
    stats: a :class:`BatchStats` to fill (pages, errors, bytes, seconds).
    start_method: multiprocessing start method (default forkserver where available).
    initializer, initargs: called in each worker process at start.
    memory_limit: address-space limit (RLIMIT_AS) per worker process in MB,
        on by default (DEFAULT_MEMORY_LIMIT, fastx/config.py); None or 0: none.
        A page over it yields an ``OutOfMemoryError`` record (or, if the
        worker dies of it, a ``WorkerCrash`` record) and the batch goes on.
        Worker processes only: with ``jobs=0`` or ``threads=True`` use
        ``fastx.limit_memory`` around the call.

    Raises only for the caller's mistakes (unknown method, bad parameter
    names, jobs < 0); everything a page does becomes its record.
    """
    method = method or _default_method()
    _check(method, params)
    if jobs < 0:
        raise InputError(f"jobs must be >= 0, got {jobs}")
    if timeout is not None and timeout <= 0:
        raise InputError(f"timeout must be positive seconds or None, got {timeout}")
    if memory_limit is not None and memory_limit < 0:
        raise InputError(f"memory_limit must be MB >= 0 or None, got {memory_limit}")
    st = stats if stats is not None else BatchStats()
    st._start = time.perf_counter()
    outputs = (OUT_HTML if html else 0) | (OUT_MARKDOWN if markdown else 0)     # _run_one's extra fields
    if threads and jobs >= 1:
        gen = _threaded(pages, jobs, method, params, outputs, st)
    elif jobs == 0:
        gen = _inline(pages, method, params, outputs, st)
    else:
        gen = _Pool(jobs, method, params, outputs, timeout, start_method, initializer, initargs,
                    memory_limit, st).run(pages)
    if progress:
        gen = _with_progress(gen, st, pages)
    return gen


def _count(st: BatchStats, rec: dict, nbytes: int) -> dict:
    st.pages += 1
    st.bytes += nbytes
    if rec["error"] is not None:
        st.errors += 1
    st.seconds = time.perf_counter() - st._start
    return rec


def _inline(pages, method, params, outputs, st) -> Iterator[dict]:
    for i, item in enumerate(pages):
        page = _as_page(item, i)
        if isinstance(page, str):
            rec, nbytes = _record(None, method), 0
            rec["error"] = page
        else:
            rec, nbytes = _run_one(page, method, params, outputs)
            rec = {"input": page.input, **rec}
        yield _count(st, rec, nbytes)


def _threaded(pages, jobs, method, params, outputs, st) -> Iterator[dict]:
    from concurrent.futures import ThreadPoolExecutor

    def one(i_item):
        i, item = i_item
        page = _as_page(item, i)
        if isinstance(page, str):
            rec = _record(None, method)
            rec["error"] = page
            return rec, 0
        rec, nbytes = _run_one(page, method, params, outputs)
        return {"input": page.input, **rec}, nbytes

    window = max(16, 8 * jobs)
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="fastx") as ex:
        futures: deque = deque()
        for i_item in enumerate(pages):
            futures.append(ex.submit(one, i_item))
            if len(futures) >= window:
                yield _count(st, *futures.popleft().result())
        while futures:
            yield _count(st, *futures.popleft().result())


def _with_progress(gen, st: BatchStats, pages) -> Iterator[dict]:
    try:
        from tqdm import tqdm
    except ImportError:
        raise InputError("the progress bar needs tqdm: pip install 'fastx-extract[progress]'") from None
    try:
        total = len(pages)  # type: ignore[arg-type,unused-ignore]
    except TypeError:
        total = None
    with tqdm(total=total, unit=" pages", dynamic_ncols=True, smoothing=0.1, mininterval=0.5) as bar:
        for rec in gen:
            bar.update(1)
            if st.pages % 64 == 0:
                bar.set_postfix_str(f"{st.mb_per_s:.1f} MB/s, {st.errors} errors", refresh=False)
            yield rec


# ---------------------------------------------------------------- worker processes

def _worker_main(tasks, results, method, params, outputs, initializer, initargs, memory_limit):
    """A worker process: read (seq, Page) from `tasks`, send (seq, record, bytes) to `results`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C and stops us
    if memory_limit:
        import resource
        limit = int(memory_limit) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if initializer is not None:
        initializer(*initargs)
    from . import warm  # noqa: F401  (the models loaded; already so in a forkserver's worker)
    while True:
        try:
            task = tasks.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        seq, page = task
        rec, nbytes = _run_one(page, method, params, outputs)
        results.send((seq, rec, nbytes))


class _Worker:
    """One worker process, its two pipes and the thread that feeds it (so that a
    large page being sent never blocks reading results: no pipe deadlock)."""

    def __init__(self, ctx, args):
        tasks_r, self._tasks_w = ctx.Pipe(duplex=False)
        self.results, results_w = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_worker_main, args=(tasks_r, results_w) + args, daemon=True,
                                name="fastx-worker")
        with _worker_env():
            self.proc.start()
        tasks_r.close()
        results_w.close()
        self.inflight: deque = deque()      # seq numbers sent, oldest (running) first
        self.started = 0.0                  # when the oldest in-flight page began
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._feeder = threading.Thread(target=self._feed, name="fastx-feeder", daemon=True)
        self._feeder.start()

    def _feed(self):
        conn = self._tasks_w
        try:
            while True:
                task = self._queue.get()
                if task is None:
                    conn.send(None)
                    return
                conn.send(task)
        except (OSError, EOFError, ValueError):
            return                          # the worker is gone; the pool notices and re-sends
        finally:
            conn.close()

    def send(self, seq: int, page: Page) -> None:
        if not self.inflight:
            self.started = time.monotonic()
        self.inflight.append(seq)
        self._queue.put((seq, page))

    def stop(self, kill: bool) -> None:
        self._queue.put(None)
        if kill and self.proc.is_alive():
            self.proc.kill()
        self.proc.join(timeout=None if kill else 5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self._feeder.join(timeout=5)
        self.results.close()
        self.proc.close()


# A worker is one thread of work: numeric libraries must not start a thread pool per worker
# (OpenBLAS's spinning threads cost up to a third of the throughput with two workers on two cores).
# glibc's malloc: blocks of 1 MB and more (a large page's Doc arrays and text) by mmap, the smaller
# ones (lexbor's arena chunks, a typical page's arrays) from the heap, whose top is handed back to
# the OS past 4 MB free. Fixed, these thresholds stop glibc's adaptive ones from following the
# largest page seen (a long run's RSS then grows with its high-water mark: +7% over 40,000
# extractions), and the heap's pages are reused from page to page instead of being mapped and
# zeroed again: benchmarks/fuzz.py memory, 100,000 extractions, 1,958 a second at RSS +1.0% (97 MB;
# method cetd: 2,801 a second, +3.9%, level at 103.5 MB over 200,000), against 1,488 a second
# and +0.7% with every block over 64 KB mapped (the threshold before); a batch of 4,259 dev pages
# with two workers: about 7% more pages a second.
_WORKER_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "MALLOC_MMAP_THRESHOLD_": "1048576", "MALLOC_TRIM_THRESHOLD_": "4194304"}


@contextlib.contextmanager
def _worker_env():
    """The environment a worker (or the forkserver it forks from) starts with; the caller's is restored.
    Variables the caller set are left as they are."""
    saved = {k: os.environ.get(k) for k in _WORKER_ENV}
    os.environ.update({k: v for k, v in _WORKER_ENV.items() if saved[k] is None})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)


def _context(start_method):
    import multiprocessing as mp
    if start_method is None:
        start_method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
    ctx = mp.get_context(start_method)
    if start_method == "forkserver":
        # workers fork from a server that has fastx imported: a replacement starts in milliseconds
        ctx.set_forkserver_preload(["fastx", "fastx.batch", "fastx.pipeline.warm"])
    return ctx


def _signal_name(code: int | None) -> str:
    if code is None:
        return "unknown"
    if code < 0:
        try:
            return signal.Signals(-code).name
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


class _Pool:
    def __init__(self, jobs, method, params, outputs, timeout, start_method, initializer, initargs,
                 memory_limit, st):
        self.jobs = jobs
        self.method = method
        self.timeout = timeout
        self.st = st
        self.ctx = _context(start_method)
        self.args = (method, params, outputs, initializer, initargs, memory_limit)
        self.window = max(64, 16 * jobs)    # pages read ahead of the oldest unfinished one

    def run(self, pages) -> Iterator[dict]:
        from multiprocessing.connection import wait
        workers = [_Worker(self.ctx, self.args) for _ in range(self.jobs)]
        source = enumerate(pages)
        exhausted = False
        waiting: dict[int, Page] = {}       # seq -> page, sent or to be (re)sent
        retry: deque = deque()              # seqs to send again (their worker was replaced)
        done: dict[int, tuple[dict, int]] = {}
        next_seq = 0                        # next sequence number to read from `pages`
        next_out = 0                        # next sequence number to yield
        try:
            while True:
                # 1. hand out pages: re-sends first, then new ones, up to the window
                for k, w in enumerate(workers):
                    if not w.inflight and not w.proc.is_alive():
                        w.stop(kill=True)            # died while idle: replace it before use
                        workers[k] = w = _Worker(self.ctx, self.args)
                    while len(w.inflight) < _PREFETCH:
                        if retry:
                            seq = retry.popleft()
                        elif not exhausted and next_seq - next_out < self.window:
                            try:
                                i, item = next(source)
                            except StopIteration:
                                exhausted = True
                                break
                            seq, next_seq = next_seq, next_seq + 1
                            page = _as_page(item, i)
                            if isinstance(page, str):
                                rec = _record(None, self.method)
                                rec["error"] = page
                                done[seq] = (rec, 0)
                                continue
                            waiting[seq] = page
                        else:
                            break
                        w.send(seq, waiting[seq])
                # 2. yield what is finished, in order
                while next_out in done:
                    rec, nbytes = done.pop(next_out)
                    next_out += 1
                    yield _count(self.st, rec, nbytes)
                if exhausted and next_out == next_seq:
                    return
                # 3. wait for results, a worker's death, or the nearest deadline
                busy = [w for w in workers if w.inflight]
                if not busy:
                    continue
                wait_for = None
                if self.timeout is not None:
                    nearest = min(w.started for w in busy) + self.timeout
                    wait_for = max(0.0, nearest - time.monotonic())
                ready = set(wait([w.results for w in busy] + [w.proc.sentinel for w in busy], wait_for))
                now = time.monotonic()
                for k, w in enumerate(workers):
                    if not w.inflight:
                        continue
                    if w.results in ready or w.proc.sentinel in ready:
                        self._drain(w, waiting, done, now)
                    failure = None
                    if w.inflight and not w.proc.is_alive():
                        self._drain(w, waiting, done, now)   # results sent just before it died
                        if w.inflight:
                            failure = (f"WorkerCrash: the worker process died "
                                       f"({_signal_name(w.proc.exitcode)}) while extracting this page")
                            self.st.crashes += 1
                    elif w.inflight and self.timeout is not None and now - w.started > self.timeout:
                        failure = (f"ExtractionTimeout: extraction took longer than {self.timeout:g} s; "
                                   "the worker was stopped")
                        self.st.timeouts += 1
                    if failure is not None:
                        seq = w.inflight.popleft()
                        page = waiting.pop(seq)
                        rec = _record(page, self.method)
                        rec["error"] = failure
                        done[seq] = (rec, len(page.html) if page.html is not None else 0)
                        retry.extendleft(reversed(w.inflight))
                        w.inflight.clear()
                        w.stop(kill=True)
                        workers[k] = _Worker(self.ctx, self.args)
        finally:
            for w in workers:
                w.stop(kill=bool(w.inflight))

    def _drain(self, w: _Worker, waiting, done, now) -> None:
        """Collect every result the worker has sent."""
        try:
            while w.results.poll():
                seq, rec, nbytes = w.results.recv()
                if not w.inflight or w.inflight[0] != seq:
                    continue                    # not expected (never happens: a worker answers in order)
                w.inflight.popleft()
                w.started = now
                page = waiting.pop(seq)
                done[seq] = ({"input": page.input, **rec}, nbytes)
        except (EOFError, OSError):
            pass


# ---------------------------------------------------------------- command line (`fastx extract`)

_RECORD_FIELDS: tuple[str, ...] = ("input", "url", "title", "description", "text", "method", "error")
# the page metadata, flat (fastx.metadata.FIELDS; title and description are already above)
_RECORD_FIELDS += tuple(f for f in _metadata_fields.FIELDS if f not in _RECORD_FIELDS)
OUT_HTML, OUT_MARKDOWN = 1, 2       # extra record fields (extract_many's html= and markdown=)


def add_arguments(ap) -> None:
    """The batch options of ``fastx extract`` (the command's parser adds inputs, --method, --format...)."""
    ap.add_argument("--files-from", metavar="LIST", action="append", default=[],
                    help="read input paths from LIST, one a line ('-': stdin); may repeat")
    ap.add_argument("-o", "--output", metavar="FILE|DIR",
                    help="write here instead of stdout (.parquet: Parquet); an existing directory or a "
                         "path ending in '/': one file per input (.txt, .json, .html, .md by --format)")
    ap.add_argument("-j", "--jobs", type=int, default=None,
                    help="worker processes (default: 1 for batches, 0 = in this process for one page)")
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                    help=f"seconds per page before its worker is stopped (default {DEFAULT_TIMEOUT:g}; 0: none)")
    ap.add_argument("--memory-limit", type=float, default=DEFAULT_MEMORY_LIMIT, metavar="MB",
                    help=f"address space per worker process (default {DEFAULT_MEMORY_LIMIT:g} MB; 0: none); "
                         "a page over it gets an OutOfMemoryError record")
    ap.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bar on stderr (default: when stderr is a terminal; needs tqdm)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no summary and no per-page error lines")
    ap.add_argument("--all-responses", action="store_true",
                    help="WARC input: every response record, not only HTML ones")


def _stdin_pages(args) -> Iterator[Page]:
    from .warc import is_warc, read_warc
    stream = sys.stdin.buffer
    head = stream.peek(4096)[:4096] if hasattr(stream, "peek") else b""
    if is_warc("", head):
        yield from read_warc(stream, html_only=not args.all_responses, name="<stdin>")
    else:
        yield Page(html=stream.read(), url=args.url, input="<stdin>")


def _not_a_file(path: str) -> str | None:
    """Why a directory entry is not a regular file fastx may open (None if it is one).
    Never opens it: opening a FIFO for reading blocks until a writer comes."""
    import errno
    import stat
    try:
        st = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop"
        if exc.errno == errno.ENOENT and os.path.islink(path):
            return "a dangling symbolic link"
        return f"not readable ({exc.strerror or exc})"
    if stat.S_ISREG(st.st_mode):
        return None
    if stat.S_ISDIR(st.st_mode):
        return "a symbolic link to a directory (not followed)"
    kind = ("a FIFO" if stat.S_ISFIFO(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode)
            else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a regular file")
    return f"{kind}, not a file (not opened)"


def _dir_entries(root: str) -> list[tuple[str, str | None]]:
    """(path, why it is not a readable file or None) for every entry under `root` but the
    directories walked into, sorted by path; symbolic links to directories are not followed."""
    out = []
    for d, dirs, files in os.walk(root, followlinks=False):
        for name in dirs:
            full = os.path.join(d, name)
            if os.path.islink(full):
                out.append((full, _not_a_file(full)))
        for name in files:
            full = os.path.join(d, name)
            out.append((full, _not_a_file(full)))
    return sorted(out)


def _file_pages(path: str, args) -> Iterator[Page]:
    from .warc import is_warc, read_warc
    p = Path(path)
    if p.is_dir():
        entries = _dir_entries(path)
    else:
        entries = [(path, None)]
    for f, why in entries:
        if why is not None:
            yield Page(input=f, error=f"InputError: {f} is {why}")
            continue
        if is_warc(f):
            try:
                yield from read_warc(f, html_only=not args.all_responses)
            except FastxError as exc:
                yield Page(input=f, error=_error_text(exc))
        else:
            yield Page(path=f, url=args.url, input=f)


def _url_pages(urls, args) -> Iterator[Page]:
    """http(s) URLs fetched one after another (fastx.fetch: limits, charset, error records)."""
    from .fetch import MAX_BYTES, DEFAULT_TIMEOUT, fetch_many
    max_mb = getattr(args, "max_download", None)
    yield from fetch_many(urls, timeout=getattr(args, "fetch_timeout", None) or DEFAULT_TIMEOUT,
                          max_bytes=int(max_mb * 1024 * 1024) if max_mb else MAX_BYTES)


def _listed(listing: str, urls: bool = False) -> Iterator[str]:
    """The non-empty lines of a list file ('-': stdin): file paths as written (only the line
    end removed), or URLs (stripped, '#' lines skipped)."""
    try:
        lines = sys.stdin if listing == "-" else open(listing, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise InputError(f"cannot read the {'URL' if urls else 'file'} list {listing}: "
                         f"{exc.strerror or exc}") from None
    with lines if listing != "-" else contextlib.nullcontext():
        for line in lines:
            line = line.strip() if urls else line.rstrip("\r\n")
            if line and not (urls and line.startswith("#")):
                yield line


def cli_pages(args) -> Iterator[Page]:
    """The pages named on the command line, lazily: files, directories (recursive, sorted),
    '-' (one page, or a WARC stream), WARC files, http(s) URLs (fetched), the paths listed
    in --files-from and the URLs listed in --urls-from."""
    from .fetch import is_url
    for src in args.inputs:
        if src == "-":
            yield from _stdin_pages(args)
        elif is_url(src):
            yield from _url_pages([src], args)
        else:
            yield from _file_pages(src, args)
    for listing in args.files_from:
        for path in _listed(listing):
            yield from _file_pages(path, args)
    for listing in getattr(args, "urls_from", None) or ():
        yield from _url_pages(_listed(listing, urls=True), args)


def _single_page(args) -> bool:
    """One HTML file or stdin page: the classic `fastx extract page.html` (text out, no workers)."""
    from .warc import is_warc
    from .fetch import is_url
    if args.files_from or getattr(args, "urls_from", None) or len(args.inputs) != 1:
        return False
    src = args.inputs[0]
    if is_url(src):
        return True
    if src == "-":
        stream = sys.stdin.buffer
        return not (hasattr(stream, "peek") and is_warc("", stream.peek(4096)[:4096]))
    return not Path(src).is_dir() and not is_warc(src)


class _ParquetSink:
    """Records to a Parquet file, one row group per 1,000 records (needs pyarrow)."""

    def __init__(self, path: str, with_html: bool, with_markdown: bool = False):
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:
            raise InputError("Parquet output needs pyarrow: pip install 'fastx-extract[parquet]'") from None
        self.pa = pa
        self.fields = _RECORD_FIELDS + (("html",) if with_html else ()) + \
            (("markdown",) if with_markdown else ())
        self.schema = pa.schema([(f, pa.string()) for f in self.fields])
        self.writer = pq.ParquetWriter(path, self.schema, compression="zstd")
        self.rows: list[dict] = []

    def write(self, rec: dict) -> None:
        self.rows.append(rec)
        if len(self.rows) >= 1000:
            self.flush()

    def flush(self) -> None:
        if self.rows:
            cols = {f: [None if r.get(f) is None else str(r.get(f)) for r in self.rows] for f in self.fields}
            self.writer.write_table(self.pa.table(cols, schema=self.schema))
            self.rows = []

    def close(self) -> None:
        self.flush()
        self.writer.close()


class _DirSink:
    """``-o DIR``: one file per input in DIR, named after the input (its file name, or a URL's
    host and path) reduced to safe characters, with the format's extension; a name already
    written gets ``-2``, ``-3``...  Inputs that failed get no file in text/html formats (their
    error goes to stderr) and their error record in JSON."""

    EXT = {"text": ".txt", "json": ".json", "html": ".html", "markdown": ".md"}
    _RESERVED = frozenset(["con", "prn", "aux", "nul"] + [f"com{i}" for i in range(10)] +
                          [f"lpt{i}" for i in range(10)])

    @staticmethod
    def wanted(output: str | None) -> bool:
        """-o names a directory: an existing one, or a path ending with a separator."""
        return output is not None and output != "" and (output.endswith(("/", os.sep)) or Path(output).is_dir())

    def __init__(self, path: str, fmt: str):
        self.dir = Path(path)
        self.ext = self.EXT.get(fmt, "." + fmt)
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the output directory {path}: {exc.strerror or exc}") from None
        self.used: set[str] = set()
        self.written = 0

    @classmethod
    def safe_name(cls, name: str | None) -> str:
        """A file name stem from an input name: ASCII letters, digits, '.', '-', '_' (at most
        100), never empty, hidden, '..' or a Windows device name."""
        import re
        from urllib.parse import urlsplit
        name = name or "page"
        if "://" in name:
            u = urlsplit(name)
            name = (u.netloc + u.path.rstrip("/")) or "page"
        else:
            name = Path(name.replace("\\", "/")).name
            for suffix in (".gz", ".html", ".htm", ".xhtml", ".shtml", ".php", ".asp", ".aspx"):
                if name.lower().endswith(suffix) and len(name) > len(suffix):
                    name = name[: -len(suffix)]
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._-")[:100] or "page"
        if stem.split(".")[0].lower() in cls._RESERVED:
            stem = "_" + stem
        return stem

    def write(self, rec: dict, payload: str | None) -> None:
        if payload is None:
            return
        stem = self.safe_name(rec.get("input") or rec.get("url"))
        name, k = stem + self.ext, 1
        while name.lower() in self.used:
            k += 1
            name = f"{stem}-{k}{self.ext}"
        self.used.add(name.lower())
        try:
            with open(self.dir / name, "w", encoding="utf-8") as f:
                f.write(payload if payload.endswith("\n") else payload + "\n")
        except OSError as exc:
            raise InputError(f"cannot write {self.dir / name}: {exc.strerror or exc}") from None
        self.written += 1

    def close(self) -> None:
        pass


def run_extract(args, method_params: dict) -> int:
    """``fastx extract``: one page -> its text; many -> JSON lines (or Parquet), one record per
    input in input order, a summary on stderr.  Exit code 1 if any page failed."""
    import json
    if not args.inputs and not args.files_from and not getattr(args, "urls_from", None):
        raise InputError("nothing to extract: give HTML files, directories, WARC files, URLs, - for stdin, "
                         "--files-from LIST or --urls-from LIST")
    single = _single_page(args)
    to_dir = _DirSink.wanted(args.output)
    fmt = args.format
    if fmt is None:
        out_name = (args.output or "").lower()
        fmt = "parquet" if out_name.endswith(".parquet") and not to_dir else \
            ("text" if single or to_dir else "json")
    if fmt == "jsonl":
        fmt = "json"
    if fmt == "parquet" and (not args.output or to_dir):
        raise InputError("--format parquet needs --output FILE.parquet")
    jobs = args.jobs if args.jobs is not None else (0 if single else 1)
    with_html = fmt == "html" or (fmt != "text" and args.html)
    with_md = fmt == "markdown" or (fmt in ("json", "parquet") and getattr(args, "markdown", False))
    show_progress = args.progress if args.progress is not None else (not single and sys.stderr.isatty())
    if show_progress:
        try:
            import tqdm  # noqa: F401
        except ImportError:
            if args.progress:
                raise InputError("--progress needs tqdm: pip install 'fastx-extract[progress]'") from None
            show_progress = False
    params = dict(method_params)
    method = params.pop("method")
    st = BatchStats()
    records = extract_many(cli_pages(args), jobs=jobs, method=method, timeout=args.timeout or None,
                           html=with_html, markdown=with_md, progress=show_progress, stats=st,
                           memory_limit=getattr(args, "memory_limit", DEFAULT_MEMORY_LIMIT) or None, **params)
    sink: _ParquetSink | _DirSink | None = None
    out = sys.stdout
    if fmt == "parquet":
        sink = _ParquetSink(args.output, with_html, with_md)
    elif to_dir:
        sink = _DirSink(args.output, fmt)
    elif args.output:
        out = open(args.output, "w", encoding="utf-8")
    try:
        for rec in records:
            if rec["error"] is not None and fmt in ("text", "html") and not args.quiet:
                print(f"fastx: {rec['input']}: {rec['error']}", file=sys.stderr)
            if sink is not None and not isinstance(sink, _DirSink):
                sink.write(rec)
                continue
            if fmt == "json":
                line = json.dumps({k: rec.get(k) for k in _RECORD_FIELDS + (("html",) if with_html else ())
                                   + (("markdown",) if with_md else ())}, ensure_ascii=False)
            elif rec["error"] is None:
                line = rec["html"] if fmt == "html" else (rec["markdown"] if fmt == "markdown" else rec["text"])
            else:
                line = None
            if sink is not None:
                sink.write(rec, line)           # -o DIR: one file per input
            elif line is not None:
                out.write(line + "\n")
    finally:
        if sink is not None:
            sink.close()
        elif out is not sys.stdout:
            out.close()
        else:
            out.flush()
    if not single and not args.quiet:
        print(f"fastx: {st.summary()}", file=sys.stderr)
    return 1 if st.errors else 0
