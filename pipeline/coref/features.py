"""What the coreference rules of ``rules/coref.yaml`` share: the anaphor's view
(:class:`CorefMention`), its :class:`Features`, the doc's :class:`Context`, the typed table
and the registry.

A rule is an entry of the table (name, comment, its own word lists) and one function, in the
module of its family (``rules_labels``, ``rules_products``, ``rules_workup``)::

    @rule("definite_repeat", params=DefiniteRepeat,
          gate=lambda f, p: f.det == "the" and f.head in p.heads)
    def definite_repeat(c: Context, p: DefiniteRepeat, a: CorefMention) -> Found:
        ...

The function gets the doc's :class:`Context`, its entry of the table (``params``: a
dataclass extending :class:`CorefRule`, so the table is read typed and a misspelt key is an
error) and the anaphor; it returns the antecedent, a list of antecedents (closest first) or
None. ``kinds`` names the anaphor kinds it can resolve and ``gate`` is a cheap predicate
over the anaphor's :class:`Features` and the rule's entry: the resolver tries a rule only on
anaphors that pass both. It computes the features once per mention and the rules to try once
per distinct features (a dict lookup per mention), so a gate costs nothing per mention; a
gate must leave out only anaphors that the function itself rejects (tests/test_coref.py
checks on ChEMU-Ref that trying every rule changes no link). Rules run in the table's order;
the first that resolves an anaphor wins. :mod:`chemie.coref.rules` imports every family and
loads the table.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, Literal, NamedTuple

from chemie.model import Mention
from chemie.registry import StageRules, stage_rules


@dataclass(slots=True)
class CorefMention:
    """A mention with what the rules compare."""

    m: Mention
    i: int  # position in text order
    first: int
    last: int
    core: str  # lowercased core text (no determiner, no quantities)
    kind: str
    head: str
    det: str
    sentence: int
    ident: str  # "22" for "Compound 22" / "( 22 )", else ""
    name: str  # the chemical words of the core (modifiers and determiners dropped)
    ranges: Sequence[tuple[int, int]]  # token ranges (inclusive), one per piece
    before: str  # lowercased token before the mention ("" at the start)
    bracketed: bool  # directly inside "(" … ")" or "(" … ","
    name_key: str  # name without spaces (what repeated_name compares)


Found = CorefMention | list[CorefMention] | None


class Features(NamedTuple):
    """What a gate sees of an anaphor (computed once per mention by
    ``CorefResolver._views``: a new feature is a field here and its value there). ``head``
    and ``core`` are kept only when a word list of a rule with a gate holds them or they end
    a phrase of one (else ""): a gate compares them with its rule's lists, and the
    resolver's cache of rules per features stays small."""

    kind: str  # chemical, reference, generic, state, equipment
    det: str  # "the", "a", "this" … or ""
    head: str
    core: str
    material_role: bool  # a numbered reactant role ("raw material 2": starting_material's anaphors)
    titled: bool  # the core holds a TITLE_WORDS word ("the title compound", "desired product")
    ident: bool  # a compound label other than "Example N" ("Compound 22", "( 3a )")
    bracketed: bool  # in brackets after a name, or an abbreviation
    after_as: bool  # right after "as"
    after_colon: bool  # right after ":" or "."
    after_label: bool  # right after a compound label ("Compound ( 4 ) : NAME")
    after_following: bool  # after "the following …" ("The following compounds … : NAME")
    in_heading: bool  # in the heading, after its first mention
    yield_or_label: bool  # holds "%" or is a compound label
    after_title: bool  # after the compound named in the heading


@dataclass(frozen=True, kw_only=True)
class CorefRule:
    """The keys of every rule of ``rules/coref.yaml``; a rule with word lists of its own
    reads its entry with a subclass (``params`` of :func:`rule`)."""

    # rule name -> the dataclass its entry is read with (filled by @rule; chemie.tables)
    table_variants: ClassVar[dict[str, type[CorefRule]]] = {}

    name: str
    comment: str
    confidence: float | None = None  # Relation.confidence (python -m chemie.rule_precision)
    link: Literal["direct"] | None = None  # link the antecedent named, not its chain's latest


@dataclass(frozen=True)
class CorefTable:
    """``rules/coref.yaml``: the rules in order, and the word lists several rules read."""

    rules: tuple[CorefRule, ...]
    heading_words: frozenset[str]  # words of a heading ("Step 2 : Synthesis of X")
    solvents: frozenset[str]  # the_solvent, repeated_name, bracketed_abbreviation
    yield_verbs: frozenset[str]  # the verb before a product: final_product, analysis_formula

    @cached_property
    def solvent_tails(self) -> tuple[str, ...]:
        """" dry thf", " the dmf": a name that ends with a solvent."""
        return tuple(" " + s for s in sorted(self.solvents))

    @cached_property
    def material_anaphors(self) -> frozenset[str]:
        """The anaphors of starting_material ("the raw material"), which as_eluent reads
        too ("X as Raw material 2")."""
        for r in self.rules:
            if r.name == "starting_material":
                return r.anaphors  # type: ignore[attr-defined]
        return frozenset()

    def words(self) -> frozenset[str]:
        """Every word and phrase of the word lists of the rules that have a gate (what a gate
        compares), and the words that end a phrase ("product" of "the product"): the heads
        and cores that :class:`Features` keeps."""
        out: set[str] = set()
        for record in self.rules:
            if RULES[record.name].gate is None:
                continue
            for f in dataclasses.fields(record):
                value = getattr(record, f.name)
                if isinstance(value, Collection) and not isinstance(value, str):
                    for w in value:
                        if isinstance(w, str):
                            words = w.split(" ")
                            out.update(" ".join(words[i:]) for i in range(len(words)))
        return frozenset(out)


Gate = Callable[[Features, CorefRule], bool]


@dataclass(frozen=True)
class RuleSpec:
    """A registered rule: its function, the anaphor kinds it resolves and its gate."""

    name: str
    fn: Callable[..., Found]
    kinds: frozenset[str] | None
    gate: Gate | None

    def admits(self, f: Features, p: CorefRule) -> bool:
        """Whether the rule may resolve an anaphor with features ``f``."""
        if self.kinds is not None and f.kind not in self.kinds:
            return False
        return self.gate is None or self.gate(f, p)


RULES: StageRules[RuleSpec] = stage_rules("coref")  # name -> its function, kinds and gate


def rule(
    name: str,
    *,
    params: type[CorefRule] = CorefRule,
    kinds: tuple[str, ...] | None = None,
    gate: Gate | None = None,
) -> Callable[[Callable[..., Found]], Callable[..., Found]]:
    """Register the function of the rule ``name`` of ``rules/coref.yaml``: its entry is read
    with ``params``; it is tried only on anaphors of ``kinds`` (None: any) whose features
    pass ``gate(features, entry)``."""

    def register(fn: Callable[..., Found]) -> Callable[..., Found]:
        RULES.add(name, RuleSpec(name, fn, None if kinds is None else frozenset(kinds), gate))
        CorefRule.table_variants[name] = params
        return fn

    return register


@dataclass(slots=True)
class Context:
    """What the rules read of one doc."""

    table: CorefTable
    words: list[str]  # the lowercased token texts
    cased: list[str]  # the token texts
    ms: list[CorefMention]  # the mentions in text order
    title: CorefMention | None  # the compound named in the heading
    heading_end: int  # the first token after the heading
    product: int = -2  # last_product() once computed (-2: not yet)

    def last_product(self) -> int:
        """Position of the last mention with a yield (%) right after a yield verb, or -1
        (computed once per doc)."""
        if self.product == -2:
            self.product = _last_product(self)
        return self.product


# words of a phrase that names the compound of the heading (title_compound)
TITLE_WORDS = ("title", "target", "desired")
# "0-15% ethyl acetate / hexane", "10% Pd / C": a concentration, not a yield
CONCENTRATION = re.compile(r"\d+(?:\.\d+)?(?:\s*[-–~]\s*\d+(?:\.\d+)?)?\s*%\s*[A-Za-z]")
_APPOSITION = (":", ",")  # "Compound ( 4 ) : NAME", "Compound B5 , NAME" (label_colon_name)


def open_bracket(words: list[str], first: int) -> int:
    """Position of an unclosed "(" or "[" at most 10 tokens before ``first``, else -1."""
    depth = 0
    for i in range(first - 1, max(-1, first - 11), -1):
        if words[i] in (")", "]"):
            depth += 1
        elif words[i] in ("(", "["):
            if depth == 0:
                return i
            depth -= 1
    return -1


def enclosed(ms: list[CorefMention], x: CorefMention) -> bool:
    """Whether ``x`` lies in the gap of the discontinuous mention just before it."""
    if x.i == 0:
        return False
    y = ms[x.i - 1]
    return len(y.ranges) > 1 and y.ranges[0][1] < x.first <= y.ranges[-1][0]


def _last_product(c: Context) -> int:
    words, verbs = c.cased, c.table.yield_verbs
    for x in reversed(c.ms):
        around = words[max(0, x.first - 3) : x.first] + words[x.last + 1 : x.last + 4]
        if "%" in x.m.text and CONCENTRATION.match(x.m.text) is None and (
            any(w.lower() in verbs for w in around)
            # a sentence of its own: "Yellow solid ( 22 mg , 55% )"
            or (x.kind == "state" and x.before in ("", ".", ":", ";"))
            # "Yield : 0.15 g ( 58% of theory )"
            or x.m.rule == "yield_statement"
        ):
            return x.i
    return -1


def label_of_next(c: Context, a: CorefMention) -> bool:
    """Whether ``a`` is a label ("Compound ( 4 )") followed by ":" or "," and a chemical
    name."""
    ms = c.ms
    if a.kind != "reference" or not a.ident or a.head == "example" or a.i + 1 >= len(ms):
        return False
    x = ms[a.i + 1]
    return (
        x.kind == "chemical" and x.first - a.last == 2
        and c.words[a.last + 1] in _APPOSITION and not a.m.quantity
    )


def material_role(table: CorefTable, core: str) -> bool:
    """Whether ``core`` names a numbered reactant role ("raw material 2")."""
    return core[-1:].isdigit() and core.rsplit(" ", 1)[0] in table.material_anaphors

