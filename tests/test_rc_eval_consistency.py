"""The classifier's own output file, given to ``rc-eval`` as an external system, gets
exactly the cells of the built-in ``rules`` column, and ``chemie score rc`` agrees.

Regression test for the harness scoring its own predictions in the unified label space
on a different task (gold directions, dropped pairs removed before classifying) than
external files: the fixtures contain gold pairs with dropped labels and, depending on the
rules, predicted dropped labels (TOPIC, CONJUNCTION) on kept gold pairs; a hand-written
system checks that such labels and a wrong direction count as documented.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
import pytest

from chemie.cli import main
from chemie.rc.harness import RULES, SPACES, Evaluation, evaluate
from chemie.rc.harness import TestSet as RCTestSet
from chemie.scoring.rc import score_files

EXT = "ext"
SMALL = [
    ("unified", ["rc/cv-tokens.txt", "rc/cv-pairs.txt"], ".txt"),
    ("semeval", ["rc/semeval.xml", "rc/semeval-relations.txt"], ".txt"),
    ("semeval", ["rc/semeval-directions.xml", "rc/semeval-directions-relations.txt"], ".txt"),
    ("scierc", ["rc/scierc.json"], ".json"),
    ("scierc", ["rc/scierc-directions.json"], ".json"),
]


def _own_output_as_system(inputs: list[Path], out: Path) -> Evaluation:
    assert main(["rc", *map(str, inputs), "-o", str(out)]) == 0
    testset = RCTestSet("t", inputs[0], inputs[1] if len(inputs) > 1 else None)
    return evaluate([testset], {EXT: {"t": out}})


def _assert_same_cells(ev: Evaluation, gold: Path, pred: Path, fmt: str) -> None:
    cells = {(c.system, c.space): c for c in ev.cells}
    for space in SPACES:
        rules, ext = cells[(RULES, space)], cells[(EXT, space)]
        assert ext.macro_f1 == rules.macro_f1, space
        assert ext.pairs == rules.pairs and ext.figures == rules.figures, space
        pd.testing.assert_frame_equal(ext.classes, rules.classes)
    report = score_files(gold, pred, argparse.Namespace(rc_format=fmt))
    assert report.figures["macro_f1"] == cells[(RULES, "native")].macro_f1
    unified = report.figures.get("unified_macro_f1", report.figures["macro_f1"])
    assert unified == cells[(RULES, "unified")].macro_f1


@pytest.mark.parametrize(("fmt", "inputs", "suffix"), SMALL)
def test_own_output_scores_like_rules_column(fixtures, tmp_path, fmt, inputs, suffix):
    paths = [fixtures / p for p in inputs]
    out = tmp_path / f"pred{suffix}"
    ev = _own_output_as_system(paths, out)
    _assert_same_cells(ev, paths[-1], out, fmt)


def test_dropped_labels_and_directions_count_as_documented(fixtures, tmp_path):
    paths = [fixtures / "rc/semeval-directions.xml",
             fixtures / "rc/semeval-directions-relations.txt"]
    # a hand-written system: a dropped label (TOPIC) on a kept USAGE pair and the reversed
    # USAGE pair predicted forward
    pred = tmp_path / "pred.txt"
    pred.write_text("TOPIC(X02-0001.1,X02-0001.2)\nTOPIC(X02-0001.3,X02-0001.4)\n"
                    "USAGE(X02-0001.5,X02-0001.6)\nUSAGE(X02-0001.7,X02-0001.8)\n")
    ev = evaluate([RCTestSet("t", *paths)], {EXT: {"t": pred}})
    unified = next(c for c in ev.cells if c.system == EXT and c.space == "unified")
    # the gold TOPIC pair is left out; a predicted TOPIC becomes OTHER (a predicted class)
    assert unified.pairs == 3
    assert "OTHER" in unified.classes.index and "TOPIC" not in unified.classes.index
    # the reversed USAGE pair predicted forward is wrong: 1 of 3 USAGE pairs correct
    usage = unified.classes.loc["USAGE"]
    assert (usage["support"], usage["predicted"]) == (3, 2)
    assert usage["R"] == pytest.approx(1 / 3)


@pytest.mark.parametrize(("fmt", "relative"), [
    ("semeval", ["semeval2018-task7/1.1.text.xml", "semeval2018-task7/1.1.relations.txt"]),
])
def test_own_output_scores_like_rules_column_on_corpus(corpus, tmp_path, fmt, relative):
    paths = [corpus(r) for r in relative]
    out = tmp_path / "pred.txt"
    ev = _own_output_as_system(paths, out)
    _assert_same_cells(ev, paths[-1], out, fmt)
