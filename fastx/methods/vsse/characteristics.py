"""The characteristics container of VSSE (seeds/000, Sect. 4 and Fig. 2).

The paper keeps every extraction characteristic in one extensible container:
the visual punctuation characteristic drives vvtc (Formula 1), and all
characteristics weigh the DOM nodes for structured records (WVC, Formula 3).
This module is that container.  Built in:

``punctuation``  counter: punctuation marks of a leaf, ASCII and CJK/full-width
                 (Doc.punct); takes part in vvtc and WVC
``delimiter``    predicate: the leaf separates an attribute from its value with
                 ':' or the full-width '：' (Sect. 4.3.2); takes part in WVC
``attribute``    category: the leaf's label is a name of the attribute dictionary
                 (fastx/data/attributes.json, English and Chinese); every
                 dictionary attribute is a characteristic of its own ("all words
                 in this dictionary will also be a kind of characteristics");
                 takes part in WVC
``title``        predicate: content semantics (Sect. 4.4) for records: the leaf
                 (two words or more) repeats part of the page title, or the title
                 begins with it (one word); takes part in WVC

Every characteristic takes part in WVC, as in the paper; records() takes
``characteristics=`` to choose a subset.  Leaves inside links never count
for WVC (fastx._core.wvc).

Register your own with :func:`register_characteristic`; it then takes part
in vvtc and/or WVC (``vvtc=`` / ``wvc=``)::

    from fastx.methods.vsse.characteristics import register_characteristic
    register_characteristic("currency", lambda doc, i: doc.text(i).count("$"), kind="counter")
    register_characteristic("emphasis", lambda doc: is_bold_array(doc), per_node=False)

A characteristic is a counter (how often a leaf shows it), a predicate (a
leaf shows it or not) or a category (which of `size` related
characteristics a leaf shows, -1 for none).  `fn(doc, i)` is called for each
leaf i (a text node); with ``per_node=False``, `fn(doc)` returns an array
over the Doc's nodes at once (a category function returns (codes, size)).
"""
from __future__ import annotations

import json
from collections import namedtuple
from dataclasses import dataclass
from importlib import resources
from typing import Callable, Iterable

import numpy as np

from ... import _core
from ...errors import InputError

KINDS = ("counter", "predicate", "category")


@dataclass(frozen=True)
class Characteristic:
    """One entry of the container (see the module docstring)."""
    name: str
    fn: Callable
    kind: str = "predicate"
    vvtc: bool = True
    wvc: bool = True
    per_node: bool = True
    description: str = ""


_REGISTRY: dict[str, Characteristic] = {}


def register_characteristic(name: str, fn: Callable, *, kind: str = "predicate", vvtc: bool = True,
                            wvc: bool = True, per_node: bool = True, description: str = "",
                            replace: bool = False) -> Characteristic:
    """Add a characteristic to the container; it takes part in vvtc (Formula 1:
    its count is added to the leaf's punctuation count; a predicate counts 1)
    and/or in WVC (Formula 3: a leaf satisfies it when its value is > 0, or,
    for a category, >= 0)."""
    if not isinstance(name, str) or not name:
        raise InputError("a characteristic needs a non-empty name")
    if not callable(fn):
        raise InputError(f"characteristic {name!r}: fn must be callable, got {type(fn).__name__}")
    if kind not in KINDS:
        raise InputError(f"characteristic {name!r}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if name in _REGISTRY and not replace:
        raise InputError(f"characteristic {name!r} is already registered (pass replace=True to replace it)")
    c = Characteristic(name, fn, kind, bool(vvtc), bool(wvc), bool(per_node), description)
    _REGISTRY[name] = c
    return c


def unregister_characteristic(name: str) -> None:
    """Remove a characteristic from the container."""
    if _REGISTRY.pop(name, None) is None:
        raise InputError(f"no characteristic {name!r}; registered: {', '.join(_REGISTRY)}")


def characteristics() -> dict[str, Characteristic]:
    """The container: name -> Characteristic, in registration order."""
    return dict(_REGISTRY)


def _select(names: Iterable[str] | None, stage: str) -> list[Characteristic]:
    if names is None:
        return [c for c in _REGISTRY.values() if getattr(c, stage)]
    if isinstance(names, str):
        names = [names]
    out = []
    for name in names:
        if name not in _REGISTRY:
            raise InputError(f"no characteristic {name!r}; registered: {', '.join(_REGISTRY)}")
        out.append(_REGISTRY[name])
    return out


def values(doc, c: Characteristic) -> tuple[np.ndarray, int]:
    """(int32 array over the Doc, category count) of one characteristic; only
    the entries at leaves (text nodes) are meaningful."""
    n = doc.n
    if c.per_node:
        out = np.zeros(n, dtype=np.int32) if c.kind != "category" else np.full(n, -1, dtype=np.int32)
        try:
            for i in np.flatnonzero(doc.kind == _core.KIND_TEXT).tolist():
                out[i] = int(c.fn(doc, i))
        except Exception as exc:
            raise InputError(f"characteristic {c.name!r} failed on node {i}: {exc}") from exc
        size = int(out.max()) + 1 if c.kind == "category" and n else 1
        return out, max(size, 1)
    try:
        res = c.fn(doc)
        size = 1
        if c.kind == "category":
            res, size = res
        arr = np.ascontiguousarray(res, dtype=np.int32)
    except Exception as exc:
        raise InputError(f"characteristic {c.name!r} failed: {exc}") from exc
    if arr.shape != (n,):
        raise InputError(f"characteristic {c.name!r} returned shape {arr.shape}, the Doc has {n} nodes")
    return arr, int(size)


def vvtc_counts(doc, names: Iterable[str] | None = None) -> np.ndarray:
    """punc_num of Formula 1 for every leaf: the sum of the vvtc characteristics
    (by default every registered one with vvtc=True)."""
    chosen = _select(names, "vvtc")
    if len(chosen) == 1 and chosen[0] is _PUNCTUATION:
        return doc.punct
    total = np.zeros(doc.n, dtype=np.int32)
    for c in chosen:
        arr, _ = values(doc, c)
        if c.kind == "counter":
            total += np.maximum(arr, 0)
        elif c.kind == "predicate":
            total += arr > 0
        else:
            total += arr >= 0
    return total


def wvc_inputs(doc, names: Iterable[str] | None = None):
    """(codes, kinds, sizes) for fastx._core.wvc: the WVC characteristics (by
    default every registered one with wvc=True).  Array-valued characteristics
    are passed as they come: the kernel checks them."""
    codes, kinds, sizes = [], [], []
    for c in _select(names, "wvc"):
        if c.per_node:
            arr, size = values(doc, c)
        else:
            try:
                arr = c.fn(doc)
                size = 1
                if c.kind == "category":
                    arr, size = arr
            except Exception as exc:
                raise InputError(f"characteristic {c.name!r} failed: {exc}") from exc
        codes.append(arr)
        kinds.append(1 if c.kind == "category" else 0)
        sizes.append(size)
    return codes, kinds, sizes


# ---------------------------------------------------------------- the attribute dictionary

_ATTR_KEYS: list[str] = []                 # entry id -> attribute key
_ATTR_NAMES: dict[str, list[str]] = {}     # attribute key -> names
_ATTR_HASH: dict[int, int] = {}            # normalized-name hash -> entry id
_attr_table = (np.zeros(0, np.uint64), np.zeros(0, np.int32))
_attr_version = 0


def add_attributes(mapping: dict[str, Iterable[str]]) -> None:
    """Extend the attribute dictionary: {attribute key: [names, ...]}.  New
    names of an existing key are added to it; a name already listed under
    another key moves to this one."""
    global _attr_table, _attr_version, _attr_keys_tuple
    if not isinstance(mapping, dict):
        raise InputError("add_attributes needs a dict {attribute key: [names, ...]}")
    for key, names in mapping.items():
        if not isinstance(key, str) or not key:
            raise InputError(f"attribute keys must be non-empty strings, got {key!r}")
        if isinstance(names, str):
            names = [names]
        if key not in _ATTR_NAMES:
            _ATTR_NAMES[key] = []
            _ATTR_KEYS.append(key)
        eid = _ATTR_KEYS.index(key)
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise InputError(f"attribute {key!r}: names must be non-empty strings, got {name!r}")
            if name not in _ATTR_NAMES[key]:
                _ATTR_NAMES[key].append(name)
            _ATTR_HASH[int(_core.attribute_hash(name))] = eid
    keys = np.array(sorted(_ATTR_HASH), dtype=np.uint64)
    _attr_table = (keys, np.array([_ATTR_HASH[int(k)] for k in keys.tolist()], dtype=np.int32))
    _attr_keys_tuple = tuple(_ATTR_KEYS)
    _attr_version += 1


def attributes() -> dict[str, tuple[str, ...]]:
    """The attribute dictionary: attribute key -> names."""
    return {k: tuple(_ATTR_NAMES[k]) for k in _ATTR_KEYS}


def attribute_key(label: str) -> str | None:
    """The dictionary attribute a label names ('ISBN-13' -> 'isbn', '出版社' -> 'publisher'), or None."""
    eid = _ATTR_HASH.get(int(_core.attribute_hash(label)))
    return None if eid is None else _ATTR_KEYS[eid]


def attribute_keys() -> tuple[str, ...]:
    """Attribute keys by entry id (the category ids of the ``attribute`` characteristic)."""
    return _attr_keys_tuple


_attr_keys_tuple: tuple[str, ...] = ()


Scan = namedtuple("Scan", "delim label in_title has_delim")


def scan(doc) -> Scan:
    """The record characteristics of every leaf (fastx._core.records_scan),
    memoized on the Doc for the current dictionary."""
    key = ("vsse.scan", _attr_version)
    s = doc.cache.get(key)
    if s is None:
        s = Scan(*_core.records_scan(doc, _attr_table[0], _attr_table[1], doc.title))
        doc.cache[key] = s
    return s


def _load_dictionary() -> None:
    with resources.files("fastx").joinpath("data/attributes.json").open("rb") as f:
        add_attributes(json.load(f)["attributes"])


_load_dictionary()

_PUNCTUATION = register_characteristic(
    "punctuation", lambda doc: doc.punct, kind="counter", vvtc=True, wvc=True, per_node=False,
    description="punctuation marks of the leaf, ASCII and CJK/full-width (Sect. 4.2)")
register_characteristic(
    "delimiter", lambda doc: scan(doc).has_delim, kind="predicate", vvtc=False, wvc=True, per_node=False,
    description="the leaf separates an attribute name from its value with ':' or '：' (Sect. 4.3.2)")
register_characteristic(
    "attribute", lambda doc: (scan(doc).label, max(1, len(_ATTR_KEYS))), kind="category", vvtc=False,
    wvc=True, per_node=False,
    description="the leaf's label is a name of the attribute dictionary, one characteristic per attribute")
register_characteristic(
    "title", lambda doc: scan(doc).in_title, kind="predicate", vvtc=False, wvc=True, per_node=False,
    description="content semantics: the leaf repeats part of the page title (Sect. 4.4)")
