"""ChEMU 2021 anaphora resolution scoring (Task 2), exact and relaxed.

A relation is (type, anaphor, antecedent). *Exact*: same type and identical anaphor and
antecedent spans (span sets compared as sets of character ranges). *Relaxed*: same type,
anaphors overlap and antecedents overlap. True positives are the size of a maximum bipartite
matching between gold and predicted relations of one type in one document (for both modes,
so duplicates count once per partner); FP = #pred - TP, FN = #gold - TP.

Coreference is transitive: before matching, in gold and prediction alike, each anaphor is
linked to every mention reachable by following anaphor -> antecedent links (deduplicated by
spans). Bridging relations are scored as given.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

from chemie.errors import InputError
from chemie.formats.brat import read_brat_dir
from chemie.formats.chemu import iter_chemu
from chemie.model import ANAPHORA_LABELS, Document, Mention, Range
from chemie.scoring.report import ScoreReport, ScoreTable, prf

TYPES: list[str] = list(ANAPHORA_LABELS)
MODES: tuple[str, str] = ("exact", "relaxed")
COLUMNS = ["tp", "fp", "fn", "precision", "recall", "f1"]

Key = frozenset[Range]
Pair = tuple[Mention, Mention]  # (anaphor, antecedent)


def _key(m: Mention) -> Key:
    return frozenset(m.spans)


def expand_coreference(pairs: Iterable[Pair]) -> list[Pair]:
    """Link each anaphor to every mention reachable along anaphor -> antecedent links.

    Mentions are identified by their spans; the result has no duplicate pairs. A mention is
    linked to itself only when the input links it to itself directly.
    """
    mentions: dict[Key, Mention] = {}
    succ: dict[Key, list[Key]] = {}
    direct_self: set[Key] = set()
    for ana, ant in pairs:
        a, b = _key(ana), _key(ant)
        mentions.setdefault(a, ana)
        mentions.setdefault(b, ant)
        succ.setdefault(a, [])
        if b not in succ[a]:
            succ[a].append(b)
        if a == b:
            direct_self.add(a)
    out: list[Pair] = []
    for a in succ:
        seen: dict[Key, None] = {}
        stack = list(reversed(succ[a]))
        while stack:
            b = stack.pop()
            if b in seen:
                continue
            seen[b] = None
            stack.extend(reversed(succ.get(b, [])))
        out.extend((mentions[a], mentions[b]) for b in seen if b != a or a in direct_self)
    return out


def _exact(g: Pair, p: Pair) -> bool:
    return _key(g[0]) == _key(p[0]) and _key(g[1]) == _key(p[1])


def _relaxed(g: Pair, p: Pair) -> bool:
    return g[0].overlaps(p[0]) and g[1].overlaps(p[1])


EDGES: dict[str, Callable[[Pair, Pair], bool]] = {"exact": _exact, "relaxed": _relaxed}


def matched(gold: list[Pair], pred: list[Pair], edge: Callable[[Pair, Pair], bool]) -> int:
    """Size of a maximum bipartite matching between ``gold`` and ``pred`` under ``edge``."""
    rows, cols = [], []
    for i, g in enumerate(gold):
        for j, p in enumerate(pred):
            if edge(g, p):
                rows.append(i)
                cols.append(j)
    if not rows:
        return 0
    graph = csr_matrix(
        (np.ones(len(rows), dtype=np.int8), (rows, cols)), shape=(len(gold), len(pred))
    )
    return int((maximum_bipartite_matching(graph, perm_type="column") >= 0).sum())


def _where(doc: Document) -> tuple[object, object]:
    return doc.meta.get("path"), doc.meta.get("line")


def doc_pairs(doc: Document) -> tuple[dict[str, list[Pair]], int]:
    """The scored pairs of ``doc`` by type (coreference expanded), and #unknown-label links."""
    index = doc.mention_index()
    by_type: dict[str, list[Pair]] = {t: [] for t in TYPES}
    unknown = 0
    for rel in doc.relations:
        if rel.label not in by_type:
            unknown += 1
            continue
        try:
            by_type[rel.label].append((index[rel.head], index[rel.tail]))
        except KeyError as e:
            raise InputError(
                *_where(doc), f"document {doc.id}: relation refers to unknown mention {e}"
            ) from None
    by_type["COREFERENCE"] = expand_coreference(by_type["COREFERENCE"])
    return by_type, unknown


def _check_same_document(gold: Document, pred: Document) -> None:
    """InputError (at the prediction's file and line) when the two texts or tokens differ."""
    if pred.text != gold.text:
        at = next(
            (i for i, (a, b) in enumerate(zip(gold.text, pred.text, strict=False)) if a != b),
            min(len(gold.text), len(pred.text)),
        )
        raise InputError(
            *_where(pred),
            f"document {pred.id}: text differs from the gold document (from character {at})",
        )
    if "sentences" in gold.meta and "sentences" in pred.meta:
        gold_tokens = [(t.start, t.end) for t in gold.tokens]
        if gold_tokens != [(t.start, t.end) for t in pred.tokens]:
            raise InputError(
                *_where(pred), f"document {pred.id}: tokens differ from the gold document"
            )


class _Tally:
    """TP/FP/FN per mode and type, plus the counts reported in the notes."""

    def __init__(self) -> None:
        self.counts = {m: {t: [0, 0, 0] for t in TYPES} for m in MODES}
        self.gold_docs = self.pred_docs = self.missing = 0
        self.dropped = {"gold": 0, "pred": 0}
        self.unknown = {"gold": 0, "pred": 0}
        self.coref = {"gold": [0, 0], "pred": [0, 0]}  # links as given, after expansion

    def add(self, gold: Document, pred: Document | None) -> None:
        g, g_unknown = doc_pairs(gold)
        p, p_unknown = doc_pairs(pred) if pred is not None else ({t: [] for t in TYPES}, 0)
        self.unknown["gold"] += g_unknown
        self.unknown["pred"] += p_unknown
        for side, doc, pairs in (("gold", gold, g), ("pred", pred, p)):
            if doc is not None:
                self.dropped[side] += int(doc.meta.get("dropped_pairs", 0))  # type: ignore[arg-type]
                given = sum(r.label == "COREFERENCE" for r in doc.relations)
                self.coref[side][0] += given
                self.coref[side][1] += len(pairs["COREFERENCE"])
        for mode in MODES:
            for t in TYPES:
                tp = matched(g[t], p[t], EDGES[mode])
                c = self.counts[mode][t]
                c[0] += tp
                c[1] += len(p[t]) - tp
                c[2] += len(g[t]) - tp

    def table(self, mode: str) -> pd.DataFrame:
        rows = {t: self.counts[mode][t] for t in TYPES}
        rows["overall"] = [sum(c[i] for c in rows.values()) for i in range(3)]
        data = {}
        for name, (tp, fp, fn) in rows.items():
            data[name] = [tp, fp, fn, *prf(tp, fp, fn)]
        frame = pd.DataFrame.from_dict(data, orient="index", columns=COLUMNS)
        return frame.astype({"tp": int, "fp": int, "fn": int})

    def notes(self) -> list[str]:
        notes = [
            f"{self.gold_docs} gold documents, {self.pred_docs} predicted documents",
            f"{self.missing} gold documents had no prediction",
            f"pairs with an empty argument dropped: {self.dropped['gold']} gold, "
            f"{self.dropped['pred']} predicted",
            "coreference expanded transitively: "
            f"gold {self.coref['gold'][0]} -> {self.coref['gold'][1]} links, "
            f"predicted {self.coref['pred'][0]} -> {self.coref['pred'][1]} links",
        ]
        if any(self.unknown.values()):
            notes.append(
                f"relations with a label outside {', '.join(TYPES)} ignored: "
                f"{self.unknown['gold']} gold, {self.unknown['pred']} predicted"
            )
        return notes


def score_anaphora(gold: Iterable[Document], pred: Iterable[Document]) -> ScoreReport:
    """Score predicted against gold documents (matched by id); see the module docstring."""
    gold_docs: dict[str, Document] = {}
    for doc in gold:
        if doc.id in gold_docs:
            raise InputError(*_where(doc), f"document {doc.id} appears twice in the gold data")
        gold_docs[doc.id] = doc
    tally = _Tally()
    tally.gold_docs = len(gold_docs)
    seen: set[str] = set()
    for doc in pred:
        if doc.id not in gold_docs:
            raise InputError(*_where(doc), f"document {doc.id} is not in the gold data")
        if doc.id in seen:
            raise InputError(*_where(doc), f"document {doc.id} is predicted twice")
        seen.add(doc.id)
        _check_same_document(gold_docs[doc.id], doc)
        tally.add(gold_docs[doc.id], doc)
    tally.pred_docs = len(seen)
    for doc_id, doc in gold_docs.items():
        if doc_id not in seen:
            tally.missing += 1
            tally.add(doc, None)
    report = ScoreReport(task="anaphora", notes=tally.notes())
    for mode in MODES:
        frame = tally.table(mode)
        report.tables.append(ScoreTable(mode, frame))
        report.figures[f"{mode}_f1"] = float(frame.loc["overall", "f1"])
    return report


def read_documents(path: Path) -> Iterator[Document]:
    """Documents of a ChEMU-Ref .jsonl file or of a brat folder (.txt + .ann)."""
    if path.is_dir():
        return read_brat_dir(path)
    if not path.exists():
        raise InputError(path, None, "no such file or folder")
    return iter_chemu(path)


def score_files(gold: Path, pred: Path, args: argparse.Namespace | None = None) -> ScoreReport:
    """``chemie score anaphora GOLD PRED``: each a .jsonl file or a brat folder."""
    return score_anaphora(read_documents(Path(gold)), read_documents(Path(pred)))
