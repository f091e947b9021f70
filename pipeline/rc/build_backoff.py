"""Build ``rules/rc_backoff.tsv``, the back-off's cue counts, from sci-rc-unified/sample-train.

Deterministic: every example of the tuning split (sample-train only; sample-dev and the
untuned SemEval/SciERC documents are never read) adds one to its class (unified label +
direction) for each of its back-off features (:func:`chemie.rc.backoff.features`);
features seen fewer than ``MIN_COUNT`` times are dropped; rows are sorted.

    python -m chemie.rc.build_backoff [--data PATH] [-o FILE]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import IO

from chemie.corpora import data_dir
from chemie.errors import InputError, atomic_write
from chemie.model.rc import RCExample
from chemie.rc import tasks
from chemie.rc.backoff import MIN_COUNT, PRIOR, TABLE, class_name, features
from chemie.rc.features import context
from chemie.resources import rules_path

SOURCE = "sci-rc-unified/sample-train"
HEADER = f"""\
# Back-off cue counts for the relation classifier (chemie.rc.backoff).
# DERIVED TABLE: rebuilt by `python -m chemie.rc.build_backoff` from {SOURCE}
# (the tuning split only); never edit by hand. Columns: feature, then the number of
# examples of each class (unified label + direction, > forward, < reverse) showing it;
# the {PRIOR} row counts the examples of each class. Features seen < {MIN_COUNT} times are left out.
"""


def count(examples: list[RCExample]) -> tuple[Counter, dict[str, Counter]]:
    """Class counts and per-feature class counts of labelled, directed examples."""
    prior: Counter = Counter()
    counts: dict[str, Counter] = defaultdict(Counter)
    for ex in examples:
        cls = class_name(str(ex.label), bool(ex.reverse))
        prior[cls] += 1
        for f in features(context(ex)):
            counts[f][cls] += 1
    return prior, {f: c for f, c in counts.items() if sum(c.values()) >= MIN_COUNT}


def write(prior: Counter, counts: dict[str, Counter], fh: IO[str]) -> None:
    """The table: header comment, column row, prior row, one sorted row per feature."""
    classes = sorted(prior)
    fh.write(HEADER)
    fh.write("\t".join(["feature", *classes]) + "\n")
    for name, row in [(PRIOR, prior), *sorted(counts.items())]:
        fh.write("\t".join([name, *(str(row.get(c, 0)) for c in classes)]) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="shared data folder")
    parser.add_argument("-o", "--output", type=Path, default=None,
                        help=f"output table (default: rules/{TABLE})")
    args = parser.parse_args(argv)
    rc = (args.data or data_dir()) / "sci-rc-unified"
    try:
        task = tasks.load(rc / "sample-train.txt", rc / "sample-train-rel.txt")
    except InputError as e:
        print(e, file=sys.stderr)
        return 2
    prior, counts = count(task.examples)
    with atomic_write(args.output or rules_path(TABLE)) as fh:
        write(prior, counts, fh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
