"""What :func:`fastx.extract` returns: a Doc and its keep mask, with the text, cleaned HTML,
Markdown and page metadata made from them (on first access for all but the text)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .. import _core
from ..core.parse import Doc
from .metadata import extract_metadata

if TYPE_CHECKING:
    from .metadata import Metadata


@dataclass
class Extraction:
    """What :func:`extract` returns.

    `text` is the main content (block elements on their own lines), `html`
    the cleaned HTML of the kept nodes (built on first access), `keep` the
    per-node mask over `doc`.
    """
    text: str
    title: str
    description: str
    method: str
    url: str | None
    doc: Doc = field(repr=False)
    keep: np.ndarray = field(repr=False)
    _html: str | None = field(default=None, repr=False)
    _markdown: str | None = field(default=None, repr=False)
    _metadata: "Metadata | None" = field(default=None, repr=False)

    @property
    def metadata(self) -> "Metadata":
        """Page metadata (fastx.metadata.Metadata: title, author, date, ... and where each came
        from in `.source`), computed on first access."""
        if self._metadata is None:
            self._metadata = extract_metadata(self.doc, self.url, self.text)
        return self._metadata

    @property
    def page_type(self) -> str:
        """The page's type, one of WCXB's seven (``fastx.PAGE_TYPES``: article, forum, product,
        collection, listing, documentation, service), from the compiled page-type model
        (fastx.methods.page_type); ``default`` computes it while extracting, other methods on
        first access."""
        from ..methods.default.page_type import page_type
        return page_type(self.doc)

    @property
    def page_type_probabilities(self) -> dict[str, float]:
        """The page-type model's probability of each of ``fastx.PAGE_TYPES``."""
        from ..methods.default.page_type import PAGE_TYPES, page_type_probabilities
        return dict(zip(PAGE_TYPES, (float(v) for v in page_type_probabilities(self.doc))))

    @property
    def html(self) -> str:
        """The cleaned HTML of the kept nodes in their original structure (``Doc.render_html``),
        made on first access."""
        if self._html is None:
            self._html = self.doc.render_html(self.keep)
        return self._html

    @property
    def markdown(self) -> str:
        """The kept content as Markdown (CommonMark with GitHub tables; ``to_markdown()`` with
        links and images), made on first access."""
        if self._markdown is None:
            self._markdown = self.to_markdown()
        return self._markdown

    def to_markdown(self, links: bool = True, images: bool = True) -> str:
        """The kept content as Markdown: headings, paragraphs, lists, pipe tables, fenced code
        (raw text, language from the class), emphasis, blockquotes, rules; links ``[text](url)``
        and images ``![alt](url)`` unless switched off.  Relative URLs are resolved against
        ``<base href>``, else the canonical URL, else `url`; only http(s), mailto and relative
        URLs (and ``data:image/*`` images) are written.  A compiled pass (fastx/_markdown.pxi)."""
        base = _core.markdown_base(self.doc, self.url)
        return _core.render_markdown(self.doc, self.keep, links=links, images=images, base=base)

    def to_dict(self, html: bool = False, markdown: bool = False) -> dict:
        """Plain dict (for JSON): url, title, description, method, text, the metadata fields
        (fastx.metadata.FIELDS: title is the page's headline, canonical_url the canonical URL),
        and html and markdown if asked."""
        d = {"url": self.url, "title": self.title, "description": self.description,
             "method": self.method, "page_type": self.page_type, "text": self.text}
        m = self.metadata.as_flat()
        m["title"] = m["title"] or self.title
        m["description"] = m["description"] or self.description
        d.update(m)
        if html:
            d["html"] = self.html
        if markdown:
            d["markdown"] = self.markdown
        for k, v in d.items():          # valid UTF-8 out: a caller's url= may hold lone surrogates
            if isinstance(v, str) and not v.isascii():
                d[k] = _utf8_safe(v)
        return d

    def __str__(self) -> str:
        return self.text


def _utf8_safe(s: str) -> str:
    """`s` with every lone surrogate (U+D800-U+DFFF, unencodable in UTF-8) replaced by U+FFFD."""
    try:
        s.encode("utf-8")
        return s
    except UnicodeEncodeError:
        return re.sub("[\ud800-\udfff]", "\ufffd", s)
