"""Gold text -> node labels (fastx._labels), shared by the bayes and default trainers."""
import numpy as np
import pytest

import fastx
from fastx._labels import COMMENTS_MARK, group_labels, main_text, text_node_labels

PAGE = ("<html><body><div id=nav><a href=/>Home</a> <a href=/news>News</a></div>"
        "<h1>Rain falls on the city again</h1>"
        "<p>The rain fell all day, and <a href=/x>the river</a> rose over the old stone bridge.</p>"
        "<p>Officials said the roads would open again on Monday morning.</p>"
        "<div class=footer>Copyright the city news company</div></body></html>")
GOLD = ("Rain falls on the city again\n"
        "The rain fell all day, and the river rose over the old stone bridge.\n"
        "Officials said the roads would open again on Monday morning.")


def texts(doc):
    return {doc.text(i): i for i in range(doc.n) if doc.kind[i] == fastx._core.KIND_TEXT}


def test_content_nodes_covered_boilerplate_not():
    doc = fastx.parse(PAGE)
    label, ntok = text_node_labels(doc, GOLD)
    t = texts(doc)
    assert label[t["Rain falls on the city again"]] == 1.0
    assert label[t["Officials said the roads would open again on Monday morning."]] == 1.0
    # a link inside a paragraph is covered through the windows spanning its neighbours
    assert label[t["the river"]] == 1.0
    assert label[t["Home"]] == 0.0 and label[t["News"]] == 0.0
    # "the city" is a gold bigram, but no 4-token window of the footer is in the gold
    assert label[t["Copyright the city news company"]] == 0.0
    assert ntok[t["the river"]] == 2 and ntok[t["Home"]] == 1
    elements = np.asarray(doc.kind) == fastx._core.KIND_ELEMENT
    assert not label[elements].any() and not ntok[elements].any()


def test_partial_coverage_is_a_share():
    doc = fastx.parse("<p>alpha beta gamma delta epsilon zeta eta theta</p>")
    label, ntok = text_node_labels(doc, "alpha beta gamma delta and more")
    i = next(i for i in range(doc.n) if doc.kind[i] == fastx._core.KIND_TEXT)
    assert ntok[i] == 8
    assert label[i] == pytest.approx(4 / 8)


def test_short_gold_uses_shorter_windows():
    doc = fastx.parse("<p>Hello world</p><p>Goodbye world</p>")
    label, _ = text_node_labels(doc, "Hello world")
    t = texts(doc)
    assert label[t["Hello world"]] == 1.0 and label[t["Goodbye world"]] == 0.0


def test_empty_gold_or_page():
    doc = fastx.parse("<p>some text here</p>")
    label, ntok = text_node_labels(doc, "")
    assert not label.any() and ntok.sum() == 3
    label, ntok = text_node_labels(fastx.parse(""), "gold text")
    assert not label.any()


def test_case_and_cjk_tokens_follow_the_metric():
    doc = fastx.parse("<p>\u4eca\u5929\u5929\u6c14\u5f88\u597d</p><p>THE END OF IT ALL</p>")
    label, ntok = text_node_labels(doc, "\u4eca\u5929\u5929\u6c14\u5f88\u597d the end of it all")
    t = texts(doc)
    assert ntok[t["\u4eca\u5929\u5929\u6c14\u5f88\u597d"]] == 6 and label[t["\u4eca\u5929\u5929\u6c14\u5f88\u597d"]] == 1.0
    assert label[t["THE END OF IT ALL"]] == 0.0     # shingles are case-sensitive, as compare.py's


def test_group_labels_token_weighted():
    group_of = np.array([-1, 0, 0, 1, -1])
    label = np.array([0, 1.0, 0.0, 0.5, 1.0], dtype=np.float32)
    ntok = np.array([0, 3, 1, 4, 2], dtype=np.int32)
    lab, tok = group_labels(group_of, 3, label, ntok)
    assert lab.tolist() == [pytest.approx(0.75), pytest.approx(0.5), 0.0]
    assert tok.tolist() == [4, 4, 0]


def test_comments_are_not_main_content():
    gold = "The article text is here today.\n" + COMMENTS_MARK + "\nI disagree with this article text."
    assert main_text(gold) == "The article text is here today.\n"
    assert main_text("no marker") == "no marker"
    doc = fastx.parse("<p>The article text is here today.</p><div class=c><p>I disagree with this article text.</p></div>")
    label, _ = text_node_labels(doc, gold)
    t = texts(doc)
    assert label[t["The article text is here today."]] == 1.0
    assert label[t["I disagree with this article text."]] == 0.0
