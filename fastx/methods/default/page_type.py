"""The page-type model: which of WCXB's seven page types a page is.

WCXB's taxonomy (../shared/datasets, wcxb-dev's README): ``article``,
``forum``, ``product``, ``collection``, ``listing``, ``documentation``,
``service``.  What the main content of a page is depends on its type: a
forum's content is every post, a listing's or a collection's the list of
items, a service page's all its sections, documentation keeps its code and
tables.  The ``default`` method therefore reads the page type's
probabilities as features of every unit (its ``pt_*`` columns), so that one
unit scorer learns type-dependent decisions, and ``Extraction.page_type``
reports the most probable type.

Input: the page's row of ``_core.PAGE_FEATURE_NAMES`` (computed by
``_core.default_features`` in the same pass as the unit features: size,
link and punctuation shares, how the text spreads over units, the largest
group of repeated siblings -- the repetition VSSE's tag-path aggregation
finds, seeds/000 Formula 2 --, digits, currency signs, question marks, tag
counts, class/id word groups) followed by ``URL_FEATURE_NAMES`` (path depth
and length, digits, a year, and words of the path that name a page type).

Model: a gradient-boosted multiclass ensemble (LightGBM softmax, trained by
``benchmarks/train.py`` on wcxb-dev's training domains), stored as one
complete-tree ensemble per class in ``fastx/data/page_type_model.npz`` and
evaluated by ``_core.gbt_predict``; the probabilities are the softmax of the
classes' raw scores, p_k = exp(z_k) / sum_j exp(z_j).
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np

from ... import _core
from ...errors import ModelError

PAGE_TYPES = tuple(_core.PAGE_TYPES)
MODEL_PATH = Path(__file__).resolve().parents[2] / "data" / "page_type_model.npz"
MODEL_VERSION = 1

# words of a URL path that name a page type (whole path segments or their dash/underscore parts)
_URL_WORDS = {
    "product": ("product", "products", "p", "dp", "item", "items", "shop", "store", "buy", "sku"),
    "forum": ("forum", "forums", "thread", "threads", "topic", "topics", "community", "discussion",
              "discussions", "questions", "question", "t", "viewtopic", "showthread", "r", "comments"),
    "documentation": ("docs", "doc", "documentation", "api", "reference", "guide", "guides", "manual",
                      "tutorial", "tutorials", "learn", "wiki", "developer", "developers", "sdk", "howto"),
    "listing": ("category", "categories", "tag", "tags", "search", "archive", "archives", "list",
                "index", "page", "browse", "c", "jobs", "results", "events", "directory"),
    "collection": ("collection", "collections", "gallery", "catalog", "catalogue", "shop", "deals"),
    "article": ("blog", "news", "article", "articles", "story", "stories", "post", "posts", "press",
                "insights", "magazine"),
    "service": ("pricing", "services", "service", "features", "solutions", "about", "contact", "plans",
                "platform", "enterprise", "company", "careers", "integrations"),
}
URL_FEATURE_NAMES = ("url_depth", "url_len", "url_digits", "url_year", "url_root") + tuple(
    f"url_{k}" for k in _URL_WORDS)
# schema.org types (JSON-LD "@type", microdata itemtype) that name a page type, and Open Graph's og:type
_SCHEMA_TYPES = {
    "article": ("Article", "NewsArticle", "BlogPosting", "Report", "ScholarlyArticle", "OpinionNewsArticle",
                "AnalysisNewsArticle", "ReportageNewsArticle", "LiveBlogPosting", "Blog", "SocialMediaPosting"),
    "product": ("Product", "ProductGroup", "Offer", "AggregateOffer", "IndividualProduct", "ProductModel",
                "Vehicle", "Car"),
    "forum": ("DiscussionForumPosting", "QAPage", "Question", "Answer", "Comment"),
    "list": ("ItemList", "CollectionPage", "SearchResultsPage", "OfferCatalog", "ListItem"),
    "documentation": ("TechArticle", "APIReference", "SoftwareSourceCode", "HowTo"),
    "service": ("Service", "SoftwareApplication", "WebApplication", "FAQPage", "ProfessionalService",
                "LocalBusiness", "MobileApplication", "Course"),
}
_SCHEMA_OF = {v.encode(): k for k, vs in _SCHEMA_TYPES.items() for v in vs}
SCHEMA_FEATURE_NAMES = tuple(f"ld_{k}" for k in _SCHEMA_TYPES) + ("ld_other", "og_article", "og_product",
                                                                   "og_website")
_SCHEMA_INDEX = {k: i for i, k in enumerate(_SCHEMA_TYPES)}
_WORD_GROUPS = tuple(g for g, _ in _core.PAGE_TYPE_WORDS)
TEXT_FEATURE_NAMES = tuple(f"txt_{g}" for g in _WORD_GROUPS) + tuple(f"txt_{g}_n" for g in _WORD_GROUPS) \
    + tuple(f"title_{k}" for k in _URL_WORDS)
FEATURE_NAMES = tuple(_core.PAGE_FEATURE_NAMES) + URL_FEATURE_NAMES + SCHEMA_FEATURE_NAMES \
    + TEXT_FEATURE_NAMES
_SPLIT = re.compile(r"[/\-_.]+")
_WORD = re.compile(r"\w+")
_URL_WORD_SETS = tuple(frozenset(v) for v in _URL_WORDS.values())
_YEAR = re.compile(r"(?:^|\D)(?:19[89]\d|20[0-4]\d)(?:\D|$)")
_CACHE: dict = {}


def url_features(url: str | None) -> np.ndarray:
    """URL_FEATURE_NAMES of `url` (zeros without one): path depth, path length, digit
    share, a plausible year, the site's root page, and per page type whether a path
    word names it."""
    x = np.zeros(len(URL_FEATURE_NAMES), dtype=np.float32)
    if not url:
        return x
    try:
        parts = urlsplit(url)
    except ValueError:
        return x
    path = parts.path or "/"
    segments = [s for s in path.split("/") if s]
    x[0] = len(segments)
    x[1] = len(path)
    x[2] = sum(c.isdigit() for c in path) / max(1, len(path))
    x[3] = 1.0 if _YEAR.search(path) else 0.0
    x[4] = 1.0 if not segments and not parts.query else 0.0
    words = set(w.lower() for w in _SPLIT.split(path + "/" + (parts.query or "")) if w)
    for k, vocab in enumerate(_URL_WORDS.values()):
        x[5 + k] = 1.0 if words.intersection(vocab) else 0.0
    return x


def signal_features(doc) -> np.ndarray:
    """SCHEMA_FEATURE_NAMES then TEXT_FEATURE_NAMES of `doc`, from ``_core.page_signals``: per
    page type, how many JSON-LD "@type" values name it (at most 5), those naming none, whether
    og:type says article, product or website; per page type, its words (``PAGE_TYPE_WORDS``)
    per thousand tokens of the text and log(1 + their count); whether the title holds a word
    that names a page type (the URL words)."""
    types, og, counts, tokens = _core.page_signals(doc)
    ns = len(SCHEMA_FEATURE_NAMES)
    x = np.zeros(ns + len(TEXT_FEATURE_NAMES), dtype=np.float32)
    other = len(_SCHEMA_TYPES)
    for v in types:
        k = _SCHEMA_OF.get(v.strip().rsplit(b"/", 1)[-1])
        j = _SCHEMA_INDEX[k] if k else other
        x[j] = min(5.0, x[j] + 1)
    if og:
        x[other + 1] = 1.0 if og.startswith(b"article") or og in (b"blog", b"news") else 0.0
        x[other + 2] = 1.0 if og.startswith((b"product", b"og:product")) else 0.0
        x[other + 3] = 1.0 if og == b"website" else 0.0
    g = len(_WORD_GROUPS)
    per = 1000.0 / max(1, tokens)
    x[ns:ns + g] = [c * per for c in counts]
    x[ns + g:ns + 2 * g] = [math.log1p(c) for c in counts]
    if doc.title:
        words = set(_WORD.findall(doc.title.lower()))
        for j, vocab in enumerate(_URL_WORD_SETS):
            if not words.isdisjoint(vocab):
                x[ns + 2 * g + j] = 1.0
    return x


def page_row(doc, row) -> np.ndarray:
    """The page-type model's input for `doc`: its page row from ``_core.default_features``,
    then its URL, schema and text features."""
    return np.concatenate([np.asarray(row, dtype=np.float32), url_features(doc.url), signal_features(doc)])


class PageTypeModel:
    """One complete-tree ensemble per page type (see the module docstring)."""

    def __init__(self, depth, feat, thr, leaf):
        self.depth = int(depth)
        self.feat = np.ascontiguousarray(feat, dtype=np.int32)      # (classes, trees, 2^depth - 1)
        self.thr = np.ascontiguousarray(thr, dtype=np.float32)
        self.leaf = np.ascontiguousarray(leaf, dtype=np.float32)    # (classes, trees, 2^depth)
        if self.feat.ndim != 3 or self.feat.shape[0] != len(PAGE_TYPES):
            raise ModelError(f"a page-type model has one ensemble per type ({len(PAGE_TYPES)})")
        if self.feat.size and self.feat.max() >= len(FEATURE_NAMES):
            raise ModelError("a tree tests a page feature that fastx does not compute")
        try:
            self._trees = tuple(_core.gbt_model(self.depth, self.feat[k], self.thr[k], self.leaf[k])
                                for k in range(len(PAGE_TYPES)))
        except ValueError as exc:
            raise ModelError(f"malformed page-type tree arrays: {exc}") from exc

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        """The softmax of the class scores (``_core.gbt_softmax``), float32 (pages x types), of
        page rows X (FEATURE_NAMES columns)."""
        X = np.atleast_2d(np.asarray(X, dtype=np.float32))
        return np.stack([_core.gbt_softmax(self._trees, row) for row in X]) if len(X) \
            else np.zeros((0, len(PAGE_TYPES)), dtype=np.float32)

    def __call__(self, doc, row) -> np.ndarray:
        """The page-type probabilities of `doc` from its page row (``_core.default_keep``'s
        `page_types` hook, `row` its page row); kept in ``doc.cache["page_type"]`` for Extraction.page_type."""
        p = _core.gbt_softmax(self._trees, page_row(doc, row))
        doc.cache["page_type"] = p
        return p

    @classmethod
    def load(cls, path: "str | Path" = MODEL_PATH) -> "PageTypeModel":
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as z:
                a = {k: z[k] for k in ("depth", "feat", "thr", "leaf", "feature_names", "types", "version")}
        except (OSError, ValueError, KeyError) as exc:
            raise ModelError(f"cannot read the page-type model {path}: {exc}; regenerate it with "
                             "`python benchmarks/train.py`") from exc
        if int(a["version"]) != MODEL_VERSION:
            raise ModelError(f"{path} is page-type model version {int(a['version'])}, fastx reads "
                             f"version {MODEL_VERSION}; regenerate it with `python benchmarks/train.py`")
        if tuple(str(s) for s in a["feature_names"]) != FEATURE_NAMES \
                or tuple(str(s) for s in a["types"]) != PAGE_TYPES:
            raise ModelError(f"{path} was trained on other page features or types than this build has; "
                             "regenerate it with `python benchmarks/train.py`")
        return cls(a["depth"], a["feat"], a["thr"], a["leaf"])

    def save(self, path: "str | Path") -> None:
        with open(path, "wb") as fh:
            np.savez_compressed(fh, depth=np.int32(self.depth), feat=self.feat, thr=self.thr, leaf=self.leaf,
                                feature_names=np.array(FEATURE_NAMES), types=np.array(PAGE_TYPES),
                                version=np.int32(MODEL_VERSION))

    def __repr__(self):
        return f"<PageTypeModel types={len(PAGE_TYPES)} trees={self.feat.shape[1]} depth={self.depth}>"


def shipped() -> PageTypeModel:
    """The pretrained page-type model in fastx/data, loaded once."""
    m = _CACHE.get("shipped")
    if m is None:
        m = _CACHE["shipped"] = PageTypeModel.load(MODEL_PATH)
    return m


def page_type_probabilities(doc) -> np.ndarray:
    """The page-type probabilities of `doc` (PAGE_TYPES order), computed once per Doc."""
    p = doc.cache.get("page_type")
    if p is None:
        _, _, _, row = _core.default_features(doc)
        p = shipped()(doc, row)
    return p


def page_type(doc) -> str:
    """The most probable of WCXB's page types for `doc`."""
    return PAGE_TYPES[int(np.argmax(page_type_probabilities(doc)))]
