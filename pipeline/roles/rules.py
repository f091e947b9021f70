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

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from chemie.registry import StageRules, stage_rules

if TYPE_CHECKING:  # (the table's schema imports this module: it stays free of spaCy)
    from chemie.roles.context import RoleContext
    from chemie.roles.features import Compound, Features

Phase = Literal["reaction", "workup"]


@dataclass(frozen=True, kw_only=True)
class CompoundRule:
    """The keys of every compound rule; a rule with keys of its own reads its entry with a
    subclass (``params`` of :func:`feature_rule` / :func:`text_rule`)."""

    # rule name -> the dataclass its entry is read with (filled by the decorators)
    table_variants: ClassVar[dict[str, type[CompoundRule]]] = {}

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
    window: ClassVar[str] = "name"


@dataclass(frozen=True, kw_only=True)
class BeforeRule(TextRule):
    window: ClassVar[str] = "before"
    before: str  # a pattern (``patterns:``) over the 40 characters before the compound
    phase: Phase | None = None
    kind: Literal["reference", "state"] | None = None
    not_words: str | None = None  # a word list that must not hold its name


@dataclass(frozen=True, kw_only=True)
class NextRule(TextRule):
    window: ClassVar[str] = "next"
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


text_rule("solvent_after_slash", params=AfterRule, gate=_after_gate)(solvent_after_in)


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
    or None. The feature rules are decided once per distinct :class:`Features` and set of
    text rules the document leaves out (those none of whose cues it holds); a text rule
    whose cues are looked for in a window before or after the compound is tried only on a
    compound whose window holds one (the cues found once per document, by position)."""

    def __init__(self, rules: Iterable[CompoundRule]):
        self.steps: list[Step] = [(RULES[r.name], r) for r in rules]
        # the text rules with cues: (name, cues, window)
        self.cued = [(e.name, e.cues, e.window) for s, e in self.steps
                     if s.reads_text and getattr(e, "cues", ())]
        self._plans: dict[frozenset[str], dict[Features, Plan]] = {}
        # the document being labelled, its plans and its windows (see :meth:`start`)
        self._doc: RoleContext | None = None
        self.doc_plans: dict[Features, Plan] = {}
        self.windows: dict[str, tuple[bool, set[int]]] = {}
        self._off: frozenset[str] = frozenset()

    def plan(self, f: Features, off: frozenset[str] = frozenset()) -> Plan:
        """The text rules to try on a compound with features ``f`` (in order, gates passed,
        those named in ``off`` left out) and the decision of the first feature rule that
        holds after them (or None)."""
        plans = self._plans.get(off)
        if plans is None:
            plans = self._plans[off] = {}
        plan = plans.get(f)
        if plan is None:
            tries: list[Step] = []
            decided = None
            for step in self.steps:
                spec, entry = step
                if not spec.reads_text:
                    if spec.fn(entry, f):
                        decided = (entry.label, entry.name)
                        break
                elif entry.name not in off and (spec.gate is None or spec.gate(f, entry)):
                    tries.append(step)
            plan = plans[f] = (tries, decided)
        return plan

    def start(self, c: RoleContext) -> None:
        """Read the cues of document ``c``: which cued rules it leaves out (its plans:
        :attr:`doc_plans`), and for each rule cued in a window, the starts (window before)
        or ends (window after) of the compounds whose window holds a cue (:attr:`windows`)."""
        if c is self._doc:
            return
        self._doc = c
        low = c.lower_text
        off = []
        windows: dict[str, tuple[bool, set[int]]] = {}
        for name, cues, window in self.cued:
            if window == "name":
                if not _cued(cues, low):
                    off.append(name)
                continue
            allowed: set[int] = set()
            for cue in cues:
                at = low.find(cue)
                while at >= 0:
                    if window == "before":  # cue in [start - 40, start)
                        allowed.update(range(at + len(cue), at + 41))
                    else:  # cue in [end, end + 40)
                        allowed.update(range(at + len(cue) - 40, at + 1))
                    at = low.find(cue, at + 1)
            if allowed:
                windows[name] = (window == "before", allowed)
            else:
                off.append(name)
        key = frozenset(off)
        plans = self._plans.get(key)
        if plans is None:
            plans = self._plans[key] = {}
        self.doc_plans, self.windows, self._off = plans, windows, key

    def decide(self, c: RoleContext, x: Compound) -> Decision | None:
        """The label and rule of the first rule that holds for ``x``."""
        self.start(c)
        plan = self.doc_plans.get(x.f)
        if plan is None:
            plan = self.plan(x.f, self._off)
        tries, decided = plan
        if tries:
            windows = self.windows
            span = x.span
            for spec, entry in tries:
                window = windows.get(entry.name)
                if window is not None and (
                        (span.start if window[0] else span.end) not in window[1]):
                    continue  # none of its cues in the compound's window
                if spec.fn(c, entry, x):
                    return entry.label, entry.name
        return decided
