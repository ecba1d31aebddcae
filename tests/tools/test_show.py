"""fastx show (the HTML inspector), fastx.plot (SVG charts) and bench --plot.

The report is checked three ways: parsed as markup (selectolax), opened in
headless Chromium (the system's; the DOM after its own parse and scripts),
and hovered through playwright when that is installed.
"""
import json
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from selectolax.lexbor import LexborHTMLParser

import fastx
from fastx import _core, bench, cli, show
from fastx.errors import InputError
from fastx.methods import REGISTRY, explains, register
from fastx.methods import cetd as cetd_mod
from fastx.plot import Axis, Chart, Point, Rule, bench_chart, check_path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

ARTICLE = b"""<!DOCTYPE html><html><head><title>Hooded crows</title></head><body>
<div id="nav"><ul><li><a href="/">Home</a></li><li><a href="/birds">Birds</a></li><li><a href="/news">News</a></li>
<li><a href="/about">About us</a></li><li><a href="/contact">Contact</a></li></ul></div>
<div id="main" class="article body"><h1>Hooded crows learn to open nuts</h1>
<p>Hooded crows in the city have learned to drop walnuts on the road, wait for the cars to crack them,
and collect the kernels when the lights turn red. Researchers watched them for three winters.</p>
<p>The birds choose crossings with traffic lights, the study says, and they wait on the kerb with the
pedestrians. Young crows copy the adults within a season; older birds rarely change their habits.</p>
<p>Similar behaviour was reported from Japan in the 1990s, where carrion crows use cars in the same way.</p>
</div>
<div id="side"><a href="/a">More birds</a> | <a href="/b">Subscribe</a> | <a href="/c">Privacy</a></div>
<div id="foot">&copy; 2024 Birds Daily. <a href="/terms">Terms</a></div>
</body></html>"""


def real_page() -> bench.Page:
    """A real page of the shipped bench corpus (validation split of the dev corpora) on which cetd
    keeps part and drops part."""
    for p in bench.load_corpus().pages:
        keep = fastx.extract(p.html, method="cetd").keep
        if 0.1 < keep.mean() < 0.8 and p.source != "cleaneval-dev":
            return p
    raise AssertionError("no bench page with a partial cetd extraction")


def body_range(doc):
    b = doc.body if doc.body >= 0 else 0
    return b, int(doc.end[b])


def marks(tree):
    """{Doc index: kept?} from the report's page markup; fails on a duplicated index."""
    out = {}
    for el in tree.css(".fx-page [data-fx]"):
        i = int(el.attributes["data-fx"])
        cls = el.attributes.get("class", "").split()
        assert i not in out, f"node {i} written twice"
        assert ("fx-k" in cls) != ("fx-d" in cls)
        out[i] = "fx-k" in cls
    return out


def check_marks(tree, doc, keep):
    lo, hi = body_range(doc)
    got = marks(tree)
    assert sorted(got) == list(range(lo, hi)), "every node of <body> appears once"
    kept = {i for i, k in got.items() if k}
    assert kept == set(np.flatnonzero(keep[lo:hi]) + lo)


# ---------------------------------------------------------------- explanations
@pytest.mark.parametrize("method", ["cetd", "cetd-td", "cetd-s"])
def test_cetd_explain_agrees_with_the_extraction(method):
    p = real_page()
    r = fastx.extract(p.html, method=method)
    e = show.explanation(method, r.doc)
    doc, keep = r.doc, r.keep
    name, score = next(iter(e["scores"].items()))
    assert name == {"cetd": "CTD", "cetd-td": "TD", "cetd-s": "CTD (smoothed)"}[method]
    # Algorithm 2 tests elements only; the smoothed baseline's walk tests every node
    assert np.isnan(score[doc.kind == _core.KIND_TEXT]).all() == (method != "cetd-s")
    if method != "cetd-s":
        d = _core.text_density(doc) if method == "cetd-td" else _core.composite_text_density(doc)
        focus, thr = _core.densitysum_threshold(doc, d, _core.density_sum(doc, d))
        assert (e["focus"], e["threshold"]) == (focus, thr)
        np.testing.assert_array_equal(score[doc.kind == 1], d[doc.kind == 1])
    reason, cause = e["reason"], e["cause"]
    np.testing.assert_array_equal(reason == 1, keep == 1)
    lo, hi = body_range(doc)
    assert (reason[:lo] == 0).all() and (reason[lo:hi] != 0).all()
    for i in range(lo, hi):
        c = int(cause[i])
        if reason[i] == 2:          # pruned: the outermost ancestor-or-self below the threshold
            assert c <= i < doc.end[c] and score[c] < e["threshold"]
            j = doc.parent[c]
            while j >= lo:
                assert not score[j] < e["threshold"]
                j = doc.parent[j]
        elif reason[i] == 1 and method != "cetd-s":   # kept: inside an outermost kept node
            assert c <= i < doc.end[c] and keep[c] and not keep[doc.parent[c]]
        else:
            assert c == -1


def test_outermost_matches_an_ancestor_walk():
    doc = fastx.parse(real_page().html)
    rng = np.random.default_rng(7)
    for density in (0.01, 0.2, 0.7):
        mask = rng.random(doc.n) < density
        got = cetd_mod._outermost(doc, mask)
        for i in range(doc.n):
            want, j = -1, i
            while j >= 0:
                if mask[j]:
                    want = j
                j = doc.parent[j]
            assert got[i] == want, (density, i)


def test_fallback_for_a_method_without_explain():
    def headings(doc):
        return (doc.flags & _core.NODE_FLAGS["heading"] > 0).astype(np.uint8)
    register("test-headings", "keeps headings only (test)")(headings)
    try:
        out = show.report(ARTICLE, ["test-headings"])
    finally:
        del REGISTRY["test-headings"]
    tree = LexborHTMLParser(out)
    assert "has no <code>explain()</code>" in out
    assert [s.attributes["data-score"] for s in tree.css("svg.fx-plot")] == ["TD", "CTD"]
    assert not tree.css(".fx-threshold")
    data = json.loads(tree.css_first("#fx-data").text())
    assert data["views"][0]["explained"] is False and data["views"][0]["scores"] == []
    doc = fastx.parse(ARTICLE)
    check_marks(tree, doc, (doc.flags & _core.NODE_FLAGS["heading"] > 0).astype(np.uint8))


def test_explain_output_is_checked():
    def nothing(doc):
        return np.zeros(doc.n, dtype=np.uint8)
    register("test-bad-explain", "bad explain (test)")(nothing)
    explains("test-bad-explain")(lambda doc: {"score": np.zeros(3)})
    try:
        with pytest.raises(fastx.FastxError, match="shape"):
            show.report(ARTICLE, ["test-bad-explain"])
    finally:
        del REGISTRY["test-bad-explain"]


def test_explanations_are_registered_with_their_methods():
    from fastx.methods import get
    from fastx.methods.cetd import explain as explain_cetd
    assert get("cetd").explain is explain_cetd and get("cetd-td").explain is explain_cetd
    assert get("default").explain is show.explain_default
    assert get("vsse").explain is None


# ---------------------------------------------------------------- the report as markup
def test_report_marks_exactly_the_kept_nodes_and_plots_every_element():
    p = real_page()
    r = fastx.extract(p.html, method="cetd")
    out = show.report(p.html, ["cetd"])
    tree = LexborHTMLParser(out)
    check_marks(tree, r.doc, r.keep)
    lo, hi = body_range(r.doc)
    elements = int((r.doc.kind[lo:hi] == _core.KIND_ELEMENT).sum())
    svgs = tree.css("svg.fx-plot")
    assert [s.attributes["data-score"] for s in svgs] == ["CTD", "DensitySum", "TD"]
    ctd = svgs[0]
    assert int(ctd.attributes["data-points"]) == elements == len(ctd.css(".fx-pt"))
    kept_pts = {int(e.attributes["data-node"]) for e in ctd.css(".fx-pt.fx-k")}
    assert kept_pts == set(np.flatnonzero((r.keep == 1) & (r.doc.kind == 1)))
    assert len(ctd.css("line.fx-threshold")) == 1 and len(svgs[1].css(".fx-threshold")) == 0
    assert len(ctd.css(".fx-focus")) == 1
    # the outermost kept blocks are the kept nodes whose parent is dropped
    roots = {int(e.attributes["data-fx"]) for e in tree.css(".fx-page .fx-root")}
    assert roots == {i for i in range(lo, hi) if r.keep[i] and (i == lo or not r.keep[r.doc.parent[i]])}
    # the kept text is the extraction's text, in order (whitespace aside)
    text = "".join(e.text() for e in tree.css(".fx-page .fx-t.fx-k"))
    assert "".join(text.split()) == "".join(r.text.split())


def test_plots_of_a_long_page_draw_each_pixel_columns_envelope():
    rows = 30_000
    rng = np.random.default_rng(3)
    vals = rng.normal(size=rows)
    vals[::7] = np.nan
    kept = rng.random(rows) < 0.3
    focus = np.zeros(rows, dtype=bool)
    focus[12_345] = True
    rank = np.arange(rows)
    at = show._envelope(rank, vals, kept, focus, 470)
    assert len(at) <= 4 * 470 + 1 and not np.isnan(vals[at]).any() and 12_345 in at
    col = rank * 469 // (rows - 1)
    for c in (0, 200, 468):                              # per column and verdict: its lowest and highest
        for k in (False, True):
            sel = np.flatnonzero((col == c) & (kept == k) & ~np.isnan(vals))
            assert len(sel) > 2
            shown = set(at.tolist()) & set(sel.tolist())
            assert sel[np.argmin(vals[sel])] in shown and sel[np.argmax(vals[sel])] in shown
    # a short page: every finite point
    assert show._envelope(rank[:500], vals[:500], kept[:500], focus[:500], 470).tolist() == \
        np.flatnonzero(~np.isnan(vals[:500])).tolist()


def test_compare_puts_two_views_side_by_side():
    out = show.report(ARTICLE, "cetd,cetd-td".split(","))
    tree = LexborHTMLParser(out)
    views = tree.css("section.fx-view")
    assert [v.css_first("h2").text().split()[0] for v in views] == ["cetd", "cetd-td"]
    assert tree.css_first("main").attributes["class"] == "fx-views n2"
    doc = fastx.parse(ARTICLE)
    for v, m in zip(views, ("cetd", "cetd-td")):
        check_marks(LexborHTMLParser(v.html), doc, fastx.extract(doc, method=m).keep)
    with pytest.raises(InputError):
        show.report(ARTICLE, ["cetd"] * 0)
    with pytest.raises(fastx.UnknownMethodError):
        show.report(ARTICLE, ["cetd", "no-such-method"])


HOSTILE = b"""<html><head><title>x</title><style>body{background:url(http://evil.example/bg.png)}</style>
<link rel=stylesheet href="http://evil.example/a.css"><base href="http://evil.example/"></head>
<body onload="alert(1)"><div id='a"><script>alert(2)</script>' class="x onmouseover=alert(3)">
<p style="background:url(http://evil.example/p.png)" onclick="alert(4)">Text with &lt;/script&gt;&lt;script&gt;alert(5)&lt;/script&gt;
and a &quot;quote&quot; &amp; an ampersand, long enough to be the content of this page, really.</p>
<img src="http://evil.example/i.png" onerror="alert(6)" alt='x" onerror="alert(7)'>
<a href="javascript:alert(8)">click</a><iframe src="http://evil.example/f"></iframe>
<form action="http://evil.example/post"><input name=q value="go"><button formaction="http://evil.example/">Go</button></form>
<svg><image href="http://evil.example/s.png"/></svg><video src="http://evil.example/v.mp4"></video>
<table><tr><td colspan="2" onclick="alert(9)">cell</td><td rowspan="x">bad</td></tr></table>
</div></body></html>"""


def test_report_is_safe_to_open():
    out = show.report(HOSTILE, ["cetd"])
    tree = LexborHTMLParser(out)
    scripts = tree.css("script")
    assert [s.attributes.get("type") for s in scripts] == ["application/json", None]
    assert "alert(" not in scripts[1].text()
    # nothing from the page can load or run: no URL anywhere outside the JSON data
    page_html = "".join(v.html for v in tree.css(".fx-page"))
    assert "evil.example" not in page_html and "javascript:" not in page_html
    for el in tree.css(".fx-page *"):
        for name in el.attributes:
            assert name in ("data-fx", "class", "colspan", "rowspan", "start", "data-ph"), name
    assert tree.css_first(".fx-page td").attributes.get("colspan") == "2"
    assert "rowspan" not in tree.css(".fx-page td")[1].attributes
    # the page's text comes through escaped, as text
    assert "<script>alert(5)</script>" in tree.css_first(".fx-page .t-p").text()
    csp = tree.css_first('meta[http-equiv="Content-Security-Policy"]').attributes["content"]
    assert "default-src 'none'" in csp
    # labels (ids, classes) live in the JSON data, which cannot close its script element
    assert "</script" not in scripts[0].text() and "<" not in scripts[0].text()
    data = json.loads(scripts[0].text())
    assert any(label.startswith('div#a"><script>alert(2)</script>') for label in data["nodes"]["label"])


def test_report_of_a_very_deep_page_does_not_recurse():
    depth = 100_000
    page = "<html><body>" + "<div>" * depth + "deep text here" + "</div>" * depth + "</body></html>"
    doc = fastx.parse(page)      # lexbor nests the first few hundred and flattens the rest
    out = show.report(page, ["cetd"])
    lo, hi = body_range(doc)
    assert out.count("<div data-fx=") == int((doc.kind[lo:hi] == _core.KIND_ELEMENT).sum())
    assert "deep text here" in out


def test_page_markup_of_a_very_deep_doc():
    """page_markup (the one serializer's walk, an explicit stack) on the deepest Doc lexbor builds:
    every element's tag closed, text escaped inside the innermost div, one outermost kept node."""
    depth = 100_000
    page = "<html><body>" + "<div>" * depth + "deep &lt;text&gt; &amp; more" + "</div>" * depth + "</body></html>"
    doc = fastx.parse(page)
    lo, hi = body_range(doc)
    elements = int((doc.kind[lo:hi] == _core.KIND_ELEMENT).sum())       # the body (a div) and its divs
    keep = np.zeros(doc.n, dtype=np.uint8)
    half = lo + (hi - lo) // 2
    keep[half:hi] = 1
    out = show.page_markup(doc, keep)
    assert elements > 100 and out.count("<div ") == elements and out.count("</div>") == elements
    assert out.index("deep &lt;text&gt; &amp; more") < out.index("</div>")
    assert out.count("fx-root") == 1 and f'data-fx="{half}" class="fx-k fx-root' in out


def test_empty_and_bad_input():
    out = show.report(b"", ["cetd"])
    assert "fx-page" in out
    with pytest.raises(InputError):
        show.report(12, ["cetd"])


# ---------------------------------------------------------------- command line
def test_cli_show_writes_a_report(tmp_path, capsys):
    page = tmp_path / "crows.html"
    page.write_bytes(ARTICLE)
    out = tmp_path / "r.html"
    assert cli.main(["show", str(page), "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().err
    tree = LexborHTMLParser(out.read_text())
    assert tree.css_first("h1").text() == "Hooded crows"
    assert cli.main(["show", str(page), "--compare", "cetd,cetd-s", "-o", str(out)]) == 0
    assert len(LexborHTMLParser(out.read_text()).css("section.fx-view")) == 2
    assert cli.main(["show", str(page), "--compare", "cetd"]) == 2
    assert cli.main(["show", str(page), "--method", "nope"]) == 2
    assert cli.main(["show", str(tmp_path / "missing.html")]) == 2
    capsys.readouterr()
    assert cli.main(["show", str(page)]) == 0
    assert capsys.readouterr().out.startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------- plots
def test_chart_svg_points_rules_and_scales():
    pts = [Point(i, v, attrs={"data-node": i}) for i, v in enumerate([0.0, 3.0, 250.0, float("inf"), float("nan")])]
    svg = Chart(Axis("x"), Axis("y", "symlog"), pts, [Rule(12.0, "thr", cls="fx-threshold")]).svg()
    tree = LexborHTMLParser(f"<body>{svg}</body>")
    assert len(tree.css("circle.fx-pt")) == 3 and len(tree.css("path.fx-pt.fx-clip")) == 1
    assert len(tree.css("line.fx-threshold")) == 1
    ticks = [t.text() for t in tree.css("g.fx-axes text")]
    assert {"0", "1", "10", "100"} <= set(ticks)
    # the threshold sits between the points it separates
    ys = {int(c.attributes["data-node"]): float(c.attributes["cy"]) for c in tree.css("circle.fx-pt")}
    thr_y = float(tree.css_first("line.fx-threshold").attributes["y1"])
    assert ys[1] > thr_y > ys[2]          # SVG y grows downwards
    with pytest.raises(InputError):
        Axis("x", "cubic")


def test_bench_chart_and_files(tmp_path):
    results = {"fastx:cetd": {"f1": 0.8, "x_parse_only": 3.0, "ms_p50": 3.0},
               "fastx:default": {"f1": 0.9, "x_parse_only": 12.0, "ms_p50": 12.0},
               "trafilatura": {"f1": 0.85, "x_parse_only": 40.0, "ms_p50": 40.0},
               "parse-only": {"f1": 0.0, "x_parse_only": 1.0, "ms_p50": 1.0}}
    chart = bench_chart(results, title="t")
    assert [p.label for p in chart.points] == ["cetd", "default", "trafilatura"]
    assert chart.x.scale == "log" and chart.x.lo <= 1.0 and chart.x.hi >= 40
    svg_path = tmp_path / "b.svg"
    chart.save(svg_path)
    tree = LexborHTMLParser(svg_path.read_text())
    assert [e.text() for e in tree.css("g.fx-labels text")] == ["cetd", "default", "trafilatura"]
    assert len(tree.css(".fx-pt")) == 3
    with pytest.raises(InputError, match=".svg or .png"):
        check_path(tmp_path / "b.pdf")
    if __import__("importlib").util.find_spec("matplotlib") is None:
        with pytest.raises(InputError, match="matplotlib"):
            check_path(tmp_path / "b.png")
    else:
        chart.save(tmp_path / "b.png")
        assert (tmp_path / "b.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bench_plot_option(tmp_path, capsys):
    out = tmp_path / "bench.svg"
    assert bench.main(["--limit", "2", "--repeat", "1", "--no-peers", "--methods", "cetd,cetd-td",
                       "--no-progress", "--plot", str(out)]) == 0
    tree = LexborHTMLParser(out.read_text())
    assert sorted(e.attributes["data-name"] for e in tree.css(".fx-pt")) == ["fastx:cetd", "fastx:cetd-td"]
    assert bench.main(["--limit", "1", "--no-peers", "--no-fastx", "--plot", str(tmp_path / "x.gif")]) == 2
    assert ".svg or .png" in capsys.readouterr().err


# ---------------------------------------------------------------- in a browser
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium)")


@pytest.fixture(scope="module")
def real_report(tmp_path_factory):
    p = real_page()
    r = fastx.extract(p.html, method="cetd")
    path = tmp_path_factory.mktemp("show") / "report.html"
    path.write_text(show.report(p.html, ["cetd"], name=p.id), encoding="utf-8")
    return path, r


@needs_chromium
def test_report_in_headless_chromium(real_report):
    """Chromium parses the report and runs its script: the kept marks survive the browser's parse
    exactly, and every plot point and the threshold line are laid out with a visible box."""
    path, r = real_report
    with tempfile.TemporaryDirectory() as profile:
        proc = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", path.as_uri()],
                              capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")[-2000:]
    tree = LexborHTMLParser(proc.stdout.decode())
    assert tree.css_first("html").attributes.get("data-fx-ready") == "1", "the report's script did not run"
    check_marks(tree, r.doc, r.keep)
    lo, hi = body_range(r.doc)
    elements = int((r.doc.kind[lo:hi] == _core.KIND_ELEMENT).sum())
    svgs = tree.css("svg.fx-plot")
    assert len(svgs) == 3
    for svg in svgs:
        assert int(svg.attributes["data-drawn"]) == int(svg.attributes["data-points"]) == elements
    assert svgs[0].attributes["data-threshold-drawn"] == "1"


@needs_chromium
def test_report_hover_and_plot_links(real_report):
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (fastx[render])")
    path, r = real_report
    doc = r.doc
    kept_text = next(int(i) for i in np.flatnonzero((r.keep == 1) & (doc.kind == _core.KIND_TEXT))
                     if doc.chars[i] > 20)
    dropped_text = next(int(i) for i in np.flatnonzero((r.keep == 0) & (doc.kind == _core.KIND_TEXT))
                        if doc.chars[i] > 3 and i > doc.body)
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(path.as_uri())
            for i, word in ((kept_text, "KEPT"), (dropped_text, "DROPPED")):
                el = page.locator(f'.fx-page [data-fx="{i}"]')
                el.scroll_into_view_if_needed()
                box = el.bounding_box()
                page.mouse.move(box["x"] + 2, box["y"] + box["height"] / 2)
                tip = page.locator("#fx-tip")
                assert tip.is_visible()
                assert word in tip.inner_text() and "CTD" in tip.inner_text()
                # the hovered block and its point in each plot are highlighted together
                block = int(page.locator(".fx-page .fx-hl").first.get_attribute("data-fx"))
                assert block <= i < doc.end[block]
                assert page.locator(f'.fx-plot [data-node="{block}"].fx-hl').count() == 3
            # a click on a plot point scrolls the page to its block
            root = int(np.flatnonzero((r.keep == 1) & (doc.kind == 1))[0])
            page.locator(".fx-page").evaluate("p => p.scrollTop = p.scrollHeight")
            page.locator(f'.fx-plot[data-score="CTD"] [data-node="{root}"]').dispatch_event("click")
            assert page.locator(f'.fx-page [data-fx="{root}"]').evaluate(
                "e => { const r = e.getBoundingClientRect(), p = e.closest('.fx-page').getBoundingClientRect();"
                " return r.bottom > p.top && r.top < p.bottom; }")
            assert not errors, errors
        finally:
            browser.close()
