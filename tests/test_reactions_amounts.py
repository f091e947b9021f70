"""Quantities and amounts: units from rules/reactions.yaml, the amount written near a name."""

from __future__ import annotations

import pytest

from chemie.reactions.amounts import amount_near, parse_amount, quantities


@pytest.mark.parametrize("text, measure, value, unit", [
    ("1.22 g", "mass", 1.22, "g"),
    ("350 mg", "mass", 350.0, "mg"),
    ("5 ml", "volume", 5.0, "mL"),
    ("55.9 μL", "volume", 55.9, "µL"),
    ("1,5 mmol", "moles", 1.5, "mmol"),
    ("0.26 mole", "moles", 0.26, "mol"),
    ("2.0 equiv.", "equivalents", 2.0, "eq"),
    ("1.5-2 eq", "equivalents", 1.5, "eq"),
    ("4 M", "concentration", 4.0, "M"),
    ("80 °C", "temperature", 80.0, "°C"),
    ("16 hours", "time", 16.0, "h"),
    ("3 bar", "pressure", 3.0, "bar"),
])
def test_units(text, measure, value, unit):
    [(m, q, start, end)] = quantities(text)
    assert (m, q.value, q.unit, q.text) == (measure, value, unit, text)
    assert (start, end) == (0, len(text))


def test_what_is_no_quantity():
    assert quantities("step 2 m") == []  # "m" is no molarity when written in lower case
    assert quantities("a 12gauge needle") == []  # a unit must end its word
    assert not parse_amount("LC-MS (method 2)")


def test_amount_in_the_bracket_after_the_name():
    text = "benzoic acid (1.22 g, 10.0 mmol, 1.0 eq) was added"
    a = amount_near(text, 0, 12)
    assert (a.mass.value, a.moles.value, a.equivalents.value) == (1.22, 10.0, 1.0)


def test_amount_before_the_name():
    text = "A mixture of 10.0 g (63.6 mmol) of the acid, 25 mL of toluene and 2 M NaOH (5 mL)"
    acid = text.index("the acid")
    a = amount_near(text, acid, acid + 8)
    assert (a.mass.value, a.moles.value) == (10.0, 63.6)
    tol = text.index("toluene")
    assert amount_near(text, tol, tol + 7, limit=acid + 8).volume.value == 25.0
    naoh = text.index("NaOH")
    b = amount_near(text, naoh, naoh + 4, limit=tol + 7)
    assert (b.concentration.value, b.concentration.unit, b.volume.value) == (2.0, "M", 5.0)


def test_a_solution_of():
    text = "5 mL of a 1 M solution of LiAlH4 in THF"
    s = text.index("LiAlH4")
    a = amount_near(text, s, s + 6)
    assert (a.volume.value, a.concentration.value) == (5.0, 1.0)


def test_no_amount_from_another_compounds_bracket():
    text = "benzylamine (0.9 g) in DCM (10 mL)"
    s = text.index("DCM")
    a = amount_near(text, s, s + 3, limit=len("benzylamine"))
    assert a.mass is None and a.volume.value == 10.0


def test_an_alias_bracket_before_the_amount():
    text = "the solution of ferrocene ( Fc ) ( 9.3 g , 50 mmol ) in THF"
    s = text.index("ferrocene")
    a = amount_near(text, s, s + 9)
    assert (a.mass.value, a.moles.value) == (9.3, 50.0)
