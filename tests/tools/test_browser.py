"""fastx.render: marked serialization, layouts and their files, and real rendering in Chromium.

The browser tests skip, saying why, when playwright or a Chromium is missing
(`pip install 'fastx[render]'`, `apt-get install chromium`); .ci/run installs both.
"""
import http.server
import re
import sys
import threading
import time

import numpy as np
import pytest

import fastx
from fastx import _core
from fastx.render import (STYLE_PROPS, CssMap, Layout, Renderer, attach, find_chromium, fingerprint, markup,
                          page_styles)

PAGE = b"""<!DOCTYPE html><html><head><title>T</title>
<style>
 body { margin: 0 }
 #nav { position: absolute; left: 0; top: 0; width: 200px; font-size: 12px; color: rgb(10, 20, 30) }
 #main { margin: 0 auto; width: 600px }
 h1 { font-size: 32px }
 .gone { display: none }
</style>
<script>document.documentElement.className = "js-ran"</script>
<meta http-equiv="refresh" content="0; url=http://example.invalid/">
</head><body>
<div id="nav"><a href="/a">Home</a> <a href="/b">News</a></div>
<div id="main"><h1>Headline</h1><p>First paragraph &amp; more &lt;text&gt;.</p><p>Second <b>bold</b> tail.</p></div>
<p class="gone">invisible</p>
<textarea>t&lt;a</textarea>
</body></html>"""


def _index(doc, tag, nth=0):
    hits = [i for i in range(doc.n) if doc.tag_name(i) == tag]
    return hits[nth]


def _text_index(doc, text):
    return next(i for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT and doc.text(i) == text)


# ---------------------------------------------------------------- markup (no browser)

def test_markup_marks_every_doc_node_once():
    doc = fastx.parse(PAGE)
    html = markup(doc)
    elements = [int(m) for m in re.findall(r' data-fx="(\d+)"', html)]
    texts = [int(m) for m in re.findall(r"<!--fx:(\d+)-->", html)]
    assert elements == [i for i in range(doc.n) if doc.kind[i] == _core.KIND_ELEMENT]
    # every text node is marked except the textarea's (a comment there would be text)
    ta = _index(doc, "textarea")
    assert texts == [i for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT and doc.parent[i] != ta]
    assert html.startswith("<!DOCTYPE html>")
    assert "<style>" in html and "#main { margin: 0 auto" in html      # the page's CSS travels along
    assert "&amp; more &lt;text&gt;" in html and "t&lt;a</textarea>" in html
    assert "<script" not in html and "<meta" not in html


def test_markup_image_sources_fail_without_requests():
    doc = fastx.parse(b'<img src="a.png" srcset="b.png 2x" alt="A"><picture><source srcset="c.webp"></picture>'
                      b'<iframe src="http://x/f"></iframe>')
    html = markup(doc)
    assert html.count('="fastx-blocked:"') == 3 and 'alt="A"' in html
    assert "a.png" not in html and "c.webp" not in html and "http://x/f" not in html


def test_markup_keeps_scripts_when_asked_and_drops_foreign_marks():
    doc = fastx.parse(b'<body><p data-fx="99" onclick="x()">a</p><script>if (1 < 2) go()</script></body>')
    assert '<script>if (1 < 2) go()</script>' in markup(doc, scripts=True)   # raw text, unescaped
    html = markup(doc)
    assert 'data-fx="99"' not in html and "<script" not in html
    assert re.search(r'<p data-fx="\d+" onclick="x\(\)">', html)


def test_markup_freezes_marquee():
    html = markup(fastx.parse(b'<marquee scrollamount="9" width="300">news ticker</marquee>'))
    assert re.search(r'<marquee data-fx="\d+" scrollamount="0" width="300">', html)


def test_markup_round_trip_gives_the_same_doc():
    pages = [PAGE, b"<table><tr>stray<td>cell</td></tr></table><svg viewBox='0 0 1 1'><path d='M0'/></svg>",
             b"<ul><li>one<li>two</ul><p>para<div>block in p</div>",
             "<p>caf\u00e9 \u4e2d\u6587\uff0c</p><pre>  keep\n  spaces </pre>".encode()]
    for page in pages:
        doc = fastx.parse(page)
        again = fastx.parse(markup(doc))
        assert fingerprint(again) == fingerprint(doc)


def test_markup_preserves_legacy_doctype():
    doc = fastx.parse(b'<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>x</p>')
    assert markup(doc).startswith('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">')
    assert not markup(fastx.parse(b"<p>quirks</p>")).startswith("<!")


@pytest.mark.needs_shared
def test_markup_round_trip_on_real_pages(compare):
    pages = list(compare.CORPORA["cleaneval-dev"]())[:25]
    for pid, html, _ in pages:
        doc = fastx.parse(html)
        assert fingerprint(fastx.parse(markup(doc))) == fingerprint(doc), pid


# ---------------------------------------------------------------- Layout files (no browser)

def _fake_layout(doc):
    boxes = np.full((doc.n, 4), np.nan, dtype=np.float32)
    boxes[:, 0], boxes[:, 2] = 10.0, 100.0
    codes = np.zeros((doc.n, len(STYLE_PROPS)), dtype=np.uint16)
    codes[:, 0] = 1
    values = [["block"]] + [[] for _ in STYLE_PROPS[1:]]
    return Layout(doc.kind, boxes, codes, STYLE_PROPS, values, fingerprint(doc), {"note": "fake"})


def test_layout_save_load_and_check(tmp_path):
    doc = fastx.parse(PAGE)
    lay = _fake_layout(doc)
    path = lay.save(tmp_path / "page")
    assert path.suffix == ".npz"
    back = Layout.load(path)
    assert np.array_equal(back.boxes, lay.boxes, equal_nan=True) and np.array_equal(back.codes, lay.codes)
    assert back.meta == {"note": "fake"} and back.check(doc) is back
    assert back.positions.shape == (doc.n, 2) and back.positions[0].tolist() == [10.0, 110.0]
    text = doc.kind == _core.KIND_TEXT
    assert np.isnan(back.positions[text]).all() and not np.isnan(back.extents(own_text=True)[text]).any()
    assert back.css(0) == {"display": "block"} and back.style("display")[0] == "block"
    other = fastx.parse(b"<p>another page</p>")
    with pytest.raises(fastx.InputError, match="another page"):
        back.check(other)
    with pytest.raises(fastx.InputError):
        attach(other, layout=path)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(fastx.InputError, match="not a fastx layout"):
        Layout.load(tmp_path / "junk.npz")
    with pytest.raises(fastx.InputError, match="no CSS property"):
        back.style("z-index")


def test_layout_file_drives_hybrid_text_density():
    doc = fastx.parse(PAGE)
    with pytest.raises(fastx.MissingPositionsError, match="render=True"):
        fastx.extract(doc, method="cetd", variant="htd")
    r = fastx.extract(doc, method="cetd", variant="htd", layout=_fake_layout(doc))
    assert r.keep.shape == (doc.n,)
    assert isinstance(doc.cache["layout"], Layout)


def test_css_map():
    doc = fastx.parse(PAGE)
    m = CssMap(_fake_layout(doc))
    assert len(m) == doc.n and 0 in m and doc.n not in m and m[1] == {"display": "block"}
    with pytest.raises(KeyError):
        m[doc.n]


# ---------------------------------------------------------------- missing browser

def test_no_chromium_is_a_typed_error(monkeypatch):
    monkeypatch.setenv("FASTX_CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(fastx.RenderError, match="apt-get install chromium"):
        find_chromium()
    r = Renderer()
    with pytest.raises(fastx.RenderError, match="fastx-extract\\[render\\]"):
        r.render(PAGE)
    r.close()


def test_no_playwright_is_a_typed_error(monkeypatch, tmp_path):
    exe = tmp_path / "chromium"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    monkeypatch.setenv("FASTX_CHROMIUM", str(exe))
    monkeypatch.setitem(sys.modules, "playwright.async_api", None)
    with Renderer() as r:
        with pytest.raises(fastx.RenderError, match="needs playwright.*pip install"):
            r.render(PAGE)


# ---------------------------------------------------------------- real rendering

def _browser_missing():
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install 'fastx[render]')"
    try:
        find_chromium()
    except fastx.RenderError:
        return "no Chromium on PATH (apt-get install chromium)"
    return None


needs_browser = pytest.mark.skipif(_browser_missing() is not None, reason=str(_browser_missing()))


@pytest.fixture(scope="module")
def renderer():
    with Renderer(pages=2, timeout=20) as r:
        yield r


@needs_browser
def test_boxes_and_styles_are_the_browsers(renderer):
    doc = fastx.parse(PAGE)
    lay = renderer.render(doc)
    assert lay.n == doc.n and lay.meta["missing"] == 0 and lay.meta["viewport"] == [1280, 800]
    main, nav, h1 = _index(doc, "div", 1), _index(doc, "div", 0), _index(doc, "h1")
    assert lay.boxes[main].tolist()[0::2] == [340.0, 600.0]          # margin: auto in a 1280px viewport
    assert lay.boxes[nav].tolist()[0::2] == [0.0, 200.0]
    assert lay.css(h1)["font-size"] == "32px" and lay.css(nav)["color"] == "rgb(10, 20, 30)"
    assert lay.css(main)["margin"].endswith("340px")
    # a text node has its own Range box, inside its parent's; its style is its parent's
    t = _text_index(doc, "Headline")
    x, _, w, _ = lay.boxes[t]
    assert 340 <= x and 0 < w < 600 and lay.css(t) == lay.css(h1)
    # display:none from the stylesheet: no extent, so Visual Importance 0 (Def. 3.3)
    gone = _text_index(doc, "invisible")
    assert lay.boxes[gone][2] == 0 and lay.css(_index(doc, "p", 2))["display"] == "none"
    # scripts off by default, and the refresh meta did not navigate away
    assert lay.css(_index(doc, "html"))  # measured on our page
    assert "js-ran" not in markup(doc)


@needs_browser
def test_layout_is_deterministic(renderer):
    doc = fastx.parse(b'<body><marquee width="600"><b>ticker text</b></marquee><p>after</p></body>')
    first = renderer.render(doc)
    time.sleep(0.2)
    assert np.array_equal(first.boxes, renderer.render(doc).boxes, equal_nan=True)


@needs_browser
def test_visual_importance_from_real_layout(renderer):
    doc = fastx.parse(PAGE)
    lay = renderer.render(doc)
    hc = _core.hybrid_chars(doc, lay.positions)
    centre, side = _text_index(doc, "Headline"), _text_index(doc, "Home")
    # HC / C: the centred heading keeps more of its characters than the left-edge link
    assert hc[centre] / doc.chars[centre] > 2 * hc[side] / doc.chars[side]
    assert hc[_text_index(doc, "invisible")] == 0


@needs_browser
def test_scripts_option(renderer):
    page = b"<body><p id=x>static</p><script>document.getElementById('x').style.width = '123px'</script></body>"
    doc = fastx.parse(page)
    p = _index(doc, "p")
    assert renderer.render(doc).boxes[p][2] != 123
    assert renderer.render(doc, scripts=True).boxes[p][2] == 123
    hostile = b"<body><p>x</p><script>JSON.stringify = () => '{}'</script></body>"
    with pytest.raises(fastx.RenderError, match="malformed"):
        renderer.render(hostile, scripts=True)
    assert renderer.render(hostile).meta["missing"] == 0
    # the next scripted page gets a clean window: nothing the hostile page set survives
    assert renderer.render(doc, scripts=True).boxes[p][2] == 123


class _Counter(http.server.BaseHTTPRequestHandler):
    hits = []

    def do_GET(self):
        _Counter.hits.append(self.path)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *a):
        pass


@needs_browser
def test_network_is_blocked(renderer):
    server = http.server.HTTPServer(("127.0.0.1", 0), _Counter)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    page = (f'<html><head><link rel=stylesheet href="{base}/a.css"></head><body>'
            f'<img src="{base}/i.png"><iframe src="{base}/f"></iframe><p style="background:url({base}/bg)">x</p>'
            f'<input type=image src="{base}/button.png"><video poster="{base}/poster.png"></video>'
            f'<script>fetch("{base}/fetch")</script></body></html>').encode()
    try:
        renderer.render(page)
        renderer.render(page, scripts=True)
    finally:
        server.shutdown()
    assert _Counter.hits == []


@needs_browser
def test_timeout_then_pool_recovers():
    with Renderer(pages=1, timeout=2) as r:
        with pytest.raises(fastx.RenderError, match="did not render within"):
            r.render(b"<body><p>x</p><script>while (true) {}</script></body>", scripts=True)
        assert r.render(PAGE).meta["missing"] == 0        # a fresh tab took the stuck one's place


@needs_browser
def test_render_many_cache_and_extract(tmp_path):
    pages = [PAGE, b"<body><p>second page</p></body>", 12345]
    with Renderer(pages=2, cache_dir=tmp_path) as r:
        out = list(r.render_many(pages))
        assert isinstance(out[0], Layout) and isinstance(out[1], Layout)
        assert isinstance(out[2], fastx.InputError)          # a bad input is its own error, in order
        assert r.rendered == 2 and len(list(tmp_path.glob("*.npz"))) == 2
        again = r.render(PAGE)
        assert r.rendered == 2 and r.cache_hits == 1
        assert np.array_equal(again.boxes, out[0].boxes, equal_nan=True)
        res = fastx.extract(PAGE, method="cetd", variant="htd", render=r)
        assert r.cache_hits == 2 and "First paragraph" in res.text
    # a fully cached run never starts the browser
    with Renderer(cache_dir=tmp_path) as r:
        r.render(PAGE)
        assert r.browser_version is None and r.cache_hits == 1
    assert fastx.extract(PAGE, method="cetd", variant="htd", layout=again).text == res.text


@needs_browser
def test_site_features_get_computed_css(renderer):
    from fastx.site import text_blocks
    docs = [fastx.parse(PAGE)]
    styles = page_styles(docs, renderer)
    feats = [b.features for b in text_blocks(docs[0], 0, styles[0])]
    assert any("css:font-size=32px" in f for f in feats)
    assert not any(k.startswith("css:") for b in text_blocks(docs[0], 0) for k in b.features)
