"""``chemie reactions INPUT... [-o OUT]``: reaction records, streamed at scale like ``chemie run``.

Inputs as ``chemie run`` reads them (``.txt`` files, folders of them, plain or brat;
ChEMU-Ref ``.jsonl``) and USPTO paragraphs (``.jsonl`` lines with ``id``, ``title`` and
``text``: the title is the heading, see :mod:`chemie.formats.uspto`). Each document goes
through the pipeline with ``chemie_reactions``; its reactions are written in input order, a
document's reactions in text order (the last makes its final product). Formats (declared in
:mod:`chemie.scale.outputs`): JSON lines, one per reaction (the default;
:meth:`chemie.reactions.model.Reaction.to_dict`, whose fields map to the Open Reaction
Database's as :mod:`chemie.reactions.model` documents), ``rsmi`` (``ID<TAB>reactants>
reagents>products`` per reaction, ``ID`` the document's id), ``csv``/``parquet`` (tables of
reactions, components and steps: ``-o PREFIX`` or ``-o FOLDER/``). An output name ending
in ``.jsonl``, ``.rsmi``, ``.csv`` or ``.parquet`` implies its format; without ``-o`` the
records are printed.

Structures need Java 8 or later for OPSIN (one JVM per worker process, started before its
first document; a batch of names that takes longer than half of ``--timeout`` is given up
and its JVM killed); without Java there is one warning and names the compound dictionary
does not know stay unresolved (reason ``no java``). ``--no-structures`` resolves nothing
(no JVM); ``--no-opsin`` uses the dictionary alone. A document some of whose names OPSIN
failed on (its JVM died, hung or could not start) is written with those names unresolved
(the reason in each record) and gets a warning; a document that cannot be read or
processed is listed in ``OUT.errors.tsv`` and the run goes on (exit status 1). Outputs
are written to temporary files and renamed, ``--resume`` continues an interrupted run, and
no output overwrites an input. Exit statuses as ``chemie run``'s.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from chemie.cliutil import add_max_chars
from chemie.commands.run import (
    OutputPath,
    add_scale_options,
    check_output,
    execute,
    format_help,
    make_output_folder,
    requirements,
)
from chemie.errors import InputError
from chemie.scale import outputs
from chemie.scale.outputs import FOLDER, PREFIX, OutputFormat
from chemie.scale.sources import input_kind, iter_items
from chemie.scale.worker import Job


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "reactions",
        help="reaction records with structures (JSON lines, reaction SMILES, tables)",
        description=__doc__.split("\n\n", 1)[1],
    )
    p.add_argument("inputs", nargs="+", type=Path, metavar="INPUT",
                   help=".txt files or folders, ChEMU-Ref or USPTO-paragraph .jsonl")
    p.add_argument(
        "-o", "--output", action=OutputPath, metavar="OUT",
        help="output file (jsonl, rsmi) or table prefix or FOLDER/ (csv, parquet); "
        "without it, the records are printed",
    )
    p.add_argument(
        "--format", choices=[f.name for f in outputs.offered("reactions")],
        help="output format (default: the one -o OUT's suffix implies, else jsonl): "
        + format_help("reactions"),
    )
    p.add_argument("--no-structures", action="store_true",
                   help="no name-to-structure (no Java needed; fastest)")
    p.add_argument("--no-opsin", action="store_true",
                   help="structures from the compound dictionary only")
    add_max_chars(p)
    add_scale_options(p)
    p.set_defaults(func=run)


def output_format(args: argparse.Namespace, kinds: set[str]) -> OutputFormat:
    """The format asked for or implied (InputError when they conflict, or when the output
    cannot hold it)."""
    if args.output is None:
        fmt = outputs.get("reactions", args.format or "jsonl")
        if not fmt.prints:
            raise InputError(None, None, f"--format {fmt.name} needs an output: -o OUT")
    else:
        folder = getattr(args, "output_folder", False)
        fmt = outputs.choose("reactions", args.format, args.output, kinds, folder)
        assert fmt is not None  # jsonl is the default for every input kind
    if fmt.name == "rsmi" and args.no_structures:
        raise InputError(None, None, "--format rsmi writes structures: it cannot be used "
                         "with --no-structures")
    return fmt


def check_opsin() -> None:
    """Report once, in this process, what keeps OPSIN from running (a missing java is
    warned about by the service itself; the workers stay quiet)."""
    from chemie.structures.opsin import service  # noqa: PLC0415

    if service().unavailable() == "no opsin jar":
        print("chemie: warning: the OPSIN jar of the py2opsin package was not found: names "
              "are not converted to structures by OPSIN (pip install py2opsin)",
              file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    inputs = list(args.inputs)
    kinds = {input_kind(p) for p in inputs}
    fmt = output_format(args, kinds)
    requirements(fmt, args)
    if args.output is not None:
        check_output(args.output, fmt, inputs)
        make_output_folder(args, fmt.layout in (FOLDER, PREFIX), f"{fmt.name} output")
    structures, opsin = not args.no_structures, not args.no_opsin
    if structures and opsin:
        check_opsin()
    options = (("structures", structures), ("opsin", opsin), ("warn_no_java", False))
    job = Job("reactions", fmt.key, options)
    items = iter_items(inputs, keys=args.resume, max_chars=args.max_chars)
    return execute(args, job, inputs, fmt.open(args.output), items)
