"""The relation-classification data model, independent of any file format.

A document holds tokenised sentences and entities (token spans inside one sentence).
A :class:`Pair` is one (possibly labelled) relation between two entity ids, stored in
*semantic* order: ``head`` is the relation's first argument. An :class:`RCExample` is
what the classifier sees: the sentence and the two entities in *text* order, with
``reverse`` telling whether the relation's first argument is the later entity (the
SemEval-2018 ``REVERSE`` convention); ``reverse is None`` means the direction is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entity:
    """An entity mention: tokens ``[start, end)`` of sentence ``sentence`` of its document."""

    id: str
    text: str
    sentence: int
    start: int
    end: int
    line: int | None = None

    def position(self) -> tuple[int, int, int]:
        """Sort key for text order."""
        return (self.sentence, self.start, self.end)


@dataclass
class RCDocument:
    """One abstract: sentences of tokens and its entities by id."""

    id: str
    sentences: list[list[str]] = field(default_factory=list)
    entities: dict[str, Entity] = field(default_factory=dict)
    meta: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Pair:
    """A relation instance in semantic order (``head`` = first argument)."""

    head: str
    tail: str
    label: str | None = None
    line: int | None = None
    rule: str | None = None

    def key(self) -> tuple[str, str]:
        """Direction-free identity of the pair of entities."""
        a, b = sorted((self.head, self.tail))
        return a, b


@dataclass
class RCExample:
    """A pair of entities in context, in text order (``e1`` comes first)."""

    doc_id: str
    tokens: list[str]
    e1: Entity
    e2: Entity
    label: str | None = None
    reverse: bool | None = None
    line: int | None = None

    def pair(self, label: str | None, reverse: bool, rule: str | None = None) -> Pair:
        """The Pair for a decision on this example."""
        head, tail = (self.e2, self.e1) if reverse else (self.e1, self.e2)
        return Pair(head.id, tail.id, label, self.line, rule)


@dataclass(frozen=True)
class Decision:
    """A classifier decision: label, direction and the rule that made it."""

    label: str
    reverse: bool
    rule: str
