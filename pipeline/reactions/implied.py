"""Species the text implies (``rules/reactions.yaml``: ``implied``): hydrogen of a
hydrogenation, the solvent of "ethereal HCl", the water of "aqueous sodium hydroxide", the
acid of a product salt that chemie_roles read as work-up.

:func:`implied_species` runs on the candidates of one reaction (its text ``[a, b)``), after
the roles by text and before the structure rules, in the table's order. It adds a candidate
for a species that no candidate of the reaction has (its span: the words that imply it; its
rule and its structure's rule: the implied rule), or gives its part to a candidate that
names it and took none. A species is there when an input has every fragment of its
structure, as a molecule (the water of "aqueous NaOH" is added beside the hydroxide, which
the scorer's skeletons would not tell apart). A species' structure is its compound
dictionary entry's; without structures (``structures=False``) species are told apart by
their dictionary entries, and the rules that need a product's structure (``salt_acid``) do
not run.
"""

from __future__ import annotations

import bisect
import functools

import regex

from chemie.model.reaction import Structure
from chemie.reactions.assemble import INPUTS, Candidate, DocView
from chemie.reactions.table import ImpliedRule, ReactionTable
from chemie.structures.dictionary import Entry, compounds
from chemie.structures.grounding import ground
from chemie.tables import TableError

# the role labels of chemie_roles that a species named in the text may carry
_NAMING_LABELS = ("OTHER_COMPOUND", "REAGENT_CATALYST", "STARTING_MATERIAL", "SOLVENT")
_BEFORE = 40  # characters before a compound searched for its adjective
_BRACKET_AFTER = regex.compile(r"\s*\(([^()]{0,40})\)")
_ALONE = regex.compile(r"(?i)\W*\w+\W*")  # a compound span that is one word


def implied_species(view: DocView, members: list[Candidate], a: int, b: int,
                    table: ReactionTable, structures: bool = True) -> None:
    """The implied rules, in order, over the candidates of one reaction (in place)."""
    for rule in table.implied:
        if rule.kind == "phrase":
            _phrase(view, table, rule, members, a, b, structures)
        elif rule.kind == "adjective":
            _adjective(view, table, rule, members, structures)
        elif structures:
            _salt_acid(view, rule, members, a, b)


def _phrase(view: DocView, table: ReactionTable, rule: ImpliedRule,
            members: list[Candidate], a: int, b: int, structures: bool) -> None:
    """The first phrase of the rule in the reaction's text implies its species."""
    m = table.compiled[f"implied.{rule.name}"].search(view.text, a, b)
    if m is None:
        return
    entry = _entry(rule.species, rule.name)
    if not _present(members, entry, structures):
        members.append(_new(view, rule, entry, m.start(), m.end(), structures))


def _adjective(view: DocView, table: ReactionTable, rule: ImpliedRule,
               members: list[Candidate], structures: bool) -> None:
    """A compound of the rule's classes written with the rule's word brings the word's
    species; a candidate that is the word alone takes the species' structure."""
    pattern = table.compiled[f"implied.{rule.name}"]
    for c in list(members):
        if c.role not in INPUTS or c.cls not in rule.classes:
            continue
        found = _word_near(view, pattern, c)
        if found is None:
            continue
        word, start, end = found
        entry = _entry(rule.words.get(word.lower(), rule.species), rule.name)
        alone = next((o for o in members if o.start <= start < o.end
                      and _ALONE.fullmatch(o.text)), None)
        if alone is not None and (alone.structure is None or not alone.structure.resolved):
            alone.cls = entry.cls
            alone.structure = _structure(entry, rule.name) if structures else None
            alone.role, alone.rule = rule.role, rule.name
        elif not _present(members, entry, structures):
            members.append(_new(view, rule, entry, start, end, structures))


def _word_near(view: DocView, pattern: regex.Pattern, c: Candidate
               ) -> tuple[str, int, int] | None:
    """The rule's word at the start of the compound's span ("methanolic HCl" read as one
    compound), right before it ("aqueous sodium hydroxide", "a 2 N aqueous solution of
    NaOH", "ethereal HCl") or in the bracket right after it ("NaOH (aq)", "HCl (2 M
    aqueous, 5 mL)"): (word, start, end), or None."""
    inside = pattern.match(view.text, c.start, c.end)
    if inside is not None and view.text[inside.end():c.end].strip(" .-"):
        return inside.group("word"), inside.start(), inside.end()  # "methanolic HCl"
    lo = max(0, c.start - _BEFORE)
    before = view.text[lo:c.start]
    hits = list(pattern.finditer(before))
    if hits:
        last = hits[-1]
        between = before[last.end():]
        if _ONLY_AMOUNTS.fullmatch(between):
            return last.group("word"), lo + last.start(), lo + last.end()
    after = _BRACKET_AFTER.match(view.text, c.end)
    if after is not None:
        m = pattern.search(after.group(1))
        if m is not None:
            at = after.start(1) + m.start()
            return m.group("word"), at, at + len(m.group())
    return None


# what may stand between the word and its compound: a solution of, a concentration
_ONLY_AMOUNTS = regex.compile(r"(?i)\s*(?:\.\s*)?(?:(?:solution|soln\.?)\s+(?:of\s+)?)?"
                              r"(?:\d+(?:\.\d+)?\s*(?:M|N|%|mol/L)\s+)?(?:solution\s+of\s+)?")


def _salt_acid(view: DocView, rule: ImpliedRule, members: list[Candidate], a: int,
               b: int) -> None:
    """The acid of a product salt, named in the reaction's text by a compound that took no
    part, is a reactant (the first such compound)."""
    from chemie.structures import chem  # noqa: PLC0415  (RDKit: only with structures)

    products = [c for c in members if c.role == "product" and c.structure is not None
                and c.structure.smiles]
    held = {k for c in members if c.role in INPUTS and c.structure is not None
            and c.structure.smiles for k in chem.skeleton_keys(c.structure.smiles) or ()}
    for p in products:
        frags = chem.skeleton_keys(p.structure.smiles) or ()
        if len(frags) < 2:
            continue
        for name in rule.acids:
            entry = _entry(name, rule.name)
            key = chem.skeleton_keys(entry.smiles)
            if not key or key[0] not in frags or key[0] in held:
                continue
            named = _named(view, members, entry, a, b)
            if named is None:
                continue
            named.role, named.rule = rule.role, rule.name
            if named not in members:
                members.append(named)
            held.add(key[0])


def _named(view: DocView, members: list[Candidate], entry: Entry, a: int, b: int
           ) -> Candidate | None:
    """A candidate of the reaction that took no part, or a compound span of chemie_roles in
    ``[a, b)`` that is no candidate, whose name the dictionary reads as ``entry``."""
    for c in members:
        if c.role == "none" and _reads_as(c.name, entry):
            return c
    taken = {(c.start, c.end) for c in members}
    for r in view.roles:
        if r.label in _NAMING_LABELS and a <= r.start < b and (r.start, r.end) not in taken \
                and _reads_as(r.text, entry):
            c = Candidate(r.start, r.end, r.text, r.label, r.rule, _section(view, r.start),
                          view.covering(r.start, r.end), name=r.text, cls=entry.cls)
            c.structure = _structure(entry, None, how="dictionary")
            return c
    return None


def _reads_as(text: str, entry: Entry) -> bool:
    """Whether a compound's text is, by the dictionary, the entry's compound."""
    return _dictionary_smiles(text) == entry.smiles


@functools.lru_cache(maxsize=65536)
def _dictionary_smiles(text: str) -> str | None:
    """The dictionary's SMILES of the first name of a text it knows, or None."""
    d = compounds()
    for name in ground(text, d.__contains__).names:
        for spelling in name.candidates:
            found = d.lookup(spelling)
            if found is not None:
                return found.smiles
    return None


def _present(members: list[Candidate], entry: Entry, structures: bool) -> bool:
    """Whether an input of the reaction has the species: every fragment of its structure
    among theirs, as molecules (water is no hydroxide; without structures: a name the
    dictionary reads as the same entry)."""
    inputs = [c for c in members if c.role in INPUTS]
    if not structures:
        return any(_reads_as(c.name, entry) for c in inputs)
    want = set(_fragments(entry.smiles))
    have = {f for c in inputs if c.structure is not None and c.structure.smiles
            for f in _fragments(c.structure.smiles)}
    return want <= have


@functools.lru_cache(maxsize=65536)
def _fragments(smiles: str) -> tuple[str, ...]:
    from chemie.structures import chem  # noqa: PLC0415

    return tuple(chem.fragments(smiles))


def _new(view: DocView, rule: ImpliedRule, entry: Entry, start: int, end: int,
         structures: bool) -> Candidate:
    """A candidate for an implied species: its span the words that imply it."""
    c = Candidate(start, end, view.text[start:end], "", "", _section(view, start),
                  view.covering(start, end), name=entry.name, cls=entry.cls)
    c.role, c.rule = rule.role, rule.name
    c.structure = _structure(entry, rule.name) if structures else None
    return c


def _section(view: DocView, at: int) -> int:
    return bisect.bisect_right(view.section_starts(), at) - 1


def _structure(entry: Entry, rule: str | None, how: str = "dictionary") -> Structure:
    """The structure of a dictionary entry (canonical SMILES and InChIKey)."""
    from chemie.structures.resolve import structure_of  # noqa: PLC0415  (RDKit)

    smiles, key = structure_of(entry.smiles) or (entry.smiles, None)
    return Structure(how, smiles, key, kind="molecule", rule=rule)


@functools.cache
def _entry(name: str, rule: str) -> Entry:
    """The dictionary entry a rule names (a name the dictionary lacks is a table error)."""
    entry = compounds().lookup(name)
    if entry is None or entry.smiles is None:
        raise TableError("reactions.yaml", f"implied.{rule}",
                         f"{name!r} is no compound of lexicons/compounds.tsv")
    return entry
