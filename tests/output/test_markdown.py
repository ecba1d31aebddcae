"""Markdown output (issue 14): CommonMark with GitHub tables, checked by rendering it back with
markdown-it-py (a CommonMark implementation) and comparing with the page's own structure."""
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fastx
from fastx import _core
from fastx.api import Extraction

markdown_it = pytest.importorskip("markdown_it")
MD = markdown_it.MarkdownIt("commonmark").enable("table")


def whole(html, url=None):
    """An Extraction keeping every node of the page."""
    d = fastx.parse(html, url=url)
    keep = np.ones(len(d), dtype=np.uint8)
    return Extraction(text=d.render_text(keep), title=d.title, description=d.description, method="all",
                      url=url, doc=d, keep=keep)


def md(html, url=None, **kw):
    return whole(html, url).to_markdown(**kw)


def rendered_text(markdown):
    """The text a CommonMark renderer shows for `markdown`, whitespace collapsed."""
    from selectolax.lexbor import LexborHTMLParser
    body = LexborHTMLParser("<body>" + MD.render(markdown) + "</body>").body
    return " ".join(body.text(separator="").split())


def inline_text(tok):
    """Text of an inline token (images left out, breaks as spaces)."""
    parts, skip = [], 0
    for c in tok.children or ():
        if c.type == "image":
            continue
        parts.append(" " if c.type in ("softbreak", "hardbreak") else c.content if c.type in (
            "text", "code_inline") else "")
    return " ".join("".join(parts).split())


def blocks(markdown, kind):
    """(tag, text) of every `kind` (heading, list_item, th/td) markdown-it parses."""
    toks = MD.parse(markdown)
    out = []
    for k, t in enumerate(toks):
        if t.type == f"{kind}_open":
            j = k + 1
            while toks[j].type != "inline" and toks[j].type != f"{kind}_close":
                j += 1
            out.append((t.tag, inline_text(toks[j]) if toks[j].type == "inline" else ""))
    return out


# ---------------------------------------------------------------- structure

def test_headings_paragraphs_emphasis_code():
    out = md("<h1>Title <em>here</em></h1><p>Some <strong>bold</strong> and <code>x = 1</code>.</p>"
             "<h3>Sub</h3><p>Two</p>")
    assert out == "# Title *here*\n\nSome **bold** and `x = 1`.\n\n### Sub\n\nTwo\n"
    assert blocks(out, "heading") == [("h1", "Title here"), ("h3", "Sub")]


def test_nested_lists_and_ordered_start():
    out = md("<ul><li>one<ul><li>nested <b>x</b></li></ul></li><li>two</li></ul>"
             "<ol start=7><li>seven</li><li>eight<ol><li>inner</li></ol></li></ol>")
    assert out == "- one\n  - nested **x**\n- two\n\n7. seven\n8. eight\n   1. inner\n"
    assert [t for _, t in blocks(out, "list_item")] == ["one", "nested x", "two", "seven", "eight", "inner"]
    html = MD.render(out)
    assert '<ol start="7">' in html and html.count("<ul>") == 2


def test_list_item_with_paragraphs_and_code():
    out = md("<ul><li><p>first</p><pre>a\n  b</pre></li><li>second</li></ul>")
    assert blocks(out, "list_item") == [("li", "first"), ("li", "second")]
    fences = [t for t in MD.parse(out) if t.type == "fence"]
    assert [f.content for f in fences] == ["a\n  b\n"]


def test_pipe_table_with_header_escaped_pipes_colspan_rowspan():
    out = md("<table><thead><tr><th>a</th><th>b|c</th><th>d</th></tr></thead><tbody>"
             "<tr><td colspan=2>wide</td><td>x</td></tr>"
             "<tr><td rowspan=2>tall</td><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr>"
             "<tr><td>only</td></tr></tbody></table>")
    assert out.splitlines() == ["| a | b\\|c | d |", "| --- | --- | --- |", "| wide | | x |",
                                "| tall | 1 | 2 |", "| | 3 | 4 |", "| only | | |"]
    assert blocks(out, "th") == [("th", "a"), ("th", "b|c"), ("th", "d")]
    assert [t for _, t in blocks(out, "td")] == ["wide", "", "x", "tall", "1", "2", "", "3", "4", "only", "", ""]


def test_layout_tables_are_written_as_blocks():
    nested = md("<table><tr><td><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>"
                "</td><td>side</td></tr><tr><td>x</td><td>y</td></tr></table>")
    # the outer table is layout (a table inside a cell): its cells are blocks; the inner one is data
    assert "| side" not in nested and "side" in nested and "| a | b |\n| --- | --- |\n| c | d |" in nested
    blocky = md("<table><tr><td><ul><li>a</li></ul></td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>")
    assert "| --- |" not in blocky and "- a" in blocky
    single = md("<table><tr><td>just one cell of layout</td></tr></table>")
    assert single == "just one cell of layout\n"


def test_fenced_code_language_and_fence_length():
    assert md('<pre class="language-python">x = 1\n  y</pre>') == "```python\nx = 1\n  y\n```\n"
    assert md('<pre><code class="lang-js">a()</code></pre>') == "```js\na()\n```\n"
    assert md('<div><pre class="highlight-rust">fn</pre></div>') == "```rust\nfn\n```\n"
    out = md("<pre>a ```` b</pre>")
    assert out == "`````\na ```` b\n`````\n"
    assert [t.content for t in MD.parse(out) if t.type == "fence"] == ["a ```` b\n"]


def test_code_span_with_backticks_and_pipes_in_a_table():
    out = md("<p>Run <code>a `b` c</code> now</p>")
    assert out == "Run `` a `b` c `` now\n"
    assert rendered_text(out) == "Run a `b` c now"
    out = md("<table><tr><th>op</th><th>x</th></tr><tr><td><code>a|b</code></td><td>1</td></tr></table>")
    assert [t for _, t in blocks(out, "td")] == ["a|b", "1"]


def test_blockquote_rule_and_line_breaks():
    out = md("<p>before</p><blockquote><p>quoted</p><p>- not a list</p></blockquote><hr><p>a<br>b</p>")
    assert out == "before\n\n> quoted\n>\n> \\- not a list\n\n---\n\na\\\nb\n"
    html = MD.render(out)
    assert "<blockquote>" in html and "<hr />" in html and "<br />" in html and "<li>" not in html


def test_whitespace_pre_styles_are_fenced_and_keep_bytes():
    out = md('<div style="white-space:pre-wrap">line 1\n\tline 2</div>')
    assert [t.content for t in MD.parse(out) if t.type == "fence"] == ["line 1\n\tline 2\n"]


def test_code_inside_a_blockquote_and_a_list_keeps_its_lines():
    code = "def f():\n    return 1\n\nprint(f())"
    out = md(f"<blockquote><pre>{code}</pre></blockquote><ol><li>step<pre>{code}</pre></li></ol>")
    assert [t.content for t in MD.parse(out) if t.type == "fence"] == [code + "\n", code + "\n"]


# ---------------------------------------------------------------- links and images

def test_links_and_images_resolved_against_base_canonical_and_url():
    page = ('<html><head>{head}</head><body><p><a href="../b.html?q=1#f">link</a> '
            '<img src="img/x.png" alt="pic"> <a href="//cdn.example/y">c</a> <a href="#top">t</a></p></body></html>')
    out = md(page.format(head='<base href="https://ex.com/docs/a/">'), url="https://other.org/p")
    assert out == ("[link](https://ex.com/docs/b.html?q=1#f) ![pic](https://ex.com/docs/a/img/x.png) "
                   "[c](https://cdn.example/y) [t](https://ex.com/docs/a/#top)\n")
    out = md(page.format(head='<link rel="canonical" href="https://canon.net/x/y/z.html">'), url="https://o.org/")
    assert "(https://canon.net/x/b.html?q=1#f)" in out and "(https://canon.net/x/y/img/x.png)" in out
    out = md(page.format(head=""), url="https://site.io/a/b/c")
    assert "(https://site.io/a/b.html?q=1#f)" in out
    assert "(../b.html?q=1#f)" in md(page.format(head=""))          # no base at all: left relative


def test_unsafe_urls_are_dropped_and_their_text_kept():
    out = md('<p><a href="javascript:alert(1)">one</a> <a href=" JaVa\tScRiPt:x">two</a> '
             '<a href="vbscript:x">three</a> <a href="data:text/html,<b>x">four</a> '
             '<a href="mailto:a@b.c">five</a> <img src="javascript:x" alt="bad"> '
             '<img src="data:image/png;base64,iVBORw0KGgo=" alt="ok"></p>')
    assert out == "one two three four [five](mailto:a@b.c) ![ok](data:image/png;base64,iVBORw0KGgo=)\n"
    assert "javascript" not in MD.render(out).lower()


def test_links_and_images_can_be_switched_off():
    page = '<p>See <a href="https://x.org/">the site</a> <img src="https://x.org/i.png" alt="i"></p>'
    r = whole(page)
    assert r.markdown == "See [the site](https://x.org/) ![i](https://x.org/i.png)\n"
    assert r.to_markdown(links=False) == "See the site ![i](https://x.org/i.png)\n"
    assert r.to_markdown(links=False, images=False) == "See the site\n"


def test_url_characters_that_would_end_the_destination_are_encoded():
    out = md('<a href="https://x.org/a b(c)<d>">t</a>')
    assert out == "[t](https://x.org/a%20b%28c%29%3Cd%3E)\n"
    assert 'href="https://x.org/a%20b%28c%29%3Cd%3E"' in MD.render(out)


# ---------------------------------------------------------------- escaping

@pytest.mark.parametrize("text", ["# not a heading", "1. not a list", "2) nor this", "- nor this",
                                  "+ nor", "> no quote", "=== no setext", "*stars* _under_ `tick`",
                                  "[link](x) ![img](y)", "<b>html</b> &amp; &copy;", "a | b | c",
                                  "~~strike~~", "back\\slash\\", "snake_case_name", "---", "***"])
def test_text_renders_back_as_itself(text):
    from html import escape
    out = md(f"<p>{escape(text)}</p><h2>{escape(text)} #</h2>")
    assert blocks(out, "heading") == [("h2", text + " #")]
    assert rendered_text(out) == f"{text} {text} #"


@pytest.mark.parametrize("text", ["1.5 million people", "43.5'' H", "2)b", "-5 degrees", "+1 for this",
                                  "#hashtag", "####### seven", "=x", "--x", "Tom & Jerry", "1 < 2 and 3 > 2",
                                  "A & B & C"])
def test_a_line_start_that_opens_no_block_is_not_escaped(text):
    # only what would open a block at a line start, or a reference or tag anywhere, is escaped:
    # no backslash for LLM pipelines to read in "1.5 million", "-5 degrees" or "Tom & Jerry",
    # and the text still renders back as itself
    from html import escape
    out = md(f"<p>{escape(text)}</p>")
    assert "\\" not in out, out
    assert rendered_text(out) == text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=" ab1.#*_[]()<>&|`~\\-+=!:\t\n", min_size=1, max_size=12), min_size=1,
                max_size=3),
       st.sampled_from(["p", "h3", "li", "td", "em", "strong", "code"]))
def test_escaped_text_round_trips(pieces, where):
    """Any text, inside any element, renders back as the same text (whitespace collapsed)."""
    from html import escape
    text = " ".join(escape(p) for p in pieces)
    html = {"li": f"<ul><li>{text}</li></ul>", "td": f"<table><tr><td>{text}</td><td>x</td></tr>"
            f"<tr><td>y</td><td>z</td></tr></table>"}.get(where, f"<p>a<{where}>{text}</{where}>b</p>")
    r = whole(html)
    expected = " ".join(r.text.split())
    assert rendered_text(r.markdown) == expected


@pytest.mark.parametrize("html", ["<p>1<b>. item</b></p>", "<p>12<span>) item</span></p>",
                                  "<p>x &<b>amp;</b> y</p>", "<p>-<b> item</b></p>", "<p>#<i> head</i></p>",
                                  "<p>&lt;<b>b</b>&gt;</p>"])
def test_markup_split_across_elements_is_escaped(html):
    # a list marker, a character reference or a tag whose characters come in two text pieces
    # ("1" in one element, ". item" in the next) renders back as the text, not as markup
    r = whole(html)
    assert rendered_text(r.markdown) == " ".join(r.text.split())


def test_a_closing_bracket_is_escaped_only_where_it_would_close_a_link():
    out = md("<p>see [1] and x] y</p>")
    assert out == "see \\[1] and x] y\n" and rendered_text(out) == "see [1] and x] y"
    r = whole('<p>a <a href="https://example.com/x">b ] [c]</a> d</p>')
    assert "[b \\] \\[c\\]](https://example.com/x)" in r.markdown
    assert rendered_text(r.markdown) == " ".join(r.text.split())
    r = whole('<p>a <img src="https://example.com/i.png" alt="x ] y"> b</p>')
    assert "![x \\] y](https://example.com/i.png)" in r.markdown


def test_adjacent_emphasis_never_leaves_literal_delimiters():
    for html in ("<p><b>foo</b><b>bar</b></p>", "<p><i>a</i><i>b</i>c</p>", "<p>x<b>(y)</b>z</p>",
                 "<p><b>Tel:</b>123</p>", "<p>a<em>_b_</em>c</p>"):
        r = whole(html)
        assert rendered_text(r.markdown) == " ".join(r.text.split()), html


# ---------------------------------------------------------------- API, batch, CLI

def test_extraction_markdown_is_lazy_and_in_to_dict():
    r = fastx.extract("<html><body><article><h2>T</h2><p>" + "word " * 60 + "</p></article></body></html>",
                      method="cetd")
    assert r._markdown is None
    assert r.markdown.startswith("## T\n\n")
    assert r.to_dict(markdown=True)["markdown"] == r.markdown
    assert "markdown" not in r.to_dict()


def test_batch_and_cli_markdown(tmp_path):
    import json
    import subprocess
    import sys
    page = "<html><body><article><h2>T</h2><p>" + "word " * 60 + "</p></article></body></html>"
    recs = list(fastx.extract_many([page], jobs=0, method="cetd", markdown=True))
    assert recs[0]["markdown"].startswith("## T")
    p = tmp_path / "p.html"
    p.write_text(page)
    out = subprocess.run([sys.executable, "-m", "fastx", "extract", "--method", "cetd", "--format", "markdown",
                          str(p)], capture_output=True, text=True, check=True).stdout
    assert out.startswith("## T\n\nword word")
    out = subprocess.run([sys.executable, "-m", "fastx", "extract", "--method", "cetd", "--format", "json",
                          "--markdown", str(p), str(p)], capture_output=True, text=True, check=True).stdout
    assert all(json.loads(line)["markdown"].startswith("## T") for line in out.splitlines())


def test_hostile_nesting_is_fine():
    deep = "<div><ul><li><blockquote><b><a href='/x'>" * 3000 + "x" + "</a></b></blockquote></li></ul></div>" * 3000
    out = md(deep)
    assert "x" in out
    # many lines under deep containers: the line prefix is bounded, so is the output
    page = "<blockquote><ul><li>" * 200 + "<p>para</p>" * 5000 + "</li></ul></blockquote>" * 200
    out = md(page)
    assert out.count("para") == 5000 and len(out) < 10 * len(page)


TAGS = ["p", "div", "pre", "code", "b", "em", "a href='/x'", "a href='javascript:x'", "img src='/i.png' alt='[a]'",
        "ul", "ol start=3", "li", "table", "tr", "td colspan=3", "th rowspan=2", "blockquote", "h2", "br", "hr",
        "textarea", "span style='white-space:pre'", "tbody", "caption", "kbd"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(TAGS).map(lambda t: f"<{t}>"),
                          st.sampled_from(TAGS).map(lambda t: f"</{t.split()[0]}>"),
                          st.text(alphabet=" \n\tab#*_[]|`<>&-1.\\", max_size=6)), max_size=60))
def test_random_markup_gives_markdown_with_the_same_words(parts):
    """Any markup: Markdown comes back (never a crash), and rendered it holds the text's words."""
    import re
    r = whole("<body>" + "".join(parts) + "</body>", url="https://example.com/a/b")
    out = r.markdown
    assert isinstance(out, str)
    words = re.findall(r"[a1]+", r.text)
    shown = re.findall(r"[a1]+", rendered_text(out))
    assert sorted(shown) == sorted(words)


# ---------------------------------------------------------------- real pages

def _eligible(d, i, stop_tags):
    p = d.parent[i]
    while p >= 0:
        if d.tag_name(p) in stop_tags:
            return False
        p = d.parent[p]
    return True


def _collapsed(d, i, keep):
    k = np.zeros(len(d), dtype=np.uint8)
    k[i:d.end[i]] = keep[i:d.end[i]]
    return " ".join(d.render_text(k).split())


@pytest.mark.needs_shared
def test_documentation_pages_render_back_to_their_structure(compare):
    """WCXB-dev documentation pages through method cetd: markdown-it-py finds the same headings
    (level and text), list items and code blocks as the kept nodes of the page, and table
    cells that are the kept cells' text."""
    pre_tags = set(_core.PRE_TAGS)
    pages = checked_h = checked_li = checked_code = checked_td = 0
    for pid, html, meta in compare.CORPORA["wcxb-dev"]():
        if meta["type"] != "documentation":
            continue
        r = fastx.extract(html, url=meta["url"], method="cetd")
        d, keep, out = r.doc, r.keep, r.markdown
        emitted = {i for i in range(len(d)) if d.kind[i] == _core.KIND_ELEMENT and keep[i:d.end[i]].any()}
        heads = Counter()
        for i in emitted:
            name = d.tag_name(i)
            if name in ("h1", "h2", "h3", "h4", "h5", "h6") and \
                    _eligible(d, i, {"h1", "h2", "h3", "h4", "h5", "h6"} | pre_tags):
                text = _collapsed(d, i, keep)
                if text:
                    heads[(name, text)] += 1
        got = Counter(blocks(out, "heading"))
        assert got == heads, pid
        checked_h += sum(heads.values())
        # list items: markdown-it's items are kept <li> elements with the same text start
        items = [t for _, t in blocks(out, "list_item")]
        lis = [_collapsed(d, i, keep) for i in sorted(emitted) if d.tag_name(i) == "li"]
        lis = [t for t in lis if t]
        assert len(items) <= len(lis), pid
        for t in items:
            assert any(x.startswith(t) for x in lis), (pid, t)
        checked_li += len(items)
        # code: every fence is the text of a kept preformatted element
        fences = [t.content.rstrip("\n") for t in MD.parse(out) if t.type == "fence"]
        texts = "\n" + r.text + "\n"
        for f in fences:
            assert "\n" + f + "\n" in texts or f in texts, (pid, f[:200])
        checked_code += len(fences)
        # table cells
        cells = Counter(t for _, t in blocks(out, "td") + blocks(out, "th") if t)
        kept_cells = Counter(_collapsed(d, i, keep) for i in emitted if d.tag_name(i) in ("td", "th"))
        assert not (cells - kept_cells), (pid, cells - kept_cells)
        checked_td += sum(cells.values())
        pages += 1
        if pages >= 40:
            break
    assert checked_h > 50 and checked_li > 50 and checked_code > 50 and checked_td > 20, \
        (checked_h, checked_li, checked_code, checked_td)
