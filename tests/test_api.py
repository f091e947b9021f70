"""The Python API as the README shows it."""

from __future__ import annotations

import pytest

import chemie
from chemie.errors import InputError, atomic_write
from chemie.nlp import relations_frame


@pytest.fixture(scope="module")
def nlp():
    return chemie.load()


def test_lists_are_never_none(nlp):
    doc = nlp("Hello.")
    assert doc._.mentions == [] and doc._.relations == [] and doc._.actions == []
    assert list(nlp("")._.relations) == []


def test_lists_are_per_doc(nlp):
    a, b = nlp("Water was added."), nlp("Hello.")
    assert a._.mentions and not b._.mentions


def test_relations_frame_accepts_spacy_docs(nlp):
    doc = nlp(
        "Acetic acid (9.8 ml) and water (4.9 ml) were added to the solution in a flask. "
        "The mixture was stirred at 100 °C for 1 hour."
    )
    frame = relations_frame([doc])
    assert len(frame) == len(doc._.relations) > 0
    assert frame["rule"].notna().all()
    assert frame["confidence"].between(0, 1).all()


def test_atomic_write_names_the_target_when_parent_is_a_file(tmp_path):
    blocker = tmp_path / "somefile.txt"
    blocker.write_text("x")
    with pytest.raises(OSError) as e, atomic_write(blocker / "out.jsonl") as fh:
        fh.write("never")
    assert e.value.filename == str(blocker / "out.jsonl")
    assert "not a folder" in e.value.strerror


@pytest.mark.parametrize("text", ["\ud800", "Water (5 mL) was added to 2\udc00b."])
def test_a_lone_surrogate_is_the_error_the_command_line_gives(nlp, text):
    bad = next(i for i, ch in enumerate(text) if "\ud800" <= ch <= "\udfff")
    message = rf"^character {bad}: lone surrogate \\u{ord(text[bad]):04x}: not valid Unicode$"
    with pytest.raises(InputError, match=message):
        nlp(text)
    with pytest.raises(InputError, match=message):
        list(nlp.pipe([text]))
