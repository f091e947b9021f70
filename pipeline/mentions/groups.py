"""The checks of the rules that a group of the mention pattern makes (``rules.*.group``, listed in
``grammar.checks``): one :class:`GroupRule` subclass per rule, registered by rule name with
:func:`group_rule` on the mention stage's registry. When a check fails, the detector matches
again with the rule's ``fallback`` variant of the pattern."""

from __future__ import annotations

import re
from collections.abc import Callable

from chemie.mentions.candidate import DocContext
from chemie.mentions.coded import RULES, Coded
from chemie.mentions.table import MentionTables, Rule


class GroupRule:
    """A rule that a group of the mention pattern makes (``rules.*.group``, listed in
    ``grammar.checks``): whether a match makes it (when not, the detector matches again with the
    rule's ``fallback`` variant of the pattern) and where the name of its mention starts. A
    subclass per rule is registered by rule name with :func:`group_rule`."""

    def __init__(self, tables: MentionTables, rule: Rule):
        self.name, self.group, self.fallback = rule.name, rule.group, rule.fallback

    def accepts(self, x: DocContext, m: re.Match) -> bool:
        """Does the match ``m``, whose group matched, make the rule?"""
        return True

    def core_start(self, x: DocContext, m: re.Match, c0: int, c1: int) -> int:
        """The first token of the name in the core ``c0:c1`` of a match that makes the rule."""
        return c0


def group_rule(name: str) -> Callable[[type[GroupRule]], type[GroupRule]]:
    """Register a :class:`GroupRule` subclass as the rule ``name`` (on the mention stage's
    registry, :data:`chemie.mentions.coded.RULES`)."""
    def register(cls: type[GroupRule]) -> type[GroupRule]:
        RULES.add(name, Coded("group", cls))
        return cls
    return register


@group_rule("eluent_ratio")
class EluentRatio(GroupRule):
    """``eluent_ratio``: two solvents with a numeric ratio ("DCM / MeOH = 20 / 1", "hexane /
    EtOAc ( 4 : 1 )"; not "pH = 8"). Its fragments, word pattern and fallback variant are in its
    entry of the table."""

    def __init__(self, tables: MentionTables, rule: Rule):
        super().__init__(tables, rule)
        self.numeric = tables.patterns[rule.name]["numeric"]

    def accepts(self, x: DocContext, m: re.Match) -> bool:
        """Two solvent-like parts ("DCM / MeOH", "EtOAc : hexane", "a mixture of DCM and
        hexane") and a numeric ratio ("20 / 1", "4 : 1", "from 0% to 80%")."""
        c0, c1 = m.span("core")
        parts = re.split(r"[/:&]" if m.group("mix") else r"[/:]", x.cs[c0:c1])
        if sum(1 for p in parts if any(ch in "CbX" for ch in p)) < 2:
            return False
        # the core may end with the ratio's first number: "hexane / EtOAc 4 : 1"
        return self.numeric.search(" ".join(x.words[c1 - 1 : m.end("ratio")])) is not None

    def core_start(self, x: DocContext, m: re.Match, c0: int, c1: int) -> int:
        """"eluent : hexane / EtOAc 10 : 1", "mobile phase hexane / EtOAc 5 : 1": the eluent is
        the ratio, not the words that announce it."""
        cs = x.cs
        if cs[c0] not in "GW":
            return c0
        k = c0
        while k < c1 and cs[k] in "GW":
            k += 1
        k += cs[k] == ":"
        return k if k < c1 and cs[k] in "Cb" else c0


@group_rule("mixture_of_components")
class MixtureOfComponents(GroupRule):
    """``mixture_of_components``: a mixture (solution, solvent) of two components ("a mixture of
    THF and toluene ( 4 mL / 6 mL )")."""

    def __init__(self, tables: MentionTables, rule: Rule):
        super().__init__(tables, rule)
        self.heads = tables.words[rule.name]["heads"]

    def accepts(self, x: DocContext, m: re.Match) -> bool:
        """Only a mixture head before "of" joins two components (not "a period of X and Y")."""
        return x.low[x.cs.rfind("O", 0, m.start("mix")) - 1] in self.heads
