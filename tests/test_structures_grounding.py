"""Name grounding: every rule of rules/grounding.yaml fires on its example, and the behaviours
a caller relies on (offsets, roles, spellings, reasons, the dictionary's phrases kept whole)."""

from __future__ import annotations

import pytest

from chemie.structures.grounding import candidates, ground, rule_examples


@pytest.mark.parametrize(("section", "rule", "example"), rule_examples())
def test_every_rule_fires_on_its_example(section, rule, example):
    assert rule in ground(example).rules(), (section, example)


def _names(text):
    return [(n.text, n.role) for n in ground(text).names]


def test_solution_of_x_in_y_gives_solute_and_solvent_with_offsets():
    text = "a solution of 2 - chloro - pyridine ( 1.2 g , 3 mmol ) in dry THF ( 5 mL )"
    g = ground(text)
    assert [(n.text, n.role, n.rule) for n in g.names] == [
        ("2 - chloro - pyridine", "solute", "solution_of"),
        ("THF", "solvent", "solution_of"),
    ]
    for n in g.names:
        assert text[n.start : n.end] == n.text
    reasons = {p.text: p.reason for p in g.stripped}
    assert reasons == {"a": "determiner", "( 1.2 g , 3 mmol )": "quantity", "dry": "modifier",
                       "( 5 mL )": "quantity"}


def test_amount_prefixes_and_modifiers_are_stripped():
    assert _names("213 mg of 4-bromoaniline") == [("4-bromoaniline", "name")]
    assert _names("0.35 g ( 1.58 mmol ) of Pd(OAc)2") == [("Pd(OAc)2", "name")]
    assert _names("sat. aq. NaHCO3") == [("NaHCO3", "name")]
    assert _names("1 N hydrochloric acid") == [("hydrochloric acid", "name")]
    assert _names("the anhydrous sodium sulfate") == [("sodium sulfate", "name")]


def test_mixtures_split_at_the_top_bracket_level_only():
    assert _names("EtOAc / hexane") == [("EtOAc", "component"), ("hexane", "component")]
    assert _names("petroleum ether : ethyl acetate = 10 : 1") == [
        ("petroleum ether", "component"), ("ethyl acetate", "component")]
    one = "(E)-methyl 3-(4-((1S,3R / 1R,3S)-3-methylpiperidin-1-yl)phenyl)acrylate"
    assert _names(one) == [(one, "name")]
    assert _names("N , N-dimethylformamide") == [("N , N-dimethylformamide", "name")]


def test_a_phrase_the_dictionary_knows_is_never_cut():
    assert _names("Pd / C") == [("Pd / C", "name")]
    assert _names("dry ice") == [("dry ice", "name")]  # not "ice" with the modifier "dry"
    assert _names("ice - water") == [("ice - water", "name")]
    # with no dictionary, "dry" is a modifier
    assert [n.text for n in ground("dry ice", known=lambda s: False).names] == ["ice"]


def test_dash_splits_only_between_known_names():
    assert _names("hexane - ethyl acetate") == [("hexane", "component"),
                                                ("ethyl acetate", "component")]
    assert _names("2 - chloro - pyridine") == [("2 - chloro - pyridine", "name")]


def test_spellings_rejoin_tokenizer_spaces_but_keep_word_spaces():
    assert candidates("2 - chloro - pyridine")[:2] == ("2-chloro-pyridine", "2 - chloro - pyridine")
    assert candidates("ethyl acetate") == ("ethyl acetate",)
    spaced = "tert-butyl ( 3-aminophenyl ) carbamate"
    assert candidates(spaced) == ("tert-butyl(3-aminophenyl)carbamate",
                                  "tert-butyl (3-aminophenyl) carbamate", spaced,
                                  "tert-butyl (3-aminophenyl)carbamate")
    # a space after a bracket inside one name is joined before the name as written is tried
    broken = "3-[2-[4-(aminoiminomethyl)phenyl]-5-yl] -acetyl] amino-N-methyl-L-alanine"
    assert candidates(broken)[0] == ("3-[2-[4-(aminoiminomethyl)phenyl]-5-yl]-acetyl]amino-"
                                     "N-methyl-L-alanine")
    assert "Celite 545" in candidates("Celite ™ 545")
    assert "(r)-2-aminopropanoic acid hydrochloride" in candidates(
        "(R)-2-AMINOPROPANOIC ACID HYDROCHLORIDE")
    assert "methyl (2R)-2-aminopropanoate" in candidates("methyl (2R)-2-aminopropa - noate")


def test_an_ester_written_as_one_word_is_also_spelt_with_its_alkyl_apart():
    assert candidates("diethylmalonate")[-1] == "diethyl malonate"
    assert candidates("ethyl4-bromobenzoate")[-1] == "ethyl 4-bromobenzoate"
    assert candidates("tert-butylbromoacetate")[-1] == "tert-butyl bromoacetate"
    assert candidates("ethylamine") == ("ethylamine",)


def test_a_salt_written_as_a_formula_after_a_dot_is_spelt_as_words():
    assert candidates("benzylamine·HCl")[-1] == "benzylamine HCl"
    assert candidates("benzylamine.2HCl")[-1] == "benzylamine 2HCl"
    assert candidates("benzoic acid·H2O")[-1] == "benzoic acid hydrate"
    assert candidates("benzoic acid.2H2O")[-1] == "benzoic acid dihydrate"
    assert candidates("4-(2-chloroethyl)morpholine") == ("4-(2-chloroethyl)morpholine",)


def test_a_substituent_prefix_cut_from_its_parent_is_joined_to_it():
    assert candidates("N-phenyl-2-hydroxy acetamide")[-1] == "N-phenyl-2-hydroxyacetamide"
    assert candidates("Methyl 4-methyl benzoate")[-1] == "Methyl 4-methylbenzoate"
    for kept in ("methyl 4-methylbenzoate", "4-methylbenzoic acid", "ethyl acetate",
                 "2-aminopyridine hydrochloride"):
        assert candidates(kept) == (kept,)


def test_alternative_stereodescriptors_are_also_tried_as_the_first():
    assert candidates("3-((1S,3R/1R,3S)-3-methylcyclohexyl)propanoic acid")[-1] == \
        "3-((1S,3R)-3-methylcyclohexyl)propanoic acid"
    assert candidates("(E/Z)-but-2-enoic acid")[-1] == "(E)-but-2-enoic acid"
    assert candidates("(2R)-butan-2-ol") == ("(2R)-butan-2-ol",)


def test_a_locant_dot_and_a_hyphenated_indicated_hydrogen_are_also_tried_corrected():
    assert candidates("diethyl 3.5-bis(trifluoromethyl)benzylphosphonate")[-1] == \
        "diethyl 3,5-bis(trifluoromethyl)benzylphosphonate"
    assert candidates("4-morpholin-4-yl-thieno[3.2-d]pyrimidine")[-1] == \
        "4-morpholin-4-yl-thieno[3,2-d]pyrimidine"
    assert candidates("3-cyano-5-methoxy-2-H-chromene")[-1] == "3-cyano-5-methoxy-2H-chromene"
    for kept in ("2.5 g", "1H-indole", "N-H-bond"):
        assert candidates(kept) == (kept,)


def test_alias_bracket_adds_a_spelling_and_name_brackets_stay():
    g = ground("trifluoroacetic acid ( TFA ) ( 2 mL )")
    assert [n.candidates for n in g.names] == [("trifluoroacetic acid", "TFA")]
    name = "tert-Butyl (2-hydroxyethyl)(methyl)carbamate"
    assert _names(name + " ( 1 g )") == [(name, "name")]


def test_solvent_named_in_a_quantity_bracket_is_a_name_too():
    assert _names("n-butyllithium ( 2.5 M in hexanes , 4 mL )") == [
        ("n-butyllithium", "name"), ("hexanes", "solvent")]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("compound 12", "compound label"),
        ("Intermediate 5", "compound label"),
        ("7A", "compound label"),
        ("( 4a )", "compound label"),
        ("the compound of Example 12", "reference"),
        ("the title compound ( 0.25 g , 77% )", "reference"),
        ("the residue", "generic phrase"),
        ("a yellow solid", "generic phrase"),
        ("the dihydrobromide", "generic phrase"),  # a salt word cut from its compound
        ("LCMS", "not a chemical name"),
        ("C6H2BrClF3N4", "molecular formula"),
        ("400 mg", "no name"),
    ],
)
def test_why_a_text_holds_no_name(text, reason):
    g = ground(text)
    assert g.names == () and g.reason == reason


def test_a_name_has_no_reason():
    assert ground("toluene").reason is None


def test_control_characters_are_spaces_and_offsets_still_match():
    text = "ethyl\tacetate\n( 5 mL )"
    (n,) = ground(text).names
    assert n.text == "ethyl acetate" and n.candidates[0] == "ethyl acetate"
    assert (n.start, n.end) == (0, 13)


def test_a_text_longer_than_any_mention_is_refused_quickly():
    g = ground("a " * 3000 + "benzene")
    assert g.names == () and g.reason == "too long"
