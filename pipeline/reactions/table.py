"""The reaction rule table (``rules/reactions.yaml``), read typed through
:func:`chemie.tables.load_table`: a misspelt, missing or mistyped key is an error naming the
file and the key."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import regex

from chemie.registry import InlineRule, StageRules, inline_rules, stage_rules
from chemie.roles.table import role_table
from chemie.tables import TableError, load_table, shipped_cache, suggest

TABLE = "reactions.yaml"
ROLES_TABLE = "roles.yaml"  # the chemie_roles table whose rule names this one refers to
Role = Literal["product", "reactant", "reagent", "catalyst", "solvent", "none"]
MEASURES = ("mass", "volume", "moles", "equivalents", "concentration", "temperature", "time",
            "pressure")


# the rules written in code (stage "reactions" of the one registry); the table names each
RULES: StageRules[InlineRule] = stage_rules("reactions")
inline_rules(RULES, "products", "chemie.reactions.assemble", "line_break", "not_a_product",
             "title_product", "last_product", "product_of_input_class", "alias")
inline_rules(RULES, "products", "chemie.reactions.sections", "yield_then_stage")
inline_rules(RULES, "products", "chemie.reactions.records", "is_the_product")
inline_rules(RULES, "names", "chemie.reactions.grounded", "widened_name", "joined_names",
             "reference_to_title", "coreference_antecedent")


@dataclass(frozen=True)
class LabelRule:
    """A ChEMU 2020 label -> a role."""

    name: str
    comment: str
    label: str
    role: Role
    label_rules: frozenset[str] = frozenset()
    names: frozenset[str] = frozenset()
    unless_amount: frozenset[str] = frozenset()  # not when the text gives one of these
    needs_amount: frozenset[str] = frozenset()  # only when the text gives one of these


@dataclass(frozen=True)
class ClassRule:
    """A dictionary class changes a role in ``from_roles`` to ``role``."""

    name: str
    comment: str
    classes: frozenset[str]
    role: Role
    from_roles: frozenset[str] = frozenset()
    unless_amount: frozenset[str] = frozenset()  # not when the text gives one of these
    carbon: bool | None = None  # a reactant that gives no carbon (a ChEMU reagent): False


@dataclass(frozen=True)
class StructureRule:
    """The structure tier of the reactant-or-reagent decision (:mod:`chemie.reactions.decision`):
    a species whose text role is in ``from_roles`` and whose atom accounting ``gives`` atoms
    by that step (or ``nothing``) takes ``role``."""

    name: str
    comment: str
    gives: Literal["whole_fragment", "donated_atom", "common_substructure", "nothing"]
    role: Role
    from_roles: frozenset[str] = frozenset()
    min_fraction: float = 0.0  # of the atoms its giving fragments offer
    needs_sound: bool = False  # only when every reactant and reagent has a structure


@dataclass(frozen=True)
class AccountingParams:
    """How the atom accounting of a reaction runs (:mod:`chemie.reactions.accounting`)."""

    min_atoms: int = 2  # of a common substructure
    mcs_timeout: float = 1.0  # seconds, each MCS search
    budget: float = 5.0  # seconds, the whole accounting of one reaction


@dataclass(frozen=True)
class AfterReactionRule:
    """Inputs labelled by fallback rules after the reaction has run take no part."""

    name: str
    comment: str
    label_rules: frozenset[str]
    min_hours: float
    long_words: str


@dataclass(frozen=True)
class NamedRule:
    """A rule written in code, named and explained in the table."""

    name: str
    comment: str


@dataclass(frozen=True)
class PatternRule:
    """A named regular expression."""

    name: str
    comment: str
    pattern: str


@dataclass(frozen=True)
class ImpliedRule:
    """A species the text implies without naming it as a compound of the reaction
    (``implied``, :mod:`chemie.reactions.implied`): ``kind`` says where the evidence is;
    ``convention``: the USPTO convention it follows and where the data shows it."""

    name: str
    comment: str
    convention: str
    kind: Literal["phrase", "adjective", "salt_acid"]
    role: Role
    pattern: str = ""  # phrase, adjective: searched in the reaction's text
    species: str = ""  # phrase, adjective: a name of the compound dictionary
    words: dict[str, str] = field(default_factory=dict)  # adjective: word -> dictionary name
    classes: frozenset[str] = frozenset()  # adjective: dictionary classes of what it qualifies
    acids: tuple[str, ...] = ()  # salt_acid: dictionary names of the acids of product salts


@dataclass(frozen=True)
class ReactionTable:
    """``rules/reactions.yaml``."""

    units: dict[str, dict[str, str]]
    labels: tuple[LabelRule, ...]
    classes: tuple[ClassRule, ...]
    structure: tuple[StructureRule, ...]
    accounting: AccountingParams
    spectator_ions: NamedRule
    same_as_reactant: NamedRule
    heading_rules: frozenset[str]  # chemie_roles rules that label the heading's compound
    products: tuple[NamedRule, ...]
    names: tuple[NamedRule, ...]
    after_reaction: AfterReactionRule
    reagent_names: PatternRule
    title_salt: PatternRule
    atmosphere: PatternRule
    pressure: PatternRule
    time_words: PatternRule
    implied: tuple[ImpliedRule, ...] = ()
    # compiled patterns and lookups, made once
    compiled: dict[str, Any] = field(default_factory=dict, compare=False)

    def rule_names(self) -> list[str]:
        """Every rule of the table, in order."""
        return [r.name for r in (*self.labels, self.reagent_names, self.title_salt, *self.classes,
                                 *self.structure, self.spectator_ions, self.same_as_reactant,
                                 self.after_reaction, *self.products,
                                 *self.names, self.atmosphere, self.pressure, self.time_words,
                                 *self.implied)]


@shipped_cache
def reaction_table(name: str | Path = TABLE) -> ReactionTable:
    """The checked table (see :func:`check_table`) ``rules/<name>`` (cached) or the table file
    at the path ``name`` (read each time: :func:`chemie.tables.shipped_cache`)."""
    return check_table(load_table(name, ReactionTable), name)


def roles_rule_references(table: ReactionTable) -> list[tuple[str, str]]:
    """``(key, name)`` of every ``chemie_roles`` rule name the table refers to."""
    out = [(f"labels.{i}.label_rules", n) for i, r in enumerate(table.labels)
           for n in sorted(r.label_rules)]
    out += [("after_reaction.label_rules", n) for n in sorted(table.after_reaction.label_rules)]
    return out + [("heading_rules", n) for n in sorted(table.heading_rules)]


def check_table(table: ReactionTable, name: str) -> ReactionTable:
    """``table`` checked (its patterns compiled into ``table.compiled``): units name known
    measures, ``products`` and ``names`` name the rules written in code (:data:`RULES`) and
    only them, patterns compile, and every rule name of ``chemie_roles`` it refers to is a
    rule of ``rules/roles.yaml``."""
    known = set(role_table(ROLES_TABLE).rule_names())
    for key, rule in roles_rule_references(table):
        if rule not in known:
            raise TableError(name, key, f"unknown roles rule {rule}{suggest(rule, known)}")
    for measure in table.units:
        if measure not in MEASURES:
            raise TableError(name, f"units.{measure}", f"unknown measure (known: "
                             f"{', '.join(MEASURES)})")
    RULES.check([r.name for key in ("products", "names") for r in getattr(table, key)], name,
                key="products, names", every_function=True)
    for key in ("reagent_names", "title_salt", "atmosphere", "pressure", "time_words",
                "after_reaction"):
        rule = getattr(table, key)
        try:
            table.compiled[key] = regex.compile(getattr(rule, "pattern", None)
                                                or rule.long_words)
        except regex.error as e:
            field = "long_words" if key == "after_reaction" else "pattern"
            raise TableError(name, f"{key}.{field}", f"does not compile: {e}") from None
    for rule in table.implied:
        _check_implied(rule, name)
        try:
            table.compiled[f"implied.{rule.name}"] = regex.compile(rule.pattern)
        except regex.error as e:
            raise TableError(name, f"implied.{rule.name}.pattern",
                             f"does not compile: {e}") from None
    return table


# the keys each kind of implied rule needs
_IMPLIED_NEEDS = {"phrase": ("pattern", "species"), "adjective": ("pattern", "classes"),
                  "salt_acid": ("acids",)}


def _check_implied(rule: ImpliedRule, name: str | Path) -> None:
    """An implied rule has the keys of its kind (an adjective rule: ``species`` or
    ``words``)."""
    for key in _IMPLIED_NEEDS[rule.kind]:
        if not getattr(rule, key):
            raise TableError(name, f"implied.{rule.name}.{key}", f"a {rule.kind} rule needs it")
    if rule.kind == "adjective" and not (rule.species or rule.words):
        raise TableError(name, f"implied.{rule.name}.species", "give species or words")
