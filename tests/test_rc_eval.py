"""``chemie rc-eval``: the matrix, external systems, a new-domain test set, --json."""

from __future__ import annotations

import json

import pytest

from chemie.cli import main
from chemie.rc.harness import TestSet as RCTestSet
from chemie.rc.harness import evaluate


def test_new_domain_testset_and_external_system(fixtures, tmp_path, capsys):
    tokens, pairs = fixtures / "rc/cv-tokens.txt", fixtures / "rc/cv-pairs.txt"
    args = ["rc-eval", "--no-defaults", "--testset", f"cv={tokens},{pairs}",
            "--system", f"oracle=cv:{pairs}", "--train", str(pairs), "--json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    row = data["matrix"]["native"]["cv"]
    assert set(row) == {"rules", "majority", "oracle"}
    assert row["oracle"] == 1.0
    assert row["majority"] < row["rules"]
    assert data["majority_label"] in {"USAGE", "COMPARE"}
    cells = [c for c in data["cells"] if c["system"] == "rules" and c["space"] == "native"]
    assert set(cells[0]["per_class"]) >= {"USAGE", "COMPARE"}


def test_text_matrix_and_config(fixtures, tmp_path, capsys):
    config = tmp_path / "eval.yaml"
    config.write_text(
        f"testsets:\n  sem: {{input: {fixtures / 'rc/semeval.xml'}, "
        f"pairs: {fixtures / 'rc/semeval-relations.txt'}}}\n"
        f"  sci: {{input: {fixtures / 'rc/scierc.json'}}}\n"
        f"systems:\n  gold: {{sci: {fixtures / 'rc/scierc.json'}}}\n"
    )
    out = tmp_path / "report.txt"
    assert main(["rc-eval", "--no-defaults", "--config", str(config), "-o", str(out)]) == 0
    text = out.read_text()
    assert "macro-F1, native labels" in text and "macro-F1, unified labels" in text
    assert "per-class F1: sem, unified labels" in text
    assert "TOPIC" not in text.split("per-class F1: sem, unified labels")[1].split("==")[1]


def test_unknown_testset_in_system_is_refused(fixtures, capsys):
    args = ["rc-eval", "--no-defaults", "--testset",
            f"cv={fixtures / 'rc/cv-tokens.txt'},{fixtures / 'rc/cv-pairs.txt'}",
            "--system", "x=nope:/dev/null"]
    assert main(args) == 2
    assert "unknown test set" in capsys.readouterr().err


def test_evaluate_scores_scierc_in_both_spaces(fixtures):
    ev = evaluate([RCTestSet("sci", fixtures / "rc/scierc.json")])
    spaces = {(c.system, c.space) for c in ev.cells}
    assert ("rules", "unified") in spaces and ("majority", "native") in spaces
    unified_rules = next(c for c in ev.cells if c.system == "rules" and c.space == "unified")
    assert unified_rules.pairs == 3  # of 4: CONJUNCTION dropped


@pytest.mark.parametrize(("extra", "message"), [
    (["--system", "rules=cv:{pairs}"], "system name 'rules' is reserved"),
    (["--system", "a=cv:{pairs}", "--system", "a=cv:{pairs}"], "test set 'cv' given twice"),
    (["--train", "{missing}"], "--train: not an existing file"),
    (["-o", "{pairs}"], "output file is also an input"),
    (["--testset", "x:y={tokens},{pairs}"], "':' is not allowed"),
])
def test_nonsensical_arguments_are_one_line_errors(fixtures, tmp_path, capsys, extra, message):
    tokens, pairs = tmp_path / "tokens.txt", tmp_path / "pairs.txt"
    tokens.write_text((fixtures / "rc/cv-tokens.txt").read_text())
    pairs.write_text(before := (fixtures / "rc/cv-pairs.txt").read_text())
    values = {"pairs": pairs, "tokens": tokens, "missing": tmp_path / "missing.txt"}
    args = ["rc-eval", "--no-defaults", "--testset", f"cv={tokens},{pairs}"]
    assert main(args + [e.format(**values) for e in extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert "<input>" not in err[0]
    assert pairs.read_text() == before


@pytest.mark.parametrize(("extra", "line"), [
    (["--system", "oops"], "chemie: --system 'oops': expected NAME=TESTSET:PATH"),
    (["--testset", "nameless"], "chemie: --testset 'nameless': expected NAME=PATH[,PAIRS]"),
    (["--system", "rules=cv:x"], "chemie: system name 'rules' is reserved"),
    (["--testset", "cv=a,b"], "chemie: test set names must be unique"),
    (["--system", "x=nope:y"], "chemie: system x: unknown test set 'nope'"),
])
def test_argument_errors_name_no_file(fixtures, capsys, extra, line):
    args = ["rc-eval", "--no-defaults", "--testset",
            f"cv={fixtures / 'rc/cv-tokens.txt'},{fixtures / 'rc/cv-pairs.txt'}"]
    assert main(args + extra) == 2
    assert capsys.readouterr().err.splitlines() == [line]


def test_no_test_sets_is_a_plain_error_and_file_errors_keep_their_location(tmp_path, capsys):
    assert main(["rc-eval", "--no-defaults"]) == 2
    assert capsys.readouterr().err == "chemie: no test sets (give --testset or --config)\n"
    bad = tmp_path / "bad.yaml"
    bad.write_text("testsets: [unclosed\n")
    assert main(["rc-eval", "--no-defaults", "--config", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"chemie: {bad}:")
