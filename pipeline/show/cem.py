"""Chemical mention (CEM) error analysis over IOB sentences: which class and which lexicon or
rule each error comes from. Used by ``notebooks/ner_analysis.ipynb``.

Matching is exact (same token span), as in the CEM task. A false negative that overlaps a
predicted mention is a *boundary* error, otherwise a *missed* mention; a false positive that
overlaps a gold mention is a boundary error, otherwise *spurious*.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pandas as pd

from chemie.scoring.report import prf

OUTCOME_COLUMNS = [
    "sentence", "start", "end", "text", "outcome", "error", "chemdner_class", "rule",
    "confidence",
]


def _overlaps(a: tuple[int, int], spans: set[tuple[int, int]]) -> bool:
    return any(s < a[1] and a[0] < e for s, e in spans)


def mention_outcomes(
    words: Sequence[Sequence[str]],
    gold: Sequence[Sequence[tuple[int, int]]],
    pred: Sequence[Sequence[tuple[int, int, str, str, float]]],
    classify: Callable[[str], str],
) -> pd.DataFrame:
    """One row per predicted mention (``tp``/``fp``) and per missed gold mention (``fn``).

    Per sentence: ``words``, gold token spans ``(start, end)`` (end exclusive) and predicted
    ``(start, end, chemdner_class, rule, confidence)``. False negatives have no rule; their
    class is ``classify(text)`` (the NER's class guesser), so every row has a class.
    """
    rows = []
    for i, (ws, g, p) in enumerate(zip(words, gold, pred, strict=True)):
        gold_set = set(g)
        pred_set = {(s, e) for s, e, *_ in p}
        for s, e, cls, rule, conf in p:
            hit = (s, e) in gold_set
            error = "" if hit else ("boundary" if _overlaps((s, e), gold_set) else "spurious")
            rows.append((i, s, e, " ".join(ws[s:e]), "tp" if hit else "fp", error, cls, rule, conf))
        for s, e in sorted(gold_set - pred_set):
            text = " ".join(ws[s:e])
            error = "boundary" if _overlaps((s, e), pred_set) else "missed"
            rows.append((i, s, e, text, "fn", error, classify(text), "", None))
    return pd.DataFrame(rows, columns=OUTCOME_COLUMNS)


def error_table(outcomes: pd.DataFrame, by: str) -> pd.DataFrame:
    """TP/FP/FN with precision, recall and F1 per value of column ``by`` (plus ``overall``)."""
    counts = pd.crosstab(outcomes[by], outcomes["outcome"])
    for col in ("tp", "fp", "fn"):
        if col not in counts:
            counts[col] = 0
    counts = counts[["tp", "fp", "fn"]]
    counts.loc["overall"] = counts.sum()
    scores = [prf(*row) for row in counts.itertuples(index=False)]
    counts[["precision", "recall", "f1"]] = pd.DataFrame(scores, index=counts.index)
    counts.columns.name = None
    return counts


def rule_errors(outcomes: pd.DataFrame) -> pd.DataFrame:
    """Per lexicon or rule: mentions found, correct, wrong (boundary / spurious), precision;
    most wrong first."""
    made = outcomes[outcomes["outcome"] != "fn"]
    frame = made.groupby("rule").agg(
        mentions=("outcome", "size"),
        correct=("outcome", lambda o: int((o == "tp").sum())),
        boundary=("error", lambda e: int((e == "boundary").sum())),
        spurious=("error", lambda e: int((e == "spurious").sum())),
    )
    frame["precision"] = frame["correct"] / frame["mentions"]
    frame["wrong"] = frame["boundary"] + frame["spurious"]
    return frame.sort_values(["wrong", "mentions"], ascending=False)


def frequent(outcomes: pd.DataFrame, outcome: str, top: int = 20) -> pd.DataFrame:
    """The most frequent texts among rows with this outcome, with error type and class."""
    rows = outcomes[outcomes["outcome"] == outcome]
    grouped = rows.groupby(["text", "error", "chemdner_class"]).size().rename("count")
    return grouped.reset_index().sort_values(["count", "text"], ascending=[False, True]).head(top)
