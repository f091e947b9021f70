"""Structure correctness: a paragraph's names aligned to its human-reviewed species.

Coverage (how many names get a structure) says nothing about whether the structure is the
one meant. Where a paragraph comes with reviewed structures (the species of its reaction:
``uspto-reactions/dev.jsonl``), each name that a system resolved can be judged against
them. The alignment, per paragraph:

* structures are compared as ``chemie score reactions`` compares them: fragment by fragment,
  by heavy-atom skeleton (:func:`chemie.structures.chem.skeleton_keys`);
* a name is **right** when every fragment of its structure is a fragment of some reviewed
  species of the paragraph (any role: a salt named whole matches a species listed as ions);
* a reviewed species is **named** when its largest fragment is a fragment of a right name's
  structure; the others are **left over** (named by a label, a reference, a name that did
  not resolve, or not named at all);
* a resolved name that is not right is **wrong** when it is *close* to a left-over species,
  comparing the largest fragment of each: the same heavy-atom formula (an isomer: a locant
  read another way), a Tanimoto similarity of at least :data:`CLOSE` (Morgan radius 2 on
  the skeletons: a name misread), or a name of at least :data:`PART_ATOMS` heavy atoms of
  which at least :data:`PART_SHARE` lie in the species (maximum common substructure by
  element and connectivity: a part of the species' name, cut from it); it is then the
  misreading of that species;
* a resolved name that is neither is **extra**: a compound the reviewed reaction does not
  list (work-up, analysis, an intermediate of another step), not judged;
* a name without a structure is **unresolved**; a material (brine, Celite: no structure by
  design) is **material**, not judged.

Wrong names can only be found where a species is left over, so a paragraph whose every
species is named right has no wrong name: the figure is a lower bound of the wrong readings,
and ``right / (right + wrong)`` the share of judged names that are right.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from rdkit import Chem, DataStructs
from rdkit.Chem import rdFingerprintGenerator, rdFMCS

from chemie.structures.chem import skeleton_keys

CLOSE = 0.5  # Tanimoto similarity of skeletons above which a wrong name is close to a species
PART_ATOMS = 8  # heavy atoms of a name that may be judged a part of a species (fewer: a solvent)
PART_SHARE = 0.8  # of its heavy atoms in the species
MCS_TIMEOUT = 2  # seconds per maximum common substructure
VERDICTS = ("right", "wrong", "extra", "unresolved", "material")


@dataclass(frozen=True)
class NameVerdict:
    """One name judged: its verdict and, when wrong, the reviewed species it is close to and
    how (``isomer`` or the similarity)."""

    name: str
    smiles: str | None
    verdict: str
    species: str | None = None
    closeness: str | None = None


@dataclass(frozen=True)
class Alignment:
    """The names of one paragraph judged, and the reviewed species no right name matched."""

    names: tuple[NameVerdict, ...]
    left_over: tuple[str, ...]

    def count(self, verdict: str) -> int:
        return sum(v.verdict == verdict for v in self.names)


def align(names: Sequence[tuple[str, str | None, bool]], species: Sequence[str]) -> Alignment:
    """Judge ``names`` — ``(name, SMILES or None, material)`` — against the reviewed
    ``species`` (SMILES) of one paragraph (see the module docstring)."""
    gold = {k for s in species for k in (skeleton_keys(s) or ())}
    first: list[tuple[str, str | None, str]] = []
    covered: set[str] = set()
    for name, smiles, material in names:
        keys = skeleton_keys(smiles) if smiles else None
        if material:
            first.append((name, smiles, "material"))
        elif not keys:
            first.append((name, None, "unresolved"))
        elif set(keys) <= gold:
            first.append((name, smiles, "right"))
            covered.update(keys)
        else:
            first.append((name, smiles, ""))
    left = tuple(s for s in dict.fromkeys(species) if _largest(s) not in covered)
    out = []
    for name, smiles, verdict in first:
        if verdict:
            out.append(NameVerdict(name, smiles, verdict))
            continue
        near = _closest(smiles or "", left)
        if near is None:
            out.append(NameVerdict(name, smiles, "extra"))
        else:
            out.append(NameVerdict(name, smiles, "wrong", *near))
    return Alignment(tuple(out), left)


def _closest(smiles: str, left: Sequence[str]) -> tuple[str, str] | None:
    """The left-over species closest to ``smiles`` with how, or None when none is close."""
    mine = _largest(smiles)
    best: tuple[float, str, str] | None = None
    for s in left:
        theirs = _largest(s)
        if mine is None or theirs is None:
            continue
        if _formula(mine) == _formula(theirs):
            return s, "isomer"
        sim = _similarity(mine, theirs)
        if sim >= CLOSE and (best is None or sim > best[0]):
            best = (sim, s, f"similarity {sim:.2f}")
        elif best is None and _part_of(mine, theirs):
            best = (0.0, s, "part")
    return (best[1], best[2]) if best is not None else None


def _part_of(mine: str, theirs: str) -> bool:
    """Whether most atoms of a name's skeleton (at least :data:`PART_ATOMS`) lie in the
    species' skeleton."""
    a, b = _mol(mine), _mol(theirs)
    if a.GetNumAtoms() < PART_ATOMS or a.GetNumAtoms() > b.GetNumAtoms():
        return False
    found = rdFMCS.FindMCS([a, b], atomCompare=rdFMCS.AtomCompare.CompareElements,
                           bondCompare=rdFMCS.BondCompare.CompareAny, timeout=MCS_TIMEOUT)
    return found.numAtoms >= PART_SHARE * a.GetNumAtoms()


def _largest(smiles: str) -> str | None:
    """The skeleton key of the fragment with most heavy atoms (None when unreadable)."""
    keys = skeleton_keys(smiles)
    if not keys:
        return None
    return max(keys, key=lambda k: (_mol(k).GetNumAtoms(), k))


@functools.lru_cache(maxsize=4096)
def _mol(key: str) -> Chem.Mol:
    mol = Chem.MolFromSmiles(key, sanitize=False)
    mol.UpdatePropertyCache(strict=False)
    Chem.FastFindRings(mol)
    return mol


@functools.lru_cache(maxsize=4096)
def _formula(key: str) -> tuple[tuple[int, int], ...]:
    counts: dict[int, int] = {}
    for atom in _mol(key).GetAtoms():
        counts[atom.GetAtomicNum()] = counts.get(atom.GetAtomicNum(), 0) + 1
    return tuple(sorted(counts.items()))


_MORGAN = rdFingerprintGenerator.GetMorganGenerator(radius=2, fpSize=2048)


def _similarity(a: str, b: str) -> float:
    if _mol(a).GetNumAtoms() < 2 or _mol(b).GetNumAtoms() < 2:
        return 0.0
    return DataStructs.TanimotoSimilarity(_MORGAN.GetFingerprint(_mol(a)),
                                          _MORGAN.GetFingerprint(_mol(b)))
