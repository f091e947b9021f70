"""The bridging rules of ``rules/bridging.yaml``, each one function registered here.

A rule is an entry of the table (its name, the label of its links, a comment) and one
function::

    @rule("ra_previous_state", to=(PREVIOUS,), workup=False)
    def ra_previous_state(s: Step, a: MentionView) -> bool:
        return not s.in_workup and bool(s.pending)

The walk (:mod:`chemie.bridging.walk`) decides what a mention is (a state of the reaction
system, an input, a vessel) and when a state or vessel mention ``s.m`` links; then it offers
the rules each antecedent ``a`` that ``s.m`` may link to, with its relation to ``s.m`` (the
``to`` of a rule: :data:`PREVIOUS`, :data:`ADDED` …), if the rule's ``workup`` admits the
phase of ``s.m`` (a work-up output or not). The rule that returns True links ``s.m`` to ``a``
with its label and its name. At most one rule fires on an antecedent
(``tests/test_bridging.py`` tries every rule on every antecedent of the snippets and of
ChEMU-Ref documents), so the order of the table does not matter; the links of ``s.m`` come
in the order of its antecedents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from chemie.actions.views import MentionView
from chemie.bridging.classify import Classifier
from chemie.bridging.state import Context, Walk
from chemie.bridging.table import BridgingTable
from chemie.registry import StageRules, stage_rules
from chemie.tables import load_table

# What an antecedent is to the state (or vessel) mention that links to it
PREVIOUS = "previous"  # the current state of the system (the last mixture, layer, residue)
ADDED = "added"  # a compound that entered the system since that state
PARENT = "parent"  # the state the previous layer was split from (a parallel layer's source)
PARENT_INPUT = "parent_input"  # a compound that state was made with
EARLIER = "earlier"  # the layer the previous layer was split from, else that state
HELD = "held"  # what a vessel holds: the current state and the compounds added since
ROLES = (PREVIOUS, ADDED, PARENT, PARENT_INPUT, EARLIER, HELD)


@dataclass(slots=True)
class Step:
    """A state mention ``m`` (or a vessel) about to be linked: what a rule reads to decide
    whether it links ``m`` to an antecedent (the walk fills it once per such mention)."""

    words: Classifier  # the word lists and the checks on words
    ctx: Context
    walk: Walk
    m: MentionView
    prev: MentionView | None  # the current state of the system (walk.state)
    pending: list[MentionView]  # the compounds that entered the system since ``prev``
    in_workup: bool = False  # ``m`` is a work-up output
    product: bool = False  # ``m`` names a product, not a mixture ("Compound 8 ( 26 mg )")
    quenched: bool = False  # "the reaction was quenched": ``m`` is the quenched mixture
    gas: bool = False  # a gas is pending and every other pending compound came in a work-up
    combined: bool = False  # layers combined after the previous layer was extracted
    earlier: MentionView | None = None  # the layer ``prev`` was split from (or its parent)


Fires = Callable[[Step, MentionView], bool]


@dataclass(frozen=True)
class RuleSpec:
    """A registered rule: its function, the antecedents it may link to, and the phase of the
    mentions it links (True: work-up outputs only, False: none, None: any)."""

    name: str
    fn: Fires
    to: tuple[str, ...]
    workup: bool | None = None

    def admits(self, in_workup: bool) -> bool:
        """Whether the rule may link a mention of this phase."""
        return self.workup is None or self.workup == in_workup


RULES: StageRules[RuleSpec] = stage_rules("bridging")  # name -> its function and roles


def rule(name: str, *, to: tuple[str, ...], workup: bool | None = None
         ) -> Callable[[Fires], Fires]:
    """Register the function of the rule ``name`` of ``rules/bridging.yaml``: it is offered
    the antecedents whose relation to the linking mention is one of ``to``, when that
    mention is a work-up output (``workup=True``), is none (False), or either (None). The
    function tests the phase itself too: ``to`` and ``workup`` only spare the walk calls
    that would return False."""
    unknown = set(to) - set(ROLES)
    if unknown:
        raise ValueError(f"bridging rule {name!r}: no antecedent role {sorted(unknown)}")

    def register(fn: Fires) -> Fires:
        RULES.add(name, RuleSpec(name, fn, to, workup))
        return fn

    return register


def bridging_table(name: str | Path = "bridging.yaml") -> BridgingTable:
    """The bridging rules and word lists of ``rules/<name>`` (read once) or of a table file;
    a rule without a function, or a function without a rule, is a
    :class:`~chemie.tables.TableError`."""
    table = load_table(name, BridgingTable)
    RULES.check(table.rules, name, every_function=True)
    return table


# --- REACTION_ASSOCIATED: a mixture of the reaction phase and what it grew from ---


@rule("ra_previous_state", to=(PREVIOUS,), workup=False)
def ra_previous_state(s: Step, a: MentionView) -> bool:
    """A mixture formed in the reaction phase (compounds were added) links to the previous
    mixture it grew from."""
    return not s.in_workup and bool(s.pending)


@rule("ra_added_compound", to=(ADDED,))
def ra_added_compound(s: Step, a: MentionView) -> bool:
    """A mixture formed in the reaction phase links to each compound added since the previous
    mixture; the first mixture named in a work-up, to what reacted (not what the work-up
    added)."""
    if s.in_workup:
        return s.prev is None and a.id not in s.walk.workup_inputs
    return not s.product


@rule("ra_product_source", to=(ADDED,), workup=False)
def ra_product_source(s: Step, a: MentionView) -> bool:
    """A product obtained without work-up links to the compounds it was made from (not to
    its own name: "Compound 8 ( 26 mg )" after "Compound 8")."""
    return (not s.in_workup and s.product
            and s.m.words[: len(a.words)] != a.words)


@rule("ra_gas_atmosphere", to=(PREVIOUS, ADDED), workup=True)
def ra_gas_atmosphere(s: Step, a: MentionView) -> bool:
    """The first mixture named after a reaction run under a gas ("stirred under a hydrogen
    atmosphere. The mixture was filtered") is its outcome: it links to the previous mixture
    and to the gas (and any compound not added in the work-up)."""
    return s.in_workup and s.gas and (a is s.prev or a.id not in s.walk.workup_inputs)


# --- TRANSFORMED: the same mixture after a change, nothing added ---


@rule("transformed_condition_change", to=(PREVIOUS,), workup=False)
def transformed_condition_change(s: Step, a: MentionView) -> bool:
    """A mixture with nothing added since the previous one (stirred, heated, cooled) is that
    mixture transformed."""
    return (not s.in_workup and not s.pending and not s.quenched
            and not s.words.is_vessel(a))


@rule("transformed_quenched_reaction", to=(PREVIOUS,), workup=False)
def transformed_quenched_reaction(s: Step, a: MentionView) -> bool:
    """"The reaction was quenched with X" after a mixture, nothing added since: that mixture
    at the quench."""
    return (not s.in_workup and not s.pending and s.quenched
            and not s.words.is_vessel(a))


@rule("transformed_vessel_contents", to=(PREVIOUS,), workup=False)
def transformed_vessel_contents(s: Step, a: MentionView) -> bool:
    """A mixture named after a vessel that holds the reaction system ("The sealed tube was
    heated"), nothing added since: the vessel's contents transformed."""
    return not s.in_workup and not s.pending and s.words.is_vessel(a)


# --- WORK_UP: the outputs of work-up actions ---


@rule("workup_previous_state", to=(PREVIOUS,), workup=True)
def workup_previous_state(s: Step, a: MentionView) -> bool:
    """The output of a work-up action (layer, residue, filtrate, product) links to the
    material worked up."""
    return s.in_workup and not s.gas


@rule("workup_used_compound", to=(ADDED,), workup=True)
def workup_used_compound(s: Step, a: MentionView) -> bool:
    """The output of a work-up action links to each compound used in it (solvent, wash,
    drying agent, silica); after a reaction under a gas only to those the work-up added."""
    if not s.in_workup:
        return False
    if a.id in s.walk.workup_inputs:
        return True
    return s.prev is not None and not s.gas


@rule("workup_parallel_layer", to=(PARENT, PARENT_INPUT), workup=True)
def workup_parallel_layer(s: Step, a: MentionView) -> bool:
    """A layer named after the opposite layer ("the aqueous layer ... the organic layer"),
    or a filtrate after the solid filtered off, links to the mixture both came from and to
    the compounds the work-up added to it."""
    if s.earlier is not None and workup_combined_layers(s, s.earlier):
        return False
    return a is s.walk.parent or a.id in s.walk.workup_inputs


@rule("workup_combined_layers", to=(EARLIER,), workup=True)
def workup_combined_layers(s: Step, a: MentionView) -> bool:
    """Layers combined after the other side was extracted ("The organic layer was separated
    and the aqueous layer was extracted with EtOAc. The combined organic layers") link to the
    earlier layer of their side, not to the mixture both came from."""
    return (s.combined and a.head in s.words.t.layer_heads
            and not s.words.opposite(s.m, a))


# --- CONTAINED: vessels ---


@rule("contained_contents", to=(HELD,))
def contained_contents(s: Step, a: MentionView) -> bool:
    """A vessel (flask, vial, autoclave) links to the mixture and the compounds placed in
    it (not to another vessel, nor to the step's target named before its first action)."""
    return a.head not in s.words.t.equipment_heads and not s.ctx.is_target(a)
