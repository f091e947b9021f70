"""The curated compound dictionary (lexicons/compounds.tsv): schema, lookups, and that every
structure is sound (RDKit reads it; formula names have its elements; OPSIN agrees)."""

from __future__ import annotations

import re
import shutil
from collections import Counter

import pytest
from rdkit import Chem

from chemie.errors import InputError
from chemie.structures.chem import canonical, parse, skeleton_keys
from chemie.structures.dictionary import CLASSES, compounds, loose, parse_dictionary

HEADER = "# test dictionary\n"


def _load(tmp_path, body):
    p = tmp_path / "d.tsv"
    p.write_text(HEADER + body, encoding="utf-8")
    return parse_dictionary(p)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("water\tO\tsolvent\n", r"d.tsv:2: expected 4 or 5 tab-separated fields"),
        ("water\tO\tsolvent\tfold\t \n", r"d.tsv:2: an empty note"),
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
    assert len(d) > 1500
    # at least 300 compounds (distinct structures) beyond the materials, with their variants
    assert len({e.smiles for e in d.entries if e.smiles}) >= 300
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
                "HOAt", "Ac2O", "AcCl", "TsCl", "NBS", "NCS", "NIS", "PCC", "KSAc", "AcSK", "NHS",
                "WSCI", "IBCF", "BOC2O", "NFSI", "BPO", "RaNi",
                # empirical formulas of molecules twice as large (P4O10, P4S10)
                "P2O5", "P2S5"}


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
        if smiles is None or e.note:
            continue
        assert e.smiles is not None, f"line {e.line}: material {e.name} parses: {smiles}"
        parsed += 1
        assert sorted(skeleton_keys(smiles)) == sorted(skeleton_keys(e.smiles)), (
            f"line {e.line}: {e.name}: dictionary {e.smiles}, OPSIN {smiles} (a note says why "
            "when they differ)"
        )
    assert parsed > 600


@pytest.mark.skipif(shutil.which("java") is None, reason="java is not installed")
def test_every_note_explains_a_difference_from_opsin():
    """A note is there because OPSIN reads the name otherwise, or not at all."""
    from chemie.structures.opsin import Opsin

    noted = [e for e in compounds().entries if e.note]
    o = Opsin()
    try:
        answers = o.parse([e.name for e in noted])
    finally:
        o.close()
    for e in noted:
        smiles = answers[e.name].smiles
        if smiles is None or e.smiles is None:
            continue
        assert sorted(skeleton_keys(smiles)) != sorted(skeleton_keys(e.smiles)), (
            f"line {e.line}: {e.name}: OPSIN agrees, the note is not needed")
    assert len(noted) >= 25


@pytest.mark.parametrize("written, entry", [
    ("sec.-BuLi", "sec-BuLi"), ("sBuLi", "sec-BuLi"), ("t-BuOK", "t-BuOK"), ("tBuOK", "t-BuOK"),
    ("n-BuLi", "n-BuLi"), ("Pd(dppf)Cl2.CH2Cl2", "Pd(dppf)Cl2·CH2Cl2"),
    ("Pd(dppf)Cl2 · CH2Cl2", "Pd(dppf)Cl2·CH2Cl2"), ("PdCl2(dppf).CH2Cl2", "PdCl2(dppf)·CH2Cl2"),
    ("Ethylacetate", "ethyl acetate"), ("ethyl-acetate", "ethyl acetate"),
    ("tert.-butanol", "tert-butanol"), ("tetra-hydrofuran", "tetrahydrofuran"),
    ("N,N-diisopropyl ethyl amine", "N,N-diisopropylethylamine"),
    ("di-isopropylethylamine", "diisopropylethylamine"),
    ("sodium hydrogen-carbonate", "sodium hydrogen carbonate"),
    ("K 2 CO 3", "K2CO3"), ("Pd(PPh 3 ) 4", "Pd(PPh3)4"), ("Et 3 N", "Et3N"), ("N 2", "N2"),
])
def test_spelling_variants_match_by_their_loose_spelling(written, entry):
    d = compounds()
    assert d.lookup(written) is not None, written
    assert d.lookup(written).smiles == d.lookup(entry).smiles


def test_loose_spellings_keep_separators_next_to_digits_and_the_case_of_exact_entries():
    d = compounds()
    assert loose("1,4-dioxane") == "1,4-dioxane" and loose("sec.-BuLi") == "secBuLi"
    assert d.lookup("N-2") is None and d.lookup("H-2") is None  # labels, not N2 or H2
    assert d.lookup("c-o") is None  # CO is exact: no case folding by the loose spelling


def test_one_structure_is_written_one_way_and_no_loose_spelling_is_ambiguous():
    """Rows of one compound share their SMILES as written (so the loose spellings of its
    names agree), and no loose spelling of the bundled names is shared by two structures."""
    by_structure: dict[str, set[str]] = {}
    for e in compounds().entries:
        if e.smiles:
            by_structure.setdefault(canonical(e.smiles), set()).add(e.smiles)
    assert [s for s in by_structure.values() if len(s) > 1] == []
    assert compounds().ambiguous() == []


def test_a_loose_spelling_shared_by_two_structures_matches_neither(tmp_path):
    d = _load(tmp_path, "A-B\tC\treagent\texact\nAB\tN\treagent\texact\nC-D\tO\treagent\texact\n")
    assert d.lookup("A B") is None and d.ambiguous() == ["AB"]  # A-B and AB: two structures
    assert d.lookup("C D").smiles == "O"


# under-specified names and their conventional reading (OPSIN reads some of them otherwise)
CONVENTIONS = {
    "dichloroethane": "ClCCCl", "dimethoxyethane": "COCCOC", "dioxane": "C1COCCO1",
    "toluenesulfonic acid": "Cc1ccc(S(=O)(=O)O)cc1",
    "toluenesulfonyl chloride": "Cc1ccc(S(=O)(=O)Cl)cc1",
    "chloroperbenzoic acid": "O=C(OO)c1cccc(Cl)c1", "dimethylaminopyridine": "CN(C)c1ccncc1",
    "methylimidazole": "Cn1ccnc1", "bromosuccinimide": "O=C1CCC(=O)N1Br",
    "hydroxysuccinimide": "O=C1CCC(=O)N1O", "aminoethanol": "NCCO", "methoxyethanol": "COCCO",
    "diaminoethane": "NCCN", "copper iodide": "[Cu]I", "lutidine": "Cc1cccc(C)n1",
    "collidine": "Cc1cc(C)nc(C)c1", "methylmorpholine": "CN1CCOCC1",
    "dichlorobenzene": "Clc1ccccc1Cl", "butyllithium": "CCCC[Li]",
    "methane sulfonyl chloride": "CS(=O)(=O)Cl",
}


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_under_specified_names_take_their_conventional_reading(name):
    entry = compounds().lookup(name)
    assert entry is not None and canonical(entry.smiles) == canonical(CONVENTIONS[name])
