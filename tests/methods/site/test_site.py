"""Learned site rules (seeds/001): blocks, features, selector consolidation, rule matching,
learning on a synthetic site, persistence, the method and the CLI."""
import json
import random

import pytest

import fastx
from fastx import _core, cli
from fastx.site import SiteModel, Step, consolidate, selector, text_blocks

pytest.importorskip("sklearn")
pytest.importorskip("snowballstemmer")

TOPICS = [
    ("Volcano erupts near mountain village", "volcano eruption lava ash village evacuation scientists"),
    ("Central bank raises interest rates", "bank interest rates inflation economy lending markets"),
    ("Football club wins league title", "football club league title match goals season fans"),
    ("New vaccine protects against malaria", "vaccine malaria protection doses trial health study"),
    ("City opens new public library", "library books city readers building public reading"),
    ("Storm floods coastal towns", "storm flooding coast towns rain water damage residents"),
    ("Startup builds electric trucks", "electric trucks startup batteries factory vehicles investors"),
    ("Researchers map ancient shipwreck", "shipwreck ancient researchers divers sea cargo archaeology"),
]


def article(k, seed=0):
    title, words = TOPICS[k % len(TOPICS)]
    rnd = random.Random(k * 31 + seed)
    w = words.split()
    paras = "".join(
        f'<p class="para">{" ".join(rnd.choice(w) for _ in range(25))}. The {w[0]} story continues, '
        f'{" ".join(rnd.choice(w) for _ in range(10))}.</p>' for _ in range(4 + k % 3))
    related = "".join(f'<li class="rel"><a href="/r{j}">{TOPICS[(k + j) % len(TOPICS)][0]}</a></li>'
                      for j in range(1, 4))
    return (f'<html><head><title>{title} - Example News</title>'
            f'<meta name="description" content="{title}: {" ".join(w[:4])}."></head>'
            f'<body><div id="top" class="nav"><a href="/">Home</a> <a href="/world">World</a> '
            f'<a href="/business">Business</a> <a href="/sport">Sport</a></div>'
            f'<div id="post-{1000 + k}" class="article story"><h1 class="headline">{title}</h1>'
            f'<div class="byline">By Staff Reporter</div>{paras}</div>'
            f'<div class="sidebar"><h3>Most read</h3><ul>{related}</ul></div>'
            f'<div class="footer"><p>Copyright Example News. All rights reserved. Terms of use.</p></div>'
            f'</body></html>')


PAGES = [article(k) for k in range(6)]


@pytest.fixture(scope="module")
def model():
    return SiteModel.learn(PAGES)


def test_consolidation_follows_the_paper_example():
    a = (Step("body", None, ()), Step("div", "a-386", ("article",)), Step("div", None, ("p1",)),
         Step("p", None, ("p1", "paragraph")))
    b = (Step("body", None, ()), Step("div", "a-2383", ("article",)), Step("div", None, ("p9",)),
         Step("p", None, ("p9", "paragraph")))
    (merged,) = consolidate([a, b])
    assert selector(merged) == "body > div.article > div > p.paragraph"
    # different lengths or tags stay apart
    assert len(consolidate([a, a[:3], (Step("body", None, ()), Step("span", None, ()))])) == 3


def test_text_blocks_are_nearest_block_ancestors_with_features():
    doc = fastx.parse('<body><div class="x"><p style="color: Red">one <b>two</b> <a href=1>three</a></p>'
                      'loose</div></body>')
    blocks = {b.text: b for b in text_blocks(doc, styles={2: {"font-size": "20px"}})}
    assert set(blocks) == {"one two three", "loose"}
    p = blocks["one two three"]
    assert selector(p.path) == "html > body > div.x > p"
    assert p.features["tag=p"] == 1 and p.features["style:color=red"] == 1
    assert "up1=div.x" in p.features and "link=2" in p.features    # 5 of 11 chars linked
    assert blocks["loose"].features.get("css:font-size=20px") == 1   # node 2 is the div


def test_learned_rules_select_the_article_not_the_template(model):
    assert model.rules, model.stats
    new = article(7, seed=5)
    r = model.extract(new)
    assert "The shipwreck story continues" in r.text
    for noise in ("Home", "Most read", "Copyright", "Football club wins"):
        assert noise not in r.text, (noise, model.selectors)
    # ids that differ per page (post-1000, post-1001, ...) are consolidated away
    assert not any("post-" in s for s in model.selectors)


def test_site_match_agrees_with_selectolax_css(model):
    doc = fastx.parse(article(3, seed=9))
    keep = model.keep(doc)
    for sel in model.selectors:
        hits = {n.mem_id for n in doc.parser.css(sel)}
        ours = {int(doc.ptr[i]) for i in range(doc.n) if doc.kind[i] == _core.KIND_ELEMENT and keep[i]
                and int(doc.ptr[i]) in hits}
        assert ours == hits
    matched_ptrs = set().union(*({n.mem_id for n in doc.parser.css(s)} for s in model.selectors))
    blocks = _core.block_ancestors(doc)
    for i in range(doc.n):
        if doc.kind[i] == _core.KIND_TEXT:
            b = blocks[i]
            assert bool(keep[i]) == (b >= 0 and int(doc.ptr[b]) in matched_ptrs)


def test_many_rules_and_tokens_span_several_bit_words():
    rules = [(Step("html", None, ()), Step("body", None, ()), Step("div", None, (f"c{k}", "x")))
             for k in range(130)]
    m = SiteModel(rules)
    html = "<body>" + "".join(f'<div class="x c{k}">t{k}</div>' for k in range(0, 140, 7)) + "</body>"
    doc = fastx.parse(html)
    out = doc.render_text(m.keep(doc)).split("\n")
    assert out == [f"t{k}" for k in range(0, 130, 7)]


def test_save_load_roundtrip(model, tmp_path):
    path = tmp_path / "rules.json"
    model.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "fastx-site-rules" and data["rules"][0]["selector"]
    again = SiteModel.load(path)
    assert again.rules == model.rules
    page = article(7, seed=5)
    assert again.extract(page).text == model.extract(page).text


def test_bad_rule_files_raise_model_error(tmp_path):
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(fastx.ModelError):
        SiteModel.load(p)
    with pytest.raises(fastx.ModelError):
        SiteModel.from_dict({"format": "other"})
    with pytest.raises(fastx.ModelError):
        SiteModel.from_dict({"format": "fastx-site-rules", "version": 99, "rules": []})
    with pytest.raises(fastx.ModelError):
        SiteModel.load(tmp_path / "missing.json")


def test_learn_input_errors():
    with pytest.raises(fastx.InputError):
        SiteModel.learn([])
    with pytest.raises(fastx.InputError):
        SiteModel.learn(PAGES[:2], urls=["a"])
    with pytest.raises(fastx.ModelError):
        SiteModel.learn(["<html><body><div><a href=1>x</a></div></body></html>"] * 3)


def test_method_site_with_model_or_rules(model, tmp_path):
    page = article(7, seed=5)
    expected = model.extract(page).text
    assert fastx.extract(page, method="site", model=model).text == expected
    path = tmp_path / "r.json"
    model.save(path)
    assert fastx.extract(page, method="site", rules=str(path)).text == expected
    with pytest.raises(fastx.InputError):
        fastx.extract(page, method="site")
    with pytest.raises(fastx.InputError):
        fastx.extract(page, method="site", model="nope")


def test_terms_stem_drop_stop_words_and_use_bigrams_for_cjk():
    from fastx.site import _Terms
    t = _Terms()
    assert t("The vaccines were protecting") == ["vaccin", "protect"]
    assert t("中文新闻") == ["中文", "文新", "新闻"]


def test_cli_learn_site_and_extract_with_rules(tmp_path, capsys):
    d = tmp_path / "site"
    d.mkdir()
    for k, html in enumerate(PAGES):
        (d / f"p{k}.html").write_text(html)
    rules = tmp_path / "rules.json"
    assert cli.main(["learn-site", str(d), "-o", str(rules)]) == 0
    new = tmp_path / "new.html"
    new.write_text(article(7, seed=5))
    capsys.readouterr()
    assert cli.main(["extract", "--rules", str(rules), "--format", "json", str(new)]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["method"] == "site" and "shipwreck" in rec["text"] and "Copyright" not in rec["text"]


@pytest.mark.needs_shared
def test_rules_learned_on_a_cleanportaleval_site_generalize(compare):
    docs = [d for d in compare.CORPORA["cpe"]() if "/tv.msnbc.com_news_" in d[0]]
    m = SiteModel.learn([h for _, h, _ in docs[:10]])
    rows = [compare.shingle_counts(meta["text"], m.extract(h).text) for _, h, meta in docs[10:20]]
    assert compare.summarize_text(rows)["f1"] > 0.6


def test_consolidation_context_keeps_ids_and_classes_near_the_block_only():
    a = (Step("body", None, ("news",)), Step("div", None, ("business", "wrap")), Step("div", "main", ("story",)),
         Step("p", None, ("para",)))
    b = (Step("body", None, ("news",)), Step("div", None, ("business", "wrap")), Step("div", "main", ("story",)),
         Step("p", None, ("para",)))
    (full,) = consolidate([a, b])
    assert selector(full) == "body.news > div.business.wrap > div#main.story > p.para"
    (near,) = consolidate([a, b], context=2)
    assert selector(near) == "body > div > div#main.story > p.para"


def _section_page(k, section):
    """A page of a site whose section class sits on a far ancestor; a headline and
    subheads styled unlike the paragraphs sit inside the story container."""
    title, words = TOPICS[k % len(TOPICS)]
    rnd = random.Random(k)
    w = words.split()
    paras = "".join(f'<p class="para">{" ".join(rnd.choice(w) for _ in range(25))}, {w[k % 3]}.</p>'
                    f'<h3 class="crosshead">{w[(k + j) % len(w)]} {w[(k + j + 1) % len(w)]}</h3>'
                    for j in range(4))
    return (f'<html><head><title>{title}</title><meta name="description" content="{title}: {w[0]} {w[1]}.">'
            f'</head><body><div class="{section} outer"><div class="nav"><a href="/">Home</a> '
            f'<a href="/x">Other</a></div><div class="story"><div class="inner"><div class="body">'
            f'<h1 class="headline">{title}</h1>{paras}</div></div></div>'
            f'<div class="footer"><p>Copyright Example. All rights reserved.</p></div></div></body></html>')


def test_rules_generalize_past_section_classes_and_take_the_bounding_box():
    learn = [_section_page(k, "business") for k in range(5)]
    model = SiteModel.learn(learn)
    other = _section_page(6, "sport")
    text = model.extract(other).text
    assert TOPICS[6][0] in text                                  # the headline: inside the box
    assert text.count(",") >= 4                                  # every paragraph, in another section
    assert "Copyright" not in text and "Home" not in text
    # without the box, only the top clusters (the paragraphs)
    no_box = SiteModel.learn(learn, bounding_box=False)
    assert [selector(r).split(" > ")[-1] for r in no_box.rules] == ["p.para"]
    assert TOPICS[6][0] not in no_box.extract(other).text


def test_last_step_selects_descendants_inside_the_container():
    """A rule learned from the container's paragraphs also selects the paragraphs of a
    blockquote inside it (no learning page had one); the steps above stay child steps."""
    rule = (Step("html", None, ()), Step("body", None, ()), Step("div", None, ("entry",)), Step("p", None, ()))
    m = SiteModel([rule])
    assert m.selectors == ["html > body > div.entry p"]
    html = ('<body><div class="entry"><p>one</p><blockquote><p>quoted</p></blockquote>'
            '<div class="share"><span>Share this</span></div></div>'
            '<div class="side"><p>elsewhere</p></div><div><div class="entry"><p>too deep</p></div></div></body>')
    doc = fastx.parse(html)
    assert doc.render_text(m.keep(doc)).split("\n") == ["one", "quoted"]
    hits = {n.mem_id for n in doc.parser.css(m.selectors[0])}
    kept = {int(doc.ptr[i]) for i in range(doc.n) if doc.kind[i] == _core.KIND_ELEMENT and m.keep(doc)[i]}
    assert hits == kept
    # below an unnamed step the rule stays a child path (a descendant would reach the whole page)
    flat = SiteModel([(Step("html", None, ()), Step("body", None, ()), Step("p", None, ()))])
    assert flat.selectors == ["html > body > p"]
    doc = fastx.parse('<body><p>top</p><div class="footer"><p>Copyright</p></div></body>')
    assert doc.render_text(flat.keep(doc)) == "top"


def test_per_page_identifiers_leave_rules_learned_from_one_page():
    from fastx.site import page_identifiers, text_blocks as blocks_of
    pages = [f'<body><div class="post post-{k} x2"><p>text {k}</p>'
             + ('<ul><li>item</li></ul>' if k == 0 else '') + '</div></body>' for k in range(3)]
    blocks = [b for k, p in enumerate(pages) for b in blocks_of(fastx.parse(p), k)]
    own = page_identifiers(blocks)
    assert (".", "post-0") in own and (".", "post-1") in own
    assert (".", "x2") not in own and (".", "post") not in own     # recurs on every page / no digits
