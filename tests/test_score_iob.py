"""``chemie score iob``: exact-span scoring of identical token files."""

from __future__ import annotations

import pytest

from chemie.cli import main
from chemie.errors import InputError
from chemie.scoring.iob import score_files

GOLD = "a\tB-Chemical\nb\tI-Chemical\nc\tO\nd\tB-Chemical\n\ne\tB-Chemical\nf\tO\n"
# span (0,2) right; (3,4) missed; (2,3) spurious; e right; f spurious
PRED = "a\tB-Chemical\nb\tI-Chemical\nc\tB-Chemical\nd\tO\n\ne\tB-Chemical\nf\tB-Chemical\n"


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_hand_computed_scores(tmp_path):
    report = score_files(_write(tmp_path, "g.tsv", GOLD), _write(tmp_path, "p.tsv", PRED), None)
    row = report.table("IOB exact spans").loc["overall"]
    assert (row["tp"], row["fp"], row["fn"]) == (2, 2, 1)
    assert row["precision"] == pytest.approx(0.5)
    assert row["recall"] == pytest.approx(2 / 3)
    assert row["f1"] == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))


def test_partial_span_is_not_a_match(tmp_path):
    pred = GOLD.replace("b\tI-Chemical", "b\tO")
    report = score_files(_write(tmp_path, "g.tsv", GOLD), _write(tmp_path, "p.tsv", pred), None)
    row = report.table("IOB exact spans").loc["overall"]
    assert (row["tp"], row["fp"], row["fn"]) == (2, 1, 1)


def test_refuses_different_tokens(tmp_path):
    pred = PRED.replace("d\tO", "x\tO")
    with pytest.raises(InputError, match=r"p.tsv:4: token 'x' differs from gold 'd'"):
        score_files(_write(tmp_path, "g.tsv", GOLD), _write(tmp_path, "p.tsv", pred), None)


def test_refuses_different_sentence_split(tmp_path):
    pred = PRED.replace("d\tO\n\n", "d\tO\n")
    with pytest.raises(InputError, match=r"p.tsv:5: sentence has"):
        score_files(_write(tmp_path, "g.tsv", GOLD), _write(tmp_path, "p.tsv", pred), None)


def test_cli_exit_status_and_one_line_error(tmp_path, capsys):
    g = _write(tmp_path, "g.tsv", GOLD)
    assert main(["score", "iob", str(g), str(g)]) == 0
    assert "1.0000" in capsys.readouterr().out
    bad = _write(tmp_path, "p.tsv", "a\tB-Chemical\nb\n")
    assert main(["score", "iob", str(g), str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "p.tsv:2:" in err[0]
