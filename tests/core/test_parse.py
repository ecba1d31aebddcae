"""The guarded parse (fastx/_parse.pxi): hostile-input limits applied to lexbor's own tokens.

Real pages must come out exactly as an unguarded parse gives them; hostile
shapes must stay within the limits with all their text; the byte-level guard
(guard_html) remains the fallback and gives the same Docs on real pages.
"""
from collections import Counter

import numpy as np
import pytest
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
