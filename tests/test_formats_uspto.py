"""USPTO paragraphs as documents: the title is the heading; bad lines are FILE:LINE errors."""

from __future__ import annotations

import json

import pytest

from chemie.errors import InputError
from chemie.formats.uspto import is_uspto_object, iter_uspto


def test_title_becomes_the_heading(tmp_path):
    path = tmp_path / "p.jsonl"
    rows = [{"id": "a1", "title": "Benzyl  benzoate", "text": "Benzoic acid was heated.",
             "products": ["O=C(OCc1ccccc1)c1ccccc1"]},
            {"id": "a2", "text": "No title here."}]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    docs = list(iter_uspto(path))
    assert [d.id for d in docs] == ["a1", "a2"]
    assert docs[0].text == "Benzyl benzoate\nBenzoic acid was heated."
    assert docs[0].meta["heading"] == (0, len("Benzyl benzoate"))
    assert docs[1].text == "No title here." and docs[1].meta["heading"] is None


@pytest.mark.parametrize("line, message", [
    ("{not json", "malformed JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"text": "x"}', "'id' must be a non-empty string"),
    ('{"id": "a", "text": 3}', "'text' must be a string"),
    ('{"id": "a", "text": "x", "title": ["t"]}', "'title' must be a string"),
])
def test_bad_lines(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "ok", "text": "fine"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=message) as e:
        list(iter_uspto(path))
    assert str(e.value).startswith(f"{path}:2:")


def test_too_long(tmp_path):
    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps({"id": "a", "title": "t", "text": "x" * 50}) + "\n")
    with pytest.raises(InputError, match="1:"):
        list(iter_uspto(path, max_chars=20))


def test_shape():
    assert is_uspto_object({"id": "a", "text": "x"})
    assert not is_uspto_object({"doc_key": "a", "sentences": [["x"]]})
    assert not is_uspto_object(["text"])


def test_the_80_paragraphs_read(corpus):
    docs = list(iter_uspto(corpus("uspto-reactions/dev.jsonl")))
    assert len(docs) == 80 and len({d.id for d in docs}) == 80
    assert all(d.meta["heading"] and "\n" in d.text for d in docs)
