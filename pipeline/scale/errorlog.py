"""The errors file of a run: one TSV row per bad document, resumable like the output.

Columns: ``n, file, line, id, level, message``: ``n`` is the document's position in the
input (1-based), ``level`` is ``error`` (no output for the document) or ``warning`` (an empty
result was written). Rows are appended to ``PATH.partial`` and flushed with the output; the
file is renamed into place when the run ends, and only when some document failed (then
warnings are listed beside the errors; warnings alone are printed, not filed, and a stale
file from an earlier run is removed). When the run as a whole fails (nothing
written, the output is left as it was) the errors file is written only when the run had
several documents and there is none yet: an earlier one describes the earlier output,
which is untouched, so it is kept (the errors were printed). :attr:`ErrorLog.listed`
says whether the file now lists this run's bad documents. A resumed run keeps the
warnings of documents already written and reports the errors again, since those documents
are retried.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from chemie.errors import atomic_write

COLUMNS = ("n", "file", "line", "id", "level", "message")


def _cell(value: object) -> str:
    """One TSV cell: tabs and every kind of line break (``\\r``, U+2028 ...) as spaces."""
    return "" if value is None else " ".join(str(value).replace("\t", " ").splitlines())


def _in_order(rows: Iterable[str]) -> list[str]:
    """Rows sorted by document position, one per document (a resume may repeat one)."""
    by_n = {}
    for row in rows:
        by_n.setdefault(int(row.split("\t", 1)[0]), row)
    return [by_n[n] for n in sorted(by_n)]


class ErrorLog:
    """Collects errors and warnings; keeps counts and the first few one-line messages."""

    def __init__(self, path: Path | None, keep: int = 10):
        self.path = path
        self.partial = None if path is None else path.with_name(path.name + ".partial")
        self.keep = keep
        self.counts = {"error": 0, "warning": 0}
        self.first: list[str] = []
        self.resumed = False
        self._fh = None
        self._kept_partial = False
        self.listed = False  # the errors file in place lists this run's bad documents

    def open(self, resume: bool) -> None:
        """Start the log; with ``resume`` keep the warnings an interrupted run recorded."""
        if self.partial is None:
            return
        kept: list[str] = []
        previous = self.partial if self.partial.exists() else self.path
        self._kept_partial = resume and self.partial.exists()
        if resume and previous.exists():
            with open(previous, encoding="utf-8") as fh:
                kept = [
                    line for line in fh
                    if line.endswith("\n") and line.split("\t")[4:5] == ["warning"]
                ]
            self.resumed = True
        self.partial.parent.mkdir(parents=True, exist_ok=True)
        # a file name that is not UTF-8 is written with \\udcNN escapes, not a crash
        self._fh = open(self.partial, "w", encoding="utf-8", errors="backslashreplace")
        self._fh.writelines(kept)
        self.counts["warning"] = len(kept)

    def add(
        self, n: int, level: str, file: str, line: int | None, doc_id: str | None, message: str
    ) -> None:
        """Record one bad document."""
        self.counts[level] += 1
        if len(self.first) < self.keep:
            where = file if line is None else f"{file}:{line}"
            where = where.encode("utf-8", "backslashreplace").decode("utf-8")  # printable
            self.first.append(f"{where}: {message}" if level == "error" else
                              f"{where}: {level}: {message}")
        if self._fh is not None:
            row = (n, file, line, doc_id, level, message)
            self._fh.write("\t".join(_cell(v) for v in row) + "\n")
            self._fh.flush()  # before the document's output: a resume never loses a row

    @property
    def errors(self) -> int:
        return self.counts["error"]

    @property
    def warnings(self) -> int:
        return self.counts["warning"]

    def flush(self) -> None:
        if self._fh is not None:
            self._fh.flush()
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        """Write the final file (rows in input order) when some document failed, or remove
        a stale one if none did (warnings are not errors)."""
        if self._fh is None or self.path is None or self.partial is None:
            return
        self._fh.close()
        if not self.errors:
            os.unlink(self.partial)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.path)
            return
        with open(self.partial, encoding="utf-8") as fh, atomic_write(self.path) as out:
            out.write("\t".join(COLUMNS) + "\n")
            if self.resumed:
                out.writelines(_in_order(fh))
            else:
                shutil.copyfileobj(fh, out)
        os.unlink(self.partial)
        self.listed = True

    def abort(self) -> None:
        """Keep the partial rows for ``--resume``."""
        if self._fh is not None and not self._fh.closed:
            self.flush()
            self._fh.close()

    def fail(self) -> None:
        """The run did nothing: write the errors file when there is none yet (a new file,
        clobbering nothing), otherwise :meth:`discard`."""
        if (
            self.path is not None and self._fh is not None and self.errors
            and not self._kept_partial and not self.path.exists()
        ):
            self.close()
        else:
            self.discard()

    def discard(self) -> None:
        """The run did nothing: no errors file is written (the messages were printed), an
        earlier one is left as it was, and a partial one from an interrupted run is kept."""
        self.abort()
        if self.partial is not None and self._fh is not None and not self._kept_partial:
            self.partial.unlink(missing_ok=True)


def read_errors(path: Path) -> list[dict[str, str]]:
    """The rows of an errors file as dicts."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"), strict=True)) for line in lines[1:]]
