"""A mention candidate (what a rule finds, in token indices) and the one place where it becomes
the ``attrs`` of a :class:`chemie.model.Mention`; the per-doc context the rules read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spacy.tokens import Doc

from chemie.components.mentions.docdata import SentenceIndex
from chemie.components.mentions.tables import MentionTables

if TYPE_CHECKING:
    from chemie.components.mentions.grammar import Grammar

TokenPair = tuple[int, int]  # first, last token (inclusive)
Ranges = tuple[TokenPair, ...]


@dataclass(slots=True)
class Candidate:
    """A mention found by the rule ``rule``: its token ``ranges`` (one, or more when it is
    discontinuous) and what the other components read from its attrs."""

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


def mention_attrs(c: Candidate, chemdner_class: str | None = None) -> dict[str, object]:
    """The ``attrs`` of the Mention made from ``c``: ``kind``, ``head``, ``sentence``,
    ``tokens``, ``core``, ``det``, ``quantity``, ``abbreviation`` (only when true),
    ``ranges`` and ``chemdner_class`` (the class of the NER span in its name, when given)."""
    if not c.abbreviation and chemdner_class is None:  # (the common case, in one step)
        return {
            "kind": c.kind, "head": c.head, "sentence": c.sentence, "tokens": c.tokens,
            "core": c.core, "det": c.det, "quantity": c.quantity, "ranges": c.ranges,
        }
    attrs: dict[str, object] = {
        "kind": c.kind, "head": c.head, "sentence": c.sentence, "tokens": c.tokens,
        "core": c.core, "det": c.det, "quantity": c.quantity,
    }
    if c.abbreviation:
        attrs["abbreviation"] = True
    attrs["ranges"] = c.ranges
    if chemdner_class is not None:
        attrs["chemdner_class"] = chemdner_class
    return attrs


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
