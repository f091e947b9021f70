"""ChEMU 2020 brat output: T lines, trigger-argument E lines, rule notes; `chemie run`."""

from __future__ import annotations

import pytest

from chemie.cli import main
from chemie.formats.brat import read_brat_pair
from chemie.formats.chemu2020 import format_roles_ann
from chemie.model import Document, Role

TEXT = "Acetone (5 mL) was added and stirred at 20 °C for 2 h."


def document() -> Document:
    roles = [
        Role("T1", 0, 7, "SOLVENT", "Acetone", "known_solvent"),
        Role("T2", 19, 24, "REACTION_STEP", "added", "reaction_step", ["T1"]),
        Role("T3", 29, 36, "REACTION_STEP", "stirred", "reaction_step", ["T4", "T5"]),
        Role("T4", 40, 45, "TEMPERATURE", "20 °C", "temperature_degrees"),
        Role("T5", 50, 53, "TIME", "2 h", "time_units"),
    ]
    return Document("d1", TEXT, roles=roles)


def test_t_lines_e_lines_and_rule_notes():
    lines = format_roles_ann(document()).splitlines()
    assert "T1\tSOLVENT 0 7\tAcetone" in lines
    assert "T3\tREACTION_STEP 29 36\tstirred" in lines
    assert "E1\tREACTION_STEP:T2 Arg1:T1" in lines
    assert "E2\tREACTION_STEP:T3 ArgM:T4" in lines
    assert "E3\tREACTION_STEP:T3 ArgM:T5" in lines
    assert "#1\tAnnotatorNotes T1\trule=known_solvent" in lines


def test_the_output_reads_back_as_brat(tmp_path):
    (tmp_path / "d1.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "d1.ann").write_text(format_roles_ann(document()), encoding="utf-8")
    doc = read_brat_pair(tmp_path / "d1.txt", tmp_path / "d1.ann")
    assert [(m.label, m.text, m.rule) for m in doc.mentions][:2] == [
        ("SOLVENT", "Acetone", "known_solvent"), ("REACTION_STEP", "added", "reaction_step")]


def test_a_role_outside_the_text_is_refused():
    doc = document()
    doc.roles.append(Role("T6", 50, 99, "TIME", "", "time_units"))
    with pytest.raises(ValueError, match="outside the text"):
        format_roles_ann(doc)


def test_run_writes_a_brat_folder_of_roles(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "s1.txt").write_text(
        "4-Bromoaniline (1.0 g) was dissolved in methanol (10 mL) and stirred at 20 °C for "
        "2 h. The mixture was concentrated to give 4-bromobenzamide (0.5 g, 60%).\n",
        encoding="utf-8")
    out = tmp_path / "out"
    code = main(["run", str(src), "-o", str(out), "--format", "chemu2020", "--workers", "1",
                 "-q"])
    assert code == 0
    doc = read_brat_pair(out / "s1.txt", out / "s1.ann")
    labels = {(m.text, m.label) for m in doc.mentions}
    assert ("methanol", "SOLVENT") in labels
    assert ("4-bromobenzamide", "REACTION_PRODUCT") in labels
    assert ("60%", "YIELD_PERCENT") in labels
    assert any(line.startswith("E") for line in (out / "s1.ann").read_text().splitlines())


def test_run_refuses_chemu2020_without_an_output(capsys):
    assert main(["run", "--format", "chemu2020"]) == 2
    assert "needs an output" in capsys.readouterr().err
