"""The typed rule-table loader: schemas, unknown/missing keys, shared vocabularies."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

import pytest

from chemie import tables
from chemie.tables import TableError, parse_table


@dataclass(frozen=True)
class Rule:
    comment: str
    words: frozenset[str] = frozenset()
    confidence: float | None = None


@dataclass(frozen=True)
class Table:
    rules: dict[str, Rule]
    mode: Literal["surface", "atomic"] = "surface"
    heads: tuple[str, ...] = ()
    limits: list[int] = field(default_factory=list)


def test_a_table_parses_into_its_schema():
    t = parse_table(
        {"rules": {"r1": {"comment": "one", "words": ["a", "b", 2], "confidence": 1}},
         "mode": "atomic", "limits": [3]},
        Table, "toy.yaml")
    assert t.rules["r1"] == Rule("one", frozenset({"a", "b", "2"}), 1.0)
    assert t.mode == "atomic" and t.heads == () and t.limits == [3]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rules": {"r1": {"comment": "x", "wrods": []}}},
         "rules/toy.yaml: rules.r1.wrods: unknown key (did you mean 'words'?)"),
        ({"rules": {"r1": {}}}, "rules/toy.yaml: rules.r1.comment: missing key"),
        ({}, "rules/toy.yaml: rules: missing key"),
        ({"rules": {}, "mode": "both"},
         "rules/toy.yaml: mode: 'both' is not one of 'surface', 'atomic'"),
        ({"rules": {}, "limits": ["x"]}, "rules/toy.yaml: limits.0: expected int, got str 'x'"),
        ({"rules": {}, "heads": "flask"}, "rules/toy.yaml: heads: expected a list, got str"),
        ({"rules": []}, "rules/toy.yaml: rules: expected a mapping, got list"),
    ],
)
def test_a_table_that_does_not_match_is_rejected_naming_file_and_key(data, message):
    with pytest.raises(TableError) as e:
        parse_table(data, Table, "toy.yaml")
    assert str(e.value) == message


def test_a_vocabulary_reference_expands_in_place(monkeypatch):
    monkeypatch.setattr(tables, "vocabulary", lambda name: {"glass": ("flask", "vial")}[name])
    t = parse_table({"rules": {}, "heads": ["@glass", "kettle"]}, Table, "toy.yaml")
    assert t.heads == ("flask", "vial", "kettle")


def test_an_unknown_vocabulary_is_an_error():
    with pytest.raises(TableError, match=r"^rules/toy.yaml: heads.0: rules/vocabularies.yaml: "
                                         r"no_such_list: no such vocabulary"):
        parse_table({"rules": {}, "heads": ["@no_such_list"]}, Table, "toy.yaml")


@dataclass(frozen=True)
class Named:
    name: str
    label: str = field(default="", metadata={"key": "class"})  # a key that is no Python name


@dataclass(frozen=True, kw_only=True)
class Step:
    table_variants: ClassVar[dict[str, type]] = {}
    name: str


@dataclass(frozen=True, kw_only=True)
class Wait(Step):
    minutes: int


Step.table_variants.update(wait=Wait, stop=Step)


@dataclass(frozen=True)
class Program:
    items: tuple[Named, ...] = ()
    steps: tuple[Step, ...] = ()


def test_a_list_item_with_a_name_is_named_in_the_path_and_a_field_may_read_another_key():
    t = parse_table({"items": [{"name": "a", "class": "X"}]}, Program, "toy.yaml")
    assert t.items == (Named("a", "X"),)
    with pytest.raises(TableError, match=r"^rules/toy.yaml: items.b.clas: unknown key "
                                         r"\(did you mean 'class'\?\)$"):
        parse_table({"items": [{"name": "a"}, {"name": "b", "clas": "X"}]}, Program, "toy.yaml")


def test_a_family_of_records_is_read_with_the_variant_its_tag_names():
    t = parse_table({"steps": [{"name": "wait", "minutes": 5}, {"name": "stop"}]},
                    Program, "toy.yaml")
    assert t.steps == (Wait(name="wait", minutes=5), Step(name="stop"))
    for steps, message in (
        ([{"name": "stop", "minutes": 5}], "steps.stop.minutes: unknown key"),
        ([{"name": "wait"}], "steps.wait.minutes: missing key"),
        ([{"name": "wiat"}], "steps.wiat.name: unknown name 'wiat' (did you mean 'wait'?)"),
        ([{"minutes": 5}], "steps.0.name: missing key"),
    ):
        with pytest.raises(TableError) as e:
            parse_table({"steps": steps}, Program, "toy.yaml")
        assert str(e.value) == f"rules/toy.yaml: {message}"
