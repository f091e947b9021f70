"""chemie_mentions on hostile input: time grows linearly with a token's length and with a line of
punctuation (issue 13), and the linear-time rewrites decide exactly what the originals decided.

The docs are built from word lists, not through the tokenizer, so that the mention component
alone is measured. Time is CPU time of this process, compared as a ratio between a 10 kB and a
1 MB input of the same shape: linear work gives about 100x (a few hundred with cache effects),
quadratic work 10,000x. A CPU-time alarm stops a run as soon as it exceeds its budget.
"""

from __future__ import annotations

import random
import re
import signal
import string
import time
from collections.abc import Callable

import pytest
from spacy.tokens import Doc
from spacy.vocab import Vocab

from chemie.extensions import mentions_of
from chemie.mentions import detector, tagger
from chemie.mentions.table import MentionTables
from chemie.model import mention_attrs
from chemie.nlp import load

SMALL, LARGE = 10_000, 1_000_000
MULTIPLE = 2_000  # allowed time(LARGE) / time(SMALL); linear ~100x, quadratic ~10,000x
PUNCT = string.punctuation
VOCAB = Vocab()


@pytest.fixture(scope="module")
def component():
    return load(ner=False).get_pipe("chemie_mentions")


class _OverBudget(Exception):
    pass


def _alarm(signum, frame):
    raise _OverBudget


def _cpu_time(component, words: list[str], budget: float | None = None) -> float:
    """CPU seconds the component takes on a doc of ``words`` (its word cache emptied first);
    raises _OverBudget after ``budget`` CPU seconds."""
    doc = Doc(VOCAB, words=words, spaces=[False] * len(words))
    component.classify.cache.clear()
    component.classify.by_orth.clear()
    old = signal.signal(signal.SIGPROF, _alarm)
    if budget is not None:
        signal.setitimer(signal.ITIMER_PROF, budget)
    try:
        start = time.process_time()
        component(doc)
        return time.process_time() - start
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


def _cycle(pieces: list[str]) -> Callable[[int], list[str]]:
    """``size`` characters of ``pieces`` repeated, one token per piece."""
    def make(size: int) -> list[str]:
        words, total, k = [], 0, 0
        while total < size:
            words.append(pieces[k % len(pieces)])
            total += len(words[-1])
            k += 1
        return words
    return make


def _token(unit: str, end: str = "") -> Callable[[int], list[str]]:
    """One token of ``size`` characters: ``unit`` repeated, then ``end``."""
    return lambda size: [(unit * size)[: size - len(end)] + end]


SHAPES = {
    # one long token
    "letters": _token("z"),  # nlp("z" * 40000) took ~6 s before the fix
    "letters_digits_brackets": _token("Ab1("),
    "name_fused_with_a_bracket": _token("a", "(150"),  # DCM(15 with a very long name
    "systematic_name": _token("2-methyl-", "ol"),
    "punctuation_token": _token(PUNCT),
    # a line of punctuation, one token per character
    "punctuation_line": _cycle(list(PUNCT)),
    "exclamation_line": _cycle(["!"]),
    "percent_line": _cycle(["%"]),
    "comma_line": _cycle([","]),
    # a determiner before each symbol: a core after every determiner
    "determiner_symbol_line": _cycle(["the", "!"]),
}


@pytest.mark.slow
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_time_is_linear_in_the_input(component, shape):
    make = SHAPES[shape]
    small = min(_cpu_time(component, make(SMALL)) for _ in range(3))
    budget = MULTIPLE * small + 0.5  # (+0.5 s: a 10 kB input can take well under a millisecond)
    try:
        large = _cpu_time(component, make(LARGE), budget)
    except _OverBudget:
        pytest.fail(f"{shape}: 1 MB took over {budget:.1f} CPU s ({small * 1000:.2f} ms for 10 kB)")
    assert large <= budget, (shape, small, large)


# The original FUSED_BRACKET regex (quadratic in the token's length) with its bracket count:
# the specification of tagger.fused_bracket.
ORIGINAL_FUSED_BRACKET = re.compile(
    r"^[^\s]*[A-Za-z]{2}[^\s]*\(\d+(?:[.,]\d+)?(?:mg|g|ml|mL|L|mmol|%)?$"
)


def test_fused_bracket_check_decides_as_the_original_regex():
    rng = random.Random(13)
    alphabet = "aZb(()1 2.,5mgLl%\n\t-"
    texts = ["DCM(15", "acid(250mg", "a(b)(15", "ab (15", "ab(15\n", "(15", "ab(1.5ml", "ab(15x"]
    texts += ["".join(rng.choices(alphabet, k=rng.randint(1, 12))) for _ in range(50_000)]
    tables = MentionTables.load()
    tail, letters = tables.shapes["FUSED_TAIL"], tables.shapes["NAME_LETTERS"]
    for text in texts:
        expected = (
            ORIGINAL_FUSED_BRACKET.match(text) is not None
            and text.count("(") == text.count(")") + 1
        )
        assert tagger.fused_bracket(tail, letters, text) == expected, repr(text)


# words of every class and of the context rules, for random documents
WORDS = [
    "!", "?", "+", "%", "1", "5%", "12", "mg", "mL", "zz", "bed", "red", "water", "DCM", "the",
    "a", "of", "in", "and", "(", ")", ",", ".", ":", "/", "-", "=", "x", "Compound", "solution",
    "flask", "was", "to", "from", "yield", "1b", "DCM(15", "1:1", "n", "N", "A", "Z", "S",
    "2-chloropyridine", "as", "containing", "dissolved", "equipped", "No", "#", "each", "1.5",
    "×", "mmol", "it", "stirred", "column", "silica", "gel", "HCl", "solid", "white", "EtOAc",
]


def _mentions(component, words: list[str]) -> list[tuple]:
    doc = Doc(VOCAB, words=words, spaces=[True] * len(words))
    component(doc)
    return [(m.spans, m.rule, m.confidence, mention_attrs(m)) for m in mentions_of(doc)]


def test_skipping_a_rejected_plain_run_changes_no_mention(component, monkeypatch):
    rng = random.Random(12)
    docs = []
    for _ in range(1_500):
        words = [w for w in WORDS if rng.random() < 0.3] or WORDS
        docs.append(rng.choices(words, k=rng.randint(1, 60)))
    with_skip = [_mentions(component, words) for words in docs]
    monkeypatch.setattr(detector, "_plain_run", lambda cs, start, stop: False)
    assert [_mentions(component, words) for words in docs] == with_skip
