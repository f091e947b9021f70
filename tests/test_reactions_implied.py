"""Implied species (rules/reactions.yaml: implied, chemie.reactions.implied): each rule fires
on a hand-written case of its own, a species is never added twice, and the table is checked.
``IMPLIED_CASES`` is read by tests/test_reactions_rules.py (every rule of the table fires)."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from chemie.model import Role
from chemie.model.reaction import Amount, Structure
from chemie.reactions.assemble import Candidate, DocView
from chemie.reactions.implied import implied_species
from chemie.reactions.table import check_table, reaction_table
from chemie.resources import load_rules
from chemie.structures import chem
from chemie.structures.dictionary import compounds
from chemie.tables import TableError, parse_table


def _c(text: str, at: str, role: str, smiles: str | None = None, cls: str | None = None,
       label: str = "STARTING_MATERIAL") -> Candidate:
    """A candidate standing at the first place of ``text`` in ``at``, with its role."""
    start = at.index(text)
    structure = Structure("opsin", chem.canonical(smiles), chem.inchikey(smiles)) \
        if smiles else Structure("unresolved", reason="generic phrase")
    c = Candidate(start, start + len(text), text, label, "reactant", 0, None, Amount(),
                  structure=structure, cls=cls, name=text)
    c.role, c.rule = role, "label"
    return c


def _run(text: str, members: list[Candidate], roles: list[Role] | None = None,
         structures: bool = True) -> list[Candidate]:
    view = DocView("d", text, roles or [], [], [], {})
    implied_species(view, members, 0, len(text), table=reaction_table(),
                    structures=structures)
    return members


def _by_rule(found: list[Candidate]) -> dict[str, tuple[str, str | None, str]]:
    return {c.rule: (c.role, c.structure.smiles if c.structure else None, c.text)
            for c in found}


HYDROGENATION = ("A solution of 4-nitrotoluene (1.0 g) in methanol was hydrogenated over 10% "
                 "Pd/C (0.1 g) for 4 h to give 4-methylaniline (0.7 g).")


def _hydrogenation_case() -> list[Candidate]:
    t = HYDROGENATION
    return _run(t, [_c("4-nitrotoluene", t, "reactant", "Cc1ccc([N+](=O)[O-])cc1"),
                    _c("Pd/C", t, "catalyst", "[Pd]", "catalyst"),
                    _c("4-methylaniline", t, "product", "Cc1ccc(N)cc1")])


def test_a_hydrogenation_brings_hydrogen_once():
    out = _by_rule(_hydrogenation_case())
    assert out["hydrogenation_hydrogen"] == ("reagent", "[HH]", "hydrogenated")
    # named hydrogen is not added again; a transfer hydrogenation uses no hydrogen gas
    t = HYDROGENATION.replace("was hydrogenated", "was hydrogenated under hydrogen")
    found = _run(t, [_c("hydrogen", t, "reagent", "[HH]", "gas")])
    assert len(found) == 1
    t = HYDROGENATION.replace("was hydrogenated", "underwent transfer hydrogenation")
    assert len(_run(t, [_c("Pd/C", t, "catalyst", "[Pd]", "catalyst")])) == 1
    assert not any(c.rule == "hydrogenation_hydrogen" for c in _run(
        "The dehydrogenation of X gave Y.", []))


ATMOSPHERE = "The nitro compound and Pd/C in ethanol were stirred under H2 (1 atm) for 5 h."


def _atmosphere_case() -> list[Candidate]:
    return _run(ATMOSPHERE, [_c("Pd/C", ATMOSPHERE, "catalyst", "[Pd]", "catalyst")])


def test_a_reaction_under_hydrogen_uses_it():
    assert _by_rule(_atmosphere_case())["hydrogen_atmosphere"] == ("reagent", "[HH]", "under H2")
    for phrase in ("under an atmosphere of hydrogen", "with a hydrogen balloon",
                   "at 50 psi of H2"):
        t = ATMOSPHERE.replace("under H2 (1 atm)", phrase)
        assert any(c.rule == "hydrogen_atmosphere" for c in _run(t, [])), phrase
    assert not any(c.rule == "hydrogen_atmosphere" for c in _run(
        "The mixture was stirred under nitrogen.", []))


SAPONIFICATION = ("Methyl benzoate (1.0 g) in methanol was treated with aqueous sodium hydroxide "
                  "(2 N, 5 mL) for 3 h to give benzoic acid.")


def _aqueous_case() -> list[Candidate]:
    t = SAPONIFICATION
    return _run(t, [_c("Methyl benzoate", t, "reactant", "COC(=O)c1ccccc1"),
                    _c("sodium hydroxide", t, "reagent", "[Na+].[OH-]", "base"),
                    _c("benzoic acid", t, "product", "OC(=O)c1ccccc1")])


def test_an_aqueous_acid_or_base_brings_water():
    out = _by_rule(_aqueous_case())
    assert out["aqueous_water"] == ("solvent", "O", "aqueous")
    for written in ("1 N aq. NaOH", "NaOH (aq)", "a 2 M aqueous solution of NaOH"):
        t = f"The ester was treated with {written} (5 mL)."
        found = _run(t, [_c("NaOH", t, "reagent", "[Na+].[OH-]", "base")])
        assert [c.structure.smiles for c in found if c.rule == "aqueous_water"] == ["O"], written
    # the word cut from its compound as a span of its own takes water's structure
    t = SAPONIFICATION
    alone = _c("aqueous", t, "solvent", label="SOLVENT")
    found = _run(t, [alone, _c("sodium hydroxide", t, "reagent", "[Na+].[OH-]", "base")])
    assert len(found) == 2 and (alone.structure.smiles, alone.rule) == ("O", "aqueous_water")
    # not for an oxidant (30% hydrogen peroxide, aqueous), nor when water is there
    t = "The sulfide in acetic acid was treated with aqueous hydrogen peroxide."
    assert len(_run(t, [_c("hydrogen peroxide", t, "reactant", "OO", "oxidant")])) == 1
    t = "The ester in water was treated with aqueous NaOH."
    assert len(_run(t, [_c("water", t, "solvent", "O", "solvent"),
                        _c("NaOH", t, "reagent", "[Na+].[OH-]", "base")])) == 2


ETHEREAL = "The Boc-amine (1.0 g) was treated with ethereal HCl (10 mL) to give the amine salt."


def _solution_case() -> list[Candidate]:
    t = ETHEREAL
    return _run(t, [_c("HCl", t, "reactant", "Cl", "acid")])


def test_an_acid_written_with_its_solvent_brings_the_solvent():
    assert _by_rule(_solution_case())["solution_solvent"] == ("solvent", "CCOCC", "ethereal")
    t = "The amine was treated with methanolic HCl (10 mL)."
    found = _run(t, [_c("methanolic HCl", t, "reactant", "Cl", "acid")])
    assert [c.structure.smiles for c in found if c.rule == "solution_solvent"] == ["CO"]
    # without structures, the species is told apart by its name and has no structure
    found = _run(ETHEREAL, [_c("HCl", ETHEREAL, "reactant", None, "acid")], structures=False)
    assert [(c.name, c.structure) for c in found if c.rule == "solution_solvent"] == [
        ("diethyl ether", None)]


SALT = "The Boc-amine was stirred in HCl/dioxane (4 M) for 2 h to give piperidine hydrochloride."


def _salt_case() -> list[Candidate]:
    t = SALT
    hcl = t.index("HCl")
    roles = [Role("T9", hcl, hcl + 3, "OTHER_COMPOUND", "HCl", "workup_antecedent")]
    return _run(t, [_c("Boc-amine", t, "reactant", "CC(C)(C)OC(=O)N1CCCCC1"),
                    _c("dioxane", t, "solvent", "C1COCCO1", "solvent"),
                    _c("piperidine hydrochloride", t, "product", "C1CCNCC1.Cl")], roles)


def test_the_acid_of_a_product_salt_named_in_the_text_is_a_reactant():
    out = _by_rule(_salt_case())
    assert out["salt_forming_acid"] == ("reactant", "Cl", "HCl")
    # an acid no text names is not added; nor when an input already holds it
    t = SALT.replace("HCl/dioxane", "dioxane")
    assert len(_run(t, [_c("piperidine hydrochloride", t, "product", "C1CCNCC1.Cl")])) == 1
    found = _run(SALT, [_c("HCl", SALT, "reagent", "Cl", "acid"),
                        _c("piperidine hydrochloride", SALT, "product", "C1CCNCC1.Cl")])
    assert [c.rule for c in found] == ["label", "label"]
    # a candidate that took no part is given it
    none = _c("HCl", SALT, "none", "Cl", "acid")
    _run(SALT, [none, _c("piperidine hydrochloride", SALT, "product", "C1CCNCC1.Cl")])
    assert (none.role, none.rule) == ("reactant", "salt_forming_acid")


def test_every_species_is_a_compound_of_the_dictionary():
    d = compounds()
    for rule in reaction_table().implied:
        for name in (rule.species, *rule.words.values(), *rule.acids):
            if name:
                assert d.lookup(name) is not None and d.lookup(name).smiles, (rule.name, name)


def test_every_implied_rule_states_its_convention():
    assert all(r.convention.strip() and r.comment.strip() for r in reaction_table().implied)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["implied"][0].pop("acids"), "implied.salt_forming_acid.acids: a salt_acid"),
    (lambda d: d["implied"][3].update(pattern="(unclosed"), "implied.hydrogenation_hydrogen"
                                                            ".pattern: does not compile"),
    (lambda d: d["implied"][1].pop("words"), "implied.solution_solvent.species: give"),
])
def test_a_bad_implied_rule_is_refused_naming_the_key(change, message):
    data = copy.deepcopy(load_rules("reactions.yaml"))
    change(data)
    with pytest.raises(TableError, match=message):
        check_table(parse_table(data, type(reaction_table()), "reactions.yaml"),
                    "reactions.yaml")


# each implied rule -> its hand-written case (read by tests/test_reactions_rules.py)
IMPLIED_CASES: dict[str, Callable[[], list[Candidate]]] = {
    "salt_forming_acid": _salt_case,
    "solution_solvent": _solution_case,
    "aqueous_water": _aqueous_case,
    "hydrogenation_hydrogen": _hydrogenation_case,
    "hydrogen_atmosphere": _atmosphere_case,
}
