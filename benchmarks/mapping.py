"""Atom-mapping benchmark (issue 18): which species give atoms to the product, by three
mappers, on reactions whose species and product structures are known.

Mappers (each answers, from structures alone, whether a species gives heavy atoms to a
product):

* ``MCS per species``: the structure rules before issue 18 (``shares_no_substructure``,
  ``shares_much_substructure``): a species gives atoms when its maximum common substructure
  with the product (RDKit MCS, elements and connectivity) has at least 2 heavy atoms (its
  non-metal, non-halogen atoms when it has fewer), or when it is a halogen donor (a halogen
  bound to a non-metal) whose halogen the product holds. Each species is judged alone.
* ``Indigo automap``: epam-indigo's algorithmic atom-to-atom mapping of the reaction (all
  species on the left, ``automap("discard")``, ``aam-timeout``): a species gives atoms when
  one of its atoms is mapped to a product atom. A reaction Indigo cannot read or map in
  time counts as giving nothing, and is counted (``failed``).
* ``atom accounting``: :mod:`chemie.reactions.accounting` (the product's atoms explained in
  turn: whole fragments, the largest common substructure with what is still unexplained,
  single atoms a species can give), neutral text roles (the dictionary's solvents as
  solvents, every other species a reagent).

Data:

* USPTO ``uspto-reactions/dev.jsonl``: each paragraph's reviewed reaction; its gold
  reactants give atoms, its gold reagents do not. Part R (42, read) and part U (38, figures
  only: never its species' answers) as in ``benchmarks/reactions.py``.
* ChEMU 2020 ``chemu2020/train``: in each document, the gold STARTING_MATERIAL and
  REAGENT_CATALYST spans and the REACTION_PRODUCT spans whose names the compound dictionary
  and OPSIN resolve; a species is a starting material when it gives carbon atoms to a
  product (any atoms to one without carbon), as the ChEMU guidelines define it (each
  product of the document in turn). Documents 0-599 (read) and 600-899 (figures only), by
  position in ``chemu-ref/train.jsonl``.

Rows: species right (accuracy), reactions or documents with every species right, Indigo's
failures, and the mapper's seconds per reaction (wall clock: Indigo's time-out is one;
OPSIN's name resolution is not counted).

    python benchmarks/mapping.py [--data PATH] [--timeout SECONDS] [--no-chemu] [--json]
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from collections.abc import Callable
from pathlib import Path

from rdkit import Chem
from rdkit.Chem import rdFMCS

from chemie.corpora import data_dir, uspto_part
from chemie.reactions.accounting import Species, account
from chemie.reactions.grounded import classes_by_structure
from chemie.roles_evaluation import gold_documents, jsonl_order
from chemie.structures import chem
from chemie.structures.resolve import Resolver

Mapper = Callable[[list[str], str], list[int] | None]  # atoms each species gives (None: failed)
NON_METALS = frozenset({5, 6, 7, 8, 14, 15, 16, 33, 34, 52})
HALOGENS = frozenset({9, 17, 35, 53})


@functools.lru_cache(maxsize=8192)
def _mol(smiles: str, largest: bool = True) -> Chem.Mol | None:
    mol = chem.parse(smiles)
    if mol is None or not largest:
        return mol
    frags = Chem.GetMolFrags(mol, asMols=True)
    return max(frags, key=lambda m: m.GetNumHeavyAtoms()) if frags else None


@functools.lru_cache(maxsize=16384)
def _shared(smiles: str, product: str) -> int:
    a, b = _mol(smiles), _mol(product, largest=False)
    if a is None or b is None:
        return 0
    params = rdFMCS.MCSParameters()
    params.AtomTyper = rdFMCS.AtomCompare.CompareElements
    params.BondTyper = rdFMCS.BondCompare.CompareAny
    params.BondCompareParameters.RingMatchesRingOnly = False
    params.BondCompareParameters.CompleteRingsOnly = False
    params.Timeout = 1
    return int(rdFMCS.FindMCS([a, b], params).numAtoms)


def mcs_per_species(species: list[str], product: str) -> list[int]:
    """The structure rules before issue 18 (see the module docstring)."""
    out = []
    p = _mol(product, largest=False)
    held = {a.GetAtomicNum() for a in p.GetAtoms()} if p is not None else set()
    for s in species:
        mol = _mol(s)
        if mol is None:
            out.append(0)
            continue
        kept = sum(1 for a in mol.GetAtoms() if a.GetAtomicNum() in NON_METALS)
        shared = _shared(s, product)
        donor = any(a.GetAtomicNum() in HALOGENS and a.GetAtomicNum() in held and any(
            n.GetAtomicNum() in NON_METALS | HALOGENS for n in a.GetNeighbors())
            for a in mol.GetAtoms())
        out.append(shared if shared >= max(1, min(2, kept)) else int(donor))
    return out


class IndigoMapper:
    """Indigo's automap (see the module docstring); ``timeout`` in seconds."""

    def __init__(self, timeout: float):
        from indigo import Indigo  # noqa: PLC0415  (optional: pip install epam-indigo)

        self.indigo = Indigo()
        self.indigo.setOption("aam-timeout", int(timeout * 1000))
        self.indigo.setOption("ignore-stereochemistry-errors", True)
        self.indigo.setOption("ignore-bad-valence", True)

    def __call__(self, species: list[str], product: str) -> list[int] | None:
        text = ".".join(_kekule(s) for s in species) + ">>" + _kekule(product)
        try:
            rxn = self.indigo.loadReaction(text)
            rxn.automap("discard")
        except Exception:  # Indigo raises on what it cannot read or map in time
            return None
        mapped = {rxn.atomMappingNumber(a) for m in rxn.iterateProducts()
                  for a in m.iterateAtoms()} - {0}
        out = [sum(rxn.atomMappingNumber(a) in mapped for a in m.iterateAtoms())
               for m in rxn.iterateReactants()]
        return out if len(out) == len(species) else None


def _kekule(smiles: str) -> str:
    """A SMILES Indigo reads (Kekulé form, as RDKit writes it), else as given."""
    mol = chem.parse(smiles)
    if mol is None:
        return smiles
    try:
        Chem.Kekulize(mol, clearAromaticFlags=True)
        return Chem.MolToSmiles(mol, kekuleSmiles=True)
    except Exception:  # RDKit raises when a structure cannot be kekulized
        return smiles


def accounting(species: list[str], product: str) -> list[int]:
    """:mod:`chemie.reactions.accounting` with neutral text roles."""
    solvents = classes_by_structure()
    priors = ["solvent" if solvents.get(chem.canonical(s) or s) == "solvent" else "reagent"
              for s in species]
    result = account([Species(s, p) for s, p in zip(species, priors, strict=True)], product)
    return [g.atoms for g in result.given]


def _carbon(smiles: str) -> bool:
    mol = chem.parse(smiles, sanitize=False)
    return mol is not None and any(a.GetAtomicNum() == 6 for a in mol.GetAtoms())


class Tally:
    """Species right, groups with every species right, failures and seconds of a mapper."""

    def __init__(self) -> None:
        self.species = self.right = self.groups = self.whole = self.failed = 0
        self.seconds = 0.0
        self.calls = 0

    def run(self, mapper: Mapper, species: list[str], product: str) -> list[int]:
        start = time.perf_counter()
        given = mapper(species, product)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        if given is None:
            self.failed += 1
            return [0] * len(species)
        return given

    def add(self, answers: list[bool], gold: list[bool]) -> None:
        ok = [a == g for a, g in zip(answers, gold, strict=True)]
        self.species += len(ok)
        self.right += sum(ok)
        self.groups += 1
        self.whole += all(ok)

    def row(self) -> dict[str, float]:
        return {"species": self.species, "accuracy": self.right / max(1, self.species),
                "groups": self.groups, "all right": self.whole, "failed": self.failed,
                "s/reaction": self.seconds / max(1, self.calls)}


def uspto(data: Path, mappers: dict[str, Mapper]) -> dict[str, dict[str, dict]]:
    """Per part (R, U) and mapper: does each gold species give atoms, as gold says?"""
    path = data / "uspto-reactions" / "dev.jsonl"
    tallies = {part: {name: Tally() for name in mappers} for part in ("R", "U")}
    for line in path.read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        species = [*d["reactants"], *d["reagents"]]
        gold = [True] * len(d["reactants"]) + [False] * len(d["reagents"])
        product = ".".join(d["products"])
        for name, mapper in mappers.items():
            t = tallies[uspto_part(d["id"])][name]
            t.add([n > 0 for n in t.run(mapper, species, product)], gold)
    return {f"part {p}": {n: t.row() for n, t in ts.items()} for p, ts in tallies.items()}


def chemu(data: Path, mappers: dict[str, Mapper]) -> dict[str, dict[str, dict]]:
    """Per part (0-599, 600-899) and mapper: STARTING_MATERIAL by the carbon it gives."""
    folder = data / "chemu2020" / "train"
    order = jsonl_order(data / "chemu-ref" / "train.jsonl")
    resolver = Resolver()
    out = {}
    for part, (lo, hi) in {"0-599": (0, 600), "600-899": (600, 900)}.items():
        tallies = {name: Tally() for name in mappers}
        for doc in gold_documents(folder, lo, hi, order):
            found = _structures(resolver, doc)
            if found is None:
                continue
            species, labels, products = found
            gold = [label == "STARTING_MATERIAL" for label in labels]
            for name, mapper in mappers.items():
                starting = [False] * len(species)
                for p in products:
                    given = tallies[name].run(mapper, species, p)
                    organic = _carbon(p)
                    for i, (s, n) in enumerate(zip(species, given, strict=True)):
                        starting[i] |= n > 0 and (_carbon(s) or not organic)
                tallies[name].add(starting, gold)
        out[f"ChEMU {part}"] = {n: t.row() for n, t in tallies.items()}
    return out


def _structures(resolver: Resolver, doc) -> tuple[list[str], list[str], list[str]] | None:
    """The resolved species (distinct), their gold labels and the resolved products of a
    document, or None when it has none of either."""
    def structure(text: str) -> str | None:
        [(_, resolutions)] = resolver.resolve_texts([text])
        smiles = [r.smiles for r in resolutions if r.resolved and r.smiles]
        return ".".join(smiles) if smiles and len(smiles) == len(resolutions) else None

    products = list(dict.fromkeys(s for m in doc.mentions if m.label == "REACTION_PRODUCT"
                                  for s in [structure(m.text)] if s))
    labelled: dict[str, str] = {}
    for m in doc.mentions:
        if m.label in ("STARTING_MATERIAL", "REAGENT_CATALYST"):
            s = structure(m.text)
            if s is not None:
                labelled.setdefault(s, m.label)
    if not products or not labelled:
        return None
    return list(labelled), list(labelled.values()), products


def table(results: dict) -> str:
    lines = [f"{'data':<14} {'mapper':<17} {'species':>7} {'right':>6} {'groups':>6} "
             f"{'all right':>9} {'failed':>6} {'s/reaction':>10}"]
    for data, mappers in results.items():
        for name, r in mappers.items():
            lines.append(f"{data:<14} {name:<17} {r['species']:>7} {r['accuracy']:6.3f} "
                         f"{r['groups']:>6} {r['all right']:>9} {r['failed']:>6} "
                         f"{r['s/reaction']:10.3f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--timeout", type=float, default=2.0,
                        help="Indigo's automap time-out per reaction (seconds)")
    parser.add_argument("--no-chemu", action="store_true", help="USPTO only")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    data = args.data or data_dir()
    mappers: dict[str, Mapper] = {"MCS per species": mcs_per_species}
    try:
        mappers["Indigo automap"] = IndigoMapper(args.timeout)
    except ImportError:
        print("Indigo automap: epam-indigo is not installed (pip install epam-indigo)")
    mappers["atom accounting"] = accounting
    results = uspto(data, mappers)
    if not args.no_chemu:
        results |= chemu(data, mappers)
    print(json.dumps(results, indent=2) if args.json else table(results))


if __name__ == "__main__":
    main()
