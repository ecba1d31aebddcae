"""The language of a page's text, for the metadata's ``language`` where the markup says none.

`detect_language(text)` runs langid.py's classifier (Lui and Baldwin 2012, "langid.py: An
Off-the-shelf Language Identification Tool", ACL 2012 System Demonstrations): multinomial Naive
Bayes over byte n-grams selected by their information gain across languages and domains,

    P(L | text) ∝ P(L) · ∏_f P(f | L)^count(f, text),

the languages of py3langid's bundled model (140 labels: ISO 639-1 codes, ISO 639-3 where there
is none), from the optional extra ``fastx-extract[language]``
(py3langid, the maintained fork trafilatura also uses; a model bundled in the wheel, no
download). Its probabilities are normalized over the languages (py3langid's ``norm_probs``, the
scores scaled by 1/sqrt(bytes) so that they stay calibrated across text lengths); an answer below
`MIN_CONFIDENCE` is no answer, as is "zxx" (no linguistic content).

The classifier runs compiled (``_core.LangidModel``, output/_langid.pxi): one walk of
py3langid's byte automaton and the sum over the features found, float32 as py3langid sums;
py3langid's own ``classify`` walks the bytes in Python (0.26 ms for 600 characters, as much as
a page's parse).  A model whose arrays are not laid out as py3langid 0.4 lays them out is
classified by py3langid itself.  Only the first `TEXT_CHARS` characters are read: on
wcxb-dev's pages whose markup names a language 600 characters of the main text agree with it
as often as 2,000 do (all 1,408 answers at confidence 0.8, given on 97% of the pages;
benchmarks/language_eval.py).  Without py3langid installed the answer is None.
"""
from __future__ import annotations

import numpy as np

from .. import _core

__all__ = ["detect_language", "available", "TEXT_CHARS", "MIN_CONFIDENCE"]

TEXT_CHARS = 600
MIN_CONFIDENCE = 0.8
_NO_LANGUAGE = "zxx"            # ISO 639-2: no linguistic content (numbers, code)

# "identifier": py3langid's classifier (None without py3langid); "compiled": _compiled_model's answer
_state: dict = {}


def _identifier():
    """py3langid's classifier with normalized probabilities, loaded once, and the compiled one
    over its model (_compiled_model; None where the model is not laid out as expected); None
    when the extra is not installed."""
    if "identifier" not in _state:
        try:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier
        except ImportError:
            _state["identifier"] = None
        else:
            ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
            _state["identifier"] = ident
            _state["compiled"] = _compiled_model(ident)
    return _state["identifier"]


def _compiled_model(ident):
    """(the compiled classifier, its labels) over py3langid 0.4's model (``_core.LangidModel``,
    which checks every bound of the arrays); None when the model is laid out otherwise or the
    identifier has no ``_encode`` (how 0.4 makes a text's bytes)."""
    try:
        if getattr(ident.tk_nextmove, "typecode", "") != "I" or getattr(ident.tk_row, "typecode", "") != "H" \
                or not callable(getattr(ident, "_encode", None)):
            return None
        classes = list(ident.nb_classes)
        first, aliases = {}, []
        for i, c in enumerate(classes):            # labels that appear twice (srl -> sr)
            if c in first:
                aliases.append((first[c], i))
            else:
                first[c] = i
        model = _core.LangidModel(ident.tk_nextmove, ident.tk_row, ident.tk_output, ident.nb_ptc,
                                  ident.nb_pc, np.array(aliases, dtype=np.int32).reshape(-1, 2))
    except (AttributeError, TypeError, ValueError, OverflowError):
        return None
    if len(classes) != len(ident.nb_pc):
        return None
    return model, classes


def _classify(ident, text: str) -> tuple[str, float]:
    """(language, probability) of `text`: the compiled walk where the model allows it, else
    py3langid's; the text's bytes are py3langid's own (its ``_encode``: lower-cased when all upper
    case, NFC, UTF-8)."""
    model = _state.get("compiled")
    if model is None:
        return ident.classify(text)
    best, confidence = model[0].classify(ident._encode(text))
    return model[1][best], confidence


def available() -> bool:
    """Whether language detection can run here (py3langid is installed)."""
    return _identifier() is not None


def detect_language(text: str | None) -> str | None:
    """The ISO 639 code of the language `text` is written in ("en", "zh", "pt"), or None: no
    text, a confidence below MIN_CONFIDENCE, no linguistic content, or py3langid not installed."""
    if not text:
        return None
    ident = _identifier()
    if ident is None:
        return None
    lang, confidence = _classify(ident, text[:TEXT_CHARS])
    if confidence < MIN_CONFIDENCE or lang == _NO_LANGUAGE:
        return None
    return lang
