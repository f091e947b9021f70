"""USPTO roles of the candidates by text (``rules/reactions.yaml``: ``labels``,
``reagent_names``, ``classes``).

Reactants contribute atoms to a product; reagents (with catalysts and solvents) are the rest
of what is added. :func:`text_roles` gives each candidate the role of its ChEMU 2020 label
(``labels``) and lets the compound dictionary's class change it (``classes``); the structure
rules (:mod:`chemie.reactions.structure_roles`, RDKit) may then move it. Every candidate's
``rule`` names the last rule that decided its role. Nothing here imports RDKit.
"""

from __future__ import annotations

from chemie.reactions.assemble import Candidate
from chemie.reactions.table import LabelRule, ReactionTable


def text_roles(found: list[Candidate], table: ReactionTable) -> None:
    """Roles by label, then by name, then by dictionary class (in place)."""
    names = table.compiled["reagent_names"]
    for c in found:
        rule = next((r for r in table.labels if _label_fires(r, c)), None)
        c.role, c.rule = (rule.role, rule.name) if rule is not None else ("none", "no_label")
        if c.role in ("reactant", "solvent") and names.search(c.name):
            c.role, c.rule = "reagent", table.reagent_names.name
        if c.cls is None:
            continue
        for r in table.classes:
            if c.cls in r.classes and c.role in r.from_roles and not any(
                    getattr(c.amount, m) is not None for m in r.unless_amount):
                c.role, c.rule = r.role, r.name
                break


def _label_fires(rule: LabelRule, c: Candidate) -> bool:
    return rule.label == c.label and (not rule.label_rules or c.label_rule in rule.label_rules) \
        and (not rule.names or " ".join(c.name.lower().split()) in rule.names) \
        and not any(getattr(c.amount, m) is not None for m in rule.unless_amount) \
        and (not rule.needs_amount
             or any(getattr(c.amount, m) is not None for m in rule.needs_amount))
