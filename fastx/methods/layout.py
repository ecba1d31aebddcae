"""Layout similarity: Yang, Li & Geng, "Study of Web pages content extraction
based on layout similarity" (seeds/002).

Pages of one site and channel share a template, so nodes that are *fully
identical* (tag, attribute set and content, recursively) in the target page
and a similar reference page are template noise (Sect. 2.1).  The algorithm
(Sect. 2.2):

a) preprocess both DOM trees: scripts and styles, form and interactive
   elements, invisible elements, comments and empty nodes go
   (:func:`preprocess`);
b) delete the fully identical nodes between target and reference
   (``_core.delete_identical``: subtree hashes from one reverse sweep, then
   one lookup per target element among the quasi-identical candidates, so
   linear time rather than pairwise tree comparison);
c) purify what is left with the two link rules (rule 1: link text ratio
   above `link_ratio`, 0.25-0.3 in the paper; rule 2: link-only nodes) and,
   optionally (``refine=True``), the line-block distribution function;
d) the reference is the page of the same site whose URL is most similar
   (:func:`url_similarity`: common leading directory levels, or equal query
   key=value pairs, over the larger count).

>>> fastx.extract(html, method="layout", url=url, reference=other_html)
>>> fastx.extract(html, method="layout", url=url, references=[(u1, h1), (u2, h2)])

Without a reference the method still works: steps a) and c) run on the page
alone (the link rules remove navigation, link lists and related-link
blocks; template text that is not linked stays).  fastx additionally falls
back to that when the reference deleted every text of the target (it was a
copy of the same page under another URL, which no layout comparison can
tell apart from a template).
"""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import parse_qsl, urlsplit

import numpy as np

from .. import _core
from ..errors import InputError
from . import register

# Sect. 2.2 a) (b): elements for display and human-computer interaction.
INTERACTIVE_TAGS = ("form", "fieldset", "legend", "input", "select", "menu", "optgroup", "option",
                    "textarea", "map", "area", "applet", "object", "param", "button", "label")
# (a) scripts, styles and resource links (the Doc drops most of them while building).
AUXILIARY_TAGS = ("script", "noscript", "style", "link", "meta")

_DROP_TABLE = None


def _drop_table() -> np.ndarray:
    """uint8 table over static tag ids: 1 for the tags step a) removes."""
    global _DROP_TABLE
    if _DROP_TABLE is None:
        t = np.zeros(1024, dtype=np.uint8)
        for name in INTERACTIVE_TAGS + AUXILIARY_TAGS:
            tid = _core.TAG_IDS.get(name)
            if tid is not None and tid < 1024:
                t[tid] = 1
        _DROP_TABLE = t
    return _DROP_TABLE


def preprocess(doc) -> np.ndarray:
    """Step a): uint8 mask of the nodes that survive the paper's preprocessing (memoized)."""
    alive = doc.cache.get("layout.alive")
    if alive is None:
        alive = _core.layout_alive(doc, _drop_table())
        doc.cache["layout.alive"] = alive
    return alive


def hashes(doc):
    """(full, quasi) subtree keys of every node after preprocessing (memoized on the Doc)."""
    h = doc.cache.get("layout.hashes")
    if h is None:
        h = _core.subtree_hashes(doc, preprocess(doc))
        doc.cache["layout.hashes"] = h
    return h


# ---------------------------------------------------------------- URL similarity (step d)
@lru_cache(maxsize=65536)
def _url_parts(url: str):
    """(host without www., directory levels, query key=value pairs); memoized: a site's
    candidate URLs are compared with every new page."""
    try:
        u = urlsplit(url.strip())
    except ValueError:
        return None
    host = (u.hostname or "").lower()
    if host.startswith("www."):
        host = host[4:]
    dirs = [s for s in u.path.split("/") if s]
    query = frozenset(parse_qsl(u.query, keep_blank_values=True))
    return host, tuple(dirs), query


def url_similarity(a: str, b: str) -> float:
    """URL similarity of Sect. 2.2 d): cl / max(la, lb).

    cl counts the directory levels equal from the root on (and the query
    key=value pairs the two URLs share); la, lb the levels (and pairs) of
    each URL.  Pages on different hosts (a leading ``www.`` ignored) have
    similarity 0; 1 means the same directory path and query.
    """
    pa, pb = _url_parts(a or ""), _url_parts(b or "")
    if pa is None or pb is None or pa[0] != pb[0]:
        return 0.0
    (_, da, qa), (_, db, qb) = pa, pb
    common = 0
    for x, y in zip(da, db):
        if x != y:
            break
        common += 1
    cl = common + len(qa & qb)
    m = max(len(da), len(db)) + max(len(qa), len(qb))
    return cl / m if m else 1.0


def choose_reference(url: str | None, references):
    """The (url, page) of `references` most similar to `url` (step d).

    Similarity 1 (the same address: the same page) is taken only when
    nothing else is left, since a page compared with itself loses all its
    content; ties keep the first candidate.  Without a `url` the first
    candidate is used.
    """
    best, best_key = None, None
    for k, item in enumerate(references):
        try:
            ref_url, page = item
        except (TypeError, ValueError):
            raise InputError("references must be (url, html) pairs") from None
        s = url_similarity(url, ref_url) if url and ref_url else 0.0
        key = (s < 1.0, s, -k)
        if best_key is None or key > best_key:
            best, best_key = (ref_url, page), key
    return best


# ---------------------------------------------------------------- the method
def _as_doc(page, url=None):
    from ..api import parse
    return parse(page, url=url)


def layout_keep(doc, reference=None, link_ratio: float = 0.3, link_rules: bool = True,
                refine: bool = False, line_width: int = 3, line_threshold: int = 86) -> np.ndarray:
    """Keep mask of the layout-similarity algorithm on a target Doc and a reference Doc (or None)."""
    alive = preprocess(doc)
    keep = alive.copy()
    if reference is not None:
        deleted = _core.delete_identical(doc, hashes(doc)[0], alive,
                                         reference, hashes(reference)[0], preprocess(reference))
        after = keep & (deleted ^ 1)
        if doc.n and (after * (doc.kind == _core.KIND_TEXT)).any():
            keep = after
    if link_rules:
        keep = _core.link_rules(doc, keep, float(link_ratio))
    if refine:
        keep = _core.line_blocks(doc, alive, keep, int(line_width), int(line_threshold))
    return keep


@register("layout", "layout similarity: delete nodes identical in a same-site reference page, then "
                    "link rules (Yang et al.; pass reference= or references=)")
def layout(doc, reference=None, references=None, link_ratio: float = 0.3, link_rules: bool = True,
           refine: bool = False, line_width: int = 3, line_threshold: int = 86):
    """Layout similarity extraction (seeds/002, Sect. 2.2 a-d).

    reference: the reference page (HTML str/bytes or a Doc) of the same site
        and channel.
    references: candidate (url, page) pairs; the one whose URL is most
        similar to the target's ``url=`` is used (step d).
    link_ratio: rule 1's link text ratio threshold (paper: 0.25-0.3).
    link_rules: apply rules 1 and 2 after the deletion.
    refine: also apply the line-block distribution function (``line_width``
        lines per block, ``line_threshold`` characters to start a region).
    With neither reference, only preprocessing and the link rules run.
    """
    if not 0.0 <= float(link_ratio) <= 1.0:
        raise InputError(f"link_ratio must be between 0 and 1, got {link_ratio!r}")
    if reference is not None and references is not None:
        raise InputError("pass either reference= or references=, not both")
    ref_doc = None
    if references is not None:
        chosen = choose_reference(doc.url, list(references))
        if chosen is not None:
            ref_doc = _as_doc(chosen[1], chosen[0])
    elif reference is not None:
        ref_doc = _as_doc(reference)
    return layout_keep(doc, ref_doc, link_ratio, link_rules, refine, line_width, line_threshold)
