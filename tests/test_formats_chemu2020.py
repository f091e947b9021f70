"""ChEMU 2020 brat output: T lines, trigger-argument R lines, rule notes; `chemie run`."""

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
        Role("T2", 19, 24, "REACTION_STEP", "added", "reaction_step", ["T1"],
             ["passive_subject"]),
        Role("T3", 29, 36, "REACTION_STEP", "stirred", "reaction_step", ["T4", "T5"],
             ["after_trigger", "after_trigger"]),
        Role("T4", 40, 45, "TEMPERATURE", "20 °C", "temperature_degrees"),
        Role("T5", 50, 53, "TIME", "2 h", "time_units"),
    ]
    return Document("d1", TEXT, roles=roles)


def test_t_lines_r_lines_and_rule_notes():
    lines = format_roles_ann(document()).splitlines()
    assert "T1\tSOLVENT 0 7\tAcetone" in lines
    assert "T3\tREACTION_STEP 29 36\tstirred" in lines
    assert "R1\tARG1 Arg1:T2 Arg2:T1" in lines
    assert "R2\tARGM Arg1:T3 Arg2:T4" in lines
    assert "R3\tARGM Arg1:T3 Arg2:T5" in lines
    assert not any(line.startswith("E") for line in lines)
    assert "#1\tAnnotatorNotes T1\trule=known_solvent" in lines
    assert "#6\tAnnotatorNotes R1\trule=passive_subject" in lines
    assert "#8\tAnnotatorNotes R3\trule=after_trigger" in lines


def test_links_without_rule_names_get_no_note():
    doc = document()
    doc.roles[1].arg_rules = []
    lines = format_roles_ann(doc).splitlines()
    assert "R1\tARG1 Arg1:T2 Arg2:T1" in lines
    assert not any("AnnotatorNotes R1\t" in line for line in lines)


def test_the_output_reads_back_as_brat(tmp_path):
    (tmp_path / "d1.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "d1.ann").write_text(format_roles_ann(document()), encoding="utf-8")
    doc = read_brat_pair(tmp_path / "d1.txt", tmp_path / "d1.ann")
    assert [(m.label, m.text, m.rule) for m in doc.mentions][:2] == [
        ("SOLVENT", "Acetone", "known_solvent"), ("REACTION_STEP", "added", "reaction_step")]
    assert [(r.label, r.head, r.tail, r.rule) for r in doc.relations] == [
        ("ARG1", "T2", "T1", "passive_subject"), ("ARGM", "T3", "T4", "after_trigger"),
        ("ARGM", "T3", "T5", "after_trigger")]


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
    index = doc.mention_index()
    links = {(r.label, index[r.head].text, index[r.tail].text) for r in doc.relations}
    assert ("ARG1", "dissolved", "4-Bromoaniline") in links
    assert ("ARGM", "stirred", "2 h") in links
    assert ("ARGM", "give", "60%") in links
    assert all(r.rule for r in doc.relations)


def test_run_refuses_chemu2020_without_an_output(capsys):
    assert main(["run", "--format", "chemu2020"]) == 2
    assert "needs an output" in capsys.readouterr().err
