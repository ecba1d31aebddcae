"""The flat node array: structure, own counts and subtree aggregates on hand-made trees."""
import numpy as np
import pytest

import fastx
from fastx import _core

FLAGS = _core.NODE_FLAGS


def nodes(doc):
    return [(doc.tag_name(i), doc.text(i)) for i in range(doc.n)]


def test_preorder_structure_and_end():
    doc = fastx.parse("<html><body><div><p>a b</p><ul><li>x</li><li>y</li></ul></div></body></html>")
    names = [doc.tag_name(i) for i in range(doc.n)]
    assert names == ["html", "body", "div", "p", "#text", "ul", "li", "#text", "li", "#text"]
    # every node's subtree range contains exactly its descendants
    for i in range(doc.n):
        desc = [j for j in range(doc.n) if j != i and _is_ancestor(doc, i, j)]
        assert desc == list(range(i + 1, doc.end[i]))
    assert doc.depth[doc.body] == 1 and doc.parent[0] == -1


def _is_ancestor(doc, a, j):
    p = doc.parent[j]
    while p >= 0:
        if p == a:
            return True
        p = doc.parent[p]
    return False


def test_aggregates_match_brute_force():
    html = ("<body><div id=m><p>Hello, world. <a href=x>link text</a></p>"
            "<p>Second <b>bold</b> para!</p><button>Go</button></div><div>tail</div></body>")
    doc = fastx.parse(html)
    for i in range(doc.n):
        sub = range(i, doc.end[i])
        texts = [j for j in sub if doc.kind[j] == _core.KIND_TEXT]
        elems = [j for j in sub if doc.kind[j] == _core.KIND_ELEMENT and j != i]
        assert doc.chars[i] == sum(len(doc.text(j)) for j in texts)
        assert doc.tags[i] == len(elems)
        assert doc.link_chars[i] == sum(len(doc.text(j)) for j in texts if doc.flags[j] & FLAGS["in_link"])
        assert doc.link_tags[i] == sum(1 for j in elems if doc.flags[j] & FLAGS["link"])
        assert doc.text_nodes[i] == len(texts)
        assert doc.p_count[i] == sum(1 for j in sub if doc.tag_name(j) == "p")
    body = doc.body
    assert doc.punct[body] == 3          # , . !
    assert doc.words[body] == 9          # Hello world link text Second bold para Go tail
    assert doc.attr(2, "id") == "m"


def test_cjk_punctuation_and_words():
    doc = fastx.parse("<body><p>中文新闻，今天。“引号”</p></body>".encode("utf-8"))
    p = doc.body + 1
    assert doc.chars[p] == 12
    assert doc.punct[p] == 4             # ， 。 “ ”
    assert doc.words[p] == 8             # each CJK character is a token


def test_dropped_and_hidden_nodes_are_not_counted():
    html = ("<body><script>var x=1</script><style>p{}</style><noscript>ns</noscript>"
            "<div hidden>h1</div><div aria-hidden='true'>h2</div><div style='display: none'>h3</div>"
            "<div style='VISIBILITY:hidden'>h4</div><input type=hidden value=v><!-- comment -->"
            "<template><p>t</p></template><p>visible</p></body>")
    doc = fastx.parse(html)
    assert [doc.text(i) for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT] == ["visible"]
    assert doc.chars[doc.body] == 7


def test_hidden_disclosure_panels_are_read():
    # a tab's or an accordion's closed panel: its text is the page's, one click away
    panels = ("<div role='tabpanel' hidden><p>p1</p></div>"
              "<div role='Region' aria-hidden='true'><p>p2</p></div>"
              "<div class='chakra-collapse' style='display:none'><p>p3</p></div>"
              "<div class='a-expander-content' style='display:none'><p>p4</p></div>"
              "<div class='tab-pane fade' style='display:none'><p>p5</p></div>"
              "<div class='product-accordion__body' aria-hidden='true'><p>p6</p></div>"
              "<div class='TabPanel' hidden><p>p7</p></div>")
    # other hidden elements stay out, whatever their words only start like a panel's
    others = ("<div role='dialog' aria-hidden='true'><p>h1</p></div>"
              "<div class='collapsed-menu' hidden><p>h2</p></div>"
              "<div class='tab' style='display:none'><p>h3</p></div>"
              "<div class='tabs paneless' hidden><p>h4</p></div>"
              "<div role='tabpanel'><div hidden><p>h5</p></div></div>")
    doc = fastx.parse("<body><p>visible</p>" + panels + others + "</body>")
    texts = [doc.text(i) for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT]
    assert texts == ["visible"] + [f"p{k}" for k in range(1, 8)]


def test_consent_dialogs_are_not_read():
    body = "<p>The bridge over the river reopened on Monday after three months of repairs.</p>"
    dialogs = ("<div id='onetrust-consent-sdk'><p>We and our 644 partners store data.</p></div>"
               "<div class='CybotCookiebotDialog-Wrapper'><p>This website uses cookies.</p></div>"
               "<section class='gdpr-banner page-notice'><p>We use cookies.</p></section>"
               "<div class='site-Cookie_Notice'><p>Accept all</p></div>")
    doc = fastx.parse("<body>" + body + dialogs + "<div class='cookie-recipes'><p>Oat cookies</p></div></body>")
    texts = [doc.text(i) for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT]
    # a word that only starts like a mark ("cookie-recipes") is not one
    assert texts == ["The bridge over the river reopened on Monday after three months of repairs.", "Oat cookies"]
    # the page itself is never a dialog, whatever a theme names it
    for tag in ("body", "main", "article"):
        page = f"<html><body><{tag} class='cookie-consent-given'>{body}</{tag}></body></html>"
        assert "bridge" in fastx.extract(page).text, tag
    assert "bridge" in fastx.extract(f"<html class='cookie-consent-given'><body>{body}</body></html>").text
    # only near the top, where the platforms put their roots (a body's child to its
    # great-grandchild): deeper, a class is read as any other
    deep = "<body><div><div><div><div class='cookie-notice'><p>Deep text</p></div></div></div></div></body>"
    assert "Deep text" in [fastx.parse(deep).text(i) for i in range(fastx.parse(deep).n)]
    near = "<body><div><div><div class='cookie-notice'><p>Near text</p></div></div></div></body>"
    assert "Near text" not in [fastx.parse(near).text(i) for i in range(fastx.parse(near).n)]
    # a page that is nothing but a dialog's text is read with it (the hidden-content fallback)
    only = "<body><div id='onetrust-banner-sdk'>" + "<p>" + "Our policy says a great many things. " * 80 + "</p></div></body>"
    assert fastx.parse(only).chars[fastx.parse(only).body] > 2000


def test_sibling_signatures():
    html = ("<body><ul><li class='item'>One</li><li class='item'>Two</li><li class='item big'>Three</li>"
            "<li>Four</li></ul><div class='item'>Five</div><div class='" + "x" * 128 + "a'>Six</div>"
            "<div class='" + "x" * 128 + "b'>Seven</div></body>")
    doc = fastx.parse(html)
    el = {doc.subtree_text(i): i for i in range(doc.n) if doc.kind[i] == _core.KIND_ELEMENT}
    sig = doc.sig
    assert sig.dtype == np.uint32 and len(sig) == doc.n
    assert sig[el["One"]] == sig[el["Two"]]                   # same tag, same class
    assert len({int(sig[el[t]]) for t in ("One", "Three", "Four", "Five")}) == 4   # other class, none, other tag
    assert sig[el["Six"]] == sig[el["Seven"]]                 # the class's first 128 bytes only
    assert not sig[doc.kind == _core.KIND_TEXT].any()


def test_a_hidden_elements_attribute_flags_are_complete():
    # a page that is nothing but a consent dialog's text is rebuilt with its hidden elements
    # (test_consent_dialogs_are_not_read): the dialog's root, hidden by its id before its role
    # and itemprop are read, has every attribute's flag all the same
    text = "<p>" + "Our policy says a great many things. " * 80 + "</p>"
    doc = fastx.parse(f"<body><div id='onetrust-banner-sdk' role='dialog' itemprop='text'>{text}</div></body>")
    root = next(i for i in range(doc.n) if doc.attr(i, "id") == "onetrust-banner-sdk")
    f = _core.NODE_FLAGS
    assert doc.flags[root] & f["role"] and doc.flags[root] & f["itemprop"] and doc.flags[root] & f["hint_attr"]


def test_a_web_component_with_an_href_is_a_link():
    html = ("<body><nav><dropdown-item href='/c590'>Solidbody Guitars</dropdown-item>"
            "<div href='#'>Community support</div><a href='/x'>Shop</a></nav></body>")
    doc = fastx.parse(html)
    nav = doc.body + 1
    # the custom element and the <a> are links; Webflow's leftover <div href="#"> is not
    assert doc.link_tags[nav] == 2
    assert doc.link_chars[nav] == len("Solidbody Guitars") + len("Shop")


def test_content_hidden_until_a_script_runs_is_read():
    # the whole product section sits in a wrapper styled display:none that a script reveals;
    # what is visible without it is a short menu
    para = "<p>" + "Baked with simple ingredients found in most kitchens. " * 12 + "</p>"
    html = ("<body><nav><a href='/'>Home</a> <a href='/s'>Shop</a></nav>"
            f"<div class='defer-block' style='display: none'><article><h1>Almond thins</h1>{para * 4}"
            "</article></div></body>")
    doc = fastx.parse(html)
    assert doc.chars[doc.body] > 2000
    assert "Baked with simple ingredients" in fastx.extract(html).text
    # a page that shows its content keeps its hidden elements out (a modal, a mobile menu)
    shown = html.replace("<nav>", f"<main>{para * 2}</main><nav>")
    doc = fastx.parse(shown)
    assert doc.chars[doc.body] < 1500
    # and a short page stays short: hidden text that is not several times more is not read
    small = ("<body><p>" + "Short visible text. " * 10 + "</p><div hidden>" + "A hidden menu. " * 20
             + "</div></body>")
    doc = fastx.parse(small)
    assert "hidden menu" not in doc.render_text(np.ones(doc.n, dtype=np.uint8))


def test_title_and_description():
    doc = fastx.parse("<html><head><title> A  title </title><meta name='Description' content=' d  1 '>"
                      "</head><body>x</body></html>")
    assert doc.title == "A title"
    assert doc.description == "d 1"
    doc = fastx.parse("<head><meta property='og:description' content='og'></head><body></body>")
    assert doc.description == "og"


def test_render_text_blocks_and_inline_spacing():
    doc = fastx.parse("<body><h1>Title</h1><p>Hello <b>wor</b>ld, <i>you</i></p>one<br>two<div>end</div></body>")
    keep = np.ones(doc.n, dtype=np.uint8)
    assert doc.render_text(keep) == "Title\nHello world, you\none\ntwo\nend"
    html = doc.render_html(keep)
    assert "<h1>Title</h1>" in html and "<b>wor</b>" in html


def test_whitespace_only_text_between_inline_elements_is_a_space():
    doc = fastx.parse("<p><b>foo</b> <i>bar</i>\n<a href=x>baz</a>&nbsp;<span>qux</span><b>joined</b></p>")
    assert doc.render_text(np.ones(doc.n, dtype=np.uint8)) == "foo bar baz quxjoined"


def test_render_html_keeps_only_kept_subtrees_with_ancestors():
    doc = fastx.parse("<body><div class=a><p>keep me</p><p>drop me</p></div><nav>menu</nav></body>")
    keep = np.zeros(doc.n, dtype=np.uint8)
    p = next(i for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT and doc.text(i) == "keep me")
    keep[p - 1:doc.end[p - 1]] = 1
    html = doc.render_html(keep)
    assert html == '<div><p>keep me</p></div>'       # html/body unwrapped, class dropped (_sanitize.pxi)
    with pytest.raises(ValueError):
        doc.render_text(np.ones(doc.n + 1, dtype=np.uint8))


def test_custom_elements_and_attributes():
    doc = fastx.parse('<body><my-widget data-x="1" class="c d">w</my-widget></body>')
    i = doc.body + 1
    assert doc.tag_name(i) == "my-widget"
    assert doc.tag[i] >= 1024
    assert doc.attributes(i) == {"data-x": "1", "class": "c d"}


def test_deep_nesting_no_recursion():
    depth = 100_000
    doc = fastx.parse("<div>" * depth + "deep" + "</div>" * depth)
    # the input guard bounds nesting as browsers do; nothing of the text is lost
    assert 500 <= doc.depth.max() <= _core.GUARD_MAX_DEPTH + 2
    assert doc.chars[0] == 4
    r = fastx.extract(doc, method="cetd")  # a one-word page: default may call it "no main content"
    assert "deep" in r.text


def test_react_streaming_segments_are_visible():
    """React 18 streams completed Suspense segments as <div hidden id="S:n">, which its inline
    $RC script moves into place: the browser shows them, so the Doc keeps their text; any other
    `hidden` element stays out."""
    body = "Streamed article paragraph, with commas, and a full stop. " * 20
    page = ('<html><body><template id="B:0"></template><p>Loading</p>'
            f'<div hidden id="S:0"><article><p>{body}</p></article></div>'
            '<div hidden id="menu"><p>Hidden menu entry text that nobody sees.</p></div>'
            '<script>$RC("B:0","S:0")</script></body></html>')
    doc = fastx.parse(page)
    text = fastx.extract(doc, method="cetd").text
    assert "Streamed article paragraph" in text
    assert "Hidden menu entry" not in text
    assert "Streamed article paragraph" in fastx.extract(page).text
