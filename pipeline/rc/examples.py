"""Turn documents + pairs into classifier examples, refusing pairs that cannot be examples."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from chemie.errors import InputError
from chemie.model.rc import Entity, Pair, RCDocument, RCExample


def entity_index(docs: Mapping[str, RCDocument]) -> dict[str, tuple[RCDocument, Entity]]:
    """Every entity id of every document, with its document."""
    index: dict[str, tuple[RCDocument, Entity]] = {}
    for doc in docs.values():
        for ent in doc.entities.values():
            index[ent.id] = (doc, ent)
    return index


def build_examples(
    docs: Mapping[str, RCDocument],
    pairs: Iterable[Pair],
    path: str | Path | None,
    direction_known: bool = True,
) -> list[RCExample]:
    """One example per pair; unknown ids, cross-document or cross-sentence pairs are errors.

    With ``direction_known`` the pair's head/tail order fixes ``reverse``; otherwise
    ``reverse`` is None and the classifier has to decide the direction.
    """
    index = entity_index(docs)
    examples = []
    for pair in pairs:
        found = []
        for eid in (pair.head, pair.tail):
            if eid not in index:
                raise InputError(path, pair.line, f"unknown entity id {eid!r}")
            found.append(index[eid])
        (doc, head), (doc2, tail) = found
        if doc.id != doc2.id:
            raise InputError(
                path, pair.line, f"entities {head.id} and {tail.id} are in different documents"
            )
        if head.sentence != tail.sentence:
            raise InputError(
                path, pair.line, f"entities {head.id} and {tail.id} are in different sentences"
            )
        if head.id == tail.id:
            raise InputError(path, pair.line, f"pair relates entity {head.id} to itself")
        reverse = head.position() > tail.position()
        e1, e2 = (tail, head) if reverse else (head, tail)
        examples.append(
            RCExample(
                doc.id,
                doc.sentences[head.sentence],
                e1,
                e2,
                pair.label,
                reverse if direction_known else None,
                pair.line,
            )
        )
    return examples
