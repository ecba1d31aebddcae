"""Scoring extracted text against a gold standard.

Two families of figures, both per page, both averaged over pages by
:func:`aggregate`:

* word-level LCS (the CETD paper: Song, Sun & Liao, "A hybrid approach for
  content extraction with text density and visual importance of DOM nodes",
  KAIS 2013, Sect. 4.1.2), with a = predicted tokens, b = gold tokens::

      P = |LCS(a, b)| / |a|,  R = |LCS(a, b)| / |b|          (Eq. 6)
      F1 = 2 P R / (P + R)                                   (Eq. 7)
      CleanEval = 1 - distance / alignmentLength             (Eq. 8)
                = |LCS| / (|a| + |b| - |LCS|)                (Eq. 9)

  Words count by position (an ordered LCS, not a bag of words). The tokens
  are numbered by ``fastx._core.token_ids`` (the TOKEN pattern, in C) and the
  LCS is the compiled bit-parallel kernel ``fastx._core.lcs_length``.

* 4-token shingles (the public article-extraction benchmark's metric, as
  ``../shared/tools/compare.py`` scores the dev corpora): multisets of n-token
  windows of both texts give TP/FP/FN.

Both report ``tp``, ``fp`` and ``fn`` (for LCS: |LCS|, |a| - |LCS| and
|b| - |LCS|), and precision = tp / (tp + fp), recall = tp / (tp + fn) with
compare.py's conventions for empty texts: a page whose output equals the gold
(fp = fn = 0, including both empty) scores 1.0; an empty output, or an empty
gold, scores 0.0; nothing raises ZeroDivisionError.

Tokens are compare.py's: runs of word characters, and every CJK character on
its own (Chinese and Japanese are written without spaces).

Example (LCS = "the cat sat on mat", 5 of 6 tokens on each side)::

    >>> from fastx import evaluate
    >>> s = evaluate.scores("the cat sat on the mat", "the cat sat on a mat")
    >>> round(s["f1"], 3), round(s["cleaneval"], 3)
    (0.833, 0.714)

Over a corpus, score each page and average (``pairs``: (output, gold) texts)::

    rows = [evaluate.scores(output, gold) for output, gold in pairs]
    evaluate.aggregate(rows)   # {"precision", "recall", "f1", "pages", "cleaneval"}

From the command line: ``python -m fastx evaluate PRED GOLD`` (see
:func:`evaluate_files`).
"""
from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path

import numpy as np

from fastx import _core
from fastx._core import lcs_length
from fastx.core.decode import decode
from fastx.errors import InputError

__all__ = ["tokens", "scores", "shingle_scores", "aggregate", "evaluate_files", "read_gold"]

_URL_LINE = re.compile(r"\s*URL:[^\S\n]*(\S*)[^\n]*(?:\n|$)")
_MARKER = re.compile(r"<(p|h|l)>")


def read_gold(raw: bytes | str) -> tuple[str | None, str]:
    """CleanEval-format gold -> (url or None, text): drop the ``URL:`` line and the <p>/<h>/<l> markers."""
    text = (decode(raw)[0] if isinstance(raw, bytes) else raw).lstrip("\ufeff")
    url = None
    m = _URL_LINE.match(text)
    if m:
        url, text = m.group(1) or None, text[m.end():]
    return url, _MARKER.sub(" ", text)

# Words; each CJK character is a token of its own (same pattern as compare.py).
CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
TOKEN = re.compile(f"[{CJK}]|[^\\W{CJK}]+")


def tokens(text: str | None) -> list[str]:
    """The tokens of ``text``: words, and each CJK character alone."""
    return TOKEN.findall(text or "")


def _precision(tp: float, fp: float, fn: float) -> float:
    """tp / (tp + fp); 1.0 when output equals gold, 0.0 when there is no output."""
    if fp == fn == 0:
        return 1.0
    return tp / (tp + fp) if tp + fp else 0.0


def _recall(tp: float, fp: float, fn: float) -> float:
    """tp / (tp + fn); 1.0 when output equals gold, 0.0 when there is no gold."""
    if fp == fn == 0:
        return 1.0
    return tp / (tp + fn) if tp + fn else 0.0


def _f1(p: float, r: float) -> float:
    """Harmonic mean 2PR / (P + R) (Eq. 7); 0.0 when both are 0."""
    return 2 * p * r / (p + r) if p + r else 0.0


def _figures(tp: int, fp: int, fn: int) -> dict:
    p, r = _precision(tp, fp, fn), _recall(tp, fp, fn)
    return {"precision": p, "recall": r, "f1": _f1(p, r), "tp": tp, "fp": fp, "fn": fn}


def scores(predicted_text: str | None, gold_text: str | None) -> dict:
    """Word-level LCS figures of one page (CETD paper, Eq. 6, 7 and 9).

    Returns ``{"precision", "recall", "f1", "cleaneval", "tp", "fp", "fn"}``
    where tp = |LCS|, fp = predicted tokens outside it, fn = gold tokens
    outside it, and cleaneval = tp / (tp + fp + fn) (Eq. 9). Both texts empty:
    every figure 1.0; exactly one empty: every figure 0.0."""
    # the tokens of tokens(), numbered in one compiled pass (equal tokens, equal ids)
    a, b = _core.token_ids(predicted_text or "", gold_text or "")
    tp = lcs_length(a, b)
    fp, fn = len(a) - tp, len(b) - tp
    return {**_figures(tp, fp, fn), "cleaneval": tp / (tp + fp + fn) if fp or fn else 1.0}


def _shingles(toks: list[str], n: int) -> Counter:
    """Multiset of n-token windows; a text shorter than n is one short shingle."""
    return Counter(tuple(toks[i:i + n]) for i in range(max(1, len(toks) - n + 1)) if toks[i:i + n])


def shingle_scores(predicted: str | None, gold: str | None, n: int = 4) -> dict:
    """Shingle figures of one page, as compare.py scores the dev corpora.

    Returns ``{"precision", "recall", "f1", "tp", "fp", "fn"}`` with tp, fp,
    fn counted over the multisets of n-token shingles (compare.py's
    ``shingle_counts`` gives the same three divided by their sum; the ratios
    are equal)."""
    p, g = _shingles(tokens(predicted), n), _shingles(tokens(gold), n)
    return _figures(sum((p & g).values()), sum((p - g).values()), sum((g - p).values()))


def aggregate(rows: Iterable[Mapping]) -> dict:
    """Average per-page figures the way compare.py's ``summarize_text`` does.

    ``rows`` are dicts from :func:`scores` or :func:`shingle_scores` (only
    ``tp``, ``fp``, ``fn`` are read, plus ``cleaneval`` when every row has it).
    Precision is averaged over the pages with output (tp + fp > 0), recall over
    the pages with gold (tp + fn > 0), and F1 is taken from the two averages.
    Returns ``{"precision", "recall", "f1", "pages"}`` and ``"cleaneval"``
    (the plain mean) for LCS rows."""
    rows = list(rows)
    ps = [_precision(r["tp"], r["fp"], r["fn"]) for r in rows if r["tp"] + r["fp"] > 0]
    rs = [_recall(r["tp"], r["fp"], r["fn"]) for r in rows if r["tp"] + r["fn"] > 0]
    p = statistics.mean(ps) if ps else 0.0
    r = statistics.mean(rs) if rs else 0.0
    out = {"precision": p, "recall": r, "f1": _f1(p, r), "pages": len(rows)}
    if rows and all("cleaneval" in row for row in rows):
        out["cleaneval"] = statistics.mean(row["cleaneval"] for row in rows)
    return out


def evaluate_files(pred_path: str | PathLike, gold_path: str | PathLike) -> dict:
    """Score the text file ``pred_path`` against the gold file ``gold_path``.

    Both files are decoded by :func:`fastx.decode.decode`; the gold may
    be plain text or CleanEval format (a ``URL:`` line and ``<p>``/``<h>``/
    ``<l>`` markers, dropped as compare.py's ``gold_text`` does; the same
    reader as :func:`read_gold`). Returns one flat dict:
    :func:`scores` under its own keys, then :func:`shingle_scores` with keys
    prefixed ``shingle_``. Raises :class:`fastx.errors.InputError` if a file
    cannot be read."""
    try:
        pred_raw, gold_raw = Path(pred_path).read_bytes(), Path(gold_path).read_bytes()
    except OSError as e:
        raise InputError(f"cannot read {e.filename}: {e.strerror or e}") from e
    pred, gold = decode(pred_raw)[0], read_gold(gold_raw)[1]
    out = scores(pred, gold)
    out.update((f"shingle_{k}", v) for k, v in shingle_scores(pred, gold).items())
    return out
