"""The role rule table (``rules/roles.yaml``), read strictly.

Every section, rule and key is checked when the table is loaded: an unknown key, a missing
key, a value of the wrong type, an unknown label, a word list that does not exist or a
regular expression that does not compile ends with ``InputError`` ``FILE: key: what is
wrong`` (``key`` is the dotted path, e.g. ``compounds.heading_product.when.place``). The
component reads the checked :class:`RoleTable`, never the raw YAML.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex
import yaml

from chemie.errors import InputError
from chemie.model import COMPOUND_ROLES, ROLE_ENTITY_LABELS, ROLE_TRIGGER_LABELS
from chemie.resources import rules_path

# libyaml's safe loader when available (as chemie.resources)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

PHASES = ("reaction", "workup")
PERCENT_WORDS = frozenset(("quantitative", "quant."))  # words a percentage may be
NONE = "NONE"  # the label of a compound rule that makes no role entity
YIELD = "YIELD"  # the label of a builtin rule giving YIELD_OTHER and YIELD_PERCENT
COMPOUND = "COMPOUND"  # the label of a builtin rule giving the role of another compound
# conditions of the compound rules (``when``): name -> type of its value
WHEN: dict[str, type | tuple[type, ...]] = {
    "place": str,  # "title" (a heading before a step heading) | "heading" | "body"
    "phase": str,  # "reaction" | "workup"
    "reference": bool,  # a reference to a compound ("the title compound", "compound 5")
    "state": bool,  # a physical state standing for a compound ("a white solid")
    "arg": list,  # the compound is an argument of its action in one of these roles
    "action": list,  # ... of an action of one of these classes
    "verb": list,  # ... of an action whose word is one of these ("prepared", "reacted")
    "bracketed": bool,  # the compound stands in brackets ("NAME (Compound 7)")
    "after": list,  # the word before the compound (amounts and modifiers skipped)
    "words": str,  # the compound's lowercased text is in this word list
    "not_words": str,  # ... is not in this word list
    "lexicon": list,  # its most frequent training role is one of these (lexicons/roles.tsv)
    "linked": list,  # its mention is the antecedent of a relation with one of these labels
    "pattern": str,  # its text matches this named pattern of the table's ``patterns``
    "raw_pattern": str,  # ... its text as written (not lowercased) does
    "before": str,  # the 40 characters before it match this named pattern
    "next": str,  # the 20 characters after it match this named pattern
    "yield_after": bool,  # a yield (mass, percentage) follows it
}
_PLACES = ("title", "heading", "body")


@dataclass(frozen=True)
class ConditionRule:
    """A regular expression that labels what it matches (TIME, TEMPERATURE …)."""

    name: str
    comment: str
    label: str
    pattern: regex.Pattern
    not_after: frozenset[str] = frozenset()
    # where the pattern may start: a number with one of these units, or one of these words
    # (a rule with neither is tried everywhere)
    units: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TriggerRule:
    """Action classes (in a phase) whose trigger word gets a label."""

    name: str
    comment: str
    label: str
    classes: frozenset[str]
    phase: str | None = None
    needs_argument: bool = False


@dataclass(frozen=True)
class CompoundRule:
    """A role for the compounds that meet every condition of ``when``."""

    name: str
    comment: str
    label: str
    when: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BuiltinRule:
    """A rule written in code, named in the table (so that its spans name a table rule)."""

    name: str
    comment: str
    label: str


@dataclass(frozen=True)
class RoleTable:
    """The checked role table."""

    builtin: tuple[BuiltinRule, ...]
    conditions: tuple[ConditionRule, ...]
    triggers: tuple[TriggerRule, ...]
    compounds: tuple[CompoundRule, ...]
    words: dict[str, frozenset[str]]
    actions: dict[str, str] = field(default_factory=dict)  # extra action word -> class
    patterns: dict[str, regex.Pattern] = field(default_factory=dict)  # named name patterns
    path: str = ""

    @property
    def anchor_words(self) -> frozenset[str]:
        """Every word a condition pattern or a percentage may start at."""
        return frozenset().union(*(r.words for r in self.conditions), PERCENT_WORDS)

    def rule_names(self) -> list[str]:
        """The names of every rule, in table order."""
        return [r.name for part in (self.builtin, self.conditions, self.triggers,
                                    self.compounds) for r in part]


class _Checker:
    """Checks values against the expected keys and types; errors name the file and key."""

    def __init__(self, path: str):
        self.path = path

    def fail(self, key: str, message: str) -> InputError:
        return InputError(self.path, None, f"{key}: {message}")

    def mapping(self, value: object, key: str, required: dict[str, type | tuple],
                optional: dict[str, type | tuple] | None = None) -> dict[str, Any]:
        """``value`` as a mapping with exactly the required keys (and optional ones)."""
        optional = optional or {}
        if not isinstance(value, dict):
            raise self.fail(key, f"expected a mapping, got {type(value).__name__}")
        for name in value:
            if name not in required and name not in optional:
                allowed = ", ".join(sorted({*required, *optional}))
                raise self.fail(f"{key}.{name}", f"unknown key (expected one of: {allowed})")
        for name in required:
            if name not in value:
                raise self.fail(f"{key}.{name}", "missing")
        for name, kind in {**required, **optional}.items():
            if name in value:
                self.type(value[name], f"{key}.{name}", kind)
        return value

    def type(self, value: object, key: str, kind: type | tuple[type, ...]) -> None:
        if isinstance(value, bool) and kind is not bool and bool not in (
                kind if isinstance(kind, tuple) else (kind,)):
            raise self.fail(key, f"expected {_name(kind)}, got a boolean")
        if not isinstance(value, kind):
            raise self.fail(key, f"expected {_name(kind)}, got {type(value).__name__}")
        if isinstance(value, str) and not value.strip():
            raise self.fail(key, "empty")

    def words(self, value: object, key: str) -> frozenset[str]:
        """A list of words (or numbers), lowercased."""
        self.type(value, key, list)
        if not all(isinstance(v, str | int | float) and not isinstance(v, bool)
                   for v in value):  # type: ignore[union-attr]
            raise self.fail(key, "expected a list of words")
        return frozenset(str(v).lower() for v in value)  # type: ignore[union-attr]

    def label(self, value: str, key: str, allowed: tuple[str, ...]) -> str:
        if value not in allowed:
            raise self.fail(key, f"unknown label {value!r} (expected one of: "
                            f"{', '.join(allowed)})")
        return value

    def pattern(self, value: str, key: str) -> regex.Pattern:
        try:
            return regex.compile(value)
        except regex.error as e:
            raise self.fail(key, f"bad regular expression: {e}") from None


def _name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {str: "a string", list: "a list", dict: "a mapping", bool: "true or false",
             int: "a number", float: "a number"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def _rules(check: _Checker, value: object, section: str) -> list[tuple[str, dict]]:
    """The rules of a section (a list of mappings with unique names), as (key, rule)."""
    if not isinstance(value, list) or not value:
        raise check.fail(section, "expected a non-empty list of rules")
    seen: set[str] = set()
    out = []
    for i, rule in enumerate(value):
        if not isinstance(rule, dict) or not isinstance(rule.get("name"), str):
            raise check.fail(f"{section}[{i}]", "expected a rule with a name")
        name = rule["name"]
        if name in seen:
            raise check.fail(f"{section}.{name}", "rule defined twice")
        seen.add(name)
        out.append((f"{section}.{name}", rule))
    return out


def parse_table(data: object, path: str) -> RoleTable:
    """The checked :class:`RoleTable` of parsed YAML ``data`` (errors name ``path``)."""
    check = _Checker(path)
    top = check.mapping(data, "roles", {"words": dict, "actions": dict, "patterns": dict,
                                        "builtin": list, "conditions": list,
                                        "triggers": list, "compounds": list})
    patterns = {}
    for pname, pattern in top["patterns"].items():
        check.type(pattern, f"patterns.{pname}", str)
        patterns[str(pname)] = check.pattern(pattern, f"patterns.{pname}")
    actions: dict[str, str] = {}
    for label, items in top["actions"].items():
        for word in check.words(items, f"actions.{label}"):
            if word in actions:
                raise check.fail(f"actions.{label}", f"{word!r} is also in {actions[word]}")
            actions[word] = str(label)
    words: dict[str, frozenset[str]] = {}
    for name, items in top["words"].items():
        words[str(name)] = check.words(items, f"words.{name}")
    labels = ROLE_ENTITY_LABELS
    builtin = []
    for key, rule in _rules(check, top["builtin"], "builtin"):
        check.mapping(rule, key, {"name": str, "comment": str, "label": str})
        builtin.append(BuiltinRule(rule["name"], rule["comment"], check.label(
            rule["label"], f"{key}.label", (*ROLE_ENTITY_LABELS, YIELD, COMPOUND))))
    conditions = []
    for key, rule in _rules(check, top["conditions"], "conditions"):
        check.mapping(rule, key, {"name": str, "comment": str, "label": str, "pattern": str},
                      {"not_after": list, "units": list, "words": list})
        conditions.append(ConditionRule(
            rule["name"], rule["comment"],
            check.label(rule["label"], f"{key}.label", labels[len(COMPOUND_ROLES):]),
            check.pattern(rule["pattern"], f"{key}.pattern"),
            check.words(rule.get("not_after", []), f"{key}.not_after"),
            check.words(rule.get("units", []), f"{key}.units"),
            check.words(rule.get("words", []), f"{key}.words"),
        ))
    triggers = []
    for key, rule in _rules(check, top["triggers"], "triggers"):
        check.mapping(rule, key, {"name": str, "comment": str, "label": str, "classes": list},
                      {"phase": str, "needs_argument": bool})
        phase = rule.get("phase")
        if phase is not None and phase not in PHASES:
            raise check.fail(f"{key}.phase", f"expected one of: {', '.join(PHASES)}")
        triggers.append(TriggerRule(
            rule["name"], rule["comment"],
            check.label(rule["label"], f"{key}.label", ROLE_TRIGGER_LABELS),
            frozenset(map(str, check.words(rule["classes"], f"{key}.classes") and
                          rule["classes"])), phase, rule.get("needs_argument", False),
        ))
    compounds = []
    for key, rule in _rules(check, top["compounds"], "compounds"):
        check.mapping(rule, key, {"name": str, "comment": str, "label": str},
                      {"when": dict})
        when = check.mapping(rule.get("when", {}), f"{key}.when", {}, WHEN)
        for cond in ("words", "not_words"):
            if cond in when and when[cond] not in words:
                raise check.fail(f"{key}.when.{cond}", f"no word list {when[cond]!r}")
        for cond in ("pattern", "raw_pattern", "before", "next"):
            if cond in when and when[cond] not in patterns:
                raise check.fail(f"{key}.when.{cond}", f"no pattern {when[cond]!r}")
        if when.get("place", "heading") not in _PLACES:
            raise check.fail(f"{key}.when.place", f"expected one of: {', '.join(_PLACES)}")
        if when.get("phase", "reaction") not in PHASES:
            raise check.fail(f"{key}.when.phase", f"expected one of: {', '.join(PHASES)}")
        for label in when.get("lexicon", ()):
            check.label(label, f"{key}.when.lexicon", COMPOUND_ROLES)
        compounds.append(CompoundRule(
            rule["name"], rule["comment"],
            check.label(rule["label"], f"{key}.label", (*COMPOUND_ROLES, NONE)), dict(when),
        ))
    table = RoleTable(tuple(builtin), tuple(conditions), tuple(triggers), tuple(compounds),
                      words, actions, patterns, path)
    names = table.rule_names()
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise check.fail(twice[0], "rule name used in two sections")
    return table


def load_table_file(path: str | Path) -> RoleTable:
    """Read and check a role table file."""
    path = Path(path)
    try:
        with path.open(encoding="utf-8") as fh:
            data = yaml.load(fh, Loader=_LOADER)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise InputError(path, line, f"not valid YAML: {getattr(e, 'problem', e)}") from None
    except OSError as e:
        raise InputError(path, None, f"cannot read: {e.strerror}") from None
    return parse_table(data, str(path))


@functools.cache
def load_table(name: str = "roles.yaml") -> RoleTable:
    """The checked role table ``rules/NAME`` (cached)."""
    return load_table_file(rules_path(name))
