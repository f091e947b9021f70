"""ChEMU-Ref jsonl (ChEMU 2021 anaphora): one document per line, read lazily and written back.

Token indices in the file are counted over the whole document (all sentences concatenated)
and map to character offsets on the text made by joining every token with one space
(:func:`chemie.model.tokens_from_words`). A mention is a list of inclusive ``[start, end]``
token ranges; several ranges make a discontinuous mention. In each pair the anaphor comes
first. Pairs with an empty argument are dropped and counted in ``doc.meta["dropped_pairs"]``.

With ``warn_pairs`` (input to be annotated afresh, whose own pairs are not used), a bad
pair is not an error but a warning in ``doc.meta["warnings"]``, and the rest of the
document's pairs are not read. An error on a line whose ``doc_key`` can be read names the document
(``InputError.doc_id``; of a line that is not valid JSON, when ``doc_key`` is its first key).
"""

from __future__ import annotations

import bisect
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, chain, pairwise, repeat
from operator import add
from pathlib import Path

from chemie.errors import InputError, atomic_write
from chemie.formats.shapes import PARAGRAPHS
from chemie.limits import check_chars
from chemie.model import (
    ANAPHORA_LABELS,
    JSONL_TO_LABEL,
    Document,
    Mention,
    Range,
    Relation,
    Token,
    make_tokens,
)

PathLike = str | os.PathLike[str]
WARNINGS = "warnings"  # doc.meta key: problems of input pairs that are not used
_HEAD_KEY = re.compile(r'\ufeff?\s*\{\s*"doc_key"\s*:\s*("(?:[^"\\\n]|\\.)*"|-?\d+)\s*[,}]')


def _words(obj: dict, path: PathLike | None, lineno: int | None) -> list[list[str]]:
    sentences = obj.get("sentences")
    if not isinstance(sentences, list):
        raise InputError(path, lineno, "'sentences' must be a list of lists of tokens")
    for i, sent in enumerate(sentences):
        if not isinstance(sent, list) or not set(map(type, sent)) <= {str}:
            raise InputError(path, lineno, f"sentence {i} must be a list of strings")
    return sentences


def _offsets(words: list[str]) -> tuple[list[int], list[int]]:
    """Token start and end offsets of ``words`` joined with single spaces (as
    :func:`chemie.model.tokens_from_words`), without building Token objects."""
    lengths = list(map(len, words))
    starts = list(accumulate(map(add, lengths, repeat(1)), initial=0))  # C-level passes
    starts.pop()
    return starts, list(map(add, starts, lengths))


def _spans(
    arg: object, offsets: tuple[list[int], list[int]],
    where: tuple[PathLike | None, int | None], what: tuple[str, int, str],
) -> tuple[Range, ...]:
    """Inclusive token ranges -> character ranges; an empty argument gives ``()``.

    ``what`` is (key, pair number, role), named in the error message."""
    if not isinstance(arg, list):
        raise InputError(*where, f"{_what(what)}: expected a list of [start, end] token ranges")
    starts, ends = offsets
    spans = []
    for r in arg:
        if type(r) is not list or len(r) != 2 or type(r[0]) is not int or type(r[1]) is not int:
            raise InputError(*where, f"{_what(what)}: bad token range {r!r}, expected [start, end]")
        a, b = r
        if a > b:
            raise InputError(*where, f"{_what(what)}: token range [{a}, {b}] is reversed "
                             "(start after end)")
        if not 0 <= a <= b < len(starts):
            raise InputError(
                *where,
                f"{_what(what)}: token range [{a}, {b}] out of range "
                f"(document has {len(starts)} tokens)",
            )
        spans.append((starts[a], ends[b]))
    return tuple(spans)


def _what(what: tuple[str, int, str]) -> str:
    """``"Coreference pair 3 anaphor"``: where in the line an error is."""
    key, n, role = what
    return f"{key} pair {n} {role}"


def head_key(line: str) -> str | None:
    """The ``doc_key`` of a jsonl line read from its start, without parsing the line (for
    a line that is not valid JSON or too long to parse): None unless it is the first key."""
    m = _HEAD_KEY.match(line)
    if m is None:
        return None
    try:
        return str(json.loads(m.group(1)))
    except ValueError:
        return None


def _doc_key(obj: dict) -> str | None:
    """The line's ``doc_key`` as text when it is a string or a whole number, else None."""
    key = obj.get("doc_key")
    return str(key) if isinstance(key, str | int) and not isinstance(key, bool) else None


def parse_chemu_line(
    line: str, path: PathLike | None = None, lineno: int | None = None,
    *, annotations: bool = True, warn_pairs: bool = False, max_chars: int | None = None,
) -> Document:
    """One ChEMU-Ref jsonl line -> a Document (InputError on malformed input, naming the
    document in ``doc_id`` when its ``doc_key`` can be read).

    With ``annotations=False`` the pairs are checked (same errors, ``dropped_pairs``
    counted) but no mentions or relations are made (input to be annotated afresh); with
    ``warn_pairs`` too, a bad pair gives a warning (``doc.meta["warnings"]``), not an
    error. A document whose text (tokens joined by spaces) has more than ``max_chars``
    characters is an InputError (:mod:`chemie.limits`).
    """
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(path, lineno, f"malformed JSON: {e.msg} (column {e.colno})",
                         head_key(line)) from None
    if not isinstance(obj, dict):
        raise InputError(path, lineno, "expected a JSON object")
    try:
        return _document(obj, (path, lineno), annotations, warn_pairs, max_chars)
    except InputError as e:
        e.doc_id = _doc_key(obj)
        raise


def _checked_key(obj: dict, path: PathLike | None, lineno: int | None) -> str | int:
    """The ``doc_key`` of a parsed jsonl line, after checking the keys it must have."""
    for key in ("doc_key", "sentences"):
        if key not in obj:
            hint = " (this is `chemie run --format json` output; ChEMU-Ref jsonl is " \
                "`--format chemu`)" if "mentions" in obj and "text" in obj else \
                f" (these are {PARAGRAPHS})" if "text" in obj and "title" in obj else ""
            raise InputError(path, lineno, f"missing key {key!r}{hint}")
    doc_key = obj["doc_key"]
    if not isinstance(doc_key, str | int) or isinstance(doc_key, bool):
        raise InputError(path, lineno, "'doc_key' must be a string")
    if isinstance(doc_key, str) and not doc_key.isascii():
        try:
            doc_key.encode("utf-8")
        except UnicodeEncodeError as e:  # a \ud800 escape without its pair: no file name
            char = f"\\u{ord(doc_key[e.start]):04x}"
            message = f"'doc_key': lone surrogate {char}: not valid Unicode"
            raise InputError(path, lineno, message) from None
    return doc_key


def _pairs(
    obj: dict, offsets: tuple[list[int], list[int]], where: tuple[PathLike | None, int | None]
) -> Iterator[tuple[str, tuple[Range, ...], tuple[Range, ...]] | None]:
    """The (label, anaphor, antecedent) pairs of a parsed jsonl line in order, None for a
    pair with an empty side (raises InputError at the first bad pair)."""
    path, lineno = where
    for key, label in JSONL_TO_LABEL.items():
        value = obj.get(key, [])
        if not isinstance(value, list):
            raise InputError(
                path, lineno, f"{key!r} must be a list of [anaphor, antecedent]"
            )
        for n, pair in enumerate(value):
            if not isinstance(pair, list) or len(pair) != 2:
                raise InputError(
                    path, lineno, f"{key} pair {n}: expected [anaphor, antecedent]"
                )
            ana = _spans(pair[0], offsets, where, (key, n, "anaphor"))
            ant = _spans(pair[1], offsets, where, (key, n, "antecedent"))
            yield (label, ana, ant) if ana and ant else None


def _document(
    obj: dict, where: tuple[PathLike | None, int | None], annotations: bool, warn_pairs: bool,
    max_chars: int | None,
) -> Document:
    """The Document of a parsed jsonl line (see :func:`parse_chemu_line`)."""
    path, lineno = where
    doc_key = _checked_key(obj, path, lineno)
    sentences = _words(obj, path, lineno)
    words = list(chain.from_iterable(sentences))
    check_chars(sum(map(len, words)) + max(len(words) - 1, 0), max_chars, path, lineno)
    offsets = _offsets(words)
    text = " ".join(words)
    tokens = make_tokens(words, *offsets)
    bounds = list(pairwise(accumulate(map(len, sentences), initial=0)))

    pairs: list[tuple[str, tuple[Range, ...], tuple[Range, ...]]] = []
    dropped = 0
    warnings = []
    try:
        for pair in _pairs(obj, offsets, where):
            if pair is None:
                dropped += 1
            elif annotations:
                pairs.append(pair)
    except InputError as e:
        if not warn_pairs:
            raise
        pairs.clear()  # none of the document's pairs is made when some are bad
        warnings.append(f"input pairs not read (they are not used): {e.message}")

    doc = Document(id=str(doc_key), text=text, tokens=tokens, sentences=bounds)
    ids: dict[tuple[Range, ...], str] = {}
    for spans in sorted({s for _, ana, ant in pairs for s in (ana, ant)}):
        ids[spans] = f"T{len(ids) + 1}"
        doc.mentions.append(Mention(ids[spans], spans, text=doc.span_text(spans)))
    for i, (label, ana, ant) in enumerate(pairs, 1):
        doc.relations.append(Relation(label, ids[ana], ids[ant], id=f"R{i}"))
    doc.meta.update(
        sentences=sentences,
        dropped_pairs=dropped,
        format="chemu",
        path=None if path is None else str(path),
        line=lineno,
    )
    if warnings:
        doc.meta[WARNINGS] = warnings
    return doc


def iter_chemu(path: PathLike) -> Iterator[Document]:
    """Documents of a ChEMU-Ref jsonl file, one per non-empty line, read lazily.

    Lines end at ``\n`` only and are decoded one by one (as ``chemie run`` reads them), so a
    byte that is not UTF-8 is reported on its own line.
    """
    p = Path(path)
    try:
        fh = open(p, "rb")
    except FileNotFoundError:
        raise InputError(p, None, "no such file") from None
    except IsADirectoryError:
        raise InputError(p, None, "is a directory, expected a .jsonl file") from None
    with fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
            except UnicodeDecodeError as e:
                message = f"not valid UTF-8 (byte 0x{raw[e.start]:02x})"
                raise InputError(p, lineno, message) from None
            if line.strip():
                yield parse_chemu_line(line, p, lineno)


def read_chemu(path: PathLike) -> list[Document]:
    """All documents of a ChEMU-Ref jsonl file."""
    return list(iter_chemu(path))


class TokenIndex:
    """Maps character ranges to token index ranges over a fixed list of tokens."""

    def __init__(self, tokens: Sequence[Token]):
        self._init([t.start for t in tokens], [t.end for t in tokens])

    def _init(self, starts: list[int], ends: list[int]) -> None:
        self.starts = dict(zip(starts, range(len(starts)), strict=True))
        self.ends = dict(zip(ends, range(len(ends)), strict=True))
        self._start_list = starts
        self._end_list = ends

    @classmethod
    def from_offsets(cls, starts: list[int], ends: list[int]) -> TokenIndex:
        """The index of tokens given by their start and end offsets (ascending)."""
        index = cls.__new__(cls)
        index._init(starts, ends)
        return index

    def ranges(self, spans: Iterable[Range], snap: bool = False) -> list[list[int]]:
        """Character ranges -> inclusive token ranges.

        Unaligned ranges raise ValueError, or with ``snap`` grow to the tokens they touch.
        """
        out = []
        for a, b in spans:
            first, last = self.starts.get(a), self.ends.get(b)
            if snap and (first is None or last is None):
                first = bisect.bisect_right(self._end_list, a)
                last = bisect.bisect_left(self._start_list, b) - 1
            if first is None or last is None or first > last:
                raise ValueError(f"character range ({a}, {b}) does not align to token boundaries")
            out.append([first, last])
        return out


def spans_to_token_ranges(
    spans: Iterable[Range], tokens: Sequence[Token], snap: bool = False
) -> list[list[int]]:
    """Character ranges -> inclusive ``[first, last]`` token index ranges.

    Each range must start at a token start and end at a token end (ValueError otherwise);
    with ``snap``, a range grows to cover every token it touches instead.
    For many conversions over the same tokens, build one :class:`TokenIndex`.
    """
    return TokenIndex(tokens).ranges(spans, snap)


def _output_words(doc: Document) -> list[list[str]]:
    """The sentences of words to write: the input's, or the document's tokens."""
    if "sentences" in doc.meta:
        return doc.meta["sentences"]  # type: ignore[return-value]
    if not doc.tokens:
        return []  # an empty document
    n = len(doc.tokens)
    bounds = doc.sentences
    ends = [0, *(b for _, b in bounds)]
    if not bounds or [a for a, _ in bounds] != ends[:-1] or ends[-1] != n:
        bounds = [(0, n)]  # sentences that do not cover the tokens one after another
    return [[t.text for t in doc.tokens[a:b]] for a, b in bounds]


def format_chemu_doc(doc: Document, snap: bool = False) -> str:
    """One ChEMU-Ref jsonl line (no newline) for ``doc``; ValueError if it cannot be written.

    Mention spans must align to the input's tokens, unless ``snap`` (see :class:`TokenIndex`).
    A document without input sentences (e.g. read from text) is written as its tokens, its
    mentions' spans (offsets into its own text) mapped to them.
    """
    sentences = _output_words(doc)
    if "sentences" in doc.meta:
        words = list(chain.from_iterable(sentences))
        if " ".join(words) != doc.text:
            raise ValueError(f"document {doc.id}: text does not match its sentences of tokens")
        index = TokenIndex.from_offsets(*_offsets(words))
    else:
        index = TokenIndex(doc.tokens)
    mentions = doc.mention_index()
    out: dict[str, object] = {"doc_key": doc.id, "sentences": sentences}
    out.update({key: [] for key in ANAPHORA_LABELS.values()})
    for rel in doc.relations:
        if rel.label not in ANAPHORA_LABELS:
            raise ValueError(
                f"document {doc.id}: relation {rel.id or rel.label} has label {rel.label!r}, "
                f"not one of {', '.join(ANAPHORA_LABELS)}"
            )
        pair = []
        for mid in (rel.head, rel.tail):
            if mid not in mentions:
                raise ValueError(f"document {doc.id}: relation refers to unknown mention {mid}")
            try:
                pair.append(index.ranges(mentions[mid].spans, snap))
            except ValueError as e:
                raise ValueError(f"document {doc.id}: mention {mid}: {e}") from None
        out[ANAPHORA_LABELS[rel.label]].append(pair)  # type: ignore[union-attr]
    return json.dumps(out, ensure_ascii=False, check_circular=False)  # lists of str and int


def write_chemu(docs: Iterable[Document], path: PathLike, snap: bool = False) -> int:
    """Write ``docs`` as ChEMU-Ref jsonl (atomically); returns the number written."""
    n = 0
    with atomic_write(path) as fh:
        for doc in docs:
            fh.write(format_chemu_doc(doc, snap) + "\n")
            n += 1
    return n
