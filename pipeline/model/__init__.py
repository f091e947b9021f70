"""The document model shared by every stage: text, tokens, sentences, mentions, relations.

Offsets are character offsets into ``Document.text``, end exclusive. A mention may be
discontinuous: ``spans`` holds one or more ``(start, end)`` ranges in text order.
Relations point from ``head`` (the anaphor, or the first argument) to ``tail`` (the
antecedent, or the second argument) by mention id. Anything produced by a rule carries
the rule's name in ``rule``.

The other records every layer may read live beside it: :mod:`chemie.model.reaction` (the
reaction record of ``chemie_reactions``) and :mod:`chemie.model.rc` (relation
classification examples).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
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


TokenPair = tuple[int, int]  # first, last token (inclusive)


@dataclass(slots=True)
class Mention:
    """A (possibly discontinuous) text-bound annotation.

    The fields after ``confidence`` are what ``chemie_mentions`` says of a mention it found
    (and :func:`chemie.mentions.document.describe_mention` of a gold mention put
    on a Doc): token indices are the Doc's. A mention read from a file has none of them: its
    ``kind`` is "" (untyped), ``tokens`` and ``core`` are None, ``ranges`` is empty.
    """

    id: str
    spans: tuple[Range, ...]
    label: str = "ENTITY"
    text: str = ""
    rule: str | None = None
    confidence: float | None = None
    kind: str = ""  # chemical | generic | reference | equipment | state ("": untyped)
    head: str = ""  # the lowercased head word
    sentence: int = 0  # the index of the sentence of its first token
    tokens: TokenPair | None = None  # its first and last token over all its ranges
    core: TokenPair | None = None  # the name without determiner and quantities
    det: str = ""  # its determiner, lowercased, or ""
    quantity: bool = False  # it has an amount
    abbreviation: bool = False  # a bracketed abbreviation or label of a name
    ranges: tuple[TokenPair, ...] = ()  # its token ranges (first, last), one per char range
    chemdner_class: str | None = None  # the CHEMDNER class of the NER span(s) in its name
    notes: list[str] = field(default_factory=list)  # free-text notes (brat AnnotatorNotes)
    ner_rule: str | None = None  # the NER rule that gave ``chemdner_class`` (chemie show)

    @property
    def start(self) -> int:
        return self.spans[0][0]

    @property
    def end(self) -> int:
        return self.spans[-1][1]

    def overlaps(self, other: Mention) -> bool:
        """True when any range of this mention shares a character with one of ``other``."""
        return any(a < d and c < b for a, b in self.spans for c, d in other.spans)

    @classmethod
    def from_attrs(
        cls, id: str, spans: tuple[Range, ...], label: str = "ENTITY", text: str = "",
        rule: str | None = None, confidence: float | None = None,
        attrs: Mapping[str, object] | None = None,
    ) -> Mention:
        """The mention whose :func:`mention_attrs` are ``attrs`` (as the JSON format and the
        msgpack of :mod:`chemie.serialize` store them; lists become tuples again). Keys that
        are no field are dropped."""
        m = cls(id, tuple((a, b) for a, b in spans), label, text, rule, confidence)
        for key, value in (attrs or {}).items():
            convert = _ATTR_TYPES.get(key)
            if convert is not None:
                setattr(m, key, convert(value))
        return m


def _pair(value: object) -> TokenPair | None:
    return None if value is None else tuple(value)  # type: ignore[arg-type,return-value]


# the mention fields written as its "attrs" map: how each is read back, then its default
_ATTR_TYPES: dict[str, Callable[[object], object]] = {
    "kind": str, "head": str, "sentence": int, "tokens": _pair, "core": _pair, "det": str,
    "quantity": bool, "abbreviation": bool,
    "ranges": lambda v: tuple(tuple(r) for r in v),  # type: ignore[attr-defined]
    "chemdner_class": lambda v: None if v is None else str(v),
    "notes": list, "ner_rule": lambda v: None if v is None else str(v),
}
_ATTR_DEFAULTS: tuple[tuple[str, object], ...] = (
    ("kind", ""), ("head", ""), ("sentence", 0), ("tokens", None), ("core", None), ("det", ""),
    ("quantity", False), ("abbreviation", False), ("ranges", ()), ("chemdner_class", None),
    ("notes", []), ("ner_rule", None),
)
# what a typed mention (``kind`` set) always writes, even when it is the default
_TYPED_ATTRS = frozenset(("kind", "head", "sentence", "tokens", "core", "det", "quantity",
                          "ranges"))


def mention_attrs(m: Mention) -> dict[str, object]:
    """The ``attrs`` map of ``m`` as the JSON format and :mod:`chemie.serialize` write it: for
    a typed mention ``kind``, ``head``, ``sentence``, ``tokens``, ``core``, ``det``,
    ``quantity``, ``abbreviation`` (only when true), ``ranges``; then ``chemdner_class``,
    ``notes`` and ``ner_rule`` when set (an untyped mention: only its fields that are set)."""
    if m.kind and not m.abbreviation and m.chemdner_class is None and m.ner_rule is None \
            and not m.notes:  # (what chemie_mentions makes most, in one step)
        return {
            "kind": m.kind, "head": m.head, "sentence": m.sentence, "tokens": m.tokens,
            "core": m.core, "det": m.det, "quantity": m.quantity, "ranges": m.ranges,
        }
    typed = bool(m.kind)
    attrs: dict[str, object] = {}
    for key, default in _ATTR_DEFAULTS:
        value = getattr(m, key)
        if value != default or (typed and key in _TYPED_ATTRS):
            attrs[key] = value
    return attrs


# what chemie_mentions (or describe_mention) says of a mention
DESCRIPTION: tuple[str, ...] = (
    "kind", "head", "sentence", "tokens", "core", "det", "quantity", "abbreviation", "ranges",
)


def with_description(m: Mention, of: Mention | None) -> Mention:
    """A copy of ``m``; when it is untyped (no ``kind``), with the :data:`DESCRIPTION` fields
    of ``of`` (when given)."""
    if m.kind or of is None:
        return replace(m)
    return replace(m, **{name: getattr(of, name) for name in DESCRIPTION})


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
    labelled it; for a trigger, ``args`` holds the ids of the roles it acts on (its event
    arguments: ARG1 for a compound, ARGM for a condition or yield, by the argument's label)
    and ``arg_rules`` the name of the rule that linked each (``chemie_events``; empty when
    the links come from elsewhere).
    """

    id: str
    start: int
    end: int
    label: str
    text: str
    rule: str
    args: list[str] = field(default_factory=list)
    arg_rules: list[str] = field(default_factory=list)
