"""``chemie ner INPUT... [-o OUTPUT]``: chemical mentions in text, CHEMDNER or IOB files.

- plain text (``.txt``): one document per file -> mentions as TSV or JSON (char offsets,
  text, CHEMDNER class, confidence, rule);
- CHEMDNER abstracts (``PMID<TAB>title<TAB>abstract``) -> ``PREFIX.cem.tsv`` and
  ``PREFIX.cdi.tsv`` (``-o PREFIX`` or ``-o FOLDER/``);
- IOB TSV -> the same tokens in the same order with predicted ``B-/I-Chemical`` tags.
- at scale (a folder input, or any of ``--workers --resume --engine --scheduler``): plain
  text documents streamed through ``chemie.scale``: TSV, or JSON lines with ``--format
  json``; bad documents listed in ``OUT.errors.tsv``, the run goes on.

The input format is detected from the extension and the first line; ``--input-format``
overrides it. Outputs are written atomically: a bad input leaves no half-written file.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from spacy.language import Language

from chemie.commands.run import add_scale_options, execute
from chemie.components.ner import ChemicalNER, find_in_sentences, mention_records
from chemie.errors import InputError, atomic_write, read_text
from chemie.formats.chemdner import (
    Abstract,
    format_cdi,
    format_cem,
    rank_cdi,
    rank_cem,
    read_abstracts,
)
from chemie.formats.iob import IOBSentence, format_iob, read_iob, spans_to_tags
from chemie.model import Document
from chemie.scale.sinks import BlockSink, JsonlSink, Sink, StdoutSink
from chemie.scale.worker import Job

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
    p.add_argument("-o", "--output", type=Path, help="output file (prefix or folder for CHEMDNER)")
    p.add_argument("--input-format", choices=FORMATS, default="auto")
    p.add_argument("--format", choices=("tsv", "json"), default="tsv", help="text output format")
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


def build_nlp(abbreviation_window: int = 0, nonchemical_veto: str = "rules") -> Language:
    """The chemie tokenizer, sentence segmenter and NER."""
    from chemie.language import blank

    nlp = blank()
    nlp.add_pipe(
        "chemie_ner",
        config={"abbreviation_window": abbreviation_window, "nonchemical_veto": nonchemical_veto},
    )
    return nlp


def ner_document(nlp: Language, text: str) -> list[dict[str, object]]:
    """Mention records (char offsets into ``text``) of one document."""
    return mention_records(nlp(text))


def ner_abstract(nlp: Language, abstract: Abstract) -> list[tuple[str, int, int, str, float]]:
    """``(part, start, end, text, confidence)`` for the title (T) and abstract (A), processed
    together so that abbreviations defined in one apply in the other."""
    joined = abstract.title + "\n" + abstract.abstract
    cut = len(abstract.title) + 1
    out = []
    for m in ner_document(nlp, joined):
        start, end = int(m["start"]), int(m["end"])
        part, base = ("T", 0) if start < cut else ("A", cut)
        out.append((part, start - base, end - base, str(m["text"]), float(m["confidence"])))
    return out


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


def ner_processor(abbreviation_window: int = 0, nonchemical_veto: str = "rules"):
    """Scale worker factory: Document -> the same Document with its records in meta["ner"]."""
    nlp = build_nlp(abbreviation_window, nonchemical_veto)

    def process(doc: Document) -> Document:
        doc.meta["ner"] = ner_document(nlp, doc.text)
        return doc

    return process


def _name(doc: Document) -> str:
    return str(doc.meta.get("source", doc.id))


def tsv_block(doc: Document) -> str:
    """Scale formatter: the TSV rows of one document."""
    return _tsv_rows(_name(doc), doc.meta.get("ner", []))  # type: ignore[arg-type]


def json_line(doc: Document) -> str:
    """Scale formatter: one JSON line ``{"document", "mentions"}``."""
    return json.dumps({"document": _name(doc), "mentions": doc.meta.get("ner", [])},
                      ensure_ascii=False)


def run_scaled(args: argparse.Namespace) -> int:
    """Plain-text documents (files or folders of .txt) streamed through chemie.scale:
    TSV, or JSON lines with ``--format json``; bad documents go to ``OUT.errors.tsv``."""
    options = (("abbreviation_window", args.abbreviation_window or 0),
               ("nonchemical_veto", args.nonchemical_veto))
    fmt = "tsv_block" if args.format == "tsv" else "json_line"
    job = Job("chemie.commands.ner:ner_processor", f"chemie.commands.ner:{fmt}", options)
    if args.output is None:
        sink: Sink = StdoutSink()
    elif args.format == "tsv":
        sink = BlockSink(args.output, TSV_HEADER)
    else:
        sink = JsonlSink(args.output, "document")
    return execute(args, job, list(args.inputs), sink)


def _emit(output: Path | None, text: str) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    with atomic_write(output) as fh:
        fh.write(text)


def _chemdner_paths(output: Path | None, source: Path) -> tuple[Path, Path]:
    if output is None:
        prefix = source.with_suffix("")
    elif output.is_dir() or str(output).endswith(("/", "\\")):
        prefix = output / source.stem
    else:
        prefix = output
    return Path(f"{prefix}.cem.tsv"), Path(f"{prefix}.cdi.tsv")


def run(args: argparse.Namespace) -> int:
    scaled = args.workers or args.resume or args.engine or args.scheduler
    if scaled or any(p.is_dir() for p in args.inputs):
        return run_scaled(args)
    texts = {}
    kinds = set()
    for path in args.inputs:
        text = read_text(path)
        if not text.strip():
            raise InputError(path, None, "empty file")
        kind = args.input_format if args.input_format != "auto" else detect_format(path, text)
        texts[path] = text
        kinds.add(kind)
    if len(kinds) > 1:
        raise InputError(args.inputs[-1], None, f"inputs mix formats: {', '.join(sorted(kinds))}")
    kind = kinds.pop()
    window = args.abbreviation_window
    if kind == "iob":
        if len(args.inputs) > 1 and args.output is not None:
            raise InputError(args.inputs[1], None, "IOB: give one input per output file")
        nlp = build_nlp(window if window is not None else DEFAULT_IOB_WINDOW, args.nonchemical_veto)
        ner = nlp.get_pipe("chemie_ner")
        tagged = [tag_iob(ner, read_iob(path)) for path in args.inputs]
        _emit(args.output, "\n".join(format_iob(t) for t in tagged))
        return 0
    nlp = build_nlp(window or 0, args.nonchemical_veto)
    if kind == "chemdner":
        abstracts = {path: read_abstracts(path) for path in args.inputs}
        for path, items in abstracts.items():
            cem, cdi = [], []
            for a in items:
                found = ner_abstract(nlp, a)
                cem.extend(rank_cem(a.pmid, [(p, s, e, c) for p, s, e, _, c in found]))
                cdi.extend(rank_cdi(a.pmid, [(t, c) for _, _, _, t, c in found]))
            cem_path, cdi_path = _chemdner_paths(args.output, path)
            cem_text, cdi_text = format_cem(cem), format_cdi(cdi)
            with atomic_write(cem_path) as fh:
                fh.write(cem_text)
            with atomic_write(cdi_path) as fh:
                fh.write(cdi_text)
        return 0
    docs = [(str(path), ner_document(nlp, texts[path])) for path in args.inputs]
    _emit(args.output, _text_output(docs, args.format))
    return 0
