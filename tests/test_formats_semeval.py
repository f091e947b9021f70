"""SemEval-2018 Task 7 XML and LABEL(E1,E2[,REVERSE]) relation files."""

from __future__ import annotations

import io

import pytest

from chemie.errors import InputError
from chemie.formats import semeval
from chemie.rc.examples import build_examples


def _spans(docs):
    return {
        d.id: (d.sentences, {e.id: (e.sentence, e.start, e.end) for e in d.entities.values()})
        for d in docs.values()
    }


def test_read_xml_entities_sentences_nesting(fixtures):
    docs = semeval.read_xml(fixtures / "rc/semeval.xml")
    doc = docs["X01-0001"]
    assert doc.sentences[0] == ["A", "parser", "for", "German"]  # the title
    assert len(doc.sentences) == 4  # title + three abstract sentences
    assert "89.5" in doc.sentences[2] and "&" in doc.sentences[2]
    outer, inner = doc.entities["X01-0001.8"], doc.entities["X01-0001.9"]
    assert (outer.text, outer.start, outer.end) == ("grammar rules", 1, 3)
    assert (inner.start, inner.end) == (2, 3)
    assert docs["X01-0002"].entities == {}


def test_xml_round_trip(fixtures, tmp_path):
    docs = semeval.read_xml(fixtures / "rc/semeval.xml")
    out = tmp_path / "out.xml"
    with out.open("w") as fh:
        semeval.write_xml(docs, fh)
    assert _spans(semeval.read_xml(out)) == _spans(docs)


def test_relations_direction_and_round_trip(fixtures):
    path = fixtures / "rc/semeval-relations.txt"
    pairs = semeval.read_relations(path)
    rev = pairs[2]
    assert (rev.head, rev.tail, rev.label) == ("X01-0001.6", "X01-0001.5", "RESULT")
    out = io.StringIO()
    semeval.write_relations(pairs, out)
    assert out.getvalue() == path.read_text()


def test_pairs_without_label_are_read(tmp_path):
    path = tmp_path / "pairs.txt"
    path.write_text("(A-1.1,A-1.2)\n")
    (pair,) = semeval.read_relations(path)
    assert (pair.head, pair.tail, pair.label) == ("A-1.1", "A-1.2", None)


@pytest.mark.parametrize(
    "body, line, message",
    [
        ('<abstract>x <entity id="A-1.1">y</abstract>', 3, "not closed"),
        ('<abstract>x\n<entity>y</entity></abstract>', 4, "entity without an id"),
        ('<abstract><entity id="A-1.1">y</entity>\n<entity id="A-1.1">z</entity></abstract>',
         4, "duplicate entity id"),
        ('<abstract>x </entity></abstract>', 3, "without <entity>"),
        ('<abstract>a < b</abstract>', 3, "malformed tag"),
    ],
)
def test_malformed_xml_names_file_and_line(tmp_path, body, line, message):
    path = tmp_path / "bad.xml"
    path.write_text(f'<?xml version="1.0"?>\n<doc>\n<text id="A-1"><title>t</title>{body}'
                    "</text>\n</doc>\n")
    with pytest.raises(InputError, match=message) as e:
        semeval.read_xml(path)
    assert (e.value.path, e.value.line) == (str(path), line)


@pytest.mark.parametrize(
    "text, message",
    [
        ("USAGE(A-1.1;A-1.2)\n", "expected LABEL"),
        ("USAGE(A-1.2,A-1.1)\n", "out of text order"),
        ("USAGE(A-1.1,A-1.2)\nRESULT(A-1.1,A-1.2,REVERSE)\n", "repeats line 1"),
        ("USAGE(A-1.1,A-1.2)\nUSAGE(A-1.1,A-1.2,REVERSE)\n", "another label or direction"),
    ],
)
def test_bad_relation_lines(tmp_path, text, message):
    path = tmp_path / "rel.txt"
    path.write_text(text)
    with pytest.raises(InputError, match=message):
        semeval.read_relations(path)


def test_a_verbatim_repeated_relation_is_read_again(tmp_path):
    path = tmp_path / "rel.txt"
    path.write_text("USAGE(A-1.1,A-1.2)\nUSAGE(A-1.1,A-1.2)\n")
    assert [(p.head, p.label, p.line) for p in semeval.read_relations(path)] == [
        ("A-1.1", "USAGE", 1), ("A-1.1", "USAGE", 2)]


@pytest.mark.corpus
@pytest.mark.parametrize("subtask", ["1.1", "1.2"])
def test_corpus_reads_and_every_gold_pair_is_in_one_sentence(corpus, subtask):
    docs = semeval.read_xml(corpus(f"semeval2018-task7/{subtask}.text.xml"))
    pairs = semeval.read_relations(corpus(f"semeval2018-task7/{subtask}.relations.txt"))
    assert len(docs) == 300
    examples = build_examples(docs, pairs, "gold")  # raises on a cross-sentence pair
    assert len(examples) == len(pairs)


def test_explained_relations_read_back(tmp_path):
    path = tmp_path / "pred.txt"
    path.write_text("USAGE(A-1.1,A-1.2,REVERSE)\tusage_based_on\n")
    (pair,) = semeval.read_relations(path)
    assert (pair.head, pair.rule) == ("A-1.2", "usage_based_on")


def test_semeval_document_written_as_unified_tokens(fixtures):
    from chemie.formats import unified

    docs = semeval.read_xml(fixtures / "rc/semeval.xml")
    out = io.StringIO()
    unified.write_tokens(docs.values(), out)
    lines = [line.split("\t") for line in out.getvalue().splitlines()]
    entities = {row[4]: row[3] for row in lines if row[4] != "NO-ENTITY"}
    assert entities["X01-0001.3"] == "statistical parser"
    assert entities["X01-0001.8"] == "grammar rules"  # the outer of two nested entities
