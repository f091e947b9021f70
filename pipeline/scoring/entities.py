"""Entity scoring for brat folders (ChEMU 2020 Task 1 entities and the trigger words).

An entity is (label, spans). *Exact*: same label and the same character spans. *Relaxed*:
same label and overlapping spans. In both modes the true positives of one label in one
document are the size of a maximum bipartite matching between gold and predicted entities
(so a duplicate counts once); FP = #pred - TP, FN = #gold - TP. Micro P/R/F1 are reported
per label and overall, the trigger labels (``REACTION_STEP``, ``WORKUP``) apart from the
entity labels. Labels outside the ChEMU 2020 set are scored with the entities and named in a
note. Relations, events and notes in the ``.ann`` files are not scored.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pandas as pd

from chemie.errors import InputError
from chemie.formats.brat import read_brat_dir
from chemie.model import ROLE_ENTITY_LABELS, ROLE_TRIGGER_LABELS, Document, Mention
from chemie.scoring.anaphora import matched
from chemie.scoring.report import ScoreReport, ScoreTable, prf

MODES: tuple[str, str] = ("exact", "relaxed")
GROUPS: tuple[str, str] = ("entities", "triggers")
COLUMNS = ["tp", "fp", "fn", "precision", "recall", "f1"]


def _exact(g: Mention, p: Mention) -> bool:
    return frozenset(g.spans) == frozenset(p.spans)


def _relaxed(g: Mention, p: Mention) -> bool:
    return g.overlaps(p)


EDGES: dict[str, Callable[[Mention, Mention], bool]] = {"exact": _exact, "relaxed": _relaxed}


def _by_label(doc: Document | None) -> dict[str, list[Mention]]:
    out: dict[str, list[Mention]] = defaultdict(list)
    for m in doc.mentions if doc is not None else ():
        out[m.label].append(m)
    return out


def _where(doc: Document) -> tuple[object, object]:
    return doc.meta.get("path"), doc.meta.get("line")


class _Tally:
    """TP/FP/FN per mode and label, and the document counts of the notes."""

    def __init__(self) -> None:
        self.counts: dict[str, dict[str, list[int]]] = {m: defaultdict(lambda: [0, 0, 0])
                                                        for m in MODES}
        self.gold_docs = self.pred_docs = self.missing = 0

    def add(self, gold: Document, pred: Document | None) -> None:
        g, p = _by_label(gold), _by_label(pred)
        for label in set(g) | set(p):
            for mode in MODES:
                tp = matched(g[label], p[label], EDGES[mode])
                c = self.counts[mode][label]
                c[0] += tp
                c[1] += len(p[label]) - tp
                c[2] += len(g[label]) - tp

    def labels(self) -> dict[str, list[str]]:
        """The rows of each group: the ChEMU 2020 labels, then any other label seen."""
        seen = set(self.counts["exact"])
        known = set(ROLE_ENTITY_LABELS) | set(ROLE_TRIGGER_LABELS)
        return {
            "entities": [*ROLE_ENTITY_LABELS, *sorted(seen - known)],
            "triggers": list(ROLE_TRIGGER_LABELS),
        }

    def table(self, mode: str, labels: list[str]) -> pd.DataFrame:
        counts = self.counts[mode]
        rows = {label: list(counts.get(label, (0, 0, 0))) for label in labels}
        rows["overall"] = [sum(c[i] for c in rows.values()) for i in range(3)]
        data = {name: [tp, fp, fn, *prf(tp, fp, fn)] for name, (tp, fp, fn) in rows.items()}
        frame = pd.DataFrame.from_dict(data, orient="index", columns=COLUMNS)
        return frame.astype({"tp": int, "fp": int, "fn": int})


def paired_documents(gold: Iterable[Document], pred: Iterable[Document]
                     ) -> Iterator[tuple[Document, Document | None]]:
    """Each gold document with its prediction (matched by id; None for a gold document
    without one, after the predictions). A prediction of no gold document, a document twice
    on either side, or a text that differs from the gold one is an InputError."""
    gold_docs: dict[str, Document] = {}
    for doc in gold:
        if doc.id in gold_docs:
            raise InputError(*_where(doc), f"document {doc.id} appears twice in the gold data")
        gold_docs[doc.id] = doc
    seen: set[str] = set()
    for doc in pred:
        if doc.id not in gold_docs:
            raise InputError(*_where(doc), f"document {doc.id} is not in the gold data")
        if doc.id in seen:
            raise InputError(*_where(doc), f"document {doc.id} is predicted twice")
        seen.add(doc.id)
        if doc.text != gold_docs[doc.id].text:
            raise InputError(*_where(doc), f"document {doc.id}: text differs from the gold "
                             "document")
        yield gold_docs[doc.id], doc
    for doc_id, doc in gold_docs.items():
        if doc_id not in seen:
            yield doc, None


def pairing_notes(pairs: int, missing: int) -> list[str]:
    """The notes on the documents scored: ``pairs`` gold documents, ``missing`` of them
    without a prediction."""
    return [f"{pairs} gold documents, {pairs - missing} predicted documents",
            f"{missing} gold documents had no prediction"]


def score_entities(gold: Iterable[Document], pred: Iterable[Document]) -> ScoreReport:
    """Score predicted against gold documents (matched by id); see the module docstring."""
    tally = _Tally()
    pairs = 0
    for g, p in paired_documents(gold, pred):
        pairs += 1
        tally.missing += p is None
        tally.add(g, p)
    labels = tally.labels()
    notes = pairing_notes(pairs, tally.missing)
    extra = labels["entities"][len(ROLE_ENTITY_LABELS):]
    if extra:
        notes.append(f"labels outside ChEMU 2020 scored with the entities: {', '.join(extra)}")
    report = ScoreReport(task="entities", notes=notes)
    for group in GROUPS:
        for mode in MODES:
            frame = tally.table(mode, labels[group])
            report.tables.append(ScoreTable(f"{group} {mode}", frame))
            report.figures[f"{group}_{mode}_f1"] = float(frame.loc["overall", "f1"])
    return report


def score_files(gold: Path, pred: Path, args: argparse.Namespace | None = None) -> ScoreReport:
    """``chemie score entities GOLD PRED``: two brat folders (``.txt`` + ``.ann``)."""
    return score_entities(read_brat_dir(Path(gold)), read_brat_dir(Path(pred)))
