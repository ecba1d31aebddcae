"""The page-type model, its page signals and the default method's repetition features."""
import math

import numpy as np
import pytest

import fastx
from fastx import _core
from fastx.methods import default as dm
from fastx.methods import page_type as ptm

COL = {name: j for j, name in enumerate(_core.FEATURE_NAMES)}
PCOL = {name: j for j, name in enumerate(ptm.FEATURE_NAMES)}

ARTICLE = (b"<html><head><title>A long story</title></head><body><article><h1>A long story</h1>"
           + b"<p>" + b"The council met on Tuesday and agreed on the budget, after a long debate. " * 20
           + b"</p></article></body></html>")
LISTING = (b"<html><body><ul class=results>"
           + b"".join(b'<li class="item"><a href="/p/%d">Result number %d, a listing entry</a></li>' % (i, i)
                      for i in range(30))
           + b"</ul></body></html>")


def test_every_page_gets_a_known_type_and_probabilities():
    for page in (ARTICLE, LISTING, b"", b"<p>x</p>"):
        r = fastx.extract(page)
        assert r.page_type in fastx.PAGE_TYPES
        p = r.page_type_probabilities
        assert set(p) == set(fastx.PAGE_TYPES) and math.isclose(sum(p.values()), 1.0, rel_tol=1e-5)
        assert r.page_type == max(p, key=p.get)
        assert r.to_dict()["page_type"] == r.page_type


def test_other_methods_report_the_same_page_type():
    assert fastx.extract(ARTICLE, method="cetd").page_type == fastx.extract(ARTICLE).page_type


def test_gbt_softmax_is_the_softmax_of_each_class_ensemble():
    model = ptm.shipped()
    doc = fastx.parse(LISTING, url="https://shop.example.com/category/shoes")
    row = ptm.page_row(doc, _core.default_features(doc)[3])
    z = np.array([_core.gbt_predict(t, row[None, :])[0] for t in model._trees])
    e = np.exp(z - z.max())
    assert np.allclose(_core.gbt_softmax(model._trees, row), e / e.sum(), atol=1e-6)
    assert np.allclose(model.probabilities(np.vstack([row, row])), e / e.sum(), atol=1e-6)
    # an odd number of trees per class (the single-row walk takes two trees at a time)
    odd = ptm.PageTypeModel(model.depth, model.feat[:, :5], model.thr[:, :5], model.leaf[:, :5])
    z = np.array([_core.gbt_predict(t, row[None, :])[0] for t in odd._trees])
    assert np.allclose(_core.gbt_softmax(odd._trees, row), np.exp(z - z.max()) / np.exp(z - z.max()).sum(), atol=1e-6)


def test_unit_rows_carry_the_page_type_probabilities():
    doc = fastx.parse(ARTICLE)
    _, _, X = dm.features(doc)
    probs = ptm.page_type_probabilities(doc)
    assert np.allclose(X[:, COL["pt_article"]:COL["pt_article"] + len(fastx.PAGE_TYPES)], probs)
    _, _, X0 = dm.features(fastx.parse(ARTICLE), page_types=False)
    assert not X0[:, COL["pt_article"]:].any()


def test_repetition_features_see_the_list_items():
    doc = fastx.parse(LISTING)
    unit_of, units, X, page = _core.default_features(doc)
    # every item is one of 30 siblings of one tag and class; the group holds the page's text
    items = [u for u in range(len(units)) if X[u, COL["rep_n"]] == 30]
    assert len(items) == 30
    assert all(X[u, COL["rep_share"]] > 0.9 for u in items)
    assert page[list(_core.PAGE_FEATURE_NAMES).index("rep_n")] == 30
    single = _core.default_features(fastx.parse(ARTICLE))[2]
    assert (single[:, COL["rep_n"]] == 0).all() and (single[:, COL["rep_level"]] == -1).all()


def test_shape_columns_tell_a_list_of_items_from_a_body_of_text():
    P = {name: j for j, name in enumerate(_core.PAGE_FEATURE_NAMES)}
    cards = (b"<html><body><h1>Shoes</h1><div class=grid>"
             + b"".join(b'<div class="card"><a href="/p/%d"><img src="/i/%d.jpg"></a>'
                        b'<h3><a href="/p/%d">A pair of light running shoes for long roads, model %d</a></h3><p>$%d.99</p></div>'
                        % (i, i, i, i, 20 + i) for i in range(12))
             + b"</div></body></html>")
    c = _core.default_features(fastx.parse(cards))[3]
    a = _core.default_features(fastx.parse(ARTICLE))[3]
    # twelve linked item headings and the h1; every image inside a link (the image links hold no
    # text: every link holding text is a headline); a price per card
    assert c[P["hd_n"]] == pytest.approx(math.log1p(13)) and c[P["hd_link_n"]] == pytest.approx(math.log1p(12))
    assert c[P["hd_link_share"]] == pytest.approx(12 / 13)
    assert c[P["img_link_share"]] == 1 and c[P["currency_n"]] == pytest.approx(math.log1p(12))
    assert c[P["a_long"]] == pytest.approx(math.log1p(12)) and c[P["a_long_share"]] == 1
    assert c[P["rep_most_n"]] == pytest.approx(math.log1p(12)) and c[P["p_long"]] == 0
    assert c[P["h1_chars"]] == pytest.approx(math.log1p(5)) and c[P["h1_pos"]] == 0
    # the article: one h1 over one long paragraph of prose, no list items, no repetition
    assert a[P["hd_n"]] == pytest.approx(math.log1p(1)) and a[P["hd_link_share"]] == 0
    assert a[P["p_long"]] == pytest.approx(math.log1p(1)) and a[P["p_long_share"]] > 0.9
    assert a[P["li_share"]] == 0 and a[P["rep_groups"]] == 0 and a[P["rep_most_n"]] == 0
    doc = fastx.parse(ARTICLE)
    assert a[P["h1_after"]] == pytest.approx(math.log1p(doc.chars[doc.body]))     # the h1 opens the body
    # no h1: position -1
    assert _core.default_features(fastx.parse(b"<p>x</p>"))[3][P["h1_pos"]] == -1


def test_title_shape_columns():
    doc = fastx.parse(b"<title>Running shoes | Shop \xe2\x80\x93 Example</title><p>x</p>")
    x = ptm.page_row(doc, _core.default_features(doc)[3])
    assert x[PCOL["title_tokens"]] == 4 and x[PCOL["title_seps"]] == 2


def test_page_signals_read_json_ld_og_type_and_words():
    page = (b'<html><head><meta property="og:type" content="Product">'
            b'<script type="application/ld+json">{"@graph": [{"@type": ["Product", "Thing"]},'
            b' {"@type" : "Offer"}]}</script></head>'
            b"<body><p>Add to cart: price, shipping and returns.</p></body></html>")
    types, og, counts, tokens = _core.page_signals(fastx.parse(page))
    assert types == [b"Product", b"Thing", b"Offer"] and og == b"product"
    groups = [g for g, _ in _core.PAGE_TYPE_WORDS]
    assert counts[groups.index("product")] == 4 and tokens == 7
    x = ptm.page_row(doc := fastx.parse(page), _core.default_features(doc)[3])
    assert x.dtype == np.float32 and len(x) == len(ptm.FEATURE_NAMES)
    assert x[PCOL["ld_product"]] == 2 and x[PCOL["ld_other"]] == 1
    assert x[PCOL["og_product"]] == 1 and x[PCOL["og_article"]] == 0
    assert x[PCOL["txt_product_n"]] == pytest.approx(math.log1p(4))
    assert x[PCOL["txt_product"]] == pytest.approx(4 * 1000 / 7)
    # a schema.org URL names its type by the part after the last "/"; at most 5 per group
    many = b'<script type="application/ld+json">' + b'{"@type": " http://schema.org/Product "}' * 7 + b"</script><p>x</p>"
    y = ptm.page_row(doc := fastx.parse(many), _core.default_features(doc)[3])
    assert y[PCOL["ld_product"]] == 5 and y[PCOL["ld_other"]] == 0


def url_row(url):
    doc = fastx.parse(b"<title>Shop the forum</title><p>x</p>", url=url)
    return ptm.page_row(doc, _core.default_features(doc)[3])


def test_url_and_title_columns():
    x = url_row("https://example.com/docs/api/2021/get-started?x=1")
    assert x[PCOL["url_depth"]] == 4 and x[PCOL["url_year"]] == 1
    assert x[PCOL["url_len"]] == len("/docs/api/2021/get-started")
    assert x[PCOL["url_digits"]] == pytest.approx(4 / len("/docs/api/2021/get-started"))
    assert x[PCOL["url_documentation"]] == 1 and x[PCOL["url_product"]] == 0
    assert x[PCOL["url_root"]] == 0 and url_row("https://example.com/")[PCOL["url_root"]] == 1
    assert url_row("https://example.com/?q=1")[PCOL["url_root"]] == 0
    # a year is a run of exactly four digits; the query's words count, the host's do not
    assert url_row("https://example.com/a/120219/b")[PCOL["url_year"]] == 0
    y = url_row("https://docs.example.com/x?view=category")
    assert y[PCOL["url_listing"]] == 1 and y[PCOL["url_documentation"]] == 0
    # the title's words: "shop" names product and collection pages, "forum" forums
    assert x[PCOL["title_product"]] == 1 and x[PCOL["title_collection"]] == 1 and x[PCOL["title_forum"]] == 1
    assert x[PCOL["title_service"]] == 0
    # no URL (or one that is not a URL): the URL columns stay zero or read as a root page
    z = url_row(None)
    assert not z[PCOL["url_depth"]:PCOL["url_service"] + 1].any()
    assert url_row("http://[bad")[PCOL["url_depth"]] == 0


def test_model_file_round_trip_and_checks(tmp_path):
    model = ptm.shipped()
    model.save(tmp_path / "pt.npz")
    again = ptm.PageTypeModel.load(tmp_path / "pt.npz")
    row = np.random.default_rng(1).random(len(ptm.FEATURE_NAMES)).astype(np.float32)
    assert np.array_equal(again.probabilities(row), model.probabilities(row))
    with pytest.raises(fastx.ModelError):
        ptm.PageTypeModel.load(tmp_path / "missing.npz")
    with pytest.raises(fastx.ModelError):
        ptm.PageTypeModel(model.depth, model.feat[:3], model.thr[:3], model.leaf[:3])


def test_noscript_only_page_is_read():
    post = b"<p>" + b"A forum post with real words in it, written by a member. " * 10 + b"</p>"
    page = b"<html><body><div id=app></div><noscript>" + post + b"</noscript></body></html>"
    assert "forum post" in fastx.extract(page, method="cetd").text
    # with text of its own outside, a page's noscript stays dropped
    page2 = b"<html><body>" + post.replace(b"forum", b"visible") + b"<noscript><p>Enable JavaScript</p></noscript></body></html>"
    assert "Enable JavaScript" not in fastx.extract(page2, method="cetd").text


def test_cetd_fallback_only_for_the_models_own_thresholds():
    # an explicit threshold that no unit reaches keeps nothing; the model's own never leaves a
    # page with content empty
    assert fastx.extract(ARTICLE, threshold=1.0).text == ""
    assert fastx.extract(ARTICLE).text.strip()


def _fnv_word(word: str, namespace: int) -> int:
    """A lower-case ASCII word's hash in a word-model namespace, as _core computes it: 32-bit
    FNV-1a of its bytes, then one FNV step of the namespace (1 title, 2 URL, 3 heading)."""
    h = 2166136261
    for c in word.encode() + bytes([namespace]):
        h = ((h ^ c) * 16777619) & 0xFFFFFFFF
    return h


WORDS_PAGE = (b"<html><head><title>Pricing plans</title></head><body><h1>Pricing <b>plans</b></h1>"
              b"<h2>Enterprise</h2><h3>Footnote</h3><p>Body words pricing only</p></body></html>")


def test_page_type_words_hash_the_title_url_and_headings_apart():
    doc = fastx.parse(WORDS_PAGE, url="https://example.com/pricing/teams?ref=nav#top")
    words = _core.page_type_words(doc)
    assert words.dtype == np.uint32 and len(set(words.tolist())) == len(words)     # distinct
    expected = {_fnv_word("pricing", 1), _fnv_word("plans", 1),                    # the title
                _fnv_word("pricing", 2), _fnv_word("teams", 2), _fnv_word("ref", 2), _fnv_word("nav", 2),
                _fnv_word("pricing", 3), _fnv_word("plans", 3), _fnv_word("enterprise", 3)}
    assert set(words.tolist()) == expected          # not the h3, the body, the host or the fragment
    assert len(_core.page_type_words(fastx.parse(b"<p>just text</p>"))) == 0


def test_word_model_columns_are_the_centred_naive_bayes_scores():
    doc = fastx.parse(WORDS_PAGE, url="https://example.com/pricing/teams")
    k = len(ptm.PAGE_TYPES)
    rng = np.random.default_rng(3)
    hashes = np.array([_fnv_word("pricing", 1), _fnv_word("enterprise", 3), _fnv_word("absent", 1)], np.uint32)
    logp = -rng.random((3, k)).astype(np.float32) * 5
    prior = np.log(np.full(k, 1 / k, np.float32))
    words = _core.PageTypeWords(hashes, logp, prior)
    z = prior + logp[0] + logp[1]                       # the page has the first two words
    assert np.allclose(words.scores(_core.page_type_words(doc)), z - z.mean(), atol=1e-5)
    row = _core.default_features(doc)[3]
    assert np.allclose(ptm.page_row(doc, row, words)[-k:], z - z.mean(), atol=1e-5)
    assert not ptm.page_row(doc, row)[-k:].any()        # no word model: zeros
    assert list(ptm.FEATURE_NAMES[-k:]) == [f"words_{t}" for t in ptm.PAGE_TYPES]
    with pytest.raises(ValueError):
        _core.PageTypeWords(hashes[[0, 0]], logp[:2], prior)        # a hash twice
    with pytest.raises(ValueError):
        _core.PageTypeWords(hashes, logp[:, :3], prior)


def test_page_type_model_uses_its_word_model_and_keeps_it_in_the_file(tmp_path):
    model = ptm.shipped()
    assert model.words is not None and model.compiled[1] is not None
    doc = fastx.parse(WORDS_PAGE, url="https://example.com/pricing/teams")
    row = _core.default_features(doc)[3]
    x = ptm.page_row(doc, row, model.compiled[1])
    assert np.allclose(x[-len(ptm.PAGE_TYPES):], model.word_columns(_core.page_type_words(doc)))
    assert np.allclose(model(doc, row), _core.gbt_softmax(model.class_ensembles, x), atol=1e-6)
    # default_keep computes the same probabilities from the compiled pair
    d2 = fastx.parse(WORDS_PAGE, url="https://example.com/pricing/teams")
    dm.default(d2)
    assert np.allclose(d2.cache["page_type"], model(doc, row), atol=1e-6)
    model.save(tmp_path / "pt.npz")
    again = ptm.PageTypeModel.load(tmp_path / "pt.npz")
    assert all(np.array_equal(a, b) for a, b in zip(again.words, model.words))
