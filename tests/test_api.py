"""Public API behaviour on good and hostile input: a result or a typed fastx error."""
import json
import tarfile

import pytest
from hypothesis import given, settings, strategies as st

import fastx
from fastx import cli

PAGE = ("<html><head><title>Café news</title></head><body><nav><a href=/>Home</a></nav>"
        "<article><h1>Café news</h1><p>Le café est une boisson, très appréciée en France. "
        "On en boit beaucoup, à toute heure du jour.</p></article></body></html>")


def test_extract_returns_extraction():
    r = fastx.extract(PAGE)
    assert isinstance(r, fastx.Extraction)
    assert "boisson" in r.text and r.title == "Café news"
    d = r.to_dict(html=True)
    assert set(d) >= {"url", "title", "description", "method", "text", "html"}
    assert "<p>" in r.html


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252", "utf-16"])
def test_encodings_roundtrip_through_extract(encoding):
    html = PAGE.replace("<head>", f'<head><meta charset="{encoding}">')
    data = html.encode(encoding)
    assert "très appréciée" in fastx.extract(data).text


@pytest.mark.parametrize("encoding,text", [("gbk", "今天的新闻内容非常重要，我们需要认真阅读。"),
                                           ("shift_jis", "今日のニュースはとても重要です。よく読みましょう。")])
def test_cjk_encodings(encoding, text):
    html = f'<html><head><meta charset="{encoding}"></head><body><p>{text * 5}</p></body></html>'
    assert text in fastx.extract(html.encode(encoding)).text


def test_parse_reuse_for_several_methods():
    doc = fastx.parse(PAGE)
    texts = {m: fastx.extract(doc, method=m).text for m in ("cetd", "cetd-td", "cetd-s")}
    assert all("boisson" in t for t in texts.values())


def test_methods_registry_lists_cetd_family():
    m = fastx.methods()
    assert {"cetd", "cetd-td", "cetd-s"} <= set(m)
    assert all(isinstance(v, str) and v for v in m.values())


@pytest.mark.parametrize("data", [b"", "", b"\x00" * 100, b"<", b"<<<>>>", b"\xff\xfe\xfd" * 50,
                                  "<html><body><p>unclosed <b>bold <i>it", "<table><tr><td>x" * 500])
def test_degenerate_inputs_give_results(data):
    r = fastx.extract(data)
    assert isinstance(r.text, str)


@pytest.mark.parametrize("bad", [None, 42, ["<p>x</p>"], object()])
def test_wrong_types_are_typed_errors(bad):
    with pytest.raises(fastx.InputError):
        fastx.extract(bad)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash(data):
    try:
        fastx.extract(data)
    except fastx.FastxError:
        pass


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/ab=\"' divpa\x00é中")), max_size=500))
def test_random_markup_never_crashes(text):
    r = fastx.extract(text)
    assert isinstance(r.text, str)


def test_fifty_megabyte_page():
    para = "<p>" + "word, " * 150 + "</p>\n"
    html = "<html><body>" + para * (50_000_000 // len(para)) + "</body></html>"
    assert len(html) >= 49_000_000
    r = fastx.extract(html.encode())
    assert len(r.text) > 10_000_000


@pytest.mark.needs_shared
def test_zh_news_pages_never_crash(compare):
    pack = compare.PACKS / "zh-news-unlabeled.tar.xz"
    if not pack.exists():
        pytest.skip("zh-news-unlabeled not present")
    n = 0
    with tarfile.open(pack) as tf:
        for m in tf.getmembers():
            if m.isfile() and m.name.endswith((".html", ".htm")):
                data = tf.extractfile(m).read()
                r = fastx.extract(data)
                assert isinstance(r.text, str)
                n += 1
    assert n >= 50


def test_cli_extract_and_evaluate(tmp_path, capsys):
    page = tmp_path / "p.html"
    page.write_text(PAGE, encoding="utf-8")
    assert cli.main(["extract", str(page)]) == 0
    assert "boisson" in capsys.readouterr().out
    assert cli.main(["extract", "--format", "json", str(page), str(tmp_path / "missing.html")]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 2 and lines[0]["error"] is None and lines[1]["error"]
    gold = tmp_path / "g.txt"
    gold.write_text("URL: http://x\n<p> Le café est une boisson", encoding="utf-8")
    pred = tmp_path / "pred.txt"
    pred.write_text("Le café est une boisson", encoding="utf-8")
    assert cli.main(["evaluate", str(pred), str(gold), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["f1"] == pytest.approx(1.0)


def _python_utf8_plain(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\x00" not in data and b"\x1b" not in data


@settings(max_examples=500, deadline=None)
@given(st.one_of(st.binary(max_size=64),
                 st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
                 st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")[:-1])))
def test_utf8_plain_agrees_with_python(data):
    from fastx import _core
    assert _core.utf8_plain(data) == _python_utf8_plain(data)


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 300), st.integers(0, 299), st.binary(min_size=1, max_size=4))
def test_utf8_plain_blocks_find_every_special_byte(n, at, odd):
    # long ASCII runs go through the 32-byte vector blocks: a byte anywhere must still be seen
    from fastx import _core
    data = bytearray(b"abcdefghij klmnopqrstuvwxyz <p>" * 10)[:n]
    data[min(at, len(data)):min(at, len(data))] = odd
    data = bytes(data)
    assert _core.utf8_plain(data) == _python_utf8_plain(data)
