"""The one rule registry (chemie.registry): every stage's code-backed rules registered under
(stage, name), a name registered twice refused, and each table checked against its stage's
registered rules with the same error, naming the file and the entry."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest
import yaml

import chemie.coref.rules
import chemie.events.linker
import chemie.ner.rules
import chemie.ner.rules_code
import chemie.reactions.procedures_table
import chemie.reactions.table
from chemie.coref.features import rule as coref_rule
from chemie.registry import InlineRule, StageRules, all_rules, stage_rules
from chemie.resources import load_rules
from chemie.tables import TableError

# stage -> (its registry, the names of its shipped table that must each have a function)
SHIPPED = {
    "coref": lambda: [r.name for r in chemie.coref.rules.coref_table().rules],
    "events": lambda: [r.name for r in chemie.events.linker.load_linker().table.rules],
    "ner": lambda: [r.name for r in chemie.ner.rules.ner_table().rules
                    if r.kind in ("glued", "context")],
    "reactions": lambda: [r.name for key in ("products", "names")
                          for r in getattr(chemie.reactions.table.reaction_table(), key)],
    "procedures": lambda: [
        r.name for r in chemie.reactions.procedures_table.procedure_table().code],
}


def test_a_name_registered_twice_is_an_error():
    stage: StageRules[int] = StageRules("test")
    stage.add("one", 1)
    with pytest.raises(ValueError, match="test rule 'one' registered twice"):
        stage.add("one", 2)
    # the same through a stage's own decorator: coref's the_catalyst is registered already
    with pytest.raises(ValueError, match="coref rule 'the_catalyst' registered twice"):
        coref_rule("the_catalyst")(lambda c, p, a: None)


def test_stage_rules_gives_one_registry_per_stage():
    assert stage_rules("coref") is chemie.coref.rules.RULES
    assert stage_rules("events") is chemie.events.linker.RULES
    assert stage_rules("ner") is chemie.ner.rules.RULES
    assert stage_rules("reactions") is chemie.reactions.table.RULES
    assert stage_rules("procedures") is chemie.reactions.procedures_table.RULES


@pytest.mark.parametrize("stage", sorted(SHIPPED))
def test_all_rules_lists_every_stage_as_its_shipped_table_names_them(stage):
    rules = all_rules()
    assert rules[stage] == sorted(SHIPPED[stage]())
    assert len(rules[stage]) >= 5


def test_check_names_the_file_and_the_entries():
    stage: StageRules[int] = StageRules("test")
    stage.add("one", 1)
    stage.add("two", 2)
    with pytest.raises(TableError, match=r"^rules/x\.yaml: rules: no test rule function for "
                                         r"three$"):
        stage.check(["one", "three"], "x.yaml")
    with pytest.raises(TableError, match=r"^rules/x\.yaml: code: test rule functions without "
                                         r"an entry: two$"):
        stage.check(["one"], "x.yaml", key="code", every_function=True)
    stage.check(["one"], "x.yaml")  # a table may leave a rule out unless every_function


def _copy(tmp_path: Path, name: str, change) -> Path:
    """A copy of the shipped table ``name`` changed by ``change`` (a function of its data)."""
    data = load_rules(name)
    data = yaml.safe_load(yaml.safe_dump(data))  # a deep copy (the shipped data is shared)
    change(data)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


NER_ENTRY = {"name": "salt_extensoin", "kind": "context", "class": "SYSTEMATIC",
             "confidence": 0.8, "comment": "a typo", "example": "Lidocaine hydrochloride."}
# stage -> its table, how to add an entry with no function, the key and how to load the copy
BROKEN = {
    "events": ("events.yaml", lambda d: d["rules"].append({"name": "after_trigers",
                                                           "comment": "a typo"}),
               "rules", "after_trigers", chemie.events.linker.load_linker),
    "ner": ("ner.yaml", lambda d: d["rules"].append(dict(NER_ENTRY)), "rules",
            "salt_extensoin", chemie.ner.rules.ner_table),
    "reactions": ("reactions.yaml", lambda d: d["products"].append(
        {"name": "first_product", "comment": "no code"}), "products, names", "first_product",
        chemie.reactions.table.reaction_table),
    "procedures": ("procedures.yaml", lambda d: d["code"].append(
        {"name": "step_referance", "comment": "a typo"}), "code", "step_referance",
        chemie.reactions.procedures_table.procedure_table),
}


@pytest.mark.parametrize("stage", sorted(BROKEN))
def test_a_table_entry_without_a_function_is_the_same_table_error(tmp_path, stage):
    name, change, key, entry, load = BROKEN[stage]
    path = _copy(tmp_path, name, change)
    with pytest.raises(TableError) as e:
        load(path)
    assert str(e.value) == f"{path}: {key}: no {stage} rule function for {entry}"


def test_a_coref_entry_without_a_function_is_refused_by_the_typed_loader(tmp_path):
    """coref's entries are read with each rule's registered params: the loader names the
    entry first (with the closest registered name)."""
    path = _copy(tmp_path, "coref.yaml", lambda d: d["rules"].append(
        {"name": "the_catalist", "comment": "a typo"}))
    with pytest.raises(TableError, match=r"rules\.the_catalist\.name: unknown name "
                                         r"'the_catalist' \(did you mean 'the_catalyst'\?\)"):
        chemie.coref.rules.coref_table(path)


def test_a_saved_coref_table_may_leave_a_rule_out_but_the_shipped_one_may_not(tmp_path):
    path = _copy(tmp_path, "coref.yaml", lambda d: d["rules"].pop())
    assert len(chemie.coref.rules.coref_table(path).rules) == len(SHIPPED["coref"]()) - 1
    with pytest.raises(TableError, match="coref rule functions without an entry"):
        chemie.coref.rules.RULES.check(SHIPPED["coref"]()[:-1], "coref.yaml",
                                       every_function=True)


@pytest.mark.parametrize("stage", ["reactions", "procedures"])
def test_an_inline_rule_is_named_in_the_module_that_applies_it(stage):
    for name, spec in stage_rules(stage).items():
        assert isinstance(spec, InlineRule)
        source = inspect.getsource(importlib.import_module(spec.module))
        assert name in source, (stage, name, spec.module)


def test_each_ner_code_rule_is_one_function_of_its_table_kind():
    """NER's glued and context rules are functions of chemie.ner.rules_code, registered
    with the kind their entry has (a context rule also says how the finder calls it)."""
    kinds = {r.name: r.kind for r in chemie.ner.rules.ner_table().rules}
    for name, spec in stage_rules("ner").items():
        assert spec.fn.__module__ == "chemie.ner.rules_code" and spec.fn.__name__ == name
        assert spec.kind == kinds[name]
        assert spec.calls == ("" if spec.kind == "glued" else spec.calls)
        assert spec.kind == "glued" or spec.calls in ("pass", "join")


def test_a_ner_entry_of_another_kind_than_its_function_is_a_table_error(tmp_path):
    def change(data):
        for r in data["rules"]:
            if r["name"] == "protected_name":
                r["kind"] = "context"

    path = _copy(tmp_path, "ner.yaml", change)
    with pytest.raises(TableError, match=r"rules: protected_name is a glued rule, not context"):
        chemie.ner.rules.ner_table(path)
