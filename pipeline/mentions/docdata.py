"""What the mention component reads from a Doc beyond the context: the sentence of a token,
the NER confidence of a chemical span."""

from __future__ import annotations

from bisect import bisect_right

from spacy.tokens import Doc

from chemie.context import sentence_starts


def ner_confidence(store: dict, start: int, end: int) -> float:
    """The NER confidence of the chemical span ``start:end`` in the doc's NER ``store`` (0.5
    when unknown)."""
    entry = store.get(f"{start}:{end}")
    conf = entry[1] if entry else None
    return 0.5 if conf is None else float(conf)


class SentenceIndex:
    """``index[token]`` -> the sentence index of the token (a bisect over the sentence starts:
    only the few tokens that begin a mention are looked up)."""

    __slots__ = ("starts",)

    def __init__(self, starts: list[int]):
        self.starts = starts

    def __getitem__(self, token: int) -> int:
        return bisect_right(self.starts, token) - 1


def sentence_index(doc: Doc) -> SentenceIndex:
    """The sentence index of every token (all 0 without sentence boundaries)."""
    return SentenceIndex(sentence_starts(doc))

