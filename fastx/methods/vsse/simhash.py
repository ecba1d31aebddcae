"""SimHash fingerprints and Hamming distance (VSSE paper, seeds/000, Sect. 4.4).

>>> a = fastx.simhash("The quick brown fox jumps over the lazy dog.")
>>> b = fastx.simhash("The quick brown fox jumped over the lazy dog!")
>>> fastx.hamming(a, b)          # small for near-duplicates, about 32 for unrelated texts

Keywords are words for alphabetic scripts (ASCII folded to lower case, two
characters or more, not all digits, stop words left out) and character
bigrams for CJK text, so Chinese needs no segmenter.  Each distinct keyword
votes on the 64 bits of its hash with the weight of Formula 4 for a text
that is its own area (TF * L); the fingerprint keeps the bits with a
positive sum.  The same kernel refines VSSE's content areas
(fastx._core.vsse_refine), where the weights come from the whole area.
"""
from __future__ import annotations

from ... import _core
from ...errors import InputError

__all__ = ["simhash", "hamming"]


def simhash(text: str, L: float = 1.0) -> int:
    """64-bit SimHash of `text` (an int in [0, 2**64)); 0 if it has no keywords."""
    if not isinstance(text, str):
        raise InputError(f"simhash needs a str, got {type(text).__name__}")
    if not isinstance(L, (int, float)) or not L > 0:
        raise InputError(f"L must be a positive number, got {L!r}")
    return int(_core.simhash_text(text, float(L)))


def hamming(a: int, b: int) -> int:
    """Number of bits in which two 64-bit fingerprints differ (0..64)."""
    for name, v in (("a", a), ("b", b)):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 1 << 64:
            raise InputError(f"hamming needs two 64-bit fingerprints (ints in [0, 2**64)); {name} is {v!r}")
    return int(_core.hamming(a, b))
