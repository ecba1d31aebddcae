#!/usr/bin/env python3
"""Build fastx/data/bench.tar.xz, the small corpus `python -m fastx bench` ships with.

Pages come only from the VALIDATION split of the development corpora, never
trained on: in the five older text corpora, in the shared compare tool's loader
order, the first ceil(20%) of the pages; in wcxb-dev (modern pages of 2025, seven
page types), one registrable domain in five (benchmarks/validate.py's split, the
one the shipped models were trained around). From each of the six corpora we
take PER_CORPUS pages evenly spaced over its validation pages whose gold has at
least one token: validation index floor(i * len / PER_CORPUS) for
i = 0..PER_CORPUS-1. No randomness, so the same datasets always give the same
archive, byte for byte.

Archive layout (CleanEval format, read by fastx.bench.load_corpus):
  input/<id>.html        the page's original bytes, untouched (any encoding)
  GoldStandard/<id>.txt  UTF-8: "URL: <url>" when known, then the gold text as
                         compare.py's gold_text() computes it
  MANIFEST.json          source corpus, original id and url of each page

Run from anywhere: python benchmarks/make_bench_corpus.py [--check]
"""
from __future__ import annotations

import argparse
import importlib.util
import io
import json
import math
import re
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
COMPARE = REPO.parent / "shared" / "tools" / "compare.py"
OUT = REPO / "fastx" / "data" / "bench.tar.xz"
CORPORA = ["cleaneval-dev", "cpe", "l3s", "readability", "dragnet", "wcxb-dev"]
PER_CORPUS = 10
VALIDATION = 0.2
MAX_BYTES = 5 * 1024 * 1024

sys.path.insert(0, str(REPO))
from fastx.evaluate import read_gold  # noqa: E402  (the reader the bench uses: the gold must round-trip)


def load_compare():
    spec = importlib.util.spec_from_file_location("fastx_shared_compare", COMPARE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def validation(compare, corpus: str) -> list:
    """The corpus's validation pages, in loader order: validate.py's split (wcxb-dev by domain,
    the others their first ceil(20%))."""
    docs = list(compare.CORPORA[corpus]())
    if docs and "type" in docs[0][2]:
        return _validate().split(docs)[0]
    return docs[:math.ceil(len(docs) * VALIDATION)]


def _validate():
    """benchmarks/validate.py as a module (its split of wcxb-dev by domain)."""
    spec = importlib.util.spec_from_file_location("fastx_validate", REPO / "benchmarks" / "validate.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def bench_id(corpus: str, original: str) -> str:
    """<corpus>-<original stem>, restricted to [A-Za-z0-9_-] so it pairs by stem anywhere."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", f"{corpus}-{original.rsplit('/', 1)[-1]}")


def gold_file(text: str, url: str | None) -> str:
    return (f"URL: {url}\n" if url else "") + text


def select(compare) -> list[dict]:
    chosen = []
    for corpus in CORPORA:
        val = validation(compare, corpus)
        usable = []
        for oid, html, meta in val:
            text, url = meta["text"], meta.get("url")
            if not compare.TOKEN.search(text):
                continue  # no gold to score against
            back_url, back = read_gold(gold_file(text, url))
            if back_url != url or compare.TOKEN.findall(back) != compare.TOKEN.findall(text):
                continue  # the text would not survive the CleanEval format (e.g. a literal <p>)
            usable.append((oid, html, text, url))
        if len(usable) < PER_CORPUS:
            raise SystemExit(f"{corpus}: only {len(usable)} usable validation pages")
        for i in range(PER_CORPUS):
            oid, html, text, url = usable[i * len(usable) // PER_CORPUS]
            chosen.append({"id": bench_id(corpus, oid), "corpus": corpus, "original_id": oid, "url": url,
                           "html": html, "gold": gold_file(text, url),
                           "validation_pages": len(val)})
    ids = [c["id"] for c in chosen]
    assert len(set(ids)) == len(ids), "bench ids collide"
    return chosen


def archive(pages: list[dict]) -> bytes:
    manifest = {
        "description": "fastx bench corpus: pages from the validation split (first ceil(20%) in "
                       "compare.py loader order) of each development corpus; see benchmarks/make_bench_corpus.py",
        "gold": "GoldStandard/<id>.txt: optional 'URL:' line, then compare.py gold_text() of the page",
        "pages": {p["id"]: {"corpus": p["corpus"], "original_id": p["original_id"], "url": p["url"]}
                  for p in pages},
    }
    files = [("MANIFEST.json", json.dumps(manifest, indent=1, sort_keys=True).encode() + b"\n")]
    for p in sorted(pages, key=lambda p: p["id"]):
        files.append((f"input/{p['id']}.html", p["html"]))
        files.append((f"GoldStandard/{p['id']}.txt", p["gold"].encode("utf-8")))
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz", format=tarfile.USTAR_FORMAT, preset=9) as tf:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", action="store_true", help="do not write; fail if --out differs from a fresh build")
    a = ap.parse_args(argv)
    pages = select(load_compare())
    data = archive(pages)
    if len(data) > MAX_BYTES:
        raise SystemExit(f"archive is {len(data)} bytes, over the {MAX_BYTES} limit")
    if a.check:
        same = a.out.exists() and a.out.read_bytes() == data
        print(f"{a.out}: {'up to date' if same else 'DIFFERS from a fresh build'}")
        return 0 if same else 1
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_bytes(data)
    for corpus in CORPORA:
        sel = [p for p in pages if p["corpus"] == corpus]
        print(f"{corpus:<14} {len(sel):3d} of {sel[0]['validation_pages']:3d} validation pages, "
              f"{sum(len(p['html']) for p in sel) / 1e6:6.2f} MB html")
    print(f"{a.out}: {len(pages)} pages, {sum(len(p['html']) for p in pages) / 1e6:.2f} MB html, "
          f"{len(data) / 1e6:.2f} MB compressed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
