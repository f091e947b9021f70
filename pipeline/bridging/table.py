"""The schema of ``rules/bridging.yaml``: its rules (each a registered function of
:mod:`chemie.bridging.rules`) and the word lists they and the walk read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class BridgingRule:
    """One named rule: the label of the links it makes."""

    label: Literal["REACTION_ASSOCIATED", "TRANSFORMED", "WORK_UP", "CONTAINED"]
    comment: str
    confidence: float | None = None  # Relation.confidence (python -m chemie.rule_precision)


@dataclass(frozen=True)
class BridgingTable:
    """``rules/bridging.yaml``: the rules and the word lists they read (each described
    there)."""

    rules: dict[str, BridgingRule]
    state_pronouns: frozenset[str]
    state_heads: frozenset[str]
    bare_state_heads: frozenset[str]
    bare_mixture_heads: frozenset[str]
    bare_state_qualifiers: frozenset[str]
    determiners: frozenset[str]
    restating: frozenset[str]
    apposition_marks: frozenset[str]
    role_nouns: frozenset[str]
    role_modifiers: frozenset[str]
    yield_words: frozenset[str]
    product_units: frozenset[str]
    input_units: frozenset[str]
    indefinite: frozenset[str]
    equipment_heads: frozenset[str]
    other_vessel_words: frozenset[str]
    appositive_before: frozenset[str]
    appositive_nouns: frozenset[str]
    add_target_before: frozenset[str]
    physical_states: frozenset[str]
    continuation: frozenset[str]
    quantity: str
    workup_heads: frozenset[str]
    event_heads: frozenset[str]
    event_before: frozenset[str]
    event_after: frozenset[str]
    quench_predicates: frozenset[str]
    product_classes: frozenset[str]
    product_modifiers: frozenset[str]
    coreferent_heads: frozenset[str]
    solvent_layers: frozenset[str]
    material_heads: frozenset[str]
    coreferent_modifiers: frozenset[str]
    state_adjectives: frozenset[str]
    target_before_of: frozenset[str]
    not_used_before: dict[str, frozenset[str]]
    procedure_words: frozenset[str]
    non_compounds: frozenset[str]
    apparatus_after: frozenset[str]
    removing_actions: frozenset[str]
    target_actions: frozenset[str]
    adding_actions: frozenset[str]
    discarding_triggers: frozenset[str]
    workup_subject_actions: frozenset[str]
    funnel_heads: frozenset[str]
    holding_funnels: frozenset[str]
    empty_atmosphere: frozenset[str]
    extracting_actions: frozenset[str]
    gathering_words: frozenset[str]
    layer_heads: frozenset[str]
    filtrate_heads: frozenset[str]
    filtered_heads: frozenset[str]
    layer_sides: dict[str, frozenset[str]]
    discarded: frozenset[str]
    quench_words: frozenset[str]
    reaction_gases: frozenset[str]
    condition_actions: frozenset[str]
    carried_conditions: frozenset[str]
    part_rules: frozenset[str]
    filter_aid_heads: frozenset[str]
    filter_aids: frozenset[str]
    inert_gases: frozenset[str]
    atmosphere_words: frozenset[str]
    gas_frame: frozenset[str]
    event_venue_before: frozenset[str]
    reference_words: frozenset[str]
    workup_participles: frozenset[str]
    infinitives: frozenset[str]
    heading_anaphors: frozenset[str]
