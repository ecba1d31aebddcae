"""Speed of fastx.evaluate.scores on two 20,000-word texts (target: median < 20 ms).

Run: python -m pytest benchmarks/bench_evaluate.py

The texts are generated from a fixed seed: words of a 10,000-word vocabulary
drawn with Zipf frequencies (as in real prose), with punctuation and
paragraph breaks. Two pairs:

* ``edited``: the output is the gold with a tenth of its paragraphs dropped and
  boilerplate paragraphs inserted (the usual extraction result);
* ``unrelated``: two independent texts over the same vocabulary, where no
  common prefix, suffix or unshared word shortens the LCS (the worst case).
"""
import random
import string

import pytest

from fastx import evaluate

WORDS = 20_000
TARGET_SECONDS = 0.020


def paragraphs(rng: random.Random, vocabulary: list[str], weights: list[float], words: int) -> list[str]:
    """`words` words in paragraphs of 40-200 words, sentences of 5-25 words."""
    out = []
    while words > 0:
        n = min(words, rng.randint(40, 200))
        tokens = rng.choices(vocabulary, weights, k=n)
        for i in range(0, n, 15):
            tokens[i] = tokens[i].capitalize()
            tokens[min(n, i + rng.randint(5, 25)) - 1] += rng.choice(".,;!?")
        out.append(" ".join(tokens))
        words -= n
    return out


def text_pairs() -> dict[str, tuple[str, str]]:
    rng = random.Random(2013)
    vocabulary = sorted({"".join(rng.choices(string.ascii_lowercase, k=rng.randint(1, 12)))
                         for _ in range(10_000)})
    rng.shuffle(vocabulary)
    weights = [1 / rank for rank in range(1, len(vocabulary) + 1)]
    gold = paragraphs(rng, vocabulary, weights, WORDS)
    output = [p for p in gold if rng.random() >= 0.1]
    while sum(len(p.split()) for p in output) < WORDS:
        output.insert(rng.randrange(len(output) + 1), paragraphs(rng, vocabulary, weights, 30)[0])
    unrelated = paragraphs(rng, vocabulary, weights, WORDS)
    return {"edited": ("\n\n".join(output), "\n\n".join(gold)),
            "unrelated": ("\n\n".join(unrelated), "\n\n".join(gold))}


PAIRS = text_pairs()


@pytest.mark.parametrize("case", sorted(PAIRS))
def test_scores_20000_words(benchmark, case):
    predicted, gold = PAIRS[case]
    assert len(evaluate.tokens(gold)) == WORDS and len(evaluate.tokens(predicted)) >= WORDS
    result = benchmark(evaluate.scores, predicted, gold)
    assert 0 < result["f1"] < 1
    if not benchmark.disabled:
        assert benchmark.stats.stats.median < TARGET_SECONDS
