"""Output formats: declared once here, read by ``chemie run``, ``chemie ner``, the workers
and the README's table of formats.

An :class:`OutputFormat` says which command offers it under which ``--format`` name, the
function that turns an annotated Document into a payload (run in the workers), the sink
class that writes the payloads, what ``-o OUT`` names (a file, a folder, a prefix for
several files), the output names that imply it and the extra it needs. Adding a format is
one :func:`register` call (plus its formatter)::

    register(OutputFormat(
        "run", "ids", ids_line, JsonlSink, {"key_field": "id"}, suffixes=(".ids",),
        help="the id and mention count of each document, one JSON line each",
    ))

after which ``chemie run IN -o out.ids`` (or ``--format ids``) writes it. A worker finds the
formatter by the format's :attr:`~OutputFormat.key` (``Job.fmt``), so a format registered at
run time reaches pool workers (forked) but Dask workers only when the module registering
it is imported there. :func:`markdown_table` gives the README's table and
:func:`markdown_fields` its field reference (tests keep the README's copies current).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import chemie.scale.fields as fields
from chemie.errors import InputError
from chemie.extras import EXTRAS
from chemie.formats import reaction_records
from chemie.formats.brat import format_ann
from chemie.formats.chemu import format_chemu_doc
from chemie.formats.chemu2020 import roles_payload
from chemie.formats.jsondoc import document_json
from chemie.formats.ner_records import (
    TSV_HEADER,
    chemdner_blocks,
    json_line,
    table_document,
    tsv_block,
)
from chemie.formats.tabular import MENTIONS, TABLES
from chemie.model import Document
from chemie.scale.fields import Fields
from chemie.scale.sinks import (
    BlockSink,
    BratSink,
    JsonlSink,
    PrefixSink,
    Sink,
    StdoutSink,
    TableSink,
)
from chemie.scale.sources import Item

# what ``-o OUT`` names
FILE = "file"
FOLDER = "folder"
PREFIX = "prefix"  # files OUT.PART.EXT (a trailing .EXT dropped from OUT) or FOLDER/PART.EXT
STDOUT = "stdout"  # printed only
LAYOUTS = (FILE, FOLDER, PREFIX, STDOUT)


@dataclass(frozen=True)
class OutputFormat:
    """One output format of one command.

    ``formatter`` runs in the workers (annotated Document -> payload); ``sink`` is the
    :class:`~chemie.scale.sinks.Sink` class writing the payloads to ``-o OUT``, made with
    ``sink(OUT, **sink_options)``; without ``-o`` the payloads are printed when the sink
    says how (:meth:`~chemie.scale.sinks.Sink.stdout`). ``suffixes``: output names ending
    so imply this format (the first is its usual one); ``default_for``: the input kinds for
    which it is the command's default; ``choice``: offered by ``--format`` (else chosen by
    the command itself, as CHEMDNER output is for CHEMDNER input); ``extra``: the optional
    part of chemie it needs (:mod:`chemie.extras`); ``needs_roles``: it writes the reaction
    roles, so the run loads the opt-in ``chemie_roles`` (``chemie.load(roles=True)``);
    ``fields``: what each field of the output means (:mod:`chemie.scale.fields`, the
    README's field reference).
    """

    command: str
    name: str
    formatter: Callable[[Document], object]
    sink: type[Sink]
    sink_options: Mapping[str, object] = field(default_factory=dict)
    layout: str = FILE
    suffixes: tuple[str, ...] = ()
    default_for: tuple[str, ...] = ()
    choice: bool = True
    extra: str | None = None
    needs_roles: bool = False
    help: str = ""
    fields: Fields = ()  # (field, meaning) rows: the README's field reference

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            raise ValueError(f"format {self.key}: layout {self.layout!r} is not one of {LAYOUTS}")
        if any(not s.startswith(".") or s != s.lower() for s in self.suffixes):
            raise ValueError(f"format {self.key}: suffixes are lower case and start with '.'")
        if self.extra is not None and self.extra not in EXTRAS:
            raise ValueError(f"format {self.key}: no extra {self.extra!r} in chemie.extras")

    @property
    def key(self) -> str:
        """``COMMAND/NAME``: how a job names the format (``Job.fmt``)."""
        return f"{self.command}/{self.name}"

    @property
    def resumable(self) -> bool:
        """Whether ``--resume`` continues an interrupted run (the sink's property)."""
        return self.sink.resumable

    @property
    def prints(self) -> bool:
        """Whether it can be written to standard output (no ``-o``)."""
        return self.layout == STDOUT or self.sink.stdout(**self.sink_options) is not None

    def open(self, out: Path | None) -> Sink:
        """A new sink writing this format to ``out`` (standard output when None)."""
        if out is None or self.layout == STDOUT:
            sink = self.sink.stdout(**self.sink_options)
            if sink is None:
                raise InputError(None, None, f"--format {self.name} needs an output: -o OUT")
            return sink
        return self.sink(out, **self.sink_options)  # type: ignore[call-arg]


FORMATS: dict[str, OutputFormat] = {}  # key -> format, in registration order


def register(fmt: OutputFormat) -> OutputFormat:
    """Add ``fmt`` (ValueError when its command already has a format of that name)."""
    if fmt.key in FORMATS:
        raise ValueError(f"output format {fmt.key} is already registered")
    FORMATS[fmt.key] = fmt
    return fmt


def get(command: str, name: str) -> OutputFormat:
    """The format ``name`` of ``command`` (ValueError when there is none)."""
    try:
        return FORMATS[f"{command}/{name}"]
    except KeyError:
        raise ValueError(f"{command} has no output format {name!r}") from None


def offered(command: str) -> list[OutputFormat]:
    """The formats ``command`` offers with ``--format``, in registration order."""
    return [f for f in FORMATS.values() if f.command == command and f.choice]


def default(command: str, kind: str) -> OutputFormat | None:
    """The format ``command`` writes for input of ``kind`` when nothing else decides."""
    return next(
        (f for f in FORMATS.values() if f.command == command and kind in f.default_for), None
    )


def implied(command: str, out: Path) -> list[OutputFormat]:
    """The formats of ``command`` whose output names end like ``out`` (``.jsonl`` ...),
    those whose usual suffix it is first."""
    suffix = out.suffix.lower()
    found = [f for f in offered(command) if suffix and suffix in f.suffixes]
    return sorted(found, key=lambda f: f.suffixes.index(suffix))


def choose(
    command: str, requested: str | None, out: Path, kinds: set[str], folder: bool = False
) -> OutputFormat | None:
    """The format of ``command`` writing to ``out``: ``requested`` (InputError when the
    output's suffix belongs to other formats: ``--format brat -o x.jsonl``), else the
    default for the input ``kinds`` when the suffix allows it, else the one the suffix
    implies (``-o x.csv``); None when nothing decides (mixed inputs, no telling suffix).
    ``folder``: ``out`` was written ``OUT/``, so its suffix says nothing."""
    suffix = out.suffix.lower()
    implies = [] if folder else implied(command, out)
    if requested is not None:
        fmt = get(command, requested)
        if implies and fmt not in implies:
            names = " or ".join(f.name for f in implies)
            raise InputError(out, None, f"a {suffix} name is for {names} output, not "
                             f"--format {requested}: rename the output or change --format")
        return fmt
    fallback = default(command, next(iter(kinds))) if len(kinds) == 1 else None
    if fallback is not None and (not implies or fallback in implies):
        return fallback
    return implies[0] if implies else None


def formatter(ref: str) -> Callable[[Document], object]:
    """The payload function a job names (``Job.fmt``): a format key ``COMMAND/NAME``, a bare
    name of a ``chemie run`` format, or ``"module:function"``."""
    fmt = FORMATS.get(ref) or FORMATS.get(f"run/{ref}")
    if fmt is not None:
        return fmt.formatter
    module, colon, name = ref.partition(":")
    if not colon:
        raise ValueError(f"unknown output format {ref!r}")
    return getattr(importlib.import_module(module), name)


def make_sink(ref: str, out: Path | None) -> Sink:
    """A sink for the format a job names (see :func:`formatter`) writing to ``out``."""
    fmt = FORMATS.get(ref) or FORMATS.get(f"run/{ref}")
    if fmt is None:
        raise ValueError(f"unknown output format {ref!r}")
    return fmt.open(out)


def markdown_table() -> str:
    """The README's table of output formats."""
    rows = [
        "| command | `--format` | writes | `-o OUT` names | implied by `-o` ending in "
        "| `--resume` |",
        "|---|---|---|---|---|---|",
    ]
    for f in FORMATS.values():
        if not f.help:
            continue
        name = f"`{f.name}`" if f.choice else f"({f.name})"
        default = f" Default for {' and '.join(f.default_for)} input." if f.default_for else ""
        extra = f" Needs `chemie[{f.extra}]`." if f.extra else ""
        suffixes = ", ".join(f"`{s}`" for s in f.suffixes)
        where = {FILE: "a file", FOLDER: "a folder", PREFIX: "a prefix or `FOLDER/`",
                 STDOUT: "(printed)"}[f.layout]
        rows.append(f"| {f.command} | {name} | {f.help}.{default}{extra} | {where} | {suffixes} "
                    f"| {'yes' if f.resumable else 'no'} |")
    return "\n".join(rows) + "\n"


def _cell(text: str) -> str:
    """Text for a cell of a Markdown table (a ``|`` escaped)."""
    return text.replace("|", "\\|")


def markdown_fields() -> str:
    """The README's field reference: what each field of each format means (``fields``;
    formats of a command with the same fields share one table)."""
    groups: dict[tuple[str, int], list[OutputFormat]] = {}
    for f in FORMATS.values():
        if f.fields:
            groups.setdefault((f.command, id(f.fields)), []).append(f)
    parts = []
    for (command, _), fmts in groups.items():
        names = " and ".join(f"`--format {f.name}`" if f.choice else f"({f.name})"
                             for f in fmts)
        rows = [f"**`chemie {command}` {names}**", "", "| field | meaning |", "|---|---|"]
        rows += [f"| `{_cell(name)}` | {_cell(meaning)} |" for name, meaning in fmts[0].fields]
        parts.append("\n".join(rows))
    return "\n\n".join(parts) + "\n"


# -- chemie run --------------------------------------------------------------------------


def _brat(doc: Document) -> tuple[str, str]:
    return doc.text, format_ann(doc)


def _describe(doc: Document) -> str:
    from chemie.nlp import describe  # imports spaCy: only where documents are printed

    return describe(doc)


def _document(doc: Document) -> Document:
    return doc


register(OutputFormat(
    "run", "brat", _brat, BratSink, layout=FOLDER, default_for=("txt",),
    help="`KEY.txt` and `KEY.ann` per document, rule names as `#` notes",
    fields=fields.BRAT,
))
register(OutputFormat(
    "run", "chemu2020", roles_payload, BratSink, layout=FOLDER, needs_roles=True,
    help="ChEMU 2020 brat: `KEY.txt` and `KEY.ann` with role, condition and trigger labels "
    "(T lines) and what each trigger acts on (R lines `ARG1`/`ARGM`, as the official event "
    "data)",
    fields=fields.CHEMU2020,
))
register(OutputFormat(
    "run", "chemu", format_chemu_doc, JsonlSink, {"key_field": "doc_key", "unique": True},
    suffixes=(".jsonl", ".json"), default_for=("jsonl",),
    help="ChEMU-Ref JSON lines, links in token indices (the input's tokens; for text, "
    "chemie's)",
    fields=fields.CHEMU,
))
register(OutputFormat(
    "run", "json", document_json, JsonlSink, {"key_field": "id", "unique": True},
    suffixes=(".json", ".jsonl"),
    help="one JSON line per document: text, tokens, mentions, relations, actions, rules",
    fields=fields.JSON_DOCUMENT,
))
register(OutputFormat(
    "run", "csv", _document, TableSink, {"fmt": "csv", "tables": TABLES}, layout=PREFIX,
    suffixes=(".csv",), needs_roles=True,
    help="`OUT.mentions.csv`, `OUT.relations.csv` and `OUT.roles.csv` (the ChEMU 2020 labels, "
    "with rule and trigger arguments and the rule of each)",
    fields=fields.RUN_TABLES,
))
register(OutputFormat(
    "run", "parquet", _document, TableSink, {"fmt": "parquet", "tables": TABLES},
    layout=PREFIX, suffixes=(".parquet",), extra="parquet", needs_roles=True,
    help="`OUT.mentions.parquet`, `OUT.relations.parquet` and `OUT.roles.parquet`",
    fields=fields.RUN_TABLES,
))
register(OutputFormat(
    "run", "describe", _describe, StdoutSink, layout=STDOUT, choice=False,
    help="without `-o`: mentions and links, readably",
))

# -- chemie ner --------------------------------------------------------------------------


def _path_key(item: Item) -> str:
    return item.path


register(OutputFormat(
    "ner", "tsv", tsv_block, BlockSink, {"header": TSV_HEADER}, suffixes=(".tsv",),
    default_for=("text",),
    help="one row per mention: document, offsets, text, class, confidence, rule",
    fields=fields.NER_TSV,
))
register(OutputFormat(
    "ner", "json", json_line, JsonlSink, {"key_field": "document", "item_key": _path_key},
    suffixes=(".jsonl", ".json"), help="one JSON line per document: its mentions",
    fields=fields.NER_JSON,
))
register(OutputFormat(
    "ner", "csv", table_document, TableSink, {"fmt": "csv", "tables": (MENTIONS,)},
    layout=PREFIX, suffixes=(".csv",), help="`OUT.mentions.csv`, the columns of `chemie run`'s",
    fields=fields.NER_TABLES,
))
register(OutputFormat(
    "ner", "parquet", table_document, TableSink, {"fmt": "parquet", "tables": (MENTIONS,)},
    layout=PREFIX, suffixes=(".parquet",), extra="parquet", help="`OUT.mentions.parquet`",
    fields=fields.NER_TABLES,
))
register(OutputFormat(
    "ner", "chemdner", chemdner_blocks, PrefixSink, {"parts": (".cem.tsv", ".cdi.tsv")},
    layout=PREFIX, default_for=("chemdner",), choice=False,
    help="for CHEMDNER abstracts: `OUT.cem.tsv` and `OUT.cdi.tsv` (ranked, with confidences)",
    fields=fields.CHEMDNER,
))

# -- chemie reactions --------------------------------------------------------------------

register(OutputFormat(
    "reactions", "jsonl", reaction_records.jsonl_block, BlockSink, suffixes=(".jsonl", ".json"),
    default_for=("txt", "jsonl"),
    help="one JSON line per reaction: components with roles, rules, amounts and structures; "
    "yield, conditions, steps (mapped to the Open Reaction Database's fields in the "
    "README)",
    fields=fields.REACTIONS_JSONL,
))
register(OutputFormat(
    "reactions", "rsmi", reaction_records.rsmi_block, BlockSink, suffixes=(".rsmi",),
    help="one line per reaction, `ID<TAB>reactants>reagents>products` (the document's id; "
    "its last line makes its final product); a reaction with a component that has no "
    "structure gets a third column naming such components (`role=name; …`), and the "
    "summary line counts these reactions",
    fields=fields.RSMI,
))
register(OutputFormat(
    "reactions", "csv", reaction_records.reactions_document, TableSink,
    {"fmt": "csv", "tables": reaction_records.TABLES}, layout=PREFIX, suffixes=(".csv",),
    help="`OUT.reactions.csv`, `OUT.components.csv` and `OUT.steps.csv`",
    fields=fields.REACTION_TABLES,
))
register(OutputFormat(
    "reactions", "parquet", reaction_records.reactions_document, TableSink,
    {"fmt": "parquet", "tables": reaction_records.TABLES}, layout=PREFIX,
    suffixes=(".parquet",), extra="parquet",
    help="`OUT.reactions.parquet`, `OUT.components.parquet` and `OUT.steps.parquet`",
    fields=fields.REACTION_TABLES,
))
