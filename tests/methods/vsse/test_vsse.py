"""VSSE text content (seeds/000): Formula 1, Formula 2, the aggregation, SimHash, the methods."""
import functools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fastx
from fastx import _core
from fastx import characteristics as chars
from fastx.methods.vsse import seeds

ARTICLE = """<html><head><title>Volcano erupts near the island village</title>
<meta name="description" content="A volcano erupted on Sunday near the island village."></head>
<body>
<ul class="nav"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/x">Sports</a></li></ul>
<div class="story">
  <h1>Volcano erupts near the island village</h1>
  <p>The volcano erupted on Sunday morning, sending ash over the island village; residents fled.</p>
  <p>Officials said the eruption, the first in forty years, had been expected for weeks.</p>
  <p>Scientists watched the volcano closely, and warned that more eruptions may follow.</p>
  <p>Photo by Jane Archive</p>
  <p>Volcano village evacuation continues</p>
</div>
<div class="footer"><span>Copyright 2024 Example News</span> <a href="/about">About us</a></div>
</body></html>"""


def texts(doc, keep):
    return [doc.text(i) for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT and keep[i]]


def text_nodes(doc):
    return [i for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT]


# ---------------------------------------------------------------- Formula 1

def test_vvtc_is_formula_1():
    doc = fastx.parse(ARTICLE)
    v = _core.vvtc(doc)
    leaves = text_nodes(doc)
    n = len(leaves)
    for i in leaves:
        assert v[i] == pytest.approx(doc.chars[i] / n * doc.punct[i] / n)
    assert not v[doc.kind == _core.KIND_ELEMENT].any()


def test_vvtc_counts_cjk_punctuation():
    doc = fastx.parse("<html><body><p>今天天气很好，我们去公园散步。你好！</p><p>导航 首页 新闻</p></body></html>")
    leaves = text_nodes(doc)
    v = _core.vvtc(doc)
    assert doc.punct[leaves[0]] == 3 and v[leaves[0]] > 0
    assert v[leaves[1]] == 0


def test_seeds_keep_t1_share_of_max_vvtc():
    doc = fastx.parse(ARTICLE)
    v = _core.vvtc(doc)
    s = seeds(doc, 0.8)
    assert len(s) >= 1
    assert all(v[i] >= 0.8 * v.max() for i in s)
    assert list(v[s]) == sorted(v[s], reverse=True)
    others = [i for i in text_nodes(doc) if i not in set(s.tolist())]
    assert all(v[i] < 0.8 * v.max() for i in others)
    assert len(seeds(doc, 0.01)) > len(s)


def test_user_counter_takes_part_in_vvtc():
    doc = fastx.parse("<html><body><p>Price $5 $6 $7 $8</p><p>Hello, world.</p></body></html>")
    p1, p2 = text_nodes(doc)
    assert seeds(doc, 1.0).tolist() == [p2]
    chars.register_characteristic("dollar", lambda d, i: d.text(i).count("$"), kind="counter", wvc=False)
    try:
        counts = chars.vvtc_counts(doc)
        assert counts[p1] == 4 and counts[p2] == 2
        assert seeds(doc, 1.0).tolist() == [p1]
    finally:
        chars.unregister_characteristic("dollar")
    assert seeds(doc, 1.0).tolist() == [p2]


# ---------------------------------------------------------------- Formula 2

@functools.lru_cache(maxsize=None)
def pcs_recursive(x, i, y, j):
    """Formula 2 exactly as the paper writes it (recursion, for small inputs)."""
    if i == 0 or j == 0:
        return 0
    if x[i - 1] == y[j - 1]:
        return pcs_recursive(x, i - 1, y, j - 1) + 1
    return max(pcs_recursive(x, i, y, j - 1), pcs_recursive(x, i - 1, y, j))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=12), st.lists(st.integers(0, 5), max_size=12))
def test_pcs_equals_the_recursion_of_formula_2(x, y):
    assert _core.pcs(x, y) == pcs_recursive(tuple(x), len(x), tuple(y), len(y))


def test_pcs_examples_and_long_paths():
    assert _core.pcs([1, 2, 3, 4], [1, 3, 4, 5]) == 3
    assert _core.pcs([], [1, 2]) == 0
    rng = np.random.default_rng(7)
    a = rng.integers(0, 30, 6000).astype(np.int32)       # beyond the table: bit-parallel path
    b = rng.integers(0, 30, 6000).astype(np.int32)
    assert _core.pcs(a, b) == _core.lcs_length(a, b)


# ---------------------------------------------------------------- Sect. 4.3.1

def test_aggregation_covers_the_seeds_tag_path_class():
    doc = fastx.parse(ARTICLE)
    s = seeds(doc, 0.8)
    keep, prefix = _core.vsse_aggregate(doc, s)
    got = texts(doc, keep)
    assert "Photo by Jane Archive" in got                   # same tag path, no punctuation
    assert all("Home" not in t and "Copyright" not in t for t in got)
    names = [_core.TAG_NAMES_BY_ID[t] for t in prefix.tolist()]
    assert names == ["html", "body", "div", "p"]


def test_aggregation_shortens_the_path_by_pcs():
    html = ("<html><body><div><p>One, two, three, four.</p></div>"
            "<div><section><p>Five, six, seven, eight.</p></section></div></body></html>")
    doc = fastx.parse(html)
    a, b = text_nodes(doc)
    keep, prefix = _core.vsse_aggregate(doc, np.array([a, b], np.int32))
    names = [_core.TAG_NAMES_BY_ID[t] for t in prefix.tolist()]
    # pcs(html/body/div/p, html/body/div/section/p) = 4: the first 4 tags of the first path
    assert names == ["html", "body", "div", "p"]
    assert texts(doc, keep) == ["One, two, three, four."]
    keep, prefix = _core.vsse_aggregate(doc, np.array([b, a], np.int32))
    names = [_core.TAG_NAMES_BY_ID[t] for t in prefix.tolist()]
    assert names == ["html", "body", "div", "section"]     # the first 4 tags of the first path
    assert texts(doc, keep) == ["Five, six, seven, eight."]
    html = ("<html><body><div><p>One, two, three, four.</p></div><div><section><p>Five, six, seven, eight."
            "</p></section></div><article><p>Nine, ten, eleven.</p></article><b>x</b></body></html>")
    doc = fastx.parse(html)
    a, b, c = text_nodes(doc)[:3]
    keep, prefix = _core.vsse_aggregate(doc, np.array([b, c], np.int32))
    # pcs(html/body/div/section/p, html/body/article/p) = 3 (html, body, p): html/body/div
    assert [_core.TAG_NAMES_BY_ID[t] for t in prefix.tolist()] == ["html", "body", "div"]
    assert texts(doc, keep) == ["One, two, three, four.", "Five, six, seven, eight."]


def test_aggregation_rejects_bad_seeds():
    doc = fastx.parse(ARTICLE)
    with pytest.raises(ValueError):
        _core.vsse_aggregate(doc, np.array([doc.n + 5], np.int32))
    keep, prefix = _core.vsse_aggregate(doc, np.zeros(0, np.int32))
    assert not keep.any() and len(prefix) == 0


# ---------------------------------------------------------------- Sect. 4.4: SimHash

def test_simhash_near_duplicates_and_unrelated():
    a = fastx.simhash("The volcano erupted on Sunday morning, sending ash over the island village.")
    b = fastx.simhash("The volcano erupted on Sunday morning and sent ash over the island village!")
    c = fastx.simhash("Quarterly earnings of the software company beat analyst expectations again.")
    assert 0 <= a < 1 << 64
    assert fastx.hamming(a, b) < fastx.hamming(a, c)
    assert fastx.hamming(a, b) <= 12 and fastx.hamming(a, c) >= 16
    assert fastx.simhash("") == 0 and fastx.simhash("the of and, 12 34") == 0
    assert fastx.simhash("Volcano VOLCANO volcano") == fastx.simhash("volcano")


def test_simhash_chinese_without_segmenter():
    a = fastx.simhash("北京时间今天上午，国家统计局发布了最新的经济数据，显示经济稳定增长。")
    b = fastx.simhash("北京时间今天上午，国家统计局发布最新经济数据，显示经济稳定增长。")
    c = fastx.simhash("足球比赛昨晚结束，主队以三比一战胜了客队，球迷非常高兴。")
    assert a and c and fastx.hamming(a, b) < fastx.hamming(a, c)
    kw = _core.keyword_hashes("中文分词")
    assert len(kw) == 3                                     # bigrams 中文 文分 分词


def test_simhash_is_formula_4_signs():
    words = ["volcano", "volcano", "volcano", "village", "ash"]
    kw = _core.keyword_hashes(" ".join(words))
    h = {w: int(k) for w, k in zip(words, kw.tolist())}
    tf = {"volcano": 3, "village": 1, "ash": 1}
    expected = 0
    for bit in range(64):
        s = sum(tf[w] * (1 if h[w] >> bit & 1 else -1) for w in tf)
        expected |= (s > 0) << bit
    assert fastx.simhash(" ".join(words)) == expected


@pytest.mark.parametrize("a, b", [(-1, 0), (1 << 64, 0), ("x", 0), (1.5, 2), (True, 0)])
def test_hamming_rejects_non_fingerprints(a, b):
    with pytest.raises(fastx.InputError):
        fastx.hamming(a, b)


def test_simhash_rejects_non_text():
    with pytest.raises(fastx.InputError):
        fastx.simhash(b"bytes")
    with pytest.raises(fastx.InputError):
        fastx.simhash("text", L=0)


def test_refine_drops_unrelated_unpunctuated_paragraphs():
    doc = fastx.parse(ARTICLE)
    keep, _ = _core.vsse_aggregate(doc, seeds(doc, 0.8))
    ref = f"{doc.title} {doc.description}"
    out = _core.vsse_refine(doc, keep, ref, 3, 1.0, False)
    got = texts(doc, out)
    assert "Photo by Jane Archive" not in got                          # caption: no topic keyword
    assert any("eruption" in t for t in got)                          # punctuated: vouched for
    strict = texts(doc, _core.vsse_refine(doc, keep, ref, 3, 1.0, True))
    assert len(strict) < len(got)
    everything = texts(doc, _core.vsse_refine(doc, keep, ref, 64, 1.0, True))
    assert everything == texts(doc, keep)
    assert texts(doc, _core.vsse_refine(doc, keep, "the of and", 3, 1.0, True)) == texts(doc, keep)


# ---------------------------------------------------------------- the methods

def test_methods_are_registered():
    names = fastx.methods()
    for name in ("vsse", "vsse-vvtc", "vsse-agg", "vsse-strict"):
        assert name in names


def test_vsse_extracts_the_story():
    r = fastx.extract(ARTICLE, method="vsse")
    assert "sending ash over the island village" in r.text
    assert "expected for weeks" in r.text
    assert "Home" not in r.text and "Copyright" not in r.text
    only = fastx.extract(ARTICLE, method="vsse-vvtc").text
    agg = fastx.extract(ARTICLE, method="vsse-agg").text
    assert len(only) < len(agg) and "Photo by Jane Archive" in agg


def test_vsse_bad_parameters():
    for kw in ({"T1": 0}, {"T1": 1.5}, {"T2": -1}, {"T2": 65}, {"T2": 2.5}, {"L": 0}, {"refine": "some"}):
        with pytest.raises(fastx.InputError):
            fastx.extract(ARTICLE, method="vsse", **kw)


@pytest.mark.parametrize("html", ["", "<html></html>", "plain text, no tags.", "<p>", "\x00\xff<div>",
                                  "<html><body><div><div></div></div></body></html>"])
def test_vsse_degenerate_pages(html):
    for m in ("vsse", "vsse-vvtc", "vsse-agg", "vsse-strict"):
        r = fastx.extract(html, method=m)
        assert isinstance(r.text, str)


def test_vsse_on_a_very_deep_page():
    """Iterative kernels: a 20,000-level Doc (built without fastx.parse's depth guard), and a
    100,000-level page through fastx.parse."""
    from selectolax.lexbor import LexborHTMLParser
    depth = 20_000
    html = ("<html><head><title>Deep page</title></head><body>" + "<div>" * depth
            + "<p>Hello, deep world. Some text, here.</p><p>More text, yes.</p>" + "</div>" * depth
            + "</body></html>")
    doc = _core.build_doc(LexborHTMLParser(html))
    assert doc.depth.max() > depth
    for m in ("vsse", "vsse-vvtc", "vsse-agg"):
        assert "Hello, deep world" in fastx.extract(doc, method=m).text
    keep, prefix = _core.vsse_aggregate(doc, seeds(doc, 0.1))
    assert len(prefix) == depth + 3 and "More text, yes." in texts(doc, keep)
    big = html.replace("20_000", "").replace("<div>" * depth, "<div>" * 100_000).replace(
        "</div>" * depth, "</div>" * 100_000)
    for m in ("vsse", "vsse-vvtc", "vsse-agg", "vsse-strict"):
        assert isinstance(fastx.extract(big, method=m).text, str)


def test_vsse_on_chinese_news(compare):
    """zh-news-unlabeled: CJK punctuation drives the seeds; every page runs, most give Chinese text."""
    root = compare.unpack("zh-news-unlabeled")
    pages = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in (".html", ".htm"))
    assert pages
    with_cjk = 0
    for p in pages:
        text = fastx.extract(p.read_bytes(), method="vsse").text
        with_cjk += sum("\u4e00" <= ch <= "\u9fff" for ch in text) > 50
    assert with_cjk >= 0.8 * len(pages)


def test_vsse_stages_on_cleaneval(compare):
    """Regression guard on real pages (first 40 of CleanEval dev): each stage adds what it should."""
    docs = list(compare.CORPORA["cleaneval-dev"]())[:40]
    scores = {}
    for m in ("vsse-vvtc", "vsse-agg", "vsse"):
        rows = [compare.shingle_counts(meta["text"], fastx.extract(html, method=m).text)
                for _, html, meta in docs]
        scores[m] = compare.summarize_text(rows)
    assert scores["vsse-agg"]["recall"] > 3 * scores["vsse-vvtc"]["recall"]
    assert scores["vsse"]["f1"] >= 0.7
    assert scores["vsse"]["precision"] >= scores["vsse-agg"]["precision"] - 0.01


# ---------------------------------------------------------------- Sect. 4.3.1 as fastx reads it: areas

NOTICE = """<html><head><title>Harbour reopens after the storm</title></head><body>
<div class="page"><div class="main"><div class="story">
  <h2>Harbour reopens</h2>
  <p>The harbour reopened on Monday, three days after the storm, and the ferries sailed again.</p>
  <p>Fishermen said the damage, though heavy, was less than they had feared; repairs go on.</p>
  <p>The port authority thanked the crews, who worked through the night, for their effort.</p>
  <p>Shops on the quay, closed since Friday, opened their doors again; trade was brisk.</p>
  <p>The mayor said the town, which depends on the sea, would ask for help from the state.</p>
  <p>Forecasters expect calm weather, with light winds, for the rest of the week, they said.</p>
  <ul><li>Ferries: normal timetable</li></ul>
</div></div>
<div class="legal"><section><p><small>Notice: material from agencies (AFP, AP, DPA); all rights reserved. Reproduction,
in any form, is prohibited; see the terms.</small></p>
</section></div></div></body></html>"""


def test_areas_keep_the_area_of_most_vvtc_with_its_containers():
    doc = fastx.parse(NOTICE)
    v = _core.vvtc(doc)
    s = seeds(doc, 0.05)
    top = [i for i in text_nodes(doc) if v[i] == v.max()][0]
    assert doc.text(top).startswith("Notice")                  # the single best leaf is the notice
    keep, path = _core.vsse_areas(doc, s, v, 0.8, True)
    got = " ".join(texts(doc, keep))
    assert "harbour reopened" in got and "Harbour reopens" in got   # the heading beside the paragraphs
    assert "Ferries: normal timetable" in got                        # the list in the same container
    assert "Notice" not in got
    assert [_core.TAG_NAMES_BY_ID[t] for t in path.tolist()][-2:] == ["div", "p"]
    keep, _ = _core.vsse_areas(doc, s, v, 0.8, False)              # without containers: the p's only
    got = texts(doc, keep)
    assert "Harbour reopens" not in got and any("harbour reopened" in t for t in got)
    # the pcs reading lets the notice pull the path up: the notice comes first
    keep, prefix = _core.vsse_aggregate(doc, s)
    assert any("Notice" in t for t in texts(doc, keep))


def test_areas_join_by_common_prefix_share():
    html = ("<html><body><div><p>One, two, three, four.</p><p>Five, six, seven.</p></div>"
            "<div><section><p>Nine, ten.</p></section></div></body></html>")
    doc = fastx.parse(html)
    a, b, c = text_nodes(doc)
    v = _core.vvtc(doc)
    sd = np.array([a, b, c], np.int32)
    # html/body/div/p vs html/body/div/section/p: prefix 3 < 0.8 * 5 (the longer path), two areas;
    # the first has more vvtc
    keep, path = _core.vsse_areas(doc, sd, v, 0.8, False)
    assert [_core.TAG_NAMES_BY_ID[t] for t in path.tolist()] == ["html", "body", "div", "p"]
    assert texts(doc, keep) == ["One, two, three, four.", "Five, six, seven."]
    # join 0.6: 3 >= 0.6 * 5, one area on the prefix html/body/div, every div
    keep, path = _core.vsse_areas(doc, sd, v, 0.6, False)
    assert [_core.TAG_NAMES_BY_ID[t] for t in path.tolist()] == ["html", "body", "div"]
    assert len(texts(doc, keep)) == 3
    with pytest.raises(ValueError):
        _core.vsse_areas(doc, sd, v[:-1], 0.8, True)
    keep, path = _core.vsse_areas(doc, np.zeros(0, np.int32), v, 0.8, True)
    assert not keep.any() and len(path) == 0


def test_link_text_carries_no_punctuation_unless_asked():
    from fastx.methods.vsse import punc_counts
    html = ("<html><body><p>Read this: <a href='/x'>Related story, with commas, and more.</a></p>"
            "<p>Body text, here.</p></body></html>")
    doc = fastx.parse(html)
    link_leaf = [i for i in text_nodes(doc) if doc.text(i).startswith("Related")][0]
    assert doc.punct[link_leaf] >= 3
    assert punc_counts(doc)[link_leaf] == 0
    assert punc_counts(doc, links=True)[link_leaf] == doc.punct[link_leaf]
    assert [doc.text(i) for i in seeds(doc, 0.5)] == ["Body text, here."]
    assert "Related story, with commas, and more." in [doc.text(i) for i in seeds(doc, 0.5, links=True)]
    with pytest.raises(fastx.InputError):
        fastx.extract(html, method="vsse", aggregation="tree")
    with pytest.raises(fastx.InputError):
        fastx.extract(html, method="vsse", join=0)


def test_an_isolated_best_leaf_halves_t1_until_nodes_are_organized_together():
    only = fastx.extract(NOTICE, method="vsse", together=0, share=0, extend=0).text
    assert "Notice" in only and "harbour reopened" not in only       # T1 = 0.8: the notice alone
    text = fastx.extract(NOTICE, method="vsse", share=0, extend=0).text
    assert "harbour reopened" in text and "Forecasters expect" in text and "Notice" not in text
    # a floor above T1 / 2 stops the halving at once
    assert fastx.extract(NOTICE, method="vsse", floor=0.5, share=0, extend=0).text == only
    # extend: without the halving, the seeds down to 0.2 of the best still found areas, and the
    # story's area, carrying the most vvtc, is chosen; joining only (found=False) they cannot
    # reach the notice's area, which stays alone; at 0.4 the story's leaves are below the line
    ext = fastx.extract(NOTICE, method="vsse", together=0, share=0, extend=0.2).text
    assert "harbour reopened" in ext and "Notice" not in ext
    assert fastx.extract(NOTICE, method="vsse", together=0, share=0, extend=0.2, found=False).text == only
    assert fastx.extract(NOTICE, method="vsse", together=0, share=0, extend=0.4).text == only
    # share: the notice's area carries between 0.7 and 0.8 of the story's vvtc (one long
    # leaf: vvtc grows with the square of the length), so at 0.3 it is content too, at 0.8 not
    assert "harbour reopened" in fastx.extract(NOTICE, method="vsse").text
    assert "Notice" in fastx.extract(NOTICE, method="vsse").text
    assert "Notice" in fastx.extract(NOTICE, method="vsse", share=0.7).text
    assert "Notice" not in fastx.extract(NOTICE, method="vsse", share=0.8).text
    with pytest.raises(fastx.InputError):
        fastx.extract(NOTICE, method="vsse", share=1.5)


SECTIONS = """<html><head><title>Cover for your family</title></head><body><main>
<section class="intro"><div class="wrap"><div class="body">
  <p>Choosing cover is an important decision, and we make it simple, clear and fair for you.</p>
  <p>Our plans, built over ninety years, protect families, workers and retirees alike.</p>
</div></div></section>
<div class="cards"><div class="card"><article><div class="copy">
  <h2><a href="/discounts">Member discounts</a></h2>
  <p>Gym optician and hearing partners</p>
  <p><a href="/offers">Partner offers this month</a></p>
  <p>Members save on fitness, vision and hearing care; the discounts apply at once, nationwide.</p>
  <p>Travelling abroad? Global cover, with care in many countries, keeps you safe on the road.</p>
</div></article></div></div>
<footer><a href="/a">About</a> <a href="/b">Careers</a></footer>
</main></body></html>"""


def test_share_keeps_every_area_of_comparable_weight():
    # two sections whose paths part above 0.8 of their length: two areas
    alone = fastx.extract(SECTIONS, method="vsse", share=0).text
    both = fastx.extract(SECTIONS, method="vsse").text
    assert ("Choosing cover" in alone) != ("Members save" in alone)
    assert "Choosing cover" in both and "Members save" in both and "Travelling abroad" in both
    assert "Careers" not in both
    # the SimHash test (Sect. 4.4) judges the unpunctuated paragraphs; by default only their
    # link text can go: the plain line stays, the link paragraph does not
    assert "Gym optician" in both and "Partner offers" not in both
    strict = fastx.extract(SECTIONS, method="vsse", refine="unpunctuated").text
    assert "Gym optician" not in strict and "Partner offers" not in strict
    assert "Gym optician" in fastx.extract(SECTIONS, method="vsse", refine="none").text
    # the heading stays although the SimHash test would judge it (a link, no punctuation)
    assert "Member discounts" in both
    assert "Member discounts" not in fastx.extract(SECTIONS, method="vsse", headings=False).text


def test_form_controls_are_pruned():
    html = ("<html><body><div><p>First paragraph, with words, and more words here.</p>"
            "<p>Second paragraph, with words, and more words too.</p>"
            "<fieldset><label>Your name, please: (required), (optional), (anything), (else).</label>"
            "</fieldset></div></body></html>")
    doc = fastx.parse(html)
    from fastx.methods.vsse import punc_counts
    label = [i for i in text_nodes(doc) if doc.text(i).startswith("Your name")][0]
    assert doc.punct[label] > 0 and punc_counts(doc)[label] == 0
    text = fastx.extract(html, method="vsse").text
    assert "First paragraph" in text and "Your name" not in text


def test_areas_are_capped_on_pages_of_many_scattered_leaves():
    """Every punctuated leaf in a branch of its own: at most 64 areas are founded, the
    best ones; the result is one of them, computed in bounded memory."""
    parts = []
    for k in range(300):
        tags = ["div", "section", "article", "aside", "main", "header", "footer", "nav"]
        wrap = [tags[(k >> b) & 7] for b in (0, 3, 6)]
        parts.append("".join(f"<{t}>" for t in wrap) + f"<p>Item {k}, one, two{', x' * (k % 5)}.</p>"
                     + "".join(f"</{t}>" for t in reversed(wrap)))
    doc = fastx.parse("<html><body>" + "".join(parts) + "</body></html>")
    v = _core.vvtc(doc)
    pos = np.flatnonzero(v > 0)
    order = pos[np.argsort(-v[pos], kind="stable")].astype(np.int32)
    keep, path = _core.vsse_areas(doc, order, v, 1.0, False)
    assert keep.any() and len(path) > 0
    kept = [i for i in text_nodes(doc) if keep[i]]
    rank = {int(x): r for r, x in enumerate(order)}
    assert min(rank[i] for i in kept) < 64                  # founded by one of the 64 best seeds


def test_block_paths_cover_the_headings_and_lists_beside_inline_wrapped_paragraphs():
    # every paragraph's text sits in a <span>: the leaf's element is p/span, its paragraph the p
    html = ("<html><body><div class='nav'><p>Menu, shop, contact.</p></div><article>"
            "<h2>Harbour reopens</h2>"
            "<p><span>The harbour reopened on Monday, after the storm, and boats left at dawn.</span></p>"
            "<p><span>Fishermen said the damage, though visible, was less than feared.</span></p>"
            "<ul><li>Ferries resume</li><li>Market opens</li></ul>"
            "<p><span>Repairs, the port said, will take a month.</span></p></article></body></html>")
    doc = fastx.parse(html)
    v = _core.vvtc(doc)
    order = np.argsort(-v, kind="stable")
    sd = order[v[order] > 0].astype(np.int32)
    keep, path = _core.vsse_areas(doc, sd, v, 0.8, True, blocks=True)
    got = texts(doc, keep)
    assert [_core.TAG_NAMES_BY_ID[t] for t in path.tolist()][-2:] == ["article", "p"]
    assert "Harbour reopens" in got and "Ferries resume" in got       # the container is the article
    assert "Menu, shop, contact." not in got
    keep, path = _core.vsse_areas(doc, sd, v, 0.8, True, blocks=False)
    got = texts(doc, keep)                                            # the container of a span: its p
    assert [_core.TAG_NAMES_BY_ID[t] for t in path.tolist()][-2:] == ["p", "span"]
    assert "Harbour reopens" not in got and "Ferries resume" not in got
    text = fastx.extract(html, method="vsse").text
    assert "Harbour reopens" in text and "Market opens" in text and "Menu" not in text


def test_marks_that_outnumber_the_words_are_not_prose():
    from fastx.methods.vsse import punc_counts
    html = ("<html><body><div class='cfg'>{\"a\":1,\"b\":\"x\",\"c\":[1,2],\"d\":{\"e\":\"f\"}}</div>"
            "<div><p>The council met on Monday, and voted to fund the library.</p>"
            "<p>Readers, it said, will get longer hours.</p></div></body></html>")
    doc = fastx.parse(html)
    cfg = [i for i in text_nodes(doc) if doc.text(i).startswith("{")][0]
    assert doc.punct[cfg] > doc.words[cfg]
    assert punc_counts(doc)[cfg] == 0 and punc_counts(doc, prose=False)[cfg] == doc.punct[cfg]
    prose = [i for i in text_nodes(doc) if doc.text(i).startswith("The council")][0]
    assert punc_counts(doc)[prose] == doc.punct[prose] > 0
    text = fastx.extract(html, method="vsse").text
    assert "council met" in text and "{" not in text
    assert "{" in fastx.extract(html, method="vsse", prose=False, together=0, share=0, extend=0).text


def test_the_heading_that_repeats_the_title_joins_the_content():
    html = ("<html><head><title>Harbour reopens after the storm | Coast News</title></head><body>"
            "<header><h1>Coast News</h1><h2><a href='/weather'>Storm</a></h2></header><article>"
            "<header><h1><a href='/harbour'>Harbour reopens after the storm</a></h1></header>"
            "<div class='body'><p>The harbour reopened on Monday, after the storm, and boats left at dawn.</p>"
            "<p>Fishermen said the damage, though visible, was less than feared.</p></div></article>"
            "<aside><h3>Harbour reopens after the storm</h3><p>Related: more, here.</p></aside></body></html>")
    doc = fastx.parse(html)
    without = fastx.extract(html, method="vsse", headline=False).text
    assert "Harbour reopens" not in without and "harbour reopened" in without
    text = fastx.extract(html, method="vsse").text
    assert text.startswith("Harbour reopens after the storm")      # the nearest candidate, once
    assert text.count("Harbour reopens") == 1 and "Coast News" not in text and "Storm" not in text
    from fastx.methods.vsse import _headings_table
    keep = np.zeros(doc.n, np.uint8)
    assert not _core.vsse_headline(doc, keep, doc.title, _headings_table()).any()   # nothing kept: nothing
    with pytest.raises(ValueError):
        _core.vsse_headline(doc, keep[:-1], doc.title, _headings_table())


def test_footer_and_nav_carry_no_characteristic():
    from fastx.methods.vsse import punc_counts
    legal = " ".join(["This site, its content and its marks (all of them) are the property of Example Inc.;"
                      " reproduction, in whole or in part, is prohibited."] * 3)
    html = ("<html><body><nav><p>Home, news, sport, weather.</p></nav><main>"
            "<p>The council met on Monday, and voted to fund the library.</p>"
            "<p>Readers, it said, will get longer hours.</p></main>"
            f"<footer><div><p>{legal}</p></div></footer></body></html>")
    doc = fastx.parse(html)
    foot = [i for i in text_nodes(doc) if doc.text(i).startswith("This site")][0]
    nav = [i for i in text_nodes(doc) if doc.text(i).startswith("Home")][0]
    body = [i for i in text_nodes(doc) if doc.text(i).startswith("The council")][0]
    counts = punc_counts(doc)
    assert counts[foot] == 0 and counts[nav] == 0 and counts[body] == doc.punct[body] > 0
    assert punc_counts(doc, mute=False)[foot] == doc.punct[foot]
    text = fastx.extract(html, method="vsse").text
    assert "council met" in text and "longer hours" in text and "This site" not in text
    assert "This site" in fastx.extract(html, method="vsse", mute=False).text    # the notice wins MaxVVTC


GRID = """<html><head><title>Trail boots</title></head><body>
<nav><a href="/">Home</a> <a href="/boots">Boots</a></nav>
<ul class="grid">""" + "".join(
    f"""<li><span class="name">Boot model {k}</span><div class="card"><p>Rated {k}.5 of 5 by {k}20 walkers;
waterproof, light, and warm (size {k}).</p></div></li>""" for k in range(1, 6)) + """</ul>
<div class="side"><span>Sign in</span></div></body></html>"""


def test_lca_covers_the_grid_whose_items_hold_the_seeds():
    # the seeds (one punctuated p per item) share one tag path; their containers are the items'
    # cards, and the names beside the cards are covered only by the seeds' common ancestor, the list
    text = fastx.extract(GRID, method="vsse").text
    assert all(f"Boot model {k}" in text for k in range(1, 6))
    assert "Sign in" not in text and "Home" not in text
    narrow = fastx.extract(GRID, method="vsse", lca=False).text
    assert "Rated 1.5 of 5" in narrow and "Boot model 1" not in narrow


NESTED = """<html><head><title>The tower</title></head><body><header><span>Menu</span></header>
<article>
<section class="a"><div class="x">
<p>The tower, built for the fair of 1889, was meant to stand for twenty years; it still stands.</p>
<p>Its iron lattice, light for its height, was criticized by artists, who called it useless.</p>
</div></section>
<ul class="facts"><li>Height 330 metres</li><li>Opened 31 March 1889</li></ul>
<section class="b"><div class="y"><div class="z">
<p>Today the tower, lit every night, draws millions of visitors; the queues are long in summer.</p>
<p>Its three levels, reached by lifts or stairs, hold restaurants, shops and a small museum.</p>
</div></div></section>
</article><div class="side"><span>Sign in</span></div></body></html>"""


def test_reach_merges_content_areas_nested_at_several_depths():
    # the two sections' paths part three tags above the longer one's end (below join = 0.8): two
    # content areas; within reach they are one, their common ancestor's subtree with the facts list
    text = fastx.extract(NESTED, method="vsse").text
    assert "it still stands" in text and "small museum" in text and "Height 330 metres" in text
    assert "Sign in" not in text and "Menu" not in text
    apart = fastx.extract(NESTED, method="vsse", reach=0).text
    assert "it still stands" in apart and "small museum" in apart and "Height 330 metres" not in apart
    with pytest.raises(fastx.InputError):
        fastx.extract(NESTED, method="vsse", reach=-1)

