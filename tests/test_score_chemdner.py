"""``chemie score cem|cdi``: micro P/R/F1 and bootstrap SD of F1."""

from __future__ import annotations

import argparse

import numpy
import pytest

from chemie.cli import main
from chemie.scoring.chemdner import bootstrap_f1_sd, score_cdi_files, score_cem_files

GOLD = (
    "1\tT\t0\t7\tCocaine\tTRIVIAL\n"
    "1\tA\t0\t3\tTHF\tABBREVIATION\n"
    "1\tA\t10\t15\tK2CO3\tFORMULA\n"
    "2\tA\t4\t9\tWater\tTRIVIAL\n"
)
# doc 1: T:0:7 right, A:0:3 right, A:10:14 wrong boundary; doc 2: nothing; doc 3 unknown
CEM = "1\tT:0:7\t1\t0.9\n1\tA:0:3\t2\t0.9\n1\tA:10:14\t3\t0.5\n3\tA:0:4\t1\t0.5\n"
CDI = "1\tCocaine\t1\t0.9\n1\tTHF\t2\t0.9\n1\tK2CO\t3\t0.5\n2\tWater\t1\t0.8\n"


def _args(resamples=200, seed=1):
    return argparse.Namespace(resamples=resamples, seed=seed)


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_cem_hand_computed(tmp_path):
    report = score_cem_files(_write(tmp_path, "g.tsv", GOLD), _write(tmp_path, "p.tsv", CEM),
                             _args())
    row = report.table("CEM").loc["overall"]
    assert (row["tp"], row["fp"], row["fn"]) == (2, 2, 2)
    assert row["precision"] == pytest.approx(0.5)
    assert row["recall"] == pytest.approx(0.5)
    assert row["f1"] == pytest.approx(0.5)
    assert row["f1_sd"] > 0
    assert any("no predictions" in n for n in report.notes)
    assert any("not in gold" in n for n in report.notes)
    by_class = report.table("CEM recall by gold class")
    assert by_class.loc["FORMULA", "recall"] == 0.0
    assert by_class.loc["ABBREVIATION", "recall"] == 1.0


def test_cdi_hand_computed(tmp_path):
    report = score_cdi_files(_write(tmp_path, "g.tsv", GOLD), _write(tmp_path, "p.tsv", CDI),
                             _args())
    row = report.table("CDI").loc["overall"]
    assert (row["tp"], row["fp"], row["fn"]) == (3, 1, 1)
    assert row["f1"] == pytest.approx(0.75)


def test_bootstrap_is_seeded_and_zero_when_perfect():
    tp = numpy.array([3, 0, 5, 1])
    fp = numpy.array([1, 2, 0, 0])
    fn = numpy.array([0, 1, 2, 3])
    a = bootstrap_f1_sd(tp, fp, fn, 300, 7)
    assert a == bootstrap_f1_sd(tp, fp, fn, 300, 7)
    assert a != bootstrap_f1_sd(tp, fp, fn, 300, 8)
    assert a > 0
    assert bootstrap_f1_sd(tp, tp * 0, tp * 0, 300, 7) == pytest.approx(0.0)
    assert bootstrap_f1_sd(tp[:0], fp[:0], fn[:0], 300, 7) == 0.0


def test_bootstrap_matches_a_plain_loop():
    rng = numpy.random.default_rng(3)
    tp, fp, fn = (rng.integers(0, 6, 40) for _ in range(3))
    sd = bootstrap_f1_sd(tp, fp, fn, 250, 11)
    loop_rng = numpy.random.default_rng(11)
    f1s = []
    for _ in range(250):
        idx = loop_rng.integers(0, 40, 40)
        t, p, f = tp[idx].sum(), fp[idx].sum(), fn[idx].sum()
        f1s.append(2 * t / (2 * t + p + f))
    assert sd == pytest.approx(numpy.std(f1s, ddof=1))


def test_cli_scores_cem_and_cdi(tmp_path, capsys):
    g = _write(tmp_path, "g.tsv", GOLD)
    p = _write(tmp_path, "p.tsv", CEM)
    assert main(["score", "cem", str(g), str(p), "--json", "--resamples", "50"]) == 0
    assert '"f1_sd"' in capsys.readouterr().out
    c = _write(tmp_path, "c.tsv", CDI)
    assert main(["score", "cdi", str(g), str(c), "--resamples", "50"]) == 0
    assert "CDI" in capsys.readouterr().out
    bad = _write(tmp_path, "bad.tsv", "1\tT:0\t1\t0.5\n")
    assert main(["score", "cem", str(g), str(bad)]) == 2
    assert "bad.tsv:1:" in capsys.readouterr().err


@pytest.mark.parametrize("output", [[], ["--csv"], ["--json"]])
def test_no_resamples_leaves_f1_sd_out_with_a_note(tmp_path, capsys, output):
    gold, pred = _write(tmp_path, "g.tsv", GOLD), _write(tmp_path, "p.tsv", CEM)
    assert main(["score", "cem", str(gold), str(pred), "--resamples", "0", *output]) == 0
    out = capsys.readouterr().out
    assert "f1_sd not computed: --resamples 0" in out or "--csv" in output
    assert "f1_sd," not in out and "f1_sd:" not in out and '"f1_sd"' not in out
    assert main(["score", "cem", str(gold), str(pred), "--resamples", "2", *output]) == 0
    assert "f1_sd" in capsys.readouterr().out


def test_counts_stay_integers_in_text_and_csv(tmp_path, capsys):
    gold, pred = _write(tmp_path, "g.tsv", GOLD), _write(tmp_path, "p.tsv", CEM)
    assert main(["score", "cem", str(gold), str(pred), "--csv", "--resamples", "0"]) == 0
    rows = capsys.readouterr().out.splitlines()
    header = rows[0].split(",")
    overall = next(r.split(",") for r in rows if ",overall," in r)
    assert [overall[header.index(c)] for c in ("tp", "fp", "fn")] == ["2", "2", "2"]
