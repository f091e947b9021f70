"""The brat entity scorer (ChEMU 2020): exact and relaxed matching, groups, errors, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chemie.cli import main
from chemie.errors import InputError
from chemie.model import ROLE_ENTITY_LABELS, Document, Mention
from chemie.scoring.entities import score_entities, score_files

TEXT = "Acetone (5 mL) was added to benzoic acid at 20 C for 2 h and stirred."


def doc(*entities: tuple[str, int, int], doc_id: str = "d", text: str = TEXT) -> Document:
    """A document with one mention per ``(label, start, end)``."""
    mentions = [
        Mention(f"T{i}", ((a, b),), label, text[a:b]) for i, (label, a, b) in
        enumerate(entities, 1)
    ]
    return Document(doc_id, text, mentions=mentions)


def counts(report, table: str, row: str) -> tuple[int, int, int]:
    frame = report.table(table)
    return tuple(int(frame.loc[row, c]) for c in ("tp", "fp", "fn"))


def write(folder: Path, name: str, text: str, ann: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    (folder / f"{name}.ann").write_text(ann, encoding="utf-8")


def test_identical_documents_score_one_and_every_label_is_a_row():
    ents = [("SOLVENT", 0, 7), ("REACTION_STEP", 19, 24), ("STARTING_MATERIAL", 28, 40)]
    report = score_entities([doc(*ents)], [doc(*ents)])
    for group in ("entities", "triggers"):
        for mode in ("exact", "relaxed"):
            assert report.figures[f"{group}_{mode}_f1"] == 1.0
    assert list(report.table("entities exact").index) == [*ROLE_ENTITY_LABELS, "overall"]
    assert list(report.table("triggers exact").index) == ["REACTION_STEP", "WORKUP", "overall"]


def test_triggers_are_scored_apart_from_entities():
    gold = doc(("SOLVENT", 0, 7), ("REACTION_STEP", 19, 24))
    pred = doc(("SOLVENT", 0, 7), ("WORKUP", 19, 24))
    report = score_entities([gold], [pred])
    assert counts(report, "entities exact", "overall") == (1, 0, 0)
    assert counts(report, "triggers exact", "REACTION_STEP") == (0, 0, 1)
    assert counts(report, "triggers exact", "WORKUP") == (0, 1, 0)
    assert report.figures["triggers_exact_f1"] == 0.0


def test_a_shifted_boundary_is_relaxed_but_not_exact():
    gold = doc(("TEMPERATURE", 44, 48))  # "20 C"
    pred = doc(("TEMPERATURE", 41, 48))  # "at 20 C"
    report = score_entities([gold], [pred])
    assert counts(report, "entities exact", "TEMPERATURE") == (0, 1, 1)
    assert counts(report, "entities relaxed", "TEMPERATURE") == (1, 0, 0)


def test_a_span_with_another_label_does_not_match():
    report = score_entities([doc(("SOLVENT", 0, 7))], [doc(("REAGENT_CATALYST", 0, 7))])
    assert counts(report, "entities relaxed", "SOLVENT") == (0, 0, 1)
    assert counts(report, "entities relaxed", "REAGENT_CATALYST") == (0, 1, 0)


def test_relaxed_uses_a_maximum_matching_not_a_greedy_one():
    # pred 0-12 overlaps both gold spans, pred 9-10 only the first: a greedy pairing of the
    # first prediction with the first gold span would leave one gold span unmatched
    gold = doc(("OTHER_COMPOUND", 0, 7), ("OTHER_COMPOUND", 9, 13))
    pred = doc(("OTHER_COMPOUND", 0, 12), ("OTHER_COMPOUND", 2, 4))
    report = score_entities([gold], [pred])
    assert counts(report, "entities relaxed", "OTHER_COMPOUND") == (2, 0, 0)


def test_a_duplicate_prediction_matches_once():
    gold = doc(("SOLVENT", 0, 7))
    pred = doc(("SOLVENT", 0, 7), ("SOLVENT", 0, 7))
    assert counts(score_entities([gold], [pred]), "entities exact", "SOLVENT") == (1, 1, 0)


def test_a_missing_prediction_counts_its_gold_entities_as_missed():
    gold = [doc(("SOLVENT", 0, 7), doc_id="a"), doc(("TIME", 53, 56), doc_id="b")]
    report = score_entities(gold, [doc(("SOLVENT", 0, 7), doc_id="a")])
    assert counts(report, "entities exact", "overall") == (1, 0, 1)
    assert "1 gold documents had no prediction" in report.notes


def test_other_labels_are_scored_with_the_entities_and_noted():
    report = score_entities([doc(("SOLVENT", 0, 7))], [doc(("ENTITY", 0, 7))])
    assert counts(report, "entities exact", "ENTITY") == (0, 1, 0)
    assert any("ENTITY" in n for n in report.notes)


def test_unknown_or_repeated_or_changed_prediction_documents():
    with pytest.raises(InputError, match="document zz is not in the gold data"):
        score_entities([doc()], [doc(doc_id="zz")])
    with pytest.raises(InputError, match="document d is predicted twice"):
        score_entities([doc()], [doc(), doc()])
    with pytest.raises(InputError, match="document d: text differs"):
        score_entities([doc()], [doc(text=TEXT.upper())])


def test_brat_folders(tmp_path):
    write(tmp_path / "gold", "s1", TEXT,
          "T1\tSOLVENT 0 7\tAcetone\nT2\tREACTION_STEP 19 24\tadded\n")
    write(tmp_path / "pred", "s1", TEXT,
          "T1\tSOLVENT 0 7\tAcetone\n#1\tAnnotatorNotes T1\trule=in_solvent\n"
          "T2\tREACTION_STEP 19 24\tadded\nE1\tREACTION_STEP:T2 Arg1:T1\n")
    report = score_files(tmp_path / "gold", tmp_path / "pred")
    assert report.figures["entities_exact_f1"] == 1.0
    assert report.figures["triggers_exact_f1"] == 1.0


def test_cli_json(tmp_path, capsys):
    write(tmp_path / "gold", "s1", TEXT, "T1\tSOLVENT 0 7\tAcetone\nT2\tTIME 53 56\t2 h\n")
    write(tmp_path / "pred", "s1", TEXT, "T1\tSOLVENT 0 7\tAcetone\n")
    code = main(["score", "entities", str(tmp_path / "gold"), str(tmp_path / "pred"), "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["task"] == "entities"
    assert data["tables"]["entities exact"]["TIME"]["fn"] == 1
    assert data["figures"]["entities_exact_f1"] == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    ("ann", "message"),
    [
        ("T1\tSOLVENT 0 7\tAcetone\nT2\tTIME 53\t2 h\n", ":2: T2: bad offsets"),
        ("T1\tSOLVENT 0 700\tAcetone\n", ":1: T1: offsets 0 700 outside the text"),
        ("T1\tSOLVENT 0 7\tAcetone\nT2 TIME 53 56\n", ":2: malformed line"),
    ],
)
def test_cli_bad_ann_line_names_file_and_line(tmp_path, capsys, ann, message):
    write(tmp_path / "gold", "s1", TEXT, "T1\tSOLVENT 0 7\tAcetone\n")
    write(tmp_path / "pred", "s1", TEXT, ann)
    code = main(["score", "entities", str(tmp_path / "gold"), str(tmp_path / "pred")])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{tmp_path / 'pred' / 's1.ann'}{message}" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("task, says, absent", [
    ("entities", "Entity scoring for brat folders", "--resamples"),
    ("cem", "bootstrap", "--rc-format"),
    ("rc", "--rc-format", "--resamples"),
])
def test_a_task_help_is_its_own(capsys, task, says, absent):
    with pytest.raises(SystemExit) as e:
        main(["score", task, "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: chemie score {task} ") and says in out and absent not in out
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    assert "chemie score TASK" in capsys.readouterr().out
