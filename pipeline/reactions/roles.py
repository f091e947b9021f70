"""USPTO roles of the candidates by text: the text tier of the reactant-or-reagent decision
(:func:`chemie.reactions.decision.text_decision`; ``rules/reactions.yaml``: ``labels``,
``reagent_names``, ``classes``).

Reactants contribute atoms to a product; reagents (with catalysts and solvents) are the rest
of what is added. :func:`text_roles` gives each candidate its text-tier role; when structures
are resolved, the structure tier (:mod:`chemie.reactions.structure_roles`, RDKit) then
decides reactant or reagent from the atoms each species gives. Every candidate's ``rule``
names the last rule that decided its role. Nothing here imports RDKit.
"""

from __future__ import annotations

import dataclasses

from chemie.model.reaction import Amount
from chemie.reactions.assemble import Candidate
from chemie.reactions.decision import Decision, text_decision
from chemie.reactions.table import ReactionTable

MEASURES = tuple(f.name for f in dataclasses.fields(Amount))


def measures(amount: Amount) -> frozenset[str]:
    """The measures an amount gives (``mass``, ``moles`` …)."""
    return frozenset(m for m in MEASURES if getattr(amount, m) is not None)


def text_roles(found: list[Candidate], table: ReactionTable) -> list[tuple[Candidate, Decision]]:
    """The text tier's role of each candidate (in place); the decisions taken."""
    out = []
    for c in found:
        d = text_decision(c.label, c.label_rule, c.name, c.cls, measures(c.amount), table)
        c.role, c.rule = d.role, d.rule
        out.append((c, d))
    return out
