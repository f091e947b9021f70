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

import numpy
from spacy.attrs import ORTH, SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from chemie.resources import load_rules

_HEADING_NUMBER = re.compile(r"^(?:[0-9]+[A-Za-z]?|[IVX]+|[A-Z]|\(?[0-9a-z]{1,3}\))[.:]?$")
_HEADING_SPAN = 60  # tokens after a heading keyword in which its body text may start


@functools.cache
def _rules() -> dict[str, frozenset[str]]:
    r = load_rules("tokenizer_sentences.yaml")
    return {
        "terminators": frozenset(r["terminators"]),
        "keywords": frozenset(r["heading_keywords"]),
        "blockers": frozenset(r["heading_blockers"]),
        "openers": frozenset(r["openers"]),
    }


def _opens_sentence(text: str) -> bool:
    first = text[0]
    return first.isupper() or first.isdigit() or first in "([\"'“‘"


def sentence_rules(words: list[str], newline_after: list[bool] | None = None) -> list[str | None]:
    """For each token, the name of the rule that starts a sentence there (else None).

    The first token starts one (rule ``first``). ``newline_after[i]`` says token i is (or is
    followed by) a line break.
    """
    r = _rules()
    terminators, keywords = r["terminators"], r["keywords"]
    blockers, openers = r["blockers"], r["openers"]
    n = len(words)
    why: list[str | None] = [None] * n
    if not n:
        return why
    why[0] = "first"
    heading_until = _HEADING_SPAN if words[0] in keywords else -1
    for i in range(1, n):
        w = words[i]
        prev = words[i - 1]
        if prev in terminators and _opens_sentence(w):
            why[i] = "terminator_then_capital"
        elif newline_after is not None and newline_after[i - 1] and not w.isspace():
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
    why[0] = "first"
    heading_until = _HEADING_SPAN if words[0] in keywords else -1
    for i in range(1, n):
        w = words[i]
        prev = words[i - 1]
        if prev in terminators and _opens_sentence(w):
            why[i] = "terminator_then_capital"
        elif newline_after is not None and newline_after[i - 1] and not w.isspace():
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
    if words[0] in keywords:
        heading_until = _HEADING_SPAN
        for i in range(1, min(n, _HEADING_SPAN)):
            if why[i] is not None:
                break
            if words[i] in openers and words[i - 1].lower() not in blockers:
                if words[i - 1] not in keywords:
                    why[i] = "heading_then_opener"
                    break
    return why


def sentence_starts(words: list[str], newline_after: list[bool] | None = None) -> list[bool]:
    """For each token, whether it starts a sentence (the first token always does)."""
    return [w is not None for w in sentence_rules(words, newline_after)]


@Language.factory("chemie_sentences")
def make_sentences(nlp: Language, name: str) -> SentenceSegmenter:
    """spaCy factory for :class:`SentenceSegmenter`."""
    return SentenceSegmenter()


class SentenceSegmenter:
    """Sets ``token.is_sent_start`` on every token from the rules."""

    def __call__(self, doc: Doc) -> Doc:
        if not len(doc):
            return doc
        strings = doc.vocab.strings
        words = [strings[h] for h in doc.to_array(ORTH).tolist()]
        newline = ["\n" in w and w.isspace() for w in words]
        starts = sentence_starts(words, newline)
        arr = numpy.where(numpy.array(starts, dtype=bool), 1, -1).astype("uint64")
        doc.from_array([SENT_START], arr.reshape(-1, 1))
        return doc
