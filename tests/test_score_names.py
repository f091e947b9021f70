"""Structure correctness: names aligned to reviewed species (chemie.scoring.names)."""

from __future__ import annotations

from chemie.scoring.names import align

# an amide coupling, as reviewed: acid, amine, HATU (as ions), DIPEA, DMF -> amide
SPECIES = ["OC(=O)c1ccc(Cl)cc1", "NCc1ccccc1", "CN(C)C(On1nnc2cccnc21)=[N+](C)C.F[P-](F)(F)(F)(F)F",
           "CCN(C(C)C)C(C)C", "CN(C)C=O", "O=C(NCc1ccccc1)c1ccc(Cl)cc1"]


def _verdicts(names, species=SPECIES):
    return {v.name: v.verdict for v in align(names, species).names}


def test_a_structure_equal_by_skeleton_is_right_and_a_salt_matches_its_ions():
    got = _verdicts([
        ("4-chlorobenzoic acid", "O=C(O)c1ccc(Cl)cc1", False),  # Kekulé or not: one skeleton
        ("HATU", "CN(C)C(On1nnc2cccnc21)=[N+](C)C.F[P-](F)(F)(F)(F)F", False),
        ("hexafluorophosphate", "F[P-](F)(F)(F)(F)F", False),  # one ion of a reviewed salt
    ])
    assert set(got.values()) == {"right"}


def test_an_isomer_of_a_left_over_species_is_wrong_and_names_it():
    # the amine read with the wrong locant: 2-methylaniline instead of benzylamine
    a = align([("methylaniline", "Cc1ccccc1N", False)], SPECIES)
    [v] = a.names
    assert v.verdict == "wrong" and v.species == "NCc1ccccc1" and v.closeness == "isomer"


def test_a_cut_name_close_to_a_left_over_species_is_wrong():
    # "4-chloro-N-benzylbenzamide" cut to its acid part, while the product is left over
    got = align([("4-chlorobenzoic acid", "O=C(O)c1ccc(Cl)cc1", False)],
                ["O=C(NCc1ccccc1)c1ccc(Cl)cc1"])
    assert got.names[0].verdict == "wrong"


def test_a_work_up_compound_is_extra_and_no_name_is_wrong_when_every_species_is_named():
    names = [("4-chlorobenzoic acid", "O=C(O)c1ccc(Cl)cc1", False),
             ("benzylamine", "NCc1ccccc1", False), ("HATU", SPECIES[2], False),
             ("DIPEA", "CCN(C(C)C)C(C)C", False), ("DMF", "CN(C)C=O", False),
             ("product", SPECIES[5], False),
             ("ethyl acetate", "CCOC(C)=O", False), ("toluene", "Cc1ccccc1", False)]
    a = align(names, SPECIES)
    assert a.left_over == ()
    assert a.count("right") == 6 and a.count("extra") == 2 and a.count("wrong") == 0


def test_small_work_up_compounds_are_not_close_to_a_left_over_product():
    # ethyl acetate and a malonate half-ester share atoms, but a solvent is no cut name
    a = align([("ethyl acetate", "CCOC(C)=O", False)], ["CCOC(=O)CC(=O)O"])
    assert a.names[0].verdict == "extra" and a.left_over == ("CCOC(=O)CC(=O)O",)


def test_unresolved_names_and_materials_are_counted_apart():
    got = _verdicts([("Intermediate 5", None, False), ("brine", None, True)])
    assert got == {"Intermediate 5": "unresolved", "brine": "material"}
