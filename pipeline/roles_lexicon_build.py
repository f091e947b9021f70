"""Rebuild the role lexicon from the development part of chemu2020/train (deterministic).

    python -m chemie.roles_lexicon_build [--data PATH] [--docs 0:600] [--out FILE]

Writes ``lexicons/chemu2020_roles.tsv``: every compound name (lowercased) labelled
STARTING_MATERIAL, REAGENT_CATALYST or SOLVENT in documents ``--docs`` (numbered by position
in chemu-ref/train.jsonl, the split convention: 0-599 is the part rules are written on),
with its count under each of the three reaction roles. The rule condition ``lexicon`` of
rules/roles.yaml reads the role a name had most often. Output is sorted, so re-running gives
an identical file; it is never edited by hand.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

from chemie.corpora import data_dir, parse_slice
from chemie.errors import InputError, atomic_write
from chemie.resources import lexicon_path
from chemie.roles_evaluation import gold_documents, jsonl_order

LEXICON_FILE = "chemu2020_roles.tsv"
ROLES = ("STARTING_MATERIAL", "REAGENT_CATALYST", "SOLVENT")


def derive(folder: Path, order: list[str], start: int, end: int | None) -> dict[str, Counter]:
    """Role counts of each compound name of documents ``start..end-1``."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for doc in gold_documents(folder, start, end, order):
        for m in doc.mentions:
            if m.label in ROLES:
                counts[" ".join(m.text.lower().split())][m.label] += 1
    return counts


def render(counts: dict[str, Counter], docs: str) -> str:
    """The TSV text: provenance header, then one sorted line per name."""
    lines = [
        "# Derived automatically; do not edit by hand. Produced by: "
        f"python -m chemie.roles_lexicon_build --docs {docs}",
        f"# Source: chemu2020/train documents {docs} by position in chemu-ref/train.jsonl "
        "(the development part of the split convention)",
        "# Compound names labelled with a reaction role, and how often with each.",
        "# name (lowercased)\t" + "\t".join(r.lower() for r in ROLES),
    ]
    for name in sorted(counts):
        if "\t" in name or not name.strip():
            continue
        lines.append(name + "\t" + "\t".join(str(counts[name][r]) for r in ROLES))
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=data_dir())
    parser.add_argument("--docs", type=parse_slice, default=(0, 600), metavar="START:END")
    parser.add_argument("--out", type=Path, default=lexicon_path(LEXICON_FILE))
    args = parser.parse_args(argv)
    start, end = args.docs
    try:
        order = jsonl_order(args.data / "chemu-ref" / "train.jsonl")
        counts = derive(args.data / "chemu2020" / "train", order, start, end)
    except InputError as e:
        print(f"chemie: {e}", file=sys.stderr)
        return 2
    with atomic_write(args.out) as fh:
        fh.write(render(counts, f"{start}:{'' if end is None else end}"))
    print(f"{len(counts)} names -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
