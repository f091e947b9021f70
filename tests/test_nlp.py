"""chemie.nlp: pipeline assembly and the Document <-> Doc bridge."""

from __future__ import annotations

from pathlib import Path

import pytest

import chemie
from chemie.formats.chemu import read_chemu
from chemie.model import Document, Token
from chemie.nlp import (
    RELATION_COLUMNS,
    annotate,
    annotate_text,
    describe,
    doc_from_document,
    load,
    relations_frame,
    to_document,
)
from chemie.resources import example_path

MINI = Path(__file__).parent / "fixtures" / "anaphora" / "mini.jsonl"


@pytest.fixture(scope="module")
def nlp():
    return load()


@pytest.fixture(scope="module")
def mini():
    return read_chemu(MINI)


def test_pipeline_order(nlp):
    names = [n for n in nlp.pipe_names if n.startswith("chemie_")]
    order = ["chemie_ner", "chemie_mentions", "chemie_actions", "chemie_coref", "chemie_bridging"]
    present = [n for n in order if n in names]
    assert present == [n for n in names if n in order]
    assert "chemie_mentions" in names and "chemie_coref" in names


def test_load_options():
    assert "chemie_ner" not in load(ner=False).pipe_names
    assert chemie.load(coref="atomic").get_pipe("chemie_coref").mode == "atomic"
    with pytest.raises(ValueError, match="coref"):
        load(coref="closest")
    with pytest.raises(TypeError, match="unknown component"):
        load(parser={})


def test_doc_from_document_keeps_tokens_and_sentences(nlp, mini):
    d = mini[0]
    doc = doc_from_document(nlp, d)
    assert [t.text for t in doc] == [t.text for t in d.tokens]
    assert doc.text == d.text
    assert doc._.doc_id == d.id
    starts = [i for i, t in enumerate(doc) if t.is_sent_start]
    assert starts == [a for a, _ in d.sentences]


def test_doc_from_document_gold_mentions(nlp, mini):
    d = mini[0]
    doc = doc_from_document(nlp, d, gold_mentions=True)
    assert [m.spans for m in doc._.mentions] == [m.spans for m in d.mentions]
    for m in doc._.mentions:
        assert {"kind", "head", "sentence", "tokens"} <= set(m.attrs)


def test_annotate_pretokenized_preserves_input(nlp, mini):
    d = mini[0]
    out = annotate(nlp, d)
    assert (out.id, out.text, out.tokens, out.sentences) == (d.id, d.text, d.tokens, d.sentences)
    assert out.meta["format"] == "chemu"
    assert out.mentions and all(m.rule for m in out.mentions)
    assert all(r.rule for r in out.relations)
    ids = {m.id for m in out.mentions}
    assert all(r.head in ids and r.tail in ids for r in out.relations)
    for m in out.mentions:
        assert m.text == out.span_text(m.spans)


def test_annotate_maps_offsets_when_text_has_extra_spaces(nlp):
    text = "Water  (5 mL)  was added ."
    words = ["Water", "(", "5", "mL", ")", "was", "added", "."]
    tokens, pos = [], 0
    for w in words:
        pos = text.index(w, pos)
        tokens.append(Token(w, pos, pos + len(w)))
        pos += len(w)
    out = annotate(nlp, Document("x", text, tokens, [(0, len(tokens))]))
    assert any(m.text == "Water  (5 mL)" for m in out.mentions)


def test_annotate_text_and_describe(nlp):
    text = example_path("example.txt").read_text(encoding="utf-8")
    d = annotate_text(nlp, text, "example")
    assert d.id == "example" and d.tokens and d.sentences
    assert any(r.label == "COREFERENCE" for r in d.relations)
    out = describe(d)
    assert "--COREFERENCE[" in out and "the title compound" in out


def test_to_document_and_relations_frame(nlp):
    doc = nlp("Step 1 Synthesis of 4-bromophenol\nThe residue gave the title compound (1 g).")
    doc._.doc_id = "d1"
    d = to_document(doc)
    assert d.id == "d1" and d.text == doc.text
    frame = relations_frame([d])
    assert list(frame.columns) == RELATION_COLUMNS
    assert len(frame) == len(d.relations)
    row = frame[frame.label == "COREFERENCE"].iloc[0]
    assert d.text[row.anaphor_start : row.anaphor_end].startswith(row.anaphor.split()[0])
