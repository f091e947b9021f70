"""The ChEMU 2020 labels follow the reactant-or-reagent decision (issue 18: one decision).

``chemie_roles`` runs before structures are resolved. ``chemie_reactions`` decides each
compound of its records (:mod:`chemie.reactions.decision`: by text, then, with structures,
by the atom accounting); :func:`follow` then gives their spans (``doc._.roles`` and
``doc.spans["roles"]``) the ChEMU 2020 label of that decision
(:func:`chemie.reactions.decision.chemu_label`) and the rule that took it, so that
``--format chemu2020`` and the reaction records say the same of each compound (a label
the structure tier confirms names its rule too). Only the
reactant-or-reagent question is relabelled: a span labelled STARTING_MATERIAL,
REAGENT_CATALYST or SOLVENT (a solvent that gives atoms is a starting material, as the
ChEMU guidelines ask) becomes STARTING_MATERIAL or REAGENT_CATALYST; a span the decision
covers in several pieces that disagree (a mixture) keeps its label.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span, SpanGroup

from chemie.context import ROLE_SPANS, roles_of
from chemie.reactions.assemble import Candidate
from chemie.reactions.decision import (
    REAGENT_CATALYST,
    STARTING_MATERIAL,
    STRUCTURE,
    Decision,
    chemu_label,
)

QUESTION = (STARTING_MATERIAL, REAGENT_CATALYST)
FOLLOWING = (*QUESTION, "SOLVENT")  # the labels that follow the decision


def follow(doc: Doc, decisions: list[tuple[Candidate, Decision]]) -> None:
    """Relabel the spans of the compounds the structure tier decided (see the module
    docstring)."""
    if not decisions:
        return
    structure_rules = {d.rule for _, d in decisions if d.tier == STRUCTURE}
    wanted: dict[int, set[tuple[str, str]]] = {}
    roles = roles_of(doc)
    last = {id(c): (c, d) for c, d in decisions}  # a candidate's last decision counts
    for c, d in last.values():
        if c.role != d.role:  # changed since (an alias, work-up after the reaction)
            continue
        label = chemu_label(d)
        if label not in QUESTION:
            continue
        for k, r in enumerate(roles):
            if r.label in FOLLOWING and r.start <= c.start and c.end <= r.end:
                wanted.setdefault(k, set()).add((label, d.rule))
                break
    changed = {}
    for k, labels in wanted.items():
        if len({label for label, _ in labels}) != 1:
            continue
        (label, rule), *_ = sorted(labels)
        r = roles[k]
        if r.label != label:
            changed[(r.start, r.end)] = label
            r.label, r.rule = label, rule
        elif rule in structure_rules:
            r.rule = rule  # the structure tier confirmed the label: it names the decision
    if changed and ROLE_SPANS in doc.spans:
        doc.spans[ROLE_SPANS] = SpanGroup(doc, name=ROLE_SPANS, spans=[
            _relabelled(s, changed) for s in doc.spans[ROLE_SPANS]])


def _relabelled(span: Span, changed: dict[tuple[int, int], str]) -> Span:
    label = changed.get((span.start_char, span.end_char))
    return span if label is None else Span(span.doc, span.start, span.end, label=label)
