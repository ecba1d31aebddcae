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
b') (fastx) delete the template record lists: comment threads and
   related-story teasers, the same template item filled with other data
   (``_core.template_records``, ``records=True``; see the audit);
c) purify what is left with the two link rules (rule 1: link text ratio
   above `link_ratio`, 0.25-0.3 in the paper; rule 2: link-only nodes),
   then the line-block distribution function (``refine=True``, the
   default; the paper's Sect. 2.2 c proposes it, combined with the rules,
   for what the deletion leaves);
d) the reference is the page of the same site whose URL is most similar
   (:func:`url_similarity`: common leading directory levels, or equal query
   key=value pairs, over the larger count); with ``references=``, fastx
   uses every candidate (see the audit below).

>>> fastx.extract(html, method="layout", url=url, reference=other_html)
>>> fastx.extract(html, method="layout", url=url, references=[(u1, h1), (u2, h2)])

Without a reference the method still works: steps a) and c) run on the page
alone (the link rules remove navigation, link lists and related-link
blocks; template text that is not linked stays).  fastx additionally falls
back to that when the reference deleted every text of the target (it was a
copy of the same page under another URL, which no layout comparison can
tell apart from a template).

Audit against the paper, step by step (where fastx departs, and why).
Figures: CleanPortalEval's four site groups, each page against the other
pages of its group, and wcxb-dev's 39 hosts with three or more pages
(``--dataset wcxb-sites``: modern pages of every type, a check on sites the
method was not tuned on), one run: ``PYTHONPATH=. python
benchmarks/site_eval.py --dataset cpe,wcxb-sites --decode-gold``
(without ``--decode-gold`` the CPE gold's verbatim ``&#8217;`` references
cap every extractor's recall near 0.88).  Where the method stands (the
defaults): CPE precision 0.949, recall 0.915 (readability-lxml 0.942,
0.936; trafilatura 0.943, 0.927); wcxb-sites F1 0.648 (precision 0.674,
recall 0.624; readability-lxml 0.532, trafilatura 0.659).

- a) preprocessing: the paper's lists (a)-(e), as written; invisible
  elements are those the Doc can see (inline display:none /
  visibility:hidden, ``hidden``), not those hidden by style sheets.
- b) deletion: the paper's stack algorithm (first fully identical
  quasi-identical candidate in the reference, both sides deleted, children
  visited otherwise) in linear time through subtree keys.  "Fully
  identical" compares the jsoup-normalized source line by line; fastx
  compares tag, attribute set and whitespace-collapsed text, recursively.
  Departure 1: runs of digits compare equal (``digits=False``), so template
  nodes differing by a counter, a date, a time or a numeric id ("Comments
  (15)", "11:43 AM on 04/28/2013", ``id="post-1917"``) are identical, as
  the paper's argument (the same template filled from a database) says
  they are; ``digits=True`` is the literal reading.  Precision 0.804 ->
  0.813 at recall 0.924 -> 0.925 (measured before b' and c's refinement).
  Departure 2: an inline element (not block-level) whose parent holds
  words of its own is part of that running text and is not deleted
  (``delete_identical(..., inline_text=True)``): the literal reading
  deletes a show's or a section's name linked inside a sentence because
  the reference links it in its navigation, which cuts the sentence (CPE
  F1 0.930 -> 0.932, recall 0.924 -> 0.928; wcxb-sites F1 0.618 -> 0.623).
- b') template record lists (fastx's addition, the paper's own argument
  carried one step further).  What the deletion leaves beside the text is
  what the paper names in Sect. 2.2 c and 3.2: "related reading, comments".
  They are the same template item filled with other data, so they are not
  fully identical, but their *shape* is: ``record_keys`` hashes each
  element's tag, attribute names and class (digit runs equal) with the
  ordered shapes of its children, a run of equal children counting once,
  texts and other attribute values left out.  A template record is an
  element holding at least RECORD_ATTRS (3) elements with attributes
  whose shape equals a reference element's (a comment, a teaser), or is
  repeated RECORD_SELF (3) times in the page itself (a comment thread
  that no reference has).  A list is an element whose every kept child
  with text is a record or has the record's tag, attribute names and first
  class name (the same item whose content differs in structure: a comment
  with a link, the first comment's extra class); its records go when the
  list lies after the main text container (the element whose child blocks
  hold the most of the remaining text) and holds at most RECORD_SHARE of
  the kept text.  Lists inside, around or before the main text stay: that
  is where product specifications, code examples, forum posts and
  documentation entries, which are content, sit.  CPE precision 0.892 ->
  0.949 at the same recall 0.915 (the WSJ group's comments: 0.783 ->
  0.992; MSNBC's "Related Stories" teasers: 0.968 -> 0.997); wcxb-sites F1 0.651 -> 0.648
  (precision 0.660 -> 0.674, recall 0.641 -> 0.624): product and listing
  pages lose some records.  The constants are not sharp: RECORD_ATTRS 2 /
  4 gives CPE precision 0.935 / 0.949 and wcxb-sites F1 0.646 / 0.649;
  RECORD_SHARE 0.3 or 0.7, the same figures; without RECORD_SELF 0.947 /
  0.649; lists of two records at least 0.945 / 0.649; without the
  same-kind members 0.948 / 0.642.  ``records=False`` is the paper's
  reading.
- d) the reference: the paper takes one page, the most URL-similar
  (similarity = common leading directory levels, or equal query pairs,
  over the larger count: as written), and names the reference's layout
  similarity as the first factor of its precision (Sect. 3.3 a).  Template
  blocks that the one reference happens to lack (a promotion, a "most
  read" box shown on some pages) survive.  fastx therefore uses every
  candidate given in ``references=`` (``n_references``, default all; 1 is
  the paper's reading): each deletes, independently, what it shares with
  the target, and a node goes when any reference deletes it; the record
  shapes of b') are those of every reference.  With the defaults: the
  single most URL-similar page gives CPE precision 0.924, recall 0.918
  (wcxb-sites F1 0.650); three 0.938 (0.654); all other pages of the group
  0.949 (0.648).  A candidate at the target's own address, or one that
  would delete at least 90% of its text, is the same page (the Washington
  Post group holds one post under two URLs) and is skipped.
- c) link rules: rule 1 as written (link text of the link's parent over
  its text, threshold 0.3 from the paper's 0.25-0.3; 0.25 gives CPE
  precision 0.948 at recall 0.899, wcxb-sites F1 0.645); rule 2 as written (only links, no
  substantive text between them).  The line-block refinement
  (cx-extractor [15]: a line is the text of one block element, a block
  three lines, a region starts at a block of more than 86 characters)
  runs on the kept text lines, blank where the earlier steps deleted.
  Departure: the paper's figures are its "raw output, without the
  line-block function" and leave it optional; fastx runs it by default
  because, once b') has taken the comment lists, it gains on both sets:
  CPE precision 0.892 -> 0.949 with b') (0.939 without the refinement),
  recall 0.928 -> 0.915; wcxb-sites F1 0.623 -> 0.648; with no reference,
  CPE F1 0.786 -> 0.801, wcxb-sites 0.574 -> 0.598.  ``refine=False`` is
  the paper's measured configuration.

What remains, read page by page on CPE: gold choices the method cannot see
(bylines, "X is The Post's editor" taglines and BBC's story-feature boxes
and captions are outside the gold; one Washington Post block is hidden by
a style sheet's ``.hidden``), BBC's two index pages whose gold is empty,
and the recall the refinement costs (MSNBC 0.920 -> 0.903, Washington Post
0.932 -> 0.917).  On wcxb-sites, layout's precision is lowest on
product, collection and listing pages, which the paper leaves out of its
scope (Sect. 2: topic pages; hub pages are not extracted).

This folder: the method (registered as ``layout``; here) and its kernels (``_kernels.pxi``:
subtree hashes, identical-node deletion, link rules, ``block_ancestors`` which ``site`` and
``default`` also read).  May import core/, the registry and fastx.errors.
"""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import parse_qsl, urlsplit

import numpy as np

from ... import _core
from ...errors import InputError
from .. import register

# Sect. 2.2 a) (b): elements for display and human-computer interaction.
INTERACTIVE_TAGS = ("form", "fieldset", "legend", "input", "select", "menu", "optgroup", "option",
                    "textarea", "map", "area", "applet", "object", "param", "button", "label")
# (a) scripts, styles and resource links (the Doc drops most of them while building).
AUXILIARY_TAGS = ("script", "noscript", "style", "link", "meta")

_DROP_TABLE = None
RECORD_ATTRS = 3      # step b'): a template record holds at least this many elements with attributes
RECORD_MEMBERS = True  # step b'): items of a record's shape (tag, attribute names, first class) are members
RECORD_MIN_ITEMS = 1  # step b'): a list of one template record goes too
RECORD_SELF = 3       # step b'): a shape this many times in the page is a template record too
RECORD_SHARE = 0.5    # step b'): records taking more of the kept text are the page's content


def tag_table(names) -> np.ndarray:
    """uint8 table over lexbor's static tag ids: 1 for the tags in `names` (names
    the build does not know are skipped)."""
    t = np.zeros(1024, dtype=np.uint8)
    for name in names:
        tid = _core.TAG_IDS.get(name)
        if tid is not None and tid < 1024:
            t[tid] = 1
    return t


def _drop_table() -> np.ndarray:
    """uint8 table over static tag ids: 1 for the tags step a) removes."""
    global _DROP_TABLE
    if _DROP_TABLE is None:
        _DROP_TABLE = tag_table(INTERACTIVE_TAGS + AUXILIARY_TAGS)
    return _DROP_TABLE


def preprocess(doc) -> np.ndarray:
    """Step a): uint8 mask of the nodes that survive the paper's preprocessing (memoized)."""
    alive = doc.cache.get("layout.alive")
    if alive is None:
        alive = _core.layout_alive(doc, _drop_table())
        doc.cache["layout.alive"] = alive
    return alive


def hashes(doc, digits: bool = False):
    """(full, quasi) subtree keys of every node after preprocessing (memoized on the Doc);
    `digits=False`: runs of digits compare equal (``_core.subtree_hashes``)."""
    key = "layout.hashes.digits" if digits else "layout.hashes"
    h = doc.cache.get(key)
    if h is None:
        h = _core.subtree_hashes(doc, preprocess(doc), bool(digits))
        doc.cache[key] = h
    return h


def record_keys(doc):
    """(skel, nattr, shape) of ``_core.record_keys`` on the preprocessed Doc (memoized): the
    template-record shape keys of step b'."""
    k = doc.cache.get("layout.records")
    if k is None:
        k = _core.record_keys(doc, preprocess(doc))
        doc.cache["layout.records"] = k
    return k


def template_records(doc, keep, ref_keys, share: float = RECORD_SHARE) -> np.ndarray:
    """Step b') on the kept mask of step b): uint8 mask of the template records to delete.

    A record is an alive element holding at least RECORD_ATTRS elements with
    attributes whose shape key (``record_keys``) equals that of an element of a
    reference (`ref_keys`: the references' keys, one array) or of RECORD_SELF
    such elements of the page itself (a comment thread that no reference has);
    which of them go is ``_core.template_records``."""
    skel, nattr, shape = record_keys(doc)
    is_el = doc.kind == _core.KIND_ELEMENT
    rich = preprocess(doc) & is_el & (nattr >= RECORD_ATTRS)
    match = np.isin(skel, ref_keys)
    if RECORD_SELF:
        vals, counts = np.unique(skel[rich.astype(bool)], return_counts=True)
        match |= np.isin(skel, vals[counts >= RECORD_SELF])
    record = (rich + (rich & match)).astype(np.uint8)
    return _core.template_records(doc, keep, record, shape, float(share), RECORD_MEMBERS, RECORD_MIN_ITEMS)


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


def _similarities(url: str | None, references):
    """(k, similarity to `url`, (url, page)) of each of `references` ((url, html) pairs)."""
    for k, item in enumerate(references):
        try:
            ref_url, page = item
        except (TypeError, ValueError):
            raise InputError("references must be (url, html) pairs") from None
        yield k, (url_similarity(url, ref_url) if url and ref_url else 0.0), (ref_url, page)


def rank_references(url: str | None, references) -> list:
    """The (url, page) pairs of `references` by URL similarity to `url`, most similar
    first (ties keep the given order); the pairs with similarity 1 (the same address:
    the same page) are left out.  Without a `url`, the given order."""
    ranked = sorted((-s, k, pair) for k, s, pair in _similarities(url, references) if s < 1.0)
    return [pair for _, _, pair in ranked]


def choose_reference(url: str | None, references):
    """The (url, page) of `references` most similar to `url` (step d).

    Similarity 1 (the same address: the same page) is taken only when
    nothing else is left, since a page compared with itself loses all its
    content; ties keep the first candidate.  Without a `url` the first
    candidate is used.
    """
    best, best_key = None, None
    for k, s, pair in _similarities(url, references):
        key = (s < 1.0, s, -k)
        if best_key is None or key > best_key:
            best, best_key = pair, key
    return best


# ---------------------------------------------------------------- the method
def _as_doc(page, url=None):
    from ...core.parse import parse
    return parse(page, url=url)


COPY_SHARE = 0.9      # a reference deleting this share of the target's text is a copy of it


def layout_keep(doc, reference=None, link_ratio: float = 0.3, link_rules: bool = True,
                refine: bool = True, line_width: int = 3, line_threshold: int = 86,
                digits: bool = False, records: bool = True) -> np.ndarray:
    """Keep mask of the layout-similarity algorithm on a target Doc and a reference Doc,
    an iterable of reference Docs, or None.

    With several references, each one deletes the target's nodes fully identical
    to its own (step b, independently), and a node goes when any reference
    deletes it.  A reference that would delete at least COPY_SHARE of the
    target's text is the same page under another address, not a layout
    reference, and is skipped; when the references leave no text at all,
    only the link rules run."""
    alive = preprocess(doc)
    keep = alive.copy()
    refs = () if reference is None else ((reference,) if isinstance(reference, _core.Doc) else reference)
    full = None
    ref_keys = []
    for ref in refs if doc.n else ():
        if full is None:
            is_text = doc.kind == _core.KIND_TEXT
            chars = doc.chars * (alive & is_text)
            total = int(chars.sum())
            full = hashes(doc, digits)[0]
        deleted = _core.delete_identical(doc, full, alive, ref, hashes(ref, digits)[0], preprocess(ref))
        if total and int((chars * deleted).sum()) >= COPY_SHARE * total:
            continue
        keep &= deleted ^ 1
        if records:
            skel = record_keys(ref)[0]
            ref_keys.append(skel[(preprocess(ref) & (ref.kind == _core.KIND_ELEMENT)).astype(bool)])
    if full is not None and not (keep & is_text).any():
        keep = alive.copy()
    elif ref_keys:
        keep &= template_records(doc, keep, np.unique(np.concatenate(ref_keys))) ^ 1
    if link_rules:
        keep = _core.link_rules(doc, keep, float(link_ratio))
    if refine:
        keep = _core.line_blocks(doc, alive, keep, int(line_width), int(line_threshold))
    return keep


@register("layout", "layout similarity: delete nodes identical in a same-site reference page, then "
                    "link rules (Yang et al.; pass reference= or references=)")
def layout(doc, reference=None, references=None, link_ratio: float = 0.3, link_rules: bool = True,
           refine: bool = True, line_width: int = 3, line_threshold: int = 86,
           n_references: int | None = None, digits: bool = False, records: bool = True):
    """Layout similarity extraction (seeds/002, Sect. 2.2 a-d).

    reference: the reference page (HTML str/bytes or a Doc) of the same site
        and channel.
    references: candidate (url, page) pairs of the same site; the
        `n_references` whose URLs are most similar to the target's ``url=``
        are used (step d), each deleting what it shares with the target.
        Pages may be Docs (parsed once, their keys memoized).
    n_references: how many of `references` to use (None: all; 1: the
        paper's single most URL-similar reference).
    digits: False (default): texts and attribute values equal but for
        their runs of digits count as identical (counters, dates, ids).
    records: also delete the template record lists (step b', after the
        deletion; fastx's addition, see the module docstring).
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
    if n_references is not None and (isinstance(n_references, bool) or not isinstance(n_references, int)
                                     or n_references < 1):
        raise InputError(f"n_references must be a positive int or None, got {n_references!r}")
    ref_doc = None
    if references is not None:
        references = list(references)
        ranked = rank_references(doc.url, references)
        if not ranked:                       # only copies of the page's own address: the paper's fallback
            chosen = choose_reference(doc.url, references)
            ranked = [chosen] if chosen is not None else []
        ref_doc = (_as_doc(page, url) for url, page in ranked[:n_references])   # one parsed at a time
    elif reference is not None:
        ref_doc = _as_doc(reference)
    return layout_keep(doc, ref_doc, link_ratio, link_rules, refine, line_width, line_threshold, digits,
                       bool(records))
