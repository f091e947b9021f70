"""Reaction roles benchmark: ChEMU 2020 entities and trigger words on chemu2020/train.

Runs the whole chemie pipeline on the raw text of each brat document (the ``.txt``) and
scores ``chemie_roles`` (``doc._.roles``) against the ``.ann`` files, in two parts numbered
by position in ``chemu-ref/train.jsonl`` (the same snippets; file name = doc_key): the
development part (documents 0-599, the only part read while writing the rules) and the
untouched part (600-899: measured, never inspected). For each part it prints, per label,
exact and relaxed P/R/F1 (entities and triggers apart), the micro-averaged figures, and a
training-dictionary baseline for scale: every entity string of the development part's gold
with its most frequent label, matched longest-first at word boundaries (exact F1 per
label). Then the speed of the whole pipeline with chemie_roles (and chemie_events, which
``load(roles=True)`` adds after it) against the same pipeline without them (A/B in one run
and one pipeline, chunks of the same snippets alternated, each chunk's best of ``--passes``
after a warm-up pass; the ratio is what counts: machines differ).

On a shared machine CPU time can swing by a third; count instructions instead, each arm in
its own process over the same snippets after the same warm-up pass (``--callgrind-arm``
runs one pass of one arm inside ``functools.reduce``, the function callgrind collects in)::

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=functools_reduce \
        python benchmarks/roles.py --callgrind-arm with --docs 100
    (the same with ``--callgrind-arm without``; the ratio of the two totals is the figure)

Targets (issue 19), on the untouched part: entities exact micro F1 >= 0.93, relaxed
>= 0.95, triggers exact F1 >= 0.93, every label reported; the pipeline with roles keeps
>= 90% of its speed without them.

    python benchmarks/roles.py [--data PATH] [--passes 3] [--json]
                               [--callgrind-arm with|without --docs N]
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

import ahocorasick
import pandas as pd

from chemie.corpora import data_dir
from chemie.model import ROLE_ENTITY_LABELS, ROLE_TRIGGER_LABELS, Document, Mention
from chemie.nlp import annotate, load
from chemie.roles_evaluation import gold_documents, jsonl_order, predict
from chemie.scoring.entities import score_entities

PARTS = {"dev 0-599": (0, 600), "untouched 600-899": (600, 900)}
ROLE_PIPES = ["chemie_roles", "chemie_events"]  # what the "without" arm leaves out


class Dictionary:
    """The training-dictionary baseline: entity strings with their most frequent label."""

    def __init__(self, gold: list[Document]):
        counts: dict[str, Counter] = defaultdict(Counter)
        for doc in gold:
            for m in doc.mentions:
                counts[m.text][m.label] += 1
        self.automaton = ahocorasick.Automaton()
        for text, labels in counts.items():
            if text.strip():
                self.automaton.add_word(text, (len(text), labels.most_common(1)[0][0]))
        self.automaton.make_automaton()

    def predict(self, doc: Document) -> Document:
        """Longest matches first, left to right, not overlapping, at word boundaries."""
        text = doc.text
        found = []
        for end, (length, label) in self.automaton.iter(text):
            start = end + 1 - length
            if (start > 0 and text[start - 1].isalnum() and text[start].isalnum()) or (
                    end + 1 < len(text) and text[end + 1].isalnum() and text[end].isalnum()):
                continue
            found.append((start, end + 1, label))
        found.sort(key=lambda f: (-(f[1] - f[0]), f[0]))
        taken = bytearray(len(text))
        mentions = []
        for start, end, label in found:
            if any(taken[start:end]):
                continue
            taken[start:end] = b"\x01" * (end - start)
            mentions.append(Mention(f"T{len(mentions) + 1}", ((start, end),), label,
                                    text[start:end]))
        return Document(doc.id, text, mentions=mentions)


def scores(gold: list[Document], pred: list[Document]) -> dict[str, pd.DataFrame]:
    report = score_entities(gold, pred)
    return {t.title: t.frame for t in report.tables}


def speed(docs: list[Document], passes: int) -> dict[str, float]:
    """Snippets per CPU-second of the pipeline with and without chemie_roles: one pipeline
    (the same caches and vocabulary), the "without" arm run with chemie_roles and
    chemie_events disabled; both
    arms warmed by a whole pass, then alternated over chunks of 20 snippets, each chunk's best
    of ``passes`` kept (CPU time, as the machine may be shared; the ratio is what counts)."""
    nlp = load(roles=True)
    texts = [Document(d.id, d.text) for d in docs]
    chunks = [texts[i : i + 20] for i in range(0, len(texts), 20)]

    def seconds(chunk: list[Document]) -> float:
        start = time.process_time()
        for d in chunk:
            annotate(nlp, d)
        return time.process_time() - start

    best = {"with roles": [float("inf")] * len(chunks),
            "without roles": [float("inf")] * len(chunks)}
    for _ in range(passes + 1):  # (the first pass warms both arms)
        for k, chunk in enumerate(chunks):
            with nlp.select_pipes(disable=[p for p in ROLE_PIPES if p in nlp.pipe_names]):
                without = seconds(chunk)
            with_roles = seconds(chunk)
            best["without roles"][k] = min(best["without roles"][k], without)
            best["with roles"][k] = min(best["with roles"][k], with_roles)
    rates = {name: len(texts) / sum(times) for name, times in best.items()}
    rates["ratio"] = rates["with roles"] / rates["without roles"]
    return rates


def callgrind_arm(docs: list[Document], arm: str) -> None:
    """One warm pass of the pipeline with roles over ``docs``, then one pass of ``arm``
    ("with" or "without" the roles) inside ``functools.reduce`` (for callgrind's
    ``--toggle-collect=functools_reduce``)."""
    nlp = load(roles=True)
    texts = [Document(d.id, d.text) for d in docs]
    for d in texts:
        annotate(nlp, d)

    def step(_: object, d: Document) -> None:
        annotate(nlp, d)

    if arm == "with":
        functools.reduce(step, texts, None)
        return
    with nlp.select_pipes(disable=[p for p in ROLE_PIPES if p in nlp.pipe_names]):
        functools.reduce(step, texts, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=data_dir())
    parser.add_argument("--passes", type=int, default=3, help="speed passes (best kept)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--callgrind-arm", choices=("with", "without"),
                        help="only run one arm once, for callgrind (see above)")
    parser.add_argument("--docs", type=int, default=100,
                        help="development snippets of a --callgrind-arm run")
    args = parser.parse_args()
    folder = args.data / "chemu2020" / "train"
    order = jsonl_order(args.data / "chemu-ref" / "train.jsonl")
    if args.callgrind_arm:
        callgrind_arm(gold_documents(folder, 0, args.docs, order), args.callgrind_arm)
        return
    nlp = load(roles=True)
    baseline = Dictionary(gold_documents(folder, 0, 600, order))
    figures: dict[str, object] = {}
    for part, (lo, hi) in PARTS.items():
        gold = gold_documents(folder, lo, hi, order)
        ours = scores(gold, list(predict(nlp, gold)))
        base = scores(gold, [baseline.predict(d) for d in gold])
        rows = {}
        for group, labels in (("entities", ROLE_ENTITY_LABELS),
                              ("triggers", ROLE_TRIGGER_LABELS)):
            exact, relaxed = ours[f"{group} exact"], ours[f"{group} relaxed"]
            for label in (*labels, "overall"):
                name = f"{group} overall" if label == "overall" else label
                rows[name] = {
                    "gold": int(exact.loc[label, "tp"] + exact.loc[label, "fn"]),
                    "P": exact.loc[label, "precision"], "R": exact.loc[label, "recall"],
                    "F1": exact.loc[label, "f1"],
                    "relaxed P": relaxed.loc[label, "precision"],
                    "relaxed R": relaxed.loc[label, "recall"],
                    "relaxed F1": relaxed.loc[label, "f1"],
                    "dictionary F1": base[f"{group} exact"].loc[label, "f1"],
                }
        frame = pd.DataFrame.from_dict(rows, orient="index")
        figures[part] = {k: {c: float(v) for c, v in r.items()} for k, r in rows.items()}
        if not args.json:
            print(f"#### {part} ({len(gold)} documents; exact unless marked relaxed)")
            print(frame.round(3).to_string(), end="\n\n")
    dev = gold_documents(folder, 0, 600, order)
    figures["speed"] = speed(dev, args.passes)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    s = figures["speed"]
    print(f"speed (whole pipeline, raw text, snippets per CPU-second, {len(dev)} snippets, "
          f"best of {args.passes}): with roles {s['with roles']:.0f}/s, without "
          f"{s['without roles']:.0f}/s, ratio {s['ratio']:.3f} (target >= 0.90)")
    u = figures["untouched 600-899"]
    print(f"targets on the untouched part: entities exact F1 "
          f"{u['entities overall']['F1']:.3f} (>= 0.93), relaxed "
          f"{u['entities overall']['relaxed F1']:.3f} (>= 0.95); triggers exact F1 "
          f"{u['triggers overall']['F1']:.3f} (>= 0.93)")


if __name__ == "__main__":
    main()
