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

from chemie.rc.model import Pair
from chemie.resources import load_rules

OTHER = "OTHER"


def mapping(scheme: str) -> dict[str, dict | None]:
    """Source label -> ``{label, swap}`` or None (dropped) for one scheme."""
    return load_rules("rc_labels.yaml")[scheme]


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
    head, tail = (pair.tail, pair.head) if entry["swap"] else (pair.head, pair.tail)
    return Pair(head, tail, entry["label"], pair.line, pair.rule)


def from_unified(pair: Pair, scheme: str) -> Pair:
    """A unified-label pair expressed in ``scheme``'s labels (first source label that maps)."""
    for source, entry in mapping(scheme).items():
        if entry is not None and entry["label"] == pair.label:
            head, tail = (pair.tail, pair.head) if entry["swap"] else (pair.head, pair.tail)
            return Pair(head, tail, source, pair.line, pair.rule)
    return pair
