"""Token and mention tables of the action parser (chemie_actions): offsets, views, ranges."""

from __future__ import annotations

import spacy
from spacy.tokens import Doc

import chemie.actions.component  # noqa: F401  (registers chemie_actions)
from chemie.actions.component import head_word, mention_table, token_table
from chemie.extensions import TOKEN_INFO, actions_of
from chemie.model import Mention


def make_doc(text_words: list[str], spaces: list[bool] | None = None) -> Doc:
    nlp = spacy.blank("en")
    return Doc(nlp.vocab, words=text_words, spaces=spaces)


def test_token_table_finds_tokens_by_their_start_and_end():
    spaces = [True, True, False, True, False, False, False]
    doc = make_doc(["The", "acid", "(", "2", "g", ")", "."], spaces)
    table = token_table(doc)
    assert doc.text == "The acid (2 g)."
    for i, tok in enumerate(doc):
        assert table.starting_at(tok.idx) == i
        assert table.ending_at(tok.idx + len(tok.text)) == i
    assert table.ending_at(doc.text.index("cid")) is None  # inside "acid"
    assert table.ending_at(doc.text.index("acid") + 4 + 1) is None  # after the space
    assert table.starting_at(1) is None


def test_token_table_from_the_mention_detectors_words_matches_the_vocab():
    doc = make_doc(["Water", "was", "ADDED", "."])
    plain = token_table(make_doc(["Water", "was", "ADDED", "."]))
    doc.user_data[TOKEN_INFO] = (["Water", "was", "ADDED", "."], "CXVE")
    table = token_table(doc)
    assert (table.text, table.lower, table.idx) == (plain.text, plain.lower, plain.idx)
    assert table.lower == ["water", "was", "added", "."]


def _with_mentions(doc: Doc, mentions: list[Mention]) -> Doc:
    doc._.mentions = mentions
    return doc


def test_mention_with_two_ranges_covers_both_and_ends_at_both():
    # "the residue ( 2 g ) and ether": one mention of two ranges ("the residue" + "( 2 g )")
    words = ["the", "residue", "was", "(", "2", "g", ")", "and", "ether"]
    doc = make_doc(words)
    tok = list(doc)
    ranges = ((tok[0].idx, tok[1].idx + 7), (tok[3].idx, tok[6].idx + 1))
    table = mention_table(_with_mentions(doc, [Mention("m", ranges, text="the residue ( 2 g )")]))
    (view,) = table.views
    assert (view.first, view.last, view.words, view.head) == (0, 6, ("the", "residue"), "residue")
    assert table.ending[1] is view and table.ending[6] is view
    assert list(table.covered) == [1, 1, 0, 1, 1, 1, 1, 0, 0]


def test_mention_inside_a_token_is_expanded_to_the_token():
    doc = make_doc(["NaHCO3-solution", "was", "added"])
    m = Mention("m", ((0, 6),), text="NaHCO3")  # ends inside the first token
    table = mention_table(_with_mentions(doc, [m]))
    (view,) = table.views
    assert (view.first, view.last, view.words) == (0, 0, ("nahco3-solution",))
    assert table.ending == {}  # no token ends at the mention's end


def test_mentions_out_of_text_order_are_viewed_in_text_order():
    doc = make_doc(["water", "and", "ethyl", "acetate"])
    tok = list(doc)
    later = Mention("b", ((tok[2].idx, tok[3].idx + 7),), text="ethyl acetate")
    earlier = Mention("a", ((tok[0].idx, tok[0].idx + 5),), text="water")
    table = mention_table(_with_mentions(doc, [later, earlier]))
    assert [v.id for v in table.views] == ["a", "b"]
    assert table.firsts == [0, 2]
    assert table.ending[3].id == "b" and table.ending[0].id == "a"


def test_parser_gives_the_same_actions_when_another_component_read_the_tokens_first():
    nlp = spacy.blank("en")
    parser = nlp.add_pipe("chemie_actions")
    words = "The mixture was stirred , filtered and washed with water .".split()
    fresh = parser(Doc(nlp.vocab, words=words))
    doc = Doc(nlp.vocab, words=words)
    token_table(doc)  # as chemie_coref would, before the parser
    again = parser(doc)
    assert actions_of(again) == actions_of(fresh)
    assert [a.label for a in actions_of(fresh)] == ["Stir", "Filter", "Wash"]


def test_head_word_of_one_or_no_word():
    assert head_word(("water",)) == "water"
    assert head_word(("ethyl", "acetate")) == "acetate"
    assert head_word(()) == ""
