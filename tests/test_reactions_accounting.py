"""The atom accounting of a reaction and the reactant-or-reagent decision (issue 18), on
hand-written reactions of the classes where a species gives atoms the main reactant lacks:
the halogen of an acyl halide, the N-O of an oxime, the amine of an amide coupling,
reductive amination or SNAr, the metal of a salt, the boron of a borylation."""

from __future__ import annotations

from collections import Counter

import pytest

from chemie.reactions.accounting import COMMON, DONATED, WHOLE, Given, Species, account
from chemie.reactions.decision import (
    REAGENT_CATALYST,
    STARTING_MATERIAL,
    STRUCTURE,
    TEXT,
    Decision,
    Evidence,
    chemu_label,
    structure_decision,
    text_decision,
)
from chemie.reactions.table import reaction_table


def _given(product: str, *species: tuple[str, str]) -> tuple[list[Given], Counter]:
    result = account([Species(s, prior) for s, prior in species], product)
    assert result.complete
    return result.given, result.unexplained


def _elements(g: Given) -> dict[str, int]:
    return dict(sum(g.steps.values(), Counter()))


def test_thionyl_chloride_gives_the_chlorine_of_an_acyl_chloride():
    (acid, socl2), left = _given("O=C(Cl)c1cccc(Cl)c1", ("O=C(O)c1cccc(Cl)c1", "reactant"),
                                 ("O=S(Cl)Cl", "reagent"))
    assert acid.atoms == 9 and list(acid.steps) == [COMMON]
    assert _elements(socl2) == {"Cl": 1} and list(socl2.steps) == [DONATED]
    assert not left


def test_hydroxylamine_gives_the_n_o_of_an_oxime_and_its_chloride_nothing():
    (ketone, salt, acetate), left = _given(
        "ON=C1CCCCC1", ("O=C1CCCCC1", "reactant"), ("NO.Cl", "reagent"),
        ("CC(=O)[O-].[Na+]", "reagent"))
    assert ketone.atoms == 6  # the ring: its oxygen is not the oxime's
    assert _elements(salt) == {"N": 1, "O": 1} and salt.fragments == {0}  # not the chloride
    assert acetate.atoms == 0 and not left


@pytest.mark.parametrize("reagents", [
    ("CN(C)C(On1nnc2cccnc21)=[N+](C)C.F[P-](F)(F)(F)(F)F", "CCN(C(C)C)C(C)C"),  # HATU, DIPEA
    ("CC(=O)O[BH-](OC(C)=O)OC(C)=O.[Na+]", "CC(=O)O"),  # NaBH(OAc)3, AcOH
])
def test_the_amine_gives_its_atoms_and_the_reagents_none(reagents):
    product = ("CC(=O)NCc1ccccc1" if reagents[1] == "CCN(C(C)C)C(C)C"
               else "CC(C)NCc1ccccc1")
    first = "CC(=O)O" if reagents[1] == "CCN(C(C)C)C(C)C" else "O=Cc1ccccc1"
    amine = "NCc1ccccc1" if first == "CC(=O)O" else "CC(C)N"
    given, left = _given(product, (first, "reactant"), (amine, "reagent"),
                         *((r, "reagent") for r in reagents))
    assert given[0].atoms and given[1].atoms
    assert all(g.atoms == 0 for g in given[2:]) and not left


def test_an_snar_amine_the_dictionary_calls_a_base():
    (chloride, morpholine, carbonate), left = _given(
        "O=[N+]([O-])c1ccc(N2CCOCC2)nc1", ("O=[N+]([O-])c1ccc(Cl)nc1", "reactant"),
        ("C1COCCN1", "reagent"), ("O=C([O-])[O-].[K+].[K+]", "reagent"))
    assert morpholine.atoms == 6 and carbonate.atoms == 0 and not left


def test_a_borate_gives_boron_and_butyllithium_nothing():
    (bromide, buli, borate), left = _given(
        "OB(O)c1ccc(C)cc1", ("Brc1ccc(C)cc1", "reactant"), ("[Li]CCCC", "reagent"),
        ("CC(C)OB(OC(C)C)OC(C)C", "reagent"))
    assert bromide.atoms == 7 and buli.atoms == 0
    assert _elements(borate) == {"B": 1, "O": 2} and not left


def test_the_cation_of_a_salt_and_the_acid_of_a_hydrochloride_are_whole_fragments():
    (ester, hydroxide), left = _given("O=C([O-])c1ccccc1.[Na+]", ("COC(=O)c1ccccc1", "reactant"),
                                      ("[Na+].[OH-]", "reagent"))
    assert list(hydroxide.steps) == [WHOLE] and hydroxide.fragments == {0}
    assert not left
    (boc, hcl), left = _given("C1CCNCC1.Cl", ("CC(C)(C)OC(=O)N1CCCCC1", "reactant"),
                              ("Cl", "reagent"))
    assert list(hcl.steps) == [WHOLE] and not left


def test_hydrogen_gives_no_heavy_atom():
    (alkene, hydrogen), left = _given("CCc1ccccc1", ("C=Cc1ccccc1", "reactant"),
                                      ("[HH]", "reagent"))
    assert alkene.atoms == 8 and hydrogen.atoms == 0 and not hydrogen.could and not left


def test_ties_go_to_the_same_bonds_then_not_a_solvent_then_most_of_itself():
    # a Suzuki coupling in toluene: the tolyl is 4-bromotoluene's, not the solvent's
    (bromide, boronic, toluene), left = _given(
        "Cc1ccc(-c2ccccc2)cc1", ("Cc1ccc(Br)cc1", "reactant"), ("OB(O)c1ccccc1", "reactant"),
        ("Cc1ccccc1", "solvent"))
    assert bromide.atoms == 7 and boronic.atoms == 6 and toluene.atoms == 0 and not left
    # the ethyl of an ethyl ester, when nothing else has it: the ethanol it is made in
    (acid, ethanol), _ = _given("CCOC(=O)c1ccccc1", ("O=C(O)c1ccccc1", "reactant"),
                                ("CCO", "solvent"))
    assert ethanol.atoms == 2
    # the ethyl: ethanol (two thirds of it) before ethyl acetate (a third)
    (acid, ester, ethanol), _ = _given("CCOC(=O)c1ccccc1", ("O=C(O)c1ccccc1", "reactant"),
                                       ("CCOC(C)=O", "reagent"), ("CCO", "reagent"))
    assert ethanol.atoms == 2 and ester.atoms == 0
    # an aromatic furan ring comes from the furyl species, not from the THF around it
    (_, furyl, thf), _ = _given("Cc1ccco1", ("CI", "reactant"), ("[Li]c1ccco1", "reagent"),
                                ("C1CCOC1", "solvent"))
    assert furyl.atoms == 5 and thf.atoms == 0


def test_atoms_no_species_gives_are_left_unexplained():
    (acid, sulfate), left = _given("CCCCNC(=O)c1ccccc1", ("O=C(O)c1ccccc1", "reactant"),
                                   ("O=S(=O)([O-])[O-].[Na+].[Na+]", "reagent"))
    assert acid.atoms == 8 and sulfate.atoms == 0  # the butylamine is missing
    assert left == Counter({"C": 4, "N": 1})


def test_a_species_that_could_have_given_is_told_apart_from_one_that_could_not():
    (_, iodide, grignard, borohydride), _ = _given(
        "CC(C)(O)c1ccccc1", ("CC(=O)c1ccccc1", "reactant"), ("CI", "reactant"),
        ("C[Mg]I", "reactant"), ("[Na+].[BH4-]", "reactant"))
    assert iodide.atoms == 1  # the methyl: the first of two equal donors
    assert grignard.atoms == 0 and grignard.could
    assert borohydride.atoms == 0 and not borohydride.could


def test_the_budget_stops_the_accounting():
    result = account([Species("O=C(O)c1ccccc1", "reactant"), Species("NCc1ccccc1", "reagent")],
                     "O=C(NCc1ccccc1)c1ccccc1", budget=0.0)
    assert not result.complete


def test_an_unreadable_structure_gives_nothing():
    result = account([Species("not a smiles", "reactant")], "CCO")
    assert result.given[0].atoms == 0 and result.unexplained == Counter({"C": 2, "O": 1})


# --- the decision --------------------------------------------------------------------------

def _decide(prior: Decision, product: str, *species: tuple[str, str], sound: bool = True
            ) -> list[Decision]:
    result = account([Species(s, p) for s, p in species], product)
    table = reaction_table()
    organic = "C" in product or "c" in product
    return [structure_decision(prior if i == 0 else Decision(p, "label"),
                               Evidence(g, organic, sound and not result.unexplained), table)
            for i, ((_, p), g) in enumerate(zip(species, result.given, strict=True))]


def test_a_reactant_that_gives_only_a_halogen_is_a_chemu_reagent():
    nbs, _ = _decide(Decision("reagent", "label_reagent"), "Brc1ccc2ccccc2c1",
                     ("O=C1CCC(=O)N1Br", "reagent"), ("c1ccc2ccccc2c1", "reactant"))
    assert (nbs.role, nbs.rule, nbs.tier, nbs.carbon) == ("reactant", "gives_one_atom",
                                                            STRUCTURE, False)
    assert chemu_label(nbs) == REAGENT_CATALYST


def test_an_amine_that_gives_carbon_is_a_starting_material_whatever_its_class():
    morpholine, *_ = _decide(Decision("reagent", "class_reagent"),
                             "O=[N+]([O-])c1ccc(N2CCOCC2)nc1", ("C1COCCN1", "reagent"),
                             ("O=[N+]([O-])c1ccc(Cl)nc1", "reactant"))
    assert (morpholine.role, morpholine.rule) == ("reactant", "gives_substructure")
    assert chemu_label(morpholine) == STARTING_MATERIAL


def test_a_weak_piece_of_an_unsound_accounting_keeps_the_text_role():
    prior = Decision("reagent", "label_reagent")
    [dmf] = _decide(prior, "CCCCNC(=O)c1ccccc1", ("CN(C)C=O", "reagent"), sound=False)
    assert dmf == prior


def test_an_inorganic_product_counts_any_atoms():
    oxygen, _ = _decide(Decision("reagent", "label_reagent"), "O=[Mn]=O",
                        ("O=O", "reagent"), ("[Mn]", "reactant"))
    assert oxygen.role == "reactant" and chemu_label(oxygen) == STARTING_MATERIAL


def test_a_catalyst_is_never_accounted():
    prior = Decision("catalyst", "class_catalyst")
    assert _decide(prior, "c1ccccc1-c1ccccc1", ("c1ccccc1", "reagent"))[0] == prior


def test_text_decisions_and_their_chemu_labels():
    table = reaction_table()
    oxidant = text_decision("REAGENT_CATALYST", "known_reagent", "Oxone", "oxidant",
                            frozenset(), table)
    assert (oxidant.role, oxidant.rule, oxidant.tier, oxidant.carbon) == (
        "reactant", "class_oxidant", TEXT, False)
    assert chemu_label(oxidant) == REAGENT_CATALYST  # gives its oxygen, no carbon
    sm = text_decision("STARTING_MATERIAL", "reactant", "X", None, frozenset(), table)
    assert chemu_label(sm) == STARTING_MATERIAL and sm.carbon is None
    weighed = text_decision("STARTING_MATERIAL", "reactant", "anisole", "solvent",
                            frozenset({"mass"}), table)
    assert weighed.role == "reactant"  # class_solvent: unless weighed
    assert chemu_label(Decision("solvent", "label_solvent")) == "SOLVENT"
