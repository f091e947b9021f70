"""The orth ids chemie_sentences leaves for the NER (``chemie.orth_ids``)."""

from __future__ import annotations

from spacy.attrs import ORTH
from spacy.tokens import Doc

from chemie.components.words import cached_words
from chemie.extensions import ORTH_IDS
from chemie.ner.component import SPANS_KEY
from chemie.tokenizer.language import blank

TEXT = "The acid (2 g) was added to THF. Then tetrahydrofuran (THF) was stirred."


def _chemicals(doc: Doc) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.label_) for s in doc.spans[SPANS_KEY]]


def test_sentences_leave_the_orth_ids_and_the_ner_takes_them():
    nlp = blank()
    nlp.add_pipe("chemie_ner")
    doc = nlp.make_doc(TEXT)
    nlp.get_pipe("chemie_sentences")(doc)
    assert doc.user_data[ORTH_IDS] == doc.to_array(ORTH).tolist()
    nlp.get_pipe("chemie_ner")(doc)
    assert ORTH_IDS not in doc.user_data
    plain = nlp.make_doc(TEXT)
    nlp.get_pipe("chemie_ner")(plain)  # without the ids: the same mentions
    assert _chemicals(doc) == _chemicals(plain)
    assert _chemicals(doc)


def test_ids_that_no_longer_fit_the_doc_are_ignored():
    nlp = blank()
    doc = nlp.make_doc(TEXT)
    doc.user_data[ORTH_IDS] = doc.to_array(ORTH).tolist()[:-1]
    assert cached_words(doc, {}) == [t.text for t in doc]
    assert ORTH_IDS not in doc.user_data
