"""Speed of applying learned site rules (seeds/001 Sect. 6) against selectolax parse-only.

Run: python -m pytest benchmarks/bench_site.py   (needs ../shared: CleanPortalEval)

Rules are learned from the first 10 pages of each CleanPortalEval site; each
round applies them to every other page of the site (SiteModel.extract on
the page bytes: decode, parse, Doc, rule matching, text output).  Target:
at most 1.5x the time selectolax takes to parse the same page, per page
(``test_apply_within_1_5x_parse_only``: the median per-page time over the
median per-page parse-only time, interleaved page by page in one run, as the
other speed suites measure).  It also prints the ratio of the summed times,
where the few pages that need an encoding guess weigh more.  ``rules_only``
times the rule matching and text output on already parsed Docs: the part the
site model itself adds.
"""
import statistics
from collections import defaultdict

import pytest
from selectolax.lexbor import LexborHTMLParser

import fastx

from conftest import load_compare, per_page_one

pytest.importorskip("sklearn")
TARGET_RATIO = 1.5
MEDIANS = {}


def _load():
    mod = load_compare()
    if mod is None:
        pytest.skip("../shared/tools/compare.py not present")
    groups = defaultdict(list)
    for pid, html, _ in mod.CORPORA["cpe"]():
        groups[pid.split("/", 1)[1].split("_", 1)[0]].append(html)
    out = []
    for site, pages in sorted(groups.items()):
        model = fastx.SiteModel.learn(pages[:10])
        out.extend((model, html) for html in pages[10:])
    return out


@pytest.fixture(scope="module")
def applied():
    return _load()


def _record(benchmark, name):
    if not benchmark.disabled:
        MEDIANS[name] = benchmark.stats.stats.median


def test_parse_only(benchmark, applied):
    pages = [h for _, h in applied]
    benchmark(lambda: [LexborHTMLParser(h) for h in pages])
    _record(benchmark, "parse")


def test_apply_rules(benchmark, applied):
    out = benchmark(lambda: [m.extract(h).text for m, h in applied])
    assert sum(1 for t in out if t) >= 0.9 * len(out)
    _record(benchmark, "apply")


def test_fastx_parse(benchmark, applied):
    """The shared parse path every method pays: decode, lexbor parse, Doc build."""
    pages = [h for _, h in applied]
    benchmark(lambda: [fastx.parse(h) for h in pages])
    _record(benchmark, "fastx_parse")


def test_rules_only(benchmark, applied):
    docs = [(m, fastx.parse(h)) for m, h in applied]
    benchmark(lambda: [d.render_text(m.keep(d)) for m, d in docs])
    _record(benchmark, "rules")


def test_apply_within_1_5x_parse_only(applied):
    ours, base = [], []
    for model, html in applied:            # interleaved: both see the same machine state
        ours.extend(per_page_one(model.extract, html, 5))
        base.extend(per_page_one(LexborHTMLParser, html, 5))
    ratio = statistics.median(ours) / statistics.median(base)
    print(f"\napply/parse-only per page (medians) = {ratio:.2f} "
          f"({statistics.median(ours) * 1e3:.3f} / {statistics.median(base) * 1e3:.3f} ms), "
          f"summed times {sum(ours) / sum(base):.2f}")
    if "parse" in MEDIANS:
        print(f"whole-list rounds: apply/parse-only = {MEDIANS.get('apply', float('nan')) / MEDIANS['parse']:.2f}, "
              f"fastx.parse/parse-only = {MEDIANS.get('fastx_parse', float('nan')) / MEDIANS['parse']:.2f}, "
              f"rules-only/parse-only = {MEDIANS.get('rules', float('nan')) / MEDIANS['parse']:.3f}")
    assert ratio <= TARGET_RATIO
