"""From an annotated Doc to reaction records: candidates, roles by text, structures, records.

The work, per document:

0. **Sections** (:func:`chemie.reactions.sections.plan`): where each step, stage, example
   or general procedure starts, and the compound each heading names (its title).
1. **Candidates** (:func:`candidates`): every compound span of ``chemie_roles`` (products,
   starting materials, reagents, solvents, titles, and other compounds counted in moles),
   with the mention that covers it, its amount
   (:func:`chemie.reactions.amounts.amount_near`) and the section it stands in (see
   :meth:`DocView.section_starts`).
2. **Roles by text** (:func:`chemie.reactions.roles.text_roles`): the label's role, then the
   dictionary class (``rules/reactions.yaml``: ``labels``, ``classes``).
3. **Structures** (:class:`chemie.reactions.grounded.StructureResolver`): every name of
   the document in one batch; references through the heading and coreference.
4. **Records** (:func:`chemie.reactions.records.records`): one
   :class:`~chemie.model.reaction.Reaction` per section that makes a product, its
   references to earlier products resolved (:mod:`chemie.reactions.references`), its
   product chosen (:func:`choose_products`), its roles by structure
   (:func:`chemie.reactions.structure_roles.structure_roles`), and what it inherits from a
   general procedure (:mod:`chemie.reactions.procedures`).

This module holds the pieces that read one reaction's text and candidates (amounts,
conditions, yield, steps, aliases, what comes after the reaction has run).
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass, field

import regex

from chemie.model import Action, Mention, Role
from chemie.model.reaction import (
    Amount,
    Component,
    Condition,
    Conditions,
    Quantity,
    Reaction,
    Step,
    StepObject,
    Structure,
    Yield,
)
from chemie.reactions.amounts import amount_near, may_state, quantities
from chemie.reactions.table import ReactionTable

HEADING_ACTION = "Heading"
COMPOUND_LABELS = ("REACTION_PRODUCT", "STARTING_MATERIAL", "REAGENT_CATALYST", "SOLVENT")
OTHER = "OTHER_COMPOUND"  # a candidate only when counted in moles (rules decide)
CONDITION_LABELS = {"TEMPERATURE": "temperature", "TIME": "time"}
TRIGGER_LABELS = ("REACTION_STEP", "WORKUP")
INPUTS = ("reactant", "reagent", "catalyst", "solvent")
# dictionary classes of a compound that is no product ("Isopropanol solution (25 g)
# containing X was charged" read as a title; hexanes of a column read as what it gave)
NOT_TITLES = frozenset({"solvent", "material", "gas", "drying_agent"})
# dictionary classes of an input read as a product by its percentage ("fuming HCl (37%)"),
# with the role it takes when it is not the reaction's product
INPUT_CLASSES = {"acid": "reagent", "base": "reagent", "coupling_agent": "reagent",
                 "reducing_agent": "reagent", "oxidant": "reagent", "catalyst": "catalyst",
                 "ligand": "catalyst"}
ROLE_LISTS = {"product": "products", "reactant": "reactants", "reagent": "reagents",
              "catalyst": "catalysts", "solvent": "solvents"}


@dataclass
class Candidate:
    """A compound span on its way to a :class:`Component`."""

    start: int
    end: int
    text: str
    label: str  # its ChEMU 2020 label
    label_rule: str  # the chemie_roles rule that gave the label
    section: int
    mention: Mention | None = None
    amount: Amount = field(default_factory=Amount)
    role: str = ""
    rule: str = ""
    structure: Structure | None = None
    cls: str | None = None  # the compound dictionary's class
    name: str = ""  # the name as written (a part of the span when the span is a mixture)
    heading: bool = False  # the heading's compound (``heading_rules`` gave its label)


@dataclass
class DocView:
    """What assembly reads from one Doc."""

    doc_id: str
    text: str
    roles: list[Role]
    mentions: list[Mention]
    actions: list[Action]
    coreference: dict[str, list[str]]  # anaphor mention id -> antecedent ids
    transformed: dict[str, list[str]] = field(default_factory=dict)  # TRANSFORMED links, too
    _sections: list[int] | None = field(default=None, repr=False, compare=False)
    _extents: list[tuple[int, int, Mention]] | None = field(default=None, repr=False,
                                                             compare=False)

    def covering(self, start: int, end: int) -> Mention | None:
        """The smallest mention whose extent covers ``[start, end)`` (the first of the
        smallest)."""
        if self._extents is None:
            self._extents = [(m.start, m.end, m) for m in self.mentions]
        best, size = None, 0
        for a, b, m in self._extents:
            if a <= start and end <= b and (best is None or b - a < size):
                best, size = m, b - a
        return best

    @functools.cached_property
    def index(self) -> dict[str, Mention]:
        """The mentions by id."""
        return {m.id: m for m in self.mentions}

    def section_starts(self) -> list[int]:
        """Where each step section starts (characters; the first at 0): at a step heading
        of the action parser ("Step 2", "Example 5"), and after a sentence that states a
        yield when a weighed starting material follows ("X was obtained (1.2 g, 80%).
        310 mg of X was added to …": the next stage), rule ``yield_then_stage``."""
        if self._sections is not None:
            return self._sections
        starts = [0]
        for a in self.actions:
            if a.label == HEADING_ACTION and a.start > 0:
                starts.append(a.start)
        weighed = [r.start for r in self.roles if r.label == "STARTING_MATERIAL"
                   and _STAGE_AMOUNT.search(self.text, max(0, r.start - 40), r.start)]
        for r in self.roles:
            if r.label not in ("YIELD_PERCENT", "YIELD_OTHER"):
                continue
            stop = _SENTENCE_END.search(self.text, r.end)
            if stop is None:
                continue
            if any(w >= stop.end() for w in weighed):
                starts.append(stop.end())
        self._sections = sorted(set(starts))
        return self._sections


# a sentence end; a quantity right before a name ("310 mg of X", "1.2 g (3 mmol) of X")
_SENTENCE_END = regex.compile(r"\.\s+(?=[A-Z0-9(])")
_STAGE_AMOUNT = regex.compile(r"\d\s?(?:mg|g|kg|mmol|mol)\b[^.;]{0,25}$")


def candidates(view: DocView, table: ReactionTable,
               titles: frozenset[int] | set[int] = frozenset()) -> list[Candidate]:
    """The compound spans of the roles, in text order, with amounts and sections; ``titles``:
    the starts of spans that are titles (:mod:`chemie.reactions.sections`), kept whatever
    their label."""
    sections = view.section_starts()
    found = [part for r in view.roles if r.label in COMPOUND_LABELS or r.label == OTHER
             for part in _lines(r, table)]
    found.sort(key=lambda r: r.start)
    out: list[Candidate] = []
    previous_end = 0
    for r in found:
        limit, previous_end = previous_end, r.end
        title = r.start in titles
        # work-up chemicals: only those counted in moles may be inputs
        if r.label == OTHER and not title and not may_state(view.text, r.start, r.end, "moles",
                                                             table, limit):
            continue
        amount = amount_near(view.text, r.start, r.end, table, limit=limit)
        if r.label == OTHER and not title and amount.moles is None:
            continue
        section = bisect.bisect_right(sections, r.start) - 1
        c = Candidate(r.start, r.end, r.text, r.label, r.rule, section,
                      view.covering(r.start, r.end), amount, name=r.text,
                      heading=r.rule in table.heading_rules)
        out.append(c)
    return out


def _lines(r: Role, table: ReactionTable) -> list[Role]:
    """A compound span cut at its line breaks: a title ends at its line, so what follows
    a title's line break is a compound of the body, a starting material (rule
    ``line_break``); other spans keep their label in each piece."""
    if "\n" not in r.text.strip():
        return [r]
    out, start = [], r.start
    for piece in r.text.split("\n"):
        a = start + len(piece) - len(piece.lstrip())
        b = start + len(piece.rstrip())
        if b > a:
            label, rule = r.label, r.rule
            if out and r.rule in table.heading_rules:
                label, rule = "STARTING_MATERIAL", "line_break"
            out.append(Role(r.id, a, b, label, r.text[a - r.start:b - r.start], rule))
        start += len(piece) + 1
    return out


def conditions(view: DocView, table: ReactionTable, a: int, b: int) -> Conditions:
    """The conditions of the text ``[a, b)``: TIME and TEMPERATURE of the roles that belong
    to no work-up step, each value once; the times in words, atmosphere and pressure of the
    table's patterns."""
    out = Conditions()
    triggers = [r for r in view.roles if r.label in TRIGGER_LABELS]
    seen = set()
    for r in view.roles:
        kind = CONDITION_LABELS.get(r.label)
        if kind is None or not a <= r.start < b or _in_workup(view.text, triggers, r):
            continue
        value = _first_quantity(r.text, table, kind)
        key = (kind, (value.value, value.unit) if value else r.text.lower())
        if key not in seen:  # "stirred at 0 °C … at 0 °C": one condition
            seen.add(key)
            out.add(Condition(kind, r.text, r.rule, value, r.start, r.end))
    rule = table.time_words
    for m in table.compiled["time_words"].finditer(view.text, a, b):
        if not any(c.start < m.end() and m.start() < c.end for c in out.time):
            out.add(Condition("time", m.group(), rule.name, None, m.start(), m.end()))
    out.time.sort(key=lambda c: c.start)
    for key in ("atmosphere", "pressure"):
        rule = getattr(table, key)
        for m in table.compiled[key].finditer(view.text, a, b):
            if key == "atmosphere":
                out.add(Condition(key, m.group("gas"), rule.name, None, m.start("gas"),
                                  m.end("gas")))
            else:
                value = _first_quantity(m.group(), table, "pressure")
                out.add(Condition(key, m.group(), rule.name, value, m.start(), m.end()))
    for kind in ("atmosphere", "pressure"):
        getattr(out, kind).sort(key=lambda c: c.start)
    return out


def _in_workup(text: str, triggers: list[Role], r: Role) -> bool:
    """Whether condition ``r`` belongs to a work-up step: the trigger before it in its
    sentence, else the one after it, is a WORKUP ("cooled to room temperature", "quenched
    with water at 0 °C")."""
    k = bisect.bisect_left([t.start for t in triggers], r.start)
    if k and not _SENTENCE_END.search(text, triggers[k - 1].end, r.start):
        return triggers[k - 1].label == "WORKUP"
    if k < len(triggers) and not _SENTENCE_END.search(text, r.end, triggers[k].start):
        return triggers[k].label == "WORKUP"
    return False


def _first_quantity(text: str, table: ReactionTable, measure: str) -> Quantity | None:
    return next((q for m, q, _, _ in quantities(text, table) if m == measure), None)


def yield_of(view: DocView, table: ReactionTable, a: int, b: int) -> Yield:
    """The yield stated in ``[a, b)``: the last YIELD_PERCENT and YIELD_OTHER of the roles
    (the final product's yield comes last)."""
    out = Yield()
    texts = []
    for r in view.roles:
        if not a <= r.start < b:
            continue
        if r.label == "YIELD_PERCENT":
            number = _percent(r.text)
            if number is not None:
                out.percent = number
                texts.append(r.text)
        elif r.label == "YIELD_OTHER":
            for measure, q, _, _ in quantities(r.text, table):
                if measure in ("mass", "moles"):
                    setattr(out, measure, q)
                    texts.append(r.text)
    out.text = ", ".join(dict.fromkeys(texts))
    return out


def _percent(text: str) -> float | None:
    digits = "".join(ch for ch in text if ch.isdigit() or ch == ".")
    if "quant" in text.lower():
        return 100.0
    try:
        return float(digits)
    except ValueError:
        return None


def steps(view: DocView, a: int, b: int) -> list[Step]:
    """The actions of ``[a, b)`` in text order, with their objects."""
    index = view.index
    out = []
    for act in sorted(view.actions, key=lambda x: x.start):
        if act.label == HEADING_ACTION or not a <= act.start < b:
            continue
        objects = [StepObject(role, index[mid].text, mid) for role, ids in act.args.items()
                   for mid in ids if mid in index]
        out.append(Step(act.label, view.text[act.start:act.end], act.phase, act.rule,
                        act.start, act.end, objects))
    return out


def _aliases(text: str, members: list[Candidate]) -> None:
    """A name in brackets right after a name of the same compound ("diisopropylethylamine
    (DIPEA)"), and a reference resolved through coreference to another input ("the starting
    material"), are the same component: they take no part (rule ``alias``); the first keeps
    the amount, completed from the alias's."""
    by_end = sorted((c for c in members if c.role in ROLE_LISTS), key=lambda c: c.start)
    inputs = [c for c in by_end if c.role in INPUTS]
    for c in inputs:
        if c.structure is not None and c.structure.how == "coreference" and any(
                o is not c and o.structure is not None and o.structure.how != "coreference"
                and _key(o) == _key(c) for o in inputs):
            c.role, c.rule = "none", "alias"
    for a, b in zip(by_end, by_end[1:], strict=False):
        gap = text[a.end:b.start]
        if gap.strip() != "(" or not text[b.end:b.end + 3].lstrip().startswith(")"):
            continue
        if _key(a) != _key(b) and not (b.structure is None or not b.structure.resolved):
            continue
        b.role, b.rule = "none", "alias"
        for measure in ("mass", "volume", "moles", "equivalents", "concentration"):
            if getattr(a.amount, measure) is None:
                setattr(a.amount, measure, getattr(b.amount, measure))


_HOURS = {"h": 1.0, "min": 1 / 60, "s": 1 / 3600, "d": 24.0, "week": 168.0}


def _after_reaction(view: DocView, table: ReactionTable, members: list[Candidate],
                    b: int) -> None:
    """Inputs that a fallback label rule gave and that come after the reaction has run
    take no part (``after_reaction`` in ``rules/reactions.yaml``)."""
    rule = table.after_reaction
    reactants = [c for c in members if c.role == "reactant"]
    if not reactants:
        return
    # weighed or counted in moles: what the reaction is made of (a quench, an extraction
    # solvent is rarely weighed)
    measured = [c for c in members if c.role in INPUTS and (c.amount.mass or c.amount.moles)]
    last = max(measured or reactants, key=lambda c: c.end).end
    waits = [r.end for r in view.roles if r.label == "TIME" and last <= r.start < b
             and _hours(r.text, table) >= rule.min_hours]
    waits += [m.end() for m in table.compiled["after_reaction"].finditer(view.text, last, b)]
    if not waits:
        return
    end = min(waits)
    for c in members:
        if c.start >= end and c.role in INPUTS and c.label_rule in rule.label_rules:
            c.role, c.rule = "none", rule.name


def _hours(text: str, table: ReactionTable) -> float:
    """A duration in hours (a duration it cannot read counts as long)."""
    q = _first_quantity(text, table, "time")
    if q is None:
        return float("inf")
    return q.value * _HOURS.get(q.unit, 1.0)


def choose_products(members: list[Candidate], title: Candidate | None = None,
                    rule: str = "title_product") -> Candidate | None:
    """The product of one reaction (returned): ``title`` (its section's title, or the
    document's title in the last reaction; ``rule`` names which), else the last product with
    a structure; other products with another structure take no part (a reagent's percentage
    read as a yield makes it that reagent again). Inputs with the product's structure (same
    InChIKey connectivity block: "the title compound" taken for a starting material) are
    left to the caller (:func:`chemie.reactions.records.records`)."""
    for c in members:  # hexanes of the column, "Isopropanol solution containing X"
        if (c.role == "product" or c is title) and c.cls in NOT_TITLES:
            c.role, c.rule = "none", "not_a_product"
    if title is not None and title.cls in NOT_TITLES:
        title = None
    products = [c for c in members if c.role == "product" and _key(c)]
    chosen = title if title is not None and (_key(title) or not products) else None
    if chosen is None and products:
        chosen, rule = products[-1], "last_product"
    if chosen is None:  # without structures: the last product as labelled, roles unchanged
        return next((c for c in reversed(members) if c.role == "product"), None)
    chosen.role, chosen.rule = "product", rule
    key = _key(chosen)
    for c in products:
        if c is not chosen and c.cls in INPUT_CLASSES and _key(c) != key:
            # "fuming HCl (37%)", "potassium carbonate (2.0 g, 99%)": a reagent's percentage
            c.role, c.rule = INPUT_CLASSES[c.cls], "product_of_input_class"
        elif c is not chosen and _key(c) != key:
            c.role, c.rule = "none", rule
    return chosen


def _key(c: Candidate) -> str | None:
    """The connectivity block of a candidate's InChIKey (None without a structure)."""
    s = c.structure
    return s.inchikey.split("-")[0] if s is not None and s.inchikey else None


def _component(c: Candidate) -> Component:
    return Component(c.name, c.role, c.rule, c.start, c.end,
                     c.mention.id if c.mention is not None else None, c.amount, c.structure,
                     c.label_rule)


def _merge_products(reaction: Reaction) -> None:
    """A product named several times ("NAME" in the heading, "the title compound") is one
    component: the first with a structure (or the first) of each structure, with the amount
    of the first that states one ("the title compound (1.3 g)")."""
    seen: dict[str, Component] = {}
    kept: list[Component] = []
    for c in reaction.products:
        key = c.smiles
        if key is None:
            if not kept or all(k.smiles is None for k in kept):
                if not kept:
                    kept.append(c)
            continue
        if key not in seen:
            seen[key] = c
            kept.append(c)
        elif not seen[key].amount and c.amount:
            seen[key].amount = c.amount
    kept = [c for c in kept if c.smiles is not None] or kept[:1]
    reaction.products = kept
