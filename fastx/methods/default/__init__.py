"""``default``: every source paper's characteristics fused in one trained unit scorer.

The page is cut into *units*, the text of one block-level element each
(``_core.block_ancestors``).  For every unit the compiled kernel
``_core.default_features`` computes one feature vector (names:
``_core.FEATURE_NAMES``): the unit's own text statistics (length, link share,
punctuation per character -- the VSSE paper's vvtc, seeds/000 Formula 1),
CETD's densities of its block and four ancestors (TD Eq. 1, CTD Eq. 2,
DensitySum Eq. 5, seeds/004) and where CETD's Algorithm 2 puts it, link
char/tag densities (seeds/002's purification rules), ``<p>`` counts
(seeds/003), tag categories along the tag path, semantic markup (article,
main, role=main, itemprop=articleBody, nav/aside/footer/header, headings; for a unit outside
the page's main landmarks, the share of the page's text they hold: ``main_out``),
class/id words of the ancestors matched against a small fixed vocabulary,
relative position, its neighbours' length and link share, and token overlap
with the page title and meta description (the VSSE paper's Formula 4
compares candidates with both).

Modern pages (seeds/000's repetition, WCXB's page types): each unit also
carries the repetition structure around it -- the sibling group of elements
with its tag and class value (the structure VSSE's tag-path aggregation,
seeds/000 Formula 2, looks for), its size, level, share of the page's text
and link share -- and the page-type model's probabilities
(``fastx.methods.page_type``: article, forum, product, collection, listing,
documentation, service), so that one scorer learns what the content of each
kind of page is: every post of a forum, the items of a listing, all the
sections of a service page.

A gradient-boosted tree ensemble, trained offline by ``benchmarks/train.py``
(LightGBM, soft labels from ``fastx._labels``) on the training split of the
dev corpora, maps each vector to log-odds; ``_core.gbt_predict`` evaluates it
from flat arrays shipped in ``fastx/data/default_model.npz``, with early exit
for units whose decision is already certain.  A model may have two stages
(stacked generalization, Wolpert 1992; ``train.py --stages 2``): the first
ensemble scores every unit alone; the
second reads the unit's row and its context in those scores
(``_core.default_context``: per enclosing container, the mean, kept share and
largest first-stage probability of the units inside it; the neighbours' and
the page's), so that one short item of a product page, a listing or a forum
thread is judged with the items around it.  The second stage trains on
out-of-fold first-stage scores, as it sees them on unseen pages.  Units whose probability
reaches the threshold of the page's most probable type are kept (articles use
the model's global pair; each other type a pair chosen on out-of-fold
predictions of its training pages), unless no unit of the page reaches the
page threshold: then the page has no main content (an index or portal page)
and nothing is kept.  When the page passes that gate but no unit reaches the
threshold, CETD's Algorithm 2 selection (seeds/004) is kept instead of
nothing; when what is kept is under STARVED_WORDS words, the units reaching
STARVED_THRESHOLD are kept as well (a page whose content is short pieces), and on a
collection, listing or product whose best unit's probability p* is under REL_BEST, the units
reaching REL_SHARE[type] * p*; a kept unit that repeats an earlier kept one word for word (DUP_WORDS
words at least; a responsive layout's second copy of a description) is dropped on forum,
product, listing and service pages.  Then the page rules (_core.GBT_PAGE_RULES), each on the
page types of its *_TYPES tuple, drop the kept text inside: review and rating widgets and
carousels (REVIEW_TYPES: products); elements whose class says they are not shown (UNSHOWN_TYPES:
products); <button> elements (BUTTON_TYPES: articles, listings, collections); a shop's navigation, other
products' rows, popovers and notices (SHOP_TYPES: products, collections); dialogs and drawers that
open over the page and a card's extras (OVERLAY_TYPES: collections); <header> and <select>
elements (SHOP_CHROME_TYPES: products, collections); forum posts' signatures and reaction bars
(POST_EXTRA_TYPES: forums); <form> elements (FORM_TYPES: services, articles, products, collections);
an article's own <footer>s and closed <dialog>s (INNER_CHROME_TYPES: articles); an article's
disclosures and disclaimers, author bios, sign-up boxes, breadcrumbs and tooltips named by class
(ARTICLE_EXTRA_TYPES: articles); asides and calls to action drawn by class -- "Read more" links,
newsletter sign-ups -- and breadcrumbs (ASIDE_CTA_TYPES: listings); the first <h1>
(the title, which WCXB's gold leaves out) and <div> footers, breadcrumbs, popups and "nocontent"
widgets (CHROME_TYPES: forums, documentation); the page's footer and its
navigation (the contentinfo and navigation landmarks: LANDMARK_TYPES, every page).  The headline (the heading before the kept text
that reads like the page title) is kept with the text.  Comments,
navigation and the like are what the model learned to drop.

Model file (numpy ``.npz``, no pickles): complete binary trees of one depth D,
breadth-first: ``depth``; ``feat`` (int32, trees x 2^D-1: feature tested);
``thr`` (float32, same shape: the first child when x <= thr; LightGBM's
double thresholds rounded down to float32, which is exact for float32
features); ``leaf`` (float32, trees x 2^D); ``first_feat``/``first_thr``/``first_leaf`` (the
first stage, same layout and depth; zero trees: a single stage: ``feat``, ``thr`` and
``leaf`` score X itself); ``exit_at``/``exit_margin`` (the early-exit schedule of the last stage); ``threshold`` (a unit's probability to be kept) and
``page_threshold`` (the probability the page's best unit needs, else the page
has no main content); ``type_thresholds`` (page types x 2: the pair per page
type, PAGE_TYPES order; empty: the global pair everywhere); ``feature_names`` (checked against the kernel's at
load); ``version``.

This folder: the method (here), the page-type model (``page_type.py``), the explanation for
``fastx show`` (``explain.py``) and the kernels (``_kernels.pxi``: fused unit features, tree
ensembles, the keep rule).  May import core/, the registry, other families' kernels through
``_core`` and fastx.errors.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ... import _core
from ...errors import InputError, ModelError
from . import page_type as _page_type
from .. import register


def _type_mask(types) -> int:
    """The bit mask of page types default_keep's rule arguments take (bit k: PAGE_TYPES[k])."""
    return sum(1 << _page_type.PAGE_TYPES.index(t) for t in types)


MODEL_PATH = Path(__file__).resolve().parents[2] / "data" / "default_model.npz"
MODEL_VERSION = 4
_ARRAYS = ("depth", "feat", "thr", "leaf", "first_feat", "first_thr", "first_leaf", "exit_at", "exit_margin",
           "threshold", "page_threshold", "type_thresholds", "feature_names", "version")
_CACHE: dict = {}
# A page whose kept units hold fewer than STARVED_WORDS words (the headline and a line, where the
# page holds more) keeps, besides, every unit whose probability reaches STARVED_THRESHOLD
# (_core.default_keep's low cut; such a page is scored again by every tree, exactly): on
# product and other pages whose content is short pieces (price, sizes, a spec table) the model
# ranks those pieces far above the page's menus and footers but below the cut.  Chosen on
# wcxb-dev's training split (word F1 .8551 -> .8586 there; validation .8281 -> .8324).
STARVED_WORDS = 80
STARVED_THRESHOLD = 0.1
# On a page the page-type model reads as a collection, a listing or a product, when the best unit's
# probability p* is under REL_BEST (the model is unsure of the whole page: product grids and
# result lists are not what its news pages taught it), the units reaching REL_SHARE[type] * p* are
# kept as well.  First chosen on out-of-fold scores of wcxb-dev's training split (5 folds by domain:
# .8490 -> .8521; validation .8324 -> .8340; the model trained without wcxb-dev .794 -> .806 on
# it) for collections and listings, REL_BEST 0.8 and one share 0.2.  Then, the text default missed
# on those pages traced to its place in the Doc (collection, listing and product pages of wcxb-dev:
# the largest cause, item cards of repeated groups scored between 0.1 and the threshold, 12.5% of
# collections' gold words on 41 pages of 32 sites), REL_BEST 0.9 and a share per type, products
# included, each the best on the training split's pages read as that type (exact, the page rules
# after it; grid REL_BEST 0.8-0.95 x share 0.15-0.5), by the type pages are read as (training /
# validation split): collection .7217 -> .7233 (8 win / 6 lose) / .7063 -> .7218 (10 win / 4 lose);
# listing .7463 -> .7600 (19 win on 19 sites / 2 lose) / .7635 -> .7666 (6 win / 1 loses); product
# .7023 -> .7070 (16 win on 14 sites / 13 lose) / .7396 -> .7428 (6 win / 4 lose).  Slot rules
# (keeping a card's unit when the same slot of a sibling card is kept, or voting a whole slot by
# its mean score) lost on the training split: the gold keeps a site's cards or none of them, as
# the model's kept ones say.  Built, the same figures (all wcxb-dev: training .8832 -> .8846,
# validation .8695 -> .8720; by gold type, recall: collection .791 -> .839, product .817 -> .836).
# The other corpora: no page read as a collection or product; of 3 read as listings, two change
# (cleaneval's shingle F1 .424 -> .490, cpe's 0 -> 0).  A product page is now scored without early
# exit (exact p*): 3.7% more time per product page (median); articles unchanged.
REL_TYPES = ("collection", "listing", "product")
REL_BEST = 0.9
REL_SHARE = {"collection": 0.2, "listing": 0.4, "product": 0.3}
_REL_MASK = _type_mask(REL_TYPES)     # default_keep's rel_types
_REL_SHARES = tuple(REL_SHARE.get(t, 0.0) for t in _page_type.PAGE_TYPES)   # default_keep's rel_shares
# A kept unit of at least DUP_WORDS words that repeats an earlier kept unit word for word is
# dropped (_core._gbt_dedupe's docstring: a responsive theme's mobile and desktop copies of one
# description, a sticky bar restating the product name, cloned carousel slides, a quoted post),
# on the page types read as forum, product, listing or service: articles, documentation and
# collections repeat text on purpose (refrains, shared parameters, identical item cards).
# Chosen on out-of-fold scores of wcxb-dev's training split (5 folds by domain: .8565 -> .8611,
# product .585 -> .602, forum .760 -> .788); validation .8355 -> .8393 (product .609 -> .621).
DUP_WORDS = 3
DUP_TYPES = ("forum", "product", "listing", "service")
_DUP_MASK = _type_mask(DUP_TYPES)     # default_keep's dup_types
# On pages read as products, the kept text inside review and rating widgets (class/id words
# _core.GBT_REVIEW_WORDS) is dropped unless it is more than half of the kept text
# (_core._gbt_review_drop's docstring: a third of the words wrongly kept on wcxb-dev's product
# pages; the other page types keep their testimonials and ratings).
# The same rule then drops, with its own share guard, the kept text inside carousels and scrollers
# (class/id words _core.GBT_CAROUSEL_WORDS: other products' rows, image strips), on products only:
# a collection's grid is often a carousel of the cards the gold keeps.
REVIEW_TYPES = ("product",)
# On pages read as any of LANDMARK_TYPES, the kept text inside the page's footer (a <footer> outside
# every article, aside, main, nav and section, or role=contentinfo: the contentinfo landmark) and
# inside navigation (<nav>, <menu>, role=navigation or menu: the navigation landmark) is dropped,
# however much of the kept text it is (_core._gbt_landmark_drop's docstring: shops' legal fine
# print, footnotes and service blurbs, which the model keeps at .4-.7; menus, breadcrumbs, tables
# of contents).  Every type: it wins or ties on each of them, on both splits of wcxb-dev.
LANDMARK_TYPES = _page_type.PAGE_TYPES
# On pages read as products, the kept text inside elements whose class says they are not shown
# (_core.GBT_UNSHOWN_CLASSES: a framework's hide/hidden/d-none, its screen-reader-only sr-only/
# visually-hidden) is dropped unless it is more than half of the kept text (_core._gbt_unshown_drop's
# docstring: a theme's hidden cart panels and variant data, screen-reader captions and prices).
UNSHOWN_TYPES = ("product",)
# On pages read as articles or listings, the kept text inside <button> elements is dropped, however
# much of the kept text it is (_core._gbt_keep_mask's docstring: a page's controls, "Save this
# event", "Share", "View more", which the model keeps with the unit around them).  Simulated on
# wcxb-dev by the type pages are read as (training / validation split): article .9493 -> .9495 /
# .9398 -> .9399, listing .7396 -> .7413 / .7381 -> .7581; the other types lose on one split or both
# (the questions of FAQ accordions and the titles of tabs are buttons there).  Collections were added
# after the rescue of unsure pages (REL_SHARE) kept more of a grid's cards: their "Add to Compare",
# "Quick view", "Add to Cart", "Show more", "Learn More", "13 Colors" and pager buttons; after every
# other rule (training / validation split): collection .7233 -> .7292 (9 win on 9 sites, 3 lose) /
# .7218 -> .7355 (13 win on 4 sites, 2 lose); products still lose on the validation split (.7428 ->
# .7393, 2 win / 3 lose).
BUTTON_TYPES = ("article", "listing", "collection")
# On pages read as forums, the kept text inside a post's signature or its reaction bar (class/id
# words _core.GBT_POST_EXTRA_WORDS: signature, reactions, reaction, likes) is dropped unless it is
# more than half of the kept text (_core._gbt_post_extra_drop's docstring: the author's motto and
# gear under every post, "1 Like", "Reactions: ..."; the gold leaves them out).  Simulated on wcxb-dev
# by the type pages are read as (training / validation split): forum .7940 -> .7969 (19 win on 19
# sites, none loses) / .8678 -> .8731 (5 win on 5 sites, none loses).
POST_EXTRA_TYPES = ("forum",)
# On pages read as services, the kept text inside <form> elements is dropped unless it is more than
# half of the kept text (_core._gbt_form_drop's docstring: the contact, quote, demo or newsletter
# form a service page ends in, its labels, <select> options and consent fine print).  Simulated on
# wcxb-dev by the type pages are read as (training / validation split): service .8466 -> .8499 (9
# win on 8 sites, 2 lose) / .8871 -> .8889 (2 win, 1 loses); forum and documentation unchanged.
# On products and collections (a shop's newsletter, filter and add-to-cart forms), built, after the
# other rules: product .7020 -> .7023 / .7377 -> .7396, collection .7122 -> .7149 / .7025 -> .7026.
# On articles (a newsletter or comment form), after the other page rules: .9496 -> .9500 (7 win on 6
# sites) / .9399 -> .9400 (1 wins); the other corpora's articles equal or up (dragnet, l3s).
FORM_TYPES = ("service", "article", "product", "collection")
# On pages read as products or collections, the kept text inside elements whose class or id names the
# shop's navigation (menu, breadcrumb, sort, filter, facet), other products (related, recommended,
# upsell, recently viewed) or an overlay (popover, tooltip) is dropped unless it is more than half of
# the kept text (_core.GBT_SHOP_WORDS; _core._gbt_shop_drop's docstring: a theme's <div> menus, a
# collection's sort and filter facets, "you may also like" rows, a buy box's size-chart popovers),
# or a notice (message(s), alert(s), disclaimer, returns: stock and shipping notes, returns promos).
# Simulated on wcxb-dev by the type pages are read as (validation / training split): product .7198
# -> .7268 / .6856 -> .6919, collection .6863 -> .6941 / .7020 -> .7077.
SHOP_TYPES = ("product", "collection")
# On pages read as collections, the kept text inside elements whose class or id names a dialog or panel
# that opens over the page (_core.GBT_OVERLAY_WORDS: modal, popup, drawer) is dropped unless it is more
# than half of the kept text (_core._gbt_overlay_drop's docstring: cart and filter drawers, newsletter
# and region popups, quick-view modals, shown only when opened).  Simulated on wcxb-dev after the shop
# rule: validation .6941 -> .6976, training .7077 -> .7098; products lose on the training split.
# Then a card's extras too (review, reviews, visually, icon(s), actions: stars and review counts,
# screen-reader price labels, icon captions, quick-view rows): training .7149 -> .7217, validation
# .7026 -> .7063, after every other rule.  Then a card's buttons drawn as <div>s or links and the
# elements a theme hides (button, hide), after the button rule on collections: training .7292 ->
# .7345 (7 win on 6 sites, 2 lose) / validation .7355 -> .7381 (6 win on 6 sites, none loses).  Built,
# the two together (pages read as collections, training / validation): .7233 -> .7339 (13 win on 12
# sites, 7 lose on 6) / .7218 -> .7376 (18 win on 8 sites, 9 of them one outdoor shop's "Add <name>
# to Compare" grids; 2 lose); no other type and no page of the other corpora changes (none is read as
# a collection).
OVERLAY_TYPES = ("collection",)
# On pages read as listings, the kept text inside <aside> elements and inside elements whose class or
# id names a call to action (_core.GBT_ASIDE_CTA_WORDS: btn, button, newsletter, subscribe, signup) is
# dropped unless it is more than half of the kept text (_core._gbt_aside_cta_drop's docstring: the
# "Read more", "Star", "Rate this book" controls drawn as links or <div>s under every item, newsletter
# sign-up boxes between them, a sidebar beside them).  Simulated on wcxb-dev after the other page
# rules (training / validation split): listing .7413 -> .7463 (12 win on 12 sites, 1 loses) /
# .7581 -> .7635 (4 win on 4 sites, none loses).  Then a listing's breadcrumbs too (breadcrumb,
# breadcrumbs), after every other rule: .7600 -> .7601 (2 win on 2 sites, none loses) / .7666 ->
# .7668 (1 wins, none loses).
ASIDE_CTA_TYPES = ("listing",)
# On pages read as forums or documentation, the kept text inside the page's first <h1> and inside
# elements whose class or id names the page's chrome (_core.GBT_CHROME_WORDS: footer, breadcrumb(s),
# popup, nocontent) is dropped unless it is more than half of the kept text (_core._gbt_chrome_drop's
# docstring: WCXB keeps the title in its own field, a forum's gold starts at the first post; a
# documentation theme's <div> footer, breadcrumbs and devsite's "nocontent" feedback widgets).
# Simulated on wcxb-dev after the other page rules, by the type pages are read as (training /
# validation split): forum .7969 -> .7989 (24 win / 3 lose, on 23/3 sites) / .8731 -> .8776 (15 win on
# 14 sites, none loses); documentation .9447 -> .9481 (21 win / 5 lose, on 16/5 sites) / .9464 -> .9488
# (9 win / 1 lose, on 6/1 sites).  Services lose with the <h1> (a landing page's slogan is in their gold),
# articles too on the other corpora (dragnet, l3s, cpe, cleaneval keep the title; and no class pass there).
CHROME_TYPES = ("forum", "documentation")
# On pages read as products or collections, the kept text inside <header> and <select> elements is
# dropped unless it is more than half of the kept text (_core._gbt_shop_chrome_drop's docstring: a
# shop theme's header bars and promo strips, and its sort, currency and region dropdowns).  On
# wcxb-dev, built, after the other rules (training / validation): product .7019 -> .7023 / .7378 ->
# .7396, collection .7137 -> .7149 / .7000 -> .7026.
SHOP_CHROME_TYPES = ("product", "collection")
# On pages read as articles, the kept text inside <footer> and <dialog> elements (the footers the landmark
# rule leaves: an article's or a section's own) is dropped unless it is more than half of the kept text
# (_core._gbt_inner_chrome_drop's docstring: tags, share and author lines under a story; sign-in
# and newsletter dialogs).  Simulated on wcxb-dev after the other page rules (training / validation
# split): article .9500 -> .9503 (6 win on 6 sites, none loses) / .9400 -> .9401 (1 wins); the other
# corpora equal or up (dragnet, readability).  Services win on the training split only.
INNER_CHROME_TYPES = ("article",)
# On pages read as articles, after every other rule, the kept text inside elements whose class or id
# names an article's extras (_core.GBT_ARTICLE_EXTRA_WORDS: disclosure, disclaimer, bio, signup,
# breadcrumb(s), tooltip) is dropped unless it is more than half of the kept text
# (_core._gbt_article_extra_drop's docstring: affiliate disclosures, author bio boxes, sign-up boxes,
# <div> breadcrumb trails).  Simulated on wcxb-dev (training / validation split): article .9503 ->
# .9511 (52 win on 51 sites, 7 lose) / .9401 -> .9412 (14 win on 14 sites, none loses); the other
# corpora's touched pages up (dragnet, l3s, readability) or untouched (cleaneval-dev, cpe).  The shop
# rule on articles and listings (its words as they are) was left out: cleaneval-dev loses ("related")
# and some of its words lose on one split (menu, filter, message, alert).
ARTICLE_EXTRA_TYPES = ("article",)
# the page rules' type masks, in the order of _core.GBT_PAGE_RULES (default_keep's rule_types)
_RULE_TYPES = {"review": REVIEW_TYPES, "landmark": LANDMARK_TYPES, "unshown": UNSHOWN_TYPES,
               "button": BUTTON_TYPES, "shop": SHOP_TYPES, "post_extra": POST_EXTRA_TYPES,
               "form": FORM_TYPES, "overlay": OVERLAY_TYPES, "aside_cta": ASIDE_CTA_TYPES,
               "chrome": CHROME_TYPES, "shop_chrome": SHOP_CHROME_TYPES, "inner_chrome": INNER_CHROME_TYPES,
               "article_extra": ARTICLE_EXTRA_TYPES}
_RULE_MASKS = tuple(_type_mask(_RULE_TYPES[r]) for r in _core.GBT_PAGE_RULES)


def logit(p: float) -> float:
    """log(p / (1 - p)), infinite at 0 and 1."""
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return math.log(p / (1.0 - p))


class DefaultModel:
    """The tree ensemble of the ``default`` method (see the module docstring)."""

    def __init__(self, depth, feat, thr, leaf, threshold, exit_at=(), exit_margin=(), page_threshold=0.0,
                 type_thresholds=None, first=None):
        self.depth = int(depth)
        self.feat = np.ascontiguousarray(feat, dtype=np.int32)
        self.thr = np.ascontiguousarray(thr, dtype=np.float32)
        self.leaf = np.ascontiguousarray(leaf, dtype=np.float32)
        self.exit_at = np.ascontiguousarray(exit_at, dtype=np.int32)
        self.exit_margin = np.ascontiguousarray(exit_margin, dtype=np.float32)
        self.threshold = float(threshold)
        self.page_threshold = float(page_threshold)
        # `first`: (feat, thr, leaf) of the first stage (None or zero trees: one stage)
        self.first = None if first is None or not np.size(first[0]) else tuple(
            np.ascontiguousarray(a, dtype=t) for a, t in zip(first, (np.int32, np.float32, np.float32)))
        if self.first is not None and self.first[0].max() >= len(_core.FEATURE_NAMES):
            raise ModelError("a first-stage tree tests a feature the kernel does not compute")
        if self.feat.size and self.feat.max() >= len(self.feature_names):
            raise ModelError("a tree tests a feature the kernel does not compute")
        if (np.diff(self.exit_at) <= 0).any() or (self.exit_margin < 0).any():
            raise ModelError("the early-exit schedule must be increasing tree counts with margins >= 0")
        if not 0.0 < self.threshold < 1.0 or not 0.0 <= self.page_threshold < 1.0:
            raise ModelError(f"thresholds {self.threshold}, {self.page_threshold} are not probabilities")
        self._cuts = (logit(self.threshold), logit(self.page_threshold))   # the defaults, as log-odds
        # (threshold, page threshold) per page type (PAGE_TYPES order): the defaults where the page
        # type is known; None: the two above for every page
        self.type_thresholds = None
        self._type_cuts = None
        if type_thresholds is not None and np.size(type_thresholds):
            tt = np.asarray(type_thresholds, dtype=np.float64)
            if tt.shape != (len(_page_type.PAGE_TYPES), 2) or not ((tt >= 0) & (tt < 1)).all() \
                    or not (tt[:, 0] > 0).all():
                raise ModelError(f"type_thresholds must be {len(_page_type.PAGE_TYPES)} (threshold, "
                                 "page threshold) probability pairs")
            self.type_thresholds = tt
            self._type_cuts = [(logit(a), logit(b)) for a, b in tt]
        try:
            self._trees = _core.gbt_model(self.depth, self.feat, self.thr, self.leaf, self.exit_at,
                                          self.exit_margin)
            self._first = None if self.first is None else _core.gbt_model(self.depth, *self.first)
        except ValueError as exc:
            raise ModelError(f"malformed tree arrays: {exc}") from exc

    @property
    def trees(self) -> int:
        return self.feat.shape[0]

    @property
    def feature_names(self) -> tuple:
        """The columns the last stage reads: FEATURE_NAMES, then CONTEXT_FEATURE_NAMES when staged."""
        return tuple(_core.FEATURE_NAMES) + (() if self.first is None else tuple(_core.CONTEXT_FEATURE_NAMES))

    def first_log_odds(self, X) -> "np.ndarray | None":
        """The first stage's log-odds per unit (row of X); None for a one-stage model."""
        return None if self._first is None else _core.gbt_predict(self._first, X)

    def rows(self, parent, units, X) -> np.ndarray:
        """The rows the last stage scores: X itself, or with a first stage, X and the context of
        its scores (``_core.default_context``; `parent`: the page's ``Doc.parent``, `units`: the
        units' block elements)."""
        if self._first is None:
            return X
        return _core.default_context(parent, units, X, self.first_log_odds(X))

    def log_odds(self, X, early_exit: bool = False) -> np.ndarray:
        """Log-odds per unit of the last stage (X: its rows, see `rows`).  With `early_exit`, a
        unit whose decisions at the model's thresholds are settled keeps its partial sum."""
        cuts = (logit(self.threshold), logit(self.page_threshold)) if early_exit else ()
        return _core.gbt_predict(self._trees, X, cuts)

    def keep(self, doc, threshold: float | None = None, page_threshold: float | None = None,
             headline: bool = True, page_types=None) -> np.ndarray:
        """Node keep mask over `doc` (``_core.default_keep``): nothing when no
        unit reaches `page_threshold`, else the units reaching `threshold`.
        `page_types`: the page-type model (default: the shipped one)."""
        cut = self._cuts[0] if threshold is None else logit(threshold)
        page_cut = self._cuts[1] if page_threshold is None else logit(page_threshold)
        own = threshold is None and page_threshold is None     # the model's own decisions
        # the page rules apply with the model's own thresholds: a collection or listing is scored
        # without early exit (exact probabilities), a starved page again by every tree
        pt = _page_type.shipped() if page_types is None else page_types
        if type(pt) is _page_type.PageTypeModel:
            pt = pt.compiled               # the probabilities computed in default_keep itself
        return _core.default_keep(doc, self._trees, cut, page_cut, headline, 0.6, pt,
                                  self._type_cuts if own else None, own, self._first,
                                  logit(STARVED_THRESHOLD), STARVED_WORDS if own else 0.0,
                                  REL_BEST if own else 0.0, 0.0, _REL_MASK,
                                  DUP_WORDS if own else 0.0, _DUP_MASK, _RULE_MASKS if own else None,
                                  _REL_SHARES)

    @classmethod
    def load(cls, path: "str | Path" = MODEL_PATH) -> "DefaultModel":
        def one_stage(a: dict) -> dict:         # a version-3 file: before the context stage
            if "version" in a and int(a["version"]) == 3:
                a.update(first_feat=np.zeros((0, 0)), first_thr=np.zeros((0, 0)), first_leaf=np.zeros((0, 0)),
                         version=np.int32(MODEL_VERSION))
            return a
        a = _page_type.read_model_file(path, "default model", _ARRAYS, MODEL_VERSION, one_stage)
        names = tuple(_core.FEATURE_NAMES) + (tuple(_core.CONTEXT_FEATURE_NAMES) if a["first_feat"].size else ())
        if tuple(str(s) for s in a["feature_names"]) != names:
            raise ModelError(f"{path} was trained on other features than this build computes; "
                             + _page_type.REGENERATE)
        return cls(a["depth"], a["feat"], a["thr"], a["leaf"], a["threshold"], a["exit_at"], a["exit_margin"],
                   a["page_threshold"], a["type_thresholds"], (a["first_feat"], a["first_thr"], a["first_leaf"]))

    def save(self, path: "str | Path") -> None:
        inner = (1 << self.depth) - 1
        first = self.first or (np.zeros((0, inner), np.int32), np.zeros((0, inner), np.float32),
                               np.zeros((0, inner + 1), np.float32))
        with open(path, "wb") as fh:
            np.savez_compressed(fh, depth=np.int32(self.depth), feat=self.feat, thr=self.thr, leaf=self.leaf,
                                first_feat=first[0], first_thr=first[1], first_leaf=first[2],
                                exit_at=self.exit_at, exit_margin=self.exit_margin,
                                threshold=np.float64(self.threshold),
                                page_threshold=np.float64(self.page_threshold),
                                type_thresholds=(np.zeros((0, 2)) if self.type_thresholds is None
                                                 else self.type_thresholds),
                                feature_names=np.array(self.feature_names), version=np.int32(MODEL_VERSION))

    def __repr__(self):
        return (f"<DefaultModel trees={self.trees}{'' if self.first is None else f'+{len(self.first[0])}'} "
                f"depth={self.depth} threshold={self.threshold:.2f} "
                f"page_threshold={self.page_threshold:.2f}>")


def features(doc, page_types=None):
    """(unit_of, units, X): the units of `doc` and their feature matrix (``_core.default_features``),
    the ``pt_*`` columns filled with the page-type model's probabilities (`page_types`, default
    the shipped model; ``False`` leaves them zero)."""
    unit_of, units, X, row = _core.default_features(doc)
    if page_types is not False and len(units):
        X[:, len(X[0]) - len(_page_type.PAGE_TYPES):] = (_page_type.shipped() if page_types is None
                                                          else page_types)(doc, row)
    return unit_of, units, X


def shipped() -> DefaultModel:
    """The pretrained model in fastx/data, loaded once."""
    m = _CACHE.get("shipped")
    if m is None:
        m = _CACHE["shipped"] = DefaultModel.load(MODEL_PATH)
    return m


@register("default", "fused trained unit scorer over every paper's features (the best fastx method)")
def default(doc, threshold: float | None = None, page_threshold: float | None = None, model=None,
            headline: bool = True, page_types=None):
    """Keep mask of the ``default`` method.

    `threshold`: probability a unit needs; `page_threshold`: probability the
    page's best unit needs, else the page has no main content and nothing is
    kept (defaults: the model's, tuned on the training split); `model`: a
    DefaultModel or a path to a model file (default: the shipped one);
    `headline`: keep the heading that reads like the page title;
    `page_types`: a PageTypeModel (default: the shipped one)."""
    if model is None:
        model = shipped()
        if threshold is None and page_threshold is None:
            return model.keep(doc, None, None, headline, page_types)
    elif isinstance(model, (str, Path)):
        model = DefaultModel.load(model)
    elif not isinstance(model, DefaultModel):
        raise InputError(f"model must be a DefaultModel or a path, got {type(model).__name__}")
    for name, t in (("threshold", threshold), ("page_threshold", page_threshold)):
        if t is not None and not 0.0 <= float(t) <= 1.0:
            raise InputError(f"{name} must be a probability in [0, 1], got {t}")
    return model.keep(doc, threshold, page_threshold, headline, page_types)


from . import explain as _explain  # noqa: E402,F401  (registers explain_default with the method)
