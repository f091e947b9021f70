"""Label mappings between SciERC, SemEval-2018 Task 7 and the unified label set.

The tables live in ``rules/rc_labels.yaml``:

* SciERC -> unified: USED-FOR -> USAGE, FEATURE-OF -> MODEL-FEATURE,
  PART-OF -> PART_WHOLE, EVALUATE-FOR -> RESULT (arguments swapped), COMPARE -> COMPARE;
  CONJUNCTION and HYPONYM-OF are dropped.
* SemEval-2018 -> unified: identity, TOPIC dropped.

A predicted label without a unified counterpart (e.g. TOPIC) becomes ``OTHER`` when the
gold pair is kept, so it counts as a wrong prediction.
"""

from __future__ import annotations

from dataclasses import dataclass

from chemie.model.rc import Pair
from chemie.tables import load_table

OTHER = "OTHER"


@dataclass(frozen=True)
class Unified:
    """Where a source label goes: its unified label, and whether the arguments swap."""

    label: str
    swap: bool


@dataclass(frozen=True)
class LabelTable:
    """``rules/rc_labels.yaml``: per scheme, source label -> unified label (None: dropped)."""

    scierc: dict[str, Unified | None]
    semeval: dict[str, Unified | None]
    unified: dict[str, Unified | None]


def _table() -> LabelTable:
    return load_table("rc_labels.yaml", LabelTable)


def mapping(scheme: str) -> dict[str, Unified | None]:
    """Source label -> :class:`Unified` or None (dropped) for one scheme."""
    if scheme not in ("scierc", "semeval", "unified"):
        raise KeyError(scheme)
    return getattr(_table(), scheme)


def to_unified(pair: Pair, scheme: str) -> Pair | None:
    """The pair in the unified label space; None when its label is dropped.

    An unknown label maps to ``OTHER`` (kept, always wrong against gold).
    """
    table = mapping(scheme)
    if pair.label not in table:
        return Pair(pair.head, pair.tail, OTHER, pair.line, pair.rule)
    entry = table[pair.label]
    if entry is None:
        return None
    head, tail = (pair.tail, pair.head) if entry.swap else (pair.head, pair.tail)
    return Pair(head, tail, entry.label, pair.line, pair.rule)


def from_unified(pair: Pair, scheme: str) -> Pair:
    """A unified-label pair expressed in ``scheme``'s labels (first source label that maps)."""
    for source, entry in mapping(scheme).items():
        if entry is not None and entry.label == pair.label:
            head, tail = (pair.tail, pair.head) if entry.swap else (pair.head, pair.tail)
            return Pair(head, tail, source, pair.line, pair.rule)
    return pair
