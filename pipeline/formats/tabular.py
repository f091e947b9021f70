"""Tabular exports: one row per mention and one per relation, as CSV or Parquet.

Output location (``out``) for ``fmt`` in ``{"csv", "parquet"}``:

- an existing folder, or a path ending in ``/``: ``OUT/mentions.EXT`` and ``OUT/relations.EXT``;
- otherwise a prefix (a trailing ``.csv``/``.parquet`` is dropped):
  ``OUT.mentions.EXT`` and ``OUT.relations.EXT``.

Mention columns: ``doc_id, mention_id, start, end, spans, text, label, kind,
chemdner_class, rule, confidence`` (``spans`` is every range as ``"a-b;c-d"``, end exclusive).
Relation columns: ``doc_id, relation_id, label``, then ``head_*`` (the anaphor, or first
argument) and ``tail_*`` (the antecedent, or second argument) with ``id, start, end, spans,
text, kind``, then ``rule, confidence``. Both files are written atomically: nothing appears
under the final names until :meth:`TableWriter.close` succeeds.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from chemie.errors import atomic_write
from chemie.model import Document, Mention, Range

PathLike = str | os.PathLike[str]
FORMATS = ("csv", "parquet")

# CHEMDNER mention classes (the CEM annotation guidelines).
CHEMDNER_CLASSES = frozenset(
    {"ABBREVIATION", "FAMILY", "FORMULA", "IDENTIFIER", "MULTIPLE", "SYSTEMATIC", "TRIVIAL",
     "NO CLASS"}
)

_STR, _INT, _FLOAT = pa.string(), pa.int64(), pa.float64()
MENTION_SCHEMA = pa.schema(
    [
        ("doc_id", _STR), ("mention_id", _STR), ("start", _INT), ("end", _INT),
        ("spans", _STR), ("text", _STR), ("label", _STR), ("kind", _STR),
        ("chemdner_class", _STR), ("rule", _STR), ("confidence", _FLOAT),
    ]
)
_ARG = [("id", _STR), ("start", _INT), ("end", _INT), ("spans", _STR), ("text", _STR),
        ("kind", _STR)]
RELATION_SCHEMA = pa.schema(
    [("doc_id", _STR), ("relation_id", _STR), ("label", _STR)]
    + [(f"head_{n}", t) for n, t in _ARG]
    + [(f"tail_{n}", t) for n, t in _ARG]
    + [("rule", _STR), ("confidence", _FLOAT)]
)
_CONVERT = {_INT: int, _FLOAT: float}
SCHEMAS = {"mentions": MENTION_SCHEMA, "relations": RELATION_SCHEMA}


def format_spans(spans: Iterable[Range]) -> str:
    """``((0, 5), (9, 12))`` -> ``"0-5;9-12"``."""
    return ";".join(f"{a}-{b}" for a, b in spans)


def parse_spans(text: str) -> tuple[Range, ...]:
    """Inverse of :func:`format_spans`."""
    return tuple(
        (int(a), int(b)) for a, b in (piece.split("-") for piece in text.split(";") if piece)
    )


def chemdner_class(mention: Mention) -> str | None:
    """The mention's CHEMDNER class: ``attrs["chemdner_class"]``/``["chemdner"]``/``["class"]``,
    or its label when the label is a CHEMDNER class."""
    for key in ("chemdner_class", "chemdner", "class"):
        value = mention.attrs.get(key)
        if isinstance(value, str) and value:
            return value
    return mention.label if mention.label in CHEMDNER_CLASSES else None


def _kind(mention: Mention) -> str | None:
    kind = mention.attrs.get("kind")
    return str(kind) if kind is not None else None


def _text(doc: Document, mention: Mention) -> str:
    return mention.text or doc.span_text(mention.spans)


def mention_rows(doc: Document) -> list[dict]:
    """One dict per mention of ``doc`` (columns of :data:`MENTION_SCHEMA`)."""
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
    """One dict per relation of ``doc`` (columns of :data:`RELATION_SCHEMA`)."""
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


def _frame(rows: list[dict], schema: pa.Schema) -> pd.DataFrame:
    return pa.Table.from_pylist(rows, schema=schema).to_pandas()


def frames(docs: Iterable[Document]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(mentions, relations)`` data frames for ``docs``."""
    mentions: list[dict] = []
    relations: list[dict] = []
    for doc in docs:
        mentions.extend(mention_rows(doc))
        relations.extend(relation_rows(doc))
    return _frame(mentions, MENTION_SCHEMA), _frame(relations, RELATION_SCHEMA)


def table_paths(out: PathLike, fmt: str = "csv") -> dict[str, Path]:
    """Where :class:`TableWriter` writes: ``{"mentions": path, "relations": path}``."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown table format {fmt!r} (expected one of {', '.join(FORMATS)})")
    text = os.fspath(out)
    p = Path(text)
    if p.is_dir() or text.endswith(("/", os.sep)):
        return {name: p / f"{name}.{fmt}" for name in SCHEMAS}
    if p.suffix.lower() in {".csv", ".parquet"}:
        p = p.with_suffix("")
    return {name: p.with_name(f"{p.name}.{name}.{fmt}") for name in SCHEMAS}


def csv_header(name: str) -> str:
    """The header line of table ``name`` (``mentions`` or ``relations``) as CSV."""
    return ",".join(SCHEMAS[name].names) + "\n"


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


def ipc_block(rows: list[dict], name: str) -> bytes:
    """``rows`` of table ``name`` as one Arrow IPC record-batch message (no schema message);
    consecutive blocks form a stream :func:`ipc_to_parquet` reads."""
    if not rows:
        return b""
    batch = pa.RecordBatch.from_pylist(rows, schema=SCHEMAS[name])
    return batch.serialize().to_pybytes()


_GROUP_BATCHES = 4096  # documents per Parquet row group when converting record batches


def ipc_to_parquet(src: Path, dest: Path, name: str) -> None:
    """Write the record batches of ``src`` (:func:`ipc_block` messages) as the Parquet table
    ``name`` at ``dest``, atomically."""
    schema = SCHEMAS[name]
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


def parquet_to_ipc(src: Path, dest: Path, name: str) -> int:
    """The rows of the Parquet table ``src`` as one :func:`ipc_block` at ``dest``; its size."""
    rows = pq.read_table(src, schema=SCHEMAS[name]).to_pylist()
    data = ipc_block(rows, name)
    with atomic_write(dest, "wb") as fh:
        fh.write(data)
    return len(data)


class TableWriter:
    """Streams mention and relation rows to two files; ``close()`` renames them into place.

    Use as a context manager; on an exception both temporary files are removed and
    nothing is written under the final names::

        with TableWriter("out/run", "parquet") as w:
            for batch in batches:
                w.write(batch)
    """

    def __init__(
        self, out: PathLike, fmt: str = "csv", tables: Iterable[str] = tuple(SCHEMAS)
    ):
        """``tables``: which of ``mentions`` and ``relations`` to write (default: both)."""
        self.fmt = fmt
        self.paths = {n: p for n, p in table_paths(out, fmt).items() if n in set(tables)}
        self.counts = {name: 0 for name in SCHEMAS}
        self._stack = contextlib.ExitStack()
        self._sinks: dict[str, object] = {}
        try:
            for name, path in self.paths.items():
                fh = self._stack.enter_context(atomic_write(path, "w" if fmt == "csv" else "wb"))
                self._sinks[name] = self._open(fh, SCHEMAS[name])
        except BaseException as e:
            self._stack.__exit__(type(e), e, e.__traceback__)
            raise

    def _open(self, fh, schema: pa.Schema) -> object:
        if self.fmt == "csv":
            fh.write(",".join(schema.names) + "\n")
            return fh
        writer = pq.ParquetWriter(fh, schema)
        self._stack.callback(writer.close)
        return writer

    def _write(self, name: str, rows: list[dict]) -> None:
        if not rows:
            return
        sink = self._sinks[name]
        if self.fmt == "csv":
            sink.write(_csv_lines(rows, SCHEMAS[name].names))  # type: ignore[attr-defined]
        else:
            sink.write_table(pa.Table.from_pylist(rows, schema=SCHEMAS[name]))  # type: ignore[attr-defined]
        self.counts[name] += len(rows)

    def write(self, docs: Iterable[Document]) -> None:
        """Append the rows of a batch of documents."""
        for doc in docs:
            if "mentions" in self._sinks:
                self._write("mentions", mention_rows(doc))
            if "relations" in self._sinks:
                self._write("relations", relation_rows(doc))

    def close(self) -> None:
        """Finish both files and move them into place."""
        self._stack.close()

    def abort(self, exc: BaseException | None = None) -> None:
        """Discard both temporary files."""
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


def write_tables(docs: Iterable[Document], out: PathLike, fmt: str = "csv") -> dict[str, Path]:
    """Write the mention and relation tables of ``docs``; returns the two paths."""
    with TableWriter(out, fmt) as writer:
        writer.write(docs)
    return writer.paths


def read_tables(out: PathLike, fmt: str = "csv") -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read back what :func:`write_tables` wrote, with the same dtypes as :func:`frames`."""
    result = []
    for name, path in table_paths(out, fmt).items():
        schema = SCHEMAS[name]
        if fmt == "parquet":
            result.append(pq.read_table(path, schema=schema).to_pandas())
            continue
        raw = pd.read_csv(path, dtype=str, keep_default_na=False)
        convert = {f.name: _CONVERT.get(f.type, str) for f in schema}
        rows = [
            {k: None if v == "" else convert[k](v) for k, v in row.items()}
            for row in raw.to_dict("records")
        ]
        result.append(_frame(rows, schema))
    return result[0], result[1]
