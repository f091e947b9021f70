"""The structure tier of the reactant-or-reagent decision over the candidates of one
reaction (``rules/reactions.yaml``: ``accounting``, ``structure``, ``spectator_ions``,
``same_as_reactant``).

:func:`structure_roles` runs the atom accounting (:mod:`chemie.reactions.accounting`) of the
reaction once, over its species with structures and its product, and lets
:func:`chemie.reactions.decision.structure_decision` decide each species from what it gives;
a reactant salt whose other ions give nothing is split (``spectator_ions``), and a
solvent or reagent with a reactant's structure is that reactant (``same_as_reactant``). What the
accounting could not explain, or a budget it ran out of, is returned as the record's
problems (``atoms_unexplained``, ``mapping_timeout``). Imported only when structures are
resolved (RDKit).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace

from chemie.model.reaction import Problem, Reaction, Structure
from chemie.reactions.accounting import Accounting, Species, account
from chemie.reactions.assemble import Candidate
from chemie.reactions.decision import (
    ACCOUNTED,
    STRUCTURE,
    Decision,
    Evidence,
    structure_decision,
)
from chemie.reactions.table import ReactionTable
from chemie.structures import chem
from chemie.structures.resolve import SERVICE_FAILURES

UNEXPLAINED, TIMEOUT, UNRESOLVED = "atoms_unexplained", "mapping_timeout", "unresolved_component"
# why a name has no structure, when it is a name (references, compound labels and generic
# phrases are no names: the record's steps and references answer for those)
NAME_FAILURES = frozenset({"parse failure", "molecular formula", *SERVICE_FAILURES})


@dataclass
class Outcome:
    """What the structure tier did to one reaction: the decisions it took (each candidate
    with its decision; a split salt's spectators too) and the problems it found."""

    decisions: list[tuple[Candidate, Decision]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def structure_roles(found: list[Candidate], table: ReactionTable) -> Outcome:
    """The structure tier over the candidates of one reaction (in place; a salt split by
    ``spectator_ions`` adds a candidate to ``found``)."""
    out = Outcome()
    products = list(dict.fromkeys(c.structure.smiles for c in found
                                  if c.role == "product" and _smiles(c)))
    species = [c for c in found if c.role in ACCOUNTED and _smiles(c)]
    if not products or not species:
        return out
    rule = table.accounting
    product = ".".join(products)
    accounting = account([Species(c.structure.smiles, c.role) for c in species], product,
                         min_atoms=rule.min_atoms, mcs_timeout=rule.mcs_timeout,
                         budget=rule.budget)
    named = next(c.name for c in found if c.role == "product" and _smiles(c))
    out.problems = _problems(accounting, rule.budget, named)
    if not accounting.complete:  # the text roles stand
        return out
    organic = _organic(product)
    sound = not accounting.unexplained and not any(
        c.role in ("reactant", "reagent") and not _smiles(c) and _molecule(c) for c in found)
    for c, given in zip(species, accounting.given, strict=True):
        d = structure_decision(Decision(c.role, c.rule), Evidence(given, organic, sound),
                               table)
        if d.tier != STRUCTURE:
            continue
        c.role, c.rule = d.role, d.rule
        out.decisions.append((c, d))
        if d.role == "reactant":
            part = _spectators(c, given.fragments, table)
            if part is not None:
                found.append(part)
                out.decisions.append((part, Decision(part.role, part.rule, STRUCTURE)))
    _same_as_reactants(found, out, table)
    return out


def _same_as_reactants(found: list[Candidate], out: Outcome, table: ReactionTable) -> None:
    """A solvent or reagent with the structure of a reactant that gives atoms is that
    reactant (``same_as_reactant``; it takes that reactant's decision)."""
    given = {c.structure.inchikey: d for c, d in out.decisions
             if d.role == "reactant" and c.structure.inchikey}
    if not given:
        return
    for c in found:
        d = given.get(c.structure.inchikey) if c.structure is not None else None
        if d is not None and c.role in ("solvent", "reagent"):
            c.role, c.rule = "reactant", table.same_as_reactant.name
            out.decisions.append((c, Decision("reactant", c.rule, STRUCTURE, d.carbon)))


def _smiles(c: Candidate) -> bool:
    return c.structure is not None and bool(c.structure.smiles)


def _molecule(c: Candidate) -> bool:
    """Whether a candidate names a molecule (not a material such as Celite or brine)."""
    return c.structure is None or c.structure.kind != "material"


@functools.lru_cache(maxsize=4096)
def _organic(smiles: str) -> bool:
    mol = chem.parse(smiles, sanitize=False)
    return mol is not None and any(a.GetAtomicNum() == 6 for a in mol.GetAtoms())


def _spectators(c: Candidate, giving: set[int], table: ReactionTable) -> Candidate | None:
    """The ions of a reactant salt that give nothing as a new reagent candidate (the others
    stay in ``c``), or None."""
    frags = _fragments(c.structure.smiles)
    if len(frags) < 2 or not giving:
        return None
    kept = [f for i, f in enumerate(frags) if i in giving]
    rest = [f for i, f in enumerate(frags) if i not in giving]
    if not rest or not kept:
        return None
    c.structure = _part(c.structure, kept)
    return replace(c, role="reagent", rule=table.spectator_ions.name,
                   structure=_part(c.structure, rest))


def _part(structure: Structure, fragments: list[str]) -> Structure:
    smiles = ".".join(fragments)
    return replace(structure, smiles=smiles, inchikey=_inchikey(smiles))


@functools.lru_cache(maxsize=4096)
def _fragments(smiles: str) -> tuple[str, ...]:
    return tuple(chem.fragments(smiles))


@functools.lru_cache(maxsize=4096)
def _inchikey(smiles: str) -> str | None:
    return chem.inchikey(smiles)


def _problems(accounting: Accounting, budget: float, product: str) -> list[Problem]:
    """The problems of an accounting; ``product``: the name of the product whose atoms do
    not add up."""
    out = []
    if accounting.unexplained:
        atoms = ", ".join(f"{n} {e}" for e, n in sorted(accounting.unexplained.items()))
        out.append(Problem(UNEXPLAINED, product,
                           f"product atoms that no species with a structure gives: {atoms}"))
    if not accounting.complete:
        out.append(Problem(TIMEOUT, None, f"the atom accounting gave up after {budget:g} s; "
                           "the species it had not reached keep their text roles"))
    return out


def unresolved(reaction: Reaction) -> list[Problem]:
    """A problem ``unresolved_component`` for each component of a record whose name OPSIN and
    the dictionary could not resolve (:data:`NAME_FAILURES`: OPSIN could not parse it, a
    molecular formula, or OPSIN could not run: no Java …)."""
    return [Problem(UNRESOLVED, c.name, f"no structure ({c.structure.reason})")
            for c in reaction.components()
            if c.structure is not None and c.structure.reason in NAME_FAILURES]
