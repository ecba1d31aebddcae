"""Naive Bayes block classification (seeds/003): blocking, features, bins, training, files."""
import json

import numpy as np
import pytest

import fastx
from fastx import _core
from fastx.bayes import FEATURES, PAPER_BLOCK_TAGS, PAPER_EDGES, TABLE_BLOCK_TAGS, BayesModel, block_tag_mask
from fastx.errors import InputError, ModelError

T = _core.KIND_TEXT


def text_index(doc, s):
    return next(i for i in range(doc.n) if doc.kind[i] == T and doc.text(i) == s)


def test_blocks_bottom_up_with_sibling_merge():
    doc = fastx.parse("<body><div><div>aa</div><div>bb</div></div>"
                      "<table><tr><td>cc <a href=x>link text</a>, yes.</td></tr></table>"
                      "<div><p>dd</p><p>ee</p><span>ff</span></div></body>")
    block_of, feats = _core.bayes_blocks(doc, block_tag_mask(PAPER_BLOCK_TAGS))
    b = {s: block_of[text_index(doc, s)] for s in ("aa", "bb", "cc", "link text", ", yes.", "dd", "ff")}
    assert b["aa"] == b["bb"]                      # rule (3): sibling block nodes merge
    assert b["cc"] == b["link text"] == b[", yes."] != b["aa"]
    assert b["dd"] == b["ff"] != b["cc"]           # <p> is no block tag: the enclosing div is
    assert len(feats) == 3
    cc = feats[b["cc"]]
    assert cc.tolist() == [len("cc") + len(", yes."), len("link text"), 2, 0]
    assert feats[b["dd"]].tolist() == [6, 0, 0, 2]


def test_table_only_blocking():
    doc = fastx.parse("<body><div>aa</div><div>bb</div><table><tr><td>cc</td></tr></table></body>")
    block_of, feats = _core.bayes_blocks(doc, block_tag_mask(TABLE_BLOCK_TAGS))
    assert block_of[text_index(doc, "aa")] == block_of[text_index(doc, "bb")]   # no block node: the page
    assert block_of[text_index(doc, "cc")] != block_of[text_index(doc, "aa")]
    assert len(feats) == 2


def test_paper_bins():
    e = np.zeros((4, 16))
    ne = np.zeros(4, dtype=np.int32)
    for j, f in enumerate(FEATURES):
        e[j, :len(PAPER_EDGES[f])] = PAPER_EDGES[f]
        ne[j] = len(PAPER_EDGES[f])
    # unlink, link, punct, p
    feats = np.array([[19, 0, 0, 0], [20, 0, 0, 1], [99, 0, 0, 3], [101, 0, 0, 4],
                      [50, 50, 1, 0], [10, 90, 10, 0], [90, 10, 0, 0]], dtype=np.int64)
    bins = _core.bayes_bins(feats, e, ne)
    assert bins[:, 0].tolist() == [0, 1, 4, 5, 2, 0, 4]
    assert bins[:, 1].tolist() == [0, 0, 0, 0, 2, 3, 1]     # link share <10%, 10-50, 50-80, >=80
    # punc = punct / link chars: no links divides by 1; 1/50 = 2%; 10/90 > 10%
    assert bins[:, 2].tolist() == [0, 0, 0, 0, 1, 2, 0]
    assert bins[:, 3].tolist() == [0, 1, 1, 2, 0, 0, 0]     # 0, 1-3, >3


CONTENT = ("<p>The council met on Tuesday, and it voted to repair the bridge. The work will take "
           "three months, officials said, and traffic will use the north road meanwhile.</p>")
NAV = "".join(f"<a href=/s{k}>Section {k}</a> " for k in range(8))


def page(k):
    # each region inside its own wrapper: sibling block nodes would merge into one block (rule 3)
    return (f"<html><body><div id=top><div class=nav>{NAV}</div></div>"
            f"<div id=main><div class=story>{CONTENT * (1 + k % 3)}</div></div>"
            f"<div id=bottom><div class=foot><a href=/a>About</a> <a href=/c>Contact us</a></div></div>"
            f"</body></html>")


def gold(k):
    doc = fastx.parse(page(k))
    story = next(i for i in range(doc.n) if doc.attr(i, "class") == "story")
    return doc.subtree_text(story)


@pytest.fixture(scope="module")
def model():
    return BayesModel.fit([page(k) for k in range(6)], [gold(k) for k in range(6)])


def test_fit_and_classify(model):
    doc = fastx.parse(page(7))
    keep, block_of, odds = model.classify(doc)
    out = fastx.extract(doc, method="bayes", model=model).text
    assert "The council met on Tuesday" in out
    assert "Section 3" not in out and "Contact us" not in out
    assert len(odds) == block_of.max() + 1


def test_log_space_score_is_the_sum_of_log_likelihoods(model):
    doc = fastx.parse(page(1))
    keep, block_of, odds = model.classify(doc)
    _, feats = _core.bayes_blocks(doc, block_tag_mask(PAPER_BLOCK_TAGS))
    bins = _core.bayes_bins(feats, model._e, model._ne)
    pr = model.probabilities()
    for b in range(len(feats)):
        manual = sum(np.log(pr["theme"][f][bins[b, j]]) - np.log(pr["noise"][f][bins[b, j]])
                     for j, f in enumerate(FEATURES))
        assert odds[b] == pytest.approx(manual)
        assert bool(keep[block_of == b].all()) == (manual >= 0)


def test_laplace_smoothing(model):
    pr = model.probabilities()
    for c in ("theme", "noise"):
        for f in FEATURES:
            p = np.array(pr[c][f])
            assert len(p) == len(PAPER_EDGES[f]) + 1
            assert (p > 0).all() and p.sum() == pytest.approx(1.0)
    # an unseen bin gets alpha / (N + alpha * bins)
    n_theme = model.counts[0, 0].sum()
    unseen = [k for k in range(6) if model.counts[0, 0, k] == 0]
    assert unseen
    assert pr["theme"]["unlinksum"][unseen[0]] == pytest.approx(1 / (n_theme + 6))


def test_prior_option():
    counts = np.zeros((2, 4, 16))
    counts[0, :, 0] = 10
    counts[1, :, 0] = 30
    m = BayesModel(counts, use_prior=True)
    assert m._logprior[0] - m._logprior[1] == pytest.approx(np.log(11 / 31))
    assert not BayesModel(counts)._logprior.any()           # the paper drops the priors (Eq. 14-15)


def test_save_load_round_trip(model, tmp_path):
    p = tmp_path / "m.json"
    model.save(p)
    again = BayesModel.load(p)
    assert np.array_equal(again._loglik, model._loglik) and again.block_tags == model.block_tags
    doc = fastx.parse(page(4))
    assert np.array_equal(again.classify(doc)[0], model.classify(doc)[0])
    assert json.loads(p.read_text())["format"] == "fastx-bayes/1"


def test_bad_model_files(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    with pytest.raises(ModelError):
        BayesModel.load(p)
    p.write_text(json.dumps({"format": "other"}))
    with pytest.raises(ModelError):
        BayesModel.load(p)
    d = BayesModel(np.ones((2, 4, 16))).to_dict()
    d["counts"]["theme"]["link"] = [1, 2]
    p.write_text(json.dumps(d))
    with pytest.raises(ModelError):
        BayesModel.load(p)
    with pytest.raises(ModelError):
        BayesModel.load(tmp_path / "missing.json")


def test_fit_input_errors():
    with pytest.raises(InputError):
        BayesModel.fit(["<p>a</p>"], [])
    with pytest.raises(InputError):
        BayesModel.fit([], [])
    with pytest.raises(InputError):
        BayesModel(np.ones((2, 4, 16)), block_tags=("nosuchtag",))


@pytest.mark.parametrize("method", ["bayes", "bayes-table"])
def test_shipped_models(method):
    r = fastx.extract(page(2), method=method)
    assert isinstance(r.text, str)
    assert method in fastx.methods()
    assert fastx.extract("", method=method).text == ""
