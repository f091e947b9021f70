"""Token texts of a Doc read by orth id, without creating Token objects (and back)."""

from __future__ import annotations

from spacy.attrs import ORTH
from spacy.tokens import Doc
from spacy.vocab import Vocab

from chemie.extensions import ORTH_IDS


def cached_words(doc: Doc, texts: dict[int, str]) -> list[str]:
    """The token texts of ``doc`` through ``texts`` (orth id -> text), which the caller keeps
    per vocabulary; a miss fills it from the string store. Takes the ids left by
    chemie_sentences (:data:`ORTH_IDS`) when they still fit the Doc."""
    ids = doc.user_data.pop(ORTH_IDS, None)
    if ids is None or len(ids) != len(doc):
        ids = doc.to_array(ORTH).tolist()
    return _texts(texts, doc.vocab, ids)


def _texts(texts: dict[int, str], vocab: Vocab, ids: list[int]) -> list[str]:
    """The texts of orth ids through the cache ``texts``, filled from ``vocab`` on a miss."""
    try:
        return list(map(texts.__getitem__, ids))
    except KeyError:
        strings = vocab.strings
        texts.update((h, strings[h]) for h in ids if h not in texts)
        return list(map(strings.__getitem__, ids))


class WordTables:
    """Orth id <-> text tables of one vocabulary, kept across documents (like the vocabulary,
    they grow with the distinct words seen); :meth:`of` starts afresh for another one."""

    def __init__(self) -> None:
        self.vocab: Vocab | None = None
        self.texts: dict[int, str] = {}  # orth id -> text
        self.orths: dict[str, int] = {}  # text -> orth id

    def of(self, vocab: Vocab) -> WordTables:
        """These tables, emptied first if they belong to another vocabulary."""
        if vocab is not self.vocab:
            self.vocab, self.texts, self.orths = vocab, {}, {}
        return self

    def texts_of(self, vocab: Vocab, ids: list[int]) -> list[str]:
        """The texts of orth ids of ``vocab`` (as :func:`cached_words`)."""
        return _texts(self.of(vocab).texts, vocab, ids)

    def orth_ids(self, vocab: Vocab, words: list[str]) -> list[int]:
        """The orth ids of ``words`` in ``vocab`` (``Doc(vocab, words=ids)`` makes the same
        Doc as ``words=words`` without hashing every string: 4x cheaper)."""
        orths = self.of(vocab).orths
        try:
            return list(map(orths.__getitem__, words))
        except KeyError:
            ids = list(map(vocab.strings.add, words))
            if not vocab.in_memory_zone:  # a zone's strings are dropped when it ends
                orths.update(zip(words, ids, strict=True))
            return ids
