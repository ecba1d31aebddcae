"""fastx.evaluate and the LCS kernel fastx._core.lcs_length.

The kernel is checked against a plain O(n*m) dynamic program, the figures
against hand-computed values and the CETD paper's Eq. 6-9, and the shingle
scoring against ../shared/tools/compare.py when that file is present
(conftest's ``compare`` fixture).
"""
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fastx import evaluate
from fastx._core import lcs_length


def dp_lcs(a, b) -> int:
    """Textbook LCS dynamic program, one row of the table at a time.

    L[i][j] = L[i-1][j-1] + 1 if a[i] == b[j] else max(L[i-1][j], L[i][j-1]);
    with a match the first term is never smaller than the other two, so a row
    is the running maximum of max(L[i-1][j], L[i-1][j-1] + match)."""
    b = np.asarray(b, np.int64)
    prev = np.zeros(len(b) + 1, np.int64)
    for x in a:
        cur = np.maximum(prev[1:], prev[:-1] + (b == x))
        prev[1:] = np.maximum.accumulate(cur)
    return int(prev[-1])


def lcs(a, b) -> int:
    return lcs_length(np.asarray(a, np.int32), np.asarray(b, np.int32))


def words(rng: random.Random, n: int, vocabulary: int) -> str:
    return " ".join(f"w{rng.randrange(vocabulary)}" for _ in range(n))


# ---------------------------------------------------------------- lcs_length
@settings(max_examples=300, deadline=None)
@given(n=st.integers(0, 300), m=st.integers(0, 300), alphabet=st.sampled_from([1, 2, 4, 26, 1000]),
       sparse=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_lcs_length_equals_dynamic_program(n, m, alphabet, sparse, seed):
    """Lengths up to 300 cross the 64/128/192/256-bit word boundaries; the
    alphabets run from one symbol to sparse and negative ids."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, alphabet, n), rng.integers(0, alphabet, m)
    if sparse:
        a, b = a * 9973 - 5_000_000, b * 9973 - 5_000_000
    assert lcs(a, b) == lcs(b, a) == dp_lcs(a, b)


@pytest.mark.parametrize("n", [0, 1, 63, 64, 65, 127, 128, 129, 2047, 2048, 2049, 4097, 8193])
def test_lcs_length_at_word_and_strip_boundaries(n):
    """Long sides span several strips of the kernel; with an alphabet of n/3
    symbols some symbols are missing from some strips, so carries also cross
    strips that have no match."""
    rng = np.random.default_rng(n)
    for alphabet in (2, 50, n // 3 + 1, 10 * n + 1):
        a = rng.integers(0, alphabet, n)
        b = rng.integers(0, alphabet, 150 + n // 3)
        expected = dp_lcs(a, b)
        assert lcs(a, b) == expected
        assert lcs(b, a) == expected


def test_lcs_length_edge_cases():
    assert lcs([], []) == 0
    assert lcs([1, 2, 3], []) == 0
    assert lcs([], [1, 2, 3]) == 0
    assert lcs([7] * 200, [7] * 130) == 130
    assert lcs(range(1000), range(1000)) == 1000
    assert lcs(range(1000), range(999, -1, -1)) == 1
    assert lcs([5, 1, 2, 3, 9], [6, 1, 2, 3, 8]) == 3  # common middle, no common ends
    assert lcs([2**31 - 1, -(2**31)], [-(2**31), 2**31 - 1]) == 1


def test_lcs_length_rejects_other_dtypes():
    with pytest.raises(ValueError):
        lcs_length(np.arange(3, dtype=np.int64), np.arange(3, dtype=np.int64))


# ---------------------------------------------------------------- scores
def test_tokens_words_and_cjk():
    assert evaluate.tokens("Hello, world! it's 2024.") == ["Hello", "world", "it", "s", "2024"]
    assert evaluate.tokens("我爱北京 abc_1") == ["我", "爱", "北", "京", "abc_1"]
    assert evaluate.tokens(None) == evaluate.tokens("") == []


def test_scores_hand_made():
    s = evaluate.scores("the cat sat on the mat", "the cat sat on a mat")  # LCS 5 of 6 and 6
    assert s["tp"] == 5 and s["fp"] == 1 and s["fn"] == 1
    assert s["precision"] == pytest.approx(5 / 6)
    assert s["recall"] == pytest.approx(5 / 6)
    assert s["f1"] == pytest.approx(5 / 6)
    assert s["cleaneval"] == pytest.approx(5 / 7)

    s = evaluate.scores("menu home the cat sat", "the cat sat on the mat")  # LCS 3; |a| 5, |b| 6
    assert s["precision"] == pytest.approx(3 / 5)
    assert s["recall"] == pytest.approx(3 / 6)
    assert s["f1"] == pytest.approx(2 * 0.6 * 0.5 / 1.1)
    assert s["cleaneval"] == pytest.approx(3 / 8)

    # order matters (every word is distinct by position, not a bag of words)
    assert evaluate.scores("a b c", "c b a")["precision"] == pytest.approx(1 / 3)
    # punctuation and spacing are not tokens; case is
    assert evaluate.scores("Hello,   world!", "Hello world")["f1"] == 1.0
    assert evaluate.scores("hello world", "Hello world")["f1"] == pytest.approx(0.5)
    # CJK: one token per character
    s = evaluate.scores("我爱北京", "我爱上海")
    assert (s["precision"], s["recall"], s["cleaneval"]) == (0.5, 0.5, pytest.approx(2 / 6))


def test_scores_empty_texts():
    both = evaluate.scores("", "  ,. ")
    assert {k: both[k] for k in ("precision", "recall", "f1", "cleaneval")} == dict.fromkeys(
        ("precision", "recall", "f1", "cleaneval"), 1.0)
    for pred, gold in (("", "some gold"), ("some output", None)):
        s = evaluate.scores(pred, gold)
        assert (s["precision"], s["recall"], s["f1"], s["cleaneval"]) == (0.0, 0.0, 0.0, 0.0)
    disjoint = evaluate.scores("alpha beta", "gamma delta")
    assert (disjoint["precision"], disjoint["f1"], disjoint["cleaneval"]) == (0.0, 0.0, 0.0)


def indel_alignment(a, b):
    """CleanEval's Eq. 8 from its definition: the fewest insertions and
    removals turning a into b (no substitutions), and the number of
    operations (insert, remove or align) of that alignment."""
    d = [[i + j for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = d[i - 1][j - 1] if a[i - 1] == b[j - 1] else 1 + min(d[i - 1][j], d[i][j - 1])
    distance = d[-1][-1]
    aligned = (len(a) + len(b) - distance) // 2
    return distance, distance + aligned


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcde"), min_size=1, max_size=40),
       st.lists(st.sampled_from("abcde"), min_size=1, max_size=40))
def test_cleaneval_score_is_eq8(a, b):
    distance, alignment_length = indel_alignment(a, b)
    s = evaluate.scores(" ".join(a), " ".join(b))
    assert s["cleaneval"] == pytest.approx(1 - distance / alignment_length)  # Eq. 8 == Eq. 9


def test_scores_two_20000_word_texts():
    rng = random.Random(4)
    gold = words(rng, 20_000, 3000).split()
    # drop 10% of the gold words and insert 2,000 words the gold never uses
    kept = [w for w in gold if rng.random() >= 0.1]
    pred = list(kept)
    for _ in range(2000):
        pred.insert(rng.randrange(len(pred) + 1), f"x{rng.randrange(500)}")
    s = evaluate.scores(" ".join(pred), " ".join(gold))
    assert s["tp"] == len(kept)
    assert s["precision"] == pytest.approx(len(kept) / len(pred))
    assert s["recall"] == pytest.approx(len(kept) / 20_000)

    # two unrelated texts over one vocabulary: no shortcut applies
    a, b = words(rng, 20_000, 2000), words(rng, 20_000, 2000)
    ids = {w: i for i, w in enumerate(sorted(set(a.split()) | set(b.split())))}
    expected = dp_lcs([ids[w] for w in a.split()], [ids[w] for w in b.split()])
    assert evaluate.scores(a, b)["tp"] == expected


# ---------------------------------------------------------------- shingles and averages
def test_shingle_scores_hand_made():
    s = evaluate.shingle_scores("a b c d e", "a b c d x")  # shingles abcd,bcde vs abcd,bcdx
    assert (s["tp"], s["fp"], s["fn"]) == (1, 1, 1)
    assert s["precision"] == s["recall"] == s["f1"] == 0.5
    short = evaluate.shingle_scores("a b", "a b")  # shorter than n: one short shingle
    assert (short["tp"], short["f1"]) == (1, 1.0)
    assert evaluate.shingle_scores("", "")["f1"] == 1.0
    assert evaluate.shingle_scores("", "a b c d")["f1"] == 0.0


def test_aggregate_hand_made():
    rows = [{"tp": 1, "fp": 1, "fn": 0},   # P 0.5, R 1
            {"tp": 0, "fp": 0, "fn": 4},   # no output: R 0, no precision
            {"tp": 0, "fp": 3, "fn": 0}]   # no gold: P 0, no recall
    agg = evaluate.aggregate(rows)
    assert agg["precision"] == pytest.approx(0.25)
    assert agg["recall"] == pytest.approx(0.5)
    assert agg["f1"] == pytest.approx(2 * 0.25 * 0.5 / 0.75)
    assert agg["pages"] == 3 and "cleaneval" not in agg
    lcs_rows = [evaluate.scores("a b", "a b"), evaluate.scores("a", "b")]
    assert evaluate.aggregate(lcs_rows)["cleaneval"] == pytest.approx(0.5)
    assert evaluate.aggregate([]) == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "pages": 0}


page_texts = st.lists(st.sampled_from(["the", "cat", "sat", "on", "mat", "a", "我", "爱", ",", "!", "\n"]),
                      max_size=30).map(" ".join)


@pytest.mark.needs_shared
@settings(max_examples=300, deadline=None)
@given(pages=st.lists(st.tuples(page_texts, page_texts), min_size=1, max_size=6))
def test_shingle_scores_and_aggregate_agree_with_compare_py(compare, pages):
    rows, theirs = [], []
    for pred, gold in pages:
        mine = evaluate.shingle_scores(pred, gold)
        counts = compare.shingle_counts(gold, pred)  # (tp, fp, fn) / (tp + fp + fn)
        total = mine["tp"] + mine["fp"] + mine["fn"]
        assert counts == pytest.approx(tuple(mine[k] / total for k in ("tp", "fp", "fn")) if total else (0, 0, 0))
        rows.append(mine)
        theirs.append(counts)
    expected = compare.summarize_text(theirs)
    got = evaluate.aggregate(rows)
    assert {k: got[k] for k in expected} == pytest.approx(expected)


@pytest.mark.needs_shared
@settings(max_examples=300, deadline=None)
@given(page_texts, page_texts)
def test_lcs_agrees_with_compare_py(compare, pred, gold):
    assert evaluate.tokens(pred) == compare.TOKEN.findall(pred)
    s = evaluate.scores(pred, gold)
    assert s["tp"] == compare.lcs_len(compare.TOKEN.findall(gold), compare.TOKEN.findall(pred))
    if s["tp"]:  # compare.py's lcs_f1 is 0.0 for both-empty pages; scores() says 1.0
        assert s["f1"] == pytest.approx(compare.lcs_f1(gold, pred))


# ---------------------------------------------------------------- files
def test_evaluate_files_cleaneval_gold(tmp_path):
    pred = tmp_path / "pred.txt"
    gold = tmp_path / "gold.txt"
    pred.write_text("Title\nFirst paragraph here.\n", encoding="utf-8")
    gold.write_text("URL: http://example.com/page\n<h>Title\n<p>First paragraph here.\n<l>item",
                    encoding="cp1252")
    out = evaluate.evaluate_files(pred, gold)
    assert (out["tp"], out["fp"], out["fn"], out["precision"]) == (4, 0, 1, 1.0)
    assert (out["shingle_tp"], out["shingle_fn"]) == (1, 1)  # "Title First paragraph here" vs + "item"


def test_evaluate_files_missing_file(tmp_path):
    from fastx.errors import InputError
    with pytest.raises(InputError, match="cannot read"):
        evaluate.evaluate_files(tmp_path / "nope.txt", tmp_path / "nope.txt")


ALPHABET = st.sampled_from(list("ab_Z09 .,-\n\t") + ["é", "ß", "ǅ", "\u0301", "中", "文", "の", "한", "٣", "Ⅻ",
                                                    "\u3000", "\U0001F600", "\U00020000", "\ufb01"])


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=60).map("".join), st.lists(ALPHABET, max_size=60).map("".join))
def test_token_ids_number_the_tokens_of_tokens(a, b):
    # the compiled tokenizer must cut exactly where evaluate.TOKEN does and give
    # equal ids to equal tokens only
    from fastx import _core
    ia, ib = _core.token_ids(a, b)
    ta, tb = evaluate.tokens(a), evaluate.tokens(b)
    assert (len(ia), len(ib)) == (len(ta), len(tb))
    seen = {}
    for tok, i in zip(ta + tb, list(ia) + list(ib)):
        assert seen.setdefault(tok, int(i)) == int(i)
    assert len(set(seen.values())) == len(seen)
