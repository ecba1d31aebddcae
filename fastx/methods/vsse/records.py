"""Structured records: attribute-value pairs of a product or book page (VSSE, seeds/000, Sect. 4.3.2).

>>> for r in fastx.records(html):
...     print(r.attribute, "=", r.value, r.key)
Publisher = Hachette Book Group publisher
ISBN-13 = 9780316125581 isbn

1. Characteristics of every leaf outside links, from the container
   (fastx.characteristics): by default punctuation, the delimiter (':' /
   '：'), each attribute-dictionary name, and the title characteristic.
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
   A label is at most six words (64 bytes, eight CJK characters); a value
   gathered from other leaves under a label that is not in the dictionary is
   at most 20 words (longer text after "Label:" is prose, not a value).

`Record.attribute` is the label as the page writes it, `key` the dictionary
attribute it names (None if the dictionary does not know it), `path` the tag
path of the value's element.
"""
from __future__ import annotations

from typing import NamedTuple

from ... import _core
from . import characteristics as _chars
from ...core.parse import parse
from ...errors import FastxError, InputError

__all__ = ["Record", "records", "area"]

PARAMS = ("tolerance", "characteristics", "encoding")
_LABEL_STRIP = " \t:：-–—>»|(（"
_GATHERED_WORDS = 20


class Record(NamedTuple):
    """One attribute-value pair read from a page (immutable; a tuple)."""
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
    """The records of the area rooted at `root` (step 4 of the module docstring,
    fastx._core.records_read)."""
    sc = _chars.scan(doc)
    return _core.records_read(doc, int(root), sc.delim, sc.label, sc.in_title, _GATHERED_WORDS, _LABEL_STRIP,
                              Record, _chars.attribute_keys())
