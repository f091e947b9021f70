"""IOB TSV reader/writer."""

from __future__ import annotations

import pytest

from chemie.errors import InputError
from chemie.formats.iob import IOBSentence, iob_spans, read_iob, spans_to_tags, write_iob

TEXT = (
    "Selegiline\tB-Chemical\n-\tO\ninduced\tO\n\n"
    "N\tB-Chemical\n-\tI-Chemical\nacetyl\tI-Chemical\n"
)


def test_round_trip(tmp_path):
    src = tmp_path / "a.tsv"
    src.write_text(TEXT, encoding="utf-8")
    sents = read_iob(src)
    assert [s.words for s in sents] == [["Selegiline", "-", "induced"], ["N", "-", "acetyl"]]
    assert sents[1].line == 5 and sents[1].lines == [5, 6, 7]
    out = tmp_path / "b.tsv"
    write_iob(out, sents)
    again = read_iob(out)
    assert [(s.words, s.tags) for s in again] == [(s.words, s.tags) for s in sents]


def test_spans_and_tags_are_inverse():
    tags = ["B-Chemical", "I-Chemical", "O", "B-Chemical", "B-Chemical", "O"]
    spans = iob_spans(tags)
    assert spans == [(0, 2, "Chemical"), (3, 4, "Chemical"), (4, 5, "Chemical")]
    assert spans_to_tags(len(tags), spans) == tags


def test_stray_inside_tag_starts_a_span():
    assert iob_spans(["O", "I-Chemical", "I-Chemical"]) == [(1, 3, "Chemical")]
    assert iob_spans(["B-A", "I-B"]) == [(0, 1, "A"), (1, 2, "B")]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("word\tO\nnotab\n", r"x.tsv:2: expected token<TAB>tag"),
        ("word\tX-Chem\n", r"x.tsv:1: bad tag"),
        ("\n\n", r"x.tsv: empty IOB file"),
        ("\tO\n", r"x.tsv:1: empty token"),
    ],
)
def test_errors_name_file_and_line(tmp_path, text, match):
    p = tmp_path / "x.tsv"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=match):
        read_iob(p)


def test_writer_is_atomic_on_bad_sentence(tmp_path):
    out = tmp_path / "out.tsv"
    out.write_text("old", encoding="utf-8")
    bad = IOBSentence(["a", "b"], ["O"])
    with pytest.raises(ValueError):
        write_iob(out, [bad])
    assert out.read_text(encoding="utf-8") == "old"
