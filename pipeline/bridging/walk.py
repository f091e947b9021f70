"""The bridging walk: the mentions of each step in text order, and the links of the rules.

The walk keeps the current *state* of the reaction system (the last mixture, layer,
residue or product expression) and the *pending* compounds that entered the system since
(:class:`~chemie.bridging.state.Walk`). A new state expression may link to the previous
state and to every pending compound, a vessel to what it holds; which rule of
:mod:`chemie.bridging.rules` links it (and so the relation type) depends on the phase of the
step at that point and on whether anything was added. Linear in the number of mentions.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from spacy.tokens import Doc

from chemie.actions.table import ActionTable
from chemie.actions.views import MentionView, mention_views
from chemie.bridging.classify import EQUIPMENT, INPUT, QUENCHED, SKIP, STATE, Classifier
from chemie.bridging.rules import (
    ADDED,
    EARLIER,
    HELD,
    PARENT,
    PARENT_INPUT,
    PREVIOUS,
    ROLES,
    RULES,
    Fires,
    Step,
)
from chemie.bridging.state import Context, Walk
from chemie.bridging.table import BridgingTable
from chemie.context import (
    actions_of,
    doc_text,
    mentions_of,
    number_relations,
    relations_of,
    token_table,
)
from chemie.model import Relation

# a rule as the walk tries it: its function, name, label and confidence
_Tried = tuple[Fires, str, str, "float | None"]


class Walker(Classifier):
    """Walks the mentions of one doc and adds the links of the bridging rules."""

    def __init__(self, table: BridgingTable, actions: ActionTable) -> None:
        super().__init__(table, actions)
        # the rules offered an antecedent of each role when the linking mention is (True) or
        # is not (False) a work-up output, in the order of the table
        self.rules_to: dict[tuple[str, bool], tuple[_Tried, ...]] = {
            (role, workup): tuple(
                (RULES[name].fn, name, r.label, r.confidence) for name, r in table.rules.items()
                if role in RULES[name].to and RULES[name].admits(workup))
            for role in ROLES for workup in (False, True)
        }

    def __call__(self, doc: Doc) -> Doc:
        views = mention_views(doc)
        if not views:
            return doc
        table = token_table(doc)
        ctx = Context(actions_of(doc), table, doc_text(doc, table.text), self.t,
                      self.phase_setters, self.object_actions)
        ctx.views = views
        low, idx = table.lower, table.idx
        headings = ctx.headings
        out = relations_of(doc)
        first = len(out)
        walk, step, reach = Walk(), 0, -1  # (a doc without headings is one step, step 0)
        ctx.step_start = ctx.first_action.get(0)
        rule_words, anaphor_ends = self.rule_words, self.anaphor_ends
        aid_heads = self.t.filter_aid_heads
        for m in views:
            if m.last <= reach:
                if low[m.first - 1] != "," or m.last - m.first < 2 or m.id in self._parts(doc):
                    # "( 2a )" inside the range of a discontinuous mention: a label; but in
                    # "silica gel ( 120 g , 0-100% EtOAc in hexanes )" the eluent is used
                    continue
            else:
                reach = m.last
            if headings:
                m_step = bisect.bisect_right(headings, idx[m.first])
                if m_step != step:
                    walk, step = Walk(), m_step
                    ctx.step_start = ctx.first_action.get(step)
            words = m.words
            if m.head in aid_heads:
                kind = self._kind(m, walk, ctx)
            elif rule_words.isdisjoint(words) and words[-1] not in anaphor_ends:
                kind = self.classify_name(m, ctx)  # (half the mentions: one set test, not ten)
            else:
                kind = self.classify(m, ctx)
            if kind == INPUT:
                self._input(m, walk, ctx, step)
            elif kind == EQUIPMENT:
                self._equipment(m, walk, out, ctx)
            elif kind == STATE or (kind == QUENCHED and walk.state is not None):
                # (a quench before any mixture is named is an event)
                walk = self._state_mention(m, walk, ctx, step, out, quenched=kind == QUENCHED)
        number_relations(out, first, "B")  # B1, B2 … in the order made (coreference: C1 …)
        return doc

    def _kind(self, m: MentionView, walk: Walk, ctx: Context) -> str:
        """What ``m``, a mention with the head of a filter aid, is to the walk
        (:meth:`classify`); SKIP for the later name of a filter aid ("the pad"), which
        replaces the pending aid."""
        words = m.words
        if words[0] == "the" and m.head in self.t.filter_aid_heads and self._aid_renamed(m, walk):
            return SKIP  # "the pad" names the pad of Celite again: the later name is used
        if self.rule_words.isdisjoint(words) and words[-1] not in self.anaphor_ends:
            return self.classify_name(m, ctx)
        return self.classify(m, ctx)

    def _input(self, m: MentionView, walk: Walk, ctx: Context, step: int) -> None:
        """A compound enters the system: it is pending (or replaces the pending name it
        re-names); one added in a work-up is a work-up input."""
        low = ctx.table.lower
        last = walk.pending[-1] if walk.pending else None
        if last and m.first >= 2 and ((last.last == m.first - 2 and (
            # "diisopropylethylamine ( DIPEA )": the alias (not "silica gel ( hexane / EtOAc
            # 4 : 1 )": an eluent of several words)
            (low[m.first - 1] == "(" and m.last - m.first < 2)
            or low[m.first - 1] in self.t.appositive_before  # "X as eluent"
            or (low[m.first - 1] in self.t.apposition_marks
                and self._role(last))  # "eluent : X"
        )) or (last.last == m.first - 1 and self._role(last))):  # "mobile phase X"
            walk.pending[-1] = m  # the later name of the same compound is used
        else:
            walk.pending.append(m)
        # "water was added to quench": the phase at the end of the sentence counts
        if not walk.scanned <= m.last <= walk.scan_end:  # (else the last scan holds for m too)
            end = ctx.table.sents[m.sentence][1]
            try:
                end = low.index(".", m.last + 1, end) + 1  # after the first full stop
                walk.scan_end = end - 2  # mentions ending before the stop share it
            except ValueError:
                walk.scan_end = end - 1  # no full stop before the end of the sentence
            walk.scanned = m.last
            walk.at_stop = ctx.workup_active(step, ctx.table.idx[end - 1] + 1, walk.since)
        if walk.at_stop and not self.is_gas(m.words):
            # (a gas is a reaction input: "stirred under hydrogen for 16 h, filtered")
            walk.workup_inputs.add(m.id)

    def _state_mention(self, m: MentionView, walk: Walk, ctx: Context, step: int,
                       out: list[Relation], quenched: bool) -> Walk:
        """A state of the system: linked (:meth:`_state`), then the state; the walk after it
        (a new one when ``m`` is a named product obtained in a work-up: the procedure
        ended)."""
        t = self.t
        idx = ctx.table.idx
        in_workup = (
            ctx.workup_active(step, idx[m.first], walk.since)
            or (m.id in ctx.workup_objects and bool(walk.pending))
            or m.head in t.workup_heads
            or not t.workup_participles.isdisjoint(m.words)
        )
        product = m.id in ctx.products or (
            m.head not in t.state_heads and m.head not in t.coreferent_heads
            and not self._by_class(m))
        if m.id in ctx.thrown_away:
            # "filtered to remove a solid", "the water layer was removed": linked, but the
            # system goes on from the state before it, with the compounds still pending
            # ("washed with brine, dried over Na2SO4 and distilled to remove the filtrate.
            # The residue": the residue links to the brine and the Na2SO4)
            kept = walk.state, walk.parent, walk.inputs, list(walk.pending)
            self._state(ctx, m, walk, in_workup, product, out, quenched)
            walk.state, walk.parent, walk.inputs, walk.pending = kept
            return walk
        in_workup = self._state(ctx, m, walk, in_workup, product, out, quenched)
        if product and in_workup and m.head not in t.state_heads:
            return Walk(since=idx[m.last])  # a named product ends the procedure
        return walk

    def _links(self, out: list[Relation], s: Step, role: str,
               antecedents: Iterable[MentionView]) -> int:
        """Offer each antecedent (in order) to the rules that link to ``role`` in the phase of
        ``s.m``; the one that fires links ``s.m`` to it. The number of links made."""
        rules, head, made = self.rules_to[role, s.in_workup], s.m.id, 0
        for a in antecedents:
            for fires, name, label, confidence in rules:
                if fires(s, a):
                    # (positional: a dataclass call with keywords costs twice as much)
                    out.append(Relation(label, head, a.id, name, "", confidence))
                    made += 1
                    break
        return made

    def _equipment(self, m: MentionView, walk: Walk, out: list[Relation], ctx: Context) -> None:
        """A vessel holds the current mixture and the pending compounds, then stands for them.

        Only compounds it follows are linked: contents named after a fronted vessel ("Into a
        flask were put X") are not annotated as contained in ChEMU-Ref. A vessel named again
        ("the sealed tube") links to nothing and keeps what the first one stood for. A vessel
        named before anything was put into it (fronted) neither links nor stands for contents.
        """
        if walk.state is None and not walk.pending:
            return  # "Into a 200 mL flask were added X, Y ...": a fronted vessel
        held = ([walk.state] if walk.state else []) + walk.pending
        if not self.t.other_vessel_words.isdisjoint(m.words):
            # "In a separate flask", "X in another reaction vessel": not the system so far,
            # only what its sentence puts in it ("The residue was added to a separate flask")
            held = [s for s in held if s.sentence == m.sentence]
        linked = self._links(out, Step(self, ctx, walk, m, walk.state, walk.pending), HELD, held)
        state = walk.state
        if state is not None and state.last == m.first - 2:
            return  # "the solution in a flask": the vessel only locates the mixture
        if m.id in ctx.processed or (state is not None and not walk.pending):
            # "The sealed tube was heated", "The mixture was stirred in a sealed tube": the
            # vessel holds the reaction system and stands for it as its state
            walk.parent, walk.state, walk.pending, walk.inputs = state, m, [], []
            return
        if linked or not walk.pending:
            walk.pending = [m]  # the vessel stands for what was put into it

    def _deferred(self, ctx: Context, m: MentionView, pending: list[MentionView]
                  ) -> list[MentionView]:
        """The pending compounds that enter the system after the state ``m`` ("X was added
        to the mixture", the caller checked): the compounds of this clause (no other action
        between them and the mixture)."""
        deferred: list[MentionView] = []
        here = ctx.table.idx[m.first]
        for p in pending:
            # "Y was dissolved in W, and to the solution was added Z": Y and W are not moved
            # (no addition between them and the solution); nor in "Y was dissolved in W, and
            # Z was added to the solution" (the addition names what it adds after them)
            lo = ctx.table.idx[p.last]
            if (p.sentence == m.sentence and ctx.one_addition_between(lo, here)
                    and not (p.id in ctx.solvents and ctx.adds_later(lo, here))):
                deferred.append(p)
        return deferred

    def _state(self, ctx: Context, m: MentionView, walk: Walk, in_workup: bool, product: bool,
               out: list[Relation], quenched: bool = False) -> bool:
        """Link a state expression to the previous state and the pending compounds, and make
        it the state; True when it is a work-up output."""
        pending, deferred = walk.pending, []
        if (pending and ctx.around[m.first + 1] in self.t.add_target_before
                and pending[-1].sentence == m.sentence):
            deferred = self._deferred(ctx, m, pending)
            pending = [p for p in pending if p not in deferred]
        prev = walk.state
        # "Water was added to the reaction mixture. The mixture ...": a quench liquid among the
        # compounds added since the previous state (not those added to this one) starts the work-up
        in_workup = in_workup or self._quenched(prev, pending)
        s = Step(self, ctx, walk, m, prev, pending, in_workup, product, quenched)
        if (in_workup and prev is not None and walk.parent is not None
                and self._parallel_layer(s, out) and not pending):
            walk.state, walk.pending, walk.sibling = m, deferred, prev
            return in_workup
        if prev is not None and not pending and self._same_state(s):
            walk.state, walk.pending = m, deferred
            return in_workup
        s.gas = in_workup and prev is not None and self._after_gas(pending, walk.workup_inputs)
        if prev is not None:
            self._links(out, s, PREVIOUS, (prev,))
        self._links(out, s, ADDED, pending)
        walk.state, walk.pending, walk.parent, walk.inputs = m, deferred, prev, pending
        walk.sibling = None
        return in_workup

    def _parallel_layer(self, s: Step, out: list[Relation]) -> bool:
        """Link a layer split from the mixture the previous layer came from ("the aqueous
        layer was separated. The organic layer"), or combined with an earlier one; True when
        ``s.m`` is such a layer (the caller checked that it is a work-up output and that the
        previous state and the state it came from are known)."""
        m, prev, walk = s.m, s.prev, s.walk
        if prev is None or walk.parent is None or not self._parallel(m, prev):
            return False
        extracted = prev.id in s.ctx.extracted
        s.combined = extracted and (not self.t.gathering_words.isdisjoint(m.words)
                                    or self._gathered(s.ctx.table.lower, m.last + 1))
        if extracted and not s.combined:
            # "the water layer was extracted with DCM. The organic phase ...": made from that
            # layer, unless the organic phases are combined with the first one
            return False
        s.earlier = walk.sibling or walk.parent
        self._links(out, s, EARLIER, (s.earlier,))
        self._links(out, s, PARENT, (walk.parent,))
        self._links(out, s, PARENT_INPUT, walk.inputs)
        return True

    def _same_state(self, s: Step) -> bool:
        """True when the state ``s.m`` (nothing added since the previous state) names that
        state again: no link."""
        m, prev, t = s.m, s.prev, self.t
        if s.in_workup and prev.head == m.head and m.head in t.workup_heads:
            return True  # "an amber residue. The residue was ...": the same (coreference)
        # "to give a yellow solid. The solid was ...": named again, nothing done to it;
        # "to produce Compound q : t-butyl ... ( 0.6 g )": the same product in apposition
        return not self.is_vessel(prev) and (
            (m.words[0] in t.restating and not s.ctx.actions_between(
                s.ctx.table.idx[prev.last], s.ctx.table.idx[m.first]))
            or (prev.last == m.first - 2 and s.ctx.around[m.first + 1] in t.apposition_marks))

    def _aid_renamed(self, m: MentionView, walk: Walk) -> bool:
        """Replace a pending filter aid of this or the previous sentence ("a pad of Celite",
        "diatomite") by ``m``, its later name ("the pad", "the filter cake"); False when there
        is none."""
        aids = self.t.filter_aids
        pending = walk.pending
        for k in range(len(pending) - 1, -1, -1):
            p = pending[k]
            if p.sentence < m.sentence - 1:
                return False
            if p.head == m.head or not aids.isdisjoint(p.words):
                pending[k] = m
                if p.id in walk.workup_inputs:
                    walk.workup_inputs.add(m.id)
                return True
        return False

    def _parts(self, doc: Doc) -> frozenset[str]:
        """The ids of the mentions that name a part of a longer mention (rules of
        ``part_rules``: "10% Pd / C ( 0.5 g )" in "a mixture of X and 10% Pd / C ( 0.5 g ) in
        MeOH"): the walk takes the longer one."""
        rules = self.t.part_rules
        return frozenset(m.id for m in mentions_of(doc) if m.rule in rules)
