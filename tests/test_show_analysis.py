"""Error analysis helpers: link outcomes per rule, missed gold links by pattern."""

from __future__ import annotations

from chemie.model import Document, Mention, Relation
from chemie.show.analysis import head_word, link_outcomes, missed_patterns, rule_table

TEXT = "Acid A ( 1 g ) was added . The mixture was stirred . The solution was filtered ."


def _m(mid: str, phrase: str, **fields) -> Mention:
    a = TEXT.index(phrase)
    return Mention(mid, ((a, a + len(phrase)),), text=phrase, **fields)


def _gold() -> Document:
    doc = Document("d", TEXT)
    doc.mentions = [
        _m("T1", "Acid A ( 1 g )"), _m("T2", "The mixture"), _m("T3", "The solution", head="soln")
    ]
    doc.relations = [
        Relation("REACTION_ASSOCIATED", "T2", "T1"),
        Relation("COREFERENCE", "T3", "T2"),
        Relation("WORK_UP", "T3", "T1"),
    ]
    return doc


def _pred() -> Document:
    doc = Document("d", TEXT)
    doc.mentions = [_m("M1", "Acid A ( 1 g )"), _m("M2", "The mixture"), _m("M3", "stirred")]
    doc.relations = [
        Relation("REACTION_ASSOCIATED", "M2", "M1", rule="ra"),
        Relation("COREFERENCE", "M3", "M2", rule="bad"),
        Relation("COREFERENCE", "M2", "M1", rule="bad"),
    ]
    return doc


def test_head_word_prefers_the_head_field_then_the_word_before_brackets():
    gold = _gold()
    assert head_word(gold.mentions[0], TEXT) == "a"
    assert head_word(gold.mentions[2], TEXT) == "soln"
    assert head_word(_m("X", "The mixture"), TEXT) == "mixture"


def test_link_outcomes_rules_and_missed_patterns():
    links = link_outcomes([_gold()], [_pred(), Document("no-gold", "x")])
    assert sorted(zip(links["rule"], links["outcome"], strict=True)) == [
        ("", "missed"), ("", "missed"), ("bad", "wrong"), ("bad", "wrong"), ("ra", "correct")
    ]
    missed = links[links["outcome"] == "missed"]
    assert set(missed["label"]) == {"COREFERENCE", "WORK_UP"}
    assert not missed["anaphor_found"].any()  # "The solution" was never detected
    assert missed["antecedent_found"].all()

    rules = rule_table(links, {"REACTION_ASSOCIATED": 1, "COREFERENCE": 1})
    assert list(rules["rule"]) == ["bad", "ra"]  # most wrong links first
    assert rules.loc[1, ["correct", "wrong", "precision", "recall", "f1"]].tolist() == [
        1, 0, 1.0, 1.0, 1.0
    ]
    patterns = missed_patterns(links)
    assert set(zip(patterns["label"], patterns["anaphor_head"], strict=True)) == {
        ("COREFERENCE", "soln"), ("WORK_UP", "soln")
    }
    assert patterns["missed"].tolist() == [1, 1]


def test_predicted_link_to_an_earlier_chain_member_is_correct():
    gold = Document("d", TEXT)
    gold.mentions = [_m("T1", "Acid A ( 1 g )"), _m("T2", "The mixture"), _m("T3", "The solution")]
    gold.relations = [Relation("COREFERENCE", "T3", "T2"), Relation("COREFERENCE", "T2", "T1")]
    pred = Document("d", TEXT)
    pred.mentions = [_m("M1", "Acid A ( 1 g )"), _m("M3", "The solution")]
    pred.relations = [Relation("COREFERENCE", "M3", "M1", rule="chain")]
    links = link_outcomes([gold], [pred])
    assert links.loc[links["rule"] == "chain", "outcome"].tolist() == ["correct"]


def test_cem_outcomes_by_class_and_rule():
    from chemie.show.cem import error_table, frequent, mention_outcomes, rule_errors

    words = [["Aspirin", "and", "sodium", "chloride", "in", "water"], ["No", "drug", "here"]]
    gold = [[(0, 1), (2, 4)], [(1, 2)]]
    pred = [
        [(0, 1, "TRIVIAL", "lex", 0.9), (3, 4, "TRIVIAL", "lex", 0.5),
         (5, 6, "TRIVIAL", "lex", 0.4)],
        [(0, 1, "ABBREVIATION", "abbr", 0.3)],
    ]
    out = mention_outcomes(words, gold, pred, lambda text: "SYSTEMATIC")
    rows = {(r.sentence, r.text): (r.outcome, r.error, r.chemdner_class) for r in out.itertuples()}
    assert rows == {
        (0, "Aspirin"): ("tp", "", "TRIVIAL"),
        (0, "chloride"): ("fp", "boundary", "TRIVIAL"),
        (0, "water"): ("fp", "spurious", "TRIVIAL"),
        (0, "sodium chloride"): ("fn", "boundary", "SYSTEMATIC"),
        (1, "No"): ("fp", "spurious", "ABBREVIATION"),
        (1, "drug"): ("fn", "missed", "SYSTEMATIC"),
    }
    table = error_table(out, "chemdner_class")
    assert table.loc["TRIVIAL", ["tp", "fp", "fn"]].tolist() == [1, 2, 0]
    assert table.loc["overall", ["tp", "fp", "fn"]].tolist() == [1, 3, 2]
    assert table.loc["overall", "precision"] == 0.25
    rules = rule_errors(out)
    assert list(rules.index) == ["lex", "abbr"]
    columns = ["mentions", "correct", "boundary", "spurious"]
    assert rules.loc["lex", columns].tolist() == [3, 1, 1, 1]
    assert frequent(out, "fn")["text"].tolist() == ["drug", "sodium chloride"]
