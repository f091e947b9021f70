"""The document context (``chemie.context``): the words and class string of the mention tagger
belong to the pipeline that runs, never to a default behind its back."""

from __future__ import annotations

import pytest
from spacy.tokens import Doc

from chemie.context import TOKEN_INFO, relations_of, token_info, use_tagger
from chemie.mentions.tagger import default_tagger
from chemie.model import Document, Mention, tokens_from_words
from chemie.nlp import annotate, load


class _Counting:
    """A mention tagger that counts the documents it tags (the rest is the tagger's)."""

    def __init__(self, tagger: object) -> None:
        self.tagger, self.calls = tagger, 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.tagger, name)

    def class_string(self, doc: Doc) -> tuple[list[str], str, list[str]]:
        self.calls += 1
        return self.tagger.class_string(doc)


@pytest.fixture(scope="module")
def nlp():
    return load(ner=False)


def test_a_class_string_needs_a_tagger(nlp):
    doc = nlp.make_doc("The acid was added .")
    with pytest.raises(ValueError, match="chemie_mentions did not run"):
        token_info(doc)
    tagger = _Counting(default_tagger())
    use_tagger(doc, tagger)
    words, classes = token_info(doc)
    assert words == ["The", "acid", "was", "added", "."] and len(classes) == 5
    assert tagger.calls == 1 and doc.user_data[TOKEN_INFO] == (words, classes)
    assert token_info(doc) == (words, classes) and tagger.calls == 1  # stored, not made again


def test_gold_mentions_are_read_with_the_pipelines_own_tagger(nlp, monkeypatch):
    """With gold mentions chemie_mentions does not run; the coreference rules still read the
    class string of the pipeline's mention table (a saved pipeline may have edited it)."""
    detector = nlp.get_pipe("chemie_mentions")
    own = _Counting(detector.tagger)
    monkeypatch.setattr(detector, "tagger", own)
    text, tokens = tokens_from_words("Water ( 5 mL ) was added . The water was removed .".split())
    mentions = [Mention("T1", ((0, 5),), text="Water"),
                Mention("T2", ((27, 36),), text="The water")]
    assert text[27:36] == "The water"
    out = annotate(nlp, Document("t", text, tokens, [(0, 6), (6, 11)], mentions),
                   gold_mentions=True)
    assert own.calls == 1
    assert [(r.head, r.tail) for r in out.relations if r.label == "COREFERENCE"] == [("T2", "T1")]


def test_relation_lists_are_per_doc(nlp):
    a, b = nlp.make_doc("one"), nlp.make_doc("two")
    relations_of(a).append("x")
    assert relations_of(b) == []
