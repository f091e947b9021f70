"""The viewer's colours, as data: one row per mention kind, one per relation label and one
per ChEMU 2020 label (the reaction roles and step triggers of ``chemie_roles``).

The page's CSS rules for kinds (``.k-NAME``), relation labels (``.l-NAME``) and role labels
(``.r-NAME``), the legend's order and the short labels on arcs and in the legend all come
from these tables; a new kind, relation label or role label is one more row here, nothing
else. Kinds and labels missing from the tables are still shown, in the default grey.
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



@dataclass(frozen=True)
class RoleStyle:
    """A ChEMU 2020 label: its name in the legend, highlight background and line colour;
    a ``trigger`` (the trigger word of a step) is framed instead of underlined."""

    label: str
    short: str
    background: str
    line: str
    trigger: bool = False


ROLE_LABELS: tuple[RoleStyle, ...] = (
    RoleStyle("REACTION_PRODUCT", "product", "#fee2e2", "#dc2626"),
    RoleStyle("STARTING_MATERIAL", "starting material", "#dbeafe", "#2563eb"),
    RoleStyle("REAGENT_CATALYST", "reagent / catalyst", "#dcfce7", "#16a34a"),
    RoleStyle("SOLVENT", "solvent", "#cffafe", "#0891b2"),
    RoleStyle("OTHER_COMPOUND", "other compound", "#f1f5f9", "#64748b"),
    RoleStyle("TEMPERATURE", "temperature", "#ffedd5", "#ea580c"),
    RoleStyle("TIME", "time", "#fef9c3", "#ca8a04"),
    RoleStyle("YIELD_PERCENT", "yield %", "#f3e8ff", "#9333ea"),
    RoleStyle("YIELD_OTHER", "yield amount", "#fae8ff", "#c026d3"),
    RoleStyle("EXAMPLE_LABEL", "example label", "#e2e8f0", "#334155"),
    RoleStyle("REACTION_STEP", "reaction step", "#fff1f2", "#be123c", trigger=True),
    RoleStyle("WORKUP", "work-up step", "#f0fdfa", "#0f766e", trigger=True),
)

def slug(value: str) -> str:
    """A CSS-class-safe lowercase form of ``value``."""
    return re.sub(r"[^a-z0-9]+", "-", value.lower()).strip("-") or "x"


KIND_ORDER = tuple(k.name for k in KINDS) + tuple(slug(r.label) for r in ROLE_LABELS)
KIND_SHORT = {slug(r.label): r.short for r in ROLE_LABELS}  # a labelled mention's legend
SHORT_LABELS = {r.label: r.short for r in RELATIONS}
ROLE_ORDER = tuple(r.label for r in ROLE_LABELS)
ROLE_SHORT = {r.label: r.short for r in ROLE_LABELS}


def css() -> str:
    """The CSS rules of every kind and label in the tables; a mention labelled with a
    ChEMU 2020 label (brat gold of ChEMU 2020, ``chemie run --format chemu2020`` output)
    takes that label's colours (``.k-LABEL``)."""
    kinds = [
        f".k-{slug(k.name)} {{ background: {k.background}; box-shadow: inset 0 -2px 0 {k.line}; }}"
        for k in KINDS
    ] + [
        f".k-{slug(r.label)} {{ background: {r.background}; box-shadow: "
        + (f"inset 0 0 0 1.5px {r.line}; }}" if r.trigger else f"inset 0 -2px 0 {r.line}; }}")
        for r in ROLE_LABELS
    ]
    labels = [f".l-{slug(r.label)} {{ --c: {r.colour}; }}" for r in RELATIONS]
    roles = [
        f".r-{slug(r.label)} {{ background: {r.background}; box-shadow: "
        + (f"inset 0 0 0 1.5px {r.line}; font-weight: 600; }}" if r.trigger
           else f"inset 0 -2px 0 {r.line}; }}")
        for r in ROLE_LABELS
    ]
    return "\n".join(["/* palette.py: kinds, relation labels and role labels */", *kinds,
                      *labels, *roles]) + "\n"
