"""brat standoff: reading, writing back, errors, conversion from ChEMU-Ref jsonl."""

from __future__ import annotations

import itertools
import shutil

import pytest

from chemie.errors import InputError
from chemie.formats.brat import format_ann, read_brat_dir, read_brat_pair, write_brat
from chemie.formats.chemu import iter_chemu
from chemie.model import Document, Mention, Relation, mention_attrs
from chemie.scoring.anaphora import score_files


def _pairs(doc: Document) -> list[tuple]:
    m = doc.mention_index()
    return [(r.label, m[r.head].spans, m[r.tail].spans, r.rule) for r in doc.relations]


def _mentions(doc: Document) -> list[tuple]:
    return [(m.spans, m.label, m.text, m.rule, mention_attrs(m)) for m in doc.mentions]


def test_reads_fixture(fixtures):
    folder = fixtures / "brat"
    doc = read_brat_pair(folder / "s1.txt", folder / "s1.ann")
    assert doc.id == "s1"
    assert [m.id for m in doc.mentions] == ["T1", "T2", "T3", "T4"]
    t1 = doc.mention("T1")
    assert [doc.text[a:b] for a, b in t1.spans] == ["Ethyl acetate", "layers"]
    assert [(r.id, r.label, r.head, r.tail) for r in doc.relations] == [
        ("R1", "CONTAINED", "T2", "T1"),
        ("R2", "WORK_UP", "T2", "T1"),
        ("R3", "WORK_UP", "T3", "T2"),
    ]
    assert doc.relations[2].rule == "workup.title_compound"
    assert doc.relations[0].rule is None
    assert doc.mention("T3").rule == "mention.title_compound"
    assert mention_attrs(doc.mention("T4")) == {"notes": ["drying agent"]}
    assert [t.text for t in doc.tokens][:3] == ["Ethyl", "acetate", "and"]
    assert all(doc.text[t.start : t.end] == t.text for t in doc.tokens)


def test_read_dir_is_sorted_and_tolerates_missing_ann(fixtures):
    docs = list(read_brat_dir(fixtures / "brat"))
    assert [d.id for d in docs] == ["s1", "s2"]
    assert docs[1].mentions == [] and docs[1].relations == []
    assert docs[1].text == "The solid was collected.\n"


def test_round_trip_with_notes(fixtures, tmp_path):
    first = read_brat_pair(fixtures / "brat" / "s1.txt", fixtures / "brat" / "s1.ann")
    write_brat(first, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s1.ann", "s1.txt"]
    again = read_brat_pair(tmp_path / "s1.txt", tmp_path / "s1.ann")
    assert again.text == first.text
    assert _mentions(again) == _mentions(first)
    assert _pairs(again) == _pairs(first)
    assert format_ann(again) == format_ann(first)


def test_format_renumbers_non_brat_ids():
    doc = Document("x", "The solid was dried.")
    doc.mentions = [Mention("solid", ((0, 9),)), Mention("it", ((4, 9),), rule="m.rule")]
    doc.relations = [Relation("COREFERENCE", "solid", "it", rule="coref.test")]
    assert format_ann(doc).splitlines() == [
        "T1\tENTITY 0 9\tThe solid",
        "T2\tENTITY 4 9\tsolid",
        "R1\tCOREFERENCE Arg1:T1 Arg2:T2",
        "#1\tAnnotatorNotes T2\trule=m.rule",
        "#2\tAnnotatorNotes R1\trule=coref.test",
    ]


def test_mention_confidence_is_written_as_a_note_and_read_back(tmp_path):
    doc = Document("x", "The solid was dried over MgSO4.")
    doc.mentions = [
        Mention("T1", ((0, 9),), rule="generic_np", confidence=0.92),
        Mention("T2", ((25, 30),), rule="chemical_np", confidence=0.8333333333333334,
                notes=["drying agent"]),
        Mention("T3", ((4, 9),), confidence=0.5),
        Mention("T4", ((14, 19),), rule="verb"),
    ]
    notes = [line.split("\t")[1:] for line in format_ann(doc).splitlines() if line[0] == "#"]
    assert notes == [
        ["AnnotatorNotes T1", "rule=generic_np confidence=0.92"],
        ["AnnotatorNotes T2", "rule=chemical_np confidence=0.8333333333333334"],
        ["AnnotatorNotes T2", "drying agent"],
        ["AnnotatorNotes T3", "confidence=0.5"],
        ["AnnotatorNotes T4", "rule=verb"],
    ]
    write_brat(doc, tmp_path)
    again = read_brat_pair(tmp_path / "x.txt", tmp_path / "x.ann")
    assert [(m.rule, m.confidence, mention_attrs(m)) for m in again.mentions] == [
        (m.rule, m.confidence, mention_attrs(m)) for m in doc.mentions
    ]
    assert format_ann(again) == format_ann(doc)


def test_format_refuses_bad_documents():
    doc = Document("x", "abc")
    doc.mentions = [Mention("T1", ((0, 9),))]
    with pytest.raises(ValueError, match="outside the text"):
        format_ann(doc)
    doc.mentions = [Mention("T1", ((0, 1),))]
    doc.relations = [Relation("WORK_UP", "T1", "T9")]
    with pytest.raises(ValueError, match="unknown mention T9"):
        format_ann(doc)
    with pytest.raises(ValueError, match="file name"):
        write_brat(Document("../x", "abc"), "unused")


def test_jsonl_to_brat_keeps_relations(fixtures, tmp_path):
    src = fixtures / "chemu" / "small.jsonl"
    for doc in iter_chemu(src):
        write_brat(doc, tmp_path)
    converted = list(read_brat_dir(tmp_path))
    originals = list(iter_chemu(src))
    assert [d.id for d in converted] == [d.id for d in originals]
    for a, b in zip(originals, converted, strict=True):
        assert a.text == b.text
        assert _pairs(a) == _pairs(b)
        assert [t.text for t in a.tokens] == [t.text for t in b.tokens]


def test_corpus_slice_converts_and_scores_perfectly(corpus, tmp_path):
    src = corpus("chemu-ref/train.jsonl")
    gold = tmp_path / "gold.jsonl"
    with open(src, encoding="utf-8") as fh:
        gold.write_text("".join(itertools.islice(fh, 60)), encoding="utf-8")
    folder = tmp_path / "brat"
    for doc in iter_chemu(gold):
        write_brat(doc, folder)
    converted = {d.id: d for d in read_brat_dir(folder)}
    originals = {d.id: d for d in iter_chemu(gold)}
    assert converted.keys() == originals.keys()
    for doc_id, doc in originals.items():
        assert _pairs(converted[doc_id]) == _pairs(doc)
    report = score_files(gold, folder)
    for mode in ("exact", "relaxed"):
        assert set(report.table(mode)["f1"]) == {1.0}


def _write(folder, ann: str, text: str = "Ethyl acetate and water.\n"):
    folder.mkdir(exist_ok=True)
    (folder / "d.txt").write_text(text)
    (folder / "d.ann").write_text(ann)
    return folder / "d.txt", folder / "d.ann"


@pytest.mark.parametrize(
    ("ann", "line", "message"),
    [
        ("T1\tENTITY 0 5\tEthyl\nT2 ENTITY 6 13\n", 2, "malformed line"),
        ("T1\tENTITY 0 five\tEthyl\n", 1, "bad offsets"),
        ("T1\tENTITY 0 5\tEthyl\nT2\tENTITY 20 99\tx\n", 2, "outside the text"),
        ("T1\tENTITY 0 5\tEthyl\nT2\tENTITY 6 13\tacetone\n", 2, "does not match the .txt"),
        ("T1\tENTITY 0 5\tEthyl\nR1\tWORK_UP Arg1:T1 Arg2:T7\n", 2, "T7 is not a defined T id"),
        ("T1\tENTITY 0 5\tEthyl\nR1\tWORK_UP Arg1:T1\n", 2, "expected 'LABEL Arg1:ID"),
        ("T1\tENTITY 0 5\tEthyl\nT1\tENTITY 0 5\tEthyl\n", 2, "defined twice"),
        ("T1\tENTITY 0 5\tEthyl\n#1\tAnnotatorNotes T5\tx\n", 2, "T5, which is not defined"),
        ("X1\tfoo\n", 1, "unknown annotation"),
    ],
)
def test_bad_ann(tmp_path, ann, line, message):
    txt, ann_path = _write(tmp_path / "b", ann)
    with pytest.raises(InputError, match=message) as e:
        read_brat_pair(txt, ann_path)
    assert (e.value.path, e.value.line) == (str(ann_path), line)


def test_text_check_tolerates_whitespace_and_discontinuous(tmp_path):
    txt, ann = _write(
        tmp_path / "w", "T1\tENTITY 0 5;18 23\tEthyl water\n", "Ethyl acetate and\nwater.\n"
    )
    doc = read_brat_pair(txt, ann)
    assert doc.mention("T1").text == "Ethyl water"


def test_ann_without_txt(tmp_path, fixtures):
    folder = tmp_path / "c"
    shutil.copytree(fixtures / "brat", folder)
    (folder / "s2.txt").rename(folder / "s3.txt")
    (folder / "s2.ann").write_text("")
    docs = read_brat_dir(folder)
    assert next(docs).id == "s1"
    with pytest.raises(InputError, match="no matching text file s2.txt"):
        next(docs)


def test_not_a_folder(tmp_path):
    with pytest.raises(InputError, match="not a folder"):
        list(read_brat_dir(tmp_path / "missing"))


def test_note_text_may_contain_tabs(tmp_path):
    txt, ann = _write(
        tmp_path / "n", "T1\tENTITY 0 5\tEthyl\n#1\tAnnotatorNotes T1\tsee\ttable 2\n"
    )
    assert read_brat_pair(txt, ann).mention("T1").notes == ["see\ttable 2"]
