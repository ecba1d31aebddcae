"""Learned site rules: Zhou & Sun, "Web Content Extraction Through Machine
Learning" (seeds/001).

Pages of one site share a template.  :meth:`SiteModel.learn` clusters the
text blocks of several pages of a site by how they look, finds the clusters
that hold the article text, and turns them into CSS-selector rules;
:meth:`SiteModel.extract` then applies only the rules, which is about as fast
as parsing the page.

1. Text blocks (Sect. 3.1): for each text node, its nearest block-level
   ancestor; the block's text is the text whose nearest block it is.
2. Features (Sect. 3.1, 4): what the page itself says about the block's look
   (tag, tag path, the ids and classes of the block and its nearest
   ancestors, inline style declarations, depth, position in the document,
   length, link share and punctuation of its text) and, when the page was
   rendered, its computed CSS properties (``styles=``).  Each property value
   is a discrete variable, one-hot encoded (Sect. 4).
3. DBSCAN over the blocks of all pages (Sect. 4; scikit-learn's, in the
   ``site`` extra).
4. Cluster scores (Sect. 5): each cluster's TF-IDF similarity to its
   page's title and description, after lower-casing, tokenizing, removing
   English stop words and stemming (character bigrams for CJK text, Sect.
   8.2); each page's best cluster, the clusters scoring at least
   ``score_ratio`` of the best mean, and the clusters inside the best
   cluster's box (Sect. 8.1) are content.
5. Rules (Sect. 6): the CSS selector paths of the content blocks,
   consolidated per cluster: selectors with the same number of steps and
   tags are merged by intersecting the ids and classes at each step.  A
   rule whose next-to-last step names an id or a class selects its last
   step anywhere below that container (``html > body > ... >
   div.entry-content p``, :func:`css_selector`).

Audit against the paper, step by step (where fastx departs, and why):

- Blocks (Sect. 3.1): "closest parent element displayed as block" needs
  computed styles; unrendered, fastx takes the static block-level tags
  (``_core.block_ancestors``); rendered (``render=``/``styles=``), the
  computed CSS enters the features.
- Features (Sect. 3.1, 4): the paper one-hot encodes some 300 computed CSS
  properties with non-default values.  Without a browser fastx encodes what
  the markup says about the look (tag, tag path, ids and classes of the
  block and its three nearest ancestors, inline style, depth, position,
  length, link share, punctuation); same one-hot encoding (Sect. 4).
- DBSCAN (Sect. 4): the paper gives no parameters; its published code
  standardizes the features and runs eps 0.5, min_samples 5.  fastx runs on
  the raw one-hot vectors (a distance then counts differing features:
  eps 1.5 = at most two) with min_samples half the learning pages (at
  least 2), so that a block style seen once on each of five pages forms a
  cluster; standardizing one-hot columns weighs rare features up, which
  splits the body text by page.  Sensitivity (CPE, five learning pages,
  rules as below): eps 1.0 -> F1 0.852, 1.5 -> 0.938, 2.0 -> 0.940;
  min_samples 3 -> 0.892 (a block style must then recur on three of the
  five pages).  The defaults stay: 2.0 is not better beyond noise.
- Scoring (Sect. 5): TF-IDF as the paper defines it (raw tf, idf
  log(|D| / df)), after its four preprocessing steps; the paper's "document"
  is left open: fastx's is a cluster's text on one page (every block of
  the cluster gets the same score, as "all the text in the same cluster will
  get a similarity score"), and a cluster scores its mean over pages.
- Cluster choice: the paper's evaluation keeps the top cluster alone and
  names the cost (TechCrunch's blockquotes in another cluster, 87.4%); its
  Sect. 8.1 proposes adding the non-zero-score clusters inside the top
  cluster's bounding box.  fastx keeps, on each learning page, the cluster
  scoring best there (five learning pages may come from two templates, as
  the Washington Post group's two blogs do: one top cluster over all pages
  leaves the other template without rules), the clusters scoring at least
  ``score_ratio`` (default 1.0: the best alone) of the best mean, and the
  Sect. 8.1 box, read on the DOM (:func:`bounding_box_clusters`):
  crossheads, fact boxes, captions inside the article's container.  The
  former default, every cluster scoring at least 0.2 of the best, took
  sidebar lists of the site's other headlines, which share words with any
  title.
- Consolidation (Sect. 6): the paper's pairwise intersection, except that
  ids and classes are kept on the block and its three nearest ancestors
  only, the ones the clustering saw (:func:`consolidate`'s ``context``):
  five learning pages of one section share far-ancestor classes (BBC's
  ``div.business``) that the site's other sections lack.  Ids and classes
  with a digit run seen on one learning page only (``post-2446``) are
  per-page identifiers and are dropped before merging
  (:func:`page_identifiers`): the clustering saw them with digits replaced,
  and a path seen on one page (a list in one post) would otherwise keep its
  page's identifier and match no other page.
- Applying the rules (Sect. 6 writes child-combinator paths): when the
  next-to-last step names an id or a class, fastx reads the last step as a
  descendant of that container (:func:`css_selector`,
  ``_core.site_match``); below an unnamed step (``body > p``) the path
  stays a child path, since a descendant there reaches the whole page.  Five learning pages show
  the tag paths those five posts had; a post whose text sits in a
  blockquote, a list or a caption inside the same container (MSNBC: a
  letter quoted at length, a long photo caption) had no rule, and no
  clustering of the learning pages can give it one.  This is Sect. 8.1's
  bounding box carried into the rules: what lies inside the content
  container and looks like the content blocks (the same last step) is
  content.  The container's other blocks (share buttons, bylines) still
  need a rule of their own.  CPE, five learning pages: F1 0.921 -> 0.938
  (precision 0.952 -> 0.948, recall 0.893 -> 0.929); ten learning pages:
  0.900 -> 0.916.  wcxb-dev's 39 hosts with three or more pages
  (``--dataset wcxb-sites``, pages of every type, which neither site nor
  layout was tuned on): 0.336 -> 0.343.

Measured (``python benchmarks/site_eval.py --dataset cpe --methods site
--train 5 --decode-gold``: rules learned from five pages of each
CleanPortalEval site, tested on its other pages): F1 0.832 before these
changes, 0.903 with the consolidation context, 0.908 with the box too,
0.921 (precision 0.952, recall 0.893) with the per-page top clusters in
place of the 0.2 score ratio, 0.938 (precision 0.948, recall 0.929) with the
last step read as a descendant.  What remains: BBC's two index pages (their
gold is empty), headlines outside the body's box (MSNBC's h1 is a rule only
when it scored best on some learning page), WSJ comment threads when a
comment cluster scored best on one of the learning pages (more likely with
ten learning pages than with five: precision 0.905 there).

>>> model = fastx.SiteModel.learn(pages, urls)
>>> model.extract(new_page).text
>>> model.save("site.json"); fastx.SiteModel.load("site.json")
>>> fastx.extract(page, method="site", model=model)
"""
from __future__ import annotations

import json
import math
import re
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ... import _core
from ...core.parse import parse
from ...output.extraction import Extraction
from ..bayes.model import read_json
from ...errors import InputError, ModelError

FORMAT = "fastx-site-rules"
VERSION = 1

_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_ANCESTORS = 3          # ancestors whose tag/classes/id are block features


@dataclass(frozen=True)
class Step:
    """One element of a selector path: tag name, id (or None) and required classes."""
    tag: str
    id: str | None
    classes: tuple[str, ...]

    def __str__(self):
        return self.tag + (f"#{self.id}" if self.id else "") + "".join(f".{c}" for c in self.classes)


def selector(steps) -> str:
    """CSS form of a rule: ``html > body > div#main.article > p``."""
    return " > ".join(str(s) for s in steps)


def css_selector(steps) -> str:
    """The CSS selector a rule applies: ``html > body > div.entry-content p``.

    The steps are child steps, as the paper writes its selectors, except the
    last one when the step before it names an id or a class (a named
    container): then the last step is a descendant of it, so a rule learned
    from the paragraphs of the content container also selects the paragraphs
    of a blockquote, a list or a caption inside it that no learning page
    happened to have (Sect. 8.1's bounding box, read on the rules).  Below
    an unnamed step (``body > p``, ``div > p``) the rule stays a child path:
    a descendant there would reach the whole page."""
    steps = tuple(steps)
    if len(steps) < 2 or not (steps[-2].id or steps[-2].classes):
        return selector(steps)
    return selector(steps[:-1]) + " " + str(steps[-1])


def consolidate(paths, context: int | None = None) -> list[tuple[Step, ...]]:
    """Merge selector paths as in Sect. 6: paths with the same number of steps
    (and the same tags) become one, keeping at each step only the id and the
    classes they all have.

    context: when given, only the last `context` steps (the block and its
    nearest ancestors) keep ids and classes; the steps above keep their tag
    alone.  The clusters were formed on the block's and its nearest
    ancestors' ids and classes (features ``up0``..``up3``), so a rule that
    also required the classes of far ancestors would require what the
    clustering never looked at: page-level markup such as a section class
    (BBC's ``div.business`` / ``div.india``) or a per-page id, which five
    learning pages of one section share and the site's other pages do not.
    Measured on CleanPortalEval, rules learned from five pages: site F1 0.832
    -> 0.903 (gold references decoded, see benchmarks/site_eval.py)."""
    groups: dict[tuple, list] = {}
    for path in paths:
        key = tuple(s.tag for s in path)
        if key not in groups:
            groups[key] = [[s.id, set(s.classes)] for s in path]
            continue
        for acc, s in zip(groups[key], path):
            if acc[0] != s.id:
                acc[0] = None
            acc[1] &= set(s.classes)
    out = []
    for tags, acc in groups.items():
        top = len(tags) - context if context is not None else 0
        rule = tuple(Step(t, i, tuple(sorted(c))) if k >= top else Step(t, None, ())
                     for k, (t, (i, c)) in enumerate(zip(tags, acc)))
        if rule not in out:
            out.append(rule)
    return out


def page_identifiers(blocks) -> set:
    """Ids and classes that carry a run of digits and occur on one learning page only
    (``post-1917``, ``attachment_137625``): per-page identifiers, as the clustering
    saw them (features ``up``/``id`` replace digit runs by ``#``).

    Sect. 6 intersects the ids and classes of the selectors it merges, which
    removes such identifiers once two pages contribute a selector; a selector
    seen on one learning page only (a list or a blockquote in one post) would
    keep its page's identifier and match no other page.  Such identifiers are
    left out of the paths before the consolidation (:func:`_without`); ids and
    classes with digits that recur on two or more pages (``col6wide``) stay."""
    seen: dict[tuple[str, str], set] = {}
    for b in blocks:
        for s in b.path:
            toks = ([("#", s.id)] if s.id else []) + [(".", c) for c in s.classes]
            for t in toks:
                if _DIGITS.search(t[1]):
                    seen.setdefault(t, set()).add(b.page)
    return {t for t, pages in seen.items() if len(pages) < 2}


def _without(path, tokens: set) -> tuple:
    """`path` with the ids and classes in `tokens` ((kind, name) pairs) removed."""
    if not tokens:
        return path
    return tuple(Step(s.tag, None if s.id and ("#", s.id) in tokens else s.id,
                      tuple(c for c in s.classes if (".", c) not in tokens)) for s in path)


# ---------------------------------------------------------------- text blocks
@dataclass
class Block:
    page: int
    node: int
    text: str
    path: tuple[Step, ...]
    features: dict


def _tag_name(doc, i) -> str:
    tid = int(doc.tag[i])
    if tid < 1024 and tid not in _core.TAG_NAMES_BY_ID:
        return f"#{tid}"          # a static lexbor tag the calibration does not name
    return doc.tag_name(i)


def _step(doc, i) -> Step:
    ident = (doc.attr(i, "id") or "").strip() or None
    classes = tuple(sorted(set((doc.attr(i, "class") or "").split())))
    return Step(_tag_name(doc, i), ident, classes)


def _style_decls(value: str | None) -> list[str]:
    out = []
    for decl in (value or "").split(";"):
        if ":" in decl:
            k, v = decl.split(":", 1)
            k, v = k.strip().lower(), " ".join(v.strip().lower().split())
            if k and v:
                out.append(f"{k}={v}")
    return out


def text_blocks(doc, page: int = 0, styles: dict | None = None) -> list[Block]:
    """The text blocks of a page with their selector paths and one-hot features (Sect. 3.1)."""
    blk = _core.block_ancestors(doc)
    kind, flags = doc.kind, doc.flags
    in_link = _core.NODE_FLAGS["in_link"]
    texts: dict[int, list[int]] = {}
    for t in np.nonzero((kind == _core.KIND_TEXT) & (blk >= 0))[0]:
        texts.setdefault(int(blk[t]), []).append(int(t))
    steps: dict[int, Step] = {}

    def step(i):
        s = steps.get(i)
        if s is None:
            s = steps[i] = _step(doc, i)
        return s

    n = max(1, doc.n)
    out = []
    for b, nodes in texts.items():
        chain = []
        i = b
        while i >= 0:
            chain.append(i)
            i = int(doc.parent[i])
        chain.reverse()
        path = tuple(step(i) for i in chain)
        chars = int(sum(int(doc.chars[t]) for t in nodes))
        if chars == 0:
            continue
        link = sum(int(doc.chars[t]) for t in nodes if flags[t] & in_link)
        punct = sum(int(doc.punct[t]) for t in nodes)
        f = {"tag=" + path[-1].tag: 1, "tagpath=" + ">".join(s.tag for s in path): 1,
             f"depth={len(path)}": 1, f"pos={min(9, 10 * b // n)}": 1,
             f"len={int(math.log2(chars + 1))}": 1, f"link={round(4 * link / chars)}": 1,
             f"punct={min(punct, 3)}": 1}
        for k in range(min(_ANCESTORS + 1, len(path))):
            s = path[len(path) - 1 - k]
            f[f"up{k}=" + s.tag + "".join("." + _DIGITS.sub("#", c) for c in s.classes)] = 1
            if s.id:
                f[f"id{k}=" + _DIGITS.sub("#", s.id)] = 1
        for decl in _style_decls(doc.attr(b, "style")):
            f["style:" + decl] = 1
        if styles and b in styles:
            for k, v in styles[b].items():
                f[f"css:{k}={v}"] = 1
        out.append(Block(page, b, " ".join(doc.text(t) for t in nodes), path, f))
    return out


# ---------------------------------------------------------------- TF-IDF scoring (Sect. 5)
class _Terms:
    """Lower-case, tokenize, drop English stop words, stem; CJK text as character bigrams."""

    def __init__(self):
        try:
            import snowballstemmer
            from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS
        except ImportError as exc:
            raise ModelError("learning site rules needs scikit-learn and snowballstemmer: "
                             "pip install 'fastx-extract[site]'") from exc
        self.stem = snowballstemmer.stemmer("english").stemWord
        self.stop = ENGLISH_STOP_WORDS
        self.cache: dict[str, str] = {}

    def __call__(self, text: str) -> list[str]:
        text = text.lower()
        out: list[str] = []
        for tok in _WORD.findall(text):
            if _CJK.search(tok):
                chars = [c for c in tok]
                out.extend(a + b for a, b in zip(chars, chars[1:]) if _CJK.match(a) and _CJK.match(b))
                continue
            if tok in self.stop or len(tok) < 2:
                continue
            s = self.cache.get(tok)
            if s is None:
                s = self.cache[tok] = self.stem(tok)
            out.append(s)
        return out


def page_scores(blocks: list[Block], labels, queries: list[str], terms=None) -> dict:
    """TF-IDF similarity of each cluster's text on each page to that page's title and
    description (Sect. 5): {(cluster, page): score}.

    A cluster's text on one page (its blocks there, joined) is a document d;
    D is every such document.  On page k, score(d) = sum over the terms t of
    page k's title and description of tf(t, d) * log(|D| / |{d' : t in d'}|).
    Noise blocks (label -1) form no cluster.
    """
    terms = terms or _Terms()
    docs: dict[tuple[int, int], Counter] = {}
    for b, lab in zip(blocks, labels):
        if lab < 0:
            continue
        docs.setdefault((int(lab), b.page), Counter()).update(terms(b.text))
    df = Counter(t for bag in docs.values() for t in bag)
    nd = max(1, len(docs))
    qterms = [set(terms(q)) for q in queries]
    return {(lab, page): sum(bag[t] * math.log(nd / df[t]) for t in qterms[page] if t in bag)
            for (lab, page), bag in docs.items()}


def cluster_scores(blocks: list[Block], labels, queries: list[str], terms=None) -> dict:
    """TF-IDF similarity of each cluster to the pages' titles and descriptions (Sect. 5):
    the mean over the pages it appears on of :func:`page_scores`."""
    per_cluster: dict[int, list[float]] = {}
    for (lab, _), s in page_scores(blocks, labels, queries, terms).items():
        per_cluster.setdefault(lab, []).append(s)
    return {lab: sum(v) / len(v) for lab, v in per_cluster.items()}


# ---------------------------------------------------------------- the bounding box (Sect. 8.1)
def _container(doc, nodes) -> int:
    """Deepest element holding every node of `nodes` (a Doc's preorder: i holds j when
    i <= j < end[i]); one walk up the first node's ancestors."""
    parent, end = doc.parent, doc.end
    lo, hi = min(nodes), max(nodes)
    a = int(nodes[0])
    while a >= 0 and not (a <= lo and hi < int(end[a])):
        a = int(parent[a])
    return a


def bounding_box_clusters(blocks: list[Block], labels, docs, scores: dict, top: dict) -> list[int]:
    """Clusters inside the top cluster's bounding box (Sect. 8.1), read on the DOM.

    The paper proposes, once clusters are scored, to take besides the top
    cluster the other clusters with a non-zero score that fall within the
    top cluster's bounding box (section headers, blockquotes, lists: body
    text styled differently).  fastx learns from the HTML without rendering,
    so the box is the DOM's: on each learning page, the deepest element
    holding every block of that page's top cluster (`top`: page -> cluster).
    A cluster with a score above zero is taken when most of its blocks on
    those pages lie inside the page's box.
    """
    top_nodes: dict[int, list[int]] = {}
    for b, lab in zip(blocks, labels):
        if top.get(b.page) == lab:
            top_nodes.setdefault(b.page, []).append(b.node)
    box = {page: _container(docs[page], nodes) for page, nodes in top_nodes.items()}
    tops = set(top.values())
    inside: dict[int, list[int]] = {}
    for b, lab in zip(blocks, labels):
        if lab < 0 or lab in tops or scores.get(lab, 0.0) <= 0 or b.page not in box:
            continue
        a = box[b.page]
        cnt = inside.setdefault(lab, [0, 0])
        cnt[1] += 1
        if a >= 0 and a <= b.node < int(docs[b.page].end[a]):
            cnt[0] += 1
    return sorted(lab for lab, (k, n) in inside.items() if 2 * k > n)


# ---------------------------------------------------------------- the model
class SiteModel:
    """Extraction rules learned from pages of one site (seeds/001).

    ``rules`` are selector paths (tuples of :class:`Step`); ``stats`` records
    how they were learned.  Build one with :meth:`learn` or :meth:`load`.
    """

    def __init__(self, rules, params: dict | None = None, stats: dict | None = None):
        self.rules = [tuple(r) for r in rules]
        self.params = dict(params or {})
        self.stats = dict(stats or {})
        self._compiled = None

    def __repr__(self):
        return f"<fastx.SiteModel rules={len(self.rules)}>"

    @property
    def selectors(self) -> list[str]:
        """The learned rules as the CSS selectors they apply (one per rule, as ``fastx
        learn-site`` prints them): child steps down to the last one, which is a
        descendant (:func:`css_selector`)."""
        return [css_selector(r) for r in self.rules]

    # ------------------------------------------------------------ learning
    @classmethod
    def learn(cls, pages, urls=None, *, styles=None, eps: float = 1.5, min_samples: int | None = None,
              score_ratio: float = 1.0, bounding_box: bool = True, encoding: str | None = None,
              render=False) -> "SiteModel":
        """Learn rules from `pages` (HTML str/bytes or Docs) of one site.

        urls: the pages' URLs (optional, kept on the Docs).
        styles: per page, {Doc node index: {css property: computed value}}
            for rendered pages (computed CSS features, Sect. 3.1).
        render: True (or a fastx.render.Renderer) renders the pages in
            headless Chromium and fills `styles` from their computed CSS
            (fastx.render.page_styles; needs fastx-extract[render] and a Chromium).
        eps, min_samples: DBSCAN's neighbourhood radius (Euclidean over the
            one-hot features: about eps**2 differing features) and core size
            (default: half the pages, at least 2).
        score_ratio: clusters scoring at least this share of the best
            cluster's TF-IDF score (the mean over the pages) are content;
            so is, on each learning page, the cluster scoring best there.
        bounding_box: also take the clusters with a non-zero score inside
            the top cluster's bounding box (Sect. 8.1,
            :func:`bounding_box_clusters`).
        """
        t0 = time.perf_counter()
        pages = list(pages)
        if not pages:
            raise InputError("SiteModel.learn needs at least one page")
        urls = list(urls) if urls is not None else [None] * len(pages)
        if len(urls) != len(pages):
            raise InputError(f"got {len(pages)} pages but {len(urls)} urls")
        if styles is not None and len(styles) != len(pages):
            raise InputError(f"got {len(pages)} pages but {len(styles)} style maps")
        if eps <= 0:
            raise InputError(f"eps must be positive, got {eps!r}")
        if not 0.0 <= score_ratio <= 1.0:
            raise InputError(f"score_ratio must be between 0 and 1, got {score_ratio!r}")
        try:
            from sklearn.cluster import DBSCAN
            from sklearn.feature_extraction import DictVectorizer
        except ImportError as exc:
            raise ModelError("learning site rules needs scikit-learn: pip install 'fastx-extract[site]'") from exc
        terms = _Terms()
        docs = [parse(p, url=u, encoding=encoding) for p, u in zip(pages, urls)]
        if render is not False and styles is None:      # computed CSS hook (fastx.render, issue 6)
            from ...tools.browser import page_styles
            styles = page_styles(docs, render)
        blocks: list[Block] = []
        for k, d in enumerate(docs):
            blocks.extend(text_blocks(d, k, styles[k] if styles is not None else None))
        if not blocks:
            raise ModelError("the pages have no text blocks to learn from")
        if min_samples is None:
            min_samples = max(2, len(docs) // 2)
        X = DictVectorizer(sparse=True).fit_transform([b.features for b in blocks])
        labels = DBSCAN(eps=eps, min_samples=min_samples).fit_predict(X)
        queries = [f"{d.title} {d.description}" for d in docs]
        per_page = page_scores(blocks, labels.tolist(), queries, terms)
        sums: dict[int, list[float]] = {}
        for (lab, _), v in per_page.items():
            sums.setdefault(lab, []).append(v)
        cluster_score = {lab: sum(v) / len(v) for lab, v in sums.items()}
        best = max(cluster_score.values(), default=0.0)
        if best <= 0:
            raise ModelError(f"no cluster of text blocks resembles the pages' titles and descriptions "
                             f"({len(blocks)} blocks, {len(cluster_score)} clusters); learn from more "
                             f"pages of the site, or pages that carry a title or meta description")
        chosen = sorted(c for c, s in cluster_score.items() if s > 0 and s >= score_ratio * best)
        page_top: dict[int, tuple[float, int]] = {}
        for (lab, page), v in per_page.items():
            if v > 0 and (page not in page_top or v > page_top[page][0]):
                page_top[page] = (v, lab)
        top = {page: lab for page, (_, lab) in page_top.items()}
        chosen = sorted(set(chosen) | set(top.values()))
        if bounding_box:
            chosen = sorted(set(chosen) | set(bounding_box_clusters(blocks, labels.tolist(), docs,
                                                                    cluster_score, top)))
        own = page_identifiers(blocks)
        rules = []
        for c in chosen:
            paths = (_without(b.path, own) for b, lab in zip(blocks, labels) if lab == c)
            for r in consolidate(paths, _ANCESTORS + 1):
                if r not in rules:
                    rules.append(r)
        stats = {"pages": len(docs), "blocks": len(blocks), "clusters": len(cluster_score),
                 "noise_blocks": int((labels == -1).sum()), "content_clusters": len(chosen),
                 "cluster_scores": {str(c): round(s, 4) for c, s in sorted(cluster_score.items())},
                 "learn_seconds": round(time.perf_counter() - t0, 4)}
        params = {"eps": eps, "min_samples": min_samples, "score_ratio": score_ratio,
                  "bounding_box": bool(bounding_box)}
        return cls(rules, params, stats)

    def __getstate__(self):
        """Pickles (worker processes, Spark) without the compiled rules; they are rebuilt on use."""
        state = self.__dict__.copy()
        state["_compiled"] = None
        return state

    # ------------------------------------------------------------ applying
    def _compile(self):
        """Rules compiled for ``_core.site_match`` (``_core.site_rules``): token table, step tags,
        required token bits."""
        if self._compiled is None:
            tokens: dict[tuple[str, str], int] = {}
            for r in self.rules:
                for s in r:
                    if s.id:
                        tokens.setdefault(("#", s.id), len(tokens))
                    for c in s.classes:
                        tokens.setdefault((".", c), len(tokens))
            wt = max(1, (len(tokens) + 63) // 64)
            nr = len(self.rules)
            length = max((len(r) for r in self.rules), default=1)
            tag = np.full((nr, length), -1, dtype=np.int32)
            need = np.zeros((nr, length, wt), dtype=np.uint64)
            for k, r in enumerate(self.rules):
                for d, s in enumerate(r):
                    tag[k, d] = _core.site_tag_id(s.tag)
                    bits = ([tokens[("#", s.id)]] if s.id else []) + [tokens[(".", c)] for c in s.classes]
                    for b in bits:
                        need[k, d, b >> 6] |= np.uint64(1) << np.uint64(b & 63)
            hashes = np.array([_core.site_token_hash(kd, tok) for kd, tok in tokens], dtype=np.uint64)
            order = np.argsort(hashes, kind="stable")
            bit = np.array(list(tokens.values()), dtype=np.int32)
            self._compiled = _core.site_rules(hashes[order], bit[order], tag, need,
                                              np.array([len(r) for r in self.rules], dtype=np.int32))
        return self._compiled

    def keep(self, doc) -> np.ndarray:
        """uint8 keep mask of the rules over a Doc (no clustering: one sweep in ``_core``)."""
        return _core.site_match(doc, self._compile())

    def extract(self, html, url: str | None = None, encoding: str | None = None):
        """Apply the rules to a page (HTML str/bytes or a Doc) -> :class:`fastx.Extraction`."""
        doc = parse(html, url=url, encoding=encoding)
        keep = self.keep(doc)
        return Extraction(text=doc.render_text(keep), title=doc.title, description=doc.description,
                          method="site", url=url if url is not None else doc.url, doc=doc, keep=keep)

    # ------------------------------------------------------------ persistence
    def to_dict(self) -> dict:
        """The model as plain JSON data (format tag, version, parameters, stats, rules);
        :meth:`from_dict` reads it back."""
        return {"format": FORMAT, "version": VERSION, "params": self.params, "stats": self.stats,
                "rules": [{"selector": selector(r),
                           "steps": [[s.tag, s.id, list(s.classes)] for s in r]} for r in self.rules]}

    @classmethod
    def from_dict(cls, data) -> "SiteModel":
        """A SiteModel from :meth:`to_dict`'s data; ``ModelError`` if it is not a site-rules
        document of this version."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ModelError(f"not a fastx site-rules file (expected \"format\": \"{FORMAT}\")")
        if data.get("version") != VERSION:
            raise ModelError(f"site-rules version {data.get('version')!r} is not supported "
                             f"(this fastx reads version {VERSION}); learn the rules again")
        try:
            rules = [tuple(Step(str(t), str(i) if i else None, tuple(str(c) for c in cs))
                           for t, i, cs in r["steps"]) for r in data["rules"]]
        except (KeyError, TypeError, ValueError, RecursionError) as exc:
            raise ModelError(f"corrupt site-rules file: {type(exc).__name__}: {str(exc)[:200]}") from None
        return cls(rules, data.get("params"), data.get("stats"))

    def save(self, path) -> None:
        """Write the rules as JSON."""
        try:
            Path(path).write_text(json.dumps(self.to_dict(), indent=1, ensure_ascii=False), encoding="utf-8")
        except OSError as exc:
            raise ModelError(f"cannot write site rules to {path}: {exc.strerror or exc}") from exc

    @classmethod
    def load(cls, path) -> "SiteModel":
        """Read rules written by :meth:`save`."""
        return cls.from_dict(read_json(path, "site rules file"))
