"""The size limit on one document (``--max-chars``), checked before the document is parsed.

One limit for every input format: a document's text may have at most ``max_chars``
characters (default :data:`MAX_CHARS`, spaCy's default ``nlp.max_length``; chemie sets
``nlp.max_length`` to the same value). The document is a ``.txt`` file (plain or brat),
a ChEMU-Ref jsonl line (its tokens joined by spaces), a CHEMDNER abstract (title, newline,
abstract) or, in an IOB file, a sentence (its tokens joined by spaces). A longer one is
refused: ``FILE[:LINE]: document of N characters is over the limit of M (--max-chars N
raises it)``. A ``.txt`` file is measured without being decoded. A line that holds one
document (jsonl, CHEMDNER) is first bounded in bytes: one of more than :data:`LINE_FACTOR`
× ``max_chars`` bytes is refused unread (never held in memory, never parsed); ChEMU-Ref
lines have about two bytes per character of text, so in practice the bound stops only
lines far over the limit.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from chemie.errors import InputError, read_text

MAX_CHARS = 1_000_000
LINE_FACTOR = 10
HEAD = 4096  # bytes kept of a line refused unread (to name its document)
_CHUNK = 1 << 20
_CONTINUATION = bytes(range(0x80, 0xC0))  # UTF-8 bytes that do not start a character

PathLike = str | os.PathLike[str]


def too_long(chars: int, max_chars: int, what: str = "document") -> str:
    """The message for a document of ``chars`` characters over the limit."""
    return (
        f"{what} of {chars:,} characters is over the limit of {max_chars:,} "
        "(--max-chars N raises it)"
    )


def check_chars(
    chars: int, max_chars: int | None, path: PathLike | None, line: int | None,
    what: str = "document",
) -> None:
    """InputError when ``chars`` is over ``max_chars`` (None or 0: no limit)."""
    if max_chars and chars > max_chars:
        raise InputError(path, line, too_long(chars, max_chars, what))


def line_cap(max_chars: int | None) -> int | None:
    """The most bytes a one-document line may have to be read at all (None: no limit)."""
    return max_chars * LINE_FACTOR if max_chars else None


def line_too_long(size: int, max_chars: int) -> str:
    """The message for a line refused unread."""
    return (
        f"line of {size:,} bytes not read: a document may have {max_chars:,} characters "
        f"and its line {max_chars * LINE_FACTOR:,} bytes (--max-chars N raises both)"
    )


def read_lines(fh: BinaryIO, cap: int | None) -> Iterator[tuple[int, bytes, int]]:
    """``(line number, bytes, size)`` per line of a binary file. A line of more than
    ``cap`` bytes is not kept: ``bytes`` is its first :data:`HEAD` bytes and ``size``
    (over ``cap``) its length, read in chunks. ``cap`` None: every line whole."""
    lineno = 0
    while True:
        raw = fh.readline() if cap is None else fh.readline(cap + 1)
        if not raw:
            return
        lineno += 1
        if cap is None or len(raw) <= cap:
            yield lineno, raw, len(raw)
            continue
        head, size = raw[:HEAD], len(raw)
        while not raw.endswith(b"\n"):
            raw = fh.readline(_CHUNK)
            if not raw:
                break
            size += len(raw)
        yield lineno, head, size


def file_chars(path: PathLike) -> int:
    """The number of characters of a UTF-8 file, counted in chunks without decoding it
    (bytes that start a character)."""
    chars = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            chars += len(chunk.translate(None, _CONTINUATION))
    return chars


def read_document(path: PathLike, max_chars: int | None = MAX_CHARS) -> str:
    """The text of a ``.txt`` document (see :func:`~chemie.errors.read_text`; a leading
    byte-order mark is read as a space, so offsets index the file's characters);
    InputError when it has more than ``max_chars`` characters, before it is read."""
    try:
        size = os.path.getsize(path)
    except OSError:
        size = 0  # read_text names the problem
    if max_chars and size > max_chars and Path(path).is_file():
        check_chars(file_chars(path), max_chars, path, None)
    return read_text(path, bom_as_space=True)
