"""chemie_coref: every rule in rules/coref.yaml fires on a hand-written snippet."""

from __future__ import annotations

from itertools import islice

import pytest
from spacy.tokens import Doc

from chemie.coref.component import CorefResolver, coref_table
from chemie.coref.rules import RULES, Context, CorefMention, Features
from chemie.extensions import relations_of
from chemie.formats.chemu import iter_chemu
from chemie.model import Document, Mention, tokens_from_words
from chemie.nlp import SENTENCE_COMPONENTS, annotate, doc_from_document, load
from chemie.resources import load_rules


@pytest.fixture(scope="module")
def nlp():
    return load(ner=False)


def links(nlp, sentences: list[str]) -> list[tuple[str, str, str]]:
    """(anaphor text, antecedent text, rule) of the COREFERENCE links."""
    words = [s.split() for s in sentences]
    text, tokens = tokens_from_words([w for s in words for w in s])
    bounds, pos = [], 0
    for s in words:
        bounds.append((pos, pos + len(s)))
        pos += len(s)
    doc = annotate(nlp, Document("t", text, tokens, bounds))
    index = doc.mention_index()
    return [
        (index[r.head].text, index[r.tail].text, r.rule)
        for r in doc.relations
        if r.label == "COREFERENCE"
    ]


HEADING = "Step 2 : Synthesis of 4-bromo-2-methylbenzoic acid"

CASES = {
    "bracketed_abbreviation": (
        ["1 mL of anhydrous dimethylsulfoxide ( DMSO ) was added ."],
        ("DMSO", "1 mL of anhydrous dimethylsulfoxide"),
    ),
    "referred_to_as": (
        ["4-bromo-2-methylbenzoic acid ( hereinafter referred to as the compound of Example 7 )"
         " was obtained ."],
        ("the compound of Example 7", "4-bromo-2-methylbenzoic acid"),
    ),
    "following_compounds": (
        ["The following compounds were prepared in like manner to the method given in"
         " Example 5 : 4-bromo-2-methylbenzoic acid ( C376 ) Isolated as a tan solid ( 0.15 g ) ."],
        ("4-bromo-2-methylbenzoic acid", "The following compounds"),
    ),
    "as_eluent": (
        ["It was chromatographed on silica gel using hexane / ethyl acetate ( 5 : 1 ) as eluent ."],
        ("eluent", "hexane / ethyl acetate ( 5 : 1 )"),
    ),
    "as_physical_state": (
        ["The residue gave compound 6 ( 1.2 g , 80% ) as a yellow oil ."],
        ("a yellow oil", "compound 6 ( 1.2 g , 80% )"),
    ),
    "heading_label": (
        ["Intermediate 57 4-bromo-2-methylbenzoic acid",
         "Methyl 4-bromo-2-methylbenzoate ( 2.0 g ) was dissolved in methanol ( 20 mL ) ."],
        ("4-bromo-2-methylbenzoic acid", "Intermediate 57"),
    ),
    "starting_material": (
        ["Methyl 4-bromobenzoate ( 2.0 g ) was dissolved in methanol ( 20 mL ) .",
         "TLC showed the starting material was consumed ."],
        ("the starting material", "Methyl 4-bromobenzoate ( 2.0 g )"),
    ),
    "label_colon_name": (
        [HEADING, "Compound l was condensed with Compound g to produce Compound ( 7 ) :"
         " 4-bromo-2-methylbenzoic acid ( 25 mg , yield 31% ) ."],
        ("4-bromo-2-methylbenzoic acid ( 25 mg , yield 31% )", "Compound ( 7 )"),
    ),
    "this_product": (
        ["The residue gave 4-bromophenol ( 4.9 g , yield : 94% ) .",
         "This product was used directly ."],
        ("This product", "4-bromophenol ( 4.9 g , yield : 94% )"),
    ),
    "title_compound": (
        [HEADING, "The residue was purified to give the title compound ( 1.5 g ) ."],
        ("the title compound ( 1.5 g )", "4-bromo-2-methylbenzoic acid"),
    ),
    "compound_number": (
        ["Compound 22 ( 1.0 g ) was dissolved in water .", "Compound 22 was consumed ."],
        ("Compound 22", "Compound 22 ( 1.0 g )"),
    ),
    "repeated_name": (
        ["4-bromo-2-methylbenzoic acid ( 2 g ) was added .",
         "4-bromo-2-methylbenzoic acid was consumed ."],
        ("4-bromo-2-methylbenzoic acid", "4-bromo-2-methylbenzoic acid ( 2 g )"),
    ),
    "the_solvent": (
        ["The mixture was extracted with ethyl acetate .", "The solvent was evaporated ."],
        ("The solvent", "ethyl acetate"),
    ),
    "final_product": (
        [HEADING, "The residue was purified to give 4-bromo-benzoic acid ( 1.5 g , 80% ) ."],
        ("4-bromo-benzoic acid ( 1.5 g , 80% )", "4-bromo-2-methylbenzoic acid"),
    ),
    "analysis_formula": (
        [HEADING, "Purification gave 4-bromo-benzoic acid ( 1.5 g , 80% ) .",
         "Elemental analysis : C8H7BrO2 Theoretical value : C , 44.68%"],
        ("C8H7BrO2", "4-bromo-benzoic acid ( 1.5 g , 80% )"),
    ),
    "drying_agent": (
        ["The organic layer was dried over anhydrous magnesium sulfate .",
         "The insoluble substance was separated by filtration ."],
        ("The insoluble substance", "anhydrous magnesium sulfate"),
    ),
    "definite_repeat": (
        ["The product precipitated as a yellow solid .", "The solid was dried ."],
        ("The solid", "a yellow solid"),
    ),
    "the_catalyst": (
        ["A mixture of 4-nitrobenzoic acid ( 2.0 g ) and 10% palladium on carbon ( 0.2 g ) in"
         " methanol ( 20 mL ) was stirred under hydrogen for 3 h .",
         "The catalyst was filtered off ."],
        ("The catalyst", "10% palladium on carbon ( 0.2 g )"),
    ),
    "described_product": (
        ["The precipitate was collected to give the hydrochloride salt ( 2.5 g , 91% ) .",
         "This salt was suspended in dichloromethane ( 30 mL ) ."],
        ("This salt", "the hydrochloride salt ( 2.5 g , 91% )"),
    ),
    "filter_pad": (
        ["The mixture was filtered through a pad of Celite and the pad was rinsed with ethanol ."],
        ("the pad", "a pad of Celite"),
    ),
}


def test_abbreviation_at_the_end_of_a_bracketed_list(nlp):
    found = links(nlp, ["4-bromo-2-methylbenzoic acid ( reaction scheme 3 , compound 142 ) ."])
    assert ("compound 142", "4-bromo-2-methylbenzoic acid", "bracketed_abbreviation") in found


def test_every_rule_has_a_case():
    assert {r["name"] for r in load_rules("coref.yaml")["rules"]} == set(CASES)
    assert all(r.get("comment") for r in load_rules("coref.yaml")["rules"])


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule_fires(nlp, rule):
    sentences, (anaphor, antecedent) = CASES[rule]
    assert (anaphor, antecedent, rule) in links(nlp, sentences)


def test_surface_links_closest_atomic_links_first():
    sentences = [
        "Compound 22 ( 1.0 g ) was dissolved in water .",
        "Compound 22 was stirred .",
        "Compound 22 was consumed .",
    ]
    surface = links(load(ner=False), sentences)
    atomic = links(load(ner=False, coref="atomic"), sentences)
    assert ("Compound 22", "Compound 22", "compound_number") in surface
    assert all(ant == "Compound 22 ( 1.0 g )" for _, ant, _ in atomic)
    assert len(atomic) == 2


def test_no_links_without_anaphors(nlp):
    assert links(nlp, ["Water ( 5 mL ) and methanol ( 3 mL ) were added ."]) == []


def test_heading_label_for_a_later_heading_name(nlp):
    # "Intermediate 74 : NAME Step A : NAME2": NAME (not the title) refers to its label
    found = links(nlp, [
        "Intermediate 74 : 4-bromo-2-methylbenzoic acid Step A : 4-bromo-2-methylbenzoate",
        "Methyl 4-bromobenzoate ( 2.0 g ) was dissolved in methanol ( 20 mL ) .",
    ])
    assert ("4-bromo-2-methylbenzoic acid", "Intermediate 74", "heading_label") in found


def test_heading_label_not_for_a_starting_material(nlp):
    found = links(nlp, [
        "Synthesis of compound 48 4-bromo-2-methylbenzoic acid ( 0.70 g ) was dissolved .",
    ])
    assert not [f for f in found if f[2] == "heading_label"]


def test_bracketed_example_citation_is_no_abbreviation(nlp):
    found = links(nlp, ["4-bromo-2-methylbenzoic acid ( Example 5 ) ( 2 g ) was added ."])
    assert not [f for f in found if f[0] == "Example 5"]


def test_label_in_a_solution_refers_to_the_compound(nlp):
    found = links(
        nlp, ["To a solution of 4-bromophenol ( 4i , 130 mg ) in THF ( 5 mL ) was added water ."]
    )
    assert ("4i", "4-bromophenol ( 130 mg )", "bracketed_abbreviation") in found
    assert not [f for f in found if f[2] == "repeated_name"]


def test_title_phrase_followed_by_the_name(nlp):
    found = links(
        nlp, [HEADING, "It gave 2.5 g of the target compound 4-bromo-2-methylbenzoic acid ."]
    )
    assert any(rule == "title_compound" and ana.startswith("2.5 g of the target compound")
               for ana, _, rule in found)


def test_yield_statement_is_the_final_product(nlp):
    found = links(nlp, [HEADING, "The residue was purified . Yield : 0.15 g ( 58% of theory ) ."])
    assert ("Yield : 0.15 g ( 58% of theory )", "4-bromo-2-methylbenzoic acid",
            "final_product") in found


def test_number_sign_keeps_the_compound_number(nlp):
    found = links(nlp, ["Compound No . 5 ( 20 mg ) was dissolved in water .",
                        "Then compound 5 was stirred ."])
    assert found == [("compound 5", "Compound No . 5 ( 20 mg )", "compound_number")]


def marked_links(nlp, sentences: list[str]) -> list[tuple[str, str, str]]:
    """COREFERENCE links over given mentions: ``{ … }`` (separate tokens) mark each mention."""
    words, bounds, spans, pos = [], [], [], 0
    for s in sentences:
        start = pos
        for w in s.split():
            if w == "{":
                spans.append([pos, None])
            elif w == "}":
                next(sp for sp in reversed(spans) if sp[1] is None)[1] = pos - 1
            else:
                words.append(w)
                pos += 1
        bounds.append((start, pos))
    text, tokens = tokens_from_words(words)
    mentions = []
    for n, (a, b) in enumerate(spans, 1):
        lo, hi = tokens[a].start, tokens[b].end
        mentions.append(Mention(f"T{n}", ((lo, hi),), text=text[lo:hi]))
    doc = annotate(nlp, Document("t", text, tokens, bounds, mentions), gold_mentions=True)
    index = doc.mention_index()
    return [
        (index[r.head].text, index[r.tail].text, r.rule)
        for r in doc.relations
        if r.label == "COREFERENCE"
    ]


def test_marked_mentions_fire_the_abbreviation_rule(nlp):
    found = marked_links(nlp, ["{ 1 mL of dimethylsulfoxide } ( { DMSO } ) was added ."])
    assert found == [("DMSO", "1 mL of dimethylsulfoxide", "bracketed_abbreviation")]


@pytest.mark.parametrize("sentence", [
    "1H NMR ( { 400MHz } , { CDCl3 } ) δ 7.26 .",  # an NMR frequency is not abbreviated
    "{ Tert-butyl } ( { 3-aminophenyl } ) carbamate was added .",  # substituents of a name
    "It was quenched with { NH4Cl } ( { saturated solution } ) .",  # a state, no abbreviation
    "It was extracted with { diethyl ether } ( { 3x75ml } ) .",  # an amount
    # an eluent of solvents and a stationary phase in brackets
    "It was purified on { NH silica gel } ( { chloroform / methanol } ) .",
    "{ the residue } ( { silica gel } ) was purified .",
])
def test_bracketed_words_that_are_no_abbreviation(nlp, sentence):
    assert marked_links(nlp, [sentence]) == []


def test_a_cited_example_is_no_compound_number(nlp):
    found = marked_links(nlp, ["It was made from { Example 4 } .", "{ Example 4 } was added ."])
    assert found == []
    found = marked_links(nlp, ["It was made from { Compound 4 } .", "{ Compound 4 } was added ."])
    assert found == [("Compound 4", "Compound 4", "compound_number")]


def test_state_refers_to_the_name_not_to_its_label(nlp):
    found = links(nlp, ["The filtrate was concentrated to give tert-butyl 4-oxopiperidine-1-"
                        "carboxylate ( 4a ) ( 3.76 g , 78% ) as a colorless oil ."])
    assert ("a colorless oil", "tert-butyl 4-oxopiperidine-1-carboxylate ( 3.76 g , 78% )",
            "as_physical_state") in found
    # the label in the gap of a discontinuous name is no target of later links either
    found = links(nlp, ["The residue gave the title compound 4-bromo-2-methylbenzoic acid 6b"
                        " ( 62 mg , yield 41% ) as a yellow oil ."])
    assert [ant for ana, ant, _ in found if ana == "a yellow oil"] == [
        "the title compound 4-bromo-2-methylbenzoic acid ( 62 mg , yield 41% )"]


def test_state_refers_to_the_subject_of_a_passive_synthesis(nlp):
    # one sentence with the heading: the subject is not the first mention of the sentence
    found = links(nlp, ["Preparation of 4-bromo-2-methylbenzoic acid ( Compound 27 )"
                        " Compound 27 was synthesized from methyl 4-bromobenzoate ( 90 mg ) and"
                        " triethylamine ( 70 μL , 0.51 mmol ) as a white solid ( 23 mg , 19% ) ."])
    assert ("a white solid ( 23 mg , 19% )", "Compound 27", "as_physical_state") in found


EXTRACTION = ["Compound 5 ( 1.0 g ) and pyridine ( 0.1 mL , 1.2 mmol ) were dissolved in"
              " toluene ( 10 mL ) .", "The mixture was extracted with ethyl acetate ( 20 mL ) ."]


def test_the_solvent_is_every_solvent_of_the_mixture(nlp):
    found = links(nlp, [*EXTRACTION, "The solvent was evaporated ."])
    # the extraction solvent and the reaction solvent, not the reagent with a molar amount
    assert sorted(ant for ana, ant, _ in found if ana == "The solvent") == [
        "ethyl acetate ( 20 mL )", "toluene ( 10 mL )"]
    found = links(nlp, [*EXTRACTION, "The organic solvent was evaporated ."])
    assert [ant for ana, ant, _ in found if ana == "The organic solvent"] == [
        "ethyl acetate ( 20 mL )"]


def test_the_solvent_after_an_earlier_removal(nlp):
    found = links(nlp, [*EXTRACTION, "The solvent was evaporated .",
                        "The residue was dissolved in methanol ( 5 mL ) .",
                        "The solvent was removed ."])
    second = [ant for ana, ant, _ in found if ana == "The solvent"][-1]
    assert second == "methanol ( 5 mL )"
    assert len([ana for ana, _, _ in found if ana == "The solvent"]) == 3


def test_heading_ends_at_a_capitalised_preposition(nlp):
    # "In" is no heading label like "3a": the title is the heading's name, not "ethanol"
    found = links(nlp, ["Example 164A 4-bromo-2-methylbenzoic acid In a microwave oven , ethanol"
                        " and methyl 4-bromobenzoate ( 2 g ) were heated .",
                        "The residue was purified to give the title compound ( 1.5 g ) ."])
    assert ("the title compound ( 1.5 g )", "4-bromo-2-methylbenzoic acid",
            "title_compound") in found


def test_the_label_of_the_final_product_is_the_title_compound(nlp):
    found = links(nlp, [HEADING, "Compound l was condensed with Compound g to produce"
                        " Compound ( 4 ) : 4-bromo-benzoic acid ( 25 mg , yield 31% ) ."])
    assert ("Compound ( 4 )", "4-bromo-2-methylbenzoic acid", "final_product") in found


@pytest.mark.parametrize("label", ["Compound No . 1", "compound ( IU )"])
def test_a_label_of_several_words_is_an_abbreviation(nlp, label):
    found = links(nlp, [f"Step 7 : 4-bromo-2-methylbenzoic acid ( {label} )",
                        "Methyl 4-bromobenzoate ( 40 mg ) was dissolved in THF ( 2 mL ) ."])
    assert (label, "4-bromo-2-methylbenzoic acid", "bracketed_abbreviation") in found


def test_the_ice_is_no_repeated_name(nlp):
    assert links(nlp, ["The flask was cooled with ice .", "The ice was removed ."]) == []
    found = links(nlp, ["Toluene ( 5 mL ) was added .", "The toluene was removed ."])
    assert ("The toluene", "Toluene ( 5 mL )", "repeated_name") in found


def test_the_solvent_is_no_reagent_and_no_solvent_of_an_earlier_step(nlp):
    found = links(nlp, ["Compound 5 ( 1.0 g ) was dissolved in DCM ( 1.2 mL ) and pyridine"
                        " ( 0.6 mL , 7.8 mmol ) was added .", "The solvent was removed ."])
    assert [ant for ana, ant, _ in found if ana == "The solvent"] == ["DCM ( 1.2 mL )"]
    found = links(nlp, ["Compound 5 ( 1.0 g ) was dissolved in DCM ( 1.2 mL ) and dioxane"
                        " ( 4M , 2 mL ) was added .", "The solvent was removed ."])
    assert [ant for ana, ant, _ in found if ana == "The solvent"] == ["DCM ( 1.2 mL )"]
    found = links(nlp, ["Compound 5 ( 1.0 g ) in toluene ( 10 mL ) gave compound 6"
                        " ( 0.8 g , 80% ) .",
                        "Compound 6 ( 0.5 g ) was dissolved in methanol ( 5 mL ) .",
                        "The solvent was removed ."])
    assert [ant for ana, ant, _ in found if ana == "The solvent"] == ["methanol ( 5 mL )"]


def test_final_product_links_the_latest_mention_of_the_heading_compound(nlp):
    # surface: the closest earlier member of the heading compound's chain
    found = links(nlp, [HEADING, "The desired compound was prepared as in Example 1 .",
                        "Purification gave 4-bromo-benzoic acid ( 1.5 g , 80% ) ."])
    assert ("4-bromo-benzoic acid ( 1.5 g , 80% )", "The desired compound",
            "final_product") in found


def test_the_raw_material_is_every_reactant_in_the_same_molar_amount(nlp):
    found = links(nlp, ["Methyl 2,6-dichloronicotinate ( 1.65 g , 8 mmol ) and 4-chlorophenol"
                        " ( 1.26 g , 8 mmol ) were dissolved in DMF ( 10 mL ) .",
                        "Triethylamine ( 1.45 mL , 10.4 mmol ) was added .",
                        "TLC showed that the raw material was consumed ."])
    assert sorted(ant for ana, ant, _ in found if ana == "the raw material") == [
        "4-chlorophenol ( 1.26 g , 8 mmol )", "Methyl 2,6-dichloronicotinate ( 1.65 g , 8 mmol )"]


def test_an_amount_is_no_part_of_a_repeated_name(nlp):
    # "50 mL CH2Cl2" twice: two portions of a solvent, not one specific compound
    assert links(nlp, ["The mixture was extracted with 50 mL CH2Cl2 .",
                       "The aqueous layer was washed with 50 mL CH2Cl2 ."]) == []
    found = links(nlp, ["It was diluted with 50 mL 4-bromo-2-methylbenzoic acid .",
                        "Then 20 mL 4-bromo-2-methylbenzoic acid was added ."])
    assert ("20 mL 4-bromo-2-methylbenzoic acid", "50 mL 4-bromo-2-methylbenzoic acid",
            "repeated_name") in found


def test_rules_left_out_for_a_kind_reject_that_kind():
    """The resolver skips a rule for anaphor kinds it lists; each such rule itself refuses a
    mention of another kind (so skipping it changes nothing)."""
    resolver = CorefResolver(coref_table())
    kinds_of = {name: spec.kinds for name, spec in RULES.items() if spec.kinds is not None}
    assert set(kinds_of) <= {name for name, _, _ in resolver.order}
    params = {name: p for name, _, p in resolver.order}
    ante = Mention("T1", ((0, 4),), text="NAME", quantity=True)
    anaphor = Mention("T2", ((10, 14),), text="NAME 5%", quantity=True)

    def view(m, i, kind):
        return CorefMention(m, i, i * 3, i * 3 + 1, "the name", kind, "solvent", "the", 0,
                            "5", "name", [(i * 3, i * 3 + 1)], "as", True, "name")

    for name, kinds in kinds_of.items():
        rule = RULES[name].fn
        for kind in ("equipment", "generic", "state", "reference", "chemical"):
            if kind in kinds:
                continue
            ms = [view(ante, 0, "chemical"), view(anaphor, 1, kind)]
            c = Context(resolver.table, ["x"] * 10, ["x"] * 10, ms, ms[0], 10)
            assert not rule(c, params[name], ms[1]), (name, kind)
    featureless = [n for n, _, _ in resolver.rules_for(Features("equipment", "", "", "",
                                                                 *[False] * 11))]
    assert featureless == []
    everything = [
        n for head in ("solid", "solvent")
        for n, _, _ in resolver.rules_for(Features("chemical", "the", head, "", *[True] * 11))
    ]
    assert "definite_repeat" in everything and "the_solvent" in everything


def test_the_rule_dispatch_changes_no_link(nlp, corpus):
    """Trying every rule on every anaphor gives the links of the dispatch by features (which
    leaves out the rules whose first tests reject the anaphor)."""
    plain = CorefResolver(coref_table())
    plain.rules_for = lambda features: list(plain.order)  # every rule, in order
    resolver = nlp.get_pipe("chemie_coref")
    tried = 0
    for document in islice(iter_chemu(corpus("chemu-ref/train.jsonl")), 80):
        document.mentions.clear()
        document.relations.clear()
        doc = doc_from_document(nlp, document)
        for name, proc in nlp.pipeline:
            if name == "chemie_coref":
                break
            if name not in SENTENCE_COMPONENTS:
                doc = proc(doc)
        relations = relations_of(doc)
        found = []
        for coref in (resolver, plain):
            first = len(relations)
            coref(doc)
            found.append([(r.head, r.tail, r.rule, r.id) for r in relations[first:]])
            del relations[first:]
        assert found[0] == found[1], document.id
        tried += bool(found[0])
    assert tried > 40


def test_a_numbered_raw_material_is_the_role_of_the_compound_before_as(nlp):
    found = links(nlp, ["The product ( 1.3 g , yield : 58% ) as a white solid was obtained by"
                        " using 4-bromophenol as Raw material 2 ."])
    assert ("Raw material 2", "4-bromophenol", "as_eluent") in found
    assert not any(ana == "Raw material 2" and rule == "as_physical_state"
                   for ana, _, rule in found)


def test_the_solvent_after_an_aqueous_work_up(nlp):
    # water was added after the reaction in DMF: the DMF went with the aqueous phase
    found = links(nlp, ["Compound 5 ( 1.0 g ) was dissolved in DMF ( 10 mL ) .",
                        "Water was added and the mixture was extracted with ethyl acetate"
                        " ( 20 mL ) and ethyl acetate ( 10 mL ) .", "The solvent was evaporated ."])
    assert sorted(ant for ana, ant, _ in found if ana == "The solvent") == [
        "ethyl acetate ( 10 mL )", "ethyl acetate ( 20 mL )"]


def test_a_compound_used_as_catalyst(nlp):
    found = links(nlp, ["Ruthenium complex 2b ( 2.4 mg , 0.004 mmol ) was used as catalyst ."])
    assert ("catalyst", "Ruthenium complex 2b ( 2.4 mg , 0.004 mmol )", "as_eluent") in found


def test_a_solvent_weighed_in_grams_is_a_reagent(nlp):
    found = links(nlp, ["Compound 5 ( 1.0 g ) and pyridine ( 0.48 g ) were dissolved in"
                        " dichloromethane ( 15 mL ) .", "The solvent was evaporated ."])
    assert sorted(ant for ana, ant, _ in found if ana == "The solvent") == [
        "dichloromethane ( 15 mL )"]


def test_a_concentration_is_no_yield_of_the_final_product(nlp):
    found = links(nlp, [HEADING, "Purification on silica gel with 0-15% ethyl acetate / hexane"
                        " gave the title compound ( 1.5 g ) ."])
    assert not any(rule == "final_product" for _, _, rule in found), found
    title = ("the title compound ( 1.5 g )", "4-bromo-2-methylbenzoic acid", "title_compound")
    assert title in found


def test_a_removed_solvent_is_a_repeated_name(nlp):
    # "to remove methanol": the methanol added before, though a solvent has no specific name
    found = links(nlp, ["Compound 5 ( 1.0 g ) was dissolved in methanol ( 3 mL ) .",
                        "The mixture was concentrated to remove methanol ."])
    assert ("methanol", "methanol ( 3 mL )", "repeated_name") in found
    found = links(nlp, ["The organic layer was dried over anhydrous magnesium sulfate .",
                        "Magnesium sulfate was filtered off ."])
    assert ("Magnesium sulfate", "anhydrous magnesium sulfate", "repeated_name") in found
    # without a verb of removal a repeated solvent is another portion, not a coreferent
    found = links(nlp, ["Compound 5 ( 1.0 g ) was dissolved in methanol ( 3 mL ) .",
                        "The residue was washed with methanol ."])
    assert not [f for f in found if f[2] == "repeated_name"]


def test_a_mass_calculated_for_a_formula_is_no_analysis(nlp):
    found = links(nlp, [HEADING, "Purification gave 4-bromo-benzoic acid ( 1.5 g , 80% ) .",
                        "HRMS calcd for C8H7BrO2 213.96 ; found 213.97 ."])
    assert not [f for f in found if f[2] == "analysis_formula"]


def test_a_numbered_heading_word_in_one_token(nlp):
    # "(3)Preparation of X": the tokenizer keeps the step number on the heading word
    found = links(nlp, ["(3)Preparation of 2-methoxy-4-methyl-6-nitrophenol",
                        "2-Methoxy-4-methylphenol ( 30.0 g ) was dissolved in chloroform .",
                        "Filtration gave the product ( 20 g , yield : 50% ) ."])
    assert ("the product ( 20 g , yield : 50% )", "2-methoxy-4-methyl-6-nitrophenol",
            "title_compound") in found


def test_the_product_right_after_a_yield_statement(nlp):
    found = links(nlp, ["The residue gave 4-bromophenol ( 1.3 g , 81% yield ) as a white solid .",
                        "The product was dried ."])
    assert ("The product", "a white solid", "this_product") in found
    # no yield statement just before: "the product" is the crude product of a later step
    found = links(nlp, ["The residue gave 4-bromophenol ( 1.3 g , 81% yield ) .",
                        "It was dissolved in methanol ( 5 mL ) .", "The mixture was stirred .",
                        "The product was filtered off ."])
    assert not [f for f in found if f[0] == "The product"]


def test_a_heading_name_with_a_generic_head_is_the_title(nlp):
    # "NAME ammonium salt": a chemical name that ends in a generic noun
    found = links(nlp, ["Example 9 4-bromo-2-methylbenzoic acid ammonium salt",
                        "The title compound was synthesized by the procedure of Example 3 ."])
    assert ("The title compound", "4-bromo-2-methylbenzoic acid ammonium salt",
            "title_compound") in found


def test_a_precipitated_solid_is_no_drying_agent(nlp):
    found = links(nlp, ["The organic layer was dried over anhydrous magnesium sulfate .",
                        "The precipitated solid was filtered off ."])
    assert not [f for f in found if f[2] == "drying_agent"]


def test_a_name_after_a_label_and_a_comma(nlp):
    found = links(nlp, [HEADING, "Chromatography afforded Compound B5 , 4-bromo-benzoic acid"
                        " ( 1.5 g ) ."])
    assert ("4-bromo-benzoic acid ( 1.5 g )", "Compound B5", "label_colon_name") in found


def test_a_descriptor_bracket_in_the_heading_is_no_quantity(nlp):
    found = links(nlp, ["Example 341 4-bromo-2-methylbenzoic acid ( racemate )",
                        "The residue was purified by HPLC .",
                        "187 mg ( 47.5% of theory ) of the title compound were obtained ."])
    assert ("187 mg ( 47.5% of theory ) of the title compound",
            "4-bromo-2-methylbenzoic acid ( racemate )", "title_compound") in found


def test_a_heading_name_may_start_with_a_number(nlp):
    found = links(nlp, ["5 . Synthesis of 3 , 7-dihydroxy-6-ethyl-5-cholan-24-oic acid",
                        "To a flask was added water .",
                        "The residue was purified to afford the target compound"
                        " ( 0.64 g , 71% ) ."])
    assert ("the target compound ( 0.64 g , 71% )",
            "3 , 7-dihydroxy-6-ethyl-5-cholan-24-oic acid", "title_compound") in found


def test_the_class_letters_coref_reads_are_the_letters_the_tagger_gives(nlp):
    """coref.py tests class letters (rules/mentions.yaml ``alphabet``) by name; each name holds
    the letters the tagger gives real tokens of its sort, so a change of the alphabet fails
    here instead of silently changing what coref reads."""
    from chemie.coref import component as coref
    from chemie.mentions.tagger import default_tagger

    tagger = default_tagger()

    def letter(text: str, word: str) -> str:
        """The class letter of the first ``word`` of ``text`` (tokens split at spaces)."""
        words, cs, _low = tagger.class_string(Doc(nlp.vocab, words=text.split()))
        return cs[words.index(word)]

    def letters(text: str, *words: str) -> frozenset[str]:
        return frozenset(letter(text, w) for w in words)

    mixture = "Water ( 5 mL ) in hexane : EtOAc = 1 , 2 was added . It was stirred ."
    new_name = letter("Example 76A Methyl 4-bromobenzoate was added .", "Methyl")
    new_number = letter("The acid 8.0 ml ( 3 mmol ) of phenol was added .", "8.0")
    assert new_name != letter("Methyl 4-bromobenzoate was added .", "Methyl")
    assert new_number != letter("8.0 ml of phenol was added .", "8.0")
    number_sign = letter("Compound No . 5 was added .", "No")

    assert coref._NOT_CORE == letters(mixture, "(", ")", ",", ".", ":", "=") | {number_sign}
    assert coref._NAME_CLASSES == letters(
        "Water , X-Phos , 1b , 12 and 4-bromophenol were added .",
        "Water", "X-Phos", "1b", "12", "4-bromophenol",
    ) | {new_name, new_number}
    assert coref._NUMBER == letter(mixture, "5") and coref._UNIT == letter(mixture, "mL")
    assert coref._IDENT == letter("Compound 1b was added .", "1b")
    assert coref._TEXT_START == letters("The solid was added .", "The", "was")
    assert coref._IN == letter(mixture, "in")
    assert coref._AMOUNT_START == letters("5 g and 7.13g were added .", "5", "7.13g") | {
        new_number}
    assert coref._NEW_NAME == new_name


def test_described_product_needs_a_product_named_just_before(nlp):
    """"The crude amine" after a concentration names no product: no link; "to give the free
    base" is a product named, no anaphor."""
    found = links(nlp, ["The filtrate was concentrated .", "The crude amine was dissolved in"
                        " ethanol ."])
    assert not [f for f in found if f[2] == "described_product"]
    found = links(nlp, ["It gave 4-bromoaniline hydrochloride ( 2.0 g , 90% ) .",
                        "It was washed with sodium bicarbonate to give the free base as an oil ."])
    assert not [f for f in found if f[0] == "the free base"]
    found = links(nlp, ["It was concentrated to afford a film .", "This material was purified"
                        " by chromatography ."])
    assert ("This material", "a film", "described_product") in found


def test_crystal_habit_is_the_product_it_describes(nlp):
    found = links(nlp, [HEADING, "Recrystallisation from hexane gave the title compound as"
                        " colourless needles ( 1.6 g , 78% ) ."])
    assert ("colourless needles", "the title compound ( 1.6 g , 78% )", "as_physical_state") in (
        found)


def test_the_solvent_skips_a_solvent_removed_and_covers_each_solvent(nlp):
    found = links(nlp, [
        "4-Bromophenol ( 1.5 g ) was dissolved in acetone ( 30 mL ) .",
        "The acetone was removed and the residue was taken up in ethyl acetate ( 50 mL ) and"
        " toluene ( 10 mL ) .",
        "The organic solvents were washed with brine and the solvent was evaporated ."])
    plural = {ant for ana, ant, rule in found if ana == "The organic solvents"}
    assert plural == {"ethyl acetate ( 50 mL )", "toluene ( 10 mL )"}
    assert not [f for f in found if f[0] == "the solvent" and "acetone" in f[1]]


def test_a_final_salt_is_the_heading_compound(nlp):
    """A product named by its class with its yield, or a form after "as", is the product."""
    heading = "Step 4 : 4-(4-Fluorophenyl)piperidine hydrochloride"
    found = links(nlp, [heading, "The residue was triturated with ether to give the"
                        " hydrochloride salt ( 1.4 g , 90% ) ."])
    assert ("the hydrochloride salt ( 1.4 g , 90% )", "4-(4-Fluorophenyl)piperidine"
            " hydrochloride", "final_product") in found
    found = links(nlp, [heading, "The precipitate was collected to give the title compound as"
                        " its hydrochloride salt ( 1.4 g , 90% ) ."])
    assert ("its hydrochloride salt ( 1.4 g , 90% )", "the title compound",
            "as_physical_state") in found
