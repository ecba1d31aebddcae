"""Whitespace-faithful text output (issue 14): preformatted text byte for byte, table rows
as tab-separated lines, list items and blocks on lines of their own, the Doc's counts unchanged."""
import numpy as np
import pytest

import fastx
from fastx import _core

CODE = "for i in range(3):\n    if i:\n\tprint(i)  # tab, then two spaces"


def full_text(html):
    d = fastx.parse(html)
    return d.render_text(np.ones(len(d), dtype=np.uint8))


def highlighted(code):
    """`code` as a syntax highlighter writes it: each word in a span, the whitespace between them
    in text nodes of its own (whitespace-only nodes never become Doc nodes)."""
    out, word = [], []
    for ch in code:
        if ch.isspace():
            if word:
                out.append(f'<span class="tok">{"".join(word)}</span>')
                word = []
            out.append(ch)
        else:
            word.append(ch.replace("<", "&lt;"))
    if word:
        out.append(f'<span class="tok">{"".join(word)}</span>')
    return "".join(out)


@pytest.mark.parametrize("tag", ["pre", "textarea", "listing", "xmp"])
def test_preformatted_text_is_kept_byte_for_byte(tag):
    body = CODE if tag == "xmp" else CODE.replace("<", "&lt;")
    assert full_text(f"<body><p>Intro</p><{tag}>{body}</{tag}><p>After</p></body>") == \
        f"Intro\n{CODE}\nAfter"


def test_plaintext_keeps_the_rest_of_the_page():
    assert full_text(f"<body><p>Intro</p><plaintext>{CODE}\n<b>not a tag</b>") == \
        f"Intro\n{CODE}\n<b>not a tag</b>"


@pytest.mark.parametrize("value", ["pre", "pre-wrap", "pre-line", "PRE-WRAP !important"])
def test_inline_white_space_pre_styles(value):
    assert full_text(f'<div style="color: red; white-space: {value}">{CODE}</div>') == CODE


def test_white_space_normal_still_collapses():
    assert full_text(f'<div style="white-space: normal">{CODE}</div>') == " ".join(CODE.split())


def test_highlighted_code_keeps_its_whitespace_nodes():
    html = f'<pre><code class="language-python">{highlighted(CODE)}</code></pre>'
    assert full_text(html) == CODE
    # and the cleaned HTML holds the same text
    r = fastx.extract(html, method="cetd")
    from selectolax.lexbor import LexborHTMLParser
    assert LexborHTMLParser(r.html).css_first("pre").text(deep=True) == CODE


def test_code_lines_as_block_elements():
    lines = ["def f(x):", "    return x", "", "print(f(1))"]
    html = "<pre>" + "".join(f'<div class="line">{highlighted(x)}</div>' for x in lines if x) + "</pre>"
    assert full_text(html) == "\n".join(x for x in lines if x)
    html = "<pre>" + "".join(f'<span class="line">{highlighted(x)}\n</span>' for x in lines) + "</pre>"
    assert full_text(html) == "\n".join(lines)


def test_br_inside_pre_is_a_line_break():
    assert full_text("<pre>a  b<br>  c</pre>") == "a  b\n  c"


def test_doc_counts_of_preformatted_text_are_the_collapsed_texts():
    """chars/words/punct (every method's features) do not depend on whitespace preservation."""
    pre = fastx.parse(f"<body><pre>{highlighted(CODE)}</pre></body>")
    div = fastx.parse(f"<body><div>{highlighted(CODE)}</div></body>")
    assert len(pre) == len(div)
    for name in ("parent", "end", "depth", "kind", "chars", "punct", "words", "tags", "link_chars",
                 "leaves", "text_nodes", "own_chars"):
        assert np.array_equal(getattr(pre, name), getattr(div, name)), name
    pre_bit = _core.NODE_FLAGS["pre"]
    assert np.array_equal(pre.flags & ~np.uint16(pre_bit), div.flags)
    assert all(pre.flags[i] & pre_bit for i in range(len(pre)) if pre.kind[i] == _core.KIND_TEXT)
    # each record's text ends where the collapsed text ends (kernels read the last character)
    for i in range(len(pre)):
        if pre.kind[i] == _core.KIND_TEXT:
            assert pre.text(i).rstrip() == pre.text(i)
            assert " ".join(pre.text(i).split()) == div.text(i)


def test_non_ascii_whitespace_in_pre_is_kept():
    text = "a\u00a0\u00a0b\n\u3000c\u2003d"
    assert full_text(f"<pre>{text}</pre>") == text
    assert full_text(f"<p>{text}</p>") == "a b c d"


def test_table_row_is_one_line_with_tab_separated_cells():
    html = ("<table><tr><th>Name</th><th>Price</th></tr><tr><td>Tea <b>green</b></td><td>3 EUR</td></tr>"
            "<tr><td>Coffee</td><td></td></tr></table><p>After</p>")
    assert full_text(html) == "Name\tPrice\nTea green\t3 EUR\nCoffee\nAfter"


def test_cell_with_block_content_keeps_its_lines():
    html = "<table><tr><td><p>one</p><p>two</p></td><td>three</td></tr></table>"
    assert full_text(html) == "one\ntwo\nthree"


def test_list_items_are_lines_of_their_own():
    html = "<ul><li>one <i>a</i></li><li>two<ul><li>nested</li></ul></li></ul><ol><li>x</li></ol>"
    assert full_text(html) == "one a\ntwo\nnested\nx"


@pytest.mark.parametrize("html, text", [
    # Sphinx's and MkDocs' headerlink after a heading and a signature, a theme's "#", a link symbol
    ('<h2>Usage<a class="headerlink" href="#usage" title="Link to this heading">¶</a></h2>', "Usage"),
    ('<dl><dt><code>json.dump(obj)</code><a class="headerlink" href="#json.dump"> ¶ </a></dt></dl>',
     "json.dump(obj)"),
    ('<h3>Install <a href="#install">#</a></h3>', "Install"),
    ('<h3>Install <a href="#install" aria-label="link">\U0001F517</a></h3>', "Install"),
    ('<p>See <a href="#s2">§</a></p>', "See"),
    # kept: a mark that links elsewhere, a mark that is not all of its text node, no link at all
    ('<p>Page <a href="/rules">§</a></p>', "Page §"),
    ('<p>Learn <a href="#c">C#</a> or <a href="#n">#1</a></p>', "Learn C# or #1"),
    ("<p>Paragraph ¶</p>", "Paragraph ¶"),
])
def test_a_permalink_mark_is_no_text_of_the_page(html, text):
    assert full_text(f"<body>{html}</body>") == text
    assert "¶" not in fastx.extract(f"<body><main><h1>Title</h1>{html}<p>{'Words of the body. ' * 20}</p>"
                                    f"</main></body>").markdown or "¶" in text


@pytest.mark.parametrize("invisible", ["\u200d", "&zwj;", "\u200b", "&shy;", "\ufeff", "\u2060 \u200c"])
def test_a_text_of_invisible_characters_only_is_no_line(invisible):
    # Webflow's editor writes an empty paragraph as <p>&zwj;</p>
    assert full_text(f"<body><p>One</p><p>{invisible}</p><p>Two</p></body>") == "One\nTwo"


def test_a_joiner_inside_text_stays():
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    # (a zero-width space is a break opportunity: whitespace, as it always was)
    assert full_text(f"<body><p>A {family} family</p><p>\u200bzero\u200bwidth</p></body>") == \
        f"A {family} family\nzero width"


def test_text_without_pre_or_tables_is_as_before():
    assert full_text("<p>a <b>b</b>  c</p><div>d<span> e</span></div>x<br>y") == "a b c\nd e\nx\ny"


@pytest.mark.needs_shared
def test_pre_blocks_of_documentation_pages_keep_their_lines(compare):
    """On WCXB-dev documentation pages, each <pre>'s text in .text is the text lexbor holds for it
    (selectolax's own tree), line for line."""
    checked = 0
    for pid, html, meta in compare.CORPORA["wcxb-dev"]():
        if meta["type"] != "documentation":
            continue
        d = fastx.parse(html)
        nodes = {n.mem_id: n for n in d.parser.root.traverse(include_text=False) if n.tag == "pre"}
        pre_tag, pre_bit = _core.TAG_IDS["pre"], _core.NODE_FLAGS["pre"]
        for i in range(len(d)):
            if d.kind[i] != _core.KIND_ELEMENT or d.tag[i] != pre_tag or \
                    (d.parent[i] >= 0 and d.flags[d.parent[i]] & pre_bit):
                continue
            node = nodes.get(int(d.ptr[i]))
            if node is None or node.css_first("br, div, p, li, script, style, [hidden], [style]") is not None:
                continue            # simple blocks only: their text is lexbor's text as is
            ref = node.text(deep=True).strip("\n").rstrip()
            if not ref.strip():
                continue
            assert d.subtree_text(i).strip("\n") == ref, pid
            checked += 1
        if checked >= 200:
            break
    assert checked >= 50
