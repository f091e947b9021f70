"""RDKit utilities: canonical SMILES, InChIKey, fragments and the heavy-atom skeleton key."""

from __future__ import annotations

from chemie.structures import chem


def test_skeleton_ignores_maps_stereo_charges_hydrogens_and_bond_orders():
    plain = chem.skeleton_keys("OC(=O)C1=CC=CC=C1")
    assert chem.skeleton_keys("[OH:1][C:2](=[O:3])c1ccccc1") == plain  # atom maps, aromaticity
    assert chem.skeleton_keys("[O-]C(=O)c1ccccc1") == plain  # charge, hydrogens
    assert chem.skeleton_keys("OC(O)C1CCCCC1") == plain  # bond orders
    assert chem.skeleton_keys("C[C@H](N)O") == chem.skeleton_keys("CC(N)O")  # stereo
    assert chem.skeleton_keys("[2H]C([2H])([2H])O") == chem.skeleton_keys("CO")  # isotopes


def test_skeleton_keeps_elements_and_connectivity():
    assert chem.skeleton_keys("CCO") != chem.skeleton_keys("COC")
    assert chem.skeleton_keys("CCO") != chem.skeleton_keys("CCN")
    assert chem.skeleton_keys("C1CCCCC1") != chem.skeleton_keys("CCCCCC")


def test_each_fragment_has_its_own_key_in_order():
    keys = chem.skeleton_keys("[Na+].[Cl-].CCO")
    assert keys == (chem.skeleton_keys("[Na]")[0], chem.skeleton_keys("Cl")[0],
                    chem.skeleton_keys("OCC")[0])
    assert chem.skeleton_keys("Cl.Cl") == chem.skeleton_keys("Cl") * 2


def test_hydrogen_only_fragments_keep_their_atoms():
    one = chem.skeleton_keys("[H]")
    assert chem.skeleton_keys("[H-]") == chem.skeleton_keys("[H+]") == one
    assert chem.skeleton_keys("[HH]") == one  # one atom with an H count, as RDKit reads it
    assert chem.skeleton_keys("[H][H]") != one
    assert chem.skeleton_keys("[Na+].[H-]") == (*chem.skeleton_keys("[Na]"), *one)


def test_unreadable_smiles_has_no_key_and_no_structure():
    assert chem.skeleton_keys("not a smiles") is None
    assert chem.canonical("C1CC") is None
    assert chem.inchikey("C(") is None
    assert chem.fragments("C(") == []


def test_text_mined_smiles_with_odd_valence_still_gets_a_key():
    assert chem.parse("C(C)(C)(C)(C)C") is None  # RDKit refuses to sanitize it
    assert chem.skeleton_keys("C(C)(C)(C)(C)C") is not None


def test_canonical_inchikey_and_fragments():
    assert chem.canonical("C(C)O") == chem.canonical("OCC") == "CCO"
    assert chem.inchikey("CCO") == "LFQSCWFLJHTTHZ-UHFFFAOYSA-N"
    assert sorted(chem.fragments("[Na+].OC(=O)C")) == sorted(["[Na+]", "CC(=O)O"])
