"""``chemie reactions INPUT... [-o OUT]``: reaction records, streamed at scale like ``chemie run``.

Inputs as ``chemie run`` reads them (``.txt`` files, folders of them, plain or brat;
ChEMU-Ref ``.jsonl``) and USPTO paragraphs (``.jsonl`` lines with ``id``, ``title`` and
``text``: the title is the heading, see :mod:`chemie.formats.uspto`). Each document goes
through the pipeline with ``chemie_reactions``; its reactions are written in input order, a
document's reactions in text order (the last makes its final product). Formats (declared in
:mod:`chemie.scale.outputs`): JSON lines, one per reaction (the default;
:meth:`chemie.model.reaction.Reaction.to_dict`, whose fields map to the Open Reaction
Database's as :mod:`chemie.model.reaction` documents), ``rsmi`` (``ID<TAB>reactants>
reagents>products`` per reaction, ``ID`` the document's id), ``csv``/``parquet`` (tables of
reactions, components and steps: ``-o PREFIX`` or ``-o FOLDER/``). An output name ending
in ``.jsonl``, ``.rsmi``, ``.csv`` or ``.parquet`` implies its format; without ``-o`` the
records are printed.

References between the documents of an INPUT (a file of paragraphs, a folder of texts)
are resolved when it is taken for one source, the examples of one patent in order
(``--link-documents``): paragraphs that refer to each other ("prepared according to
General Procedure D", "as described in Example 10, using X instead of Y", "Intermediate 3"
as a reactant) inherit from the earlier one they name. The workers process documents
independently, and this process, which writes the records in input order, gives each
document's references what the earlier documents of its input have
(:mod:`chemie.reactions.inputs`). ``auto`` (the default) first reads each input's texts
and links it unless it looks like several patents: a label that heads two of its documents
("Example 3" twice: rule ``repeated_label`` of ``rules/procedures.yaml``); an input not
linked is named once on stderr, with the reason, and its references stay unresolved
saying why (``refers_to.reason``); in a linked input a reference resolves only to the one
earlier document with its label (``unique_source``). ``on`` links every
input (a label of several earlier documents: the latest); ``off``
links none (a reference the document itself does not resolve stays unresolved, "not in
this document"). With ``--resume`` the labelled records of the documents already written
are read back from ``OUT.references.partial``, kept beside the output until the run
completes.

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
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from chemie.characters import normalise
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
from chemie.formats.reaction_records import reactions_of
from chemie.model import Document
from chemie.scale import outputs
from chemie.scale.outcome import Outcome
from chemie.scale.outputs import FOLDER, PREFIX, OutputFormat
from chemie.scale.sinks import Sink, errors_path
from chemie.scale.sources import Item, input_kind, iter_items, read_item
from chemie.scale.worker import Job

if TYPE_CHECKING:  # the resolver imports the reaction rules (spaCy): only when run
    from chemie.reactions.inputs import Resolver, Verdict

# what the workers send back: each document's records, formatted here after the references
# between documents are resolved
RECORDS = "chemie.formats.reaction_records:reactions_document"
LINK_MODES = ("auto", "on", "off")


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
    p.add_argument("--link-documents", choices=LINK_MODES, default="auto",
                   help="resolve references between the documents of an INPUT (the examples "
                   "of one patent, in order): a paragraph that follows another (General "
                   "Procedure B, Example 3) or names its product (Intermediate 5) inherits "
                   "from it. auto (the default): every INPUT that does not look like several "
                   "patents (a label such as 'Example 3' heading two documents; stderr names "
                   "the INPUTs not linked); on: every INPUT; off: none")
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


class ResolvingSink(Sink):
    """A sink of ``chemie reactions``: each document's records (a light Document, see
    :func:`chemie.formats.reaction_records.reactions_document`) get their references to
    earlier documents of their input resolved (:class:`chemie.reactions.inputs.Resolver`),
    then are formatted (``formatter``) and written to ``inner``, in input order. ``journal``:
    where the labelled records are kept while the run is unfinished (None: not kept)."""

    def __init__(self, inner: Sink, formatter: Callable[[Document], object],
                 resolver: Resolver, inputs: list[Path], journal: Path | None):
        self.inner = inner
        self.formatter = formatter
        self.resolver = resolver
        self.scopes = [(str(p), str(p).rstrip(os.sep) + os.sep) for p in inputs]
        self.journal = journal
        self.fh = None
        self.fresh = False

    @property
    def resumable(self) -> bool:  # type: ignore[override]
        return self.inner.resumable

    def scope(self, path: str) -> str:
        """The input (as given) that holds a document read from ``path``."""
        return next((s for s, folder in self.scopes if path == s or path.startswith(folder)),
                    path)

    def open(self, resume: bool) -> None:
        self.inner.open(resume)
        if self.journal is None:
            return
        if resume and self.journal.exists():
            for line in self.journal.read_text(encoding="utf-8").splitlines(keepends=True):
                if line.endswith("\n"):  # a line cut by an interruption is left out
                    entry = json.loads(line)
                    self.resolver.restore(entry["input"], entry["records"])
            self.fh = open(self.journal, "a", encoding="utf-8")
        else:
            self.fh = open(self.journal, "w", encoding="utf-8")
            self.fresh = True

    def done(self, item: Item) -> bool:
        return self.inner.done(item)

    def write(self, outcome: Outcome) -> None:
        doc = outcome.payload
        if isinstance(doc, Document):
            scope = self.scope(outcome.path)
            records = reactions_of(doc)
            self.resolver.resolve(scope, records)
            kept = self.resolver.add(scope, records)
            if kept and self.fh is not None:
                self.fh.write(json.dumps({"input": scope, "records": kept},
                                         ensure_ascii=False) + "\n")
            outcome.payload = self.formatter(doc)
        self.inner.write(outcome)

    def flush(self) -> None:
        if self.fh is not None:
            self.fh.flush()
            os.fsync(self.fh.fileno())
        self.inner.flush()

    def close(self) -> None:
        self.flush()
        self.inner.close()
        if self.fh is not None:
            self.fh.close()
            self.journal.unlink(missing_ok=True)

    def abort(self) -> None:
        if self.fh is not None and not self.fh.closed:
            self.flush()
            self.fh.close()
        self.inner.abort()

    def discard(self) -> None:
        if self.fh is not None and not self.fh.closed:
            self.fh.close()
        self.inner.discard()
        if self.fresh and self.journal is not None:
            self.journal.unlink(missing_ok=True)


def input_texts(path: Path, max_chars: int | None) -> Iterator[tuple[str, str]]:
    """``(id, text)`` of each document of one input, as the pipeline reads it (normalised
    characters); a document that cannot be read is left out (the run reports it)."""
    for item in iter_items([path], max_chars=max_chars):
        try:
            doc = read_item(item, max_chars)
        except InputError:
            continue
        yield doc.id, normalise(doc.text)


def unlinked_inputs(inputs: list[Path], max_chars: int | None) -> dict[str, Verdict]:
    """The inputs ``--link-documents auto`` does not link, each named on stderr with why."""
    from chemie.reactions.inputs import one_source  # noqa: PLC0415  (spaCy, only when run)

    out = {}
    for path in inputs:
        verdict = one_source(input_texts(path, max_chars))
        if not verdict.linked:
            out[str(path)] = verdict
            print(f"chemie: {path}: its documents are not linked (--link-documents auto): "
                  f"{verdict.detail}, as in several patents ({verdict.rule}); "
                  "--link-documents on links them", file=sys.stderr)
    return out


def journal_path(out: Path) -> Path:
    """Where a run writing ``out`` keeps its labelled records while unfinished."""
    errors = errors_path(out)
    return errors.with_name(errors.name.removesuffix(".errors.tsv") + ".references.partial")


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
    items = iter_items(inputs, keys=args.resume, max_chars=args.max_chars)
    if args.link_documents == "off":
        return execute(args, Job("reactions", fmt.key, options), inputs,
                       fmt.open(args.output), items)
    auto = args.link_documents == "auto"
    unlinked = unlinked_inputs(inputs, args.max_chars) if auto else {}
    has_group = None
    if structures:
        from chemie.structures.chem import has_group  # noqa: PLC0415  (RDKit)
    journal = journal_path(args.output) if args.output is not None else None
    from chemie.reactions.inputs import Resolver  # noqa: PLC0415  (spaCy, only when run)

    resolver = Resolver(has_group=has_group, unique=auto, unlinked=unlinked)
    sink = ResolvingSink(fmt.open(args.output), fmt.formatter, resolver, inputs, journal)
    return execute(args, Job("reactions", RECORDS, options), inputs, sink, items)
