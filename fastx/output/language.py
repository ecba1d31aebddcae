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

Only the first `TEXT_CHARS` characters are read: langid.py walks the bytes in Python (about
0.45 ms for 600 characters of a page, its tables cold in the cache), and on wcxb-dev's pages
whose markup names a language 600 characters of the main text agree with it as often as 2,000
do (all 1,408 answers at confidence 0.8, given on 97% of the pages; benchmarks/language_eval.py).
Without py3langid installed the answer is None.
"""
from __future__ import annotations

__all__ = ["detect_language", "available", "TEXT_CHARS", "MIN_CONFIDENCE"]

TEXT_CHARS = 600
MIN_CONFIDENCE = 0.8
_NO_LANGUAGE = "zxx"            # ISO 639-2: no linguistic content (numbers, code)

_state: dict = {}               # "identifier": the loaded classifier, or None without py3langid


def _identifier():
    """py3langid's classifier with normalized probabilities, loaded once; None when the extra is
    not installed."""
    if "identifier" not in _state:
        try:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier
        except ImportError:
            _state["identifier"] = None
        else:
            _state["identifier"] = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    return _state["identifier"]


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
    lang, confidence = ident.classify(text[:TEXT_CHARS])
    if confidence < MIN_CONFIDENCE or lang == _NO_LANGUAGE:
        return None
    return lang
