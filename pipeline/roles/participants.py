"""The reactant-or-reagent stage: the role of a compound of the reaction that no compound
rule labelled (``reactant_or_reagent`` of ``rules/roles.yaml``, in order: the training
lexicon, known reagents, names and formulas of reagents, known solvents, else a starting
material).

It is one object with one call, so that another decision (the structure-based one of the
reaction records) can take its place: ``RoleLabeller.stage`` is any callable
``(context, compound) -> (label, rule name) | None``.
"""

from __future__ import annotations

from chemie.roles.context import RoleContext
from chemie.roles.features import Compound
from chemie.roles.rules import Decision, RuleBook
from chemie.roles.table import RoleTable


class ReactantOrReagent:
    """STARTING_MATERIAL, REAGENT_CATALYST (or SOLVENT, for a known solvent no reagent rule
    claims) for a compound of the reaction, by the rules of the table's stage."""

    def __init__(self, table: RoleTable):
        self.book = RuleBook(table.reactant_or_reagent)

    def __call__(self, c: RoleContext, x: Compound) -> Decision | None:
        """The label and rule of the first stage rule that holds for ``x`` (None: none)."""
        return self.book.decide(c, x)
