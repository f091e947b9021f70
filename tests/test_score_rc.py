"""The rc scorer: survey macro-F1, direction, alignment errors, the official perl scorer."""

from __future__ import annotations

import argparse
import csv
import io
import random
import re
import shutil
import subprocess

import pytest

from chemie.cli import main
from chemie.errors import InputError
from chemie.model.rc import Pair
from chemie.scoring import rc


def _args(fmt: str = "auto") -> argparse.Namespace:
    return argparse.Namespace(rc_format=fmt)


def _write(path, rows):
    path.write_text("".join("\t".join(r) + "\n" for r in rows))
    return path


def test_macro_f1_is_mean_over_pred_and_gold_classes(tmp_path):
    a, b, c, d = "COMPARE", "MODEL-FEATURE", "PART_WHOLE", "RESULT"
    gold = _write(tmp_path / "g.txt", [("a", "b", a), ("a", "c", a), ("b", "c", b), ("c", "d", c)])
    pred = _write(tmp_path / "p.txt", [("a", "b", a), ("a", "c", b), ("b", "c", b), ("c", "d", d)])
    report = rc.score_files(gold, pred, _args())
    table = report.table("per class")
    assert list(table.index) == [a, b, c, d]
    # a: P 1 R .5 -> 2/3; b: P .5 R 1 -> 2/3; c and d: 0
    assert table.loc[a, "F1"] == pytest.approx(2 / 3)
    assert table.loc[b, "F1"] == pytest.approx(2 / 3)
    assert report.figures["macro_f1"] == pytest.approx((2 / 3 + 2 / 3) / 4)
    assert report.figures["accuracy"] == pytest.approx(0.5)
    confusion = report.table("confusion (rows gold, columns predicted)")
    assert confusion.loc[a, b] == 1 and confusion.loc[c, d] == 1


def test_wrong_direction_is_wrong_and_missing_pairs_are_misses(tmp_path):
    gold = _write(tmp_path / "g.txt", [("a", "b", "USAGE"), ("c", "d", "USAGE")])
    pred = _write(tmp_path / "p.txt", [("b", "a", "USAGE")])
    report = rc.score_files(gold, pred, _args())
    table = report.table("per class")
    assert table.loc["USAGE", "P"] == 0.0 and table.loc["USAGE", "support"] == 2
    assert any("no prediction" in n for n in report.notes)
    assert any("wrong direction" in n for n in report.notes)
    assert "USAGE (reversed)" in report.table("confusion (rows gold, columns predicted)")


def test_extra_or_repeated_predicted_pair_is_an_input_error(tmp_path):
    gold = _write(tmp_path / "g.txt", [("a", "b", "USAGE")])
    pred = _write(tmp_path / "p.txt", [("a", "b", "USAGE"), ("a", "x", "USAGE")])
    with pytest.raises(InputError, match="not in the gold file") as e:
        rc.score_files(gold, pred, _args())
    assert (e.value.path, e.value.line) == (str(pred), 2)
    _write(pred, [("a", "b", "USAGE"), ("b", "a", "USAGE")])
    with pytest.raises(InputError, match="predicted twice"):
        rc.score_files(gold, pred, _args())


@pytest.mark.parametrize("side", ["pred", "gold"])
def test_unknown_labels_are_refused_in_every_format(fixtures, tmp_path, capsys, side):
    cases = {
        "semeval": ("semeval-relations.txt", "USAGE(X01-0001.1,X01-0001.2)",
                    "FOO(X01-0001.1,X01-0001.2)"),
        "scierc": ("scierc.json", '"USED-FOR"', '"FOO"'),
        "unified": ("cv-pairs.txt", None, None),
    }
    for fmt, (name, old, new) in cases.items():
        text = (fixtures / "rc" / name).read_text()
        if fmt == "unified":
            first = text.split("\n", 1)[0]
            old, new = first, "\t".join([*first.split("\t")[:2], "FOO", *first.split("\t")[3:]])
        assert old in text
        good = tmp_path / f"good-{name}"
        bad = tmp_path / f"bad-{name}"
        good.write_text(text)
        bad.write_text(text.replace(old, new, 1))
        gold, pred = (good, bad) if side == "pred" else (bad, good)
        assert main(["score", "rc", str(gold), str(pred), "--rc-format", fmt]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1, err
        assert f"{bad}:1: unknown relation label 'FOO' (expected one of " in err[0]
        assert "USAGE" in err[0] if fmt != "scierc" else "USED-FOR" in err[0]


def test_cli_exit_status_2_on_mismatch(tmp_path, capsys):
    gold = _write(tmp_path / "g.txt", [("a", "b", "USAGE")])
    pred = _write(tmp_path / "p.txt", [("a", "z", "USAGE")])
    assert main(["score", "rc", str(gold), str(pred)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{pred}:1:" in err[0]


def test_scierc_scored_in_unified_space_with_swap(fixtures):
    gold = fixtures / "rc/scierc.json"
    report = rc.score_files(gold, gold, _args())
    assert report.figures["macro_f1"] == 1.0
    unified = report.table("unified labels: per class")
    assert "CONJUNCTION" not in unified.index and "RESULT" in unified.index
    assert report.figures["unified_macro_f1"] == 1.0
    flipped = rc.unified_alignment(
        rc.Alignment([Pair("m", "s", "EVALUATE-FOR")], [Pair("m", "s", "EVALUATE-FOR")]),
        "scierc",
    )
    assert (flipped.gold[0].head, flipped.gold[0].label) == ("s", "RESULT")


def test_format_detection(fixtures, tmp_path):
    assert rc.detect_format(fixtures / "rc/semeval-relations.txt") == "semeval"
    assert rc.detect_format(fixtures / "rc/cv-pairs.txt") == "unified"
    assert rc.detect_format(fixtures / "rc/scierc.json") == "scierc"
    bad = tmp_path / "x.txt"
    bad.write_text("\nnonsense\n")
    with pytest.raises(InputError, match="cannot tell") as e:
        rc.detect_format(bad)
    assert e.value.line == 2


# -- the official SemEval-2018 Task 7 scorer ----------------------------------------------

_PERL_CLASS = re.compile(
    r"^\s*(\S+) :\s+P =\s*(\d+)/\s*(\d+) =\s*([\d.]+)%\s+R =\s*(\d+)/\s*(\d+) =\s*([\d.]+)%"
    r"\s+F1 =\s*([\d.]+)%", re.M)
_PERL_MICRO = re.compile(r"Micro-averaged result :\s*\nP =.*?=\s*([\d.]+)%\s+R =.*?=\s*([\d.]+)%"
                         r"\s+F1 =\s*([\d.]+)%")
_PERL_MACRO = re.compile(r"Macro-averaged result :\s*\nP =\s*([\d.]+)%\s+R =\s*([\d.]+)%"
                         r"\s+F1 =\s*([\d.]+)%")
_PERL_OFFICIAL = re.compile(r"macro-averaged F1 = ([\d.]+)%")


def _perturb(lines: list[str], seed: int, drop: float, relabel: float, flip: float) -> list[str]:
    rng = random.Random(seed)
    labels = ["USAGE", "RESULT", "MODEL-FEATURE", "PART_WHOLE", "COMPARE", "TOPIC"]
    out = []
    for line in lines:
        label, rest = line.split("(", 1)
        if rng.random() < drop:
            continue
        if rng.random() < relabel:
            label = rng.choice(labels)
        if rng.random() < flip and label != "COMPARE":
            rest = rest.replace(",REVERSE)", ")") if "REVERSE" in rest else rest[:-1] + ",REVERSE)"
        out.append(f"{label}({rest}")
    return out


@pytest.mark.corpus
@pytest.mark.parametrize(
    "seed, drop, relabel, flip",
    [(1, 0.0, 0.3, 0.0), (2, 0.1, 0.3, 0.1), (3, 0.3, 0.6, 0.2), (4, 0.0, 0.0, 0.0)],
)
def test_semeval_figures_match_the_official_perl_scorer(corpus, tmp_path, seed, drop, relabel,
                                                         flip):
    perl = shutil.which("perl")
    if perl is None:
        pytest.skip("perl is not installed: cannot run the official SemEval-2018 scorer")
    script = corpus("semeval2018-task7/semeval2018_task7_scorer-v1.2.pl")
    gold = corpus("semeval2018-task7/1.1.relations.txt")
    lines = gold.read_text().splitlines()
    pred = tmp_path / "pred.txt"
    pred.write_text("\n".join(_perturb(lines, seed, drop, relabel, flip)) + "\n")
    out = subprocess.run([perl, str(script), str(pred), str(gold)], capture_output=True,
                         text=True, check=True).stdout
    report = rc.score_files(gold, pred, _args())
    official = report.table("official SemEval-2018 Task 7 scorer")
    perl_classes = _PERL_CLASS.findall(out)
    assert [c[0] for c in perl_classes] == list(official.index)
    for label, correct, predicted, p, _c2, support, r, f in perl_classes:
        row = official.loc[label]
        assert (int(row["correct"]), int(row["predicted"]), int(row["support"])) == (
            int(correct), int(predicted), int(support))
        assert round(100 * row["P"], 2) == pytest.approx(float(p), abs=0.006)
        assert round(100 * row["R"], 2) == pytest.approx(float(r), abs=0.006)
        assert round(100 * row["F1"], 2) == pytest.approx(float(f), abs=0.006)
    figures = report.figures
    micro = [float(x) for x in _PERL_MICRO.search(out).groups()]
    macro = [float(x) for x in _PERL_MACRO.search(out).groups()]
    ours_micro = [round(100 * figures[f"official_micro_{k}"], 2) for k in ("p", "r", "f1")]
    ours_macro = [round(100 * figures[f"official_macro_{k}"], 2) for k in ("p", "r", "f1")]
    assert ours_micro == pytest.approx(micro, abs=0.006)
    assert ours_macro == pytest.approx(macro, abs=0.006)
    assert round(100 * figures["official_macro_f1"], 2) == pytest.approx(
        float(_PERL_OFFICIAL.search(out).group(1)), abs=0.006)


def test_counts_stay_integers_in_text_and_csv(tmp_path, capsys):
    gold = _write(tmp_path / "g.txt", [("a", "b", "USAGE"), ("c", "d", "RESULT")])
    pred = _write(tmp_path / "p.txt", [("a", "b", "USAGE"), ("c", "d", "USAGE")])
    assert main(["score", "rc", str(gold), str(pred)]) == 0
    text = capsys.readouterr().out
    assert "pairs: 2\n" in text and "accuracy: 0.5000" in text
    assert main(["score", "rc", str(gold), str(pred), "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    usage = next(r for r in rows if r["table"] == "per class" and r["row"] == "USAGE")
    assert (usage["support"], usage["predicted"], usage["F1"]) == ("1", "2", str(2 / 3))
    result = next(r for r in rows if r["table"].startswith("confusion") and r["row"] == "RESULT")
    assert (result["USAGE"], usage["USAGE"]) == ("1", "")
