"""Event scoring for brat folders (ChEMU 2020 Task 2: trigger-argument links).

An event is one relation line ``R1<TAB>ROLE Arg1:T_trigger Arg2:T_argument`` whose role is
``ARG1`` or ``ARGM``: the tuple (trigger label and spans, role, argument label and spans).
*Exact*: the same role, labels and character spans on both sides. *Relaxed*: the same role
and labels, the trigger spans overlapping **and** the argument spans overlapping (touching
spans do not overlap). In both modes the true positives of one role in one document are the
size of a maximum bipartite matching between gold and predicted events (so a duplicate
counts once); FP = #pred - TP, FN = #gold - TP. Micro P/R/F1 are reported per role and
overall. Relations with other labels are not scored (a note counts them); entities are
scored by :mod:`chemie.scoring.entities`.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from chemie.formats.brat import read_brat_dir
from chemie.model import Document, Mention
from chemie.scoring.anaphora import matched
from chemie.scoring.entities import COLUMNS, MODES, paired_documents, pairing_notes
from chemie.scoring.report import ScoreReport, ScoreTable, prf

EVENT_ROLES: tuple[str, str] = ("ARG1", "ARGM")


class Event(NamedTuple):
    """One trigger-argument link as the scorer compares it."""

    role: str
    trigger: Mention
    arg: Mention


def _exact(g: Event, p: Event) -> bool:
    return (g.trigger.label == p.trigger.label and g.arg.label == p.arg.label
            and frozenset(g.trigger.spans) == frozenset(p.trigger.spans)
            and frozenset(g.arg.spans) == frozenset(p.arg.spans))


def _relaxed(g: Event, p: Event) -> bool:
    return (g.trigger.label == p.trigger.label and g.arg.label == p.arg.label
            and g.trigger.overlaps(p.trigger) and g.arg.overlaps(p.arg))


EDGES: dict[str, Callable[[Event, Event], bool]] = {"exact": _exact, "relaxed": _relaxed}


def document_events(doc: Document | None) -> tuple[dict[str, list[Event]], int]:
    """The events of ``doc`` by role, and the number of its relations of other labels."""
    out: dict[str, list[Event]] = defaultdict(list)
    if doc is None:
        return out, 0
    index = doc.mention_index()
    other = 0
    for rel in doc.relations:
        if rel.label not in EVENT_ROLES:
            other += 1
            continue
        out[rel.label].append(Event(rel.label, index[rel.head], index[rel.tail]))
    return out, other


def score_events(gold: Iterable[Document], pred: Iterable[Document]) -> ScoreReport:
    """Score predicted against gold documents (matched by id); see the module docstring."""
    counts = {mode: {role: [0, 0, 0] for role in EVENT_ROLES} for mode in MODES}
    pairs = missing = other = 0
    for g_doc, p_doc in paired_documents(gold, pred):
        pairs += 1
        missing += p_doc is None
        g, g_other = document_events(g_doc)
        p, p_other = document_events(p_doc)
        other += g_other + p_other
        for role in EVENT_ROLES:
            for mode in MODES:
                tp = matched(g[role], p[role], EDGES[mode])
                c = counts[mode][role]
                c[0] += tp
                c[1] += len(p[role]) - tp
                c[2] += len(g[role]) - tp
    notes = pairing_notes(pairs, missing)
    if other:
        notes.append(f"{other} relations with labels other than ARG1/ARGM not scored")
    report = ScoreReport(task="events", notes=notes)
    for mode in MODES:
        rows = dict(counts[mode])
        rows["overall"] = [sum(c[i] for c in counts[mode].values()) for i in range(3)]
        data = {name: [tp, fp, fn, *prf(tp, fp, fn)] for name, (tp, fp, fn) in rows.items()}
        frame = pd.DataFrame.from_dict(data, orient="index", columns=COLUMNS)
        frame = frame.astype({"tp": int, "fp": int, "fn": int})
        report.tables.append(ScoreTable(f"events {mode}", frame))
        report.figures[f"events_{mode}_f1"] = float(frame.loc["overall", "f1"])
    return report


def score_files(gold: Path, pred: Path, args: argparse.Namespace | None = None) -> ScoreReport:
    """``chemie score events GOLD PRED``: two brat folders (``.txt`` + ``.ann`` with ``R``
    lines)."""
    return score_events(read_brat_dir(Path(gold)), read_brat_dir(Path(pred)))
