"""Reaction records against ChEMU 2020 compound labels (chemie.scoring.chemu_reactions):
hand-written snippets with hand-made labels and records."""

from __future__ import annotations

import pytest

from chemie.model import Document, Mention, Role
from chemie.model.reaction import TEMPLATE, Component, Reaction
from chemie.scoring.chemu_reactions import Item, Summary, gold_species, items, judge

TEXT = ("Step 1: benzyl ether (BE) Phenol (1.0 g) and benzyl bromide (2.0 g) were stirred "
        "with K2CO3 in DMF. Water was added and the crude product was purified with "
        "EtOAc to give the title compound as a white solid.")


def _at(text: str, word: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(word, start + 1)
    return start, start + len(word)


def _gold(labels: list[tuple[str, str, int]], text: str = TEXT) -> Document:
    mentions = []
    for k, (label, word, nth) in enumerate(labels, 1):
        a, b = _at(text, word, nth)
        mentions.append(Mention(f"T{k}", ((a, b),), label, text[a:b]))
    return Document("d1", text, mentions=mentions)


GOLD = [("REACTION_PRODUCT", "benzyl ether", 0), ("REACTION_PRODUCT", "BE", 0),
        ("STARTING_MATERIAL", "Phenol", 0), ("STARTING_MATERIAL", "benzyl bromide", 0),
        ("REAGENT_CATALYST", "K2CO3", 0), ("SOLVENT", "DMF", 0),
        ("OTHER_COMPOUND", "Water", 0), ("REACTION_PRODUCT", "crude product", 0),
        ("OTHER_COMPOUND", "EtOAc", 0), ("REACTION_PRODUCT", "title compound", 0),
        ("REACTION_PRODUCT", "white solid", 0)]


def _item(role: str, word: str, nth: int = 0, text: str = TEXT) -> Item:
    a, b = _at(text, word, nth)
    return Item(role, a, b, text[a:b])


RIGHT = [_item("products", "benzyl ether"), _item("reactants", "Phenol"),
         _item("reactants", "benzyl bromide"), _item("reagents", "K2CO3"),
         _item("reagents", "DMF")]


def test_generic_products_and_bracketed_labels_join_the_named_product():
    species = gold_species(_gold(GOLD))
    products = [s for s in species if s.role == "products"]
    assert len(products) == 1
    assert {m.text for m in products[0].mentions} == {
        "benzyl ether", "BE", "crude product", "title compound", "white solid"}
    assert sorted(s.role for s in species) == ["products", "reactants", "reactants",
                                               "reagents", "reagents"]


def test_same_text_and_links_join_mentions():
    text = "THF (1 mL) and THF (2 mL); the amine A then the amine."
    gold = _gold([("SOLVENT", "THF", 0), ("SOLVENT", "THF", 1),
                  ("STARTING_MATERIAL", "amine A", 0), ("STARTING_MATERIAL", "amine", 1)],
                 text)
    assert len(gold_species(gold)) == 3
    link = (_at(text, "amine A"), _at(text, "amine.", 0))
    assert len(gold_species(gold, [link])) == 2


def test_a_right_record_is_exact():
    s = judge(_gold(GOLD), RIGHT)
    assert s.exact
    assert (s.counts["products"].tp, s.counts["reactants"].tp, s.counts["reagents"].tp) == \
        (1, 2, 2)
    assert s.counts["inputs"].tp == 4 and s.errors == []


def test_a_product_mention_counts_once():
    """The product named in the heading and as "the title compound": one species."""
    s = judge(_gold(GOLD), [*RIGHT, _item("products", "title compound")])
    assert s.exact and s.counts["products"].tp == 1 and s.counts["products"].fp == 0


def test_work_up_input_is_an_extra_species():
    s = judge(_gold(GOLD), [*RIGHT, _item("reagents", "EtOAc")])
    assert not s.exact
    assert s.counts["reagents"].fp == 1 and s.counts["inputs"].fp == 1
    assert [(e.kind, e.role, e.text) for e in s.errors] == [("work-up", "reagents", "EtOAc")]


def test_wrong_role_is_a_false_positive_and_a_miss_species_right():
    wrong = [i if i.name != "benzyl bromide" else Item("reagents", i.start, i.end, i.name)
             for i in RIGHT]
    s = judge(_gold(GOLD), wrong)
    assert (s.counts["reactants"].fn, s.counts["reagents"].fp) == (1, 1)
    assert s.counts["inputs"].fp == 0 and s.counts["inputs"].fn == 0
    assert {e.kind for e in s.errors} == {"wrong role", "other role"}


def test_missing_and_unlabelled():
    s = judge(_gold(GOLD), [*RIGHT[:-1], _item("reagents", "stirred")])
    kinds = sorted((e.kind, e.text) for e in s.errors)
    assert kinds == [("missing", "DMF"), ("unlabelled", "stirred")]


def test_work_up_mention_with_a_species_name_is_that_species():
    text = "A in MeOH gave B. It was washed with MeOH."
    gold = _gold([("STARTING_MATERIAL", "A", 0), ("SOLVENT", "MeOH", 0),
                  ("REACTION_PRODUCT", "B", 0), ("OTHER_COMPOUND", "MeOH", 1)], text)
    s = judge(gold, [_item("reactants", "A", 0, text), _item("products", "B", 0, text),
                     _item("reagents", "MeOH", 1, text)])
    assert s.exact


def _component(word: str, role: str, rule: str = "r") -> Component:
    a, b = _at(TEXT, word)
    return Component(TEXT[a:b], role, rule, a, b)


def test_items_read_records_in_the_chemu_convention():
    """A salt split into ions is one compound; a reactant labelled REAGENT_CATALYST (no
    carbon given) is a reagent; an implied species counts only over labelled words;
    templates are left out."""
    reaction = Reaction("d1-1", "d1", "document_product",
                        products=[_component("benzyl ether", "product")],
                        reactants=[_component("Phenol", "reactant"),
                                   _component("benzyl bromide", "reactant"),
                                   _component("K2CO3", "reactant")],
                        reagents=[_component("K2CO3", "reagent", "spectator_ions"),
                                  _component("stirred", "reagent", "implied_rule"),
                                  _component("DMF", "reagent", "implied_rule")])
    template = Reaction("d1-procedure", "d1", TEMPLATE,
                        reagents=[_component("EtOAc", "reagent")])
    a, b = _at(TEXT, "K2CO3")
    roles = [Role("R1", a, b, "REAGENT_CATALYST", "K2CO3", "r")]
    got = items([reaction, template], roles, _gold(GOLD), frozenset({"implied_rule"}))
    assert sorted((i.role, i.name) for i in got) == [
        ("products", "benzyl ether"), ("reactants", "Phenol"),
        ("reactants", "benzyl bromide"), ("reagents", "DMF"), ("reagents", "K2CO3")]
    assert judge(_gold(GOLD), got).exact


def test_summary_micro_figures():
    total = Summary()
    total.add(judge(_gold(GOLD), RIGHT))
    total.add(judge(_gold(GOLD), RIGHT[1:]))
    f = total.figures()
    assert (f["n"], f["exact_n"]) == (2, 1)
    assert f["products_r"] == pytest.approx(0.5) and f["products_p"] == pytest.approx(1.0)
    assert f["species_f1"] == pytest.approx(1.0)
