"""Every rule of rules/rc.yaml fires by name on a hand-written sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chemie.model.rc import Entity, RCExample
from chemie.rc import rules
from chemie.rc.classifier import DEFAULT_RULE, RuleClassifier
from chemie.resources import load_rules
from chemie.tables import parse_table

FIXTURES = Path(__file__).parent / "fixtures"
_ENT = re.compile(r"\[\[(.+?)\]\]")


def example(sentence: str, direction: str) -> RCExample:
    """Tokens split on spaces; each ``[[...]]`` is one entity token."""
    tokens, ents = [], []
    for m in re.finditer(r"\[\[.+?\]\]|\S+", sentence):
        text = m.group(0)
        if text.startswith("[["):
            ents.append(Entity(f"d.{len(ents) + 1}", text[2:-2], 0, len(tokens), len(tokens) + 1))
            text = text[2:-2]
        tokens.append(text)
    reverse = {"F": False, "R": True, "?": None}[direction]
    return RCExample("d", tokens, ents[0], ents[1], None, reverse)


# More sentences (rule, scheme, direction, sentence), for rules and cues added after the
# fixture table: each fires the named rule.
MORE_EXAMPLES = [
    ("compare_cue", "unified", "F", "the [[statistical method]] is comparable to [[taggers]] ."),
    ("compare_cue", "unified", "F", "this [[approach]] differs from other [[approaches]] ."),
    ("compare_cue", "unified", "F",
     "our [[model]] gains in accuracy over the [[wordform model]] ."),
    ("compare_before", "unified", "F",
     "we compare the [[induced relations]] with the original [[mesh relations]] ."),
    ("part_whole_contains_list", "unified", "R",
     "each [[metaphor]] contains a network , a mapping and an [[intention component]] ."),
    ("part_whole_count", "unified", "R", "a [[corpus]] of about 5000 [[words]] ."),
    ("usage_uses_far", "semeval", "?",
     "a [[generation system]] designed to create text through the use of [[substitutions]] ."),
    ("feature_about", "unified", "F",
     "the interpretation reflects the [[temporary belief]] about the [[world]] ."),
    ("hyponym_list", "scierc", "R",
     "[[applications]] such as retrieval , routing and [[summarization]] ."),
    ("hyponym_apposition", "scierc", "F", "we describe [[paul]] , a [[generation system]] ."),
    ("hyponym_is_a", "scierc", "F", "[[turkish]] is an [[agglutinative language]] ."),
    ("conjunction_and_modified", "scierc", "F",
     "avoiding [[distortion]] and directly [[accessing information]] ."),
    ("conjunction_combined_with", "scierc", "R",
     "an integration of [[supervised learning]] with [[unsupervised learning]] ."),
    ("result_tested_on", "unified", "F", "we tested the [[tagger]] on [[newswire text]] ."),
    ("feature_of", "unified", "F",
     "the [[co-occurrence patterns]] of any pair of [[words]] ."),
    ("feature_in_reverse", "unified", "R", "we anchor [[temporal expressions]] in [[emails]] ."),
    ("compare_cue", "unified", "R", "[[our measures]] outperform traditional [[measures]] ."),
    ("usage_used_for", "semeval", "?",
     "[[systemic grammar]] has been used for [[text generation]] ."),
    ("usage_metric_for", "semeval", "?",
     "automatic [[evaluation metrics]] for [[machine translation]] ."),
    ("usage_by", "semeval", "?", "the [[meaning]] is fixed by the [[resolution component]] ."),
    ("part_collection_of", "unified", "R", "the best path in a [[graph]] of [[hypotheses]] ."),
    ("hyponym_parenthesis", "scierc", "R", "two [[tasks]] ( arabic and [[turkish]] ) ."),
    ("part_whole_list", "unified", "R",
     "the [[principles]] relevant to the subject of this paper are : ( a ) layers of grammars"
     " ( b ) layered presentation ( c ) [[lexicon driven processing]] ."),
    ("compare_correlation", "unified", "F",
     "the correlation of the new [[measure]] with [[human judgment]] is high ."),
    ("hyponym_colon_list", "scierc", "R",
     "two [[grammatical formalisms]] : tree adjoining grammars and [[head grammars]] ."),
    ("usage_uses_far", "semeval", "?",
     "a [[parser]] is presented which implements an [[augmented algorithm]] ."),
    ("compare_cue_far", "unified", "F",
     "testing the [[lemma-based model]] , we achieve a significant increase in accuracy on the"
     " dutch test data over the [[wordform model]] ."),
    ("result_tested_on", "unified", "F",
     "evaluation of our [[system]] on [[muc-6 tasks]] achieves high f-measures ."),
    ("feature_with_respect_to", "semeval", "?",
     "a good match between the [[training data]] with respect to [[topic]] ."),
    ("feature_for_thing", "unified", "F",
     "repositories of [[lcs representations]] for [[verbs]] in many languages ."),
]


def _table() -> list[tuple[str, str, str, str]]:
    rows = []
    for line in (FIXTURES / "rc/rule_examples.tsv").read_text().splitlines():
        if line and not line.startswith("#"):
            rows.append(tuple(line.split("\t")))
    return rows


def test_every_rule_has_an_example_and_a_comment():
    names = [r["name"] for r in load_rules("rc.yaml")["rules"]]
    assert sorted(names + [DEFAULT_RULE]) == sorted(
        {row[0] for row in _table()} | {row[0] for row in MORE_EXAMPLES})
    assert all(r["comment"].strip() for r in load_rules("rc.yaml")["rules"])


@pytest.mark.parametrize("name, scheme, direction, sentence", _table() + MORE_EXAMPLES)
def test_rule_fires(name, scheme, direction, sentence):
    decision = RuleClassifier(scheme=scheme).decide(example(sentence, direction))
    assert decision.rule == name
    if name != DEFAULT_RULE:
        rule = rules.load().rule(name)
        expected = rule.label if rule.schemes else None
        assert expected is None or decision.label == expected


def test_known_direction_vetoes_a_rule():
    ex = example("a [[method]] for [[parsing]] .", "R")
    assert RuleClassifier().decide(ex).rule != "usage_for"


def test_direction_is_predicted_when_unknown():
    decision = RuleClassifier(scheme="semeval").decide(
        example("a [[tagger]] based on [[hmms]] .", "?"))
    assert (decision.label, decision.reverse, decision.rule) == ("USAGE", True, "usage_based_on")


def test_unified_rule_expressed_in_scierc_labels():
    decision = RuleClassifier(scheme="scierc").decide(
        example("our [[parser]] reaches 90 % [[accuracy]] .", "R"))
    # RESULT(parser, accuracy) is SciERC EVALUATE-FOR(accuracy, parser): reversed
    assert (decision.label, decision.reverse) == ("EVALUATE-FOR", True)


def test_bad_tables_are_refused():
    table = {"rules": [{"name": "x", "comment": "c", "label": "USAGE", "between": "{nope}"}],
             "default": {"label": "USAGE"}}
    with pytest.raises(ValueError, match="unknown cue list"):
        rules.build(parse_table(table, rules.RcTable, "rc.yaml"))
    table["rules"][0].update(between="for", direction="sideways")
    with pytest.raises(ValueError, match="direction"):
        rules.build(parse_table(table, rules.RcTable, "rc.yaml"))


def test_not_schemes_keeps_a_rule_away_from_a_scheme():
    ex = example("we tested the [[tagger]] on [[newswire text]] .", "?")
    scierc = RuleClassifier(scheme="scierc").decide(ex)
    assert (scierc.rule, scierc.label, scierc.reverse) == ("result_tested_on", "EVALUATE-FOR", True)
    assert RuleClassifier(scheme="semeval").decide(ex).rule != "result_tested_on"


def test_feature_in_reverse_leaves_processes_and_unknown_directions_alone():
    process = example("we study [[spelling correction]] in [[turkish]] .", "R")
    assert RuleClassifier().decide(process).rule != "feature_in_reverse"
    unknown = example("we anchor [[temporal expressions]] in [[emails]] .", "?")
    assert RuleClassifier(scheme="semeval").decide(unknown).rule != "feature_in_reverse"


def test_semeval_reads_a_model_of_y_as_model_feature():
    ex = example("a [[computational model]] of [[word segmentation]] .", "?")
    assert RuleClassifier(scheme="scierc").decide(ex).rule == "usage_method_of"
    decision = RuleClassifier(scheme="semeval").decide(ex)
    assert (decision.rule, decision.label) == ("feature_of", "MODEL-FEATURE")


def test_compare_cue_far_leaves_measures_alone():
    ex = example("an [[error reduction]] of 5 % on all arguments and 3 % on core arguments and"
                 " 2 % on others over a state-of-the art [[independent classifier]] .", "F")
    assert RuleClassifier().decide(ex).rule != "compare_cue_far"


def test_feature_for_thing_leaves_a_representation_for_a_process_to_usage():
    ex = example("a convenient [[data representation]] for [[chunking]] .", "F")
    decision = RuleClassifier().decide(ex)
    assert (decision.rule, decision.label) == ("usage_for", "USAGE")


def test_compare_cue_skips_better_modifying_the_later_entity():
    modifier = example("a [[function]] which yields superior [[feature vectors]] .", "F")
    assert RuleClassifier().decide(modifier).rule != "compare_cue"
    than = example("the [[function]] is better than [[tf-idf]] .", "F")
    assert RuleClassifier().decide(than).rule == "compare_cue"


def test_feature_with_respect_to_names_the_later_entity_the_feature():
    ex = example("ranking [[blog posts]] with respect to their [[relevance]] .", "?")
    decision = RuleClassifier(scheme="semeval").decide(ex)
    assert (decision.rule, decision.label, decision.reverse) == (
        "feature_with_respect_to", "MODEL-FEATURE", True)
