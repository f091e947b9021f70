"""Rule tables for relation classification (``rules/rc.yaml``), compiled to regexes.

A rule has a name, a one-line comment, a label, a direction and conditions; every
condition must hold. Conditions are regexes over the fields of
:class:`chemie.rc.features.Context` (``between``, ``before``, ``after``, ``e1``, ``e2``,
``sentence``), searched with ``re.search``; ``<field>_full`` must match the whole field,
``not_<field>`` must not match; ``max_gap`` bounds the number of words between.
``{name}`` (lower-case letters) in a pattern stands for the cue list ``name`` (an
alternation). ``direction`` is ``forward`` (the first argument is the entity that comes
first in the text), ``reverse`` or ``any``. ``schemes`` restricts a rule to label
schemes; its label is then a label of that scheme, otherwise a unified label.
``not_schemes`` keeps a unified-label rule away from schemes whose annotation
conventions disagree with it (e.g. SemEval labels evaluation data USAGE).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from chemie.rc.features import Context
from chemie.tables import load_table

FIELDS = ("between", "before", "after", "e1", "e2", "sentence")


@dataclass(frozen=True)
class RuleSpec:
    """One rule as ``rules/rc.yaml`` writes it: conditions are regexes over the fields of
    :class:`~chemie.rc.features.Context` (``<field>`` searched, ``<field>_full`` matching the
    whole field, ``not_<field>`` not found)."""

    name: str
    comment: str
    label: str
    direction: Literal["forward", "reverse", "any"] = "any"
    max_gap: int | None = None
    schemes: tuple[str, ...] = ()
    not_schemes: tuple[str, ...] = ()
    between: str | None = None
    before: str | None = None
    after: str | None = None
    e1: str | None = None
    e2: str | None = None
    sentence: str | None = None
    between_full: str | None = None
    before_full: str | None = None
    after_full: str | None = None
    e1_full: str | None = None
    e2_full: str | None = None
    sentence_full: str | None = None
    not_between: str | None = None
    not_before: str | None = None
    not_after: str | None = None
    not_e1: str | None = None
    not_e2: str | None = None
    not_sentence: str | None = None


@dataclass(frozen=True)
class Default:
    """The label of a pair no rule decides, and the usual direction of each label."""

    label: str
    directions: dict[str, Literal["forward", "reverse"]] = field(default_factory=dict)


@dataclass(frozen=True)
class RcTable:
    """``rules/rc.yaml``: cue lists (``{name}`` in a pattern), rules in order, the default."""

    rules: tuple[RuleSpec, ...]
    default: Default
    cues: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Rule:
    """One named cue rule."""

    name: str
    comment: str
    label: str
    direction: str
    search: tuple[tuple[str, re.Pattern], ...] = ()
    full: tuple[tuple[str, re.Pattern], ...] = ()
    negative: tuple[tuple[str, re.Pattern], ...] = ()
    max_gap: int | None = None
    schemes: tuple[str, ...] = ()
    not_schemes: tuple[str, ...] = ()

    def applies_to(self, scheme: str) -> bool:
        """False when ``schemes`` leaves ``scheme`` out or ``not_schemes`` names it."""
        if self.schemes and scheme not in self.schemes:
            return False
        return scheme not in self.not_schemes

    def matches(self, ctx: Context) -> bool:
        """True when every condition holds on ``ctx``."""
        if self.max_gap is not None and ctx.gap > self.max_gap:
            return False
        return (
            all(p.search(ctx.field(f)) for f, p in self.search)
            and all(p.fullmatch(ctx.field(f)) for f, p in self.full)
            and not any(p.search(ctx.field(f)) for f, p in self.negative)
        )


@dataclass(frozen=True)
class RuleSet:
    """Ordered rules (first match wins), the default label and default directions."""

    rules: tuple[Rule, ...]
    default_label: str
    default_reverse: dict[str, bool] = field(default_factory=dict)

    def rule(self, name: str) -> Rule:
        for r in self.rules:
            if r.name == name:
                return r
        raise KeyError(name)


_CUE = re.compile(r"\{([a-z_]+)\}")


def _compile(pattern: str, cues: dict[str, str], where: str) -> re.Pattern:
    missing = [m for m in _CUE.findall(pattern) if m not in cues]
    if missing:
        raise ValueError(f"{where}: unknown cue list {missing[0]!r}")
    try:
        return re.compile(_CUE.sub(lambda m: cues[m.group(1)], pattern))
    except re.error as e:
        raise ValueError(f"{where}: bad pattern {pattern!r}: {e}") from None


def build(table: RcTable) -> RuleSet:
    """Compile a rule table."""
    cues = {k: "(?:" + "|".join(v) + ")" for k, v in table.cues.items()}
    rules = []
    for spec in table.rules:
        name = spec.name
        search, full, negative = [], [], []
        for f in FIELDS:
            for bucket, key in ((search, f), (full, f"{f}_full"), (negative, f"not_{f}")):
                pattern = getattr(spec, key)
                if pattern is not None:
                    bucket.append((f, _compile(pattern, cues, name)))
        rules.append(
            Rule(
                name,
                spec.comment,
                spec.label,
                spec.direction,
                tuple(search),
                tuple(full),
                tuple(negative),
                spec.max_gap,
                spec.schemes,
                spec.not_schemes,
            )
        )
    names = [r.name for r in rules]
    if len(set(names)) != len(names):
        raise ValueError("rule names must be unique")
    return RuleSet(
        tuple(rules),
        table.default.label,
        {k: v == "reverse" for k, v in table.default.directions.items()},
    )


def load(name: str = "rc.yaml") -> RuleSet:
    """The rule set shipped in ``rules/``."""
    return build(load_table(name, RcTable))
