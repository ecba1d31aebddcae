"""Doc statistics before/after a change of the Doc build (issue 14: whitespace-faithful text).

Every method's features and the trained models read the Doc's arrays, so a
change of how text is stored must leave them as they were.  This records, per
page of the dev corpora, a digest of every Doc array except ``text_off`` and
``text_len`` (``flags`` without the ``pre`` bit, which marks preformatted
nodes, and the ``itemprop`` and ``hint_attr`` bits, which only the metadata scan reads), a method's keep mask and its ``.text`` (``--method``, default
``cetd``: an untrained method, so that retraining ``default`` meanwhile does
not count as a change), and the text of the whole page; ``--check``
compares a second run with the recorded one and says what changed, and why
for the text: a page whose ``.text`` changed is counted under the structure it
holds (pre, table, list).

    python benchmarks/doc_identity.py --save /tmp/doc_before.pkl    # before the change (that build)
    python benchmarks/doc_identity.py --check /tmp/doc_before.pkl   # after it

``--all-methods`` (issue 16, the restructure) records instead, for every page of
every pack in ../shared/datasets (the zh-news pages too, which have no gold),
a digest of each registered method's ``.text`` (``site`` with a model learned from
the pack's first three pages), a digest of the page's cleaned HTML and Markdown (every node kept,
and cetd's keep mask), show's page view and the browser serialization ("serializers"), and the
time of each method beside the time of the parse (and of ``fastx.parse`` beside selectolax's own
parse), measured interleaved (every method on a page before the next page); ``--check`` then says
on how many pages each method's text differs and compares each method's median time/parse ratio
with the recorded one::

    python benchmarks/doc_identity.py --all-methods --save /tmp/before.pkl   # the old tree's build
    python benchmarks/doc_identity.py --all-methods --check /tmp/before.pkl  # the new one
"""
import hashlib
import pickle
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import load_compare, save_check_parser  # noqa: E402

import fastx  # noqa: E402
from fastx import _core  # noqa: E402

CORPORA = ("cleaneval-dev", "cpe", "l3s", "readability", "dragnet", "wcxb-dev", "swde-book")
PRE_BIT = _core.NODE_FLAGS.get("pre", 0)
# flags left out of the digest: pre (above) and the metadata scan's marks (issue 14's speed)
MASKED_BITS = PRE_BIT | _core.NODE_FLAGS.get("itemprop", 0) | _core.NODE_FLAGS.get("hint_attr", 0)
PRE_TAGS = getattr(_core, "PRE_TAGS", ("pre", "textarea", "listing", "plaintext", "xmp"))


def digest(doc):
    h = hashlib.blake2b(digest_size=16)
    for name in ("parent", "end", "depth", "tag", "kind", "chars", "punct", "words", "tags", "link_chars",
                 "link_tags", "p_count", "leaves", "text_nodes", "own_chars", "ptr"):
        if name == "ptr":
            continue            # addresses differ from run to run
        h.update(np.ascontiguousarray(getattr(doc, name)).tobytes())
    h.update((np.asarray(doc.flags) & ~np.uint16(MASKED_BITS)).astype(np.uint16).tobytes())
    return h.hexdigest()


def structure(doc):
    """Which of pre/table/list (ul, ol, dl) and inline white-space:pre* styles the page's Doc holds."""
    names = {doc.tag_name(i) for i in range(len(doc)) if doc.kind[i] == 1}
    styled = PRE_BIT and any(doc.kind[i] == 1 and doc.flags[i] & PRE_BIT and doc.tag_name(i) not in PRE_TAGS
                             for i in range(len(doc)))
    return tuple(k for k, tags in (("pre", set(PRE_TAGS)), ("table", {"table"}), ("list", {"ul", "ol", "dl"}))
                 if names & tags) + (("white-space:pre",) if styled else ())


def run(limit, method):
    cmp = load_compare()
    if cmp is None:
        sys.exit("needs ../shared beside the repository")
    out = {}
    for corpus in CORPORA:
        for pid, html, _ in list(cmp.CORPORA[corpus]())[:limit]:
            try:
                doc = fastx.parse(html)
                r = fastx.extract(doc, method=method)
            except fastx.FastxError as exc:
                out[(corpus, pid)] = ("error", type(exc).__name__)
                continue
            out[(corpus, pid)] = (digest(doc), hashlib.blake2b(r.keep.tobytes(), digest_size=16).hexdigest(),
                                  r.text, structure(doc), doc.render_text(np.ones(len(doc), dtype=np.uint8)))
    return out


ZH_NEWS = "zh-news-unlabeled"


def all_pages(limit):
    """(corpus, page id, html bytes) of every pack: compare.py's corpora and the unlabeled zh-news."""
    cmp = load_compare()
    if cmp is None:
        sys.exit("needs ../shared beside the repository")
    for corpus in CORPORA:
        for pid, html, _ in list(cmp.CORPORA[corpus]())[:limit]:
            yield corpus, pid, html
    root = cmp.unpack(ZH_NEWS)
    for path in sorted(root.rglob("*.html"))[:limit]:
        yield ZH_NEWS, str(path.relative_to(root)), path.read_bytes()


def _site_model(models, corpus, html):
    """The pack's site model, learned from its first three pages (``site`` needs one; the point
    here is identity, not accuracy)."""
    if corpus not in models:
        models[corpus] = {"pages": [], "model": None}
    entry = models[corpus]
    if entry["model"] is None:
        entry["pages"].append(html)
        if len(entry["pages"]) < 3:
            return None
        entry["model"] = fastx.SiteModel.learn(entry["pages"])
    return entry["model"]


def _serializers_digest(doc, html):
    """One digest of the page's cleaned HTML, Markdown (every node kept, then cetd's keep mask: an
    untrained method, so the masks do not move with retraining), show's page view of cetd's
    mask, and the browser's marked serialization (of a fresh parse, as fastx.render makes it)."""
    from fastx.tools.show import page_markup
    h = hashlib.blake2b(digest_size=16)
    try:
        partial = fastx.extract(doc, method="cetd").keep
    except fastx.FastxError as exc:
        partial = None
        h.update(type(exc).__name__.encode())
    for keep in (np.ones(doc.n, dtype=np.uint8), partial):
        if keep is None:
            continue
        h.update(doc.render_html(keep).encode("utf-8", "surrogatepass"))
        h.update(_core.render_markdown(doc, keep).encode("utf-8", "surrogatepass"))
    if partial is not None:
        h.update(page_markup(doc, partial).encode("utf-8", "surrogatepass"))
    try:
        # the tree whole, scripts and styles in it, as fastx.render reads it (with_full_tree; a
        # build before the parse passed over what no method reads had no such step)
        whole = getattr(fastx.core.parse, "with_full_tree", lambda d: d)
        h.update(_core.render_markup(whole(fastx.parse(html))))
    except fastx.FastxError as exc:
        h.update(type(exc).__name__.encode())
    return h.hexdigest()


def run_all(limit):
    """Page key -> {method: text digest or error name}, and method -> [time/parse ratio per page]."""
    names = list(fastx.methods())
    out, ratios, models = {}, {m: [] for m in names}, {}
    from selectolax.lexbor import LexborHTMLParser
    ratios["parse"] = []
    for corpus, pid, html in all_pages(limit):
        t0 = time.perf_counter()
        LexborHTMLParser(html)                  # selectolax's own parse: the yardstick of fastx.parse
        t_lexbor = time.perf_counter() - t0
        t0 = time.perf_counter()
        try:
            doc = fastx.parse(html)
        except fastx.FastxError as exc:
            out[(corpus, pid)] = {"parse": type(exc).__name__}
            continue
        t_parse = time.perf_counter() - t0
        if t_lexbor > 0:
            ratios["parse"].append(t_parse / t_lexbor)
        row = {}
        for m in names:
            params = {}
            if m == "site":
                try:
                    model = _site_model(models, corpus, html)
                except fastx.FastxError as exc:
                    model, row[m] = None, type(exc).__name__
                if model is None:
                    row.setdefault(m, "no model yet")
                    continue
                params = {"model": model}
            t0 = time.perf_counter()
            try:
                text = fastx.extract(doc, method=m, **params).text
            except fastx.FastxError as exc:
                row[m] = type(exc).__name__
                continue
            if t_parse > 0:
                ratios[m].append((time.perf_counter() - t0) / t_parse)
            row[m] = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        row["serializers"] = _serializers_digest(doc, html)     # after the methods: not in their times
        out[(corpus, pid)] = row
    return out, ratios


def check_all(before, now, ratios_before, ratios_now, tolerance):
    """Print per method: pages whose .text differs, and median time/parse before and now."""
    differs = {}
    for key, b in before.items():
        n = now.get(key, {})
        for m in set(b) | set(n):
            if b.get(m) != n.get(m):
                differs.setdefault(m, []).append(key)
    pages = len(before)
    print(f"pages {pages} (now {len(now)})")
    bad = len(now) != pages
    d = differs.pop("serializers", [])
    print(f"  cleaned HTML, Markdown, show's page view and browser serialization differ on {len(d)} of "
          f"{pages} pages")
    for key in d[:5]:
        print("      differs:", key)
    bad |= bool(d)
    for m in sorted(set(ratios_before) | set(ratios_now) | set(differs)):
        rb, rn = ratios_before.get(m) or [0.0], ratios_now.get(m) or [0.0]
        mb, mn = statistics.median(rb), statistics.median(rn)
        change = mn / mb if mb else float("nan")
        d = differs.get(m, [])
        what = "fastx.parse / selectolax parse" if m == "parse" else "time/parse"
        print(f"  {m:12s} .text differs on {len(d):5d} of {pages} pages; {what} median "
              f"{mb:6.2f} before, {mn:6.2f} now ({change:5.2f}x)")
        for key in d[:5]:
            print("      differs:", key, before.get(key, {}).get(m), "->", now.get(key, {}).get(m))
        # a method with no time of its own (site: its rules are learnt outside the loop) has no ratio
        bad |= bool(d) or (mb > 0 and not (1 / tolerance <= change <= tolerance))
    return bad


def main():
    ap = save_check_parser(__doc__, "digests")
    ap.add_argument("--method", default="cetd", help="the method whose keep mask and .text are compared")
    ap.add_argument("--all-methods", action="store_true",
                    help="every registered method's .text on every pack, and its time/parse ratio")
    ap.add_argument("--tolerance", type=float, default=1.25,
                    help="with --all-methods --check: a median time/parse ratio this many times "
                         "higher or lower than the recorded one fails the check")
    a = ap.parse_args()
    if a.all_methods:
        now, ratios = run_all(a.limit)
        if a.save:
            Path(a.save).write_bytes(pickle.dumps((now, ratios)))
            print(f"recorded {len(now)} pages into {a.save}")
            return
        before, ratios_before = pickle.loads(Path(a.check).read_bytes())
        sys.exit(1 if check_all(before, now, ratios_before, ratios, a.tolerance) else 0)
    now = run(a.limit, a.method)
    if a.save:
        Path(a.save).write_bytes(pickle.dumps(now))
        print(f"recorded {len(now)} pages into {a.save}")
        return
    before = pickle.loads(Path(a.check).read_bytes())
    arrays = keeps = texts = whole = compared = errors = 0
    why, why_whole = {}, {}
    for key, b in before.items():
        n = now.get(key)
        if n is None or b[0] == "error" or n[0] == "error":
            errors += 1
            continue
        compared += 1
        arrays += b[0] != n[0]
        if b[0] != n[0]:
            print("Doc arrays differ:", key)
        keeps += b[1] != n[1]
        if b[2] != n[2]:
            texts += 1
            why[n[3]] = why.get(n[3], 0) + 1
            if not n[3]:
                print("text changed on a page without pre/table/list/white-space:pre:", key)
        if b[4] != n[4]:
            whole += 1
            why_whole[n[3]] = why_whole.get(n[3], 0) + 1
    print(f"pages {len(before)}, compared {compared} (an error before or now: {errors}): Doc arrays differ on "
          f"{arrays}, {a.method}'s keep mask differs on {keeps}, its .text differs on {texts}, "
          f"the whole page's text differs on {whole}")
    for label, counts in ((".text", why), ("whole-page text", why_whole)):
        for k, v in sorted(counts.items(), key=lambda kv: -kv[1]):
            print(f"  {label} changed, page holds {'+'.join(k) or 'none of pre/table/list'}: {v}")
    sys.exit(1 if arrays or keeps or errors or not compared else 0)


if __name__ == "__main__":
    main()
