"""``chemie score rc``: relation classification, scored over aligned entity pairs.

Pairs are aligned by their two entity ids (in either order). A prediction is correct
when it has the gold label *and* the gold direction (same first argument); a wrong
direction is a wrong prediction, as in the official SemEval-2018 Task 7 scorer.

* ``macro_f1`` follows the survey recipe of Bassignana & Plank (2022):
  ``classes = sorted(set(pred + gold))``, the unweighted mean of per-class F1.
* A gold pair without a prediction is a miss (a false negative of its gold class; no
  extra class); the count is reported in a note. A label outside the format's label set
  (``rules/rc_labels.yaml``), in the gold or the prediction file, is refused with an
  InputError naming the file and line, as the official perl scorer refuses it. A
  predicted pair that is not in the
  gold file, or a pair predicted twice, is refused: InputError naming the file and line.
  A gold pair repeated verbatim (same direction and label; sci-rc-unified has one) is
  counted once, and so is its repeated identical prediction.
  (The official perl scorer would count an extra pair as a wrong prediction; we refuse
  it because a relation classifier is given the gold pairs.)
* SemEval files also get the official figure of the SemEval-2018 Task 7 scorer
  (``semeval2018_task7_scorer-v1.2.pl``): classes = the gold labels only; per class
  P = correct / predicted with that label, R = correct / gold with that label; the
  official macro-F1 is the harmonic mean of macro-averaged P and macro-averaged R (not
  the mean of per-class F1). Per-class figures and micro P/R/F1 are reported too; they
  agree with the perl output (cross-checked in tests/test_score_rc.py).
* SemEval and SciERC files are also scored in the unified label space
  (``chemie.formats.rc_labels``, :func:`in_spaces`): the *same* predictions, mapped pair by pair.

Native vs unified label space (one definition, used by ``chemie score rc`` and by every
column of ``chemie rc-eval``, whether the predictions come from a file or in-process):

* native: the test set's own labels (SemEval: 6 incl. TOPIC; SciERC: 7 incl. CONJUNCTION
  and HYPONYM-OF); a prediction is correct with the gold label and the gold direction.
* unified: gold and predicted pairs are mapped through ``rules/rc_labels.yaml`` (label,
  and argument swap for EVALUATE-FOR -> RESULT, applied to both sides alike, so a
  direction that was wrong in native labels stays wrong). A gold pair whose label is
  dropped (TOPIC, CONJUNCTION, HYPONYM-OF) is left out with its prediction. A predicted
  dropped label (or, in-process, an unknown one) on a kept gold pair becomes ``OTHER``:
  a wrong prediction and, by the survey recipe ``sorted(set(pred + gold))``, a class
  with F1 0.
  Nothing is re-predicted: the direction is the one the system predicted natively.
  For unified test sets both spaces are the same alignment.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from chemie.errors import InputError, read_text
from chemie.formats import scierc, semeval, unified
from chemie.formats.rc_labels import OTHER, mapping, to_unified
from chemie.model.rc import Pair
from chemie.scoring.report import ScoreReport, ScoreTable, prf

MISSING = "(none)"
_SEMEVAL_LINE = re.compile(r"^\s*[A-Z][A-Z_-]*\(|^\s*\(")


@dataclass
class Alignment:
    """Gold pairs with their prediction (None when missing)."""

    gold: list[Pair]
    pred: list[Pair | None]
    notes: list[str] = field(default_factory=list)

    def correct(self, i: int) -> bool:
        p, g = self.pred[i], self.gold[i]
        return p is not None and p.label == g.label and p.head == g.head


def align(gold: list[Pair], pred: list[Pair], gold_path: Path | None, pred_path: Path | None
          ) -> Alignment:
    """Match predictions to gold pairs; extra or repeated predicted pairs are InputErrors."""
    gold_keys: dict[tuple[str, str], Pair] = {}
    unique, repeats = [], 0
    for g in gold:
        if not g.label:
            raise InputError(gold_path, g.line, "gold pair without a label")
        first = gold_keys.get(g.key())
        if first is not None:
            if (first.head, first.label) != (g.head, g.label):
                raise InputError(gold_path, g.line, f"pair {g.head},{g.tail} repeated")
            repeats += 1
            continue
        gold_keys[g.key()] = g
        unique.append(g)
    by_key: dict[tuple[str, str], Pair] = {}
    for p in pred:
        if p.key() not in gold_keys:
            raise InputError(pred_path, p.line, f"pair {p.head},{p.tail} is not in the gold file")
        if not p.label:
            raise InputError(pred_path, p.line, "prediction without a label")
        first = by_key.get(p.key())
        if first is not None:
            if (first.head, first.label) != (p.head, p.label) or repeats == 0:
                raise InputError(pred_path, p.line, f"pair {p.head},{p.tail} predicted twice")
            continue
        by_key[p.key()] = p
    notes = [f"{repeats} verbatim repeated gold pairs counted once"] if repeats else []
    return Alignment(unique, [by_key.get(g.key()) for g in unique], notes)


def class_table(al: Alignment) -> pd.DataFrame:
    """Per-class P/R/F1/support over ``sorted(set(pred + gold))`` (survey recipe)."""
    gold_n = Counter(g.label for g in al.gold)
    pred_n = Counter(p.label for p in al.pred if p is not None)
    tp = Counter(g.label for i, g in enumerate(al.gold) if al.correct(i))
    rows = {}
    for c in sorted(set(gold_n) | set(pred_n)):
        p, r, f = prf(tp[c], pred_n[c] - tp[c], gold_n[c] - tp[c])
        rows[c] = {"P": p, "R": r, "F1": f, "support": gold_n[c], "predicted": pred_n[c]}
    return pd.DataFrame.from_dict(
        rows, orient="index", columns=["P", "R", "F1", "support", "predicted"]
    )


def macro_f1(al: Alignment) -> float:
    """Unweighted mean of per-class F1 over ``sorted(set(pred + gold))``."""
    table = class_table(al)
    return float(table["F1"].mean()) if len(table) else 0.0


def confusion(al: Alignment) -> pd.DataFrame:
    """Rows: gold labels; columns: predicted labels (``L (reversed)`` = wrong direction)."""
    cells: Counter = Counter()
    for g, p in zip(al.gold, al.pred, strict=True):
        if p is None:
            col = MISSING
        elif p.head != g.head:
            col = f"{p.label} (reversed)"
        else:
            col = p.label
        cells[(g.label, col)] += 1
    rows = sorted({g for g, _ in cells})
    cols = sorted({c for _, c in cells})
    return pd.DataFrame([[cells[(r, c)] for c in cols] for r in rows], index=rows, columns=cols)


def official_semeval(al: Alignment) -> tuple[pd.DataFrame, dict[str, float]]:
    """Per-class table and figures exactly as the official SemEval-2018 Task 7 scorer."""
    gold_n = Counter(g.label for g in al.gold)
    pred_n = Counter(p.label for p in al.pred if p is not None)
    tp = Counter(g.label for i, g in enumerate(al.gold) if al.correct(i))
    rows = {}
    for c in sorted(gold_n):
        p = tp[c] / pred_n[c] if pred_n[c] else 0.0
        r = tp[c] / gold_n[c]
        f = 2 * p * r / (p + r) if p + r else 0.0
        rows[c] = {"P": p, "R": r, "F1": f, "correct": tp[c], "predicted": pred_n[c],
                   "support": gold_n[c]}
    frame = pd.DataFrame.from_dict(rows, orient="index")
    macro_p = float(frame["P"].mean()) if len(frame) else 0.0
    macro_r = float(frame["R"].mean()) if len(frame) else 0.0
    micro_p, micro_r, micro_f = prf(
        sum(tp.values()), sum(pred_n[c] for c in gold_n) - sum(tp.values()),
        sum(gold_n.values()) - sum(tp.values()),
    )
    figures = {
        "official_macro_p": macro_p,
        "official_macro_r": macro_r,
        "official_macro_f1": 2 * macro_p * macro_r / (macro_p + macro_r)
        if macro_p + macro_r else 0.0,
        "official_micro_p": micro_p,
        "official_micro_r": micro_r,
        "official_micro_f1": micro_f,
    }
    return frame, figures


def unified_alignment(al: Alignment, scheme: str) -> Alignment:
    """The alignment in the unified label space (dropped gold labels left out)."""
    gold, pred = [], []
    for g, p in zip(al.gold, al.pred, strict=True):
        ug = to_unified(g, scheme)
        if ug is None:
            continue
        gold.append(ug)
        if p is None:
            pred.append(None)
        else:
            up = to_unified(p, scheme)
            pred.append(up if up is not None else Pair(p.head, p.tail, OTHER, p.line, p.rule))
    return Alignment(gold, pred)


def in_spaces(al: Alignment, scheme: str) -> dict[str, Alignment]:
    """The alignment in native and unified labels (the one definition of both spaces)."""
    return {"native": al, "unified": al if scheme == "unified" else unified_alignment(al, scheme)}


def score_alignment(al: Alignment, scheme: str) -> ScoreReport:
    """The full report for an alignment in ``scheme`` (semeval, scierc or unified)."""
    report = ScoreReport("rc", notes=list(al.notes))
    report.tables.append(ScoreTable("per class", class_table(al)))
    report.tables.append(ScoreTable("confusion (rows gold, columns predicted)", confusion(al)))
    n = len(al.gold)
    correct = sum(al.correct(i) for i in range(n))
    report.figures["macro_f1"] = macro_f1(al)
    report.figures["accuracy"] = correct / n if n else 0.0
    report.figures["pairs"] = n
    missing = sum(p is None for p in al.pred)
    reversed_ = sum(p is not None and p.label == g.label and p.head != g.head
                    for g, p in zip(al.gold, al.pred, strict=True))
    if missing:
        report.notes.append(f"{missing} gold pairs have no prediction: counted as misses")
    if reversed_:
        report.notes.append(f"{reversed_} predictions have the right label, wrong direction")
    if scheme == "semeval":
        frame, figures = official_semeval(al)
        report.tables.append(ScoreTable("official SemEval-2018 Task 7 scorer", frame))
        report.figures.update(figures)
    if scheme in ("semeval", "scierc"):
        ual = in_spaces(al, scheme)["unified"]
        report.tables.append(ScoreTable("unified labels: per class", class_table(ual)))
        report.figures["unified_macro_f1"] = macro_f1(ual)
        report.notes.append(
            f"unified labels: {len(al.gold) - len(ual.gold)} gold pairs with a dropped label "
            "left out"
        )
    return report


def detect_format(path: Path) -> str:
    """``scierc`` (.json/.jsonl), ``semeval`` (``LABEL(E1,E2)`` lines) or ``unified``."""
    if path.suffix in (".json", ".jsonl"):
        return "scierc"
    for lineno, line in enumerate(read_text(path).split("\n"), start=1):
        if not line.strip():
            continue
        if _SEMEVAL_LINE.match(line):
            return "semeval"
        if "\t" in line:
            return "unified"
        raise InputError(path, lineno, "cannot tell the relation format (use --rc-format)")
    raise InputError(path, None, "empty relation file")


def read_pairs(path: Path, fmt: str) -> list[Pair]:
    """The labelled pairs of a relation file in ``fmt``."""
    if fmt == "semeval":
        return semeval.read_relations(path)
    if fmt == "scierc":
        return scierc.read(path)[1]
    return unified.read_pairs(path)


def check_labels(pairs: list[Pair], path: Path, fmt: str) -> list[Pair]:
    """``pairs``, when every label is in ``fmt``'s label set (InputError at the first that
    is not; a missing label is left to :func:`align`)."""
    known = mapping(fmt)
    for p in pairs:
        if p.label and p.label not in known:
            raise InputError(path, p.line, f"unknown relation label {p.label!r} "
                             f"(expected one of {', '.join(sorted(known))})")
    return pairs


def score_files(gold: Path, pred: Path, args: argparse.Namespace) -> ScoreReport:
    """Score a prediction file against gold (format from ``args.rc_format`` or detected)."""
    fmt = getattr(args, "rc_format", "auto") or "auto"
    if fmt == "auto":
        fmt = detect_format(gold)
    gold_pairs = check_labels(read_pairs(gold, fmt), gold, fmt)
    pred_pairs = check_labels(read_pairs(pred, fmt), pred, fmt)
    al = align(gold_pairs, pred_pairs, gold, pred)
    return score_alignment(al, fmt)
