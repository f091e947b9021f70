"""Bridging rules (chemie_bridging) on hand-written snippets: every rule fires."""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import spacy
import yaml
from spacy.tokens import Doc

import chemie.actions.component  # noqa: F401  (registers chemie_actions)
import chemie.bridging.component  # noqa: F401  (registers chemie_bridging)
from chemie.bridging.rules import ADDED, PREVIOUS, RULES, bridging_table
from chemie.bridging.rules import rule as register_rule
from chemie.context import actions_of, relations_of
from chemie.formats.chemu import iter_chemu
from chemie.model import Mention
from chemie.resources import load_rules
from chemie.tables import TableError

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


def gold_mention_docs(nlp, corpus, n: int) -> Iterator[Doc]:
    """The first ``n`` documents of ChEMU-Ref train as Docs with their gold mentions."""
    for d in itertools.islice(iter_chemu(corpus("chemu-ref/train.jsonl")), n):
        starts = {a for a, _ in d.sentences}
        doc = Doc(nlp.vocab, words=[t.text for t in d.tokens],
                  sent_starts=[i in starts for i in range(len(d.tokens))])
        doc._.mentions = [Mention(m.id, m.spans) for m in d.mentions]
        yield doc


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


def tried_on_every_antecedent(monkeypatch, nlp) -> Counter:
    """Make the walk of ``nlp`` try every rule on every antecedent it offers (asserting that
    at most one fires); the counter of offers by the number of rules that fired."""
    resolver = nlp.get_pipe("chemie_bridging")
    links, offers = resolver._links, Counter()
    table = resolver.t.rules

    def every_rule(out, s, role, antecedents):
        antecedents = list(antecedents)
        for a in antecedents:
            fired = [name for name in table if role in RULES[name].to and RULES[name].fn(s, a)]
            assert len(fired) <= 1, f"{role} antecedent {a.id} of {s.m.id}: {fired}"
            # a rule's phase (workup=) only leaves out calls that return False
            assert all(RULES[name].admits(s.in_workup) for name in fired), fired
            offers[len(fired)] += 1
        return links(out, s, role, antecedents)

    monkeypatch.setattr(resolver, "_links", every_rule)
    return offers


def test_at_most_one_rule_fires_on_an_antecedent_of_a_snippet(monkeypatch, nlp):
    """The order of the table does not matter: no two rules claim one antecedent."""
    offers = tried_on_every_antecedent(monkeypatch, nlp)
    for snippet in SNIPPETS:
        run(nlp, snippet)
    assert offers[1] > 50 and offers[0] > 0


@pytest.mark.corpus
def test_at_most_one_rule_fires_on_an_antecedent(monkeypatch, nlp, corpus):
    """The same on ChEMU-Ref documents 0-599 (the tuning part) with gold mentions."""
    offers = tried_on_every_antecedent(monkeypatch, nlp)
    for doc in gold_mention_docs(nlp, corpus, 600):
        for _, proc in nlp.pipeline:
            doc = proc(doc)
    assert offers[1] > 3000


def test_a_table_and_its_functions_name_the_same_rules(tmp_path):
    data = copy.deepcopy(load_rules("bridging.yaml"))  # (load_rules is cached: a copy)
    data["rules"]["ra_renamed_state"] = data["rules"].pop("ra_previous_state")
    (tmp_path / "bridging.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(TableError, match="no bridging rule function for ra_renamed_state"):
        bridging_table(tmp_path / "bridging.yaml")

    @register_rule("ra_unlisted", to=(ADDED,))
    def ra_unlisted(s, a):
        return False

    try:
        with pytest.raises(TableError, match="functions without an entry: ra_unlisted"):
            bridging_table("bridging.yaml")
    finally:
        del RULES["ra_unlisted"]
    with pytest.raises(ValueError, match="registered twice"):
        register_rule("ra_previous_state", to=(PREVIOUS,))(ra_unlisted)
    with pytest.raises(ValueError, match="no antecedent role"):
        register_rule("ra_unlisted", to=("next",))


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
    tp = fp = 0
    golds = itertools.islice(iter_chemu(corpus("chemu-ref/train.jsonl")), 40)
    for d, doc in zip(golds, gold_mention_docs(nlp, corpus, 40), strict=True):
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
    from chemie.context import number_relations
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
