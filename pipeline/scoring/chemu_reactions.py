"""Reaction records against the ChEMU 2020 compound labels of a snippet (issue 18).

ChEMU 2020 labels each compound mention of a reaction snippet by its role:
``REACTION_PRODUCT`` (products), ``STARTING_MATERIAL`` (reactants), ``REAGENT_CATALYST`` and
``SOLVENT`` (reagents: catalysts and solvents with them), ``OTHER_COMPOUND`` (work-up and
purification). The labels say nothing of which reaction of a multi-step snippet a compound
belongs to, so a snippet is compared as the **union over its reactions**: every species
the records name, with its role, against every species the labels name, with theirs.

*Gold species.* ChEMU labels every mention; records name each species once. The gold
mentions of one role are grouped into species (:func:`gold_species`): mentions with the same
text (case and spaces ignored) are one species, and so are two mentions that a ChEMU-Ref
``COREFERENCE`` or ``WORK_UP`` link joins ("the title compound" and the heading's name;
"the crude product" and what its purification gave: ``links``), a name and the label or
abbreviation in brackets right after it ("NAME (Q-C)"), and a product named by a generic
phrase ("the title compound", "crude product", "white solid", "target compound NAME") and the
nearest product named before it (else after it). An intermediate is two species (a product
of step 1, a starting material of step 2), as the labels say.

*Predicted species.* Each component of a record is an :class:`Item` with its role read in
the ChEMU convention (a reactant that gives no carbon is a reagent) and its span. An item
stands for the gold mention its span overlaps most (any compound label); items that stand
for one gold species with one role are one predicted species. An item whose span
overlaps no role-labelled compound is an extra species of its own (its name, case ignored):
``work-up`` when it overlaps an ``OTHER_COMPOUND`` (unless a gold species has that
mention's name: then it stands for that species, as "methanol" of the work-up for the
reaction's methanol), ``unlabelled`` when it overlaps no label.

*Scores.* Per role (products, reactants, reagents): a gold species is found when a
predicted species of its role stands for it (TP); a predicted species that stands for no
gold species of its role is a false positive; micro P/R/F1 over the snippets. *Species*:
reactants and reagents with roles ignored (the gold grouping then ignores the input role).
*Exact snippet*: every gold species found with its role and no false positive in any role.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import regex

from chemie.model import Document, Mention, Role
from chemie.model.reaction import TEMPLATE, Reaction
from chemie.scoring.report import prf

ROLES = ("products", "reactants", "reagents")
GROUP = {"REACTION_PRODUCT": "products", "STARTING_MATERIAL": "reactants",
         "REAGENT_CATALYST": "reagents", "SOLVENT": "reagents"}
OTHER = "OTHER_COMPOUND"
INPUTS = "inputs"  # reactants and reagents, roles ignored
# a record's roles as role groups (a reactant read by its ChEMU 2020 label: see items())
ROLE_GROUP = {"product": "products", "reactant": "reactants", "reagent": "reagents",
              "catalyst": "reagents", "solvent": "reagents"}
RANK = {"products": 0, "reactants": 1, "reagents": 2}
Link = tuple[tuple[int, int], tuple[int, int]]  # two character spans of one species
# a product named by a generic phrase (what follows "title compound" may be its name)
GENERIC = regex.compile(
    r"(?:(?:title|target|desired)\s+(?:product|compound)s?\b.*"  # and its name
    r"|(?:[a-z-]+\s+){0,3}(?:product|compound|target|solid|liquid|oil|residue|foam|gum"
    r"|powder|crystals?|precipitate|material)s?)", regex.DOTALL | regex.IGNORECASE)


@dataclass(frozen=True)
class Item:
    """A component of a reaction record: its role group (``products``, ``reactants``,
    ``reagents``), span, name, and where it comes from (record id, component rule)."""

    role: str
    start: int
    end: int
    name: str
    record: str = ""
    rule: str = ""


@dataclass
class Species:
    """A gold species: its role group and its mentions (the first names it)."""

    role: str
    mentions: list[Mention]

    @property
    def text(self) -> str:
        return self.mentions[0].text


@dataclass
class Error:
    """One disagreement, by class: ``missing`` (a gold species no item stands for),
    ``wrong role`` (stood for with another role only), ``work-up`` / ``unlabelled`` /
    ``other role`` (an extra predicted species: over an OTHER_COMPOUND, over no label,
    over a gold species of another role)."""

    kind: str
    role: str
    text: str
    start: int
    detail: str = ""


@dataclass
class Counts:
    """TP/FP/FN of one role."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, other: Counts) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def prf(self) -> tuple[float, float, float]:
        return prf(self.tp, self.fp, self.fn)


@dataclass
class Snippet:
    """The judgement of one snippet: counts per role (and ``inputs``), errors, exactness."""

    doc_id: str
    counts: dict[str, Counts] = field(default_factory=dict)
    errors: list[Error] = field(default_factory=list)

    @property
    def exact(self) -> bool:
        return all(self.counts[r].fp == 0 and self.counts[r].fn == 0 for r in ROLES)


def items(reactions: Iterable[Reaction], roles: list[Role], gold: Document,
          implied: frozenset[str] = frozenset()) -> list[Item]:
    """The components of a snippet's records (templates of general procedures left out) as
    items: a reactant that the pipeline's ChEMU 2020 span covering it labels
    REAGENT_CATALYST (``roles``: it gives no carbon) is a reagent; the ions of a salt that
    a record splits (a reactant's hydrochloride: the reactant, and the chloride a reagent)
    are one compound, with the role of its part that gives atoms; a component of an
    ``implied`` rule counts only when its words carry a gold compound label ("aqueous")."""
    labelled = [m for m in gold.mentions if m.label in GROUP or m.label == OTHER]
    kept: dict[tuple[str, int, int], Item] = {}
    for r in reactions:
        if r.rule == TEMPLATE:
            continue
        for c in r.components():
            if c.start < 0 or c.role not in ROLE_GROUP or (c.rule in implied and not any(
                    m.start < c.end and c.start < m.end for m in labelled)):
                continue
            role = ROLE_GROUP[c.role]
            if role == "reactants" and any(x.label == "REAGENT_CATALYST" and x.start <= c.start
                                           and c.end <= x.end for x in roles):
                role = "reagents"
            it = Item(role, c.start, c.end, c.name, r.id, c.rule)
            key = (r.id, c.start, c.end)
            if key not in kept or RANK[role] < RANK[kept[key].role]:
                kept[key] = it
    return list(kept.values())


def _norm(text: str) -> str:
    """A name compared: case and spaces ignored, and the braces around it."""
    out = "".join(text.lower().split())
    return out[1:-1] if out[:1] == "{" and out[-1:] == "}" else out


class _Union:
    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, i: int, j: int) -> None:
        self.parent[self.find(i)] = self.find(j)


def _overlaps(m: Mention, span: tuple[int, int]) -> bool:
    return span[0] < m.end and m.start < span[1]


def gold_species(gold: Document, links: Iterable[Link] = (),
                 ignore_inputs_role: bool = False) -> list[Species]:
    """The gold species of a snippet (see the module docstring); ``links``: pairs of spans
    that name one species (a link joins the two mentions when each of its spans overlaps
    exactly one labelled compound, of one role group); ``ignore_inputs_role``: group
    reactants and reagents together (role ``inputs``)."""
    mentions = [m for m in gold.mentions if m.label in GROUP]
    role = [GROUP[m.label] for m in mentions]
    if ignore_inputs_role:
        role = [INPUTS if r != "products" else r for r in role]
    u = _Union(len(mentions))
    first: dict[tuple[str, str], int] = {}
    for i, m in enumerate(mentions):
        key = (role[i], _norm(m.text))
        if key in first:
            u.join(i, first[key])
        else:
            first[key] = i
    for a, b in links:
        ia = [i for i, m in enumerate(mentions) if _overlaps(m, a)]
        ib = [i for i, m in enumerate(mentions) if _overlaps(m, b)]
        if len(ia) == 1 and len(ib) == 1 and role[ia[0]] == role[ib[0]]:
            u.join(ia[0], ib[0])
    for i, j in _bracketed(gold.text, mentions):
        if role[i] == role[j]:
            u.join(j, i)
    _generic_products(mentions, role, u)
    groups: dict[int, list[int]] = {}
    for i in range(len(mentions)):
        groups.setdefault(u.find(i), []).append(i)
    return [Species(role[ix[0]], [mentions[i] for i in ix]) for ix in groups.values()]


def _bracketed(text: str, mentions: list[Mention]) -> list[tuple[int, int]]:
    """Pairs (name, label) of a mention in brackets right after another ("NAME (Q-C)")."""
    order = sorted(range(len(mentions)), key=lambda i: mentions[i].start)
    return [(i, j) for i, j in zip(order, order[1:], strict=False)
            if text[mentions[i].end:mentions[j].start].strip() == "("]


def _generic_products(mentions: list[Mention], role: list[str], u: _Union) -> None:
    """Each product named by a generic phrase joins the nearest product named before it,
    else after it; without a named product, the generic ones are one species."""
    products = sorted((i for i in range(len(mentions)) if role[i] == "products"),
                      key=lambda i: mentions[i].start)
    generic = {i for i in products if GENERIC.fullmatch(mentions[i].text.strip())}
    named = [i for i in products if i not in generic]
    for i in generic:
        before = [j for j in named if mentions[j].start < mentions[i].start]
        after = [j for j in named if mentions[j].start > mentions[i].start]
        other = before[-1] if before else after[0] if after else min(generic)
        u.join(i, other)


def _stands_for(item: Item, mentions: list[Mention]) -> Mention | None:
    """The labelled mention the item's span overlaps most (None: none)."""
    best, size = None, 0
    for m in mentions:
        shared = min(item.end, m.end) - max(item.start, m.start)
        if shared > size:
            best, size = m, shared
    return best


def judge(gold: Document, items: Iterable[Item], links: Iterable[Link] = ()) -> Snippet:
    """Compare a snippet's record items with its gold labels (see the module docstring)."""
    links = list(links)
    items = list(items)
    out = Snippet(gold.id)
    labelled = [m for m in gold.mentions if m.label in GROUP or m.label == OTHER]
    for grouping, roles in ((False, ROLES), (True, (INPUTS,))):
        species = gold_species(gold, links, ignore_inputs_role=grouping)
        of = {id(m): k for k, s in enumerate(species) for m in s.mentions}
        found: dict[tuple[str, object], Item] = {}
        for it in items:
            role = it.role if not grouping or it.role == "products" else INPUTS
            if role not in roles:
                continue
            found.setdefault((role, _species_of(it, role, labelled, species, of)), it)
        for role in roles:
            out.counts[role] = _count(role, species, found, out.errors if not grouping else None)
    return out


def _species_of(it: Item, role: str, labelled: list[Mention], species: list[Species],
                of: dict[int, int]) -> object:
    """The gold species an item stands for (its index), else the key of an extra species:
    (the label it overlaps or "", its name)."""
    m = _stands_for(it, labelled)
    if m is not None and id(m) in of:
        return of[id(m)]
    if m is not None:  # a work-up mention with a gold species' name is that species
        named = [k for k, s in enumerate(species)
                 if any(_norm(x.text) == _norm(m.text) for x in s.mentions)]
        if named:
            return next((k for k in named if species[k].role == role), named[0])
    return (m.label if m is not None else "", _norm(it.name))


def _count(role: str, species: list[Species], found: dict[tuple[str, object], Item],
           errors: list[Error] | None) -> Counts:
    """The counts of one role; the errors of that role added to ``errors`` (when given)."""
    c = Counts()
    mine = {k for k, s in enumerate(species) if s.role == role}
    for (r, key), it in found.items():
        if r != role:
            continue
        if key in mine:
            c.tp += 1
            continue
        c.fp += 1
        if errors is not None:
            kind = ("other role" if isinstance(key, int)
                    else "work-up" if key[0] == OTHER else "unlabelled")
            detail = species[key].role if isinstance(key, int) else ""
            errors.append(Error(kind, role, it.name, it.start, f"{it.rule} {detail}".strip()))
    for k in mine:
        if (role, k) in found:
            continue
        c.fn += 1
        if errors is not None:
            other = [r for (r, key) in found if key == k]
            s = species[k]
            errors.append(Error("wrong role" if other else "missing", role, s.text,
                                s.mentions[0].start, ", ".join(other)))
    return c


@dataclass
class Summary:
    """Micro counts over snippets, and how many were exact."""

    counts: dict[str, Counts] = field(default_factory=lambda: {
        r: Counts() for r in (*ROLES, INPUTS)})
    exact: int = 0
    n: int = 0

    def add(self, s: Snippet) -> None:
        for r, c in s.counts.items():
            self.counts[r].add(c)
        self.exact += s.exact
        self.n += 1

    def figures(self) -> dict[str, float]:
        """P/R/F1 per role and species, and the exact fraction."""
        out: dict[str, float] = {"n": self.n, "exact_n": self.exact,
                                 "exact": self.exact / self.n if self.n else 0.0}
        for r, c in self.counts.items():
            name = "species" if r == INPUTS else r
            p, rec, f = c.prf()
            out.update({f"{name}_p": p, f"{name}_r": rec, f"{name}_f1": f})
        return out
