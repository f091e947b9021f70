"""The role rule table (``rules/roles.yaml``), read typed through
:func:`chemie.tables.load_table`, then checked for what a schema cannot say.

The schema rejects an unknown, missing or mistyped key with ``FILE: key: what is wrong``
(``key`` is the dotted path, e.g. ``compounds.heading_product.when.place``); word lists may
hold ``"@name"`` references to ``rules/vocabularies.yaml``. :func:`role_table` then checks
labels, references to word lists and patterns, that every pattern compiles, that each rule
name is used once, that each compound rule names a function of the rule registry
(``stage_rules("roles")``; the shipped table names every one) and that the rules written in
code are named, raising
:class:`~chemie.tables.TableError` the same way, and returns the table the component reads:
word lists lowercased, patterns compiled.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import regex
import yaml

from chemie.errors import InputError
from chemie.model import COMPOUND_ROLES, ROLE_ENTITY_LABELS, ROLE_TRIGGER_LABELS
from chemie.roles.rules import RULES, CompoundRule
from chemie.tables import TableError, load_table

TABLE = "roles.yaml"
Phase = Literal["reaction", "workup"]
PERCENT_WORDS = frozenset(("quantitative", "quant."))  # words a percentage may be
NONE = "NONE"  # the label of a compound rule that makes no role entity
YIELD = "YIELD"  # the label of a builtin rule giving YIELD_OTHER and YIELD_PERCENT
COMPOUND = "COMPOUND"  # the label of a builtin rule giving the role of another compound
# the rules written in code (pipeline/roles/): each must be named in ``builtin``
CODE_RULES = ("heading_label", "bracketed_heading_label", "opening_label", "product_yield",
              "described_yield", "yield_bracket", "yield_word", "yield_amount", "amount_percent",
              "yield_neighbour", "aqueous_solvent", "bracket_label", "coreferent_product")
# the word lists the code reads (the rules may name others)
CODE_WORDS = ("heading_words", "title_words", "reference_heads", "heading_stops",
              "skipped_before", "names", "name_prefixes", "kept_modifiers", "name_tails",
              "not_compounds", "workup_materials", "workup_verbs", "workup_prefixes",
              "non_triggers", "auxiliaries", "manner_nouns", "manner_of", "manner_before",
              "adverbial_openers", "noun_forms", "noun_determiners", "passive_only",
              "condition_classes", "reaction_classes", "quench_classes", "run_classes",
              "run_words", "completion_classes", "workup_classes", "ending_classes",
              "workup_temperatures", "title_refs", "procedure_openers")


@dataclass(frozen=True)
class BuiltinRule:
    """A rule written in code, named in the table (so that its spans name a table rule)."""

    name: str
    comment: str
    label: str


@dataclass(frozen=True)
class ConditionRule:
    """A regular expression that labels what it matches (TIME, TEMPERATURE …)."""

    name: str
    comment: str
    label: str
    pattern: str
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
    phase: Phase | None = None
    needs_argument: bool = False
    words: frozenset[str] = frozenset()  # the trigger word is one of these (empty: any)


@dataclass(frozen=True)
class RoleTable:
    """``rules/roles.yaml``; :func:`role_table` fills the fields that are no keys."""

    words: dict[str, frozenset[str]]  # named word lists (lowercased by role_table)
    actions: dict[str, frozenset[str]]  # action class -> words the action parser leaves out
    patterns: dict[str, str]  # named patterns of the compound rules
    builtin: tuple[BuiltinRule, ...]
    conditions: tuple[ConditionRule, ...]
    triggers: tuple[TriggerRule, ...]
    compounds: tuple[CompoundRule, ...]  # each read with its registered rule's entry schema
    reactant_or_reagent: tuple[CompoundRule, ...]  # the stage after the compound rules
    # filled by role_table: word -> its action class, the named patterns and the condition
    # rules' patterns compiled (by rule name)
    extra_actions: dict[str, str] = field(default_factory=dict, init=False, compare=False)
    compiled: dict[str, regex.Pattern] = field(default_factory=dict, init=False,
                                               compare=False)
    condition_patterns: dict[str, regex.Pattern] = field(default_factory=dict, init=False,
                                                         compare=False)

    @property
    def anchor_words(self) -> frozenset[str]:
        """Every word a condition pattern or a percentage may start at."""
        return frozenset().union(*(r.words for r in self.conditions), PERCENT_WORDS)

    def rule_names(self) -> list[str]:
        """The names of every rule, in table order."""
        return [r.name for part in (self.builtin, self.conditions, self.triggers,
                                    self.compounds, self.reactant_or_reagent) for r in part]


def role_table(name: str | Path = TABLE) -> RoleTable:
    """The checked role table ``rules/NAME`` (cached) or the table file at the path ``name``
    (a saved pipeline's copy, read each time; so is a string that is an absolute path)."""
    if isinstance(name, str) and Path(name).is_absolute():
        name = Path(name)
    if isinstance(name, Path):
        try:
            return check_table(load_table(name, RoleTable), name)
        except yaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None)
            line = mark.line + 1 if mark is not None else None
            raise InputError(name, line, f"not valid YAML: {getattr(e, 'problem', e)}") from None
    return _shipped(name)


@functools.cache
def _shipped(name: str) -> RoleTable:
    return check_table(load_table(name, RoleTable), name)


def _lower(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w.lower() for w in words)


def _compile(table: str | Path, key: str, pattern: str) -> regex.Pattern:
    try:
        return regex.compile(pattern)
    except regex.error as e:
        raise TableError(table, key, f"bad regular expression: {e}") from None


def _label(table: str | Path, key: str, label: str, allowed: tuple[str, ...]) -> None:
    if label not in allowed:
        raise TableError(table, key, f"unknown label {label!r} (expected one of: "
                         f"{', '.join(allowed)})")


def check_table(parsed: RoleTable, name: str | Path) -> RoleTable:
    """``parsed`` (read through the schema) checked, with its word lists lowercased and its
    patterns compiled; ``name`` is the table's file name in ``rules/`` or its path."""
    words = {k: _lower(v) for k, v in parsed.words.items()}
    for key in CODE_WORDS:
        if key not in words:
            raise TableError(name, f"words.{key}", "missing key (the code reads this list)")
    conditions = tuple(dataclasses.replace(r, not_after=_lower(r.not_after),
                                           units=_lower(r.units), words=_lower(r.words))
                       for r in parsed.conditions)
    table = dataclasses.replace(parsed, words=words, conditions=conditions)
    for word_class, items in parsed.actions.items():
        for word in sorted(_lower(items)):
            if word in table.extra_actions:
                raise TableError(name, f"actions.{word_class}",
                                 f"{word!r} is also in {table.extra_actions[word]}")
            table.extra_actions[word] = word_class
    for pname, pattern in parsed.patterns.items():
        table.compiled[pname] = _compile(name, f"patterns.{pname}", pattern)
    for r in parsed.builtin:
        _label(name, f"builtin.{r.name}.label", r.label, (*ROLE_ENTITY_LABELS, YIELD, COMPOUND))
    for r in conditions:
        _label(name, f"conditions.{r.name}.label", r.label,
               ROLE_ENTITY_LABELS[len(COMPOUND_ROLES):])
        table.condition_patterns[r.name] = _compile(name, f"conditions.{r.name}.pattern",
                                                    r.pattern)
    triggers = tuple(dataclasses.replace(r, words=_lower(r.words)) for r in parsed.triggers)
    object.__setattr__(table, "triggers", triggers)
    for r in triggers:
        _label(name, f"triggers.{r.name}.label", r.label, ROLE_TRIGGER_LABELS)
    compounds = tuple(_check_rule(table, name, "compounds", r) for r in parsed.compounds)
    stage = tuple(_check_rule(table, name, "reactant_or_reagent", r)
                  for r in parsed.reactant_or_reagent)
    # (set in place: replace() would reset the fields filled above)
    object.__setattr__(table, "compounds", compounds)
    object.__setattr__(table, "reactant_or_reagent", stage)
    # every compound entry names a registered function; the shipped table names them all
    RULES.check([r.name for r in (*compounds, *stage)], name, every_function=name == TABLE)
    names = table.rule_names()
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise TableError(name, twice[0], "rule name used twice")
    missing = sorted(set(CODE_RULES) - {r.name for r in parsed.builtin})
    if missing:
        raise TableError(name, "builtin", f"missing rule(s) {', '.join(missing)} (written in "
                         "code)")
    return table


_LISTS = ("words", "not_words")  # entry keys naming a word list
_PATTERNS = ("before", "next", "pattern")  # entry keys naming a pattern


def _check_rule(table: RoleTable, name: str | Path, part: str, r: CompoundRule
                ) -> CompoundRule:
    """A compound rule's entry checked (its label, the word lists and patterns it names),
    with its verbs lowercased."""
    key = f"{part}.{r.name}"
    _label(name, f"{key}.label", r.label, (*COMPOUND_ROLES, NONE))
    for cond in _LISTS:
        value = getattr(r, cond, None)
        if value is not None and value not in table.words:
            raise TableError(name, f"{key}.{cond}", f"no word list {value!r}")
    for cond in _PATTERNS:
        value = getattr(r, cond, None)
        if value is not None and value not in table.compiled:
            raise TableError(name, f"{key}.{cond}", f"no pattern {value!r}")
    verbs = getattr(r, "verbs", None)
    return r if verbs is None else dataclasses.replace(r, verbs=_lower(verbs))
