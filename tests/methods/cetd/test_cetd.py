"""CETD (seeds/004): the paper's worked example, the formulas, and extraction."""
import math

import numpy as np
import pytest

import fastx
from fastx import _core

# Example 3.1 of the paper (a segment of the FT page)
EXAMPLE_3_1 = """<html><body><div class="main">
  <div class="article">
    <div class="story-header">
      Lunch with the FT: Biz Stone</div>
    <div class="story-body">
      Though the value of the company was
      <a>recently estimated at $3.7bn</a>
    </div></div></div></body></html>"""


def by_class(doc):
    out = {}
    for i in range(doc.n):
        if doc.kind[i] == _core.KIND_ELEMENT:
            out[doc.attr(i, "class") or doc.tag_name(i)] = i
    return out


def test_example_3_2_text_density_exactly():
    """Example 3.2: Chars/Tags/Density of the five tags of Example 3.1."""
    doc = fastx.parse(EXAMPLE_3_1)
    td = _core.text_density(doc)
    idx = by_class(doc)
    expected = {"main": (91, 4, 22.75), "article": (91, 3, 91 / 3), "story-header": (28, 0, 28.0),
                "story-body": (63, 1, 63.0), "a": (28, 0, 28.0)}
    for name, (chars, tags, density) in expected.items():
        i = idx[name]
        assert doc.chars[i] == chars, name
        assert doc.tags[i] == tags, name
        assert td[i] == pytest.approx(density), name


def reference_ctd(C, T, LC, LT, LCb, Cb):
    """Eq. 2 written out directly from the paper, zero denominators -> 1."""
    if C == 0:
        return 0.0
    nLC = C - LC
    T = T or 1
    base = math.log(C / (nLC or 1) * LC + LCb / (Cb or 1) * C + math.e)
    if base <= 1:
        return math.inf
    return C / T * math.log(C / (LC or 1) * T / (LT or 1)) / math.log(base)


def test_composite_text_density_matches_equation_2():
    html = ("<body><div><p>Some long paragraph text, with words. <a href=1>a link</a></p>"
            "<ul><li><a href=2>nav one</a></li><li><a href=3>nav two</a></li></ul></div>"
            "<div>Plain text without links at all here.</div></body>")
    doc = fastx.parse(html)
    ctd = _core.composite_text_density(doc)
    b = doc.body
    for i in range(doc.n):
        want = reference_ctd(int(doc.chars[i]), int(doc.tags[i]), int(doc.link_chars[i]),
                             int(doc.link_tags[i]), int(doc.link_chars[b]), int(doc.chars[b]))
        assert ctd[i] == pytest.approx(want), doc.tag_name(i)
    # a node made only of hyperlinks has density 0 (Sect. 3.3)
    li = next(i for i in range(doc.n) if doc.tag_name(i) == "li")
    assert ctd[li] == 0.0


def test_no_links_anywhere_gives_infinite_density():
    doc = fastx.parse("<body><p>only text here</p></body>")
    assert math.isinf(_core.composite_text_density(doc)[doc.body])


def test_density_sum_is_sum_of_children():
    doc = fastx.parse(EXAMPLE_3_1)
    td = _core.text_density(doc)
    ds = _core.density_sum(doc, td)
    for i in range(doc.n):
        kids = [j for j in range(i + 1, doc.end[i]) if doc.parent[j] == i]
        assert ds[i] == pytest.approx(sum(td[j] for j in kids))


def test_threshold_is_min_density_on_path_to_body():
    doc = fastx.parse(EXAMPLE_3_1)
    td = _core.text_density(doc)
    ds = _core.density_sum(doc, td)
    g, thr = _core.densitysum_threshold(doc, td, ds)
    assert g == int(np.argmax(np.where(np.arange(doc.n) >= doc.body, ds, -1)))
    path, i = [], g
    while i != doc.body:
        path.append(td[i])
        i = doc.parent[i]
    path.append(td[doc.body])
    assert thr == pytest.approx(min(path))


def article_page(noise_links=30):
    paras = "".join(f"<p>This is sentence number {k} of the article, and it carries real content. "
                    f"It goes on for a while, as articles do.</p>" for k in range(8))
    nav = "".join(f"<li><a href='/s{k}'>Section {k}</a></li>" for k in range(noise_links))
    return (f"<html><head><title>Story</title></head><body><ul class=nav>{nav}</ul>"
            f"<div class=article><h1>Story</h1>{paras}</div>"
            f"<div class=footer><a href=/about>About</a> | <a href=/c>Contact</a> Copyright</div></body></html>")


@pytest.mark.parametrize("method", ["cetd", "cetd-td", "cetd-s"])
def test_extraction_keeps_article_drops_navigation(method):
    r = fastx.extract(article_page(), method=method)
    assert "sentence number 3 of the article" in r.text
    assert "Section 7" not in r.text
    assert r.method == method and r.title == "Story"


def test_htd_needs_positions_and_uses_them():
    doc = fastx.parse(article_page())
    with pytest.raises(fastx.MissingPositionsError):
        fastx.extract(doc, method="cetd", variant="htd")
    pos = np.full((doc.n, 2), np.nan)
    for i in range(doc.n):
        cls = doc.attr(i, "class") if doc.kind[i] == _core.KIND_ELEMENT else None
        if cls == "nav":
            pos[i] = (0, 200)
        elif cls == "article":
            pos[i] = (200, 800)
        elif cls == "footer":
            pos[i] = (0, 1000)
    for i in range(doc.n):   # children inherit their block's extent
        if np.isnan(pos[i, 0]) and doc.parent[i] >= 0:
            pos[i] = pos[doc.parent[i]]
    hc = _core.hybrid_chars(doc, pos)
    # VI: integral of N(500, 500^2) over the extent
    art = next(i for i in range(doc.n) if doc.kind[i] == 1 and doc.attr(i, "class") == "article")
    vi = 0.5 * (math.erf((800 - 500) / (500 * math.sqrt(2))) - math.erf((200 - 500) / (500 * math.sqrt(2))))
    assert hc[art] == pytest.approx(vi * doc.chars[art])
    r = fastx.extract(doc, method="cetd", variant="htd", positions=pos)
    assert "sentence number 3" in r.text


def test_bad_parameters_are_typed_errors():
    with pytest.raises(fastx.InputError):
        fastx.extract("<p>x</p>", method="cetd", variant="nope")
    with pytest.raises(fastx.InputError):
        fastx.extract("<p>x</p>", method="cetd", bogus=1)
    with pytest.raises(fastx.UnknownMethodError):
        fastx.extract("<p>x</p>", method="no-such-method")
