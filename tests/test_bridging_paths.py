"""The short path of the bridging classifier (a mention without a word of the rule tables)
decides as the full one does, on the hand-written bridging snippets and on names next to the
words that send them to the full path."""

from __future__ import annotations

import bisect

import pytest
from test_bridging import SNIPPETS, bridging_pipeline, make_doc

import chemie.actions.component  # noqa: F401  (registers chemie_actions)
import chemie.bridging.component  # noqa: F401  (registers chemie_bridging)
from chemie.actions.component import mention_views, token_table
from chemie.bridging.component import SKIP, STATE, _Context
from chemie.extensions import actions_of
from chemie.mentions.document import doc_text


@pytest.fixture(scope="module")
def nlp():
    return bridging_pipeline()


def both_paths(nlp, sentences: list[str], mentions: dict[str, str]) -> dict[str, tuple]:
    """mention id -> (short path, full path) for the mentions the short path takes."""
    doc = make_doc(nlp, sentences, mentions)
    doc = nlp.get_pipe("chemie_actions")(doc)
    resolver = nlp.get_pipe("chemie_bridging")
    table = token_table(doc)
    ctx = _Context(actions_of(doc), table, doc_text(doc, table.text), resolver)
    ctx.views = views = mention_views(doc)
    out = {}
    for m in views:
        if not resolver._rule_words.isdisjoint(m.words) or m.words[-1] in resolver._anaphor_ends:
            continue  # the full path only
        ctx.step_start = ctx.first_action.get(bisect.bisect_right(ctx.headings,
                                                                  table.idx[m.first]))
        out[m.id] = (resolver._classify_name(m, ctx), resolver.classify(m, ctx))
    return out


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s["name"] for s in SNIPPETS])
def test_short_path_agrees_on_snippets(nlp, snippet):
    for mid, (short, full) in both_paths(nlp, snippet["sentences"],
                                         snippet["mentions"]).items():
        assert short == full, mid


def test_short_path_defers_to_the_words_around_a_name(nlp):
    got = both_paths(
        nlp,
        ["Compound 24 was synthesized from DCM as a white solid ( 34.8 mg , 31% ) .",
         "The product was obtained in the form of THF .",
         "Synthesis of ZnCl2 is depicted in FIG. 9 .",
         "The flask was cooled in an NaCl bath .",
         "Ester 7 ( 1.2 g , 85% ) ."],
        {"c24": "Compound 24", "dcm": "DCM", "thf": "THF", "zn": "ZnCl2", "nacl": "NaCl",
         "c7": "Ester 7 ( 1.2 g , 85% )"},
    )
    assert got["thf"] == (SKIP, SKIP)  # "in the form of X": a description
    assert got["zn"] == (SKIP, SKIP)  # "Synthesis of X": the target
    assert got["nacl"] == (SKIP, SKIP)  # "X bath": apparatus
    assert got["c7"] == (STATE, STATE)  # a mass and a percentage: a product with its yield
    assert all(short == full for short, full in got.values())
