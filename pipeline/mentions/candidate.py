"""A mention candidate (what a rule finds, in token indices) and the one place where it becomes
a :class:`chemie.model.Mention`; the per-doc context the rules read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spacy.tokens import Doc

from chemie.mentions.docdata import SentenceIndex
from chemie.mentions.table import MentionTables
from chemie.model import Mention, Range, TokenPair

if TYPE_CHECKING:
    from chemie.mentions.grammar import Grammar

Ranges = tuple[TokenPair, ...]


@dataclass(slots=True)
class Candidate:
    """A mention found by the rule ``rule``: its token ``ranges`` (one, or more when it is
    discontinuous) and what the other components read of the Mention made from it."""

    ranges: Ranges
    rule: str
    kind: str  # chemical | generic | reference | equipment | state
    head: str  # the lowercased head word
    sentence: int  # the index of the sentence of its first token
    tokens: TokenPair  # first and last token over all its ranges
    core: TokenPair  # the name without determiner and quantities
    det: str = ""  # its determiner, lowercased
    quantity: bool = False  # it has an amount
    abbreviation: bool = False  # a bracketed abbreviation or label of a name

    @property
    def first(self) -> int:
        """Its first token."""
        return self.ranges[0][0]

    @property
    def last(self) -> int:
        """Its last token."""
        return self.ranges[-1][1]

    def but(self, **changes: object) -> Candidate:
        """A copy with ``changes`` (field name -> value)."""
        new = Candidate(
            self.ranges, self.rule, self.kind, self.head, self.sentence, self.tokens, self.core,
            self.det, self.quantity, self.abbreviation,
        )
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def mention(
        self, mention_id: str, spans: tuple[Range, ...], text: str, confidence: float | None,
        chemdner_class: str | None = None,
    ) -> Mention:
        """The Mention (label ``ENTITY``) at char ``spans`` made from this candidate, with the
        class of the NER span in its name (``chemdner_class``) when given."""
        return Mention(
            mention_id, spans, "ENTITY", text, self.rule, confidence, self.kind, self.head,
            self.sentence, self.tokens, self.core, self.det, self.quantity, self.abbreviation,
            self.ranges, chemdner_class,
        )


@dataclass(slots=True)
class DocContext:
    """What the rules read of the doc being matched: its words, lowercased words and class
    string, the sentence of a token, and the mention table with its compiled grammar."""

    doc: Doc
    words: list[str]
    low: list[str]
    cs: str
    sent_of: SentenceIndex
    tables: MentionTables
    grammar: Grammar
    low_set: frozenset[str] = field(default_factory=frozenset)  # the doc's lowercased words
