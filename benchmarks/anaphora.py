"""Anaphora resolution benchmark: the whole chemie pipeline on ChEMU-Ref ``train.jsonl``.

Runs the full pipeline (tokens from the file, NER, mentions, actions, coreference, bridging)
and prints the per-type exact and relaxed tables for two parts of the file by file order:
the development part (documents 0-599, the only part looked at while writing rules) and the
untouched part (600-899: measured, never inspected). Also prints mention-level precision,
recall and F1 against the gold mentions (every argument of a gold relation), exact and
overlap, and snippets per second on one core (pipeline only, reading excluded). Tunes nothing.
``--twins`` prints how far the gold annotations of near-identical development documents agree
with each other (the same tokens once names and numbers are masked): a ceiling for any
deterministic system. Targets (issue 4): untouched exact F1 >= 0.72, relaxed >= 0.80, every
type > 0.5 exact, >= 1,000 snippets/s. Issue 22: untouched exact >= 0.80, relaxed >= 0.88,
every type at least as good as at 00900d5 (exact 0.723 / 0.799 / 0.761 / 0.803 / 0.682 for
Coreference, Transformed, Reaction-associated, Work-up, Contained); its hand-written paragraphs
are in tests/test_anaphora_paragraphs.py.

    python benchmarks/anaphora.py [--data PATH] [--coref surface|atomic] [--json] [--twins]
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import time
from collections import defaultdict
from pathlib import Path

from chemie.corpora import data_dir
from chemie.formats.chemu import iter_chemu
from chemie.model import Document
from chemie.nlp import annotate, load
from chemie.scoring.anaphora import doc_pairs, score_anaphora
from chemie.scoring.report import prf

PARTS = {"dev 0-599": (0, 600), "untouched 600-899": (600, 900)}


def mention_scores(gold: list[Document], pred: list[Document]) -> dict[str, float]:
    """Mention P/R/F1: exact (same span set) and overlap (a gold/pred mention overlaps one)."""
    tp = fp = fn = 0
    o_gold = o_pred = n_gold = n_pred = 0
    for g, p in zip(gold, pred, strict=True):
        gs = {frozenset(m.spans) for m in g.mentions}
        ps = {frozenset(m.spans) for m in p.mentions}
        tp += len(gs & ps)
        fp += len(ps - gs)
        fn += len(gs - ps)
        n_gold += len(g.mentions)
        n_pred += len(p.mentions)
        o_gold += sum(any(m.overlaps(x) for x in p.mentions) for m in g.mentions)
        o_pred += sum(any(m.overlaps(x) for x in g.mentions) for m in p.mentions)
    p, r, f = prf(tp, fp, fn)
    op = o_pred / n_pred if n_pred else 0.0
    orr = o_gold / n_gold if n_gold else 0.0
    of = 2 * op * orr / (op + orr) if op + orr else 0.0
    return {"mention_p": p, "mention_r": r, "mention_f1": f,
            "mention_overlap_p": op, "mention_overlap_r": orr, "mention_overlap_f1": of}


_MASKED = re.compile(r"\d|^.{13,}$")  # a number or a long name: masked when twins are compared
TWIN_SHARE = 0.97  # the share of equal masked tokens that makes two documents twins


def _relations(doc: Document) -> set[tuple]:
    """The document's relations (coreference expanded) as (label, anaphor token ranges,
    antecedent token ranges)."""
    first = {t.start: i for i, t in enumerate(doc.tokens)}
    last = {t.end: i for i, t in enumerate(doc.tokens)}

    def ranges(m):
        return tuple((first.get(a), last.get(b)) for a, b in m.spans)

    pairs, _ = doc_pairs(doc)
    return {(label, ranges(a), ranges(b)) for label, links in pairs.items() for a, b in links}


def twin_agreement(gold: list[Document]) -> tuple[int, int, float]:
    """Pairs of near-identical documents (as many tokens, at least TWIN_SHARE of them equal once
    numbers and long names are masked), the documents in them, and the micro F1 of one gold
    against the other, relation by relation at the same token positions."""
    masked = [["#" if _MASKED.search(t.text) else t.text.lower() for t in d.tokens] for d in gold]
    by_length: dict[int, list[int]] = defaultdict(list)
    for i, words in enumerate(masked):
        by_length[len(words)].append(i)
    same = both = 0
    docs: set[int] = set()
    pairs = 0
    for group in by_length.values():
        for i, j in itertools.combinations(group, 2):
            a, b = masked[i], masked[j]
            if len(a) < 40 or sum(x == y for x, y in zip(a, b, strict=True)) < TWIN_SHARE * len(a):
                continue
            ri, rj = _relations(gold[i]), _relations(gold[j])
            if not ri and not rj:
                continue
            pairs += 1
            docs.update((i, j))
            same += len(ri & rj)
            both += len(ri) + len(rj)
    return pairs, len(docs), 2 * same / both if both else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=data_dir() / "chemu-ref" / "train.jsonl")
    parser.add_argument("--coref", choices=["surface", "atomic"], default="surface")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--twins", action="store_true",
                        help="print only the agreement of near-identical development documents")
    args = parser.parse_args()
    if args.twins:
        dev = list(itertools.islice(iter_chemu(args.data), *PARTS["dev 0-599"]))
        pairs, docs, f1 = twin_agreement(dev)
        print(f"dev 0-599: {pairs} pairs of near-identical documents ({docs} documents); "
              f"their gold relations agree at exact F1 {f1:.3f}")
        return
    nlp = load(coref=args.coref)
    figures: dict[str, dict[str, float]] = {}
    for part, (lo, hi) in PARTS.items():
        gold = list(itertools.islice(iter_chemu(args.data), lo, hi))
        annotate(nlp, gold[0])  # warm the caches
        start = time.perf_counter()
        pred = [annotate(nlp, d) for d in gold]
        seconds = time.perf_counter() - start
        report = score_anaphora(gold, pred)
        row: dict[str, float] = {"snippets_per_s": len(gold) / seconds if seconds else 0.0}
        for mode in ("exact", "relaxed"):
            table = report.table(mode)
            for label, f1 in table["f1"].items():
                row[f"{mode}_{label}_f1"] = float(f1)
        row.update(mention_scores(gold, pred))
        figures[part] = row
        if not args.json:
            print(f"#### {part} ({len(gold)} snippets, {row['snippets_per_s']:.0f} snippets/s)")
            for mode in ("exact", "relaxed"):
                print(f"== {mode} ==\n{report.table(mode).round(4).to_string()}\n")
            print(
                "mentions: exact P {mention_p:.4f} R {mention_r:.4f} F1 {mention_f1:.4f}; "
                "overlap P {mention_overlap_p:.4f} R {mention_overlap_r:.4f} "
                "F1 {mention_overlap_f1:.4f}\n".format(**row)
            )
    if args.json:
        print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
