"""What the mention component reads from a Doc, cached in ``doc.user_data``: the sentence
starts and the NER chemical spans with their confidences."""

from __future__ import annotations

from bisect import bisect_right

from spacy.tokens import Doc

from chemie.extensions import CHEMICAL_SPANS, CHEMICALS, SENTENCE_STARTS


def chemical_spans(doc: Doc) -> list[tuple[int, int, str]]:
    """The NER chemical spans (``doc.spans["chemicals"]``): start, end, class (cached in
    ``doc.user_data``: reading a span group makes a Span object per span)."""
    found = doc.user_data.get(CHEMICALS)
    if found is None:
        spans = doc.spans.get(CHEMICAL_SPANS) if doc.spans is not None else None
        found = sorted([(sp.start, sp.end, sp.label_) for sp in spans]) if spans else []
        doc.user_data[CHEMICALS] = found
    return found




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


def sentence_starts(doc: Doc) -> list[int]:
    """The first token of every sentence, 0 first ([0] without sentence boundaries); cached in
    ``doc.user_data``."""
    starts = doc.user_data.get(SENTENCE_STARTS)
    if starts is None:
        starts = [0]
        if doc.has_annotation("SENT_START"):
            # Doc.sents starts at token 0 and wherever sent_start is 1
            starts = [sent.start for sent in doc.sents] or [0]
        doc.user_data[SENTENCE_STARTS] = starts
    return starts


def sentence_index(doc: Doc) -> SentenceIndex:
    """The sentence index of every token (all 0 without sentence boundaries)."""
    return SentenceIndex(sentence_starts(doc))

