"""Atom accounting of one reaction: which heavy atoms of the product each species gives.

The structure tier of the reactant-or-reagent decision (:mod:`chemie.reactions.decision`).
Every heavy atom of the product must come from some species; the product's atoms are
explained in turn (``rules/reactions.yaml``: ``accounting``), each step naming its rule:

1. ``whole_fragment``: a fragment of the product that is a whole fragment of a species (the
   acid of a salt "X hydrochloride", the cation of a salt, the trifluoroacetate of a TFA
   salt) comes from that species.
2. ``common_substructure``: then, again and again, the largest maximum common substructure
   (RDKit MCS: elements and connectivity, bond orders ignored) of a species fragment and the
   part of the product still unexplained, of at least ``min_atoms`` atoms. The first match is
   the main reactant's; what it leaves (the amine of an amide coupling, the N-O of an oxime,
   the boronic acid of a borylation) must come from another species. A second piece from
   the same species is another equivalent of it (a bis-acylation), so it must be at least
   half of what the species offers. Ties go to a species that has given nothing yet, then
   to the one whose bonds in the match have the orders of the product's (the aromatic ring
   of a furyllithium, not the THF around it), then to one the text does not call a solvent
   (the tolyl of 4-bromotoluene, not the toluene it is dissolved in), then to the one that
   gives the largest part of its own atoms, then to the one the text calls a reactant
   (:data:`PRIORS`).
3. ``donated_atom``: an atom still unexplained comes from a species that can give that one
   atom (a leaving group's partner): a metal from a species that holds it (the lithium of
   an organolithium, the sodium of a sodium salt); a halogen bound to a non-carbon atom or
   to a carbon that bears a heteroatom (SOCl2, POCl3, NBS, oxalyl chloride, HCl); a
   heteroatom bound to another heteroatom or a metal (the O of H2O2, mCPBA, KMnO4, the N of
   NaNO2) or standing alone in a small molecule (the N of ammonia); a one-carbon unit (a
   carbon with no carbon neighbour) bound to a halogen or metal (the methyl of methyl iodide
   or of a Grignard reagent) or by single bonds to three heteroatoms (the CH of triethyl
   orthoformate or DMF dimethyl acetal), or the carbon of a one-carbon alcohol (methanol).
   Ties go to a species that holds the atom bound (POCl3 before HCl), then to the one the
   text calls a reactant, then to one that gives atoms already.

Solvents take part in step 2 (a solvent that gives a piece of several atoms: the ethanol of
an ethyl ester) and, in step 3, only with the one-carbon alkyl of an alcohol (the methyl of
a methyl ester made in methanol, whose oxygen step 2 gave to the acid); catalysts are not
accounted. What no species explains is left ``unexplained`` (the check
``atoms_unexplained`` of a record). The whole accounting of one reaction has a time budget
(``budget`` seconds; each MCS search at most ``mcs_timeout``); when it runs out, the
accounting is ``complete=False`` and the caller names the reaction.

Hydrogen is never counted (heavy atoms only: a hydrogenation's H2 gives no heavy atom).
What is known of each fragment of a SMILES, and each common substructure found, is cached:
a document's reactions, and a corpus's, repeat their species.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from dataclasses import dataclass, field

from rdkit import Chem
from rdkit.Chem import rdFMCS

from chemie.structures import chem

# heavy non-metal atoms: H He B C N O F Ne Si P S Cl Ar As Se Br Kr Te I Xe At Rn
NON_METALS = frozenset({1, 2, 5, 6, 7, 8, 9, 10, 14, 15, 16, 17, 18, 33, 34, 35, 36, 52, 53,
                        54, 85, 86})
HALOGENS = frozenset({9, 17, 35, 53})
HETERO = frozenset({5, 7, 8, 14, 15, 16, 33, 34, 52})  # non-metals other than C, H, halogens
CARBON = 6
# the text-tier roles that take part, best first (ties of step 2 and 3 go to the first)
PRIORS = ("reactant", "reagent", "solvent")
SMALL = 3  # heavy atoms of a "small molecule" whose heteroatom may be given alone (NH3)

WHOLE, COMMON, DONATED = "whole_fragment", "common_substructure", "donated_atom"


@dataclass(frozen=True)
class Species:
    """One species of the reaction: its SMILES and its role by text (one of :data:`PRIORS`)."""

    smiles: str
    prior: str


@dataclass(frozen=True)
class _Part:
    """What is known of one fragment of a SMILES (heavy atoms; a hydrogen atom of H2 or a
    hydride ion is never an atom to explain or to give)."""

    mol: Chem.Mol
    key: str  # skeleton key: elements and connectivity
    smiles: str  # canonical (the key of the MCS cache)
    symbols: tuple[str, ...]  # of each atom
    counts: Counter  # atoms by element (hydrogen atoms of H2 or a hydride ion left out)
    hydrogen: tuple[bool, ...]  # of each atom
    offered: int  # see :func:`offered`
    alone: frozenset[int]  # the elements it can give alone (step 3)
    from_solvent: frozenset[int]  # those it can give alone as a solvent (step 3)
    free: frozenset[int]  # the elements it holds only as lone atoms (a halide ion, HCl)


@dataclass
class Given:
    """What one species gives to the product: heavy atoms by element for each step
    (:data:`WHOLE`, :data:`COMMON`, :data:`DONATED`), and, for a species that gives none,
    whether it could have given some (``could``: it shares a common substructure of
    ``min_atoms`` with the product, or is a whole fragment of it, or can give alone an
    atom of an element the product holds; the accounting gave those atoms to another)."""

    steps: dict[str, Counter] = field(default_factory=dict)
    fragments: set[int] = field(default_factory=set)  # its fragments that give atoms
    offered: int = 0  # the atoms those fragments could give (see :func:`offered`)
    could: bool = False

    @property
    def rules(self) -> list[str]:
        return list(self.steps)

    @property
    def atoms(self) -> int:
        return sum(sum(c.values()) for c in self.steps.values())

    def count(self, steps: set[str], element: str | None = None) -> int:
        """The atoms it gives by ``steps`` (of ``element`` only, when given)."""
        return sum(c[element] if element else sum(c.values())
                   for k, c in self.steps.items() if k in steps)

    def add(self, elements: list[str], rule: str, source: _Fragment) -> None:
        self.steps.setdefault(rule, Counter()).update(elements)
        if source.index not in self.fragments:
            self.fragments.add(source.index)
            self.offered += source.part.offered


@dataclass
class Accounting:
    """The accounting of one reaction: ``given[i]`` for species ``i``; the product's heavy
    atoms no species explains, by element; whether it ran to its end within its budget."""

    given: list[Given]
    unexplained: Counter = field(default_factory=Counter)
    complete: bool = True
    seconds: float = 0.0


@dataclass
class _Fragment:
    """A fragment of a species or of the product in one accounting."""

    part: _Part
    source: str  # the SMILES it is a fragment of
    owner: int  # the species' index (-1: the product)
    index: int  # its place among its owner's fragments
    explained: list[bool] = field(default_factory=list)

    def left(self) -> tuple[bool, ...]:
        return tuple(self.explained)


@functools.lru_cache(maxsize=8192)
def _parts(smiles: str) -> tuple[_Part, ...]:
    """The fragments of a SMILES (in RDKit's order, as :func:`chemie.structures.chem.fragments`
    gives them), hydrogens bound to heavy atoms removed, read without sanitising (odd
    valences of text-mined or hand-written SMILES kept); () when RDKit cannot read it."""
    mol = chem.parse(smiles, sanitize=False)
    if mol is None:
        return ()
    out = []
    for frag in Chem.GetMolFrags(mol, asMols=True, sanitizeFrags=False):
        try:
            frag = Chem.RemoveHs(frag, sanitize=False)
        except Exception:  # RDKit raises C++ errors on some hydrogen layouts
            pass
        frag.UpdatePropertyCache(strict=False)
        Chem.FastFindRings(frag)
        text = Chem.MolToSmiles(frag)
        atoms = list(frag.GetAtoms())
        numbers = {a.GetAtomicNum() for a in atoms}
        out.append(_Part(frag, (chem.skeleton_keys(text) or ("",))[0], text,
                         tuple(a.GetSymbol() for a in atoms),
                         Counter(a.GetSymbol() for a in atoms if a.GetAtomicNum() != 1),
                         tuple(a.GetAtomicNum() == 1 for a in atoms), offered(frag),
                         frozenset(n for n in numbers if _gives_alone(frag, n)),
                         frozenset({CARBON}) if _alcohol_methyl(frag) else frozenset(),
                         frozenset(n for n in numbers if all(
                             not a.GetDegree() for a in atoms if a.GetAtomicNum() == n))))
    return tuple(out)


def _fragments(smiles: str, owner: int) -> list[_Fragment]:
    return [_Fragment(p, smiles, owner, i, list(p.hydrogen))
            for i, p in enumerate(_parts(smiles))]


def account(species: list[Species], product: str, *, min_atoms: int = 2,
            mcs_timeout: float = 1.0, budget: float = 5.0) -> Accounting:
    """The accounting of a reaction that makes ``product`` from ``species`` (see the module
    docstring)."""
    start = time.perf_counter()
    result = Accounting([Given() for _ in species])
    targets = _fragments(product, -1)
    sources = [f for i, s in enumerate(species) if s.prior in PRIORS
               for f in _fragments(s.smiles, i) if not all(f.explained)]
    _whole_fragments(species, targets, sources, result)
    result.complete = _common(species, targets, sources, result, min_atoms, mcs_timeout,
                              start + budget)
    _donated(species, targets, sources, result)
    if result.complete:
        _could(targets, sources, result, min_atoms, mcs_timeout)
    for t in targets:
        for symbol, done in zip(t.part.symbols, t.explained, strict=True):
            if not done:
                result.unexplained[symbol] += 1
    result.seconds = time.perf_counter() - start
    return result


def _rank(species: list[Species], owner: int) -> int:
    return PRIORS.index(species[owner].prior)


def _whole_fragments(species: list[Species], targets: list[_Fragment],
                     sources: list[_Fragment], result: Accounting) -> None:
    """Step 1: a product fragment that is a whole species fragment."""
    for t in targets:
        same = [s for s in sources if s.part.key == t.part.key] if not all(t.explained) else []
        if not same:
            continue
        best = min(same, key=lambda s: (_rank(species, s.owner), s.owner))
        t.explained = [True] * len(t.explained)
        result.given[best.owner].add(list(t.part.symbols), WHOLE, best)


def _common(species: list[Species], targets: list[_Fragment], sources: list[_Fragment],
            result: Accounting, min_atoms: int, timeout: float, deadline: float) -> bool:
    """Step 2, until no match of ``min_atoms`` is left; False when the budget ran out."""
    while True:
        best = None
        for t in targets:
            left = t.left()
            if len(left) - sum(left) < min_atoms:
                continue
            counts = Counter(x for x, done in zip(t.part.symbols, left, strict=True) if not done)
            for s in sources:
                # no common substructure is larger than the atoms of each element both hold
                bound = sum(min(n, counts[e]) for e, n in s.part.counts.items())
                if bound < min_atoms or best is not None and bound < best[0][0]:
                    continue
                if time.perf_counter() > deadline:
                    return False
                match, same = _mcs(s, t, left, timeout)
                fresh = s.index not in result.given[s.owner].fragments
                if len(match) < min_atoms or not fresh and 2 * len(match) < s.part.offered:
                    continue
                score = (len(match), fresh, same, species[s.owner].prior != "solvent",
                         len(match) / len(s.part.symbols), -_rank(species, s.owner), -s.owner)
                if best is None or score > best[0]:
                    best = (score, s, t, match)
        if best is None:
            return True
        _, s, t, matched = best
        for i in matched:
            t.explained[i] = True
        result.given[s.owner].add([t.part.symbols[i] for i in matched], COMMON, s)


_MATCHES: dict[tuple, tuple[tuple[int, ...], int]] = {}
MAX_MATCHES = 65536  # cached common substructures, before the cache is emptied


def _mcs(s: _Fragment, t: _Fragment, left: tuple[bool, ...], timeout: float
         ) -> tuple[tuple[int, ...], int]:
    """The atoms of product fragment ``t`` (its numbering) in the maximum common substructure
    (elements and connectivity) of species fragment ``s`` and the part of ``t`` that
    ``left`` leaves unexplained, found within ``timeout`` seconds (the best found so far
    when it runs out), and how many of its bonds have the same order in both; ((), 0) when
    there is none of at least one bond."""
    key = (s.part.smiles, t.source, t.index, left, timeout)
    hit = _MATCHES.get(key)
    if hit is None:
        if len(_MATCHES) >= MAX_MATCHES:
            _MATCHES.clear()
        hit = _MATCHES[key] = _search(s.part.mol, t.part.mol, left, timeout)
    return hit


def _search(a: Chem.Mol, whole: Chem.Mol, left: tuple[bool, ...], timeout: float
            ) -> tuple[tuple[int, ...], int]:
    """:func:`_mcs` itself (not cached)."""
    keep = [i for i, done in enumerate(left) if not done]
    b = whole
    if len(keep) < len(left):
        rw = Chem.RWMol(whole)
        for i in reversed(range(len(left))):
            if left[i]:
                rw.RemoveAtom(i)
        b = rw.GetMol()
        b.UpdatePropertyCache(strict=False)
        Chem.FastFindRings(b)
    params = rdFMCS.MCSParameters()
    params.AtomTyper = rdFMCS.AtomCompare.CompareElements
    params.BondTyper = rdFMCS.BondCompare.CompareAny
    params.BondCompareParameters.RingMatchesRingOnly = False
    params.BondCompareParameters.CompleteRingsOnly = False
    params.Timeout = max(1, int(round(timeout)))
    found = rdFMCS.FindMCS([a, b], params)
    query = Chem.MolFromSmarts(found.smartsString) if found.numBonds else None
    if query is None:
        return (), 0
    in_a, in_b = a.GetSubstructMatch(query), b.GetSubstructMatch(query)
    if not in_a or not in_b:
        return (), 0
    same = 0
    for bond in query.GetBonds():
        i, j = bond.GetBeginAtomIdx(), bond.GetEndAtomIdx()
        x = a.GetBondBetweenAtoms(in_a[i], in_a[j])
        y = b.GetBondBetweenAtoms(in_b[i], in_b[j])
        same += x is not None and y is not None and x.GetBondType() == y.GetBondType()
    return tuple(keep[i] for i in in_b), same


def _donated(species: list[Species], targets: list[_Fragment], sources: list[_Fragment],
             result: Accounting) -> None:
    """Step 3: each atom still unexplained, from a species that can give it alone."""
    for t in targets:
        for i, done in enumerate(t.explained):
            if done:
                continue
            element = t.part.mol.GetAtomWithIdx(i).GetAtomicNum()
            donors = [s for s in sources if element in (
                s.part.from_solvent if species[s.owner].prior == "solvent" else s.part.alone)]
            if not donors:
                continue
            best = min(donors, key=lambda s: (element in s.part.free, _rank(species, s.owner),
                                              -result.given[s.owner].atoms, s.owner))
            t.explained[i] = True
            result.given[best.owner].add([t.part.symbols[i]], DONATED, best)


def _could(targets: list[_Fragment], sources: list[_Fragment], result: Accounting,
           min_atoms: int, timeout: float) -> None:
    """:attr:`Given.could` of each species that gives nothing: it is a whole fragment of the
    product, shares a common substructure of ``min_atoms`` with it, or can give alone an atom
    that another species gave alone or that no species explains."""
    alone = {t.part.mol.GetAtomWithIdx(i).GetAtomicNum() for t in targets
             for i, done in enumerate(t.explained) if not done}
    alone |= {_NUMBERS[e] for g in result.given for e in g.steps.get(DONATED, ())}
    for s in sources:
        given = result.given[s.owner]
        if given.atoms or given.could:
            continue
        given.could = any(s.part.key == t.part.key for t in targets) or bool(
            s.part.alone & alone) or any(
            len(_mcs(s, t, t.part.hydrogen, timeout)[0]) >= min_atoms for t in targets)


_NUMBERS = {Chem.GetPeriodicTable().GetElementSymbol(n): n for n in range(1, 119)}


def offered(mol: Chem.Mol) -> int:
    """The atoms a species fragment can give: its heavy atoms other than metals, and, when
    it holds a metal (a Grignard reagent, an organolithium), other than halogens too (which
    leave with the metal: methylmagnesium iodide offers its one carbon)."""
    numbers = [a.GetAtomicNum() for a in mol.GetAtoms()]
    metal = any(n not in NON_METALS for n in numbers)
    return sum(1 for n in numbers if n in NON_METALS and not (metal and n in HALOGENS)) or 1


def _gives_alone(mol: Chem.Mol, element: int) -> bool:
    """Whether a species fragment can give one atom of ``element`` (see step 3)."""
    heavy = mol.GetNumAtoms()
    for atom in mol.GetAtoms():
        if atom.GetAtomicNum() != element:
            continue
        around = [n.GetAtomicNum() for n in atom.GetNeighbors()]
        if element not in NON_METALS:
            return True
        if element in HALOGENS:
            if not around or any(n != CARBON for n in around) or any(
                    _activated(n) for n in atom.GetNeighbors()):
                return True
        elif element == CARBON:  # a one-carbon unit: no carbon neighbour
            if CARBON not in around and (any(n in HALOGENS or n not in NON_METALS
                                             for n in around) or _orthoester(atom)
                                         or _alcohol_methyl(mol)):
                return True
        elif any(n not in (CARBON, 1) for n in around) or (not around and heavy <= SMALL):
            return True
    return False


def _alcohol_methyl(mol: Chem.Mol) -> bool:
    """Whether a species fragment is a one-carbon alcohol (methanol): its carbon, bound only
    to a hydroxyl, is the methyl it gives to a methyl ester or ether."""
    numbers = sorted(a.GetAtomicNum() for a in mol.GetAtoms() if a.GetAtomicNum() != 1)
    return numbers == [CARBON, 8] and mol.GetNumBonds() >= 1


def _orthoester(carbon: Chem.Atom) -> bool:
    """Whether a carbon is bound by single bonds to three heteroatoms (an orthoester, a
    formamide acetal: one-carbon donors), not a carbonate's or a urea's carbonyl carbon."""
    bonds = carbon.GetBonds()
    return sum(b.GetOtherAtom(carbon).GetAtomicNum() in HETERO for b in bonds) >= 3 and all(
        b.GetBondType() == Chem.BondType.SINGLE for b in bonds)


def _activated(carbon: Chem.Atom) -> bool:
    """Whether a carbon's halogen can leave it: the carbon bears a heteroatom (an acyl or
    imidoyl halide) or only halogens (CBr4, CCl4)."""
    around = [n.GetAtomicNum() for n in carbon.GetNeighbors()]
    return any(n in HETERO for n in around) or all(n in HALOGENS for n in around)
