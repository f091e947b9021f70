"""SemEval-2018 Task 7: abstracts in XML and ``LABEL(E1,E2[,REVERSE])`` relation files.

XML: ``<text id="..."><title>…</title><abstract>…</abstract></text>`` with entity spans
``<entity id="P03-1068.5">…</entity>``. Each entity becomes one token; the other text is
split into words and punctuation, the title is one sentence and the abstract is split
into sentences at ``. ? !`` followed by a capital, a digit or an entity.

Relations: ``LABEL(E1,E2)`` or ``LABEL(E1,E2,REVERSE)``; E1 comes first in the text and
``REVERSE`` says that the relation's first argument is E2. A pairs file given to the
classifier may carry any label (it is ignored) or none: ``(E1,E2)``; ``chemie rc
--explain`` appends ``<TAB>rule``, which is read back into ``Pair.rule``. Relations are read
into :class:`Pair` objects in semantic order (head = first argument) and written back in
text order (ascending entity number) with ``REVERSE`` where the head comes second, as
the official scorer requires.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO
from xml.sax.saxutils import escape

from chemie.errors import InputError, read_text
from chemie.model.rc import Entity, Pair, RCDocument

_TAG = re.compile(
    r"<\?[^>]*\?>|<!--.*?-->|<!DOCTYPE[^>]*>"
    r"|<(/?)([A-Za-z][\w-]*)((?:\s+[\w-]+\s*=\s*\"[^\"]*\")*)\s*(/?)>",
    re.S,
)
_ATTR_ID = re.compile(r"\bid\s*=\s*\"([^\"]*)\"")
_WORD = re.compile(r"\d+(?:[.,]\d+)+|(?:[A-Za-z]\.){2,}|\w+(?:[-'’]\w+)*|\S")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "apos": "'", "quot": '"'}  # XML's five entities
_REF = re.compile(r"&(?:([A-Za-z][\w.-]*)|#([0-9]+)|#x([0-9A-Fa-f]+));")
_REL = re.compile(
    r"^\s*([A-Z][A-Z_-]*)?\(([^(),\s]+),([^(),\s]+)(?:,(REVERSE))?\)(?:\t([^\t]*))?\s*$"
)
_SECTIONS = ("title", "abstract")


def _char(m: re.Match[str]) -> str:
    name, decimal, hexadecimal = m.groups()
    return _NAMED[name] if name else chr(int(decimal) if decimal else int(hexadecimal, 16))


def _unescape(text: str) -> str:
    """Text with XML's entities and character references replaced (checked already)."""
    return _REF.sub(_char, text) if "&" in text else text


def _xml_char(code: int) -> bool:
    """True for a code point XML 1.0 allows in a document."""
    return code in (0x9, 0xA, 0xD) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD \
        or 0x10000 <= code <= 0x10FFFF


def _bad_reference(text: str) -> tuple[int, str] | None:
    """``(offset, message)`` of the first ``&`` in ``text`` that does not start one of
    XML's five entities or a character reference, or None."""
    start = text.find("&")
    while start >= 0:
        m = _REF.match(text, start)
        if m is None:
            return start, "'&' that starts no entity (write &amp;)"
        name, decimal, hexadecimal = m.groups()
        if name and name not in _NAMED:
            return start, f"unknown entity {m.group()} (XML has &amp; &lt; &gt; &apos; &quot;)"
        if not name and not _xml_char(int(decimal) if decimal else int(hexadecimal, 16)):
            return start, f"character reference {m.group()} is not an XML character"
        start = text.find("&", m.end())
    return None


def _split_sentences(tokens: list[str], inside: set[int]) -> list[tuple[int, int]]:
    """Token ranges of sentences: split after ``. ? !`` before a capital, digit or entity.

    ``inside`` holds the token indices ``i`` where an entity covers both ``i`` and ``i+1``.
    """
    ranges, start = [], 0
    for i, tok in enumerate(tokens[:-1]):
        if i in inside or tok not in (".", "?", "!"):
            continue
        nxt = tokens[i + 1]
        if nxt[:1].isupper() or nxt[:1].isdigit():
            ranges.append((start, i + 1))
            start = i + 1
    if start < len(tokens):
        ranges.append((start, len(tokens)))
    return ranges


class _Builder:
    """Collects the tokens and (possibly nested) entities of one ``<text>`` element."""

    def __init__(self, doc_id: str, line: int):
        self.doc = RCDocument(doc_id, meta={"sections": [], "line": line})
        self.tokens: list[str] = []
        self.done: list[tuple[str, str, int, int, int]] = []  # id, text, start, end, line

    def words(self, text: str) -> None:
        self.tokens.extend(_WORD.findall(_unescape(text)))

    def close_section(self, name: str) -> None:
        inside = {i for _, _, a, b, _ in self.done for i in range(a, b - 1)}
        if name == "title":
            ranges = [(0, len(self.tokens))] if self.tokens else []
        else:
            ranges = _split_sentences(self.tokens, inside)
        where = {}
        for a, b in ranges:
            for i in range(a, b):
                where[i] = (len(self.doc.sentences), i - a)
            self.doc.sentences.append(self.tokens[a:b])
        for eid, text, a, b, line in sorted(self.done, key=lambda d: (d[2], -d[3])):
            s, t = where[a]
            self.doc.entities[eid] = Entity(eid, text, s, t, t + b - a, line)
        sections: list = self.doc.meta["sections"]  # type: ignore[assignment]
        sections.append((name, len(self.doc.sentences) - len(ranges), len(self.doc.sentences)))
        self.tokens, self.done = [], []


class _Reader:
    """The parse state of one XML file (see :func:`iter_xml`): the document and section
    open, the entities open and the entity ids seen."""

    def __init__(self, path: Path, text: str) -> None:
        self.path, self.text = path, text
        self.newlines = [m.start() for m in re.finditer("\n", text)]
        self.builder: _Builder | None = None
        self.section: str | None = None
        self.open_entities: list[tuple[str, int, int, int]] = []  # id, text offset, token, line
        self.seen: set[str] = set()

    def line_of(self, offset: int) -> int:
        """The line number of a character offset."""
        newlines = self.newlines
        lo, hi = 0, len(newlines)
        while lo < hi:
            mid = (lo + hi) // 2
            if newlines[mid] < offset:
                lo = mid + 1
            else:
                hi = mid
        return lo + 1

    def check_closed(self) -> None:
        """Raise InputError while an entity is open."""
        if self.open_entities:
            eid, _, _, eline = self.open_entities[-1]
            raise InputError(self.path, eline, f"entity {eid} is not closed")

    def entity(self, m: re.Match[str], line: int) -> None:
        """An ``<entity>`` or ``</entity>`` tag at ``line``."""
        path, builder = self.path, self.builder
        closing, attrs, selfclosing = m.group(1), m.group(3), m.group(4)
        if builder is None or self.section is None:
            raise InputError(path, line, "entity outside <title> or <abstract>")
        if closing:
            if not self.open_entities:
                raise InputError(path, line, "</entity> without <entity>")
            eid, start, first, eline = self.open_entities.pop()
            body = " ".join(_unescape(_TAG.sub(" ", self.text[start : m.start()])).split())
            if first == len(builder.tokens) or not body:
                raise InputError(path, eline, f"entity {eid} is empty")
            builder.done.append((eid, body, first, len(builder.tokens), eline))
            return
        found = _ATTR_ID.search(attrs)
        if not found or not found.group(1).strip():
            raise InputError(path, line, "entity without an id")
        eid = found.group(1)
        if eid in self.seen:
            raise InputError(path, line, f"duplicate entity id {eid}")
        self.seen.add(eid)
        if selfclosing:
            raise InputError(path, line, f"entity {eid} is empty")
        self.open_entities.append((eid, m.end(), len(builder.tokens), line))

    def text_tag(self, m: re.Match[str], line: int) -> RCDocument | None:
        """A ``<text>`` or ``</text>`` tag at ``line``: the finished document at ``</text>``."""
        path, builder = self.path, self.builder
        if m.group(1):
            if builder is None or self.section is not None:
                raise InputError(path, line, "unexpected </text>")
            self.builder = None
            return builder.doc
        if builder is not None:
            raise InputError(path, line, "<text> inside <text>")
        found = _ATTR_ID.search(m.group(3))
        if not found or not found.group(1).strip():
            raise InputError(path, line, "text without an id")
        self.builder = _Builder(found.group(1), line)
        return None

    def section_tag(self, name: str, m: re.Match[str], line: int) -> None:
        """A ``<title>`` or ``<abstract>`` tag (opening, closing or empty) at ``line``."""
        path, builder = self.path, self.builder
        if builder is None:
            raise InputError(path, line, f"<{name}> outside <text>")
        if m.group(1):
            if self.section != name:
                raise InputError(path, line, f"unexpected </{name}>")
            builder.close_section(name)
            self.section = None
        elif m.group(4):
            builder.close_section(name)
        else:
            if self.section is not None:
                raise InputError(path, line, f"<{name}> inside <{self.section}>")
            self.section = name


def iter_xml(path: str | Path) -> Iterator[RCDocument]:
    """Documents of a SemEval-2018 Task 7 XML file, one at a time."""
    path = Path(path)
    text = read_text(path)
    reader = _Reader(path, text)
    line_of = reader.line_of
    pos = 0
    for m in itertools.chain(_TAG.finditer(text), [None]):
        end = len(text) if m is None else m.start()
        between = text[pos:end]
        if "&" in between and (bad := _bad_reference(between)) is not None:
            raise InputError(path, line_of(pos + bad[0]), bad[1])
        if m is None:
            break
        pos = m.end()
        line = line_of(m.start())
        name = m.group(2)
        if "<" in between:
            raise InputError(path, line_of(m.start() - len(between)), "malformed tag")
        if reader.section is not None and reader.builder is not None:
            reader.builder.words(between)
        if name is None:  # declaration or comment
            continue
        if name == "entity":
            reader.entity(m, line)
            continue
        reader.check_closed()
        if name == "text":
            doc = reader.text_tag(m, line)
            if doc is not None:
                yield doc
        elif name in _SECTIONS:
            reader.section_tag(name, m, line)
    reader.check_closed()
    if reader.builder is not None:
        builder = reader.builder
        raise InputError(path, builder.doc.meta["line"], f"text {builder.doc.id} is not closed")


def read_xml(path: str | Path) -> dict[str, RCDocument]:
    """All documents of an XML file by id, in file order."""
    return {doc.id: doc for doc in iter_xml(path)}


def entity_number(eid: str) -> tuple[str, int]:
    """Sort key of an entity id (``P03-1068.12`` -> ``("P03-1068", 12)``): text order."""
    doc, _, num = eid.rpartition(".")
    return (doc, int(num)) if num.isdigit() else (eid, -1)


def parse_relation(line: str, path: Path, lineno: int) -> Pair:
    """One ``LABEL(E1,E2[,REVERSE])`` line as a Pair in semantic order."""
    m = _REL.match(line)
    if not m:
        raise InputError(path, lineno, "expected LABEL(E1,E2) or LABEL(E1,E2,REVERSE)")
    label, e1, e2, rev, rule = m.groups()
    if e1 == e2:
        raise InputError(path, lineno, f"pair relates entity {e1} to itself")
    if entity_number(e2) < entity_number(e1):
        raise InputError(path, lineno, f"arguments out of text order: {e1} after {e2}")
    head, tail = (e2, e1) if rev else (e1, e2)
    return Pair(head, tail, label, lineno, rule or None)


def iter_relations(path: str | Path) -> Iterator[Pair]:
    """Pairs of a relation file. A pair of entities given again with another label or
    direction is an error; a verbatim repeat is read again (``chemie rc`` warns and
    classifies each line; ``chemie score rc`` counts a repeated gold pair once)."""
    path = Path(path)
    seen: dict[tuple[str, str], Pair] = {}
    for lineno, raw in enumerate(read_text(path).split("\n"), start=1):
        if not raw.strip():
            continue
        pair = parse_relation(raw, path, lineno)
        first = seen.setdefault(pair.key(), pair)
        if (first.head, first.label) != (pair.head, pair.label):
            raise InputError(path, lineno, f"pair {pair.key()} repeats line {first.line} "
                             "with another label or direction")
        yield pair


def read_relations(path: str | Path) -> list[Pair]:
    """All pairs of a relation file, in file order."""
    return list(iter_relations(path))


def format_relation(pair: Pair) -> str:
    """``LABEL(E1,E2[,REVERSE])`` with E1 first in the text."""
    first, second = sorted((pair.head, pair.tail), key=entity_number)
    rev = ",REVERSE" if pair.head != first else ""
    return f"{pair.label or ''}({first},{second}{rev})"


def write_relations(pairs: Iterable[Pair], fh: IO[str], explain: bool = False) -> None:
    """Write relation lines; ``explain`` appends ``<TAB>rule``."""
    for p in pairs:
        fh.write(format_relation(p) + (f"\t{p.rule or ''}" if explain else "") + "\n")


def _section_xml(doc: RCDocument, first: int, last: int) -> str:
    """Tokens of sentences ``[first, last)`` joined by spaces, entity tags nested."""
    opens: dict[tuple[int, int], list[Entity]] = {}
    closes: dict[tuple[int, int], int] = {}
    for e in sorted(doc.entities.values(), key=lambda e: (e.start, -e.end)):
        opens.setdefault((e.sentence, e.start), []).append(e)
        closes[(e.sentence, e.end - 1)] = closes.get((e.sentence, e.end - 1), 0) + 1
    words = []
    for s in range(first, last):
        for i, tok in enumerate(doc.sentences[s]):
            tags = "".join(f'<entity id="{e.id}">' for e in opens.get((s, i), []))
            words.append(tags + escape(tok) + "</entity>" * closes.get((s, i), 0))
    return " ".join(words)


def write_xml(docs: Mapping[str, RCDocument] | Iterable[RCDocument], fh: IO[str]) -> None:
    """Write documents as SemEval XML (tokens joined by single spaces)."""
    items = docs.values() if isinstance(docs, Mapping) else docs
    fh.write('<?xml version="1.0" encoding="UTF-8" ?>\n<doc>\n')
    for doc in items:
        sections = doc.meta.get("sections") or [("abstract", 0, len(doc.sentences))]
        fh.write(f'<text id="{escape(doc.id, {chr(34): "&quot;"})}">')
        for name, first, last in sections:  # type: ignore[misc]
            fh.write(f"<{name}>{_section_xml(doc, first, last)}</{name}>")
        fh.write("</text>\n")
    fh.write("</doc>\n")
