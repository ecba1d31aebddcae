"""Structured records: attribute-value pairs of a product or book page (VSSE, seeds/000, Sect. 4.3.2).

>>> for r in fastx.records(html):
...     print(r.attribute, "=", r.value, r.key)
Publisher = Hachette Book Group publisher
ISBN-13 = 9780316125581 isbn

1. Characteristics of every leaf, from the container (fastx.characteristics):
   by default the delimiter (':' / '：'), each attribute-dictionary name, and
   the title characteristic.
2. WVC (Formula 3) of every node, bottom up.
3. The HMM over the DOM levels (fastx._core.records_viterbi): from <body>,
   each level moves to the child of greatest weight, until the next state
   would leave characteristics of the area behind; that node is the
   extraction area.
4. Records read from the area's leaves, in document order:
   - "Label: value" in one leaf;
   - ": value" after a label leaf in the same block ("<b>ISBN</b>: 978...");
   - "Label:" or a dictionary name ("by", "出版社") followed by its value: the
     next leaves of the same block up to the next label ("by <a>Author</a>"),
     or else the next leaf ("<th>Price</th><td>$5</td>");
   - the leaf that repeats the page title, as attribute "title".
   A label is at most six words; a value gathered from other leaves under a
   label that is not in the dictionary is at most 20 words (longer text
   after "Label:" is prose, not a value).

`Record.attribute` is the label as the page writes it, `key` the dictionary
attribute it names (None if the dictionary does not know it), `path` the tag
path of the value's element.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _core
from . import characteristics as _chars
from .api import parse
from .errors import FastxError, InputError

__all__ = ["Record", "records", "area"]

PARAMS = ("tolerance", "characteristics", "encoding")
_LABEL_STRIP = " \t:：-–—>»|"
_GATHERED_WORDS = 20


@dataclass(frozen=True)
class Record:
    """One attribute-value pair read from a page."""
    attribute: str
    value: str
    path: str
    key: str | None = None

    def __str__(self) -> str:
        return f"{self.attribute}: {self.value}"


def area(doc, tolerance: float = 0.1, characteristics=None) -> int:
    """Root node of the extraction area the HMM finds (-1 when no leaf shows a characteristic)."""
    if not isinstance(tolerance, (int, float)) or not 0.0 <= tolerance < 1.0:
        raise InputError(f"tolerance must be in [0, 1), got {tolerance!r}")
    if doc.n == 0:
        return -1
    codes, kinds, sizes = _chars.wvc_inputs(doc, characteristics)
    W, coverage = _core.wvc(doc, codes, kinds, sizes)
    path, _ = _core.records_viterbi(doc, W, coverage, float(tolerance))
    if not len(path) or W[path[-1]] <= 0.0:
        return -1
    return int(path[-1])


def records(html_or_doc, url: str | None = None, **params) -> list[Record]:
    """Attribute-value records of a page (str, bytes or a parsed fastx.Doc).

    Parameters: `tolerance` (0.1: share of the characteristic coverage the
    HMM may leave behind per level), `characteristics` (names of the WVC
    characteristics; default: every registered one with wvc=True),
    `encoding` (a hint for bytes)."""
    bad = [k for k in params if k not in PARAMS]
    if bad:
        raise InputError(f"records() has no parameter {', '.join(map(repr, bad))}; it takes: {', '.join(PARAMS)}")
    doc = parse(html_or_doc, url=url, encoding=params.get("encoding"))
    try:
        root = area(doc, params.get("tolerance", 0.1), params.get("characteristics"))
        return [] if root < 0 else read(doc, root)
    except FastxError:
        raise
    except (TypeError, ValueError) as exc:
        raise InputError(f"records: {exc}") from exc


def read(doc, root: int) -> list[Record]:
    """The records of the area rooted at `root` (step 4 of the module docstring)."""
    lo, hi = int(root), int(doc.end[root])
    leaves = (lo + np.flatnonzero(doc.kind[lo:hi] == _core.KIND_TEXT)).tolist()
    if not leaves:
        return []
    sc = _chars.scan(doc)
    blk = _core.block_ancestors(doc)
    buf = doc.text_buf
    off, tlen = doc.text_off, doc.text_len
    keys = _chars.attribute_keys()
    raw = [buf[off[i]:off[i] + tlen[i]] for i in leaves]
    delim = sc.delim[leaves].tolist()
    label = sc.label[leaves].tolist()
    in_title = sc.in_title[leaves].tolist()
    block = blk[leaves].tolist()
    nleaf = len(leaves)
    used = [False] * nleaf
    names: dict[int, str] = {}

    def text(a: int) -> str:
        return raw[a].decode("utf-8", "replace").strip()

    def is_label(a: int) -> bool:
        return delim[a] >= 0 or label[a] >= 0

    def starts_value(a: int) -> bool:     # ": value", the label being the leaf before
        return delim[a] == 0

    def path(a: int) -> str:
        steps = []
        p = int(doc.parent[leaves[a]])
        while p >= 0:
            name = names.get(p)
            if name is None:
                name = names[p] = doc.tag_name(p)
            steps.append(name)
            p = int(doc.parent[p])
        return "/".join(reversed(steps))

    def gather(a: int, known: bool) -> tuple[str, int]:
        """Value after the label leaf a: the following leaves of its block up
        to the next label, or else the next leaf; (value, first value leaf)."""
        parts, b = [], a + 1
        while b < nleaf and block[b] == block[a] and not is_label(b) and not used[b]:
            parts.append(text(b))
            b += 1
        first = a + 1
        if not parts and a + 1 < nleaf and not is_label(a + 1) and not used[a + 1]:
            parts.append(text(a + 1))
            b = a + 2
        value = " ".join(p for p in parts if p)
        if not value or (not known and len(value.split()) > _GATHERED_WORDS):
            return "", -1
        for c in range(a + 1, b):
            used[c] = True
        return value, first

    out: list[Record] = []
    title_done = False
    for a in range(nleaf):
        if used[a]:
            continue
        nxt_value = a + 1 < nleaf and starts_value(a + 1) and block[a + 1] == block[a]
        if delim[a] >= 0:
            r = raw[a]
            d = delim[a]
            width = 1 if r[d] == 0x3A else 3
            name = r[:d].decode("utf-8", "replace").strip(_LABEL_STRIP)
            value = r[d + width:].decode("utf-8", "replace").strip()
            at = a
            if not name:
                if a == 0 or block[a - 1] != block[a] or delim[a - 1] >= 0 or used[a - 1]:
                    continue
                name = text(a - 1).strip(_LABEL_STRIP)
                if not name or len(name.split()) > 6:
                    continue
                used[a - 1] = True
            key = _chars.attribute_key(name)
            if not value:
                value, at = gather(a, key is not None)
                if not value:
                    continue
            used[a] = True
            out.append(Record(name, value, path(at), key))
        elif label[a] >= 0:
            if nxt_value:
                continue                  # the next leaf, ": value", takes this label
            value, at = gather(a, True)
            if not value:
                continue
            used[a] = True
            out.append(Record(text(a).strip(_LABEL_STRIP), value, path(at), keys[label[a]]))
        elif in_title[a] and not title_done and not nxt_value:
            used[a] = True
            title_done = True
            out.append(Record("title", text(a), path(a), "title"))
    return out
