"""The reaction record: JSON round trip, USPTO roles and reaction SMILES, structure labels."""

from __future__ import annotations

import json

import pytest

from chemie.model.reaction import (
    Amount,
    Component,
    Condition,
    Conditions,
    Quantity,
    Reaction,
    Step,
    StepObject,
    Structure,
    Yield,
)


def _record() -> Reaction:
    acid = Component(
        "benzoic acid", "reactant", "arg_object", 10, 22, "M2",
        Amount(mass=Quantity(1.22, "g", "1.22 g"), moles=Quantity(10.0, "mmol", "10 mmol")),
        Structure("opsin", "O=C(O)c1ccccc1", "WPYMKLBDIGXBTP-UHFFFAOYSA-N",
                  rule="widened_name"),
        "training_starting_material",
    )
    thf = Component("THF", "solvent", "dictionary_solvent", 30, 33, "M3",
                    Amount(volume=Quantity(5, "mL", "5 mL")),
                    Structure("dictionary", "C1CCOC1", kind="molecule"))
    base = Component("DIPEA", "reagent", "dictionary_base", 40, 45,
                     amount=Amount(equivalents=Quantity(2, "eq", "2 eq")),
                     structure=Structure("dictionary", "CCN(C(C)C)C(C)C"))
    product = Component("the title compound", "product", "product_yield", 80, 98, "M9",
                        structure=Structure("coreference", "O=C(O)c1ccccc1", via="benzoic acid",
                                            rule="reference_to_title"))
    label = Component("Intermediate 5", "reactant", "arg_object", 50, 64,
                      structure=Structure("unresolved", reason="compound label"))
    return Reaction(
        "doc1-1", "doc1", "product_of_step", products=[product], reactants=[acid, label],
        reagents=[base], solvents=[thf],
        yield_=Yield(92.0, Quantity(1.1, "g", "1.1 g"), text="1.1 g, 92%"),
        conditions=Conditions(temperature=[Condition("temperature", "80 °C", "temperature_value",
                                                     Quantity(80, "°C", "80 °C"))],
                              atmosphere=[Condition("atmosphere", "nitrogen", "atmosphere")]),
        steps=[Step("Add", "added", "reaction", "trigger:Add", 23, 28,
                    [StepObject("object", "DIPEA", "M4")])],
    )


def test_round_trip_through_json():
    record = _record()
    text = json.dumps(record.to_dict(), ensure_ascii=False)
    back = Reaction.from_dict(json.loads(text))
    assert back == record
    assert back.to_dict() == record.to_dict()


def test_empty_parts_are_left_out_and_restored():
    r = Reaction("d-1", "d", "rule")
    d = r.to_dict()
    assert "yield" not in d and "conditions" not in d
    assert d["products"] == [] and d["steps"] == []
    c = Component("water", "solvent", "r").to_dict()
    assert "amount" not in c and "structure" not in c and "mention" not in c
    assert Reaction.from_dict(d) == r


def test_uspto_roles_fold_catalysts_and_solvents_into_reagents():
    record = _record()
    assert record.smiles("reactants") == ["O=C(O)c1ccccc1"]  # the unresolved label left out
    assert record.smiles("reagents") == ["CCN(C(C)C)C(C)C", "C1CCOC1"]
    assert record.rsmi() == "O=C(O)c1ccccc1>CCN(C(C)C)C(C)C.C1CCOC1>O=C(O)c1ccccc1"
    with pytest.raises(ValueError):
        record.smiles("solvents")


def test_structure_labels():
    assert Structure("coreference", "C", via="the heading").label == "coreference → the heading"
    assert Structure("unresolved", reason="compound label").label == "unresolved (compound label)"
    assert Structure("opsin", "C").label == "opsin"
    assert not Structure("unresolved").resolved


def test_amount_truth():
    assert not Amount()
    assert Amount(concentration=Quantity(2, "M"))
    assert not Yield() and Yield(percent=50.0)
