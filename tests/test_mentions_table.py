"""rules/mentions.yaml: the typed table, its alphabet, context steps, grammar and passes agree
with the code that uses them, and mistakes in it are reported as FILE: key: what is wrong."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from chemie.mentions import passes
from chemie.mentions.detector import MentionDetector
from chemie.mentions.grammar import PLACEHOLDER, Grammar
from chemie.mentions.table import MentionTable, MentionTables
from chemie.mentions.tagger import Tagger, TokenClassifier
from chemie.resources import load_rules
from chemie.tables import TableError, parse_table

TABLE = "mentions.yaml"


def _tables(edit) -> MentionTables:
    """The mention table with ``edit`` applied to a copy of its raw YAML data."""
    data = copy.deepcopy(load_rules(TABLE))
    edit(data)
    return MentionTables.build(TABLE, parse_table(data, MentionTable, TABLE))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["alphabet"][3].update(wordz=["x"]),
         "rules/mentions.yaml: alphabet.3.wordz: unknown key (did you mean 'words'?)"),
        (lambda d: d.pop("shapes"), "rules/mentions.yaml: shapes: missing key"),
        (lambda d: d["alphabet"][0].update(shapes=["NO_SUCH_SHAPE"]),
         "rules/mentions.yaml: alphabet.0.shapes: unknown name 'NO_SUCH_SHAPE'"),
        (lambda d: d["alphabet"][0].update(letter="PP"),
         "rules/mentions.yaml: alphabet.0.letter: 'PP' is not one character"),
        (lambda d: d["passes"].append({"name": "no_such_rule"}),
         "rules/mentions.yaml: passes.18.name: 'no_such_rule' is no rule or filter"),
        (lambda d: d["shapes"].update(NUMBER="(unclosed"),
         "rules/mentions.yaml: shapes.NUMBER: bad regular expression"),
    ],
)
def test_mistakes_in_the_table_are_reported_with_their_key(edit, message):
    with pytest.raises(TableError) as e:
        _tables(edit)
    assert str(e.value).startswith(message)


def test_grammar_mistakes_are_reported_with_their_key():
    def unknown_placeholder(d):
        d["grammar"]["fragments"]["START"] = "{NO_SUCH_FRAGMENT}"

    with pytest.raises(TableError, match=r"grammar.mention: no fragment \{NO_SUCH_FRAGMENT\}"):
        Grammar(_tables(unknown_placeholder))

    def cycle(d):
        d["grammar"]["fragments"]["START"] = "{CORE}"
        d["grammar"]["fragments"]["CORE"] = "{START}"

    with pytest.raises(TableError, match="contains itself"):
        Grammar(_tables(cycle))

    def twice(d):
        d["rules"][0]["fragments"] = {"CORE": "x"}

    with pytest.raises(TableError, match=r"rules.0.fragments.CORE: also defined in grammar"):
        Grammar(_tables(twice))


def test_code_and_table_list_the_same_context_steps_and_passes():
    def drop_step(d):
        d["context"] = [s for s in d["context"] if s["name"] != "gram_label"]

    with pytest.raises(TableError, match="gram_label"):
        Tagger(_tables(drop_step))

    def drop_pass(d):
        d["passes"] = [p for p in d["passes"] if p["name"] != "solvent_pair"]

    with pytest.raises(TableError, match="coded passes not listed: \\['solvent_pair'\\]"):
        MentionDetector(_tables(drop_pass))
    listed = [p["name"] for p in load_rules(TABLE)["passes"]]
    assert sorted(listed) == sorted(passes.PASSES)


def test_a_grouped_rule_needs_its_coded_group_rule():
    def grouped(d):
        d["rules"][0].update(group="ratio", fallback="no_ratio")
        d["grammar"]["checks"].append(d["rules"][0]["name"])

    with pytest.raises(TableError, match=r"no group rule coded for \['chemical_np'\]"):
        MentionDetector(_tables(grouped))


def test_core_rules_name_groups_of_the_pattern_or_conditions():
    def bad_when(d):
        d["grammar"]["core_rules"][0]["when"] = "no_such_group"

    with pytest.raises(TableError, match=r"grammar.core_rules.0.when: 'no_such_group' is no"):
        MentionDetector(_tables(bad_when))


def test_every_letter_is_declared_with_a_comment_and_the_tagger_gives_it():
    tables = MentionTables.load()
    alphabet = tables.table.alphabet
    assert all(e.comment for e in alphabet)
    declared = {e.letter for e in alphabet}
    # the letters the grammar's character classes and the code compare with are declared
    grammar = Grammar(tables)
    pattern = grammar.mention(frozenset(grammar.variants)).pattern
    classes = "".join(re.findall(r"\[\^?((?:\\.|[^\]])*)\]", pattern))
    used = set(re.sub(r"\\.|[-^]", "", classes)) - set("\\")
    assert used <= declared | {"-"}, used - declared
    classify = Tagger(tables).classify
    assert classify(";") == "P" and classify(",") == "P"  # (the old docstring said ".")
    assert {classify(w) for w in ["the", "of", "in", "and", "yield", "12", "5%", "mg", "flask",
                                  "water", "was", "mixture", "compound", "DCM(15", "1b", "zz",
                                  "!", "×", "10:1"]} == set("DOI&YNAUECSGKVZWXxR")


def test_every_grammar_fragment_is_used():
    tables = MentionTables.load()
    grammar = Grammar(tables)
    reached: set[str] = set()
    todo = [grammar.template] + [v for o in grammar.variants.values() for v in o.values()]
    while todo:
        for name in PLACEHOLDER.findall(todo.pop()):
            if name not in reached:
                reached.add(name)
                todo.append(grammar.fragments[name])
    source = Path(passes.__file__).read_text(encoding="utf-8")
    compiled = set(re.findall(r'fragment\["([A-Z_]+)"\]', source))
    for name in compiled:
        reached |= {name, *PLACEHOLDER.findall(grammar.fragments[name])}
    assert set(grammar.fragments) - reached == set()


def _first_entry_letter(classifier: TokenClassifier, text: str) -> str:
    """The letter of the first alphabet entry that holds, tried one by one (the definition
    the classifier's dict lookups must agree with)."""
    low = text.lower()
    for e in classifier.entries:
        if (text in e.tokens or low in e.words
                or (e.hyphen_tail and low.rpartition("-")[2] in e.words) or e.matches(text)):
            return e.letter
    return "X"


@pytest.mark.parametrize("text", [
    "the", "The", "(", ")", "=", "x", "mmol", "2.5", "4-bromoaniline", "ethyl", "EtOAc",
    "flask", "solution", "compound", "3a", "DCM(15", "stirred", "a", "", "N-Boc-prolinol",
    "Pd/C", "1H", "°C", "—", "-", ":", "9-BBN", "white", "sat.", "aq", "Step",
])
def test_the_classifier_gives_the_letter_of_the_first_entry_that_holds(text):
    classifier = TokenClassifier(MentionTables.load())
    assert classifier(text) == _first_entry_letter(classifier, text)
