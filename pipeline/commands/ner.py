"""``chemie ner INPUT... [-o OUTPUT]``: chemical mentions in text, CHEMDNER or IOB files.

- plain text (``.txt`` files, folders of them): one document per file, streamed through
  ``chemie.scale`` -> mentions (char offsets, text, CHEMDNER class, confidence, rule) as
  TSV (one header, then one row per mention), JSON lines with ``--format json`` (one line
  per document), or with ``--format csv|parquet`` (needs ``-o OUT``) one row per mention in
  ``OUT.mentions.csv|parquet`` (``-o FOLDER/``: ``FOLDER/mentions.EXT``), the mention
  columns of ``chemie run``'s tables (``chemie.formats.tabular``): ``doc_id`` is the file,
  ``label`` and ``chemdner_class`` the CHEMDNER class. The shape is the same for one
  document or many; an output name ending in ``.tsv``, ``.jsonl``/``.json``, ``.csv`` or
  ``.parquet`` implies its format. Bad documents are listed in ``OUT.errors.tsv`` and the
  run goes on (exit 1); an empty document gives a warning and an empty result.
- CHEMDNER abstracts (``PMID<TAB>title<TAB>abstract``) -> ``PREFIX.cem.tsv`` and
  ``PREFIX.cdi.tsv`` (``-o PREFIX`` or ``-o FOLDER/``), streamed one abstract per line
  (bad lines listed in ``PREFIX.errors.tsv``, the run goes on);
- IOB TSV -> the same tokens in the same order with predicted ``B-/I-Chemical`` tags
  (tagged in one process: the scale options are ignored, with a note).

The input format is detected from the extension and the first line; ``--input-format``
overrides it (JSON lines, e.g. ChEMU-Ref, are refused: ``chemie run`` reads them).
Outputs are written atomically: a bad input leaves no half-written file, and an output
that would overwrite an input is refused. A document longer than ``--max-chars``
characters (a text file, an abstract; in an IOB file, a sentence) is refused
(:mod:`chemie.limits`): streamed, it fails alone; an IOB input stops.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from chemie.characters import normalise
from chemie.cliutil import add_max_chars, emit, refuse_overwrite
from chemie.commands.common import (
    OutputPath,
    add_scale_options,
    build_nlp,
    execute,
    format_help,
    make_output_folder,
    requirements,
)
from chemie.errors import InputError
from chemie.formats.iob import IOBSentence, format_iob, read_iob, spans_to_tags
from chemie.limits import MAX_CHARS, check_chars, line_cap, line_too_long, read_lines
from chemie.model import Document
from chemie.scale import outputs
from chemie.scale.outputs import PREFIX, OutputFormat
from chemie.scale.sinks import errors_path
from chemie.scale.sources import Item, iter_txt_items
from chemie.scale.worker import Job

if TYPE_CHECKING:  # spaCy and the NER: imported when a command needs them, not for --help
    from spacy.language import Language

    from chemie.ner.finder import ChemicalNER

FORMATS = ("auto", "text", "chemdner", "iob")
IOB_SUFFIXES = (".iob", ".bio", ".conll")
DEFAULT_IOB_WINDOW = 600  # tokens: an IOB file holds many abstracts one after another


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "ner",
        help="find chemical mentions (text, CHEMDNER abstracts, IOB)",
        description=__doc__.split("\n\n")[0],
    )
    p.add_argument("inputs", nargs="+", type=Path, metavar="INPUT")
    p.add_argument(
        "-o", "--output", action=OutputPath,
        help="output file (prefix or FOLDER/ for CHEMDNER and csv/parquet)",
    )
    p.add_argument("--input-format", choices=FORMATS, default="auto")
    p.add_argument(
        "--format", choices=[f.name for f in outputs.offered("ner")],
        help="output format for text input (default: the one -o OUT's suffix implies, else "
        "tsv): " + format_help("ner"),
    )
    p.add_argument(
        "--abbreviation-window",
        type=int,
        default=None,
        help="tokens around a definition in which an abbreviation applies "
        f"(default: whole document; {DEFAULT_IOB_WINDOW} for IOB files)",
    )
    p.add_argument(
        "--nonchemical-veto",
        choices=("rules", "all"),
        default="rules",
        help="words mostly tagged O in BC5CDR training veto rule matches only, or all matches",
    )
    add_max_chars(p)
    add_scale_options(p)  # any of them (or a folder input) streams text documents at scale
    p.set_defaults(func=run)


def detect_format(path: Path, text: str) -> str:
    """``text``, ``chemdner`` or ``iob`` from the extension and the first non-blank line."""
    if path.suffix.lower() in IOB_SUFFIXES:
        return "iob"
    first = next((line for line in text.splitlines() if line.strip()), "")
    cols = first.split("\t")
    if path.suffix.lower() == ".txt" and len(cols) == 1:
        return "text"
    if len(cols) == 2 and (cols[1].strip() == "O" or cols[1].strip()[:2] in ("B-", "I-")):
        return "iob"
    if len(cols) == 3 or (len(cols) == 2 and path.suffix.lower() == ".tsv"):
        return "chemdner"
    return "text"


def ner_document(nlp: Language, text: str) -> list[dict[str, object]]:
    """Mention records (char offsets into ``text``) of one document (read with its
    characters normalised, :mod:`chemie.characters`; the records quote ``text``)."""
    from chemie.ner.finder import mention_records

    norm = normalise(text)
    records = mention_records(nlp(norm))
    if norm is not text:
        for r in records:
            r["text"] = text[r["start"]:r["end"]]  # type: ignore[misc]
    return records


def tag_iob(ner: ChemicalNER, sentences: list[IOBSentence]) -> list[IOBSentence]:
    """The same sentences with predicted tags (the input tokenization is kept)."""
    from chemie.ner.finder import find_in_sentences

    found = find_in_sentences(ner, [[normalise(w) for w in s.words] for s in sentences])
    return [
        IOBSentence(
            s.words,
            spans_to_tags(len(s.words), [(f.start, f.end, "Chemical") for f in fs]),
            s.line,
            s.lines,
        )
        for s, fs in zip(sentences, found, strict=True)
    ]


def ner_processor(
    abbreviation_window: int = 0, nonchemical_veto: str = "rules", max_chars: int = MAX_CHARS
):
    """Scale worker factory: Document -> the same Document with its records in meta["ner"]."""
    nlp = build_nlp(abbreviation_window, nonchemical_veto, max_chars)

    def process(doc: Document) -> Document:
        doc.meta["ner"] = ner_document(nlp, doc.text)
        return doc

    return process


def _options(args: argparse.Namespace) -> tuple[tuple[str, object], ...]:
    return (("abbreviation_window", args.abbreviation_window or 0),
            ("nonchemical_veto", args.nonchemical_veto), ("max_chars", args.max_chars))


def _numbered(items: Iterable[Item]) -> Iterator[Item]:
    return (dataclasses.replace(item, n=n) for n, item in enumerate(items, 1))


def _text_items(paths: list[Path]) -> Iterator[Item]:
    """One item per text file (any name), or per ``.txt`` under a folder."""
    for p in paths:
        yield from iter_txt_items(p) if p.is_dir() else [Item("txt", str(p), None, p.stem)]


def iter_abstract_items(path: Path, max_chars: int | None = MAX_CHARS) -> Iterator[Item]:
    """One item per CHEMDNER abstract line, read lazily (``data``: title, newline, abstract);
    a bad line (not UTF-8, wrong columns, empty or repeated PMID, too long to be read: see
    :mod:`chemie.limits`) becomes an error item."""
    seen: set[str] = set()
    cap = line_cap(max_chars)
    with open(path, "rb") as fh:
        for lineno, raw, size in read_lines(fh, cap):
            if cap is not None and size > cap:
                pmid = raw.split(b"\t", 1)[0].decode("utf-8", "replace").strip()
                message = line_too_long(size, max_chars or 0)
                yield Item("error", str(path), lineno, pmid or None, message)
                continue
            try:
                line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8").rstrip("\r\n")
            except UnicodeDecodeError as e:
                message = f"not valid UTF-8 (byte 0x{raw[e.start]:02x})"
                yield Item("error", str(path), lineno, None, message)
                continue
            if not line.strip():
                continue
            cols = line.split("\t")
            pmid = cols[0].strip()
            if len(cols) not in (2, 3):
                message = f"expected PMID, title, abstract: {len(cols)} columns"
            elif not pmid:
                message = "empty PMID"
            elif pmid in seen:
                message = f"duplicate PMID {pmid}"
            else:
                seen.add(pmid)
                text = cols[1] + "\n" + (cols[2] if len(cols) == 3 else "")
                yield Item("text", str(path), lineno, pmid, text)
                continue
            yield Item("error", str(path), lineno, pmid or None, message)


def _job(args: argparse.Namespace, fmt: OutputFormat) -> Job:
    return Job("chemie.commands.ner:ner_processor", fmt.key, _options(args),
               max_chars=args.max_chars)


def run_text(args: argparse.Namespace, fmt: OutputFormat) -> int:
    """Plain-text documents (files or folders of .txt) streamed through chemie.scale, one
    or many alike: TSV, JSON lines or a mention table; bad documents go to
    ``OUT.errors.tsv``."""
    inputs = list(args.inputs)
    return execute(args, _job(args, fmt), inputs, fmt.open(args.output),
                   _numbered(_text_items(inputs)))


def run_chemdner(args: argparse.Namespace) -> int:
    """CHEMDNER abstracts streamed one line at a time: ``PREFIX.cem.tsv`` and
    ``PREFIX.cdi.tsv`` per input, bad lines in ``PREFIX.errors.tsv``, the run goes on."""
    if len(args.inputs) > 1 and args.output is not None and not _is_folder(args.output):
        raise InputError(args.inputs[1], None, "CHEMDNER: give one input per output prefix "
                         "(or -o FOLDER/)")
    fmt = outputs.default("ner", "chemdner")
    status = 0
    for path in args.inputs:
        prefix = _chemdner_prefix(args.output, path)
        items = _numbered(iter_abstract_items(path, args.max_chars))
        status = max(status, execute(args, _job(args, fmt), [path], fmt.open(prefix), items,
                                     prefix))
    return status


def _is_folder(output: Path) -> bool:
    return output.is_dir() or str(output).endswith(("/", "\\"))


def _chemdner_prefix(output: Path | None, source: Path) -> Path:
    if output is None:
        return source.with_suffix("")
    if _is_folder(output):
        return output / source.stem
    return output


def _head(path: Path, size: int = 65536) -> str:
    """The start of a file, for format detection only (InputError when missing)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(size).decode("utf-8", errors="replace")
    except FileNotFoundError:
        raise InputError(path, None, "no such file or folder") from None
    except OSError as e:
        raise InputError(path, None, f"cannot open: {e.strerror}") from None


def input_format(path: Path, requested: str) -> str:
    """``text`` (a folder too), ``chemdner`` or ``iob``: requested or detected."""
    if requested != "auto":
        return requested
    if path.is_dir():
        return "text"
    head = _head(path)
    if path.suffix.lower() in (".jsonl", ".json") and head.lstrip("\ufeff \t\r\n")[:1] == "{":
        raise InputError(path, None, "JSON lines (ChEMU-Ref, USPTO paragraphs) are not an "
                         "input of chemie ner: `chemie run FILE --format json` gives the "
                         "mentions with their rules (--input-format text reads the file as "
                         "plain text)")
    return detect_format(path, head)


def text_format(args: argparse.Namespace) -> OutputFormat:
    """The output format for text input: ``--format``, or the one the output's suffix
    implies, else TSV."""
    if args.output is None:
        return outputs.get("ner", args.format or "tsv")
    fmt = outputs.choose("ner", args.format, args.output, {"text"},
                         getattr(args, "output_folder", False))
    assert fmt is not None  # text input always has a default
    return fmt


def written_files(args: argparse.Namespace, kind: str, fmt: OutputFormat | None) -> list[Path]:
    """The files ``chemie ner`` writes for inputs of ``kind`` (with their errors files)."""
    if kind == "chemdner":
        prefixes = [_chemdner_prefix(args.output, p) for p in args.inputs]
        return [Path(f"{prefix}{end}") for prefix in prefixes
                for end in (".cem.tsv", ".cdi.tsv", ".errors.tsv")]
    if args.output is None:
        return []
    if fmt is not None and fmt.layout == PREFIX:
        from chemie.formats.tabular import table_paths  # pandas and pyarrow: only for tables

        return [table_paths(args.output, fmt.name)["mentions"], errors_path(args.output)]
    return [args.output, errors_path(args.output)]


def check_sentences(sentences: list[IOBSentence], path: Path, max_chars: int) -> None:
    """InputError for an IOB sentence longer than ``max_chars`` characters (its tokens
    joined by spaces), at the line of its first token."""
    for s in sentences:
        chars = sum(map(len, s.words)) + len(s.words) - 1
        check_chars(chars, max_chars, path, s.line, "sentence")


def run(args: argparse.Namespace) -> int:
    kinds = {input_format(p, args.input_format) for p in args.inputs}
    if len(kinds) > 1:
        raise InputError(args.inputs[-1], None, f"inputs mix formats: {', '.join(sorted(kinds))}")
    kind = kinds.pop()
    if kind != "text" and args.format is not None:
        raise InputError(args.inputs[0], None, f"--format {args.format} is for text input "
                         f"(this is {kind}, whose output format is fixed)")
    fmt = text_format(args) if kind == "text" else outputs.default("ner", kind)
    if fmt is not None:
        requirements(fmt, args)
        if fmt.layout != PREFIX and args.output is not None and args.output.is_dir():
            raise InputError(args.output, None, f"{fmt.name} output is one file, and this is "
                             "a folder")
    make_output_folder(args, fmt is not None and fmt.layout == PREFIX, "this output")
    refuse_overwrite(written_files(args, kind, fmt), args.inputs)
    if kind == "chemdner":
        return run_chemdner(args)
    if kind == "text":
        return run_text(args, fmt)  # type: ignore[arg-type]
    if args.workers or args.resume or args.engine or args.scheduler:
        print("chemie: note: IOB input is tagged in this process; --workers, --resume, "
              "--engine and --scheduler are ignored", file=sys.stderr)
    if len(args.inputs) > 1 and args.output is not None:
        raise InputError(args.inputs[1], None, "IOB: give one input per output file")
    window = args.abbreviation_window
    nlp = build_nlp(window if window is not None else DEFAULT_IOB_WINDOW, args.nonchemical_veto)
    ner = nlp.get_pipe("chemie_ner")
    sentences = [read_iob(path) for path in args.inputs]
    for path, one in zip(args.inputs, sentences, strict=True):
        check_sentences(one, path, args.max_chars)
    tagged = [tag_iob(ner, one) for one in sentences]
    emit("\n".join(format_iob(t) for t in tagged), args.output)
    return 0
