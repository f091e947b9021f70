"""Heuristic bridging rules (factory ``chemie_bridging``).

Reads ``doc._.mentions`` and ``doc._.actions`` (from ``chemie_actions``) and adds
TRANSFORMED, REACTION_ASSOCIATED, WORK_UP and CONTAINED relations (anaphor -> antecedent)
to ``doc._.relations``, each carrying the name of the rule in ``rules/bridging.yaml`` and an
id B1, B2 … unique within the document.

The resolver walks the mentions of each step in text order, keeping the current *state*
of the reaction system (the last mixture, layer, residue or product expression) and the
*pending* compounds that entered the system since. A new state expression links to the
previous state and to every pending compound; the phase of the step at that point and
whether anything was added choose the relation type. Linear in the number of mentions.
"""

from __future__ import annotations

import bisect
import operator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import regex
from spacy.language import Language
from spacy.tokens import Doc

from chemie.actions.component import (
    HEADING,
    ActionTable,
    MentionView,
    TokenTable,
    action_table,
    head_word,
    mention_views,
    token_table,
)
from chemie.coref.component import number_relations
from chemie.extensions import actions_of, mentions_of, relations_of
from chemie.mentions.document import doc_text
from chemie.model import Action, Relation
from chemie.saving import SavesTables, table_sources
from chemie.tables import load_table

STATE, INPUT, EQUIPMENT, SKIP = "state", "input", "equipment", "skip"
QUENCHED = "quenched"  # "the reaction was quenched": a state after a mixture, else skipped


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


def bridging_table(name: str | Path = "bridging.yaml") -> BridgingTable:
    """The bridging rules and word lists of ``rules/<name>`` (read once) or of a table
    file."""
    return load_table(name, BridgingTable)

_START = operator.attrgetter("start")  # text order of actions


@dataclass(slots=True)
class _Walk:
    """The resolver's memory while walking one step."""

    state: MentionView | None = None
    pending: list[MentionView] = field(default_factory=list)
    since: int = -1  # actions before this character belong to an earlier procedure
    workup_inputs: set[str] = field(default_factory=set)  # pending ids added in a work-up
    parent: MentionView | None = None  # the state the current state was made from
    sibling: MentionView | None = None  # the layer the current (parallel) layer was split from
    inputs: list[MentionView] = field(default_factory=list)  # compounds the state was made with


class BridgingResolver(SavesTables):
    """Applies the bridging rules of a rule table to one doc (``to_disk`` saves its rule
    table and the action table, ``from_disk`` reads them back)."""

    table_names = ("bridging.yaml", "actions.yaml")  # file names of (rules, actions)

    def __init__(self, table: BridgingTable, actions: ActionTable) -> None:
        self.t = t = table  # the typed rule table (rules/bridging.yaml)
        # action classes that set the phase
        self.phase_setters = frozenset(k for k, v in actions.classes.items() if v.phase != "any")
        self.unrelated_words = t.discarded | t.reference_words
        self.layer_sides: dict[str, str] = {
            w: side for side, words in t.layer_sides.items() for w in words
        }
        # action classes whose object some rule reads (_Context skips the other actions)
        self.object_actions = (t.target_actions | t.removing_actions | t.condition_actions
                               | t.workup_subject_actions | t.extracting_actions)
        self.quantity = regex.compile(t.quantity, regex.IGNORECASE)
        self._amounts: dict[str, bool] = {}
        # the words in a mention (any word, or its head) with which a check of _early may fire
        self._early_words = (t.role_modifiers | self.unrelated_words | t.procedure_words
                             | t.infinitives)
        self._early_heads = (t.role_nouns | t.non_compounds | {"atmosphere"}
                             | t.material_heads | t.coreferent_heads | t.event_heads)
        # the heads of the checks of _state_head
        self._state_like_heads = (t.funnel_heads | t.equipment_heads | t.state_heads
                                  | t.bare_state_heads | t.bare_mixture_heads)
        # every word that a check of classify looks for in a mention
        self._rule_words = (self._early_words | self._early_heads | {"title"} | t.yield_words
                            | t.product_modifiers
                            | t.state_pronouns | self._state_like_heads
                            | t.bare_state_qualifiers | t.physical_states)
        # the words around a mention near which a check of _early may fire
        self._of_nouns = (t.appositive_nouns | t.target_before_of
                          | frozenset().union(*t.not_used_before.values()))  # two before
        self._apparatus_marks = t.apparatus_after | {"-"}  # the word after
        # every suffix of a heading anaphor: the last word of one is among them
        self._anaphor_ends = frozenset(a[i:] for a in t.heading_anaphors for i in range(len(a)))
        # rule -> (relation label, confidence), read once per link
        self._vessel_joins = frozenset(("of", "in", "with", "containing"))
        self._gas_frame = t.gas_frame | t.atmosphere_words
        self._gas_words = t.reaction_gases | t.inert_gases
        self._gases: dict[tuple[str, ...], bool] = {}  # words -> is_gas (memo)
        self._made: dict[str, tuple[str, float | None]] = {
            name: (r.label, r.confidence) for name, r in t.rules.items()
        }

    def load_tables(self, files: dict[str, Path]) -> None:
        """Use the bridging and action tables in ``files`` (see
        :class:`~chemie.saving.SavesTables`)."""
        rules, actions = self.table_names
        self.__init__(bridging_table(files[rules]), action_table(files[actions]))

    def _link(self, out: list[Relation], rule: str, head: MentionView, tail: MentionView) -> None:
        label, confidence = self._made[rule]
        # (positional: a dataclass call with keywords costs twice as much)
        out.append(Relation(label, head.id, tail.id, rule, "", confidence))

    def _classify_name(self, m: MentionView, ctx: _Context) -> str:
        """:meth:`classify` for a mention without a word of the rule tables (most compound
        names): only the checks that look around the mention can fire."""
        first, last, around = m.first, m.last, ctx.around
        if (around[first + 1] in self.t.appositive_before or around[first] in self._of_nouns
                or around[last + 3] in self._apparatus_marks):
            return self.classify(m, ctx)  # (rare) a word around it counts
        if m.id in ctx.products or (
                ctx.percent and "%" in " ".join(m.words) and self._yielded(ctx.table.lower, m)):
            return STATE
        if m.id in ctx.removed:
            return SKIP  # "the DMF was removed": a compound taken away
        start = ctx.step_start  # (before_first_action, inlined)
        if ((start is None or ctx.table.idx[first] < start)
                and not self.has_quantity(ctx.table, m) and self._titled(ctx.table, m)):
            return SKIP  # a heading name, referred to by coreference only
        return INPUT

    def classify(self, m: MentionView, ctx: _Context) -> str:
        """The mention's part in the walk: state, input, equipment or skip."""
        t = self.t
        words, head, first, around = m.words, m.head, m.first, ctx.around
        low = ctx.table.lower
        # the checks that fire only near particular words: skipped unless one is there
        if (head in self._early_heads or not self._early_words.isdisjoint(words)
                or around[first + 1] in t.appositive_before or around[first] in self._of_nouns
                or around[m.last + 3] in self._apparatus_marks
                or words[-1] in self._anaphor_ends):
            kind = self._early(m, ctx)
            if kind is not None:
                return kind
        if m.id in ctx.products or "title" in words[:4] or (
                # the test _yielded starts with, inlined (most mentions fail it)
                (not t.yield_words.isdisjoint(words)
                 or (ctx.percent and "%" in " ".join(words)))
                and self._yielded(low, m)):
            return STATE
        if len(words) == 1 and words[0] in t.state_pronouns:
            return STATE  # "The mixture was stirred at reflux. It was cooled ...": the system
        if head in self._state_like_heads or self._vessel_tail(words):
            kind = self._state_head(m, ctx)
            if kind is not None:
                return kind
        if self._by_class(m):
            return STATE  # "The crude amine was dissolved": the work-up output, by its class
        if words[0] in t.bare_state_qualifiers and not t.workup_heads.isdisjoint(words):
            return STATE  # "organic phase was separated", "Product containing fractions were ..."
        quantity = None  # has_quantity, computed only when a check needs it
        if head in t.physical_states:
            quantity = self.has_quantity(ctx.table, m)
            if quantity and self._described(words, head):
                return STATE  # "Yellow amorphous solid (8 mg, 32%)", not "zinc powder (2.4 g)"
        if m.id in ctx.removed:
            return SKIP  # "the DMF was removed": a compound taken away (a state removed stays)
        start = ctx.step_start  # (before_first_action, inlined)
        if start is None or ctx.table.idx[first] < start:
            if quantity is None:
                quantity = self.has_quantity(ctx.table, m)
            if not quantity and self._titled(ctx.table, m):
                return SKIP  # a heading name, referred to by coreference only
        return INPUT

    def _early(self, m: MentionView, ctx: _Context) -> str | None:
        """The checks of :meth:`classify` that need a particular word in or around the
        mention (a role, a preposition before it, an apparatus after it …); None when none
        fires."""
        t = self.t
        words, head, first = m.words, m.head, m.first
        low = ctx.table.lower
        before = low[first - 1] if first > 0 else ""
        if before == "of" and first > 1 and low[first - 2] in t.appositive_nouns:
            return SKIP  # "obtained in the form of a white solid": a description
        role = head in t.role_nouns or not t.role_modifiers.isdisjoint(words)
        if before in t.appositive_before:
            # "X as the elution solvent": the role noun re-names X and stands for it
            if role:
                return INPUT
            named = ctx.ending(first - 2)  # the mention before "as"
            if (head in t.physical_states and self.has_quantity(ctx.table, m)
                    and named is not None and named.id not in ctx.products
                    and "title" not in named.words and not self._yielded(low, named)
                    and any(w.endswith("%") for w in low[first : m.last + 1])):
                return STATE  # "Compound 24 was synthesized from X and Y as a white solid (34.8
                # mg, 31%)": the product, named by its appearance
            return SKIP
        if role and head not in t.role_nouns:
            return INPUT  # "mobile phase": a role, not a layer
        after = low[m.last + 1] if m.last + 1 < len(low) else ""
        if (after in t.apparatus_after or (
            after == "-" and m.last + 2 < len(low) and low[m.last + 2] in t.apparatus_after
        )) and not self.is_gas(words):
            # "ice" in "an ice bath", "under ice - cooling": part of the apparatus (but the
            # hydrogen of "a hydrogen balloon" is the gas the reaction runs under)
            return SKIP
        if head in t.non_compounds:
            return SKIP  # "inert atmosphere", "a period of": no compound
        if head == "atmosphere" and t.empty_atmosphere.issuperset(words):
            return SKIP  # "the atmosphere in the flask was replaced": no gas named
        if before == "to" and len(words) == 1 and words[0] in t.infinitives:
            return SKIP  # "evaporated ... to concentrate": a verb taken for a name
        if not self.unrelated_words.isdisjoint(words):
            # reference_words: "the following Reaction Scheme" (a reference, not a material);
            # discarded: "the insoluble matter was filtered off" (not the system)
            return SKIP
        if before == "of" and first > 1 and low[first - 2] in t.target_before_of:
            return SKIP  # "Synthesis of X is depicted in FIG. 9": the target, named as a title
        if words[0] in t.procedure_words or (
                len(words) > 2 and words[1] == "of" and words[2] in t.procedure_words):
            return SKIP  # "Example 12", "step 2 of Example 1": a reference to a procedure
        if (before in t.not_used_before and first > 1 and head not in t.state_heads
                and low[first - 2] in t.not_used_before[before]):
            # "using X instead of Y": Y is not used; "analogous to the process for preparing
            # Compound 1": a reference to another procedure's product
            return SKIP
        if head in t.material_heads and not t.coreferent_modifiers.isdisjoint(words):
            return SKIP  # "the starting material was consumed": the inputs again (coreference)
        if head in t.coreferent_heads and words[0] in t.determiners:
            if not t.solvent_layers.isdisjoint(words):
                return STATE  # "The organic solvent was dried over MgSO4": the organic layer
            return SKIP  # "the solvent" names a compound already in the system (coreference)
        if head in t.event_heads and (
            before in t.event_before or self._event_predicate(low, m.last + 1)
        ):
            return SKIP  # "after completion of the reaction": the event, not the material
        if head in t.event_heads and self._predicate_in(low, m.last + 1, t.quench_predicates):
            return QUENCHED  # "the reaction was quenched with water"
        if " ".join(words) in t.heading_anaphors and ctx.before_first_action(
                ctx.table.idx[first]):
            return SKIP  # "This compound was prepared from X": the heading compound (coreference)
        return None

    def _state_head(self, m: MentionView, ctx: _Context) -> str | None:
        """The checks of :meth:`classify` for a vessel or state head ("the mixture", "a flask",
        "residue"); None when none fires."""
        t = self.t
        words, head, first = m.words, m.head, m.first
        if head in t.funnel_heads and t.holding_funnels.isdisjoint(words):
            return SKIP  # "a Büchner funnel": filtration apparatus holds no reaction system
        if head in t.equipment_heads or self._vessel_tail(words):
            around = ctx.around
            if (around[first + 1] == "in" and first > 1
                    and around[first] in t.event_venue_before):
                return SKIP  # "a reaction ... was performed in a Parr autoclave": a venue
            return EQUIPMENT
        if head in t.state_heads:
            named = words
            of = words.index("of") if "of" in words else -1
            if of > 0:
                if head not in words[:of]:
                    # a partitive ("A large amount of white precipitates") names what
                    # follows "of"
                    named = words[of + 1 :]
                elif (words[0] in t.indefinite
                      or head_word(words[of + 1 :]) not in t.state_heads):
                    return INPUT  # "a solution of X in Y", "the THF solution of the compound 28"
            if words[0] in t.indefinite:
                if head in t.workup_heads:
                    return STATE  # "to collect an organic phase"
                if self._described(named, head) and words[-1] in (head, ")"):
                    return STATE  # "A white hazy solution formed", "to remove a solid"
            if words[0] in t.determiners or not t.determiners.isdisjoint(words[1:3]):
                return STATE
        if head in t.bare_state_heads or (
                head in t.bare_mixture_heads and "/" not in words and ":" not in words):
            return STATE
        return None

    def _aid_renamed(self, m: MentionView, walk: _Walk) -> bool:
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

    def _by_class(self, m: MentionView) -> bool:
        """True for a product named by its class after "crude" or "free" ("the crude
        amine")."""
        t = self.t
        return m.head in t.product_classes and not t.product_modifiers.isdisjoint(m.words[:2])

    def _is_vessel(self, m: MentionView) -> bool:
        """True for a vessel mention ("a sealed tube", "a dried 250 mL , 3-neck flask")."""
        return m.head in self.t.equipment_heads or self._vessel_tail(m.words)

    def _vessel_tail(self, words: tuple[str, ...]) -> bool:
        """True for a vessel whose description hides its head from :func:`head_word` ("a
        dried 250 mL , 3-neck flask": the comma): the last word is a vessel and no "of", "in"
        or "with" makes it the complement of another noun."""
        return words[-1] in self.t.equipment_heads and self._vessel_joins.isdisjoint(words)

    def _role(self, m: MentionView) -> bool:
        """True for a noun naming a compound by its role ("eluent", "the mobile phase")."""
        t = self.t
        return m.head in t.role_nouns or not t.role_modifiers.isdisjoint(m.words)

    def _yielded(self, low: list[str], m: MentionView) -> bool:
        """True for a product named with its yield ("1.35 g ( 90% of theory )", "Yield : 0.9 g")
        or a yield alone after a sentence ("were used . ( 92% )")."""
        t = self.t
        words = m.words
        named = not t.yield_words.isdisjoint(words)
        if not named and "%" not in " ".join(words):
            return False  # neither a yield word nor a percentage (most mentions)
        if not t.procedure_words.isdisjoint(words):
            return False  # "step 5 of Example 34 ( yield : 68% )": a procedure reference
        if named:
            return True
        if "(" in words:
            # "Compound 2 ( 20.3 g , 76% )": a mass and a percentage, no amount of substance
            inside = words[words.index("(") :]
            if (any(w[:1].isdigit() and w.endswith("%") and nxt in (")", ",", ";")
                    for w, nxt in zip(inside, (*inside[1:], ")"), strict=True))
                    # (not "NaH ( 60% mineral oil dispersion , 75 mg )": a content)
                    and not t.product_units.isdisjoint(inside)
                    and t.input_units.isdisjoint(inside)):
                return True
        k = m.first - 1 if words[0] == "(" else m.first - 2
        return (k >= 0 and low[k] == "." and low[k + 1] == "(" and words[-1] != "("
                and all(w in "()" or w[:1].isdigit() and w.endswith("%") for w in words))

    def _event_predicate(self, low: list[str], i: int) -> bool:
        """True for "(the reaction) was stopped / is complete / was monitored by TLC"."""
        return self._predicate_in(low, i, self.t.event_after)

    @staticmethod
    def _predicate_in(low: list[str], i: int, words: frozenset[str]) -> bool:
        """True when the predicate from token ``i`` ("was then quenched") is one of
        ``words``."""
        if i < len(low) and low[i] in ("was", "is", "were", "had", "has"):
            i += 1
            if i < len(low) and low[i] in ("then", "been", "further"):
                i += 1
        return i < len(low) and low[i] in words

    def _described(self, words: tuple[str, ...], head: str) -> bool:
        """True when only describing adjectives precede the head ("pale yellow solid")."""
        k = words.index(head)
        return all(w in self.t.state_adjectives for w in words[:k])

    def has_quantity(self, table: TokenTable, m: MentionView) -> bool:
        """True when the mention or a bracket right after it holds an amount."""
        text, amount, known = table.text, self._amount, self._amounts
        for w in text[m.first : m.last + 1]:
            hit = known.get(w)  # the memo of _amount, read directly (most words are known)
            if hit or (hit is None and amount(w)):
                return True
        i = m.last + 1
        if i < len(text) and text[i] == "(":
            for w in text[i + 1 : i + 14]:
                if w == ")":
                    break
                hit = known.get(w)
                if hit or (hit is None and amount(w)):
                    return True
        return False

    def _amount(self, word: str) -> bool:
        """True for a token that is an amount or its unit (memoised per word)."""
        hit = self._amounts.get(word)
        if hit is None:
            hit = self.quantity.fullmatch(word) is not None
            if len(self._amounts) < 100_000:
                self._amounts[word] = hit
        return hit

    def _titled(self, table: TokenTable, m: MentionView) -> bool:
        """A name not followed by a verb or a list continuation (a heading)."""
        if m.last + 1 >= len(table.text):
            return True
        after = table.text[m.last + 1]
        return after[:1].isupper() or after.lower() not in self.t.continuation

    def __call__(self, doc: Doc) -> Doc:
        t = self.t
        views = mention_views(doc)
        if not views:
            return doc
        table = token_table(doc)
        ctx = _Context(actions_of(doc), table, doc_text(doc, table.text), self)
        ctx.views = views
        low, idx, sents = table.lower, table.idx, table.sents
        headings = ctx.headings
        out = relations_of(doc)
        first = len(out)
        walk, step, reach = _Walk(), 0, -1  # (a doc without headings is one step, step 0)
        ctx.step_start = ctx.first_action.get(0)
        # the mentions the last full-stop scan holds for (a new walk scans again), and whether
        # the action before that stop is a work-up
        scanned, reuse, at_stop = 0, -1, False
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
                    walk, step, reuse = _Walk(), m_step, -1
                    ctx.step_start = ctx.first_action.get(step)
            words = m.words
            if words[0] == "the" and m.head in t.filter_aid_heads and self._aid_renamed(m, walk):
                continue  # "the pad" names the pad of Celite again: the later name is used
            if self._rule_words.isdisjoint(words) and words[-1] not in self._anaphor_ends:
                kind = self._classify_name(m, ctx)  # (half the mentions: one set test, not ten)
            else:
                kind = self.classify(m, ctx)
            changed = "transformed_condition_change"
            if kind == QUENCHED:
                if walk.state is None:
                    continue  # no mixture named yet: the quench is an event
                kind, changed = STATE, "transformed_quenched_reaction"
            if kind == SKIP:
                continue
            if kind == INPUT:
                last = walk.pending[-1] if walk.pending else None
                if last and m.first >= 2 and ((last.last == m.first - 2 and (
                    # "diisopropylethylamine ( DIPEA )": the alias (not "silica gel ( hexane / EtOAc
                    # 4 : 1 )": an eluent of several words)
                    (low[m.first - 1] == "(" and m.last - m.first < 2)
                    or low[m.first - 1] in t.appositive_before  # "X as eluent"
                    or (low[m.first - 1] in t.apposition_marks
                        and self._role(last))  # "eluent : X"
                )) or (last.last == m.first - 1 and self._role(last))):  # "mobile phase X"
                    walk.pending[-1] = m  # the later name of the same compound is used
                else:
                    walk.pending.append(m)
                # "water was added to quench": the phase at the end of the sentence counts
                if not scanned <= m.last <= reuse:  # (else the last scan holds for m too)
                    end = sents[m.sentence][1]
                    try:
                        end = low.index(".", m.last + 1, end) + 1  # after the first full stop
                        reuse = end - 2  # mentions ending before the stop share it
                    except ValueError:
                        reuse = end - 1  # no full stop before the end of the sentence
                    scanned = m.last
                    at_stop = ctx.workup_active(step, idx[end - 1] + 1, walk.since)
                if at_stop and not self.is_gas(m.words):
                    # (a gas is a reaction input: "stirred under hydrogen for 16 h, filtered")
                    walk.workup_inputs.add(m.id)
                continue
            if kind == EQUIPMENT:
                self._equipment(m, walk, out, ctx)
                continue
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
                self._state(ctx, m, walk, in_workup, product, out, changed)
                walk.state, walk.parent, walk.inputs, walk.pending = kept
                continue
            in_workup = self._state(ctx, m, walk, in_workup, product, out, changed)
            if product and in_workup and m.head not in t.state_heads:
                walk, reuse = _Walk(since=idx[m.last]), -1  # a named product ends the procedure
        number_relations(out, first, "B")  # B1, B2 … in the order made (coreference: C1 …)
        return doc

    def _equipment(
        self, m: MentionView, walk: _Walk, out: list[Relation], ctx: _Context
    ) -> None:
        """A vessel holds the current mixture and the pending compounds, then stands for them.

        Only compounds it follows are linked: contents named after a fronted vessel ("Into a
        flask were put X") are not annotated as contained in ChEMU-Ref. A vessel named again
        ("the sealed tube") links to nothing and keeps what the first one stood for. A vessel
        named before anything was put into it (fronted) neither links nor stands for contents.
        """
        t = self.t
        if walk.state is None and not walk.pending:
            return  # "Into a 200 mL flask were added X, Y ...": a fronted vessel
        held = ([walk.state] if walk.state else []) + walk.pending
        if not t.other_vessel_words.isdisjoint(m.words):
            # "In a separate flask", "X in another reaction vessel": not the system so far,
            # only what its sentence puts in it ("The residue was added to a separate flask")
            held = [s for s in held if s.sentence == m.sentence]
        sources = [s for s in held
                   if s.head not in t.equipment_heads and not ctx.is_target(s)]
        for s in sources:
            self._link(out, "contained_contents", m, s)
        state = walk.state
        if state is not None and state.last == m.first - 2:
            return  # "the solution in a flask": the vessel only locates the mixture
        if m.id in ctx.processed or (state is not None and not walk.pending):
            # "The sealed tube was heated", "The mixture was stirred in a sealed tube": the
            # vessel holds the reaction system and stands for it as its state
            walk.parent, walk.state, walk.pending, walk.inputs = state, m, [], []
            return
        if sources or not walk.pending:
            walk.pending = [m]  # the vessel stands for what was put into it

    def _state(
        self,
        ctx: _Context,
        m: MentionView,
        walk: _Walk,
        in_workup: bool,
        product: bool,
        out: list[Relation],
        changed: str = "transformed_condition_change",
    ) -> bool:
        """Link a state expression to the previous state and the pending compounds (the rule
        ``changed`` links it to the previous state when nothing was added); True when it is a
        work-up output."""
        t = self.t
        before = ctx.around[m.first + 1]
        pending, deferred = walk.pending, []
        if before in t.add_target_before and pending and pending[-1].sentence == m.sentence:
            # "X was added to the mixture": X (the compounds of this clause: no other action
            # between them and the mixture) enters the system after this state
            here = ctx.table.idx[m.first]
            for p in pending:
                # "Y was dissolved in W, and to the solution was added Z": Y and W are not
                # moved (no addition between them and the solution); nor in "Y was dissolved
                # in W, and Z was added to the solution" (the addition names what it adds
                # after them)
                lo = ctx.table.idx[p.last]
                clause = (p.sentence == m.sentence and ctx.one_addition_between(lo, here)
                          and not (p.id in ctx.solvents and ctx.adds_later(lo, here)))
                (deferred if clause else []).append(p)
            pending = [p for p in pending if p not in deferred]
        prev = walk.state
        # "Water was added to the reaction mixture. The mixture ...": a quench liquid among the
        # compounds added since the previous state (not those added to this one) starts the work-up
        in_workup = in_workup or self._quenched(prev, pending)
        parent, sibling = walk.parent, walk.sibling
        combined = prev is not None and prev.id in ctx.extracted and (
            not t.gathering_words.isdisjoint(m.words)
            or self._gathered(ctx.table.lower, m.last + 1))
        if (in_workup and prev is not None and parent is not None and self._parallel(m, prev)
                and (prev.id not in ctx.extracted or combined)):
            # (not "the water layer was extracted with DCM. The organic phase ...": made from
            # that layer, unless the organic phases are combined with the first one)
            earlier = sibling or parent
            if combined and earlier.head in t.layer_heads and not self._opposite(m, earlier):
                # "The organic layer was separated and the aqueous layer was extracted with
                # EtOAc. The combined organic layers": the first organic layer joins them
                self._link(out, "workup_combined_layers", m, earlier)
            else:
                # "the aqueous layer was separated. The organic layer was ...": a sibling layer
                # comes from the mixture the other layer came from
                self._link(out, "workup_parallel_layer", m, parent)
                for p in walk.inputs:  # "water and DCM were added, the aqueous layer was ..."
                    if p.id in walk.workup_inputs:
                        self._link(out, "workup_parallel_layer", m, p)
            if not pending:
                walk.state, walk.pending, walk.sibling = m, deferred, prev
                return in_workup
        if (in_workup and prev is not None and not pending and prev.head == m.head
                and m.head in t.workup_heads):
            walk.state, walk.pending = m, deferred
            return in_workup  # "an amber residue. The residue was ...": the same (coreference)
        if prev is not None and not pending and not self._is_vessel(prev) and (
            (m.words[0] in t.restating
             and not ctx.actions_between(ctx.table.idx[prev.last], ctx.table.idx[m.first]))
            or (prev.last == m.first - 2 and before in t.apposition_marks)
        ):
            # "to give a yellow solid. The solid was ...": named again, nothing done to it;
            # "to produce Compound q : t-butyl ... ( 0.6 g )": the same product in apposition
            walk.state, walk.pending = m, deferred
            return in_workup
        if in_workup and prev is not None and self._after_gas(pending, walk.workup_inputs):
            # "the reaction mixture was stirred under a hydrogen atmosphere . The mixture was
            # filtered": the first mixture after a reaction run under a gas is its outcome
            self._link(out, "ra_gas_atmosphere", m, prev)
            for p in pending:
                if p.id in walk.workup_inputs:
                    self._link(out, "workup_used_compound", m, p)
                else:
                    self._link(out, "ra_gas_atmosphere", m, p)
        elif in_workup:
            if prev:
                self._link(out, "workup_previous_state", m, prev)
            for p in pending:
                if prev is None and p.id not in walk.workup_inputs:
                    # the first mixture named in a work-up: what reacted is still associated
                    self._link(out, "ra_added_compound", m, p)
                else:
                    self._link(out, "workup_used_compound", m, p)
        elif pending:
            if prev:
                self._link(out, "ra_previous_state", m, prev)
            rule = "ra_product_source" if product else "ra_added_compound"
            for p in pending:
                if not (product and m.words[: len(p.words)] == p.words):
                    self._link(out, rule, m, p)  # not "Compound 8 ( 26 mg )" -> "Compound 8"
        elif prev:
            rule = "transformed_vessel_contents" if self._is_vessel(prev) else changed
            self._link(out, rule, m, prev)
        walk.state, walk.pending, walk.parent, walk.inputs = m, deferred, prev, pending
        walk.sibling = None
        return in_workup

    def is_gas(self, words: tuple[str, ...]) -> bool:
        """True for a gas a reaction runs under: hydrogen in any form ("H2 ( 1 atm )", "a
        hydrogen balloon"), an inert gas named as an atmosphere ("a nitrogen atmosphere")."""
        hit = self._gases.get(words)
        if hit is None:
            t = self.t
            core = [w.split("(")[0] for w in words
                    if w not in self._gas_frame and not w[:1].isdigit()]
            hit = bool(core) and self._gas_words.issuperset(core) and (
                not t.reaction_gases.isdisjoint(core)
                or not t.atmosphere_words.isdisjoint(words))
            if len(self._gases) < 100_000:
                self._gases[words] = hit
        return hit

    def _after_gas(self, pending: list[MentionView], workup_inputs: set[str]) -> bool:
        """True when a gas is pending and every other pending compound came in a work-up."""
        gas = False
        for p in pending:
            if self.is_gas(p.words):
                gas = True
            elif p.id not in workup_inputs:
                return False
        return gas

    def _quenched(self, prev: MentionView | None, pending: list[MentionView]) -> bool:
        """True when a quench or work-up liquid was among the compounds added to a mixture."""
        if prev is None:
            return False
        for p in pending:  # (a loop, not any() over a generator: pending is short)
            if not self.t.quench_words.isdisjoint(p.words):
                return True
        return False

    def _gathered(self, low: list[str], i: int) -> bool:
        """True for "(The organic layers) were combined" from token ``i`` on."""
        return (i + 1 < len(low) and low[i] in ("was", "were", "are", "is")
                and low[i + 1] in self.t.gathering_words)

    def _opposite(self, m: MentionView, other: MentionView) -> bool:
        """True when the two layers are named with sides, and the sides differ."""
        sides = self.layer_sides
        mine = {sides[w] for w in m.words if w in sides}
        theirs = {sides[w] for w in other.words if w in sides}
        return bool(mine) and bool(theirs) and mine.isdisjoint(theirs)

    def _parallel(self, m: MentionView, prev: MentionView) -> bool:
        """True for two layers of opposite sides ("the aqueous layer" / "the organic layer") or
        the filtrate after the solid filtered off ("The precipitated solid was filtered and the
        filtrate was ...")."""
        t = self.t
        if m.head in t.filtrate_heads and prev.head in t.filtered_heads:
            return True
        if m.head not in t.layer_heads or prev.head not in t.layer_heads:
            return False
        sides = self.layer_sides
        mine = {sides[w] for w in m.words if w in sides}
        theirs = {sides[w] for w in prev.words if w in sides}
        return len(mine) == 1 and len(theirs) == 1 and mine != theirs


class _Context:
    """What the walk needs from the action parser: steps, phases, products, objects."""

    def __init__(
        self, actions: list[Action], table: TokenTable, text: str, resolver: BridgingResolver
    ) -> None:
        self.table = table
        self.percent = "%" in text  # (else no mention holds a yield percentage)
        # the lowercased tokens with two "" before and after: the words around a mention
        # (token i at i + 2) without bounds tests
        self.around = ["", "", *table.lower, "", ""]
        self.views: list[MentionView] = []
        self._ending: dict[int, MentionView] | None = None
        self.setters = resolver.phase_setters  # action classes that set the phase
        self.adding = resolver.t.adding_actions
        self.step_start: int | None = None  # the first action of the walk's step
        body = [a for a in actions if a.label != HEADING]
        self.headings = ([a.start for a in actions if a.label == HEADING]
                         if len(body) < len(actions) else [])
        body.sort(key=_START)
        self.starts = starts = [a.start for a in body]
        self.steps = steps = [a.step for a in body]
        self.phases = [a.phase for a in body]
        self.labels = [a.label for a in body]
        self.objects = [a.args.get("object", ()) if a.args else () for a in body]
        self._starts: dict[str, int] | None = None  # mention id -> first character
        # the first action of each step (filled backwards: the earliest start is written last)
        self.first_action: dict[int, int] = dict(
            zip(reversed(steps), reversed(starts), strict=True))
        self.products: set[str] = set()
        self.removed: set[str] = set()
        self.targets: set[str] = set()  # "X was prepared / synthesized ...": the step's target
        self.extracted: set[str] = set()  # objects of extractions ("the layer was extracted")
        self.solvents: set[str] = set()  # solvents of actions ("dissolved in W")
        self.thrown_away: set[str] = set()  # objects of "removed", "decanted" (not evaporated)
        self.workup_objects: set[str] = set()
        self.processed: set[str] = set()  # objects of condition actions ("the tube was heated")
        special = resolver.object_actions
        for a in body:
            args = a.args
            if not args:
                continue  # no mention to record (an action without arguments)
            if "product" in args:
                self.products.update(args["product"])
            if "solvent" in args:
                self.solvents.update(args["solvent"])
            label = a.label
            if label not in special:
                continue  # (most actions) no rule reads this action's object
            if label in resolver.t.target_actions:
                self.targets.update(args.get("object", ()))
            if label in resolver.t.removing_actions:
                self.removed.update(args.get("object", ()))
                k = table.starting_at(a.start)
                if k is not None and table.lower[k] in resolver.t.discarding_triggers:
                    self.thrown_away.update(args.get("object", ()))
            if label in resolver.t.condition_actions:
                self.processed.update(args.get("object", ()))
            if a.phase == "workup" and label in resolver.t.workup_subject_actions:
                self.workup_objects.update(args.get("object", ()))
            if label in resolver.t.extracting_actions:
                self.extracted.update(args.get("object", ()))
        self._carry_condition(body, resolver.t.carried_conditions)

    def _carry_condition(self, body: list[Action], conditions: frozenset[str]) -> None:
        """A condition verb without an object right after "and" acts on what the action before
        it (in the sentence) acted on: "The vial was capped and heated", "X and Y were placed in
        a flask and refluxed": the vial, the flask are processed (they hold the system)."""
        table = self.table
        for before, a in zip(body, body[1:], strict=False):
            if (a.label not in conditions or (a.args and a.args.get("object"))
                    or not before.args or before.sentence != a.sentence):
                continue
            k = table.starting_at(a.start)
            if k is None or k < 2:
                continue
            low = table.lower
            if low[k - 1] == "then" and low[k - 2] == "and":
                k -= 1
            if low[k - 1] == "and":
                self.processed.update(before.args.get("object", ()))
                self.processed.update(before.args.get("container", ()))

    def workup_active(self, step: int, char: int, since: int = -1) -> bool:
        """True when the last action of ``step`` between ``since`` and ``char`` is a work-up."""
        k = bisect.bisect_left(self.starts, char) - 1
        if since < 0:
            return k >= 0 and self.steps[k] == step and self.phases[k] == "workup"
        while k >= 0 and self.starts[k] > since and self.steps[k] == step:
            if self.labels[k] in self.setters:
                return self.phases[k] == "workup"
            k -= 1
        return False

    def one_addition_between(self, lo: int, hi: int) -> bool:
        """True when exactly one action starts between characters ``lo`` and ``hi`` and it
        is an addition ("X was added to the mixture")."""
        a, b = bisect.bisect_right(self.starts, lo), bisect.bisect_left(self.starts, hi)
        return b - a == 1 and self.labels[a] in self.adding

    def adds_later(self, lo: int, hi: int) -> bool:
        """True when the addition starting between characters ``lo`` and ``hi`` names what
        it adds after ``lo`` ("dissolved in W at rt , and Z was added to the solution")."""
        a = bisect.bisect_right(self.starts, lo)
        added = self.objects[a] if a < len(self.objects) else ()
        return bool(added) and min(map(self.mention_start, added)) > lo

    def mention_start(self, mention_id: str) -> int:
        """The character offset of a mention's first token (the index is built on first
        use)."""
        if self._starts is None:
            idx = self.table.idx
            self._starts = {v.id: idx[v.first] for v in self.views}
        return self._starts.get(mention_id, -1)

    def actions_between(self, lo: int, hi: int) -> int:
        """Number of actions starting between characters ``lo`` and ``hi``."""
        return bisect.bisect_left(self.starts, hi) - bisect.bisect_right(self.starts, lo)

    def ending(self, i: int) -> MentionView | None:
        """The mention whose last token is ``i`` (the index is built on first use)."""
        if self._ending is None:
            self._ending = {v.last: v for v in self.views}
        return self._ending.get(i)

    def is_target(self, m: MentionView) -> bool:
        """True for the step's target named before its first action ("Intermediate 1-a was
        synthesized as illustrated in Scheme 1: ...")."""
        return m.id in self.targets and self.before_first_action(self.table.idx[m.first])

    def before_first_action(self, char: int) -> bool:
        """True before the first action of the current step (or in a step without one)."""
        start = self.step_start
        return start is None or char < start


@Language.factory(
    "chemie_bridging",
    default_config={"rules": "bridging.yaml", "actions": "actions.yaml"},
    requires=["doc._.mentions", "doc._.actions"],
    assigns=["doc._.relations"],
)
def make_bridging(nlp: Language, name: str, rules: str, actions: str) -> BridgingResolver:
    """The bridging resolver configured from rule tables in ``rules/`` (its own and the
    action classes, to know which actions set the phase)."""
    resolver = BridgingResolver(bridging_table(rules), action_table(actions))
    resolver.table_files = table_sources(rules, actions)
    resolver.table_names = (Path(rules).name, Path(actions).name)
    return resolver
