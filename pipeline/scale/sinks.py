"""Streaming sinks: formatted documents written in input order, resumable, never half-written.

Formatting (an output format's formatter, :mod:`chemie.scale.outputs`) happens in the
workers; a sink only writes:

- :class:`JsonlSink` (ChEMU-Ref jsonl or full JSON): complete lines appended to
  ``OUT.partial`` and fsync'd after every batch, renamed to ``OUT`` when the run completes.
  Resuming reads the keys of the complete lines already in ``OUT.partial``.
- :class:`BlockSink`: text (or bytes) blocks (e.g. TSV rows) after a header, with a journal of the
  documents complete, so documents with no rows resume too.
- :class:`StepSink`: several block files written in step (CHEMDNER CEM and CDI).
- :class:`BratSink`: ``KEY.txt`` then ``KEY.ann`` per document, each renamed into place
  complete (synced once per batch), so an existing ``.ann`` means the document is complete
  (resume skips it).
- :class:`TableSink`: the tables of a tabular output (CSV/Parquet), block sinks in step,
  resumable.
- :class:`StdoutSink`: payloads printed (what :meth:`Sink.stdout` gives for a sink whose
  payloads can be printed).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from chemie.errors import InputError
from chemie.formats.tabular import (
    SUFFIXES,
    TABLES,
    Table,
    csv_block,
    ipc_block,
    ipc_to_parquet,
    parquet_to_ipc,
    table_paths,
)
from chemie.model import Document
from chemie.scale.outcome import Outcome
from chemie.scale.sources import Item


def errors_path(out: Path) -> Path:
    """Where the errors of a run writing to ``out`` are listed: ``OUT.errors.tsv`` beside it;
    a table prefix drops its ``.csv``/``.parquet`` like the tables do (``pre.csv`` ->
    ``pre.errors.tsv`` beside ``pre.mentions.csv``)."""
    name = out.name.rstrip("/")
    if Path(name).suffix.lower() in SUFFIXES:
        name = Path(name).stem
    return out.with_name(name + ".errors.tsv")


class Sink:
    """Base class: open (maybe resuming), skip done items, write outcomes, close or abort."""

    resumable = False

    @classmethod
    def stdout(cls, **options: object) -> Sink | None:
        """The sink printing what this one (made with ``options``) writes, or None when its
        output cannot be printed (a folder, tables)."""
        return None

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

    @classmethod
    def stdout(cls, **options: object) -> Sink | None:
        return StdoutSink()

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

    @classmethod
    def stdout(cls, header: str = "", **options: object) -> Sink | None:
        return StdoutSink(header, end="")

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


class StepSink(Sink):
    """Block files written in step (CHEMDNER CEM and CDI, the tables of a tabular output):
    each payload is a tuple of blocks, one per file. The blocks of a document are journalled
    in file order, so on resume every file is cut back to the documents the last one
    completed."""

    resumable = True

    def __init__(self, *parts: Path | BlockSink):
        self.parts = [p if isinstance(p, BlockSink) else BlockSink(p) for p in parts]

    def open(self, resume: bool) -> None:
        *first, last = self.parts
        last.open(resume)
        complete = sum(last.completed.values())
        for part in first:
            part.open(resume, limit=complete)
            part.completed.clear()

    def done(self, item: Item) -> bool:
        return self.parts[-1].done(item)

    def write(self, outcome: Outcome) -> None:
        blocks = tuple(outcome.payload)  # type: ignore[call-overload]
        if len(blocks) != len(self.parts):  # checked first: no file gets a block alone
            raise ValueError(f"expected {len(self.parts)} blocks, got {len(blocks)}")
        for part, block in zip(self.parts, blocks, strict=True):
            part.write(dataclasses.replace(outcome, payload=block))

    def flush(self) -> None:
        for part in self.parts:
            part.flush()

    def close(self) -> None:
        for part in self.parts:
            part.close()

    def abort(self) -> None:
        for part in self.parts:
            part.abort()

    def discard(self) -> None:
        for part in self.parts:
            part.discard()


class PrefixSink(StepSink):
    """Block files ``PREFIX`` + each of ``parts`` (``.cem.tsv``, ``.cdi.tsv``) written in step."""

    def __init__(self, prefix: Path, parts: Sequence[str]):
        super().__init__(*(Path(f"{prefix}{part}") for part in parts))


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
    """The tables of a tabular output (``csv`` or ``parquet``), resumable; each payload is
    the Document whose rows (:attr:`Table.rows`) are written.

    Each table is a :class:`BlockSink` of its rows, written in step by a :class:`StepSink`:
    CSV rows after the header; for Parquet, Arrow IPC record batches in ``TABLE.arrows``,
    converted to the Parquet file when the run completes (``--resume`` on a finished
    Parquet output converts it back first). A second document with the same id fails.
    """

    resumable = True

    def __init__(self, out: Path, fmt: str, tables: Sequence[Table] = TABLES):
        self.fmt = fmt
        self.tables = tuple(tables)
        self.paths = table_paths(out, fmt, self.tables)
        self.blocks = [
            BlockSink(self.paths[t.name], t.header()) if fmt == "csv"
            else BlockSink(self._arrows(self.paths[t.name]))
            for t in self.tables
        ]
        self.inner = StepSink(*self.blocks)
        self.written: set[str] = set()

    @staticmethod
    def _arrows(table: Path) -> Path:
        return table.with_name(table.name + ".arrows")

    def _restore_parquet(self) -> None:
        """A finished Parquet output about to be resumed: its rows back as record batches,
        every journalled document complete at the end of them."""
        pairs = list(zip(self.tables, self.blocks, strict=True))
        for table, block in pairs:
            if not (self.paths[table.name].exists() and block.finished_journal.exists()):
                return
        for table, block in pairs:
            if block.partial.exists() or block.path.exists():
                continue
            size = parquet_to_ipc(self.paths[table.name], block.path, table)
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
        doc: Document = outcome.payload  # type: ignore[assignment]
        claim(self.written, doc.id)
        blocks = tuple(
            csv_block(t.rows(doc)) if self.fmt == "csv" else ipc_block(t.rows(doc), t)
            for t in self.tables
        )
        self.inner.write(dataclasses.replace(outcome, payload=blocks))

    def flush(self) -> None:
        self.inner.flush()

    def close(self) -> None:
        self.inner.close()
        if self.fmt == "parquet":
            for table, block in zip(self.tables, self.blocks, strict=True):
                ipc_to_parquet(block.path, self.paths[table.name], table)
                block.path.unlink()

    def abort(self) -> None:
        self.inner.abort()

    def discard(self) -> None:
        self.inner.discard()
        if self.fmt == "parquet":
            for block in self.blocks:
                block.path.unlink(missing_ok=True)  # a restored finished output stays as it was


class StdoutSink(Sink):
    """Each payload printed to standard output, followed by ``end``, after ``header``
    (printed once, before the first payload or, for an empty result, at the end)."""

    def __init__(self, header: str = "", end: str = "\n"):
        self.header = header
        self.end = end

    @classmethod
    def stdout(cls, **options: object) -> Sink | None:
        return cls(**options)  # type: ignore[arg-type]

    def write(self, outcome: Outcome) -> None:
        sys.stdout.write(self.header + str(outcome.payload) + self.end)
        self.header = ""

    def close(self) -> None:
        sys.stdout.write(self.header)
        self.flush()

    def flush(self) -> None:
        sys.stdout.flush()
