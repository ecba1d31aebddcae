"""The guarded parse (fastx/_parse.pxi): hostile-input limits applied to lexbor's own tokens.

Real pages must come out exactly as an unguarded parse gives them; hostile
shapes must stay within the limits with all their text; the byte-level guard
(guard_html) remains the fallback and gives the same Docs on real pages.
"""
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

import fastx
from fastx import _core, api
import fastx.core.parse as core_parse

pytestmark = pytest.mark.skipif(not _core.parse_available(),
                                reason="lexbor's entry points are not exported by this selectolax build")

ARRAYS = ("parent", "end", "depth", "tag", "flags", "chars", "tags", "link_chars", "punct", "words")


def same_doc(a, b):
    return (a.n == b.n and a.text_buf == b.text_buf and a.title == b.title
            and a.description == b.description and all(np.array_equal(getattr(a, k), getattr(b, k))
                                                       for k in ARRAYS))


def stats(data, **kw):
    parser, deepest, dropped, cut, recreated, fostered = _core.parse_guarded(data, stats=True, **kw)
    return _core.build_doc(parser), deepest, dropped, cut, recreated, fostered


def test_plain_page_is_parsed_as_lexbor_parses_it():
    html = (b"<!DOCTYPE html><html><head><title>T</title><meta name=description content=D></head>"
            b"<body><p>One <b>two</b> <a href=x>three</a></p><table><tr><td>4</table></body></html>")
    doc, deepest, dropped, cut, _, fostered = stats(html)
    assert same_doc(doc, _core.build_doc(LexborHTMLParser(html)))
    assert (dropped, cut, fostered) == (0, 0, 0) and deepest < 10
    assert doc.title == "T" and doc.description == "D"


@pytest.mark.parametrize("doctype, inside", [(b"<!DOCTYPE html>", False), (b"", True)])
def test_compat_mode_comes_from_the_page(doctype, inside):
    # a <table> closes an open <p> in no-quirks mode only; the empty parse that
    # creates the document must not leave its quirks mode behind
    doc = fastx.parse(doctype + b"<p>a<table><tr><td>b</td></tr></table>")
    p = [i for i in range(doc.n) if doc.tag_name(i) == "p"][0]
    t = [i for i in range(doc.n) if doc.tag_name(i) == "table"][0]
    assert bool(doc.parent[t] == p) == inside


def test_depth_is_bounded_and_text_kept():
    doc, deepest, dropped, *_ = stats(b"<div>x" * 5000)
    assert deepest <= _core.GUARD_MAX_DEPTH + 1 and dropped == 5000 - _core.GUARD_MAX_DEPTH + 2
    assert doc.chars[doc.body] == 5000


def test_formatting_elements_are_bounded():
    # distinct attributes: the list of active formatting elements keeps at most 3 equal ones
    doc, _, dropped, *_ = stats(b"<p>" + b"".join(b"<b id=%d>" % i for i in range(100)) + b"x")
    assert dropped == 100 - _core.GUARD_MAX_FORMATTING
    assert int(doc.depth.max()) < _core.GUARD_MAX_FORMATTING + 8 and doc.chars[doc.body] == 1


def test_attributes_are_cut_at_the_limit():
    html = b"<div " + b" ".join(b"a%d=%d" % (i, i) for i in range(2000)) + b">x</div>"
    parser, _, _, cut, _, _ = _core.parse_guarded(html, stats=True)
    assert cut == 1 and len(parser.css_first("div").attributes) == _core.GUARD_MAX_ATTRS


def test_repeated_body_tags_stop_merging_attributes():
    html = b"".join(b"<body a%d=1>" % i for i in range(100)) + b"x"
    parser, _, dropped, *_ = _core.parse_guarded(html, stats=True)
    assert dropped == 100 - _core.TG_MAX_HTML_BODY
    assert len(parser.body.attributes) == _core.TG_MAX_HTML_BODY


def test_reconstruction_budget_turns_the_rest_into_text():
    html = b"<p><b id=%d>x</p>" % 1 * 3000
    doc, _, dropped, _, recreated, _ = stats(html, max_reconstructed=200)
    assert recreated > 200 and dropped > 0
    assert doc.chars[doc.body] == 3000        # every x survives


def test_fostered_text_budget():
    html = b"<table>" + (b"y" * 10 + b"<!---->") * 3000 + b"</table>"
    doc, _, dropped, _, _, fostered = stats(html, max_fostered=100)
    assert fostered == 101 and dropped > 0 and doc.chars[doc.body] == 30000


def test_name_tables_grow_with_the_page():
    # 128 buckets for every distinct name made 1 MB of distinct attribute names quadratic
    html = b"".join(b"<i a%d=1>" % i for i in range(100_000))
    sizes = _core.name_table_sizes(_core.parse_guarded(html))
    assert min(sizes) >= len(html) // 256
    assert _core.name_table_sizes(LexborHTMLParser(b"<p>")) == (128, 128, 128, 128)


@pytest.mark.parametrize("shape", ["<div>", "<table><tr><td>", "<svg><g>", "<math><mi>", "<template>",
                                   "<i><b><u>", "<select><option>", "</li><button><svg><i>",
                                   "<font color={r}></b><math><tr>", "<p><b id={r}>x</p>"])
def test_hostile_shapes_stay_bounded(shape):
    html = "".join(shape.replace("{r}", str(r)) for r in range(20_000)).encode()
    doc = fastx.parse(html)
    assert int(doc.depth.max()) <= _core.GUARD_MAX_DEPTH + _core.GUARD_MAX_FORMATTING + 16
    assert doc.chars[doc.body] >= html.count(b"x") if doc.body >= 0 else True


def test_byte_guard_fallback_gives_the_same_doc(monkeypatch):
    html = (b"<!DOCTYPE html><title>t</title><p>a <b>b</b><table><tr><td>c</table>"
            b"<svg><g><text>d</text></g></svg>")
    fast = fastx.parse(html)
    monkeypatch.setattr(core_parse, "_GUARDED_PARSE", False)
    assert same_doc(fast, fastx.parse(html))


@pytest.mark.needs_shared
def test_real_pages_parse_exactly_as_unguarded(compare):
    from fastx.decode import decode
    n = fixed = 0
    for corpus in ("dragnet", "cleaneval-dev", "l3s", "readability", "cpe"):
        for _, html, _ in list(compare.CORPORA[corpus]())[:120]:
            data = decode(html)[0].encode("utf-8")
            parser, st = _core.parse_guarded(data, stats="dict")
            doc, ref = _core.build_doc(parser), _core.build_doc(LexborHTMLParser(data))
            assert (st["dropped_attrs"], st["flat"]) == (0, False)
            if st["noscript_fixes"]:
                # a <noscript> ends at its end tag (what it left open is closed there):
                # every word of the unguarded Doc is still there
                assert not Counter(ref.text_buf.split()) - Counter(doc.text_buf.split())
                fixed += 1
            else:
                assert st["dropped_tags"] == 0
                assert same_doc(doc, ref)
            n += 1
    assert n > 400 and fixed < n // 10


# ---------------------------------------------------------------- what no method reads, passed over

def _read_tree(parser):
    """The tree as fastx reads it: every node but the descendants of an <svg>, the text of a
    <script> (JSON-LD excepted) or a <style> and the text of comments, in preorder, with
    attributes and text."""
    out, stack = [], [(parser.root, False)]
    while stack:
        node, in_svg = stack.pop()
        if in_svg:
            continue
        parent = node.parent
        if node.tag == "-text" and parent is not None and parent.tag in ("script", "style") \
                and "ld+json" not in (parent.attributes.get("type") or "").lower():
            continue
        out.append((node.tag, node.text_content if node.tag == "-text"
                    else "" if node.tag == "-comment" else tuple(sorted(node.attributes.items()))))
        kids = []
        child = node.child
        while child is not None:
            kids.append((child, node.tag == "svg"))
            child = child.next
        stack.extend(reversed(kids))
    return out


PASSED_OVER = [
    (b"<script>var a = '<b>' + x < y;</script><p>x</p>", True),
    (b"<script><!-- </script> --></script><p>y</p>", True),       # escaped: </script> still ends it
    (b"<script><!-- <script>a</script> b --></script><p>y</p>", True),   # double escaped, then not
    (b"<script><!-- <script>a</SCRIPT> --></script><p>y</p>", True),
    (b"<script><!-- <script>a --></script><p>y</p>", True),          # "-->" ends the double escape
    (b"<script><!-- <script> </script --> --></script><p>y</p>", True),
    (b"<script><!--> </script><p>y</p>", True),
    (b"<script><!---> </script><p>y</p>", True),
    (b"<script><!-- a --- > ---> </script><p>y</p>", True),
    (b"<script><!-- <scripts> </script><p>y</p>", True),
    (b"<script><!-- <script/x </script> </script><p>y</p>", True),
    (b"<script><!-- <script", True),
    (b"<style>p { color: red }</style><p>z</p>", True),
    (b"<script type='Application/LD+JSON'>{\"a\": 1}</script><p>j</p>", False),
    (b"<script>never ends <p>", True),
    (b"<script>a</scripts></script ><p>r</p>", True),
    (b"<script>x</SCRIPT\t>tail", True),
    (b"<script>x</script", True),                                 # its end cut by the end of the page
    (b"<title><script>x</script></title>", False),               # RCDATA: text, not a script
    (b"<div><svg viewBox='0 0 1 1'><g><path d='M0 0'/></g></svg>after</div>", True),
    (b"<div><svg><g><path d=a/></g></svg>after</div>", True),      # "a/" is the value: <path> stays open
    (b"<div><svg><p>out</p></svg>after</div>", False),            # <p> ends the SVG subtree
    (b"<div><svg><foreignObject><p>in</p></foreignObject></svg>after</div>", False),
    (b"<div><svg><g></div>out</g></svg>after", False),            # </div> closes the div around it
    (b"<div><svg><svg><g/></svg><rect/></svg>after</div>", True),
    (b"<div><svg><![CDATA[</svg>]]></svg>after</div>", True),
    (b"<div><svg><!-- </svg> --></svg>after</div>", True),
    (b"<div><SVG><G></G></SVG>after</div>", True),
    (b"<div><svg><g>", False),
    (b"<table><svg><g/></svg><tr><td>c</td></tr></table>", True),
    (b"<svg><title>Close</title><path d='M0'/></svg>x", True),
    (b"<svg><title>t<b>x</b></title></svg>y", False),             # HTML inside an integration point
    (b"<p><b>x</p><svg><desc>d</desc></svg>after", True),
    (b"<math><svg><g/></svg></math>x", True),
    (b"<svg><script>alert(1)</script><style>x</style></svg><p>q</p>", True),
    (b"<p>a<!-- " + b"x" * 60 + b" -->b</p>", True),                # a long comment: an empty one
    (b"<p>a<!-- x -->b</p>", False),                                # a short one: lexbor reads it
    (b"<textarea><!-- " + b"x" * 60 + b" --></textarea>", False),   # RCDATA: text
    (b"<p title='<!-- " + b"x" * 60 + b" -->'>a</p>", False),       # an attribute's value
    (b"<p>a<!-- " + b"x" * 60, True),                                # to the end of the page
    (b"<p>a<!-- " + b"x" * 60 + b" --!>b", True),
    (b"<p>a<!-- " + b"x" * 60 + b" --!->b -->c", True),
]


@pytest.mark.parametrize("html, skipped", PASSED_OVER)
def test_passed_over_text_leaves_the_tree_as_read(html, skipped):
    full = _core.parse_guarded(html)
    part, st = _core.parse_guarded(html, full_tree=False, stats="dict")
    assert _read_tree(part) == _read_tree(full)
    assert (st["skipped"] > 0) == skipped
    assert same_doc(_core.build_doc(part), _core.build_doc(full))


@pytest.mark.parametrize("shift", [-12, -9, -8, -3, -1, 0, 1, 2, 7])
def test_passed_over_script_across_pieces(shift):
    # the guarded parse hands lexbor 256 KB pieces ending after a '>': a script body that
    # crosses them, its end tag cut anywhere near the cut
    body = b"if (a<b) { x = '<i>' + y; }\n" * (262_144 // 28)
    pad = b"x" * (262_144 - 20 - len(body) + shift)
    html = b"<p>a</p><script>" + pad + body + b"</script><p>after</p>" + b"<p>b</p>" * 50
    full = _core.parse_guarded(html)
    part, st = _core.parse_guarded(html, full_tree=False, stats="dict")
    assert _read_tree(part) == _read_tree(full) and st["skipped"] > 200_000
    svg = b"<svg>" + b"<path d='M0 0 L1 1'/>" * 13_000 + b"<g>" * 3 + pad + b"</g>" * 3 + b"</svg><p>c</p>"
    comment = b"<p>a</p>" + pad + b"<p>b<!-- " + b"<p>x</p>\n" * 100 + b"--><p>after</p>"
    for html in (svg, comment):
        full, part = _core.parse_guarded(html), _core.parse_guarded(html, full_tree=False)
        assert _read_tree(part) == _read_tree(full)


def test_parse_passes_over_and_full_tree_keeps():
    html = b"<style>p{}</style><script>var x = 1;</script><svg><path d='M0'/></svg><p>t</p>"
    doc, full = fastx.parse(html), fastx.parse(html, full_tree=True)
    assert not doc.full_tree and full.full_tree and same_doc(doc, full)
    assert doc.parser.css_first("script").text() == "" and full.parser.css_first("script").text() == "var x = 1;"
    again = core_parse.with_full_tree(doc)
    assert again.full_tree and same_doc(again, doc) and again.parser.html == full.parser.html
    assert core_parse.with_full_tree(full) is full


@pytest.mark.needs_shared
def test_real_pages_pass_over_only_unread_text(compare):
    from fastx.decode import decode
    n = 0
    skipped = total = 0
    for corpus in ("wcxb-dev", "dragnet", "cleaneval-dev", "readability"):
        for _, html, _ in list(compare.CORPORA[corpus]())[:60]:
            data = decode(html)[0].encode("utf-8")
            full = _core.parse_guarded(data)
            part, st = _core.parse_guarded(data, full_tree=False, stats="dict")
            assert _read_tree(part) == _read_tree(full)
            assert same_doc(_core.build_doc(part), _core.build_doc(full))
            skipped += st["skipped"]
            total += len(data)
            n += 1
    assert n > 200 and skipped > total // 5


def test_browser_markup_reads_the_full_tree():
    # the render serializes the tree itself: styles, scripts and SVG images as the page has them,
    # whichever way the Doc was parsed
    from fastx.tools.browser import markup
    html = (b"<html><head><style>p{color:red}</style><script>var x = 1</script></head><body>"
            b"<svg><path d='M0'/></svg><p>t<!-- " + b"c" * 40 + b" --></p></body></html>")
    doc, full = fastx.parse(html), fastx.parse(html, full_tree=True)
    assert markup(doc) == markup(full) and "p{color:red}" in markup(doc) and "M0" in markup(doc)
    assert markup(doc, scripts=True) == markup(full, scripts=True) and "var x = 1" in markup(doc, scripts=True)


# the pieces of markup where passing over could go wrong: the ends of scripts, styles, SVG
# images and comments, their escapes, and what ends foreign content or holds HTML in it
_PIECES = ["<script>", "</script>", "</SCRIPT >", "<script type=application/ld+json>", "<style>",
           "</style>", "<!--", "-->", "--!>", "-", "<svg>", "</svg>", "<svg/>", "<g>", "</g>", "<path d=a/>",
           "<title>", "</title>", "<desc>", "<foreignObject>", "</foreignObject>", "<math>", "<p>", "</p>",
           "<div>", "</div>", "<b>", "<table>", "<td>", "<![CDATA[", "]]>", "<", "/", ">", "x", " ",
           "'", '"', "<textarea>", "</textarea>", "<noscript>", "</noscript>", "c" * 20]


@settings(deadline=None, max_examples=400)
@given(st.lists(st.sampled_from(_PIECES), max_size=60))
def test_passing_over_never_changes_what_is_read(pieces):
    html = "".join(pieces).encode()
    full = _core.parse_guarded(html)
    part = _core.parse_guarded(html, full_tree=False)
    assert _read_tree(part) == _read_tree(full)
    assert same_doc(_core.build_doc(part), _core.build_doc(full))


# ---------------------------------------------------------------- documents parsed into again

def test_a_used_document_reads_the_next_page_as_a_new_one():
    # a Doc gives its document back when it goes; the next parse reads into it: every page must
    # come out as from a new document (quirks mode, name tables, arenas), whatever came before
    pages = [b"<!DOCTYPE html><p>a<table><tr><td>b</table>",            # no-quirks: the table closes the p
             b"<p>a<table><tr><td>b</table>",                          # quirks: it does not
             b"".join(b"<i a%d=1 b%d=2>x</i>" % (r, r) for r in range(20_000)),   # widened name tables
             b"<title>T</title><p>small <b>page</b> <x-custom k=v>z</x-custom></p>"]
    fresh = [_core.build_doc(_core.parse_guarded(p)) for p in pages]
    for order in (pages, pages[::-1], pages * 2):
        for p in order:
            doc = fastx.parse(p, full_tree=True)
            assert same_doc(doc, fresh[pages.index(p)])
            assert doc.parser.html == LexborHTMLParser(p).html
            del doc
    doc = fastx.parse(pages[3])
    assert max(_core.name_table_sizes(doc.parser)) <= 4 * 128        # not the big page's tables


def test_a_document_still_held_is_not_parsed_into():
    doc = fastx.parse(b"<p>first page</p>")
    node = doc.parser.css_first("p")           # holds the parser: the document stays this page's
    del doc
    for _ in range(3):
        fastx.parse(b"<p>another page</p><div>with more</div>")
    assert node.text() == "first page"
    ex = fastx.extract(b"<p>kept by the extraction, whose Doc holds the parser</p>")
    for _ in range(3):
        fastx.extract(b"<p>other</p>")
    assert "kept by the extraction" in ex.doc.parser.html


def test_pages_parsed_in_threads_come_out_as_one_after_another():
    # the parse runs without the GIL and takes its documents from the pool the Docs give them
    # back to: pages parsed and extracted in 4 threads at once (each Doc dropped once read, so
    # documents go back and are taken again while other parses run) give what a run one page
    # after another gives
    from concurrent.futures import ThreadPoolExecutor

    from fastx.tools.bench import load_corpus
    pages = [p.html for p in load_corpus().pages] * 3

    def read(html):
        doc = fastx.parse(html)
        arrays = tuple(getattr(doc, k).tobytes() for k in ARRAYS)
        return doc.n, doc.text_buf, doc.title, arrays, fastx.extract(doc).text

    alone = [read(p) for p in pages]
    with ThreadPoolExecutor(4) as ex:
        together = list(ex.map(read, pages))
    assert together == alone
