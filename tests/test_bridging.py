"""Bridging rules (chemie_bridging) on hand-written snippets: every rule fires."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
import spacy
import yaml
from spacy.tokens import Doc

import chemie.actions.component  # noqa: F401  (registers chemie_actions)
import chemie.bridging.component  # noqa: F401  (registers chemie_bridging)
from chemie.extensions import actions_of, relations_of
from chemie.model import Mention
from chemie.resources import load_rules

SNIPPETS = yaml.safe_load(
    (Path(__file__).parent / "fixtures" / "bridging" / "snippets.yaml").read_text("utf-8")
)


def bridging_pipeline() -> spacy.language.Language:
    """Blank English with the action parser and the bridging resolver (mentions are given)."""
    nlp = spacy.blank("en")
    nlp.add_pipe("chemie_actions")
    nlp.add_pipe("chemie_bridging")
    return nlp


@pytest.fixture(scope="module")
def nlp():
    return bridging_pipeline()


def make_doc(nlp, sentences: list[str], mentions: dict[str, str]) -> Doc:
    """A Doc of space-separated tokens with the named mentions ("text@N" = N-th occurrence)."""
    words, starts = [], []
    for s in sentences:
        toks = s.split()
        starts.append(len(words))
        words.extend(toks)
    doc = Doc(nlp.vocab, words=words, sent_starts=[i in starts for i in range(len(words))])
    for mid, spec in mentions.items():
        text, _, nth = spec.partition("@")
        target = text.split()
        hits = [i for i in range(len(words)) if words[i : i + len(target)] == target]
        i = hits[int(nth) - 1 if nth else 0]
        first, last = doc[i], doc[i + len(target) - 1]
        span = ((first.idx, last.idx + len(last.text)),)
        doc._.mentions = (doc._.mentions or []) + [Mention(mid, span, text=text)]
    return doc


def run(nlp, snippet: dict) -> Doc:
    doc = make_doc(nlp, snippet["sentences"], snippet["mentions"])
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    return doc


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s["name"] for s in SNIPPETS])
def test_snippet_relations(nlp, snippet):
    doc = run(nlp, snippet)
    got = {(r.label, r.rule, r.head, r.tail) for r in relations_of(doc)}
    for label, rule, head, tail in snippet["expect"]:
        assert (label, rule, head, tail) in got, f"missing {label} {head}->{tail} by {rule}"
    linked = {(r.head, r.tail) for r in relations_of(doc)}
    for head, tail in snippet.get("absent", []):
        assert (head, tail) not in linked


def test_every_rule_fires_and_is_documented(nlp):
    table = load_rules("bridging.yaml")["rules"]
    fired = {
        r.rule for s in SNIPPETS for r in relations_of(run(nlp, s))
    }
    assert fired == set(table)
    for name, rule in table.items():
        assert rule["comment"].strip(), name
        assert rule["label"] in {"TRANSFORMED", "REACTION_ASSOCIATED", "WORK_UP", "CONTAINED"}


def test_antecedents_precede_anaphors(nlp):
    for snippet in SNIPPETS:
        doc = run(nlp, snippet)
        index = {m.id: m for m in doc._.mentions}
        for r in relations_of(doc):
            assert index[r.tail].start < index[r.head].start


def test_no_mentions_no_relations(nlp):
    doc = run(nlp, {"sentences": ["The mixture was stirred ."], "mentions": {}})
    assert relations_of(doc) == []
    assert [a.label for a in actions_of(doc)] == ["Stir"]


@pytest.mark.corpus
def test_gold_mentions_on_corpus_slice(nlp, corpus):
    """On a few corpus documents with gold mentions, most predicted links are gold links."""
    from chemie.formats.chemu import iter_chemu

    tp = fp = 0
    for d in itertools.islice(iter_chemu(corpus("chemu-ref/train.jsonl")), 40):
        starts = {a for a, _ in d.sentences}
        doc = Doc(nlp.vocab, words=[t.text for t in d.tokens],
                  sent_starts=[i in starts for i in range(len(d.tokens))])
        doc._.mentions = [Mention(m.id, m.spans) for m in d.mentions]
        for _, proc in nlp.pipeline:
            doc = proc(doc)
        gold = {(r.label, r.head, r.tail) for r in d.relations}
        for r in relations_of(doc):
            if (r.label, r.head, r.tail) in gold:
                tp += 1
            else:
                fp += 1
    assert tp > 2 * fp


def test_bridging_relations_have_unique_stable_ids(nlp):
    for snippet in SNIPPETS:
        rels = relations_of(run(nlp, snippet))
        ids = [r.id for r in rels]
        assert ids == [f"B{n}" for n in range(1, len(rels) + 1)]
        assert ids == [r.id for r in relations_of(run(nlp, snippet))]  # the same on a re-run


def test_whole_pipeline_relation_ids_are_unique():
    from chemie.model import Document
    from chemie.nlp import annotate, load

    text = ("Compound 5 ( 1 g ) was added to a flask . The mixture was stirred and then "
            "compound 5 was obtained . The mixture was extracted with ethyl acetate .")
    doc = annotate(load(ner=False), Document("d", text))
    ids = [r.id for r in doc.relations]
    assert len(set(ids)) == len(ids) and all(ids)
    assert {r.id[0] for r in doc.relations if r.label == "COREFERENCE"} == {"C"}
    assert {r.id[0] for r in doc.relations if r.label != "COREFERENCE"} == {"B"}


def test_number_relations_skips_taken_ids():
    from chemie.coref.component import number_relations
    from chemie.model import Relation

    rels = [Relation("WORK_UP", "M2", "M1", id="B1"), Relation("WORK_UP", "M3", "M1"),
            Relation("CONTAINED", "M4", "M3")]
    number_relations(rels, 1, "B")
    assert [r.id for r in rels] == ["B1", "B2", "B3"]


def test_eluent_inside_a_discontinuous_silica_mention_is_used(nlp):
    """'silica gel ( 120 g , EtOAc in hexanes )': the eluent inside the bracket of a
    discontinuous mention is an input, a one-word label there ('( 2a )') is not."""
    doc = make_doc(nlp, ["The residue was purified on silica gel ( 120 g , EtOAc in hexanes ) "
                         "to give ester P ( 1 g ) ."],
                   {"res": "The residue", "eluent": "EtOAc in hexanes", "p": "ester P ( 1 g )"})
    words = [t.text for t in doc]
    i, j = words.index("silica"), words.index(")")
    silica = Mention("silica", ((doc[i].idx, doc[i + 4].idx + 1), (doc[j].idx, doc[j].idx + 1)))
    doc._.mentions = [*doc._.mentions, silica]
    for _, proc in nlp.pipeline:
        doc = proc(doc)
    got = {(r.head, r.tail) for r in relations_of(doc)}
    assert {("p", "silica"), ("p", "eluent")} <= got
