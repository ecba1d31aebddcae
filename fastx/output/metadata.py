"""Page metadata: title, author, dates, site name, language, canonical URL, image, tags, type.

`fastx.extract(page).metadata` (computed on first access) is a :class:`Metadata`;
every field says where it came from in ``metadata.source`` (``"json-ld"``,
``"opengraph"``, ``"meta"``, ``"microdata"``, ``"time"``, ``"byline"``, ``"h1"``,
``"title"``, ``"url"``, ...). See docs/metadata.md.

The evidence comes from one bounded C pass over lexbor's tree
(``_core.meta_scan``, ``_meta.pxi``); this module resolves it, sources in the
order of trust used by the metadata extractors of the field (trafilatura's
``metadata.py``, Barbaresi 2021, ACL demo "Trafilatura: A Web Scraping Library
and Command-Line Tool for Text Discovery and Extraction"; htmldate's
"extensive/fast" cascade, Barbaresi 2020, JOSS 5(51) 2439):
JSON-LD (schema.org) > Open Graph / Twitter cards > ``<meta>`` names (DC.*,
article:*, parsely-*, sailthru.*) > microdata ``itemprop`` > ``<time datetime>``
> visible bylines and datelines > dates in the URL path.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from datetime import date as _date
from urllib.parse import urljoin, urlsplit

from .. import _core

__all__ = ["Metadata", "extract_metadata", "parse_date", "FIELDS"]

# the flat names of the metadata fields (to_dict, JSON lines, Parquet, Spark); `url` (the
# canonical URL) is flat as `canonical_url`, beside the record's own `url`
FIELDS = ("title", "author", "date", "date_modified", "sitename", "language", "canonical_url",
          "image", "description", "tags", "categories", "type")

_K_META, _K_LINK, _K_LD, _K_LANG, _K_ITEM, _K_TIME, _K_H1, _K_HINT, _K_TEXT, _K_BASE = range(10)
assert _core.META_KIND == {"meta": 0, "link": 1, "jsonld": 2, "lang": 3, "itemprop": 4, "time": 5,
                           "h1": 6, "hint": 7, "text": 8, "base": 9, "year": 10}
_K_YEAR = 10


@dataclass(slots=True)
class Metadata:
    """Metadata of a page; ``source[field]`` names where each non-empty field came from."""
    title: str | None = None
    author: str | None = None            # several joined by "; "
    date: str | None = None              # published, ISO 8601 YYYY-MM-DD
    date_modified: str | None = None
    sitename: str | None = None
    language: str | None = None          # BCP 47
    url: str | None = None               # canonical
    image: str | None = None
    description: str | None = None
    tags: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    type: str | None = None              # schema.org @type or og:type
    source: dict[str, str] = field(default_factory=dict)

    def as_flat(self) -> dict:
        """The fields under their flat names (FIELDS): tags and categories joined by ", "."""
        return {"title": self.title, "author": self.author, "date": self.date,
                "date_modified": self.date_modified, "sitename": self.sitename,
                "language": self.language, "canonical_url": self.url, "image": self.image,
                "description": self.description,
                "tags": ", ".join(self.tags) if self.tags else None,
                "categories": ", ".join(self.categories) if self.categories else None,
                "type": self.type}


# ---------------------------------------------------------------- dates

# month names, lower case -> month (English and the main European languages; _meta.pxi)
_MONTHS = _core.META_MONTHS
# a month is any word here, checked against _MONTHS afterwards (an alternation of the hundred
# month names costs a hundred tries at every position)
_WORD_RE = r"[^\W\d_]{3,10}"
_RE_URL_DATE = re.compile(r"/((?:19|20)\d\d)[/_-]?(0[1-9]|1[0-2])[/_-]?(0[1-9]|[12]\d|3[01])?(?:/|[_-]|$)")
# a relative date ("3 days ago", "yesterday", 昨天): compiled (_meta.pxi)
_relative = _core.meta_relative
_HAS_YEAR = re.compile(r"(?:19|20)\d\d")
_RE_HOST = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]+)")


def _host(url: str | None) -> str | None:
    """The host of an absolute URL, lower-cased (a regex: urlsplit costs ten times more)."""
    m = _RE_HOST.match(url) if url else None
    return m[1].lower() if m else None


# A date in a text as ISO 8601 YYYY-MM-DD, or None (compiled: _meta.pxi's meta_parse_date):
# ISO 8601 and its slash/dot variants, "September 4, 2025", "4 Sept. 2025", "2023 Jan 7",
# 2025年9月4日, numeric D/M/Y or M/D/Y (month first unless `dayfirst` or a part exceeds 12),
# compact 20250904; relative dates and years before 1995 or after next year give None.
parse_date = _core.meta_parse_date


def url_date(url: str | None) -> str | None:
    """A publication date in a URL path (/2025/09/04/, /2025-09-04-, /20250904/); None if absent."""
    if not url:
        return None
    path = urlsplit(url).path
    m = _RE_URL_DATE.search(path)
    if m and m[3]:
        return parse_date(f"{m[1]}-{m[2]}-{m[3]}")
    return None


# ---------------------------------------------------------------- text helpers

# entities decoded (JSON-LD and attribute values written with "&amp;"), whitespace collapsed
_clean = _core.meta_clean
# a title's parts between " | ", " - ", " – ", " — ", " · ", " • ", " :: ", " » ", " / ", " : "
_title_split = _core.meta_title_split


@functools.lru_cache(maxsize=256)
def _site_keys(sitename: str | None, host: str | None) -> frozenset:
    """Keys naming the site: og:site_name, the host's name ("example" of www.example.co.uk)."""
    keys = set()
    if sitename:
        keys.add(_key(sitename))
    if host:
        h = host.lower().removeprefix("www.").split(".")
        keys.add(_key(h[0]))
        if len(h) > 2:
            keys.add(_key(h[-2]))
        keys.add(_key(".".join(h)))
    keys.discard("")
    return frozenset(keys)


def strip_site_suffix(title: str, sitename: str | None = None, host: str | None = None,
                      names: set[str] | frozenset = frozenset()) -> str:
    """<title> without the site name: " | Site", " - Site", " — Site", "Site | ..." .

    A part is dropped when it names the site (og:site_name, the host or one of `names`
    (keys: casefold, punctuation removed), spacing and case ignored, or a name of three or more
    words whose initials are the host's name: "Occupational Safety and Health Administration"
    on osha.gov); from the end, so
    " - Section | Site" loses both when both are known); otherwise a short last part (at
    most 4 words, the rest longer) is taken for the site name."""
    title = _clean(title)
    parts = _title_split(title)
    if len(parts) < 2:
        return title
    while names and len(parts) > 1 and _key(parts[-1]) in names:
        title = _strip_trailing_sep(title[:title.rfind(parts[-1])])
        parts = parts[:-1]
    if len(parts) < 2:
        return title
    keys = _site_keys(sitename, host) | names if names else _site_keys(sitename, host)

    def is_site(p: str) -> bool:
        k = _key(p)
        if host and _initials(p) in keys:       # "Occupational Safety and Health Administration" on osha.gov
            return True
        return bool(k) and any(k == s or (len(s) >= 4 and (s in k and len(k) <= len(s) + 12)) for s in keys)

    if is_site(parts[-1]):
        rest = title[:title.rfind(parts[-1])]
        return _strip_trailing_sep(rest)
    if is_site(parts[0]):
        return _clean(title[len(parts[0]):]).lstrip("|-–—·•:»/ ").strip()
    last = parts[-1]
    if len(last.split()) <= 4 and len(title) - len(last) > len(last) and len(parts[0].split()) >= 3:
        return _strip_trailing_sep(title[:title.rfind(last)])
    return title


_MINOR_WORDS = frozenset(("of", "and", "the", "for", "in", "on", "at", "to", "&", "de", "du", "des", "la", "le", "für", "und"))


def _initials(p: str) -> str:
    """The initials of a name's words, minor words skipped ("Occupational Safety and Health
    Administration" -> "osha"); "" for fewer than three words."""
    w = [x for x in p.split() if x.casefold() not in _MINOR_WORDS]
    return "".join(x[0] for x in w).casefold() if len(w) >= 3 else ""


def _strip_trailing_sep(s: str) -> str:
    return _TRAILING_SEP.sub("", s).strip()


_TRAILING_SEP = re.compile(r"\s*(?:\||-|–|—|·|•|::|»|/|:)\s*$")


# casefold, punctuation, spaces and "_" removed: how names and titles are compared
_key = _core.meta_key


# ---------------------------------------------------------------- JSON-LD

_ARTICLE_TYPES = {"article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
                  "opinionnewsarticle", "scholarlyarticle", "techarticle", "report", "socialmediaposting",
                  "discussionforumposting", "liveblogposting", "backgroundnewsarticle", "review",
                  "medicalwebpage", "howto", "recipe", "qapage", "question", "product", "event",
                  "videoobject", "podcastepisode", "course", "jobposting", "creativework", "book",
                  "webpage", "aboutpage", "faqpage", "collectionpage", "itempage", "profilepage",
                  "searchresultspage", "contactpage", "realestatelisting"}
_PAGE_TYPES = {"webpage", "aboutpage", "faqpage", "collectionpage", "itempage", "profilepage",
               "searchresultspage", "contactpage", "medicalwebpage", "qapage", "checkoutpage"}
_ORG_TYPES = {"organization", "newsmediaorganization", "corporation", "localbusiness", "website",
              "educationalorganization", "governmentorganization", "ngo", "onlinestore", "store"}


def _types(o: dict) -> list[str]:
    t = o.get("@type")
    if isinstance(t, str):
        return [t.rsplit("/", 1)[-1].lower()]
    if isinstance(t, list):
        return [x.rsplit("/", 1)[-1].lower() for x in t if isinstance(x, str)]
    return []


_JSON_LINE_COMMENT = re.compile(r"^\s*//.*$", re.M)
_JSON_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def _ld_objects(texts: list[str]) -> list[dict]:
    """Every JSON object of the page's JSON-LD scripts, @graph and arrays flattened (iterative).
    Malformed JSON is tolerated: comments, trailing commas and raw control characters are repaired
    first; a script that still does not parse is skipped."""
    out: list[dict] = []
    for t in texts:
        t = t.strip()
        if not t:
            continue
        if t.startswith("<!--"):
            t = t[4:]
        if t.endswith("-->"):
            t = t[:-3]
        try:
            data = json.loads(t, strict=False)
        except RecursionError:      # nested past Python's limit: not metadata
            continue
        except ValueError:
            fixed = _JSON_TRAILING_COMMA.sub(r"\1", _JSON_LINE_COMMENT.sub("", t))
            try:
                data = json.loads(fixed, strict=False)
            except (ValueError, RecursionError):
                continue
        stack = [data]
        seen = 0
        while stack and seen < 2000:
            x = stack.pop()
            seen += 1
            if isinstance(x, list):
                stack.extend(reversed(x))
            elif isinstance(x, dict):
                out.append(x)
                g = x.get("@graph")
                if isinstance(g, (list, dict)):
                    stack.append(g)
                me = x.get("mainEntity")
                if isinstance(me, dict):
                    stack.append(me)
    return out


def _ld_names(v, persons_only: bool = False) -> list[str]:
    """Names in a JSON-LD author/creator value: a string, a {name} object (Person), a list."""
    out = []
    items = v if isinstance(v, list) else [v]
    for it in items[:20]:
        if isinstance(it, str):
            out.append(it)
        elif isinstance(it, dict):
            if persons_only and any(t in _ORG_TYPES for t in _types(it)):
                continue
            n = it.get("name")
            if isinstance(n, list):
                n = n[0] if n and isinstance(n[0], str) else None
            if isinstance(n, dict):
                n = n.get("@value")
            if isinstance(n, str):
                out.append(n)
            elif isinstance(it.get("givenName"), str):
                out.append(f"{it.get('givenName')} {it.get('familyName') or ''}")
    return out


def _ld_str(v) -> str:
    if isinstance(v, list):
        v = next((x for x in v if isinstance(x, (str, dict))), None)
    if isinstance(v, dict):
        v = v.get("url") or v.get("@id") or v.get("name") or v.get("@value")
    return _clean(v) if isinstance(v, str) else ""


# ---------------------------------------------------------------- authors

_BY = re.compile(r"^\s*(?:(?:written|posted|reviewed|edited|story|text|words|reporting|published)\s+)?by\s*[:\-]?\s+",
                 re.I)
_NAME_SPLIT = re.compile(r"[;&+,、，/|⋅•]|\b(?:and|AND|And|und|et|y)\b")     # parts are stripped
_NOT_NAME = re.compile(r"https?:|www\.|@|\d{3,}|©|\b(?:admin|administrator|staff|team|editor|editors|"
                       r"desk|guest|unknown|anonymous|contributor|contributors|redaktion)\b", re.I)
_HAS_DIGIT = re.compile(r"\d")
_STAMP_TAIL = re.compile(r"\s*(?:[|•·,–—-]\s*)?\b(?:posted|published|updated|last updated)\b.*$", re.I)
_TAIL_START = re.compile(rf"(?:[|•·,–—-]\s*)?\b(?:(?:posted|published|updated|last updated|on)\b|"
                         rf"({_WORD_RE})\.?\s+\d|\d{{1,2}}\s+({_WORD_RE})\b|\d{{1,4}}[/.-]\d)")     # on lower case


def _cut_date_tail(s: str) -> str:
    """`s` up to the date that ends it: "Jane Doe, March 3, 2025" -> "Jane Doe" (the leftmost
    start of "posted/on ...", a month name and a number, or a numeric date)."""
    low = s.lower()
    if len(low) != len(s):
        return s
    pos = 0
    while True:
        m = _TAIL_START.search(low, pos)
        if m is None:
            return s
        w = m[1] or m[2]
        if w is None or w in _MONTHS:
            return s[:m.start()].rstrip()
        pos = m.start() + 1
_CREDENTIAL = {"md", "phd", "rd", "ms", "mba", "ma", "bs", "ba", "rn", "jr", "sr", "cpa", "lpc", "msc",
               "dr", "prof", "mr", "mrs", "ms.", "ldn", "cde", "fand", "cscs", "np", "pa", "do", "dds"}


def _split_names(s: str) -> list[str]:
    """Author names in a byline value: "By A, B and C" -> [A, B, C]; job titles, dates, URLs and
    role words rejected; credentials ("MS, RD") kept with the preceding name."""
    s = _clean(s)
    if not s:
        return []
    s = _BY.sub("", s)
    if _HAS_DIGIT.search(s):
        s = _cut_date_tail(s)              # "Jane Doe, March 3, 2025" (dates have digits)
    else:
        s = _STAMP_TAIL.sub("", s)         # "Jane Doe | Updated"
    s = _AUTHOR_LABEL.sub("", s)
    names: list[str] = []
    for p in _NAME_SPLIT.split(s):
        p = p.strip(" .:-–—|\"'()[]")
        if not p:
            continue
        if names and _key(p) in _CREDENTIAL:
            names[-1] = f"{names[-1]}, {p}"
            continue
        if _NOT_NAME.search(p) or len(p) > 60 or len(p.split()) > 5:
            continue
        if not any(c.isalpha() for c in p):
            continue
        names.append(p)
    return names


def _join_names(names: list[str]) -> str | None:
    seen, out = set(), []
    for n in names:
        k = _key(n)
        if k and k not in seen and k not in _ZH_NOT_NAME:
            seen.add(k)
            out.append(n)
    return "; ".join(out[:8]) if out else None


def _name_like(s: str) -> bool:
    """A byline's text is a person's name: 1-4 words, each starting upper-case (or CJK)."""
    w = s.split()
    if not (1 <= len(w) <= 5):
        return False
    caps = sum(1 for x in w if x[:1].isupper() or "\u4e00" <= x[:1] <= "\u9fff")
    return caps >= max(1, len(w) - 1)


# Chinese bylines and datelines
_ZH_NAME = r"(?:[\u4e00-\u9fff·]{2,4}|[A-Za-z][\w.\-]{1,30})(?![\u4e00-\u9fff\w])"
# "作者：张三", "记者 张三 李四", "（记者 张三）", "文/张三", "撰文|张三"; editors (责任编辑) are not authors
_ZH_AUTHOR = re.compile(rf"(?:(?:作者|記者|记者|撰文|撰稿|采写)\s*[:：]\s*|(?:作者|记者|記者)\s+|[（(]\s*(?:记者|記者)\s*|"
                        rf"(?:^|(?<=[\s(（【\[|丨]))文\s*[/／|丨]\s*)({_ZH_NAME}(?:[\s、，,]+{_ZH_NAME}){{0,3}})")

def _zh_author(t: str):
    """_ZH_AUTHOR's match in `t`, or None: every form holds 者, 撰, 采 or 文, so a text without
    them is not searched (the pattern costs tens of microseconds on a line of Latin text)."""
    if "者" in t or "文" in t or "撰" in t or "采" in t:
        return _ZH_AUTHOR.search(t)
    return None


_CJK = re.compile(r"[\u4e00-\u9fff]")
_ZH_NOT_NAME = {"未知", "佚名", "匿名", "不详", "网友", "原标题", "本站", "小编", "admin", "name", "author", "unknown",
                "责任编辑", "編輯", "编辑", "记者", "通讯员", "全部", "整合", "综合", "原创", "本站原创", "转载",
                "来源", "出处", "报道", "摄影", "图片", "视频", "网络整理", "网络", "阅读", "互联网"}
_ZH_SOURCE = re.compile(r"(?:来源|來源|出处|稿源)\s*[:：]\s*([^\s:：|丨]{2,20})")
_ZH_DATE = re.compile(r"(?:发布时间|發布時間|发表时间|时间|日期|发布日期|发布于|發表於)\s*[:：]?\s*([0-9年月日\-/.\s:]{8,30})")


# ---------------------------------------------------------------- resolver

_DATE_META = ("article:published_time", "og:published_time", "og:article:published_time",
              "datepublished", "published_time", "publishdate", "publish-date", "publish_date",
              "pubdate", "publication_date", "date", "dc.date", "dc.date.issued", "dc.date.created",
              "dcterms.date", "dcterms.issued", "dcterms.created", "citation_publication_date",
              "citation_date", "sailthru.date", "parsely-pub-date", "article.published",
              "article_date_original", "original-publish-date", "cxenseparse:recs:publishtime",
              "og:updated_time_published", "displaydate", "release_date", "created", "datecreated",
              "article:published", "bt:pubdate", "analyticsattributes.articledate")
_MOD_META = ("article:modified_time", "og:updated_time", "datemodified", "modified_time", "dc.date.modified",
             "dcterms.modified", "last-modified", "lastmod", "article:modified", "dateupdated", "updated",
             "dateupdate")
_AUTHOR_META = ("author", "article:author", "parsely-author", "sailthru.author", "dc.creator",
                "dcterms.creator", "citation_author", "byl", "og:article:author", "book:author",
                "cxenseparse:author", "article.author", "authors", "creator", "twitter:data1")
_SITE_META = ("og:site_name", "application-name", "apple-mobile-web-app-title", "twitter:site",
              "al:ios:app_name", "publisher", "dc.publisher")
_TAG_META = ("article:tag", "keywords", "news_keywords", "parsely-tags", "sailthru.tags", "og:article:tag",
             "book:tag", "video:tag")
_CAT_META = ("article:section", "parsely-section", "og:article:section", "category", "section",
             "dc.subject", "sailthru.section")

# <meta> name -> [(field group, rank)]: a page's <meta> names are sorted into the groups above in
# one pass over them (a page has ~20; the groups list ~80 names)
_META_GROUPS: dict[str, list[tuple[str, int]]] = {}
for _g, _names in (("date", _DATE_META), ("mod", _MOD_META), ("author", _AUTHOR_META), ("site", _SITE_META),
                   ("tag", _TAG_META), ("cat", _CAT_META)):
    for _i, _k in enumerate(_names):
        _META_GROUPS.setdefault(_k, []).append((_g, _i))


def _meta_groups(metas: dict) -> dict[str, list[str]]:
    """The page's <meta> names of each field group, in the group's order of trust."""
    found: dict[str, list[tuple[int, str]]] = {}
    for k in metas:
        for g, i in _META_GROUPS.get(k, ()):
            found.setdefault(g, []).append((i, k))
    return {g: [k for _, k in sorted(v)] for g, v in found.items()}


def extract_metadata(doc, url: str | None = None) -> Metadata:
    """Metadata of a parsed page (a :class:`fastx.Doc`); `url` defaults to ``doc.url``."""
    url = url or doc.url
    metas, meta_multi, recs = _core.meta_scan(doc)
    md = Metadata()
    src = md.source
    ld_texts: list[str] = []
    items: dict[str, list[tuple[str, int]]] = {}
    times: list[tuple[str, str, int]] = []
    h1s: list[tuple[str, int]] = []
    hints: list[tuple[str, str, int]] = []
    texts: list[tuple[str, str, int]] = []
    years: list[tuple[str, int]] = []
    item_author: dict[str, str] = {}
    canonical = base = lang = None
    link_author = None
    for kind, key, val, order in recs:
        if kind == _K_LD:
            ld_texts.append(val)
        elif kind == _K_ITEM:
            k = key.strip().lower()
            items.setdefault(k, []).append((val, order))           # raw: cleaned where used
            if k == "author" and "author" not in item_author:
                item_author["author"] = val
        elif kind == _K_LINK:
            k = key.lower()
            if "canonical" in k and canonical is None:
                canonical = val.strip()
            elif "author" in k and link_author is None and not val.startswith(("http", "/", "mailto")):
                link_author = val
        elif kind == _K_TIME:
            times.append((key, val, order))
        elif kind == _K_H1:
            t = _clean(val)
            if t:
                h1s.append((t, order))
        elif kind == _K_HINT:
            hints.append((key, val, order))
        elif kind == _K_TEXT:
            texts.append((key, val, order))
        elif kind == _K_LANG:
            lang = val.strip()
        elif kind == _K_BASE:
            base = val.strip()
        elif kind == _K_YEAR:
            years.append((val, order))

    ld = _ld_objects(ld_texts) if ld_texts else []
    # the page's main JSON-LD entity: an article-like type first, else a WebPage, in page order
    main = None
    page_obj = None
    for o in ld:
        ts = _types(o)
        if main is None and any(t in _ARTICLE_TYPES and t not in _PAGE_TYPES for t in ts):
            main = o
        if page_obj is None and any(t in _PAGE_TYPES for t in ts):
            page_obj = o
    host = _host(url) or _host(canonical)

    def set_(name: str, value, source: str) -> bool:
        if value and getattr(md, name) in (None, []):
            setattr(md, name, value)
            src[name] = source
            return True
        return False

    # ---- site name (needed to strip the title's suffix)
    for o in ld:
        if "website" in _types(o) and isinstance(o.get("name"), str):
            set_("sitename", _clean(o["name"]), "json-ld")
            break
    if md.sitename is None and main is not None:
        pub = main.get("publisher")
        if isinstance(pub, list):
            pub = pub[0] if pub else None
        if isinstance(pub, dict) and isinstance(pub.get("name"), str):
            set_("sitename", _clean(pub["name"]), "json-ld")
    groups = _meta_groups(metas)
    for k in groups.get("site", ()):
        v = metas[k]
        if v and not v.startswith("http") and not (k == "twitter:site" and md.sitename):
            if set_("sitename", _clean(v.lstrip("@")), "opengraph" if k.startswith("og:") else "meta"):
                break

    # ---- title
    raw_title = _clean(doc.title)
    md.title = _resolve_title(md, main, page_obj, metas, items, h1s, raw_title, host)

    # ---- author
    author = None
    if main is not None:
        for k in ("author", "creator"):
            names = []
            for n in _ld_names(main.get(k), persons_only=True):
                names.extend(_split_names(n))
            author = _join_names(names)
            if author:
                set_("author", author, "json-ld")
                break
    if md.author is None:
        for k in groups.get("author", ()):
            vals: list[str] = meta_multi.get(k) or [metas[k]]
            if not vals:
                continue
            if k == "twitter:data1" and "author" not in metas.get("twitter:label1", "").lower() \
                    and "written" not in metas.get("twitter:label1", "").lower():
                continue
            names = []
            for x in vals:
                if x.startswith("http"):
                    x = _author_from_url(x)
                names.extend(_split_names(x))
            if set_("author", _join_names(names), "meta"):
                break
    if md.author is None and item_author:      # the first: on forums the original poster
        set_("author", _join_names(_byline_names(item_author["author"], True)), "microdata")
    if md.author is None:
        set_("author", _byline_author(hints, texts, link_author, h1s, md), "byline")

    # ---- dates: the metadata's published and modified dates, then what the page shows
    if main is not None:
        set_("date", parse_date(_ld_str(main.get("datePublished")) or _ld_str(main.get("dateCreated"))
                                or _ld_str(main.get("uploadDate"))), "json-ld")
        set_("date_modified", parse_date(_ld_str(main.get("dateModified"))), "json-ld")
    if md.date is None and page_obj is not None:
        set_("date", parse_date(_ld_str(page_obj.get("datePublished"))), "json-ld")
    if md.date is None:
        for k in groups.get("date", ()):
            if set_("date", parse_date(metas[k]), "opengraph" if k.startswith("og:") else "meta"):
                break
    if md.date_modified is None:
        if page_obj is not None:
            set_("date_modified", parse_date(_ld_str(page_obj.get("dateModified"))), "json-ld")
        for k in groups.get("mod", ()):
            if set_("date_modified", parse_date(metas[k]), "meta"):
                break
    if md.date is None:
        # the first microdata date in page order: the main item's (a forum's question, not the
        # comment under it that names its date datePublished)
        for _, v in sorted((o, v) for k in ("datepublished", "datecreated", "pubdate", "date")
                           for v, o in items.get(k, [])[:3]):
            if set_("date", parse_date(v), "microdata"):
                break
    if md.date_modified is None:
        for v, _ in items.get("datemodified", [])[:2]:
            if set_("date_modified", parse_date(v), "microdata"):
                break
    if md.date is None or md.date_modified is None:
        # other <meta> names that say what they hold ("w-published-date", "post:updated_time")
        for k, v in [(k, v) for k, v in metas.items() if "date" in k or "time" in k or "publish" in k]:
            if "modif" in k or "updated" in k:
                set_("date_modified", parse_date(v), "meta")
            elif "publish" in k or k.endswith((":date", "_date", "-date", ".date")) \
                    and not any(w in k for w in ("expir", "valid", "event", "start", "end")):
                set_("date", parse_date(v), "meta")
    if md.date is None:
        for k, vs in items.items():
            if "date" in k and ("publish" in k or "creat" in k):
                for v, _ in vs[:2]:
                    if set_("date", parse_date(v), "microdata"):
                        break
    if md.date is None:
        set_("date", *_shown_date(times, hints, texts, years, h1s[0][1] if h1s else 0))
    else:
        # the metadata's published date against the page's datelines: a date shown beside the
        # headline (within SHOWN_NEAR elements) that is earlier than the metadata's by more than
        # a time-zone shift, while the metadata's date is shown nowhere near it, is the date of
        # first publication (a CMS that migrated or republished the page stamped it anew)
        h1_order = h1s[0][1] if h1s else 0
        first = next(_shown_dates(times, hints, texts, years, h1_order, SHOWN_NEAR), None)
        if first is not None and first[0] < md.date and \
                (_date.fromisoformat(md.date) - _date.fromisoformat(first[0])).days >= 2 and \
                all(d != md.date for d, _, _, _ in _shown_dates(times, hints, texts, years, h1_order)):
            md.date, src["date"] = first[0], first[1]
    if md.date is None:
        set_("date", url_date(url) or url_date(canonical), "url")

    # ---- language
    if lang:
        set_("language", _bcp47(lang), "html")
    if md.language is None:
        for k, s in (("og:locale", "opengraph"), ("content-language", "meta"), ("language", "meta"),
                     ("dc.language", "meta")):
            if k in metas and set_("language", _bcp47(metas[k].split(",")[0]), s):
                break
    if md.language is None and main is not None:
        set_("language", _bcp47(_ld_str(main.get("inLanguage"))), "json-ld")

    # ---- canonical URL, image, description
    ref = base or url
    if canonical:
        set_("url", _abs(canonical, ref), "link")
    if md.url is None and "og:url" in metas:
        set_("url", _abs(metas["og:url"], ref), "opengraph")
    if md.url is None and main is not None:
        set_("url", _abs(_ld_str(main.get("url")), ref), "json-ld")
    for k, s in (("og:image", "opengraph"), ("og:image:url", "opengraph"), ("og:image:secure_url", "opengraph"),
                 ("twitter:image", "twitter"), ("twitter:image:src", "twitter"), ("thumbnail", "meta")):
        if k in metas and set_("image", _abs(metas[k], ref), s):
            break
    if md.image is None and main is not None:
        set_("image", _abs(_ld_str(main.get("image")) or _ld_str(main.get("thumbnailUrl")), ref), "json-ld")
    if md.image is None and "image" in items:
        set_("image", _abs(items["image"][0][0], ref), "microdata")
    if doc.description:
        set_("description", _clean(doc.description), "meta")
    for k, s in (("og:description", "opengraph"), ("twitter:description", "twitter"),
                 ("dc.description", "meta")):
        if k in metas and set_("description", _clean(metas[k]), s):
            break
    if md.description is None and main is not None:
        set_("description", _ld_str(main.get("description")), "json-ld")

    # ---- tags, categories, type
    tags: list[str] = []
    if main is not None:
        kw = main.get("keywords")
        if isinstance(kw, str):
            tags = [t for t in (x.strip() for x in kw.split(",")) if t]
        elif isinstance(kw, list):
            tags = [_clean(x) for x in kw if isinstance(x, str) and x.strip()]
        if set_("tags", _dedupe(tags)[:50], "json-ld"):
            pass
    if not md.tags:
        for k in groups.get("tag", ()):
            vals = meta_multi.get(k) or [metas[k]]
            if vals:
                ts = [t.strip() for x in vals for t in (x.split(",") if len(vals) == 1 else [x]) if t.strip()]
                if set_("tags", _dedupe(ts)[:50], "opengraph" if k.startswith(("article:", "og:")) else "meta"):
                    break
    cats: list[str] = []
    if main is not None:
        sec = main.get("articleSection")
        if isinstance(sec, str):
            cats = [_clean(sec)]
        elif isinstance(sec, list):
            cats = [_clean(x) for x in sec if isinstance(x, str)]
        set_("categories", _dedupe([c for c in cats if c])[:20], "json-ld")
    if not md.categories:
        for k in groups.get("cat", ()):
            vals = meta_multi.get(k) or [metas[k]]
            if vals and set_("categories", _dedupe([_clean(x) for x in vals if x.strip()])[:20],
                          "opengraph" if k.startswith(("article:", "og:")) else "meta"):
                break
    if main is not None:
        mt = main.get("@type")
        set_("type", next((t for t in (mt if isinstance(mt, list) else [mt]) if isinstance(t, str)), None), "json-ld")
    if md.type is None and "og:type" in metas:
        set_("type", metas["og:type"], "opengraph")
    if md.type is None and page_obj is not None:
        set_("type", _ld_str(page_obj.get("@type")), "json-ld")
    return md


def _dedupe(xs: list[str]) -> list[str]:
    seen, out = set(), []
    for x in xs:
        k = x.casefold()
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def _abs(u: str | None, ref: str | None) -> str | None:
    if not u:
        return None
    u = u.strip()
    if u.lower().startswith(("javascript:", "data:", "vbscript:")):
        return None
    if ref and not u.startswith(("http://", "https://")):
        try:
            return urljoin(ref, u)
        except ValueError:
            return u
    return u


_BCP47 = re.compile(r"([A-Za-z]{2,3})(?:-([A-Za-z]{4}))?(?:-([A-Za-z]{2}|\d{3}))?(?:-[A-Za-z0-9]{1,8})*")


def _bcp47(s: str | None) -> str | None:
    """A language tag as BCP 47: "en_US" -> "en-US", "EN" -> "en"; junk -> None."""
    if not s:
        return None
    s = s.strip().replace("_", "-")
    m = _BCP47.fullmatch(s)
    if not m:
        return None
    out = m[1].lower()
    if m[2]:
        out += "-" + m[2].title()
    if m[3]:
        out += "-" + m[3].upper()
    return out


_DASHES = re.compile(r"[-_]+")


def _author_from_url(u: str) -> str:
    """Facebook/author-page URLs: the last path segment as a name ("/author/jane-doe/" -> "Jane Doe")."""
    path = urlsplit(u).path.rstrip("/")
    seg = path.rsplit("/", 1)[-1] if "/author" in path or "/authors" in path or "/people" in path else ""
    seg = _DASHES.sub(" ", seg)
    return seg.title() if seg and not any(c.isdigit() for c in seg) else ""


_WORDS = re.compile(r"\w+")


def _words(s: str) -> set[str]:
    return set(_WORDS.findall(s.casefold()))


def _resolve_title(md: Metadata, main, page_obj, metas, items, h1s, raw_title: str, host) -> str | None:
    """The page's own headline: the visible main heading when the page's metadata confirms it.

    Candidates from the metadata, most trusted first: JSON-LD headline/name of the main
    entity, og:title, twitter:title, <meta name=title>, DC.title, microdata headline, and
    <title>; every one without its site-name part (strip_site_suffix). Then, over the
    first h1s:
    - an h1 equal to a candidate (casefold, punctuation ignored) is the title;
    - an h1 that is the site name (or a part of <title> its separator splits off) is not;
    - a candidate inside the h1 ("Title" in "Dec 18 2025 Title") is the title;
    - an h1 that shares at least half the words of the best candidate is the title (editors
      rewrite the SEO title; the visible headline is the page's own).
    Else the most trusted candidate."""
    site = md.sitename
    cands: list[tuple[str, str]] = []
    if main is not None:
        for k in ("headline", "name", "alternativeHeadline"):
            v = main.get(k)
            if isinstance(v, str) and _clean(v):
                cands.append((strip_site_suffix(v, site, host), "json-ld"))
                break
    seen = set()         # og:title, twitter:title and <title> are often one text: stripped once
    for k, s in (("og:title", "opengraph"), ("twitter:title", "twitter"), ("title", "meta"),
                 ("dc.title", "meta"), ("parsely-title", "meta"), ("sailthru.title", "meta")):
        v = metas.get(k)
        if v and v not in seen and _clean(v):
            seen.add(v)
            cands.append((strip_site_suffix(v, site, host), s))
    if "headline" in items and _clean(items["headline"][0][0]):
        cands.append((_clean(items["headline"][0][0]), "microdata"))
    stripped = strip_site_suffix(raw_title, site, host) if raw_title and raw_title not in seen else ""
    if stripped:
        cands.append((stripped, "title"))
    keys = [_key(c) for c, _ in cands]
    site_keys = {_key(site)} if site else set()
    if raw_title:
        parts = _title_split(raw_title)
        if len(parts) > 1:
            site_keys.add(_key(parts[-1]))
    if host:
        site_keys.add(_key(host.removeprefix("www.")))
    site_keys.discard("")
    # the leading segments of the candidates (a site or section name follows the separator)
    seg_keys: set[str] = set()
    tail_keys: set[str] = set()
    heads: list[tuple[str, str, str]] = []        # (key, text, source) of each candidate's first segment
    split_seen: set[str] = set()
    for c, s in cands + [(raw_title, "title")]:
        if not c or c in split_seen:
            continue
        split_seen.add(c)
        ps = _title_split(c)
        seg_keys.update(_key(p) for p in ps[:-1])
        if len(ps) > 1:
            tail_keys.add(_key(ps[-1]))
            heads.append((_key(ps[0]), ps[0], s))
    seg_keys.discard("")
    tail_keys.discard("")
    found_site: set[str] = set()
    best = None
    for h, _ in h1s[:4]:
        kh = _key(h)
        if len(kh) < 3:
            continue
        if kh in keys:
            md.source["title"] = "h1"
            return h
        if kh in site_keys or kh in tail_keys:
            found_site.add(kh)           # an h1 naming the site ("The Rust Programming Language")
            continue
        if kh in seg_keys:          # "Flexbox" of "Flexbox - Learn web development | MDN"
            md.source["title"] = "h1"
            return h
        for (c, s), kc in zip(cands, keys):
            if len(kc) >= 8 and kc in kh:
                md.source["title"] = s
                return c
        for kc, c, s in heads:        # "News Digital Cameras…" (a badge in the h1) holds "Digital Cameras…"
            if len(kc) >= 12 and kc in kh:
                md.source["title"] = s
                return c
        if best is None and cands:
            wc = _words(cands[0][0])
            wh = _words(h)
            if wc and len(wc & wh) >= TITLE_OVERLAP * len(wc) and len(wh) >= 2:
                best = h
    if best is not None:
        md.source["title"] = "h1"
        return best
    if cands:
        md.source["title"] = cands[0][1]
        return strip_site_suffix(cands[0][0], site, host, found_site) if found_site else cands[0][0]
    if h1s:
        md.source["title"] = "h1"
        return h1s[0][0]
    return None


TITLE_OVERLAP = 0.3
# elements between the headline and a dateline that may overrule the metadata's published date
SHOWN_NEAR = 40


_ROLE = re.compile(r"\b(?:writer|reporter|editor|editors|founder|co-founder|contributor|contributing|author|"
                   r"authors|expert|senior|director|manager|ceo|cto|journalist|correspondent|columnist|"
                   r"moderator|member|joined|topic|head|chief|specialist|analyst|strategist|lead|"
                   r"marketing|insights|posts?|view|profile|follow|more|about|written|recipe|by|min|read|"
                   r"updated|published|posted)\b")          # searched in lower case
_AT = re.compile(r"\s+(?:at|from|of|für|de)\s+")
_AUTHOR_LABEL = re.compile(r"^(?:author|authors|autor|auteur|writer|by)\s*[:：]\s*", re.I)


_USER_NAME = re.compile(r"[\w.\-]{2,40}")


def _trim_role(n: str) -> str:
    """A name without the job title after it: "Keith Barry Senior Autos Reporter" -> "Keith Barry",
    "David at Acme" -> "David"; "" when the text starts with a role word."""
    low = n.lower()
    m = _ROLE.search(low) if len(low) == len(n) else None
    if m:
        n = n[:m.start()]
    n = _AT.split(n, maxsplit=1)[0]
    return n.strip(" ,.-–—|⋅•")


def _byline_names(raw: str, single_words: bool = False) -> list[str]:
    """The names a byline element's text starts with, line by line (each text node of the
    element is a line): "By" / "and" / "," lines join names, the first line that is not a
    name (a job title: "Senior Autos Reporter", a date, "Founder at X") ends the byline.
    `single_words`: one-word names are accepted (forum user names), else a class naming an
    author must give a name of two words ("Industry" there is a label)."""
    lines = [x.strip() for x in raw.split("\n")]
    names: list[str] = []
    expect = True
    for i, line in enumerate(x for x in lines if x):
        if i > 6:
            break
        low = line.lower().strip(" :,.-–—|")
        if low in ("by", "written by", "posted by", "words by", "and", "&", "", "author", "authors",
                   "reviewed by", "edited by", "story by"):
            expect = True
            continue
        if not expect:
            break
        line = _BY.sub("", line)
        found = [n for n in map(_trim_role, _split_names(line)) if n and not n.startswith((".", "/")) and (
                 _name_like(n) and (single_words or len(n.split()) >= 2) and len(n) >= 2
                 and (single_words or not any(c.isdigit() for c in n))
                 or single_words and _USER_NAME.fullmatch(n))]
        if not found:
            if names or i > 1:
                break
            continue
        names.extend(found)
        expect = line.rstrip().endswith((",", " and", "&"))
    return names


# class/id/rel values naming an author's element, and those naming its picture, bio, label or
# a comment's author instead (searched in the value, case ignored)
_AUTHOR_HINT = re.compile(r"author|byline|writer|user-?name", re.I)
_NOT_AUTHOR_HINT = re.compile(r"avatar|bio|image|img|photo|desc|social|title|label|box|comment|reply|quote", re.I)


# the visible candidates tried, nearest the headline first: a byline or dateline further away
# than the 30 nearest is another item's (comments, related posts)
_VISIBLE_TRIES = 30


_ZH_NAME_SEP = re.compile(r"[\s、，,]+")


def _zh_names(m) -> list[str]:
    return [n for n in _ZH_NAME_SEP.split(m[1]) if n and n.lower() not in _ZH_NOT_NAME
            and not n.endswith(("记者", "編輯", "编辑", "报道"))]


def _byline_author(hints, texts, link_author, h1s, md) -> str | None:
    """An author from the visible page: elements whose class/id/rel names an author or byline,
    "By ..." text, Chinese 作者/记者 bylines; the nearest after the first h1 is preferred (then the
    nearest before it). `hints`, `texts`: the raw scan records, cleaned only as they are tried,
    nearest first, until one gives a name."""
    h1_order = h1s[0][1] if h1s else 0
    entries = []
    for key, raw, order in hints:
        if _AUTHOR_HINT.search(key) is not None and _NOT_AUTHOR_HINT.search(key) is None:
            key = key.lower()
            entries.append((order < h1_order, abs(order - h1_order), 0, raw, "username" in key or "user-name" in key))
    for key, raw, order in texts:
        entries.append((order < h1_order, abs(order - h1_order), 1, raw, key))
    entries.sort()
    for _, _, kind, raw, extra in entries[:_VISIBLE_TRIES]:
        if kind == 0:
            txt = _clean(raw)
            if not txt or len(txt) > 160:
                continue
            if _CJK.search(txt):
                m = _zh_author(txt)
                if m:
                    names = _zh_names(m)
                elif ":" in txt or "：" in txt:
                    names = []
                else:       # an author element holding just a name ("扬眼 企鹅号": the account's name)
                    names = txt.split()[:1]
            else:
                names = _byline_names(raw, extra)
            if names:
                return _join_names(names)
            continue
        for t in (_clean(raw), _clean(extra)):
            if not t:
                continue
            m = _zh_author(t)
            if m:
                names = _zh_names(m)
                if names:
                    return _join_names(names)
            if _BY.match(t) and len(t) < 120:
                names = [n for n in map(_trim_role, _split_names(t)) if n and _name_like(n)]
                if names:
                    return _join_names(names)
    if link_author:
        return link_author
    for key, raw, order in texts:
        m = _ZH_SOURCE.search(raw) or _ZH_SOURCE.search(key)
        if m and m[1] not in _ZH_NOT_NAME:
            return m[1]
    return None


_UPDATED = re.compile(r"updated|modified|reviewed|revised|aktualisiert|mis à jour|更新", re.I)
_NOT_DATELINE = re.compile(r"comment|related|footer|copyright", re.I)       # class/id of other items' dates


def _shown_dates(times, hints, texts, years, h1_order: int, limit: int = 1 << 30):
    """The dates the page shows in its datelines, nearest the headline first (after it before
    before it): <time> elements, elements classed date/published/posted/time, "Posted on ..." /
    发布时间：... text, short texts holding a date. The raw scan records are parsed lazily, nearest
    first, over the _VISIBLE_TRIES nearest (and at most `limit` elements away). Yields (date,
    "time" or "byline", labelled as an update ("Updated ...", "Last modified"), distance)."""
    entries = []
    has_year = _HAS_YEAR.search      # every date parse_date reads has a year: the rest is not a dateline
    for dt, raw, order in times[:10]:
        dist = abs(order - h1_order) + (0 if order >= h1_order else 50)
        if dist <= limit and (has_year(dt) or has_year(raw)):
            entries.append((dist, 0, dt, raw))
    for key, raw, order in texts:
        dist = abs(order - h1_order) + (0 if order >= h1_order else 50)
        if dist <= limit and (has_year(key) or has_year(raw)):
            entries.append((dist, 1, key, raw))
    for key, raw, order in hints:
        dist = abs(order - h1_order) + (0 if order >= h1_order else 50)
        if dist <= limit and len(raw) < 400 and has_year(raw) and _NOT_DATELINE.search(key) is None:
            entries.append((dist, 2, "", raw))
    for raw, order in years:
        dist = abs(order - h1_order) + (0 if order >= h1_order else 50)
        if dist <= limit:
            entries.append((dist, 3, "", raw))
    entries.sort()
    for dist, rank, a, b in entries[:_VISIBLE_TRIES]:
        if rank == 0:
            d = parse_date(a) or parse_date(_clean(b))
            if d:
                yield d, "time", False, dist
            continue
        if rank == 1:
            key, txt = _clean(a), _clean(b)
            t = key if key and len(key) < 160 else txt
        else:
            t = _clean(b)
            if rank == 2 and len(t) >= 100:
                continue
        if not t or not _HAS_YEAR.search(t) or _relative(t[:60]):
            continue
        m = _ZH_DATE.search(t)
        d = (parse_date(m[1]) if m else None) or parse_date(t[:160])
        if d:
            yield d, "byline", _UPDATED.search(t[:t.find(d[:4]) if d[:4] in t else 60]) is not None, dist


def _shown_date(times, hints, texts, years, h1_order: int) -> tuple[str | None, str]:
    """The date the page shows (_shown_dates), nearest the headline first; a date labelled as
    an update is taken only when no other is shown. Returns (date, "time" or "byline")."""
    late = None
    for d, how, update, _ in _shown_dates(times, hints, texts, years, h1_order):
        if not update:
            return d, how
        late = late or d
    return late, "byline"
