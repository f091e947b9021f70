"""Cross-dataset / cross-domain evaluation of relation classifiers (``chemie rc-eval``).

For every test set (rows) and system (columns) the harness computes macro-F1 with the
survey recipe (``chemie.scoring.rc``), in the test set's own labels and in the unified
label space. Systems: ``rules`` (this package's classifier), ``majority`` (the most
frequent label of the training split, with the known direction, or the label's usual
direction for SemEval) and any external prediction files, given per test set.

In the unified space the rule classifier is run on the test set converted to unified
pairs (dropped labels left out, EVALUATE-FOR arguments swapped), as in the survey;
external predictions are mapped label by label (``chemie.rc.labels``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from chemie.corpora import data_dir
from chemie.errors import InputError
from chemie.formats import unified
from chemie.rc import tasks
from chemie.rc.classifier import RuleClassifier
from chemie.rc.examples import build_examples
from chemie.rc.labels import from_unified, to_unified
from chemie.rc.model import Pair, RCExample
from chemie.rc.rules import load
from chemie.scoring.rc import (
    Alignment,
    align,
    class_table,
    macro_f1,
    official_semeval,
    read_pairs,
    unified_alignment,
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
    result = Evaluation(majority_label=majority)
    for ts in testsets:
        task = tasks.load(ts.path, ts.pairs, ts.fmt)
        if ts.documents is not None:
            task = tasks.restrict(task, ts.documents)
        gold = task.pairs
        native_preds = {RULES: _rules(task.examples, task.fmt),
                        MAJORITY: _majority(task.examples, majority, task.fmt)}
        unified_gold = [u for u in (to_unified(g, task.fmt) for g in gold) if u is not None]
        unified_examples = build_examples(task.docs, unified_gold, task.pairs_path)
        unified_preds = {RULES: _rules(unified_examples, "unified"),
                         MAJORITY: _majority(unified_examples, majority, "unified")}
        for name, pred in native_preds.items():
            al = align(gold, pred, task.pairs_path, None)
            result.cells.append(_cell(ts.name, name, "native", al, task.fmt))
            ual = align(unified_gold, unified_preds[name], task.pairs_path, None)
            result.cells.append(_cell(ts.name, name, "unified", ual))
        for name, files in systems.items():
            if ts.name not in files:
                continue
            al = align(gold, read_pairs(files[ts.name], task.fmt), task.pairs_path,
                       files[ts.name])
            result.cells.append(_cell(ts.name, name, "native", al, task.fmt))
            ual = al if task.fmt == "unified" else unified_alignment(al, task.fmt)
            result.cells.append(_cell(ts.name, name, "unified", ual))
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
