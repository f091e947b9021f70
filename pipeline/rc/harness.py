"""Cross-dataset / cross-domain evaluation of relation classifiers (``chemie rc-eval``).

For every test set (rows) and system (columns) the harness computes macro-F1 with the
survey recipe (``chemie.scoring.rc``), in the test set's own labels and in the unified
label space. Systems: ``rules`` (this package's classifier), ``majority`` (the most
frequent label of the training split, with the known direction, or the label's usual
direction for SemEval) and any external prediction files, given per test set.

Every system goes through one code path: its predictions in the test set's own format
(the in-process ones are exactly the pairs ``chemie rc`` writes) are aligned with the
gold pairs and scored by ``chemie.scoring.rc.in_spaces``, as ``chemie score rc`` does:

* native labels: label and direction must both match the gold pair;
* unified labels: the same native predictions mapped through ``rules/rc_labels.yaml``;
  gold pairs with a dropped label (TOPIC, CONJUNCTION, HYPONYM-OF) are left out, a
  predicted dropped label on a kept pair is ``OTHER`` (wrong, and a class of its own in
  ``sorted(set(pred + gold))``), and a direction predicted wrongly stays wrong.

The classifier is never re-run on unified-converted pairs: that would hand it the gold
direction and remove pairs it would have labelled with dropped labels, a different (and
easier) task than the one external systems are scored on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from chemie.corpora import data_dir
from chemie.errors import InputError
from chemie.formats import unified
from chemie.formats.rc_labels import from_unified
from chemie.model.rc import Pair, RCExample
from chemie.rc import tasks
from chemie.rc.classifier import RuleClassifier
from chemie.rc.rules import load
from chemie.scoring.rc import (
    Alignment,
    align,
    class_table,
    in_spaces,
    macro_f1,
    official_semeval,
    read_pairs,
)

RULES, MAJORITY = "rules", "majority"
SPACES = ("native", "unified")


@dataclass(frozen=True)
class TestSet:
    """A named test set: main input file and (unless SciERC) its pairs file."""

    name: str
    path: Path
    pairs: Path | None = None
    fmt: str = "auto"
    documents: frozenset[str] | None = None  # keep only these documents (None: all)


@dataclass
class Cell:
    """The score of one system on one test set in one label space."""

    testset: str
    system: str
    space: str
    macro_f1: float
    classes: pd.DataFrame
    pairs: int
    figures: dict[str, float] = field(default_factory=dict)


@dataclass
class Evaluation:
    """All cells plus the majority label used."""

    cells: list[Cell] = field(default_factory=list)
    majority_label: str = ""

    def matrix(self, space: str) -> pd.DataFrame:
        """Rows test sets, columns systems, cells macro-F1."""
        rows: dict[str, dict[str, float]] = {}
        for c in self.cells:
            if c.space == space:
                rows.setdefault(c.testset, {})[c.system] = c.macro_f1
        return pd.DataFrame.from_dict(rows, orient="index")

    def per_class(self, testset: str, space: str) -> pd.DataFrame:
        """Per-class F1 of every system on one test set (plus gold support)."""
        cols: dict[str, pd.Series] = {}
        support = None
        for c in self.cells:
            if c.testset == testset and c.space == space:
                cols[c.system] = c.classes["F1"]
                support = c.classes["support"] if support is None else support.combine_first(
                    c.classes["support"]
                )
        frame = pd.DataFrame(cols)
        if support is not None:
            frame["support"] = support.fillna(0).astype(int)
        return frame

    def to_dict(self) -> dict[str, object]:
        return {
            "majority_label": self.majority_label,
            "matrix": {s: self.matrix(s).to_dict(orient="index") for s in SPACES},
            "cells": [
                {
                    "testset": c.testset,
                    "system": c.system,
                    "space": c.space,
                    "macro_f1": c.macro_f1,
                    "pairs": c.pairs,
                    "figures": c.figures,
                    "per_class": c.classes.to_dict(orient="index"),
                }
                for c in self.cells
            ],
        }


def default_testsets(root: Path | None = None) -> list[TestSet]:
    """The development test sets under the shared data folder that exist."""
    root = root or data_dir()
    candidates = [
        TestSet("unified-dev", root / "sci-rc-unified/sample-dev.txt",
                root / "sci-rc-unified/sample-dev-rel.txt", "unified"),
        TestSet("semeval-1.1", root / "semeval2018-task7/1.1.text.xml",
                root / "semeval2018-task7/1.1.relations.txt", "semeval"),
        TestSet("semeval-1.2", root / "semeval2018-task7/1.2.text.xml",
                root / "semeval2018-task7/1.2.relations.txt", "semeval"),
        TestSet("scierc-nlp", root / "scierc/scierc_nlp.json", None, "scierc"),
    ]
    return [t for t in candidates if t.path.exists()]


def parse_testset(spec: str) -> TestSet:
    """``NAME=PATH[,PAIRS]`` -> TestSet (format detected from the file name)."""
    name, sep, rest = spec.partition("=")
    if not sep or not name or not rest:
        raise InputError(None, None, f"--testset {spec!r}: expected NAME=PATH[,PAIRS]")
    path, _, pairs = rest.partition(",")
    return TestSet(name, Path(path), Path(pairs) if pairs else None)


def majority_label(train_pairs: Path | None) -> str:
    """The most frequent label of a unified training pairs file (rules default if absent)."""
    if train_pairs is not None and train_pairs.exists():
        counts = Counter(p.label for p in unified.read_pairs(train_pairs) if p.label)
        if counts:
            return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    return load().default_label


def _majority(examples: list[RCExample], label: str, scheme: str) -> list[Pair]:
    clf = RuleClassifier(scheme=scheme)
    native = from_unified(Pair("a", "b", label), scheme)
    swapped = native.head != "a"
    reverse_default = clf.rules.default_reverse.get(label, False) != swapped
    return [
        ex.pair(native.label, ex.reverse if ex.reverse is not None else reverse_default, MAJORITY)
        for ex in examples
    ]


def _rules(examples: list[RCExample], scheme: str) -> list[Pair]:
    clf = RuleClassifier(scheme=scheme)
    return [
        ex.pair(d.label, d.reverse, d.rule)
        for ex, d in zip(examples, clf.classify(examples), strict=True)
    ]


def _cell(ts: str, system: str, space: str, al: Alignment, fmt: str = "unified") -> Cell:
    figures = {"accuracy": sum(al.correct(i) for i in range(len(al.gold))) / len(al.gold)
               if al.gold else 0.0}
    if fmt == "semeval" and space == "native":
        figures["official_macro_f1"] = official_semeval(al)[1]["official_macro_f1"]
    return Cell(ts, system, space, macro_f1(al), class_table(al), len(al.gold), figures)


def evaluate(
    testsets: list[TestSet],
    systems: dict[str, dict[str, Path]] | None = None,
    majority: str = "USAGE",
) -> Evaluation:
    """Score the rules, the majority baseline and external systems on every test set."""
    systems = systems or {}
    clash = sorted(set(systems) & {RULES, MAJORITY})
    if clash:
        raise InputError(None, None, f"system name {clash[0]!r} is reserved")
    result = Evaluation(majority_label=majority)
    for ts in testsets:
        task = tasks.load(ts.path, ts.pairs, ts.fmt)
        if ts.documents is not None:
            task = tasks.restrict(task, ts.documents)
        preds: dict[str, tuple[list[Pair], Path | None]] = {
            RULES: (_rules(task.examples, task.fmt), None),
            MAJORITY: (_majority(task.examples, majority, task.fmt), None),
        }
        for name, files in systems.items():
            if ts.name in files:
                preds[name] = (read_pairs(files[ts.name], task.fmt), files[ts.name])
        for name, (pred, pred_path) in preds.items():
            al = align(task.pairs, pred, task.pairs_path, pred_path)
            for space, sal in in_spaces(al, task.fmt).items():
                result.cells.append(_cell(ts.name, name, space, sal, task.fmt))
    return result


def to_text(ev: Evaluation) -> str:
    """Matrices and per-class tables for the terminal."""
    parts = []
    for space in SPACES:
        m = ev.matrix(space)
        parts.append(f"== macro-F1, {space} labels (rows test sets, columns systems) ==\n"
                     + m.to_string(float_format=lambda v: f"{v:.4f}", na_rep="-"))
    for space in SPACES:
        for ts in dict.fromkeys(c.testset for c in ev.cells):
            frame = ev.per_class(ts, space)
            parts.append(f"== per-class F1: {ts}, {space} labels ==\n"
                         + frame.to_string(float_format=lambda v: f"{v:.4f}", na_rep="-"))
    official = [c for c in ev.cells if "official_macro_f1" in c.figures]
    if official:
        lines = [f"{c.testset:22s} {c.system:10s} {c.figures['official_macro_f1']:.4f}"
                 for c in official]
        parts.append("== SemEval-2018 official macro-F1 (F1 of macro P and macro R, "
                     "direction-aware) ==\n" + "\n".join(lines))
    parts.append(f"majority baseline label (training split): {ev.majority_label}")
    return "\n\n".join(parts) + "\n"
