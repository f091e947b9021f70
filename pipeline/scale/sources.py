"""Lazy sources: input paths -> a stream of work items, one per document, never all in memory.

An :class:`Item` is small and picklable: a jsonl line's raw text, or the path of a ``.txt``
file. Workers turn it into a Document with :func:`read_item`, so a bad document (non-UTF-8,
malformed JSON, missing keys, longer than the size limit of :mod:`chemie.limits`) fails on
its own instead of stopping the run. A jsonl line too long to be read is an ``error`` item
made here, before the line is parsed or sent anywhere.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from chemie.errors import InputError
from chemie.formats import file_name_text
from chemie.formats.chemu import WARNINGS, head_key, parse_chemu_line
from chemie.formats.shapes import REACTION_RECORDS, unknown_input
from chemie.formats.uspto import is_uspto_object, parse_uspto_line
from chemie.limits import (
    MAX_CHARS,
    check_chars,
    line_cap,
    line_too_long,
    read_document,
    read_lines,
)
from chemie.model import Document

PathLike = str | os.PathLike[str]
INPUT_WARNINGS = WARNINGS  # doc.meta key: warnings about a document read from its input
UNREAD_SUFFIXES = (".jsonl", ".json")  # read when given by name, not in a folder


@dataclass(frozen=True)
class Item:
    """One document to process: where it comes from and what the worker needs to read it.

    ``kind`` is ``"jsonl"`` (``data`` is the raw line), ``"uspto"`` (``data`` is the raw line
    of a USPTO paragraph, :mod:`chemie.formats.uspto`), ``"txt"`` (``data`` is unused, the
    text is read from ``path``), ``"text"`` (``data`` is the text itself) or ``"error"``
    (``data`` is the message of a document that cannot be read at all).
    ``key`` identifies the document in the output (file name or doc id; None when unknown);
    ``n`` is its position in the whole input (1-based), the same in every run.
    """

    kind: str
    path: str
    line: int | None
    key: str | None
    data: str = ""
    n: int = 0

    @property
    def where(self) -> str:
        return self.path if self.line is None else f"{self.path}:{self.line}"


def input_kind(path: PathLike) -> str:
    """``"jsonl"`` for a ChEMU-Ref/jsonl file, ``"txt"`` for a text file or a folder of them."""
    p = Path(path)
    if not p.exists():
        raise InputError(p, None, "no such file or folder")
    if p.is_dir():
        return "txt"
    if p.suffix.lower() in (".jsonl", ".json"):
        return "jsonl"
    if p.suffix.lower() == ".txt":
        return "txt"
    raise InputError(p, None, unknown_input(p, ".txt, .jsonl or a folder of .txt"))


REACTION_RECORD_KEYS = frozenset(("doc_id", "products", "reactants"))
SHAPE_LINES = 100  # lines looked at for the shape of a JSON-lines file


def jsonl_shape(path: PathLike) -> str:
    """What a JSON-lines file holds, told by its first line that is a JSON object:
    ``"uspto"`` (USPTO paragraphs, or ``chemie run --format json`` output: an ``id`` and a
    ``text``, no tokens; :func:`chemie.formats.uspto.is_uspto_object`) or ``"jsonl"``
    (ChEMU-Ref: ``doc_key`` and ``sentences``; anything else is read so, and its reader
    says what is wrong). InputError, in one line, for a file of reaction records without
    text (``chemie reactions`` output, or reaction SMILES to score), naming the commands
    that read it."""
    with open(path, "rb") as fh:
        for _ in range(SHAPE_LINES):
            raw = fh.readline(line_cap(MAX_CHARS) or -1)
            if not raw:
                break
            try:
                obj = json.loads(raw)
            except ValueError:  # (JSONDecodeError, UnicodeDecodeError) the reader says so
                continue
            if not isinstance(obj, dict):
                continue
            if is_uspto_object(obj):
                return "uspto"
            if "sentences" not in obj and "text" not in obj and REACTION_RECORD_KEYS & set(obj):
                raise InputError(path, None, REACTION_RECORDS)
            return "jsonl"
    return "jsonl"


def _jsonl_key(line: str, field: str = "doc_key") -> str | None:
    """The ``doc_key`` (or another ``field``) of a jsonl line, or None when the line cannot
    be parsed."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not isinstance(obj, dict) or field not in obj:
        return None
    return str(obj[field])


def iter_jsonl_items(
    path: PathLike, *, keys: bool = False, max_chars: int | None = MAX_CHARS,
    shape: str | None = None,
) -> Iterator[Item]:
    """One item per non-blank line, read in binary and decoded line by line; of kind
    ``shape``, ``jsonl`` (ChEMU-Ref) or ``uspto`` (by default :func:`jsonl_shape` tells).

    A line that is not UTF-8, or longer than :func:`~chemie.limits.line_cap` bytes (not
    kept in memory), becomes an ``error`` item. With ``keys`` the ``doc_key`` (a
    paragraph's ``id``) is parsed here (needed to resume); otherwise workers find it.
    """
    p = Path(path)
    try:
        fh = open(p, "rb")
    except OSError as e:
        raise InputError(p, None, f"cannot open: {e.strerror}") from None
    cap = line_cap(max_chars)
    with fh:
        kind = shape or jsonl_shape(p)
        field = "id" if kind == "uspto" else "doc_key"
        for lineno, raw, size in read_lines(fh, cap):
            if cap is not None and size > cap:
                key = head_key(raw.decode("utf-8", "replace"))
                yield Item("error", str(p), lineno, key, line_too_long(size, max_chars or 0))
                continue
            try:
                line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
            except UnicodeDecodeError as e:
                message = f"not valid UTF-8 (byte 0x{raw[e.start]:02x})"
                yield Item("error", str(p), lineno, None, message)
                continue
            if line.strip():
                yield Item(kind, str(p), lineno, _jsonl_key(line, field) if keys else None, line)


def _txt_files(folder: Path) -> Iterator[Path]:
    """``.txt`` files under ``folder``, sorted, walked lazily folder by folder."""
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".txt"):
                yield Path(root) / name


def _orphan_anns(folder: Path) -> Iterator[Path]:
    """brat ``.ann`` files under ``folder`` without their ``.txt``."""
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        names = set(files)
        for name in sorted(files):
            if name.endswith(".ann") and name[:-4] + ".txt" not in names:
                yield Path(root) / name


def iter_txt_items(path: PathLike) -> Iterator[Item]:
    """A ``.txt`` file, or every ``.txt`` under a folder (plain or brat), keyed by relative path
    (see :func:`~chemie.formats.file_name_text`).

    An ``.ann`` without its ``.txt`` becomes an ``error`` item naming the ``.ann``.
    """
    p = Path(path)
    if p.is_file():
        yield Item("txt", str(p), None, file_name_text(p.stem))
        return
    for f in _txt_files(p):
        key = file_name_text(f.relative_to(p).with_suffix("").as_posix())
        yield Item("txt", str(f), None, key)
    for ann in _orphan_anns(p):
        key = file_name_text(ann.relative_to(p).with_suffix("").as_posix())
        yield Item("error", str(ann), None, key, "brat .ann file without its .txt")


def unread_files(folder: PathLike) -> Iterator[Path]:
    """Files under ``folder`` that a folder input does not read though chemie reads them
    when given by name (``.jsonl``, ``.json``), sorted."""
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            if name.lower().endswith(UNREAD_SUFFIXES):
                yield Path(root) / name


def iter_items(
    paths: Iterable[PathLike], *, keys: bool = False, max_chars: int | None = MAX_CHARS,
) -> Iterator[Item]:
    """Numbered items of every input path in order (:func:`input_kind` decides how each is
    read; a JSON-lines file of USPTO paragraphs gives ``uspto`` items). Every path is
    checked before the first item is produced."""
    kinds = [(path, input_kind(path)) for path in paths]
    shapes = {i: jsonl_shape(path) for i, (path, kind) in enumerate(kinds) if kind == "jsonl"}
    n = 0
    for i, (path, kind) in enumerate(kinds):
        if kind == "jsonl":
            items = iter_jsonl_items(path, keys=keys, max_chars=max_chars, shape=shapes[i])
        else:
            items = iter_txt_items(path)
        for item in items:
            n += 1
            yield replace(item, n=n)


def read_item(item: Item, max_chars: int | None = MAX_CHARS) -> Document:
    """The Document of an item, without annotations (InputError for a bad document or one
    longer than ``max_chars`` characters; warnings in ``doc.meta[INPUT_WARNINGS]``)."""
    if item.kind == "jsonl":
        # gold annotations of the input are not predictions: not made, not needed
        return parse_chemu_line(
            item.data, item.path, item.line, annotations=False, warn_pairs=True,
            max_chars=max_chars,
        )
    if item.kind == "uspto":
        return parse_uspto_line(item.data, item.path, item.line, max_chars)
    if item.kind == "txt":
        text = read_document(item.path, max_chars)
        return Document(id=item.key or Path(item.path).stem, text=text, meta={"source": item.path})
    if item.kind == "text":
        check_chars(len(item.data), max_chars, item.path, item.line)
        return Document(id=item.key or "doc", text=item.data)
    raise InputError(item.path, item.line, item.data, item.key)
