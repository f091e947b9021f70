"""SciERC json: documents, entity ids, relations, round trip."""

from __future__ import annotations

import io
import json

import pytest

from chemie.errors import InputError
from chemie.formats import scierc


def test_read_entities_and_relations(fixtures):
    docs, pairs = scierc.read(fixtures / "rc/scierc.json")
    doc = docs["Y01-0001"]
    assert list(doc.entities) == ["Y01-0001.1", "Y01-0001.2", "Y01-0001.3", "Y01-0001.4",
                                  "Y01-0001.5"]
    ent = doc.entities["Y01-0001.2"]
    assert (ent.text, ent.sentence, ent.start, ent.end) == ("German text", 0, 5, 7)
    assert doc.entities["Y01-0001.4"].sentence == 1
    assert doc.entities["Y01-0001.4"].start == 4  # document index 12 - 8
    assert [(p.head, p.tail, p.label) for p in pairs][:2] == [
        ("Y01-0001.1", "Y01-0001.2", "USED-FOR"),
        ("Y01-0001.3", "Y01-0001.4", "EVALUATE-FOR"),
    ]


def test_round_trip_keeps_every_key(fixtures):
    path = fixtures / "rc/scierc.json"
    docs, pairs = scierc.read(path)
    out = io.StringIO()
    scierc.write(docs, pairs, out)
    assert [json.loads(x) for x in out.getvalue().splitlines()] == [
        json.loads(x) for x in path.read_text().splitlines()
    ]


def test_explain_adds_rules(fixtures):
    docs, pairs = scierc.read(fixtures / "rc/scierc.json")
    out = io.StringIO()
    scierc.write(docs, [p.__class__(p.head, p.tail, p.label, p.line, "r") for p in pairs], out,
                 explain=True)
    first = json.loads(out.getvalue().splitlines()[0])
    assert first["relation_rules"] == [["r"], ["r", "r"]]


@pytest.mark.parametrize(
    "line, message",
    [
        ("{not json", "bad JSON"),
        ('{"doc_key": "d", "sentences": [["a", "b"], ["c"]], "ner": [[[1, 2, "T"]], []]}',
         "crosses a sentence"),
        ('{"doc_key": "d", "sentences": [["a", "b"]], "ner": [[[0, 0, "T"]]],'
         ' "relations": [[[0, 0, 1, 1, "USED-FOR"]]]}', "is not in ner"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path, line, message):
    path = tmp_path / "bad.json"
    path.write_text('{"doc_key": "ok", "sentences": [["a"]], "ner": [[]], "relations": [[]]}\n'
                    + line + "\n")
    with pytest.raises(InputError, match=message) as e:
        scierc.read(path)
    assert e.value.line == 2


@pytest.mark.corpus
def test_corpus_round_trip(corpus):
    path = corpus("scierc/scierc_nlp.json")
    docs, pairs = scierc.read(path)
    assert len(docs) == 259
    assert len({p.key() for p in pairs}) == len(pairs)
