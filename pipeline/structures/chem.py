"""RDKit utilities: canonical SMILES, InChIKey, fragments and the heavy-atom skeleton key.

The skeleton key is how reactions are compared (issue 15, and the convention of the
uspto-reactions data README): elements and connectivity only. Atom maps, stereo, charges,
isotopes, hydrogens and bond orders are ignored, so ``[Li+]`` and ``[LiH]``, ``O=C[O-]`` and
``OC=O``, ``c1ccccc1`` and ``C1CCCCC1`` share a key. Every fragment (``.``-separated component) has
its own key. The bond-order key (:func:`bond_order_keys`, ``chemie score reactions
--bond-orders``) keeps single, double, triple and aromatic bonds as well (aromaticity as RDKit
perceives it, so Kekulé and aromatic SMILES of one ring share a key) and still ignores the
rest: a ketone and its alcohol differ, ``[NH3+]CCO.[Cl-]`` and ``NCCO.Cl`` do not.

Hydrogen atoms bonded to a heavy atom are dropped. A fragment with no heavy atom keeps its
hydrogen atoms as written, like RDKit's ``RemoveHs``: ``[H][H]`` (two atoms) keys ``[H][H]``,
while ``[H]``, ``[H-]``, ``[H+]`` and ``[HH]`` (one atom with an H count) key ``[H]``. This
is the convention that reproduces the uspto-reactions README's figures for the USPTO
text-mined set on dev.jsonl (exact 0.39 = 31/80; keying every H-only fragment ``[H]`` gives
32/80, dropping H-only fragments 36/80).

Importing this module silences RDKit's logging (parse errors of rejected SMILES are
reported by the callers as reasons, not printed).
"""

from __future__ import annotations

import functools

from rdkit import Chem, RDLogger

RDLogger.DisableLog("rdApp.*")

def parse(smiles: str, sanitize: bool = True) -> Chem.Mol | None:
    """The molecule of a SMILES, or None when RDKit cannot read (or sanitize) it."""
    if not smiles or "\n" in smiles:
        return None
    try:
        return Chem.MolFromSmiles(smiles, sanitize=sanitize)
    except Exception:  # RDKit raises a few C++ errors instead of returning None
        return None


def canonical(smiles: str) -> str | None:
    """RDKit's canonical isomeric SMILES, or None when the SMILES does not parse."""
    mol = parse(smiles)
    return Chem.MolToSmiles(mol) if mol is not None else None


def inchikey(smiles: str) -> str | None:
    """The standard InChIKey, or None when RDKit cannot read the SMILES or make an InChI."""
    mol = parse(smiles)
    if mol is None:
        return None
    try:
        key = Chem.MolToInchiKey(mol)
    except Exception:
        return None
    return key or None


def fragments(smiles: str) -> list[str]:
    """The canonical SMILES of each fragment (``.``-separated component), in RDKit's order;
    an empty list when the SMILES does not parse."""
    mol = parse(smiles)
    if mol is None:
        return []
    return [Chem.MolToSmiles(f) for f in Chem.GetMolFrags(mol, asMols=True)]


@functools.lru_cache(maxsize=65536)
def skeleton_keys(smiles: str) -> tuple[str, ...] | None:
    """The heavy-atom skeleton key of every fragment of ``smiles`` (in fragment order; a
    repeated fragment is repeated), or None when RDKit cannot read the SMILES at all.

    Read without sanitization, so text-mined SMILES with odd valences still get a key.
    """
    mol = parse(smiles, sanitize=False)
    if mol is None:
        return None
    keys = []
    for atoms in Chem.GetMolFrags(mol, asMols=False, sanitizeFrags=False):
        heavy = [i for i in atoms if mol.GetAtomWithIdx(i).GetAtomicNum() != 1]
        keys.append(_skeleton_smiles(mol, heavy or list(atoms)))
    return tuple(keys)


def _skeleton_smiles(mol: Chem.Mol, atoms: list[int]) -> str:
    """Canonical SMILES of a new graph: the given atoms as bare elements, single bonds."""
    graph = Chem.RWMol()
    index = {}
    for i in atoms:
        atom = Chem.Atom(mol.GetAtomWithIdx(i).GetAtomicNum())
        atom.SetNoImplicit(True)
        index[i] = graph.AddAtom(atom)
    for bond in mol.GetBonds():
        a, b = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
        if a in index and b in index:
            graph.AddBond(index[a], index[b], Chem.BondType.SINGLE)
    graph.UpdatePropertyCache(strict=False)
    Chem.FastFindRings(graph)
    return Chem.MolToSmiles(graph, isomericSmiles=False, canonical=True)


_BOND_TYPES = {Chem.BondType.DOUBLE, Chem.BondType.TRIPLE, Chem.BondType.AROMATIC}


@functools.lru_cache(maxsize=65536)
def bond_order_keys(smiles: str) -> tuple[str, ...] | None:
    """The key of every fragment of ``smiles`` by heavy atoms, connectivity and bond orders
    (single, double, triple, aromatic; see the module docstring), or None when RDKit cannot
    read the SMILES at all. Aromaticity is RDKit's when the molecule sanitizes; a SMILES
    that does not (odd valences of text-mined data) keeps its bonds as written."""
    mol = parse(smiles, sanitize=False)
    if mol is None:
        return None
    mol = _perceived(mol)
    keys = []
    for atoms in Chem.GetMolFrags(mol, asMols=False, sanitizeFrags=False):
        heavy = [i for i in atoms if mol.GetAtomWithIdx(i).GetAtomicNum() != 1]
        keys.append(_bond_order_smiles(mol, heavy or list(atoms)))
    return tuple(keys)


def _perceived(mol: Chem.Mol) -> Chem.Mol:
    """``mol`` sanitized (aromaticity perceived, a nitro group written N(=O)=O made
    charge-separated as RDKit does), or as written when it cannot be."""
    copy = Chem.Mol(mol)
    try:
        Chem.SanitizeMol(copy)
    except Exception:  # RDKit raises C++ errors for bad valences and rings
        return mol
    return copy


def _bond_order_smiles(mol: Chem.Mol, atoms: list[int]) -> str:
    """Canonical SMILES of a new graph: the given atoms as bare elements (aromatic flag
    kept), their bonds single, double, triple or aromatic (others as single)."""
    graph = Chem.RWMol()
    index = {}
    for i in atoms:
        source = mol.GetAtomWithIdx(i)
        atom = Chem.Atom(source.GetAtomicNum())
        atom.SetNoImplicit(True)
        atom.SetIsAromatic(source.GetIsAromatic())
        index[i] = graph.AddAtom(atom)
    for bond in mol.GetBonds():
        a, b = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
        if a in index and b in index:
            kind = bond.GetBondType()
            new = kind if kind in _BOND_TYPES else Chem.BondType.SINGLE
            graph.AddBond(index[a], index[b], new)
            if new == Chem.BondType.AROMATIC:
                graph.GetBondBetweenAtoms(index[a], index[b]).SetIsAromatic(True)
    graph.UpdatePropertyCache(strict=False)
    Chem.FastFindRings(graph)
    return Chem.MolToSmiles(graph, isomericSmiles=False, canonical=True)


@functools.lru_cache(maxsize=16384)
def has_group(smiles: str, smarts: str) -> bool:
    """Whether the molecule of ``smiles`` has the substructure ``smarts`` (False when either
    cannot be read)."""
    mol = parse(smiles)
    pattern = _smarts(smarts)
    return mol is not None and pattern is not None and mol.HasSubstructMatch(pattern)


@functools.lru_cache(maxsize=1024)
def _smarts(smarts: str) -> Chem.Mol | None:
    try:
        return Chem.MolFromSmarts(smarts)
    except Exception:  # RDKit raises a few C++ errors instead of returning None
        return None
