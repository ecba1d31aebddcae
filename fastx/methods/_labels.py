"""Gold text -> node labels: the one alignment both trained methods learn from.

A gold standard is plain text (CleanEval files, the text of an annotated or
expected-output page); the trained methods (``bayes``, ``default``) need a
label per text node of the Doc instead.  The alignment follows the metric the
methods are judged by (4-token shingles, ``fastx.evaluate.shingle_scores``):

1. the page's text nodes are tokenized in document order into one token
   stream (``fastx.evaluate.tokens``: words, each CJK character alone), each
   token remembering its text node;
2. every window of ``n`` consecutive stream tokens that is also a window of
   the gold's tokens marks its ``n`` tokens as *covered*;
3. a text node's label is the share of its tokens that are covered.

Comments are not main content: Dragnet's gold files append the page's reader
comments after a ``!@#$%^&*()  COMMENTS`` line, and :func:`main_text` cuts
them off before the alignment (compare.py scores against the whole file).

A window may span several text nodes, so a short node (a link inside a
paragraph, a one-word heading line) is covered when its neighbourhood reads
like the gold, and a navigation word that happens to be a gold word is not
(its windows run into other navigation text).  Texts shorter than ``n``
tokens use windows of their own length.

:func:`group_labels` turns node labels into labels of any grouping of text
nodes (blocks of the Naive Bayes paper, the default method's units): the
token-weighted mean of the members' labels.
"""
from __future__ import annotations

import numpy as np

from .. import _core

__all__ = ["main_text", "text_node_labels", "group_labels"]

COMMENTS_MARK = "!@#$%^&*()  COMMENTS"     # Dragnet: the comments follow this line


def main_text(gold: str) -> str:
    """The gold text without a trailing comment section (Dragnet's format)."""
    i = gold.find(COMMENTS_MARK)
    return gold if i < 0 else gold[:i]


def text_node_labels(doc, gold: str, n: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """(label, ntok) over the Doc's nodes, against the main text of `gold`.

    ``label[i]`` (float32) is the covered share of text node i's tokens, 0
    for elements and for nodes without tokens; ``ntok[i]`` (int32) is the
    node's token count (0 for elements), the natural weight of the label.
    """
    from ..tools.evaluate import tokens     # the evaluation's tokenizer (training only)
    size = doc.n
    label = np.zeros(size, dtype=np.float32)
    ntok = np.zeros(size, dtype=np.int32)
    if size == 0:
        return label, ntok
    texts = np.flatnonzero(np.asarray(doc.kind) == _core.KIND_TEXT)
    stream: list[str] = []
    owner: list[int] = []
    for i in texts:
        toks = tokens(doc.text(int(i)))
        ntok[i] = len(toks)
        stream.extend(toks)
        owner.extend([int(i)] * len(toks))
    gold_toks = tokens(main_text(gold))
    if not stream or not gold_toks:
        return label, ntok
    w = max(1, min(n, len(gold_toks)))
    windows = {tuple(gold_toks[j:j + w]) for j in range(len(gold_toks) - w + 1)}
    covered = np.zeros(len(stream), dtype=bool)
    for j in range(len(stream) - w + 1):
        if tuple(stream[j:j + w]) in windows:
            covered[j:j + w] = True
    owner_arr = np.asarray(owner, dtype=np.int64)
    hits = np.bincount(owner_arr, weights=covered, minlength=size)
    nz = ntok > 0
    label[nz] = (hits[nz] / ntok[nz]).astype(np.float32)
    return label, ntok


def group_labels(group_of: np.ndarray, n_groups: int, label: np.ndarray,
                 ntok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(label, ntok) per group: the token-weighted mean of its text nodes' labels.

    `group_of[i]` is the group of node i (-1: none); groups without tokens
    get label 0 and weight 0.
    """
    group_of = np.asarray(group_of)
    sel = (group_of >= 0) & (ntok > 0)
    g = group_of[sel]
    tok = np.bincount(g, weights=ntok[sel], minlength=n_groups)[:n_groups]
    cov = np.bincount(g, weights=(label[sel] * ntok[sel]), minlength=n_groups)[:n_groups]
    out = np.zeros(n_groups, dtype=np.float32)
    nz = tok > 0
    out[nz] = cov[nz] / tok[nz]
    return out, tok.astype(np.int32)
