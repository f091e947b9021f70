"""``chemie eval chemu-ref FILE`` / ``chemie eval chemu2020 FOLDER``: run the pipeline over a
gold corpus and score it."""

from __future__ import annotations

import argparse
import sys
from itertools import islice
from pathlib import Path

from chemie.corpora import parse_slice
from chemie.errors import InputError

TASKS = ("chemu-ref", "chemu2020")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "eval",
        help="run the pipeline on a gold corpus and score it (chemu-ref, chemu2020)",
        description="Run the pipeline over a gold corpus and score it: chemu-ref (a ChEMU-Ref "
        "jsonl file, anaphora, against the file's own relations) or chemu2020 (a brat folder "
        "of ChEMU 2020 roles and trigger words, entities and triggers apart, and the events "
        "when the gold has ARG1/ARGM R lines); exact and relaxed, per type.",
    )
    p.add_argument("task", choices=TASKS)
    p.add_argument("file", type=Path, help="ChEMU-Ref .jsonl with gold relations (chemu-ref) "
                   "or brat folder with ChEMU 2020 labels (chemu2020)")
    p.add_argument(
        "--docs", type=parse_slice, default=(0, None), metavar="START:END",
        help="only documents START..END-1 by file order (e.g. 0:600; chemu2020: by file "
        "name, or in the order of --order)",
    )
    p.add_argument(
        "--order", type=Path, metavar="JSONL",
        help="chemu2020: number the documents in the order of this ChEMU-Ref jsonl's doc_keys "
        "(the split convention of the development data)",
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
    if args.task == "chemu2020":
        return run_chemu2020(args)
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


def run_chemu2020(args: argparse.Namespace) -> int:
    from chemie.nlp import load
    from chemie.roles_evaluation import gold_documents, jsonl_order, predict
    from chemie.scoring.entities import score_entities
    from chemie.scoring.events import EVENT_ROLES, score_events

    start, end = args.docs
    order = jsonl_order(args.order) if args.order is not None else None
    gold = gold_documents(args.file, start, end, order)
    if not gold:
        raise InputError(args.file, None, f"no documents in range {start}:{end or ''}")
    pred = list(predict(load(coref=args.coref, roles=True), gold))
    report = score_entities(gold, pred)
    if any(r.label in EVENT_ROLES for g in gold for r in g.relations):
        events = score_events(gold, pred)  # the gold has trigger-argument R lines
        report.tables += events.tables
        report.figures.update(events.figures)
    sys.stdout.write(report.to_json() if args.json else report.to_text())
    return 0
