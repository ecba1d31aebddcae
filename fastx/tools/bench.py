"""`python -m fastx bench`: accuracy and speed of every fastx method and every
installed peer extractor, on the same pages, in one run.

Corpus: the bench corpus shipped in ``fastx/data/bench.tar.xz`` (60 real pages
with human gold, ten from the validation split of each development corpus: the
news and blog pages of cleaneval-dev, cpe, l3s, readability and dragnet, and
modern pages of seven types from wcxb-dev; see ``benchmarks/make_bench_corpus.py``),
or ``--corpus PATH``: a
directory (or a ``.tar.*`` of one) holding ``input/<id>.<ext>`` pages and
CleanEval-format gold ``GoldStandard/<id>.txt`` (an optional ``URL:`` first
line, then text with ``<p>``/``<h>``/``<l>`` markers), paired by file stem.

Accuracy: 4-token shingle precision/recall per page, averaged over pages, F1
of the averages (``fastx.evaluate``). Speed: wall time of each extractor call
on the raw bytes, decoding and parsing included, after one warm-up call. Every
extractor runs on every page in every repeat, interleaved page by page in a
rotating order, so all see the same machine state. A page's time is the
fastest of its repeats (as timeit advises: slower repeats measure other
processes, not the extractor); ``p50``/``p95`` are over pages; pages/s and MB/s
(10^6 bytes) divide the corpus by the summed page times; ``x parse`` is an
extractor's median ms/page over that of ``parse-only`` (selectolax's
``LexborHTMLParser`` alone), the floor every lexbor-based extractor pays.
An exception on a page counts as an error and an empty output; it never stops
the bench.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import importlib.resources
import importlib.util
import io
import json
import logging
import platform
import random
import statistics
import sys
import tarfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..core.decode import decode
from .evaluate import read_gold


def _text(html: bytes) -> str:
    """Page bytes as text for the peers that take text (readability, boilerpy3)."""
    return decode(html)[0]

SHIPPED = "bench.tar.xz"
DEFAULT_REPEAT = 5
PARSE_ONLY = "parse-only"
FASTX_PREFIX = "fastx:"


# ---------------------------------------------------------------- corpus
@dataclass
class Page:
    id: str
    html: bytes
    gold: str
    url: str | None = None
    source: str | None = None  # the development corpus the page came from, when the manifest says


@dataclass
class Corpus:
    name: str
    pages: list[Page]
    unpaired: int = 0  # input pages without a gold file (skipped)
    manifest: dict = field(default_factory=dict)

    @property
    def bytes(self) -> int:
        return sum(len(p.html) for p in self.pages)


def _stem(name: str) -> str:
    return name.rsplit(".", 1)[0]


def _pair(files: dict[str, bytes], name: str) -> Corpus:
    """Pages from {relative path: bytes}: input/<stem>.* paired with GoldStandard/<stem>.txt."""
    inputs = {_stem(p[len("input/"):]): p for p in files if p.startswith("input/") and "/" not in p[6:]}
    golds = {_stem(p[len("GoldStandard/"):]): p for p in files
             if p.startswith("GoldStandard/") and p.endswith(".txt") and "/" not in p[13:]}
    manifest = json.loads(files["MANIFEST.json"]) if "MANIFEST.json" in files else {}
    sources = manifest.get("pages", {})
    pages = []
    for stem in sorted(inputs):
        if stem in golds:
            url, gold = read_gold(files[golds[stem]])
            src = sources.get(stem, {})
            pages.append(Page(stem, files[inputs[stem]], gold, url or src.get("url"), src.get("corpus")))
    return Corpus(name, pages, unpaired=len(inputs) - len(pages), manifest=manifest)


def _tar_files(fileobj) -> dict[str, bytes]:
    out = {}
    with tarfile.open(fileobj=fileobj) as tf:
        for m in tf:
            if m.isfile():
                f = tf.extractfile(m)
                if f is not None:
                    out[m.name.removeprefix("./")] = f.read()
    # a tar may wrap everything in one top directory: strip it
    if not any(n.startswith("input/") for n in out):
        tops = {n.split("/", 1)[0] for n in out}
        if len(tops) == 1:
            out = {n.split("/", 1)[1]: b for n, b in out.items() if "/" in n}
    return out


def load_corpus(path: str | Path | None = None) -> Corpus:
    """The shipped bench corpus, or a directory / tar archive with input/ + GoldStandard/."""
    if path is None:
        res = importlib.resources.files("fastx") / "data" / SHIPPED
        return _pair(_tar_files(io.BytesIO(res.read_bytes())), "shipped")
    path = Path(path)
    if path.is_file():
        with path.open("rb") as f:
            return _pair(_tar_files(f), str(path))
    if not (path / "input").is_dir() or not (path / "GoldStandard").is_dir():
        raise FileNotFoundError(f"{path}: expected input/ and GoldStandard/ directories")
    files = {f"{sub}/{p.name}": p.read_bytes()
             for sub in ("input", "GoldStandard") for p in (path / sub).iterdir() if p.is_file()}
    if (path / "MANIFEST.json").is_file():
        files["MANIFEST.json"] = (path / "MANIFEST.json").read_bytes()
    return _pair(files, str(path))


# ---------------------------------------------------------------- extractors
@dataclass
class Extractor:
    name: str
    run: Callable[[bytes, str | None], str]  # (html bytes, url) -> text
    description: str


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _trafilatura(html, url):
    import trafilatura
    return trafilatura.extract(html, url=url, include_comments=False, include_tables=True) or ""


def _resiliparse(html, url):
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree
    return extract_plain_text(HTMLTree.parse_from_bytes(html), main_content=True)


def _readability(html, url):
    import lxml.html
    from readability import Document
    summary = Document(_text(html)).summary(html_partial=True)
    return lxml.html.fromstring(summary).text_content() if summary.strip() else ""


def _justext(html, url):
    import justext
    return "\n".join(p.text for p in justext.justext(html, justext.get_stoplist("English")) if not p.is_boilerplate)


def _boilerpy3(html, url):
    from boilerpy3 import extractors
    return extractors.ArticleExtractor(raise_on_failure=False).get_content(_text(html))


def _rs_trafilatura(html, url):
    import trafipy
    return trafipy.extract(_text(html), url=url).text or ""


def _parse_only(html, url):
    from selectolax.lexbor import LexborHTMLParser
    LexborHTMLParser(html)
    return ""


# name -> (function, import name, distribution name, what is called); the calls of shared/tools/compare.py
PEERS = {
    "trafilatura": (_trafilatura, "trafilatura", "trafilatura", "extract(include_tables=True)"),
    "resiliparse": (_resiliparse, "resiliparse", "Resiliparse", "extract_plain_text(main_content=True)"),
    "readability": (_readability, "readability", "readability-lxml", "Document().summary() text"),
    "justext": (_justext, "justext", "jusText", "English stoplist, non-boilerplate paragraphs"),
    "boilerpy3": (_boilerpy3, "boilerpy3", "boilerpy3", "ArticleExtractor"),
    # rs-trafilatura, the Rust port of trafilatura, through its Python bindings (CPython 3.12+; not
    # in the peers extra: one wheel, Linux x86-64, else a build with Rust)
    "rs-trafilatura": (_rs_trafilatura, "trafipy", "trafipy", "rs-trafilatura's extract() (trafipy)"),
}


def fastx_registry() -> dict[str, str]:
    """fastx.methods() (name -> description), or {} when the package has no registry (yet)."""
    try:
        import fastx
    except ImportError:
        return {}
    methods = getattr(fastx, "methods", None)
    return dict(methods()) if callable(methods) else {}


def _fastx_needs() -> dict[str, str]:
    """Methods that need more than the page (e.g. learned site rules): the bench cannot run them alone."""
    try:
        from fastx.methods import requirements
    except ImportError:
        return {}
    return requirements()


def _fastx_method(method: str):
    def run(html, url):
        import fastx
        return fastx.extract(html, url=url, method=method).text or ""
    return run


def select_extractors(names: Iterable[str] | None = None, fastx: bool = True, peers: bool = True
                      ) -> tuple[list[Extractor], dict[str, str]]:
    """The extractors to run and {name: why skipped}. `names` restricts: fastx methods (with or
    without the ``fastx:`` prefix; ``fastx`` alone means all of them) and peers. parse-only always
    runs, as the speed baseline."""
    wanted = None if names is None else {n.strip() for n in names if n.strip()}
    registry = fastx_registry() if fastx else {}
    chosen, skipped, known = [], {}, {PARSE_ONLY, "fastx"}
    needs = _fastx_needs() if fastx else {}
    for method, desc in registry.items():
        name = FASTX_PREFIX + method
        known |= {name, method}
        if wanted is None or {name, method, "fastx"} & wanted:
            if method in needs:
                skipped[name] = f"needs {needs[method]}"
            else:
                chosen.append(Extractor(name, _fastx_method(method), desc))
    if fastx and not registry:
        skipped["fastx"] = "fastx.methods() is not available"
    for name, (fn, module, dist, call) in PEERS.items():
        known.add(name)
        if not peers or (wanted is not None and name not in wanted):
            continue
        if importlib.util.find_spec(module) is None:
            skipped[name] = "not installed"
        else:
            chosen.append(Extractor(name, fn, f"{dist} {_version(dist)}: {call}"))
    unknown = sorted((wanted or set()) - known)
    if unknown:
        why = "" if registry else (" (fastx methods off: --no-fastx)" if not fastx
                                   else " (fastx.methods() is not available)")
        raise ValueError(f"unknown extractor(s): {', '.join(unknown)}{why}; known: {', '.join(sorted(known))}")
    chosen.append(Extractor(PARSE_ONLY, _parse_only, f"selectolax {_version('selectolax')}: LexborHTMLParser(html) alone"))
    return chosen, skipped


# ---------------------------------------------------------------- measuring
def _progress(total: int, enabled: bool):
    if enabled:
        try:
            from tqdm import tqdm
            return tqdm(total=total, file=sys.stderr, unit="page", desc="bench", leave=False)
        except ImportError:
            pass
    return None


def _percentile(values: list[float], q: float) -> float:
    """Linear-interpolated percentile (q in [0, 100]) of a non-empty list."""
    s = sorted(values)
    k = (len(s) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def _passes(pages: list[Page], live: list[Extractor], repeat: int, bar) -> tuple[dict, dict, dict, dict]:
    """The timed loop: `repeat` passes; in each, every page through every extractor, the
    extractors in a shuffled order (seeded: the same order each run), so that no extractor
    always follows the same one (a peer that fills the caches with its own data would
    otherwise slow down one neighbour only). Returns (texts of the first pass, seconds per
    page per repeat, failed page indices, first error message), each keyed by extractor name."""
    texts = {ex.name: [""] * len(pages) for ex in live}
    times: dict[str, list[list[float]]] = {ex.name: [[] for _ in pages] for ex in live}
    failed: dict[str, set[int]] = {ex.name: set() for ex in live}
    first_error: dict[str, str] = {}
    clock = time.perf_counter
    order = list(live)
    rng = random.Random(20240601)
    for r in range(repeat):
        for i, page in enumerate(pages):
            rng.shuffle(order)
            for ex in order:
                err = None
                t0 = clock()
                try:
                    out = ex.run(page.html, page.url)
                except Exception as e:  # counted, never fatal
                    out, err = None, e
                times[ex.name][i].append(clock() - t0)
                if err is not None:
                    failed[ex.name].add(i)
                    first_error.setdefault(ex.name, f"{page.id}: {type(err).__name__}: {err}"[:300])
                elif r == 0:
                    texts[ex.name][i] = out if isinstance(out, str) else ""
            if bar is not None:
                bar.update(1)
    return texts, times, failed, first_error


def measure(corpus: Corpus, extractors: list[Extractor], repeat: int = DEFAULT_REPEAT,
            progress: bool = True) -> tuple[dict[str, dict], dict[str, str]]:
    """Run every extractor on every page `repeat` times; return ({name: figures}, {name: why skipped})."""
    from fastx.tools.evaluate import aggregate, shingle_scores

    pages = corpus.pages
    if not pages:
        raise ValueError(f"{corpus.name}: no page pairs with a gold file")
    skipped: dict[str, str] = {}
    live = []
    quiet = logging.root.manager.disable
    logging.disable(logging.WARNING)  # peers log per-page warnings (boilerpy3, trafilatura); not figures
    bar = None
    try:
        for ex in extractors:  # warm-up: imports, lazy tables, first-call caches
            try:
                ex.run(pages[0].html, pages[0].url)
            except ImportError as e:
                skipped[ex.name] = f"cannot import: {e}"
                continue
            except Exception:
                pass
            live.append(ex)
        bar = _progress(repeat * len(pages), progress)
        texts, times, failed, first_error = _passes(pages, live, repeat, bar)
    finally:
        logging.disable(quiet)
        if bar is not None:
            bar.close()

    results = {}
    total_mb = corpus.bytes / 1e6
    for ex in live:
        per_page = [min(t) for t in times[ex.name]]  # a page's time: its fastest repeat
        seconds = sum(per_page)
        rows = [shingle_scores(texts[ex.name][i], p.gold) for i, p in enumerate(pages)]
        fig = {k: v for k, v in aggregate(rows).items() if k in ("f1", "precision", "recall")}
        fig.update(
            ms_p50=1000 * statistics.median(per_page),
            ms_p95=1000 * _percentile(per_page, 95),
            pages_per_s=len(pages) / seconds if seconds else float("inf"),
            mb_per_s=total_mb / seconds if seconds else float("inf"),
            x_parse_only=None,
            errors=len(failed[ex.name]),
            pages=len(pages),
            description=ex.description,
        )
        if ex.name in first_error:
            fig["first_error"] = first_error[ex.name]
        by_source: dict[str, list] = {}
        for row, p in zip(rows, pages):
            if p.source:
                by_source.setdefault(p.source, []).append(row)
        if by_source:
            fig["by_source"] = {s: {k: v for k, v in aggregate(rs).items() if k in ("f1", "precision", "recall")}
                                | {"pages": len(rs)} for s, rs in sorted(by_source.items())}
        results[ex.name] = fig
    base = results.get(PARSE_ONLY, {}).get("ms_p50")
    for fig in results.values():
        fig["x_parse_only"] = fig["ms_p50"] / base if base else None
    return results, skipped


# ---------------------------------------------------------------- output
COLUMNS = [  # header, key, format
    ("F1", "f1", "{:.3f}"), ("P", "precision", "{:.3f}"), ("R", "recall", "{:.3f}"),
    ("ms p50", "ms_p50", "{:.2f}"), ("ms p95", "ms_p95", "{:.2f}"), ("pages/s", "pages_per_s", "{:.1f}"),
    ("MB/s", "mb_per_s", "{:.2f}"), ("x parse", "x_parse_only", "{:.1f}"), ("errors", "errors", "{:d}"),
]


def ranked(results: dict[str, dict]) -> list[str]:
    """Names by F1, best first; parse-only last."""
    return sorted(results, key=lambda n: (n == PARSE_ONLY, -results[n]["f1"], n))


def format_table(results: dict[str, dict]) -> str:
    names = ranked(results)
    cells = [[n] + [("-" if results[n].get(k) is None else f.format(results[n][k])) for _, k, f in COLUMNS]
             for n in names]
    header = ["extractor"] + [h for h, _, _ in COLUMNS]
    widths = [max(len(r[c]) for r in cells + [header]) for c in range(len(header))]
    line = lambda r: "  ".join(r[0].ljust(widths[0]) if c == 0 else r[c].rjust(widths[c])  # noqa: E731
                               for c in range(len(r)))
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] + [line(r) for r in cells])


def report(corpus: Corpus, results: dict, skipped: dict, repeat: int) -> dict:
    """The JSON document of one run."""
    return {
        "corpus": {"name": corpus.name, "pages": len(corpus.pages), "bytes": corpus.bytes,
                   "unpaired_inputs": corpus.unpaired},
        "repeat": repeat,
        "metric": "4-token shingles; precision and recall averaged over pages, F1 of the averages",
        "timing": "per page: fastest of the repeats of one call on the raw bytes, parse included; MB = 10^6 bytes",
        "environment": {"python": platform.python_version(), "machine": platform.machine(),
                        "system": platform.system()},
        "extractors": {n: results[n] for n in ranked(results)},
        "skipped": skipped,
    }


# ---------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("--corpus", metavar="PATH",
                        help="a directory (or tar archive) with input/ and CleanEval-format GoldStandard/; "
                             "default: the corpus shipped with fastx")
    parser.add_argument("--methods", metavar="A,B",
                        help="only these extractors (fastx methods, with or without 'fastx:', and peers); "
                             "parse-only always runs as the speed baseline")
    parser.add_argument("--no-peers", action="store_true", help="skip the peer extractors")
    parser.add_argument("--no-fastx", action="store_true", help="skip fastx's own methods")
    parser.add_argument("--repeat", type=int, default=DEFAULT_REPEAT, metavar="N",
                        help=f"passes over the corpus for timing (default {DEFAULT_REPEAT})")
    parser.add_argument("--limit", type=int, metavar="N", help="first N pages only")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    parser.add_argument("--plot", metavar="FILE",
                        help="also plot F1 against speed (x parse-only), one point per extractor: "
                             "FILE.svg (no dependency) or FILE.png (matplotlib: fastx-extract[plot])")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    return parser


def run(args: argparse.Namespace) -> int:
    """``fastx bench``: every method and installed peer over a corpus (default: the shipped one):
    F1/precision/recall, ms per page (p50/p95), pages/s, MB/s and the speed ratio to
    selectolax's parse alone; a table on stdout, ``--json``/``--plot`` files if asked."""
    if args.repeat < 1:
        print("fastx bench: --repeat must be at least 1", file=sys.stderr)
        return 2
    try:
        corpus = load_corpus(args.corpus)
        names = args.methods.split(",") if args.methods else None
        extractors, skipped = select_extractors(names, fastx=not args.no_fastx, peers=not args.no_peers)
        if getattr(args, "plot", None):
            from .plot import check_path
            check_path(args.plot)  # a bad suffix or a missing matplotlib fails before the run
    except (OSError, ValueError, tarfile.TarError) as e:
        print(f"fastx bench: {e}", file=sys.stderr)
        return 2
    if args.limit is not None:
        corpus.pages = corpus.pages[:max(0, args.limit)]
    if not corpus.pages:
        print(f"fastx bench: {corpus.name}: no page pairs with a gold file", file=sys.stderr)
        return 2
    results, more = measure(corpus, extractors, args.repeat, progress=not args.no_progress)
    skipped.update(more)
    print(f"fastx bench: {corpus.name} corpus, {len(corpus.pages)} pages, {corpus.bytes / 1e6:.2f} MB, "
          f"{args.repeat} repeat{'s' * (args.repeat != 1)}, Python {platform.python_version()}")
    print(format_table(results))
    for name, reason in skipped.items():
        print(f"skipped {name}: {reason}")
    for name in ranked(results):
        if "first_error" in results[name]:
            print(f"{name}: {results[name]['errors']} page(s) failed; first: {results[name]['first_error']}")
    if args.json:
        Path(args.json).write_text(json.dumps(report(corpus, results, skipped, args.repeat), indent=1) + "\n")
    if getattr(args, "plot", None):
        from .plot import bench_chart
        bench_chart(results, title=f"fastx bench: {corpus.name} corpus, {len(corpus.pages)} pages, "
                                   f"{args.repeat} repeat{'s' * (args.repeat != 1)}").save(args.plot)
        print(f"plot: {args.plot}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fastx bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
