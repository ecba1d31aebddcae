"""Real layout from headless Chromium: per-node boxes and computed CSS.

Two source papers use what a browser shows.  CETD's Visual Importance and
Hybrid Text Density (seeds/004, Sect. 3.4, Def. 3.3-3.4) need each DOM node's
horizontal extent; the site rules (seeds/001) cluster text blocks on computed
CSS.  This module renders a parsed page in the system's Chromium, driven by
playwright (``pip install 'fastx-extract[render]'``; Debian: ``apt-get install
chromium``), and returns a :class:`Layout` aligned with the page's
:class:`~fastx.Doc`::

    import fastx
    from fastx.tools.browser import Renderer

    doc = fastx.parse(html)
    with Renderer(pages=4, cache_dir="layouts/") as r:
        layout = r.render(doc)                  # one browser serves a batch
    layout.boxes[i]                             # [x, y, width, height] in CSS px
    layout.css(i)                               # {"display": "block", "font-size": "16px", ...}
    fastx.extract(doc, method="cetd", variant="htd", layout=layout)   # CEHTD-DS
    fastx.extract(html, method="cetd", variant="htd", render=True)     # the same, one call

How the two DOMs are kept together: the page is serialized from the very
lexbor tree the Doc was built from (``fastx._core.render_markup``), every Doc
element carrying ``data-fx="<index>"`` and every Doc text node preceded by a
``<!--fx:<index>-->`` comment; the browser reports boxes by those marks, so a
node the browser moves, drops or adds cannot shift any other node's box.
Head styles and elements the Doc drops (hidden, svg, iframe...) are kept, so
the layout is the page's own; scripts are off and every network request is
aborted unless asked otherwise (``scripts=True``; the network stays off).

A layout is tied to its Doc by a fingerprint of the node arrays
(:meth:`Layout.check`) and is saved as one compressed ``.npz`` per page
(:meth:`Layout.save`, :meth:`Layout.load`; ``Renderer(cache_dir=...)`` keys
files by the marked markup), so a pipeline renders once and extracts many
times.  A parsed Doc carries its layout in ``doc.cache["layout"]`` once
:func:`attach` (or ``extract(..., render=/layout=)``) put it there.
"""
from __future__ import annotations

import asyncio
import atexit
import collections
import hashlib
import json
import os
import shutil
import threading
import time
import weakref
import zlib
from pathlib import Path
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from .. import _core
from ..errors import InputError, RenderError

__all__ = ["Layout", "Renderer", "CssMap", "render", "attach", "page_styles", "markup", "fingerprint", "default_renderer",
           "find_chromium", "STYLE_PROPS", "CHROMIUM_FLAGS"]

#: Computed CSS properties recorded per node (the site paper's visual features:
#: font configuration, color, line height, box model, flow).  Text nodes take
#: their parent element's values (their computed style is inherited).
STYLE_PROPS = ("display", "position", "float", "visibility", "opacity", "overflow", "font-family",
               "font-size", "font-weight", "font-style", "line-height", "color", "background-color",
               "text-align", "text-decoration-line", "text-transform", "letter-spacing", "white-space",
               "list-style-type", "margin", "padding", "border-width")

#: Flags for the system Chromium (headless, no background traffic).
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
                  "--disable-dev-shm-usage")

FORMAT = 1
_INSTALL = ("install playwright with `pip install 'fastx-extract[render]'` and a Chromium with "
            "`apt-get install chromium` (Debian/Ubuntu packages), or point FASTX_CHROMIUM at a "
            "Chromium/Chrome binary; fastx drives the system browser and never downloads one")

# One evaluate per page: boxes and computed styles of the marked elements (styles
# as codes into per-property value lists, to keep the transfer small) and the
# Range box of every marked text node.  One JSON string comes back: playwright's
# per-value protocol encoding of large arrays would cost more than the render.
_COLLECT_JS = """(props) => {
  const sx = window.scrollX, sy = window.scrollY, P = props.length;
  const els = document.querySelectorAll('[data-fx]');
  const m = els.length, idx = new Array(m), box = new Array(4 * m), codes = new Array(P * m);
  const vocab = props.map(() => new Map());
  for (let k = 0; k < m; k++) {
    const e = els[k];
    idx[k] = +e.getAttribute('data-fx');
    const r = e.getBoundingClientRect();
    box[4 * k] = r.left + sx; box[4 * k + 1] = r.top + sy; box[4 * k + 2] = r.width; box[4 * k + 3] = r.height;
    const cs = getComputedStyle(e);
    for (let p = 0; p < P; p++) {
      const v = cs.getPropertyValue(props[p]), voc = vocab[p];
      let c = voc.get(v);
      if (c === undefined) { c = voc.size + 1; voc.set(v, c); }
      codes[P * k + p] = c;
    }
  }
  const tidx = [], tbox = [], range = document.createRange();
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_COMMENT);
  for (let c = walker.nextNode(); c; c = walker.nextNode()) {
    if (!c.data.startsWith('fx:')) continue;
    const t = c.nextSibling;
    if (!t || t.nodeType !== 3) continue;
    range.selectNodeContents(t);
    const r = range.getBoundingClientRect();
    tidx.push(+c.data.slice(3)); tbox.push(r.left + sx, r.top + sy, r.width, r.height);
  }
  const de = document.documentElement;
  return JSON.stringify({idx, box, codes, vocab: vocab.map(v => Array.from(v.keys())), tidx, tbox,
                         page: [de.scrollWidth, de.scrollHeight]});
}"""


# ---------------------------------------------------------------- the layout

def fingerprint(doc) -> int:
    """A checksum of the Doc's structure and text counts; a Layout matches only its own Doc."""
    h = zlib.crc32(np.int64(doc.n).tobytes())
    for a in (doc.parent, doc.tag, doc.kind, doc.chars):
        h = zlib.crc32(np.ascontiguousarray(a).tobytes(), h)
    return h


class Layout:
    """What the browser showed, per Doc node (arrays of length ``n``).

    ``kinds``: uint8 node kinds of the Doc (1 element, 3 text).
    ``boxes``: float32 (n, 4) ``[x, y, width, height]`` in CSS pixels, page
    coordinates (text nodes: the Range box of their glyphs); NaN where the
    browser has no such node.
    ``codes``: uint16 (n, len(props)), the computed value of each property in
    ``props`` as 1 + its index in ``values[p]`` (0: not reported).
    ``meta``: viewport, scripts, page size, render time, browser version.
    """

    __slots__ = ("kinds", "boxes", "codes", "props", "values", "fingerprint", "meta")

    def __init__(self, kinds, boxes, codes, props, values, fingerprint: int, meta: dict | None = None):
        self.kinds = np.ascontiguousarray(kinds, dtype=np.uint8)
        self.boxes = np.ascontiguousarray(boxes, dtype=np.float32)
        self.codes = np.ascontiguousarray(codes, dtype=np.uint16)
        self.props = tuple(props)
        self.values = [list(v) for v in values]
        self.fingerprint = int(fingerprint)
        self.meta = dict(meta or {})
        n = len(self.kinds)
        if self.boxes.shape != (n, 4) or self.codes.shape != (n, len(self.props)) \
                or len(self.values) != len(self.props):
            raise InputError("inconsistent layout arrays: kinds must be (n,), boxes (n, 4), codes (n, len(props)), "
                             "one value list per property")

    @property
    def n(self) -> int:
        return len(self.kinds)

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return f"<fastx.render.Layout nodes={self.n} missing={self.meta.get('missing')}>"

    @property
    def positions(self) -> np.ndarray:
        """(n, 2) float64 horizontal extents ``[x1, x2]`` for Visual Importance (CETD
        Def. 3.3, the input of ``fastx._core.hybrid_chars``), as the paper defines them:
        a text node is measured by its leaf tag ("the innermost tag encompassing text"),
        so text rows are NaN and take their parent element's extent.  NaN = unknown."""
        return self.extents(own_text=False)

    def extents(self, own_text: bool = False) -> np.ndarray:
        """(n, 2) horizontal extents ``[x, x + width]``; with `own_text`, text nodes keep the
        extent of their own glyphs (a Range box) instead of deferring to their parent."""
        b = self.boxes.astype(np.float64)
        out = np.stack([b[:, 0], b[:, 0] + b[:, 2]], axis=1)
        if not own_text:
            out[self.text_rows] = np.nan
        return out

    @property
    def text_rows(self) -> np.ndarray:
        """Boolean mask of the text nodes (recorded at render time)."""
        return self.kinds == _core.KIND_TEXT

    def style(self, prop: str) -> np.ndarray:
        """Computed value of CSS property `prop` for every node (object array; '' = not reported)."""
        p = self._prop(prop)
        table = np.array([""] + self.values[p], dtype=object)
        return table[self.codes[:, p]]

    def css(self, i: int) -> dict[str, str]:
        """Computed CSS of node `i` (``{property: value}``; text nodes: their parent's)."""
        row = self.codes[i]
        return {name: self.values[p][row[p] - 1] for p, name in enumerate(self.props) if row[p]}

    def _prop(self, prop: str) -> int:
        try:
            return self.props.index(prop)
        except ValueError:
            raise InputError(f"the layout has no CSS property {prop!r}; it has {', '.join(self.props)}") from None

    def check(self, doc) -> "Layout":
        """Raise InputError unless this layout was rendered from `doc`'s page (same parse)."""
        if self.n != doc.n or self.fingerprint != fingerprint(doc):
            raise InputError(f"the layout ({self.n} nodes) was rendered from another page or another parse "
                             f"than this Doc ({doc.n} nodes); render this page (fastx.render) or load its own "
                             "layout file")
        return self

    # ------------------------------------------------------------ files
    def save(self, path: "str | os.PathLike") -> Path:
        """Write the layout as one compressed ``.npz`` (atomically; returns the path)."""
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_name(path.name + ".npz")
        meta = {"format": FORMAT, "props": list(self.props), "values": self.values,
                "fingerprint": self.fingerprint, "meta": self.meta}
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        with open(tmp, "wb") as f:
            np.savez_compressed(f, kinds=self.kinds, boxes=self.boxes, codes=self.codes,
                                meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8))
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: "str | os.PathLike") -> "Layout":
        """Read a file written by :meth:`save` (InputError if it is not one)."""
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(z["meta"].tobytes())
                kinds, boxes, codes = z["kinds"], z["boxes"], z["codes"]
        except (OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
            raise InputError(f"{path}: not a fastx layout file ({exc})") from exc
        if meta.get("format") != FORMAT:
            raise InputError(f"{path}: layout format {meta.get('format')}, this fastx reads {FORMAT}; render again")
        return cls(kinds, boxes, codes, meta["props"], meta["values"], meta["fingerprint"], meta.get("meta"))


class CssMap(Mapping):
    """A layout's computed CSS as ``{Doc node index: {property: value}}``, built per node on
    access (the ``styles=`` input of :meth:`fastx.SiteModel.learn`)."""

    __slots__ = ("layout",)

    def __init__(self, layout: Layout):
        self.layout = layout

    def __getitem__(self, i) -> dict[str, str]:
        if not isinstance(i, (int, np.integer)) or not 0 <= i < self.layout.n:
            raise KeyError(i)
        return self.layout.css(int(i))

    def __contains__(self, i) -> bool:
        return bool(isinstance(i, (int, np.integer)) and 0 <= i < self.layout.n and self.layout.codes[i].any())

    def __iter__(self):
        return iter(np.flatnonzero(self.layout.codes.any(axis=1)).tolist())

    def __len__(self) -> int:
        return int(np.count_nonzero(self.layout.codes.any(axis=1)))


def markup(doc, scripts: bool = False) -> str:
    """The page as the browser gets it: serialized from the Doc's own DOM, nodes marked with
    their Doc index (see the module docstring)."""
    from ..core.parse import with_full_tree
    return _core.render_markup(with_full_tree(doc), scripts).decode("utf-8", "replace")


def _layout_from(doc, result: dict, meta: dict) -> Layout:
    """Scatter the browser's per-mark arrays onto Doc indices."""
    n, P = doc.n, len(STYLE_PROPS)
    try:
        idx = np.asarray(result["idx"], dtype=np.int64)
        box = np.asarray(result["box"], dtype=np.float64).reshape(len(idx), 4)
        code = np.asarray(result["codes"], dtype=np.int64).reshape(len(idx), P)
        tidx = np.asarray(result["tidx"], dtype=np.int64)
        tbox = np.asarray(result["tbox"], dtype=np.float64).reshape(len(tidx), 4)
        vocab = [[str(v) for v in vs][:65535] for vs in result["vocab"]]
        if len(vocab) != P:
            raise ValueError(f"{len(vocab)} value lists for {P} properties")
    except (KeyError, TypeError, ValueError) as exc:  # only a page script could garble the measurements
        raise RenderError(f"the browser's measurements of the page are malformed ({exc}); "
                          "render without scripts") from None
    code[code > 65535] = 0                             # beyond the uint16 value table: not recorded
    boxes = np.full((n, 4), np.nan, dtype=np.float32)
    codes = np.zeros((n, P), dtype=np.uint16)
    ok = (idx >= 0) & (idx < n)
    boxes[idx[ok]] = box[ok]
    codes[idx[ok]] = code[ok]
    tok = (tidx >= 0) & (tidx < n)
    boxes[tidx[tok]] = tbox[tok]
    text = np.flatnonzero(doc.kind == _core.KIND_TEXT)
    if len(text):
        codes[text] = codes[doc.parent[text]]       # a text node's computed style is its parent's
    elements = doc.kind == _core.KIND_ELEMENT
    meta = dict(meta, missing=int(elements.sum() - np.count_nonzero(~np.isnan(boxes[elements, 0]))),
                page=result.get("page"))
    return Layout(doc.kind, boxes, codes, STYLE_PROPS, vocab, fingerprint(doc), meta)


# ---------------------------------------------------------------- the browser

def find_chromium() -> str:
    """Path of the Chromium to drive: $FASTX_CHROMIUM, else the first of chromium,
    chromium-browser, google-chrome(-stable), chrome on PATH (RenderError if none)."""
    env = os.environ.get("FASTX_CHROMIUM")
    if env:
        if os.path.isfile(env) and os.access(env, os.X_OK):
            return env
        raise RenderError(f"FASTX_CHROMIUM={env!r} is not an executable file; {_INSTALL}")
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise RenderError(f"no Chromium found on PATH; {_INSTALL}")


def _import_playwright():
    try:
        from playwright.async_api import Error, async_playwright
    except ImportError as exc:
        raise RenderError(f"fastx.render needs playwright ({exc}); {_INSTALL}") from None
    return async_playwright, Error


class Renderer:
    """One headless Chromium serving a batch of pages.

    ``pages`` tabs render concurrently (a page pool); each page gets
    ``timeout`` seconds (load plus measuring) before RenderError, and its tab
    is replaced.  Scripts are off unless ``scripts=True``; every network
    request is aborted either way.  With ``cache_dir``, layouts are read from
    and written to one ``.npz`` per page there (keyed by the marked markup and
    the render options); the browser starts only on the first cache miss.

    Use as a context manager or call :meth:`close`::

        with Renderer(pages=4, cache_dir="layouts") as r:
            for layout in r.render_many(docs):       # Layout or RenderError, in order
                ...
    """

    def __init__(self, pages: int = 2, timeout: float = 30.0, scripts: bool = False,
                 viewport: tuple[int, int] = (1280, 800), cache_dir: "str | os.PathLike | None" = None,
                 executable: str | None = None, args: Iterable[str] = ()):
        if pages < 1:
            raise InputError("a Renderer needs at least one page (pages >= 1)")
        if timeout <= 0:
            raise InputError("timeout must be positive (seconds per page)")
        self.pages = int(pages)
        self.timeout = float(timeout)
        self.scripts = bool(scripts)
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        if self.cache_dir is not None:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
        self.executable = executable
        self.args = tuple(args)
        self.rendered = 0          # pages the browser rendered (cache hits excluded)
        self.render_seconds = 0.0  # wall time spent in the browser over those pages
        self.cache_hits = 0
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._engine: _Engine | None = None
        self._closed = False
        _LIVE.add(self)

    # ------------------------------------------------------------ lifecycle
    def __enter__(self) -> "Renderer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def start(self) -> "Renderer":
        """Launch the browser now (otherwise it starts on the first page to render)."""
        with self._lock:
            if self._closed:
                raise RenderError("this Renderer is closed; make a new one")
            if self._engine is not None:
                return self
            exe = self.executable or find_chromium()
            async_playwright, error = _import_playwright()
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="fastx-render", daemon=True)
            thread.start()
            engine = _Engine(async_playwright, error, exe, self)
            try:
                asyncio.run_coroutine_threadsafe(engine.start(), loop).result(timeout=120)
            except BaseException as exc:
                loop.call_soon_threadsafe(loop.stop)
                thread.join(timeout=10)
                loop.close()
                if isinstance(exc, RenderError):
                    raise
                raise RenderError(f"could not start Chromium at {exe}: {exc}; {_INSTALL}") from exc
            self._loop, self._thread, self._engine = loop, thread, engine
            return self

    def close(self) -> None:
        """Close the browser and stop the renderer's thread (idempotent)."""
        with self._lock:
            self._closed = True
            engine, loop, thread = self._engine, self._loop, self._thread
            self._engine = self._loop = self._thread = None
        if engine is None or loop is None or thread is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(engine.stop(), loop).result(timeout=30)
        except Exception:
            pass
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
        if not thread.is_alive():
            loop.close()

    @property
    def browser_version(self) -> str | None:
        return self._engine.version if self._engine else None

    # ------------------------------------------------------------ rendering
    def render(self, page, *, url: str | None = None, scripts: bool | None = None) -> Layout:
        """Layout of one page (a Doc, or HTML text/bytes that is parsed first)."""
        return self._submit(self._prepare(page, url, scripts)).result()

    def render_many(self, pages: Iterable, *, scripts: bool | None = None) -> Iterator["Layout | Exception"]:
        """Render many pages on the pool: yields, per input, its Layout or the RenderError
        (other errors, e.g. InputError for a bad page, are yielded too).  At most
        ``2 * pages`` pages are in flight; results come in input order."""
        window: collections.deque = collections.deque()
        for page in pages:
            try:
                window.append(self._submit(self._prepare(page, None, scripts)))
            except Exception as exc:  # a page that cannot be prepared: its own error, in order
                window.append(_Done(exc))
            while len(window) >= 2 * self.pages:
                yield _outcome(window.popleft())
        while window:
            yield _outcome(window.popleft())

    def cache_path(self, doc, scripts: bool | None = None) -> Path | None:
        """Cache file of `doc`'s layout under the current options (None without cache_dir)."""
        if self.cache_dir is None:
            return None
        return self._prepare(doc, None, scripts)[3]

    def _prepare(self, page, url, scripts):
        from ..core.parse import parse
        doc = parse(page, url=url, full_tree=True)        # the render reads styles and scripts
        scripts = self.scripts if scripts is None else bool(scripts)
        html = markup(doc, scripts)
        path = None
        if self.cache_dir is not None:
            key = hashlib.blake2b(html.encode("utf-8", "replace"), digest_size=16)
            key.update(f"|{FORMAT}|{self.viewport}|{scripts}|{','.join(STYLE_PROPS)}".encode())
            path = self.cache_dir / f"{key.hexdigest()}.npz"
        return doc, html, scripts, path

    def _submit(self, prepared):
        doc, html, scripts, path = prepared
        if path is not None and path.exists():
            try:
                layout = Layout.load(path).check(doc)
                self.cache_hits += 1
                return _Done(layout)
            except InputError:
                pass                          # stale or damaged: render again
        if doc.n == 0:
            return _Done(Layout(doc.kind, np.zeros((0, 4)), np.zeros((0, len(STYLE_PROPS))), STYLE_PROPS,
                                [[] for _ in STYLE_PROPS], fingerprint(doc), {"missing": 0}))
        if self._engine is None:
            self.start()
        fut = asyncio.run_coroutine_threadsafe(self._engine.render(html, scripts), self._loop)
        return _Pending(fut, doc, path)


class _Done:
    def __init__(self, value):
        self.value = value

    def result(self):
        if isinstance(self.value, BaseException):
            raise self.value
        return self.value


class _Pending:
    def __init__(self, fut, doc, path):
        self.fut, self.doc, self.path = fut, doc, path

    def result(self) -> Layout:
        try:
            result, meta = self.fut.result()
        except (RenderError, InputError):
            raise
        except Exception as exc:               # playwright/driver failures not caught per page
            raise RenderError(f"rendering failed: {type(exc).__name__}: {exc}") from exc
        layout = _layout_from(self.doc, result, meta)
        if self.path is not None:
            layout.save(self.path)
        return layout


def _outcome(handle):
    try:
        return handle.result()
    except Exception as exc:
        return exc


class _Engine:
    """The asyncio side (runs on the renderer's thread): playwright, the browser, one
    context per scripts setting, and its page pool: at most ``pages`` tabs render at
    once (a semaphore), idle tabs are reused when scripts are off, a tab that failed
    or ran page scripts is closed."""

    def __init__(self, async_playwright, error_type, executable: str, owner: Renderer):
        self.async_playwright, self.error_type, self.executable = async_playwright, error_type, executable
        self.pages, self.timeout, self.viewport = owner.pages, owner.timeout, owner.viewport
        self.args = list(CHROMIUM_FLAGS) + list(owner.args)
        self.owner = weakref.ref(owner)
        # playwright's objects (untyped here: playwright is an optional dependency), and the
        # asyncio lock and semaphore made on the renderer's own loop when it starts
        self.pw: Any = None
        self.browser: Any = None
        self.version = None
        self.contexts: dict[bool, Any] = {}
        self.idle: dict[bool, list] = {False: [], True: []}
        self.slots: Any = None
        self.lock: Any = None

    async def start(self):
        self.lock = asyncio.Lock()
        self.slots = asyncio.Semaphore(self.pages)
        self.pw = await self.async_playwright().start()
        try:
            await self._launch()
        except BaseException:
            await self.pw.stop()
            raise

    async def _launch(self):
        self.browser = await self.pw.chromium.launch(executable_path=self.executable, args=self.args,
                                                     timeout=60_000)
        self.version = self.browser.version
        self.contexts.clear()
        self.idle = {False: [], True: []}

    async def stop(self):
        try:
            if self.browser is not None:
                await self.browser.close()
        finally:
            if self.pw is not None:
                await self.pw.stop()

    async def _tab(self, scripts: bool):
        """An idle tab of the `scripts` context, or a new one (relaunching a crashed browser)."""
        async with self.lock:
            if self.browser is None or not self.browser.is_connected():
                await self._launch()
            ctx = self.contexts.get(scripts)
            if ctx is None:
                ctx = await self.browser.new_context(java_script_enabled=scripts, offline=True,
                                                     viewport={"width": self.viewport[0],
                                                               "height": self.viewport[1]},
                                                     service_workers="block", device_scale_factor=1)
                await ctx.route("**/*", lambda route: route.abort())
                self.contexts[scripts] = ctx
            idle = self.idle[scripts]
            return (idle.pop() if idle else await ctx.new_page()), idle

    async def render(self, html: str, scripts: bool):
        async with self.slots:
            page, idle = await self._tab(scripts)
            t0 = time.perf_counter()
            healthy = False
            try:
                result = await asyncio.wait_for(self._measure(page, html), self.timeout)
                healthy = True
            except asyncio.TimeoutError:
                raise RenderError(f"the page did not render within {self.timeout:g} s "
                                  "(Renderer(timeout=...) sets the limit)") from None
            except self.error_type as exc:
                raise RenderError(f"Chromium failed on the page: {str(exc).splitlines()[0]}") from None
            finally:
                if healthy and not scripts and idle is self.idle[scripts]:
                    # back to the pool (unless the browser was relaunched); a tab that ran page
                    # scripts is not reused: document.write keeps the window and its globals
                    idle.append(page)
                else:
                    try:
                        await asyncio.wait_for(page.close(run_before_unload=False), 10)
                    except BaseException:
                        pass
        seconds = time.perf_counter() - t0
        owner = self.owner()
        if owner is not None:
            owner.rendered += 1
            owner.render_seconds += seconds
        return result, {"viewport": list(self.viewport), "scripts": scripts, "seconds": round(seconds, 4),
                        "browser": self.version}

    async def _measure(self, page, html: str) -> dict:
        await page.set_content(html, wait_until="load", timeout=self.timeout * 1000)
        return json.loads(await page.evaluate(_COLLECT_JS, list(STYLE_PROPS)))


_LIVE: "weakref.WeakSet[Renderer]" = weakref.WeakSet()


@atexit.register
def _close_all():
    for r in list(_LIVE):
        try:
            r.close()
        except Exception:
            pass


# ---------------------------------------------------------------- convenience

_DEFAULT: Renderer | None = None
_DEFAULT_LOCK = threading.Lock()


def default_renderer() -> Renderer:
    """The process-wide renderer behind ``render()`` and ``extract(..., render=True)``
    (two tabs, scripts off; closed at exit)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None or _DEFAULT._closed:
            _DEFAULT = Renderer()
        return _DEFAULT


def render(page, *, url: str | None = None, scripts: bool | None = None,
           renderer: Renderer | None = None) -> Layout:
    """Layout of one page (Doc or HTML) with the default renderer (or `renderer`);
    `scripts` overrides the renderer's setting (the default renderer's is off)."""
    return (renderer or default_renderer()).render(page, url=url, scripts=scripts)


def page_styles(docs, render=True) -> list[CssMap]:
    """Computed CSS of every node of each Doc (site features, seeds/001 Sect. 3.1): renders the
    pages with `render` (True: the default renderer, or a :class:`Renderer`); RenderError
    names the first page that failed."""
    renderer = render if isinstance(render, Renderer) else default_renderer() if render is True else None
    if renderer is None:
        raise InputError(f"render= takes True or a fastx.render.Renderer, got {render!r}")
    out = []
    for k, layout in enumerate(renderer.render_many(docs)):
        if isinstance(layout, Exception):
            raise RenderError(f"page {k}: {layout}") from layout
        out.append(CssMap(layout))
    return out


def attach(doc, layout=None, render=False) -> Layout:
    """Give `doc` its layout in ``doc.cache["layout"]``, where methods read it.

    `layout`: a :class:`Layout` or the path of a saved one (checked against
    `doc`); otherwise `render`: True (the default renderer) or a
    :class:`Renderer`."""
    if layout is not None:
        if isinstance(layout, (str, os.PathLike)):
            layout = Layout.load(layout)
        if not isinstance(layout, Layout):
            raise InputError(f"layout= takes a fastx.render.Layout or a layout file path, "
                             f"got {type(layout).__name__}")
        layout.check(doc)
    elif isinstance(render, Renderer):
        layout = render.render(doc)
    elif render is True:
        layout = default_renderer().render(doc)
    else:
        raise InputError(f"render= takes True or a fastx.render.Renderer, got {render!r}")
    doc.cache["layout"] = layout
    return layout
