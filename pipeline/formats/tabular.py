"""Tabular exports: one row per mention, one per relation and one per reaction role, as CSV
or Parquet.

A tabular output is a set of :class:`Table` s (name, typed columns, the rows of a document);
:data:`TABLES` are ``chemie run``'s mention, relation and role tables, and another output
declares its own. Output location (``out``) for ``fmt`` in ``{"csv", "parquet"}``:

- an existing folder, or a path ending in ``/``: ``OUT/mentions.EXT``, ``OUT/relations.EXT``
  and ``OUT/roles.EXT``;
- otherwise a prefix (a trailing ``.csv``/``.parquet`` is dropped):
  ``OUT.mentions.EXT``, ``OUT.relations.EXT`` and ``OUT.roles.EXT``.

CSV needs nothing more than chemie; Parquet needs pyarrow (``pip install 'chemie[parquet]'``),
imported only when Parquet is written or read.

Mention columns: ``doc_id, mention_id, start, end, spans, text, label, kind,
chemdner_class, rule, confidence`` (``spans`` is every range as ``"a-b;c-d"``, end exclusive).
Relation columns: ``doc_id, relation_id, label``, then ``head_*`` (the anaphor, or first
argument) and ``tail_*`` (the antecedent, or second argument) with ``id, start, end, spans,
text, kind``, then ``rule, confidence``. Role columns (the ChEMU 2020 labels of
``chemie_roles``, ``doc.roles``): ``doc_id, role_id, start, end, text, label, rule, args``
(``args``: for a trigger word, the ids of the roles it acts on, ``;`` between them). The
files are written atomically: nothing appears under the final names until
:meth:`TableWriter.close` succeeds.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from chemie.errors import atomic_write
from chemie.extras import require
from chemie.model import Document, Mention, Range

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

PathLike = str | os.PathLike[str]
FORMATS = ("csv", "parquet")
SUFFIXES = tuple(f".{fmt}" for fmt in FORMATS)  # dropped from a table prefix (``run.csv``)

# CHEMDNER mention classes (the CEM annotation guidelines).
CHEMDNER_CLASSES = frozenset(
    {"ABBREVIATION", "FAMILY", "FORMULA", "IDENTIFIER", "MULTIPLE", "SYSTEMATIC", "TRIVIAL",
     "NO CLASS"}
)


@dataclass(frozen=True)
class Table:
    """One table of a tabular output: its name (``OUT.NAME.csv``), its columns as
    ``(name, type)`` with type ``str``, ``int`` or ``float``, and the function giving the
    rows of one document (dicts with those keys)."""

    name: str
    columns: tuple[tuple[str, str], ...]
    rows: Callable[[Document], list[dict]]

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.columns]

    def header(self) -> str:
        """The CSV header line."""
        return ",".join(self.names) + "\n"

    def schema(self) -> pa.Schema:
        """The Arrow schema (needs the parquet extra)."""
        return _schema(self.columns)


@functools.cache
def _schema(columns: tuple[tuple[str, str], ...]) -> pa.Schema:
    pa = _arrow()
    types = {"str": pa.string(), "int": pa.int64(), "float": pa.float64()}
    return pa.schema([(name, types[kind]) for name, kind in columns])


def _arrow() -> Any:
    """pyarrow (installed by ``chemie[parquet]``)."""
    require("parquet", "Parquet output")
    import pyarrow

    return pyarrow


def _parquet() -> Any:
    _arrow()
    import pyarrow.parquet

    return pyarrow.parquet


def format_spans(spans: Iterable[Range]) -> str:
    """``((0, 5), (9, 12))`` -> ``"0-5;9-12"``."""
    return ";".join(f"{a}-{b}" for a, b in spans)


def parse_spans(text: str) -> tuple[Range, ...]:
    """Inverse of :func:`format_spans`."""
    return tuple(
        (int(a), int(b)) for a, b in (piece.split("-") for piece in text.split(";") if piece)
    )


def chemdner_class(mention: Mention) -> str | None:
    """The mention's CHEMDNER class: its ``chemdner_class``, or its label when the label is a
    CHEMDNER class."""
    if mention.chemdner_class:
        return mention.chemdner_class
    return mention.label if mention.label in CHEMDNER_CLASSES else None


def _kind(mention: Mention) -> str | None:
    return mention.kind or None


def _text(doc: Document, mention: Mention) -> str:
    return mention.text or doc.span_text(mention.spans)


def mention_rows(doc: Document) -> list[dict]:
    """One dict per mention of ``doc`` (columns of :data:`MENTIONS`)."""
    return [
        {
            "doc_id": doc.id,
            "mention_id": m.id,
            "start": m.start,
            "end": m.end,
            "spans": format_spans(m.spans),
            "text": _text(doc, m),
            "label": m.label,
            "kind": _kind(m),
            "chemdner_class": chemdner_class(m),
            "rule": m.rule,
            "confidence": m.confidence,
        }
        for m in doc.mentions
    ]


def _argument(doc: Document, index: dict[str, Mention], prefix: str, mid: str) -> dict:
    m = index.get(mid)
    if m is None:
        raise ValueError(f"document {doc.id}: relation refers to unknown mention {mid}")
    return {
        f"{prefix}_id": mid,
        f"{prefix}_start": m.start,
        f"{prefix}_end": m.end,
        f"{prefix}_spans": format_spans(m.spans),
        f"{prefix}_text": _text(doc, m),
        f"{prefix}_kind": _kind(m),
    }


def relation_rows(doc: Document) -> list[dict]:
    """One dict per relation of ``doc`` (columns of :data:`RELATIONS`)."""
    index = doc.mention_index()
    rows = []
    for r in doc.relations:
        row = {"doc_id": doc.id, "relation_id": r.id, "label": r.label}
        row.update(_argument(doc, index, "head", r.head))
        row.update(_argument(doc, index, "tail", r.tail))
        row["rule"] = r.rule
        row["confidence"] = r.confidence
        rows.append(row)
    return rows


_ARG = (("id", "str"), ("start", "int"), ("end", "int"), ("spans", "str"), ("text", "str"),
        ("kind", "str"))
MENTIONS = Table(
    "mentions",
    (("doc_id", "str"), ("mention_id", "str"), ("start", "int"), ("end", "int"),
     ("spans", "str"), ("text", "str"), ("label", "str"), ("kind", "str"),
     ("chemdner_class", "str"), ("rule", "str"), ("confidence", "float")),
    mention_rows,
)
RELATIONS = Table(
    "relations",
    (("doc_id", "str"), ("relation_id", "str"), ("label", "str"),
     *((f"head_{n}", t) for n, t in _ARG), *((f"tail_{n}", t) for n, t in _ARG),
     ("rule", "str"), ("confidence", "float")),
    relation_rows,
)


def role_rows(doc: Document) -> list[dict]:
    """One dict per ChEMU 2020 role of ``doc`` (columns of :data:`ROLES`)."""
    return [
        {"doc_id": doc.id, "role_id": r.id, "start": r.start, "end": r.end, "text": r.text,
         "label": r.label, "rule": r.rule, "args": ";".join(r.args) or None,
         "arg_rules": ";".join(r.arg_rules) or None}
        for r in doc.roles
    ]


ROLES = Table(
    "roles",
    (("doc_id", "str"), ("role_id", "str"), ("start", "int"), ("end", "int"), ("text", "str"),
     ("label", "str"), ("rule", "str"), ("args", "str"), ("arg_rules", "str")),
    role_rows,
)
TABLES = (MENTIONS, RELATIONS, ROLES)  # the tables of ``chemie run --format csv|parquet``


def _frame(rows: list[dict], table: Table) -> pd.DataFrame:
    """``rows`` as a data frame with the dtypes Arrow's ``to_pandas`` gives: pandas' string
    dtype, int64 (float64 when a value is missing), float64."""
    import pandas as pd

    text = pd.Series(["x"]).dtype  # the string dtype of this pandas (object before 3.0)
    columns = {}
    for name, kind in table.columns:
        values = [row[name] for row in rows]
        if kind == "str":
            columns[name] = pd.Series(values, dtype=text)
        else:
            exact = kind == "int" and None not in values
            columns[name] = pd.Series(values, dtype="int64" if exact else "float64")
    return pd.DataFrame(columns)


def frames(docs: Iterable[Document], tables: Sequence[Table] = TABLES) -> tuple[pd.DataFrame, ...]:
    """One data frame per table for ``docs`` (default: ``(mentions, relations, roles)``)."""
    docs = list(docs)
    return tuple(_frame([row for doc in docs for row in t.rows(doc)], t) for t in tables)


def table_paths(
    out: PathLike, fmt: str = "csv", tables: Sequence[Table] = TABLES
) -> dict[str, Path]:
    """Where :class:`TableWriter` writes: ``{"mentions": path, "relations": path, ...}``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown table format {fmt!r} (expected one of {', '.join(FORMATS)})")
    text = os.fspath(out)
    p = Path(text)
    if p.is_dir() or text.endswith(("/", os.sep)):
        return {t.name: p / f"{t.name}.{fmt}" for t in tables}
    if p.suffix.lower() in SUFFIXES:
        p = p.with_suffix("")
    return {t.name: p.with_name(f"{p.name}.{t.name}.{fmt}") for t in tables}


def csv_block(rows: list[dict]) -> str:
    """``rows`` as CSV lines without a header, exactly as :class:`TableWriter` writes them."""
    if not rows:
        return ""
    return _csv_lines(rows, list(rows[0]))


def _csv_lines(rows: list[dict], fieldnames: list[str]) -> str:
    """``rows`` as CSV lines ending in ``\\n``; a field holding a carriage return is quoted
    too (the csv module quotes only the characters of its line terminator)."""
    buf = io.StringIO()
    csv.DictWriter(buf, fieldnames=fieldnames, lineterminator="\n").writerows(rows)
    text = buf.getvalue()
    if "\r" not in text:
        return text
    lines = []
    for row in rows:  # rare: the row written with "\r\n" (quoting both), ended with "\n"
        one = io.StringIO()
        csv.DictWriter(one, fieldnames=fieldnames, lineterminator="\r\n").writerow(row)
        lines.append(one.getvalue()[:-2] + "\n")
    return "".join(lines)


def ipc_block(rows: list[dict], table: Table) -> bytes:
    """``rows`` of ``table`` as one Arrow IPC record-batch message (no schema message);
    consecutive blocks form a stream :func:`ipc_to_parquet` reads."""
    if not rows:
        return b""
    batch = _arrow().RecordBatch.from_pylist(rows, schema=table.schema())
    return batch.serialize().to_pybytes()


_GROUP_BATCHES = 4096  # documents per Parquet row group when converting record batches


def ipc_to_parquet(src: Path, dest: Path, table: Table) -> None:
    """Write the record batches of ``src`` (:func:`ipc_block` messages) as the Parquet file
    of ``table`` at ``dest``, atomically."""
    pa, pq, schema = _arrow(), _parquet(), table.schema()
    with pa.memory_map(os.fspath(src)) as source, atomic_write(dest, "wb") as fh:
        writer = pq.ParquetWriter(fh, schema)
        group: list[pa.RecordBatch] = []
        for message in pa.ipc.MessageReader.open_stream(source):
            group.append(pa.ipc.read_record_batch(message, schema))
            if len(group) == _GROUP_BATCHES:
                writer.write_table(pa.Table.from_batches(group, schema))
                group = []
        if group:
            writer.write_table(pa.Table.from_batches(group, schema))
        writer.close()


def parquet_to_ipc(src: Path, dest: Path, table: Table) -> int:
    """The rows of the Parquet file ``src`` as one :func:`ipc_block` at ``dest``; its size."""
    rows = _parquet().read_table(src, schema=table.schema()).to_pylist()
    data = ipc_block(rows, table)
    with atomic_write(dest, "wb") as fh:
        fh.write(data)
    return len(data)


class TableWriter:
    """Streams the rows of each table to its file; ``close()`` renames them into place.

    Use as a context manager; on an exception every temporary file is removed and
    nothing is written under the final names::

        with TableWriter("out/run", "parquet") as w:
            for batch in batches:
                w.write(batch)
    """

    def __init__(self, out: PathLike, fmt: str = "csv", tables: Sequence[Table] = TABLES):
        """``tables``: which tables to write (default: mentions, relations, roles)."""
        self.fmt = fmt
        self.tables = {t.name: t for t in tables}
        self.paths = table_paths(out, fmt, tables)
        self.counts = {name: 0 for name in self.tables}
        self._stack = contextlib.ExitStack()
        self._sinks: dict[str, object] = {}
        try:
            for name, path in self.paths.items():
                fh = self._stack.enter_context(atomic_write(path, "w" if fmt == "csv" else "wb"))
                self._sinks[name] = self._open(fh, self.tables[name])
        except BaseException as e:
            self._stack.__exit__(type(e), e, e.__traceback__)
            raise

    def _open(self, fh, table: Table) -> object:
        if self.fmt == "csv":
            fh.write(table.header())
            return fh
        writer = _parquet().ParquetWriter(fh, table.schema())
        self._stack.callback(writer.close)
        return writer

    def _write(self, table: Table, rows: list[dict]) -> None:
        if not rows:
            return
        sink = self._sinks[table.name]
        if self.fmt == "csv":
            sink.write(_csv_lines(rows, table.names))  # type: ignore[attr-defined]
        else:
            batch = _arrow().Table.from_pylist(rows, schema=table.schema())
            sink.write_table(batch)  # type: ignore[attr-defined]
        self.counts[table.name] += len(rows)

    def write(self, docs: Iterable[Document]) -> None:
        """Append the rows of a batch of documents."""
        for doc in docs:
            for table in self.tables.values():
                self._write(table, table.rows(doc))

    def close(self) -> None:
        """Finish every file and move it into place."""
        self._stack.close()

    def abort(self, exc: BaseException | None = None) -> None:
        """Discard every temporary file."""
        exc = exc or RuntimeError("table writer aborted")
        with contextlib.suppress(Exception):
            self._stack.__exit__(type(exc), exc, exc.__traceback__)

    def __enter__(self) -> TableWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc is None:
            self.close()
        else:
            self.abort(exc)


def write_tables(
    docs: Iterable[Document], out: PathLike, fmt: str = "csv", tables: Sequence[Table] = TABLES
) -> dict[str, Path]:
    """Write the tables of ``docs`` (default: mentions, relations, roles); returns their
    paths."""
    with TableWriter(out, fmt, tables) as writer:
        writer.write(docs)
    return writer.paths


_CONVERT = {"int": int, "float": float, "str": str}


def read_tables(
    out: PathLike, fmt: str = "csv", tables: Sequence[Table] = TABLES
) -> tuple[pd.DataFrame, ...]:
    """Read back what :func:`write_tables` wrote, with the same dtypes as :func:`frames`."""
    import pandas as pd

    result = []
    for table, path in zip(tables, table_paths(out, fmt, tables).values(), strict=True):
        if fmt == "parquet":
            result.append(_parquet().read_table(path, schema=table.schema()).to_pandas())
            continue
        raw = pd.read_csv(path, dtype=str, keep_default_na=False)
        convert = {name: _CONVERT[kind] for name, kind in table.columns}
        rows = [
            {k: None if v == "" else convert[k](v) for k, v in row.items()}
            for row in raw.to_dict("records")
        ]
        result.append(_frame(rows, table))
    return tuple(result)
