"""chemie_roles: every rule of rules/roles.yaml fires on a hand-written snippet; the API."""

from __future__ import annotations

import pytest

import chemie
from chemie.extensions import roles_of
from chemie.roles.table import load_table

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
    "workup_antecedent": ("4-Chlorotoluene (2.0 g) was added to toluene (5 mL). Ethyl benzoate "
                          "(10 mL) was added and the organic layer was separated.",
                          "Ethyl benzoate", "OTHER_COMPOUND"),
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
    table = load_table()
    assert set(table.rule_names()) == set(CASES) | set(NOT_LABELLED) | set(LEXICON_CASES)
    rules = [*table.builtin, *table.conditions, *table.triggers, *table.compounds]
    assert all(r.comment for r in rules)


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

    from chemie.components.roles import RoleLabeller
    from chemie.errors import InputError
    from chemie.resources import rules_path

    data = yaml.safe_load(rules_path("roles.yaml").read_text(encoding="utf-8"))
    data["builtin"] = [r for r in data["builtin"] if r["name"] != "product_yield"]
    path = tmp_path / "roles.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(InputError, match="builtin.product_yield: missing"):
        RoleLabeller(str(path), "chemu2020_roles.tsv")
