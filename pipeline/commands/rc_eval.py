"""``chemie rc-eval``: score relation classifiers on every configured test set."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from chemie.cliutil import emit, refuse_overwrite
from chemie.corpora import data_dir
from chemie.errors import InputError, read_text

if TYPE_CHECKING:  # the harness imports pandas: only when the command runs
    from chemie.rc.harness import TestSet


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rc-eval",
        help="macro-F1 matrix of relation classifiers over test sets (cross-dataset/domain)",
        description=(
            "Run the rule classifier, a majority baseline and any external prediction "
            "files on every test set; print macro-F1 (rows test sets, columns systems) in "
            "native and unified labels, plus per-class F1."
        ),
    )
    p.add_argument("--testset", action="append", default=[], metavar="NAME=PATH[,PAIRS]",
                   help="extra test set (unified tokens+pairs, SemEval xml+pairs, SciERC json)")
    p.add_argument("--system", action="append", default=[], metavar="NAME=TESTSET:PATH",
                   help="external predictions of system NAME for test set TESTSET")
    p.add_argument("--config", type=Path,
                   help="YAML with 'testsets: {NAME: {input, pairs}}' and "
                        "'systems: {NAME: {TESTSET: PATH}}' (paths relative to the file)")
    p.add_argument("--no-defaults", action="store_true",
                   help="skip the development test sets in the shared data folder")
    p.add_argument("--train", type=Path,
                   help="unified training pairs for the majority label "
                        "(default: sci-rc-unified/sample-train-rel.txt)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("-o", "--output", type=Path, help="write the report to this file")
    p.set_defaults(func=run)


def _config(path: Path) -> tuple[list[TestSet], dict[str, dict[str, Path]]]:
    from chemie.rc.harness import TestSet

    try:
        data = yaml.safe_load(read_text(path)) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise InputError(path, mark.line + 1 if mark else None, "bad YAML") from None
    if not isinstance(data, dict):
        raise InputError(path, 1, "expected a mapping with testsets and systems")
    base = path.parent
    testsets = []
    for name, spec in (data.get("testsets") or {}).items():
        if not isinstance(spec, dict) or "input" not in spec:
            raise InputError(path, None, f"test set {name}: expected {{input, pairs}}")
        pairs = base / spec["pairs"] if spec.get("pairs") else None
        testsets.append(TestSet(str(name), base / spec["input"], pairs))
    systems = {}
    for name, files in (data.get("systems") or {}).items():
        if not isinstance(files, dict):
            raise InputError(path, None, f"system {name}: expected {{TESTSET: PATH}}")
        systems[str(name)] = {str(k): base / v for k, v in files.items()}
    return testsets, systems


def _system(spec: str) -> tuple[str, str, Path]:
    name, sep, rest = spec.partition("=")
    testset, sep2, path = rest.partition(":")
    if not (sep and sep2 and name and testset and path):
        raise InputError(None, None, f"--system {spec!r}: expected NAME=TESTSET:PATH")
    return name, testset, Path(path)


def run(args: argparse.Namespace) -> int:
    """Evaluate every system on every test set; print or write the table."""
    from chemie.rc.harness import (
        default_testsets,
        evaluate,
        majority_label,
        parse_testset,
        to_text,
    )

    testsets = [] if args.no_defaults else default_testsets()
    systems: dict[str, dict[str, Path]] = {}
    if args.config:
        extra, systems = _config(args.config)
        testsets.extend(extra)
    testsets.extend(parse_testset(s) for s in args.testset)
    for spec in args.system:
        name, testset, path = _system(spec)
        files = systems.setdefault(name, {})
        if testset in files:
            raise InputError(None, None, f"system {name}: test set {testset!r} given twice")
        files[testset] = path
    names = [t.name for t in testsets]
    if len(set(names)) != len(names):
        raise InputError(None, None, "test set names must be unique")
    for name in names:
        if ":" in name:
            raise InputError(None, None, f"test set name {name!r}: ':' is not allowed")
    if args.train is not None and not args.train.is_file():
        raise InputError(args.train, None, "--train: not an existing file")
    refuse_overwrite([args.output], [args.config, args.train,
                                     *(p for t in testsets for p in (t.path, t.pairs)),
                                     *(p for files in systems.values() for p in files.values())])
    for name, files in systems.items():
        for ts in files:
            if ts not in names:
                raise InputError(None, None, f"system {name}: unknown test set {ts!r}")
    if not testsets:
        raise InputError(None, None, "no test sets (give --testset or --config)")
    train = args.train or data_dir() / "sci-rc-unified/sample-train-rel.txt"
    ev = evaluate(testsets, systems, majority_label(train))
    text = json.dumps(ev.to_dict(), indent=2) + "\n" if args.json else to_text(ev)
    emit(text, args.output)
    return 0
