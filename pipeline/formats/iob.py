"""IOB TSV: ``token<TAB>tag`` per line, a blank line between sentences.

Tags are ``O``, ``B-<type>`` or ``I-<type>``. An ``I-`` tag that does not continue a span
of the same type starts a new span (the conlleval convention).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from chemie.errors import InputError, atomic_write, read_text

_TAG = re.compile(r"^(?:O|[BI]-\S+)$")


@dataclass
class IOBSentence:
    """One sentence: words, their tags, and the 1-based line of its first token."""

    words: list[str]
    tags: list[str]
    line: int = 0
    lines: list[int] = field(default_factory=list)


def parse_iob(text: str, path: str | os.PathLike[str] | None = None) -> list[IOBSentence]:
    """Parse IOB TSV text; InputError (FILE:LINE) for lines without a tab or bad tags."""
    sentences: list[IOBSentence] = []
    cur = IOBSentence([], [])
    for lineno, raw in enumerate(text.split("\n"), start=1):  # "\n" only (not U+2028 …)
        line = raw.rstrip("\r")
        if not line.strip():
            if cur.words:
                sentences.append(cur)
            cur = IOBSentence([], [])
            continue
        if "\t" not in line:
            raise InputError(path, lineno, "expected token<TAB>tag, found no tab")
        word, tag = line.split("\t", 1)
        tag = tag.strip()
        if not word:
            raise InputError(path, lineno, "empty token")
        if not _TAG.match(tag):
            raise InputError(path, lineno, f"bad tag {tag!r} (expected O, B-TYPE or I-TYPE)")
        if not cur.words:
            cur.line = lineno
        cur.words.append(word)
        cur.tags.append(tag)
        cur.lines.append(lineno)
    if cur.words:
        sentences.append(cur)
    if not sentences:
        raise InputError(path, None, "empty IOB file (no token lines)")
    return sentences


def read_iob(path: str | os.PathLike[str]) -> list[IOBSentence]:
    """Read an IOB TSV file (UTF-8)."""
    return parse_iob(read_text(path), path)


def format_iob(sentences: Iterable[IOBSentence]) -> str:
    """IOB TSV text for ``sentences`` (a blank line after each sentence)."""
    parts = []
    for s in sentences:
        parts.append("".join(f"{w}\t{t}\n" for w, t in zip(s.words, s.tags, strict=True)))
    return "\n".join(parts)


def write_iob(path: str | os.PathLike[str], sentences: Iterable[IOBSentence]) -> None:
    """Write IOB TSV atomically."""
    text = format_iob(sentences)
    with atomic_write(path) as fh:
        fh.write(text)


def iob_spans(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """Spans ``(start, end_exclusive, type)`` encoded by the tags."""
    spans: list[tuple[int, int, str]] = []
    start, kind = -1, ""
    for i, tag in enumerate(tags):
        if tag.startswith("I-") and start >= 0 and tag[2:] == kind:
            continue
        if start >= 0:
            spans.append((start, i, kind))
            start = -1
        if tag != "O":
            start, kind = i, tag[2:]
    if start >= 0:
        spans.append((start, len(tags), kind))
    return spans


def spans_to_tags(n: int, spans: Iterable[tuple[int, int, str]]) -> list[str]:
    """Tags for ``n`` tokens from non-overlapping ``(start, end_exclusive, type)`` spans."""
    tags = ["O"] * n
    for start, end, kind in spans:
        tags[start] = f"B-{kind}"
        for i in range(start + 1, end):
            tags[i] = f"I-{kind}"
    return tags
