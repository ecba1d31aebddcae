"""A <title> without its end tag (bytes lost in a crawl) must not swallow the page."""
import fastx
from fastx.core.parse import _close_runaway_title

ARTICLE = b"<p>" + b"The article's own sentence, long enough to be content. " * 20 + b"</p>"


def test_unclosed_title_keeps_the_body():
    page = b"<html><head><title>Gaza crossings - Ne(OAS_version >= 11)<script>x=1</script></head><body>" \
        + ARTICLE + b"</body></html>"
    doc = fastx.parse(page)
    assert doc.title == "Gaza crossings - Ne(OAS_version >= 11)"
    assert doc.chars[doc.body] > 500
    assert "article's own sentence" in fastx.extract(page, method="cetd").text


def test_closed_titles_parse_as_written():
    # RCDATA: a '<' inside a closed title is text, and the page is parsed once, unchanged
    page = b"<html><head><title>a <b> c</title></head><body>" + ARTICLE + b"</body></html>"
    assert fastx.parse(page).title == "a <b> c"
    assert _close_runaway_title(page) is None


def test_recovery_only_ends_the_title_at_a_tag():
    assert _close_runaway_title(b"<TITLE lang=en>T 1 < 2 <p>x") == b"<TITLE lang=en>T 1 < 2 </title><p>x"
    assert _close_runaway_title(b"<title>no tag at all") is None
    assert fastx.parse(b"<title>only a title, no tag after it").title == "only a title, no tag after it"
