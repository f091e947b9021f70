"""chemie_roles: every rule of rules/roles.yaml fires on a hand-written snippet; the API."""

from __future__ import annotations

import pytest

import chemie
from chemie.context import roles_of
from chemie.roles.table import role_table

# rule -> (snippet, span text, label): running the pipeline on the snippet labels the span
# with the label by that rule (hand-written snippets, not corpus text)
CASES: dict[str, tuple[str, str, str]] = {
    "heading_label": (
        "Example 12 4-Chlorobenzoic acid 4-Chlorotoluene (2.0 g) was heated in water.",
        "12", "EXAMPLE_LABEL",
    ),
    "opening_label": (
        "7.3: 4-Chlorobenzoic acid 4-Chlorotoluene (2.0 g) was heated in water.",
        "7.3", "EXAMPLE_LABEL",
    ),
    "product_yield": ("The mixture was concentrated to give the crude product (0.44 g).",
                      "0.44 g", "YIELD_OTHER"),
    "yield_bracket": ("The residue was purified to give a white solid (0.25 g, 77%).",
                      "0.25 g", "YIELD_OTHER"),
    "described_yield": ("The residue was purified to give 4-bromoaniline as a colorless liquid "
                        "(2.6 g).", "2.6 g", "YIELD_OTHER"),
    "bracketed_heading_label": ("[Step 2] Synthesis of 4-bromoaniline 4-Bromotoluene (2.0 g) was "
                                "heated in water for 2 h.", "2", "EXAMPLE_LABEL"),
    "referred_product": ("The residue was purified to give 4-bromoaniline (0.02 g, 79%) "
                         "(hereinafter referred to as the compound of Example 7) as a white "
                         "solid.", "compound of Example 7", "REACTION_PRODUCT"),
    "isolated_product": ("The mixture was stirred for 2 h. 4-Bromoaniline (C23) Isolated as a "
                         "tan solid (0.15 g, 42%).", "4-Bromoaniline", "REACTION_PRODUCT"),
    "amount_percent": ("The residue was purified by chromatography. Yield: 870.7 mg (70%).",
                       "70%", "YIELD_PERCENT"),
    "yield_neighbour": ("The residue was purified by chromatography. Light yellow solid, 180 mg, "
                        "54% yield.", "180 mg", "YIELD_OTHER"),
    "step_heading_product": ("The mixture was stirred for 2 h. Step 2: Synthesis of 4-bromoaniline "
                             "To a solution of 4-bromotoluene (1.0 g) in THF was added "
                             "triethylamine (1 mL).", "4-bromoaniline", "REACTION_PRODUCT"),
    "yield_word": ("4-Bromoaniline was obtained in 91% yield.", "91%", "YIELD_PERCENT"),
    "yield_amount": ("Chromatography gave 1.3 g of a white solid.", "1.3 g", "YIELD_OTHER"),
    "aqueous_solvent": (
        "4-Bromoaniline (1.0 g) and 2 M aqueous potassium carbonate (5 mL) were heated at "
        "80 °C for 2 h.", "aqueous", "SOLVENT",
    ),
    "prepared_product": ("Compound 18 was prepared in the same manner as in Example 2.", "18",
                         "REACTION_PRODUCT"),
    "bracket_label": ("The mixture was concentrated to give 4-bromoaniline (7b) (0.52 g, 61%).",
                      "7b", "REACTION_PRODUCT"),
    "title_reference": ("The title compound was dried.", "title compound", "REACTION_PRODUCT"),
    "reagent_by_name": ("Palladium(II) acetate (10 mg) was added to a solution of "
                        "4-bromoaniline (1.0 g) in THF (10 mL).", "Palladium(II) acetate",
                        "REAGENT_CATALYST"),
    "reagent_formula": ("POCl3 (1.0 mL) was added to 4-bromoaniline (1.0 g).", "POCl3",
                        "REAGENT_CATALYST"),
    "workup_antecedent": ("4-Chlorotoluene (2.0 g) was added to toluene (5 mL). Ethyl acetate "
                          "(10 mL) was added and the organic layer was separated.",
                          "Ethyl acetate", "OTHER_COMPOUND"),
    "reagent_by_class": ("4-Bromoaniline (1.0 g) and 4-methylmorpholine (0.7 g) were stirred "
                         "in THF (5 mL).", "4-methylmorpholine", "REAGENT_CATALYST"),
    "coreferent_product": ("Example 5 4-Chlorobenzoic acid 4-Chlorotoluene (2.0 g) was heated "
                           "in water (5 mL) for 2 h. 4-Chlorobenzoic acid (1.5 g) was dissolved "
                           "in ethanol.", "4-Chlorobenzoic acid", "REACTION_PRODUCT"),
    "temperature_degrees": ("The mixture was heated at 85 °C for 3 h.", "85 °C", "TEMPERATURE"),
    "temperature_words": ("The mixture was stirred at room temperature.", "room temperature",
                          "TEMPERATURE"),
    "temperature_reflux": ("The mixture was heated at reflux for 3 h.", "reflux",
                           "TEMPERATURE"),
    "time_units": ("The mixture was stirred for 45 minutes.", "45 minutes", "TIME"),
    "yield_step": ("The residue was purified by chromatography to afford 4-bromoaniline "
                   "(0.52 g, 61%).", "afford", "REACTION_STEP"),
    "prepare_step": ("The residue was purified by column chromatography to prepare the title "
                     "compound (400 mg, 68%).", "prepare", "REACTION_STEP"),
    "reaction_step": ("Triethylamine (1.0 mL) was added to a solution of 4-bromoaniline "
                      "(1.0 g) in THF (10 mL).", "added", "REACTION_STEP"),
    "workup_addition": ("After completion of the reaction, brine was added to the mixture.",
                        "added", "WORKUP"),
    "workup_step": ("The mixture was extracted with ethyl acetate.", "extracted", "WORKUP"),
    "heading_target": (
        "Intermediate 7: 4-Chlorobenzoic acid Step A: 4-Chlorobenzonitrile A solution of "
        "4-chlorotoluene (2.0 g) in water (5 mL) was heated.", "4-Chlorobenzoic acid",
        "OTHER_COMPOUND",
    ),
    "heading_product": (
        "Step 3: 4-Chlorobenzoic acid A solution of 4-chlorotoluene (2.0 g) in water (5 mL) "
        "was heated.", "4-Chlorobenzoic acid", "REACTION_PRODUCT",
    ),
    "yield_product": ("The mixture was concentrated to give 4-bromoaniline (0.52 g, 61%).",
                      "4-bromoaniline", "REACTION_PRODUCT"),
    "quantified_product": ("The mixture was concentrated. 4-Bromoaniline (0.52 g, 61%) as a "
                           "brown solid.", "4-Bromoaniline", "REACTION_PRODUCT"),
    "bath_medium": ("The flask was cooled in an ice-water bath and 4-bromoaniline (1.0 g) was "
                    "added.", "water", "OTHER_COMPOUND"),
    "analysis_compound": ("4-Bromoaniline (1.0 g) was stirred and monitored by TLC (hexane).",
                          "hexane", "OTHER_COMPOUND"),
    "other_procedure": ("4-Chloroaniline was used instead of 4-bromoaniline in the same "
                        "procedure.", "4-bromoaniline", "OTHER_COMPOUND"),
    "supports": ("The residue was purified on silica gel.", "silica gel", "OTHER_COMPOUND"),
    "workup_compound": ("The mixture was extracted with ethyl acetate.", "ethyl acetate",
                        "OTHER_COMPOUND"),
    "atmosphere": ("4-Bromoaniline (1.0 g) was stirred under nitrogen for 2 h.", "nitrogen",
                   "OTHER_COMPOUND"),
    "solvent_after_in": ("4-Bromoaniline (1.0 g) was dissolved in methanol (10 mL).",
                         "methanol", "SOLVENT"),
    "solvent_after_slash": ("4-Bromoaniline (1.0 g) was dissolved in ethanol (8 mL)/water "
                            "(2 mL).", "water", "SOLVENT"),
    "solvent_argument": ("4-Bromoaniline (1.0 g) was dissolved in a mixture of THF (10 mL).",
                         "THF", "SOLVENT"),
    "known_reagent": ("Triethylamine (1.0 mL) was added to a solution of 4-bromoaniline "
                      "(1.0 g) in THF (10 mL).", "Triethylamine", "REAGENT_CATALYST"),
    "known_solvent": ("Acetonitrile (5 mL) was added to 4-bromoaniline (1.0 g).",
                      "Acetonitrile", "SOLVENT"),
    "reactant": ("Triethylamine (1.0 mL) was added to a solution of 4-bromoaniline (1.0 g) "
                 "in THF (10 mL).", "4-bromoaniline", "STARTING_MATERIAL"),
}
# rules whose spans are not entities (a reference that is no product): snippet and span text
NOT_LABELLED: dict[str, tuple[str, str]] = {
    "other_reference": ("The crude product was purified by chromatography.", "crude product"),
    "generic_reference": ("The resultant crude product was purified by chromatography.",
                          "resultant crude product"),
    "source_reference": ("The mixture was stirred at 50 °C for 1 h. To a solution of "
                         "4-bromotoluene [Example 2, Step 3] (2 g) in THF (5 mL) was added "
                         "triethylamine (1 mL).", "Example 2"),
    "following_reference": ("The following compounds were prepared in like manner.",
                            "following compounds"),
    "layer": ("The water layer was extracted with ether.", "water"),
    "other_state": ("The solid was filtered and dried.", "solid"),
    "described_state": ("The mixture was concentrated to give 4-bromoaniline as a white solid "
                        "(0.52 g, 61%).", "solid"),
}


# rules that read the role lexicon: fired with a lexicon written by the test
LEXICON_CASES: dict[str, tuple[str, str, str]] = {
    "training_reagent": ("Zylomide (1.0 g) was added to 4-bromoaniline (1.0 g).", "Zylomide",
                         "REAGENT_CATALYST"),
    "training_starting_material": ("Zylomide (1.0 g) was added to 4-bromoaniline (1.0 g).",
                                   "4-bromoaniline", "STARTING_MATERIAL"),
    "training_solvent": ("4-Bromoaniline (1.0 g) was added to quinolane (5 mL).", "quinolane",
                         "SOLVENT"),
}
LEXICON = (
    "# name\tstarting_material\treagent_catalyst\tsolvent\n"
    "zylomide\t1\t3\t0\n4-bromoaniline\t2\t0\t0\nquinolane\t0\t1\t4\n"
    "tied\t1\t1\t0\n"
)


@pytest.fixture(scope="module")
def nlp(tmp_path_factory):
    """The pipeline with an empty role lexicon (the other rules fire whatever the shipped
    lexicon holds)."""
    path = tmp_path_factory.mktemp("empty") / "roles.tsv"
    path.write_text(LEXICON.splitlines()[0] + "\n", encoding="utf-8")
    return chemie.load(roles={"lexicon": str(path)})


@pytest.fixture(scope="module")
def lexicon_nlp(tmp_path_factory):
    path = tmp_path_factory.mktemp("lexicon") / "roles.tsv"
    path.write_text(LEXICON, encoding="utf-8")
    return chemie.load(roles={"lexicon": str(path)})


def roles(nlp, text: str) -> list[tuple[str, str, str]]:
    doc = nlp(text)
    return [(r.text, r.label, r.rule) for r in roles_of(doc)]


def test_every_rule_has_a_case_and_a_comment():
    table = role_table()
    assert set(table.rule_names()) == set(CASES) | set(NOT_LABELLED) | set(LEXICON_CASES)
    rules = [*table.builtin, *table.conditions, *table.triggers, *table.compounds,
             *table.reactant_or_reagent]
    assert all(r.comment for r in rules)


def test_every_compound_rule_is_a_registered_function_and_an_entry():
    from chemie.roles.rules import RULES

    table = role_table()
    names = [r.name for r in (*table.compounds, *table.reactant_or_reagent)]
    assert sorted(names) == sorted(RULES)


def test_the_reactant_or_reagent_stage_is_one_replaceable_call(tmp_path):
    """The stage decides the compounds no compound rule labels; another decision can take
    its place (what the structure-based decision of the reaction records will do)."""
    nlp = chemie.load(roles=True)
    text = CASES["reactant"][0]
    before = {(t, label) for t, label, _ in roles(nlp, text)}
    assert ("4-bromoaniline", "STARTING_MATERIAL") in before
    nlp.get_pipe("chemie_roles").stage = lambda c, x: ("REAGENT_CATALYST", "test_stage")
    after = roles(nlp, text)
    assert ("4-bromoaniline", "REAGENT_CATALYST", "test_stage") in after
    assert ("THF", "SOLVENT", "solvent_after_in") in after  # a compound rule: not the stage


@pytest.mark.corpus
def test_cues_only_save_time(corpus, tmp_path):
    """A rule's cues leave out only documents its pattern cannot match in: the table with
    every cue removed labels the first 80 development documents alike."""
    import yaml

    from chemie.resources import rules_path
    from chemie.roles_evaluation import gold_documents, jsonl_order

    data = yaml.safe_load(rules_path("roles.yaml").read_text(encoding="utf-8"))
    assert any("cues" in r for r in data["compounds"])
    for r in (*data["compounds"], *data["reactant_or_reagent"]):
        r.pop("cues", None)
    path = tmp_path / "roles.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    order = jsonl_order(corpus("chemu-ref/train.jsonl"))
    docs = gold_documents(corpus("chemu2020/train"), 0, 80, order)
    cued, uncued = chemie.load(roles=True), chemie.load(roles={"rules": str(path)})
    for d in docs:
        assert roles(cued, d.text) == roles(uncued, d.text), d.id


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule_fires(nlp, rule):
    text, span, label = CASES[rule]
    assert (span, label, rule) in roles(nlp, text)


@pytest.mark.parametrize("rule", sorted(LEXICON_CASES))
def test_lexicon_rule_fires(lexicon_nlp, rule):
    text, span, label = LEXICON_CASES[rule]
    assert (span, label, rule) in roles(lexicon_nlp, text)


def test_the_lexicon_keeps_a_names_most_frequent_role_only(tmp_path):
    from chemie.roles.lexicon import load_role_lexicon

    path = tmp_path / "roles.tsv"
    path.write_text(LEXICON, encoding="utf-8")
    lexicon = load_role_lexicon(str(path))
    assert lexicon["zylomide"] == "REAGENT_CATALYST"
    assert lexicon["quinolane"] == "SOLVENT"
    assert "tied" not in lexicon


@pytest.mark.parametrize("rule", sorted(NOT_LABELLED))
def test_rule_leaves_its_span_unlabelled(nlp, rule):
    text, span = NOT_LABELLED[rule]
    assert all(found != span for found, _, _ in roles(nlp, text))


def test_known_names_outside_a_name_run_are_compounds(nlp):
    """A token of the ``names`` list, or a mixture of them in one token, is a compound."""
    found = roles(nlp, "The residue was purified by chromatography (n-Hex/EA = 3/1).")
    assert {("n-Hex", "OTHER_COMPOUND"), ("EA", "OTHER_COMPOUND")} <= {
        (text, label) for text, label, _ in found}
    found = roles(nlp, "The residue was purified by chromatography (silica gel, n-hexane/ethyl "
                       "acetate) to give 4-bromoaniline.")
    assert {("n-hexane", "OTHER_COMPOUND"), ("ethyl acetate", "OTHER_COMPOUND")} <= {
        (text, label) for text, label, _ in found}


@pytest.mark.parametrize(("text", "span", "rule"), [
    # a state whose mention runs on after it
    ("The residue was purified to give 1.65g of a white solid with a yield of 82.8%.", "solid",
     "yield_product"),
    # a title reference inside another mention
    ("The residue was purified to obtain the title compound in white color (6.0 g, 93%).",
     "title compound", "title_reference"),
    ("This gave a first portion of 2.28 g (63% of theory) of the title compound.",
     "title compound", "title_reference"),
    # the label a state carries before its bracket
    ("The residue was purified to deliver a yellow solid 36-d (1.8 g, yield: 91%).", "36-d",
     "yield_product"),
])
def test_products_found_inside_longer_mentions(nlp, text, span, rule):
    assert (span, "REACTION_PRODUCT", rule) in roles(nlp, text)


def test_a_title_reference_in_fractions_is_no_product(nlp):
    assert roles(nlp, "Fractions containing the desired compound were collected.") == []


def test_a_state_with_a_yield_that_no_step_gives_is_no_product(nlp):
    found = roles(nlp, "The mixture was stirred for 2 h. Yellow oil (30 mg, 81%).")
    assert ("30 mg", "YIELD_OTHER", "yield_bracket") in found
    assert all(text != "oil" for text, _, _ in found)


def test_the_amount_of_a_numbered_compound_before_it_is_its_yield(nlp):
    found = roles(nlp, "7.2 g of Compound 17 was prepared in the same manner.")
    assert ("7.2 g", "YIELD_OTHER", "product_yield") in found


def test_a_bracketed_example_in_a_sentence_is_no_label(nlp):
    found = roles(nlp, "As described (Example 3) the mixture was stirred at 50 °C.")
    assert ("50 °C", "TEMPERATURE", "temperature_degrees") in found
    assert all(label != "EXAMPLE_LABEL" for _, label, _ in found)


def test_silica_gel_is_never_a_product(nlp):
    found = roles(nlp, "The residue was isolated and purified by silica gel column chromatography "
                       "(hexane/EtOAc = 3/1) to give 4-bromoaniline.")
    assert ("silica gel", "OTHER_COMPOUND", "supports") in found


def test_pyridine_is_a_reagent_even_as_the_medium(nlp):
    found = roles(nlp, "4-Bromoaniline (1.0 g) was dissolved in pyridine (5 mL) and stirred.")
    assert [label for text, label, _ in found if text == "pyridine"] == ["REAGENT_CATALYST"]


def test_a_concentration_in_brackets_is_no_label(nlp):
    found = roles(nlp, "The mixture was washed with NaOH (2M, 75 mL).")
    assert ("NaOH", "OTHER_COMPOUND", "workup_compound") in found
    assert all(text != "2M" for text, _, _ in found)


def test_a_melting_or_dsc_temperature_is_no_condition(nlp):
    found = roles(nlp, "The mixture was stirred at 50 °C. Endothermic peak in DSC: 195° C.; "
                       "mp: 163-165 °C.")
    assert [text for text, label, _ in found if label == "TEMPERATURE"] == ["50 °C"]


def test_a_compound_from_an_example_inside_a_solution_is_a_starting_material(nlp):
    found = roles(nlp, "The mixture was stirred for 1 h. DAST (0.5 mL) was added to a solution of "
                       "200 mg (0.37 mmol) of the compound from Example 99A in DMF (5 mL).")
    assert ("compound from Example 99A", "STARTING_MATERIAL", "reactant") in found


@pytest.mark.parametrize("text", [
    "The reaction was quenched with aq. sat. NaHCO3 solution and extracted with EtOAc.",
    "The residue was dissolved in CH2Cl2 and washed with sat. NaHCO3 (aq).",
])
def test_aq_apart_from_its_name_is_a_compound_of_its_own(nlp, text):
    found = roles(nlp, text)
    assert ("aq", "OTHER_COMPOUND", "workup_compound") in found
    assert ("NaHCO3", "OTHER_COMPOUND", "workup_compound") in found


def test_aq_of_a_layer_is_no_compound(nlp):
    found = roles(nlp, "The organic layer was separated, and the aq. layer was extracted.")
    assert all(text != "aq" for text, _, _ in found)


def test_a_support_with_a_trade_mark_before_a_full_stop_is_found(nlp):
    found = roles(nlp, "The mixture was stirred for 30 min, then filtered over Celite®. The "
                       "filtrate was concentrated.")
    assert ("Celite®", "OTHER_COMPOUND", "supports") in found


def test_a_yield_bracket_with_a_purity_keeps_the_amount_and_the_yield(nlp):
    found = roles(nlp, "The residue was purified to give the title compound (23 g, purity 99.2%, "
                       "yield 86%).")
    assert ("23 g", "YIELD_OTHER", "yield_bracket") in found
    assert [text for text, label, _ in found if label == "YIELD_PERCENT"] == ["86%"]


@pytest.mark.parametrize("word", ["stoichiometric", "thermodynamic", "isocratic"])
def test_an_adjective_in_ic_is_no_compound(nlp, word):
    found = roles(nlp, f"The mixture was stirred at 50 °C for 2 h. The {word} mixture was "
                       "stirred at 50 °C.")
    assert ("50 °C", "TEMPERATURE", "temperature_degrees") in found
    assert all(text != word for text, _, _ in found)


def test_a_purity_before_the_product_is_no_yield(nlp):
    found = roles(nlp, "The residue was purified. This gave 61 mg (96% of theory, purity 99%) of "
                       "the title compound.")
    assert ("96%", "YIELD_PERCENT", "yield_word") in found
    assert all(text != "99%" for text, _, _ in found)


def test_a_bracket_with_a_volume_is_no_yield(nlp):
    found = roles(nlp, "The mixture was cooled to 0 °C. Aqueous sodium hydroxide (50%, 6.8 mL, "
                       "130 mmol) was added to a stirred solution of 4-bromoaniline in THF.")
    assert all(label not in ("YIELD_PERCENT", "YIELD_OTHER") for _, label, _ in found)
    assert ("sodium hydroxide", "REAGENT_CATALYST") in {(t, label) for t, label, _ in found}


def test_a_retention_time_after_a_colon_is_no_time(nlp):
    found = roles(nlp, "The mixture was stirred for 2 h. Data: LCMS (A) Rt : 5.639 min.")
    assert [text for text, label, _ in found if label == "TIME"] == ["2 h"]


def test_a_compound_separated_and_obtained_is_the_product(nlp):
    found = roles(nlp, "The mixture was heated at 120 °C for 16 hours. 4-Bromoaniline was "
                       "separated and obtained as a colorless liquid (2.6 g) in 91% yield.")
    assert ("4-Bromoaniline", "REACTION_PRODUCT", "isolated_product") in found


def test_an_addition_to_terminate_the_reaction_is_work_up(nlp):
    found = roles(nlp, "4-Bromoaniline (1.0 g) and triethylamine (1 mL) were reacted in THF at "
                       "50 °C for 2 h. To the reaction solution, a 2 N solution of ammonia in "
                       "methanol was added to terminate the reaction.")
    assert ("added", "WORKUP", "workup_addition") in found
    assert ("ammonia", "OTHER_COMPOUND", "workup_compound") in found


def test_a_reagent_added_after_the_work_up_starts_a_new_reaction(nlp):
    found = roles(nlp, "The mixture was stirred at 50 °C for 2 h, then concentrated to dryness. "
                       "The residue was dissolved in dichloromethane (6 mL). Triethylamine "
                       "(0.2 mL) and methanesulfonyl chloride (0.03 mL) were added, and the "
                       "mixture stirred at room temperature.")
    assert ("dissolved", "REACTION_STEP", "reaction_step") in found
    assert ("dichloromethane", "SOLVENT") in {(t, label) for t, label, _ in found}


def test_an_aqueous_solution_of_a_salt_added_after_the_reaction_is_work_up(nlp):
    found = roles(nlp, "4-Bromoaniline (1.0 g) and triethylamine (1 mL) were stirred in THF at "
                       "50 °C for 2 h. Then, an aqueous solution of sodium metabisulfite was "
                       "added to the reaction mixture.")
    assert ("added", "WORKUP", "workup_addition") in found


def test_a_patent_number_is_no_compound(nlp):
    found = roles(nlp, "4-Bromoaniline was prepared as in WO2012345678 in 91% yield.")
    assert all("WO2012345678" not in text for text, _, _ in found)


def test_a_step_note_in_brackets_after_the_heading_name_is_no_step_heading(nlp):
    text = ("4-Chlorobenzoic acid (Step 3, scheme 5) A solution of 4-chlorotoluene (2.0 g) in "
            "water (5 mL) was heated.")
    assert ("4-Chlorobenzoic acid", "REACTION_PRODUCT", "heading_product") in roles(nlp, text)


def test_roles_are_in_text_order_with_ids_and_trigger_arguments(nlp):
    doc = nlp(CASES["reaction_step"][0])
    found = roles_of(doc)
    assert [r.start for r in found] == sorted(r.start for r in found)
    assert [r.id for r in found] == [f"T{n}" for n in range(1, len(found) + 1)]
    by_id = {r.id: r for r in found}
    (added,) = [r for r in found if r.label == "REACTION_STEP"]
    assert "Triethylamine" in {by_id[a].text for a in added.args}
    for r in found:
        assert doc.text[r.start : r.end] == r.text


def test_roles_are_token_spans_too(nlp):
    doc = nlp(CASES["reaction_step"][0])
    spans = {(s.text, s.label_) for s in doc.spans["roles"]}
    assert ("Triethylamine", "REAGENT_CATALYST") in spans
    assert len(spans) == len(roles_of(doc))


def test_a_doc_without_text_has_no_roles(nlp):
    assert roles_of(nlp("")) == []


def test_roles_survive_serialisation(nlp):
    from spacy.tokens import Doc, DocBin

    doc = nlp(CASES["reaction_step"][0])
    expected = [(r.id, r.start, r.end, r.label, r.rule, r.args) for r in roles_of(doc)]
    back = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert [(r.id, r.start, r.end, r.label, r.rule, r.args) for r in roles_of(back)] == expected
    bin_ = DocBin(store_user_data=True)
    bin_.add(doc)
    (again,) = DocBin().from_bytes(bin_.to_bytes()).get_docs(nlp.vocab)
    assert [(r.id, r.label, r.args) for r in roles_of(again)] == [
        (i, label, args) for i, _, _, label, _, args in expected]


def test_annotate_gives_the_document_its_roles(nlp):
    from chemie.model import Document
    from chemie.nlp import annotate

    text = CASES["reaction_step"][0]
    out = annotate(nlp, Document("d1", text))
    assert ("Triethylamine", "REAGENT_CATALYST") in {(r.text, r.label) for r in out.roles}
    assert all(out.text[r.start : r.end] == r.text for r in out.roles)


def test_a_rule_table_without_a_builtin_rule_is_refused(tmp_path):
    import yaml

    from chemie.resources import rules_path
    from chemie.roles.component import RoleLabeller
    from chemie.tables import TableError

    data = yaml.safe_load(rules_path("roles.yaml").read_text(encoding="utf-8"))
    data["builtin"] = [r for r in data["builtin"] if r["name"] != "product_yield"]
    path = tmp_path / "roles.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(TableError, match=r"roles\.yaml: builtin: missing rule\(s\) product_yield"):
        RoleLabeller(str(path), "chemu2020_roles.tsv", decision=lambda stage: stage)


def triggers(nlp, text: str) -> list[tuple[str, str]]:
    return [(t, label) for t, label, _ in roles(nlp, text) if label in ("REACTION_STEP", "WORKUP")]


def test_a_noun_of_an_action_is_a_trigger_with_its_object_only(nlp):
    assert ("addition", "REACTION_STEP") in triggers(
        nlp, "4-Bromoaniline (1.0 g) was dissolved in THF (5 mL), followed by the addition of "
             "triethylamine (1 mL).")
    assert ("adding", "WORKUP") in triggers(
        nlp, "The mixture was stirred at 50 °C for 2 h. The reaction was stopped by adding "
             "saturated potassium carbonate solution.")
    assert "addition" not in {t for t, _ in triggers(
        nlp, "After the addition, triethylamine (1 mL) was added to the mixture.")}


def test_a_noun_after_a_quench_is_its_manner(nlp):
    found = triggers(nlp, "The mixture was stirred at 50 °C for 2 h. The reaction was quenched "
                          "by the addition of water (10 mL).")
    assert ("quenched", "WORKUP") in found
    assert "addition" not in {t for t, _ in found}


def test_an_action_word_that_is_a_temperature_ends_no_clause(nlp):
    found = triggers(nlp, "4-Bromoaniline (1.0 g) was dissolved in ethanol (10 mL). The solution "
                          "was heated under reflux for 2 hours.")
    assert ("heated", "REACTION_STEP") in found


def test_an_addition_followed_by_a_work_up_action_is_work_up(nlp):
    found = triggers(nlp, "4-Bromoaniline (1.0 g) was stirred in THF (5 mL) at 50 °C for 2 h. "
                          "Sodium metabisulfite was added, followed by extraction with ethyl "
                          "acetate.")
    assert ("added", "WORKUP") in found


def test_a_work_up_material_measured_in_mmol_is_a_reagent(nlp):
    found = triggers(nlp, "4-Bromoaniline (1.0 g) was stirred in THF (5 mL) at 50 °C for 2 h. "
                          "Saturated sodium hydrogen carbonate (20.0 mL, 20.0 mmol) was added to "
                          "the mixture.")
    assert ("added", "REACTION_STEP") in found


def test_a_cooling_before_work_up_material_is_added_is_work_up(nlp):
    found = triggers(nlp, "4-Bromoaniline (1.0 g) was refluxed in THF (5 mL) for 2 hours. The "
                          "mixture was cooled to 0 °C and saturated ammonium chloride solution "
                          "was added.")
    assert ("cooled", "WORKUP") in found


def test_an_action_in_an_adverbial_phrase_takes_no_argument_after_its_comma(nlp):
    found = triggers(nlp, "4-Bromoaniline (1.0 g) was refluxed in THF (5 mL) for 2 hours. After "
                          "cooling, water was added.")
    assert "cooling" not in {t for t, _ in found}
    assert ("added", "WORKUP") in found


def test_a_passive_subject_starts_after_a_clause_opener(nlp):
    found = triggers(nlp, "The organic layer was dried over magnesium sulfate, the mixture was "
                          "filtered and concentrated.")
    assert "filtered" not in {t for t, _ in found}


def test_a_known_solvent_that_reads_like_a_formula_is_a_solvent(nlp):
    assert ("NMP", "SOLVENT", "known_solvent") in roles(
        nlp, "4-Bromoaniline (1.0 g) was added to NMP (5 mL).")


def test_a_procedure_word_opening_the_text_means_no_heading(nlp):
    found = roles(nlp, "Under an argon atmosphere, 4-bromoaniline (1.0 g) was dissolved in THF "
                       "(10 mL).")
    assert ("argon", "OTHER_COMPOUND", "atmosphere") in found


def test_a_solution_with_its_amount_ends_the_heading(nlp):
    found = roles(nlp, "Example 3: Synthesis of 4-chlorobenzoic acid Methanol solution (25 g) "
                       "containing 4-chlorotoluene (2.0 g) was heated.")
    assert ("Methanol", "SOLVENT") in {(t, label) for t, label, _ in found}


def test_a_concentration_after_the_heading_name_is_the_next_compounds(nlp):
    found = roles(nlp, "Example 11 4-Chlorobenzoic acid 4N HCl in dioxane (0.25 mL) was added to "
                       "a solution of 4-chlorotoluene (1.0 g).")
    assert ("4-Chlorobenzoic acid", "REACTION_PRODUCT", "heading_product") in found


@pytest.mark.parametrize("text", [
    "The residue was purified by chromatography. Compound B2, 4-bromoaniline, (1.59 g, 23% "
    "yield).",
    "The residue was recrystallized. 4-Bromoaniline (8) (50 g, 67% yield) as a pink solid.",
])
def test_a_yield_after_an_apposition_or_a_label_makes_a_product(nlp, text):
    found = roles(nlp, text)
    assert {(t.lower(), rule) for t, label, rule in found if label == "REACTION_PRODUCT"} >= {
        ("4-bromoaniline", "quantified_product")}


@pytest.mark.parametrize(("text", "span", "label"), [
    ("The mixture was stirred for 16\u00a0h.", "16\u00a0h", "TIME"),
    ("The mixture was stirred at \u221220\u00a0°C for 1 h.", "\u221220\u00a0°C", "TEMPERATURE"),
])
def test_a_no_break_space_before_a_unit_keeps_the_condition(nlp, text, span, label):
    assert (span, label) in {(t, lab) for t, lab, _ in roles(nlp, text)}


def test_a_negative_temperature_keeps_its_sign_in_a_reaction_record():
    nlp = chemie.load(reactions=True, reactions_config={"structures": False})
    doc = nlp("4-Bromoaniline (1.0 g) in THF (10 mL) was stirred at \u221278 °C for 2 h to give "
              "4-bromophenol (0.5 g, 50%).")
    (record,) = doc._.reactions
    assert [c.value.value for c in record.conditions.temperature] == [-78.0]


def test_an_action_word_used_as_a_noun_is_no_trigger(nlp):
    assert "yield" not in {t for t, _ in triggers(
        nlp, "The residue was recrystallized to give 4-bromoaniline (8 g). The overall yield is "
             "80%.")}
    assert ("yield", "REACTION_STEP") in triggers(
        nlp, "The residue was purified by chromatography to yield 4-bromoaniline (8 g, 80%).")


def test_the_second_verb_of_a_passive_pair_is_a_step(nlp):
    found = triggers(nlp, "The mixture was stirred at 120 °C for 16 hours. 4-Bromoaniline was "
                          "separated and obtained as a colorless liquid (2.6 g) in 91% yield.")
    assert ("obtained", "REACTION_STEP") in found


def test_a_passive_verb_after_two_adverbs_has_its_subject(nlp):
    found = triggers(nlp, "The mixture was stirred at 50 °C for 2 h. Water (40 mL) was slowly "
                          "dropwise added, and after completion of the dropwise addition, the "
                          "mixture was filtered.")
    assert "added" in {t for t, _ in found}  # its argument is the water before it
