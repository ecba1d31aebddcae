"""Hostile input (issue 15): the reproducers, typed errors, memory caps, valid UTF-8 out.

Speed and memory per MB across sizes: tests/test_fuzz.py; the WARC damage cases:
tests/test_warc.py; directory entries and the batch memory cap: tests/test_batch.py.
"""
import json
import resource
import subprocess
import sys

import numpy as np
import pytest

import fastx
from fastx import _core, cli
from fastx.bayes import BayesModel
from fastx.site import SiteModel

ARTICLE = b"<article><h1>T</h1><p>" + b"Long article text. " * 40 + b"</p></article></body></html>"
METHODS = ("cetd", "vsse", "bayes")

guarded = pytest.mark.skipif(not _core.parse_available(),
                             reason="lexbor's entry points are not exported by this selectolax build")


# ---------------------------------------------------------------- 2. <noscript>

@guarded
@pytest.mark.parametrize("noscript", [
    b"<noscript><p>Please enable JavaScript</noscript>",       # an unclosed <p> inside
    b"<noscript><iframe src=x /></noscript>",                   # raw text that never ends
    b"<noscript><div><b>Enable <i>scripts</noscript>",          # several, formatting among them
    b"<noscript><textarea>x</noscript>",
])
@pytest.mark.parametrize("method", METHODS)
def test_noscript_does_not_swallow_the_article(noscript, method):
    page = b"<html><body>" + noscript + ARTICLE
    text = fastx.extract(page, method=method).text
    assert text.count("Long article text.") == 40
    assert "Please" not in text and "Enable" not in text       # the noscript itself is still dropped


@guarded
def test_noscript_content_ends_at_its_end_tag():
    doc = fastx.parse(b"<html><body><noscript><p>hidden<b>bold</noscript><p>shown</p></body></html>")
    assert doc.subtree_text(0).split() == ["shown"]
    # what the noscript left open is closed at its end: nothing after it is bold or a link
    tags = {doc.tag_name(i) for i in range(doc.n) if doc.kind[i] == _core.KIND_ELEMENT}
    assert "b" not in tags


@guarded
def test_noscript_open_to_the_end_keeps_its_content():
    # no </noscript> at all: a browser without scripts shows all of it, so fastx keeps it
    doc = fastx.parse(b"<html><body><noscript><article><p>" + b"Body text. " * 20)
    assert doc.subtree_text(0).count("Body text.") == 20


@guarded
def test_noscript_in_head_is_untouched():
    html = (b"<html><head><noscript><style>p{}</style><link rel=x href=y></noscript><title>T</title>"
            b"</head><body><p>text</p></body></html>")
    parser, st = _core.parse_guarded(html, stats="dict")
    from selectolax.lexbor import LexborHTMLParser
    assert st["noscript_fixes"] == 0 and parser.html == LexborHTMLParser(html).html


# ---------------------------------------------------------------- 1. linear parse

@guarded
@pytest.mark.parametrize("html", [
    (b"<b a=b>" + b"x" * 30) * 32_000,
    b"<p><b id=1>x</p><p>para</p>" * 20_000,
    b"<div class=x id=y style=z>Some text, with punctuation. " * 20_000,
    (b"<tr a=b>" + b"x" * 30) * 32_000,                       # ignored by the tree builder in body
])
def test_attribute_values_between_text_runs_cost_no_copies(html):
    """The quadratic corner of issue 15: lexbor grows a text node by exactly what it appends
    and copies it whenever anything was allocated after it in the text arena (here: the
    attribute values of the tags between the runs).  Values now live elsewhere: the copies
    stay within the guard's linear budget and all text is kept."""
    parser, st = _core.parse_guarded(html, stats="dict")
    assert st["attrs_moved"]
    assert st["copied"] <= 2 * len(html) + (1 << 20)
    doc = _core.build_doc(parser)
    assert doc.chars[0] >= html.count(b"x") + html.count(b"para") * 4


@guarded
def test_budgets_read_the_rest_as_text_with_all_of_it():
    html = b"<p>x" * 200_000
    parser, st = _core.parse_guarded(html, stats="dict")
    assert st["flat"] and st["stripped"] > len(html) // 2
    doc = _core.build_doc(parser)
    assert doc.chars[0] == 200_000 and doc.n < 200_000


@guarded
def test_stripping_keeps_raw_text_elements_and_text():
    # past the budget: tags go, text stays, a <script> stays a script (its code is not text)
    head = b"<p>x" * 80_000
    tail = (b"<i a='>'>after</i><!-- a > b --><script>var a = '<b>';</script>"
            b"<textarea><b>t</b></textarea> a < b &amp; c")
    parser, st = _core.parse_guarded(head + tail, stats="dict")
    assert st["flat"] and st["stripped"] > 0
    text = _core.build_doc(parser).subtree_text(0)
    assert " ".join(text.split()).endswith("xafter <b>t</b> a < b & c")
    assert "var a" not in text


# ---------------------------------------------------------------- 4. typed errors, UTF-8

def _deep_json(path, depth=5000):
    path.write_text("[" * depth + "]" * depth)
    return path


def test_deeply_nested_model_and_rules_raise_model_error(tmp_path):
    p = _deep_json(tmp_path / "deep.json")
    with pytest.raises(fastx.ModelError):
        SiteModel.load(p)
    with pytest.raises(fastx.ModelError):
        BayesModel.load(p)
    obj = tmp_path / "obj.json"
    obj.write_text('{"format": "' + "x" * 10 + '", "rules": ' + "[" * 5000 + "]" * 5000 + "}")
    with pytest.raises(fastx.ModelError):
        SiteModel.load(obj)


def test_cli_rules_nested_prints_one_line(tmp_path):
    p = _deep_json(tmp_path / "rules.json")
    page = tmp_path / "p.html"
    page.write_bytes(b"<html><body><p>x</p></body></html>")
    r = subprocess.run([sys.executable, "-m", "fastx", "extract", "--rules", str(p), str(page)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr and "ModelError" not in r.stdout


def test_to_dict_is_valid_utf8_with_a_surrogate_url():
    r = fastx.extract(b"<html><body><p>" + b"Some text here. " * 20 + b"</p></body></html>",
                      url="http://example.com/\udc80\ud800x", method="cetd")
    d = r.to_dict()
    json.dumps(d, ensure_ascii=False).encode("utf-8")        # raises if a lone surrogate is left
    assert d["url"] == "http://example.com/\ufffd\ufffdx"


def test_limit_memory_gives_a_typed_error_and_restores_the_limit():
    before = resource.getrlimit(resource.RLIMIT_AS)
    with pytest.raises(fastx.OutOfMemoryError):
        with fastx.limit_memory(64 << 20):
            np.ones(1 << 30, dtype=np.uint8)                   # 1 GiB: over the cap
    assert resource.getrlimit(resource.RLIMIT_AS) == before
    with fastx.limit_memory(1 << 30):                          # within the cap: a result
        assert fastx.extract(b"<p>" + b"word " * 100 + b"</p>", method="cetd").text
    with pytest.raises(fastx.InputError):
        fastx.limit_memory(0)
