"""The coreference rules of ``rules/coref.yaml``, each a function registered with its gate.

A rule is an entry of the table (name, comment, its own word lists) and one function here::

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
the first that resolves an anaphor wins.
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
            if isinstance(r, StartingMaterial):
                return r.anaphors
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
_NOT_ABBREVIATION = re.compile(
    r"[%:=]|\bFIG\b|\s\S+\s\S+\s|(?i:mhz|ppm|racemate|enantiomer|diastereomer|isomer)"
    # "( Example 5 )" cites a procedure; "M+", "FAB", "ESI" are mass-spectrometry terms
    r"|^(?i:examples?)\b|^M[+-]$|^(?:FAB|ESI|APCI|EI|CI)$"
    # "NAME ( saturated solution )", "( 3x75ml )", "( 20 vol. )": a state or an amount
    r"|(?i:\bsolution\b|\d\s*m?l$|\bvol\.?$)"
    # "Tert-butyl ( 3-aminophenyl ) carbamate": a substituent inside a name
    r"|(?i:yl[\])]*$)"
    # "the residue ( silica gel )": the stationary phase
    r"|^(?i:silica gel)$"
)
# "0-15% ethyl acetate / hexane", "10% Pd / C": a concentration, not a yield
_CONCENTRATION = re.compile(r"\d+(?:\.\d+)?(?:\s*[-–~]\s*\d+(?:\.\d+)?)?\s*%\s*[A-Za-z]")
_APPOSITION = (":", ",")  # "Compound ( 4 ) : NAME", "Compound B5 , NAME" (label_colon_name)
_LABEL_FILLERS = frozenset(("(", ")", "[", "]", "No", "no", "NO", "."))
# an antecedent that is a substituent ("tert-butyl") or an NMR frequency ("400MHz ( CDCl3 )")
_NOT_ABBREVIATED = re.compile(r"(?i)yl$|mhz$")
_SPECIFIC_NAME = re.compile(r"[\d(\[]")
# (tried where a number starts only: a match never starts inside one, and a long digit run
# is read once)
_AMOUNT = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*(mmole?|[uµμ]mol|mol)\b")
_TO_MMOL = {"mmol": 1.0, "mmole": 1.0, "umol": 1e-3, "µmol": 1e-3, "μmol": 1e-3, "mol": 1e3}


def _mmol(text: str) -> float:
    """The first molar amount in ``text`` in mmol ("2.06 g , 10 mmol" -> 10.0), else 0."""
    m = _AMOUNT.search(text)
    return float(m.group(1)) * _TO_MMOL[m.group(2)] if m else 0.0


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
        if "%" in x.m.text and _CONCENTRATION.match(x.m.text) is None and (
            any(w.lower() in verbs for w in around)
            # a sentence of its own: "Yellow solid ( 22 mg , 55% )"
            or (x.kind == "state" and x.before in ("", ".", ":", ";"))
            # "Yield : 0.15 g ( 58% of theory )"
            or x.m.rule == "yield_statement"
        ):
            return x.i
    return -1


def _label_of_next(c: Context, a: CorefMention) -> bool:
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


# --- the rules, in the order of rules/coref.yaml ---


@rule("bracketed_abbreviation", gate=lambda f, p: f.bracketed)
def bracketed_abbreviation(c: Context, p: CorefRule, a: CorefMention) -> Found:
    if not (a.bracketed or a.m.abbreviation):
        return None
    text = a.m.text
    if a.kind == "reference" and a.ident:
        # "NAME ( Compound No . 1 )", "NAME ( compound ( IU ) )": a label of three words
        text = " ".join(w for w in text.split() if w not in _LABEL_FILLERS)
    if _NOT_ABBREVIATION.search(text):
        return None
    # "NH silica gel ( chloroform / methanol )": an eluent of solvents, no abbreviation
    parts = a.core.split(" / ")
    if len(parts) > 1 and c.table.solvents.issuperset(parts):
        return None
    # the unclosed "(" just before the anaphor, or -1
    opened = open_bracket(c.words, a.first)
    ends = (a.first - 1, a.first - 2, opened - 1)
    first = a.first
    for x in reversed(c.ms[: a.i]):
        ranges = x.ranges
        if len(ranges) == 1:
            if ranges[0][1] not in ends:
                continue
        elif not (
            any(r1 in ends for _, r1 in ranges) or ranges[0][1] < first <= ranges[-1][0]
        ):
            continue
        return None if _NOT_ABBREVIATED.search(x.m.text) else x
    return None


@rule("referred_to_as", gate=lambda f, p: f.after_as)
def referred_to_as(c: Context, p: CorefRule, a: CorefMention) -> Found:
    words = c.words
    if a.before != "as" or words[max(0, a.first - 3) : a.first] != ["referred", "to", "as"]:
        return None
    opens = [i for i in range(max(0, a.first - 8), a.first) if words[i] == "("]
    if not opens:
        return None
    for x in reversed(c.ms[: a.i]):
        if any(r1 == opens[-1] - 1 for _, r1 in x.ranges):
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class FollowingCompounds(CorefRule):
    heads: frozenset[str]  # of "the following compounds"
    max_tokens: int  # from the end of "the following compounds" to the name


@rule("following_compounds", params=FollowingCompounds, kinds=("chemical",),
      gate=lambda f, p: f.after_following)
def following_compounds(c: Context, p: FollowingCompounds, a: CorefMention) -> Found:
    if a.kind != "chemical" or a.i == 0:
        return None
    ms = c.ms
    # the first chemical after the colon: only a cited "Example 5" in between
    x = ms[a.i - 1]
    if x.kind == "reference" and x.head == "example" and a.i > 1:
        x = ms[a.i - 2]
    if x.det != "the" or not x.core.startswith("following ") or x.head not in p.heads:
        return None
    if a.first - x.last > p.max_tokens or ":" not in c.words[x.last + 1 : a.first]:
        return None
    return x


@dataclass(frozen=True, kw_only=True)
class AsEluent(CorefRule):
    heads: frozenset[str]  # role nouns ("eluent", "catalyst")


def material_role(table: CorefTable, core: str) -> bool:
    """Whether ``core`` names a numbered reactant role ("raw material 2")."""
    return core[-1:].isdigit() and core.rsplit(" ", 1)[0] in table.material_anaphors


@rule("as_eluent", params=AsEluent, gate=lambda f, p: f.head in p.heads or f.material_role)
def as_eluent(c: Context, p: AsEluent, a: CorefMention) -> Found:
    # "using hexane as eluent", "using 1.45 g of X as Raw material 2": the role of X
    if not (a.head in p.heads or material_role(c.table, a.core)) or a.first < 1:
        return None
    words = c.words
    if a.before != "as" and words[max(0, a.first - 2) : a.first] != ["as", "the"]:
        return None
    for x in reversed(c.ms[: a.i]):
        if x.sentence != a.sentence:
            return None
        if x.kind in ("chemical", "generic") and not x.bracketed:
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class AsPhysicalState(CorefRule):
    skip_after: frozenset[str]  # an earlier mention after one of these is no antecedent
    subject_verbs: tuple[str, ...]  # "Compound 27 was synthesized from A … as a solid"
    forms: frozenset[str]  # generic heads of a form: "as its hydrochloride salt"

    @cached_property
    def passive_yield(self) -> list[list[str]]:
        """The two words after a subject that made the product ("was prepared")."""
        return [[aux, v] for aux in ("was", "were", "is") for v in self.subject_verbs]


@rule("as_physical_state", params=AsPhysicalState, kinds=("state", "generic"))
def as_physical_state(c: Context, p: AsPhysicalState, a: CorefMention) -> Found:
    # a state ("as a white solid") or a form by class ("as its hydrochloride salt")
    if a.first < 1 or not (a.kind == "state" or (a.kind == "generic" and a.head in p.forms)):
        return None
    words, ms = c.words, c.ms
    if a.before != "as" and " ".join(words[max(0, a.first - 2) : a.first]) != "form of":
        return None
    # a label inside or after a name ("NAME ( 4a ) ( 1.2 g )") stands for the name
    same = [
        x for x in ms[: a.i]
        if x.sentence == a.sentence and x.kind != "equipment" and not x.bracketed
        and not enclosed(ms, x)
    ]
    # "Compound 27 was synthesized from A , B and C as a white solid": the subject
    for x in same:
        if (
            words[x.last + 1 : x.last + 3] in p.passive_yield
            and ":" not in words[x.last : a.first]
        ):
            return x
    for x in reversed(same):
        if x.before in p.skip_after:
            continue
        return x
    return None


# --- rules that need the heading ---


@rule("heading_label", kinds=("chemical", "reference"), gate=lambda f, p: f.in_heading)
def heading_label(c: Context, p: CorefRule, a: CorefMention) -> Found:
    # the title, or any chemical name of the heading ("Intermediate 74 : NAME Step A : ...")
    in_heading = a.kind == "chemical" and a.last < c.heading_end
    if a.i == 0 or not (a is c.title or (in_heading and not a.m.quantity)):
        return None
    x = c.ms[a.i - 1]
    if (
        x.kind == "reference" and x.ident and x.head != "example" and a.first - x.last <= 2
        and not x.m.quantity
    ):
        return x
    return None


@rule("label_colon_name", gate=lambda f, p: f.after_label)
def label_colon_name(c: Context, p: CorefRule, a: CorefMention) -> Found:
    if a.i == 0 or a.last < c.heading_end:
        return None
    x = c.ms[a.i - 1]
    return x if _label_of_next(c, x) else None


@dataclass(frozen=True, kw_only=True)
class ThisProduct(CorefRule):
    heads: frozenset[str]  # "this product", "these compounds"
    bare: frozenset[str]  # "The product" / "product" alone (no quantity)


@rule("this_product", params=ThisProduct,
      gate=lambda f, p: f.det in ("this", "these", "the", "") and f.head in p.heads)
def this_product(c: Context, p: ThisProduct, a: CorefMention) -> Found:
    if a.head not in p.heads:
        return None
    # "... ( 1.3 g , 81% yield ) as a white solid . The product was ...": a bare "the
    # product" / "product" right after the yield statement is that product
    if a.det not in ("this", "these") and not (
        a.det in ("the", "") and a.core in p.bare and not a.m.quantity
    ):
        return None
    for x in reversed(c.ms[: a.i]):
        if x.sentence < a.sentence - 1:
            return None
        if "%" in x.m.text and x.kind in ("chemical", "reference", "state"):
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class DescribedProduct(CorefRule):
    heads: frozenset[str]  # "this salt", "this material", "the crude amine"
    demonstratives: frozenset[str]  # "this", "these", "said"
    modifiers: frozenset[str]  # after "the": "the crude amine", "the free base"
    max_sentences: int  # how many sentences back the product may be named


@rule("described_product", params=DescribedProduct,
      kinds=("generic", "chemical", "state", "reference"),
      gate=lambda f, p: f.head in p.heads and (f.det in p.demonstratives or f.det == "the"))
def described_product(c: Context, p: DescribedProduct, a: CorefMention) -> Found:
    # "to give the dihydrochloride salt ( 2.5 g , 91% ) . This salt was suspended",
    # "to afford a foam . The crude amine was dissolved": the product just obtained
    if a.head not in p.heads or a.m.quantity:
        return None
    if a.det not in p.demonstratives and not (
        a.det == "the" and a.core.split()[0] in p.modifiers
    ):
        return None
    words, verbs = c.words, c.table.yield_verbs
    if not verbs.isdisjoint(words[max(0, a.first - 2) : a.first]):
        return None  # "to give the free base": a product named, no anaphor
    for x in reversed(c.ms[: a.i]):
        if x.sentence < a.sentence - p.max_sentences:
            return None
        if x.bracketed or x.kind == "equipment":
            continue
        # a product: stated with its yield, or named right after a verb that gives it
        if "%" in x.m.text and _CONCENTRATION.match(x.m.text) is None:
            return x
        if not verbs.isdisjoint(words[max(0, x.first - 3) : x.first]) and x.before != "as":
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class TitleCompound(CorefRule):
    phrases: frozenset[str]  # "the title compound", "the desired product" …

    @cached_property
    def tails(self) -> frozenset[str]:
        """The phrases that may end a longer core ("of the title compound")."""
        return frozenset(p for p in self.phrases if p.split()[0] in TITLE_WORDS)


# a phrase of the list, or a core with a title word (f.core is kept when it ends a phrase)
@rule("title_compound", params=TitleCompound, gate=lambda f, p: f.after_title and (
    f.titled or f.core in p.phrases or f"{f.det} {f.core}".strip() in p.phrases))
def title_compound(c: Context, p: TitleCompound, a: CorefMention) -> Found:
    title = c.title
    if title is None or a.i <= title.i:
        return None
    phrase = f"{a.det} {a.core}".strip() if a.det else a.core.strip()
    if phrase not in p.phrases and a.core not in p.phrases:
        core = a.core
        if not any(w in core for w in TITLE_WORDS):
            return None  # every title tail starts with one of these words
        # "a first portion of 2.28 g ( 63% ) of the title compound"
        tail = " ".join(core.split()[-2:])
        # "2.5 g of the target compound NAME": the phrase is followed by the name
        named = a.kind in ("chemical", "reference") and any(
            f" {t} " in f" {core} " for t in p.tails
        )
        if tail not in p.tails and not named:
            return None
    if a.core in ("product", "compound") and a.det != "this" and not a.m.quantity:
        return None
    return title


@rule("compound_number", gate=lambda f, p: f.ident)
def compound_number(c: Context, p: CorefRule, a: CorefMention) -> Found:
    # "Example 4A" names a procedure: a repeat cites it and is no compound
    if not a.ident or a.ident.startswith("example"):
        return None
    for x in reversed(c.ms[: a.i]):
        if x.ident == a.ident:
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class RepeatedName(CorefRule):
    min_length: int  # a name this long (with a digit or bracket) is specific
    not_names: frozenset[str]
    removal: frozenset[str]  # "to remove methanol"
    removed: frozenset[str]  # "CH2Cl2 was removed"


def _removed(c: Context, p: RepeatedName, a: CorefMention) -> bool:
    """Whether ``a`` is removed: "to remove methanol", "Magnesium sulfate was filtered
    off"."""
    if a.before in p.removal:
        return True
    words, i = c.words, a.last + 1
    return i + 1 < len(words) and words[i] in ("was", "were") and words[i + 1] in p.removed


@rule("repeated_name", params=RepeatedName, kinds=("chemical",))
def repeated_name(c: Context, p: RepeatedName, a: CorefMention) -> Found:
    if a.kind != "chemical" or not a.name or a.name in p.not_names:
        return None
    specific = (
        len(a.name) >= p.min_length
        and a.name not in c.table.solvents
        and _SPECIFIC_NAME.search(a.name) is not None
        and a.m.rule != "eluent_ratio"
    )
    if not specific and a.det not in ("the", "this", "said") and not _removed(c, p, a):
        return None
    key = a.name_key
    for x in reversed(c.ms[: a.i]):
        # a solution that contains the name is no antecedent of it
        if x.name_key == key and not x.first <= a.first <= x.last:
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class TheSolvent(CorefRule):
    anaphors: frozenset[str]  # "the solvent", "the volatiles"
    not_solvents: frozenset[str]  # words of aqueous wash and work-up solutions
    aqueous: frozenset[str]  # words of an aqueous work-up
    reagent_units: tuple[str, ...]  # case-sensitive, after a number
    removal: frozenset[str]  # "to remove methanol": the word before a solvent removed
    removed: frozenset[str]  # "the acetone was removed": the participle after was / were
    plural: frozenset[str]  # "the organic solvents": every solvent, whatever the modifier

    @cached_property
    def reagent_amount(self) -> re.Pattern:
        """An amount that makes a solvent a reagent ("THF ( 1 M , 2 mL )")."""
        units = "|".join(re.escape(u) for u in self.reagent_units)
        # "pyridine ( 0.098 mL , 1.23mmol )": the unit may stick to its number
        return re.compile(rf"\d\s*(?:{units or '(?!)'})(?![A-Za-z])")


@rule("the_solvent", params=TheSolvent, kinds=("generic", "chemical"),
      gate=lambda f, p: f.head in p.anaphors and f.det in ("the", ""))
def the_solvent(c: Context, p: TheSolvent, a: CorefMention) -> Found:
    if a.head not in p.anaphors or a.kind not in ("generic", "chemical"):
        return None
    if a.det not in ("the", "") or (a.det == "" and a.core not in p.anaphors):
        return None
    solvents, tails = c.table.solvents, c.table.solvent_tails
    found: list[CorefMention] = []
    washed = False
    every = a.core in p.anaphors or a.head in p.plural
    for x in reversed(c.ms[: a.i]):
        if found and ((x.kind == "generic" and x.head in p.anaphors) or "%" in x.m.text):
            break  # the solvents before an earlier "the solvent" or a product are gone
        if found and x.kind == "chemical" and _solvent_removed(c, p, x):
            break  # "the acetone was removed": it and the solvents before it are gone
        words = x.core.split()
        if p.not_solvents.intersection(words):
            # an aqueous work-up: the solvents of the reaction before it went with the
            # aqueous phase; only more portions of the closest solvent are "the solvent"
            washed = washed or (bool(found) and not p.aqueous.isdisjoint(words))
            continue
        if washed and x.name_key != found[0].name_key:
            continue
        if x.kind == "chemical" and (
            x.name in solvents or x.name.endswith(tails)
            or (x.before in ("in", "with") and x.m.quantity)
        ):
            if p.reagent_amount.search(x.m.text) is not None:
                continue  # a molar amount: added as a reagent, not as the solvent
            found.append(x)
            if not every:
                break  # "the organic solvent", "the elution solvent": one antecedent
            # else every solvent of the mixture: "The solvent" after an extraction with
            # EtOAc of a reaction run in THF -> the EtOAc and the THF
    return found or None


def _solvent_removed(c: Context, p: TheSolvent, x: CorefMention) -> bool:
    """Whether ``x`` is named as removed: "to remove methanol", "the acetone was
    evaporated"."""
    if x.before in p.removal:
        return True
    words, i = c.words, x.last + 1
    return i + 1 < len(words) and words[i] in ("was", "were") and words[i + 1] in p.removed


@dataclass(frozen=True, kw_only=True)
class StartingMaterial(CorefRule):
    anaphors: frozenset[str]  # "the raw material", "the starting material"
    equimolar: float  # other reactants: a molar amount within this share of the first's


@rule("starting_material", params=StartingMaterial, gate=lambda f, p: f.core in p.anaphors)
def starting_material(c: Context, p: StartingMaterial, a: CorefMention) -> Found:
    if a.core not in p.anaphors:
        return None
    found: list[CorefMention] = []
    first = 0.0
    for x in c.ms[: a.i]:
        if x.kind not in ("chemical", "reference") or not x.m.quantity:
            continue
        if not found:
            found.append(x)
            first = _mmol(x.m.text)
        elif first and abs(_mmol(x.m.text) - first) <= p.equimolar * first:
            # the other reactant, in the same molar amount: "A ( 10 mmol ) and B
            # ( 10 mmol ) ... the raw material" -> A and B (not the base, 13 mmol)
            found.append(x)
    return found or None


@dataclass(frozen=True, kw_only=True)
class FinalProduct(CorefRule):
    forms: frozenset[str]  # generic heads of a product by class: "the hydrochloride salt"


@rule("final_product", params=FinalProduct, kinds=("chemical", "reference", "state", "generic"),
      gate=lambda f, p: f.after_title and f.yield_or_label)
def final_product(c: Context, p: FinalProduct, a: CorefMention) -> Found:
    title = c.title
    named = a.kind in ("chemical", "reference", "state") or (
        a.kind == "generic" and a.head in p.forms)  # "the hydrochloride salt ( 1.4 g , 90% )"
    if title is None or a.i <= title.i or not named:
        return None
    if "%" in a.m.text and a.i == c.last_product():
        return title
    # "to produce Compound ( 4 ) : NAME ( 25 mg , yield 31% )": the label of the product
    ms = c.ms
    if (
        _label_of_next(c, a)
        and "%" in ms[a.i + 1].m.text
        and c.table.yield_verbs.intersection(c.words[max(0, a.first - 3) : a.first])
        and not any("%" in x.m.text for x in ms[a.i + 2 :])
    ):
        return title
    return None


@dataclass(frozen=True, kw_only=True)
class AnalysisFormula(CorefRule):
    after: frozenset[str]  # the two words before the formula ("analysis :")

    @cached_property
    def before(self) -> frozenset[tuple[str, ...]]:
        """``after`` as pairs of lowercased words."""
        return frozenset(tuple(p.lower().split()) for p in self.after)


@rule("analysis_formula", params=AnalysisFormula, kinds=("chemical",),
      gate=lambda f, p: f.after_colon)
def analysis_formula(c: Context, p: AnalysisFormula, a: CorefMention) -> Found:
    # "Elemental analysis : C7H14N2 ...", "calcd . C56H32N4S : C , 84.82": the formula
    # of the product just made (not a mass "calcd for C82H64N2O2 1108.49")
    if a.kind != "chemical" or a.first < 2 or a.m.quantity:
        return None
    if tuple(c.words[a.first - 2 : a.first]) not in p.before:
        return None
    product = c.last_product()
    if 0 <= product < a.i:
        return c.ms[product]
    title = c.title
    return title if title is not None and title.i < a.i else None


@dataclass(frozen=True, kw_only=True)
class DryingAgent(CorefRule):
    heads: frozenset[str]  # the solid filtered off after drying
    modifiers: frozenset[str]  # the only words allowed before the head
    after: tuple[str, ...]  # the two words before the drying agent ("dried over")

    @cached_property
    def over(self) -> list[list[str]]:
        """``after`` split into words."""
        return [p.split() for p in self.after]


@rule("drying_agent", params=DryingAgent,
      gate=lambda f, p: f.det in ("the", "") and f.head in p.heads)
def drying_agent(c: Context, p: DryingAgent, a: CorefMention) -> Found:
    # "dried over anhydrous magnesium sulfate . The insoluble substance was separated by
    # filtration": the solid filtered off is the drying agent
    if a.head not in p.heads or a.det not in ("the", ""):
        return None
    # "the insoluble substance", not "the precipitated solid"
    if not p.modifiers.issuperset(a.core.split()[:-1]):
        return None
    words, i = c.words, a.last + 1
    if words[i : i + 1] not in (["was"], ["were"]) or words[i + 1 : i + 2] not in (
        ["separated"], ["filtered"], ["removed"]
    ):
        return None
    for x in reversed(c.ms[: a.i]):
        if x.sentence < a.sentence - 1:
            return None
        if x.kind == "chemical" and words[max(0, x.first - 2) : x.first] in p.over:
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class TheCatalyst(CorefRule):
    anaphors: frozenset[str]  # "the catalyst"
    metals: frozenset[str]  # words of a catalyst's name ("pd", "palladium", "raney")
    max_sentences: int  # how many sentences back the catalyst may be named


@rule("the_catalyst", params=TheCatalyst, kinds=("generic",),
      gate=lambda f, p: f.det in ("the", "this", "") and f.head in p.anaphors)
def the_catalyst(c: Context, p: TheCatalyst, a: CorefMention) -> Found:
    # "10% Pd / C ( 0.2 g ) was added ... The catalyst was filtered off": the catalyst named
    if a.kind != "generic" or a.head not in p.anaphors or a.det not in ("the", "this", ""):
        return None
    if a.core.split()[0] not in p.anaphors:
        return None  # "the catalyst" alone, not "the catalyst solution" or "a fresh catalyst"
    for x in reversed(c.ms[: a.i]):
        if x.sentence < a.sentence - p.max_sentences:
            return None
        if x.kind == "chemical" and _names_metal(x.name, p.metals):
            return x
    return None


def _names_metal(name: str, metals: frozenset[str]) -> bool:
    """Whether a word of ``name`` is a metal word or starts with one before a bracket
    ("pd(oh)2", "pd(pph3)4")."""
    for w in name.split():
        if w in metals or w.split("(", 1)[0] in metals:
            return True
    return False


@dataclass(frozen=True, kw_only=True)
class FilterPad(CorefRule):
    anaphors: frozenset[str]  # "the pad", "the plug", "the filter cake"
    aids: frozenset[str]  # words of a filter aid's name ("celite", "silica")
    max_sentences: int  # how many sentences back the filter aid may be named


@rule("filter_pad", params=FilterPad, kinds=("generic",),
      gate=lambda f, p: f.det == "the" and f.head in p.anaphors)
def filter_pad(c: Context, p: FilterPad, a: CorefMention) -> Found:
    # "filtered through a pad of Celite and the pad was washed": the pad of filter aid;
    # "filtered through diatomite and the filter cake was washed": the filter aid itself
    if a.kind != "generic" or a.det != "the" or a.head not in p.anaphors:
        return None
    for x in reversed(c.ms[: a.i]):
        if x.sentence < a.sentence - p.max_sentences:
            return None
        if x.head == a.head and x.det in ("a", "an", ""):
            return x  # "a pad of Celite", "a Celite pad"
        if x.kind == "chemical" and not p.aids.isdisjoint(x.name.split()):
            return x  # "through diatomite", "through Celite"
    return None


@dataclass(frozen=True, kw_only=True)
class DefiniteRepeat(CorefRule):
    heads: frozenset[str]  # "the solid", "the flask"


@rule("definite_repeat", params=DefiniteRepeat,
      gate=lambda f, p: f.det == "the" and f.head in p.heads)
def definite_repeat(c: Context, p: DefiniteRepeat, a: CorefMention) -> Found:
    if a.det != "the" or a.head not in p.heads:
        return None
    for x in reversed(c.ms[: a.i]):
        if x.head == a.head and (x.det in ("a", "an") or (x.det == "" and x.kind == "state")):
            return x
    return None
