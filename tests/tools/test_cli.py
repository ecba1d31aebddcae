"""The command line's top level (--version), `extract -o DIR` (one file per input), and `fastx show`
defaulting to `default` with its per-block explanation (Saabas attribution over the tree ensemble)."""
import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest
from selectolax.lexbor import LexborHTMLParser

import fastx
from fastx import _core, cli, show
from fastx.batch import _DirSink
from fastx.methods.default import DefaultModel, features, shipped

ARTICLE = ("<html><head><title>Hooded crows</title></head><body><nav><ul>"
           + "".join(f"<li><a href='/{i}'>Section {i}</a></li>" for i in range(12))
           + "</ul></nav><main><h1>Hooded crows</h1>"
           + "".join(f"<p>Paragraph {i}: hooded crows are clever birds; they use tools, remember faces, "
                     f"and live for many years in the same territory.</p>" for i in range(14))
           + "</main><footer>(c) 2024 <a href='/about'>About</a> <a href='/legal'>Legal</a></footer></body></html>"
           ).encode()


# ---------------------------------------------------------------- --version
def test_version_flag(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--version"])
    assert exc.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out == f"fastx {cli.version()}"
    try:
        assert cli.version() == metadata.version("fastx-extract")      # installed under its distribution name
    except metadata.PackageNotFoundError:
        assert cli.version() == fastx.__version__                     # a source tree never installed


def test_version_from_python_m_fastx():
    r = subprocess.run([sys.executable, "-m", "fastx", "--version"], capture_output=True, text=True, timeout=60,
                       cwd=Path(fastx.__file__).resolve().parents[1])      # the fastx under test
    assert r.returncode == 0 and r.stdout.startswith("fastx ") and r.stdout.split()[1][0].isdigit()


# ---------------------------------------------------------------- -o DIR
@pytest.mark.parametrize("name, stem", [
    ("pages/a/index.html", "index"), ("../../etc/passwd", "passwd"), ("CON.html", "_CON"),
    ("nul", "_nul"), (".hidden.htm", "hidden"), ("", "page"), (None, "page"), ("a b?c*d.html", "a_b_c_d"),
    ("https://example.com/news/2024/story.html?id=1", "example.com_news_2024_story.html"),
    ("https://example.com/", "example.com"), ("C:\\pages\\x.html", "x"), ("\u00e9t\u00e9.html", "t")])
def test_safe_names(name, stem):
    got = _DirSink.safe_name(name)
    assert got == stem
    assert "/" not in got and "\\" not in got and not got.startswith(".") and len(got) <= 100


def test_output_dir_one_file_per_input(tmp_path, capsys):
    src = tmp_path / "pages"
    (src / "a").mkdir(parents=True)
    (src / "b").mkdir()
    (src / "a" / "index.html").write_bytes(ARTICLE)
    (src / "b" / "index.html").write_bytes(ARTICLE.replace(b"Hooded", b"Carrion"))
    missing = str(tmp_path / "c.html")                             # unreadable: an error record, no text file
    out = tmp_path / "out"
    out.mkdir()
    rc = cli.main(["extract", str(src), missing, "-o", str(out), "-q", "--method", "cetd"])
    assert rc == 1                                                 # c.html failed
    assert sorted(p.name for p in out.iterdir()) == ["index-2.txt", "index.txt"]
    texts = {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
    assert "hooded crows are clever birds" in texts["index.txt"]
    assert texts["index-2.txt"].startswith("Carrion crows") and texts["index.txt"].startswith("Hooded crows")
    # json: every input gets its record, failures included, in a path ending with '/' (created)
    out2 = tmp_path / "new" / "dir"
    rc = cli.main(["extract", str(src), missing, "-o", str(out2) + "/", "--format", "json", "-q", "--method", "cetd"])
    assert rc == 1 and sorted(p.name for p in out2.iterdir()) == ["c.json", "index-2.json", "index.json"]
    rec = json.loads((out2 / "c.json").read_text())
    assert rec["input"].endswith("c.html") and rec["error"].startswith("InputError")
    rec = json.loads((out2 / "index.json").read_text())
    assert rec["error"] is None and rec["input"].endswith("index.html")
    # html: the format's extension
    out3 = tmp_path / "html"
    out3.mkdir()
    assert cli.main(["extract", str(src / "a" / "index.html"), "-o", str(out3), "--format", "html",
                     "--method", "cetd"]) == 0
    assert [p.name for p in out3.iterdir()] == ["index.html"]
    assert "<p>" in (out3 / "index.html").read_text()


def test_output_file_still_a_file(tmp_path):
    page = tmp_path / "p.html"
    page.write_bytes(ARTICLE)
    out = tmp_path / "result.txt"
    assert cli.main(["extract", str(page), "-o", str(out), "--method", "cetd"]) == 0
    assert out.is_file() and "clever birds" in out.read_text()
    with pytest.raises(fastx.InputError):
        from fastx.batch import run_extract
        args = cli.build_parser().parse_args(["extract", str(page), "-o", str(tmp_path) + "/", "--format", "parquet"])
        run_extract(args, {"method": "cetd"})


def test_threshold_option_is_the_methods_parameter(tmp_path, capsys):
    page = tmp_path / "p.html"
    page.write_bytes(ARTICLE)
    for t in ("0.05", "0.95"):
        assert cli.main(["extract", str(page), "--threshold", t]) == 0
        assert capsys.readouterr().out == fastx.extract(ARTICLE, threshold=float(t)).text + "\n"
    with pytest.raises(SystemExit) as exc:                                    # not a probability
        cli.main(["extract", str(page), "--threshold", "1.5"])
    assert exc.value.code == 2 and "probability" in capsys.readouterr().err
    assert cli.main(["extract", str(page), "--threshold", "0.5", "--method", "cetd"]) == 2   # cetd has none
    assert "no parameter 'threshold'" in capsys.readouterr().err


# ---------------------------------------------------------------- show: default, explained
def random_model(X, trees=40, depth=4, seed=3):
    """A tree ensemble over the real feature space, thresholds at quantiles of X (so that paths
    branch), with padded nodes (+inf) as the trainer writes them."""
    rng = np.random.default_rng(seed)
    inner = (1 << depth) - 1
    feat = rng.integers(0, len(_core.FEATURE_NAMES), (trees, inner)).astype(np.int32)
    thr = np.empty((trees, inner), np.float32)
    for t in range(trees):
        for k in range(inner):
            thr[t, k] = np.quantile(X[:, feat[t, k]], rng.random())
    thr[::3, 2] = np.inf                                 # a padded node: always the first child
    leaf = rng.normal(0.0, 0.4, (trees, inner + 1)).astype(np.float32)
    leaf[::3, 8:12] = leaf[::3, 8:9]                     # ... and its subtree: one leaf copied
    return DefaultModel(depth, feat, thr, leaf, 0.5, page_threshold=0.1)


def test_tree_contributions_sum_to_the_kernels_log_odds():
    doc = fastx.parse(ARTICLE)
    _, units, X = features(doc)
    assert len(units) > 5
    m = random_model(X)
    bias, C = show.tree_contributions(m, X)
    assert C.shape == X.shape
    np.testing.assert_allclose(bias + C.sum(axis=1), m.log_odds(X), rtol=0, atol=1e-9)
    # the compiled walk gives what a walk written out here gives, row by row
    E = np.empty((m.feat.shape[0], 2 * m.feat.shape[1] + 1))
    inner = m.feat.shape[1]
    E[:, inner:] = m.leaf
    for k in range(inner - 1, -1, -1):
        E[:, k] = 0.5 * (E[:, 2 * k + 1] + E[:, 2 * k + 2])
    ref = np.zeros(C.shape)
    for u in range(X.shape[0]):
        for t in range(m.feat.shape[0]):
            k = 0
            while k < inner:
                c = 2 * k + 1 + int(X[u, m.feat[t, k]] > m.thr[t, k])
                ref[u, m.feat[t, k]] += E[t, c] - E[t, k]
                k = c
    np.testing.assert_allclose(C, ref, rtol=0, atol=1e-9)
    assert abs(bias - E[:, 0].sum()) < 1e-9
    # a feature no tree tests gets nothing
    unused = sorted(set(range(X.shape[1])) - set(np.unique(m.feat)))
    if unused:
        assert not C[:, unused].any()


def test_tree_contributions_by_hand():
    """One depth-1 tree: x <= 0.5 -> -1, else +3; E(root) = 1; the path credits feature 2 with
    -2 or +2."""
    F = len(_core.FEATURE_NAMES)
    m = DefaultModel(1, np.array([[2]], np.int32), np.array([[0.5]], np.float32), np.array([[-1.0, 3.0]], np.float32),
                     0.5)
    X = np.zeros((3, F), np.float32)
    X[:, 2] = [0.0, 0.5, 0.9]
    bias, C = show.tree_contributions(m, X)
    assert bias == 1.0
    assert C[:, 2].tolist() == [-2.0, -2.0, 2.0] and not np.delete(C, 2, axis=1).any()


def test_explain_default_reasons_agree_with_the_keep_mask():
    doc = fastx.parse(ARTICLE)
    _, _, X = features(doc)
    m = random_model(X)
    e = show.explain_default(doc, model=m, headline=False)
    keep = fastx.extract(doc, method="default", model=m, headline=False).keep.astype(bool)
    p = e["P(keep)"]
    scored = ~np.isnan(p)
    assert scored.any()
    assert (keep[scored] >= (p[scored] >= e["threshold"])).all()     # every unit at the threshold is kept
    assert not keep[~scored].any()
    # a unit kept below the threshold (a page rule) says why
    for i in np.flatnonzero(scored & keep & (p < e["threshold"]))[:20]:
        assert "kept all the same" in e["reasons"][e["reason"][i]]
    # every scored node's reason names its probability and the features that moved it
    for i in np.flatnonzero(scored)[:20]:
        text = e["reasons"][e["reason"][i]]
        assert f"P {p[i]:.3f}" in text and "moved most by" in text
        assert any(name in text for name in _core.FEATURE_NAMES)
    assert e["reasons"][0].startswith("not part of any text unit")


def test_show_defaults_to_default_and_explains_it(tmp_path, capsys):
    page = tmp_path / "crows.html"
    page.write_bytes(ARTICLE)
    out = tmp_path / "r.html"
    assert cli.main(["show", str(page), "-o", str(out)]) == 0
    capsys.readouterr()
    html = out.read_text(encoding="utf-8")
    tree = LexborHTMLParser(html)
    assert tree.css_first("section.fx-view h2").text().split()[0] == "default"
    data = json.loads(tree.css_first("#fx-data").text())
    view = data["views"][0]
    assert view["method"] == "default" and view["explained"]
    assert [s[0] for s in view["scores"]] == ["P(keep)", "log-odds"]
    model = shipped()
    if getattr(model, "type_thresholds", None) is None:
        assert view["threshold"] == pytest.approx(model.threshold)
    else:                                   # thresholds per page type: the one of this page's type
        k = list(_core.PAGE_TYPES).index(fastx.extract(ARTICLE).page_type)
        assert view["threshold"] == pytest.approx(model.type_thresholds[k][0])
    keep = fastx.extract(ARTICLE).keep
    assert view["keep"] == keep.tolist()
    blocks = [i for i, k in enumerate(view["keep"]) if k and view["reason"][i] > 0]
    assert blocks and "moved most by" in view["reasons"][view["reason"][blocks[0]]]
