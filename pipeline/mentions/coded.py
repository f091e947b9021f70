"""The mention rules that have code, on the one rule registry
(``chemie.registry.stage_rules("mentions")``), each under the name of its entry in
``rules/mentions.yaml``:

- a post-pass (``passes.py``, ``@post_pass("name")``), listed in the table's ``passes``;
- the check of a rule made by a group of the mention pattern (``groups.py``,
  ``@group_rule("name")``), listed in the table's ``grammar.checks``.

:func:`check_coded` holds the table and the code to each other: every entry has its code of
the right kind, and every registered rule an entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from chemie.mentions.table import MentionTables
from chemie.registry import StageRules, stage_rules
from chemie.tables import TableError

Kind = Literal["pass", "group"]


@dataclass(frozen=True)
class Coded:
    """The code of a mention rule: ``code`` is a post-pass function (``kind`` "pass") or a
    :class:`~chemie.mentions.groups.GroupRule` subclass (``kind`` "group")."""

    kind: Kind
    code: object


RULES: StageRules[Coded] = stage_rules("mentions")


def check_coded(tables: MentionTables) -> None:
    """Raise :class:`TableError` unless every pass and check of ``tables`` is registered with
    code of its kind and every registered mention rule is listed in the table."""
    listed: list[tuple[str, Kind, str]] = [
        (p.name, "pass", f"passes.{i}.name") for i, p in enumerate(tables.table.passes)
    ] + [(name, "group", f"grammar.checks.{i}")
         for i, name in enumerate(tables.table.grammar.checks)]
    RULES.check([name for name, _, _ in listed], tables.name, every_function=True)
    for name, kind, where in listed:
        if RULES[name].kind != kind:
            raise TableError(tables.name, where, f"{name!r} is coded as a {RULES[name].kind} "
                             f"rule, not a {kind} rule")
