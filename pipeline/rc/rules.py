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

from chemie.rc.features import Context
from chemie.resources import load_rules

FIELDS = ("between", "before", "after", "e1", "e2", "sentence")
DIRECTIONS = ("forward", "reverse", "any")


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


def build(table: dict) -> RuleSet:
    """Compile a rule table (the parsed YAML)."""
    cues = {k: "(?:" + "|".join(v) + ")" for k, v in (table.get("cues") or {}).items()}
    rules = []
    for spec in table["rules"]:
        name = spec["name"]
        direction = spec.get("direction", "any")
        if direction not in DIRECTIONS:
            raise ValueError(f"rule {name}: direction must be one of {DIRECTIONS}")
        search, full, negative = [], [], []
        for key, pattern in spec.items():
            for prefix, bucket in (("not_", negative), ("", search)):
                base = key[len(prefix) :] if key.startswith(prefix) else None
                if base is None:
                    continue
                if base in FIELDS:
                    bucket.append((base, _compile(pattern, cues, name)))
                    break
                if base.endswith("_full") and base[:-5] in FIELDS and not prefix:
                    full.append((base[:-5], _compile(pattern, cues, name)))
                    break
        rules.append(
            Rule(
                name,
                spec["comment"],
                spec["label"],
                direction,
                tuple(search),
                tuple(full),
                tuple(negative),
                spec.get("max_gap"),
                tuple(spec.get("schemes") or ()),
                tuple(spec.get("not_schemes") or ()),
            )
        )
    names = [r.name for r in rules]
    if len(set(names)) != len(names):
        raise ValueError("rule names must be unique")
    default = table["default"]
    return RuleSet(
        tuple(rules),
        default["label"],
        {k: v == "reverse" for k, v in (default.get("directions") or {}).items()},
    )


def load(name: str = "rc.yaml") -> RuleSet:
    """The rule set shipped in ``rules/``."""
    return build(load_rules(name))
