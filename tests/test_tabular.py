"""Tabular exports: rows per mention and relation, CSV/Parquet round trips through pandas."""

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
    table_paths,
    write_tables,
)
from chemie.model import Document, Mention, Relation


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
    mentions, relations = frames(docs)
    back_m, back_r = read_tables(tmp_path / "out", fmt)
    pd.testing.assert_frame_equal(back_m, mentions)
    pd.testing.assert_frame_equal(back_r, relations)
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
    assert writer.counts == {"mentions": 12, "relations": 6}
    mentions, relations = read_tables(tmp_path / "stream", fmt)
    assert list(mentions["doc_id"].unique()) == ["a", "b", "c"]
    assert len(relations) == 6


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_empty_input_writes_headers_only(tmp_path, fmt):
    write_tables([], tmp_path / "empty", fmt)
    mentions, relations = read_tables(tmp_path / "empty", fmt)
    assert mentions.empty and relations.empty
    assert "chemdner_class" in mentions.columns and "tail_spans" in relations.columns


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_failure_leaves_nothing_behind(tmp_path, fmt):
    bad = _doc()
    bad.relations.append(Relation("COREFERENCE", "T1", "T99"))
    with pytest.raises(ValueError):
        write_tables([_doc(), bad], tmp_path / "out", fmt)
    assert list(tmp_path.iterdir()) == []
