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
counts, class/id word groups, and the shape of the content: linked headings,
the first h1's size and place, long paragraphs of prose, headline links,
images inside links, list items, the repeated groups' link share and item
size) followed by ``URL_FEATURE_NAMES`` (path depth and length, digits, a
year, and words of the path that name a page type), the schema.org types,
og:type, words of the text and title that name one and the title's tokens and
separators, and the scores of a learned word model, all built by one compiled call
(``_core.page_type_row``).

Word model (``WORD_FEATURE_NAMES``): a multinomial Naive Bayes model over the
page's distinct words of the title, of the URL's path and query and of its
h1/h2 headings, each place hashed apart (``_core.page_type_words``); its
vocabulary and log-probabilities are learned on the training pages
(``benchmarks/train.py``, the words of at least 3 of them) and stored in the
model file beside the trees.  Its per-type scores, centred, are the page-type
row's last columns; the trees learn from out-of-fold scores.

Model: a gradient-boosted multiclass ensemble (LightGBM softmax, trained by
``benchmarks/train.py`` on wcxb-dev's training domains), stored as one
complete-tree ensemble per class in ``fastx/data/page_type_model.npz`` and
evaluated by ``_core.gbt_softmax``; the probabilities are the softmax of the
classes' raw scores, p_k = exp(z_k) / sum_j exp(z_j).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ... import _core
from ...errors import ModelError

PAGE_TYPES = tuple(_core.PAGE_TYPES)
MODEL_PATH = Path(__file__).resolve().parents[2] / "data" / "page_type_model.npz"
MODEL_VERSION = 2

# words of a URL path or query, or of the title, that name a page type (tokens as _core tokenizes text)
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
SCHEMA_FEATURE_NAMES = tuple(f"ld_{k}" for k in _SCHEMA_TYPES) + ("ld_other", "og_article", "og_product",
                                                                   "og_website")
_WORD_GROUPS = tuple(g for g, _ in _core.PAGE_TYPE_WORDS)
TEXT_FEATURE_NAMES = tuple(f"txt_{g}" for g in _WORD_GROUPS) + tuple(f"txt_{g}_n" for g in _WORD_GROUPS) \
    + tuple(f"title_{k}" for k in _URL_WORDS) + ("title_tokens", "title_seps")
# the word model's score per page type minus their mean (see the module docstring)
WORD_FEATURE_NAMES = tuple(f"words_{t}" for t in PAGE_TYPES)
FEATURE_NAMES = tuple(_core.PAGE_FEATURE_NAMES) + URL_FEATURE_NAMES + SCHEMA_FEATURE_NAMES \
    + TEXT_FEATURE_NAMES + WORD_FEATURE_NAMES
_core.page_type_tables(tuple(_URL_WORDS.values()), tuple(_SCHEMA_TYPES.values()))
_CACHE: dict = {}


def page_row(doc, row, words=None) -> np.ndarray:
    """The page-type model's input for `doc` (FEATURE_NAMES, float32), in one compiled call
    (``_core.page_type_row``): its page row from ``_core.default_features``, then its URL
    columns (path depth and length, digit share, a year, the site's root, and per page type
    whether a token of the path or query is one of its ``_URL_WORDS``), schema columns (per
    page type of ``_SCHEMA_TYPES`` how many JSON-LD "@type" values name it, at most 5, those
    naming none, whether og:type says article, product or website) and text columns (per
    ``PAGE_TYPE_WORDS`` group its words per thousand tokens of the text and log(1 + their
    count); whether a title token is one of the page type's URL words; the title's tokens and
    separators) and the word columns (the scores of the word model `words`, a
    ``_core.PageTypeWords``, centred; zeros without one)."""
    return _core.page_type_row(doc, row, words)


REGENERATE = "regenerate it with `python benchmarks/train.py`"


def read_model_file(path: "str | Path", what: str, names, version: int, upgrade=None) -> dict:
    """The arrays `names` and ``version`` of a model file (numpy ``.npz``, no pickles; the default
    model's and the page-type model's), checked: a ModelError naming `what` when the file cannot
    be read, lacks an array or is another version.  `upgrade(arrays)` may first bring an older
    file's arrays to `version`."""
    try:
        with np.load(Path(path), allow_pickle=False) as z:
            a = {k: z[k] for k in z.files}
    except (OSError, ValueError) as exc:
        raise ModelError(f"cannot read the {what} {path}: {exc}; {REGENERATE}") from exc
    if upgrade is not None:
        a = upgrade(a)
    missing = [k for k in (*names, "version") if k not in a]
    if missing:
        raise ModelError(f"cannot read the {what} {path}: no {', '.join(missing)}; {REGENERATE}")
    if int(a["version"]) != version:
        raise ModelError(f"{path} is {what} version {int(a['version'])}, fastx reads version {version}; "
                         + REGENERATE)
    return a


class PageTypeModel:
    """One complete-tree ensemble per page type (see the module docstring)."""

    def __init__(self, depth, feat, thr, leaf, words=None):
        """`words`: the word model's arrays (hashes uint32 (V,), log-probabilities (V, types),
        priors (types,)), or None (its columns are then 0)."""
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
        self.words = None if words is None else tuple(np.asarray(a) for a in words)
        try:
            self._words = None if words is None else _core.PageTypeWords(*self.words)
        except ValueError as exc:
            raise ModelError(f"malformed page-type word model: {exc}") from exc

    @property
    def class_ensembles(self) -> tuple:
        """One compiled ensemble (``_core.gbt_model``) per page type, PAGE_TYPES order: what
        ``_core.default_keep`` takes to compute the probabilities itself (as ``__call__`` does)."""
        return self._trees

    @property
    def compiled(self) -> tuple:
        """(class_ensembles, the compiled word model or None): what ``_core.default_keep`` takes
        to compute the probabilities itself (as ``__call__`` does)."""
        return self._trees, self._words

    def word_columns(self, words) -> np.ndarray:
        """The word columns (WORD_FEATURE_NAMES, float32) of a page's words
        (``_core.page_type_words``); zeros without a word model."""
        if self._words is None:
            return np.zeros(len(PAGE_TYPES), dtype=np.float32)
        return self._words.scores(words)

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        """The softmax of the class scores (``_core.gbt_softmax``), float32 (pages x types), of
        page rows X (FEATURE_NAMES columns)."""
        X = np.atleast_2d(np.asarray(X, dtype=np.float32))
        return np.stack([_core.gbt_softmax(self._trees, row) for row in X]) if len(X) \
            else np.zeros((0, len(PAGE_TYPES)), dtype=np.float32)

    def __call__(self, doc, row) -> np.ndarray:
        """The page-type probabilities of `doc` from its page row (``_core.default_keep``'s
        `page_types` hook, `row` its page row); kept in ``doc.cache["page_type"]`` for Extraction.page_type."""
        p = _core.gbt_softmax(self._trees, page_row(doc, row, self._words))
        doc.cache["page_type"] = p
        return p

    @classmethod
    def load(cls, path: "str | Path" = MODEL_PATH) -> "PageTypeModel":
        a = read_model_file(path, "page-type model", ("depth", "feat", "thr", "leaf", "feature_names", "types",
                                                      "word_hash", "word_logp", "word_prior"),
                            MODEL_VERSION)
        if tuple(str(s) for s in a["feature_names"]) != FEATURE_NAMES \
                or tuple(str(s) for s in a["types"]) != PAGE_TYPES:
            raise ModelError(f"{path} was trained on other page features or types than this build has; "
                             + REGENERATE)
        words = (a["word_hash"], a["word_logp"].astype(np.float32), a["word_prior"]) if a["word_hash"].size else None
        return cls(a["depth"], a["feat"], a["thr"], a["leaf"], words)

    def save(self, path: "str | Path") -> None:
        """The trees and the word model (its log-probabilities as float16) into a numpy .npz."""
        k = len(PAGE_TYPES)
        wh, wl, wp = self.words if self.words is not None else \
            (np.zeros(0, np.uint32), np.zeros((0, k), np.float32), np.zeros(k, np.float32))
        with open(path, "wb") as fh:
            np.savez_compressed(fh, depth=np.int32(self.depth), feat=self.feat, thr=self.thr, leaf=self.leaf,
                                word_hash=np.asarray(wh, np.uint32), word_logp=np.asarray(wl, np.float16),
                                word_prior=np.asarray(wp, np.float32),
                                feature_names=np.array(FEATURE_NAMES), types=np.array(PAGE_TYPES),
                                version=np.int32(MODEL_VERSION))

    def __repr__(self):
        return (f"<PageTypeModel types={len(PAGE_TYPES)} trees={self.feat.shape[1]} depth={self.depth} "
                f"words={self._words.size if self._words is not None else 0}>")


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
    return PAGE_TYPES[int(page_type_probabilities(doc).argmax())]    # (ndarray.argmax: a quarter of np.argmax's cost)
