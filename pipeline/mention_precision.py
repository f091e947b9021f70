"""Mention confidences: each mention rule's exact precision on the development part of ChEMU-Ref.

    python -m chemie.mention_precision [--data PATH] [--table PATH] [--write | --check]

Runs the whole pipeline on documents 0-599 of ``chemu-ref/train.jsonl`` (by file order; the
development part: documents 600-899 are never read) and judges every predicted mention on its
own: correct when its set of character ranges is exactly that of a gold mention (gold has only
the mentions that take part in a relation, so this is a lower bound on the true precision).

A mention carries its rule's confidence, except a chemical mention whose name holds NER
chemical spans: ``chemie_mentions`` gives it the NER confidence instead (and marks it with
``chemdner_class``). A rule's confidence is therefore measured on the mentions that
carry it: the share of correct ones among the rule's mentions that do not take the NER
confidence, shrunk towards the precision of all the mentions that carry a rule confidence
(:func:`chemie.rule_precision.shrunk`: few mentions do not make a rule 0 or 1 by chance, none
gives that pooled precision), rounded to two decimals. A rule whose mentions all take the NER
confidence is judged on all its mentions instead.

Prints one row per rule; ``--write`` stores the values as ``confidence:`` next to each rule in
the ``rules:`` list of the table (``rules/mentions.yaml`` unless ``--table`` names a copy;
comments and order kept; re-running gives an identical file); ``--check`` exits with status 1
when the stored values differ. The relation rules have their own script,
``python -m chemie.rule_precision``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd
import yaml

from chemie.corpora import data_dir
from chemie.errors import atomic_write
from chemie.model import Document, Mention
from chemie.resources import rules_path
from chemie.rule_precision import dev_predictions, rule_names, set_confidences, shrunk

TABLE = "mentions.yaml"
COLUMNS = ["rule", "mentions", "correct", "carriers", "carriers_correct", "precision",
           "confidence"]


def takes_ner_confidence(mention: Mention) -> bool:
    """True when ``chemie_mentions`` gave the mention its NER confidence, not its rule's."""
    return mention.chemdner_class is not None


def mention_outcomes(
    gold: Iterable[Document], pred: Iterable[Document]
) -> list[tuple[str, bool, bool]]:
    """``(rule, carries_rule_confidence, correct)`` for every predicted mention."""
    out = []
    for g, p in zip(gold, pred, strict=True):
        truth = {frozenset(m.spans) for m in g.mentions}
        out.extend(
            (m.rule or "", not takes_ner_confidence(m), frozenset(m.spans) in truth)
            for m in p.mentions
        )
    return out


def precision_table(outcomes: Sequence[tuple[str, bool, bool]], rules: list[str]) -> pd.DataFrame:
    """One row per rule (in ``rules`` order): its mentions and correct ones, those that carry
    the rule confidence and their correct ones, their precision and the confidence to store."""
    frame = pd.DataFrame(list(outcomes), columns=["rule", "carries", "correct"])
    carrying = frame[frame["carries"]]
    pooled = float(carrying["correct"].mean()) if len(carrying) else 0.0
    rows = []
    for name in rules:
        mine = frame[frame["rule"] == name]
        own = mine[mine["carries"]]["correct"]
        precision = float(own.mean()) if len(own) else None
        judged = own if len(own) else mine["correct"]
        conf = shrunk(int(judged.sum()), len(judged), pooled)
        rows.append((name, len(mine), int(mine["correct"].sum()), len(own), int(own.sum()),
                     precision, round(conf, 2)))
    return pd.DataFrame(rows, columns=COLUMNS)


def stored_confidences(path: Path) -> dict[str, float | None]:
    """The ``confidence`` of each rule of the mention table at ``path``."""
    rules = yaml.safe_load(path.read_text(encoding="utf-8"))["rules"]
    return {str(r["name"]): r.get("confidence") for r in rules}


def write_confidences(path: Path, values: dict[str, float]) -> None:
    """Store ``values`` as the rules' ``confidence:`` in the table at ``path`` (atomically;
    comments, order and every other line kept)."""
    text = set_confidences(TABLE, path.read_text(encoding="utf-8"), values)
    with atomic_write(path) as fh:
        fh.write(text)


def main(argv: list[str] | None = None) -> int:
    """Print the per-rule precision table; with --write store it, with --check compare."""
    parser = argparse.ArgumentParser(
        prog="python -m chemie.mention_precision", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--data", type=Path, default=data_dir() / "chemu-ref" / "train.jsonl")
    parser.add_argument("--table", type=Path, default=rules_path(TABLE),
                        help="the mention rule table to write or check "
                             "(default: rules/mentions.yaml)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="store the values in the table")
    mode.add_argument("--check", action="store_true", help="exit 1 when the table differs")
    args = parser.parse_args(argv)
    rules = rule_names(yaml.safe_load(args.table.read_text(encoding="utf-8")))
    frame = precision_table(mention_outcomes(*dev_predictions(args.data)), rules)
    print(frame.round(4).to_string(index=False))
    values = dict(zip(frame["rule"], frame["confidence"].astype(float), strict=True))
    if args.write:
        write_confidences(args.table, values)
    elif args.check and stored_confidences(args.table) != values:
        print(f"{args.table}: stored mention confidences differ (run with --write)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
