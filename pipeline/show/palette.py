"""The viewer's colours, as data: one row per mention kind and one per relation label.

The page's CSS rules for kinds (``.k-NAME``) and labels (``.l-NAME``), the legend's order
and the short labels on arcs all come from these tables; a new kind (e.g. a reaction role)
or relation label is one more row here, nothing else. Kinds and labels missing from the
tables are still shown, in the default grey.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class KindStyle:
    """A mention kind: highlight background and underline colour."""

    name: str
    background: str
    line: str


@dataclass(frozen=True)
class LabelStyle:
    """A relation label: the short form drawn on arcs and its colour."""

    label: str
    short: str
    colour: str


# in legend order
KINDS: tuple[KindStyle, ...] = (
    KindStyle("chemical", "#dbeafe", "#2563eb"),
    KindStyle("generic", "#fef3c7", "#d97706"),
    KindStyle("state", "#f1f5f9", "#64748b"),
    KindStyle("equipment", "#dcfce7", "#16a34a"),
    KindStyle("reference", "#f3e8ff", "#9333ea"),
    KindStyle("reaction", "#fce7f3", "#db2777"),
    KindStyle("mention", "#e0f2f1", "#00897b"),  # untyped (gold ENTITY without a kind)
)

RELATIONS: tuple[LabelStyle, ...] = (
    LabelStyle("COREFERENCE", "Coref", "#2563eb"),
    LabelStyle("TRANSFORMED", "Transformed", "#7c3aed"),
    LabelStyle("REACTION_ASSOCIATED", "Reaction-assoc.", "#059669"),
    LabelStyle("WORK_UP", "Work-up", "#d97706"),
    LabelStyle("CONTAINED", "Contained", "#b45309"),
)

KIND_ORDER = tuple(k.name for k in KINDS)
SHORT_LABELS = {r.label: r.short for r in RELATIONS}


def slug(value: str) -> str:
    """A CSS-class-safe lowercase form of ``value``."""
    return re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-") or "x"


def css() -> str:
    """The CSS rules of every kind and label in the tables."""
    kinds = [
        f".k-{slug(k.name)} {{ background: {k.background}; box-shadow: inset 0 -2px 0 {k.line}; }}"
        for k in KINDS
    ]
    labels = [f".l-{slug(r.label)} {{ --c: {r.colour}; }}" for r in RELATIONS]
    return "\n".join(["/* palette.py: kinds and relation labels */", *kinds, *labels]) + "\n"
