"""The reactant-or-reagent stage: the role of a compound of the reaction that no compound
rule labelled (``reactant_or_reagent`` of ``rules/roles.yaml``, in order: the training
lexicon, known reagents, names and formulas of reagents, known solvents, else a starting
material).

It is one object with one call, so that another decision can take its place or wrap it:
``RoleLabeller.stage`` is any :class:`ReactantOrReagentStage`. The component's stage is its
own rules' answer passed through a :data:`StageDecision` it is given by its factory's
``decision`` config (a function of spaCy's ``misc`` registry): the text tier of the decision
the reaction records share, ``chemie.text_tier.v1`` (registered by
``chemie.reactions.decision``, which the roles do not import: the decision reads the
reactions table, a layer above them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from chemie.roles.context import RoleContext
from chemie.roles.features import Compound
from chemie.roles.rules import Decision, RuleBook
from chemie.roles.table import RoleTable


class ReactantOrReagentStage(Protocol):
    """What labels a compound of the reaction that no compound rule labelled."""

    def __call__(self, c: RoleContext, x: Compound, /) -> Decision | None:
        """The label and rule name for ``x`` (None: no answer)."""


# a decision over the roles' own stage: their stage in, the stage the component asks out
StageDecision = Callable[[ReactantOrReagentStage], ReactantOrReagentStage]


class ReactantOrReagent:
    """STARTING_MATERIAL, REAGENT_CATALYST (or SOLVENT, for a known solvent no reagent rule
    claims) for a compound of the reaction, by the rules of the table's stage."""

    def __init__(self, table: RoleTable):
        self.book = RuleBook(table.reactant_or_reagent)

    def __call__(self, c: RoleContext, x: Compound) -> Decision | None:
        """The label and rule of the first stage rule that holds for ``x`` (None: none)."""
        return self.book.decide(c, x)
