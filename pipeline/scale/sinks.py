"""Streaming sinks: formatted documents written in input order, resumable, never half-written.

Formatting (:data:`FORMATTERS`) happens in the workers; a sink only writes:

- :class:`JsonlSink` (ChEMU-Ref jsonl or full JSON): complete lines appended to
  ``OUT.partial`` and fsync'd after every batch, renamed to ``OUT`` when the run completes.
  Resuming reads the keys of the complete lines already in ``OUT.partial``.
- :class:`BlockSink`: text (or bytes) blocks (e.g. TSV rows) after a header, with a journal of the
  documents complete, so documents with no rows resume too.
- :class:`BratSink`: ``KEY.txt`` then ``KEY.ann`` per document, each renamed into place
  complete (synced once per batch), so an existing ``.ann`` means the document is complete
  (resume skips it).
- :class:`TableSink`: mention and relation tables (CSV/Parquet): block sinks in step, resumable.
- :class:`StdoutSink`: the readable rendering, printed.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import sys
from collections import Counter
from collections.abc import Callable
from json.encoder import encode_basestring
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING

from chemie.errors import InputError
from chemie.model import Document, Token

if TYPE_CHECKING:
    from chemie.scale.sources import Item
    from chemie.scale.worker import Outcome


def _fields(obj: object) -> object:
    """A dataclass instance as a dict of its fields, for :func:`json.dumps` (``default``):
    the encoder recurses into the values itself, so this gives the JSON of
    ``dataclasses.asdict`` without its deep copy (10x cheaper); anything else: ``str``."""
    names = _FIELD_NAMES.get(type(obj))
    if names is None:
        if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
            return str(obj)
        names = _FIELD_NAMES[type(obj)] = tuple(f.name for f in dataclasses.fields(obj))
    return {name: getattr(obj, name) for name in names}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_TEXT, _START, _END = attrgetter("text"), attrgetter("start"), attrgetter("end")


_TOKEN_JSON = '{{"text": {}, "start": {}, "end": {}}}'.format  # as json.dumps writes a token


def _tokens_json(tokens: list[Token]) -> str:
    """``json.dumps`` of the tokens as ``{"text", "start", "end"}`` objects (``ensure_ascii``
    off), written by C-level maps: twice as fast as encoding a dict per token."""
    texts = map(encode_basestring, map(_TEXT, tokens))
    return f"[{', '.join(map(_TOKEN_JSON, texts, map(_START, tokens), map(_END, tokens)))}]"


def document_json(doc: Document) -> str:
    """Everything known about ``doc`` as one line of JSON (mentions and links with rule names)."""
    out = {
        "id": doc.id,
        "text": doc.text,
        "tokens": None,  # written by _tokens_json below
        "sentences": doc.sentences,
        "mentions": doc.mentions,
        "relations": doc.relations,
    }
    meta = {k: v for k, v in doc.meta.items() if k != "sentences"}
    if "actions" in meta:
        meta["actions"] = [_fields(a) for a in meta["actions"]]  # type: ignore[union-attr]
    # no cycle check: Documents hold trees of plain values (a cycle would fail either way)
    head, _, rest = json.dumps(
        out, ensure_ascii=False, default=_fields, check_circular=False
    ).partition('"tokens": null')
    # meta's other values are written with ``str`` (not as dataclasses): encoded on their own
    meta_json = json.dumps(meta, ensure_ascii=False, default=str, check_circular=False)
    return f'{head}"tokens": {_tokens_json(doc.tokens)}{rest[:-1]}, "meta": {meta_json}}}'


def _chemu(doc: Document) -> str:
    from chemie.formats.chemu import format_chemu_doc

    return format_chemu_doc(doc)


def _brat(doc: Document) -> tuple[str, str]:
    from chemie.formats.brat import format_ann

    return doc.text, format_ann(doc)


def _chemu2020(doc: Document) -> tuple[str, str]:
    from chemie.formats.chemu2020 import roles_payload

    return roles_payload(doc)


def _describe(doc: Document) -> str:
    from chemie.nlp import describe

    return describe(doc)


def _document(doc: Document) -> Document:
    return doc


def formatter(fmt: str) -> Callable[[Document], object]:
    """The payload function of an output format: a name in :data:`FORMATTERS`, or
    ``"module:function"``."""
    if fmt in FORMATTERS:
        return FORMATTERS[fmt]
    module, _, name = fmt.partition(":")
    return getattr(importlib.import_module(module), name)


# output format -> the worker-side function that turns an annotated Document into a payload
FORMATTERS: dict[str, Callable[[Document], object]] = {
    "chemu": _chemu,
    "json": document_json,
    "brat": _brat,
    "chemu2020": _chemu2020,
    "describe": _describe,
    "csv": _document,
    "parquet": _document,
}


def errors_path(out: Path) -> Path:
    """Where the errors of a run writing to ``out`` are listed: ``OUT.errors.tsv`` beside it;
    a table prefix drops its ``.csv``/``.parquet`` like the tables do (``pre.csv`` ->
    ``pre.errors.tsv`` beside ``pre.mentions.csv``)."""
    name = out.name.rstrip("/")
    if Path(name).suffix.lower() in {".csv", ".parquet"}:
        name = Path(name).stem
    return out.with_name(name + ".errors.tsv")


class Sink:
    """Base class: open (maybe resuming), skip done items, write outcomes, close or abort."""

    resumable = False

    def open(self, resume: bool) -> None:
        """Prepare the output; with ``resume`` keep what an interrupted run completed."""

    def done(self, item: Item) -> bool:
        """True when ``item`` is already complete in the output (only after a resume)."""
        return False

    def write(self, outcome: Outcome) -> None:
        """Write one document's payload (ValueError when it cannot be written)."""
        raise NotImplementedError

    def flush(self) -> None:
        """Make everything written so far durable (called after each batch)."""

    def close(self) -> None:
        """The run completed: move the output into place."""

    def abort(self) -> None:
        """The run stopped early: keep what is complete so ``--resume`` can continue."""

    def discard(self) -> None:
        """The run did nothing (every document failed, or it broke down before the first
        one): remove what :meth:`open` created and leave any earlier output untouched."""
        self.abort()


def not_resumable(path: Path, line: int | None) -> InputError:
    """The error of a partial output that this run cannot continue."""
    return InputError(path, line, "not a line of an interrupted chemie run: cannot --resume "
                      "from it (remove it, or run without --resume)")


def claim(written: set[str], key: str | None) -> None:
    """Note that document ``key`` is written; ValueError (the document fails) when one with
    the same id was already written in this run."""
    if key in written:
        raise ValueError(f"document id {key!r} already written in this run")
    written.add(key)  # type: ignore[arg-type]


class JsonlSink(Sink):
    """One JSON line per document, appended to ``OUT.partial`` and renamed to ``OUT`` at the end.

    ``key_field`` names the field holding the document key (``doc_key`` for ChEMU-Ref);
    ``item_key`` gives the same key for an input item (to skip it on ``--resume``);
    with ``unique`` a second document with the same key in one run fails.
    """

    resumable = True

    def __init__(
        self, path: Path, key_field: str = "doc_key",
        item_key: Callable[[Item], str | None] = lambda item: item.key, unique: bool = False,
    ):
        self.path = Path(path)
        self.unique = unique
        self.written: set[str] = set()
        self.item_key = item_key
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.key_field = key_field
        self.completed: Counter[str] = Counter()
        self.fh = None
        self.fresh = self.restored = False

    def _load_partial(self) -> None:
        """Drop a trailing incomplete line from the partial file and count its keys
        (InputError, the file untouched, when a line is not one this sink wrote)."""
        with open(self.partial, "rb+") as fh:
            data_end = 0
            for lineno, raw in enumerate(fh, 1):
                if not raw.endswith(b"\n"):
                    break
                try:
                    self.completed[str(json.loads(raw)[self.key_field])] += 1
                except (ValueError, KeyError, TypeError):
                    raise not_resumable(self.partial, lineno) from None
                data_end += len(raw)
            fh.truncate(data_end)

    def open(self, resume: bool) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if resume and not self.partial.exists() and self.path.exists():
            os.replace(self.path, self.partial)  # a finished output: resume adds nothing twice
            self.restored = True
        if resume and self.partial.exists():
            try:
                self._load_partial()
            except InputError as e:
                if self.restored:  # the finished output goes back as it was
                    os.replace(self.partial, self.path)
                    e = not_resumable(self.path, e.line)
                raise e from None
            self.fh = open(self.partial, "ab")
        else:
            self.fh = open(self.partial, "wb")
            self.fresh = True

    def done(self, item: Item) -> bool:
        key = self.item_key(item)
        if key is not None and self.completed[key] > 0:
            self.completed[key] -= 1
            if self.unique:
                self.written.add(key)
            return True
        return False

    def write(self, outcome: Outcome) -> None:
        if self.unique:
            claim(self.written, outcome.key)
        # a lone surrogate (a file name that is not UTF-8) as a \\udcNN escape: valid JSON
        self.fh.write(str(outcome.payload).encode("utf-8", "backslashreplace") + b"\n")

    def flush(self) -> None:
        self.fh.flush()
        os.fsync(self.fh.fileno())

    def close(self) -> None:
        self.flush()
        self.fh.close()
        os.replace(self.partial, self.path)

    def abort(self) -> None:
        if self.fh is not None and not self.fh.closed:
            self.flush()
            self.fh.close()

    def discard(self) -> None:
        self.abort()
        if self.restored:
            os.replace(self.partial, self.path)
        elif self.fresh:
            self.partial.unlink(missing_ok=True)


class BlockSink(Sink):
    """Text blocks (e.g. the TSV rows of one document) after a header, renamed at the end.

    A document may have no rows, so completion is journalled: after each block, the file
    size and the document key are appended to ``OUT.partial.done``. Resuming cuts the
    partial file back to the last journalled size and skips the journalled keys. A finished
    run keeps its journal as the hidden ``.OUT.done`` beside ``OUT``, so ``--resume`` on a
    finished output adds nothing twice.
    """

    resumable = True

    def __init__(self, path: Path, header: str = ""):
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.journal_path = self.path.with_name(self.path.name + ".partial.done")
        self.finished_journal = self.path.with_name(f".{self.path.name}.done")
        self.item_key: Callable[[Item], str | None] = lambda item: item.key
        self.header = header.encode("utf-8")
        self.completed: Counter[str] = Counter()
        self.fh = self.journal = None
        self.fresh = self.restored = False

    def _load_journal(self, limit: int | None) -> int:
        """Count the journalled keys (the first ``limit``); the size of the file they cover."""
        size = len(self.header)
        entries = []
        with open(self.journal_path, encoding="utf-8") as fh:
            for lineno, line in enumerate(fh, 1):
                if not line.endswith("\n") or (limit is not None and len(entries) >= limit):
                    break
                offset, tab, key = line[:-1].partition("\t")
                try:
                    if not (tab and offset.isdigit()):
                        raise ValueError
                    # a JSON string (any line break escaped); a bare key from older runs
                    self.completed[json.loads(key) if key.startswith('"') else key] += 1
                except ValueError:
                    raise not_resumable(self.journal_path, lineno) from None
                size = int(offset)
                entries.append(line)
        with open(self.journal_path, "w", encoding="utf-8") as fh:
            fh.writelines(entries)
        return size

    def open(self, resume: bool, limit: int | None = None) -> None:
        """See :meth:`Sink.open`; ``limit`` keeps at most that many journalled documents."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if (
            resume and not self.partial.exists() and self.path.exists()
            and self.finished_journal.exists()
        ):
            os.replace(self.path, self.partial)  # a finished output: resume adds nothing twice
            os.replace(self.finished_journal, self.journal_path)
            self.restored = True
        if resume and self.partial.exists() and self.journal_path.exists():
            try:
                size = self._load_journal(limit)
            except InputError:
                if self.restored:  # the finished output goes back as it was
                    os.replace(self.partial, self.path)
                    os.replace(self.journal_path, self.finished_journal)
                raise
            if os.path.getsize(self.partial) >= size:  # else lost in a crash: start over
                with open(self.partial, "rb+") as fh:
                    fh.truncate(size)
                self.fh = open(self.partial, "ab")
                self.journal = open(self.journal_path, "a", encoding="utf-8")
                return
            self.completed.clear()
        self.fh = open(self.partial, "wb")
        self.fh.write(self.header)
        self.fh.flush()  # a run killed before its first block leaves the header (resume)
        self.journal = open(self.journal_path, "w", encoding="utf-8")
        self.fresh = True

    unique = False  # read by the shared :meth:`JsonlSink.done`
    done = JsonlSink.done

    def write(self, outcome: Outcome) -> None:
        data = outcome.payload
        self.fh.write(
            data if isinstance(data, bytes) else str(data).encode("utf-8", "backslashreplace")
        )
        self.fh.flush()  # the block reaches the file before the journal names it
        self.journal.write(f"{self.fh.tell()}\t{json.dumps(outcome.key)}\n")
        self.journal.flush()

    def flush(self) -> None:
        for fh in (self.fh, self.journal):
            fh.flush()
            os.fsync(fh.fileno())

    def close(self) -> None:
        self.flush()
        self.fh.close()
        self.journal.close()
        os.replace(self.partial, self.path)
        os.replace(self.journal_path, self.finished_journal)

    def abort(self) -> None:
        for fh in (self.fh, self.journal):
            if fh is not None and not fh.closed:
                fh.flush()
                fh.close()

    def discard(self) -> None:
        self.abort()
        if self.restored:
            os.replace(self.partial, self.path)
            os.replace(self.journal_path, self.finished_journal)
        elif self.fresh:
            self.partial.unlink(missing_ok=True)
            self.journal_path.unlink(missing_ok=True)


class PairSink(Sink):
    """Two block files written in step (CHEMDNER CEM and CDI): each payload is a pair of
    blocks. The first file's block is journalled first, so on resume it is cut back to the
    documents the second one completed."""

    resumable = True

    def __init__(self, first: Path | BlockSink, second: Path | BlockSink):
        self.first, self.second = (
            p if isinstance(p, BlockSink) else BlockSink(p) for p in (first, second)
        )

    def open(self, resume: bool) -> None:
        self.second.open(resume)
        self.first.open(resume, limit=sum(self.second.completed.values()))
        self.first.completed.clear()

    def done(self, item: Item) -> bool:
        return self.second.done(item)

    def write(self, outcome: Outcome) -> None:
        one, two = outcome.payload  # type: ignore[misc]
        for sink, block in ((self.first, one), (self.second, two)):
            sink.write(dataclasses.replace(outcome, payload=block))

    def flush(self) -> None:
        self.first.flush()
        self.second.flush()

    def close(self) -> None:
        self.first.close()
        self.second.close()

    def abort(self) -> None:
        self.first.abort()
        self.second.abort()

    def discard(self) -> None:
        self.first.discard()
        self.second.discard()


def _replace(path: Path, text: str) -> None:
    """Write ``path`` through a temporary file renamed into place: a reader (or a resumed
    run) sees the old file or the complete new one, never a part. Made durable in batches
    by :meth:`BratSink.flush`, unlike :func:`chemie.errors.atomic_write` (an fsync each)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


class BratSink(Sink):
    """``KEY.txt`` and ``KEY.ann`` per document in a folder (KEY may contain subfolders)."""

    resumable = True

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.resume = False
        self.written: set[str] = set()

    def open(self, resume: bool) -> None:
        self.resume = resume  # folders are made by the first document written

    def _base(self, key: str | None) -> Path:
        parts = Path(key or "").parts
        if not parts or ".." in parts or Path(key or "").is_absolute():
            raise ValueError(f"document id {key!r} cannot be used as a file name")
        return self.folder.joinpath(*parts)

    def done(self, item: Item) -> bool:
        if not self.resume or item.key is None:
            return False
        try:
            return self._base(item.key + ".ann").exists()
        except ValueError:
            return False

    def write(self, outcome: Outcome) -> None:
        text, ann = outcome.payload  # type: ignore[misc]
        base = self._base(outcome.key)
        claim(self.written, outcome.key)
        base.parent.mkdir(parents=True, exist_ok=True)
        _replace(base.with_name(base.name + ".txt"), text)
        _replace(base.with_name(base.name + ".ann"), ann)

    def flush(self) -> None:
        os.sync()  # one sync per batch instead of an fsync per file (20x faster)


class TableSink(Sink):
    """Mention and relation tables (``csv`` or ``parquet``; ``tables`` says which), resumable.

    Each table is a :class:`BlockSink` of its rows, written in step like a :class:`PairSink`:
    CSV rows after the header; for Parquet, Arrow IPC record batches in ``TABLE.arrows``,
    converted to the Parquet table when the run completes (``--resume`` on a finished
    Parquet output converts it back first). A second document with the same id fails.
    """

    resumable = True

    def __init__(self, out: Path, fmt: str, tables: tuple[str, ...] = ("mentions", "relations")):
        from chemie.formats.tabular import csv_header, table_paths

        self.fmt = fmt
        self.paths = {n: p for n, p in table_paths(out, fmt).items() if n in tables}
        self.blocks = {
            n: BlockSink(p, csv_header(n)) if fmt == "csv" else BlockSink(self._arrows(p))
            for n, p in self.paths.items()
        }
        sinks = list(self.blocks.values())
        self.inner: Sink = PairSink(*sinks) if len(sinks) == 2 else sinks[0]
        self.written: set[str] = set()

    @staticmethod
    def _arrows(table: Path) -> Path:
        return table.with_name(table.name + ".arrows")

    def _restore_parquet(self) -> None:
        """A finished Parquet output about to be resumed: its rows back as record batches,
        every journalled document complete at the end of them."""
        from chemie.formats.tabular import parquet_to_ipc

        for name, block in self.blocks.items():
            if not (self.paths[name].exists() and block.finished_journal.exists()):
                return
        for name, block in self.blocks.items():
            if block.partial.exists() or block.path.exists():
                continue
            size = parquet_to_ipc(self.paths[name], block.path, name)
            keys = block.finished_journal.read_text(encoding="utf-8").splitlines()
            block.finished_journal.write_text(
                "".join(f"{size}\t{line.split(chr(9), 1)[1]}\n" for line in keys),
                encoding="utf-8",
            )

    def open(self, resume: bool) -> None:
        if resume and self.fmt == "parquet":
            self._restore_parquet()
        self.inner.open(resume)

    def done(self, item: Item) -> bool:
        if self.inner.done(item):
            self.written.add(item.key)  # type: ignore[arg-type]
            return True
        return False

    def write(self, outcome: Outcome) -> None:
        from chemie.formats.tabular import csv_block, ipc_block, mention_rows, relation_rows

        doc: Document = outcome.payload  # type: ignore[assignment]
        claim(self.written, doc.id)
        rows = {"mentions": mention_rows, "relations": relation_rows}
        blocks = [
            csv_block(rows[n](doc)) if self.fmt == "csv" else ipc_block(rows[n](doc), n)
            for n in self.blocks
        ]
        payload = tuple(blocks) if len(blocks) == 2 else blocks[0]
        self.inner.write(dataclasses.replace(outcome, payload=payload))

    def flush(self) -> None:
        self.inner.flush()

    def close(self) -> None:
        from chemie.formats.tabular import ipc_to_parquet

        self.inner.close()
        if self.fmt == "parquet":
            for name, block in self.blocks.items():
                ipc_to_parquet(block.path, self.paths[name], name)
                block.path.unlink()

    def abort(self) -> None:
        self.inner.abort()

    def discard(self) -> None:
        self.inner.discard()
        if self.fmt == "parquet":
            for block in self.blocks.values():
                block.path.unlink(missing_ok=True)  # a restored finished output stays as it was


class StdoutSink(Sink):
    """The readable rendering of each document, printed to standard output."""

    def write(self, outcome: Outcome) -> None:
        sys.stdout.write(str(outcome.payload) + "\n")

    def flush(self) -> None:
        sys.stdout.flush()


def make_sink(fmt: str, out: Path | None) -> Sink:
    """The sink for output format ``fmt`` writing to ``out`` (stdout when None)."""
    if out is None or fmt == "describe":
        return StdoutSink()
    if fmt in ("brat", "chemu2020"):
        return BratSink(out)
    if fmt in ("csv", "parquet"):
        return TableSink(out, fmt)
    if fmt == "json":
        return JsonlSink(out, "id", unique=True)
    return JsonlSink(out, "doc_key", unique=True)  # a repeated doc_key could not be scored
