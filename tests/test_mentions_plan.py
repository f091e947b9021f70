"""chemie_mentions: the bare noun phrase plan cached per class shape decides exactly what the
word-by-word path decides (a speed path must not change any mention)."""

from __future__ import annotations

import itertools

import pytest

from chemie.mentions import detector as M
from chemie.mentions.candidate import DocContext
from chemie.mentions.docdata import SentenceIndex
from chemie.mentions.table import MentionTables

# class letters a bare core is made of, and the letters that may follow it
CORE_LETTERS = "DWCGKEXZNUAbnk#O-/"
# words that the word-dependent rules look at (state heads, kept trailing words, generic ids,
# partitives, adjectives, words after which a trimmed phrase is no compound)
WORDS = ["solid", "ppts", "1", "A", "portion", "the", "chromatographic", "bath", "acid", "of"]


def _full_path(det: M.MentionDetector, x: DocContext, c0: int, c1: int) -> list:
    """``_bare_np`` with the shape plan switched off."""
    det._plans.clear()
    det._bare_plan = lambda shape: None
    try:
        return det._bare_np(x, c0, c1)
    finally:
        del det._bare_plan
        det._plans.clear()


@pytest.mark.parametrize("length", [1, 2, 3])
def test_bare_plan_matches_the_word_path(length):
    det = M.MentionDetector(MentionTables.load())
    sent_of = SentenceIndex([0])
    planned = 0
    for shape in map("".join, itertools.product(CORE_LETTERS, repeat=length)):
        for before, after in ("S.", "GP", "K)"):
            cs = before + shape + after
            for k in range(len(WORDS)):
                words = [WORDS[(k + i) % len(WORDS)] for i in range(len(cs))]
                x = DocContext(None, words, [w.lower() for w in words], cs, sent_of,
                               det.tables, det.grammar)
                got = det._bare_np(x, 1, 1 + length)
                assert got == _full_path(det, x, 1, 1 + length), (cs, words)
        planned += det._bare_plan(shape) is not None
    assert planned  # the plan covers some shapes of every length
