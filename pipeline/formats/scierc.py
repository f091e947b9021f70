"""SciERC json: one document per line with ``sentences``, ``ner`` and ``relations``.

``ner[i]`` lists the entities of sentence ``i`` as ``[start, end, type]`` and
``relations[i]`` its relations as ``[s1, e1, s2, e2, TYPE]``; all indices are inclusive
and count tokens over the whole document. Entities get ids ``DOC.N`` numbered from 1 in
span order (the numbering of the unified format). Relations are read into
:class:`Pair` objects (head = first span; a verbatim repeated relation is read once,
SciERC's C04-1068 has one); the writer keeps every other key of the
input object (``clusters``, ``doc_key`` …) and replaces ``relations``; with
``explain`` it adds ``relation_rules``, parallel to ``relations``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO

from chemie.errors import InputError, read_text
from chemie.model.rc import Entity, Pair, RCDocument


def _spans(obj: dict, path: Path, lineno: int) -> list[tuple[int, int, str]]:
    try:
        return [(int(s), int(e), str(t)) for sent in obj["ner"] for s, e, t in sent]
    except (KeyError, TypeError, ValueError):
        raise InputError(
            path, lineno, "ner must be a list of [start, end, type] per sentence"
        ) from None


def _document(obj: dict, path: Path, lineno: int) -> tuple[RCDocument, list[Pair]]:
    if not isinstance(obj, dict) or "doc_key" not in obj or "sentences" not in obj:
        raise InputError(path, lineno, "expected an object with doc_key and sentences")
    key = str(obj["doc_key"])
    sentences = obj["sentences"]
    if not isinstance(sentences, list) or not all(isinstance(s, list) for s in sentences):
        raise InputError(path, lineno, "sentences must be lists of tokens")
    starts, offset = [], 0
    for sent in sentences:
        starts.append(offset)
        offset += len(sent)
    doc = RCDocument(key, [[str(t) for t in s] for s in sentences], meta={"raw": obj})

    def locate(s: int, e: int) -> tuple[int, int]:
        if e < s:
            raise InputError(path, lineno, f"span [{s}, {e}] is reversed (start after end)")
        for i, first in enumerate(starts):
            if first <= s < first + len(sentences[i]):
                if e >= first + len(sentences[i]):
                    raise InputError(path, lineno, f"span [{s}, {e}] crosses a sentence")
                return i, s - first
        raise InputError(path, lineno, f"span [{s}, {e}] is outside the document")

    ids: dict[tuple[int, int], str] = {}
    for n, (s, e) in enumerate(sorted({(s, e) for s, e, _ in _spans(obj, path, lineno)}), 1):
        sent, start = locate(s, e)
        eid = f"{key}.{n}"
        ids[(s, e)] = eid
        text = " ".join(doc.sentences[sent][start : start + e - s + 1])
        doc.entities[eid] = Entity(eid, text, sent, start, start + e - s + 1, lineno)
    doc.meta["span_ids"] = ids
    pairs = []
    for sent_rels in obj.get("relations", []):
        for rel in sent_rels:
            if not isinstance(rel, list) or len(rel) != 5:
                raise InputError(path, lineno, f"relation {rel!r} is not [s1, e1, s2, e2, TYPE]")
            s1, e1, s2, e2, label = rel
            for span in ((s1, e1), (s2, e2)):
                if span not in ids:
                    raise InputError(path, lineno, f"relation argument {list(span)} is not in ner")
            pair = Pair(ids[(s1, e1)], ids[(s2, e2)], str(label), lineno)
            if pair not in pairs:  # the release repeats one relation verbatim
                pairs.append(pair)
    return doc, pairs


def iter_documents(path: str | Path) -> Iterator[tuple[RCDocument, list[Pair]]]:
    """Each document with its relations, one line at a time."""
    path = Path(path)
    seen: set[str] = set()
    for lineno, raw in enumerate(read_text(path).split("\n"), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            raise InputError(path, lineno, f"bad JSON: {e.msg} (column {e.colno})") from None
        doc, pairs = _document(obj, path, lineno)
        if doc.id in seen:
            raise InputError(path, lineno, f"duplicate doc_key {doc.id}")
        seen.add(doc.id)
        yield doc, pairs


def read(path: str | Path) -> tuple[dict[str, RCDocument], list[Pair]]:
    """All documents by id and all relations, in file order."""
    docs, pairs = {}, []
    for doc, doc_pairs in iter_documents(path):
        docs[doc.id] = doc
        pairs.extend(doc_pairs)
    return docs, pairs


def write(
    docs: Mapping[str, RCDocument], pairs: Iterable[Pair], fh: IO[str], explain: bool = False
) -> None:
    """Write the documents with ``pairs`` as their relations (input key order kept)."""
    owner = {eid: doc.id for doc in docs.values() for eid in doc.entities}
    by_doc: dict[str, list[Pair]] = {}
    for p in pairs:
        by_doc.setdefault(owner[p.head], []).append(p)
    for doc in docs.values():
        raw = doc.meta.get("raw")
        obj = dict(raw) if isinstance(raw, dict) else {"doc_key": doc.id}
        starts, offset = [], 0
        for sent in doc.sentences:
            starts.append(offset)
            offset += len(sent)
        obj.setdefault("sentences", doc.sentences)
        if "ner" not in obj:
            obj["ner"] = [[] for _ in doc.sentences]
            for e in doc.entities.values():
                span = [starts[e.sentence] + e.start, starts[e.sentence] + e.end - 1, "Entity"]
                obj["ner"][e.sentence].append(span)
        rels: list[list] = [[] for _ in doc.sentences]
        rules: list[list] = [[] for _ in doc.sentences]
        for p in by_doc.get(doc.id, []):
            h, t = doc.entities[p.head], doc.entities[p.tail]
            hs, ts = starts[h.sentence], starts[t.sentence]
            rel = [hs + h.start, hs + h.end - 1, ts + t.start, ts + t.end - 1, p.label]
            rels[h.sentence].append(rel)
            rules[h.sentence].append(p.rule)
        obj["relations"] = rels
        if explain:
            obj["relation_rules"] = rules
        fh.write(json.dumps(obj) + "\n")
