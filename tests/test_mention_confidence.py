"""Mention confidences: each mention rule's exact precision on the development part, measured
and stored in the mention table by ``python -m chemie.mention_precision``."""

from __future__ import annotations

import shutil

import chemie
from chemie.mention_precision import (
    TABLE,
    main,
    mention_outcomes,
    precision_table,
    stored_confidences,
    takes_ner_confidence,
    write_confidences,
)
from chemie.model import Document, Mention
from chemie.resources import example_path, load_rules, rules_path
from chemie.rule_precision import rule_names


def _copy(tmp_path):
    path = tmp_path / TABLE
    shutil.copyfile(rules_path(TABLE), path)
    return path


def test_every_mention_rule_has_a_confidence_in_0_1():
    stored = stored_confidences(rules_path(TABLE))
    assert list(stored) == rule_names(load_rules(TABLE))
    for name, value in stored.items():
        assert isinstance(value, float), name
        assert 0.0 <= value <= 1.0, name


def test_unmarked_mentions_carry_their_rule_confidence():
    """mention_precision measures a rule on the mentions without ``chemdner_class``: those
    must be exactly the ones that carry the table's value (the others take the NER one)."""
    stored = stored_confidences(rules_path(TABLE))
    doc = chemie.load()(example_path("example.txt").read_text(encoding="utf-8"))
    marked = [m for m in doc._.mentions if takes_ner_confidence(m)]
    unmarked = [m for m in doc._.mentions if not takes_ner_confidence(m)]
    assert marked and unmarked
    assert all(m.kind == "chemical" for m in marked)
    assert [m.confidence for m in unmarked] == [stored[m.rule] for m in unmarked]


def _mention(mid: str, start: int, end: int, rule: str, ner: bool = False) -> Mention:
    return Mention(mid, ((start, end),), rule=rule,
                   chemdner_class="SYSTEMATIC" if ner else None)


def test_precision_is_measured_on_the_mentions_that_carry_the_rule_confidence():
    gold = Document("d", "x" * 40)
    gold.mentions = [Mention("G1", ((0, 5),)), Mention("G2", ((10, 15),)),
                     Mention("G3", ((20, 25),)), Mention("G4", ((30, 32), (34, 36)))]
    pred = Document("d", gold.text)
    pred.mentions = [
        _mention("M1", 0, 5, "generic_np"),  # correct
        _mention("M2", 6, 9, "generic_np"),  # wrong
        _mention("M3", 10, 15, "chemical_np", ner=True),  # correct, NER confidence
        _mention("M4", 16, 18, "chemical_np"),  # wrong, carries the rule confidence
        _mention("M5", 20, 25, "eluent_gradient", ner=True),  # correct, NER confidence only
        _mention("M6", 30, 36, "np_trimmed"),  # one range where gold has two: wrong
    ]
    outcomes = mention_outcomes([gold], [pred])
    assert outcomes == [
        ("generic_np", True, True), ("generic_np", True, False),
        ("chemical_np", False, True), ("chemical_np", True, False),
        ("eluent_gradient", False, True), ("np_trimmed", True, False),
    ]
    rules = ["chemical_np", "generic_np", "eluent_gradient", "np_trimmed", "aq_suffix"]
    frame = precision_table(outcomes, rules).set_index("rule")
    assert list(frame.index) == rules
    # confidences are shrunk towards the pooled precision of the carriers (1 of 4):
    # (correct + 4 * 0.25) / (n + 4)
    assert frame.loc["generic_np", "precision"] == 0.5
    assert frame.loc["generic_np", "confidence"] == round(2 / 6, 2)
    # the NER-confidence mention does not count for its rule
    chemical = frame.loc["chemical_np"]
    assert (chemical["mentions"], chemical["carriers"], chemical["precision"]) == (2, 1, 0.0)
    assert chemical["confidence"] == 0.2
    # no mention carries the rule confidence: judged on all its mentions (1 of 1)
    assert frame.loc["eluent_gradient", "confidence"] == 0.4
    # no mention at all: all mentions that carry a rule confidence (1 of 4)
    assert frame.loc["aq_suffix", "mentions"] == 0
    assert frame.loc["aq_suffix", "confidence"] == 0.25


def test_write_keeps_comments_and_order_and_is_idempotent(tmp_path):
    path = _copy(tmp_path)
    original = path.read_text(encoding="utf-8")
    names = rule_names(load_rules(TABLE))
    values = {name: round(i / 100, 2) for i, name in enumerate(names)}
    write_confidences(path, values)
    once = path.read_text(encoding="utf-8")
    assert stored_confidences(path) == values
    write_confidences(path, values)
    assert path.read_text(encoding="utf-8") == once

    def others(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("    confidence:")]

    assert others(once) == others(original)
    assert once.count("    confidence:") == len(names)


def test_write_then_check_detects_a_stale_value(fixtures, tmp_path, capsys):
    data = str(fixtures / "chemu" / "small.jsonl")
    path = _copy(tmp_path)
    assert main(["--data", data, "--table", str(path), "--write"]) == 0
    written = path.read_text(encoding="utf-8")
    printed = capsys.readouterr().out
    assert "generic_np" in printed and "carriers" in printed
    assert main(["--data", data, "--table", str(path), "--check"]) == 0
    assert main(["--data", data, "--table", str(path), "--write"]) == 0
    assert path.read_text(encoding="utf-8") == written
    stored = stored_confidences(path)
    stale = dict(stored, generic_np=0.01 if stored["generic_np"] != 0.01 else 0.02)
    write_confidences(path, stale)  # type: ignore[arg-type]
    capsys.readouterr()
    assert main(["--data", data, "--table", str(path), "--check"]) == 1
    assert "stored mention confidences differ" in capsys.readouterr().err


def test_stored_mention_confidences_are_the_dev_precisions(corpus):
    path = corpus("chemu-ref/train.jsonl")
    assert main(["--data", str(path), "--check"]) == 0
