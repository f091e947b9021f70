"""Relation confidences: per-rule values in the rule tables, set by the resolvers, written
and read back by the brat, JSON and tabular outputs of ``chemie run``."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from chemie.cli import main
from chemie.errors import InputError
from chemie.formats.brat import format_ann, read_brat_dir, read_brat_pair, write_brat
from chemie.formats.jsondoc import document_json
from chemie.model import Document, Mention, Relation
from chemie.resources import load_rules, rules_path
from chemie.rule_precision import (
    TABLES,
    precision_table,
    relation_outcomes,
    rule_names,
    set_confidences,
    stored_confidences,
)
from chemie.show.inputs import parse_document_json

SCALE = Path(__file__).parent / "fixtures" / "scale"


def _table_confidence() -> dict[str, float]:
    """rule name -> stored confidence, over both relation rule tables."""
    out: dict[str, float] = {}
    for table in TABLES:
        out.update(stored_confidences(table))  # type: ignore[arg-type]
    return out


@pytest.mark.parametrize("table", TABLES)
def test_every_relation_rule_has_a_confidence_in_0_1(table):
    stored = stored_confidences(table)
    assert list(stored) == rule_names(load_rules(table))
    for name, value in stored.items():
        assert isinstance(value, float), name
        assert 0.0 <= value <= 1.0, name


def _doc() -> Document:
    doc = Document("d1", "The mixture was stirred. The solid was dried.")
    doc.mentions = [Mention("T1", ((0, 11),), rule="generic_np", confidence=0.89),
                    Mention("T2", ((25, 34),), rule="generic_np")]
    doc.relations = [
        Relation("TRANSFORMED", "T2", "T1", "transformed_condition_change", "R1", 0.77),
        Relation("COREFERENCE", "T2", "T1", "repeated_name", "R2"),
        Relation("WORK_UP", "T2", "T1", id="R3", confidence=0.5),
    ]
    return doc


def test_brat_round_trip_keeps_relation_and_mention_confidence(tmp_path):
    doc = _doc()
    notes = [line.split("\t")[2] for line in format_ann(doc).splitlines() if line[0] == "#"]
    assert notes == [
        "rule=generic_np confidence=0.89", "rule=generic_np",
        "rule=transformed_condition_change confidence=0.77", "rule=repeated_name",
        "confidence=0.5",
    ]
    write_brat(doc, tmp_path)
    again = read_brat_pair(tmp_path / "d1.txt", tmp_path / "d1.ann")
    assert [(r.rule, r.confidence) for r in again.relations] == [
        (r.rule, r.confidence) for r in doc.relations
    ]
    assert [m.confidence for m in again.mentions] == [0.89, None]
    assert format_ann(again) == format_ann(doc)


def test_brat_reads_old_notes_and_confidence_notes_on_mentions(tmp_path):
    (tmp_path / "a.txt").write_text("The solid was dried.", encoding="utf-8")
    (tmp_path / "a.ann").write_text(
        "T1\tENTITY 0 9\tThe solid\nT2\tENTITY 4 9\tsolid\nR1\tCOREFERENCE Arg1:T2 Arg2:T1\n"
        "#1\tAnnotatorNotes R1\trule=old rule with spaces\n"
        "#2\tAnnotatorNotes T1\trule=np confidence=0.25\n"
        "#3\tAnnotatorNotes T2\tconfidence of the annotator: low\n",
        encoding="utf-8",
    )
    doc = read_brat_pair(tmp_path / "a.txt", tmp_path / "a.ann")
    assert (doc.relations[0].rule, doc.relations[0].confidence) == ("old rule with spaces", None)
    assert (doc.mentions[0].rule, doc.mentions[0].confidence) == ("np", 0.25)
    assert doc.mentions[1].notes == ["confidence of the annotator: low"]


@pytest.mark.parametrize("value", ["high", "1.5", "-0.1"])
def test_brat_bad_confidence_is_a_located_error(tmp_path, value):
    (tmp_path / "a.txt").write_text("The solid", encoding="utf-8")
    (tmp_path / "a.ann").write_text(
        f"T1\tENTITY 0 9\tThe solid\nR1\tCOREFERENCE Arg1:T1 Arg2:T1\n"
        f"#1\tAnnotatorNotes R1\trule=x confidence={value}\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="R1: confidence") as e:
        read_brat_pair(tmp_path / "a.txt", tmp_path / "a.ann")
    assert e.value.line == 3


def test_json_round_trip_keeps_relation_confidence():
    doc = _doc()
    again = parse_document_json(document_json(doc))
    assert again.relations == doc.relations
    assert [m.confidence for m in again.mentions] == [0.89, None]


def test_outcomes_judge_each_relation_against_expanded_gold():
    gold = _doc()
    gold.mentions.append(Mention("T3", ((4, 11),)))
    gold.relations = [Relation("COREFERENCE", "T2", "T3"), Relation("COREFERENCE", "T3", "T1")]
    pred = _doc()
    # T2 -> T1 is a gold link only through T3 (transitive expansion); WORK_UP is wrong
    assert relation_outcomes([gold], [pred]) == [
        ("TRANSFORMED", "transformed_condition_change", False),
        ("COREFERENCE", "repeated_name", True),
        ("WORK_UP", "", False),
    ]
    frame = precision_table(relation_outcomes([gold], [pred])).set_index("rule")
    # one link each: the raw precision, and a confidence shrunk towards the table's pooled
    # precision (coref 1 of 1, bridging 0 of 2): (correct + 4 * pooled) / (links + 4)
    assert frame.loc["repeated_name", "precision"] == 1.0
    assert frame.loc["repeated_name", "confidence"] == 1.0
    assert frame.loc["transformed_condition_change", "precision"] == 0.0
    assert frame.loc["transformed_condition_change", "confidence"] == 0.0
    # rules without a link take the pooled precision of their table
    assert frame.loc["title_compound", "links"] == 0
    assert frame.loc["title_compound", "confidence"] == 1.0
    assert frame.loc["ra_added_compound", "confidence"] == 0.0


def test_few_links_are_shrunk_towards_the_pooled_precision():
    from chemie.rule_precision import shrunk

    assert shrunk(0, 0, 0.8) == 0.8
    assert shrunk(3, 3, 0.8) == pytest.approx((3 + 3.2) / 7)
    assert shrunk(0, 5, 0.8) == pytest.approx(3.2 / 9)
    assert abs(shrunk(800, 1000, 0.5) - 0.8) < 0.002  # many links: their own precision


@pytest.mark.parametrize("table", TABLES)
def test_set_confidences_touches_only_the_rules_and_is_idempotent(table):
    text = rules_path(table).read_text(encoding="utf-8")
    values = {name: 0.5 for name in rule_names(load_rules(table))}
    once = set_confidences(table, text, values)
    assert set_confidences(table, once, values) == once
    kept = [line for line in text.splitlines() if not line.startswith("    confidence:")]
    assert [line for line in once.splitlines() if not line.startswith("    confidence:")] == kept
    assert once.count("    confidence: 0.5\n") == len(values)


def test_run_outputs_carry_each_rule_confidence(tmp_path):
    texts = str(SCALE / "texts")
    conf = _table_confidence()
    assert main(["run", texts, "-o", str(tmp_path / "t"), "--format", "csv", "-q"]) == 0
    rows = pd.read_csv(tmp_path / "t.relations.csv")
    assert len(rows) > 0
    assert rows["confidence"].tolist() == [conf[r] for r in rows["rule"]]
    assert main(["run", texts, "-o", str(tmp_path / "all.jsonl"), "--format", "json", "-q"]) == 0
    lines = (tmp_path / "all.jsonl").read_text(encoding="utf-8").splitlines()
    relations = [r for line in lines for r in json.loads(line)["relations"]]
    assert [r["confidence"] for r in relations] == [conf[r["rule"]] for r in relations]
    assert main(["run", texts, "-o", str(tmp_path / "brat"), "-q"]) == 0
    brat = [r for d in read_brat_dir(tmp_path / "brat" / "more") for r in d.relations]
    brat += [r for d in read_brat_dir(tmp_path / "brat") for r in d.relations]
    assert brat and all(r.confidence == conf[r.rule] for r in brat)


def test_stored_confidences_are_the_dev_precisions(corpus):
    from chemie.rule_precision import main as precision_main

    path = corpus("chemu-ref/train.jsonl")
    assert precision_main(["--data", str(path), "--check"]) == 0
