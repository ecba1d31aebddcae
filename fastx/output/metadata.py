"""Page metadata: title, author, dates, site name, language, canonical URL, image, tags, type.

`fastx.extract(page).metadata` (computed on first access) is a :class:`Metadata`;
every field says where it came from in ``metadata.source`` (``"json-ld"``,
``"opengraph"``, ``"meta"``, ``"microdata"``, ``"time"``, ``"byline"``, ``"h1"``,
``"title"``, ``"url"``, ``"text"`` for a language detected from the text, ...). See docs/metadata.md.

The evidence comes from one bounded C pass over lexbor's tree
(``_core.meta_scan``, ``_meta.pxi``), resolved in the compiled core too
(``_core.meta_resolve``, the same file), sources in the
order of trust used by the metadata extractors of the field (trafilatura's
``metadata.py``, Barbaresi 2021, ACL demo "Trafilatura: A Web Scraping Library
and Command-Line Tool for Text Discovery and Extraction"; htmldate's
"extensive/fast" cascade, Barbaresi 2020, JOSS 5(51) 2439):
JSON-LD (schema.org) > Open Graph / Twitter cards > ``<meta>`` names (DC.*,
article:*, parsely-*, sailthru.*) > microdata ``itemprop`` > ``<time datetime>``
> visible bylines and datelines > dates in the URL path.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .. import _core
from .language import TEXT_CHARS, detect_language

__all__ = ["Metadata", "extract_metadata", "parse_date", "FIELDS"]

# the flat names of the metadata fields (to_dict, JSON lines, Parquet, Spark); `url` (the
# canonical URL) is flat as `canonical_url`, beside the record's own `url`
FIELDS = ("title", "author", "date", "date_modified", "sitename", "language", "canonical_url",
          "image", "description", "tags", "categories", "type")

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


# A date in a text as ISO 8601 YYYY-MM-DD, or None: ISO 8601 and its slash/dot variants,
# "September 4, 2025", "4 Sept. 2025", "2023 Jan 7", 2025年9月4日, numeric D/M/Y or M/D/Y (month
# first unless `dayfirst` or a part exceeds 12), compact 20250904; relative dates and years before
# 1995 or after next year give None (_meta.pxi); the metadata reads them day first on pages whose
# language is not English
parse_date = _core.meta_parse_date
# a publication date in a URL path (/2025/09/04/, /2025-09-04-, /20250904/), or None
url_date = _core.meta_url_date
# <title> without the site name (" | Site", " - Site", "Site | ..."; _meta.pxi)
strip_site_suffix = _core.meta_strip_site_suffix


_page_type_fn: "dict[str, Callable[[Any], str]]" = {}      # the page-type model's `page_type`, once imported


def _page_type_of(doc):
    """The callable meta_resolve asks for the page's type (the title's rules for landing pages):
    the default family's page-type model, imported when first asked (the lazy upward reference
    output/ allows); ``default`` has already computed it for the Doc it extracted."""
    def page_type() -> str:
        of = _page_type_fn.get("page_type")
        if of is None:
            from ..methods.default.page_type import page_type as imported
            of = _page_type_fn["page_type"] = imported
        return of(doc)
    return page_type


def extract_metadata(doc, url: str | None = None, text: str | None = None) -> Metadata:
    """Metadata of a parsed page (a :class:`fastx.Doc`); `url` defaults to ``doc.url``.

    Where the markup names no language, ``language`` is detected (source ``"text"``) from `text`
    (``Extraction.metadata`` passes its main text), else from the page's own text, when the
    optional extra ``fastx-extract[language]`` is installed (fastx.output.language)."""
    md = _core.meta_resolve(doc, url, Metadata, _page_type_of(doc))
    if md.language is None:
        if text is None:
            # the Doc's text (all its text nodes, UTF-8): as many bytes as the detector's
            # characters can take
            text = doc.text_buf[:4 * TEXT_CHARS].decode("utf-8", "ignore")
        lang = detect_language(text)
        if lang is not None:
            md.language = lang
            md.source["language"] = "text"
    return md
