"""Structured records (VSSE, seeds/000 Sect. 4.3.2): WVC, the HMM area, reading records, SWDE."""
import re

import numpy as np
import pytest

import fastx
from fastx import _core
from fastx import characteristics as chars
from fastx.records import area

PRODUCT = """<html><head><title>Acme X200 Blender - Acme Store</title></head><body>
<div id="nav"><a href="/">Home</a> <a href="/c">Kitchen</a> <a href="/s">Search: all</a></div>
<div id="main">
  <div id="product">
    <h1>Acme X200 Blender</h1>
    <p class="by">by <a href="/brand/acme">Acme Appliances</a></p>
    <table class="specs">
      <tr><th>Brand</th><td>Acme</td></tr>
      <tr><th>Model</th><td>X200</td></tr>
      <tr><th>Weight:</th><td>2.4 kg</td></tr>
    </table>
    <ul class="facts">
      <li><b>Color</b>: Red</li>
      <li>Material: Stainless steel</li>
      <li>Warranty: 2 years</li>
    </ul>
  </div>
  <div id="related">
    <div class="item"><a href="/1">Blender A</a><span>Price: $10</span></div>
    <div class="item"><a href="/2">Blender B</a><span>Price: $12</span></div>
    <div class="item"><a href="/3">Blender C</a><span>Price: $13</span></div>
    <div class="item"><a href="/4">Blender D</a><span>Price: $14</span></div>
    <div class="item"><a href="/5">Blender E</a><span>Price: $15</span></div>
  </div>
</div>
<div id="footer">Updated: 10:30 today. Visit http://example.com</div>
</body></html>"""

CHINESE = """<html><head><title>华为 Mate 60 手机 - 商城</title></head><body>
<div class="menu"><a href="/">首页</a><a href="/p">手机</a></div>
<div class="detail">
  <h2>华为 Mate 60 手机</h2>
  <ul class="params">
    <li>品牌：华为</li><li>型号：Mate 60</li><li>颜色：黑色</li><li>重量：225g</li>
  </ul>
  <dl><dt>出版社</dt><dd>人民邮电出版社</dd></dl>
</div>
<div class="foot">客服电话 400-000-0000</div>
</body></html>"""


def as_dict(recs):
    return {r.attribute: r for r in recs}


def test_records_of_a_product_page():
    recs = fastx.records(PRODUCT)
    d = as_dict(recs)
    assert d["title"].value == "Acme X200 Blender" and d["title"].key == "title"
    assert d["by"].value == "Acme Appliances" and d["by"].key == "author"
    assert d["Brand"].value == "Acme" and d["Brand"].key == "brand"
    assert d["Model"].value == "X200" and d["Model"].key == "model"
    assert d["Weight"].value == "2.4 kg" and d["Weight"].key == "weight"
    assert d["Color"].value == "Red" and d["Color"].key == "color"
    assert d["Material"].value == "Stainless steel" and d["Material"].key == "material"
    assert d["Warranty"].value == "2 years" and d["Warranty"].key == "warranty"
    assert all(not r.value.startswith("$") for r in recs)          # the related items are outside
    assert "Search" not in d and "Updated" not in d
    assert d["Color"].path == "html/body/div/div/ul/li"
    assert d["Brand"].path.endswith("table/tbody/tr/td")
    assert str(d["Color"]) == "Color: Red"


def test_the_hmm_area_is_the_product_not_the_related_list():
    doc = fastx.parse(PRODUCT)
    root = area(doc)
    assert doc.attr(root, "id") == "product"
    codes, kinds, sizes = chars.wvc_inputs(doc)
    W, cov = _core.wvc(doc, codes, kinds, sizes)
    related = next(i for i in range(doc.n) if doc.attr(i, "id") == "related")
    assert W[related] > 0 and cov[related] < cov[root]
    path, delta = _core.records_viterbi(doc, W, cov, 0.1)
    assert path[0] == doc.body and path[-1] == root and len(delta) == len(path)
    assert all(doc.parent[b] == a for a, b in zip(path[:-1], path[1:]))


def test_records_chinese_delimiters_and_dictionary():
    d = as_dict(fastx.records(CHINESE))
    assert d["品牌"].value == "华为" and d["品牌"].key == "brand"
    assert d["型号"].value == "Mate 60" and d["型号"].key == "model"
    assert d["颜色"].key == "color" and d["重量"].value == "225g"
    assert d["出版社"].value == "人民邮电出版社" and d["出版社"].key == "publisher"


def test_chinese_prose_before_a_colon_is_no_label():
    html = ("<html><body><div><p>那一年，龙湖立下了多个里程碑：全年共拿下43幅土地</p>"
            "<p>（原标题：多地项目连环爆雷）</p><p>本文来源：证券市场红周刊</p><p>责任编辑：杜硕</p></div></body></html>")
    d = as_dict(fastx.records(html))
    assert not any("里程碑" in a for a in d)
    assert d["原标题"].value.startswith("多地项目连环爆雷")
    assert d["本文来源"].value == "证券市场红周刊" and d["责任编辑"].value == "杜硕"


def test_wvc_is_formula_3():
    doc = fastx.parse(PRODUCT)
    codes, kinds, sizes = chars.wvc_inputs(doc)
    W, cov = _core.wvc(doc, codes, kinds, sizes)
    leaves = [i for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT]
    N = len(leaves)
    sat = {}                                         # characteristic -> leaves satisfying it
    base = 0
    for code, kind, size in zip(codes, kinds, sizes):
        for i in leaves:
            if doc.flags[i] & fastx._core.NODE_FLAGS["in_link"]:
                continue
            if kind == 0 and code[i] > 0:
                sat.setdefault(base, []).append(i)
            elif kind == 1 and code[i] >= 0:
                sat.setdefault(base + code[i], []).append(i)
        base += size
    for node in range(doc.n):
        expected = 0.0
        for k, ls in sat.items():
            nk = sum(node <= i < doc.end[node] for i in ls)
            if nk:
                expected += nk * np.log(N / nk)
        assert W[node] == pytest.approx(expected), node


def test_delimiter_is_not_a_url_or_a_time():
    doc = fastx.parse("<html><body><p>see http://x.org/a</p><p>at 10:30 now</p><p>Size: XL</p>"
                      "<p>尺码：XL</p></body></html>")
    delim, label, _, _ = _core.records_scan(doc, *chars._attr_table, doc.title)
    leaves = [i for i in range(doc.n) if doc.kind[i] == _core.KIND_TEXT]
    assert [int(delim[i]) for i in leaves] == [-1, -1, 4, 6]
    size = chars.attribute_keys().index("size")
    assert [int(label[i]) for i in leaves[2:]] == [size, size]


def test_attribute_dictionary_lookup_and_extension():
    assert chars.attribute_key("ISBN-13") == "isbn"
    assert chars.attribute_key("  Publisher ") == "publisher"
    assert chars.attribute_key("出版社") == "publisher"
    assert chars.attribute_key("Shoe width") is None
    chars.add_attributes({"width": ["shoe width", "鞋宽"]})
    try:
        assert chars.attribute_key("Shoe Width") == "width"
        d = as_dict(fastx.records("<html><body><ul><li>Shoe width: wide</li><li>Size: 9</li></ul></body></html>"))
        assert d["Shoe width"].key == "width"
    finally:
        # leave the shipped dictionary as it was for other tests
        for name in ("shoe width", "鞋宽"):
            chars._ATTR_HASH.pop(int(_core.attribute_hash(name)), None)
        chars._ATTR_NAMES["width"].clear()
        chars.add_attributes({})
    assert "width" in chars.attributes()
    with pytest.raises(fastx.InputError):
        chars.add_attributes({"": ["x"]})
    with pytest.raises(fastx.InputError):
        chars.add_attributes({"x": [""]})


def test_user_predicate_takes_part_in_wvc():
    html = ("<html><body><div id='a'><p>Color: red</p><p>Size: L</p></div>"
            "<div id='b'><p>SKU-1</p><p>SKU-2</p><p>SKU-3</p><p>SKU-4</p><p>SKU-5</p></div></body></html>")
    doc = fastx.parse(html)
    b = next(i for i in range(doc.n) if doc.attr(i, "id") == "b")
    W, _ = _core.wvc(doc, *chars.wvc_inputs(doc))
    assert doc.attr(area(doc), "id") == "a" and W[b] == 0
    chars.register_characteristic("sku", lambda d, i: d.text(i).startswith("SKU-"), wvc=True, vvtc=False)
    try:
        doc = fastx.parse(html)
        W, _ = _core.wvc(doc, *chars.wvc_inputs(doc))
        assert W[b] == pytest.approx(5 * np.log(7 / 5))        # Formula 3: 5 of the 7 leaves
        assert doc.attr(area(doc, characteristics=["sku"]), "id") == "b"
        assert doc.attr(area(doc, characteristics=["delimiter"]), "id") == "a"
        with pytest.raises(fastx.InputError):
            chars.register_characteristic("sku", lambda d, i: 0)
    finally:
        chars.unregister_characteristic("sku")
    assert "sku" not in chars.characteristics()


def test_characteristic_errors_are_typed():
    doc = fastx.parse(PRODUCT)
    with pytest.raises(fastx.InputError):
        chars.register_characteristic("bad", "not callable")
    with pytest.raises(fastx.InputError):
        chars.register_characteristic("bad", lambda d, i: 0, kind="weird")
    chars.register_characteristic("boom", lambda d, i: 1 / 0)
    try:
        with pytest.raises(fastx.InputError):
            fastx.records(doc)
    finally:
        chars.unregister_characteristic("boom")
    with pytest.raises(fastx.InputError):
        area(doc, characteristics=["no such thing"])
    with pytest.raises(fastx.InputError):
        chars.unregister_characteristic("no such thing")


@pytest.mark.parametrize("bad", [None, 12, ["<p>"]])
def test_records_bad_input(bad):
    with pytest.raises(fastx.InputError):
        fastx.records(bad)


def test_records_bad_parameters():
    with pytest.raises(fastx.InputError):
        fastx.records(PRODUCT, colour="red")
    with pytest.raises(fastx.InputError):
        fastx.records(PRODUCT, tolerance=1.5)


@pytest.mark.parametrize("html", ["", "<html></html>", "no markup at all", "<p>:</p>", "<p>：：：</p>",
                                  "<div>Price:</div>", "<b>by</b>", "\x00\xff:<div>"])
def test_records_degenerate_pages(html):
    recs = fastx.records(html)
    assert isinstance(recs, list)
    assert all(r.attribute and r.value for r in recs)


def test_records_on_a_very_deep_page():
    """The kernels iterate: a 20,000-level Doc (built without fastx.parse's depth guard) reads fine,
    and a 100,000-level page goes through the guard without error."""
    from selectolax.lexbor import LexborHTMLParser
    depth = 20_000
    html = ("<html><body>" + "<div>" * depth + "<ul><li>Brand: Acme</li><li>Model: X1</li></ul>"
            + "</div>" * depth + "</body></html>")
    doc = _core.build_doc(LexborHTMLParser(html))
    assert doc.depth.max() > depth
    d = as_dict(fastx.records(doc))
    assert d["Brand"].value == "Acme" and d["Model"].value == "X1"
    assert d["Brand"].path.count("/div") == depth
    deep = "<html><body>" + "<div>" * 100_000 + "Brand: Acme" + "</div>" * 100_000 + "</body></html>"
    assert isinstance(fastx.records(deep), list)


def test_records_accept_a_doc_and_bytes():
    doc = fastx.parse(PRODUCT.encode("utf-8"))
    assert fastx.records(doc) == fastx.records(PRODUCT.encode("utf-8")) == fastx.records(PRODUCT)


# ---------------------------------------------------------------- SWDE booksamillion

def _norm(s):
    return re.sub(r"\s+", " ", s).strip().lower()


def swde_scores(pages, records=fastx.records):
    """Scores of `records` on SWDE pages [(id, html, {"values": {attr: [values]}})]:

    value_recall     gold values found in the "attribute: value" lines (compare.py's test)
    key_match        of the gold values found in some record's value, the share whose
                     record names the gold attribute (Record.key, the dictionary attribute)
    labeled_match    the same, over the attributes the page labels ("Publisher: X", "by X":
                     every gold attribute but the title)
    record_precision records whose value contains some gold value
    """
    found = total = matched = in_rec = lab_matched = lab_in_rec = good = nrec = 0
    per_attr = {}
    for _, html, meta in pages:
        recs = records(html)
        lines = _norm("\n".join(f"{r.attribute}: {r.value}" for r in recs))
        golds = [(a, _norm(v)) for a, vs in meta["values"].items() for v in vs if v]
        values = [(r, _norm(r.value)) for r in recs]
        for attr, g in golds:
            total += 1
            found += g in lines
            bare = g.lstrip(": ").strip()
            holders = [r for r, v in values if bare and bare in v]
            if holders:
                want = chars.attribute_key(attr.replace("_", " "))
                ok = any(r.key == want for r in holders)
                in_rec += 1
                matched += ok
                if attr != "title":
                    lab_in_rec += 1
                    lab_matched += ok
                s = per_attr.setdefault(attr, [0, 0])
                s[0] += ok
                s[1] += 1
        bare_golds = [g.lstrip(": ").strip() for _, g in golds]
        for _, v in values:
            nrec += 1
            good += any(b and b in v for b in bare_golds)
    return {"pages": len(pages), "value_recall": found / max(1, total), "key_match": matched / max(1, in_rec),
            "labeled_match": lab_matched / max(1, lab_in_rec), "record_precision": good / max(1, nrec),
            "records_per_page": nrec / max(1, len(pages)),
            "key_match_by_attribute": {a: m / n for a, (m, n) in sorted(per_attr.items())}}


def test_swde_booksamillion_all_pages(compare):
    """Done-when of the issue: >= 90% of the gold values in the records over all 2000 pages,
    and the record's attribute is the gold attribute wherever the page labels it."""
    pages = list(compare.CORPORA["swde-book"]())
    assert len(pages) == 2000
    s = swde_scores(pages)
    print(s)
    assert s["value_recall"] >= 0.90
    assert s["labeled_match"] >= 0.98
    assert s["record_precision"] >= 0.3
