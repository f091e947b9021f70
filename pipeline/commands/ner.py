"""``chemie ner INPUT... [-o OUTPUT]``: chemical mentions in text, CHEMDNER or IOB files.

- plain text (``.txt``): one document per file -> mentions as TSV or JSON (char offsets,
  text, CHEMDNER class, confidence, rule);
- CHEMDNER abstracts (``PMID<TAB>title<TAB>abstract``) -> ``PREFIX.cem.tsv`` and
  ``PREFIX.cdi.tsv`` (``-o PREFIX`` or ``-o FOLDER/``), always streamed one abstract per
  line through ``chemie.scale`` (bad lines listed in ``PREFIX.errors.tsv``, the run goes on);
- IOB TSV -> the same tokens in the same order with predicted ``B-/I-Chemical`` tags
  (tagged in one process: the scale options are ignored, with a note);
- several text documents (files, a folder), or one with any of ``--workers --resume
  --engine --scheduler``: streamed through ``chemie.scale``: TSV, or JSON lines with
  ``--format json``; bad documents listed in ``OUT.errors.tsv``, the run goes on (exit 1).
  An empty document gives a warning and an empty result.
- ``--format csv|parquet`` (text input, always streamed, needs ``-o OUT``): one row per
  mention in ``OUT.mentions.csv|parquet`` (``-o FOLDER/``: ``FOLDER/mentions.EXT``), the
  mention columns of ``chemie run``'s tables (``chemie.formats.tabular``): ``doc_id`` is
  the file, ``label`` and ``chemdner_class`` the CHEMDNER class.

The input format is detected from the extension and the first line; ``--input-format``
overrides it (JSON lines, e.g. ChEMU-Ref, are refused: ``chemie run`` reads them).
Outputs are written atomically: a bad input leaves no half-written file, and an output
that would overwrite an input is refused. A document longer than ``--max-chars``
characters (a text file, an abstract; in an IOB file, a sentence) is refused
(:mod:`chemie.limits`): streamed, it fails alone; an IOB or single text input stops.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from spacy.language import Language

from chemie.cliutil import add_max_chars, emit, refuse_overwrite
from chemie.commands.run import OutputPath, add_scale_options, execute, make_output_folder
from chemie.components.ner import ChemicalNER, find_in_sentences, mention_records
from chemie.errors import InputError
from chemie.formats import file_name_text
from chemie.formats.chemdner import format_cdi, format_cem, rank_cdi, rank_cem
from chemie.formats.iob import IOBSentence, format_iob, read_iob, spans_to_tags
from chemie.limits import MAX_CHARS, check_chars, line_cap, line_too_long, read_document, read_lines
from chemie.model import Document, Mention
from chemie.scale.sinks import (
    BlockSink,
    JsonlSink,
    PairSink,
    Sink,
    StdoutSink,
    TableSink,
    errors_path,
)
from chemie.scale.sources import Item, iter_txt_items
from chemie.scale.worker import Job

FORMATS = ("auto", "text", "chemdner", "iob")
IOB_SUFFIXES = (".iob", ".bio", ".conll")
DEFAULT_IOB_WINDOW = 600  # tokens: an IOB file holds many abstracts one after another
TABLES = ("csv", "parquet")


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
        "--format", choices=("tsv", "json", *TABLES), default="tsv",
        help="text output format (csv/parquet: a mention table, -o OUT gives OUT.mentions.EXT)",
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


def build_nlp(
    abbreviation_window: int = 0, nonchemical_veto: str = "rules", max_chars: int = MAX_CHARS
) -> Language:
    """The chemie tokenizer, sentence segmenter and NER (``nlp.max_length``: ``max_chars``)."""
    from chemie.language import blank

    nlp = blank()
    nlp.max_length = max_chars
    nlp.add_pipe(
        "chemie_ner",
        config={"abbreviation_window": abbreviation_window, "nonchemical_veto": nonchemical_veto},
    )
    return nlp


def ner_document(nlp: Language, text: str) -> list[dict[str, object]]:
    """Mention records (char offsets into ``text``) of one document."""
    return mention_records(nlp(text))


def tag_iob(ner: ChemicalNER, sentences: list[IOBSentence]) -> list[IOBSentence]:
    """The same sentences with predicted tags (the input tokenization is kept)."""
    found = find_in_sentences(ner, [s.words for s in sentences])
    return [
        IOBSentence(
            s.words,
            spans_to_tags(len(s.words), [(f.start, f.end, "Chemical") for f in fs]),
            s.line,
            s.lines,
        )
        for s, fs in zip(sentences, found, strict=True)
    ]


TSV_HEADER = "document\tstart\tend\ttext\tclass\tconfidence\trule\n"


def _tsv_rows(name: str, mentions: list[dict[str, object]]) -> str:
    lines = []
    for m in mentions:
        text = str(m["text"]).replace("\t", " ").replace("\n", " ")
        lines.append(
            f"{name}\t{m['start']}\t{m['end']}\t{text}\t{m['class']}\t"
            f"{float(m['confidence']):.3f}\t{m['rule']}\n"
        )
    return "".join(lines)


def _text_output(docs: Iterable[tuple[str, list[dict[str, object]]]], fmt: str) -> str:
    if fmt == "json":
        payload = [{"document": name, "mentions": mentions} for name, mentions in docs]
        return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    return TSV_HEADER + "".join(_tsv_rows(name, mentions) for name, mentions in docs)


def ner_processor(
    abbreviation_window: int = 0, nonchemical_veto: str = "rules", max_chars: int = MAX_CHARS
):
    """Scale worker factory: Document -> the same Document with its records in meta["ner"]."""
    nlp = build_nlp(abbreviation_window, nonchemical_veto, max_chars)

    def process(doc: Document) -> Document:
        doc.meta["ner"] = ner_document(nlp, doc.text)
        return doc

    return process


def _name(doc: Document) -> str:
    """The document's file (or id), as text (see :func:`~chemie.formats.file_name_text`)."""
    return file_name_text(str(doc.meta.get("source", doc.id)))


def tsv_block(doc: Document) -> str:
    """Scale formatter: the TSV rows of one document."""
    return _tsv_rows(_name(doc), doc.meta.get("ner", []))  # type: ignore[arg-type]


def json_line(doc: Document) -> str:
    """Scale formatter: one JSON line ``{"document", "mentions"}``."""
    return json.dumps({"document": _name(doc), "mentions": doc.meta.get("ner", [])},
                      ensure_ascii=False)


def table_document(doc: Document) -> Document:
    """Scale formatter: the document named by its file, its records as Mentions (label:
    the CHEMDNER class), for :class:`~chemie.scale.sinks.TableSink`."""
    mentions = [
        Mention(f"T{i}", ((int(m["start"]), int(m["end"])),), str(m["class"]), str(m["text"]),
                str(m["rule"]), float(m["confidence"]))  # type: ignore[arg-type]
        for i, m in enumerate(doc.meta.get("ner", []), 1)  # type: ignore[arg-type]
    ]
    return Document(id=_name(doc), text=doc.text, mentions=mentions)


def chemdner_blocks(doc: Document) -> tuple[str, str]:
    """Scale formatter: the CEM and CDI rows of one abstract (``doc.text`` is the title, a
    newline and the abstract; ``doc.id`` the PMID)."""
    cut = doc.text.find("\n") + 1 if "\n" in doc.text else len(doc.text) + 1
    found = []
    for m in doc.meta.get("ner", []):  # type: ignore[union-attr]
        start, end = int(m["start"]), int(m["end"])
        part, base = ("T", 0) if start < cut else ("A", cut)
        found.append((part, start - base, end - base, str(m["text"]), float(m["confidence"])))
    cem = rank_cem(doc.id, [(p, a, b, c) for p, a, b, _, c in found])
    cdi = rank_cdi(doc.id, [(t, c) for _, _, _, t, c in found])
    return format_cem(cem), format_cdi(cdi)


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


def run_scaled(args: argparse.Namespace) -> int:
    """Plain-text documents (files or folders of .txt) streamed through chemie.scale:
    TSV, JSON lines with ``--format json`` or a mention table with ``--format csv|parquet``;
    bad documents go to ``OUT.errors.tsv``."""
    fmt = {"tsv": "tsv_block", "json": "json_line"}.get(args.format, "table_document")
    job = Job("chemie.commands.ner:ner_processor", f"chemie.commands.ner:{fmt}", _options(args))
    if args.format in TABLES:
        if args.output is None:
            raise InputError(None, None, f"--format {args.format} needs an output: -o OUT")
        sink: Sink = TableSink(args.output, args.format, ("mentions",))
    elif args.output is None:
        sink = StdoutSink()
    elif args.format == "tsv":
        sink = BlockSink(args.output, TSV_HEADER)
    else:
        sink = JsonlSink(args.output, "document", item_key=lambda item: item.path)
    inputs = list(args.inputs)
    return execute(args, job, inputs, sink, _numbered(_text_items(inputs)))


def run_chemdner(args: argparse.Namespace) -> int:
    """CHEMDNER abstracts streamed one line at a time: ``PREFIX.cem.tsv`` and
    ``PREFIX.cdi.tsv`` per input, bad lines in ``PREFIX.errors.tsv``, the run goes on."""
    if len(args.inputs) > 1 and args.output is not None and not _is_folder(args.output):
        raise InputError(args.inputs[1], None, "CHEMDNER: give one input per output prefix "
                         "(or -o FOLDER/)")
    job = Job("chemie.commands.ner:ner_processor", "chemie.commands.ner:chemdner_blocks",
              _options(args))
    status = 0
    for path in args.inputs:
        cem, cdi = _chemdner_paths(args.output, path)
        prefix = Path(str(cem)[: -len(".cem.tsv")])
        items = _numbered(iter_abstract_items(path, args.max_chars))
        status = max(status, execute(args, job, [path], PairSink(cem, cdi), items, prefix))
    return status


def _is_folder(output: Path) -> bool:
    return output.is_dir() or str(output).endswith(("/", "\\"))


def _chemdner_paths(output: Path | None, source: Path) -> tuple[Path, Path]:
    if output is None:
        prefix = source.with_suffix("")
    elif _is_folder(output):
        prefix = output / source.stem
    else:
        prefix = output
    return Path(f"{prefix}.cem.tsv"), Path(f"{prefix}.cdi.tsv")


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
        raise InputError(path, None, "JSON lines (ChEMU-Ref?) are not an input of chemie ner: "
                         "`chemie run FILE --format json` gives the mentions with their rules "
                         "(--input-format text reads the file as plain text)")
    return detect_format(path, head)


def written_files(args: argparse.Namespace, kind: str) -> list[Path]:
    """The files ``chemie ner`` writes for inputs of ``kind`` (with their errors files)."""
    if kind == "chemdner":
        prefixes = [
            Path(str(_chemdner_paths(args.output, p)[0])[: -len(".cem.tsv")])
            for p in args.inputs
        ]
        return [Path(f"{prefix}{end}") for prefix in prefixes
                for end in (".cem.tsv", ".cdi.tsv", ".errors.tsv")]
    if args.output is None:
        return []
    if args.format in TABLES:
        from chemie.formats.tabular import table_paths  # pandas and pyarrow: only for tables

        return [table_paths(args.output, args.format)["mentions"], errors_path(args.output)]
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
    if args.format in TABLES and kind != "text":
        raise InputError(args.inputs[0], None, f"--format {args.format} is for text input "
                         f"(this is {kind}): use --format tsv or json")
    make_output_folder(args, kind == "chemdner" or args.format in TABLES, "this output")
    refuse_overwrite(written_files(args, kind), args.inputs)
    if kind == "chemdner":
        return run_chemdner(args)
    scaled = args.workers or args.resume or args.engine or args.scheduler
    streamed = scaled or args.format in TABLES or len(args.inputs) > 1
    if kind == "text" and (streamed or args.inputs[0].is_dir()):
        return run_scaled(args)
    if kind == "iob" and scaled:
        print("chemie: note: IOB input is tagged in this process; --workers, --resume, "
              "--engine and --scheduler are ignored", file=sys.stderr)
    window = args.abbreviation_window
    if kind == "iob":
        if len(args.inputs) > 1 and args.output is not None:
            raise InputError(args.inputs[1], None, "IOB: give one input per output file")
        nlp = build_nlp(window if window is not None else DEFAULT_IOB_WINDOW, args.nonchemical_veto)
        ner = nlp.get_pipe("chemie_ner")
        sentences = [read_iob(path) for path in args.inputs]
        for path, one in zip(args.inputs, sentences, strict=True):
            check_sentences(one, path, args.max_chars)
        tagged = [tag_iob(ner, one) for one in sentences]
        emit("\n".join(format_iob(t) for t in tagged), args.output)
        return 0
    path = args.inputs[0]
    text = read_document(path, args.max_chars)
    if not text.strip():
        print(f"chemie: {path}: warning: empty document: empty result", file=sys.stderr)
        docs = [(str(path), [])]
    else:
        nlp = build_nlp(window or 0, args.nonchemical_veto, args.max_chars)
        docs = [(str(path), ner_document(nlp, text))]
    emit(_text_output(docs, args.format), args.output)
    return 0
