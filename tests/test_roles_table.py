"""The role table is read through its schema (chemie.tables) and checked after: the shipped
table loads; a bad table fails with one line FILE: key: what is wrong."""

from __future__ import annotations

import copy

import pytest
import yaml

from chemie.errors import InputError
from chemie.roles.table import RoleTable, check_table, role_table
from chemie.tables import TableError, parse_table

BASE = {
    "words": {name: ["x"] for name in (
        "heading_words", "title_words", "reference_heads", "heading_stops", "skipped_before",
        "names", "name_prefixes", "kept_modifiers", "name_tails", "not_compounds",
        "workup_materials", "workup_verbs", "workup_prefixes", "non_triggers", "auxiliaries",
        "manner_nouns", "manner_of", "manner_before", "adverbial_openers", "noun_forms",
        "noun_determiners", "passive_only", "condition_classes",
        "reaction_classes", "quench_classes", "run_classes", "run_words", "completion_classes",
        "workup_classes", "ending_classes", "workup_temperatures", "title_refs",
        "procedure_openers")},
    "actions": {"Add": ["put"]},
    "patterns": {"metal": "palladium"},
    "builtin": [{"name": n, "comment": "a rule in code", "label": "EXAMPLE_LABEL"} for n in (
        "heading_label", "bracketed_heading_label", "opening_label", "product_yield",
        "described_yield", "yield_bracket", "yield_word", "yield_amount", "amount_percent",
        "yield_neighbour", "aqueous_solvent", "bracket_label", "coreferent_product")],
    "conditions": [{"name": "c1", "comment": "a time", "label": "TIME", "pattern": r"\d+ h"}],
    "triggers": [{"name": "t1", "comment": "an addition", "label": "REACTION_STEP",
                  "classes": ["Add"], "phase": "reaction"}],
    "compounds": [{"name": "solvent_after_in", "comment": "a solvent", "label": "SOLVENT",
                   "words": "solvents", "after": ["in"]}],
    "reactant_or_reagent": [{"name": "reactant", "comment": "a reactant",
                             "label": "STARTING_MATERIAL"}],
}
BASE["words"]["solvents"] = ["THF", "water", "@equivalents"]


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


def parse(data: dict) -> RoleTable:
    return check_table(parse_table(data, RoleTable, "x.yaml"), "x.yaml")


def test_the_shipped_table_loads():
    t = role_table()
    assert t.compounds and t.conditions and t.triggers and t.builtin
    assert "equiv." in t.words["skipped_before"]  # through "@equivalents"
    assert t.extra_actions["put"] == "Add"


def test_a_small_table_parses():
    t = parse(table())
    assert t.words["solvents"] == {"thf", "water", "eq", "eq.", "equiv", "equiv.", "equivalent",
                                   "equivalents"}
    assert (t.compounds[0].words, t.compounds[0].after) == ("solvents", frozenset({"in"}))
    assert t.condition_patterns["c1"].search("for 2 h")
    assert t.compiled["metal"].search("palladium on carbon")
    assert t.rule_names()[-4:] == ["c1", "t1", "solvent_after_in", "reactant"]
    assert t.extra_actions == {"put": "Add"}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"extra": []}, "rules/x.yaml: extra: unknown key"),
        ({"words": None}, "rules/x.yaml: words: missing key"),
        ({"words__names": None}, "rules/x.yaml: words.names: missing key (the code reads"),
        ({"compounds__0__colour": "red"},
         "rules/x.yaml: compounds.solvent_after_in.colour: unknown key"),
        ({"compounds__0__comment": None},
         "rules/x.yaml: compounds.solvent_after_in.comment: missing key"),
        ({"compounds__0__label": "PRODUCT"},
         "rules/x.yaml: compounds.solvent_after_in.label: unknown label 'PRODUCT'"),
        ({"compounds__0__words": "reagents"},
         "rules/x.yaml: compounds.solvent_after_in.words: no word list 'reagents'"),
        ({"compounds__0__afer": ["in"]},
         "rules/x.yaml: compounds.solvent_after_in.afer: unknown key (did you mean 'after'?)"),
        ({"compounds__0__name": "solvent_after"},
         "rules/x.yaml: compounds.solvent_after.name: unknown name 'solvent_after' (did you "
         "mean 'solvent_after_in'?)"),
        ({"compounds__0__after": "in"},
         "rules/x.yaml: compounds.solvent_after_in.after: expected a list"),
        ({"reactant_or_reagent": [{"name": "training_reagent", "comment": "c",
                                   "label": "REAGENT_CATALYST", "lexicon": "TIME"}]},
         "rules/x.yaml: reactant_or_reagent.training_reagent.lexicon: 'TIME' is not one of"),
        ({"reactant_or_reagent": None}, "rules/x.yaml: reactant_or_reagent: missing key"),
        ({"conditions__0__pattern": "(unclosed"},
         "rules/x.yaml: conditions.c1.pattern: bad regular expression"),
        ({"conditions__0__label": "SOLVENT"},
         "rules/x.yaml: conditions.c1.label: unknown label 'SOLVENT'"),
        ({"triggers__0__phase": "cleanup"}, "rules/x.yaml: triggers.t1.phase: 'cleanup' is not"),
        ({"triggers__0__needs_argument": "yes"},
         "rules/x.yaml: triggers.t1.needs_argument: expected bool, got str 'yes'"),
        ({"words__solvents": ["THF", ["nested"]]},
         "rules/x.yaml: words.solvents.1: expected str, got list"),
        ({"words__solvents": ["@solvent"]},
         "rules/x.yaml: words.solvents.0: rules/vocabularies.yaml: solvent: no such vocabulary"),
        ({"actions__Stir": ["put"]}, "rules/x.yaml: actions.Stir: 'put' is also in Add"),
        ({"compounds": [{"name": "layer", "comment": "c", "label": "NONE", "next": "nonmetal"}]},
         "rules/x.yaml: compounds.layer.next: no pattern 'nonmetal'"),
        ({"patterns__metal": "(pd"}, "rules/x.yaml: patterns.metal: bad regular expression"),
        ({"conditions__0__name": "heading_label"},
         "rules/x.yaml: heading_label: rule name used twice"),
        ({"builtin": []},
         "rules/x.yaml: builtin: missing rule(s) amount_percent, aqueous_solvent, "),
    ],
)
def test_a_bad_table_names_the_file_and_key(changes, message):
    with pytest.raises(TableError) as e:
        parse(table(**changes))
    assert str(e.value).startswith(message)


def test_a_file_that_is_not_yaml_names_its_line(tmp_path):
    path = tmp_path / "roles.yaml"
    path.write_text(yaml.safe_dump(table()) + "words: [unclosed\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        role_table(path)
    assert str(e.value).startswith(f"{path}:")
    assert "not valid YAML" in str(e.value)


def test_a_table_file_reads_the_vocabularies_beside_it(tmp_path):
    (tmp_path / "vocabularies.yaml").write_text("equivalents: [eqv]\n", encoding="utf-8")
    path = tmp_path / "roles.yaml"
    path.write_text(yaml.safe_dump(table()), encoding="utf-8")
    assert role_table(path).words["solvents"] == {"thf", "water", "eqv"}


def test_a_compound_rule_without_a_registered_function_is_refused(monkeypatch):
    """The registry's agreement check: an entry the schema can read but no function of
    stage_rules("roles") decides."""
    from chemie.roles.rules import CompoundRule

    monkeypatch.setitem(CompoundRule.table_variants, "orphan", CompoundRule)
    data = table(compounds=[{"name": "orphan", "comment": "c", "label": "SOLVENT"}])
    with pytest.raises(TableError, match="no roles rule function for orphan"):
        parse(data)


def test_the_shipped_table_names_every_registered_function():
    from chemie.roles.table import TABLE

    with pytest.raises(TableError, match="roles rule functions without an entry: "):
        check_table(parse_table(table(), RoleTable, TABLE), TABLE)
