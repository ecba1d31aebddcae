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

The classifier runs compiled (``_core.langid_classify``, output/_langid.pxi): one walk of
py3langid's byte automaton and the sum over the features found, float32 as py3langid sums;
py3langid's own ``classify`` walks the bytes in Python (0.26 ms for 600 characters, as much as
a page's parse).  A model whose arrays are not laid out as py3langid 0.4 lays them out is
classified by py3langid itself.  Only the first `TEXT_CHARS` characters are read: on
wcxb-dev's pages whose markup names a language 600 characters of the main text agree with it
as often as 2,000 do (all 1,408 answers at confidence 0.8, given on 97% of the pages;
benchmarks/language_eval.py).  Without py3langid installed the answer is None.
"""
from __future__ import annotations

import unicodedata

import numpy as np

from .. import _core

__all__ = ["detect_language", "available", "TEXT_CHARS", "MIN_CONFIDENCE"]

TEXT_CHARS = 600
MIN_CONFIDENCE = 0.8
_NO_LANGUAGE = "zxx"            # ISO 639-2: no linguistic content (numbers, code)

_state: dict = {}               # "identifier": the loaded classifier, or None without py3langid


def _identifier():
    """py3langid's classifier with normalized probabilities, loaded once, and its arrays for the
    compiled walk (_compiled_model; None where they are not laid out as expected); None when
    the extra is not installed."""
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
    """(nextmove, row, output, ptc bits, pc, h2f, aliases, classes) of py3langid 0.4's model,
    checked so that no walk of any bytes reads past them: every state's row and every move in
    range, every output a feature row of ptc; None when the model is laid out otherwise."""
    try:
        nextmove = np.frombuffer(ident.tk_nextmove, dtype=np.uint32) \
            if getattr(ident.tk_nextmove, "typecode", "") == "I" else None
        row = np.frombuffer(ident.tk_row, dtype=np.uint16) \
            if getattr(ident.tk_row, "typecode", "") == "H" else None
        output = np.asarray(ident.tk_output, dtype=np.int64)
        ptc = np.ascontiguousarray(ident.nb_ptc)
        pc = np.ascontiguousarray(ident.nb_pc, dtype=np.float32)
        classes = list(ident.nb_classes)
    except (AttributeError, TypeError, ValueError):
        return None
    if nextmove is None or row is None or ptc.dtype != np.float16 or ptc.ndim != 2:
        return None
    n_states, n_feat, n_classes = len(row), ptc.shape[0], ptc.shape[1]
    if not (n_states and output.shape == (n_states,) and len(nextmove) % 256 == 0
            and int(row.max()) < len(nextmove) // 256 and int(nextmove.max()) < n_states
            and int(output.max()) < n_feat and int(output.min()) >= -1
            and pc.shape == (n_classes,) and len(classes) == n_classes):
        return None
    first, aliases = {}, []
    for i, c in enumerate(classes):            # labels that appear twice (srl -> sr)
        if c in first:
            aliases.append((first[c], i))
        else:
            first[c] = i
    h2f = np.arange(65536, dtype=np.uint16).view(np.float16).astype(np.float32)
    return (nextmove, row, output.astype(np.int32), ptc.view(np.uint16), pc, h2f,
            np.array(aliases, dtype=np.int32).reshape(-1, 2), classes)


def _classify(ident, text: str) -> tuple[str, float]:
    """(language, probability) of `text`: the compiled walk where the model allows it, else
    py3langid's; the text prepared as py3langid prepares it (lower-cased when all upper case,
    NFC, UTF-8)."""
    model = _state.get("compiled")
    if model is None:
        return ident.classify(text)
    if text.isupper():
        text = text.lower()
    data = unicodedata.normalize("NFC", text).encode("utf-8", "surrogatepass")
    best, confidence = _core.langid_classify(data, *model[:7])
    return model[7][best], confidence


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
