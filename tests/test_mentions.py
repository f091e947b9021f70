"""chemie_mentions: each mention rule fires on a hand-written snippet (ChEMU-Ref conventions)."""

from __future__ import annotations

import pytest

from chemie.model import Document, Mention, tokens_from_words
from chemie.nlp import annotate, load
from chemie.resources import load_rules


@pytest.fixture(scope="module")
def nlp():
    return load(ner=False)


def mentions(nlp, sentence: str) -> dict[str, tuple[str, Mention]]:
    """Mention text -> (rule, mention) for a space-tokenized sentence."""
    text, tokens = tokens_from_words(sentence.split())
    doc = annotate(nlp, Document("t", text, tokens, [(0, len(tokens))]))
    return {m.text: (m.rule, m) for m in doc.mentions}


@pytest.mark.parametrize(
    ("sentence", "mention", "rule", "kind"),
    [
        ("Compound 21 ( 445 mg , 0.88 mmol ) was dissolved in water .",
         "Compound 21 ( 445 mg , 0.88 mmol )", "np_quantity", "reference"),
        ("To a solution of 4-bromophenol ( 5.0 g , 16.9 mmol ) in tetrahydrofuran ( 100 mL ) "
         "was added water .",
         "a solution of 4-bromophenol ( 5.0 g , 16.9 mmol ) in tetrahydrofuran ( 100 mL )",
         "np_in_solvent", "generic"),
        ("Then 398.4 mg of the compound 1 was added .", "398.4 mg of the compound 1",
         "amount_of_np", "reference"),
        ("The combined organic layers were dried .", "The combined organic layers",
         "generic_np", "generic"),
        ("The residue was added to a flask .", "a flask", "equipment_np", "equipment"),
        ("The residue was added to a flask .", "The residue", "generic_np", "generic"),
        ("It was washed with brine and dried over anhydrous sodium sulfate .",
         "anhydrous sodium sulfate", "chemical_np", "chemical"),
        ("Purification on silica gel column chromatography gave oil .", "silica gel",
         "chemical_np", "chemical"),
        ("It was eluted with DCM / MeOH = 20 / 1 .", "DCM / MeOH = 20 / 1", "eluent_ratio",
         "chemical"),
        ("Intermediate 4a was added .", "Intermediate 4a", "reference_np", "reference"),
        ("To a solution of 4-bromophenol ( 1 g ) , phenol ( 2 g ) and pyridine ( 3 g ) in "
         "ethyl acetate ( 4 mL ) was added water .",
         "a solution of 4-bromophenol ( 1 g ) , phenol ( 2 g ) and pyridine ( 3 g ) in "
         "ethyl acetate ( 4 mL )", "solution_of_list", "generic"),
        ("The crude was eluted with 0 to 25% EtOAc in heptane .", "0 to 25% EtOAc in heptane",
         "eluent_gradient", "chemical"),
        ("It gave hexane / DCM / ethyl acetate ( 45 : 50 : 5 ) .",
         "hexane / DCM / ethyl acetate ( 45 : 50 : 5 )", "eluent_ratio", "chemical"),
        ("Then 410 μl ( 1.64 mmol ) of a 2 M solution of hydrogen chloride in dioxane was added .",
         "410 μl ( 1.64 mmol ) of a 2 M solution of hydrogen chloride in dioxane",
         "np_in_solvent", "generic"),
        ("Compound 11 ( 8.52 g ) : yield 81% was obtained .",
         "Compound 11 ( 8.52 g ) : yield 81%", "np_with_yield", "reference"),
        ("Then 1.5 g ( 3.10 mmol ) of the compound from Example 4 was added .",
         "1.5 g ( 3.10 mmol ) of the compound from Example 4", "amount_of_np", "reference"),
        ("It gave the product ( 2.3 g , 3.58 mmol ) in 99 % yield .",
         "the product ( 2.3 g , 3.58 mmol ) in 99 % yield", "np_with_yield", "reference"),
        ("It was purified by chromatography ( SiO2 , 40 g cartridge ; EtOAc ) .",
         "SiO2 , 40 g", "np_comma_amount", "chemical"),
        ("To Compound 9 ( 60 mg ) in ethanol ( 2 mL ) and THF ( 2 mL ) solution was added water .",
         "Compound 9 ( 60 mg ) in ethanol ( 2 mL ) and THF ( 2 mL ) solution", "solution_suffix",
         "reference"),
        ("It was washed with sat. NaHCO3 ( aq ) .", "sat. NaHCO3 ( aq )", "aq_suffix", "chemical"),
        ("Then 4-bromophenol ( 128 mg , 0.57 mmol , prepared by a known method ) was added .",
         "4-bromophenol ( 128 mg , 0.57 mmol )", "quantity_source_note", "chemical"),
        ("To a solution of 4-bromophenol ( 4i , 130 mg ) in THF ( 5 mL ) was added water .",
         "4-bromophenol ( 130 mg )", "solution_component", "chemical"),
        ("The resulting pale solid was used without purification ( 212 mg , 88% ) .",
         "The resulting pale solid ( 212 mg , 88% )", "np_with_later_quantity", "state"),
        ("It was dissolved in a mixture of THF and toluene ( 8 mL / 4 mL ) .",
         "a mixture of THF and toluene ( 8 mL / 4 mL )", "mixture_of_components", "generic"),
        ("To a solution of phenol ( 1 g ) in THF ( 10 mL ) was added water .", "THF ( 10 mL )",
         "solvent_component", "chemical"),
        ("It was extracted with DCM(15 mL × 3 ) .", "DCM(15 mL × 3 )", "np_fused_quantity",
         "chemical"),
        ("Then saturated salt water(10 mL ) was added .", "saturated salt water(10 mL )",
         "np_fused_quantity", "chemical"),
        ("To a solution of 4-bromophenol ( 1.0 g ) in a mixed solvent of THF ( 10 mL ) and water"
         " ( 2 mL ) was added LiOH ( 0.2 g ) .", "a solution of 4-bromophenol ( 1.0 g ) in a "
         "mixed solvent of THF ( 10 mL ) and water ( 2 mL )", "solution_in_mixture", "generic"),
        ("A mixture of 4-nitrophenol ( 1.0 g ) , potassium carbonate ( 2.0 g ) and 10% Pd / C "
         "( 0.1 g ) in ethanol ( 5 mL ) was stirred .", "10% Pd / C ( 0.1 g )",
         "catalyst_component", "chemical"),
    ],
)
def test_mention_rules(nlp, sentence, mention, rule, kind):
    found = mentions(nlp, sentence)
    assert mention in found, sorted(found)
    assert found[mention][0] == rule
    assert found[mention][1].kind == kind


def test_numbered_reference_ends_a_noun_phrase(nlp):
    found = mentions(nlp, "Example 14 4-bromophenol ( 1.0 g ) was dissolved in water .")
    assert "Example 14" in found and "4-bromophenol ( 1.0 g )" in found


def test_amount_after_the_title_compound(nlp):
    found = mentions(nlp, "It gave the title compound 450 mg ( yield 70% ) .")
    assert found["the title compound 450 mg ( yield 70% )"][1].quantity is True


def test_step_number_is_not_part_of_the_heading_name(nlp):
    found = mentions(nlp, "Step 2 4-bromophenol To a solution of phenol ( 1 g ) was added water .")
    assert "4-bromophenol" in found


def test_heading_name_ends_before_a_locant_name(nlp):
    found = mentions(nlp, "Step 2 methyl 4-(2-hydroxyphenyl)acrylate 3-(2-aminopropyl)phenol "
                          "( 113 mg ) was dissolved in methanol .")
    assert "methyl 4-(2-hydroxyphenyl)acrylate" in found
    assert "3-(2-aminopropyl)phenol ( 113 mg )" in found


def test_trimmed_head(nlp):
    found = mentions(nlp, "The filtrate was spotted on silica gel plate twice .")
    assert found["silica gel"][0] == "np_trimmed"
    # a pad (plug) of filter aid is one mention with its head ("the pad" names it again)
    found = mentions(nlp, "The filtrate was passed through silica gel pad and the pad was "
                          "washed .")
    assert found["silica gel pad"][0] == "generic_np" and found["the pad"][0] == "generic_np"


def test_bracketed_abbreviation_makes_discontinuous_name(nlp):
    sentence = "palladium(II) acetate ( Pd(OAc)2 ) ( 10 mg , 0.04 mmol ) was added ."
    text, tokens = tokens_from_words(sentence.split())
    doc = annotate(nlp, Document("t", text, tokens, [(0, len(tokens))]))
    by_text = {m.text: m for m in doc.mentions}
    name = by_text["palladium(II) acetate ( 10 mg , 0.04 mmol )"]
    assert len(name.spans) == 2
    assert by_text["Pd(OAc)2"].rule == "bracketed_abbreviation"


def test_abbreviation_inside_the_quantity_bracket(nlp):
    sentence = "Then trifluoroacetic acid ( TFA , 5 mL ) was added ."
    text, tokens = tokens_from_words(sentence.split())
    doc = annotate(nlp, Document("t", text, tokens, [(0, len(tokens))]))
    by_text = {m.text: m for m in doc.mentions}
    assert by_text["TFA"].rule == "bracketed_abbreviation"
    name = by_text["trifluoroacetic acid ( 5 mL )"]
    assert len(name.spans) == 2


def test_rejected_match_lets_a_later_mention_start(nlp):
    found = mentions(nlp, "The flask was put 28 g ( 85 mmol ) of 4-bromophenol .")
    assert "28 g ( 85 mmol ) of 4-bromophenol" in found


def test_later_yield_joins_the_product(nlp):
    sentence = "Then 114 mg of 4-bromophenol was obtained with a yield of about 99.1% ."
    text, tokens = tokens_from_words(sentence.split())
    doc = annotate(nlp, Document("t", text, tokens, [(0, len(tokens))]))
    product = [m for m in doc.mentions if m.rule == "np_with_later_yield"]
    assert [m.text for m in product] == ["114 mg of 4-bromophenol with a yield of about 99.1%"]
    assert len(product[0].spans) == 2


def test_label_after_a_name_is_its_own_mention(nlp):
    sentence = "Then 2-fluoroethyl triflate 1b ( 128 mg , 0.57 mmol ) was added ."
    text, tokens = tokens_from_words(sentence.split())
    doc = annotate(nlp, Document("t", text, tokens, [(0, len(tokens))]))
    by_text = {m.text: m for m in doc.mentions}
    assert "1b" in by_text
    assert len(by_text["2-fluoroethyl triflate ( 128 mg , 0.57 mmol )"].spans) == 2
    assert any(
        r.rule == "bracketed_abbreviation" and doc.mention(r.head).text == "1b"
        for r in doc.relations
    )


def test_state_inside_the_quantity_bracket(nlp):
    sentence = "It gave methyl acetate ( 1.40 g , as a yellow oil ) with a yield of 68% ."
    text, tokens = tokens_from_words(sentence.split())
    doc = annotate(nlp, Document("t", text, tokens, [(0, len(tokens))]))
    by_text = {m.text: m for m in doc.mentions}
    assert by_text["a yellow oil"].kind == "state"
    product = by_text["methyl acetate ( 1.40 g ) with a yield of 68%"]
    assert len(product.spans) == 2
    assert any(r.rule == "as_physical_state" for r in doc.relations)


def test_state_takes_the_quantity(nlp):
    sentence = "It gave the title compound as a white solid ( 0.31 g , 64% ) ."
    text, tokens = tokens_from_words(sentence.split())
    doc = annotate(nlp, Document("t", text, tokens, [(0, len(tokens))]))
    by_text = {m.text: m for m in doc.mentions}
    title = by_text["the title compound ( 0.31 g , 64% )"]
    assert title.rule == "np_as_state_quantity" and len(title.spans) == 2
    assert by_text["a white solid"].kind == "state"


def test_attrs_contract(nlp):
    found = mentions(nlp, "Water ( 5 mL ) was added . The mixture was stirred .")
    rule, m = found["The mixture"]
    assert m.head == "mixture" and m.sentence == 0  # the input sentence is kept
    assert m.tokens == (8, 9) and m.det == "the"
    assert found["Water ( 5 mL )"][1].quantity is True


def test_conditions_are_not_mentions(nlp):
    found = mentions(nlp, "It was stirred at room temperature for 2 h under reduced pressure .")
    assert set(found) == {"It"}  # the pronoun (pronoun_subject), no condition


def test_raw_text_ratios(nlp):
    doc = annotate(nlp, Document("r", "It was eluted with DCM/MeOH (10:1) and hexane/EtOAc=1/1."))
    assert {"DCM/MeOH (10:1)", "hexane/EtOAc=1/1"} <= {m.text for m in doc.mentions}


def test_empty_and_raw_text(nlp):
    assert annotate(nlp, Document("e", "")).mentions == []
    doc = annotate(nlp, Document("r", "Water (5 mL) was added to the mixture."))
    assert {m.text for m in doc.mentions} >= {"Water (5 mL)", "the mixture"}


RULE_SENTENCES = [
    "Compound 21 ( 445 mg , 0.88 mmol ) was dissolved in water .",
    "To a solution of 4-bromophenol ( 5.0 g ) in tetrahydrofuran ( 100 mL ) was added .",
    "To a solution of phenol ( 1 g ) , pyridine ( 2 g ) and water ( 3 g ) in THF was added .",
    "Then 398.4 mg of the compound 1 was added to a flask .",
    "The combined organic layers were dried over anhydrous sodium sulfate .",
    "It was spotted on silica gel plate and eluted with DCM / MeOH = 20 / 1 .",
    "It was eluted with 0 to 25% EtOAc in heptane to give Intermediate 4a .",
    "Compound 11 ( 8.52 g ) : yield 81% was obtained .",
    "Then 114 mg of 4-bromophenol was obtained with a yield of about 99.1% .",
    "It gave the title compound as a white solid ( 0.31 g , 64% ) .",
    "Then trifluoroacetic acid ( TFA , 5 mL ) was added .",
    "Yield : 530 mg ( 81% of theory ) .",
    "It was put in a 50 mL-flask equipped with a stirrer , and a cooling line .",
    "It was purified by chromatography ( SiO2 , 40 g cartridge ; EtOAc ) .",
    "To Compound 9 ( 60 mg ) in ethanol ( 2 mL ) and THF ( 2 mL ) solution was added water .",
    "It was washed with sat. NaHCO3 ( aq ) .",
    "Then 4-bromophenol ( 128 mg , 0.57 mmol , prepared by a known method ) was added .",
    "To a solution of 4-bromophenol ( 4i , 130 mg ) in THF ( 5 mL ) was added water .",
    "The resulting pale solid was used without purification ( 212 mg , 88% ) .",
    "It was dissolved in a mixture of THF and toluene ( 8 mL / 4 mL ) .",
    "It was extracted with DCM(15 mL × 3 ) .",
    "It was purified on silica gel ( 24 g , 0-60% EtOAc in hexanes ) .",
    "Chromatography afforded Intermediate 1-a . ( 35.0 g , 79.7% ) .",
    "The residue was applied onto a silica gel column .",
    "It was cooled to room temperature .",
    "It was dissolved in ethanol ( 12 mL ) / water ( 3 mL ) .",
    "After 20 min , Solution 1 was added .",
    "It was eluted with methanol and chloroform ( concentration gradient , 0 to 15% ) .",
    "It was washed with NH4Cl ( saturated solution ) .",
    "It was eluted with methanol containing 1% ammonium hydroxide .",
    "It was purified ( 10-50% EtOAc in hexanes , then 0-5% MeOH in EtOAc ) .",
    "It was acidified with 2 N hydrochloric acid ( HCl ) solution .",
    "Compound A ( 10 g ) was used . ( 92% ) MS = 725",
    "It was put on an Isolute column ( 2g , silica ) .",
    "A mixture of phenol ( 1 g ) and 10% Pd / C ( 0.1 g ) in ethanol ( 5 mL ) was stirred .",
    "To a solution of phenol ( 1 g ) in a mixture of THF ( 5 mL ) and water ( 1 mL ) was added .",
]


def test_every_mention_rule_is_listed_with_a_comment_and_fires(nlp):
    listed = {r["name"]: r["comment"] for r in load_rules("mentions.yaml")["rules"]}
    assert all(listed.values())
    fired = {rule for s in RULE_SENTENCES for rule, _ in mentions(nlp, s).values()}
    assert fired == set(listed)


@pytest.mark.corpus
def test_corpus_mentions_use_listed_rules(nlp, corpus):
    from itertools import islice

    from chemie.formats.chemu import iter_chemu

    listed = {r["name"] for r in load_rules("mentions.yaml")["rules"]}
    for d in islice(iter_chemu(corpus("chemu-ref/train.jsonl")), 30):
        out = annotate(nlp, d)
        assert {m.rule for m in out.mentions} <= listed
        for m in out.mentions:
            assert m.text == out.span_text(m.spans)
            first, last = m.tokens
            assert out.tokens[first].start == m.start and out.tokens[last].end == m.end


def test_reaction_as_subject_filter(nlp):
    assert load_rules("mentions.yaml")["filters"][0]["name"] == "reaction_as_subject"
    assert "The reaction" in mentions(nlp, "The reaction was stirred for 2 h .")
    found = mentions(nlp, "After completion of the reaction , water was added .")
    assert "the reaction" not in found and "water" in found
    found = mentions(nlp, "The reaction was stopped by adding water .")
    assert "The reaction" not in found and "water" in found  # the process, not the material


def test_eluent_ratio_needs_two_solvents_and_a_numeric_ratio(nlp):
    found = mentions(
        nlp, "The pH = 8 , m / z = 283.0 ; eluted with PE : EA = 8 : 1 and then with "
        "cyclohexane / ethyl acetate 7 : 3 .",
    )
    ratios = {text for text, (rule, _) in found.items() if rule == "eluent_ratio"}
    assert ratios == {"PE : EA = 8 : 1", "cyclohexane / ethyl acetate 7 : 3"}


def test_measurements_and_references_are_not_mentions():
    nlp = load()  # the default pipeline (with NER), on raw text
    doc = annotate(nlp, Document("d", "Endothermic peak top temperature in DSC: 195° C."))
    assert doc.mentions == []
    doc = annotate(nlp, Document("f", "The product was obtained as in Fig. 3 and Example No. 5."))
    texts = {m.text: m.rule for m in doc.mentions}
    assert "Example No." not in texts and not any("Fig" in t for t in texts)
    assert texts["Example No. 5"] == "reference_np"  # like "Example 5": a numbered reference


def test_number_sign_joins_a_reference_and_its_number(nlp):
    found = mentions(nlp, "Compound No . 1 ( 20 mg ) was added to Example No . 3 .")
    assert found["Compound No . 1 ( 20 mg )"][0] == "np_quantity"
    assert found["Compound No . 1 ( 20 mg )"][1].head == "compound"
    assert found["Example No . 3"][1].kind == "reference"


def test_adjective_head_filter(nlp):
    names = [f["name"] for f in load_rules("mentions.yaml")["filters"]]
    assert "adjective_head" in names
    found = mentions(nlp, "The chromatographic purification gave an azeotropic mixture and "
                     "Endothermic peaks .")
    assert "The chromatographic" not in found and "Endothermic" not in found
    assert "an azeotropic mixture" in found  # the head is "mixture"
    found = mentions(nlp, "Then butanal ( 1 g ) and N,N-dimethylformamide dimethyl acetal "
                     "( 2 mL ) were added .")
    assert {"butanal ( 1 g )", "N,N-dimethylformamide dimethyl acetal ( 2 mL )"} <= set(found)


def test_determined_head_filter(nlp):
    names = [f["name"] for f in load_rules("mentions.yaml")["filters"]]
    assert "determined_head" in names
    found = mentions(nlp, "The solvent was removed and the result was dried . The whole was "
                     "extracted .")
    assert found["the result"][1].kind == "generic" and "The whole" in found
    found = mentions(nlp, "As a result , the mixture was purified by precipitation .")
    assert "a result" not in found and "precipitation" not in found
    assert "the mixture" in found


def test_later_quantity_needs_a_subject_and_a_yield(nlp):
    sentence = "The title compound was used without further purification ( 1.18 g , 95% ) ."
    text, tokens = tokens_from_words(sentence.split())
    doc = annotate(nlp, Document("t", text, tokens, [(0, len(tokens))]))
    title = next(m for m in doc.mentions if m.rule == "np_with_later_quantity")
    assert len(title.spans) == 2 and title.text == "The title compound ( 1.18 g , 95% )"
    found = mentions(nlp, "The residue was diluted with water ( 10 mL ) .")
    assert "The residue" in found and found["water ( 10 mL )"][0] == "np_quantity"
    found = mentions(nlp, "The product was dried at 40 ( 2 mL ) .")  # no yield in the bracket
    assert found["The product"][0] != "np_with_later_quantity"


def test_more_solvents_and_mixture_components(nlp):
    found = mentions(nlp, "To a solution of phenol ( 4 g ) in pyridine ( 8 mL ) and DCM ( 15 mL ) "
                          "was added water .")
    assert found["a solution of phenol ( 4 g ) in pyridine ( 8 mL ) and DCM ( 15 mL )"][0] == (
        "np_in_solvent")
    # "and the mixture" after a solution starts a new mention
    found = mentions(nlp, "To a solution of phenol ( 3 g ) in DMF ( 5 mL ) and the mixture was "
                          "stirred .")
    assert "a solution of phenol ( 3 g ) in DMF ( 5 mL )" in found and "the mixture" in found
    # only a mixture (solution, solvent) joins two components after "of"
    found = mentions(nlp, "It was eluted with a mixture of dichloromethane and hexane ( 1 : 5 ) .")
    assert found["a mixture of dichloromethane and hexane ( 1 : 5 )"][0] == "eluent_ratio"
    found = mentions(nlp, "After a period of phenol and water ( 5 mL ) were added .")
    assert "water ( 5 mL )" in found


def test_heading_name_ends_before_a_stereo_descriptor_or_n_prefix(nlp):
    found = mentions(nlp, "Step 4 3-(4-(diethylcarbamoyl)phenyl)prop-2-yn-1-yl methanesulfonate "
                          "N,N-diethyl-4-(3-hydroxyprop-1-ynyl)benzamide ( 5.16 mg ) was dissolved "
                          "in DCM .")
    assert "3-(4-(diethylcarbamoyl)phenyl)prop-2-yn-1-yl methanesulfonate" in found
    assert "N,N-diethyl-4-(3-hydroxyprop-1-ynyl)benzamide ( 5.16 mg )" in found
    found = mentions(nlp, "Step 2 (E)-methyl 3-(4-acetamidophenyl)acrylate (E)-methyl "
                          "3-(4-aminophenyl)acrylate ( 70 mg ) was dissolved in DCM .")
    assert "(E)-methyl 3-(4-aminophenyl)acrylate ( 70 mg )" in found


def test_heading_name_ends_before_a_locant_list_or_after_a_greek_letter_name(nlp):
    found = mentions(nlp, "Example 4 : synthesis of 3-chloro-N-phenylpyridin-2-amine 2 , "
                          "3-Dichloropyridine ( 3.15 g ) was placed in a flask .")
    assert "3-chloro-N-phenylpyridin-2-amine" in found
    assert "2 , 3-Dichloropyridine ( 3.15 g )" in found
    found = mentions(nlp, "Method 4 (R)-N-Benzyloxycarbonyl-α-[N-(t-butyl)carbamoyl]benzylamine "
                          "(2R)-{[(Benzyloxy)carbonyl]amino}(phenyl)acetic acid ( 10 g ) was "
                          "dissolved in DCM .")
    assert "(2R)-{[(Benzyloxy)carbonyl]amino}(phenyl)acetic acid ( 10 g )" in found


def test_non_partitive_of_filter(nlp):
    names = [f["name"] for f in load_rules("mentions.yaml")["filters"]]
    assert "non_partitive_of" in names
    found = mentions(nlp, "The pH of the reaction mixture was adjusted and the disappearance of "
                          "the raw material was checked .")
    assert "the reaction mixture" in found and "the raw material" in found
    assert not any(t.startswith(("The pH", "the disappearance")) for t in found)
    found = mentions(nlp, "It was filtered through a pad of silica gel and a small amount of "
                          "water was added .")
    assert {"a pad of silica gel", "a small amount of water"} <= set(found)


def test_stop_word_modifier_before_a_name(nlp):
    found = mentions(nlp, "Then Combined organic layers were washed with concentrated HCl "
                          "( 5 mL ) .")
    assert {"Combined organic layers", "concentrated HCl ( 5 mL )"} <= set(found)
    found = mentions(nlp, "The filtrate was concentrated , and the residue was dried .")
    assert set(found) == {"The filtrate", "the residue"}


def test_names_split_by_the_tokenizer_are_joined(nlp):
    found = mentions(nlp, "Then abs . ethanol ( 15 mL ) was added .")
    assert "abs . ethanol ( 15 mL )" in found
    found = mentions(nlp, "Then ( E)-3-(4-bromophenyl)acrylic acid ( 50 mg ) was added .")
    assert "( E)-3-(4-bromophenyl)acrylic acid ( 50 mg )" in found
    found = mentions(nlp, "Example 6 ( E)-3-(4-bromophenyl)acrylic acid To it was added water .")
    assert "Example 6" in found and "( E)-3-(4-bromophenyl)acrylic acid" in found
    found = mentions(nlp, "Then tert-butyl ( 3-aminophenyl ) carbamate ( 4 g ) was added .")
    assert "tert-butyl ( 3-aminophenyl ) carbamate ( 4 g )" in found
    found = mentions(nlp, "Then 2 , 3-dichloropyridine ( 2.96 g ) was added .")
    assert "2 , 3-dichloropyridine ( 2.96 g )" in found
    found = mentions(nlp, "Compound 5 , 3-bromophenol ( 1 g ) and water were mixed .")
    assert "3-bromophenol ( 1 g )" in found


def test_all_the_and_containing_fractions(nlp):
    found = mentions(nlp, "Then All the organic layers were combined .")
    assert "All the organic layers" in found
    found = mentions(nlp, "The fractions containing the desired compound were combined and "
                          "Product containing fractions were concentrated .")
    assert {"The fractions containing the desired compound", "Product containing fractions"} <= (
        set(found))
    found = mentions(nlp, "The mixture containing water was stirred .")
    assert "The mixture containing water" in found  # a mixture with its contents, as before


def test_trailing_words_kept_or_dropping_the_mention(nlp):
    found = mentions(nlp, "The solid ppts were filtered through a Celite filter agent .")
    assert {"The solid ppts", "a Celite filter agent"} <= set(found)
    found = mentions(nlp, "It was filtered through a Celite ™ 545 filter agent .")
    assert "a Celite ™ 545 filter agent" in found  # the head stays on a noun, not on "545"
    found = mentions(nlp, "The flask was cooled in an ice bath under microwave irradiation .")
    assert set(found) == {"The flask"}


def test_state_quantity_joins_a_product_with_an_amount(nlp):
    found = mentions(nlp, "It gave 6 mg of the title compound as a white solid ( 0.010 mmol , "
                          "yield : 82% ) .")
    name = "6 mg of the title compound ( 0.010 mmol , yield : 82% )"
    assert found[name][0] == "np_as_state_quantity" and "a white solid" in found


def test_determiner_phrases_before_a_solution_and_a_name(nlp):
    found = mentions(nlp, "To a cooled ( 0° C . ) solution of phenol ( 1 g ) in THF ( 8 mL ) was "
                          "added An NMP ( 1 mL ) solution of pyridine ( 2 g ) .")
    assert "a cooled ( 0° C . ) solution of phenol ( 1 g ) in THF ( 8 mL )" in found
    assert "An NMP ( 1 mL ) solution of pyridine ( 2 g )" in found
    found = mentions(nlp, "Then the produced solid was dissolved in the excess borane .")
    assert {"the produced solid", "the excess borane"} <= set(found)


def test_quantity_eluent_note(nlp):
    sentence = "It was purified on silica gel ( 24 g , 0-60% EtOAc in hexanes ) ."
    text, tokens = tokens_from_words(sentence.split())
    doc = annotate(nlp, Document("t", text, tokens, [(0, len(tokens))]))
    by_rule = {m.rule: m for m in doc.mentions}
    assert by_rule["quantity_eluent_note"].text == "silica gel ( 24 g )"
    assert len(by_rule["quantity_eluent_note"].spans) == 2
    assert by_rule["eluent_gradient"].text == "0-60% EtOAc in hexanes"


def test_eluent_ratio_starts_at_the_solvents(nlp):
    found = mentions(nlp, "It was purified ( eluent : cyclohexane / ethyl acetate 10 : 1 ) and "
                          "with mobile phase hexane / EtOAc 5 : 1 .")
    assert found["cyclohexane / ethyl acetate 10 : 1"][0] == "eluent_ratio"
    assert found["hexane / EtOAc 5 : 1"][0] == "eluent_ratio"


def test_infinitive_verb_filter(nlp):
    names = [f["name"] for f in load_rules("mentions.yaml")["filters"]]
    assert "infinitive_verb" in names
    found = mentions(nlp, "Water was added to terminate the reaction , then ether was added to "
                     "precipitate a solid . The precipitate was dried to concentrate .")
    assert "terminate" not in found and "precipitate" not in found
    assert "concentrate" not in found
    assert {"Water", "a solid", "The precipitate"} <= set(found)


def test_quantity_bracket_with_a_nested_bracket(nlp):
    found = mentions(nlp, "It gave 2-isobutylpyridine-4-carbonitrile ( 15 g ( 32.5% yield ) ) and "
                     "a product ( 61.2 mg ( 0.121 mmol ) , 90% yield ) .")
    assert found["2-isobutylpyridine-4-carbonitrile ( 15 g ( 32.5% yield ) )"][0] == "np_quantity"
    assert "a product ( 61.2 mg ( 0.121 mmol ) , 90% yield )" in found


def test_yield_after_in_a_is_no_solvent(nlp):
    found = mentions(nlp, "This gave 3.8 g of a white solid in a yield of 52% .")
    assert found["3.8 g of a white solid in a yield of 52%"][0] == "np_with_yield"


def test_punct_quantity(nlp):
    found = mentions(nlp, "Chromatography afforded Intermediate 1-a . ( 35.0 g , 79.7% ) and "
                     "4-bromophenol , ( 1.59 g , 23% yield ) .")
    assert found["Intermediate 1-a . ( 35.0 g , 79.7% )"][0] == "punct_quantity"
    assert found["4-bromophenol , ( 1.59 g , 23% yield )"][0] == "punct_quantity"
    found = mentions(nlp, "It was washed with water , ( 10 mL ) .")  # no yield: no product
    assert "water" in found


def test_column_packing(nlp):
    found = mentions(nlp, "The residue was applied onto a silica gel column , purified by reverse "
                     "phase silica gel column chromatography and by thin layer chromatography .")
    assert found["silica gel"][0] == "column_packing"
    assert "a silica gel" not in found and "reverse phase silica gel" not in found
    assert not any("layer" in m for m in found)


def test_colour_phrase_after_the_product_joins_it(nlp):
    found = mentions(nlp, "It was purified to obtain the title compound in white color ( 31 mg , "
                          "yield 4.6% ) .")
    assert found["the title compound in white color ( 31 mg , yield 4.6% )"][1].quantity
    found = mentions(nlp, "The compound was dissolved in white color ( 2 mL ) .")
    assert "The compound" in found  # after a verb "in" stays a preposition


def test_amount_comma_packing(nlp):
    found = mentions(nlp, "It was put on an Isolute column ( 10g , silica ) and eluted .")
    assert found["10g , silica"][0] == "amount_comma_packing"
    found = mentions(nlp, "It was stirred ( 10g , silica ) and eluted .")
    assert "10g , silica" not in found  # only in the bracket after a column


def test_yield_bracket(nlp):
    found = mentions(nlp, "Compound A ( 10 g ) and phenol ( 8 g ) were used . ( 92% ) MS = 725")
    assert found["( 92% )"][0] == "yield_bracket"
    assert found["( 92% )"][1].quantity is True
    found = mentions(nlp, "It was stirred . ( 2 g ) of phenol was added .")
    assert "( 2 g )" not in found  # an amount, no yield


def test_pronoun_subject(nlp):
    found = mentions(nlp, "The mixture was stirred for 2 h . It was cooled and then it warmed up "
                     "to RT . It was confirmed that it is possible .")
    assert found["It"][0] == "pronoun_subject" and found["It"][1].kind == "generic"
    assert "it" in found  # "it warmed up"
    text, tokens = tokens_from_words("It was confirmed that it is possible .".split())
    doc = annotate(nlp, Document("t", text, tokens, [(0, len(tokens))]))
    assert doc.mentions == []


def test_tlc_eluent_filter(nlp):
    names = [f["name"] for f in load_rules("mentions.yaml")["filters"]]
    assert "tlc_eluent" in names
    found = mentions(nlp, "After TLC ( PE : EA = 8 : 1 ) showed completion , it was purified "
                     "by chromatography ( PE : EA = 5 : 1 ) .")
    assert list(found).count("PE : EA = 8 : 1") == 0
    assert "PE : EA = 5 : 1" in found


def test_solvent_pair(nlp):
    found = mentions(nlp, "It was dissolved in ethanol ( 12 mL ) / water ( 3 mL ) and washed "
                     "with water ( 5 mL ) .")
    assert found["ethanol ( 12 mL ) / water ( 3 mL )"][0] == "solvent_pair"
    assert "ethanol ( 12 mL )" not in found


def test_eluent_ratio_after_a_comma_and_with_v_v(nlp):
    found = mentions(nlp, "It was purified ( SiO2 , eluent : hexane / ethylacetate , 3 / 1 ) , "
                     "then with MeOH : CH2Cl2 = 1 : 8 , v / v and with petroleum ether / ethyl "
                     "acetate ( 8 / 1 , v / v ) .")
    assert found["hexane / ethylacetate , 3 / 1"][0] == "eluent_ratio"
    assert found["MeOH : CH2Cl2 = 1 : 8 , v / v"][0] == "eluent_ratio"
    assert found["petroleum ether / ethyl acetate ( 8 / 1 , v / v )"][0] == "eluent_ratio"


def test_gram_like_label_before_a_new_name(nlp):
    found = mentions(nlp, "Step 7 : preparation of intermediate ethyl 2-oxo-acetate ( 7g ) "
                     "3-oxazol-2-yl-1,6-diazabicyclo[3.2.1]oct-3-en-7-one ( 122 mg ) was dissolved "
                     "in water . Then Na2SO4 ( 5g ) was added .")
    assert found["7g"][0] == "bracketed_abbreviation"
    assert "intermediate ethyl 2-oxo-acetate" in found
    assert found["Na2SO4 ( 5g )"][0] == "np_quantity"  # an amount before a verb


def test_one_letter_compound_id(nlp):
    found = mentions(nlp, "Compound l was condensed with Compound n to produce Compound f .")
    assert {"Compound l", "Compound n", "Compound f"} <= set(found)
    assert found["Compound l"][1].kind == "reference"
    found = mentions(nlp, "The compound 64g ( 320 mg , 56% ) was obtained .")
    assert found["The compound 64g ( 320 mg , 56% )"][0] == "np_quantity"  # 64g: no amount


def test_generic_with_id(nlp):
    found = mentions(nlp, "After 20 min , Solution 1 was added and it was purified with elution "
                     "system A . The mixture was washed 3 times .")
    assert found["Solution 1"][0] == "generic_with_id"
    assert found["Solution 1"][1].head == "solution"
    assert "elution system A" in found and "The mixture" in found


def test_mixture_with_a_v_v_ratio_bracket(nlp):
    found = mentions(nlp, "It was dissolved in 2.5 mL of a mixture of methanol and tetrahydrofuran "
                     "( V / V = 4 : 1 ) , then water was added .")
    assert "2.5 mL of a mixture of methanol and tetrahydrofuran ( V / V = 4 : 1 )" in found


def test_source_and_rf_notes_leave_the_quantity_bracket(nlp):
    found = mentions(nlp, "It gave acetal 1e ( 81.4 mg , 85% yield , Rf = 0.33 in 3 : 1 hexanes / "
                     "EtOAc ) and 4-nitrophenyl chloroformate ( 3.47 g , 17.2 mmol , available "
                     "from Sigma-Aldrich ) .")
    assert found["acetal 1e ( 81.4 mg , 85% yield )"][0] == "quantity_source_note"
    assert found["4-nitrophenyl chloroformate ( 3.47 g , 17.2 mmol )"][0] == "quantity_source_note"


def test_heteroatom_locants_split_at_their_comma(nlp):
    # "N , N-dimethylformamide": the first "N" is a locant, not the unit normal
    got = mentions(nlp, "To 12 mL of N , N-dimethylformamide was added water .")
    assert got["12 mL of N , N-dimethylformamide"][0] == "amount_of_np"
    assert "mL of" not in got


def test_weight_percent_is_an_amount(nlp):
    got = mentions(nlp, "Then 86.0 mg of sodium hydride ( 60wt% ) was added .")
    assert got["86.0 mg of sodium hydride ( 60wt% )"][0] == "np_quantity"


def test_dispersion_note_stays_in_the_quantity_bracket(nlp):
    # the form of the reagent is no eluent note ("quantity_eluent_note" does not fire)
    got = mentions(nlp, "Sodium hydride ( 64.0 mg , 1.6 mmol , 60% dispersion in mineral oil ) "
                        "was added .")
    assert got["Sodium hydride ( 64.0 mg , 1.6 mmol , 60% dispersion in mineral oil )"][0] == (
        "np_quantity")
    got = mentions(nlp, "It was purified on silica gel ( 24 g , 0-60% EtOAc in hexanes ) .")
    assert got["silica gel ( 24 g )"][0] == "quantity_eluent_note"


def test_equipment_size_and_necks_split_by_a_comma(nlp):
    got = mentions(nlp, "A dried 250 mL , 3-neck flask was charged with ethanol ( 100.0 mL ) .")
    assert got["A dried 250 mL , 3-neck flask"][0] == "equipment_np"


def test_equipped_with_ends_at_the_verb(nlp):
    got = mentions(nlp, "To a four-necked flask equipped with a stirrer was added water .")
    assert got["a four-necked flask equipped with a stirrer"][0] == "equipment_equipped_with"
    got = mentions(nlp, "A flask fitted with a reflux condenser and a nitrogen inlet was "
                        "charged with water .")
    assert got["A flask fitted with a reflux condenser and a nitrogen inlet"][0] == (
        "equipment_equipped_with")
    # a stir bar: "bar" is also a unit of pressure
    got = mentions(nlp, "To a flask equipped with a magnetic stir bar was added water .")
    assert got["a flask equipped with a magnetic stir bar"][0] == "equipment_equipped_with"


@pytest.mark.parametrize(
    "name",
    [
        "4-Amino-5-cyano-6-((1-(8-chloro-1-methyl-4-oxo-2-phenyl-1,4-dihydroquinolin-3-yl) ethyl )"
        " amino ) pyrimidine",
        "3,7-dimethyl-1-(pent-4-yn-1-yl)-1H-purine-2,6(3H , 7H)-dione",
        "2,2'-(1,3-phenylenebis(azanediyl))bis(1,1-difluoro-2-oxoethane-1-sulfonyl fluoride )",
        "( 6S,8R)-6-(6-bromo-4-methoxypyridin-3-yl)-7-((1-fluorocyclopropyl ) methyl)-8-methyl-"
        "6,7,8,9-tetrahydro-3H-pyrazolo[4,3-f]isoquinoline",
    ],
)
def test_name_split_by_spaces_is_one_mention(nlp, name):
    got = mentions(nlp, f"Then {name} was added to water .")
    assert got[name][0] == "chemical_np"


def test_name_with_open_bracket_that_never_closes_is_left_alone(nlp):
    got = mentions(nlp, "Then 2-(4-fluoro , water and THF were added .")
    assert "water" in got and "THF" in got


def test_eluent_pair(nlp):
    got = mentions(nlp, "It was purified by TLC using methanol and chloroform "
                        "( concentration gradient , 0 to 15% ) .")
    assert got["methanol and chloroform ( concentration gradient , 0 to 15% )"][0] == (
        "eluent_pair")
    # a bracket with an amount belongs to the second solvent alone
    got = mentions(nlp, "Then DMF and water ( 5 mL ) were added .")
    assert got["water ( 5 mL )"][0] == "np_quantity" and got["DMF"][0] == "chemical_np"


@pytest.mark.parametrize(
    "eluent",
    ["MeOH : CH2Cl2 = 0.100→1 : 80→1 : 50", "n-hexane : ethyl acetate ( 50 : 1→4 : 1 )",
     "acetonitrile : water = 0∼37%"],
)
def test_eluent_ratio_with_arrow_ranges(nlp, eluent):
    got = mentions(nlp, f"It was eluted with {eluent} to give a solid .")
    assert got[eluent][0] == "eluent_ratio"


def test_descriptor_suffix(nlp):
    got = mentions(nlp, "It was washed with NH4Cl ( saturated solution ) .")
    assert got == {"NH4Cl ( saturated solution )": got["NH4Cl ( saturated solution )"]}
    assert got["NH4Cl ( saturated solution )"][0] == "descriptor_suffix"
    assert mentions(nlp, "Then DMAP ( cat . ) was added .")["DMAP ( cat . )"][0] == (
        "descriptor_suffix")
    # a bracket followed by an amount is a heading's label, not a descriptor
    got = mentions(nlp, "It gave 2,4(1H,3H)-dione ( racemate ) 813 mg ( 1.84 mmol ) of Y .")
    assert "2,4(1H,3H)-dione" in got


def test_repeated_amount_token_is_a_quantity(nlp):
    got = mentions(nlp, "The product was extracted with diethyl ether ( 3x75ml ) .")
    assert got["diethyl ether ( 3x75ml )"][0] == "np_quantity"


def test_packings_and_filter_aids_are_chemicals(nlp):
    got = mentions(nlp, "The mixture was filtered through diatomaceous earth .")
    assert got["diatomaceous earth"][0] == "chemical_np"
    got = mentions(nlp, "Purification via preparative HPLC on a C-18 column gave a solid .")
    assert got["C-18"][0] == "column_packing"


def test_modifier_before_a_ratio_lead(nlp):
    got = mentions(nlp, "The solid was washed with cold 1 : 1 acetonitrile / water .")
    assert got["cold 1 : 1 acetonitrile / water"][0] == "amount_of_np"


def test_a_further_amount(nlp):
    got = mentions(nlp, "A further 0.49 ml ( 3.74 mmol ) of DAST was added .")
    assert got["A further 0.49 ml ( 3.74 mmol ) of DAST"][0] == "amount_of_np"


@pytest.mark.parametrize(
    ("sentence", "mention"),
    [
        ("Then 0.71g of a white solid was obtained with a yield of 64.3 % .",
         "0.71g of a white solid with a yield of 64.3 %"),
        ("Then 3.02 g of 4-methylpyridine was obtained in a quantitative yield .",
         "3.02 g of 4-methylpyridine in a quantitative yield"),
    ],
)
def test_later_yield_after_an_amount_of_a_state_and_a_quantitative_yield(nlp, sentence, mention):
    assert mentions(nlp, sentence)[mention][0] == "np_with_later_yield"


def test_reference_bracket_between_a_name_and_its_quantity(nlp):
    got = mentions(nlp, "Then 5-methylpyrimidine-2-carboxylic acid [ Example 6 , Step 1 ] "
                        "( 1.6 g , 11.6 mmol ) was added .")
    rule, m = got["5-methylpyrimidine-2-carboxylic acid ( 1.6 g , 11.6 mmol )"]
    assert rule == "np_quantity" and len(m.ranges) == 2
    assert "Example 6 , Step 1" not in got


def test_solvent_of_an_unquantified_solute_leaves_the_bracket(nlp):
    got = mentions(nlp, "Then a 4 M HCl solution in 1,4-dioxane ( 2.2 mL , 8.8 mmol ) was added .")
    assert got["1,4-dioxane"][0] == "solvent_component"
    got = mentions(nlp, "To a solution of 4-bromophenol ( 2 g ) in THF ( 10 mL ) was added water .")
    assert got["THF ( 10 mL )"][0] == "solvent_component"


@pytest.mark.parametrize(
    ("sentence", "eluent"),
    [
        ("It was purified on silica using 100% hexanes to 9 : 1 hexanes / EtOAc to give a solid .",
         "100% hexanes to 9 : 1 hexanes / EtOAc"),
        ("It was purified using 10% EtOAc to 15% EtOAc in hexanes as the eluant .",
         "10% EtOAc to 15% EtOAc in hexanes"),
    ],
)
def test_gradient_from_one_eluent_to_another(nlp, sentence, eluent):
    assert mentions(nlp, sentence)[eluent][0] == "eluent_gradient"


@pytest.mark.parametrize(
    ("sentence", "eluent"),
    [("It was purified by HPLC ( C18 , acetonitrile-H2O with 0.1% TFA as eluent ) .",
      "acetonitrile-H2O with 0.1% TFA"),
     ("It was purified by HPLC ( mobile phase : MeCN / water gradient with addition of 0.1% "
      "formic acid ) .", "MeCN / water gradient with addition of 0.1% formic acid"),
     ("It was purified by chromatography ( hexane : ethyl acetate = 2 : 1 , containing 0.1% "
      "triethylamine ) .", "hexane : ethyl acetate = 2 : 1 , containing 0.1% triethylamine")],
)
def test_eluent_with_a_modifier_is_one_eluent(nlp, sentence, eluent):
    assert mentions(nlp, sentence)[eluent][0] == "eluent_additive"


@pytest.mark.parametrize(
    ("sentence", "eluent", "rule"),
    [("It was purified on silica gel ( heptane / acetone 100 / 0 to 80 / 20 then DCM / MeOH 100 "
      "/ 0 to 90 / 10 ) to give X .",
      "heptane / acetone 100 / 0 to 80 / 20 then DCM / MeOH 100 / 0 to 90 / 10", "eluent_sequence"),
     ("It was purified ( 10-50% EtOAc in hexanes , then 0-5% MeOH in EtOAc ) .",
      "10-50% EtOAc in hexanes , then 0-5% MeOH in EtOAc", "eluent_sequence"),
     ("It was eluted with DCM : EtOAc 100 : 0 , 95 : 5 , 90 : 10 then 80 : 20 to give X .",
      "DCM : EtOAc 100 : 0 , 95 : 5 , 90 : 10 then 80 : 20", "eluent_ratio")],
)
def test_eluents_run_one_after_the_other_are_one(nlp, sentence, eluent, rule):
    assert mentions(nlp, sentence)[eluent][0] == rule


def test_eluent_additive(nlp):
    got = mentions(nlp, "It was eluted with methanol containing 1% ammonium hydroxide .")
    assert got["methanol containing 1% ammonium hydroxide"][0] == "eluent_additive"
    # a column packing takes no additive: the eluent after it is its own mention
    got = mentions(nlp, "It was purified on silica gel with 0-15% ethyl acetate / hexane .")
    assert "silica gel" in got
    # no eluent before the percentage: a reagent added with the catalyst stays apart
    got = mentions(nlp, "The mixture was treated with 10% Pd / C ( 50 mg ) .")
    assert "The mixture" in got and "10% Pd / C ( 50 mg )" in got
    got = mentions(nlp, "It was eluted with methanol containing 10% aqueous ammonia and chloroform "
                        "( concentration , 25% ) .")
    assert got["methanol containing 10% aqueous ammonia and chloroform ( concentration , 25% )"][
        0] == "eluent_pair"


def test_solution_list_after_a_bracket_prefix(nlp):
    got = mentions(nlp, "To a cooled ( −8° C . ) mixture of TFA ( 7.7 mL , 100 mmol ) and water "
                        "( 1.1 mL ) was added water .")
    assert got["a cooled ( −8° C . ) mixture of TFA ( 7.7 mL , 100 mmol ) and water ( 1.1 mL )"][
        0] == "solution_of_list"


def test_gerund_of_a_procedure_verb_is_no_part_of_a_mention(nlp):
    got = mentions(nlp, "The pH was adjusted by charging 100 mL of 2N HCl .")
    assert got["100 mL of 2N HCl"][0] == "amount_of_np"


def test_solution_list_with_a_label_bracket(nlp):
    sentence = ("To a stirred solution of 1,3-dichlorobenzene ( C61 ) ( 2.4 g , 8.6 mmol ) "
                "and benzyl chloride ( 0.30 g , 1.2 mmol ) in chloroform ( 12 mL ) was added .")
    got = mentions(nlp, sentence)
    whole = sentence[3 : sentence.index(" was added")]
    assert got[whole][0] == "solution_of_list"


def test_compounds_with_their_solvent_after_a_verb(nlp):
    got = mentions(nlp, "It was added to 4-bromophenol ( 0.4 g ) and DIPEA ( 0.541 mL ) "
                        "in 1,4-dioxane ( 20 mL ) and stirred .")
    rule, m = got["4-bromophenol ( 0.4 g ) and DIPEA ( 0.541 mL ) in 1,4-dioxane ( 20 mL )"]
    assert rule == "solution_of_list" and m.kind == "chemical"


def test_abbreviated_solution(nlp):
    got = mentions(nlp, "It was acidified with 2 N hydrochloric acid ( HCl ) solution .")
    rule, m = got["2 N hydrochloric acid solution"]
    assert rule == "abbreviated_solution" and len(m.ranges) == 2
    assert got["HCl"][0] == "bracketed_abbreviation"


@pytest.mark.parametrize(
    "mention",
    ["Sulfuric acid ( conc , 1ml )", "n-butyllithium ( hexane solution , 22 mL , 55 mmol )"],
)
def test_descriptor_before_the_quantity_is_no_abbreviation(nlp, mention):
    rule, m = mentions(nlp, f"Then {mention} was added .")[mention]
    assert rule == "np_quantity" and len(m.ranges) == 1


def test_capitalized_name_with_a_lowercase_prefix_starts_a_new_mention(nlp):
    got = mentions(nlp, "Step B pyridinium dichloride tert-Butyl (S)-1-oxopropan-2-ylcarbamate "
                        "( 170 mg , 0.31 mmol ) was dissolved in water .")
    assert got["tert-Butyl (S)-1-oxopropan-2-ylcarbamate ( 170 mg , 0.31 mmol )"][0] == (
        "np_quantity")


def test_solution_list_of_lead_amounts(nlp):
    got = mentions(nlp, "To a mixture of 0.28 ml of DIPEA and 106 mg ( 0.48 mmol ) of "
                        "4-bromophenol in 1.4 ml of THF was added water .")
    assert got["a mixture of 0.28 ml of DIPEA and 106 mg ( 0.48 mmol ) of 4-bromophenol in 1.4 ml "
               "of THF"][0] == "solution_of_list"


def test_amount_in_an_amount_of_solvent(nlp):
    got = mentions(nlp, "Then 88 μl ( 0.51 mmol ) of DIPEA in 0.4 ml of DMF was added .")
    assert got["88 μl ( 0.51 mmol ) of DIPEA in 0.4 ml of DMF"][0] == "np_in_solvent"
    got = mentions(nlp, "Then 5 g of phenol in THF was added .")
    assert got["5 g of phenol"][0] == "amount_of_np"


def test_dissolved_in_after_a_comma(nlp):
    got = mentions(nlp, "Then 53 mg ( 0.24 mmol ) of 4-bromophenol , dissolved in 1 ml of DMF , "
                        "was added .")
    assert got["53 mg ( 0.24 mmol ) of 4-bromophenol , dissolved in 1 ml of DMF"][0] == (
        "np_in_solvent")
    assert got["1 ml of DMF"][0] == "solvent_component"


def test_as_a_solution_in(nlp):
    got = mentions(nlp, "It was treated with 4-bromophenol ( 0.92 g ) as a solution in 3 mL of "
                        "dichloromethane .")
    assert got["4-bromophenol ( 0.92 g ) as a solution in 3 mL of dichloromethane"][0] == (
        "np_in_solvent")


def test_amount_with_moles_right_before_a_name(nlp):
    got = mentions(nlp, "It was prepared by using 1.45 g ( 7 mmol ) L-valine ethyl ester as the "
                        "starting material .")
    assert got["1.45 g ( 7 mmol ) L-valine ethyl ester"][0] == "amount_of_np"


def test_amount_each_of(nlp):
    got = mentions(nlp, "It was washed with 300 ml each of saturated aqueous sodium chloride .")
    assert got["300 ml each of saturated aqueous sodium chloride"][0] == "amount_of_np"


@pytest.mark.parametrize(
    "vessel",
    ["an oven - dried 100 mL round - bottom flask", "a flame - dried flask", "a pressure tube",
     "a sealed pressure vessel", "an oven - dried 100 mL Schlenk tube"],
)
def test_vessel_description_keeps_its_stop_words(nlp, vessel):
    got = mentions(nlp, f"Phenol ( 1 g ) and THF ( 5 mL ) were placed in {vessel} .")
    assert got[vessel][0] == "equipment_np"


@pytest.mark.parametrize(
    "catalyst",
    ["10% palladium on carbon ( 0.5 g )", "20% palladium hydroxide on carbon ( 0.2 g )",
     "Pd on C ( 10% , 0.1 g )", "5% rhodium on alumina ( 50 mg )"],
)
def test_supported_catalyst_is_one_name(nlp, catalyst):
    got = mentions(nlp, f"To a solution of 4-nitrophenol ( 1 g ) in ethanol was added {catalyst} .")
    assert got[catalyst][0] == "np_quantity"
    # the catalyst of a mixture is a mention inside the mixture's
    got = mentions(nlp, f"A mixture of 4-nitrophenol ( 1 g ) and {catalyst} in ethanol ( 5 mL ) "
                        "was stirred under hydrogen .")
    assert got[catalyst][0] == "catalyst_component"
    # "on" joins only a metal to its support
    got = mentions(nlp, "The residue was adsorbed on carbon and poured on ice .")
    assert "carbon" in got and "ice" in got


def test_a_solution_in_several_solvents_is_one_mention(nlp):
    got = mentions(nlp, "A suspension of 4-bromophenol ( 1.0 g ) and LiOH ( 0.4 g ) in THF "
                        "( 10 mL ) and water ( 2.5 mL ) was stirred .")
    assert got["A suspension of 4-bromophenol ( 1.0 g ) and LiOH ( 0.4 g ) in THF ( 10 mL ) and "
               "water ( 2.5 mL )"][0] == "solution_of_list"
    got = mentions(nlp, "To a solution of 4-bromophenol ( 1.0 g ) in a 1 : 1 mixture of THF and "
                        "water ( 10 mL ) was added LiOH .")
    assert got["a solution of 4-bromophenol ( 1.0 g ) in a 1 : 1 mixture of THF and water "
               "( 10 mL )"][0] == "solution_in_mixture"
    # a dissolution names its solvents apart (the training data's convention)
    got = mentions(nlp, "4-Bromophenol ( 1.0 g ) was dissolved in THF ( 10 mL ) and water "
                        "( 2.5 mL ) .")
    assert "THF ( 10 mL )" in got and "water ( 2.5 mL )" in got
