"""Annotated Docs serialise: Doc.to_bytes, DocBin with user data, nlp.pipe(n_process=2)."""

from __future__ import annotations

import pytest
from spacy.tokens import Doc, DocBin

from chemie.context import actions_of, mentions_of, relations_of
from chemie.model import Mention
from chemie.nlp import load
from chemie.serialize import decode, encode

TEXTS = [
    "Example 3 To a solution of 4-bromoaniline ( 1.00 g , 5.81 mmol ) in THF ( 20 mL ) was "
    "added NaH ( 0.25 g ). The mixture was stirred for 2 h. The reaction mixture was "
    "concentrated and the residue was purified to give the title compound ( 0.8 g ).",
    "A mixture of benzaldehyde ( 2.0 g ) and ethanol ( 10 mL ) was heated at 80° C. "
    "The solvent was removed to give the product as a white solid ( 1.5 g , 75% ).",
]


@pytest.fixture(scope="module")
def nlp():
    return load()


def _annotations(doc: Doc) -> tuple[list, list, list]:
    return mentions_of(doc), relations_of(doc), actions_of(doc)


def test_doc_to_bytes_round_trip_keeps_every_annotation(nlp) -> None:
    doc = nlp(TEXTS[0])
    assert mentions_of(doc) and relations_of(doc) and actions_of(doc)
    back = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert _annotations(back) == _annotations(doc)
    m = mentions_of(back)[0]
    # msgpack lists come back as the tuples the components write
    assert isinstance(m.spans, tuple) and all(isinstance(r, tuple) for r in m.spans)
    assert isinstance(m.tokens, tuple)
    assert all(isinstance(r, tuple) for r in m.ranges)


def test_docbin_with_user_data_round_trip(nlp) -> None:
    docs = list(nlp.pipe(TEXTS))
    data = DocBin(docs=docs, store_user_data=True).to_bytes()
    back = list(DocBin().from_bytes(data).get_docs(nlp.vocab))
    assert [_annotations(d) for d in back] == [_annotations(d) for d in docs]


def test_pipe_with_two_processes_equals_one(nlp) -> None:
    one = [_annotations(d) for d in nlp.pipe(TEXTS)]
    two = [_annotations(d) for d in nlp.pipe(TEXTS, n_process=2, batch_size=1)]
    assert two == one


def test_other_objects_go_on_to_the_next_codec() -> None:
    assert encode(5, chain=lambda o: ("next", o)) == ("next", 5)
    assert decode({"a": 1}, chain=lambda o: ("next", o)) == ("next", {"a": 1})
    m = Mention("M1", ((0, 4),), text="NaOH", rule="r", confidence=0.5, core=[0, 0])
    assert decode(encode(m)).core == (0, 0)
