"""A labelled span while the role rules work on it (before it becomes a ``Role``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chemie.model import Action


@dataclass(slots=True)
class Found:
    """A candidate span: characters ``[start, end)``, its kind and, once decided, its label
    and the rule that gave it."""

    start: int
    end: int
    kind: str  # "compound", "reference", "condition", "amount", "percent", "trigger", "label"
    label: str = ""
    rule: str = ""
    mention: str | None = None  # id of the smallest mention covering the span
    action: Action | None = None  # the action it is an argument of (or the trigger's action)
    role: str = ""  # its argument role in that action ("object", "solvent" …)
    links: Sequence[tuple[Action, str]] = ()  # every (action, role) naming its mention
    args: Sequence[Found] = ()  # a trigger's arguments
    aqueous: int = -1  # "aqueous X": where X starts (split off in the reaction phase)
    aqueous_tail: int = -1  # "X aqueous (solution)": where X ends (split off likewise)
    core: int = -1  # "concentrated sulfuric acid", "10% Pd/C": where the name itself starts

    def overlaps(self, other: Found) -> bool:
        return self.start < other.end and other.start < self.end
