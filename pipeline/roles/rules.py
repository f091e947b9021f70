"""The compound rules of ``rules/roles.yaml``, each a function registered under its name in
the rule registry (``chemie.registry.stage_rules("roles")``).

A rule is an entry of the table (name, comment, the label it gives, its own keys) and one
function here. A *feature rule* reads only the :class:`Features` of a compound (computed once
per compound by :mod:`chemie.roles.features`)::

    @feature_rule("workup_compound", params=PhaseRule)
    def workup_compound(p: PhaseRule, f: Features) -> bool:
        return f.phase == p.phase

A *text rule* also reads the text around the compound (a pattern before or after it, the
word that governs it) and is tried only on compounds whose features pass its ``gate``::

    @text_rule("layer", params=NextRule)
    def layer(c: RoleContext, p: NextRule, x: Compound) -> bool:
        return c.pattern(p.next).match(x.next) is not None

The rules run in table order and the first that holds labels the compound (a rule labelled
``NONE`` drops it). :class:`RuleBook` evaluates the feature rules once per distinct feature
set (a dict lookup per compound) and keeps, for that set, the text rules left to try before
the first feature rule that holds; a gate may only leave out compounds its function rejects
anyway, and a text rule with cues is tried only in a document that holds one of them. The
last rules form their own table section, the reactant-or-reagent stage
(:mod:`chemie.roles.participants`).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from chemie.registry import StageRules, stage_rules

if TYPE_CHECKING:  # (the table's schema imports this module: it stays free of spaCy)
    from chemie.roles.context import RoleContext
    from chemie.roles.features import Compound, Features
    from chemie.roles.found import Found

Phase = Literal["reaction", "workup"]


@dataclass(frozen=True, kw_only=True)
class CompoundRule:
    """The keys of every compound rule; a rule with keys of its own reads its entry with a
    subclass (``params`` of :func:`feature_rule` / :func:`text_rule`)."""

    # rule name -> the dataclass its entry is read with (filled by the decorators)
    table_variants: ClassVar[dict[str, type[CompoundRule]]] = {}
    # the text a text rule's cues are looked for in (:class:`TextRule`); "": none
    window: ClassVar[str] = ""

    name: str
    comment: str
    label: str  # a compound role, or NONE: no role entity


@dataclass(frozen=True, kw_only=True)
class WordsRule(CompoundRule):
    words: str  # the word list (``words:`` of the table) that holds the compound's name


@dataclass(frozen=True, kw_only=True)
class PlaceRule(CompoundRule):
    place: Literal["title", "heading"]  # "title": a heading before a step heading


@dataclass(frozen=True, kw_only=True)
class PhaseRule(CompoundRule):
    phase: Phase


@dataclass(frozen=True, kw_only=True)
class KindRule(CompoundRule):
    kind: Literal["reference", "state"]  # a reference ("the title compound"), a state ("a solid")


@dataclass(frozen=True, kw_only=True)
class ActionRule(CompoundRule):
    actions: frozenset[str]  # the class of an action naming the compound


@dataclass(frozen=True, kw_only=True)
class VerbRule(CompoundRule):
    verbs: frozenset[str]  # the word of an action naming the compound
    arg: frozenset[str]  # ... and its argument role in an action


@dataclass(frozen=True, kw_only=True)
class LexiconRule(CompoundRule):
    lexicon: Literal["STARTING_MATERIAL", "REAGENT_CATALYST", "SOLVENT"]  # its training role


@dataclass(frozen=True, kw_only=True)
class LinkedRule(CompoundRule):
    linked: frozenset[str]  # a relation to its mention (chemie_bridging, chemie_coref)
    words: str


@dataclass(frozen=True, kw_only=True)
class ArgumentRule(CompoundRule):
    arg: frozenset[str]
    words: str


@dataclass(frozen=True, kw_only=True)
class TextRule(CompoundRule):
    # words one of which the (lowercased) text the pattern reads holds wherever it matches:
    # without any, the pattern is not tried (a quick test, never a condition of its own)
    cues: tuple[str, ...] = ()
    # the text the cues are looked for in: the 40 characters "before" the compound, the 40
    # "next" to it, or its "name"
    window: ClassVar[str] = "name"  # type: ignore[misc]


@dataclass(frozen=True, kw_only=True)
class BeforeRule(TextRule):
    window: ClassVar[str] = "before"  # type: ignore[misc]
    before: str  # a pattern (``patterns:``) over the 40 characters before the compound
    phase: Phase | None = None
    kind: Literal["reference", "state"] | None = None
    not_words: str | None = None  # a word list that must not hold its name


@dataclass(frozen=True, kw_only=True)
class NextRule(TextRule):
    window: ClassVar[str] = "next"  # type: ignore[misc]
    next: str  # a pattern matched at the compound's end (40 characters)
    phase: Phase | None = None


@dataclass(frozen=True, kw_only=True)
class NamePatternRule(TextRule):
    pattern: str  # a pattern over the compound's name
    kind: Literal["reference", "state"] | None = None
    cased: bool = False  # the name as written (else lowercased)


@dataclass(frozen=True, kw_only=True)
class AfterRule(CompoundRule):
    after: frozenset[str]  # the word governing it ("in", amounts and modifiers skipped)
    words: str


FeatureFn = Callable[..., bool]  # (params, Features) -> holds
TextFn = Callable[..., bool]  # (RoleContext, params, Compound) -> holds
Gate = Callable[["Features", CompoundRule], bool]


@dataclass(frozen=True)
class RuleSpec:
    """A registered rule: its function, whether it reads text, and the gate of a text rule."""

    name: str
    fn: Callable[..., bool]
    reads_text: bool
    gate: Gate | None


RULES: StageRules[RuleSpec] = stage_rules("roles")  # rule name -> its function and gate


def _register(name: str, params: type[CompoundRule], spec: RuleSpec) -> None:
    RULES.add(name, spec)
    CompoundRule.table_variants[name] = params


def feature_rule(name: str, *, params: type[CompoundRule] = CompoundRule
                 ) -> Callable[[FeatureFn], FeatureFn]:
    """Register the function of the rule ``name``: ``fn(entry, features) -> bool``."""

    def register(fn: FeatureFn) -> FeatureFn:
        _register(name, params, RuleSpec(name, fn, False, None))
        return fn

    return register


def text_rule(name: str, *, params: type[CompoundRule] = CompoundRule,
              gate: Gate | None = None) -> Callable[[TextFn], TextFn]:
    """Register the function of the rule ``name``: ``fn(context, entry, compound) -> bool``,
    tried only on compounds whose features pass ``gate(features, entry)`` (None: all)."""

    def register(fn: TextFn) -> TextFn:
        _register(name, params, RuleSpec(name, fn, True, gate))
        return fn

    return register


# the compound rules, in the order of the table (the order there is what counts)


@feature_rule("heading_target", params=PlaceRule)
def heading_target(p: PlaceRule, f: Features) -> bool:
    return f.place == p.place


@feature_rule("heading_product", params=PlaceRule)
def heading_product(p: PlaceRule, f: Features) -> bool:
    return f.place == p.place


def _before_gate(f: Features, p: BeforeRule) -> bool:
    return ((p.phase is None or f.phase == p.phase) and (p.kind is None or f.kind == p.kind)
            and (p.not_words is None or p.not_words not in f.lists))


def _cued(cues: tuple[str, ...], window: str) -> bool:
    """Whether ``window`` holds one of ``cues`` (no cues: always)."""
    if not cues:
        return True
    for cue in cues:
        if cue in window:
            return True
    return False


def _before(c: RoleContext, p: BeforeRule, x: Compound) -> bool:
    return (_before_gate(x.f, p) and _cued(p.cues, x.before_lower)
            and c.pattern(p.before).search(x.before) is not None)


text_rule("step_heading_product", params=BeforeRule, gate=_before_gate)(_before)


@feature_rule("supports", params=WordsRule)
def supports(p: WordsRule, f: Features) -> bool:
    return p.words in f.lists


def _next_gate(f: Features, p: NextRule) -> bool:
    return p.phase is None or f.phase == p.phase


def _next(c: RoleContext, p: NextRule, x: Compound) -> bool:
    return (_next_gate(x.f, p) and _cued(p.cues, x.next_lower)
            and c.pattern(p.next).match(x.next) is not None)


text_rule("source_reference", params=NextRule, gate=_next_gate)(_next)
text_rule("described_state", params=BeforeRule, gate=_before_gate)(_before)


@feature_rule("title_reference", params=WordsRule)
def title_reference(p: WordsRule, f: Features) -> bool:
    return p.words in f.lists


def _name_gate(f: Features, p: NamePatternRule) -> bool:
    return p.kind is None or f.kind == p.kind


def _name_pattern(c: RoleContext, p: NamePatternRule, x: Compound) -> bool:
    return (_name_gate(x.f, p) and _cued(p.cues, x.text)
            and c.name_matches(p.pattern, x.raw if p.cased else x.text))


text_rule("following_reference", params=NamePatternRule, gate=_name_gate)(_name_pattern)


@feature_rule("yield_product", params=ActionRule)
def yield_product(p: ActionRule, f: Features) -> bool:
    return not p.actions.isdisjoint(f.actions)


@feature_rule("prepared_product", params=VerbRule)
def prepared_product(p: VerbRule, f: Features) -> bool:
    return not p.verbs.isdisjoint(f.verbs) and not p.arg.isdisjoint(f.roles)


@feature_rule("other_state", params=KindRule)
def other_state(p: KindRule, f: Features) -> bool:
    return f.kind == p.kind


text_rule("isolated_product", params=NextRule, gate=_next_gate)(_next)
text_rule("referred_product", params=BeforeRule, gate=_before_gate)(_before)


@text_rule("quantified_product")
def quantified_product(c: RoleContext, p: CompoundRule, x: Compound) -> bool:
    end = x.span.end
    # (a yield starts with a bracket, an amount or ", (" right after the compound)
    nxt = x.source[end : end + 2].lstrip()[:1]
    if nxt != "(" and nxt != "," and not nxt.isdigit():
        return False
    return c.yields.has_yield_after(x.span)  # type: ignore[union-attr]


@feature_rule("other_reference", params=WordsRule)
def other_reference(p: WordsRule, f: Features) -> bool:
    return p.words in f.lists


text_rule("generic_reference", params=NamePatternRule, gate=_name_gate)(_name_pattern)
text_rule("layer", params=NextRule, gate=_next_gate)(_next)
text_rule("bath_medium", params=NextRule, gate=_next_gate)(_next)
text_rule("analysis_compound", params=BeforeRule, gate=_before_gate)(_before)
text_rule("other_procedure", params=BeforeRule, gate=_before_gate)(_before)


@feature_rule("workup_compound", params=PhaseRule)
def workup_compound(p: PhaseRule, f: Features) -> bool:
    return f.phase == p.phase


@feature_rule("workup_antecedent", params=LinkedRule)
def workup_antecedent(p: LinkedRule, f: Features) -> bool:
    return not p.linked.isdisjoint(f.linked) and p.words in f.lists


@feature_rule("atmosphere", params=WordsRule)
def atmosphere(p: WordsRule, f: Features) -> bool:
    return p.words in f.lists


def _after_gate(f: Features, p: AfterRule) -> bool:
    return p.words in f.lists


@text_rule("solvent_after_in", params=AfterRule, gate=_after_gate)
def solvent_after_in(c: RoleContext, p: AfterRule, x: Compound) -> bool:
    return p.words in x.f.lists and c.word_before(x.span.start) in p.after


@feature_rule("solvent_argument", params=ArgumentRule)
def solvent_argument(p: ArgumentRule, f: Features) -> bool:
    return not p.arg.isdisjoint(f.roles) and p.words in f.lists


# the reactant-or-reagent stage (the table's ``reactant_or_reagent`` section)


@feature_rule("training_reagent", params=LexiconRule)
def training_reagent(p: LexiconRule, f: Features) -> bool:
    return f.lexicon == p.lexicon


@feature_rule("training_starting_material", params=LexiconRule)
def training_starting_material(p: LexiconRule, f: Features) -> bool:
    return f.lexicon == p.lexicon


@feature_rule("training_solvent", params=LexiconRule)
def training_solvent(p: LexiconRule, f: Features) -> bool:
    return f.lexicon == p.lexicon


@feature_rule("known_reagent", params=WordsRule)
def known_reagent(p: WordsRule, f: Features) -> bool:
    return p.words in f.lists


text_rule("reagent_by_name", params=NamePatternRule, gate=_name_gate)(_name_pattern)
text_rule("reagent_formula", params=NamePatternRule, gate=_name_gate)(_name_pattern)


@feature_rule("known_solvent", params=WordsRule)
def known_solvent(p: WordsRule, f: Features) -> bool:
    return p.words in f.lists


@feature_rule("reactant")
def reactant(p: CompoundRule, f: Features) -> bool:
    return True


Step = tuple[RuleSpec, CompoundRule]
Decision = tuple[str, str]  # (label, rule name)
Plan = tuple[list[Step], "Decision | None"]  # the text rules to try, then the decision


class RuleBook:
    """Rules in table order: a compound -> (label, rule name) of the first rule that holds,
    or None.

    What decides without reading the text is decided once per plan key: the compound's
    :class:`Features`, the cued rules its document leaves out (none of their cues in it)
    and the rules cued in a window whose cues stand in the compound's window (the places of
    a document's cues are found once, and the compounds near each found by position). A
    plan is the text rules left to try, in order, and the decision of the first feature
    rule that holds after them."""

    def __init__(self, rules: Iterable[CompoundRule]):
        self.steps: list[Step] = [(RULES[r.name], r) for r in rules]
        # the text rules with cues: (name, cues, window)
        self.cued = [(e.name, e.cues, e.window) for s, e in self.steps
                     if s.reads_text and getattr(e, "cues", ())]
        # the cued rules left out -> (features, cued rules near) -> plan
        self._plans: dict[frozenset[str], dict[tuple[Features, tuple[str, ...]], Plan]] = {}
        # the document being labelled: its plans, the rules it leaves out, its cue places
        self._doc: RoleContext | None = None
        self.doc_plans: dict[tuple[Features, tuple[str, ...]], Plan] = {}
        self._off: frozenset[str] = frozenset()
        self._places: dict[str, tuple[list[int], list[int]]] = {}

    def plan(self, f: Features, off: frozenset[str] = frozenset(),
             near: tuple[str, ...] | None = None) -> Plan:
        """The text rules to try on a compound with features ``f`` (in order, gates passed;
        those named in ``off`` left out, and the window-cued rules not in ``near``; None:
        none left out for their cues) and the decision of the first feature rule that holds
        after them (or None)."""
        tries: list[Step] = []
        decided = None
        for step in self.steps:
            spec, entry = step
            if not spec.reads_text:
                if spec.fn(entry, f):
                    decided = (entry.label, entry.name)
                    break
            elif entry.name in off or (spec.gate is not None and not spec.gate(f, entry)):
                continue
            elif near is None or not _in_window(entry) or entry.name in near:
                tries.append(step)
        return tries, decided

    def start(self, c: RoleContext) -> None:
        """Read the cues of document ``c``: which cued rules it leaves out."""
        if c is self._doc:
            return
        self._doc = c
        low = c.lower_text
        off = frozenset(name for name, cues, _ in self.cued if not _cued(cues, low))
        plans = self._plans.get(off)
        if plans is None:
            plans = self._plans[off] = {}
        self.doc_plans, self._off, self._places = plans, off, {}

    def places(self, c: RoleContext, rule: str, cues: tuple[str, ...]
               ) -> tuple[list[int], list[int]]:
        """The starts and ends of the cues of ``rule`` in document ``c``, in text order."""
        places = self._places.get(rule)
        if places is None:
            low = c.lower_text
            found = []
            for cue in cues:
                at = low.find(cue)
                while at >= 0:
                    found.append((at, at + len(cue)))
                    at = low.find(cue, at + 1)
            found.sort()
            places = self._places[rule] = ([a for a, _ in found], [b for _, b in found])
        return places

    def near(self, c: RoleContext, spans: list[Found]) -> list[tuple[str, ...]]:
        """For each span of ``spans`` (in text order), the window-cued rules of document
        ``c`` with a cue in its window (the 40 characters before its start or after its
        end), in table order."""
        near: list[list[str]] = [[] for _ in spans]
        starts = [f.start for f in spans]
        ends = sorted((f.end, i) for i, f in enumerate(spans))
        end_at = [e for e, _ in ends]
        bisect_left, bisect_right = bisect.bisect_left, bisect.bisect_right
        for name, cues, window in self.cued:
            if name in self._off or (window != "before" and window != "next"):
                continue
            hit = set()
            for a, b in zip(*self.places(c, name, cues), strict=True):
                if window == "before":  # spans starting in [b, a + 40]
                    hit.update(range(bisect_left(starts, b), bisect_right(starts, a + 40)))
                else:  # spans ending in [b - 40, a]
                    hit.update(i for _, i in ends[bisect_left(end_at, b - 40):
                                                  bisect_right(end_at, a)])
            for i in hit:
                near[i].append(name)
        return [tuple(n) for n in near]

    def decide_all(self, c: RoleContext, xs: list[Compound]) -> list[Decision | None]:
        """The decision of each compound of ``xs`` (one document's, in text order)."""
        self.start(c)
        plans, off = self.doc_plans, self._off
        out = []
        for x, near in zip(xs, self.near(c, [x.span for x in xs]), strict=True):
            key = (x.f, near)
            plan = plans.get(key)
            if plan is None:
                plan = plans[key] = self.plan(x.f, off, near)
            out.append(_first(c, x, plan))
        return out

    def decide(self, c: RoleContext, x: Compound) -> Decision | None:
        """The label and rule of the first rule that holds for ``x``."""
        self.start(c)
        near = tuple(name for name, cues, window in self.cued
                     if window in ("before", "next") and name not in self._off
                     and self.cue_near(c, name, cues, window, x.span))
        key = (x.f, near)
        plan = self.doc_plans.get(key)
        if plan is None:
            plan = self.doc_plans[key] = self.plan(x.f, self._off, near)
        return _first(c, x, plan)

    def cue_near(self, c: RoleContext, rule: str, cues: tuple[str, ...], window: str,
                 span: Found) -> bool:
        """Whether a cue of ``rule`` stands in the ``window`` of ``span``."""
        ats, ends = self.places(c, rule, cues)
        a, b = (span.start - 40, span.start) if window == "before" else (span.end,
                                                                         span.end + 40)
        k = bisect.bisect_left(ats, a)
        while k < len(ats) and ats[k] < b:
            if ends[k] <= b:
                return True
            k += 1
        return False


def _in_window(entry: CompoundRule) -> bool:
    """Whether ``entry`` is a rule cued in a window before or after the compound."""
    return entry.window in ("before", "next") and bool(getattr(entry, "cues", ()))


def _first(c: RoleContext, x: Compound, plan: Plan) -> Decision | None:
    """The decision of ``plan`` for ``x``: its first text rule that holds, else its
    decision."""
    tries, decided = plan
    for spec, entry in tries:
        if spec.fn(c, entry, x):
            return entry.label, entry.name
    return decided
