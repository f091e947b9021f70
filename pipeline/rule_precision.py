"""Relation confidences: each anaphora rule's exact precision on the development part of ChEMU-Ref.

    python -m chemie.rule_precision [--data PATH] [--write | --check]

Runs the whole pipeline on documents 0-599 of ``chemu-ref/train.jsonl`` (by file order; the
development part: documents 600-899 are never read) and judges every predicted relation on
its own: correct when gold has a relation of the same type with exactly the same anaphor and
antecedent spans (gold coreference expanded transitively, as the scorer does). A rule's
confidence is its share of correct relations shrunk towards the precision of all the
relations of its table (:func:`shrunk`: a rule with few links is not 0 or 1 by chance, one
with none gets the table's precision), rounded to two decimals.
Prints one row per rule; ``--write`` stores the values as ``confidence:`` next to each rule
in ``rules/coref.yaml`` and ``rules/bridging.yaml`` (comments and order kept; re-running
gives identical files); ``--check`` exits with status 1 when the stored values differ.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd
import yaml

from chemie.corpora import data_dir
from chemie.errors import atomic_write
from chemie.model import Document
from chemie.resources import rules_path
from chemie.scoring.anaphora import doc_pairs

DEV = (0, 600)  # development documents of chemu-ref/train.jsonl, by file order
TABLES = ("coref.yaml", "bridging.yaml")
_TOP_KEY = re.compile(r"^[^\s#]")
_LIST_RULE = re.compile(r"^  - name: *(\S+)\s*$")
_RULE_START = {  # the line that starts a rule, per table (mentions: chemie.mention_precision)
    "coref.yaml": _LIST_RULE,
    "bridging.yaml": re.compile(r"^  ([A-Za-z_]\w*): *$"),
    "mentions.yaml": _LIST_RULE,
}


def table_of(label: str) -> str:
    """The rule table that makes relations of ``label``."""
    return "coref.yaml" if label == "COREFERENCE" else "bridging.yaml"


def rule_names(table: dict) -> list[str]:
    """Rule names of a coref (list of ``name:`` entries) or bridging (mapping) table."""
    rules = table["rules"]
    return [str(r["name"]) for r in rules] if isinstance(rules, list) else [str(k) for k in rules]


def relation_outcomes(
    gold: Iterable[Document], pred: Iterable[Document]
) -> list[tuple[str, str, bool]]:
    """``(label, rule, correct)`` for every predicted relation, in document order."""
    out = []
    for g, p in zip(gold, pred, strict=True):
        pairs, _ = doc_pairs(g)
        truth = {
            (label, frozenset(a.spans), frozenset(b.spans))
            for label, links in pairs.items()
            for a, b in links
        }
        index = p.mention_index()
        for r in p.relations:
            key = (r.label, frozenset(index[r.head].spans), frozenset(index[r.tail].spans))
            out.append((r.label, r.rule or "", key in truth))
    return out


PRIOR_WEIGHT = 4  # pseudo-observations at the pooled precision added to a rule's own


def shrunk(correct: int, n: int, pooled: float) -> float:
    """``correct`` of ``n`` shrunk towards ``pooled``: ``(correct + w * pooled) / (n + w)``
    with ``w`` = :data:`PRIOR_WEIGHT` (the pooled precision itself when ``n`` is 0)."""
    return (correct + PRIOR_WEIGHT * pooled) / (n + PRIOR_WEIGHT)


def precision_table(outcomes: Sequence[tuple[str, str, bool]]) -> pd.DataFrame:
    """One row per rule of both tables: table, rule, links, correct, precision, confidence."""
    frame = pd.DataFrame(outcomes, columns=["label", "rule", "correct"])
    frame["table"] = frame["label"].map(table_of)
    rows = []
    for table in TABLES:
        mine = frame[frame["table"] == table]
        pooled = float(mine["correct"].mean()) if len(mine) else 0.0
        for name in rule_names(yaml.safe_load(rules_path(table).read_text(encoding="utf-8"))):
            hits = mine[mine["rule"] == name]["correct"]
            precision = float(hits.mean()) if len(hits) else None
            conf = round(shrunk(int(hits.sum()), len(hits), pooled), 2)
            rows.append((table, name, len(hits), int(hits.sum()), precision, conf))
    return pd.DataFrame(
        rows, columns=["table", "rule", "links", "correct", "precision", "confidence"]
    )


def set_confidences(table: str, text: str, values: dict[str, float]) -> str:
    """``text`` of a rule table with ``confidence: V`` after each rule's ``comment:`` line.

    Existing ``confidence:`` lines of the rules are replaced; nothing else changes.
    """
    out: list[str] = []
    in_rules = False
    rule: str | None = None
    for line in text.splitlines(keepends=True):
        if _TOP_KEY.match(line):
            in_rules = line.startswith("rules:")
            rule = None
        elif in_rules and (m := _RULE_START[table].match(line)):
            rule = m.group(1)
        if in_rules and rule is not None and line.startswith("    confidence:"):
            continue
        out.append(line)
        if in_rules and rule in values and line.startswith("    comment:"):
            out.append(f"    confidence: {values[rule]}\n")
    return "".join(out)


def stored_confidences(table: str) -> dict[str, float | None]:
    """The ``confidence`` of each rule in ``rules/TABLE``."""
    rules = yaml.safe_load(rules_path(table).read_text(encoding="utf-8"))["rules"]
    items = [(r["name"], r) for r in rules] if isinstance(rules, list) else rules.items()
    return {str(name): r.get("confidence") for name, r in items}


def dev_predictions(data: Path) -> tuple[list[Document], list[Document]]:
    """The gold development documents of ``data`` and the pipeline's output for them."""
    from chemie.formats.chemu import iter_chemu
    from chemie.nlp import annotate, load

    nlp = load()
    gold = list(itertools.islice(iter_chemu(data), *DEV))
    return gold, [annotate(nlp, d) for d in gold]


def main(argv: list[str] | None = None) -> int:
    """Print the per-rule precision table; with --write store it, with --check compare."""
    parser = argparse.ArgumentParser(
        prog="python -m chemie.rule_precision", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--data", type=Path, default=data_dir() / "chemu-ref" / "train.jsonl")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="store the values in rules/")
    mode.add_argument("--check", action="store_true", help="exit 1 when rules/ differs")
    args = parser.parse_args(argv)
    frame = precision_table(relation_outcomes(*dev_predictions(args.data)))
    print(frame.round(4).to_string(index=False))
    status = 0
    for table in TABLES:
        rows = frame[frame["table"] == table]
        values = dict(zip(rows["rule"], rows["confidence"].astype(float), strict=True))
        if args.write:
            path = rules_path(table)
            text = set_confidences(table, path.read_text(encoding="utf-8"), values)
            with atomic_write(path) as fh:
                fh.write(text)
        elif args.check and stored_confidences(table) != values:
            print(f"rules/{table}: stored confidences differ (run with --write)", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
