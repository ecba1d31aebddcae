"""The metadata's language detected from the text (fastx.output.language) against the markup's.

    PYTHONPATH=. .venv/bin/python benchmarks/language_eval.py
    PYTHONPATH=. .venv/bin/python benchmarks/language_eval.py --datasets readability,l3s --chars 300,600,2000
    PYTHONPATH=. .venv/bin/python benchmarks/language_eval.py --datasets "" --pages "zh-news-unlabeled/*/*"

For every page of the dev corpora whose markup names a language (<html lang>, og:locale,
content-language; the metadata's source), the main text is classified without the markup and
compared with the markup's primary subtag ("en" of "en-US"): how many pages the detector
answers (confidence at least --confidence) and how often it agrees, for each --chars (the
characters of the main text read). The markup is the reference, and it is sometimes wrong (an
English template's lang="en" on a Chinese article, placeholder Latin on a test page): the
disagreements are printed by pair. Then, for the pages whose markup is silent, what the detector
says of them; --pages reads other pages (a glob of files) as one more corpus. Needs the extra fastx-extract[language] (py3langid).
"""
from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

MARKUP = ("html", "opengraph", "meta", "json-ld")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", default="wcxb-dev,readability,cpe,cleaneval-dev,l3s,dragnet")
    ap.add_argument("--chars", default="300,600,2000", help="characters of the main text read")
    ap.add_argument("--confidence", type=float, default=None, help="default: language.MIN_CONFIDENCE")
    ap.add_argument("--pages", help="a glob of more page files (e.g. an unpacked zh-news-unlabeled/*/*)")
    a = ap.parse_args(argv)
    import fastx
    from fastx.output import language
    from validate import load_compare
    if not language.available():
        sys.exit("language_eval.py: py3langid is not installed (pip install -e '.[language]')")
    ident = language._identifier()
    conf = language.MIN_CONFIDENCE if a.confidence is None else a.confidence
    caps = [int(c) for c in a.chars.split(",")]
    cmp = load_compare()
    corpora = {c: cmp.CORPORA[c] for c in a.datasets.split(",") if c}
    if a.pages:
        import glob
        files = sorted(glob.glob(a.pages))
        corpora[a.pages] = lambda: ((f, Path(f).read_bytes(), {}) for f in files)
    for corpus, load in corpora.items():
        rows, silent, secs = [], collections.Counter(), collections.Counter()
        for _, html, meta in load():
            r = fastx.extract(html, url=meta.get("url"))
            m = r.metadata
            if m.source.get("language") in MARKUP:
                mark = m.language.split("-")[0].lower()
                got = []
                for cap in caps:
                    t0 = time.perf_counter()
                    lang, c = language._classify(ident, r.text[:cap])   # what fastx runs (compiled)
                    secs[cap] += time.perf_counter() - t0
                    got.append(lang if c >= conf and lang != "zxx" else None)
                rows.append((mark, got))
            else:
                silent[m.language if m.source.get("language") == "text" else None] += 1
        print(f"{corpus}: {len(rows)} pages with a markup language "
              f"{dict(collections.Counter(m for m, _ in rows).most_common(6))}")
        for k, cap in enumerate(caps):
            ans = [(m, g[k]) for m, g in rows if g[k] is not None]
            ok = sum(m == g for m, g in ans)
            bad = collections.Counter((m, g) for m, g in ans if m != g).most_common(5)
            print(f"  {cap:5d} chars: answered {len(ans)}/{len(rows)}, agree {ok}/{len(ans)} "
                  f"({ok / max(1, len(ans)):.3f}), {secs[cap] / max(1, len(rows)) * 1e3:.2f} ms/page; "
                  f"markup -> text disagreements {bad}")
        print(f"  {sum(silent.values())} pages without a markup language, detected (language.TEXT_CHARS="
              f"{language.TEXT_CHARS}): {dict(silent.most_common(8))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
