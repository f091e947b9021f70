"""Rule-based sentence segmentation for patent snippets and abstracts (``chemie_sentences``).

Rules are in ``rules/tokenizer_sentences.yaml``. Abbreviations with periods (``e.g.``,
``Fig.``, ``approx.``) are single tokens, so only a bare terminator token can end a
sentence, and only when the next token opens one (``at 100 ° C . for 1 hour`` is one
sentence). Line breaks end sentences; snippet headings (``Step 4 Synthesis of Compound 22``)
are separated from the text that follows them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from itertools import compress, count

import numpy
from spacy.attrs import SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from chemie.components.words import cached_words
from chemie.resources import load_rules

_HEADING_NUMBER = re.compile(r"^(?:[0-9]+[A-Za-z]?|[IVX]+|[A-Z]|\(?[0-9a-z]{1,3}\))[.:]?$")
_HEADING_SPAN = 60  # tokens after a heading keyword in which its body text may start
_NOT_START = numpy.uint64(-1 % 2**64)  # SENT_START -1 (not a sentence start) as uint64


@functools.cache
def _rules() -> dict[str, frozenset[str]]:
    r = load_rules("tokenizer_sentences.yaml")
    return {
        "terminators": frozenset(r["terminators"]),
        "keywords": frozenset(r["heading_keywords"]),
        "blockers": frozenset(r["heading_blockers"]),
        "openers": frozenset(r["openers"]),
        "keywords_openers": frozenset(r["heading_keywords"]) | frozenset(r["openers"]),
    }


def _opens_sentence(text: str) -> bool:
    first = text[0]
    return first.isupper() or first.isdigit() or first in "([\"'“‘"


def sentence_rules(words: list[str], line_breaks: Iterable[int] = ()) -> list[str | None]:
    """For each token, the name of the rule that starts a sentence there (else None).

    The first token starts one (rule ``first``); ``line_breaks`` are the indices of tokens
    that are (or are followed by) a line break. Only tokens after a terminator or a line
    break, heading keywords and openers are looked at, so long texts are cheap.
    """
    r = _rules()
    terminators, keywords = r["terminators"], r["keywords"]
    blockers, openers = r["blockers"], r["openers"]
    n = len(words)
    why: list[str | None] = [None] * n
    if not n:
        return why
    why[0] = "first"
    after_break = {i + 1 for i in line_breaks}
    # positions after a terminator, of heading keywords and of openers (C-level scans)
    marks = set(compress(count(1), map(terminators.__contains__, words)))
    marks.update(compress(count(), map(r["keywords_openers"].__contains__, words)))
    marks |= after_break
    heading_until = _HEADING_SPAN if words[0] in keywords else -1
    for i in sorted(marks):
        if not 0 < i < n:
            continue
        w = words[i]
        prev = words[i - 1]
        if prev in terminators and _opens_sentence(w):
            why[i] = "terminator_then_capital"
        elif i in after_break and not w.isspace():
            why[i] = "line_break"
        elif (
            w in keywords
            and i + 1 < n
            and _HEADING_NUMBER.match(words[i + 1])
            and prev.lower() not in blockers
            and prev not in keywords
        ):
            why[i] = "heading_keyword"
        elif i <= heading_until and w in openers and prev.lower() not in blockers:
            if prev not in keywords:
                why[i] = "heading_then_opener"
        if why[i] is not None:
            heading_until = i + _HEADING_SPAN if w in keywords else -1
    return why


@Language.factory("chemie_sentences")
def make_sentences(nlp: Language, name: str) -> SentenceSegmenter:
    """spaCy factory for :class:`SentenceSegmenter`."""
    return SentenceSegmenter()


class SentenceSegmenter:
    """Sets ``token.is_sent_start`` on every token from the rules."""

    def __init__(self) -> None:
        self._vocab: object = None  # the vocabulary the cache below belongs to
        self._texts: dict[int, str] = {}  # orth id -> token text

    def __call__(self, doc: Doc) -> Doc:
        n = len(doc)
        if not n:
            return doc
        words = self._words(doc)
        breaks = []
        if "\n" in "".join(words):
            breaks = [i for i in compress(count(), map(str.isspace, words)) if "\n" in words[i]]
        why = sentence_rules(words, breaks)
        arr = numpy.full((n, 1), _NOT_START, dtype="uint64")
        column = arr[:, 0]
        for i in compress(count(), why):  # a few sentence starts per snippet
            column[i] = 1
        doc.from_array([SENT_START], arr)
        return doc

    def _words(self, doc: Doc) -> list[str]:
        """The token texts, through a per-vocabulary cache of orth id -> text."""
        if self._vocab is not doc.vocab:
            self._vocab, self._texts = doc.vocab, {}
        return cached_words(doc, self._texts)
