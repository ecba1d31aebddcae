"""fastx.decode: page bytes in any encoding -> (text, codec)."""
import codecs
import re
import tarfile
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastx.decode import REPAIRED_UTF8, decode
from fastx.errors import FastxError, InputError

SHARED = Path(__file__).parents[2].parent / "shared"
ZH_NEWS = SHARED / "datasets" / "zh-news-unlabeled.tar.xz"

ZH = ("新华社北京电 国家统计局今天发布数据显示，今年前三季度国内生产总值同比增长百分之五点二，经济运行总体回升向好。"
      "专家表示，随着一系列政策措施落地见效，消费和投资需求稳步恢复，就业形势保持稳定，居民收入继续增加。"
      "下一步，有关部门将进一步加大宏观调控力度，着力扩大国内需求，推动经济实现质的有效提升和量的合理增长。")
TW = ("中央氣象局表示，颱風預計明天清晨在東部沿海登陸，北部及東北部地區將有豪雨發生的機率。"
      "民眾應注意強風及豪雨，避免前往山區及海邊活動。各級學校是否停課，將由地方政府於今晚十時前宣布。"
      "交通部也提醒，國內航班及鐵路班次可能受到影響，請旅客隨時留意最新資訊。")
JA = ("気象庁によりますと、発達した低気圧の影響で、東日本から北日本の広い範囲で今夜から明日にかけて大雨となるおそれがあります。"
      "土砂災害や河川の増水に十分注意してください。また、沿岸部では高波にも警戒が必要です。"
      "市の担当者は「できるだけ早めに避難してほしい」と話しています。")
KO = ("기상청은 내일 전국이 대체로 흐리고 남부 지방을 중심으로 많은 비가 내릴 것으로 예상된다고 밝혔습니다. "
      "특히 제주도와 남해안에는 시간당 삼십 밀리미터 이상의 강한 비가 내리는 곳이 있겠으니 피해가 없도록 주의해야 합니다.")
WESTERN = ("L’équipe a présenté « un projet ambitieux » pour l’été : le coût total s’élève à 12 500 € — "
           "soit 15 % de plus que prévu… Les élèves, très déçus, ont dû réviser leur budget. "
           "“Größere Änderungen” sind nicht geplant, sagte die Straßenbauverwaltung. "
           "¿Qué pasó? El niño comió piña.")
RU = "Правительство утвердило новый бюджет на следующий год, сообщает пресс-служба кабинета министров."


def page(body, meta=None, title=None):
    """A small but realistic article page around ``body``; ``meta`` is the
    charset label put in a <meta charset> tag, if any."""
    title = title or body[:12]
    charset = f'<meta charset="{meta}">\n' if meta else ""
    return (
        "<!DOCTYPE html>\n<html lang=\"xx\">\n<head>\n" + charset
        + f"<title>{title}</title>\n<link rel=\"stylesheet\" href=\"/static/site.css\">\n"
        "<script>var _gaq = _gaq || []; _gaq.push(['_trackPageview']);</script>\n</head>\n<body>\n"
        "<nav><a href=\"/\">Home</a> | <a href=\"/news\">News</a> | <a href=\"/about\">About</a></nav>\n"
        f"<article><h1>{title}</h1>\n<p>{body}</p>\n<p>{body[::-1]}</p>\n</article>\n"
        "<footer>&copy; 2024 Example Media. All rights reserved.</footer>\n</body>\n</html>\n"
    )


# (text, Python codec used to write the page, label put in <meta charset>, codec decode() must report)
LEGACY = [
    pytest.param(ZH, "gbk", "gbk", "gb18030", id="gbk"),
    pytest.param(ZH, "gb2312", "gb2312", "gb18030", id="gb2312"),
    pytest.param(ZH + "欧元符号€与表情😀", "gb18030", "GB18030", "gb18030", id="gb18030"),
    pytest.param(JA, "shift_jis", "Shift_JIS", "cp932", id="shift_jis"),
    pytest.param(JA + "①②㈱", "cp932", "x-sjis", "cp932", id="cp932"),
    pytest.param(JA, "euc_jp", "EUC-JP", "euc_jis_2004", id="euc_jp"),
    pytest.param(TW, "big5", "big5", "big5hkscs", id="big5"),
    pytest.param(KO, "euc_kr", "euc-kr", "cp949", id="euc_kr"),
    pytest.param(WESTERN, "cp1252", "windows-1252", "cp1252", id="cp1252"),
]


@pytest.mark.parametrize("declare", [False, True], ids=["undeclared", "meta"])
@pytest.mark.parametrize("text, codec, label, expected", LEGACY)
def test_legacy_pages_round_trip(text, codec, label, expected, declare):
    html = page(text, label if declare else None)
    assert decode(html.encode(codec)) == (html, expected)


@pytest.mark.parametrize("text, codec, label, expected", LEGACY)
def test_caller_declared_encoding(text, codec, label, expected):
    html = page(text)
    assert decode(html.encode(codec), label) == (html, expected)
    assert decode(html.encode(codec), f'text/html; charset="{label}"') == (html, expected)


@pytest.mark.parametrize("declare", [None, "utf-8", "gb2312", "iso-8859-1"])
def test_utf8_pages(declare):
    html = page(" / ".join([ZH, TW, JA, KO, WESTERN, RU]), declare)
    data = html.encode()
    assert decode(data) == (html, "utf-8")
    assert decode(data, declare) == (html, "utf-8")


def test_ascii_page():
    html = page("Plain ASCII text only.")
    assert decode(html.encode()) == (html, "utf-8")
    assert decode(page("x", "windows-1252").encode())[1] == "cp1252"


def test_meta_forms():
    body = page(ZH).split("<head>\n", 1)[1]
    for head in ('<meta http-equiv="Content-Type" content="text/html; charset=GBK">',
                 "<META CONTENT='text/html;charset=gb2312' HTTP-EQUIV='content-type'>",
                 "<meta charset=gbk>"):
        html = "<html><head>" + head + body
        assert decode(html.encode("gbk")) == (html, "gb18030")
    xml = '<?xml version="1.0" encoding="Shift_JIS"?>\n' + page(JA)
    assert decode(xml.encode("shift_jis")) == (xml, "cp932")


def test_single_byte_declared_pages():
    for text, codec, label in ((RU, "cp1251", "windows-1251"), (RU, "koi8_r", "koi8-r"),
                               ("Zażółć gęślą jaźń", "iso8859_2", "iso-8859-2"),
                               ("Ελληνικά νέα", "cp1253", "windows-1253")):
        html = page(text, label)
        assert decode(html.encode(codec)) == (html, codec)


def test_latin1_label_means_windows_1252():
    html = page("Price: 5 € – “quoted”")
    assert decode(html.encode("cp1252"), "ISO-8859-1") == (html, "cp1252")
    assert decode(b"a\x81b", "latin1") == ("a\x81b", "cp1252")  # undefined in cp1252: C1 control


def test_wrong_declaration_utf8_for_gbk():
    html = page(ZH, "utf-8")
    assert decode(html.encode("gbk")) == (html, "gb18030")
    plain = page(ZH)
    assert decode(plain.encode("gbk"), "utf-8") == (plain, "gb18030")


def test_stale_legacy_declaration_on_utf8_bytes():
    html = page(ZH, "gb2312")  # re-saved as UTF-8, meta left as it was
    assert decode(html.encode()) == (html, "utf-8")
    assert decode(html.encode(), "gbk") == (html, "utf-8")


def test_server_default_latin1_yields_to_page_meta():
    html = page(ZH, "gbk")
    assert decode(html.encode("gbk"), "text/html; charset=ISO-8859-1") == (html, "gb18030")


def test_unknown_and_utf16_labels_are_ignored_or_read_as_utf8():
    html = page(ZH)
    assert decode(html.encode("gbk"), "no-such-charset") == (html, "gb18030")
    assert decode(html.encode(), "utf-16") == (html, "utf-8")
    assert decode(page(ZH, "utf-16").encode()) == (page(ZH, "utf-16"), "utf-8")


def test_iso_2022_jp():
    html = page(JA)
    data = html.encode("iso2022_jp")
    assert data.isascii()
    assert decode(data) == (html, "iso2022_jp")
    meta = page(JA, "iso-2022-jp")
    assert decode(meta.encode("iso2022_jp")) == (meta, "iso2022_jp")


@pytest.mark.parametrize("codec, bom", [("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE),
                                        ("utf-16-be", codecs.BOM_UTF16_BE),
                                        ("utf-32-le", codecs.BOM_UTF32_LE),
                                        ("utf-32-be", codecs.BOM_UTF32_BE)])
@pytest.mark.parametrize("meta", [None, "gbk"])
def test_bom_wins(codec, bom, meta):
    html = page(ZH + JA, meta)  # the BOM outranks the meta tag and the caller
    assert decode(bom + html.encode(codec)) == (html, codec)
    assert decode(bom + html.encode(codec), "iso-8859-1") == (html, codec)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
@pytest.mark.parametrize("meta", [None, "utf-16"])
def test_wide_without_bom(codec, meta):
    html = page(ZH + KO + WESTERN, meta)
    assert decode(html.encode(codec)) == (html, codec)


def test_truncated_utf8_page():
    data = page(ZH).encode()
    cut = data.index("经济".encode()) + 1
    assert decode(data[:cut]) == (data[:cut - 1].decode() + "\ufffd", REPAIRED_UTF8)


def test_utf8_page_with_cp1252_bytes():
    # A UTF-8 template around content pasted from a cp1252 database.
    html = page(ZH + " — it’s “mixed”", "utf-8")
    data = html.encode().replace("it’s “mixed”".encode(), "it’s “mixed”".encode("cp1252"))
    assert decode(data) == (html, REPAIRED_UTF8)


@pytest.mark.parametrize("declared", [None, "gbk"])
def test_corrupt_byte_in_gbk_page(declared):
    html = page(ZH)
    data = html.encode("gbk")
    at = data.index("经济".encode("gbk"))
    text, codec = decode(data[:at] + b"\xff" + data[at:], declared)
    assert codec == "gb18030"
    assert text == html[:html.index("经济")] + "\ufffd" + html[html.index("经济"):]


def test_invalid_bytes_never_raise():
    for data in (bytes(range(256)) * 4, b"\xff" * 100, b"\x80\x81\x82<p>", b"<p>\xe4\xb8</p>",
                 b"\xfe\xff\x00", b"\xff\xfe\x00\x00\x00"):
        text, codec = decode(data)
        assert isinstance(text, str) and text
        codecs.lookup(codec)


def test_empty():
    assert decode(b"") == ("", "utf-8")
    assert decode(bytearray()) == ("", "utf-8")
    assert decode("") == ("", "str")


def test_nul_bytes():
    assert decode(b"<p>a\x00b</p>") == ("<p>a\ufffdb</p>", "utf-8")
    html = page(ZH)
    text, codec = decode(html.encode() + b"\x00" * 4096)  # archive padding
    assert (text, codec) == (html + "\ufffd" * 4096, "utf-8")
    text, codec = decode(html.encode("gbk").replace(b"<nav>", b"<nav>\x00"))
    assert (text, codec) == (html.replace("<nav>", "<nav>\ufffd"), "gb18030")
    assert decode("a\x00b") == ("a\ufffdb", "str")


def test_input_types():
    html = page(ZH)
    data = html.encode("gbk")
    assert decode(bytearray(data)) == decode(memoryview(data)) == (html, "gb18030")
    assert decode(html) == (html, "str")
    for bad in (None, 123, ["<p>"], {"a": 1}):
        with pytest.raises(InputError, match="expected bytes, bytearray, memoryview or str"):
            decode(bad)
    with pytest.raises(InputError, match="declared encoding must be a str"):
        decode(data, b"gbk")
    assert issubclass(InputError, FastxError)


def test_utf8_costs_little_more_than_bytes_decode():
    data = page(" ".join([ZH, JA, WESTERN]) * 2).encode() * 200
    assert len(data) > 1_000_000

    def best(fn):
        times = []
        for _ in range(7):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
        return min(times)

    assert best(lambda: decode(data)) <= 2 * best(lambda: data.decode()) + 0.002


LABELS = [None, "utf-8", "gbk", "shift_jis", "euc-jp", "big5", "euc-kr", "iso-8859-1", "koi8-r", "utf-16",
          "text/html; charset=windows-1251", "bogus", ""]
PREFIXES = [b"", codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF32_BE, b'<meta charset="gbk">',
            b'<?xml version="1.0" encoding="shift_jis"?>', b"\x1b$B"]


@settings(deadline=None, max_examples=300)
@given(st.sampled_from(PREFIXES), st.binary(max_size=2000),
       st.one_of(st.sampled_from(LABELS), st.text(max_size=20)))
def test_random_bytes_never_raise(prefix, data, declared):
    text, codec = decode(prefix + data, declared)
    assert isinstance(text, str) and "\x00" not in text
    codecs.lookup("utf-8" if codec == REPAIRED_UTF8 else codec)


@settings(deadline=None, max_examples=300)
@given(st.text().filter(lambda s: "\x00" not in s and "\x1b" not in s and not s.startswith("\ufeff")))
def test_any_text_round_trips_through_utf8(text):
    assert decode(text.encode()) == (text, "utf-8")


def _zh_news_pages():
    if not ZH_NEWS.exists():
        pytest.skip("../shared/datasets/zh-news-unlabeled.tar.xz not present")
    with tarfile.open(ZH_NEWS) as tar:
        return [(m.name, tar.extractfile(m).read()) for m in tar.getmembers()
                if m.isfile() and m.name.endswith((".html", ".htm"))]


CJK = re.compile("[\u3400-\u9fff]")
META_CHARSET = re.compile(r"""(?i)(<meta[^>]*?charset\s*=\s*["']?)[\w-]+""")


@pytest.mark.needs_shared
def test_zh_news_pages():
    pages = _zh_news_pages()
    assert len(pages) >= 60
    for name, data in pages:
        text, codec = decode(data)
        # Every page is UTF-8, four of them under a stale <meta charset=gb2312>.
        assert (codec, text) == ("utf-8", data.decode("utf-8")), name
        cjk = len(CJK.findall(text))
        assert cjk >= 400, name
        assert text.count("\ufffd") <= 0.01 * cjk, name  # thepaper's pages carry some U+FFFD themselves


@pytest.mark.needs_shared
@pytest.mark.parametrize("label", [None, "gbk"])
def test_zh_news_pages_in_gb18030(label):
    """The same real pages written in GB18030, undeclared or declared GBK."""
    for name, data in _zh_news_pages():
        html = META_CHARSET.sub(lambda m: m.group(1) + (label or "x-none"), data.decode("utf-8"))
        assert decode(html.encode("gb18030")) == (html, "gb18030"), name


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([b"a", b" ", b"\n", b"\x80", b"\xc3", b"\xa9", b"\xff", b"0"]), max_size=60)
       .map(b"".join))
def test_guess_islands_are_the_pattern_matches(data):
    # the compiled scan replaces two regular expressions: it must find what they find
    import re
    from fastx import _core
    islands = b"".join(re.findall(rb"[\x80-\xff]+[\x00-\x7f]?", data))
    spaced = len(re.findall(rb"[\x80-\xff] [\x80-\xff]", data))
    high = sum(b >= 0x80 for b in data)
    assert _core.nonascii_islands(data) == (islands, spaced, high)


_UTF8_PIECES = [b"a", b"\x00", b"\x80", b"\x8f", b"\x90", b"\x9f", b"\xa0", b"\xbd", b"\xbf", b"\xc0", b"\xc2",
                b"\xdf", b"\xe0", b"\xed", b"\xef", b"\xf0", b"\xf4", b"\xf5", b"\xff", "\u20ac".encode(),
                "\ufffd".encode(), "\U0001f600".encode(), b"x" * 40]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_UTF8_PIECES), max_size=40).map(b"".join))
def test_utf8_counts_are_pythons_replacing_decoder(data):
    # valid multi-byte sequences, and the U+FFFD Python's decoder writes (one per maximal subpart)
    from fastx import _core
    text = data.decode("utf-8", "replace")
    invalid = text.count("\ufffd") - data.count("\ufffd".encode())
    valid = len(text) - len(text.encode("ascii", "ignore")) - invalid
    assert _core.utf8_counts(data) == (valid, invalid)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200), st.sampled_from(["cp1252", "iso8859_2", "cp1251", "koi8_r", "cp874", "cp1255"]))
def test_single_byte_transcoding_is_decode_then_encode(data, codec):
    from fastx import _core
    from fastx.decode import _decode_with, _table
    expected = _decode_with(data, codec).replace("\x00", "\ufffd").encode("utf-8")
    assert _core.single_byte_utf8(data, _core.single_byte_table(_table(codec))) == expected


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=120))
def test_first_high_byte(data):
    from fastx import _core
    m = re.search(rb"[\x80-\xff]", data)
    assert _core.first_high_byte(data) == (m.start() if m else -1)


@pytest.mark.parametrize("codec,meta", [("cp1252", "windows-1252"), ("cp1252", None), ("gb18030", "gbk"),
                                        ("cp932", "shift_jis"), ("utf-16", None), ("koi8_r", "koi8-r")])
def test_to_utf8_is_decode_encoded(codec, meta):
    from fastx.decode import to_utf8
    head = f'<meta charset="{meta}">' if meta else ""
    text = head + "<p>caf\u00e9 \u20ac5 \u4e2d\u6587 \u041f\u0440\u0438\u0432\u0435\u0442\x00</p>" * 20
    data = text.encode(codec, "replace")
    decoded, enc = decode(data)
    assert to_utf8(data) == (decoded.encode("utf-8"), enc)
    utf8 = text.encode("utf-8")
    assert to_utf8(utf8)[0] is utf8          # valid UTF-8 goes to the parser unchanged


# code points at every UTF-8 width boundary, lone surrogates, and ASCII runs that start and end
# the encoder's 16-code-point blocks anywhere
_TEXT_PIECES = ["a", "x" * 7, "y" * 16, "z" * 33, "\x00", "\x7f", "\x80", "\xe9", "\xff", "\u0100", "\u07ff",
                "\u0800", "\u4e2d", "\ud7ff", "\ud800", "\udbff", "\udc00", "\udfff", "\ue000", "\uffff",
                "\U00010000", "\U0001f600", "\U0010ffff"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_TEXT_PIECES), max_size=40).map("".join))
def test_utf8_of_is_encode_ignoring_surrogates(text):
    # the parse's str -> UTF-8 step replaces text.encode("utf-8", "ignore"): the same bytes for
    # text of every PEP 393 kind (ASCII, Latin-1, two-byte, four-byte)
    from fastx import _core
    assert _core.utf8_of(text) == text.encode("utf-8", "ignore")
