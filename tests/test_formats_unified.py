"""Unified relation-classification format: tokens + pairs files."""

from __future__ import annotations

import io

import pytest

from chemie.errors import InputError
from chemie.formats import unified


def test_read_tokens_entities_and_sentences(fixtures):
    docs = unified.read_tokens(fixtures / "rc/cv-tokens.txt")
    assert list(docs) == ["cv-0001", "cv-0002"]
    doc = docs["cv-0001"]
    assert len(doc.sentences) == 3
    ent = doc.entities["cv-0001.4"]
    assert (ent.text, ent.sentence, ent.start, ent.end) == ("mean average precision", 1, 4, 5)


def test_tokens_and_pairs_round_trip_byte_for_byte(fixtures):
    for name in ("cv-tokens.txt", "cv-pairs.txt"):
        path = fixtures / "rc" / name
        out = io.StringIO()
        if name == "cv-tokens.txt":
            unified.write_tokens(unified.read_tokens(path).values(), out)
        else:
            unified.write_pairs(unified.read_pairs(path), out)
        assert out.getvalue() == path.read_text()


def test_pairs_label_and_rule_columns(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("a.1\ta.2\n a.1\ta.3\tUSAGE\tusage_for\n".replace(" ", ""))
    pairs = unified.read_pairs(path)
    assert pairs[0].label is None
    assert (pairs[1].label, pairs[1].rule, pairs[1].line) == ("USAGE", "usage_for", 2)
    out = io.StringIO()
    unified.write_pairs(pairs, out, explain=True)
    assert out.getvalue().splitlines()[1] == "a.1\ta.3\tUSAGE\tusage_for"


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("d\t0\t0\tw\tNO-ENTITY\nd\t0\t1\tw\n", 2, "expected 5 tab-separated fields"),
        ("d\t0\t0\tw\tNO-ENTITY\nd\t0\t2\tw\tNO-ENTITY\n", 2, "token number 2, expected 1"),
        ("d\tx\t0\tw\tNO-ENTITY\n", 1, "is not a number"),
        ("d\t0\t0\tw\td.1\nd\t0\t1\tw\td.1\n", 2, "duplicate entity id"),
        ("d\t0\t0\tw\tNO-ENTITY\ne\t0\t0\tw\tNO-ENTITY\nd\t1\t0\tw\tNO-ENTITY\n", 3,
         "not contiguous"),
    ],
)
def test_bad_tokens_file_names_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "t.txt"
    path.write_text(text)
    with pytest.raises(InputError, match=message) as e:
        unified.read_tokens(path)
    assert (e.value.path, e.value.line) == (str(path), line)


def test_bad_pairs_line(tmp_path):
    path = tmp_path / "p.txt"
    path.write_text("a\tb\tUSAGE\nonly-one-field\n")
    with pytest.raises(InputError) as e:
        unified.read_pairs(path)
    assert e.value.line == 2
