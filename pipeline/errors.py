"""Input errors that name the file and line, and output that is never half-written."""

from __future__ import annotations

import codecs
import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO


class InputError(Exception):
    """Bad input: rendered as one line ``FILE:LINE: message`` and exit status 2 (just the
    message when it concerns no file, e.g. a bad argument). ``doc_id`` names the document
    when it could be read (a jsonl line whose ``doc_key`` is readable)."""

    def __init__(
        self, path: str | os.PathLike[str] | None, line: int | None, message: str,
        doc_id: str | None = None,
    ):
        self.path = str(path) if path is not None else None
        self.line = line
        self.message = message
        self.doc_id = doc_id
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.path is None and self.line is None:
            return self.message
        where = self.path or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


class OutputError(OSError):
    """An output that cannot be written (no permission, a full disk, a parent that is a
    file): one line naming the file and exit status 3 in the CLI. Made like an OSError:
    ``OutputError(errno, message, filename)``."""


def read_text(path: str | os.PathLike[str], *, bom_as_space: bool = False) -> str:
    """Read a UTF-8 text file, raising InputError for missing, binary or non-UTF-8 files.

    A leading byte-order mark is dropped, or with ``bom_as_space`` read as a space (a text
    whose offsets must index the file's characters, as brat counts them)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise InputError(p, None, "no such file") from None
    except IsADirectoryError:
        raise InputError(p, None, "is a directory, expected a file") from None
    if b"\x00" in data:
        raise InputError(p, None, "binary file (NUL byte), expected UTF-8 text")
    try:
        if bom_as_space and data.startswith(codecs.BOM_UTF8):
            return " " + data.decode("utf-8")[1:]
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(p, line, f"not valid UTF-8 (byte 0x{data[e.start]:02x})") from None


def _umask() -> int:
    """The process umask (read by setting and restoring it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO]:
    """Write to a temporary file beside ``path`` and rename it into place on success.

    On any exception the temporary file is removed and ``path`` is left untouched.
    """
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except (FileExistsError, NotADirectoryError) as e:
        raise OutputError(
            e.errno, "cannot write: a parent path is not a folder", str(target)
        ) from None
    except OSError as e:
        raise OutputError(e.errno, f"cannot write: {e.strerror or e}", str(target)) from None
    try:
        kwargs = {} if "b" in mode else {"encoding": "utf-8", "newline": ""}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
