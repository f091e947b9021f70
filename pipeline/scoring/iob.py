"""IOB scoring: exact-span micro P/R/F1 (per type and overall) over identical token files."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import pandas as pd

from chemie.errors import InputError
from chemie.formats.iob import IOBSentence, iob_spans, read_iob
from chemie.scoring.report import ScoreReport, ScoreTable, prf


def check_same_tokens(
    gold: list[IOBSentence], pred: list[IOBSentence], gold_path: Path, pred_path: Path
) -> None:
    """InputError (FILE:LINE of the prediction) at the first token or sentence that differs."""
    for gs, ps in zip(gold, pred, strict=False):
        for k, (gw, pw) in enumerate(zip(gs.words, ps.words, strict=False)):
            if gw != pw:
                raise InputError(
                    pred_path, ps.lines[k],
                    f"token {pw!r} differs from gold {gw!r} ({gold_path}:{gs.lines[k]})",
                )
        if len(gs.words) != len(ps.words):
            k = min(len(gs.words), len(ps.words))
            line = ps.lines[k] if k < len(ps.words) else ps.lines[-1]
            raise InputError(
                pred_path, line,
                f"sentence has {len(ps.words)} tokens, gold has {len(gs.words)} "
                f"({gold_path}:{gs.line})",
            )
    if len(gold) != len(pred):
        raise InputError(
            pred_path, None, f"{len(pred)} sentences, gold {gold_path} has {len(gold)}"
        )


def score_sentences(gold: list[IOBSentence], pred: list[IOBSentence]) -> ScoreReport:
    """Exact-span scores of sentence lists that have the same tokens."""
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    for gs, ps in zip(gold, pred, strict=True):
        g = set(iob_spans(gs.tags))
        p = set(iob_spans(ps.tags))
        for _, _, kind in g & p:
            tp[kind] += 1
        for _, _, kind in p - g:
            fp[kind] += 1
        for _, _, kind in g - p:
            fn[kind] += 1
    rows = {}
    for kind in sorted(set(tp) | set(fp) | set(fn)):
        p_, r_, f_ = prf(tp[kind], fp[kind], fn[kind])
        rows[kind] = {"tp": tp[kind], "fp": fp[kind], "fn": fn[kind],
                      "precision": p_, "recall": r_, "f1": f_}
    t, f_p, f_n = sum(tp.values()), sum(fp.values()), sum(fn.values())
    p, r, f = prf(t, f_p, f_n)
    rows["overall"] = {"tp": t, "fp": f_p, "fn": f_n, "precision": p, "recall": r, "f1": f}
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "type"
    report = ScoreReport("iob", [ScoreTable("IOB exact spans", frame)])
    report.figures = {"precision": p, "recall": r, "f1": f}
    return report


def score_files(gold: Path, pred: Path, args: argparse.Namespace | None = None) -> ScoreReport:
    """``chemie score iob GOLD PRED``; refuses files whose tokens differ."""
    g = read_iob(gold)
    p = read_iob(pred)
    check_same_tokens(g, p, gold, pred)
    return score_sentences(g, p)
