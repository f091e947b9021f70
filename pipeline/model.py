"""The document model shared by every stage: text, tokens, sentences, mentions, relations.

Offsets are character offsets into ``Document.text``, end exclusive. A mention may be
discontinuous: ``spans`` holds one or more ``(start, end)`` ranges in text order.
Relations point from ``head`` (the anaphor, or the first argument) to ``tail`` (the
antecedent, or the second argument) by mention id. Anything produced by a rule carries
the rule's name in ``rule``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import repeat

Range = tuple[int, int]

# ChEMU 2021 anaphora relation labels: brat name <-> ChEMU-Ref jsonl key.
ANAPHORA_LABELS: dict[str, str] = {
    "COREFERENCE": "Coreference",
    "TRANSFORMED": "Transformed",
    "REACTION_ASSOCIATED": "Reaction-associated",
    "WORK_UP": "Work-up",
    "CONTAINED": "Contained",
}
JSONL_TO_LABEL: dict[str, str] = {v: k for k, v in ANAPHORA_LABELS.items()}

# ChEMU 2020 (Task 1 entities, Task 2 trigger words): compounds by role, conditions and
# quantities, then the two event trigger labels.
COMPOUND_ROLES: tuple[str, ...] = (
    "REACTION_PRODUCT", "STARTING_MATERIAL", "REAGENT_CATALYST", "SOLVENT", "OTHER_COMPOUND",
)
ROLE_ENTITY_LABELS: tuple[str, ...] = (
    *COMPOUND_ROLES, "TIME", "TEMPERATURE", "YIELD_PERCENT", "YIELD_OTHER", "EXAMPLE_LABEL",
)
ROLE_TRIGGER_LABELS: tuple[str, ...] = ("REACTION_STEP", "WORKUP")


@dataclass(frozen=True, slots=True)
class Token:
    """A token with its character offsets."""

    text: str
    start: int
    end: int


_new_object = object.__new__
_SET_TEXT, _SET_START, _SET_END = (Token.__dict__[f].__set__ for f in ("text", "start", "end"))


def make_tokens(texts: list[str], starts: list[int], ends: Iterable[int]) -> list[Token]:
    """``[Token(t, s, e) for t, s, e in zip(texts, starts, ends)]``, the slots set by C-level
    maps (no Python call per token)."""
    tokens = list(map(_new_object, repeat(Token, len(texts))))
    deque(map(_SET_TEXT, tokens, texts), 0)
    deque(map(_SET_START, tokens, starts), 0)
    deque(map(_SET_END, tokens, ends), 0)
    return tokens


def make_token(text: str, start: int, end: int) -> Token:
    """``Token(text, start, end)`` without the frozen dataclass ``__init__`` (the slots are
    set directly: about a third faster, for documents built token by token)."""
    token = _new_object(Token)
    _SET_TEXT(token, text)
    _SET_START(token, start)
    _SET_END(token, end)
    return token


@dataclass
class Mention:
    """A (possibly discontinuous) text-bound annotation."""

    id: str
    spans: tuple[Range, ...]
    label: str = "ENTITY"
    text: str = ""
    rule: str | None = None
    confidence: float | None = None
    attrs: dict[str, object] = field(default_factory=dict)

    @property
    def start(self) -> int:
        return self.spans[0][0]

    @property
    def end(self) -> int:
        return self.spans[-1][1]

    def overlaps(self, other: Mention) -> bool:
        """True when any range of this mention shares a character with one of ``other``."""
        return any(a < d and c < b for a, b in self.spans for c, d in other.spans)


@dataclass
class Relation:
    """A typed, directed link between two mentions (anaphor -> antecedent)."""

    label: str
    head: str
    tail: str
    rule: str | None = None
    id: str = ""
    confidence: float | None = None  # the rule's precision (rules/coref.yaml, bridging.yaml)


@dataclass
class Document:
    """One snippet or abstract with everything the pipeline knows about it."""

    id: str
    text: str
    tokens: list[Token] = field(default_factory=list)
    sentences: list[Range] = field(default_factory=list)  # token index ranges, end exclusive
    mentions: list[Mention] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    meta: dict[str, object] = field(default_factory=dict)
    roles: list[Role] = field(default_factory=list)  # ChEMU 2020 labels (chemie_roles)

    def mention(self, mention_id: str) -> Mention:
        """The mention with this id (KeyError when absent)."""
        for m in self.mentions:
            if m.id == mention_id:
                return m
        raise KeyError(mention_id)

    def mention_index(self) -> dict[str, Mention]:
        return {m.id: m for m in self.mentions}

    def span_text(self, spans: Iterable[Range]) -> str:
        """The text of a (possibly discontinuous) mention, pieces joined by a space."""
        return " ".join(self.text[a:b] for a, b in spans)


def tokens_from_words(words: list[str]) -> tuple[str, list[Token]]:
    """Join ``words`` with single spaces; return the text and the tokens with offsets."""
    tokens: list[Token] = []
    pos = 0
    for w in words:
        tokens.append(make_token(w, pos, pos + len(w)))
        pos += len(w) + 1
    return " ".join(words), tokens


@dataclass
class Action:
    """A ChemicalTagger-style action phrase (Add, Stir, Extract …) and its arguments.

    ``args`` maps a role (e.g. ``"object"``, ``"solvent"``, ``"container"``) to mention ids;
    ``phase`` is ``"reaction"`` or ``"workup"``; ``step`` numbers the step it belongs to.
    """

    label: str
    start: int
    end: int
    sentence: int
    rule: str
    args: dict[str, list[str]] = field(default_factory=dict)
    phase: str = "reaction"
    step: int = 0


@dataclass(slots=True)
class Role:
    """A ChEMU 2020 labelled span: a compound by its role in the reaction, a condition or
    quantity, an example label, or the trigger word of a reaction or work-up step.

    ``start``/``end`` are character offsets (end exclusive); ``rule`` names the rule that
    labelled it; for a trigger, ``args`` holds the ids of the roles it acts on (when the
    action parser knows them).
    """

    id: str
    start: int
    end: int
    label: str
    text: str
    rule: str
    args: list[str] = field(default_factory=list)
