"""The action table ``rules/actions.yaml``: its verb classes and word lists, typed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from chemie.tables import load_table


@dataclass(frozen=True)
class ActionClass:
    """One verb class of ``rules/actions.yaml``: ``pattern`` matches its trigger words."""

    comment: str
    phase: Literal["reaction", "workup", "any"]
    pattern: str  # case-insensitive, matched against whole tokens
    near: frozenset[str] = frozenset()  # fires only with one of these words near it


@dataclass(frozen=True)
class ActionTable:
    """``rules/actions.yaml`` (each key is described there)."""

    classes: dict[str, ActionClass]
    reaction_end: frozenset[str]
    after_end: frozenset[str]
    post_modifiers: frozenset[str]
    partitives: frozenset[str]
    step_heading: str
    auxiliaries: frozenset[str]
    roles: dict[str, str]
    apparatus: frozenset[str]
    containers: frozenset[str]
    manner_before: frozenset[str]
    reference_before: frozenset[str]


def action_table(name: str | Path = "actions.yaml") -> ActionTable:
    """The action classes and word lists of ``rules/<name>`` (read once) or of a table file."""
    return load_table(name, ActionTable)
