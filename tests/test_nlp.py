"""chemie.nlp: pipeline assembly and the Document <-> Doc bridge."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from spacy.attrs import IS_ALPHA, LENGTH, LOWER, ORTH, SHAPE, SPACY
from spacy.tokens import Doc

import chemie
from chemie.context import CHEMICAL_SPANS
from chemie.formats.chemu import read_chemu
from chemie.model import Document, Token, make_tokens, tokens_from_words
from chemie.nlp import (
    RELATION_COLUMNS,
    annotate,
    annotate_text,
    describe,
    doc_from_document,
    load,
    relations_frame,
    to_document,
)
from chemie.resources import example_path

MINI = Path(__file__).parent / "fixtures" / "anaphora" / "mini.jsonl"


@pytest.fixture(scope="module")
def nlp():
    return load()


@pytest.fixture(scope="module")
def mini():
    return read_chemu(MINI)


def test_pipeline_order(nlp):
    names = [n for n in nlp.pipe_names if n.startswith("chemie_")]
    order = ["chemie_ner", "chemie_mentions", "chemie_actions", "chemie_coref", "chemie_bridging"]
    present = [n for n in order if n in names]
    assert present == [n for n in names if n in order]
    assert "chemie_mentions" in names and "chemie_coref" in names


def test_load_options():
    assert "chemie_ner" not in load(ner=False).pipe_names
    assert chemie.load(coref="atomic").get_pipe("chemie_coref").mode == "atomic"
    with pytest.raises(ValueError, match="coref"):
        load(coref="closest")
    with pytest.raises(TypeError, match="unknown component"):
        load(parser={})


def test_roles_and_reactions_only_on_request():
    """The anaphora pipeline does not pay for the roles or the reactions it does not use."""
    assert not {"chemie_roles", "chemie_events", "chemie_reactions"} & set(load().pipe_names)
    assert load(roles=True).pipe_names[-2:] == ["chemie_roles", "chemie_events"]
    assert load(roles={"lexicon": "chemu2020_roles.tsv"}).pipe_names[-2:] == [
        "chemie_roles", "chemie_events"]
    assert load(reactions=True, reactions_config={"structures": False}).pipe_names[-2:] == [
        "chemie_roles", "chemie_reactions"]


def test_no_rdkit_without_structures():
    """Neither the anaphora pipeline nor reactions with structures off import RDKit (memory
    and start-up of every worker)."""
    code = ("import sys, chemie\n"
            "chemie.load()('Benzoic acid (1 g) was added.')\n"
            "nlp = chemie.load(reactions=True, reactions_config={'structures': False})\n"
            "assert nlp('Benzoic acid (1 g) was stirred in THF.')._.reactions\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'rdkit'))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_doc_from_document_keeps_tokens_and_sentences(nlp, mini):
    d = mini[0]
    doc = doc_from_document(nlp, d)
    assert [t.text for t in doc] == [t.text for t in d.tokens]
    assert doc.text == d.text
    assert doc._.doc_id == d.id
    starts = [i for i, t in enumerate(doc) if t.is_sent_start]
    assert starts == [a for a, _ in d.sentences]


def test_doc_from_document_gold_mentions(nlp, mini):
    d = mini[0]
    doc = doc_from_document(nlp, d, gold_mentions=True)
    assert [m.spans for m in doc._.mentions] == [m.spans for m in d.mentions]
    for m in doc._.mentions:
        assert m.kind and m.tokens is not None  # described: kind, head, sentence, tokens …


def test_annotate_pretokenized_preserves_input(nlp, mini):
    d = mini[0]
    out = annotate(nlp, d)
    assert (out.id, out.text, out.tokens, out.sentences) == (d.id, d.text, d.tokens, d.sentences)
    assert out.meta["format"] == "chemu"
    assert out.mentions and all(m.rule for m in out.mentions)
    assert all(r.rule for r in out.relations)
    ids = {m.id for m in out.mentions}
    assert all(r.head in ids and r.tail in ids for r in out.relations)
    for m in out.mentions:
        assert m.text == out.span_text(m.spans)


def test_annotate_maps_offsets_when_text_has_extra_spaces(nlp):
    text = "Water  (5 mL)  was added ."
    words = ["Water", "(", "5", "mL", ")", "was", "added", "."]
    tokens, pos = [], 0
    for w in words:
        pos = text.index(w, pos)
        tokens.append(Token(w, pos, pos + len(w)))
        pos += len(w)
    out = annotate(nlp, Document("x", text, tokens, [(0, len(tokens))]))
    assert any(m.text == "Water  (5 mL)" for m in out.mentions)


def test_annotate_text_and_describe(nlp):
    text = example_path("example.txt").read_text(encoding="utf-8")
    d = annotate_text(nlp, text, "example")
    assert d.id == "example" and d.tokens and d.sentences
    assert any(r.label == "COREFERENCE" for r in d.relations)
    out = describe(d)
    assert "--COREFERENCE[" in out and "the title compound" in out


def test_to_document_and_relations_frame(nlp):
    doc = nlp("Step 1 Synthesis of 4-bromophenol\nThe residue gave the title compound (1 g).")
    doc._.doc_id = "d1"
    d = to_document(doc)
    assert d.id == "d1" and d.text == doc.text
    frame = relations_frame([d])
    assert list(frame.columns) == RELATION_COLUMNS
    assert len(frame) == len(d.relations)
    row = frame[frame.label == "COREFERENCE"].iloc[0]
    assert d.text[row.anaphor_start : row.anaphor_end].startswith(row.anaphor.split()[0])


def _brat_document(text: str, mentions: list[tuple[int, int]]) -> Document:
    """A Document as chemie.formats.brat.read_brat_pair builds it (whitespace tokens)."""
    import re

    from chemie.model import Mention

    tokens = [Token(m.group(), m.start(), m.end()) for m in re.finditer(r"\S+", text)]
    d = Document("b1", text, tokens)
    d.mentions = [
        Mention(f"T{i}", ((a, b),), text=text[a:b]) for i, (a, b) in enumerate(mentions, 1)
    ]
    d.meta.update(format="brat")
    return d


def test_doc_from_document_mention_inside_brat_token(nlp):
    # QA: "chemie show" on brat output crashed with KeyError when a mention ends inside "mL)."
    text = "Add tetrahydrofuran (100 mL).\nThe  mixture was stirred.\n"
    end = text.index(")") + 1  # the mention ends inside the token "mL)."
    d = _brat_document(text, [(4, end), (text.index("The"), text.index(" was"))])
    doc = doc_from_document(nlp, d, gold_mentions=True)
    spans = [m.spans for m in doc._.mentions]
    token = doc[[t.text for t in doc].index("mL).")]
    assert spans[0] == ((4, token.idx + len(token)),)  # grown to the covering token
    the = doc[[t.text for t in doc].index("The")]
    assert spans[1] == ((the.idx, doc.text.index(" was")),)


def test_show_describes_brat_mentions_inside_tokens(nlp):
    from chemie.show.describe import describe_mentions

    text = "Add tetrahydrofuran (100 mL).\nThe mixture was stirred.\n"
    d = _brat_document(text, [(4, text.index(")") + 1)])
    (out,) = describe_mentions(nlp, [d])
    assert out.mentions[0].spans == d.mentions[0].spans and out.mentions[0].kind


def test_annotate_does_not_copy_gold_metadata(nlp, mini):
    d = mini[0]
    d.meta["dropped_pairs"] = 6
    out = annotate(nlp, d)
    assert "dropped_pairs" not in out.meta and out.meta["format"] == "chemu"
    raw = annotate(nlp, Document("r", "Water (5 mL) was added.", meta={"dropped_pairs": 2}))
    assert "dropped_pairs" not in raw.meta


def test_raw_text_drops_whitespace_tokens(nlp):
    text = "Compound 5 (2 g) was added.\n\nThe mixture was stirred.\n"
    d = annotate_text(nlp, text)
    assert d.tokens and all(t.text.strip() for t in d.tokens)
    assert all(text[t.start : t.end] == t.text for t in d.tokens)
    assert d.sentences[0][0] == 0 and d.sentences[-1][1] == len(d.tokens)
    assert all(b > a for a, b in d.sentences)
    mixture = next(m for m in d.mentions if m.text.endswith("mixture"))
    first, last = mixture.tokens
    assert d.tokens[last].text == "mixture"


def test_raw_text_yield_joins_the_product(nlp):
    # the example: amount + name + yield are one discontinuous mention
    text = (
        "114 mg of 4-((4aS,7aS)-6-benzyloctahydro-1H-pyrrolo[3,4-b]pyridin-1-yl)pyrimidine "
        "was obtained with a yield of about 99.1%."
    )
    d = annotate_text(nlp, text)
    product = next(m for m in d.mentions if m.start == 0)
    assert [text[a:b] for a, b in product.spans] == [
        text[: text.index(" was")], "with a yield of about 99.1%"
    ]
    assert product.rule == "np_with_later_yield"


def test_mentions_carry_chemdner_class_and_confidence(nlp):
    d = annotate_text(nlp, "NaH (1 g) was added to the mixture.")
    assert all(m.confidence is not None and 0 < m.confidence <= 1 for m in d.mentions)
    nah = next(m for m in d.mentions if m.text.startswith("NaH"))
    assert nah.chemdner_class == "FORMULA"
    mixture = next(m for m in d.mentions if m.text.endswith("mixture"))
    assert mixture.chemdner_class is None


def test_chemical_mention_confidence_is_the_ner_confidence(nlp):
    doc = nlp("NaH (1 g) was added to the mixture.")
    span = next(s for s in doc.spans[CHEMICAL_SPANS] if s.text == "NaH")
    nah = next(m for m in doc._.mentions if m.text.startswith("NaH"))
    assert span._.chem_conf is not None and nah.confidence == pytest.approx(span._.chem_conf)


def test_raw_text_extra_spaces_inside_a_noun_phrase(nlp):
    d = annotate_text(nlp, "Then the\nreaction mixture was stirred.  The  residue was dried.")
    texts = [m.text for m in d.mentions]
    assert "the\nreaction mixture" in texts and "The  residue" in texts


def test_to_document_sentences_are_the_docs_sentences(nlp):
    doc = nlp("Water was added. The mixture was stirred. Step 2 To the residue was added THF.")
    assert to_document(doc).sentences == [(s.start, s.end) for s in doc.sents]
    # a ``sents`` hook (spaCy's way to override sentences) is followed too
    doc.user_hooks["sents"] = lambda d: iter([d[:]])
    assert to_document(doc).sentences == [(0, len(doc))]


def test_to_document_tokens_are_ordinary_frozen_tokens(nlp):
    """Tokens built on the fast path equal, hash and copy like ``Token(...)`` ones."""
    out = annotate_text(nlp, "The acid (2 g) was added.")
    expected = [Token("The", 0, 3), Token("acid", 4, 8), Token("(", 9, 10)]
    assert out.tokens[:3] == expected
    assert {*out.tokens[:3]} == {*expected}
    assert pickle.loads(pickle.dumps(out.tokens)) == out.tokens
    assert dataclasses.asdict(out.tokens[1]) == {"text": "acid", "start": 4, "end": 8}
    assert dataclasses.replace(out.tokens[1], end=5) == Token("acid", 4, 5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        out.tokens[0].text = "A"  # type: ignore[misc]
    assert make_tokens(["a", "bc"], [0, 2], iter([1, 4])) == [Token("a", 0, 1), Token("bc", 2, 4)]
    assert make_tokens([], [], []) == []


def test_doc_from_document_builds_the_doc_spacy_builds_from_words(nlp):
    """Words passed as orth ids (the fast path) give the Doc that words as strings give."""
    words = ["NOUN", "zebrafishoid-4", "a", "a", "NOUN", "é", "."]
    _, tokens = tokens_from_words(words)
    document = Document("d", " ".join(words), tokens, [(0, 3), (3, 7)])
    for _ in range(2):  # the second time through the orth id table
        doc = doc_from_document(nlp, document)
        plain = Doc(nlp.vocab, words=words, spaces=[True] * 6 + [False])
        attrs = [ORTH, LOWER, SHAPE, IS_ALPHA, SPACY, LENGTH]
        assert doc.to_array(attrs).tolist() == plain.to_array(attrs).tolist()
        assert doc.text == plain.text == document.text
        assert [t.is_sent_start for t in doc] == [True, False, False, True, False, False, False]
        assert doc._.doc_id == "d"
