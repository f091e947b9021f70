"""Token texts of a Doc read by orth id, without creating Token objects."""

from __future__ import annotations

from spacy.attrs import ORTH
from spacy.tokens import Doc


def cached_words(doc: Doc, texts: dict[int, str]) -> list[str]:
    """The token texts of ``doc`` through ``texts`` (orth id -> text), which the caller keeps
    per vocabulary; a miss fills it from the string store."""
    ids = doc.to_array(ORTH).tolist()
    try:
        return list(map(texts.__getitem__, ids))
    except KeyError:
        strings = doc.vocab.strings
        texts.update((h, strings[h]) for h in ids if h not in texts)
        return list(map(strings.__getitem__, ids))
