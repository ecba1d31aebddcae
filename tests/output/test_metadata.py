"""Page metadata (fastx.metadata, docs/metadata.md): fields, sources, dates, bylines, output formats."""
import json

import pytest

import fastx
from fastx import _core
from fastx.metadata import FIELDS, Metadata, extract_metadata, parse_date, strip_site_suffix, url_date

from conftest import SHARED


def meta(html, url=None, kind=None):
    """The page's metadata; with `kind`, the page read as that page type (the title's rules for
    landing pages ask for it) instead of what the page-type model makes of a small test page."""
    if kind is None:
        return extract_metadata(fastx.parse(html, url=url), url)
    return _core.meta_resolve(fastx.parse(html, url=url), url, Metadata, lambda: kind)


ARTICLE = """<!doctype html><html lang="en_US"><head><meta charset="utf-8">
<title>Ten Ways to Cook Rice | Kitchen Daily</title>
<meta property="og:title" content="Ten Ways to Cook Rice">
<meta property="og:site_name" content="Kitchen Daily">
<meta property="og:type" content="article">
<meta property="og:image" content="/img/rice.jpg">
<meta name="description" content="How to cook rice, ten ways.">
<meta property="article:published_time" content="2024-03-05T09:00:00+00:00">
<meta property="article:tag" content="rice"><meta property="article:tag" content="cooking">
<meta property="article:section" content="Recipes">
<link rel="canonical" href="https://kitchen.example/rice">
<script type="application/ld+json">
{"@context": "https://schema.org", "@graph": [
  {"@type": "WebSite", "name": "Kitchen Daily"},
  {"@type": "NewsArticle", "headline": "Ten Ways to Cook Rice",
   "author": [{"@type": "Person", "name": "Ana Lima"}, {"@type": "Person", "name": "Bo Chen"}],
   "datePublished": "2024-03-04T22:00:00-05:00", "dateModified": "2024-06-01",
   "publisher": {"@type": "Organization", "name": "Kitchen Daily Media"}}]}
</script></head>
<body><h1>Ten Ways to Cook Rice</h1><p class="byline">By Someone Else</p><p>Rinse the rice.</p></body></html>"""


def test_fields_and_sources_in_order_of_trust():
    m = meta(ARTICLE, url="https://kitchen.example/rice?utm=1")
    assert m.title == "Ten Ways to Cook Rice" and m.source["title"] == "h1"
    assert m.author == "Ana Lima; Bo Chen" and m.source["author"] == "json-ld"
    assert m.date == "2024-03-04" and m.source["date"] == "json-ld"     # the date as the page wrote it
    assert m.date_modified == "2024-06-01"
    assert m.sitename == "Kitchen Daily" and m.source["sitename"] == "json-ld"
    assert m.language == "en-US" and m.source["language"] == "html"
    assert m.url == "https://kitchen.example/rice" and m.source["url"] == "link"
    assert m.image == "https://kitchen.example/img/rice.jpg"            # resolved against the page URL
    assert m.description == "How to cook rice, ten ways."
    assert m.tags == ["rice", "cooking"] and m.categories == ["Recipes"]
    assert m.type == "NewsArticle"
    assert set(m.source) <= set(f.name for f in Metadata.__dataclass_fields__.values())


def test_extraction_metadata_is_lazy_and_flat_in_to_dict():
    r = fastx.extract(ARTICLE, url="https://kitchen.example/rice", method="cetd")
    assert r._metadata is None
    d = r.to_dict()
    assert r._metadata is not None and r.metadata is r._metadata          # computed once
    assert r.title == "Ten Ways to Cook Rice | Kitchen Daily"              # Extraction.title: the <title>
    assert d["title"] == "Ten Ways to Cook Rice"                           # to_dict: the headline
    assert d["author"] == "Ana Lima; Bo Chen" and d["date"] == "2024-03-04"
    assert d["canonical_url"] == "https://kitchen.example/rice" and d["url"] == "https://kitchen.example/rice"
    assert d["tags"] == "rice, cooking" and d["type"] == "NewsArticle"
    assert set(FIELDS) <= set(d)
    json.dumps(d)
    with pytest.raises(AttributeError):
        r.metadata.not_a_field = 1                                         # slots


def test_open_graph_and_meta_when_no_json_ld():
    html = ("<html><head><title>Budget Travel Tips - Wander Blog</title>"
            "<meta name='author' content='Jo Park'><meta name='DC.date.issued' content='2021/07/09'>"
            "<meta http-equiv='content-language' content='fr-CA'>"
            "<meta name='keywords' content='travel, budget'></head><body><p>x</p></body></html>")
    m = meta(html)
    assert m.title == "Budget Travel Tips" and m.source["title"] == "title"
    assert (m.author, m.source["author"]) == ("Jo Park", "meta")
    assert (m.date, m.source["date"]) == ("2021-07-09", "meta")
    assert m.language == "fr-CA" and m.tags == ["travel", "budget"]


def test_visible_byline_and_dateline():
    html = ("<html><head><title>Gardening in winter</title></head><body><nav>Home</nav>"
            "<h1>Gardening in winter</h1><div class='post-meta'><span>By</span> <a href='/a/x'>Maria Gomez</a>"
            "</div><div class='entry-date'>Posted on March 3, 2023</div><p>Text of the post.</p>"
            "<div class='comments'><div class='comment-author'>Troll Person</div>"
            "<time datetime='2024-01-01'>Jan 1</time></div></body></html>")
    m = meta(html)
    assert (m.author, m.source["author"]) == ("Maria Gomez", "byline")
    assert (m.date, m.source["date"]) == ("2023-03-03", "byline")


def test_byline_names_without_roles_and_dates():
    html = ("<html><body><h1>T</h1><div class='author-name'>Keith Barry</div>"
            "<div class='author'><span>Keith Barry</span><span>Senior Autos Reporter</span></div></body></html>")
    assert meta(html).author == "Keith Barry"
    html = "<html><body><h1>T</h1><p>By Jane Doe and John Roe | Updated</p></body></html>"
    assert meta(html).author == "Jane Doe; John Roe"


@pytest.mark.parametrize("author, out", [
    ("Jürgen Müller und Anna Schäfer", "Jürgen Müller; Anna Schäfer"),       # a word standing alone
    ("Kelly Brandy, Etta Yates", "Kelly Brandy; Etta Yates"),                # not inside a name
    ("Ana Lima y José Ruiz; Bo Chen", "Ana Lima; José Ruiz; Bo Chen"),
    ("Ana Lima、Bo Chen", "Ana Lima; Bo Chen"),
    ("Ana Lima (Staff), Bo Chen, 2024", "Bo Chen"),                         # role words, numbers dropped
    ("Ana Lima_and Bo Chen", "Ana Lima_and Bo Chen"),                         # "_" is a word character
])
def test_meta_author_split_into_names(author, out):
    html = f"<html><head><meta name='author' content='{author}'></head><body><h1>T</h1></body></html>"
    assert meta(html).author == out


@pytest.mark.parametrize("author", ["undefined", "Webmaster", "null"])
def test_a_placeholder_author_is_no_author(author):
    html = f"<html><head><meta name='author' content='{author}'></head><body><h1>T</h1></body></html>"
    assert meta(html).author is None


@pytest.mark.parametrize("text", [
    'By clicking "Join" you are agreeing to our Terms of Service and Privacy Policy',    # consent
    "By using Acme Code, you agree to its license",
    "By the Numbers",                   # a name starts upper-case
    "By industry Retail Media Construction",
    "By Category",                      # a filter menu's "By" and one word
    "BY INDUSTRY",
])
def test_by_texts_that_are_no_byline(text):
    html = f"<html><body><h1>Topic</h1><p>{text}</p><p>Body text of the page.</p></body></html>"
    assert meta(html).author is None


@pytest.mark.parametrize("text, author", [
    ("Author: Jane Doe", "Jane Doe"), ("Authors: Jane Doe and John Roe", "Jane Doe; John Roe"),
    ("Story by Jane Doe", "Jane Doe"), ("Words by Jane Doe", "Jane Doe"), ("Reported by Jane Doe", "Jane Doe"),
    ("Text by Jane Doe", "Jane Doe"),
    ("Sort by Date", None), ("Photos by Jane Doe", None), ("Powered by WordPress", None),
    ("Filter by category", None), ("Author: admin", None),
])
def test_a_plain_byline_with_a_word_or_a_label_before_the_name(text, author):
    # a text near the headline, no class naming a byline
    html = f"<html><body><h1>A headline for the story</h1><p>{text}</p><p>Body text of the page.</p></body></html>"
    assert meta(html).author == author


@pytest.mark.parametrize("line, author", [
    ("Posted on March 3, 2023 by Jane Doe", "Jane Doe"),
    ("Published 3 March 2023, 10:15 by Jane Doe", "Jane Doe"),
    ("Posted on <time>March 3, 2023</time> by <a href='/a/jane'>Jane Doe</a>", "Jane Doe"),
    ("Posted Nov. 6,2012 at 5:32 PM EST by <a href='/a'>Andy Towle</a> | <a href='/p'>Permalink</a>", "Andy Towle"),
    ("posted August 9th, 2012 1:00 PM EDT by Jared Nelson in <a href='/c'>News</a>, <a href='/g'>Games</a>",
     "Jared Nelson"),                                              # the categories after "in" are not read
    ("Posted on November 5, 2012, 9:58 am, by Thomas Hawk, under <a href='/f'>Facebook</a>", "Thomas Hawk"),
    ("Published on March 3, 2023 by admin", None),
    ("Posted on March 3, 2023 by the editors", None),
])
def test_a_dateline_that_goes_on_with_its_byline(line, author):
    html = f"<html><body><h1>A headline for the story</h1><p>{line}</p><p>Body text of the page.</p></body></html>"
    assert meta(html).author == author


def test_an_author_label_alone_takes_the_next_line_only():
    html = ("<html><body><h1>A headline for the story</h1><div><b>Author:</b> <a href='/u/l'>Luke Van Leuveren</a>"
            "<br><b>Started:</b> 29 Dec, 2007<br><b>Published:</b> 29 Dec, 2007</div><p>Body text.</p></body></html>")
    assert meta(html).author == "Luke Van Leuveren"


def test_byline_name_without_a_trailing_at_or_a_profession():
    html = "<html><body><h1>T</h1><p>Posted by David at December 16, 2025 11:15 AM</p></body></html>"
    assert meta(html).author == "David"
    html = "<html><body><h1>T</h1><p class='author'>Justin Meserole, Trial Attorney</p></body></html>"
    assert meta(html).author == "Justin Meserole"
    html = "<html><body><h1>T</h1><p>By MixmasterFred in Workshop Woodworking</p></body></html>"
    assert meta(html).author == "MixmasterFred"           # the post's category after "in"


@pytest.mark.parametrize("kind, author", [("article", "Jane Doe"), ("forum", "Jane Doe"), ("product", None),
                                          ("collection", None), ("listing", None), ("service", None)])
def test_a_visible_byline_is_not_read_on_a_product_or_listing_page(kind, author):
    html = ("<html><head><meta name='author' content='Meta Name'></head>"
            "<body><h1>Topic</h1><p>By Jane Doe</p><p>Body text.</p></body></html>")
    assert meta(html, kind=kind).author == "Meta Name"          # the metadata's author stays
    html = "<html><body><h1>Topic</h1><p>By Jane Doe</p><p>Body text.</p></body></html>"
    assert meta(html, kind=kind).author == author


@pytest.mark.parametrize("h1, out", [
    ('Middleware<a class="headerlink" href="#middleware" title="Link to this heading">¶</a>', "Middleware"),
    ("Install <a href='#install'>#</a>", "Install"),
    ("Learn C#", "Learn C#"),                                  # a "#" that is part of the name stays
    ("Enum <a class='enum'>Result</a><button id='copy-path' title='Copy item path'>Copy item path</button>",
     "Enum Result"),
    ("<button aria-expanded='true'>Shipping and returns</button>", "Shipping and returns"),   # an accordion's
])
def test_a_headings_permalink_mark_and_buttons_are_not_its_title(h1, out):
    html = f"<html><head><title>Other page title</title></head><body><h1>{h1}</h1><p>Text.</p></body></html>"
    d = fastx.parse(html)
    assert [r[2] for r in _core.meta_scan(d)[2] if r[0] == 6] == [out]


TYPED = ("<html><head><meta property='og:title' content='Topic'></head><body><nav>Menu</nav>"
         "<h1>Topic</h1><p class='byline'>By Jane Doe</p><p>Posted on March 4, 2025</p>"
         "<time datetime='2025-03-04'>March 4</time><span itemprop='author'>Item Author</span>"
         "<p>Body text, 2024 edition.</p></body></html>")


@pytest.mark.parametrize("kind", ["article", "forum", "product", "collection", "listing", "service"])
def test_a_page_the_extraction_typed_gives_the_metadata_of_an_untyped_one(kind):
    # a page whose type is known already (doc.cache, as default's extraction leaves it) as one
    # whose bylines and datelines are dropped is not searched for them: the same metadata
    untyped = _core.meta_resolve(fastx.parse(TYPED), None, Metadata, lambda: kind)
    doc = fastx.parse(TYPED)
    doc.cache["page_type"] = kind
    asked = []
    typed = _core.meta_resolve(doc, None, Metadata, lambda: asked.append(kind) or kind)
    assert typed == untyped and asked == [kind]
    assert (typed.author is None) == (kind not in ("article", "forum"))


def test_the_scan_without_the_visible_evidence_gives_the_rest_alike():
    d = fastx.parse(TYPED)
    metas, multi, recs = _core.meta_scan(d)
    assert {5, 7, 8, 10} <= {r[0] for r in recs}             # time, hint, byline and year records
    visible_kinds = (5, 7, 8, 10, 11)
    assert _core.meta_scan(d, False) == (metas, multi, [r for r in recs if r[0] not in visible_kinds])


@pytest.mark.parametrize("kind, date", [("article", "2025-03-04"), ("forum", "2025-03-04"),
                                        ("documentation", "2025-03-04"), ("product", None),
                                        ("collection", None), ("listing", None), ("service", None)])
def test_a_dateline_is_not_read_on_a_product_or_listing_page(kind, date):
    # the dates shown there are a review's, a listed post's or an offer's
    shown = ("<h1>Topic</h1><p>Posted on March 4, 2025</p><time datetime='2025-03-04'>March 4</time>"
             "<p>Body text.</p>")
    html = f"<html><body>{shown}</body></html>"
    assert meta(html, kind=kind).date == date
    html = f"<html><head><meta property='article:published_time' content='2024-01-02'></head><body>{shown}</body></html>"
    m = meta(html, kind=kind)      # the metadata's own date stays
    assert (m.date, m.source["date"]) == ("2024-01-02", "meta")
    # a dateline earlier than the metadata's date is the first publication, where datelines count
    html = f"<html><head><meta property='article:published_time' content='2025-11-02'></head><body>{shown}</body></html>"
    assert meta(html, kind=kind).date == ("2025-11-02" if date is None else date)


@pytest.mark.parametrize("kind, author", [("forum", "Jane Doe"), ("listing", None), ("product", None)])
def test_a_microdata_author_is_not_read_on_a_product_or_listing_page(kind, author):
    html = ("<html><body><h1>Topic</h1><div itemscope itemtype='https://schema.org/Review'>"
            "<span itemprop='author'>Jane Doe</span><p>Great.</p></div></body></html>")
    m = meta(html, kind=kind)
    assert m.author == author and (author is None or m.source["author"] == "microdata")


def test_a_link_rel_author_to_a_page_is_no_name():
    html = ("<html><head><link rel='author' title='About' href='../about.html'></head>"
            "<body><h1>T</h1><p>Body text.</p></body></html>")
    assert meta(html).author is None


@pytest.mark.parametrize("author, notice, found", [
    ("网易", "网易版权所有", None), ("Condé Nast", "Copyright (c) Condé Nast 2026", None),
    ("SmartEtailing Inc", "© 2026 SmartEtailing, Inc. All rights reserved.", None),
    ("Jane Doe", "© 2026 Example Media", "Jane Doe"),
])
def test_a_meta_author_the_copyright_notice_names_is_the_publisher(author, notice, found):
    html = (f"<html><head><meta charset='utf-8'><meta name='author' content='{author}'>"
            f"<meta name='copyright' content='{notice}'></head><body><h1>A headline here</h1>"
            "<p>The body of the page.</p></body></html>")
    m = meta(html.encode("utf-8"))
    assert m.author == found


def test_the_site_among_several_authors_is_dropped():
    html = ("<html><head><meta property='og:site_name' content='Daily Paper'>"
            "<meta name='author' content='Ana Lima, Bo Chen, The Daily Paper'></head><body><h1>T</h1></body></html>")
    assert meta(html).author == "Ana Lima; Bo Chen"
    html = ("<html><head><meta property='og:site_name' content='Daily Paper'>"
            "<meta name='author' content='Daily Paper'></head><body><h1>T</h1></body></html>")
    assert meta(html).author == "Daily Paper"         # the only author stays


def test_comparison_key_is_the_expression():
    import re
    for s in ("Ten Ways to Cook Rice!", "Über_Straße – Ⅻ²", "İstanbul'da ﬁnal", "٣٤ ٥ Ǆ ß", "新闻 · 中文", "", "_-_"):
        assert _core.meta_key(s) == re.sub(r"[\W_]+", "", s.casefold())


def test_time_element_and_url_date():
    html = "<html><body><h1>Post</h1><time datetime='2022-11-30T10:00'>yesterday</time></body></html>"
    assert meta(html).date == "2022-11-30" and meta(html).source["date"] == "time"
    m = meta("<html><body><p>x</p></body></html>", url="https://blog.example/2019/05/17/a-post/")
    assert (m.date, m.source["date"]) == ("2019-05-17", "url")


@pytest.mark.parametrize("meta_date, url, out, source", [
    ("2025-12-19T03:10:00+00:00", "https://blog.example/2025/12/18/post/", "2025-12-18", "url"),   # UTC
    ("03/10/2023", "https://blog.example/2023/october/03/post/", "2023-10-03", "url"),        # read m/d
    ("2025-12-11T10:00:00+00:00", "https://blog.example/2025/12/18/post/", "2025-12-11", "meta"),  # another day
    ("2025-12-18T10:00:00+00:00", "https://blog.example/post/", "2025-12-18", "meta"),
])
def test_the_day_in_the_url_against_the_metadata_date(meta_date, url, out, source):
    html = (f"<html><head><meta name='date' content='{meta_date}'></head>"
            "<body><h1>Post</h1><p>Text.</p></body></html>")
    m = meta(html, url=url)
    assert (m.date, m.source["date"]) == (out, source)


@pytest.mark.parametrize("graph, author", [
    # Yoast's and Rank Math's @graph: the article's author is a reference to a Person by its @id
    ([{"@type": "Article", "headline": "H", "author": {"@id": "#p1"}},
      {"@type": "Person", "@id": "#p1", "name": "Jane Doe"}], "Jane Doe"),
    ([{"@type": "Article", "author": [{"@id": "#p1"}, {"@id": "#p2"}]},
      {"@type": ["Person"], "@id": "#p1", "name": "Jane Doe"}, {"@type": "Person", "@id": "#p2", "name": "John Roe"}],
     "Jane Doe; John Roe"),
    ([{"@type": "Article", "author": {"@id": "#o"}}, {"@type": "Organization", "@id": "#o", "name": "Acme"}], None),
    ([{"@type": "Article", "author": {"@id": "#missing"}}], None),
])
def test_a_json_ld_author_given_by_its_id(graph, author):
    ld = json.dumps({"@context": "https://schema.org", "@graph": graph})
    html = (f"<html><head><script type='application/ld+json'>{ld}</script></head>"
            "<body><h1>H</h1><p>Body text.</p></body></html>")
    m = meta(html)
    assert m.author == author and (author is None or m.source["author"] == "json-ld")


@pytest.mark.parametrize("metas, author", [
    ("<meta name='citation_author' content='Doe, Jane'><meta name='citation_author' content='Roe, John A.'>",
     "Jane Doe; John A. Roe"),                                     # Google Scholar's: surname first
    ("<meta name='DC.creator' content='van der Berg, Anna'>", "Anna van der Berg"),
    ("<meta name='citation_author' content='Jane Doe'>", "Jane Doe"),
    ("<meta name='author' content='Jane Doe, John Roe'>", "Jane Doe; John Roe"),   # a plain author: a list
])
def test_an_author_written_surname_first(metas, author):
    html = f"<html><head>{metas}</head><body><h1>H</h1><p>Body text.</p></body></html>"
    assert meta(html).author == author


@pytest.mark.parametrize("head, site", [
    ("<title>Ten Ways to Cook Rice | Kitchen Daily</title>", "Kitchen Daily"),
    ("<title>Kitchen Daily - Ten Ways to Cook Rice</title>", None),         # the site first: not read
    ("<title>Ten Ways to Cook Rice | Kitchen Daily</title><meta property='og:site_name' content='KD'>", "KD"),
    ("<title>Ten Ways to Cook Rice | Home</title>", None),                  # a navigation word
    ("<title>Ten Ways to Cook Rice | Top 10 of 2025</title>", None),        # digits: not a name
    ("<title>Ten Ways to Cook Rice | Recipes | Kitchen Daily</title>", None),   # three parts: which?
    ("<title>Kitchen Daily</title>", None),
])
def test_the_site_name_from_the_other_part_of_the_title(head, site):
    html = f"<html><head>{head}</head><body><h1>Ten Ways to Cook Rice</h1><p>Body text.</p></body></html>"
    m = meta(html)
    assert m.sitename == site
    if site == "Kitchen Daily":
        assert m.source["sitename"] == "title"


@pytest.mark.parametrize("value, author", [
    ("Jane Doe - Staff Writer", "Jane Doe"), ("Jane Doe – Senior Editor", "Jane Doe"),   # a role after a dash
    ("Jane Doe - CNN", "Jane Doe - CNN"),                     # (no role word: kept as the page gives it)
    ("Jane Doe (@janedoe)", "Jane Doe"), ("Jane Doe <jane@example.com>", "Jane Doe"),   # a handle, an address
    ("Mary-Jane Doe", "Mary-Jane Doe"),
])
def test_an_author_value_with_a_role_or_a_contact(value, author):
    html = f"<html><head><meta name='author' content='{value}'></head><body><h1>H</h1><p>Body text.</p></body></html>"
    assert meta(html).author == author
    html = f"<html><body><h1>A headline for the story</h1><p>By {value}</p><p>Body text.</p></body></html>"
    assert meta(html).author == author


def test_json_ld_in_a_meta_element():
    # Remix's meta export writes JSON-LD into <meta name="script:ld+json" content="...">
    ld = json.dumps({"@context": "https://schema.org", "@type": "Article", "headline": "Full EV Cars",
                     "datePublished": "2025-11-17T09:00:00-05:00", "author": {"@type": "Person", "name": "Ann Lee"}})
    html = f"<html><head><meta name='script:ld+json' content='{ld}'></head><body><h1>x</h1></body></html>"
    m = meta(html)
    assert (m.date, m.source["date"], m.author, m.source["author"]) == ("2025-11-17", "json-ld", "Ann Lee", "json-ld")


@pytest.mark.parametrize("label", ["Joined:", "Founded:", "Member since", "Registered:", "Last seen:"])
def test_a_forum_profile_date_is_not_the_page_date(label):
    # phpBB: the poster's profile (its account's date) sits before the post and its dateline
    html = ("<html><body><h1>Forum</h1><h3>MLS is Back!</h3>"
            f"<dl><dd><strong>Posts:</strong> 4032</dd><dd><strong>{label}</strong> Dec 11, 2021</dd></dl>"
            "<p class='author'>by <a>Outer</a> &raquo; Tue Aug 27, 2019 1:47 am</p><div>Post body.</div>"
            "</body></html>")
    assert meta(html).date == "2019-08-27"


def _menu(label, n):
    """A menu of `n` links ("<li><a href='/x0'>Label 0</a></li>"...) between a heading and the
    evidence the tests place far from it."""
    return "".join(f"<li><a href='/x{i}'>{label} {i}</a></li>" for i in range(n))


def test_a_logo_h1_leaves_the_headline_to_the_h2_holding_the_title():
    # SMF: the h1 is the forum's logo (no text), a clock of the time the page was served sits
    # after it, and the topic's subject is an h2 with its first post's date under it
    filler = _menu("Board", 12)
    html = ("<html><head><title>Is AI in SMF forums useful?</title></head><body>"
            "<h1 class='forumtitle'><a href='/'><img src='logo.png' alt=''></a></h1>"
            "<div class='user'><time datetime='2026-03-05T12:16:19Z'>March 05, 2026, 07:16:19 AM</time></div>"
            f"<ul>{filler}</ul><h2 class='display_title'>Is AI in SMF forums useful?</h2>"
            "<div class='keyinfo'><a href='?msg=1' class='smalltext'>June 04, 2024, 11:23:55 AM</a></div>"
            "<div class='post'>Body.</div>"
            "</body></html>")
    assert meta(html).date == "2024-06-04"
    # with a headline h1 the h2s are not read: the date nearest the h1 stays
    assert meta(html.replace("<img src='logo.png' alt=''>", "Forum")).date == "2026-03-05"


def test_bylines_and_datelines_are_measured_from_the_h1_that_holds_the_title():
    # a newspaper's section h1 with a columnist's promo and the day's date beside it, then the
    # story's own h1, byline and dateline further down
    filler = _menu("Section", 20)
    page = ("<html><head><title>Stars slam arts council grant cuts</title></head><body>"
            "<h1>{first}</h1><div class='date'>TUESDAY, JAN 15, 2008</div>"
            "<div class='promo'><p class='byline'>Simon Jenkins</p></div>"
            f"<ul>{filler}</ul>"
            "<h1>{story}</h1><p class='byline'>Veronica Schmidt</p><p>9th January 2008</p>"
            "<p>The story.</p></body></html>")
    m = meta(page.format(first="Kid's TV", story="Stars slam arts council grant cuts"))
    assert (m.author, m.date) == ("Veronica Schmidt", "2008-01-09")
    # the first h1 holds the title, or is a part of it: it stays the headline
    for first in ("Stars slam arts council grant cuts", "Stars slam arts council"):
        m = meta(page.format(first=first, story="Stars slam arts council grant cuts"))
        assert (m.author, m.date) == ("Simon Jenkins", "2008-01-15")


@pytest.mark.parametrize("href, title", [
    ("http://webinknow.example.com/", "Metro Bank is building marketing success"),
    ("/", "Metro Bank is building marketing success"),
    ("index.html?ref=logo", "Metro Bank is building marketing success"),
    # a link to the post itself: the h1 is the page's own (the <title>'s first part)
    ("/2012/11/metro-bank.html", "Web Ink Now"),
])
def test_an_h1_linking_to_the_home_page_is_the_sites_name(href, title):
    html = ("<html><head><title>Web Ink Now: Metro Bank is building marketing success</title></head>"
            f"<body><h1><a href='{href}'>Web Ink Now</a></h1>"
            "<h3>Metro Bank is building marketing success</h3><p>The post.</p></body></html>")
    assert meta(html).title == title


@pytest.mark.parametrize("byline, author", [
    ("By JASON STRAZIUSO Associated Press", "JASON STRAZIUSO"),
    ("By KAREN MATTHEWS THE ASSOCIATED PRESS", "KAREN MATTHEWS"),
    ("By Pete Yost, Associated Press", "Pete Yost"),
    ("By Richard Beeston: Analysis", "Richard Beeston"),
    ("By David Richards, Monday", "David Richards"),
    ("By The Associated Press", "The Associated Press"),     # an agency's own byline stays
    ("By Thursday Bram", "Thursday Bram"),                   # a weekday that opens a name is the name
])
def test_an_agency_or_a_weekday_after_the_name_is_no_part_of_it(byline, author):
    html = (f"<html><head><title>Storm hits the coast</title></head><body><h1>Storm hits the coast</h1>"
            f"<p class='byline'>{byline}</p><p>The story.</p></body></html>")
    assert meta(html).author == author


def test_wordpress_blog_archive_is_no_part_of_the_title():
    html = ("<html><head><title>dy/dan &raquo; Blog Archive &raquo; 1,400 Rectangles</title></head>"
            "<body><h1><a href='http://blog.mrmeyer.com/'>dy/dan</a></h1><p>The post.</p></body></html>")
    assert meta(html).title == "1,400 Rectangles"


def _ld_page(ld, body, head=""):
    """A page whose head holds `head` and then one JSON-LD script `ld`, and whose body is `body`."""
    return f"<html><head>{head}<script type='application/ld+json'>{ld}</script></head><body>{body}</body></html>"


def _dateline_page(h1, line, lang=None):
    """A page of a headline, one dateline (class "date") and a paragraph; `lang` on <html>."""
    attr = f" lang='{lang}'" if lang else ""
    return f"<html{attr}><body><h1>{h1}</h1><p class='date'>{line}</p><p>Text.</p></body></html>"


@pytest.mark.parametrize("lang, out", [("de", "2008-01-06"), ("fr-FR", "2008-01-06"), ("en", "2008-06-01"),
                                       ("en-US", "2008-06-01"), (None, "2008-06-01")])
def test_an_ambiguous_numeric_dateline_is_read_as_the_pages_language_writes_it(lang, out):
    assert meta(_dateline_page("Harmony One", "06.01.2008 01:07", lang)).date == out


def test_microdata_date_is_the_first_in_page_order():
    # a forum: the question's dateCreated comes before its comments' datePublished
    html = ("<html><body><h1>Why is except: pass bad?</h1>"
            "<time itemprop='dateCreated' datetime='2014-02-04T13:02:51Z'>Feb 4, 2014</time><p>Body.</p>"
            "<div class='comment'><span itemprop='datePublished'>2018-05-21 20:37:55 +00:00</span></div>"
            "</body></html>")
    m = meta(html)
    assert m.date == "2014-02-04" and m.source["date"] == "microdata"


def test_meta_named_published_is_a_date():
    m = meta("<html><head><meta name='published' content='July 17, 2025'></head><body><p>x</p></body></html>")
    assert m.date == "2025-07-17" and m.source["date"] == "meta"


@pytest.mark.parametrize("shown, meta_date, out", [
    ("January 31, 2024", "2025-11-05", "2024-01-31"),    # an older dateline beside the headline: the first publication
    ("November 4, 2025", "2025-11-05", "2025-11-05"),    # a day earlier: a time-zone shift, the metadata stays
    ("January 31, 2026", "2025-11-05", "2025-11-05"),    # a later one (an update) does not overrule it
])
def test_dateline_beside_the_headline_against_the_metadata_date(shown, meta_date, out):
    html = _ld_page(f'{{"@type": "Article", "datePublished": "{meta_date}"}}',
                    f"<h1>How much to pay</h1><p class='date'>{shown}</p><p>Text.</p>")
    m = meta(html)
    assert m.date == out
    assert m.source["date"] == ("byline" if out != meta_date else "json-ld")


def test_the_metadata_date_shown_only_as_an_update_gives_way_to_the_earlier_dateline():
    # "Apr 26, 2023" under the headline, then "Updated Aug 21, 2025": the metadata's date is the revision's
    html = _ld_page('{"@type": "Article", "datePublished": "2025-08-21"}',
                    "<h1>How much to pay</h1><p class='date'>Apr 26, 2023</p>"
                    "<p class='updated'>Updated Aug 21, 2025</p><p>Text.</p>")
    m = meta(html)
    assert m.date == "2023-04-26" and m.source["date"] == "byline"


def test_an_embedded_videos_upload_date_gives_way_to_the_pages_meta_date():
    # a forum post quoting a clip: the VideoObject is the only JSON-LD, the post's date is in <meta>
    html = _ld_page('{"@type": "VideoObject", "name": "A clip", "uploadDate": "2024-06-07T02:17:25Z"}',
                    "<h1>My take</h1><p>Text.</p>",
                    head="<meta property='article:published_time' content='2024-06-02T15:24:08+00:00'>")
    m = meta(html)
    assert m.date == "2024-06-02" and m.source["date"] == "meta"
    # a video page with no other date keeps it
    alone = html.replace("<meta property='article:published_time' content='2024-06-02T15:24:08+00:00'>", "")
    assert meta(alone).date == "2024-06-07"


@pytest.mark.parametrize("kind", ["Product", "Course"])
def test_a_listing_has_no_publication_date(kind):
    # a shop's product (a Shopify listing's creation day in its JSON-LD and <meta>, a review's date
    # under it), a catalogue's course: the page's gold has no date
    html = ("<html><head><meta property='article:published_time' content='2018-12-22T10:00:00Z'>"
            f"<script type='application/ld+json'>[{{\"@type\": \"{kind}\", \"name\": \"Blue Cup\", "
            "\"datePublished\": \"2018-12-22\", \"dateModified\": \"2024-01-05\"}, "
            "{\"@type\": \"WebPage\", \"datePublished\": \"2018-12-22\"}]</script></head>"
            "<body><h1>Blue Cup</h1><p class='date'>Reviewed March 3, 2024</p><p>Price: $12.</p></body></html>")
    m = meta(html)
    assert m.date is None and m.date_modified == "2024-01-05"
    # a review of the product: the story's date is the page's
    review = html.replace("}]</script>", "}, {\"@type\": \"Review\", \"datePublished\": \"2024-03-03\"}]</script>")
    assert meta(review).date is not None


@pytest.mark.parametrize("label, out", [
    ("Travel through", None),              # an offer's period
    ("Offer valid until", None),
    ("Sources: Morningstar, as of", None),  # a figure's date
    ("Posted on", "2025-12-31"),
])
def test_a_deadline_is_not_a_dateline(label, out):
    assert meta(_dateline_page("Fly to Maui", f"{label} December 31, 2025")).date == out


def test_a_deadline_is_read_from_the_words_next_to_a_date_of_its_own():
    # the date a text node of its own after a long sentence (a comment splits the text): the label
    # is the words nearest the date, not the sentence's start
    html = ("<html><body><h1>Electricians near Ponchatoula</h1><p>This estimate is based on actual data from "
            "31 completed projects in the Ponchatoula area and is valid through<!-- --> 01/23/2026</p>"
            "<p>Text.</p></body></html>")
    assert meta(html).date is None
    assert meta(html.replace("is valid through", "was last checked on")).date == "2026-01-23"


def test_a_dateline_far_from_the_headline_does_not_overrule_the_metadata():
    filler = "".join(f"<p>Paragraph {i}.</p>" for i in range(60))
    html = ("<html><head><meta property='article:published_time' content='2025-03-04T10:00:00Z'></head>"
            f"<body><h1>Tips</h1>{filler}<p class='post_date'>August 12, 2024</p></body></html>")
    assert meta(html).date == "2025-03-04"


@pytest.mark.parametrize("cls, found", [
    ("flex items-center gap-2 text-sm text-gray-600 post-Author-name", True),   # the word deep in a long value
    ("mt-4 md:flex BYLINE", True),
    ("entry-meta__writer", True),
    ("au by da pu po wr us ti so", False),       # the words' first letters alone name nothing
    ("flex items-center gap-2 text-sm", False),
    ("authorized", False),                       # a permission, not an author
])
def test_author_element_found_by_its_class_words(cls, found):
    html = (f"<html><body><h1>Ten ways to cook rice</h1><div class='{cls}'>Jane Doe</div>"
            "<p>Rinse the rice.</p></body></html>")
    m = meta(html)
    assert (m.author == "Jane Doe") is found
    if found:
        assert m.source["author"] == "byline"


def test_chinese_bylines():
    html = ("<html><head><meta charset='utf-8'><title>新闻标题_新华网</title></head><body>"
            "<h1>新闻标题</h1><div class='info'>2019-12-10 07:57:40 来源： 新华网</div>"
            "<p>新华社巴黎12月9日电（记者唐霁）法国9日再次爆发全国跨行业大罢工。</p>"
            "<p>【纠错】 责任编辑： 尹世杰</p></body></html>")
    m = meta(html.encode("utf-8"))
    assert m.author == "唐霁" and m.date == "2019-12-10"
    html = ("<html><body><h1>标题</h1><div>发布时间：2020年6月5日 作者：未知 责任编辑：张三</div>"
            "<div>来源：环球网</div></body></html>")
    m = meta(html)
    assert m.date == "2020-06-05" and m.author == "环球网"       # 未知 (unknown) and editors are not authors


@pytest.mark.parametrize("line, author", [
    ("来源：本站原创 作者：医技药剂党支部 时间：2019-10-31", "医技药剂党支部"),   # a unit after "作者："; 时间 is a label
    ("作者：张三 时间：2019-10-31", "张三"),
    ("来源：当代商报 时间：2019-09-23 作者：</span><span>转载请注明：本站", "当代商报"),   # a label is no name
    ("来源于：东区办事处", "东区办事处"),
    # the writer's and source's labels found in a plain paragraph, not only in a classed element
    ("文/张三", "张三"), ("文 / 张三", "张三"), ("文／张三", "张三"),
    ("撰文：张三", "张三"), ("撰稿：张三", "张三"), ("采写：张三", "张三"),
    ("【作者】张三", "张三"), ("[记者] 张三", "张三"),
    ("記者王小明／台北報導", "王小明"), ("【記者王小明／台北報導】", "王小明"), ("记者王明/北京报道", "王明"),
    ("记者/编辑：王五", None),
    ("稿源：新华社", "新华社"), ("来源 | 新华社", "新华社"), ("来源丨新华社", "新华社"),
    ("本文/张三", None), ("论文/研究", None), ("中文/英文", None), ("文/图：张三", None),
])
def test_chinese_author_lines(line, author):
    html = f"<html><body><h1>新闻标题在这里</h1><div>{line}</div><p>正文内容。</p></body></html>"
    assert meta(html.encode("utf-8")).author == author


@pytest.mark.parametrize("shown, modified, date", [
    ("发布时间：09-30", "2019-09-30 22:46:13", "2019-09-30"),      # Baijiahao: the day, no year
    ("发布时间：18-03-08", "2018-03-08 23:16:24", "2018-03-08"),   # a two-digit year
    ("发布于 9月30日", "2019-09-30T22:46:13", "2019-09-30"),
    ("Posted 09/30", "2025-09-30", "2025-09-30"),
    ("发布时间：09-29", "2019-09-30 22:46:13", None),              # another day: no year to give it
    ("发布时间：17-09-30", "2019-09-30 22:46:13", None),           # another year
    ("09-30", "2019-09-30 22:46:13", None),                        # no publication label
])
def test_a_yearless_dateline_takes_the_year_of_the_modified_date(shown, modified, date):
    html = (f"<html><head><meta charset='utf-8'><meta itemprop='dateUpdate' content='{modified}'></head>"
            f"<body><h1>标题 title</h1><div class='author-txt'><p class='author-name'>IT之家</p>"
            f"<span class='date'>{shown}</span><span class='time'>22:46</span></div>"
            "<p>正文。Body text of the page.</p></body></html>")
    m = meta(html.encode("utf-8"))
    assert m.date_modified == modified[:10]
    assert m.date == date
    if date:
        assert m.source["date"] == "byline"


@pytest.mark.parametrize("text, iso", [
    ("2025-09-04T12:50:36+00:00", "2025-09-04"), ("September 4, 2025", "2025-09-04"),
    ("Sept. 4th, 2025", "2025-09-04"), ("4 September 2025", "2025-09-04"), ("04.09.2025", "2025-04-09"),
    ("13/11/2025 09:21", "2025-11-13"), ("2025年9月4日", "2025-09-04"), ("2023 Jan 7", "2023-01-07"),
    ("le 3 mars 2021", "2021-03-03"), ("20250904", "2025-09-04"), ("2025/9/4", "2025-09-04"),
    ("Updated: Dec 1, 2024 at 5 PM", "2024-12-01"),
])
def test_parse_date(text, iso):
    assert parse_date(text) == iso


@pytest.mark.parametrize("text", ["3 days ago", "yesterday", "2 hours ago", "today 10:00", "1850-01-01",
                                  "2199-01-01", "2025-02-30", "version 2.0.1", "", "Copyright 2024",
                                  "5 Minute Read", "page 2019"])
def test_parse_date_rejects(text):
    assert parse_date(text) is None


def test_url_date():
    assert url_date("https://x.example/2025/12/18/post") == "2025-12-18"
    assert url_date("https://x.example/blog/2023/october/03/post") == "2023-10-03"
    assert url_date("https://x.example/2023/shop/03/post") is None            # not a month
    assert url_date("https://x.example/news/20250904/post.html") == "2025-09-04"
    assert url_date("https://x.example/p/1995123/post.html") is None          # an id, not a date
    assert url_date("https://x.example/2025/12/") is None                     # no day
    # the TRS publishing system's page files (Chinese government and news sites)
    assert url_date("http://www.ndrc.gov.cn/xwdt/t20190907_123456.html") == "2019-09-07"
    assert url_date("http://www.mof.gov.cn/zhengwuxinxi/t20190907_3375218.htm") == "2019-09-07"
    assert url_date("http://x.example/t20191332_1.html") is None              # no 13th month
    assert url_date("http://x.example/tools/t2019.html") is None


@pytest.mark.parametrize("title, site, host, out", [
    ("Ten Ways | Kitchen Daily", "Kitchen Daily", None, "Ten Ways"),
    ("Kitchen Daily - Ten Ways to Cook", None, "www.kitchendaily.com", "Ten Ways to Cook"),
    ("How We Cook Rice at Home — Kitchen", None, None, "How We Cook Rice at Home"),
    ("Rice: a history", None, None, "Rice: a history"),
    ("A - B", None, None, "A - B"),
    ("Electrical - Overview | Occupational Safety and Health Administration", None, "www.osha.gov",
     "Electrical - Overview"),                                        # the host's initials
    ("Overview | Office of Safety Health Administration Topics", None, "www.osha.gov",
     "Overview | Office of Safety Health Administration Topics"),     # "oshat": not the site
    ("NationStates • View topic - 2025-26 Football Season: MLS is Back!", None, "forum.nationstates.net",
     "2025-26 Football Season: MLS is Back!"),                        # phpBB's "View topic"
    ("View from the top - Alpine Journal", None, None, "View from the top"),
    # CJK titles: unspaced separators next to a CJK character, the section and the site dropped
    ("女童眼睛被塞几十片纸，“无法用科学解释”_凤凰网资讯_凤凰网", None, None, "女童眼睛被塞几十片纸，“无法用科学解释”"),
    ("法国全国大罢工再次严重影响交通-新华网", None, "www.xinhuanet.com", "法国全国大罢工再次严重影响交通"),
    ("山西品牌丝路行（南美站）正式启动 - 山西省人民政府门户网站", None, None, "山西品牌丝路行（南美站）正式启动"),
    ("1-10月德清县固定资产投资结构趋稳趋优", None, None, "1-10月德清县固定资产投资结构趋稳趋优"),   # digits: no separator
    ("新闻动态--中国地理学会官网", None, None, "新闻动态--中国地理学会官网"),     # no headline of 6 characters before it
    ("GPT-4 and snake_case | Blog", None, None, "GPT-4 and snake_case"),          # ASCII: only spaced separators
])
def test_strip_site_suffix(title, site, host, out):
    assert strip_site_suffix(title, site, host) == out


@pytest.mark.parametrize("title, parts", [
    ("标题内容在这里_栏目_网站", ["标题内容在这里", "栏目", "网站"]),
    ("游戏新闻标题！|游民星空", ["游戏新闻标题！", "游民星空"]),
    ("决议__2007年第23号公报", ["决议", "2007年第23号公报"]),             # a run of separators is one
    ("Wi-Fi 6E-ready routers", ["Wi-Fi 6E-ready routers"]),
    ("用户信息 - 第2页", ["用户信息", "第2页"]),
])
def test_title_split_reads_cjk_separators(title, parts):
    assert _core.meta_title_split(title) == parts


def test_an_og_title_cut_at_an_unescaped_quote_is_completed_from_the_title():
    # content="A "B" C": lexbor ends the value at the second quote
    html = ('<html><head><meta charset="utf-8"><title>多地项目连环爆雷 狂奔的龙湖集团"暗伤"曝露？_网易财经</title>'
            '<meta property="og:title" content="多地项目连环爆雷 狂奔的龙湖集团"暗伤"曝露？"></head>'
            '<body><p>正文。</p></body></html>')
    m = meta(html)
    assert m.title == '多地项目连环爆雷 狂奔的龙湖集团"暗伤"曝露？'
    # a <title> that goes on after the og:title without a quote is not the same headline
    html = ("<html><head><title>Ten Ways to Cook Rice at Home | Kitchen Daily</title>"
            "<meta property='og:title' content='Ten Ways to Cook Rice'></head><body><p>Text.</p></body></html>")
    assert meta(html).title == "Ten Ways to Cook Rice"


@pytest.mark.parametrize("h1, out", [
    ('How AI Can Cut Your Planning <span class="hand">C</span>ycle From Two Weeks',
     "How AI Can Cut Your Planning Cycle From Two Weeks"),              # a drop capital
    ("<span>Pro B402HW Staubsaugerzub<wbr>ehör</span>", "Pro B402HW Staubsaugerzubehör"),
    ("Build fast.<br>Run any <em>code</em> fearlessly.", "Build fast. Run any code fearlessly."),
    ("<div>Augustinus Bader</div><div>The Cream</div>", "Augustinus Bader The Cream"),
    ("<a href='/'>Tom</a> <b>&amp;</b> Jerry", "Tom & Jerry"),
])
def test_the_h1_is_read_as_a_reader_sees_it(h1, out):
    # the pieces of inline elements are joined as the source has them; a block or <br> between
    # two pieces is a space
    m = meta(f"<html><body><h1>{h1}</h1><p>Text.</p></body></html>")
    assert m.title == out and m.source["title"] == "h1"


@pytest.mark.parametrize("title, out", [
    ("itertools \xe2\x80\x94 Functions creating iterators\xc2\xb6", "itertools — Functions creating iterators¶"),
    ("Caf\xc3\xa9 \xe2\x80\x93 Men\xc3\xbc", "Café – Menü"),
    ("Caf\xc3\xa9 Men\xc3\xbc", "Caf\xc3\xa9 Men\xc3\xbc"),      # no C1 control: Latin-1 text as written
    ("Ã la carte \x81 Menu", "Ã la carte \x81 Menu"),                 # no UTF-8 sequence to put back
])
def test_a_title_encoded_twice_is_put_back(title, out):
    # the page's bytes hold its UTF-8 text encoded once more as if it were Latin-1
    m = meta(f"<html><head><title>{title}</title></head><body><p>Text.</p></body></html>")
    assert m.title == out


def test_a_navigation_word_alone_is_not_the_title():
    head = ("<title>Home - Ohio Artisan Collective</title><meta property='og:title' content='Home - Ohio"
            " Artisan Collective'><meta property='og:site_name' content='Ohio Artisan Collective'>")
    m = meta(f"<html><head>{head}</head><body><h1>Support Small, Buy Artisan</h1></body></html>",
             url="https://ohioartisancollective.com/")
    assert m.title == "Home - Ohio Artisan Collective" and m.source["title"] == "title"
    # the h1 taken for the last part of the title ("Products", then the h1 "Air Purifiers")
    m = meta("<html><head><title>Products - Air Purifiers - Clorox Home Appliances</title></head>"
             "<body><h1>Air Purifiers</h1></body></html>",
             url="https://cloroxhomeappliances.com/products/air-purifiers/")
    assert m.title == "Air Purifiers" and m.source["title"] == "h1"
    # an h1 saying the word confirms it
    m = meta("<html><head><title>About – Glossier</title></head><body><h1>About</h1></body></html>",
             url="https://uk.glossier.com/pages/about")
    assert m.title == "About"


@pytest.mark.parametrize("title, out", [
    ("What happened with Arch Linux ISO in 2024 / Arch Discussion / Arch Linux Forums",
     "What happened with Arch Linux ISO in 2024"),                      # topic / forum / site
    ("Hybrid Quantum And Classical Computing - Programming - Arch Linux Forums",
     "Hybrid Quantum And Classical Computing"),
    ("Best Movers in NYC 2025 | Top 19 Companies | Arch Linux Forums",
     "Best Movers in NYC 2025 | Top 19 Companies"),                     # a number: no forum's name
    ("Wired, Wireless | Smart Doorbells | Arch Linux Forums",
     "Wired, Wireless | Smart Doorbells"),                              # a topic of 2 words
])
def test_a_forum_title_loses_its_section_with_the_site(title, out):
    html = f"<html><head><title>{title}</title></head><body><h1>Arch Linux</h1></body></html>"
    m = meta(html, url="https://bbs.archlinux.org/viewtopic.php?id=309936")
    assert m.title == out and m.source["title"] == "title"
    # after an og:title (the site's own metadata) the rule does not apply
    og = f"<meta property='og:title' content='{title}'>"
    assert meta(html.replace("<head>", "<head>" + og), url="https://bbs.archlinux.org/t").title \
        == strip_site_suffix(title, None, "bbs.archlinux.org")


_FIVERR = "Writing &amp; Translation Services | Freelance Writers and Expert Translators | Fiverr"
_REI = "Headlamps for Camping, Hiking &amp; Running | REI Co-op"


@pytest.mark.parametrize("og, site, h1, out", [
    (_FIVERR, "Fiverr", "Writing &amp; Translation", "Writing & Translation"),   # every word in the candidate
    (_FIVERR, "Fiverr", "Expert Writing Services", "Expert Writing Services"),
    (_FIVERR, "Fiverr", "Translation Jobs", "Writing & Translation Services | Freelance Writers and Expert Translators"),
    (_REI, "REI Co-op", "Headlamps", "Headlamps"),                    # one word opening the candidate
    (_REI, "REI Co-op", "Hiking", "Headlamps for Camping, Hiking & Running"),    # a word inside it: not the title
    (_REI, "REI Co-op", "Camping Trips", "Headlamps for Camping, Hiking & Running"),
])
def test_an_h1_made_of_the_candidates_words_is_the_title(og, site, h1, out):
    html = (f"<html><head><meta property='og:title' content='{og}'><meta property='og:site_name' content='{site}'>"
            f"</head><body><h1>{h1}</h1><p>Text.</p></body></html>")
    assert meta(html, url="https://www.example.com/c/x", kind="article").title == out


def test_malformed_json_ld_is_tolerated():
    html = ("<html><head><script type='application/ld+json'>{\"@type\": \"Article\", \"headline\": \"H\","
            " \"author\": {\"name\": \"A Writer\"},}</script>"
            "<script type='application/ld+json'>{not json</script>"
            "<script type='application/ld+json'><!-- {\"@type\": \"BlogPosting\"} --></script>"
            "</head><body><p>x</p></body></html>")
    m = meta(html)
    assert m.title == "H" and m.author == "A Writer" and m.type == "Article"


def test_scan_reads_tags_as_the_parser_makes_them():
    """<meta>, <link> and JSON-LD are read from the elements the HTML parser made, wherever
    they are: what it does not make a tag (comments, script and style text, RCDATA) and template
    contents are not read; attribute values come decoded, as the parser decodes them."""
    html = """<html lang=de><head><!-- <meta name="author" content="Commented Out"> -->
<script>var s = '<meta name="description" content="In a script">';</script>
<style>/* <meta property="og:title" content="In a style"> */</style>
<title>A &lt;meta name=keywords content=no&gt; title</title>
<meta property="og:title" content='Tom &amp; Jerry "Live"'>
<META NAME="Author" CONTENT="Ana&#32;Lima">
<meta name=twitter:description content=unquoted>
<meta name="description" content="line one\r\nline two">
<base href="https://cdn.example/"><base href="https://second.example/">
<link rel="canonical" href="/a?x=1&amp;y=2">
</head><body>
<template><meta name="category" content="in template"></template>
<div data-x='a > b'><h1>Tom &amp; Jerry</h1></div>
<meta itemprop="datePublished" content="2024-02-03">
<script type="application/ld&#x2B;json">{"@type": "Article", "headline": "From JSON-LD"}</script>
</body></html>"""
    d = fastx.parse(html)
    metas, multi, recs = fastx._core.meta_scan(d)
    assert metas["og:title"] == 'Tom & Jerry "Live"'
    assert metas["author"] == "Ana Lima" and multi["author"] == ["Ana Lima"]
    assert metas["twitter:description"] == "unquoted"
    assert metas["description"] == "line one\nline two"
    assert metas["datepublished"] == "2024-02-03"
    for absent in ("category", "keywords"):
        assert absent not in metas
    assert [r[2] for r in recs if r[0] == 9] == ["https://cdn.example/"]       # the first <base>
    assert [r[2] for r in recs if r[0] == 1] == ["/a?x=1&y=2"]
    assert [r[2] for r in recs if r[0] == 3] == ["de"]
    assert [r[2] for r in recs if r[0] == 2] == ['{"@type": "Article", "headline": "From JSON-LD"}']
    # every <meta> lexbor makes is read, with the same value
    for node in d.parser.css("meta"):
        a = node.attributes
        key = (a.get("property") or a.get("name") or a.get("itemprop") or "").lower()
        if key in ("og:title", "author", "description", "datepublished"):
            assert metas[key] == a["content"].replace("\r\n", "\n").strip()
    m = extract_metadata(d)
    assert m.author == "Ana Lima" and m.date == "2024-02-03" and m.language == "de"


def test_hostile_pages_stay_bounded():
    many = "".join(f"<meta name='k{i}' content='{'v' * 50}'>" for i in range(5000))
    deep = "<div class='author'>" * 3000 + "By Deep Name" + "</div>" * 3000
    hints = "".join(f"<span class='date'>{i}</span>" for i in range(20000))
    tags = "<s" * 200000 + "<meta a" * 100000 + "<!-" * 100000     # each '<' opens a name that never ends
    for html in (many, deep, hints, tags, "<script type='application/ld+json'>" + "[" * 100000 + "</script>",
                 "<html lang='" + "x" * 10000 + "'>", ""):
        m = meta(html)
        assert isinstance(m, Metadata)


def test_output_is_text_not_markup():
    html = ("<html><head><title>&lt;script&gt;alert(1)&lt;/script&gt; | S</title>"
            "<meta property='og:image' content='javascript:alert(1)'></head><body></body></html>")
    m = meta(html, url="https://s.example/")
    assert m.image is None and "<script>" in m.title       # a text field: the consumer escapes it


def test_show_report_has_metadata_escaped():
    from fastx.show import metadata_html
    html = "<html><head><title>A &lt;b&gt; title</title><meta name=author content='<i>Ann Lee'></head><body></body></html>"
    out = metadata_html(fastx.parse(html))
    assert "&lt;b&gt;" in out and "&lt;i&gt;Ann Lee" in out and "<i>Ann" not in out and ">meta<" in out


def test_batch_records_and_parquet_have_the_fields(tmp_path):
    from fastx import batch
    assert set(FIELDS) <= set(batch._RECORD_FIELDS)
    recs = list(fastx.extract_many([ARTICLE, b"%PDF-1.4 x"], method="cetd", jobs=0))
    assert recs[0]["author"] == "Ana Lima; Bo Chen" and recs[0]["date"] == "2024-03-04"
    assert recs[1]["error"].startswith("InputError: not HTML")
    from fastx import spark
    assert set(spark.METADATA_FIELDS) | {"title", "description"} == set(FIELDS)


@pytest.mark.needs_shared
def test_zh_news_pages_give_author_and_date():
    """The 62 Chinese news pages: most give a date and an author or source from their own pages."""
    import sys
    sys.path.insert(0, str(SHARED / "tools"))
    try:
        from compare import unpack
    except ImportError:
        pytest.skip("../shared/tools/compare.py not present")
    root = unpack("zh-news-unlabeled")
    files = sorted(root.rglob("*.htm*"))
    assert len(files) >= 60
    dated = authored = 0
    for f in files:
        m = meta(f.read_bytes())
        dated += m.date is not None
        authored += m.author is not None
    assert dated >= 0.85 * len(files) and authored >= 0.75 * len(files)


def test_an_h1_sharing_half_the_words_of_another_candidate_is_the_title():
    # the JSON-LD headline (the most trusted candidate) names another thing than the page; the
    # <title> and the h1 agree
    head = ("<title>Terminix Discounts, Coupons &amp; Promo Codes | Terminix</title>"
            "<script type='application/ld+json'>{\"@type\": \"Article\", \"headline\": "
            "\"Pest Control Deals and Offers\"}</script>")
    html = f"<html><head>{head}</head><body><h1>%s</h1><p>Text.</p></body></html>"
    m = meta(html % "Terminix discounts, coupons, and promo codes", url="https://www.terminix.com/coupons/")
    assert m.title == "Terminix discounts, coupons, and promo codes" and m.source["title"] == "h1"
    m = meta(html % "Our Latest Offers", url="https://www.terminix.com/coupons/")      # no other candidate's words
    assert m.title == "Pest Control Deals and Offers" and m.source["title"] == "json-ld"


@pytest.mark.parametrize("h1, out, source", [
    ("News Digital Cameras: A 2024 Status Symbol", "Digital Cameras: A 2024 Status Symbol", "title"),  # a badge before it
    ("Digital Cameras: A 2024 Status Symbol for Collectors",
     "Digital Cameras: A 2024 Status Symbol for Collectors", "h1"),       # the h1 goes on where the <title> cut
])
def test_the_first_segment_of_a_candidate_inside_the_h1(h1, out, source):
    html = ("<html><head><title>Digital Cameras: A 2024 Status Symbol - Photo Talk | Cameraderie</title></head>"
            f"<body><h1>{h1}</h1><p>Text.</p></body></html>")
    m = meta(html, url="https://cameraderie.org/threads/digital-cameras.56948/")
    assert m.title == out and m.source["title"] == source


@pytest.mark.parametrize("kind, out, source", [
    ("service", "Cloud Based HR Software", "title"),        # a landing page's h1 is its slogan
    ("article", "HR software for every business", "h1"),    # elsewhere the visible headline wins
])
def test_a_landing_pages_h1_is_a_slogan(kind, out, source):
    html = ("<html><head><title>Cloud Based HR Software | Zoho People</title></head>"
            "<body><h1>HR software for every business</h1><p>Text.</p></body></html>")
    doc = fastx.parse(html, url="https://www.zoho.com/people/")
    asked = []
    m = _core.meta_resolve(doc, None, Metadata, lambda: asked.append(kind) or kind)
    assert (m.title, m.source["title"]) == (out, source) and asked == [kind]
    # the rule asks only when the h1 is chosen by the overlap of words: an h1 equal to the
    # <title>'s headline is the title on every page type, without asking
    same = fastx.parse(html.replace("HR software for every business", "Cloud Based HR Software"))
    assert _core.meta_resolve(same, None, Metadata, lambda: asked.append("again") or kind).title == \
        "Cloud Based HR Software" and asked == [kind]


@pytest.mark.parametrize("ld, kind, out, source", [
    # the company as a Product (for its rating stars) on a service page: the page's og:title
    ('{"@type": "Product", "name": "Salesforce CRM"}', "service", "Salesforce CRM: Try The World's #1 AI CRM",
     "opengraph"),
    # an FAQ's Question on a service page
    ('{"@type": "Question", "name": "Can I manage large-scale content with the CMS?"}', "service",
     "Salesforce CRM: Try The World's #1 AI CRM", "opengraph"),
    # a VideoObject (a clip embedded in the page) on any page
    ('{"@type": "VideoObject", "name": "WV_Marketing Hub_FINAL"}', "article",
     "Salesforce CRM: Try The World's #1 AI CRM", "opengraph"),
    # on a product page the Product is the page's own entity
    ('{"@type": "Product", "name": "Salesforce CRM"}', "product", "Salesforce CRM", "json-ld"),
    # a story on a service page stays first
    ('{"@type": "Article", "headline": "Salesforce CRM Explained"}', "service", "Salesforce CRM Explained", "json-ld"),
])
def test_a_json_ld_entity_that_is_not_the_pages_own_ranks_after_the_title(ld, kind, out, source):
    head = ("<meta property='og:title' content=\"Salesforce CRM: Try The World's #1 AI CRM\">"
            "<title>Salesforce CRM: Try The World's #1 AI CRM | Salesforce</title>")
    html = _ld_page(ld, "<h1>Agentic Enterprise Platform</h1><p>Text.</p>", head)
    m = meta(html, url="https://www.salesforce.com/crm/", kind=kind)
    assert (m.title, m.source["title"]) == (out, source)


@pytest.mark.parametrize("h1, out, source", [
    ("Player Squad list for the season", "Squad list for the season", "json-ld"),   # a thread prefix of one word
    ("Tips/Techniques ProxMox or Debian for virtualization?", "ProxMox or Debian for virtualization?", "json-ld"),
    ("Real Estate Investing for Beginners Real Estate 101",
     "Real Estate Investing for Beginners Real Estate 101", "h1"),          # five words more: the h1's own
])
def test_a_label_before_the_json_ld_headline_in_the_h1_is_not_the_title(h1, out, source):
    head = f"<meta property='og:title' content='{h1}'>"
    headline = out if source == "json-ld" else "Real Estate 101"
    ld = '{"@type": "DiscussionForumPosting", "headline": "%s"}' % headline
    m = meta(_ld_page(ld, f"<h1>{h1}</h1><p>Text.</p>", head), url="https://forum.example.com/threads/x.1/")
    assert (m.title, m.source["title"]) == (out, source)


@pytest.mark.parametrize("head, out, source", [
    # a twitter:title that is only the site's name: the <title> names the page
    ("<title>All Men's Socks</title><meta property='og:site_name' content='Bombas'>"
     "<meta name='twitter:title' content='Bombas'>", "All Men's Socks", "title"),
    # a microdata headline that is the host's name
    ("<title>Outdoor Gear – The Bush Company USA</title>", "Outdoor Gear", "title"),
    # an og:title that is the site's name is kept (a home page is titled with its site's name)
    ("<title>DEV Community</title><meta property='og:title' content='DEV Community'>"
     "<meta property='og:site_name' content='DEV Community'>", "DEV Community", "opengraph"),
    # nothing else: the site's name stays the title
    ("<meta property='og:site_name' content='Bombas'><meta name='twitter:title' content='Bombas'>",
     "Bombas", "twitter"),
])
def test_a_candidate_that_is_only_the_site_name_is_not_the_title(head, out, source):
    body = "<p>Text.</p>"
    if "Bush" in head:
        body = "<div itemscope itemtype='https://schema.org/Organization'><span itemprop='headline'>" \
               "The Bush Company USA</span></div>" + body
    m = meta(f"<html><head>{head}</head><body>{body}</body></html>",
             url="https://thebushcompanyusa.com/product-category/outdoor-gear/" if "Bush" in head
             else "https://shop.example.com/collections/mens-socks")
    assert (m.title, m.source["title"]) == (out, source)


@pytest.mark.parametrize("h1, out, source", [
    ("Trending", "Trending repositories on GitHub today", "title"),   # no word of the og:title anywhere
    ("Software for teams", "Build software better, together", "opengraph"),   # an h1 shares a word
])
def test_an_og_title_sharing_no_word_with_the_title_or_h1_is_a_slogan(h1, out, source):
    head = ("<title>Trending repositories on GitHub today · GitHub</title>"
            "<meta property='og:title' content='Build software better, together'>"
            "<meta property='og:site_name' content='GitHub'>")
    html = f"<html><head>{head}</head><body><h1>Saved searches</h1><h1>{h1}</h1><p>Text.</p></body></html>"
    m = meta(html, url="https://github.com/trending", kind="listing")
    assert (m.title, m.source["title"]) == (out, source)
    # without an h1 nothing tells the slogan from a page-wide <title>: the og:title stays
    m = meta(f"<html><head>{head}</head><body><p>Text.</p></body></html>", url="https://github.com/trending")
    assert m.title == "Build software better, together"


@pytest.mark.parametrize("ld_type, title, out", [
    ("DiscussionForumPosting", "Payment issues - how to delete or change payment method",
     "how to delete or change payment method"),                     # a two-word prefix
    ("Question", "Consulting - is it worth it?", "is it worth it?"),
    ("DiscussionForumPosting", "Squad 2024 - 2025", "Squad 2024 - 2025"),          # a subject of one word: kept
    ("DiscussionForumPosting", "Tips And Tricks - how to keep a cast iron pan",
     "Tips And Tricks - how to keep a cast iron pan"),               # a label of three words: kept
    ("Article", "Consulting - is it worth it?", "Consulting - is it worth it?"),   # not a forum thread
])
def test_a_forum_threads_prefix_is_not_part_of_its_title(ld_type, title, out):
    ld = '{"@type": "%s", "headline": "%s"}' % (ld_type, title)
    m = meta(_ld_page(ld, f"<h1>{title}</h1><p>Text.</p>"), url="https://forum.example.com/topic/1-x/")
    assert m.title == out


# ---------------------------------------------------------------- language detected from the text

FRENCH = ("<html><head><title>Le marché</title></head><body><article><h1>Le marché du samedi</h1>"
          "<p>Chaque samedi matin, les habitants du quartier se retrouvent sur la place pour acheter "
          "des légumes frais, du fromage et du pain chez les producteurs de la région. Les enfants "
          "courent entre les étals pendant que leurs parents discutent avec les marchands.</p>"
          "</article></body></html>")


def test_language_detected_from_the_text_where_the_markup_is_silent():
    pytest.importorskip("py3langid")
    r = fastx.extract(FRENCH)
    assert r.metadata.language == "fr" and r.metadata.source["language"] == "text"
    # the Doc's own text when no extraction text is given
    m = extract_metadata(fastx.parse(FRENCH))
    assert m.language == "fr" and m.source["language"] == "text"
    # the markup wins over the text
    m = meta(FRENCH.replace("<html>", '<html lang="de">'))
    assert m.language == "de" and m.source["language"] == "html"
    assert fastx.extract(FRENCH).to_dict()["language"] == "fr"


def test_language_detection_abstains_on_little_or_no_language():
    pytest.importorskip("py3langid")
    from fastx.output.language import detect_language
    for text in ("", "Home", "Contact us", "12345 67890 2024", "def f(x): return x + 1", None):
        assert detect_language(text) is None, text
    m = meta("<html><body><p>OK</p></body></html>")
    assert m.language is None and "language" not in m.source


def test_language_detection_without_its_extra(monkeypatch):
    # py3langid not installed: no language, no error
    from fastx.output import language
    monkeypatch.setattr(language, "_state", {"identifier": None})
    assert not language.available()
    m = extract_metadata(fastx.parse(FRENCH))
    assert m.language is None and "language" not in m.source


def test_detected_languages_agree_with_the_markup_of_real_pages():
    # pages of the shipped bench corpus whose markup names a language: their text, read without
    # the markup, gives the same primary language wherever the detector answers
    pytest.importorskip("py3langid")
    from fastx.bench import load_corpus
    from fastx.output.language import detect_language
    answered = agree = 0
    for page in load_corpus().pages:
        r = fastx.extract(page.html)
        if r.metadata.source.get("language") not in ("html", "opengraph", "meta"):
            continue
        lang = detect_language(r.text)
        if lang is not None:
            answered += 1
            agree += lang == r.metadata.language.split("-")[0]
    assert answered >= 10 and agree >= 0.95 * answered


def test_the_compiled_classifier_gives_py3langids_answers():
    # the compiled walk (_core.langid_classify) against py3langid's own classify on the texts of
    # the shipped bench corpus (their first TEXT_CHARS characters, several languages), upper case,
    # text without language and lone surrogates: the same language and nearly the same
    # probability (float32 sums in another order)
    pytest.importorskip("py3langid")
    from fastx.bench import load_corpus
    from fastx.output import language
    ident = language._identifier()
    assert language._state["compiled"] is not None
    texts = [fastx.extract(p.html).text for p in load_corpus().pages]
    texts += ["", "x", "12345 67890 2024", "LE MARCHÉ DU SAMEDI MATIN", "caf\u00e9 caf\u0065\u0301",
              "\ud800 lone", "Москва — столица России", "東京は日本の首都です。"]
    for text in texts:
        text = text[:language.TEXT_CHARS]
        want, got = ident.classify(text), language._classify(ident, text)
        assert got[0] == want[0] and abs(got[1] - want[1]) < 1e-3, (text[:40], want, got)
    assert language.detect_language(FRENCH) == "fr"


def test_the_compiled_classifier_on_a_small_random_model():
    # an automaton of 40 states over 3 rows, 12 features, 5 labels (one twice): the compiled
    # walk and sum against py3langid's over random bytes; a model whose moves, rows or outputs
    # point past its arrays is refused (no walk could then read past them)
    pytest.importorskip("py3langid")
    from array import array

    import numpy as np
    from py3langid.langid import LanguageIdentifier

    from fastx.output import language
    rng = np.random.default_rng(7)
    nextmove = array("I", rng.integers(0, 40, 3 * 256).tolist())
    row = array("H", rng.integers(0, 3, 40).tolist())
    output = [int(v) if v < 12 else -1 for v in rng.integers(0, 20, 40)]
    ptc = np.log(rng.uniform(0.01, 1, (12, 5))).astype(np.float16)
    pc = np.log(rng.uniform(0.1, 1, 5)).astype(np.float32)
    labels = ["en", "fr", "de", "sr", "sr"]
    ident = LanguageIdentifier(ptc, pc, labels, nextmove, output, norm_probs=True, tk_row=row)
    model = language._compiled_model(ident)
    assert model is not None and model[1] == labels
    for n in (0, 1, 7, 100, 3000):
        data = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
        best, confidence = model[0].classify(data)
        want = ident.classify(data)
        assert labels[best] == want[0] and abs(confidence - want[1]) < 1e-5
    aliases = np.array([[3, 4]], dtype=np.int32)
    for what, args in (("nextmove", (array("I", [40] + list(nextmove)[1:]), row, output, ptc, pc, aliases)),
                       ("row", (nextmove, array("H", [3] + list(row)[1:]), output, ptc, pc, aliases)),
                       ("output", (nextmove, row, [12] + output[1:], ptc, pc, aliases)),
                       ("output", (nextmove, row, output[1:], ptc, pc, aliases)),
                       ("nextmove", (array("I", list(nextmove)[1:]), row, output, ptc, pc, aliases)),
                       ("pc", (nextmove, row, output, ptc, pc[1:], aliases)),
                       ("aliases", (nextmove, row, output, ptc, pc, np.array([[3, 5]], dtype=np.int32))),
                       ("ptc", (nextmove, row, output, ptc.astype(np.float32), pc, aliases))):
        with pytest.raises(ValueError, match=what):
            _core.LangidModel(*args)
    broken = LanguageIdentifier(ptc, pc, labels, nextmove, output, norm_probs=True, tk_row=row)
    broken.tk_output = [12] + output[1:]
    assert language._compiled_model(broken) is None


def test_a_model_laid_out_otherwise_is_classified_by_py3langid(monkeypatch):
    pytest.importorskip("py3langid")
    from fastx.output import language
    ident = language._identifier()

    class Other:                       # another layout: no automaton arrays where 0.4 has them
        nb_ptc, nb_pc, nb_classes = ident.nb_ptc, ident.nb_pc, ident.nb_classes
        tk_nextmove = list(range(4))
    assert language._compiled_model(Other()) is None
    monkeypatch.setitem(language._state, "compiled", None)
    assert language._classify(ident, FRENCH) == ident.classify(FRENCH)
    assert language.detect_language(FRENCH) == "fr"


@pytest.mark.parametrize("value", ["utf-8", "UTF-8", "ISO-8859-1", "EUC-KR", "us-ascii"])
def test_a_character_encoding_is_no_language(value):
    # <meta http-equiv="Content-Language" content="utf-8"> (a Chinese news site's template)
    m = meta(f'<html><head><meta http-equiv="Content-Language" content="{value}"></head>'
             "<body><p>x</p></body></html>")
    assert m.language is None and "language" not in m.source
