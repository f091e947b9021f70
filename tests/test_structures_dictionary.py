"""The curated compound dictionary (lexicons/compounds.tsv): schema, lookups, and that every
structure is sound (RDKit reads it; formula names have its elements; OPSIN agrees)."""

from __future__ import annotations

import re
import shutil
from collections import Counter

import pytest
from rdkit import Chem

from chemie.errors import InputError
from chemie.structures.chem import parse, skeleton_keys
from chemie.structures.dictionary import CLASSES, compounds, parse_dictionary

HEADER = "# test dictionary\n"


def _load(tmp_path, body):
    p = tmp_path / "d.tsv"
    p.write_text(HEADER + body, encoding="utf-8")
    return parse_dictionary(p)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("water\tO\tsolvent\n", r"d.tsv:2: expected 4 tab-separated fields"),
        ("water\tO\tliquid\tfold\n", r"d.tsv:2: unknown class 'liquid'"),
        ("water\tO\tsolvent\tupper\n", r"d.tsv:2: case must be 'fold' or 'exact'"),
        ("brine\tO\tmaterial\tfold\n", r"d.tsv:2: a material has SMILES '-'"),
        ("water\t-\tsolvent\tfold\n", r"d.tsv:2: a material has SMILES '-'"),
        (" water\tO\tsolvent\tfold\n", r"d.tsv:2: name ' water': empty, or stray whitespace"),
        ("water\tO\tsolvent\tfold\nWater\tO\tsolvent\tfold\n", r"d.tsv:3: name 'Water' repeats"),
    ],
)
def test_malformed_rows_are_refused_with_file_and_line(tmp_path, row, message):
    with pytest.raises(InputError, match=message):
        _load(tmp_path, row)


def test_case_is_folded_only_where_safe(tmp_path):
    d = _load(tmp_path, "CO\t[C-]#[O+]\tgas\texact\nethyl acetate\tCCOC(C)=O\tsolvent\tfold\n"
                        "EtOAc\tCCOC(C)=O\tsolvent\texact\n")
    assert d.lookup("CO").smiles == "[C-]#[O+]"
    assert d.lookup("Co") is None and d.lookup("co") is None
    assert d.lookup("Ethyl  Acetate").name == "ethyl acetate"
    assert d.lookup("ETOAC") is None and d.lookup("EtOAc") is not None


def test_bundled_dictionary_structures_parse_and_classes_are_known():
    d = compounds()
    assert len(d) > 300
    for e in d.entries:
        assert e.cls in CLASSES
        if e.cls == "material":
            assert e.smiles is None and e.kind == "material"
        else:
            assert parse(e.smiles) is not None, f"line {e.line}: {e.name} {e.smiles}"


def test_elements_and_gases_are_molecules_and_materials_have_no_structure():
    d = compounds()
    assert d.lookup("nitrogen").smiles == "N#N"
    assert d.lookup("Hydrogen").smiles == "[HH]"  # H2 as the USPTO release writes it
    assert d.lookup("argon").smiles == "[Ar]"
    for material in ("brine", "silica gel", "Celite", "molecular sieves", "charcoal"):
        assert d.lookup(material).kind == "material", material
    for name, cls in (("THF", "solvent"), ("DIPEA", "base"), ("Na2SO4", "drying_agent"),
                      ("HATU", "coupling_agent"), ("Pd/C", "catalyst"), ("TFA", "acid")):
        assert d.lookup(name).cls == cls, name


_FORMULA = re.compile(r"^(?:[A-Z][a-z]?\d*)+$")
_ELEMENT = re.compile(r"([A-Z][a-z]?)(\d*)")
_SYMBOLS = {Chem.GetPeriodicTable().GetElementSymbol(i) for i in range(1, 119)}
# abbreviations made of element symbols that are no formulas (Ac = acetyl, not actinium)
NOT_FORMULAS = {"IPAc", "HFIP", "AcOH", "HOAc", "TsOH", "NaOAc", "KOAc", "NH4OAc", "BOP", "WSC",
                "HOAt", "Ac2O", "AcCl", "TsCl", "NBS", "NCS", "NIS", "PCC"}


def test_formula_names_have_the_atoms_of_their_structure():
    """A name written as a formula (Na2SO4, CH2Cl2, K2CO3) counts the atoms of its SMILES,
    hydrogens included."""
    checked = 0
    for e in compounds().entries:
        if e.smiles is None or not _FORMULA.match(e.name) or e.name in NOT_FORMULAS:
            continue
        symbols = _ELEMENT.findall(e.name)
        if not all(sym in _SYMBOLS for sym, _ in symbols):
            continue  # DMF, TBAF, CDCl3 (D): not formulas of element symbols
        want: Counter[str] = Counter()
        for sym, n in symbols:
            want[sym] += int(n or 1)
        have = Counter(a.GetSymbol() for a in Chem.AddHs(Chem.MolFromSmiles(e.smiles)).GetAtoms())
        assert want == have, f"line {e.line}: {e.name} vs {e.smiles}"
        checked += 1
    assert checked >= 90


# names where the dictionary deliberately differs from OPSIN's reading
OPSIN_EXCEPTIONS = {
    "nitrogen": "gas as a molecule (OPSIN: a lone atom)",
    "oxygen": "gas as a molecule",
    "fluorine": "gas as a molecule",
    "chlorine": "gas as a molecule",
    "bromine": "element as a molecule",
    "iodine": "element as a molecule",
    "dichloroethane": "the solvent is 1,2-dichloroethane (OPSIN: 1,1-)",
    "ammonia water": "ammonia, water being the solvent",
    "sodium hydride": "[NaH] as the USPTO set writes it (OPSIN: ions)",
    "potassium hydride": "[KH] (OPSIN: ions)",
    "hydroxybenzotriazole": "HOBt is 1-hydroxybenzotriazole (OPSIN: a ring C-OH)",
    "2-iodoxybenzoic acid": "IBX in its cyclic form",
    "palladium carbon": "Pd/C is its metal",
    "palladium-carbon": "Pd/C is its metal",
    "platinum oxide": "Adams' catalyst PtO2 (OPSIN: PtO)",
}
OPSIN_PARSES_MATERIALS = {"aluminum oxide", "aluminium oxide", "carbon"}


@pytest.mark.skipif(shutil.which("java") is None, reason="java is not installed")
def test_opsin_agrees_with_every_dictionary_name_it_can_parse():
    from chemie.structures.opsin import Opsin

    d = compounds()
    o = Opsin()
    try:
        answers = o.parse([e.name for e in d.entries])
    finally:
        o.close()
    parsed = 0
    for e in d.entries:
        smiles = answers[e.name].smiles
        if smiles is None or e.name in OPSIN_EXCEPTIONS:
            continue
        if e.smiles is None:
            assert e.name in OPSIN_PARSES_MATERIALS, f"material {e.name} parses: {smiles}"
            continue
        parsed += 1
        assert sorted(skeleton_keys(smiles)) == sorted(skeleton_keys(e.smiles)), (
            f"line {e.line}: {e.name}: dictionary {e.smiles}, OPSIN {smiles}"
        )
    assert parsed > 250
    assert all(d.lookup(n) is not None for n in OPSIN_EXCEPTIONS)
