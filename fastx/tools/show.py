"""``fastx show``: one self-contained HTML report of what a method kept and why.

::

    python -m fastx show page.html -o report.html                  # method default, explained
    python -m fastx show page.html --method cetd -o report.html    # CETD's densities and threshold
    python -m fastx show page.html --compare default,cetd -o r.html  # side by side

    from fastx.tools.show import report
    Path("r.html").write_text(report(page_bytes, ["cetd"]))

The report shows the page as fastx parsed it (the Doc, serialized from its
arrays: no Python DOM objects), kept text highlighted and dropped text
dimmed, the outermost kept blocks outlined; hovering a block shows its
scores and the method's reason; beside it, the per-node density plots of the
CETD paper (seeds/004, Figs. 3, 4, 6: TD, CTD and, with a rendered layout,
HTD, in document order) with the method's threshold, each point linked to
its block (hover highlights both, a click scrolls the page to it).

Safe to open: the page's scripts, styles, event handlers, links, images and
every other external resource are gone (only a whitelist of structural tags
is written, with no page attribute but colspan/rowspan/start; all text is
escaped), and a Content-Security-Policy forbids any request.  Nothing is
needed to view it but a browser.

Explanation protocol
--------------------
A method family (``fastx/methods/<family>/``) explains its choices with a
function ``explain(doc, **params) -> dict`` registered with its methods
(``@fastx.methods.explains("cetd", "cetd-td", ...)``), taking the same
parameters as the method(s) (the registered defaults are passed).  The dict
holds:

- per-node scores: ``{"CTD": float array (doc.n,), "DensitySum": ...}``; the
  first is the one the method decides on (plotted, with the threshold); NaN
  for nodes the method does not score;
- ``threshold`` (float, optional): on the first score;
- ``focus`` (int, optional): the node the decision centres on (CETD: the
  node of maximum DensitySum), ringed in the plot;
- ``reason`` (uint8 array (doc.n,)) and ``reasons`` (tuple of str, optional):
  each node's reason code and the texts; ``{cause}`` in a text names the
  node in ``cause`` (int32 array (doc.n,), -1: none).

Methods without ``explain`` get the keep mask and the Doc's own statistics
(chars, link density, punctuation, tags) on hover, and the paper's density
plots coloured by their keep mask.

The ``default`` method (a tree ensemble) is explained by
:func:`explain_default` (fastx/methods/default/explain.py): each block's
probability and the features that moved it most, from a per-feature
attribution of the model's log-odds (:func:`tree_contributions`, Saabas'
decision-path method).
"""
from __future__ import annotations

import argparse
import html as _html
import json
import math
import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .. import _core, api
from ..methods import get as _method
from ..errors import FastxError, InputError
from .plot import DROPPED, KEPT, Axis, Chart, Point, Rule

RESERVED = ("threshold", "focus", "reason", "reasons", "cause")
MAX_VIEWS = 4

# tags written as themselves: structure that survives a browser's re-parse of serialized markup
# (formatting elements such as a/b/i/font are re-opened by the HTML parser's adoption agency and
# would duplicate nodes; p closes at any block start): those become spans/divs with a t-<tag> class
_KEEP_TAGS = frozenset(
    "div h1 h2 h3 h4 h5 h6 ul ol li dl dt dd table caption colgroup col thead tbody tfoot tr td th "
    "blockquote pre article section main header footer nav aside figure figcaption address center "
    "hr br sub sup span".split())
_VOID = _KEEP_TAGS & _core.VOID_TAGS          # written without an end tag (br, hr, col)
_PLACEHOLDER = {"img": "image", "input": "input", "video": "video", "audio": "audio", "picture": "picture",
                "select": "select", "textarea": "textarea", "button": "button", "area": "area"}
_NUM_ATTRS = {"td": ("colspan", "rowspan"), "th": ("colspan", "rowspan"), "ol": ("start",)}
_CLASS_SAFE = re.compile(r"[^a-z0-9-]")


# ---------------------------------------------------------------- explanations
def explanation(method: str, doc, params: dict | None = None) -> dict | None:
    """The method's ``explain(doc, **params)`` (see the module docstring), checked; None if it has none."""
    m = _method(method)
    fn = m.explain
    if fn is None:
        return None
    raw = fn(doc, **{**m.defaults, **(params or {})})
    if not isinstance(raw, dict):
        raise FastxError(f"{m.run.__module__}.explain returned {type(raw).__name__}, not a dict")
    out: dict = {"scores": {}}
    n = doc.n
    for key, val in raw.items():
        if key in RESERVED:
            continue
        arr = np.asarray(val, dtype=np.float64)
        if arr.shape != (n,):
            raise FastxError(f"{m.run.__module__}.explain: score {key!r} has shape {arr.shape}, "
                             f"the Doc has {n} nodes")
        out["scores"][str(key)] = arr
    thr = raw.get("threshold")
    out["threshold"] = float(thr) if thr is not None and math.isfinite(float(thr)) else None
    focus = raw.get("focus")
    out["focus"] = int(focus) if focus is not None and 0 <= int(focus) < n else None
    if "reason" in raw:
        reason = np.asarray(raw["reason"], dtype=np.int64)
        reasons = [str(t) for t in raw.get("reasons", ())]
        cause = np.asarray(raw.get("cause", np.full(n, -1)), dtype=np.int64)
        if reason.shape != (n,) or cause.shape != (n,) or (len(reason) and (reason.min() < 0 or reason.max() >= len(reasons))):
            raise FastxError(f"{m.run.__module__}.explain: reason/cause must be arrays over the Doc's "
                             f"{n} nodes with codes into reasons ({len(reasons)} texts)")
        out.update(reason=reason, reasons=reasons, cause=cause)
    return out


# (the default method's explanation lives with the method: fastx/methods/default/explain.py)
from ..methods.default.explain import explain_default, tree_contributions  # noqa: E402,F401


def paper_densities(doc) -> dict[str, np.ndarray]:
    """TD (Eq. 1) and CTD (Eq. 2) of every node, and HTD (Eq. 4) when a layout is attached."""
    out = {"TD": _core.text_density(doc), "CTD": _core.composite_text_density(doc)}
    layout = doc.cache.get("layout")
    if layout is not None:
        from ..methods.cetd import density
        out["HTD"] = density(doc, "htd")
    return out


# ---------------------------------------------------------------- the page
def _root(doc) -> int:
    return doc.body if doc.body >= 0 else 0


def page_markup(doc, keep: np.ndarray) -> str:
    """The Doc's <body> subtree as safe markup: every element and text node carries ``data-fx``
    (its Doc index) and class ``fx-k`` (kept) or ``fx-d`` (dropped); text nodes are
    ``<span class="fx-t">``; the outermost kept nodes have ``fx-root``, block elements ``fx-blk``.
    Written by the one serializer (``_core.serialize``: one walk with an explicit stack of open
    tags, no recursion, text escaped), with these marks around each node."""
    if doc.n == 0:
        return ""
    esc = _html.escape
    parent, kind, flags = doc.parent, doc.kind, doc.flags
    ws_before, ws_after = _core.NODE_FLAGS["ws_before"], _core.NODE_FLAGS["ws_after"]
    block = _core.NODE_FLAGS["block"]
    root = _root(doc)
    kept = keep.astype(bool)

    def marks(i: int) -> tuple[str, str]:
        k = "fx-k" if kept[i] else "fx-d"
        if kept[i] and (i == root or not kept[parent[i]]):
            k += " fx-root"
        f = int(flags[i])
        if kind[i] == _core.KIND_TEXT:
            return (f'{" " if f & ws_before else ""}<span data-fx="{i}" class="fx-t {k}">',
                    f'</span>{" " if f & ws_after else ""}')
        name = doc.tag_name(i)
        cls = [k]
        if f & block:
            cls.append("fx-blk")
        attrs = ""
        if name in _KEEP_TAGS:
            tag = name
            for a in _NUM_ATTRS.get(name, ()):
                v = doc.attr(i, a)
                if v is not None and v.strip().isdigit():
                    attrs += f' {a}="{int(v.strip())}"'
        else:
            tag = "div" if f & block else "span"
            cls.append("t-" + (_CLASS_SAFE.sub("", name)[:32] or "x"))
            if name in _PLACEHOLDER:
                cls.append("fx-ph")
                alt = (doc.attr(i, "alt") or doc.attr(i, "value") or "").strip()[:80]
                attrs += f' data-ph="{esc(_PLACEHOLDER[name] + (": " + alt if alt else ""))}"'
        return f'<{tag} data-fx="{i}" class="{" ".join(cls)}"{attrs}>', "" if tag in _VOID else f"</{tag}>"

    return _core.serialize(doc, np.ascontiguousarray(keep, dtype=np.uint8), marks)


def _label(doc, i: int) -> str:
    """'tag#id.class1.class2' of element i (at most 60 characters)."""
    a = doc.attributes(i)
    lab = doc.tag_name(i)
    if a.get("id", "").strip():
        lab += "#" + a["id"].strip()
    classes = a.get("class", "").split()
    if classes:
        lab += "." + ".".join(classes[:2])
    return lab if len(lab) <= 60 else lab[:59] + "…"


def _labels(doc) -> list[str]:
    """_label of every element, '' for text nodes."""
    out = [""] * doc.n
    for i in np.flatnonzero(doc.kind == _core.KIND_ELEMENT).tolist():
        out[i] = _label(doc, i)
    return out


# ---------------------------------------------------------------- plots
def density_charts(doc, keep: np.ndarray, expl: dict | None, paper: dict[str, np.ndarray],
                   compact: bool = False) -> list[Chart]:
    """The view's plots: the scores of the method's explanation (the first with its threshold),
    then the paper's TD / CTD / HTD not already shown; a point per scored element of <body>
    (x: its rank in document order; past four a pixel column, the column's envelope: `_envelope`),
    green if kept, grey if dropped."""
    root = _root(doc)
    nodes = np.flatnonzero(doc.kind[root:doc.end[root]] == _core.KIND_ELEMENT) + root if doc.n else np.zeros(0, int)
    rank = np.arange(len(nodes))
    panels: list[tuple[str, np.ndarray, float | None, int | None]] = []
    if expl:
        for k, (name, score) in enumerate(expl["scores"].items()):
            panels.append((name, score, expl["threshold"] if k == 0 else None, expl["focus"]))
    shown = {p[0] for p in panels}
    panels += [(name, score, None, None) for name, score in paper.items() if name not in shown]
    charts = []
    xmax = max(len(nodes) - 1, 1)
    width = 470 if not compact else 340
    for name, score, thr, focus in panels:
        vals = score[nodes]
        shown_at = _envelope(rank, vals, keep[nodes] > 0, nodes == focus, width)
        pts = []
        for x, i, v in zip(rank[shown_at].tolist(), nodes[shown_at].tolist(), vals[shown_at].tolist()):
            if math.isnan(v):
                continue
            cls = "fx-k" if keep[i] else "fx-d"
            if i == focus:
                cls += " fx-focus"
            pts.append(Point(x, v, KEPT if keep[i] else DROPPED, cls=cls, attrs={"data-node": i}))
        rules = [Rule(thr, f"threshold {thr:.4g}", cls="fx-threshold")] if thr is not None else []
        title = f"{name} per node" + (" (thresholded)" if thr is not None else "")
        charts.append(Chart(Axis("element, in document order", "linear", 0, xmax),
                            Axis(f"{name} (log scale)", "symlog"), pts, rules, title=title,
                            width=width, height=190 if not compact else 150,
                            radius=2.2, connect=len(pts) <= 1500, css_class="fx-plot",
                            attrs={"data-score": name, "data-points": len(pts),
                                   "data-nodes": int(np.count_nonzero(~np.isnan(vals)))}))
    return charts


def _envelope(rank: np.ndarray, vals: np.ndarray, kept: np.ndarray, focus: np.ndarray,
              width: int) -> np.ndarray:
    """Positions of the points a chart `width` pixels wide draws: all of them up to 4 per pixel
    column, else per column the lowest and the highest score of the kept and of the dropped
    elements (and the focus), so a chart costs the same on any page size and still shows every
    peak, trough and verdict (NaN scores are never drawn)."""
    finite = ~np.isnan(vals)
    if np.count_nonzero(finite) <= 4 * width:
        return np.flatnonzero(finite)
    col = (rank * (width - 1) // max(int(rank[-1]), 1)).astype(np.int64)
    key = np.where(finite, col * 2 + kept, -1)
    order = np.lexsort((vals, key))
    order = order[key[order] >= 0]
    k = key[order]
    first = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    last = np.r_[first[1:] - 1, len(order) - 1]
    pick = np.union1d(order[first], order[last])
    return np.union1d(pick, np.flatnonzero(focus & finite))


# ---------------------------------------------------------------- the report
def _num(v: float):
    """JSON-friendly rounded number: None for NaN, 'inf'/'-inf' for infinities."""
    if math.isnan(v):
        return None
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return float(f"{v:.5g}")


def _json_script(obj) -> str:
    """JSON safe inside <script type="application/json">: no '<', '>' or '&' characters."""
    s = json.dumps(obj, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def report(page, methods: Sequence[str] | str = ("default",), url: str | None = None, encoding: str | None = None,
           render=False, layout=None, params: dict[str, dict] | None = None, name: str | None = None) -> str:
    """The HTML report (a string) for `page` (str, bytes or a parsed Doc) under each of `methods`
    (1 to 4, side by side). `params`: {method: {param: value}}; `render` / `layout`: attach a
    rendered layout first (fastx.render), which makes HTD available; `name`: shown in the header."""
    if isinstance(methods, str):
        methods = [methods]
    methods = list(dict.fromkeys(m.strip() for m in methods if m and m.strip()))
    if not 1 <= len(methods) <= MAX_VIEWS:
        raise InputError(f"fastx show compares 1 to {MAX_VIEWS} methods, got {len(methods)}")
    for m in methods:
        _method(m)          # unknown names fail before any work
    doc = api.parse(page, url=url, encoding=encoding)
    if render is not False or layout is not None:
        from .browser import attach
        attach(doc, layout=layout, render=render)
    paper = paper_densities(doc)
    descriptions = api.methods()
    n = doc.n
    root = _root(doc)
    chars = doc.chars.astype(np.float64)
    link_density = np.divide(doc.link_chars, chars, out=np.zeros(n), where=chars > 0)
    data: dict[str, Any] = {"nodes": {"label": _labels(doc), "chars": doc.chars.tolist(), "tags": doc.tags.tolist(),
                      "punct": doc.punct.tolist(), "ld": [round(v, 3) for v in link_density.tolist()],
                      "kind": doc.kind.tolist()},
            "views": []}
    views = []
    compact = len(methods) > 1
    for v, m in enumerate(methods):
        r = api.extract(doc, method=m, **(params or {}).get(m, {}))
        keep = np.ascontiguousarray(r.keep, dtype=np.uint8)
        expl = explanation(m, doc, (params or {}).get(m))
        charts = density_charts(doc, keep, expl, paper, compact)
        view = {"method": m, "keep": keep.tolist(), "scores": [], "threshold": None, "explained": expl is not None}
        if expl is not None:
            view["scores"] = [[k, [_num(x) for x in s.tolist()]] for k, s in expl["scores"].items()]
            view["threshold"] = expl["threshold"]
            view["focus"] = expl["focus"]
            if "reason" in expl:
                view.update(reason=expl["reason"].tolist(), reasons=expl["reasons"], cause=expl["cause"].tolist())
        data["views"].append(view)
        kept_chars = int(doc.chars[(keep == 1) & (doc.kind == _core.KIND_TEXT)].sum())
        views.append(_view_html(v, m, descriptions.get(m, ""), doc, keep, expl, charts, kept_chars, root))
    title = doc.title or "(untitled page)"
    head_bits = [f"{n:,} nodes", f"{int(doc.chars[root]) if n else 0:,} characters"]
    if doc.url or url:
        head_bits.insert(0, _html.escape(doc.url or url or ""))
    if name:
        head_bits.insert(0, _html.escape(name))
    return _asset("show.html").format(
        title=_html.escape(title), title_attr=_html.escape(title, quote=True),
        sub=" · ".join(head_bits), views="".join(views), n_views=len(views), meta=metadata_html(doc, url),
        methods=_html.escape(", ".join(methods)), data=_json_script(data), css=_asset("show.css"), js=_asset("show.js"))


def metadata_html(doc, url: str | None = None) -> str:
    """The page's metadata (fastx.metadata) as a collapsible table: every field, its value and
    where it came from (json-ld, opengraph, meta, microdata, time, byline, h1, title, url...).
    Values are text, HTML-escaped: URLs are not links and images are not loaded."""
    from ..output.metadata import extract_metadata
    esc = _html.escape
    md = extract_metadata(doc, url)
    rows = []
    for name in ("title", "author", "date", "date_modified", "sitename", "language", "url", "image",
                 "description", "tags", "categories", "type"):
        value = getattr(md, name)
        if isinstance(value, list):
            value = ", ".join(value)
        src = md.source.get(name, "")
        rows.append(f'<tr><th>{esc(name)}</th><td>{esc(value) if value else "<i>none</i>"}</td>'
                    f'<td class="fx-src">{esc(src)}</td></tr>')
    found = sum(1 for name in md.source)
    return (f'<details class="fx-meta"><summary>page metadata: {found} fields found</summary>'
            f'<table><tr><th>field</th><th>value</th><th>from</th></tr>{"".join(rows)}</table></details>')


def _view_html(v: int, method: str, description: str, doc, keep, expl, charts, kept_chars: int,
               root: int) -> str:
    esc = _html.escape
    total = int(doc.chars[root]) if doc.n else 0
    in_body = keep[root:doc.end[root]] if doc.n else keep
    stats = [f"kept <b>{kept_chars:,}</b> of {total:,} characters ({100 * kept_chars / total if total else 0:.0f}%)",
             f"{int(in_body.sum()):,} of {len(in_body):,} nodes",
             '<a href="#" class="fx-next">next kept block ⇣</a>']
    if expl is not None and expl["threshold"] is not None:
        stats.append(f"threshold <b>{expl['threshold']:.4g}</b>")
    if expl is not None and expl["focus"] is not None:
        f = expl["focus"]
        stats.append(f'focus <a href="#" class="fx-go" data-node="{f}">{esc(_label(doc, f))} (node {f})</a>')
    note = ""
    if expl is None:
        note = (f'<p class="fx-note">{esc(method)} has no <code>explain()</code>: hover shows its keep '
                f'mask and the Doc statistics; the plots are the paper\'s densities coloured by what it kept.</p>')
    legend = ('<div class="fx-legend"><span><i class="sw k"></i>kept</span><span><i class="sw d"></i>dropped</span>'
              '<span><i class="sw r"></i>threshold</span><span><i class="sw o"></i>outermost kept block</span></div>')
    plots = "".join(f'<div class="fx-chart">{c.svg()}</div>' for c in charts)
    return (f'<section class="fx-view" data-view="{v}">'
            f'<aside class="fx-side"><h2>{esc(method)} <small>{esc(description)}</small></h2>'
            f'<p class="fx-stats">{" · ".join(stats)}</p>{legend}{note}<div class="fx-charts">{plots}</div>'
            f'<div class="fx-inspect" data-empty="1">Hover a block of the page or a point of a plot; '
            f'click a point to scroll to its block.</div></aside>'
            f'<div class="fx-page">{page_markup(doc, keep)}</div></section>')


def _asset(name: str) -> str:
    """A report asset (tools/assets/: show.css, show.js, show.html, the page template with
    str.format fields), read once from the package's files."""
    text = _ASSETS.get(name)
    if text is None:
        text = _ASSETS[name] = (resources.files("fastx.tools") / "assets" / name).read_text("utf-8")
    return text


_ASSETS: dict[str, str] = {}


# ---------------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("page", help="an HTML file, or - for stdin")
    parser.add_argument("--method", default="default",
                        help="the method to show (default: default, explained per block; see `fastx methods`)")
    parser.add_argument("--compare", metavar="M1,M2",
                        help=f"methods side by side (2 to {MAX_VIEWS}, comma-separated; replaces --method)")
    parser.add_argument("-o", "--output", default="-", metavar="FILE",
                        help="the report (one self-contained HTML file); default: standard output")
    parser.add_argument("--url", help="the page's URL (used by some methods)")
    parser.add_argument("--render", action="store_true",
                        help="lay the page out in headless Chromium first (fastx-extract[render]): adds HTD and "
                             "serves methods that need the layout")
    return parser


def run(args: argparse.Namespace) -> int:
    """``fastx show``: read the page, write the report (see the module docstring); exit code 2 on
    a usage or input error."""
    if args.compare:
        names = [m for m in args.compare.split(",") if m.strip()]
        if len(names) < 2:
            print("fastx show: --compare needs at least two methods, e.g. --compare cetd,cetd-td", file=sys.stderr)
            return 2
    else:
        names = [args.method]
    try:
        data = sys.stdin.buffer.read() if args.page == "-" else Path(args.page).read_bytes()
    except OSError as exc:
        print(f"fastx show: cannot read {args.page}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    out = report(data, names, url=args.url, render=True if args.render else False,
                 name=None if args.page == "-" else Path(args.page).name)
    if args.output == "-":
        sys.stdout.write(out)
    else:
        try:
            Path(args.output).write_text(out, encoding="utf-8")
        except OSError as exc:
            print(f"fastx show: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"fastx show: wrote {args.output} ({len(out.encode()) / 1024:.0f} KB; {', '.join(names)})",
              file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fastx show", description=__doc__.split("\n\n")[0])
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except FastxError as exc:
        print(f"fastx show: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
