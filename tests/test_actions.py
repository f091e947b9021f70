"""Action parser (chemie_actions): verb classes, arguments, steps and phases."""

from __future__ import annotations

import pytest
import spacy
from spacy.tokens import Doc

import chemie.actions.component  # noqa: F401  (registers chemie_actions)
from chemie.actions.component import HEADING, mention_views
from chemie.extensions import actions_of
from chemie.model import Mention
from chemie.resources import load_rules

# One sentence per action class of rules/actions.yaml, with the trigger word.
EXAMPLES = {
    "Add": ("Sodium hydride was added portionwise .", "added"),
    "Dilute": ("The mixture was diluted with water .", "diluted"),
    "Dissolve": ("The acid was dissolved in methanol .", "dissolved"),
    "Stir": ("The mixture was stirred overnight .", "stirred"),
    "Heat": ("The mixture was heated to 80 °C .", "heated"),
    "Reflux": ("The solution was refluxed for 2 h .", "refluxed"),
    "Cool": ("The mixture was cooled to 0 °C .", "cooled"),
    "Synthesize": ("The amide was prepared as in Example 1 .", "prepared"),
    "Degass": ("The solution was degassed with argon .", "degassed"),
    "ApparatusAction": ("The tube was sealed .", "sealed"),
    "Wait": ("The mixture was left overnight .", "left"),
    "Complete": ("After completion of the reaction , water was added .", "completion"),
    "Quench": ("The reaction was quenched with water .", "quenched"),
    "Neutralize": ("The mixture was neutralized with 1 N HCl .", "neutralized"),
    "Partition": ("The residue was partitioned between water and ether .", "partitioned"),
    "Extract": ("The mixture was extracted with ether .", "extracted"),
    "Wash": ("The organic layer was washed with brine .", "washed"),
    "Dry": ("The organic layer was dried over MgSO4 .", "dried"),
    "Filter": ("The suspension was filtered .", "filtered"),
    "Concentrate": ("The filtrate was concentrated in vacuo .", "concentrated"),
    "Remove": ("The solvent was evaporated .", "evaporated"),
    "Precipitate": ("The product precipitated on cooling .", "precipitated"),
    "Purify": ("The residue was purified by chromatography .", "purified"),
    "Recover": ("The solid was collected .", "collected"),
    "Yield": ("Chromatography afforded the amide .", "afforded"),
}


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("chemie_actions")
    return nlp


def parse(nlp, sentences: list[str], mentions: dict[str, str] | None = None) -> Doc:
    words, starts = [], []
    for s in sentences:
        starts.append(len(words))
        words.extend(s.split())
    doc = Doc(nlp.vocab, words=words, sent_starts=[i in starts for i in range(len(words))])
    found = []
    for mid, text in (mentions or {}).items():
        target = text.split()
        i = next(i for i in range(len(words)) if words[i : i + len(target)] == target)
        last = doc[i + len(target) - 1]
        found.append(Mention(mid, ((doc[i].idx, last.idx + len(last.text)),), text=text))
    doc._.mentions = found
    return nlp.get_pipe("chemie_actions")(doc)


def test_every_class_has_an_example():
    assert set(load_rules("actions.yaml")["classes"]) == set(EXAMPLES)


@pytest.mark.parametrize("label", sorted(EXAMPLES))
def test_class_fires(nlp, label):
    sentence, trigger = EXAMPLES[label]
    doc = parse(nlp, [sentence])
    got = [(a.label, doc.text[a.start : a.end], a.rule) for a in actions_of(doc)]
    assert (label, trigger, f"trigger:{label}") in got


def test_arguments_by_role(nlp):
    doc = parse(
        nlp,
        ["The mixture was extracted with ethyl acetate .",
         "The residue was purified by chromatography to give the amide ( 1 g ) ."],
        {"mix": "The mixture", "etoac": "ethyl acetate", "res": "The residue",
         "amide": "the amide ( 1 g )"},
    )
    by_label = {}
    for a in actions_of(doc):
        by_label.setdefault(a.label, a)
    assert by_label["Extract"].args == {"object": ["mix"], "reagent": ["etoac"]}
    assert by_label["Purify"].args["object"] == ["res"]
    assert by_label["Yield"].args["product"] == ["amide"]


def test_passive_product_and_container(nlp):
    doc = parse(
        nlp,
        ["Water was added into the flask .", "The amide ( 2 g ) was obtained ."],
        {"water": "Water", "flask": "the flask", "amide": "The amide ( 2 g )"},
    )
    add, yld = actions_of(doc)
    assert add.args == {"object": ["water"], "container": ["flask"]}
    assert yld.args == {"product": ["amide"]}


def test_phases_and_steps(nlp):
    doc = parse(
        nlp,
        ["Step 1 The acid was dissolved in methanol and stirred .",
         "The mixture was concentrated and the residue was washed with ether .",
         "Step 2 The ester was added to water and heated ."],
    )
    acts = actions_of(doc)
    assert [a.label for a in acts if a.label == HEADING] == [HEADING, HEADING]
    phase = {(a.label, a.step): a.phase for a in acts if a.label != HEADING}
    assert phase[("Dissolve", 1)] == "reaction"
    assert phase[("Stir", 1)] == "reaction"
    assert phase[("Concentrate", 1)] == "workup"
    assert phase[("Wash", 1)] == "workup"
    assert phase[("Add", 2)] == "reaction"


def test_trigger_inside_a_mention_is_ignored(nlp):
    doc = parse(nlp, ["Dried sodium sulfate was used ."], {"s": "Dried sodium sulfate"})
    assert actions_of(doc) == []


def test_mention_views_head_and_sentence(nlp):
    doc = parse(nlp, ["Water was added .", "The combined organic layers ( 20 mL ) were dried ."],
                {"w": "Water", "l": "The combined organic layers ( 20 mL )"})
    views = {v.id: v for v in mention_views(doc)}
    assert views["l"].head == "layers"
    assert views["l"].sentence == 1
    assert (views["w"].first, views["w"].last) == (0, 0)


def test_doc_without_sentence_boundaries_is_one_sentence():
    nlp = spacy.blank("en")
    nlp.add_pipe("chemie_actions")
    doc = nlp("The mixture was stirred and filtered .")
    assert [(a.label, a.sentence, a.phase) for a in actions_of(doc)] == [
        ("Stir", 0, "reaction"),
        ("Filter", 0, "workup"),
    ]
    assert all(key[0] == "._." for key in doc.user_data)  # only the Doc extensions


def test_action_by_manner_keeps_the_phase(nlp):
    # manner_before: "quenched by adding X" stays in the work-up started by the quench
    doc = parse(nlp, ["The reaction was quenched by adding water ."])
    phase = {a.label: a.phase for a in actions_of(doc)}
    assert phase == {"Quench": "workup", "Add": "workup"}


def test_step_word_after_a_preposition_is_a_reference(nlp):
    # reference_before: "the compound from Example 8A" names another procedure, no new step
    doc = parse(nlp, ["Example 9 The compound from Example 8A was added to DMF ."])
    assert [a.label for a in actions_of(doc)] == [HEADING, "Add"]
    assert all(a.step == 1 for a in actions_of(doc))


def test_removing_the_ice_keeps_the_reaction_phase(nlp):
    # apparatus: "ice" / "cooling" removed is no work-up
    doc = parse(nlp, ["The acid was added , the ice was removed and the mixture was stirred ."])
    assert [(a.label, a.phase) for a in actions_of(doc)] == [
        ("Add", "reaction"), ("Remove", "reaction"), ("Stir", "reaction")]


def test_addition_after_the_reaction_is_complete_is_work_up(nlp):
    doc = parse(nlp, ["After completion of the addition , the mixture was stirred .",
                      "After completion of the reaction , water was added and stirred .",
                      "The residue was then heated ."])
    acts = [(a.label, a.phase) for a in actions_of(doc)]
    assert acts[:2] == [("Add", "reaction"), ("Stir", "reaction")]  # not about the reaction
    assert acts[2:] == [("Complete", "reaction"), ("Add", "workup"), ("Stir", "workup"),
                        ("Heat", "reaction")]


def test_step_word_before_a_verb_is_a_label(nlp):
    doc = parse(nlp, ["Example 3 Amine A was dissolved in THF .",
                      "Acid B Example 20A was then added ."])
    assert [a.label for a in actions_of(doc) if a.label == HEADING] == [HEADING]


def test_head_word_skips_post_modifiers():
    from chemie.actions.component import head_word

    assert head_word(("the", "residue", "obtained", "thereby")) == "residue"
    assert head_word(("the", "obtained", "residue")) == "residue"
    assert head_word(("the", "organic", "layer", "thus", "obtained", "in", "step", "1")) == "layer"
    assert head_word(("a", "large", "number", "of", "white", "solid")) == "solid"
    assert head_word(("a", "solution", "of", "phenol")) == "solution"


def test_one_word_mention_does_not_hide_its_action(nlp):
    doc = parse(nlp, ["Ammonia was added to terminate the reaction ."], {"t": "terminate"})
    assert [a.label for a in actions_of(doc)] == ["Add", "Quench"]
