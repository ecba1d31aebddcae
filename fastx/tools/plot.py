"""Scatter plots as plain SVG (no dependency), PNG through matplotlib when installed.

One chart description, :class:`Chart`, serves both figures fastx draws:

- the per-node density plots of ``fastx show`` (the CETD paper's Figs. 3, 4
  and 6, seeds/004: each node's TD / CTD / HTD in document order, with the
  extraction threshold as a horizontal rule), inlined in the report;
- the accuracy-against-speed plot of ``fastx bench --plot FILE``
  (:func:`bench_chart`: one point per extractor, F1 against median ms/page as
  a multiple of parse-only).

>>> chart = Chart(Axis("node (document order)"), Axis("CTD", "symlog"),
...               [Point(0, 3.2), Point(1, 40.5, color=KEPT)], rules=[Rule(13.1, "threshold")])
>>> chart.svg()              # an <svg> element, inline or standalone
>>> chart.save("plot.png")   # .svg always; .png needs matplotlib (pip install 'fastx-extract[plot]')

Scales: ``linear``, ``log`` (base 10, positive values) and ``symlog``
(sign(v) * log10(1 + |v|): densities span 0 to thousands and the threshold
sits near the bottom, so a linear axis would hide it).  Infinite values (CTD
is infinite on a page without links, Eq. 2) are drawn on the top edge as
triangles.
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Iterable

from ..errors import InputError

SCALES = ("linear", "log", "symlog")
KEPT = "#2e7d32"      # kept / content
DROPPED = "#9e9e9e"   # dropped / boilerplate
RULE = "#c62828"      # threshold
FASTX = "#1565c0"     # fastx methods in the bench plot
PEER = "#ef6c00"      # peer extractors in the bench plot
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
_CHAR_W = 0.6         # average glyph width / font size, for label boxes


@dataclass
class Axis:
    label: str
    scale: str = "linear"
    lo: float | None = None      # None: from the data
    hi: float | None = None

    def __post_init__(self):
        if self.scale not in SCALES:
            raise InputError(f"unknown axis scale {self.scale!r}; use one of {', '.join(SCALES)}")


@dataclass
class Point:
    x: float
    y: float
    color: str = DROPPED
    label: str | None = None     # drawn beside the point
    title: str | None = None     # hover text
    cls: str = ""                # extra CSS classes of the marker
    attrs: dict | None = None    # extra attributes of the marker (e.g. data-node)


@dataclass
class Rule:
    """A reference line: horizontal at y = value (axis "y") or vertical at x = value."""
    value: float
    label: str = ""
    axis: str = "y"
    color: str = RULE
    cls: str = ""


@dataclass
class Chart:
    x: Axis
    y: Axis
    points: list[Point]
    rules: list[Rule] = field(default_factory=list)
    title: str = ""
    legend: list[tuple[str, str]] = field(default_factory=list)   # (color, text)
    legend_at: str = "top-left"  # or "bottom-right"
    note: str = ""               # small print at the top right
    width: int = 480
    height: int = 200
    radius: float = 2.4
    connect: bool = False        # a faint line through the points in order (the paper's figures)
    css_class: str = "fx-plot"
    attrs: dict | None = None    # extra attributes of the <svg> element

    # ------------------------------------------------------------ layout
    def _ranges(self):
        xs = [p.x for p in self.points if math.isfinite(p.x)] + \
             [r.value for r in self.rules if r.axis == "x" and math.isfinite(r.value)]
        ys = [p.y for p in self.points if math.isfinite(p.y)] + \
             [r.value for r in self.rules if r.axis == "y" and math.isfinite(r.value)]
        return _range(self.x, xs), _range(self.y, ys)

    def _margins(self):
        top = 22 if self.title else 8
        return 46, 10, top, 34      # left, right, top, bottom

    # ------------------------------------------------------------ SVG
    def _geometry(self):
        """Pixel layout shared by the SVG and the PNG: plot box, scale functions, the drawable
        points with their pixel positions, and where each point's label goes."""
        ml, mr, mt, mb = self._margins()
        pw, ph = self.width - ml - mr, self.height - mt - mb
        (x0, x1), (y0, y1) = self._ranges()
        tx = lambda v: ml + pw * _frac(self.x.scale, v, x0, x1)          # noqa: E731
        ty = lambda v: mt + ph * (1.0 - _frac(self.y.scale, v, y0, y1))  # noqa: E731
        xy = [(p, min(max(tx(p.x), ml), ml + pw), min(max(ty(p.y), mt), mt + ph))
              for p in self.points if not (math.isnan(p.x) or math.isnan(p.y))]
        labelled = [t for t in xy if t[0].label]
        spots = _place_labels(labelled, self.radius, (ml, mt, ml + pw, mt + ph))
        return SimpleNamespace(ml=ml, mr=mr, mt=mt, pw=pw, ph=ph, x0=x0, x1=x1, y0=y0, y1=y1, tx=tx, ty=ty,
                               xy=xy, labels=list(zip(labelled, spots)))

    def svg(self, standalone: bool = False) -> str:
        """The chart as an ``<svg>`` element (with an XML prolog and fonts when `standalone`)."""
        W, H = self.width, self.height
        g = self._geometry()
        ml, mr, mt, pw, ph, tx, ty = g.ml, g.mr, g.mt, g.pw, g.ph, g.tx, g.ty
        x0, x1, y0, y1 = g.x0, g.x1, g.y0, g.y1
        extra = "".join(f' {k}="{_e(v)}"' for k, v in (self.attrs or {}).items())
        out = []
        if standalone:
            out.append('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.append(f'<svg xmlns="http://www.w3.org/2000/svg" class="{_e(self.css_class)}" width="{W}" '
                   f'height="{H}" viewBox="0 0 {W} {H}" font-family="{_e(FONT)}" font-size="11"{extra}>')
        if standalone:
            out.append(f'<rect width="{W}" height="{H}" fill="#fff"/>')
        if self.title:
            out.append(f'<text x="{ml}" y="14" font-size="12" font-weight="600" fill="#222">{_e(self.title)}</text>')
        # grid and ticks
        out.append('<g class="fx-axes" stroke="#e3e3e3" stroke-width="1">')
        for v in _ticks(self.y.scale, y0, y1):
            y = ty(v)
            out.append(f'<line x1="{ml}" x2="{ml + pw}" y1="{y:.1f}" y2="{y:.1f}"/>'
                       f'<text x="{ml - 5}" y="{y + 3.5:.1f}" text-anchor="end" stroke="none" fill="#555">'
                       f'{_fmt(v)}</text>')
        for v in _ticks(self.x.scale, x0, x1):
            x = tx(v)
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{mt}" y2="{mt + ph}"/>'
                       f'<text x="{x:.1f}" y="{mt + ph + 13}" text-anchor="middle" stroke="none" fill="#555">'
                       f'{_fmt(v)}</text>')
        out.append(f'<rect x="{ml}" y="{mt}" width="{pw}" height="{ph}" fill="none" stroke="#bbb"/></g>')
        out.append(f'<text x="{ml + pw / 2:.1f}" y="{H - 4}" text-anchor="middle" fill="#333">{_e(self.x.label)}</text>')
        out.append(f'<text transform="translate(11 {mt + ph / 2:.1f}) rotate(-90)" text-anchor="middle" '
                   f'fill="#333">{_e(self.y.label)}</text>')
        # the points: a connecting line, then markers, then labels
        xy = g.xy
        if self.connect and len(xy) > 1:
            d = " ".join(f"{x:.1f},{y:.1f}" for _, x, y in xy)
            out.append(f'<polyline class="fx-line" points="{d}" fill="none" stroke="#90a4ae" '
                       f'stroke-width="0.7" stroke-opacity="0.8"/>')
        out.append('<g class="fx-points">')
        r = self.radius
        for p, x, y in xy:
            cls = f"fx-pt {p.cls}".strip()
            attrs = "".join(f' {k}="{_e(v)}"' for k, v in (p.attrs or {}).items())
            tip = f"<title>{_e(p.title)}</title>" if p.title else ""
            if math.isinf(p.y) or math.isinf(p.x):
                out.append(f'<path class="{cls} fx-clip" d="M{x - r * 1.4:.1f},{y + r * 1.6:.1f}h{r * 2.8:.1f}'
                           f'l{-r * 1.4:.1f},{-r * 2.6:.1f}z" fill="{_e(p.color)}"{attrs}>{tip}</path>')
            else:
                out.append(f'<circle class="{cls}" cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{_e(p.color)}"'
                           f'{attrs}>{tip}</circle>')
        out.append("</g>")
        # rules on top of the points, so a threshold stays visible in a dense plot
        for rule in self.rules:
            cls = f"fx-rule {rule.cls}".strip()
            if rule.axis == "y":           # a horizontal rule, labelled at its right end
                y = ty(rule.value)
                ends = f'x1="{ml}" x2="{ml + pw}" y1="{y:.1f}" y2="{y:.1f}"'
                where = f'x="{ml + pw - 4}" y="{y - 4:.1f}" text-anchor="end"'
            else:                           # a vertical rule, labelled at its top
                x = tx(rule.value)
                ends = f'x1="{x:.1f}" x2="{x:.1f}" y1="{mt}" y2="{mt + ph}"'
                where = f'x="{x + 4:.1f}" y="{mt + 12}"'
            out.append(f'<line class="{cls}" {ends} stroke="{_e(rule.color)}" stroke-width="1.3" '
                       f'stroke-dasharray="5 3"/>')
            if rule.label:
                out.append(f'<text {where} fill="{_e(rule.color)}" paint-order="stroke" stroke="#fff" '
                           f'stroke-width="3">{_e(rule.label)}</text>')
        if g.labels:
            out.append('<g class="fx-labels" fill="#222">')
            for (p, _, _), (lx, ly, anchor) in g.labels:
                out.append(f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}" paint-order="stroke" '
                           f'stroke="#fff" stroke-width="3">{_e(p.label)}</text>')
            out.append("</g>")
        if self.note:
            out.append(f'<text x="{W - mr}" y="14" text-anchor="end" font-size="10" fill="#777">{_e(self.note)}</text>')
        if self.legend:
            lx, ly = ml + 8, mt + 12
            if self.legend_at == "bottom-right":
                lx = ml + pw - 16 - max(len(t) for _, t in self.legend) * 11 * _CHAR_W
                ly = mt + ph - 8 - 15 * (len(self.legend) - 1)
            out.append('<g class="fx-legend">')
            for color, text in self.legend:
                out.append(f'<circle cx="{lx}" cy="{ly - 3.5}" r="4" fill="{_e(color)}"/>'
                           f'<text x="{lx + 8}" y="{ly}" fill="#222" paint-order="stroke" stroke="#fff" '
                           f'stroke-width="3">{_e(text)}</text>')
                ly += 15
            out.append("</g>")
        out.append("</svg>")
        return "".join(out)

    # ------------------------------------------------------------ PNG
    def png(self, path: str | Path, dpi: int = 150) -> None:
        """Write the chart as PNG with matplotlib (the optional extra ``fastx-extract[plot]``)."""
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise InputError("writing PNG needs matplotlib (pip install 'fastx-extract[plot]'); "
                             "or write SVG, which needs nothing") from None
        g = self._geometry()
        x0, x1, y0, y1 = g.x0, g.x1, g.y0, g.y1
        pt = 0.72                                   # points per SVG pixel at the 100 px/inch figure size
        fig, ax = plt.subplots(figsize=(self.width / 100, self.height / 100), dpi=dpi)
        try:
            for axis, setter, lo, hi, lim, ticks, labels in (
                    (self.x, ax.set_xscale, x0, x1, ax.set_xlim, ax.set_xticks, ax.set_xticklabels),
                    (self.y, ax.set_yscale, y0, y1, ax.set_ylim, ax.set_yticks, ax.set_yticklabels)):
                if axis.scale == "log":
                    setter("log")
                elif axis.scale == "symlog":
                    setter("symlog", linthresh=1.0)
                lim(lo, hi)
                t = _ticks(axis.scale, lo, hi)
                ticks(t)
                labels([_fmt(v) for v in t])
            ax.minorticks_off()
            ax.tick_params(labelsize=11 * pt, length=3)
            clip = lambda v, lo, hi: min(max(v, lo), hi)  # noqa: E731
            xs = [clip(p.x, x0, x1) for p, _, _ in g.xy]
            ys = [clip(p.y, y0, y1) for p, _, _ in g.xy]
            if self.connect and len(xs) > 1:
                ax.plot(xs, ys, color="#90a4ae", linewidth=0.5, zorder=1)
            ax.scatter(xs, ys, c=[p.color for p, _, _ in g.xy], s=(2 * self.radius * pt) ** 2, zorder=2,
                       marker="o", linewidths=0)
            for rule in self.rules:
                line = ax.axhline if rule.axis == "y" else ax.axvline
                line(rule.value, color=rule.color, linestyle="--", linewidth=1, zorder=3)
                if rule.label:
                    if rule.axis == "y":
                        ax.annotate(rule.label, (1, rule.value), xycoords=("axes fraction", "data"),
                                    ha="right", va="bottom", color=rule.color, fontsize=11 * pt)
                    else:
                        ax.annotate(rule.label, (rule.value, 1), xycoords=("data", "axes fraction"),
                                    ha="left", va="top", color=rule.color, fontsize=11 * pt,
                                    xytext=(3, -3), textcoords="offset points")
            ha = {"start": "left", "end": "right", "middle": "center"}
            for (p, x, y), (lx, ly, anchor) in g.labels:   # the SVG's label spots, as offsets
                ax.annotate(p.label, (clip(p.x, x0, x1), clip(p.y, y0, y1)), xytext=((lx - x) * pt, (y - ly) * pt),
                            textcoords="offset points", ha=ha[anchor], va="baseline", fontsize=11 * pt)
            for color, text in self.legend:
                ax.scatter([], [], c=color, label=text)
            if self.legend:
                ax.legend(loc="lower right" if self.legend_at == "bottom-right" else "upper left",
                          fontsize=11 * pt, frameon=False)
            if self.note:
                fig.text(0.99, 0.99, self.note, ha="right", va="top", fontsize=7, color="#777")
            ax.set_xlabel(self.x.label, fontsize=11 * pt)
            ax.set_ylabel(self.y.label, fontsize=11 * pt)
            if self.title:
                ax.set_title(self.title, fontsize=12 * pt, loc="left", fontweight="bold")
            ax.grid(True, color="#e3e3e3", linewidth=0.6)
            ax.set_axisbelow(True)
            fig.tight_layout()
            fig.savefig(path, dpi=dpi)
        finally:
            plt.close(fig)

    def save(self, path: str | Path) -> None:
        """Write ``.svg`` (no dependency) or ``.png`` (matplotlib), by the file's suffix."""
        path = Path(path)
        if check_path(path) == ".svg":
            path.write_text(self.svg(standalone=True) + "\n", encoding="utf-8")
        else:
            self.png(path)


def check_path(path: str | Path) -> str:
    """The plot format of `path` ('.svg' or '.png'), or InputError before any work is done:
    another suffix, or PNG without matplotlib."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".svg", ".png"):
        raise InputError(f"{path}: plot files end in .svg or .png, not {suffix or 'nothing'!r}")
    if suffix == ".png":
        import importlib.util
        if importlib.util.find_spec("matplotlib") is None:
            raise InputError(f"{path}: writing PNG needs matplotlib (pip install 'fastx-extract[plot]'); "
                             "or write SVG, which needs nothing")
    return suffix


def bench_chart(results: dict[str, dict], title: str = "", parse_only: str = "parse-only",
                fastx_prefix: str = "fastx:") -> Chart:
    """F1 against speed, one point per extractor of a ``fastx bench`` run.

    `results`: the bench's {extractor name: figures} (``f1``, ``x_parse_only``,
    ``ms_p50``); the speed axis is median ms/page as a multiple of
    ``parse-only`` (selectolax's parse alone, drawn as the rule at 1).
    """
    points, failed = [], []
    for name, fig in results.items():
        ratio, f1 = fig.get("x_parse_only"), fig.get("f1")
        if name == parse_only or ratio is None or f1 is None:
            continue
        errors, pages = fig.get("errors", 0), fig.get("pages")
        if pages and errors >= pages:          # failed everywhere: its F1 of 0 says nothing
            failed.append(name)
            continue
        own = name.startswith(fastx_prefix)
        label = name[len(fastx_prefix):] if own else name
        points.append(Point(float(ratio), float(f1), FASTX if own else PEER,
                            label=label + (f" ({errors} errors)" if errors else ""),
                            title=f"{name}: F1 {f1:.3f}, {fig.get('ms_p50', float('nan')):.2f} ms/page, "
                                  f"{ratio:.1f}x parse-only", attrs={"data-name": name}))
    if not points:
        raise InputError("no extractor with an F1 and a speed to plot")
    base = results.get(parse_only, {}).get("ms_p50")
    rule = [Rule(1.0, f"parse-only ({base:.2f} ms)" if base else "parse-only", "x", "#555")]
    xs = [p.x for p in points] + [1.0]
    ys = [p.y for p in points]
    x_axis = Axis("median ms/page as a multiple of parse-only (log scale)", "log", min(xs) / 1.3, max(xs) * 1.3)
    y_axis = Axis("F1 (4-token shingles)", "linear", max(0.0, math.floor(min(ys) * 10 - 0.5) / 10),
                  min(1.0, math.ceil(max(ys) * 10 + 0.5) / 10))
    note = f"not plotted (failed on every page): {', '.join(failed)}" if failed else ""
    return Chart(x_axis, y_axis, points, rule, title=title, width=900, height=560, radius=5,
                 legend=[(FASTX, "fastx methods"), (PEER, "installed peers")], legend_at="bottom-right",
                 note=note, css_class="fx-bench-plot")


# ---------------------------------------------------------------- helpers
def _e(v) -> str:
    return html.escape(str(v), quote=True)


def _fwd(scale: str, v: float) -> float:
    if scale == "log":
        return math.log10(v) if v > 0 else -math.inf
    if scale == "symlog":
        return math.copysign(math.log10(1.0 + abs(v)), v)
    return v


def _frac(scale: str, v: float, lo: float, hi: float) -> float:
    """Position of v in [lo, hi] on the scale, 0..1, clipped (infinite values land on an edge)."""
    a, b = _fwd(scale, lo), _fwd(scale, hi)
    if math.isinf(v):
        return 1.0 if v > 0 else 0.0
    f = (_fwd(scale, v) - a) / (b - a) if b > a else 0.5
    return min(max(f, 0.0), 1.0)


def _range(axis: Axis, values: list[float]) -> tuple[float, float]:
    """The axis' [lo, hi]: given bounds, else the data's, padded (log: whole decades)."""
    if axis.scale == "log":
        values = [v for v in values if v > 0]
    lo = axis.lo if axis.lo is not None else (min(values) if values else (1.0 if axis.scale == "log" else 0.0))
    hi = axis.hi if axis.hi is not None else (max(values) if values else lo * 10 if axis.scale == "log" else lo + 1)
    if axis.scale == "log":
        if axis.lo is None:
            lo = 10 ** math.floor(math.log10(lo))
        if axis.hi is None:
            hi = 10 ** math.ceil(math.log10(hi))
        if hi <= lo:
            hi = lo * 10
        return lo, hi
    if axis.lo is None and lo > 0:
        lo = 0.0       # densities, scores, F1: the zero line is part of the picture
    if axis.hi is None:
        hi = hi + (hi - lo) * 0.05 if axis.scale == "linear" else hi
    if hi <= lo:
        hi = lo + 1.0
    return lo, hi


def _nice_step(span: float, n: int = 5) -> float:
    raw = span / max(n, 1)
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return m * mag
    return 10 * mag


def _ticks(scale: str, lo: float, hi: float) -> list[float]:
    if scale == "linear":
        step = _nice_step(hi - lo)
        start = math.ceil(lo / step - 1e-9)
        return [round(k * step, 10) for k in range(start, int(math.floor(hi / step + 1e-9)) + 1)]
    if scale == "log":
        a, b = math.floor(math.log10(lo) + 1e-9), math.ceil(math.log10(hi) - 1e-9)
        mults = (1, 2, 5) if math.log10(hi / lo) <= 3 else (1,)
        return [m * 10.0 ** k for k in range(a, b + 1) for m in mults if lo * (1 - 1e-9) <= m * 10.0 ** k <= hi * (1 + 1e-9)]
    # symlog: 0 and signed powers of ten
    out = [0.0] if lo <= 0 <= hi else []
    k = 0
    while 10.0 ** k <= max(abs(lo), abs(hi)) * (1 + 1e-9) and k < 300:
        for v in (10.0 ** k, -(10.0 ** k)):
            if lo <= v <= hi:
                out.append(v)
        k += 1
    if len(out) > 7:          # many decades: every other one
        out = [v for v in out if v == 0 or round(math.log10(abs(v))) % 2 == 0]
    return sorted(out)


def _fmt(v: float) -> str:
    a = abs(v)
    if a >= 1e6:
        return f"{v / 1e6:g}M"
    if a >= 1e4:
        return f"{v / 1e3:g}k"
    return f"{v:g}"


def _place_labels(items: Iterable, r: float, box: tuple[float, float, float, float], size: float = 11.0):
    """Greedy label placement: for each point, the first of eight spots beside it whose text box
    overlaps no placed label, no other marker and stays in the plot box. Returns (x, y, anchor)."""
    items = list(items)
    placed: list[tuple[float, float, float, float]] = []
    marks = [(x - r, y - r, x + r, y + r) for _, x, y in items]
    out = []
    x_lo, y_lo, x_hi, y_hi = box
    for p, x, y in items:
        w, h = len(p.label) * size * _CHAR_W, size
        spots = [(x + r + 3, y + 4, "start"), (x - r - 3, y + 4, "end"), (x, y - r - 4, "middle"),
                 (x, y + r + h + 1, "middle"), (x + r + 2, y - r - 2, "start"), (x - r - 2, y - r - 2, "end"),
                 (x + r + 2, y + r + h, "start"), (x - r - 2, y + r + h, "end")]
        best, best_cost = None, None
        for lx, ly, anchor in spots:
            left = lx if anchor == "start" else lx - w if anchor == "end" else lx - w / 2
            rect = (left, ly - h + 2, left + w, ly + 2)
            cost = sum(_overlap(rect, q) for q in placed) + sum(_overlap(rect, q) for q in marks) * 0.5
            if rect[0] < x_lo or rect[2] > x_hi or rect[1] < y_lo or rect[3] > y_hi:
                cost += w * h
            if best_cost is None or cost < best_cost - 1e-9:
                best, best_cost = (lx, ly, anchor, rect), cost
            if cost == 0:
                break
        assert best is not None                 # the loop above tries at least one spot
        lx, ly, anchor, rect = best
        placed.append(rect)
        out.append((lx, ly, anchor))
    return out


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0
