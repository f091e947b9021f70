"""The reactant-or-reagent decision (issue 18): one answer for the reaction records of
``chemie_reactions`` and the ChEMU 2020 labels of ``chemie_roles``.

A species added to a reaction is a reactant when some of its atoms are in the product, a
reagent (or catalyst, solvent) when none are. It is decided in two tiers:

* **text** (:func:`text_decision`; ``rules/reactions.yaml``: ``labels``, ``reagent_names``,
  ``classes``): the role of the span's ChEMU 2020 label, which a name pattern or the compound
  dictionary's class may change. Needs no structure: what ``chemie_roles`` can know, and
  what decides a species when it or the product has no structure (structures off, a name
  OPSIN and the dictionary cannot resolve).
* **structure** (:func:`structure_decision`; ``structure``): when the species and the
  product have structures, the atom accounting of the reaction
  (:mod:`chemie.reactions.accounting`) decides between reactant and reagent, whatever the
  text tier said of the two: a species that gives atoms is a reactant, one the text calls a
  reactant that gives none is a reagent. The text tier still decides what structure cannot:
  a catalyst, a solvent or a reagent that gives no atoms keeps its text role.

Two conventions read one decision:

* USPTO (reaction records, :attr:`Decision.role`): a reactant gives any heavy atom.
* ChEMU 2020 (:func:`chemu_label`): its guidelines call STARTING_MATERIAL a compound that
  gives carbon atoms to an organic product (any atoms to an inorganic one) and
  REAGENT_CATALYST one that gives only other atoms (the Br of NBS, the O of an oxidant, the
  chloride of a hydrochloride). A USPTO reactant that gives no carbon is therefore a ChEMU
  reagent (:attr:`Decision.carbon` False); otherwise the two agree.

``chemie_roles`` asks the question before any structure is known: its reactant-or-reagent
stage (``RoleLabeller.stage``) is :class:`TextTier` over its own rules (the roles do not
import this module: their factory's ``decision`` config names :func:`text_tier`, registered
in spaCy's ``misc`` registry as ``chemie.text_tier.v1`` and found through setup.cfg's
``spacy_misc`` entry point). :class:`TextTier` gives the label of the roles' own rules (the
training lexicon, known reagents, names and formulas of reagents) to the text tier and
labels the compound by the answer, so that the ChEMU 2020 labels of a pipeline without
structures and the records' roles are one decision; with structures, ``chemie_reactions``
relabels what the structure tier decided (:mod:`chemie.reactions.labels`).

Nothing here imports RDKit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from spacy.util import registry

from chemie.reactions.table import reaction_table
from chemie.structures.dictionary import compounds

if TYPE_CHECKING:
    from chemie.reactions.accounting import Given
    from chemie.reactions.table import LabelRule, ReactionTable, StructureRule
    from chemie.roles.context import RoleContext
    from chemie.roles.features import Compound
    from chemie.roles.participants import ReactantOrReagentStage

TEXT, STRUCTURE = "text", "structure"
# the roles whose reactant-or-reagent question the structure tier answers
ACCOUNTED = ("reactant", "reagent", "solvent")
STARTING_MATERIAL, REAGENT_CATALYST = "STARTING_MATERIAL", "REAGENT_CATALYST"
# the ChEMU 2020 label of each role that is not the reactant-or-reagent question's
CHEMU_LABELS = {"reagent": REAGENT_CATALYST, "catalyst": REAGENT_CATALYST,
                "solvent": "SOLVENT", "product": "REACTION_PRODUCT", "none": "OTHER_COMPOUND"}


@dataclass(frozen=True)
class Decision:
    """The role of one species (USPTO: ``product``, ``reactant``, ``reagent``,
    ``catalyst``, ``solvent`` or ``none``), the rule that gave it and its tier (``text`` or
    ``structure``); ``carbon``: whether what a reactant gives counts for a ChEMU starting
    material (carbon atoms, or any atoms of an inorganic product), None when unknown (the
    text tier of a label)."""

    role: str
    rule: str
    tier: str = TEXT
    carbon: bool | None = None


def chemu_label(d: Decision) -> str:
    """The ChEMU 2020 label of a decision (see the module docstring)."""
    if d.role == "reactant":
        return REAGENT_CATALYST if d.carbon is False else STARTING_MATERIAL
    return CHEMU_LABELS[d.role]


def text_decision(label: str, label_rule: str, name: str, cls: str | None,
                  measures: frozenset[str], table: ReactionTable) -> Decision:
    """The text tier: the role of the span's ChEMU 2020 ``label`` (``labels``; the
    ``chemie_roles`` rule ``label_rule`` that gave it), then a reagent's name pattern
    (``reagent_names``), then the dictionary class ``cls`` (``classes``); ``measures``: the
    amounts the text gives (``mass``, ``moles`` …)."""
    rule = next((r for r in table.labels if _label_fires(r, label, label_rule, name, measures)),
                None)
    d = Decision(rule.role, rule.name) if rule is not None else Decision("none", "no_label")
    if d.role in ("reactant", "solvent") and table.compiled["reagent_names"].search(name):
        d = Decision("reagent", table.reagent_names.name)
    if cls is None:
        return d
    for r in table.classes:
        if cls in r.classes and d.role in r.from_roles and not r.unless_amount & measures:
            return Decision(r.role, r.name, carbon=r.carbon)
    return d


def _label_fires(rule: LabelRule, label: str, label_rule: str, name: str,
                 measures: frozenset[str]) -> bool:
    return rule.label == label and (not rule.label_rules or label_rule in rule.label_rules) \
        and (not rule.names or " ".join(name.lower().split()) in rule.names) \
        and not rule.unless_amount & measures \
        and (not rule.needs_amount or bool(rule.needs_amount & measures))


@dataclass(frozen=True)
class Evidence:
    """What the atom accounting of one reaction says of one species: what it gives
    (``given``), whether the product is organic (has carbon) and whether the accounting is
    ``sound``: every input the text calls a reactant or reagent has a structure, and every
    heavy atom of the product is explained (otherwise an unresolved input, a species the
    text did not name or a wrong structure is at work, and a piece a weak species gives may
    be a coincidence)."""

    given: Given
    organic: bool
    sound: bool


def structure_decision(prior: Decision, evidence: Evidence,
                       table: ReactionTable) -> Decision:
    """The structure tier over the text tier's ``prior`` (a role of :data:`ACCOUNTED`): the
    first rule of ``structure`` that fires, else ``prior``. What a reactant gives counts for
    a ChEMU starting material (:attr:`Decision.carbon`) by the steps of the rules that fire
    for it, not by a piece the accounting gave it that no rule accepts."""
    if prior.role not in ACCOUNTED:
        return prior
    fired = [r for r in table.structure if _structure_fires(r, prior, evidence)]
    if not fired:
        return prior
    rule = fired[0]
    if rule.role != "reactant":
        return Decision(rule.role, rule.name, STRUCTURE)
    steps = {r.gives for r in fired if r.role == "reactant"}
    given = evidence.given
    carbon = given.count(steps, "C") > 0 if evidence.organic else given.count(steps) > 0
    return Decision(rule.role, rule.name, STRUCTURE, carbon)


def _structure_fires(rule: StructureRule, prior: Decision, evidence: Evidence) -> bool:
    given = evidence.given
    if prior.role not in rule.from_roles:
        return False
    if rule.gives == "nothing":
        return given.atoms == 0 and not given.could
    if rule.gives not in given.steps:
        return False
    if rule.needs_sound and not evidence.sound:
        return False
    return given.count({rule.gives}) >= rule.min_fraction * given.offered


REAGENT_BY_CLASS = "reagent_by_class"  # its rule in rules/roles.yaml (builtin)
_ANSWERS_KEPT = 100_000  # answers TextTier remembers before it starts afresh


class TextTier:
    """The reactant-or-reagent stage of ``chemie_roles`` through the text tier: the label
    ``stage`` gives a compound (its own rules) is the text tier's ``label`` input, with the
    compound dictionary's class of its name; a STARTING_MATERIAL that the text tier makes a
    reagent or catalyst (a dictionary base, coupling agent, reductant, drying agent or
    catalyst, a coupling agent's name) is a REAGENT_CATALYST of rule ``reagent_by_class``.
    Any other answer of the stage stands (the text tier answers only the reactant-or-reagent
    question here: a solvent or a material is the stage's to say)."""

    def __init__(self, stage: ReactantOrReagentStage, table: ReactionTable | None = None):
        self.stage = stage
        self.table = table if table is not None else reaction_table()
        self.dictionary = compounds()
        # (the stage's rule, the name as written) -> the answer: names recur across texts
        self._answers: dict[tuple[str, str], tuple[str, str]] = {}

    def __call__(self, c: RoleContext, x: Compound) -> tuple[str, str] | None:
        out = self.stage(c, x)
        if out is None or out[0] != STARTING_MATERIAL:
            return out
        key = (out[1], x.raw)
        answer = self._answers.get(key)
        if answer is None:
            if len(self._answers) >= _ANSWERS_KEPT:
                self._answers.clear()
            entry = self.dictionary.lookup(x.raw)
            d = text_decision(out[0], out[1], x.raw, entry.cls if entry is not None else None,
                              frozenset(), self.table)
            answer = self._answers[key] = (
                (REAGENT_CATALYST, REAGENT_BY_CLASS) if chemu_label(d) == REAGENT_CATALYST
                else out)
        return answer


@registry.misc("chemie.text_tier.v1")
def text_tier() -> type[TextTier]:
    """The decision of ``chemie_roles``' ``decision`` config: :class:`TextTier` over the
    roles' own reactant-or-reagent stage (a :data:`chemie.roles.participants.StageDecision`)."""
    return TextTier
