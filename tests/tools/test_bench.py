"""fastx.bench: the shipped corpus, --corpus DIR loading, and a real (tiny) bench run."""
import importlib.util
import json
import math
from pathlib import Path

import pytest

from fastx import bench
from fastx.evaluate import tokens

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
SOURCES = {"cleaneval-dev", "cpe", "l3s", "readability", "dragnet", "wcxb-dev"}
FIGURES = {"f1", "precision", "recall", "ms_p50", "ms_p95", "pages_per_s", "mb_per_s", "x_parse_only",
           "errors", "pages", "description"}


@pytest.fixture(scope="module")
def shipped():
    return bench.load_corpus()


def test_shipped_corpus_pairs_every_page_with_gold(shipped):
    assert 30 <= len(shipped.pages) <= 100
    assert shipped.unpaired == 0
    assert len({p.id for p in shipped.pages}) == len(shipped.pages)
    for p in shipped.pages:
        assert isinstance(p.html, bytes) and len(p.html) > 500, p.id
        assert len(tokens(p.gold)) >= 4, p.id
        assert "URL:" not in p.gold[:10] and "<p>" not in p.gold, p.id
    assert (ROOT / "fastx" / "data" / bench.SHIPPED).stat().st_size <= 5 * 1024 * 1024


def test_shipped_corpus_spreads_over_the_six_dev_corpora(shipped):
    manifest = shipped.manifest["pages"]
    assert set(manifest) == {p.id for p in shipped.pages}
    per_source = {}
    for p in shipped.pages:
        assert p.source == manifest[p.id]["corpus"]
        per_source[p.source] = per_source.get(p.source, 0) + 1
    assert set(per_source) == SOURCES
    assert min(per_source.values()) >= 5
    # CleanEval-style sources carry their URL into the gold file's first line
    assert all(p.url and p.url.startswith("http") for p in shipped.pages if p.source == "cleaneval-dev")


@pytest.mark.needs_shared
@pytest.mark.skipif(not (SHARED / "tools" / "compare.py").exists(), reason="needs ../shared (dev corpora)")
def test_shipped_corpus_is_a_fresh_build_from_the_validation_split(shipped, capsys):
    spec = importlib.util.spec_from_file_location("make_bench_corpus", ROOT / "benchmarks" / "make_bench_corpus.py")
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    assert maker.main(["--check"]) == 0, "fastx/data/bench.tar.xz is stale: rerun benchmarks/make_bench_corpus.py"
    compare = maker.load_compare()
    in_domain_validation = maker._validate().in_domain_validation
    for source in SOURCES:
        docs = list(compare.CORPORA[source]())
        # the validation split: wcxb-dev's one domain in five, the others' first ceil(20%)
        val = maker.validation(compare, source)
        assert val == (docs[:math.ceil(0.2 * len(docs))] if source != "wcxb-dev" else
                       [d for d in docs if in_domain_validation(d[2].get("url"))])
        validation = {oid: (html, meta) for oid, html, meta in val}
        for p in shipped.pages:
            if p.source == source:
                html, meta = validation[shipped.manifest["pages"][p.id]["original_id"]]  # KeyError: not validation
                assert html == p.html
                assert tokens(meta["text"]) == tokens(p.gold)


def write_corpus(root: Path) -> Path:
    (root / "input").mkdir(parents=True)
    (root / "GoldStandard").mkdir()
    body = "<p>The quick brown fox jumps over the lazy dog near the river bank today.</p>"
    (root / "input" / "a.html").write_bytes(
        f"<html><head><title>A</title></head><body><div>menu home about</div>{body}</body></html>".encode())
    (root / "input" / "b.htm").write_bytes(
        "<html><body><nav>Accueil</nav><p>Café crème au lait servi très chaud le matin.</p></body></html>"
        .encode("cp1252"))
    (root / "input" / "c.html").write_bytes(b"<html><body>no gold for me</body></html>")
    (root / "GoldStandard" / "a.txt").write_text(
        "URL: http://example.com/a\n<h>A\n<p>The quick brown fox jumps over the lazy dog near the river bank today.\n",
        encoding="utf-8")
    (root / "GoldStandard" / "b.txt").write_bytes("<p>Café crème au lait servi très chaud le matin.\n".encode("cp1252"))
    return root


def test_corpus_dir_pairs_by_stem_and_reads_cleaneval_gold(tmp_path):
    corpus = bench.load_corpus(write_corpus(tmp_path / "c"))
    assert [p.id for p in corpus.pages] == ["a", "b"]
    assert corpus.unpaired == 1
    a, b = corpus.pages
    assert a.url == "http://example.com/a" and b.url is None
    assert tokens(a.gold) == "A The quick brown fox jumps over the lazy dog near the river bank today".split()
    assert tokens(b.gold) == "Café crème au lait servi très chaud le matin".split()
    assert b.html.startswith(b"<html>") and "Café".encode("cp1252") in b.html  # bytes untouched


def test_corpus_dir_without_layout_is_an_error(tmp_path, capsys):
    assert bench.main(["--corpus", str(tmp_path), "--no-peers", "--no-fastx", "--no-progress"]) == 2
    assert "input/" in capsys.readouterr().err


def test_bench_run_on_two_pages_writes_table_and_json(tmp_path, capsys):
    out = tmp_path / "bench.json"
    rc = bench.main(["--corpus", str(write_corpus(tmp_path / "c")), "--no-peers", "--no-fastx",
                     "--repeat", "2", "--json", str(out), "--no-progress"])
    assert rc == 0
    table = capsys.readouterr().out
    header = next(line for line in table.splitlines() if line.startswith("extractor"))
    for column in ("F1", "P", "R", "ms p50", "ms p95", "pages/s", "MB/s", "x parse", "errors"):
        assert column in header
    assert any(line.startswith("parse-only") for line in table.splitlines())
    doc = json.loads(out.read_text())
    assert doc["corpus"]["pages"] == 2 and doc["repeat"] == 2
    assert doc["corpus"]["bytes"] == sum(len(p.html) for p in bench.load_corpus(tmp_path / "c").pages)
    fig = doc["extractors"]["parse-only"]
    assert FIGURES <= set(fig)
    assert fig["f1"] == fig["precision"] == fig["recall"] == 0.0  # it outputs nothing
    assert fig["errors"] == 0 and fig["pages"] == 2 and fig["x_parse_only"] == 1.0
    assert 0 < fig["ms_p50"] <= fig["ms_p95"]
    assert fig["mb_per_s"] == pytest.approx(fig["pages_per_s"] * doc["corpus"]["bytes"] / 2 / 1e6)


def test_shipped_corpus_bench_limit_two_pages(capsys):
    assert bench.main(["--limit", "2", "--repeat", "1", "--no-peers", "--no-fastx", "--no-progress"]) == 0
    assert "shipped corpus, 2 pages" in capsys.readouterr().out


def test_measure_scores_outputs_and_counts_errors(tmp_path):
    corpus = bench.load_corpus(write_corpus(tmp_path / "c"))
    gold = {p.html: p.gold for p in corpus.pages}

    def first_right_then_fail(html, url):
        if url is None:
            raise RuntimeError("boom")
        return gold[html]

    oracle = bench.Extractor("oracle", lambda html, url: gold[html], "returns the gold")
    half = bench.Extractor("half", first_right_then_fail, "gold on page a, error on page b")
    base = bench.Extractor(bench.PARSE_ONLY, bench._parse_only, "baseline")
    results, skipped = bench.measure(corpus, [oracle, half, base], repeat=3, progress=False)
    assert skipped == {}
    assert results["oracle"]["f1"] == 1.0 and results["oracle"]["errors"] == 0
    # precision over pages with output (a: 1.0), recall over pages with gold (a: 1.0, b: 0.0)
    assert results["half"]["precision"] == 1.0 and results["half"]["recall"] == 0.5
    assert results["half"]["errors"] == 1 and "RuntimeError: boom" in results["half"]["first_error"]
    assert bench.ranked(results) == ["oracle", "half", bench.PARSE_ONLY]
    assert results[bench.PARSE_ONLY]["x_parse_only"] == 1.0


def test_extractor_selection():
    chosen, skipped = bench.select_extractors(["trafilatura"], fastx=False)
    names = [e.name for e in chosen]
    assert names[-1] == bench.PARSE_ONLY  # the speed baseline always runs
    assert ("trafilatura" in names) != ("trafilatura" in skipped)
    with pytest.raises(ValueError, match="nonesuch"):
        bench.select_extractors(["nonesuch"], fastx=False)
    chosen, _ = bench.select_extractors(None, fastx=False, peers=False)
    assert [e.name for e in chosen] == [bench.PARSE_ONLY]


def test_every_fastx_method_is_benched_or_said_why_not():
    registry = bench.fastx_registry()
    if not registry:
        pytest.skip("fastx.methods() not available")
    from fastx.methods import requirements
    needs = requirements()
    chosen, skipped = bench.select_extractors(None, fastx=True, peers=False)
    runnable = {bench.FASTX_PREFIX + m for m in registry if m not in needs}
    assert {e.name for e in chosen} == runnable | {bench.PARSE_ONLY}
    assert {n for n in skipped if n.startswith(bench.FASTX_PREFIX)} == {bench.FASTX_PREFIX + m for m in needs}

