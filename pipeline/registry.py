"""The one rule registry: every stage's rule functions, registered under (stage, name).

A rule is a named entry of a table in ``rules/`` plus a function registered here under the
same name, whatever the stage::

    RULES = stage_rules("coref")          # the coref stage's registry (a dict by name)

    @rule("title_compound", ...)          # the stage's decorator calls RULES.add(name, spec)
    def title_compound(...): ...

What a stage keeps per rule (its function, a gate, the anaphor kinds ...) is its own
business; the registry gives every stage the same lookup, the same error for a name
registered twice, and the same check that a table and its functions name the same rules
(:meth:`StageRules.check`). A rule written inline in a larger function, with no function of
its own, is registered as an :class:`InlineRule` (where its code is). ``all_rules()`` lists
every registered rule (tests/test_registry.py checks each stage against its table).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from chemie.tables import TableError

T = TypeVar("T")


class StageRules(dict[str, T]):
    """The rules of one stage by name (a dict, so a lookup is ``RULES[name]``)."""

    def __init__(self, stage: str) -> None:
        super().__init__()
        self.stage = stage

    def add(self, name: str, value: T) -> T:
        """Register ``value`` as the rule ``name``; a name registered twice is an error."""
        if name in self:
            raise ValueError(f"{self.stage} rule {name!r} registered twice")
        self[name] = value
        return value

    def check(self, table_names: Iterable[str], source: str | Path, *, key: str = "rules",
              every_function: bool = False) -> None:
        """Raise :class:`TableError` when an entry of the table ``source`` (under ``key``)
        names no registered function (or, with ``every_function``, a function has no
        entry)."""
        names = list(table_names)
        unknown = sorted(set(names) - set(self))
        if unknown:
            raise TableError(source, key,
                             f"no {self.stage} rule function for {', '.join(unknown)}")
        if every_function:
            unused = sorted(set(self) - set(names))
            if unused:
                raise TableError(source, key, f"{self.stage} rule functions without "
                                 f"an entry: {', '.join(unused)}")


@dataclass(frozen=True)
class InlineRule:
    """A rule written inline in a larger function, not as a function of its own (the
    reactions' products and names, the procedures' code rules): the table's key that holds
    its entry and the module whose code applies it."""

    key: str
    module: str


def inline_rules(stage: StageRules[InlineRule], key: str, module: str, *names: str) -> None:
    """Register the rules ``names`` of ``stage``, written in ``module``, whose entries are
    under ``key`` of the stage's table."""
    for name in names:
        stage.add(name, InlineRule(key, module))


_STAGES: dict[str, StageRules] = {}


def stage_rules(stage: str) -> StageRules:
    """The registry of ``stage`` (made on first use)."""
    return _STAGES.setdefault(stage, StageRules(stage))


def all_rules() -> dict[str, list[str]]:
    """Every registered rule name, by stage (the stages whose modules were imported)."""
    return {stage: sorted(rules) for stage, rules in sorted(_STAGES.items())}
