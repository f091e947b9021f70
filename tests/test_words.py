"""The orth ids chemie_sentences leaves in the context (``chemie.orth_ids``)."""

from __future__ import annotations

from spacy.attrs import ORTH
from spacy.tokens import Doc

from chemie.context import ORTH_IDS, cached_words, orth_ids
from chemie.ner.finder import SPANS_KEY
from chemie.tokenizer.language import blank

TEXT = "The acid (2 g) was added to THF. Then tetrahydrofuran (THF) was stirred."


def _chemicals(doc: Doc) -> list[tuple[int, int, str]]:
    return [(s.start, s.end, s.label_) for s in doc.spans[SPANS_KEY]]


def test_sentences_leave_the_orth_ids_and_every_reader_finds_them():
    nlp = blank()
    nlp.add_pipe("chemie_ner")
    doc = nlp.make_doc(TEXT)
    nlp.get_pipe("chemie_sentences")(doc)
    ids = doc.to_array(ORTH).tolist()
    assert doc.user_data[ORTH_IDS] == ids
    nlp.get_pipe("chemie_ner")(doc)
    assert doc.user_data[ORTH_IDS] == ids  # read, not taken: the next reader has them too
    assert orth_ids(doc) == ids
    plain = nlp.make_doc(TEXT)
    nlp.get_pipe("chemie_ner")(plain)  # without the ids: the same mentions
    assert _chemicals(doc) == _chemicals(plain)
    assert _chemicals(doc)


def test_ids_that_no_longer_fit_the_doc_are_ignored():
    nlp = blank()
    doc = nlp.make_doc(TEXT)
    doc.user_data[ORTH_IDS] = doc.to_array(ORTH).tolist()[:-1]
    assert cached_words(doc, {}) == [t.text for t in doc]
    assert orth_ids(doc) == doc.to_array(ORTH).tolist()
