"""``chemie rc INPUT [PAIRS] [-o OUT]``: classify scientific relations with named rules."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chemie.cliutil import refuse_overwrite
from chemie.errors import atomic_write
from chemie.rc import tasks
from chemie.rc.classifier import RuleClassifier


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rc",
        help="classify relations between given entity pairs (unified, SemEval, SciERC)",
        description=(
            "Predict a relation label for each entity pair with transparent cue rules "
            "(rules/rc.yaml); a pair no rule decides gets a naive-Bayes vote over word "
            "counts of the tuning split (rules/rc_backoff.tsv, rebuilt by python -m "
            "chemie.rc.build_backoff; decision 'backoff'). Inputs: unified TOKENS PAIRS; "
            "SemEval XML PAIRS (output LABEL(E1,E2[,REVERSE])); SciERC JSON (predicted "
            "labels for its relations). Input labels are ignored."
        ),
    )
    p.add_argument("input", type=Path, help="tokens file, SemEval XML or SciERC json")
    p.add_argument("pairs", type=Path, nargs="?", help="pairs file (unified, SemEval)")
    p.add_argument("-o", "--output", type=Path, help="output file (default: stdout)")
    p.add_argument("--format", choices=("auto", *tasks.FORMATS), default="auto")
    p.add_argument(
        "--explain",
        action="store_true",
        help="add the deciding rule (extra TSV column; relation_rules in SciERC json)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    refuse_overwrite([args.output], [args.input, args.pairs])
    task = tasks.load(args.input, args.pairs, args.format)
    for warning in tasks.check_unique(task):
        print(f"chemie: warning: {warning}", file=sys.stderr)
    clf = RuleClassifier(scheme=task.fmt)
    pred = [
        ex.pair(d.label, d.reverse, d.rule)
        for ex, d in zip(task.examples, clf.classify(task.examples), strict=True)
    ]
    if args.output:
        with atomic_write(args.output) as fh:
            tasks.write(task, pred, fh, args.explain)
    else:
        tasks.write(task, pred, sys.stdout, args.explain)
    return 0
