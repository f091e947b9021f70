"""Bridging rules with gold mentions: an upper bound for chemie_actions + chemie_bridging.

Runs only the action parser and the bridging resolver over the gold mentions (as the
reader gives them, without mention-detector attributes) of
ChEMU-Ref ``train.jsonl`` (no NER, no mention detection, no coreference) and prints the
per-type exact and relaxed tables for two parts of the file: the development part
(documents 0-599 by file order) and the untouched part (600-899; measured, never
inspected while writing rules). Coreference rows are empty by design (not predicted here).
It tunes nothing.

    python benchmarks/bridging_gold_mentions.py [--data PATH] [--json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from pathlib import Path

from chemie.context import relations_of
from chemie.corpora import data_dir
from chemie.formats.chemu import iter_chemu
from chemie.model import Document, Mention, Relation
from chemie.nlp import doc_from_document, load
from chemie.scoring.anaphora import score_anaphora

PARTS = {"dev 0-599": (0, 600), "untouched 600-899": (600, 900)}
BRIDGING = ["TRANSFORMED", "REACTION_ASSOCIATED", "WORK_UP", "CONTAINED"]


def predict(nlp, gold: list[Document]) -> tuple[list[Document], float]:
    """Documents with the gold mentions and the predicted bridging relations; seconds taken."""
    actions, bridging = nlp.get_pipe("chemie_actions"), nlp.get_pipe("chemie_bridging")
    docs = []
    for d in gold:
        # the Doc has the document's exact tokens, so the gold character offsets carry over
        doc = doc_from_document(nlp, d)
        doc._.mentions = [Mention(m.id, m.spans, m.label, m.text, "gold") for m in d.mentions]
        docs.append(doc)
    start = time.perf_counter()
    for doc in docs:
        bridging(actions(doc))
    seconds = time.perf_counter() - start
    out = []
    for d, doc in zip(gold, docs, strict=True):
        pred = Document(d.id, d.text, d.tokens, d.sentences, mentions=list(d.mentions))
        pred.relations = [Relation(r.label, r.head, r.tail, r.rule) for r in relations_of(doc)]
        out.append(pred)
    return out, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=data_dir() / "chemu-ref" / "train.jsonl")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    nlp = load()
    figures: dict[str, dict[str, float]] = {}
    for part, (lo, hi) in PARTS.items():
        gold = list(itertools.islice(iter_chemu(args.data), lo, hi))
        pred, seconds = predict(nlp, gold)
        report = score_anaphora(gold, pred)
        row: dict[str, float] = {"docs_per_s": len(gold) / seconds if seconds else 0.0}
        for mode in ("exact", "relaxed"):
            frame = report.table(mode).loc[BRIDGING]
            tp, fp, fn = (int(frame[c].sum()) for c in ("tp", "fp", "fn"))
            f1 = 2 * tp / (2 * tp + fp + fn) if tp else 0.0
            row[f"{mode}_bridging_f1"] = f1
            for label in BRIDGING:
                row[f"{mode}_{label}_f1"] = float(frame.loc[label, "f1"])
        figures[part] = row
        if not args.json:
            print(f"== {part}: {len(gold)} documents, gold mentions, bridging rules only ==")
            for mode in ("exact", "relaxed"):
                print(f"-- {mode} --")
                print(report.table(mode).loc[BRIDGING].to_string(float_format="%.4f"))
                print(f"bridging micro F1 ({mode}): {row[f'{mode}_bridging_f1']:.4f}")
            print(f"speed (actions + bridging): {row['docs_per_s']:.0f} docs/s\n")
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
