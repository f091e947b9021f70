"""The event-argument linker (chemie.events.linker, rules/events.yaml, chemie_events): each
rule fires on a hand-written sentence, the table and the functions agree, and the pipeline
writes the links into the triggers' ``args`` with their rule names."""

from __future__ import annotations

import re

import pytest

import chemie
from chemie.events.linker import RULES, EventLinker, Link, load_linker, set_arguments
from chemie.model import Role
from chemie.resources import load_rules
from chemie.tables import TableError, load_table
from chemie.tokenizer.language import blank

LABELS = {"SM": "STARTING_MATERIAL", "REAG": "REAGENT_CATALYST", "SOLV": "SOLVENT",
          "PROD": "REACTION_PRODUCT", "OC": "OTHER_COMPOUND", "TEMP": "TEMPERATURE",
          "TIME": "TIME", "YP": "YIELD_PERCENT", "YO": "YIELD_OTHER", "EX": "EXAMPLE_LABEL",
          "RS": "REACTION_STEP", "WU": "WORKUP"}
_MARK = re.compile(r"\[(\w+)\|([^\]|]+)\]")


def parse(marked: str) -> tuple[str, list[Role]]:
    """The text of ``marked`` ("[SM|X] was [RS|added]") and one role per marked span."""
    text, roles, pos = [], [], 0
    length = 0
    for m in _MARK.finditer(marked):
        before = marked[pos:m.start()]
        text.append(before)
        length += len(before)
        roles.append(Role(f"T{len(roles) + 1}", length, length + len(m.group(2)),
                          LABELS[m.group(1)], m.group(2), "hand"))
        text.append(m.group(2))
        length += len(m.group(2))
        pos = m.end()
    text.append(marked[pos:])
    return "".join(text), roles


@pytest.fixture(scope="module")
def sentences():
    nlp = blank()
    return lambda text: [(s.start_char, s.end_char) for s in nlp(text).sents]


def links_of(marked: str, sentences, linker: EventLinker | None = None) -> set[tuple]:
    """(trigger text, argument text, role, rule) of each link the linker makes."""
    text, roles = parse(marked)
    by_id = {r.id: r.text for r in roles}
    found = (linker or load_linker()).link(text, roles, sentences(text))
    return {(by_id[x.trigger], by_id[x.arg], x.role, x.rule) for x in found}


# rule -> (marked sentences, a link it makes, or (trigger, argument) it leaves unlinked)
CASES = {
    "inert_gas": ("[SM|Phenol] (1 g) was [RS|stirred] under [OC|nitrogen] for [TIME|2 h].",
                  ("stirred", "nitrogen")),
    "heading": ("Synthesis of [PROD|Compound 5] [SM|Benzoic acid] (1 g) was [RS|dissolved] "
                "in [SOLV|THF] (10 mL).", ("dissolved", "Compound 5")),
    "product_yield": ("[PROD|Compound 5] was [RS|prepared] by [RS|using] [SM|aniline] as the "
                      "amine ([YO|0.9 g], yield [YP|67%]).",
                      ("prepared", "67%", "ARGM", "product_yield")),
    "after_time": ("[REAG|NaH] was [RS|added] at [TEMP|0 °C], after [TIME|30 min], "
                   "[RS|followed] by [SM|benzyl bromide].",
                   ("followed", "30 min", "ARGM", "after_time")),
    "replaced_compound": ("The title compound was [RS|prepared] as in Example 1 by using "
                          "[SM|aniline] instead of [OC|benzylamine].",
                          ("prepared", "benzylamine")),
    "passive_subject": ("[SM|Phenol] (1 g) was [RS|dissolved] in [SOLV|dioxane] (3 mL) and "
                        "[REAG|Pd(PPh3)4] (15 mg) was [RS|added].",
                        ("added", "Pd(PPh3)4", "ARG1", "passive_subject")),
    "fronted_phrase": ("To a solution of [SM|phenol] in [SOLV|THF] at [TEMP|0 °C] was "
                       "[RS|added] [REAG|NaH].", ("added", "phenol", "ARG1", "fronted_phrase")),
    "after_trigger": ("The mixture was [WU|washed] with [OC|water] and [OC|brine].",
                      ("washed", "brine", "ARG1", "after_trigger")),
}


def test_every_rule_has_a_comment_a_function_and_a_case():
    rules = load_rules("events.yaml")["rules"]
    assert all(r["comment"] for r in rules)
    assert {r["name"] for r in rules} == set(CASES) == set(RULES)


@pytest.mark.parametrize("rule", sorted(CASES))
def test_rule_fires(rule, sentences):
    marked, expected = CASES[rule]
    links = links_of(marked, sentences)
    if len(expected) == 4:
        assert expected in links
    else:  # the rule leaves the pair unlinked
        assert not [x for x in links if x[:2] == expected]


@pytest.mark.parametrize("rule", sorted(set(CASES) - {"after_trigger"}))
def test_without_the_rule_its_case_comes_out_otherwise(rule, sentences):
    table = load_table("events.yaml", chemie.events.linker.EventTable)
    fewer = type(table)(**{**table.__dict__,
                           "rules": tuple(r for r in table.rules if r.name != rule)})
    marked, expected = CASES[rule]
    links = links_of(marked, sentences, EventLinker(fewer))
    if len(expected) == 4:  # the link goes elsewhere, or is made by another rule
        assert expected not in links
    else:  # a pair the rule kept apart is linked
        assert [x for x in links if x[:2] == expected]


def test_an_example_label_is_never_an_argument(sentences):
    links = links_of("Example [EX|12] [SM|Phenol] was [RS|dissolved] in [SOLV|THF].",
                     sentences)
    assert ("dissolved", "Phenol", "ARG1", "fronted_phrase") in links
    assert not [x for x in links if x[1] == "12"]


def test_one_step_after_another(sentences):
    marked = ("[SM|Phenol] (1.0 g) was [RS|dissolved] in [SOLV|DMF] (10 mL), and [REAG|K2CO3] "
              "(2.0 g) was [RS|added]. The mixture was [RS|stirred] at [TEMP|80 °C] for "
              "[TIME|2 h], [WU|cooled] to [TEMP|rt] and [WU|extracted] with [OC|EtOAc]. The "
              "residue was [WU|purified] to [RS|give] the [PROD|title compound] ([YO|1.1 g], "
              "[YP|80%]).")
    pairs = {(t, a, role) for t, a, role, _ in links_of(marked, sentences)}
    assert pairs == {
        ("dissolved", "Phenol", "ARG1"), ("dissolved", "DMF", "ARG1"),
        ("added", "K2CO3", "ARG1"), ("stirred", "80 °C", "ARGM"), ("stirred", "2 h", "ARGM"),
        ("cooled", "rt", "ARGM"), ("extracted", "EtOAc", "ARG1"),
        ("give", "title compound", "ARG1"), ("give", "1.1 g", "ARGM"), ("give", "80%", "ARGM"),
    }


def test_the_phrase_before_an_infinitive_trigger_is_not_its_argument(sentences):
    # the step that used the eluent ("purified") has no trigger here: no link, not "give"
    links = links_of("The residue was purified by chromatography ([OC|ethyl acetate]) to "
                     "[RS|give] the [PROD|title compound].", sentences)
    assert {x[:2] for x in links} == {("give", "title compound")}


def test_a_sentence_without_a_trigger_links_nothing(sentences):
    assert links_of("The [SM|phenol] was left at [TEMP|rt] for [TIME|2 h].", sentences) == set()


def test_a_sentence_cut_without_a_full_stop_runs_on():
    linker = load_linker()
    text = "X and Y were added in Reference Example 5, then Z. It was dried."
    cut = text.index("Example")
    end = text.index(" It")
    assert linker.sentences(text, [(0, cut - 1), (cut, end), (end + 1, len(text))]) == [
        (0, end), (end + 1, len(text))]


def test_a_rule_without_a_function_is_refused():
    table = load_table("events.yaml", chemie.events.linker.EventTable)
    broken = type(table)(**{**table.__dict__, "rules": (
        *table.rules, type(table.rules[0])(name="after_trigers", comment="typo"))})
    with pytest.raises(TableError, match="rules.after_trigers.name: unknown name"):
        EventLinker(broken)


def test_set_arguments_replaces_every_triggers_args():
    trigger = Role("T1", 0, 5, "REACTION_STEP", "added", "r", ["T9"], ["old"])
    other = Role("T2", 6, 9, "WORKUP", "dried", "r", ["T8"])
    arg = Role("T3", 10, 13, "SOLVENT", "THF", "r")
    set_arguments([trigger, other, arg], [Link("T1", "T3", "ARG1", "after_trigger")])
    assert (trigger.args, trigger.arg_rules) == (["T3"], ["after_trigger"])
    assert (other.args, other.arg_rules) == ([], [])


@pytest.mark.parametrize("text", [
    "X (1 g) was added.  Then Y\twas added at 0 °C.\nZ was dried. ",
    "Example 5 Preparation of X  Y was added",
])
def test_text_and_sentences_are_the_docs(text):
    from chemie.events.component import text_and_sentences

    doc = chemie.load(roles=True)(text)
    assert text_and_sentences(doc) == (doc.text,
                                       [(s.start_char, s.end_char) for s in doc.sents])


def test_the_pipeline_links_with_rule_names():
    nlp = chemie.load(roles=True)
    assert nlp.pipe_names[-2:] == ["chemie_roles", "chemie_events"]
    doc = nlp("4-Bromoaniline (1.0 g) was dissolved in methanol (10 mL) and stirred at 20 °C "
              "for 2 h.")
    roles = {r.id: r for r in doc._.roles}
    got = {(r.text, roles[a].text, rule) for r in roles.values()
           for a, rule in zip(r.args, r.arg_rules, strict=True)}
    assert ("dissolved", "methanol", "after_trigger") in got
    assert ("stirred", "2 h", "after_trigger") in got
    assert ("dissolved", "4-Bromoaniline", "fronted_phrase") in got
