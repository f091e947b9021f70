"""``chemie run [INPUT...] [-o OUT]``: anaphora resolution over snippets, streamed at scale.

With no input, runs the bundled example and prints the mentions and links readably.
``.txt`` files and folders of them (plain or brat) become a brat folder (rule names as
``#`` notes), ChEMU-Ref ``.jsonl`` becomes ChEMU-Ref ``.jsonl`` in the input's token
indices (ready for ``chemie score anaphora``). An output name ending in ``.jsonl``,
``.json``, ``.csv`` or ``.parquet`` implies its format; ``--format`` chooses: brat, chemu,
json (everything with rule names, one document per line), csv/parquet (a mention table
and a relation table) or chemu2020 (a brat folder of the reaction roles: ChEMU 2020 labels,
trigger-argument R lines ARG1/ARGM); the formats are declared in :mod:`chemie.scale.outputs`. Input
and output are streamed; bad documents are listed in ``OUT.errors.tsv`` and the run goes
on. Documents read from folders are named by their path in the folder without suffix
(``sub/a``), files given by name by their name (``a``); a second document with the same
name in one run fails (listed as an error). A folder is read for its ``.txt`` files:
``.jsonl``/``.json`` files in it are not read (a warning names them; give them by name). A
document longer than ``--max-chars`` characters fails alone (:mod:`chemie.limits`). The
pairs of ChEMU-Ref input are not used: a bad one gives a warning, not an error.
Exit status: 0 all documents done (an empty input file gives a warning and an empty
result), 1 some failed (or all, when any of them timed out or hit an internal error),
2 bad input (every document unreadable or malformed, or none found: an existing output
is left as it was and no partial file stays; the errors are printed and, for several
documents when there is no errors file yet, listed in a new one), 3 the output could not
be written or the run itself broke down, 130 interrupted by Ctrl-C or SIGTERM
(``--resume`` continues).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chemie.cliutil import add_max_chars
from chemie.commands.common import (
    OutputPath,
    add_scale_options,
    check_output,
    execute,
    format_help,
    make_output_folder,
    requirements,
)
from chemie.errors import InputError
from chemie.resources import example_path
from chemie.scale import outputs
from chemie.scale.outputs import FOLDER, PREFIX, OutputFormat
from chemie.scale.sources import input_kind, unread_files
from chemie.scale.worker import Job


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="resolve anaphora (coreference and bridging) in reaction snippets",
        description=__doc__.split("\n\n", 1)[1],
    )
    p.add_argument(
        "inputs", nargs="*", type=Path, metavar="INPUT",
        help=".txt file, folder of .txt (plain or brat) or ChEMU-Ref .jsonl (default: example)",
    )
    p.add_argument(
        "-o", "--output", action=OutputPath, metavar="OUT",
        help="output folder (brat) or file (jsonl/json) or table prefix (csv/parquet); "
        "without it, documents are printed readably",
    )
    p.add_argument(
        "--format", choices=[f.name for f in outputs.offered("run")],
        help="output format (default: the one -o OUT's suffix implies, else brat for text "
        "input and chemu for ChEMU-Ref .jsonl): " + format_help("run"),
    )
    p.add_argument(
        "--coref", choices=("surface", "atomic"), default="surface",
        help="coreference links to the closest (surface) or first (atomic) antecedent",
    )
    add_max_chars(p)
    add_scale_options(p)
    p.set_defaults(func=run)


def output_format(
    kinds: set[str], requested: str | None, out: Path | None, folder: bool = False
) -> OutputFormat:
    """The output format: requested, or implied by the output's suffix or the input kinds
    (InputError if they conflict or nothing decides)."""
    if out is None:
        fmt = outputs.get("run", requested or "describe")
        if not fmt.prints:
            raise InputError(None, None, f"--format {requested} needs an output: -o OUT")
        return fmt
    fmt = outputs.choose("run", requested, out, kinds, folder)
    if fmt is None:
        raise InputError(None, None, "mixed .jsonl and .txt inputs: choose --format json|csv|"
                         "parquet (or an output name ending in .json, .csv or .parquet)")
    return fmt


def warn_unread(folder: Path, shown: int = 3) -> None:
    """A warning on stderr naming the ``.jsonl``/``.json`` files in ``folder``, which a
    folder input does not read (its ``.txt`` files are the documents)."""
    unread = [p.relative_to(folder).as_posix() for p in unread_files(folder)]
    if unread:
        names = ", ".join(unread[:shown]) + (", ..." if len(unread) > shown else "")
        print(f"chemie: warning: {folder}: {len(unread)} .jsonl/.json files not read (a folder "
              f"is read for its .txt files; give these by name): {names}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    inputs = list(args.inputs) or [example_path("example.txt")]
    kinds = {input_kind(p) for p in inputs}
    fmt = output_format(kinds, args.format, args.output, getattr(args, "output_folder", False))
    requirements(fmt, args)
    if args.output is not None:
        check_output(args.output, fmt, inputs)
        make_output_folder(args, fmt.layout in (FOLDER, PREFIX), f"{fmt.name} output")
    for p in inputs:
        if p.is_dir():
            warn_unread(p)
    if not args.inputs:
        args.workers = 1
    # the roles only for the formats that write them (they cost time)
    roles = (("roles", True),) if fmt.needs_roles else ()
    job = Job("anaphora", fmt.key, (("coref", args.coref), *roles))
    return execute(args, job, inputs, fmt.open(args.output))
