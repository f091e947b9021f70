"""``chemie score TASK GOLD PRED``: score any system's output files against gold."""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from chemie.cliutil import emit, refuse_overwrite, whole_number

# task -> "module:function"; each function is (gold: Path, pred: Path, args) -> ScoreReport
TASKS: dict[str, str] = {
    "anaphora": "chemie.scoring.anaphora:score_files",
    "cem": "chemie.scoring.chemdner:score_cem_files",
    "cdi": "chemie.scoring.chemdner:score_cdi_files",
    "entities": "chemie.scoring.entities:score_files",
    "events": "chemie.scoring.events:score_files",
    "iob": "chemie.scoring.iob:score_files",
    "rc": "chemie.scoring.rc:score_files",
    "reactions": "chemie.scoring.reactions:score_files",
}

BOOTSTRAPPED = ("cem", "cdi")  # tasks reporting f1_sd, the bootstrap SD of F1
# the options that concern some tasks only (the others concern every task)
OPTION_TASKS: dict[str, tuple[str, ...]] = {
    "--seed": BOOTSTRAPPED, "--resamples": BOOTSTRAPPED, "--rc-format": ("rc",),
    "--bond-orders": ("reactions",),
}


class TaskHelp(argparse.Action):
    """``-h``: the help of the task named before it (``chemie score entities --help``: what
    that scorer does, what it reads, its options), else the help of ``chemie score``."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        task = getattr(namespace, "task", None)
        (task_parser(parser, task) if task in TASKS else parser).print_help()
        parser.exit()


def task_parser(parser: argparse.ArgumentParser, task: str) -> argparse.ArgumentParser:
    """A parser whose help is that of ``chemie score TASK``: the scorer's own description
    (its module's docstring) and the options that concern it."""
    module = importlib.import_module(TASKS[task].split(":")[0])
    help_parser = argparse.ArgumentParser(
        prog=f"chemie score {task}", description=module.__doc__, add_help=False,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    for action in parser._actions:
        flags = action.option_strings
        if not flags:
            if action.dest != "task":
                help_parser._add_action(action)
        elif task in OPTION_TASKS.get(flags[-1], (task,)):
            help_parser._add_action(action)
    return help_parser


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "score",
        help="score predictions against gold (anaphora, cem, cdi, entities, events, iob, rc, "
        "reactions)",
        description="Score a system's output files against gold annotations "
        "(`chemie score TASK --help`: what one scorer does).",
        add_help=False,
    )
    p.add_argument("-h", "--help", action=TaskHelp, help="show this help (after TASK: the "
                   "task's) and exit")
    p.add_argument("task", choices=sorted(TASKS))
    p.add_argument("gold", type=Path, help="gold file or folder")
    p.add_argument("pred", type=Path, help="prediction file or folder")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print JSON")
    fmt.add_argument("--csv", action="store_true", help="print CSV")
    p.add_argument("-o", "--output", type=Path, help="write the report to this file")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (cem, cdi)")
    p.add_argument(
        "--resamples", type=whole_number(0), default=1000,
        help="bootstrap resamples for f1_sd (cem, cdi; default: 1000; below 2: f1_sd is "
        "not computed and left out, with a note)",
    )
    p.add_argument(
        "--bond-orders", action="store_true",
        help="reactions: compare fragments by skeleton and bond orders (single, double, "
        "triple, aromatic), not by heavy-atom skeleton alone (the published protocol)",
    )
    p.add_argument(
        "--rc-format",
        choices=["auto", "unified", "semeval", "scierc"],
        default="auto",
        help="relation file format (rc)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    refuse_overwrite([args.output], [args.gold, args.pred])
    module_name, func_name = TASKS[args.task].split(":")
    scorer = getattr(importlib.import_module(module_name), func_name)
    report = scorer(args.gold, args.pred, args)
    if args.task in BOOTSTRAPPED and args.resamples < 2:
        report.omit("f1_sd", f"f1_sd not computed: --resamples {args.resamples} "
                    "(a standard deviation needs at least 2)")
    text = report.to_json() if args.json else report.to_csv() if args.csv else report.to_text()
    emit(text, args.output)
    return 0
