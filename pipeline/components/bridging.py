"""Heuristic bridging rules (factory ``chemie_bridging``).

Reads ``doc._.mentions`` and ``doc._.actions`` (from ``chemie_actions``) and adds
TRANSFORMED, REACTION_ASSOCIATED, WORK_UP and CONTAINED relations (anaphor -> antecedent)
to ``doc._.relations``, each carrying the name of the rule in ``rules/bridging.yaml``.

The resolver walks the mentions of each step in text order, keeping the current *state*
of the reaction system (the last mixture, layer, residue or product expression) and the
*pending* compounds that entered the system since. A new state expression links to the
previous state and to every pending compound; the phase of the step at that point and
whether anything was added choose the relation type. Linear in the number of mentions.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from spacy.language import Language
from spacy.tokens import Doc

from chemie.components.actions import HEADING, MentionView, mention_views
from chemie.extensions import actions_of, relations_of
from chemie.model import Action, Relation
from chemie.resources import load_rules

STATE, INPUT, EQUIPMENT, SKIP = "state", "input", "equipment", "skip"


@dataclass
class _Walk:
    """The resolver's memory while walking one step."""

    state: MentionView | None = None
    pending: list[MentionView] = field(default_factory=list)
    deferred: list[MentionView] = field(default_factory=list)


class BridgingResolver:
    """Applies the bridging rules of a rule table to one doc."""

    def __init__(self, rules: str) -> None:
        table = load_rules(rules)
        self.rules: dict[str, dict] = table["rules"]
        self.state_heads = frozenset(table["state_heads"])
        self.bare_state_heads = frozenset(table["bare_state_heads"])
        self.determiners = frozenset(table["determiners"])
        self.indefinite = frozenset(table["indefinite"])
        self.equipment_heads = frozenset(table["equipment_heads"])
        self.appositive_before = frozenset(table["appositive_before"])
        self.add_target_before = frozenset(table["add_target_before"])

    def _link(self, out: list[Relation], rule: str, head: MentionView, tail: MentionView) -> None:
        out.append(Relation(self.rules[rule]["label"], head.id, tail.id, rule=rule))

    def classify(self, doc: Doc, m: MentionView, products: set[str]) -> str:
        """The mention's part in the walk: state, input, equipment or skip."""
        words = m.words
        before = doc[m.first - 1].lower_ if m.first > 0 else ""
        if before in self.appositive_before:
            return SKIP
        if m.id in products:
            return STATE
        if m.head in self.equipment_heads:
            return EQUIPMENT
        if m.head in self.state_heads:
            lead = words[:3]
            if words[0] in self.indefinite and len(words) > 2 and words[2] == "of":
                return INPUT  # "a solution of X in Y"
            if any(w in self.determiners for w in lead):
                return STATE
        if m.head in self.bare_state_heads:
            return STATE
        return INPUT

    def __call__(self, doc: Doc) -> Doc:
        views = mention_views(doc)
        if not views:
            return doc
        actions = actions_of(doc)
        products = {i for a in actions for i in a.args.get("product", ())}
        headings = [a.start for a in actions if a.label == HEADING]
        workup = _WorkupIndex(actions)
        out = relations_of(doc)
        walk, step = _Walk(), -1
        for m in views:
            char = doc[m.first].idx
            m_step = bisect.bisect_right(headings, char)
            if m_step != step:
                walk, step = _Walk(), m_step
            kind = self.classify(doc, m, products)
            if kind == SKIP:
                continue
            if kind == INPUT:
                walk.pending.append(m)
                continue
            if kind == EQUIPMENT:
                sources = ([walk.state] if walk.state else []) + walk.pending
                for s in sources:
                    self._link(out, "contained_contents", m, s)
                continue
            self._state(doc, m, walk, workup.active(step, char), out)
        return doc

    def _state(
        self, doc: Doc, m: MentionView, walk: _Walk, in_workup: bool, out: list[Relation]
    ) -> None:
        """Link a state expression to the previous state and the pending compounds."""
        before = doc[m.first - 1].lower_ if m.first > 0 else ""
        pending, deferred = walk.pending, []
        if before in self.add_target_before and pending and pending[-1].sentence == m.sentence:
            # "X was added to the mixture": X enters the system after this state
            deferred = [p for p in pending if p.sentence == m.sentence]
            pending = [p for p in pending if p.sentence != m.sentence]
        prev = walk.state
        if in_workup:
            if prev:
                self._link(out, "workup_previous_state", m, prev)
            for p in pending:
                self._link(out, "workup_used_compound", m, p)
        elif pending:
            if prev:
                self._link(out, "ra_previous_state", m, prev)
            for p in pending:
                self._link(out, "ra_added_compound", m, p)
        elif prev:
            self._link(out, "transformed_condition_change", m, prev)
        walk.state, walk.pending = m, deferred


class _WorkupIndex:
    """Where each step's work-up begins (the first work-up action)."""

    def __init__(self, actions: list[Action]) -> None:
        self.start: dict[int, int] = {}
        for a in actions:
            if a.phase == "workup" and a.step not in self.start:
                self.start[a.step] = a.start

    def active(self, step: int, char: int) -> bool:
        start = self.start.get(step)
        return start is not None and start < char


@Language.factory("chemie_bridging", default_config={"rules": "bridging.yaml"})
def make_bridging(nlp: Language, name: str, rules: str) -> BridgingResolver:
    """The bridging resolver configured from a rule table in ``rules/``."""
    return BridgingResolver(rules)
