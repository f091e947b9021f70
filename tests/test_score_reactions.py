"""``chemie score reactions``: per-role P/R/F1 over skeleton-keyed fragment sets, species,
exact reactions with a Wilson interval; JSON lines and rsmi; bad input."""

from __future__ import annotations

import argparse
import json

import pytest

from chemie.cli import main
from chemie.errors import InputError
from chemie.formats.reaction_smiles import read_reactions
from chemie.scoring.reactions import score_files, wilson
from chemie.structures.chem import skeleton_keys


def _jsonl(tmp_path, name, records):
    p = tmp_path / name
    p.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return p


def _r(rid, reactants, reagents, products):
    return {"id": rid, "reactants": reactants, "reagents": reagents, "products": products}


GOLD = [
    # an esterification: ethanol + acetic acid, sulfuric acid, toluene -> ethyl acetate
    _r("a", ["CCO", "CC(=O)O"], ["OS(=O)(=O)O", "Cc1ccccc1"], ["CCOC(C)=O"]),
    # a salt formation written with ions
    _r("b", ["NCCO", "Cl"], ["CO"], ["[NH3+]CCO.[Cl-]"]),
]


def test_hand_computed_roles_species_and_exact(tmp_path):
    pred = [
        # same reaction, written differently (aromatic toluene as Kekule, acid as ion pair),
        # but the sulfuric acid missed and water added: reagents tp 1, fp 1, fn 1
        _r("a", ["OCC", "CC(O)=O"], ["CC1=CC=CC=C1", "O"], ["CCOC(=O)C"]),
        # roles swapped: methanol as a reactant
        _r("b", ["NCCO", "Cl", "CO"], [], ["NCCO.Cl"]),
    ]
    report = score_files(_jsonl(tmp_path, "g.jsonl", GOLD), _jsonl(tmp_path, "p.jsonl", pred))
    t = report.table("fragments by heavy-atom skeleton")
    assert tuple(t.loc["products", ["tp", "fp", "fn"]]) == (3, 0, 0)
    assert tuple(t.loc["reactants", ["tp", "fp", "fn"]]) == (4, 1, 0)
    assert tuple(t.loc["reagents", ["tp", "fp", "fn"]]) == (1, 1, 2)
    # species: a {CCO, CC(=O)O, S.., toluene} vs {.., toluene, O}; b all three found
    assert tuple(t.loc["species", ["tp", "fp", "fn"]]) == (6, 1, 1)
    assert report.figures["exact"] == 0
    assert report.figures["products_f1"] == pytest.approx(1.0)
    assert t.loc["reagents", "precision"] == pytest.approx(0.5)
    assert t.loc["reagents", "recall"] == pytest.approx(1 / 3)


def test_role_sets_count_a_repeated_fragment_once(tmp_path):
    gold = [_r("x", ["CC(=O)Cl"], ["[Li+].[Al+3].[H-].[H-].[H-].[H-]"], ["CCO"])]
    pred = [_r("x", ["CC(=O)Cl"], ["[AlH4-].[Li+]", "[H-]"], ["CCO"])]
    report = score_files(_jsonl(tmp_path, "g.jsonl", gold), _jsonl(tmp_path, "p.jsonl", pred))
    t = report.table("fragments by heavy-atom skeleton")
    assert tuple(t.loc["reagents", ["tp", "fp", "fn"]]) == (3, 0, 0)  # Li, Al, H
    assert report.figures["exact"] == 1


def test_missing_prediction_counts_as_empty_and_extra_ids_are_left_out(tmp_path):
    pred = [_r("a", *(GOLD[0][k] for k in ("reactants", "reagents", "products"))),
            _r("zz", ["C"], [], ["C"])]
    report = score_files(_jsonl(tmp_path, "g.jsonl", GOLD), _jsonl(tmp_path, "p.jsonl", pred))
    t = report.table("fragments by heavy-atom skeleton")
    assert tuple(t.loc["products", ["tp", "fp", "fn"]]) == (1, 0, 2)
    assert report.figures["exact"] == 1 and report.figures["reactions"] == 2
    assert any("1 gold reactions have no prediction" in n for n in report.notes)
    assert any("1 predicted ids are not in the gold file" in n for n in report.notes)


def test_rsmi_lines_last_reaction_of_an_id_is_scored(tmp_path):
    gold = _jsonl(tmp_path, "g.jsonl", GOLD[:1])
    rsmi = tmp_path / "p.rsmi"
    rsmi.write_text(
        "a\tCCO>>CCOC\n"  # an earlier step of the same document
        "a\tCCO.CC(=O)O>OS(=O)(=O)O.Cc1ccccc1>CCOC(C)=O |f:0.1|\n",
        encoding="utf-8",
    )
    assert read_reactions(rsmi).repeated == 1
    report = score_files(gold, rsmi)
    assert report.figures["exact"] == 1
    assert any("the last one of each is scored" in n for n in report.notes)


def test_unreadable_predicted_smiles_is_a_wrong_fragment(tmp_path):
    pred = [_r("a", ["CCO", "CC(=O)O"], ["OS(=O)(=O)O", "Cc1ccccc1", "C1CC"], ["CCOC(C)=O"])]
    report = score_files(_jsonl(tmp_path, "g.jsonl", GOLD[:1]), _jsonl(tmp_path, "p.jsonl", pred))
    t = report.table("fragments by heavy-atom skeleton")
    assert tuple(t.loc["reagents", ["tp", "fp", "fn"]]) == (2, 1, 0)
    assert any("RDKit cannot read" in n for n in report.notes)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"id": "a", "reactants": [], "reagents": []}\n', r"g.jsonl:1: no 'products' list"),
        ('\n{"id": 3, "reactants": [], "reagents": [], "products": []}\n',
         r"g.jsonl:2: 'id' must be a non-empty string"),
        ('{"id": "a", "reactants": ["C1CC"], "reagents": [], "products": []}\n',
         r"g.jsonl:1: reactants\[0\]: RDKit cannot read SMILES 'C1CC'"),
        ('{"id": "a", "reactants": "CCO", "reagents": [], "products": []}\n',
         r"g.jsonl:1: 'reactants' must be a list of SMILES strings"),
        ('{"id": "a",\n', r"g.jsonl:1: malformed JSON"),
    ],
)
def test_bad_gold_lines_name_file_and_line(tmp_path, text, message):
    gold = tmp_path / "g.jsonl"
    gold.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        score_files(gold, _jsonl(tmp_path, "p.jsonl", []))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a\tCCO>CC\n", r"p.rsmi:1: reaction SMILES needs two '>'"),
        ("a CCO>>CC\n", r"p.rsmi:1: expected ID<TAB>reactants>reagents>products"),
        ("a\tCCO..C>>CC\n", r"p.rsmi:1: reactants: empty species"),
        ("\tCCO>>CC\n", r"p.rsmi:1: empty reaction id"),
    ],
)
def test_bad_rsmi_lines_name_file_and_line(tmp_path, text, message):
    pred = tmp_path / "p.rsmi"
    pred.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        score_files(_jsonl(tmp_path, "g.jsonl", GOLD), pred)


def test_wilson_interval_matches_textbook_values():
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(0, 0) == (0.0, 0.0)


def test_cli_json_and_exit_status(tmp_path, capsys):
    gold = _jsonl(tmp_path, "g.jsonl", GOLD)
    assert main(["score", "reactions", str(gold), str(gold), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["figures"]["exact_fraction"] == 1.0
    assert out["tables"]["fragments by heavy-atom skeleton"]["species"]["f1"] == 1.0
    bad = tmp_path / "p.rsmi"
    bad.write_text("a\tCCO\n", encoding="utf-8")
    assert main(["score", "reactions", str(gold), str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "p.rsmi:1:" in err[0]


@pytest.mark.corpus
def test_uspto_text_mined_set_scores_as_the_data_readme_says(corpus):
    """The data README: on these 80 paragraphs the USPTO text-mined reactions score
    products F1 0.96, reactants+reagents F1 0.88, exact reactions 0.39."""
    gold = corpus("uspto-reactions/dev.jsonl")
    lowe = corpus("uspto-reactions/dev_lowe.jsonl")
    report = score_files(gold, lowe)
    assert round(report.figures["products_f1"], 2) == 0.96
    assert round(report.figures["species_f1"], 2) == 0.88
    assert round(report.figures["exact_fraction"], 2) == 0.39


# -- --bond-orders: the skeleton and single/double/triple/aromatic bonds ------------------

BONDS = "fragments by heavy-atom skeleton and bond orders"
SKELETON = "fragments by heavy-atom skeleton"


def test_bond_order_keys_keep_bond_orders_and_ignore_charges_and_hydrogens():
    from chemie.structures.chem import bond_order_keys

    same = [("Cc1ccccc1", "CC1=CC=CC=C1"),  # Kekulé and aromatic forms of one ring
            ("[NH3+]CCO.[Cl-]", "NCCO.Cl"),  # charges and hydrogens
            ("O=C[O-]", "OC=O"),
            ("O=N(=O)c1ccccc1", "[O-][N+](=O)c1ccccc1"),  # nitro, both ways of writing it
            ("[2H]C([2H])([2H])O", "CO")]
    for a, b in same:
        assert bond_order_keys(a) == bond_order_keys(b), (a, b)
    different = [("CC(=O)c1ccccc1", "CC(O)c1ccccc1"), ("c1ccccc1", "C1CCCCC1"),
                 ("C#CC", "C=CC"), ("C=CC", "CCC")]
    for a, b in different:
        assert bond_order_keys(a) != bond_order_keys(b), (a, b)
        assert skeleton_keys(a) == skeleton_keys(b), (a, b)
    assert bond_order_keys("C1CC") is None  # RDKit cannot read it


def test_a_reduction_predicted_as_its_starting_ketone_is_exact_only_by_skeleton(tmp_path):
    # gold: acetophenone + NaBH4 in methanol -> 1-phenylethanol
    gold = [_r("k", ["CC(=O)c1ccccc1"], ["[Na+].[BH4-]", "CO"], ["CC(O)c1ccccc1"])]
    # predicted: the product is the starting ketone again
    pred = [_r("k", ["CC(=O)c1ccccc1"], ["[Na+].[BH4-]", "CO"], ["CC(=O)c1ccccc1"])]
    g, p = _jsonl(tmp_path, "g.jsonl", gold), _jsonl(tmp_path, "p.jsonl", pred)
    skeleton = score_files(g, p)
    t = skeleton.table(SKELETON)
    assert tuple(t.loc["products", ["tp", "fp", "fn"]]) == (1, 0, 0)
    assert skeleton.figures["exact"] == 1
    bonds = score_files(g, p, argparse.Namespace(bond_orders=True))
    t = bonds.table(BONDS)
    assert tuple(t.loc["products", ["tp", "fp", "fn"]]) == (0, 1, 1)
    assert tuple(t.loc["reactants", ["tp", "fp", "fn"]]) == (1, 0, 0)
    # reagents: Na, BH4 and methanol, all found
    assert tuple(t.loc["reagents", ["tp", "fp", "fn"]]) == (3, 0, 0)
    assert bonds.figures["exact"] == 0 and bonds.figures["products_f1"] == 0.0


def test_bond_orders_hand_computed_roles(tmp_path):
    gold = [
        # hydrogenation of styrene over Pd/C in ethanol -> ethylbenzene
        _r("h", ["C=Cc1ccccc1", "[H][H]"], ["[Pd]", "CCO"], ["CCc1ccccc1"]),
        # a Sonogashira coupling, written aromatic
        _r("s", ["Ic1ccccc1", "C#CC"], ["[Cu]I", "CCN(CC)CC"], ["CC#Cc1ccccc1"]),
    ]
    pred = [
        # written Kekulé, with charges: the same in both modes
        _r("h", ["C=CC1=CC=CC=C1", "[H][H]"], ["[Pd]", "CC[OH]"], ["CCC1=CC=CC=C1"]),
        # the alkyne read as an alkene, the product too; benzene as cyclohexane in a reagent
        _r("s", ["Ic1ccccc1", "C=CC"], ["[Cu]I", "CCN(CC)CC", "C1CCCCC1"], ["CC=Cc1ccccc1"]),
    ]
    g, p = _jsonl(tmp_path, "g.jsonl", gold), _jsonl(tmp_path, "p.jsonl", pred)
    t = score_files(g, p).table(SKELETON)
    # by skeleton only the extra cyclohexane is wrong: reagents h {Pd, EtOH}, s {CuI, NEt3}
    # (copper iodide written bonded is one fragment)
    assert tuple(t.loc["products", ["tp", "fp", "fn"]]) == (2, 0, 0)
    assert tuple(t.loc["reactants", ["tp", "fp", "fn"]]) == (4, 0, 0)
    assert tuple(t.loc["reagents", ["tp", "fp", "fn"]]) == (4, 1, 0)
    assert tuple(t.loc["species", ["tp", "fp", "fn"]]) == (8, 1, 0)
    report = score_files(g, p, argparse.Namespace(bond_orders=True))
    t = report.table(BONDS)
    assert tuple(t.loc["products", ["tp", "fp", "fn"]]) == (1, 1, 1)
    assert tuple(t.loc["reactants", ["tp", "fp", "fn"]]) == (3, 1, 1)
    assert tuple(t.loc["reagents", ["tp", "fp", "fn"]]) == (4, 1, 0)
    # species: h 4 of 4; s {PhI, propyne, CuI, NEt3} vs {PhI, propene, CuI, NEt3, C6H12}
    assert tuple(t.loc["species", ["tp", "fp", "fn"]]) == (7, 2, 1)
    assert report.figures["exact"] == 1
    assert t.loc["reactants", "precision"] == pytest.approx(0.75)
    assert t.loc["species", "recall"] == pytest.approx(7 / 8)


def test_cli_bond_orders_option(tmp_path, capsys):
    gold = _jsonl(tmp_path, "g.jsonl", [_r("k", ["CC(=O)C"], [], ["CC(O)C"])])
    pred = _jsonl(tmp_path, "p.jsonl", [_r("k", ["CC(=O)C"], [], ["CC(=O)C"])])
    assert main(["score", "reactions", str(gold), str(pred), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["figures"]["exact"] == 1
    assert main(["score", "reactions", str(gold), str(pred), "--bond-orders", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["figures"]["exact"] == 0
    assert out["tables"][BONDS]["products"]["fn"] == 1
