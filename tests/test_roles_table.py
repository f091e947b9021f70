"""The role table loader: the shipped table loads; bad tables fail with FILE: key: problem."""

from __future__ import annotations

import copy

import pytest
import yaml

from chemie.errors import InputError
from chemie.resources import rules_path
from chemie.roles.table import load_table, load_table_file, parse_table

BASE = {
    "words": {"solvents": ["THF", "water"]},
    "actions": {"Add": ["put"]},
    "patterns": {"metal": "palladium"},
    "builtin": [{"name": "b1", "comment": "a builtin rule", "label": "EXAMPLE_LABEL"}],
    "conditions": [{"name": "c1", "comment": "a time", "label": "TIME", "pattern": r"\d+ h"}],
    "triggers": [{"name": "t1", "comment": "an addition", "label": "REACTION_STEP",
                  "classes": ["Add"], "phase": "reaction"}],
    "compounds": [{"name": "r1", "comment": "a solvent", "label": "SOLVENT",
                   "when": {"words": "solvents", "after": ["in"]}}],
}


def table(**changes) -> dict:
    data = copy.deepcopy(BASE)
    for path, value in changes.items():
        *parents, last = path.split("__")
        node = data
        for p in parents:
            node = node[int(p)] if p.isdigit() else node[p]
        if value is None:
            del node[last]
        else:
            node[last] = value
    return data


def test_the_shipped_table_loads():
    t = load_table()
    assert t.compounds and t.conditions and t.triggers and t.builtin
    assert t.path == str(rules_path("roles.yaml"))


def test_a_small_table_parses():
    t = parse_table(table(), "x.yaml")
    assert t.words["solvents"] == {"thf", "water"}
    assert t.compounds[0].when == {"words": "solvents", "after": ["in"]}
    assert t.conditions[0].pattern.search("for 2 h")
    assert t.rule_names() == ["b1", "c1", "t1", "r1"]
    assert t.actions == {"put": "Add"}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"extra": []}, "x.yaml: roles.extra: unknown key"),
        ({"words": None}, "x.yaml: roles.words: missing"),
        ({"compounds__0__colour": "red"}, "x.yaml: compounds.r1.colour: unknown key"),
        ({"compounds__0__comment": None}, "x.yaml: compounds.r1.comment: missing"),
        ({"compounds__0__label": "PRODUCT"}, "x.yaml: compounds.r1.label: unknown label"),
        ({"compounds__0__when": {"words": "reagents"}},
         "x.yaml: compounds.r1.when.words: no word list 'reagents'"),
        ({"compounds__0__when": {"near": ["in"]}}, "x.yaml: compounds.r1.when.near: unknown key"),
        ({"compounds__0__when": {"place": "preface"}}, "x.yaml: compounds.r1.when.place: expected"),
        ({"compounds__0__when": {"after": "in"}},
         "x.yaml: compounds.r1.when.after: expected a list"),
        ({"conditions__0__pattern": "(unclosed"},
         "x.yaml: conditions.c1.pattern: bad regular expression"),
        ({"conditions__0__label": "SOLVENT"}, "x.yaml: conditions.c1.label: unknown label"),
        ({"triggers__0__phase": "cleanup"}, "x.yaml: triggers.t1.phase: expected one of"),
        ({"triggers__0__needs_argument": "yes"},
         "x.yaml: triggers.t1.needs_argument: expected true or false"),
        ({"words__solvents": ["THF", ["nested"]]}, "x.yaml: words.solvents: expected a list"),
        ({"actions__Stir": ["put"]}, "x.yaml: actions.Stir: 'put' is also in Add"),
        ({"compounds__0__when": {"pattern": "nonmetal"}},
         "x.yaml: compounds.r1.when.pattern: no pattern 'nonmetal'"),
        ({"patterns__metal": "(pd"}, "x.yaml: patterns.metal: bad regular expression"),
        ({"builtin__0__name": "c1"}, "x.yaml: c1: rule name used in two sections"),
    ],
)
def test_a_bad_table_names_the_file_and_key(changes, message):
    with pytest.raises(InputError) as e:
        parse_table(table(**changes), "x.yaml")
    assert str(e.value).startswith(message)


def test_a_rule_defined_twice():
    data = table()
    data["compounds"].append(copy.deepcopy(data["compounds"][0]))
    with pytest.raises(InputError, match=r"compounds\.r1: rule defined twice"):
        parse_table(data, "x.yaml")


def test_a_file_that_is_not_yaml_names_its_line(tmp_path):
    path = tmp_path / "roles.yaml"
    path.write_text(yaml.safe_dump(table()) + "words: [unclosed\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_table_file(path)
    assert str(e.value).startswith(f"{path}:")
    assert "not valid YAML" in str(e.value)
