"""The unified relation-classification format of Bassignana & Plank (2022).

Tokens file, one token per line::

    doc-id<TAB>sentence#<TAB>token#<TAB>token<TAB>entity-id|NO-ENTITY

An entity is one line whose "token" is the whole entity string. Pairs file, one
relation per line, in semantic order (first argument first)::

    entity-1-id<TAB>entity-2-id<TAB>LABEL[<TAB>rule]

The label may be left out on classifier input; the optional fourth column carries the
name of the rule that decided the label (``chemie rc --explain``). Tokens are kept
verbatim (some are ``" . "``) so that files round-trip byte for byte.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from chemie.errors import InputError, read_text
from chemie.model.rc import Entity, Pair, RCDocument

NO_ENTITY = "NO-ENTITY"


def _int(value: str, path: Path, line: int, what: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise InputError(path, line, f"{what} {value!r} is not a number") from None
    if number < 0:
        raise InputError(path, line, f"{what} {number} is negative")
    return number


def iter_tokens(path: str | Path) -> Iterator[RCDocument]:
    """Documents of a tokens file, one at a time (lines of a document must be contiguous)."""
    path = Path(path)
    doc: RCDocument | None = None
    seen: set[str] = set()
    last_sentence = -1
    for lineno, raw in enumerate(read_text(path).split("\n"), start=1):
        if not raw.strip():
            continue
        fields = raw.rstrip("\r").split("\t")
        if len(fields) != 5:
            raise InputError(path, lineno, f"expected 5 tab-separated fields, got {len(fields)}")
        doc_id, sent_s, tok_s, token, eid = fields
        sent = _int(sent_s, path, lineno, "sentence number")
        tok = _int(tok_s, path, lineno, "token number")
        if doc is None or doc.id != doc_id:
            if doc_id in seen:
                raise InputError(path, lineno, f"document {doc_id} is not contiguous")
            if doc is not None:
                yield doc
            seen.add(doc_id)
            doc = RCDocument(doc_id, meta={"sentence_numbers": []})
            last_sentence = -1
        numbers: list[int] = doc.meta["sentence_numbers"]  # type: ignore[assignment]
        if sent != last_sentence:
            if sent in numbers:
                raise InputError(path, lineno, f"sentence {sent} of {doc_id} is not contiguous")
            numbers.append(sent)
            doc.sentences.append([])
            last_sentence = sent
        sentence = doc.sentences[-1]
        if tok != len(sentence):
            raise InputError(path, lineno, f"token number {tok}, expected {len(sentence)}")
        if eid != NO_ENTITY:
            if not eid.strip():
                raise InputError(path, lineno, "empty entity id")
            if eid in doc.entities:
                raise InputError(path, lineno, f"duplicate entity id {eid}")
            index = len(doc.sentences) - 1
            doc.entities[eid] = Entity(eid, token, index, tok, tok + 1, lineno)
        sentence.append(token)
    if doc is not None:
        yield doc


def read_tokens(path: str | Path) -> dict[str, RCDocument]:
    """All documents of a tokens file by id, in file order."""
    return {doc.id: doc for doc in iter_tokens(path)}


def iter_pairs(path: str | Path) -> Iterator[Pair]:
    """Pairs of a pairs file (label optional, fourth column = rule name)."""
    path = Path(path)
    for lineno, raw in enumerate(read_text(path).split("\n"), start=1):
        if not raw.strip():
            continue
        fields = raw.rstrip("\r").split("\t")
        if len(fields) not in (2, 3, 4) or not fields[0] or not fields[1]:
            raise InputError(path, lineno, "expected entity-1<TAB>entity-2<TAB>LABEL")
        label = fields[2] or None if len(fields) > 2 else None
        rule = fields[3] or None if len(fields) > 3 else None
        yield Pair(fields[0], fields[1], label, lineno, rule)


def read_pairs(path: str | Path) -> list[Pair]:
    """All pairs of a pairs file, in file order."""
    return list(iter_pairs(path))


def write_tokens(docs: Iterable[RCDocument], fh: IO[str]) -> None:
    """Write documents; a multi-token entity becomes one line with its tokens joined.

    The format has no nesting: an entity inside another entity is left out.
    """
    for doc in docs:
        numbers = doc.meta.get("sentence_numbers") or list(range(len(doc.sentences)))
        starts = {(e.sentence, e.start): e for e in doc.entities.values()}
        for s, sentence in enumerate(doc.sentences):
            i = out = 0
            while i < len(sentence):
                ent = starts.get((s, i))
                if ent is None:
                    token, eid, i = sentence[i], NO_ENTITY, i + 1
                else:
                    token, eid, i = " ".join(sentence[ent.start : ent.end]), ent.id, ent.end
                fh.write(f"{doc.id}\t{numbers[s]}\t{out}\t{token}\t{eid}\n")
                out += 1


def write_pairs(pairs: Iterable[Pair], fh: IO[str], explain: bool = False) -> None:
    """Write pairs in semantic order; ``explain`` adds the rule column."""
    for p in pairs:
        row = [p.head, p.tail, p.label or ""]
        if explain:
            row.append(p.rule or "")
        fh.write("\t".join(row) + "\n")

