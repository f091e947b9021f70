"""CHEMDNER CEM and CDI scoring: micro P/R/F1 with exact matching, bootstrap SD of F1.

The bootstrap resamples documents with replacement (``args.resamples`` times, seeded by
``args.seed``) and recomputes micro F1 from per-document tp/fp/fn arrays with numpy.
Documents are the union of gold and prediction documents; a gold document without
predictions counts as all false negatives, and the number of such documents is reported.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path

import numpy
import pandas as pd

from chemie.formats.chemdner import read_annotations, read_cdi, read_cdi_gold, read_cem
from chemie.scoring.report import ScoreReport, ScoreTable, prf

_CHUNK = 200  # resamples per numpy batch (bounds memory for large corpora)


def bootstrap_f1_sd(
    tp: numpy.ndarray, fp: numpy.ndarray, fn: numpy.ndarray, resamples: int, seed: int
) -> float:
    """Standard deviation of micro F1 over document resamples (0.0 without documents)."""
    n = len(tp)
    if n == 0 or resamples <= 0:
        return 0.0
    rng = numpy.random.default_rng(seed)
    counts = numpy.stack([tp, fp, fn]).astype(numpy.int64)  # (3, n)
    f1s = []
    for done in range(0, resamples, _CHUNK):
        k = min(_CHUNK, resamples - done)
        idx = rng.integers(0, n, size=(k, n))
        flat = (numpy.arange(k)[:, None] * n + idx).ravel()
        weights = numpy.bincount(flat, minlength=k * n).reshape(k, n)  # draws per document
        sums = weights @ counts.T  # (k, 3): tp, fp, fn per resample
        t, p, f = sums[:, 0], sums[:, 1], sums[:, 2]
        denom = 2 * t + p + f
        f1s.append(numpy.where(denom > 0, 2 * t / numpy.maximum(denom, 1), 0.0))
    return float(numpy.concatenate(f1s).std(ddof=1)) if resamples > 1 else 0.0


def score_sets(
    gold: Mapping[str, set], pred: Mapping[str, set], task: str, resamples: int, seed: int
) -> ScoreReport:
    """Micro P/R/F1 and bootstrap SD from per-document gold and predicted sets."""
    docs = sorted(set(gold) | set(pred))
    tp = numpy.array([len(gold.get(d, set()) & pred.get(d, set())) for d in docs])
    fp = numpy.array([len(pred.get(d, set()) - gold.get(d, set())) for d in docs])
    fn = numpy.array([len(gold.get(d, set()) - pred.get(d, set())) for d in docs])
    t, f_p, f_n = int(tp.sum()), int(fp.sum()), int(fn.sum())
    p, r, f = prf(t, f_p, f_n)
    sd = bootstrap_f1_sd(tp, fp, fn, resamples, seed)
    frame = pd.DataFrame(
        [{"tp": t, "fp": f_p, "fn": f_n, "precision": p, "recall": r, "f1": f, "f1_sd": sd}],
        index=pd.Index(["overall"], name="row"),
    )
    report = ScoreReport(task, [ScoreTable(task.upper(), frame)])
    report.figures = {"precision": p, "recall": r, "f1": f, "f1_sd": sd}
    missing = [d for d in gold if d not in pred]
    extra = [d for d in pred if d not in gold]
    report.notes.append(f"{len(docs)} documents; bootstrap: {resamples} resamples, seed {seed}")
    if missing:
        report.notes.append(f"{len(missing)} gold documents have no predictions (scored empty)")
    if extra:
        report.notes.append(f"{len(extra)} predicted documents are not in gold (all FP)")
    return report


def _opts(args: argparse.Namespace | None) -> tuple[int, int]:
    return int(getattr(args, "resamples", 1000)), int(getattr(args, "seed", 0))


def score_cem_files(gold: Path, pred: Path, args: argparse.Namespace | None = None) -> ScoreReport:
    """``chemie score cem GOLD PRED``: gold annotations vs CEM predictions."""
    annotations = read_annotations(gold)
    g: dict[str, set] = {}
    by_class: dict[str, list[tuple[str, tuple[str, int, int]]]] = {}
    for a in annotations:
        key = (a.part, a.start, a.end)
        g.setdefault(a.pmid, set()).add(key)
        by_class.setdefault(a.cls, []).append((a.pmid, key))
    p: dict[str, set] = {}
    for c in read_cem(pred):
        p.setdefault(c.pmid, set()).add(c.key)
    resamples, seed = _opts(args)
    report = score_sets(g, p, "cem", resamples, seed)
    rows = []
    for cls in sorted(by_class):
        items = set(by_class[cls])
        found = sum(1 for pmid, key in items if key in p.get(pmid, ()))
        rows.append({"gold": len(items), "found": found, "recall": found / len(items)})
    if rows:
        frame = pd.DataFrame(rows, index=pd.Index(sorted(by_class), name="class"))
        report.tables.append(ScoreTable("CEM recall by gold class", frame))
    return report


def score_cdi_files(gold: Path, pred: Path, args: argparse.Namespace | None = None) -> ScoreReport:
    """``chemie score cdi GOLD PRED``: unique names per document (exact string match)."""
    g = read_cdi_gold(gold)
    p: dict[str, set] = {}
    for c in read_cdi(pred):
        p.setdefault(c.pmid, set()).add(c.name)
    resamples, seed = _opts(args)
    return score_sets(g, p, "cdi", resamples, seed)
