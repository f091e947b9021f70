"""USPTO paragraphs (``uspto-reactions/dev.jsonl``): one JSON object per line with ``id``,
``title`` and ``text`` (other keys, such as the gold SMILES lists, are ignored).

Each line is a :class:`~chemie.model.Document` whose text is the title, a line break and the
paragraph (``title + "\\n" + text``), so the title is the document's heading: the pipeline
reads it as it reads a ChEMU snippet's heading ("the title compound" refers to it).
``meta["heading"]`` is the title's character range. A line without a title is the paragraph
alone. Malformed lines raise :class:`~chemie.errors.InputError` (``FILE:LINE: what is
wrong``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from chemie.errors import InputError, read_text
from chemie.formats import identified_object
from chemie.limits import check_chars
from chemie.model import Document

SEPARATOR = "\n"


def is_uspto_object(obj: object) -> bool:
    """Whether a parsed JSON line has the shape of a USPTO paragraph (``text``, no tokens)."""
    return isinstance(obj, dict) and "text" in obj and "sentences" not in obj


def parse_uspto_line(line: str, path: str | os.PathLike[str] | None, number: int | None,
                     max_chars: int | None = None) -> Document:
    """One line as a Document (see the module docstring); an InputError names the
    paragraph's ``id`` when it can be read."""
    obj = identified_object(line, path, number)
    rid = obj["id"]
    text, title = obj.get("text"), obj.get("title", "")
    if not isinstance(text, str):
        raise InputError(path, number, "'text' must be a string", rid)
    if not isinstance(title, str):
        raise InputError(path, number, "'title' must be a string", rid)
    title = " ".join(title.split())
    full = f"{title}{SEPARATOR}{text}" if title else text
    if max_chars is not None:
        try:
            check_chars(len(full), max_chars, path, number)
        except InputError as e:
            e.doc_id = rid
            raise
    meta: dict[str, object] = {"path": str(path) if path is not None else None, "line": number,
                               "heading": (0, len(title)) if title else None}
    return Document(rid, full, meta=meta)


def iter_uspto(path: str | os.PathLike[str], max_chars: int | None = None) -> Iterator[Document]:
    """The paragraphs of a file, in order (blank lines skipped)."""
    for number, line in enumerate(read_text(path).split("\n"), 1):  # not at U+2028 …
        if line.strip():
            yield parse_uspto_line(line, path, number, max_chars)
