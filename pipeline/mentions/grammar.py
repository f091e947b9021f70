"""The grammar: the regex fragments of the table (``grammar.fragments`` and each rule's
``fragments``), with ``{NAME}`` placeholders expanded, compiled once per table: the mention
pattern in its variants and the fragments the post-passes match with."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from chemie.mentions.table import MentionTables
from chemie.tables import TableError

# {NAME}: a placeholder (regex quantifiers such as {1,3} are no names)
PLACEHOLDER = re.compile(r"\{([A-Z][A-Z0-9_]*)\}")


class Grammar:
    """The compiled grammar of a mention table."""

    def __init__(self, tables: MentionTables):
        self.table = tables.name
        g = tables.table.grammar
        self.fragments: dict[str, str] = dict(g.fragments)
        self.owner = dict.fromkeys(g.fragments, "grammar.fragments")
        for i, rule in enumerate(tables.table.rules):
            for name, text in rule.fragments.items():
                if name in self.fragments:
                    raise TableError(
                        self.table, f"rules.{i}.fragments.{name}",
                        f"also defined in {self.owner[name]}",
                    )
                self.fragments[name] = text
                self.owner[name] = f"rules.{i}.fragments"
        self.template = g.mention
        self.variants = g.variants
        for name, overrides in self.variants.items():
            for key in overrides:
                if key not in self.fragments:
                    raise TableError(
                        self.table, f"grammar.variants.{name}.{key}", "no such fragment"
                    )
        self._patterns: dict[frozenset[str], re.Pattern[str]] = {}
        # fragment name -> compiled (the post-passes match with fragments of their rules)
        self.fragment: dict[str, re.Pattern[str]] = _Compiled(self)
        self.mention()  # the default pattern is compiled (and checked) when the table loads

    def expand(self, text: str, variants: Iterable[str] = (), where: str = "") -> str:
        """``text`` with every ``{NAME}`` replaced by its fragment (expanded in turn), the
        fragments of ``variants`` replaced first."""
        fragments = dict(self.fragments)
        for v in sorted(variants):
            fragments.update(self.variants[v])
        done: dict[str, str] = {}

        def sub(text: str, path: tuple[str, ...]) -> str:
            def one(m: re.Match[str]) -> str:
                name = m.group(1)
                if name in path:
                    raise TableError(self.table, where, f"{{{name}}} contains itself")
                if name not in fragments:
                    raise TableError(self.table, where, f"no fragment {{{name}}}")
                if name not in done:
                    done[name] = sub(fragments[name], (*path, name))
                return done[name]

            return PLACEHOLDER.sub(one, text)

        return sub(text, ())

    def mention(self, variants: frozenset[str] = frozenset()) -> re.Pattern[str]:
        """The mention pattern with ``variants`` (names of ``grammar.variants``)."""
        pattern = self._patterns.get(variants)
        if pattern is None:
            text = self.expand(self.template, variants, "grammar.mention")
            pattern = self._patterns[variants] = _compile(self.table, "grammar.mention", text)
        return pattern



class _Compiled(dict):
    """Fragment name -> the fragment expanded and compiled (on first use)."""

    def __init__(self, grammar: Grammar):
        super().__init__()
        self.grammar = grammar

    def __missing__(self, name: str) -> re.Pattern[str]:
        g = self.grammar
        if name not in g.fragments:
            raise TableError(g.table, "grammar", f"no fragment {{{name}}}")
        where = f"{g.owner[name]}.{name}"
        pattern = self[name] = _compile(g.table, where, g.expand(g.fragments[name], (), where))
        return pattern


def _compile(table: str, where: str, text: str) -> re.Pattern[str]:
    try:
        return re.compile(text)
    except re.error as e:
        raise TableError(table, where, f"bad regular expression: {e}") from None


@functools.cache
def grammar_of(tables: MentionTables) -> Grammar:
    """The compiled grammar of ``tables`` (cached)."""
    return Grammar(tables)
