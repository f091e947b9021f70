"""What a mention is to the bridging walk: a state of the reaction system, an input, a
vessel, or nothing (skipped), decided from its words and the words around it.

:class:`Classifier` holds the word lists of ``rules/bridging.yaml`` (and the sets derived
from them once per table) with the checks on a mention's words that the walk
(:mod:`chemie.bridging.walk`) and the rules (:mod:`chemie.bridging.rules`) share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import regex

from chemie.actions.table import ActionTable
from chemie.actions.views import MentionView, head_word
from chemie.bridging.table import BridgingTable
from chemie.context import TokenTable

if TYPE_CHECKING:
    from chemie.bridging.state import Context

# what a mention is to the walk (Classifier.classify)
STATE, INPUT, EQUIPMENT, SKIP = "state", "input", "equipment", "skip"
QUENCHED = "quenched"  # "the reaction was quenched": a state after a mixture, else skipped


class Classifier:
    """The checks on a mention's words, with the word lists of a bridging table."""

    def __init__(self, table: BridgingTable, actions: ActionTable) -> None:
        self.t = t = table  # the typed rule table (rules/bridging.yaml)
        # action classes that set the phase
        self.phase_setters = frozenset(k for k, v in actions.classes.items() if v.phase != "any")
        self.unrelated_words = t.discarded | t.reference_words
        self.layer_sides: dict[str, str] = {
            w: side for side, words in t.layer_sides.items() for w in words
        }
        # action classes whose object some rule reads (Context skips the other actions)
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
        self.rule_words = (self._early_words | self._early_heads | {"title"} | t.yield_words
                           | t.product_modifiers
                           | t.state_pronouns | self._state_like_heads
                           | t.bare_state_qualifiers | t.physical_states)
        # the words around a mention near which a check of _early may fire
        self._of_nouns = (t.appositive_nouns | t.target_before_of
                          | frozenset().union(*t.not_used_before.values()))  # two before
        self._apparatus_marks = t.apparatus_after | {"-"}  # the word after
        # every suffix of a heading anaphor: the last word of one is among them
        self.anaphor_ends = frozenset(a[i:] for a in t.heading_anaphors for i in range(len(a)))
        self._vessel_joins = frozenset(("of", "in", "with", "containing"))
        self._gas_frame = t.gas_frame | t.atmosphere_words
        self._gas_words = t.reaction_gases | t.inert_gases
        self._gases: dict[tuple[str, ...], bool] = {}  # words -> is_gas (memo)

    def classify_name(self, m: MentionView, ctx: Context) -> str:
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

    def classify(self, m: MentionView, ctx: Context) -> str:
        """The mention's part in the walk: state, input, equipment or skip."""
        t = self.t
        words, head, first, around = m.words, m.head, m.first, ctx.around
        low = ctx.table.lower
        # the checks that fire only near particular words: skipped unless one is there
        if (head in self._early_heads or not self._early_words.isdisjoint(words)
                or around[first + 1] in t.appositive_before or around[first] in self._of_nouns
                or around[m.last + 3] in self._apparatus_marks
                or words[-1] in self.anaphor_ends):
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
        return self._material(m, ctx)

    def _material(self, m: MentionView, ctx: Context) -> str:
        """The last checks of :meth:`classify`: a work-up output named by its class or
        appearance, else an input (or a compound taken away, or a heading name: skipped)."""
        t = self.t
        words, head = m.words, m.head
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
        if start is None or ctx.table.idx[m.first] < start:
            if quantity is None:
                quantity = self.has_quantity(ctx.table, m)
            if not quantity and self._titled(ctx.table, m):
                return SKIP  # a heading name, referred to by coreference only
        return INPUT

    def _early(self, m: MentionView, ctx: Context) -> str | None:
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
        if self._no_material(m, low, before):
            return SKIP
        return self._named_again(m, ctx, before)

    def _no_material(self, m: MentionView, low: list[str], before: str) -> bool:
        """The checks of :meth:`_early` for a mention that names no material of the
        reaction: part of the apparatus, no compound, a reference to a procedure or a
        compound not used ("before" is the word before the mention)."""
        t = self.t
        words, head, first = m.words, m.head, m.first
        if self._apparatus(m, low):
            return True
        if head in t.non_compounds:
            return True  # "inert atmosphere", "a period of": no compound
        if head == "atmosphere" and t.empty_atmosphere.issuperset(words):
            return True  # "the atmosphere in the flask was replaced": no gas named
        if before == "to" and len(words) == 1 and words[0] in t.infinitives:
            return True  # "evaporated ... to concentrate": a verb taken for a name
        if not self.unrelated_words.isdisjoint(words):
            # reference_words: "the following Reaction Scheme" (a reference, not a material);
            # discarded: "the insoluble matter was filtered off" (not the system)
            return True
        if before == "of" and first > 1 and low[first - 2] in t.target_before_of:
            return True  # "Synthesis of X is depicted in FIG. 9": the target, named as a title
        if words[0] in t.procedure_words or (
                len(words) > 2 and words[1] == "of" and words[2] in t.procedure_words):
            return True  # "Example 12", "step 2 of Example 1": a reference to a procedure
        if (before in t.not_used_before and first > 1 and head not in t.state_heads
                and low[first - 2] in t.not_used_before[before]):
            # "using X instead of Y": Y is not used; "analogous to the process for preparing
            # Compound 1": a reference to another procedure's product
            return True
        return False

    def _apparatus(self, m: MentionView, low: list[str]) -> bool:
        """True for a word of an apparatus: "ice" in "an ice bath", "under ice - cooling"
        (but the hydrogen of "a hydrogen balloon" is the gas the reaction runs under)."""
        apparatus = self.t.apparatus_after
        after = low[m.last + 1] if m.last + 1 < len(low) else ""
        return (after in apparatus or (
            after == "-" and m.last + 2 < len(low) and low[m.last + 2] in apparatus
        )) and not self.is_gas(m.words)

    def _named_again(self, m: MentionView, ctx: Context, before: str) -> str | None:
        """The checks of :meth:`_early` for a material named again (coreference, no
        bridging), the reaction as an event, or a quench; None when none fires."""
        t = self.t
        words, head = m.words, m.head
        low = ctx.table.lower
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
                ctx.table.idx[m.first]):
            return SKIP  # "This compound was prepared from X": the heading compound (coreference)
        return None

    def _state_head(self, m: MentionView, ctx: Context) -> str | None:
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
    def _by_class(self, m: MentionView) -> bool:
        """True for a product named by its class after "crude" or "free" ("the crude
        amine")."""
        t = self.t
        return m.head in t.product_classes and not t.product_modifiers.isdisjoint(m.words[:2])

    def is_vessel(self, m: MentionView) -> bool:
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

    def opposite(self, m: MentionView, other: MentionView) -> bool:
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
