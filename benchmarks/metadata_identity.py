"""Metadata before/after a change (issue 14): every field and its source on every page.

Records, for every page of the dev corpora (compare.py's loaders, with their URLs) and of
zh-news-unlabeled, what ``fastx.metadata.extract_metadata`` returns (the flat fields, the
sources, the canonical URL, the tag and category lists); ``--check`` compares a second run with
the recorded one and lists the pages that differ::

    python benchmarks/metadata_identity.py --save /tmp/meta_before.pkl    # the old build
    python benchmarks/metadata_identity.py --check /tmp/meta_before.pkl   # the new one
"""
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fastx                                     # noqa: E402
from fastx.metadata import extract_metadata      # noqa: E402
from conftest import load_compare, save_check_parser  # noqa: E402


def record(m):
    return m.as_flat(), dict(m.source), m.url, list(m.tags), list(m.categories)


def collect(limit=None):
    cmp = load_compare()
    if cmp is None:
        raise SystemExit("../shared (the dev corpora) is not beside the repository")
    out = {}
    for name, loader in cmp.CORPORA.items():
        for i, (pid, html, meta) in enumerate(loader()):
            if limit is not None and i >= limit:
                break
            url = meta.get("url") if isinstance(meta, dict) else None
            out[(name, pid)] = record(extract_metadata(fastx.parse(html, url=url), url))
    root = cmp.unpack("zh-news-unlabeled") / "zh-news-unlabeled"
    for i, p in enumerate(sorted(root.rglob("*.htm*"))):
        if limit is not None and i >= limit:
            break
        out[("zh-news", p.name)] = record(extract_metadata(fastx.parse(p.read_bytes())))
    return out


def main():
    ap = save_check_parser(__doc__, "metadata")
    a = ap.parse_args()
    now = collect(a.limit)
    if a.save:
        with open(a.save, "wb") as f:
            pickle.dump(now, f)
        print(f"{len(now)} pages recorded")
        return
    with open(a.check, "rb") as f:
        before = pickle.load(f)
    diff = [k for k in before if before[k] != now.get(k)]
    print(f"{len(before)} pages recorded, {len(now)} now; {len(diff)} differ")
    for k in diff[:20]:
        print(k, before[k], "->", now.get(k), sep="\n  ")


if __name__ == "__main__":
    main()
