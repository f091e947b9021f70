"""brat standoff: a folder of ``NAME.txt`` + ``NAME.ann`` pairs, one document each.

Read: text-bound annotations ``T3<TAB>LABEL 10 20;25 30<TAB>text`` (several ranges =
discontinuous), relations ``R1<TAB>LABEL Arg1:T5 Arg2:T2`` (Arg1 = anaphor, Arg2 =
antecedent; in ChEMU 2020 events ``ARG1``/``ARGM`` with Arg1 = trigger, Arg2 = argument;
each argument must be a T id of the document) and notes
``#1<TAB>AnnotatorNotes T3<TAB>note``. A note ``rule=NAME`` sets the ``rule`` of its
mention or relation, ``rule=NAME confidence=0.83`` (or ``confidence=0.83``
alone) its ``confidence`` too (the writer writes both for mentions and relations); other notes
on mentions go to their ``notes``.
E, A, N, M and ``*`` lines are tolerated and ignored. Tokens are the whitespace-separated
pieces of the text (brat has no tokenization); sentences are left to the pipeline.
Offsets index the characters of the ``.txt`` file as brat counts them: a byte-order mark
at its start is one character, read as a space.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from chemie.errors import InputError, atomic_write, read_text
from chemie.formats import file_name_text
from chemie.model import Document, Mention, Range, Relation, Token

PathLike = str | os.PathLike[str]
IGNORED_PREFIXES = ("E", "A", "N", "M", "*")
RULE_NOTE = "rule="
CONFIDENCE_NOTE = "confidence="
_RULE_CONFIDENCE = re.compile(r"(?:rule=(?P<rule>\S*))?(?: ?confidence=(?P<conf>\S+))?")
_OFFSETS = re.compile(r"(\d+) (\d+)")
_ID = {"T": re.compile(r"T\d+"), "R": re.compile(r"R\d+")}


def _norm(s: str) -> str:
    return " ".join(s.split())


def _parse_spans(offsets: str, text: str, where: tuple[Path, int], tid: str) -> tuple[Range, ...]:
    spans = []
    for piece in offsets.split(";"):
        m = _OFFSETS.fullmatch(piece.strip())
        if not m:
            raise InputError(*where, f"{tid}: bad offsets {offsets!r}, expected 'START END[;…]'")
        a, b = int(m.group(1)), int(m.group(2))
        if a > b:
            raise InputError(*where, f"{tid}: offsets {a} {b} are reversed (start after end)")
        if b > len(text):
            raise InputError(
                *where, f"{tid}: offsets {a} {b} outside the text ({len(text)} characters)"
            )
        spans.append((a, b))
    return tuple(spans)


def _rule_note(
    note: str, where: tuple[Path, int], target: str
) -> tuple[str | None, float | None] | None:
    """``(rule, confidence)`` of a rule note (``rule=NAME``, ``rule=NAME confidence=X`` or
    ``confidence=X``), None for any other note. A rule name with spaces is kept whole."""
    m = _RULE_CONFIDENCE.fullmatch(note)
    if m is None or not note:
        return (note[len(RULE_NOTE) :], None) if note.startswith(RULE_NOTE) else None
    conf = m.group("conf")
    if conf is None:
        return m.group("rule"), None
    try:
        value = float(conf)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise InputError(*where, f"{target}: confidence {conf!r} is not a number in [0, 1]")
    return m.group("rule"), value


def _new_doc(doc_id: str, text: str, path: Path, txt: Path) -> Document:
    """A document without annotations; its tokens are the whitespace-separated pieces."""
    doc = Document(id=file_name_text(doc_id), text=text)
    doc.tokens = [Token(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    doc.meta.update(format="brat", path=str(path), line=None, txt=str(txt))
    return doc


def _lines(files: Iterable[Path]) -> Iterator[tuple[tuple[Path, int], str]]:
    """The non-blank lines of the standoff ``files``, each with its file and line number."""
    for path in files:
        for lineno, raw in enumerate(read_text(path).split("\n"), 1):
            line = raw.rstrip("\r")
            if line.strip():
                yield (path, lineno), line


def _relation(ann_id: str, annotation: str, where: tuple[Path, int]) -> Relation:
    """The relation of an ``R`` line's annotation ``LABEL Arg1:ID Arg2:ID``."""
    label, *args = annotation.split()
    roles = dict(a.split(":", 1) for a in args if ":" in a)
    if len(args) != 2 or set(roles) != {"Arg1", "Arg2"} or not all(roles.values()):
        raise InputError(*where, f"{ann_id}: expected 'LABEL Arg1:ID Arg2:ID', got "
                         f"{annotation!r}")
    return Relation(label, roles["Arg1"], roles["Arg2"], id=ann_id)


def read_brat_pair(txt: PathLike, ann: PathLike, *more: PathLike) -> Document:
    """One document from a ``.txt`` file and its ``.ann`` standoff file; ``more``: further
    standoff files read as if appended to the ``.ann`` (e.g. ``R`` lines kept apart from
    a corpus's own ``.ann``), each error naming its own file and line."""
    txt, ann = Path(txt), Path(ann)
    text = read_text(txt, bom_as_space=True)
    doc = _new_doc(ann.stem, text, ann, txt)
    mentions: dict[str, Mention] = {}
    relations: dict[str, Relation] = {}
    pending: list[tuple[tuple[Path, int], str]] = []  # where, relation id
    notes: list[tuple[tuple[Path, int], str, str]] = []  # where, target id, note
    for where, line in _lines([ann, *map(Path, more)]):
        fields = line.split("\t", 2)
        ann_id = fields[0]
        if ann_id.startswith(IGNORED_PREFIXES):
            continue
        if len(fields) < 2 or not fields[1].strip():
            raise InputError(*where, f"malformed line {line[:60]!r}: expected ID<TAB>ANNOTATION")
        if ann_id in mentions or ann_id in relations:
            raise InputError(*where, f"{ann_id} is defined twice")
        if ann_id.startswith("T"):
            label, _, offsets = fields[1].partition(" ")
            spans = _parse_spans(offsets, text, where, ann_id)
            actual = doc.span_text(spans)
            if len(fields) > 2 and _norm(fields[2]) != _norm(actual):
                raise InputError(
                    *where,
                    f"{ann_id}: text {fields[2]!r} does not match the .txt at {offsets} "
                    f"({actual!r})",
                )
            mentions[ann_id] = Mention(ann_id, spans, label=label, text=actual)
        elif ann_id.startswith("R"):
            relations[ann_id] = _relation(ann_id, fields[1], where)
            pending.append((where, ann_id))
        elif ann_id.startswith("#"):
            parts = fields[1].split()
            if len(parts) != 2:
                raise InputError(*where, f"{ann_id}: expected 'AnnotatorNotes ID<TAB>note'")
            notes.append((where, parts[1], fields[2] if len(fields) > 2 else ""))
        else:
            raise InputError(*where, f"unknown annotation {ann_id!r}")
    for where, rid in pending:
        for arg in (relations[rid].head, relations[rid].tail):
            if arg not in mentions:
                raise InputError(*where, f"{rid}: argument {arg} is not a defined T id")
    for where, target, note in notes:
        item: Mention | Relation | None = mentions.get(target, relations.get(target))
        if item is None:
            if target.startswith(("T", "R")):
                raise InputError(*where, f"note on {target}, which is not defined")
            continue
        parsed = _rule_note(note, where, target)
        if parsed is not None:
            rule, conf = parsed
            item.rule = item.rule if rule is None else rule
            item.confidence = item.confidence if conf is None else conf
        elif isinstance(item, Mention):
            item.notes.append(note)
    doc.mentions = list(mentions.values())
    doc.relations = list(relations.values())
    return doc


def read_brat_dir(folder: PathLike) -> Iterator[Document]:
    """Documents of a brat folder, sorted by name, read lazily.

    A ``.txt`` without an ``.ann`` is a document without annotations; an ``.ann`` without
    its ``.txt`` is an error.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError(folder, None, "not a folder")
    names = sorted({p.stem for p in folder.iterdir() if p.suffix in (".txt", ".ann")})
    for name in names:
        txt, ann = folder / f"{name}.txt", folder / f"{name}.ann"
        if not txt.exists():
            raise InputError(ann, None, f"no matching text file {txt.name}")
        if ann.exists():
            yield read_brat_pair(txt, ann)
        else:
            yield _new_doc(name, read_text(txt, bom_as_space=True), txt, txt)


def _ids(items: list, prefix: str) -> list[str]:
    """Keep the items' ids when they are valid, unique brat ids; otherwise number them."""
    ids = [item.id for item in items]
    if len(set(ids)) == len(ids) and all(_ID[prefix].fullmatch(i) for i in ids):
        return ids
    return [f"{prefix}{i}" for i in range(1, len(items) + 1)]


def _one_line(s: str) -> str:
    return re.sub(r"[\t\r\n]", " ", s)


def _rule_confidence_note(rule: str | None, confidence: float | None) -> str:
    """``rule=NAME confidence=X`` (either part left out when unset; empty when both are)."""
    note = [RULE_NOTE + rule] if rule else []
    if confidence is not None:
        note.append(f"{CONFIDENCE_NOTE}{float(confidence)!r}")
    return " ".join(note)


def format_ann(doc: Document) -> str:
    """The ``.ann`` content for ``doc``: T lines, R lines, then rule/notes ``#`` lines."""
    t_ids = dict(zip((m.id for m in doc.mentions), _ids(doc.mentions, "T"), strict=True))
    r_ids = _ids(doc.relations, "R")
    lines, notes = [], []
    for m in doc.mentions:
        tid = t_ids[m.id]
        if not m.spans or any(not 0 <= a <= b <= len(doc.text) for a, b in m.spans):
            raise ValueError(f"document {doc.id}: mention {m.id} has spans outside the text")
        if not m.label or re.search(r"\s", m.label):
            raise ValueError(f"document {doc.id}: mention {m.id} label {m.label!r} is not a name")
        offsets = ";".join(f"{a} {b}" for a, b in m.spans)
        lines.append(f"{tid}\t{m.label} {offsets}\t{_one_line(doc.span_text(m.spans))}")
        if note := _rule_confidence_note(m.rule, m.confidence):
            notes.append((tid, note))
        notes.extend((tid, str(n)) for n in m.notes)
    for rel, rid in zip(doc.relations, r_ids, strict=True):
        for arg in (rel.head, rel.tail):
            if arg not in t_ids:
                raise ValueError(f"document {doc.id}: relation refers to unknown mention {arg}")
        lines.append(f"{rid}\t{rel.label} Arg1:{t_ids[rel.head]} Arg2:{t_ids[rel.tail]}")
        if note := _rule_confidence_note(rel.rule, rel.confidence):
            notes.append((rid, note))
    lines.extend(
        f"#{i}\tAnnotatorNotes {target}\t{_one_line(note)}"
        for i, (target, note) in enumerate(notes, 1)
    )
    return "".join(line + "\n" for line in lines)


def write_brat(doc: Document, folder: PathLike) -> tuple[Path, Path]:
    """Write ``FOLDER/ID.txt`` and ``FOLDER/ID.ann`` (each atomically); returns both paths."""
    if not doc.id or doc.id in (".", "..") or re.search(r"[/\\\x00]", doc.id):
        raise ValueError(f"document id {doc.id!r} cannot be used as a file name")
    folder = Path(folder)
    ann = format_ann(doc)
    txt_path, ann_path = folder / f"{doc.id}.txt", folder / f"{doc.id}.ann"
    with atomic_write(txt_path) as fh:
        fh.write(doc.text)
    with atomic_write(ann_path) as fh:
        fh.write(ann)
    return txt_path, ann_path
