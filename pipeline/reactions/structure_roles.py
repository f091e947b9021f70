"""USPTO roles of the candidates by structure (``rules/reactions.yaml``: ``structure``), after
the roles by text (:mod:`chemie.reactions.roles`).

:func:`structure_roles` applies the RDKit checks in table order: a reagent that is a whole
fragment of a product (the acid of a salt) becomes a reactant, and a reactant that shares no
substantial substructure with any product (maximum common substructure of elements and
connectivity, with a timeout) becomes a reagent. Every candidate's ``rule`` names the last
rule that decided its role. Imported only when structures are resolved (RDKit).
"""

from __future__ import annotations

import functools
from dataclasses import replace

from rdkit import Chem
from rdkit.Chem import rdFMCS

from chemie.reactions.assemble import Candidate
from chemie.reactions.model import Structure
from chemie.reactions.table import ReactionTable, StructureRule
from chemie.structures import chem

# non-metal atoms other than halogens and hydrogen: B C N O Si P S As Se Te
_NON_METALS = frozenset({5, 6, 7, 8, 14, 15, 16, 33, 34, 52})
_HALOGENS = frozenset({9, 17, 35, 53})
_NOT_METALS = _NON_METALS | _HALOGENS | {1, 2, 10, 18, 36, 54}  # and H, noble gases


def structure_roles(found: list[Candidate], table: ReactionTable) -> None:
    """The structure rules, in table order, over the candidates of one reaction (in place;
    a salt split by ``spectator_fragments`` adds a candidate). Each candidate is moved by
    at most one rule."""
    products = [c.structure.smiles for c in found
                if c.role == "product" and c.structure is not None and c.structure.smiles]
    if not products:
        return
    moved: set[int] = set()
    for rule in table.structure:
        for c in list(found):
            if c.role not in rule.from_roles or c.structure is None or not c.structure.smiles:
                continue
            if rule.kind == "spectator_fragments":  # a split, not a move: after any move
                part = _split_spectators(rule, c, products)
                if part is not None:
                    found.append(part)
                    moved.update((id(c), id(part)))
                continue
            if id(c) in moved:
                continue
            if rule.kind == "substantial_common_substructure":
                if c.cls not in rule.unless_classes and any(
                        _shares_most(c.structure.smiles, p, rule) for p in products):
                    c.role, c.rule = rule.role, rule.name
                    moved.add(id(c))
            elif c.cls not in rule.unless_classes and _fires(rule, c.structure.smiles, products):
                c.role, c.rule = rule.role, rule.name
                moved.add(id(c))


def _split_spectators(rule: StructureRule, c: Candidate, products: list[str]
                      ) -> Candidate | None:
    """The spectator ions of a salt as a new candidate (the rest stays in ``c``), or None."""
    frags = chem.fragments(c.structure.smiles)
    if len(frags) < 2:
        return None
    product_keys = {k for p in products for k in (chem.skeleton_keys(p) or ())}
    whole = {f for f in frags if not set(chem.skeleton_keys(f) or ()) - product_keys}
    contributing = {f for f in frags if any(contributes(f, p, rule) for p in products)}
    # a halide that shares less with a product than another ion of the salt is its
    # counter-ion ("hydroxylamine hydrochloride" giving an oxadiazole that has its chlorine
    # from chloroacetyl chloride: the chloride is a spectator)
    most = max((_shared(f, products, rule) for f in contributing - whole), default=0)
    spectators = [f for f in frags if f not in whole and (
        f not in contributing or _halide(f) and _shared(f, products, rule) < most)]
    if len(spectators) == len(frags) and c.cls in rule.unless_classes:
        # an oxidant gives its oxygen: its largest ion stays ("KMnO4": MnO4- and K+)
        largest = max(frags, key=lambda f: _mol(f).GetNumHeavyAtoms() if _mol(f) else 0)
        spectators = [f for f in frags if f != largest]
    kept = [f for f in frags if f not in spectators]
    if not spectators or not kept:
        return None
    c.structure = _part(c.structure, kept)
    return replace(c, role=rule.role, rule=rule.name, structure=_part(c.structure, spectators))


def _halide(smiles: str) -> bool:
    """Whether a fragment is one halogen atom (Cl-, HBr …)."""
    mol = _mol(smiles)
    return mol is not None and mol.GetNumHeavyAtoms() == 1 \
        and mol.GetAtomWithIdx(0).GetAtomicNum() in _HALOGENS


def _shared(smiles: str, products: list[str], rule: StructureRule) -> int:
    """The most heavy atoms a fragment shares with one of the products."""
    return max(shared_atoms(smiles, p, rule.timeout) for p in products)


def _part(structure: Structure, fragments: list[str]) -> Structure:
    smiles = ".".join(fragments)
    return replace(structure, smiles=smiles, inchikey=chem.inchikey(smiles))


def _fires(rule: StructureRule, smiles: str, products: list[str]) -> bool:
    if rule.kind == "fragment_of_product":
        keys = chem.skeleton_keys(smiles)
        product_keys = {k for p in products for k in (chem.skeleton_keys(p) or ())}
        return bool(keys) and set(keys) <= product_keys
    return not any(contributes(smiles, p, rule) for p in products)


def _shares_most(smiles: str, product: str, rule: StructureRule) -> bool:
    """Whether the candidate's largest fragment shares at least ``min_shared`` heavy atoms,
    and ``min_fraction`` of its own, with the product; for an organometallic compound (a
    carbon bound to a metal: a Grignard reagent), of its atoms other than metals and
    halogens, which leave (methylmagnesium iodide gives its one carbon)."""
    mol = _mol(smiles)
    if mol is None or not mol.GetNumHeavyAtoms():
        return False
    shared = shared_atoms(smiles, product, rule.timeout)
    if _organometallic(mol):
        kept = sum(1 for a in mol.GetAtoms() if a.GetAtomicNum() in _NON_METALS)
        return shared >= needed(smiles, rule.min_shared) and shared >= rule.min_fraction * kept
    return shared >= rule.min_shared and shared >= rule.min_fraction * mol.GetNumHeavyAtoms()


def _organometallic(mol: Chem.Mol) -> bool:
    """Whether a carbon is bound to a metal (Li, Mg, Zn, Cu …)."""
    for bond in mol.GetBonds():
        pair = sorted((bond.GetBeginAtom().GetAtomicNum(), bond.GetEndAtom().GetAtomicNum()))
        if 6 in pair and not set(pair) <= _NOT_METALS:
            return True
    return False


def contributes(smiles: str, product: str, rule: StructureRule) -> bool:
    """Whether a candidate shares a substantial substructure with a product: at least
    :func:`needed` heavy atoms, or, for a halogen donor (a halogen bound to a non-metal
    other than hydrogen: POCl3, SOCl2, NBS, Br2), one of its halogens."""
    if shared_atoms(smiles, product, rule.timeout) >= needed(smiles, rule.min_shared):
        return True
    donated = _donated_halogens(smiles)
    return bool(donated) and any(a.GetAtomicNum() in donated
                                 for a in (_mol(product, largest=False) or Chem.Mol()).GetAtoms())


@functools.lru_cache(maxsize=4096)
def _donated_halogens(smiles: str) -> frozenset[int]:
    """The halogens a molecule can give (bound to a non-metal other than hydrogen)."""
    mol = _mol(smiles)
    if mol is None:
        return frozenset()
    return frozenset(
        a.GetAtomicNum() for a in mol.GetAtoms() if a.GetAtomicNum() in _HALOGENS
        and any(n.GetAtomicNum() in _NON_METALS or n.GetAtomicNum() in _HALOGENS
                for n in a.GetNeighbors())
    )


@functools.lru_cache(maxsize=4096)
def _mol(smiles: str, largest: bool = True) -> Chem.Mol | None:
    """The molecule of ``smiles`` (its largest fragment with ``largest``); None when RDKit
    cannot read it."""
    mol = chem.parse(smiles)
    if mol is None or not largest:
        return mol
    frags = Chem.GetMolFrags(mol, asMols=True)
    return max(frags, key=lambda m: m.GetNumHeavyAtoms()) if frags else None


def needed(smiles: str, min_shared: int) -> int:
    """How many heavy atoms a candidate must share with a product to contribute atoms:
    ``min_shared``, or fewer for a small molecule (its non-metal atoms other than halogens,
    which leave: methyl iodide and methylmagnesium bromide contribute their one carbon)."""
    mol = _mol(smiles)
    if mol is None:
        return min_shared
    kept = sum(1 for a in mol.GetAtoms() if a.GetAtomicNum() in _NON_METALS)
    return max(1, min(min_shared, kept))


@functools.lru_cache(maxsize=16384)
def shared_atoms(smiles: str, product: str, timeout: float) -> int:
    """Heavy atoms of the maximum common substructure of the candidate's largest fragment and
    the product (any of its fragments: the acid of a salt counts), elements and connectivity
    (bond orders and rings ignored), found within ``timeout`` seconds (the best found so far
    when it runs out); 0 when either cannot be read."""
    a, b = _mol(smiles), _mol(product, largest=False)
    if a is None or b is None:
        return 0
    params = rdFMCS.MCSParameters()
    params.AtomTyper = rdFMCS.AtomCompare.CompareElements
    params.BondTyper = rdFMCS.BondCompare.CompareAny
    params.BondCompareParameters.RingMatchesRingOnly = False
    params.BondCompareParameters.CompleteRingsOnly = False
    params.Timeout = max(1, int(round(timeout)))
    result = rdFMCS.FindMCS([a, b], params)
    return int(result.numAtoms)
