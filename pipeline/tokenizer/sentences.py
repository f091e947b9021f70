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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress, count
from pathlib import Path

import numpy
from spacy.attrs import ORTH, SENT_START
from spacy.language import Language
from spacy.tokens import Doc
from spacy.vocab import Vocab

from chemie.components.words import WordTables
from chemie.extensions import ORTH_IDS, TEXT
from chemie.saving import SavesTables, table_sources
from chemie.tables import load_table

_HEADING_NUMBER = re.compile(r"^(?:[0-9]+[A-Za-z]?|[IVX]+|[A-Z]|\(?[0-9a-z]{1,3}\))[.:]?$")
_HEADING_SPAN = 60  # tokens after a heading keyword in which its body text may start
_NOT_START = numpy.uint64(-1 % 2**64)  # SENT_START -1 (not a sentence start) as uint64


TABLE = "tokenizer_sentences.yaml"
Rules = dict[str, frozenset[str]]


@dataclass(frozen=True)
class SentenceRule:
    """A named sentence-start rule with the example its test fires on."""

    name: str
    comment: str
    example: str


@dataclass(frozen=True)
class SentenceTable:
    """``rules/tokenizer_sentences.yaml`` (each key is described there)."""

    terminators: frozenset[str]
    rules: tuple[SentenceRule, ...]
    heading_keywords: frozenset[str]
    heading_blockers: frozenset[str]
    openers: frozenset[str]


def compile_rules(r: SentenceTable) -> Rules:
    """The word sets of a sentence rule table."""
    return {
        "terminators": r.terminators,
        "keywords": r.heading_keywords,
        "blockers": r.heading_blockers,
        "openers": r.openers,
        "keywords_openers": r.heading_keywords | r.openers,
    }


@functools.cache
def _rules() -> Rules:
    return compile_rules(load_table(TABLE, SentenceTable))


def _opens_sentence(text: str) -> bool:
    first = text[0]
    return first.isupper() or first.isdigit() or first in "([\"'“‘"


def sentence_rules(
    words: list[str], line_breaks: Iterable[int] = (), rules: Rules | None = None
) -> list[str | None]:
    """For each token, the name of the rule that starts a sentence there (else None).

    The first token starts one (rule ``first``); ``line_breaks`` are the indices of tokens
    that are (or are followed by) a line break. Only tokens after a terminator or a line
    break, heading keywords and openers are looked at, so long texts are cheap. ``rules``:
    the compiled table (default: ``rules/tokenizer_sentences.yaml``).
    """
    r = _rules() if rules is None else rules
    after_break = {i + 1 for i in line_breaks}
    # positions after a terminator, of heading keywords and of openers (C-level scans)
    marks = set(compress(count(1), map(r["terminators"].__contains__, words)))
    marks.update(compress(count(), map(r["keywords_openers"].__contains__, words)))
    why: list[str | None] = [None] * len(words)
    for i, rule in _fire(words, len(words), marks | after_break, after_break, r).items():
        why[i] = rule
    return why


def _fire(
    words: Sequence[str] | dict[int, str],
    n: int,
    marks: set[int],
    after_break: set[int],
    r: Rules,
) -> dict[int, str]:
    """The sentence starts among ``marks`` (and the first token) with their rule names.

    ``words`` holds the text of token 0 and of the tokens before, at and after each mark;
    ``r``: the compiled rule table.
    """
    if not n:
        return {}
    terminators, keywords = r["terminators"], r["keywords"]
    blockers, openers = r["blockers"], r["openers"]
    why = {0: "first"}
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
        if i in why:
            heading_until = i + _HEADING_SPAN if w in keywords else -1
    return why


@Language.factory("chemie_sentences", assigns=["token.is_sent_start"])
def make_sentences(nlp: Language, name: str) -> SentenceSegmenter:
    """spaCy factory for :class:`SentenceSegmenter`."""
    return SentenceSegmenter()


class SentenceSegmenter(SavesTables):
    """Sets ``token.is_sent_start`` on every token from the rules (``to_disk`` saves
    their table, ``from_disk`` reads it back)."""

    def __init__(self) -> None:
        self.rules = _rules()
        self.table_files = table_sources(TABLE)
        self._vocab: Vocab | None = None  # the vocabulary the tables below belong to
        self._words = WordTables()  # orth id -> token text
        self._terminators: frozenset[int] = frozenset()  # their orth ids
        self._keys: frozenset[int] = frozenset()  # those of the terminators, keywords, openers

    def __call__(self, doc: Doc) -> Doc:
        n = len(doc)
        if not n:
            return doc
        if doc.vocab is not self._vocab:
            self._orth_tables(doc.vocab)
        # the orth ids, also left for chemie_ner (which would otherwise read them again)
        ids = doc.user_data[ORTH_IDS] = doc.to_array(ORTH).tolist()
        terminators = self._terminators
        # the tokens that are a terminator, keyword or opener (a C-level scan of the ids)
        marks = {
            i + 1 if ids[i] in terminators else i
            for i in compress(count(), map(self._keys.__contains__, ids))
        }
        text = doc.user_data.get(TEXT)  # doc.text when known (see doc_text)
        words: list[str] | dict[int, str]
        if text is None or "\n" in text:
            # line breaks are whitespace tokens: every token's text is looked at
            words = self._words.texts_of(doc.vocab, ids)
            spaces = compress(count(), map(str.isspace, words))
            after_break = {i + 1 for i in spaces if "\n" in words[i]}
        else:
            # no line break: only the texts around the marks are read
            after_break = set()
            near = sorted({0}.union(*((i - 1, i, i + 1) for i in marks if 0 < i < n)) - {n})
            texts = self._words.texts_of(doc.vocab, list(map(ids.__getitem__, near)))
            words = dict(zip(near, texts, strict=True))
        arr = numpy.full((n, 1), _NOT_START, dtype="uint64")
        column = arr[:, 0]
        # a few per snippet
        for i in _fire(words, n, marks | after_break, after_break, self.rules):
            column[i] = 1
        doc.from_array([SENT_START], arr)
        return doc

    def _orth_tables(self, vocab: Vocab) -> None:
        """The orth id tables of the rules' words in ``vocab``."""
        r = self.rules
        orth = vocab.strings.__getitem__
        self._terminators = frozenset(map(orth, r["terminators"]))
        self._keys = self._terminators.union(map(orth, r["keywords_openers"]))
        self._vocab = vocab

    def load_tables(self, files: dict[str, Path]) -> None:
        """Use the rule table in ``files`` (see :class:`~chemie.saving.SavesTables`)."""
        self.rules = compile_rules(load_table(files[TABLE], SentenceTable))
        self._vocab = None  # the orth id tables are made again from the new rules
