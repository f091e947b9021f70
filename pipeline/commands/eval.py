"""``chemie eval chemu-ref FILE``: run the pipeline over a ChEMU-Ref jsonl and score it."""

from __future__ import annotations

import argparse
import sys
from itertools import islice
from pathlib import Path

from chemie.errors import InputError

TASKS = ("chemu-ref",)


def parse_slice(text: str) -> tuple[int, int | None]:
    """``START:END`` (either side may be empty) -> (start, end or None)."""
    start, sep, end = text.partition(":")
    try:
        if not sep:
            raise ValueError
        a = int(start) if start.strip() else 0
        b = int(end) if end.strip() else None
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected START:END, got {text!r}") from None
    if a < 0 or (b is not None and b < a):
        raise argparse.ArgumentTypeError(f"bad document range {text!r}")
    return a, b


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "eval",
        help="run the pipeline on a gold corpus and score it (chemu-ref)",
        description="Run the anaphora pipeline over a ChEMU-Ref jsonl file and score it "
        "against the file's own relations (exact and relaxed, per type).",
    )
    p.add_argument("task", choices=TASKS)
    p.add_argument("file", type=Path, help="ChEMU-Ref .jsonl with gold relations")
    p.add_argument(
        "--docs", type=parse_slice, default=(0, None), metavar="START:END",
        help="only documents START..END-1 by file order (e.g. 0:600)",
    )
    p.add_argument(
        "--coref", choices=["surface", "atomic"], default="surface",
        help="coreference links to the closest (surface) or first (atomic) antecedent",
    )
    p.add_argument(
        "--gold-mentions", action="store_true",
        help="run the relation rules over the gold mentions (for analysis)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from chemie.formats.chemu import iter_chemu
    from chemie.nlp import annotate, load
    from chemie.scoring.anaphora import score_anaphora

    start, end = args.docs
    gold = list(islice(iter_chemu(args.file), start, end))
    if not gold:
        raise InputError(args.file, None, f"no documents in range {start}:{end or ''}")
    nlp = load(coref=args.coref)
    pred = [annotate(nlp, d, gold_mentions=args.gold_mentions) for d in gold]
    report = score_anaphora(gold, pred)
    sys.stdout.write(report.to_json() if args.json else report.to_text())
    return 0
