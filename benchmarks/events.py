"""Event-argument benchmark (ChEMU 2020 Task 2 links) on the hand-made event gold.

`benchmarks/events_gold/` holds R lines for documents of chemu2020/train (positions 0-599 of
chemu-ref/train.jsonl; see its README): `dev/` (30 documents, read while writing the rules of
rules/events.yaml) and `test/` (25 documents, annotated before any rule was written, its
errors never read). For each set it prints events exact and relaxed P/R/F1 per role
(ARG1, ARGM) in two settings:

- *gold labels*: chemie_events alone, on the gold entities and triggers of the corpus
  `.ann` (the setting of the lab's Task 2, where the entities are given);
- *pipeline*: the whole pipeline with chemie_roles and chemie_events on the text (entities,
  triggers and links all predicted; a link counts only when its trigger and argument are
  right too).

Then the cost of chemie_events: the pipeline with roles and events against the same
pipeline without chemie_events, in one run (chunks of the same snippets alternated, each
arm's best of `--passes` after a warm-up; the ratio is what counts: machines differ).

Target (issue 19): events exact F1 >= 0.90 (the lab's grammar-based system 0.898, best
learned 0.954, both with the entities given); the pipeline with roles keeps >= 90% of its
speed without them (so the linker must cost little).

    python benchmarks/events.py [--data PATH] [--passes 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import pandas as pd

from chemie.corpora import data_dir
from chemie.events.linker import load_linker
from chemie.formats.chemu2020 import read_event_gold, roles_as_mentions
from chemie.model import Document, Relation, Role
from chemie.nlp import annotate, load
from chemie.scoring.events import score_events
from chemie.tokenizer.language import blank

GOLD = Path(__file__).parent / "events_gold"
SETS = {"dev (30 docs, read)": "dev", "test (25 docs, errors unread)": "test"}


def on_gold_labels(gold: list[Document]) -> list[Document]:
    """chemie_events' links over the gold entities and triggers of each document."""
    nlp, linker = blank(), load_linker()
    out = []
    for g in gold:
        roles = [Role(m.id, m.spans[0][0], m.spans[-1][1], m.label, m.text, "")
                 for m in g.mentions]
        sentences = [(s.start_char, s.end_char) for s in nlp(g.text).sents]
        links = linker.link(g.text, roles, sentences)
        relations = [Relation(x.role, x.trigger, x.arg, x.rule, id=f"R{n}")
                     for n, x in enumerate(links, 1)]
        out.append(Document(g.id, g.text, mentions=g.mentions, relations=relations))
    return out


def on_pipeline(nlp, gold: list[Document]) -> list[Document]:
    """The whole pipeline's roles and links on the text of each document."""
    return [roles_as_mentions(annotate(nlp, Document(g.id, g.text))) for g in gold]


def table(gold: list[Document], pred: list[Document]) -> pd.DataFrame:
    report = score_events(gold, pred)
    frames = {mode: report.table(f"events {mode}") for mode in ("exact", "relaxed")}
    rows = {}
    for mode, frame in frames.items():
        for role in frame.index:
            rows[(mode, role)] = frame.loc[role, ["tp", "fp", "fn", "precision", "recall", "f1"]]
    return pd.DataFrame(rows).T


def speed(texts: list[str], passes: int) -> dict[str, float]:
    """Snippets per second with and without chemie_events, and their ratio: each chunk's
    best time in each arm, summed over the chunks."""
    nlp = load(roles=True)
    arms = {"with events": [], "without events": ["chemie_events"]}
    chunks = [texts[i:i + 25] for i in range(0, len(texts), 25)]
    best = {arm: [float("inf")] * len(chunks) for arm in arms}
    for n in range(passes + 1):
        for k, chunk in enumerate(chunks):
            for arm, disabled in arms.items():
                start = time.perf_counter()
                with nlp.select_pipes(disable=disabled):
                    for _ in nlp.pipe(chunk):
                        pass
                if n:  # the first pass warms up
                    best[arm][k] = min(best[arm][k], time.perf_counter() - start)
    total = {arm: sum(times) for arm, times in best.items()}
    out = {f"{arm} (snippets/s)": len(texts) / total[arm] for arm in arms}
    out["speed with / without"] = total["without events"] / total["with events"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="the data folder")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    corpus = (args.data or data_dir()) / "chemu2020" / "train"
    nlp = load(roles=True)
    results = {}
    texts = []
    for title, name in SETS.items():
        gold = list(read_event_gold(corpus, GOLD / name))
        texts += [g.text for g in gold]
        results[f"{title}, gold labels"] = table(gold, on_gold_labels(gold))
        results[f"{title}, pipeline"] = table(gold, on_pipeline(nlp, gold))
    cost = speed(texts * 2, args.passes)
    if args.json:
        print(json.dumps({k: v.reset_index().astype({"level_0": str}).to_dict("records")
                          for k, v in results.items()} | {"speed": cost}, indent=1))
        return
    for title, frame in results.items():
        print(f"== events, {title} ==")
        print(frame.to_string(float_format=lambda x: f"{x:.3f}"))
        print()
    print("== speed: the pipeline with roles, with and without chemie_events ==")
    for k, v in cost.items():
        print(f"{k}: {v:.3f}")


if __name__ == "__main__":
    main()
