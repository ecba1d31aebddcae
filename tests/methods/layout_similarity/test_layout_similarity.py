"""Layout similarity (seeds/002): preprocessing, subtree keys, identical-node deletion, link rules,
line blocks, URL similarity and the reference choice."""
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import fastx
from fastx import _core
from fastx.methods import layout as L

NAV = ('<div class="nav"><a href="/">Home</a> | <a href="/news">News</a> | <a href="/sport">Sport</a></div>'
       '<div id="foot"><p>Copyright 2013 Example Corporation, all rights reserved.</p></div>')


def page(title, body, extra=""):
    return (f"<html><head><title>{title}</title></head><body>{NAV}<div class='main'><h1>{title}</h1>"
            f"{body}</div>{extra}</body></html>")


A = page("Alpha story", "<p>Alpha is a long paragraph about the first thing, with many words in it.</p>"
         "<p>More alpha text follows here, and it goes on for a while.</p>")
B = page("Beta story", "<p>Beta is another paragraph on a second subject entirely.</p>")


def texts(doc, keep):
    return [doc.text(i) for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT and keep[i]]


# ---------------------------------------------------------------- step a) preprocessing
def test_preprocess_drops_interactive_elements_and_empty_nodes():
    doc = fastx.parse("<body><div><p>kept text</p><form><p>form text</p></form><label>lab</label>"
                      "<button>btn</button><fieldset><legend>leg</legend>x</fieldset><div></div>"
                      "<img src=a.png><span> </span><map><area></map></div></body>")
    alive = L.preprocess(doc)
    assert texts(doc, alive) == ["kept text"]
    names = {doc.tag_name(i) for i in range(doc.n) if alive[i]}
    assert names == {"html", "body", "div", "p", "#text"}
    # the only alive <div> is the one holding text; the empty one is gone
    assert sum(1 for i in range(doc.n) if alive[i] and doc.tag_name(i) == "div") == 1


# ---------------------------------------------------------------- subtree keys
def canonical(doc, alive, i):
    """Reference definition of 'fully identical' (recursive, for tests only)."""
    if doc.kind[i] == _core.KIND_TEXT:
        return ("#text", doc.text(i))
    kids = [j for j in range(i + 1, doc.end[i]) if doc.parent[j] == i and alive[j]]
    return (doc.tag_name(i), frozenset(doc.attributes(i).items()), tuple(canonical(doc, alive, j) for j in kids))


tag_st = st.sampled_from(["div", "p", "span", "b", "li"])
attr_st = st.sampled_from(["", ' class="a"', ' class="b"', ' id="x" class="a"', ' class="a" id="x"'])
text_st = st.sampled_from(["one", "two", "one two", ""])


@st.composite
def html_tree(draw, depth=0):
    n = draw(st.integers(0, 3 if depth < 3 else 0))
    parts = []
    for _ in range(n):
        if draw(st.booleans()):
            parts.append(draw(text_st))
        else:
            t = draw(tag_st)
            parts.append(f"<{t}{draw(attr_st)}>{draw(html_tree(depth + 1))}</{t}>")
    return "".join(parts)


@settings(max_examples=60, deadline=None)
@given(html_tree(), html_tree())
def test_full_keys_equal_exactly_for_fully_identical_subtrees(a, b):
    doc = fastx.parse(f"<body><div>{a}</div><div>{b}</div><div>{a}</div></body>")
    alive = L.preprocess(doc)
    full, quasi = _core.subtree_hashes(doc, alive)
    nodes = [i for i in range(doc.n) if alive[i] and doc.kind[i] == _core.KIND_ELEMENT]
    canon = {i: canonical(doc, alive, i) for i in nodes}
    for i in nodes:
        for j in nodes:
            assert (full[i] == full[j]) == (canon[i] == canon[j])
            same_quasi = canon[i][0] == canon[j][0] and canon[i][1] == canon[j][1]
            assert (quasi[i] == quasi[j]) == same_quasi


def test_attribute_order_does_not_matter_but_values_do():
    doc = fastx.parse('<body><p id="a" class="b">t</p><p class="b" id="a">t</p><p class="c" id="a">t</p></body>')
    full, _ = _core.subtree_hashes(doc, L.preprocess(doc))
    ps = [i for i in range(doc.n) if doc.tag_name(i) == "p"]
    assert full[ps[0]] == full[ps[1]] != full[ps[2]]


# ---------------------------------------------------------------- step b) deletion
def test_identical_template_nodes_are_deleted_content_kept():
    r = fastx.extract(A, method="layout", reference=B, link_rules=False)
    assert "Home" not in r.text and "Copyright" not in r.text
    assert "Alpha is a long paragraph" in r.text and "Alpha story" in r.text


def test_each_reference_node_matches_once():
    t = fastx.parse("<body><p>same words</p><p>same words</p><p>other</p></body>")
    ref = fastx.parse("<body><p>same words</p></body>")
    deleted = _core.delete_identical(t, L.hashes(t)[0], L.preprocess(t), ref, L.hashes(ref)[0], L.preprocess(ref))
    kept = texts(t, (1 - deleted) & L.preprocess(t))
    assert kept == ["same words", "other"]


def test_deleted_reference_subtree_cannot_match_again_inside():
    # the target's <div> matches the reference's whole <div>, so the later target <p>
    # (equal to the <p> inside that reference <div>) finds no partner left
    t = fastx.parse("<body><div><p>x y</p></div><p>x y</p></body>")
    ref = fastx.parse("<body><div><p>x y</p></div></body>")
    deleted = _core.delete_identical(t, L.hashes(t)[0], L.preprocess(t), ref, L.hashes(ref)[0], L.preprocess(ref))
    assert texts(t, (1 - deleted)) == ["x y"]
    assert deleted[[i for i in range(t.n) if t.tag_name(i) == "div"][0]] == 1


def test_reference_that_is_a_copy_falls_back_to_the_link_rules():
    alone = fastx.extract(A, method="layout")
    same = fastx.extract(A, method="layout", reference=A)
    assert same.text == alone.text and "Alpha is a long paragraph" in same.text


def test_no_reference_still_extracts_with_the_link_rules():
    r = fastx.extract(A, method="layout")
    assert "Alpha is a long paragraph" in r.text and "Home" not in r.text


# ---------------------------------------------------------------- step c) link rules
def test_rule1_link_text_ratio():
    html = ("<body><div><p>A plain paragraph with <a href=1>one link</a> in a long sentence of words.</p>"
            "<p>Mostly <a href=2>linked words are here in this one</a>.</p></div></body>")
    doc = fastx.parse(html)
    out = texts(doc, _core.link_rules(doc, L.preprocess(doc), 0.3, True, False))
    assert "A plain paragraph with" in out and "Mostly" not in out
    out_loose = texts(doc, _core.link_rules(doc, L.preprocess(doc), 0.95, True, False))
    assert "Mostly" in out_loose


def test_rule2_link_only_nodes():
    html = ("<body><div><p>Lead text of the article goes here.</p>"
            "<span><a href=1>One</a> | <a href=2>Two</a> - [<a href=3>Three</a>]</span>"
            "<span><a href=4>Four</a> and more words</span></div></body>")
    doc = fastx.parse(html)
    out = texts(doc, _core.link_rules(doc, L.preprocess(doc), 1.0, False, True))
    assert "One" not in out and "Three" not in out
    assert "Four" in out and "Lead text of the article goes here." in out


def test_body_is_never_deleted_by_the_link_rules():
    doc = fastx.parse("<body><a href=1>only a link</a> x</body>")
    keep = _core.link_rules(doc, L.preprocess(doc), 0.1)
    assert keep[doc.body] == 1


# ---------------------------------------------------------------- line blocks
def test_line_blocks_keep_the_dense_region_only():
    long = "word " * 30
    html = ("<body><p>short</p><p>x</p><p>y</p><p>z</p><p>w</p>"
            + "".join(f"<p>{long}{k}</p>" for k in range(4)) + "<p>v</p><p>u</p><p>t</p><p>s</p><p>tail</p></body>")
    doc = fastx.parse(html)
    alive = L.preprocess(doc)
    keep = alive.copy()
    for i in range(doc.n):   # blank out the isolated short lines around, as a deletion would
        if doc.kind[i] == _core.KIND_TEXT and doc.text(i) in ("x", "y", "z", "w", "v", "u", "t", "s"):
            keep[i] = 0
    out = texts(doc, _core.line_blocks(doc, alive, keep, 3, 86))
    assert "short" not in out and "tail" not in out
    assert sum(1 for t in out if t.startswith("word")) == 4


def test_refine_parameter_runs_the_line_block_step():
    r = fastx.extract(A, method="layout", reference=B, refine=True, line_threshold=20)
    assert "Alpha is a long paragraph" in r.text


# ---------------------------------------------------------------- step d) URL similarity
def test_url_similarity_is_common_levels_over_the_larger_count():
    assert L.url_similarity("http://a.com/news/2013/04/x", "http://a.com/news/2013/05/y") == pytest.approx(2 / 4)
    assert L.url_similarity("http://www.a.com/a/b", "http://a.com/a/b") == 1.0
    assert L.url_similarity("http://a.com/a/b", "http://b.com/a/b") == 0.0
    assert L.url_similarity("http://a.com/s?id=1&c=2", "http://a.com/s?id=3&c=2") == pytest.approx(2 / 3)
    assert L.url_similarity("http://a.com/x/y/z", "http://a.com/q") == 0.0


def test_choose_reference_prefers_similar_and_avoids_the_same_address():
    url = "http://a.com/news/2013/04/story"
    refs = [("http://a.com/sport/1", "S"), ("http://a.com/news/2013/04/story", "SELF"),
            ("http://a.com/news/2013/04/other", "N"), ("http://a.com/news/2012/01/old", "O")]
    assert L.choose_reference(url, refs)[1] == "N"
    assert L.choose_reference(url, refs[1:2])[1] == "SELF"
    with pytest.raises(fastx.InputError):
        L.choose_reference(url, ["not a pair"])


def test_references_choose_by_url():
    refs = [("http://x.com/other/9", "<body><p>unrelated page text</p></body>"), ("http://x.com/a/2", B)]
    r = fastx.extract(A, method="layout", url="http://x.com/a/1", references=refs)
    assert "Copyright" not in r.text and "Alpha is a long paragraph" in r.text


def test_parameter_errors_are_typed():
    with pytest.raises(fastx.InputError):
        fastx.extract(A, method="layout", reference=B, references=[])
    with pytest.raises(fastx.InputError):
        fastx.extract(A, method="layout", link_ratio=2)
    with pytest.raises(fastx.InputError):
        fastx.extract(A, method="layout", reference=123)
    assert "layout" in fastx.methods()


def test_deep_nesting_does_not_recurse():
    deep = "<div>" * 30000 + "deep text" + "</div>" * 30000      # lexbor parses deep nesting slowly
    r = fastx.extract(f"<body>{deep}</body>", method="layout", reference=f"<body>{deep}<p>x</p></body>")
    assert isinstance(r.text, str)


# ---------------------------------------------------------------- real site group
SHARED = Path(__file__).resolve().parents[3].parent / "shared"


@pytest.mark.needs_shared
def test_reference_raises_precision_on_a_cleanportaleval_site(compare):
    docs = [d for d in compare.CORPORA["cpe"]() if "/bbc.co.uk_news_0" in d[0]][:6]
    docs = [d for d in docs if not d[0].endswith(("_04", "_05"))]     # section index pages (hubs)
    with_ref, alone = [], []
    for k, (pid, html, meta) in enumerate(docs):
        ref = docs[k - 1 if k else 1][1]
        with_ref.append(compare.shingle_counts(meta["text"], fastx.extract(html, method="layout", reference=ref).text))
        alone.append(compare.shingle_counts(meta["text"], fastx.extract(html, method="layout").text))
    a, b = compare.summarize_text(with_ref), compare.summarize_text(alone)
    assert a["precision"] > b["precision"] + 0.05
    assert a["recall"] > 0.7


# ---------------------------------------------------------------- counters, several references, copies
def test_template_nodes_differing_by_digits_are_identical_unless_digits():
    a = page("Alpha story", "<p>Alpha is a long paragraph about the first thing, with many words.</p>",
             '<div class="meta" id="post-1917"><span>Comments (15)</span> <span>11:43 AM on 04/28/2013</span></div>')
    b = page("Beta story", "<p>Beta is another paragraph on a second subject entirely.</p>",
             '<div class="meta" id="post-2203"><span>Comments (3)</span> <span>9:05 AM on 05/02/2013</span></div>')
    r = fastx.extract(a, method="layout", reference=b, link_rules=False, refine=False)
    assert "Comments" not in r.text and "11:43" not in r.text and "Alpha is a long" in r.text
    r = fastx.extract(a, method="layout", reference=b, link_rules=False, digits=True, refine=False)
    assert "Comments (15)" in r.text
    # digit runs compare as one digit: "12" and "7" alike, "a1b" and "ab" not
    d1 = fastx.parse("<body><p>x 12 y</p></body>")
    d2 = fastx.parse("<body><p>x 7 y</p></body>")
    d3 = fastx.parse("<body><p>x  y</p></body>")
    k = [L.hashes(d)[0][[i for i in range(d.n) if d.tag_name(i) == "p"][0]] for d in (d1, d2, d3)]
    assert k[0] == k[1] != k[2]
    k = [L.hashes(d, True)[0][[i for i in range(d.n) if d.tag_name(i) == "p"][0]] for d in (d1, d2)]
    assert k[0] != k[1]


def test_several_references_delete_what_any_shares_and_copies_are_skipped():
    promo = '<div class="promo"><p>Subscribe to our newsletter for weekly stories and offers.</p></div>'
    target = page("Alpha story", "<p>Alpha is a long paragraph about the first thing, with many words.</p>", promo)
    near = page("Beta story", "<p>Beta is another paragraph on a second subject entirely.</p>")  # no promo
    far = page("Gamma story", "<p>Gamma holds a third subject, told at length.</p>", promo)
    refs = [("http://ex.com/news/2013/beta", near), ("http://ex.com/blog/gamma", far)]
    url = "http://ex.com/news/2013/alpha"
    one = fastx.extract(target, method="layout", url=url, references=refs, n_references=1, refine=False)
    assert "Subscribe" in one.text and "Home" not in one.text        # the paper: one reference, the nearest
    both = fastx.extract(target, method="layout", url=url, references=refs, refine=False)
    assert "Subscribe" not in both.text and "Alpha is a long paragraph" in both.text
    # the same page under another address deletes (nearly) all of the target's text: skipped
    copy = [("http://ex.com/news/2013/alpha-copy", target)] + refs
    r = fastx.extract(target, method="layout", url=url, references=copy, refine=False)
    assert r.text == both.text
    # the same address is never a reference while another candidate is left
    assert L.rank_references(url, [(url, target)] + refs) == refs
    with pytest.raises(fastx.InputError):
        fastx.extract(target, method="layout", url=url, references=refs, n_references=0)


# ---------------------------------------------------------------- step b') template record lists
ARTICLE = ("<p>The council met on Tuesday to discuss the new budget for the coming year in detail.</p>"
           "<p>Members argued about the schools, the roads and the parks for several long hours.</p>"
           "<p>A final vote is expected next month, after a round of public hearings in the town.</p>")


def comment(name, body, n):
    return (f'<li class="comment c-{n}"><div class="meta"><span class="author">{name}</span>'
            f'<span class="date">May {n}, 2013</span></div><div class="body"><p>{body}</p></div></li>')


def commented(title, article, comments):
    return page(title, article, '<div class="comments"><h3>Comments</h3><ul class="list">'
                + "".join(comment(a, b, k) for k, (a, b) in enumerate(comments)) + "</ul></div>")


TARGET = commented("Budget talks", ARTICLE, [("ann", "I think the roads matter most of all here."),
                                             ("bob", "The parks were ignored again, as always."),
                                             ("cy", "Schools first, then everything else.")])
REFERENCE = commented("Other story", "<p>Something else happened somewhere else entirely today.</p>",
                      [("dee", "Completely different words in this one."), ("eve", "And more of them here.")])


def test_record_keys_ignore_texts_values_and_repeated_children():
    a = fastx.parse('<body><div class="x"><p>one</p><a href="/1">l</a></div>'
                    '<div class="x"><p>two</p><p>three</p><a href="/2">m</a></div>'
                    '<div class="y"><p>four</p><a href="/3">n</a></div></body>')
    skel, nattr, shape = L.record_keys(a)
    divs = [i for i in range(a.n) if a.tag_name(i) == "div"]
    assert skel[divs[0]] == skel[divs[1]] != skel[divs[2]]       # a run of <p> counts once; class differs
    assert list(nattr[divs]) == [2, 2, 2]
    assert shape[divs[0]] == shape[divs[1]] != shape[divs[2]]


def test_template_record_list_after_the_article_is_deleted():
    r = fastx.extract(TARGET, method="layout", reference=REFERENCE)
    assert "council met on Tuesday" in r.text and "final vote" in r.text
    assert "roads matter" not in r.text and "parks were ignored" not in r.text and "ann" not in r.text
    kept = fastx.extract(TARGET, method="layout", reference=REFERENCE, records=False)
    assert "roads matter" in kept.text and "parks were ignored" in kept.text


def test_records_that_are_most_of_the_page_stay():
    # a forum thread: the posts are the content (more than RECORD_SHARE of the kept text)
    posts = [("ann", "A long first post that asks the question about the budget in detail, twice over."),
             ("bob", "A long answer that explains how the council votes on the budget every year."),
             ("cy", "Another long answer that says the same thing again with different words.")]
    t = commented("Thread", "<p>Short intro.</p>", posts)
    r = fastx.extract(t, method="layout", reference=REFERENCE)
    assert "asks the question" in r.text and "explains how the council" in r.text


def test_records_inside_or_before_the_main_text_stay():
    items = "".join(comment(a, b, k) for k, (a, b) in enumerate([("p1", "Spec one is fine."), ("p2", "Spec two too.")]))
    inside = page("Inside", ARTICLE + f'<ul class="list">{items}</ul>' + ARTICLE.replace("council", "board"))
    r = fastx.extract(inside, method="layout", reference=REFERENCE, refine=False)
    assert "Spec one is fine." in r.text and "Spec two too." in r.text
    before = (f"<html><body>{NAV}<div class='side'><ul class=\"list\">{items}</ul></div>"
              f"<div class='main'><h1>Before</h1>{ARTICLE}</div></body></html>")
    r = fastx.extract(before, method="layout", reference=REFERENCE, refine=False)
    assert "Spec one is fine." in r.text
    after = (f"<html><body>{NAV}<div class='main'><h1>After</h1>{ARTICLE}</div>"
             f"<div class='side'><ul class=\"list\">{items}</ul></div></body></html>")
    r = fastx.extract(after, method="layout", reference=REFERENCE, refine=False)
    assert "council met" in r.text and "Spec one is fine." not in r.text


def test_no_reference_no_template_records():
    r = fastx.extract(TARGET, method="layout")
    assert "roads matter" in r.text


def test_an_inline_link_of_running_text_is_not_template():
    # the reference links "Up with Chris" in its navigation; the target names the show in a sentence
    ref = ('<html><body><div class="nav"><a href="/up">Up with Chris</a></div>'
           '<p>Some other story with other words about a different topic.</p></body></html>')
    tgt = ('<html><body><p>On Sunday <a href="/up">Up with Chris</a> asked the mayor about the roads.</p>'
           '<div class="side"><a href="/up">Up with Chris</a></div></body></html>')
    t, r = fastx.parse(tgt), fastx.parse(ref)
    args = (t, L.hashes(t)[0], L.preprocess(t), r, L.hashes(r)[0], L.preprocess(r))
    running, side = [i for i in range(t.n) if t.tag_name(i) == "a"]
    deleted = _core.delete_identical(*args)
    assert not deleted[running] and deleted[side]       # the side link takes the reference's one
    literal = _core.delete_identical(*args, inline_text=False)
    assert literal[running] and not literal[side]       # the paper's literal reading: the first match
    out = fastx.extract(tgt, method="layout", reference=ref, link_rules=False, refine=False).text
    assert "On Sunday Up with Chris asked the mayor" in out.replace("\n", " ")


def test_a_list_repeated_in_the_page_only_is_a_template_list_too():
    # the reference has no comments at all; the target's three comments share one shape (RECORD_SELF)
    ref = page("Other story", "<p>Something else happened somewhere else entirely today, said many.</p>")
    r = fastx.extract(TARGET, method="layout", reference=ref)
    assert "council met on Tuesday" in r.text and "roads matter" not in r.text
    two = commented("Budget talks", ARTICLE, [("ann", "I think the roads matter most of all here."),
                                              ("bob", "The parks were ignored again, as always.")])
    assert "roads matter" in fastx.extract(two, method="layout", reference=ref).text


def test_the_line_block_refinement_is_on_by_default():
    # a short line far below the article survives the deletion and the link rules; the line blocks drop it
    lines = "".join(f"<p>Line {k} of the article says a good deal about the subject at hand.</p>" for k in range(8))
    pad = "".join(f"<div><span>{k}</span></div>" for k in range(12))
    tgt = page("Story", lines, f"<div class='x'><div class='y'>{pad}</div><p>Short tail note.</p></div>")
    ref = page("Beta story", "<p>Beta is another paragraph on a second subject entirely.</p>",
               f"<div class='y'>{pad}</div>")       # the padding is template: blank lines in the target
    default = fastx.extract(tgt, method="layout", reference=ref).text
    plain = fastx.extract(tgt, method="layout", reference=ref, refine=False).text
    assert "Line 7 of the article" in default and "Short tail note." in plain
    assert default == fastx.extract(tgt, method="layout", reference=ref, refine=True).text
    assert "Short tail note." not in default
