"""Command line: ``python -m fastx {extract,evaluate,bench,methods}``.

Examples::

    python -m fastx extract page.html                       # main text
    fastx extract https://example.com/news/1.html           # fetch and extract (fastx-extract[web])
    fastx extract --urls-from urls.txt -o out/              # one file per URL in out/ (.txt)
    fastx extract pages/ --format json -o out/              # one .json per file in out/
    python -m fastx extract pages/ --jobs 4 > out.jsonl     # a batch: JSON lines, one per page, in order
    python -m fastx extract crawl.warc.gz -o out.parquet    # WARC in (fastx-extract[warc]), Parquet out (fastx-extract[parquet])
    find site/ -name '*.html' | python -m fastx extract --files-from - --timeout 10 > out.jsonl
    curl -s URL | python -m fastx extract - --method cetd-td
    python -m fastx evaluate predicted.txt gold.txt
    python -m fastx bench                                   # shipped corpus, all methods + peers
    python -m fastx show page.html -o report.html           # what was kept and why (HTML report)
    python -m fastx learn-site site_pages/ -o rules.json    # learn site rules (needs fastx-extract[site])
    python -m fastx extract --rules rules.json new_page.html
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .. import api
from ..pipeline import batch
from . import bench, evaluate, show
from ..errors import FastxError


def _inputs(paths: list[str]):
    """Yield (name, bytes | None, error) for files, directories (recursively, sorted) and '-'."""
    for p in paths:
        if p == "-":
            yield "<stdin>", sys.stdin.buffer.read(), None
            continue
        path = Path(p)
        if path.is_dir():
            for f in sorted(x for x in path.rglob("*") if x.is_file()):
                yield from _read(f)
        else:
            yield from _read(path)


def _read(path: Path):
    try:
        yield str(path), path.read_bytes(), None
    except OSError as exc:
        yield str(path), None, f"cannot read {path}: {exc.strerror or exc}"


def _probability(text: str) -> float:
    """argparse type: a probability in [0, 1]."""
    try:
        p = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= p <= 1.0:
        raise argparse.ArgumentTypeError(f"a probability in [0, 1], not {text}")
    return p


def _threshold(args) -> dict:
    """--threshold as the method parameter `threshold` (only when given)."""
    t = getattr(args, "threshold", None)
    return {} if t is None else {"threshold": t}


def cmd_extract(args) -> int:
    """One page: its text; a batch (directories, WARC, --files-from, several inputs): JSON lines
    or Parquet, one record per page in input order, --jobs worker processes (fastx.batch)."""
    return batch.run_extract(args, {**_method_params(args), **_threshold(args)})


def cmd_evaluate(args) -> int:
    """``fastx evaluate PREDICTED GOLD``: LCS precision/recall/F1, the CleanEval score and shingle
    F1 of a predicted text against a gold text (``fastx.evaluate.evaluate_files``)."""
    s = evaluate.evaluate_files(args.predicted, args.gold)
    if args.json:
        print(json.dumps(s))
    else:
        print("  ".join(f"{k} {v:.4f}" if isinstance(v, float) else f"{k} {v}" for k, v in s.items()))
    return 0


def cmd_methods(args) -> int:
    """``fastx methods``: every extraction method with its one-line description."""
    for name, desc in api.methods().items():
        print(f"{name:<14} {desc}")
    return 0


def _method_params(args) -> dict:
    """method= for extract; with `--rules FILE`, method 'site' and the SiteModel (loaded once)."""
    if not getattr(args, "rules", None):
        return {"method": args.method}
    if getattr(args, "_site_model", None) is None:
        from ..methods.site.model import SiteModel
        args._site_model = SiteModel.load(args.rules)
        args.method = "site"
    return {"method": "site", "model": args._site_model}


def cmd_learn_site(args) -> int:
    """Learn site rules from pages of one site (seeds/001) and write them as JSON."""
    from ..methods.site.model import SiteModel
    pages, names = [], []
    for name, data, err in _inputs(args.pages):
        if err is not None:
            print(f"fastx: {name}: {err}", file=sys.stderr)
            return 1
        pages.append(data)
        names.append(name)
    if not pages:
        print("fastx: learn-site: no pages given", file=sys.stderr)
        return 1
    model = SiteModel.learn(pages, eps=args.eps, score_ratio=args.score_ratio)
    model.save(args.output)
    print(f"fastx: learned {len(model.rules)} rules from {len(pages)} pages in "
          f"{model.stats.get('learn_seconds', 0):.2f} s -> {args.output}", file=sys.stderr)
    for s in model.selectors:
        print(s, file=sys.stderr)
    return 0


def version() -> str:
    """The installed distribution's version (``importlib.metadata``), else ``fastx.__version__``
    (a source checkout that was never installed)."""
    from importlib import metadata
    for dist in ("fastx-extract", "fastx_extract"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    from .. import __version__
    return __version__


def build_parser() -> argparse.ArgumentParser:
    """The ``fastx`` argument parser: top-level options and one subcommand per command."""
    ap = argparse.ArgumentParser(prog="fastx", description="Main-content extraction from web pages.",
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("-V", "--version", action="version", version=f"fastx {version()}",
                    help="print fastx's version and exit")
    sub = ap.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("extract", help="extract main content from files, directories, WARC files or stdin")
    ex.add_argument("inputs", nargs="*", help="HTML files, directories, WARC files (.warc, .warc.gz), "
                                              "http(s) URLs, or - for stdin (one page or a WARC stream)")
    ex.add_argument("--urls-from", metavar="LIST", action="append", default=[],
                    help="fetch the http(s) URLs listed in LIST, one a line ('-': stdin; '#' comments); "
                         "may repeat (needs urllib3: fastx-extract[web])")
    ex.add_argument("--fetch-timeout", type=float, default=None, metavar="S",
                    help="seconds for fetching one URL, whole answer included (default 30)")
    ex.add_argument("--max-download", type=float, default=None, metavar="MB",
                    help="largest page fetched, decoded (default 20 MB); larger ones get an error record")
    ex.add_argument("--method", default="default", help="extraction method (see `fastx methods`)")
    ex.add_argument("--format", choices=("text", "json", "jsonl", "html", "markdown", "parquet"), default=None,
                    help="default: text for one page, JSON lines for a batch (Parquet for -o *.parquet)")
    ex.add_argument("--html", action="store_true", help="with --format json/parquet: include cleaned HTML")
    ex.add_argument("--markdown", action="store_true",
                    help="with --format json/parquet: include the Markdown (a 'markdown' field)")
    ex.add_argument("--url", help="the page's URL (used by some methods)")
    ex.add_argument("--threshold", type=_probability, default=None, metavar="P",
                    help="method default: the probability a block needs to be kept (default: the model's); "
                         "lower keeps more (recall), higher keeps less (precision); 0.3-0.8 is useful")
    ex.add_argument("--rules", help="site rules from `fastx learn-site` (implies --method site)")
    batch.add_arguments(ex)
    ex.set_defaults(func=cmd_extract)
    ls = sub.add_parser("learn-site", help="learn extraction rules from pages of one site (method 'site')")
    ls.add_argument("pages", nargs="+", help="HTML files or directories of one site (about 10 pages)")
    ls.add_argument("-o", "--output", required=True, help="rules file to write (JSON)")
    ls.add_argument("--eps", type=float, default=1.5, help="DBSCAN radius over one-hot block features")
    ls.add_argument("--score-ratio", type=float, default=1.0,
                    help="content clusters score at least this share of the best cluster (besides each "
                         "page's best cluster and the clusters inside its box)")
    ls.set_defaults(func=cmd_learn_site)
    ev = sub.add_parser("evaluate", help="LCS and shingle scores of a predicted text against a gold text")
    ev.add_argument("predicted", help="the extracted text (a file)")
    ev.add_argument("gold", help="the gold text (plain, or CleanEval format with a URL: line and <p>/<h>/<l> markers)")
    ev.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    ev.set_defaults(func=cmd_evaluate)
    be = sub.add_parser("bench", help="accuracy and speed of every method and installed peer")
    bench.add_arguments(be)
    be.set_defaults(func=bench.run)
    sh = sub.add_parser("show", help="an HTML report of what a method kept and why (density plots, hover)")
    show.add_arguments(sh)
    sh.set_defaults(func=show.run)
    me = sub.add_parser("methods", help="list the extraction methods")
    me.set_defaults(func=cmd_methods)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except FastxError as exc:
        print(f"fastx: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
