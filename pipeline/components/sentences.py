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


def sentence_starts(words: list[str], newline_after: list[bool] | None = None) -> list[bool]:
    """For each token, whether it starts a sentence (the first token always does).

    ``newline_after[i]`` says token i is followed by (or is) a line break.
    """
    r = _rules()
    terminators, keywords = r["terminators"], r["keywords"]
    blockers, openers = r["blockers"], r["openers"]
    n = len(words)
    starts = [False] * n
    if not n:
        return starts
    starts[0] = True
    heading_until = -1
    for i in range(n):
        w = words[i]
        if i and not starts[i]:
            prev = words[i - 1]
            if prev in terminators and _opens_sentence(w):
                starts[i] = True
            elif newline_after is not None and newline_after[i - 1] and not w.isspace():
                starts[i] = True
            elif (
                w in keywords
                and i + 1 < n
                and _HEADING_NUMBER.match(words[i + 1])
                and prev.lower() not in blockers
                and prev not in keywords
            ):
                starts[i] = True
            elif (
                i <= heading_until
                and w in openers
                and prev.lower() not in blockers
                and prev not in keywords
            ):
                starts[i] = True
                heading_until = -1
        if starts[i]:
            heading_until = i + _HEADING_SPAN if w in keywords else -1
    return starts


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
