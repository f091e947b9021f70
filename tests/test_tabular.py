"""Tabular exports: rows per mention, relation and reaction role, CSV/Parquet round trips
through pandas."""

from __future__ import annotations

import pandas as pd
import pytest

from chemie.formats.tabular import (
    TableWriter,
    format_spans,
    frames,
    mention_rows,
    parse_spans,
    read_tables,
    relation_rows,
    role_rows,
    table_paths,
    write_tables,
)
from chemie.model import Document, Mention, Relation, Role


def _doc(doc_id: str = "d1") -> Document:
    text = "The acid NA was added to the flask and the mixture was stirred ."
    doc = Document(id=doc_id, text=text)
    acid = Mention(
        "T1", ((4, 8),), label="CHEMICAL", text="acid", rule="lexicon.acids", confidence=0.75,
        kind="chemical", chemdner_class="FAMILY",
    )
    na = Mention("T2", ((9, 11),), label="FORMULA", text="NA", rule="regex.formula")
    flask = Mention("T3", ((29, 34),), label="ENTITY", kind="equipment")
    mixture = Mention(
        "T4", ((0, 3), (44, 51)), label="ENTITY", text="The mixture", rule="generic.mixture",
        kind="generic",
    )
    doc.mentions = [acid, na, flask, mixture]
    doc.relations = [
        Relation("REACTION_ASSOCIATED", "T4", "T1", rule="ra.mixture", id="R1"),
        Relation("CONTAINED", "T4", "T3", id="R2"),
    ]
    doc.roles = [
        Role("R1", 4, 11, "REAGENT_CATALYST", "acid NA", "label_reagent"),
        Role("R2", 16, 21, "REACTION_STEP", "added", "trigger_add", ["R1"]),
    ]
    return doc


def test_mention_rows_carry_offsets_text_kind_class_rule():
    rows = {r["mention_id"]: r for r in mention_rows(_doc())}
    assert rows["T1"]["start"] == 4 and rows["T1"]["end"] == 8
    assert rows["T1"]["kind"] == "chemical" and rows["T1"]["chemdner_class"] == "FAMILY"
    assert rows["T1"]["rule"] == "lexicon.acids" and rows["T1"]["confidence"] == 0.75
    # a CHEMDNER class as the label counts as the class
    assert rows["T2"]["chemdner_class"] == "FORMULA"
    # text filled from the document when the mention has none
    assert rows["T3"]["text"] == "flask" and rows["T3"]["chemdner_class"] is None
    # discontinuous: first start, last end, every piece
    assert (rows["T4"]["start"], rows["T4"]["end"], rows["T4"]["spans"]) == (0, 51, "0-3;44-51")


def test_relation_rows_describe_both_arguments():
    rows = relation_rows(_doc())
    assert [r["relation_id"] for r in rows] == ["R1", "R2"]
    r1 = rows[0]
    assert r1["label"] == "REACTION_ASSOCIATED" and r1["rule"] == "ra.mixture"
    assert r1["head_id"] == "T4" and r1["head_spans"] == "0-3;44-51"
    assert r1["tail_text"] == "acid" and r1["tail_kind"] == "chemical"
    assert rows[1]["rule"] is None


def test_role_rows_carry_label_rule_and_trigger_arguments():
    rows = role_rows(_doc())
    assert [(r["role_id"], r["label"], r["rule"]) for r in rows] == [
        ("R1", "REAGENT_CATALYST", "label_reagent"), ("R2", "REACTION_STEP", "trigger_add")]
    assert (rows[0]["start"], rows[0]["end"], rows[0]["text"]) == (4, 11, "acid NA")
    assert rows[0]["args"] is None and rows[1]["args"] == "R1"


def test_relation_to_unknown_mention_is_an_error():
    doc = _doc()
    doc.relations.append(Relation("COREFERENCE", "T1", "T99"))
    with pytest.raises(ValueError, match="T99"):
        relation_rows(doc)


def test_span_strings_round_trip():
    spans = ((0, 3), (44, 51))
    assert parse_spans(format_spans(spans)) == spans


def test_table_paths(tmp_path):
    assert table_paths(tmp_path / "run.csv", "csv")["mentions"] == tmp_path / "run.mentions.csv"
    assert table_paths(tmp_path / "run", "parquet")["relations"] == (
        tmp_path / "run.relations.parquet"
    )
    assert table_paths(tmp_path, "csv")["mentions"] == tmp_path / "mentions.csv"
    with pytest.raises(ValueError, match="xlsx"):
        table_paths(tmp_path / "run", "xlsx")


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_round_trip_through_pandas(tmp_path, fmt):
    docs = [_doc("d1"), _doc("d2")]
    paths = write_tables(docs, tmp_path / "out", fmt)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in paths.values())
    mentions, relations, roles = frames(docs)
    back_m, back_r, back_roles = read_tables(tmp_path / "out", fmt)
    pd.testing.assert_frame_equal(back_m, mentions)
    pd.testing.assert_frame_equal(back_r, relations)
    pd.testing.assert_frame_equal(back_roles, roles)
    assert list(roles["args"].fillna("")) == ["", "R1", "", "R1"]
    assert list(mentions["doc_id"]).count("d2") == 4
    # plain pandas readers see the same rows
    reader = pd.read_csv if fmt == "csv" else pd.read_parquet
    plain = reader(paths["mentions"])
    assert list(plain["mention_id"]) == list(mentions["mention_id"])
    assert list(plain["start"]) == list(mentions["start"])


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_streaming_writer_appends_batches(tmp_path, fmt):
    with TableWriter(tmp_path / "stream", fmt) as writer:
        writer.write([_doc("a")])
        assert not writer.paths["mentions"].exists()  # nothing under the final name yet
        writer.write([])
        writer.write([_doc("b"), _doc("c")])
    assert writer.counts == {"mentions": 12, "relations": 6, "roles": 6}
    mentions, relations, _ = read_tables(tmp_path / "stream", fmt)
    assert list(mentions["doc_id"].unique()) == ["a", "b", "c"]
    assert len(relations) == 6


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_empty_input_writes_headers_only(tmp_path, fmt):
    write_tables([], tmp_path / "empty", fmt)
    mentions, relations, roles = read_tables(tmp_path / "empty", fmt)
    assert mentions.empty and relations.empty and roles.empty
    assert "chemdner_class" in mentions.columns and "tail_spans" in relations.columns


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_failure_leaves_nothing_behind(tmp_path, fmt):
    bad = _doc()
    bad.relations.append(Relation("COREFERENCE", "T1", "T99"))
    with pytest.raises(ValueError):
        write_tables([_doc(), bad], tmp_path / "out", fmt)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_chemie_run_writes_the_roles_table(tmp_path, fmt):
    from pathlib import Path

    from chemie import nlp
    from chemie.cli import main
    from chemie.formats.tabular import TABLES

    texts = Path(__file__).parent / "fixtures" / "scale" / "texts"
    out = tmp_path / f"t.{fmt}"
    assert main(["run", str(texts), "-o", str(out), "-q", "--workers", "1"]) == 0
    assert (tmp_path / f"t.roles.{fmt}").exists()
    _, _, roles = read_tables(out, fmt, TABLES)
    doc = nlp.annotate(nlp.load(roles=True), Document("s1", (texts / "s1.txt").read_text()))
    mine = roles[roles["doc_id"] == "s1"]
    assert list(mine["label"]) == [r.label for r in doc.roles]
    assert list(mine["rule"]) == [r.rule for r in doc.roles]
    triggers = mine[mine["label"].isin(["REACTION_STEP", "WORKUP"])]
    assert len(triggers) and triggers["args"].notna().any()
    by_id = dict(zip(mine["role_id"], mine["label"], strict=True))
    args = [a for value in triggers["args"].dropna() for a in value.split(";")]
    assert args and all(a in by_id for a in args)  # the trigger's arguments are role ids
    texts_of = {r.id: r.text for r in doc.roles}
    assert list(mine["text"]) == [texts_of[i] for i in mine["role_id"]]
