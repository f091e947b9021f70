"""The mention table ``rules/mentions.yaml``: its schema (read by :func:`chemie.tables.load_table`,
which rejects unknown, missing and mistyped keys) and the checked, compiled form the component
uses (:class:`MentionTables`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from chemie.tables import TableError, load_table, shipped_cache

TABLE = "mentions.yaml"
Words = tuple[str, ...]


@dataclass(frozen=True)
class Letter:
    """One entry of the class alphabet: the letter a token gets when the entry holds."""

    letter: str
    comment: str
    tokens: Words = ()  # exact texts
    words: Words = ()  # lowercased texts
    lists: Words = ()  # word lists of the table (lowercased texts)
    hyphen_tail: bool = False  # the lists also hold for the part after the last hyphen
    shapes: Words = ()  # shapes (token regexes) of the table
    test: Literal["", "space", "one_letter", "lowercase_word", "fused_bracket", "anything"] = ""
    context: bool = False  # a letter only the context re-lettering gives


@dataclass(frozen=True)
class Step:
    """A named step with word lists: a context re-lettering step or a filter."""

    name: str
    comment: str
    words: dict[str, Words] = field(default_factory=dict)


@dataclass(frozen=True)
class Fragment:
    """A named sub-pattern of the grammar (as a token of OPSIN's ``regexTokens.xml``): a regex
    over the class string in which ``{NAME}`` stands for the fragment NAME."""

    name: str
    comment: str  # one line: what it matches, with an example
    pattern: str


@dataclass(frozen=True)
class Rule:
    """A mention rule: its name is the ``rule`` of the mentions it makes."""

    name: str
    comment: str
    confidence: float
    group: str = ""  # the group of the mention pattern that makes it (a checked branch)
    fallback: str = ""  # the variant of the pattern to match again with when the check fails
    fragments: tuple[Fragment, ...] = ()  # grammar fragments it owns
    words: dict[str, Words] = field(default_factory=dict)
    patterns: dict[str, str] = field(default_factory=dict)  # regexes over words


@dataclass(frozen=True)
class Pass:
    """A post-pass: the function registered under ``name``, run in table order."""

    name: str
    gives: Words = ()  # the rules it gives when it is not itself a rule or filter
    when_words: Words = ()  # it runs only on docs with one of these (lowercased) words
    when_classes: Words = ()  # ... or with one of these runs of classes


@dataclass(frozen=True)
class CoreRule:
    """The rule of a core match when ``when`` holds (a group of the pattern or a condition)."""

    rule: str
    when: str


@dataclass(frozen=True)
class Grammar:
    """Regex fragments over the class string, the mention pattern and its variants, and how a
    match gets its rule and kind."""

    fragments: tuple[Fragment, ...]
    mention: str
    variants: dict[str, dict[str, str]]
    checks: Words  # the rules whose group is checked after each match, in this order
    core_rules: tuple[CoreRule, ...]
    head_kinds: dict[str, str]  # the class of a head -> the mention kind (else "chemical")
    kind_rules: dict[str, str]  # the kind of a plain noun phrase -> its rule


@dataclass(frozen=True)
class MentionTable:
    """``rules/mentions.yaml`` as written."""

    determiners: Words
    generic_heads: Words
    reference_heads: Words
    equipment_heads: Words
    chemical_words: Words
    modifiers: Words
    stop_words: Words
    units: Words
    heading_words: Words
    state_heads: Words
    solution_heads: Words
    descriptor_words: Words
    shapes: dict[str, str]
    alphabet: tuple[Letter, ...]
    context: tuple[Step, ...]
    grammar: Grammar
    rules: tuple[Rule, ...]
    filters: tuple[Step, ...]
    passes: tuple[Pass, ...]


# the word lists of the table (matched on lowercased text)
LISTS = (
    "determiners", "generic_heads", "reference_heads", "equipment_heads", "chemical_words",
    "modifiers", "stop_words", "units", "heading_words", "state_heads", "solution_heads",
    "descriptor_words",
)


class Keyed(dict):
    """A dict of the table whose missing key is a table error (``FILE: path.key: missing
    key``) instead of a KeyError (lookups of present keys stay dict lookups)."""

    def __init__(self, table: str, path: str, items: Mapping):
        super().__init__(items)
        self.table = table
        self.path = path

    def __missing__(self, key: str):
        raise TableError(self.table, f"{self.path}.{key}" if self.path else key, "missing key")


@dataclass(frozen=True, eq=False)
class MentionTables:
    """The checked, compiled mention table: lowercased word lists as sets, compiled shapes and
    word patterns, each rule's, filter's and context step's words by name."""

    name: str
    table: MentionTable
    lists: Keyed  # list name -> lowercased words
    shapes: Keyed  # shape name -> compiled token regex
    confidence: dict[str, float]  # rule name -> mention confidence
    words: Keyed  # rule, filter or context step -> key -> words
    patterns: Keyed  # rule -> key -> compiled regex over words

    @classmethod
    def load(cls, name: str | Path = TABLE) -> MentionTables:
        """The table ``rules/<name>`` (cached), or the table file at the path ``name`` (read
        each time: :func:`chemie.tables.shipped_cache`)."""
        return _load(name)

    @classmethod
    def build(cls, name: str, table: MentionTable) -> MentionTables:
        """The checked, compiled form of ``table`` (parsed from ``rules/<name>``)."""
        _check(name, table)
        owners: list[Rule | Step] = [*table.rules, *table.filters, *table.context]
        return cls(
            name,
            table,
            Keyed(name, "", {key: frozenset(w.lower() for w in getattr(table, key))
                             for key in LISTS}),
            Keyed(name, "shapes", {
                key: _compile(name, f"shapes.{key}", p) for key, p in table.shapes.items()
            }),
            {r.name: r.confidence for r in table.rules},
            Keyed(name, "", {
                o.name: Keyed(
                    name, f"{o.name}.words", {k: frozenset(v) for k, v in o.words.items()}
                )
                for o in owners
            }),
            Keyed(name, "", {
                r.name: Keyed(name, f"{r.name}.patterns", {
                    k: _compile(name, f"{r.name}.patterns.{k}", p) for k, p in r.patterns.items()
                })
                for r in table.rules
            }),
        )


@shipped_cache
def _load(name: str | Path) -> MentionTables:
    return MentionTables.build(str(name), load_table(name, MentionTable))


def _compile(table: str, path: str, pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as e:
        raise TableError(table, path, f"bad regular expression: {e}") from None


def _check(name: str, t: MentionTable) -> None:
    """Cross-references the schema cannot check: letters, lists, shapes, names, passes."""
    for i, e in enumerate(t.alphabet):
        where = f"alphabet.{i}"
        if len(e.letter) != 1:
            raise TableError(name, f"{where}.letter", f"{e.letter!r} is not one character")
        _known(name, f"{where}.lists", e.lists, LISTS)
        _known(name, f"{where}.shapes", e.shapes, t.shapes)
    _unique(name, "rules", (r.name for r in t.rules))
    _unique(name, "filters", (f.name for f in t.filters))
    _unique(name, "context", (c.name for c in t.context))
    for i, r in enumerate(t.rules):
        if r.fallback and r.fallback not in t.grammar.variants:
            raise TableError(name, f"rules.{i}.fallback", f"no variant {r.fallback!r}")
        if bool(r.group) != bool(r.fallback):
            raise TableError(name, f"rules.{i}", "group and fallback go together")
    names = {r.name for r in t.rules}
    for i, c in enumerate(t.grammar.core_rules):
        _known(name, f"grammar.core_rules.{i}.rule", [c.rule], names)
    _known(name, "grammar.kind_rules", t.grammar.kind_rules.values(), names)
    kinds = {*t.grammar.head_kinds.values(), "chemical", "state"}
    _known(name, "grammar.kind_rules (a rule for each kind)", kinds, t.grammar.kind_rules)
    grouped = {r.name for r in t.rules if r.group}
    _known(name, "grammar.checks", t.grammar.checks, grouped)
    _known(name, "rules (with a group)", grouped, t.grammar.checks)
    known = {r.name for r in t.rules} | {f.name for f in t.filters}
    for i, p in enumerate(t.passes):
        if not p.gives and p.name not in known:
            raise TableError(name, f"passes.{i}.name", f"{p.name!r} is no rule or filter")
        _known(name, f"passes.{i}.gives", p.gives, known)


def _known(name: str, path: str, names: Iterable[str], known: Iterable[str] | Mapping) -> None:
    known = set(known)
    for n in names:
        if n not in known:
            raise TableError(name, path, f"unknown name {n!r}")


def _unique(name: str, path: str, names: Iterable[str]) -> None:
    seen: set[str] = set()
    for n in names:
        if n in seen:
            raise TableError(name, path, f"{n!r} is listed twice")
        seen.add(n)
