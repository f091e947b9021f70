"""rules/reactions.yaml: every rule fires on a hand-written case of its own
(``test_rule_fires``: one case per rule, each run alone, whatever the order of the tests),
and the table is checked."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable

import pytest
from test_reactions_implied import IMPLIED_CASES

from chemie.model import Mention, Role
from chemie.model.reaction import Amount, Quantity, Reaction, Structure
from chemie.reactions import assemble
from chemie.reactions.amounts import amount_near
from chemie.reactions.assemble import Candidate, DocView, candidates, conditions
from chemie.reactions.grounded import StructureResolver
from chemie.reactions.records import inputs_like_product, records
from chemie.reactions.roles import text_roles
from chemie.reactions.sections import Plan, Section
from chemie.reactions.structure_roles import structure_roles
from chemie.reactions.table import (
    ReactionTable,
    check_table,
    reaction_table,
    roles_rule_references,
)
from chemie.resources import load_rules
from chemie.roles.table import role_table
from chemie.structures import chem
from chemie.structures.grounding import Grounding, Name
from chemie.structures.resolve import Resolution
from chemie.tables import TableError, parse_table


def fired(outputs: Iterable[object]) -> set[str]:
    """Every rule named on outputs: a candidate's or component's role rule, the chemie_roles
    rule of its label and the rule that chose its structure's name; a record's rule and its
    components'; a condition's rule."""
    out: set[str] = set()
    for x in outputs:
        out.update(r for r in (getattr(x, "rule", None), getattr(x, "label_rule", None)) if r)
        structure = getattr(x, "structure", None)
        if structure is not None and structure.rule:
            out.add(structure.rule)
        if isinstance(x, Reaction):
            out |= fired(x.components())
    return out


def _c(name: str, label: str, smiles: str | None = None, *, cls: str | None = None,
       label_rule: str = "reactant", amount: Amount | None = None, at: str = "") -> Candidate:
    """A candidate; ``at``: a text in which it stands (its offsets are its first place)."""
    structure = None
    if smiles is not None:
        structure = Structure("opsin", smiles, chem.inchikey(smiles))
    start = at.index(name) if at else 0
    return Candidate(start, start + len(name), name, label, label_rule, 0, None,
                     amount or Amount(), structure=structure, cls=cls, name=name,
                     heading=label_rule in reaction_table().heading_rules)


def _text(found: list[Candidate]) -> list[Candidate]:
    """The candidates after the text tier of the roles."""
    text_roles(found, reaction_table())
    return found


def _roles(found: list[Candidate]) -> list[Candidate]:
    """The candidates after the text and structure tiers (a split salt adds one)."""
    table = reaction_table()
    text_roles(found, table)
    structure_roles(found, table)
    return found


def _by_name(found: list[Candidate]) -> dict[str, tuple[str, str]]:
    return {f"{c.name}|{c.structure.smiles if c.structure else ''}": (c.role, c.rule)
            for c in found}


def _labels_case() -> list[Candidate]:
    return _text([
        _c("benzyl benzoate", "REACTION_PRODUCT", "O=C(OCc1ccccc1)c1ccccc1",
           label_rule="heading_product"),
        _c("benzoic acid", "STARTING_MATERIAL", "O=C(O)c1ccccc1"),
        _c("benzyl bromide", "STARTING_MATERIAL", "BrCc1ccccc1"),
        _c("triethylamine", "REAGENT_CATALYST", "CCN(CC)CC", label_rule="known_reagent"),
        _c("DMF", "SOLVENT", "CN(C)C=O", label_rule="solvent_after_in"),
    ])


def test_label_rules_give_the_uspto_roles():
    roles = {k.split("|")[0]: v for k, v in _by_name(_labels_case()).items()}
    assert roles["benzyl benzoate"] == ("product", "label_product")
    assert roles["benzoic acid"] == ("reactant", "label_starting_material")
    assert roles["triethylamine"] == ("reagent", "label_reagent")
    assert roles["DMF"] == ("solvent", "label_solvent")


def _water_case() -> list[Candidate]:
    return _text([_c("water", "SOLVENT", "O", label_rule="known_solvent"),
                   _c("Water", "SOLVENT", "O", label_rule="solvent_after_in"),
                   _c("H2O", "SOLVENT", "O", label_rule="known_solvent",
                      amount=Amount(volume=Quantity(50.0, "mL")))])


def test_water_that_is_no_argument_takes_no_part():
    out = _by_name(_water_case())
    assert out["water|O"] == ("none", "water_not_argument")
    assert out["Water|O"] == ("solvent", "label_solvent")  # "in water": a solvent
    assert out["H2O|O"] == ("solvent", "label_solvent")  # "charged with water (50 mL)"


def _reagent_name_case() -> list[Candidate]:
    return _text([_c("1-(3-dimethylaminopropyl)-3-ethylcarbodiimide", "STARTING_MATERIAL",
                      "CCN=C=NCCCN(C)C")])


def test_reagent_names_make_coupling_agents_reagents():
    [edc] = _reagent_name_case()
    assert (edc.role, edc.rule) == ("reagent", "reagent_name")


def _classes_case() -> list[Candidate]:
    weighed = Amount(mass=Quantity(1.0, "g"))
    return _text([
        _c("tetrahydrofurane", "STARTING_MATERIAL", "C1CCOC1", cls="solvent"),
        _c("anisole", "STARTING_MATERIAL", "COc1ccccc1", cls="solvent", amount=weighed),
        _c("Pd/C", "REAGENT_CATALYST", "[Pd]", cls="catalyst"),
        _c("lithium aluminium hydride", "STARTING_MATERIAL", "[Li+].[AlH4-]",
           cls="reducing_agent"),
        _c("Celite", "REAGENT_CATALYST", None, cls="material"),
    ])


def test_dictionary_classes():
    out = _by_name(_classes_case())
    assert out["tetrahydrofurane|C1CCOC1"] == ("solvent", "class_solvent")
    assert out["anisole|COc1ccccc1"] == ("reactant", "label_starting_material")
    assert out["Pd/C|[Pd]"] == ("catalyst", "class_catalyst")
    assert out["lithium aluminium hydride|[Li+].[AlH4-]"] == ("reagent", "class_reagent")
    assert out["Celite|"] == ("none", "class_material")


def _structure_case() -> list[Candidate]:
    return _roles([
        _c("piperidine hydrochloride", "REACTION_PRODUCT", "C1CCNCC1.Cl"),
        _c("tert-butyl piperidine-1-carboxylate", "STARTING_MATERIAL",
           "CC(C)(C)OC(=O)N1CCCCC1"),
        _c("HCl", "REAGENT_CATALYST", "Cl"),
        _c("sodium borohydride", "STARTING_MATERIAL", "[Na+].[BH4-]"),
        _c("methyl iodide", "STARTING_MATERIAL", "CI"),
    ])


def test_structure_rules():
    out = _by_name(_structure_case())
    assert out["tert-butyl piperidine-1-carboxylate|CC(C)(C)OC(=O)N1CCCCC1"] == (
        "reactant", "reactant_gives_substructure")
    assert out["HCl|Cl"] == ("reactant", "gives_product_fragment")  # the acid of the salt
    assert out["sodium borohydride|[Na+].[BH4-]"] == ("reagent", "gives_no_atoms")
    # a methyl donor, but the product has no carbon to explain: it gives nothing
    assert out["methyl iodide|CI"] == ("reagent", "gives_no_atoms")


def _spectator_case() -> list[Candidate]:
    return _roles([_c("phenylacetonitrile", "REACTION_PRODUCT", "N#CCc1ccccc1"),
                   _c("benzyl chloride", "STARTING_MATERIAL", "ClCc1ccccc1"),
                   _c("potassium cyanide", "STARTING_MATERIAL", "[K+].[C-]#N")])


def test_spectator_ions_split_a_salt():
    found = _spectator_case()
    out = _by_name(found)
    assert out["potassium cyanide|[C-]#N"] == ("reactant", "reactant_gives_substructure")
    assert out["potassium cyanide|[K+]"] == ("reagent", "spectator_ions")
    assert len(found) == 4


def test_the_ion_that_gives_reacts_and_its_counter_ions_are_spectators():
    out = _by_name(_roles([
        _c("5-(chloromethyl)-3-phenyl-1,2,4-oxadiazole", "REACTION_PRODUCT",
           "ClCc1nc(-c2ccccc2)no1"),
        _c("benzonitrile", "STARTING_MATERIAL", "N#Cc1ccccc1"),
        _c("hydroxylamine hydrochloride", "STARTING_MATERIAL", "NO.Cl"),
        _c("chloroacetyl chloride", "STARTING_MATERIAL", "O=C(Cl)CCl"),
    ]))
    # the oxadiazole's chlorine is the chloroacetyl's: the chloride gives nothing
    assert out["hydroxylamine hydrochloride|NO"][0] == "reactant"
    assert out["hydroxylamine hydrochloride|Cl"] == ("reagent", "spectator_ions")
    assert out["chloroacetyl chloride|O=C(Cl)CCl"][0] == "reactant"
    # an ion that is a whole fragment of the product salt stays, and so does the one that
    # reacts
    out = _by_name(_roles([
        _c("tetrabutylammonium 4-phenoxybutylsulfonate", "REACTION_PRODUCT",
           "CCCC[N+](CCCC)(CCCC)CCCC.O=S(=O)([O-])CCCCOc1ccccc1"),
        _c("tetrabutylammonium 4-chlorobutylsulfonate", "STARTING_MATERIAL",
           "CCCC[N+](CCCC)(CCCC)CCCC.O=S(=O)([O-])CCCCCl"),
        _c("phenol", "STARTING_MATERIAL", "Oc1ccccc1"),
    ]))
    assert [v[0] for v in out.values()] == ["product", "reactant", "reactant"]


def _one_atom_case() -> list[Candidate]:
    return _roles([
        _c("2-phenylpropan-2-ol", "REACTION_PRODUCT", "CC(C)(O)c1ccccc1"),
        _c("acetophenone", "STARTING_MATERIAL", "CC(=O)c1ccccc1"),
        _c("methyl magnesium iodide", "REAGENT_CATALYST", "[CH3][Mg][I]",
           label_rule="reagent_by_name"),
        _c("zinc chloride", "REAGENT_CATALYST", "[Cl-].[Cl-].[Zn+2]", cls="reagent"),
    ])


def test_a_grignard_reagent_gives_its_carbon():
    out = _by_name(_one_atom_case())
    assert out["methyl magnesium iodide|[CH3][Mg][I]"] == ("reactant", "gives_one_atom")
    assert out["zinc chloride|[Cl-].[Cl-].[Zn+2]"] == ("reagent", "label_reagent")


def _solvent_methyl_case() -> list[Candidate]:
    return _roles([
        _c("methyl benzoate", "REACTION_PRODUCT", "COC(=O)c1ccccc1"),
        _c("benzoic acid", "STARTING_MATERIAL", "O=C(O)c1ccccc1"),
        _c("sulfuric acid", "REAGENT_CATALYST", "O=S(=O)(O)O", cls="acid"),
        _c("methanol", "SOLVENT", "CO", cls="solvent", label_rule="known_solvent"),
        _c("toluene", "SOLVENT", "Cc1ccccc1", cls="solvent", label_rule="known_solvent"),
    ])


def test_the_methanol_of_a_methyl_ester_is_a_reactant():
    out = _by_name(_solvent_methyl_case())
    assert out["methanol|CO"] == ("reactant", "solvent_gives_methyl")
    assert out["toluene|Cc1ccccc1"] == ("solvent", "label_solvent")
    assert out["sulfuric acid|O=S(=O)(O)O"][0] == "reagent"
    # an acid that already holds its methyl leaves the methanol it is dissolved in a solvent
    found = _roles([_c("methyl benzoate", "REACTION_PRODUCT", "COC(=O)c1ccccc1"),
                    _c("methyl 4-bromobenzoate", "STARTING_MATERIAL", "COC(=O)c1ccc(Br)cc1"),
                    _c("methanol", "SOLVENT", "CO", cls="solvent", label_rule="known_solvent")])
    assert _by_name(found)["methanol|CO"] == ("solvent", "label_solvent")


def _products(found: list[Candidate], heading: bool) -> list[Candidate]:
    """The roles after the products of one reaction are chosen: the heading's compound as
    the title when ``heading`` (the last reaction of its document)."""
    text_roles(found, reaction_table())
    title = next((c for c in found if c.heading), None) if heading else None
    chosen = assemble.choose_products(found, title)
    inputs_like_product(Plan([Section(0, 1000)]), found, chosen, [])
    return found


def _title_case() -> list[Candidate]:
    return _products([
        _c("benzyl alcohol", "REACTION_PRODUCT", "OCc1ccccc1", label_rule="heading_product"),
        _c("benzaldehyde oxime", "REACTION_PRODUCT", "ON=Cc1ccccc1", label_rule="yield_product"),
        _c("benzyl alcohol", "STARTING_MATERIAL", "OCc1ccccc1"),
        _c("benzaldehyde", "STARTING_MATERIAL", "O=Cc1ccccc1"),
    ], heading=True)


def test_title_product_and_is_the_product():
    title, other, again, aldehyde = _title_case()
    assert (title.role, title.rule) == ("product", "title_product")
    assert (other.role, other.rule) == ("none", "title_product")
    assert (again.role, again.rule) == ("none", "is_the_product")
    assert aldehyde.role == "reactant"  # same skeleton, another compound


def _solvent_title_case() -> list[Candidate]:
    return _products([
        _c("Isopropanol", "REACTION_PRODUCT", "CC(C)O", cls="solvent",
           label_rule="heading_product"),
        _c("the citrate", "REACTION_PRODUCT", "NC1CN2CCC1CC2", label_rule="yield_product"),
        _c("hexanes", "REACTION_PRODUCT", "CCCCCC", cls="solvent", label_rule="yield_product"),
    ], heading=True)


def test_a_solvent_is_no_title_compound():
    solvent, salt, hexanes = _solvent_title_case()
    assert (salt.role, salt.rule) == ("product", "last_product")
    assert (solvent.role, solvent.rule) == (hexanes.role, hexanes.rule) == (
        "none", "not_a_product")


def _input_class_case() -> list[Candidate]:
    return _products([
        _c("benzyl chloride", "REACTION_PRODUCT", "ClCc1ccccc1", label_rule="heading_product"),
        _c("fuming HCl", "REACTION_PRODUCT", "Cl", cls="acid", label_rule="quantified_product"),
        _c("Pd/C", "REACTION_PRODUCT", "[Pd]", cls="catalyst", label_rule="quantified_product"),
        _c("benzyl alcohol", "REACTION_PRODUCT", "OCc1ccccc1", label_rule="yield_product"),
    ], heading=True)


def test_an_input_read_as_a_product_is_that_input():
    title, acid, catalyst, intermediate = _input_class_case()
    assert (title.role, title.rule) == ("product", "title_product")
    assert (acid.role, acid.rule) == ("reagent", "product_of_input_class")
    assert (catalyst.role, catalyst.rule) == ("catalyst", "product_of_input_class")
    assert (intermediate.role, intermediate.rule) == ("none", "title_product")


def _last_product_case() -> list[Candidate]:
    return _products([
        _c("benzoic acid", "REACTION_PRODUCT", "O=C(O)c1ccccc1", label_rule="yield_product"),
        _c("methyl benzoate", "REACTION_PRODUCT", "COC(=O)c1ccccc1", label_rule="yield_product"),
    ], heading=True)


def test_last_product_without_a_title():
    first, last = _last_product_case()
    assert (last.role, last.rule) == ("product", "last_product")
    assert first.role == "none"


def _alias_case() -> list[Candidate]:
    text = "diisopropylethylamine (DIPEA) (1.2 mL) and DMF"
    long = _c("diisopropylethylamine", "REAGENT_CATALYST", "CCN(C(C)C)C(C)C", at=text)
    short = _c("DIPEA", "REAGENT_CATALYST", "CCN(C(C)C)C(C)C", at=text,
               amount=Amount(volume=Quantity(1.2, "mL")))
    text_roles([long, short], reaction_table())
    assemble._aliases(text, [long, short])
    return [long, short]


def test_alias():
    long, short = _alias_case()
    assert (short.role, short.rule) == ("none", "alias")
    assert long.role == "reagent" and long.amount.volume.value == 1.2


def test_a_reference_to_another_input_is_an_alias():
    dcm = _c("DCM", "SOLVENT", "ClCCl", label_rule="solvent_after_in")
    sm = _c("SM", "STARTING_MATERIAL", "ClCCl")
    sm.structure = Structure("coreference", "ClCCl", dcm.structure.inchikey, via="DCM")
    text_roles([dcm, sm], reaction_table())
    assemble._aliases("DCM ... SM", [dcm, sm])
    assert (sm.role, sm.rule) == ("none", "alias") and dcm.role == "solvent"


def test_a_halogen_donor_gives_its_halogen():
    out = _by_name(_roles([_c("4-chloroquinazoline", "REACTION_PRODUCT", "Clc1ncnc2ccccc12"),
                           _c("quinazolin-4(3H)-one", "STARTING_MATERIAL", "O=c1[nH]cnc2ccccc12"),
                           _c("POCl3", "REAGENT_CATALYST", "O=P(Cl)(Cl)Cl", cls="reagent"),
                           _c("HCl", "STARTING_MATERIAL", "Cl")]))
    assert out["POCl3|O=P(Cl)(Cl)Cl"] == ("reactant", "gives_one_atom")
    # HCl could have given the chlorine as well: the text's reactant stands
    assert out["HCl|Cl"] == ("reactant", "label_starting_material")
    bromide = _roles([_c("benzoic acid", "REACTION_PRODUCT", "O=C(O)c1ccccc1"),
                      _c("sodium bromide", "STARTING_MATERIAL", "[Na+].[Br-]")])
    assert _by_name(bromide)["sodium bromide|[Na+].[Br-]"] == ("reagent", "gives_no_atoms")


def test_the_acid_of_a_product_salt_gives_a_fragment():
    found = _roles([_c("3-aminoquinuclidine phosphate", "REACTION_PRODUCT",
                       "NC1CN2CCC1CC2.O=P(O)(O)O"),
                    _c("phosphoric acid", "REAGENT_CATALYST", "O=P(O)(O)O", cls="acid")])
    assert _by_name(found)["phosphoric acid|O=P(O)(O)O"] == ("reactant", "gives_product_fragment")


def _conditions_case() -> list[object]:
    text = "The mixture was stirred under an argon atmosphere at 50 psi for 2 h."
    out = conditions(DocView("d", text, [], [], [], {}), reaction_table(), 0, len(text))
    return [*out.atmosphere, *out.pressure]


def _time_words_case() -> list[object]:
    text = "The mixture was stirred overnight, then over the weekend."
    return conditions(DocView("d", text, [], [], [], {}), reaction_table(), 0, len(text)).time


def test_a_time_in_words_is_a_time():
    assert [c.text for c in _time_words_case()] == ["overnight", "over the weekend"]


def _roles_view(text: str, spans: list[tuple[str, str]]) -> DocView:
    """A view of ``text`` with a role per (text, label), each found after the one before."""
    roles, at = [], 0
    for n, (t, label) in enumerate(spans, 1):
        at = text.index(t, at)
        roles.append(Role(f"T{n}", at, at + len(t), label, t, "rule"))
        at += len(t)
    return DocView("d", text, roles, [], [], {})


def test_work_up_temperatures_are_no_reaction_conditions():
    text = ("The mixture was stirred at 80 °C for 2 h. It was cooled to room temperature and "
            "quenched with water at 0 °C.")
    view = _roles_view(text, [("stirred", "REACTION_STEP"), ("80 °C", "TEMPERATURE"),
                              ("2 h", "TIME"), ("cooled", "WORKUP"),
                              ("room temperature", "TEMPERATURE"), ("quenched", "WORKUP"),
                              ("0 °C", "TEMPERATURE")])
    out = conditions(view, reaction_table(), 0, len(text))
    assert [c.text for c in out.temperature] == ["80 °C"]


def test_a_condition_value_is_listed_once():
    text = "X was added at 0 °C. The mixture was stirred at 0 °C for 1 h."
    view = _roles_view(text, [("added", "REACTION_STEP"), ("0 °C", "TEMPERATURE"),
                              ("stirred", "REACTION_STEP"), ("0 °C", "TEMPERATURE"),
                              ("1 h", "TIME")])
    out = conditions(view, reaction_table(), 0, len(text))
    assert [c.text for c in out.temperature] == ["0 °C"]


@pytest.mark.parametrize(("text", "value"), [("-78 °C", -78.0), ("\u221220 °C", -20.0),
                                             ("at –10 °C", -10.0), ("0-5 °C", 0.0)])
def test_a_negative_temperature_keeps_its_sign(text, value):
    from chemie.reactions.amounts import quantities

    assert [q.value for m, q, _, _ in quantities(text) if m == "temperature"] == [value]


def test_a_dash_before_another_quantity_is_no_sign():
    from chemie.reactions.amounts import quantities

    assert [(q.value, q.text) for _, q, _, _ in quantities("acetate - 10 mL")] == [(10.0, "10 mL")]


def test_atmosphere_and_pressure():
    atmosphere, pressure = _conditions_case()
    assert atmosphere.text == "argon"
    assert pressure.value.value == 50.0 and pressure.value.unit == "psi"


def test_every_rule_has_a_comment():
    table = reaction_table()
    rules = [*table.labels, table.reagent_names, table.title_salt, *table.classes,
             *table.structure, table.spectator_ions, table.same_as_reactant,
             table.after_reaction, *table.products, *table.names, table.atmosphere,
             table.pressure, table.time_words, *table.implied]
    assert [r.name for r in rules] == table.rule_names()
    assert all(r.comment.strip() and "\n" not in r.comment for r in rules)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["labels"][0].update(role="catalyzer"), "labels.water_not_argument.role"),
    (lambda d: d["classes"][0].update(form_roles=["reactant"]), "classes.class_solvent.form_roles"),
    (lambda d: d.pop("products"), "products: missing key"),
    (lambda d: d["structure"][0].update(min_fraction="most"),
     "structure.gives_product_fragment.min_fraction"),
    (lambda d: d["accounting"].update(budget="soon"), "accounting.budget"),
])
def test_a_bad_table_is_refused_naming_the_key(change, message):
    data = copy.deepcopy(load_rules("reactions.yaml"))
    change(data)
    with pytest.raises(TableError, match=message.replace(".", r"\.")):
        parse_table(data, ReactionTable, "reactions.yaml")


@pytest.mark.parametrize("change, key, rule", [
    (lambda d: d["labels"][0].update(label_rules=["known_solvnt"]), "labels.0.label_rules",
     "known_solvnt"),
    (lambda d: d["after_reaction"]["label_rules"].append("training_catalyst"),
     "after_reaction.label_rules", "training_catalyst"),
    (lambda d: d.update(heading_rules=["title_product"]), "heading_rules", "title_product"),
])
def test_an_unknown_roles_rule_is_refused_naming_the_key(change, key, rule):
    data = copy.deepcopy(load_rules("reactions.yaml"))
    change(data)
    table = parse_table(data, ReactionTable, "reactions.yaml")
    with pytest.raises(TableError, match=rf"^rules/reactions\.yaml: {key}: unknown roles rule "
                                         rf"{rule}\b"):
        check_table(table, "reactions.yaml")


def test_the_roles_rules_referred_to_exist():
    """The shipped table refers only to rules of rules/roles.yaml, and to some of them."""
    names = {n for _, n in roles_rule_references(reaction_table())}
    assert {"known_solvent", "workup_compound", "heading_product"} <= names
    assert names <= set(role_table().rule_names())


def _oxidant_case() -> list[Candidate]:
    return _roles([_c("benzoic acid", "REACTION_PRODUCT", "O=C(O)c1ccccc1"),
                   _c("toluene", "STARTING_MATERIAL", "Cc1ccccc1"),
                   _c("potassium permanganate", "STARTING_MATERIAL", "[K+].[O-][Mn](=O)(=O)=O",
                      cls="oxidant"),
                   _c("sodium borohydride", "STARTING_MATERIAL", "[Na+].[BH4-]")])


def test_an_oxidant_gives_its_oxygen():
    out = _by_name(_oxidant_case())
    assert out["potassium permanganate|[O]=[Mn](=[O])(=[O])[O-]"] == ("reactant",
                                                                    "gives_one_atom")
    assert out["potassium permanganate|[K+]"] == ("reagent", "spectator_ions")
    assert out["sodium borohydride|[Na+].[BH4-]"] == ("reagent", "gives_no_atoms")


def _after_reaction_case() -> list[Candidate]:
    text = ("Benzoic acid (1.0 g), pyridine (2 mmol) and DMF (5 mL) were stirred overnight. "
            "Acetic acid was added and the mixture was extracted with ethyl acetate.")
    found = []
    for name, label, rule in (("Benzoic acid", "STARTING_MATERIAL", "reactant"),
                              ("DMF", "SOLVENT", "known_solvent"),
                              ("Acetic acid", "SOLVENT", "known_solvent"),
                              ("ethyl acetate", "SOLVENT", "solvent_after_in"),
                              ("pyridine", "REAGENT_CATALYST", "known_reagent")):
        c = _c(name, label, label_rule=rule, at=text)
        c.amount = amount_near(text, c.start, c.end)
        found.append(c)
    text_roles(found, reaction_table())
    assemble._after_reaction(DocView("d", text, [], [], [], {}), reaction_table(), found,
                             len(text))
    return found


def test_after_reaction():
    roles = {c.name: (c.role, c.rule) for c in _after_reaction_case()}
    assert roles["DMF"] == ("solvent", "label_solvent")  # before the wait
    assert roles["Acetic acid"] == ("none", "after_reaction")
    assert roles["ethyl acetate"] == ("solvent", "label_solvent")  # an argument: text decides
    # counted in moles: the wait that counts comes after it
    assert roles["pyridine"] == ("reagent", "label_reagent")


def test_hours():
    table = reaction_table()
    assert assemble._hours("30 minutes", table) == 0.5
    assert assemble._hours("2 days", table) == 48.0
    assert assemble._hours("several hours", table) == float("inf")


class _FakeResolver:
    """Resolves every text as one name, to the SMILES given for it."""

    def __init__(self, smiles: dict[str, str]):
        self.smiles = smiles
        self.asked: list[str] = []

    def resolve_texts(self, texts):
        self.asked.extend(texts)
        out = []
        for t in texts:
            name = Name(t, 0, len(t), "name", "whole", (t,))
            smi = self.smiles.get(t)
            how = "opsin" if smi else "unresolved"
            out.append((Grounding(t, (name,)), [Resolution(t, smi, None, how)]))
        return out


def _title_salt_case() -> tuple[list[Candidate], _FakeResolver]:
    text = "Benzylamine, hydrochloride\nIt was made."
    c = _c("Benzylamine", "REACTION_PRODUCT", "NCc1ccccc1", label_rule="heading_product")
    fake = _FakeResolver({"Benzylamine hydrochloride": "Cl.NCc1ccccc1"})
    StructureResolver(fake, reaction_table())._title_salts(DocView("d", text, [], [], [], {}),
                                                           [c])
    return [c], fake


def test_title_salt():
    [c], fake = _title_salt_case()
    assert fake.asked == ["Benzylamine hydrochloride"]
    assert c.name == "Benzylamine hydrochloride" and c.structure.smiles == "Cl.NCc1ccccc1"
    assert c.structure.rule == "title_salt"


@pytest.mark.parametrize("title", ["Benzylamine, 2HCl", "Benzylamine, TFA salt",
                                   "Benzylamine, monohydrate", "Benzylamine, hydrochloride"])
def test_title_salt_forms(title):
    assert reaction_table().compiled["title_salt"].search(title)


def test_no_title_salt_without_a_salt():
    for title in ("Benzylamine, the free base", "2,4-dichloro-benzylamine", "Step 2, HPLC"):
        assert not reaction_table().compiled["title_salt"].search(title)


def test_title_salt_inside_the_span():
    """The title's span holds the salt, which the grounding left out as no name."""
    text = "Benzylamine, hydrochloride\nIt was made."
    c = _c("Benzylamine, hydrochloride", "REACTION_PRODUCT", "NCc1ccccc1", at=text,
           label_rule="heading_product")
    fake = _FakeResolver({"Benzylamine hydrochloride": "Cl.NCc1ccccc1"})
    StructureResolver(fake, reaction_table())._title_salts(DocView("d", text, [], [], [], {}),
                                                           [c])
    assert (c.structure.smiles, c.structure.rule) == ("Cl.NCc1ccccc1", "title_salt")


STAGES = ("Benzoic acid (1.0 g) was heated in methanol. Methyl benzoate was obtained (1.2 g, "
          "80%). 310 mg of methyl benzoate was added to ammonia. Benzamide (5 mg) was obtained.")


def _stage_roles(text: str) -> list[Role]:
    def role(label: str, part: str, rule: str, after: int = 0) -> Role:
        a = text.index(part, after)
        return Role(f"T{a}", a, a + len(part), label, part, rule)
    return [role("STARTING_MATERIAL", "Benzoic acid", "reactant"),
            role("REACTION_PRODUCT", "Methyl benzoate", "yield_product"),
            role("YIELD_PERCENT", "80%", "yield_bracket"),
            role("STARTING_MATERIAL", "methyl benzoate", "reactant"),
            role("REAGENT_CATALYST", "ammonia", "known_reagent"),
            role("REACTION_PRODUCT", "Benzamide", "quantified_product")]


def _yield_then_stage_case() -> list[Reaction]:
    view = DocView("d", STAGES, _stage_roles(STAGES), [], [], {})
    found = candidates(view, reaction_table())
    text_roles(found, reaction_table())
    return records(view, reaction_table(), found)


def test_yield_then_stage():
    first, second = _yield_then_stage_case()
    assert (first.rule, second.rule) == ("section_product", "yield_then_stage")
    assert [c.name for c in first.reactants] == ["Benzoic acid"]
    assert [c.name for c in second.reactants] == ["methyl benzoate"]
    # no weighed starting material after the last yield: no new stage
    short = STAGES[:STAGES.index("310")]
    roles = [r for r in _stage_roles(STAGES) if r.end <= len(short)]
    assert DocView("d", short, roles, [], [], {}).section_starts() == [0]


def _joined_case() -> tuple[list[Candidate], _FakeResolver]:
    text = "tert-butyl ester of piperidine-1-carboxylic acid and hexylamine"
    ester = _c("tert-butyl ester", "STARTING_MATERIAL", at=text)
    ester.structure = Structure("unresolved", reason="parse failure")
    acid = _c("piperidine-1-carboxylic acid", "STARTING_MATERIAL", "OC(=O)N1CCCCC1", at=text)
    amine = _c("hexylamine", "STARTING_MATERIAL", "CCCCCCN", at=text)
    fake = _FakeResolver({"piperidine-1-carboxylic acid tert-butyl ester":
                          "CC(C)(C)OC(=O)N1CCCCC1"})
    out = StructureResolver(fake, reaction_table())._join(DocView("d", text, [], [], [], {}),
                                                          [ester, acid, amine])
    return out, fake


def test_joined_names():
    out, fake = _joined_case()
    joined = "piperidine-1-carboxylic acid tert-butyl ester"
    assert fake.asked == [joined]
    assert [c.name for c in out] == [joined, "hexylamine"]
    assert (out[0].start, out[0].end) == (0, out[0].start + len(
        "tert-butyl ester of piperidine-1-carboxylic acid"))
    assert out[0].structure.rule == "joined_names" and out[1].structure.rule is None


def _widened_case() -> tuple[list[Candidate], _FakeResolver]:
    text = "Biphenyl-2-ylcarbamic acid tert-butyl ester (1.0 g) was stirred in water."
    whole = "Biphenyl-2-ylcarbamic acid tert-butyl ester"
    c = _c("Biphenyl-2-ylcarbamic", "STARTING_MATERIAL", at=text)
    c.structure = Structure("unresolved", reason="parse failure")
    c.mention = Mention("M1", ((0, len(whole)),), "CHEMICAL", whole)
    fake = _FakeResolver({whole: "CC(C)(C)OC(=O)Nc1ccccc1-c1ccccc1"})
    StructureResolver(fake, reaction_table())._widen(DocView("d", text, [], [c.mention], [], {}),
                                                     [c])
    return [c], fake


def test_widened_name():
    [c], fake = _widened_case()
    assert "Biphenyl-2-ylcarbamic acid tert-butyl ester" in fake.asked
    assert c.name == "Biphenyl-2-ylcarbamic acid tert-butyl ester"
    assert (c.structure.how, c.structure.rule) == ("opsin", "widened_name")


def _references_case() -> list[Candidate]:
    text = "Benzyl alcohol\nBenzaldehyde (1.0 g) ... the aldehyde ... to give the title compound."
    mentions = [Mention(f"M{n}", ((text.index(w), text.index(w) + len(w)),), "CHEMICAL", w)
                for n, w in enumerate(("Benzyl alcohol", "Benzaldehyde", "the aldehyde",
                                       "the title compound"))]
    title = _c("Benzyl alcohol", "REACTION_PRODUCT", "OCc1ccccc1", at=text,
               label_rule="heading_product")
    sm = _c("Benzaldehyde", "STARTING_MATERIAL", "O=Cc1ccccc1", at=text)
    again = _c("the aldehyde", "STARTING_MATERIAL", at=text)
    product = _c("the title compound", "REACTION_PRODUCT", at=text,
                 label_rule="title_reference")
    for c, m in zip((title, sm, again, product), mentions, strict=True):
        c.mention = m
    for c in (again, product):
        c.structure = Structure("unresolved", reason="reference")
    view = DocView("d", text, [], mentions, [], {"M2": ["M1"]})
    found = [title, sm, again, product]
    StructureResolver(_FakeResolver({}), reaction_table())._references(view, found,
                                                                       [again, product])
    return found


def test_references_take_the_structure_they_refer_to():
    _, _, again, product = _references_case()
    assert (again.structure.label, again.structure.rule) == (
        "coreference → Benzaldehyde", "coreference_antecedent")
    assert again.structure.smiles == "O=Cc1ccccc1"
    assert (product.structure.label, product.structure.rule) == (
        "coreference → Benzyl alcohol", "reference_to_title")


def _counted_case() -> list[Candidate]:
    return _roles([
        _c("methanesulfonyl chloride", "OTHER_COMPOUND", label_rule="workup_compound",
           amount=Amount(moles=Quantity(44.0, "mmol"))),
        _c("brine", "OTHER_COMPOUND", label_rule="workup_compound"),
        _c("hydrogen peroxide", "REAGENT_CATALYST", cls="oxidant", label_rule="known_reagent"),
        _c("diethyl oxalate", "OTHER_COMPOUND", label_rule="workup_antecedent",
           amount=Amount(moles=Quantity(0.88, "mol"))),
    ])


def test_counted_workup_compound_and_oxidants():
    out = _by_name(_counted_case())
    assert out["methanesulfonyl chloride|"] == ("reactant", "counted_workup_compound")
    assert out["brine|"] == ("none", "no_label")
    assert out["hydrogen peroxide|"] == ("reactant", "class_oxidant")
    assert out["diethyl oxalate|"] == ("reactant", "counted_workup_compound")


def _gives_substructure_case() -> list[Candidate]:
    return _roles([_c("butyl phenyl ether", "REACTION_PRODUCT", "CCCCOc1ccccc1"),
                   _c("1-bromobutane", "STARTING_MATERIAL", "CCCCBr"),
                   _c("sodium phenolate", "REAGENT_CATALYST", "[Na+].[O-]c1ccccc1",
                      label_rule="reagent_by_name"),
                   _c("triethylamine", "REAGENT_CATALYST", "CCN(CC)CC", cls="base")])


def test_a_reagent_that_gives_a_piece_is_a_reactant():
    out = _by_name(_gives_substructure_case())
    assert out["sodium phenolate|[O-]c1ccccc1"] == ("reactant", "gives_substructure")
    assert out["sodium phenolate|[Na+]"] == ("reagent", "spectator_ions")  # split after
    assert out["triethylamine|CCN(CC)CC"] == ("reagent", "label_reagent")  # gives nothing
    oxadiazole = [_c("3-phenyl-1,2,4-oxadiazole", "REACTION_PRODUCT", "c1ccc(-c2ncon2)cc1"),
                  _c("benzonitrile", "STARTING_MATERIAL", "N#Cc1ccccc1"),
                  _c("triethyl orthoformate", "STARTING_MATERIAL", "CCOC(OCC)OCC"),
                  _c("hydroxylamine hydrochloride", "REAGENT_CATALYST", "NO.Cl", cls="reagent")]
    out = _by_name(_roles(oxadiazole))
    assert out["hydroxylamine hydrochloride|NO"] == ("reactant", "gives_substructure")
    assert out["triethyl orthoformate|CCOC(OCC)OCC"] == ("reactant", "gives_one_atom")


def _same_as_reactant_case() -> list[Candidate]:
    return _roles([
        _c("ethyl benzoate", "REACTION_PRODUCT", "CCOC(=O)c1ccccc1"),
        _c("benzoic acid", "STARTING_MATERIAL", "O=C(O)c1ccccc1"),
        _c("ethanol", "STARTING_MATERIAL", "CCO"),
        _c("sulfuric acid", "REAGENT_CATALYST", "O=S(=O)(O)O", cls="acid"),
        _c("ethanol", "SOLVENT", "CCO", label_rule="solvent_after_in")])


def test_a_solvent_that_is_a_reactant_is_that_reactant():
    _, ethanol, acid, solvent = _same_as_reactant_case()[1:]
    assert (ethanol.role, ethanol.rule) == ("reactant", "reactant_gives_substructure")
    assert (solvent.role, solvent.rule) == ("reactant", "same_as_reactant")
    assert acid.role == "reagent"


def test_an_amine_the_dictionary_calls_a_base_that_gives_its_atoms_is_a_reactant():
    """class_reagent decides by text only: the structure tier decides over it."""
    out = _by_name(_roles([
        _c("4-(pyrimidin-2-yl)morpholine", "REACTION_PRODUCT", "c1cnc(N2CCOCC2)nc1"),
        _c("2-chloropyrimidine", "STARTING_MATERIAL", "Clc1ncccn1"),
        _c("morpholine", "STARTING_MATERIAL", "C1COCCN1", cls="base"),
        _c("DIPEA", "STARTING_MATERIAL", "CCN(C(C)C)C(C)C", cls="base")]))
    assert out["morpholine|C1COCCN1"] == ("reactant", "gives_substructure")
    assert out["DIPEA|CCN(C(C)C)C(C)C"] == ("reagent", "class_reagent")


def test_a_weak_species_is_not_promoted_when_the_atoms_do_not_add_up():
    """A piece a reagent shares with a product that an unresolved input should explain is
    a coincidence: the reagent keeps its text role."""
    out = _by_name(_roles([
        _c("N-butylbenzamide", "REACTION_PRODUCT", "CCCCNC(=O)c1ccccc1"),
        _c("benzoic acid", "STARTING_MATERIAL", "O=C(O)c1ccccc1"),
        _c("Intermediate 4", "STARTING_MATERIAL"),
        _c("DMF", "SOLVENT", "CN(C)C=O", label_rule="solvent_after_in"),
        _c("tributylamine", "REAGENT_CATALYST", "CCCCN(CCCC)CCCC", label_rule="known_reagent")]))
    assert out["tributylamine|CCCCN(CCCC)CCCC"] == ("reagent", "label_reagent")
    assert out["DMF|CN(C)C=O"] == ("solvent", "label_solvent")


LINES = "Benzyl benzoate\nBenzoic acid(1 g) was heated."


def _line_break_case() -> list[Role]:
    span = LINES[:LINES.index("(")]
    return assemble._lines(Role("T1", 0, len(span), "REACTION_PRODUCT", span,
                                "heading_product"), reaction_table())


def test_line_break():
    parts = _line_break_case()
    assert [(p.text, p.label, p.rule) for p in parts] == [
        ("Benzyl benzoate", "REACTION_PRODUCT", "heading_product"),
        ("Benzoic acid", "STARTING_MATERIAL", "line_break")]
    assert [LINES[p.start:p.end] for p in parts] == ["Benzyl benzoate", "Benzoic acid"]


def _outputs(case: Callable[[], object]) -> Callable[[], list[object]]:
    """A case that returns (outputs, resolver) as its outputs alone."""
    return lambda: case()[0]  # type: ignore[index]


# each rule of the table -> a hand-written case whose outputs name it
CASES: dict[str, Callable[[], Iterable[object]]] = {
    "water_not_argument": _water_case,
    "counted_workup_compound": _counted_case,
    "label_product": _labels_case,
    "label_starting_material": _labels_case,
    "label_reagent": _labels_case,
    "label_solvent": _labels_case,
    "reagent_name": _reagent_name_case,
    "title_salt": _outputs(_title_salt_case),
    "class_solvent": _classes_case,
    "class_catalyst": _classes_case,
    "class_oxidant": _counted_case,
    "class_reagent": _classes_case,
    "class_material": _classes_case,
    "gives_product_fragment": _structure_case,
    "gives_one_atom": _one_atom_case,
    "solvent_gives_methyl": _solvent_methyl_case,
    "reactant_gives_substructure": _structure_case,
    "gives_substructure": _gives_substructure_case,
    "gives_no_atoms": _structure_case,
    "spectator_ions": _spectator_case,
    "same_as_reactant": _same_as_reactant_case,
    "after_reaction": _after_reaction_case,
    "line_break": _line_break_case,
    "yield_then_stage": _yield_then_stage_case,
    "not_a_product": _solvent_title_case,
    "product_of_input_class": _input_class_case,
    "title_product": _title_case,
    "last_product": _last_product_case,
    "alias": _alias_case,
    "is_the_product": _title_case,
    "widened_name": _outputs(_widened_case),
    "joined_names": _outputs(_joined_case),
    "reference_to_title": _references_case,
    "coreference_antecedent": _references_case,
    "atmosphere": _conditions_case,
    "pressure": _conditions_case,
    "time_words": _time_words_case,
    **IMPLIED_CASES,  # the implied species, tests/test_reactions_implied.py
}


@pytest.mark.parametrize("rule", reaction_table().rule_names())
def test_rule_fires(rule):
    """Each rule of the table is named on the outputs of its own hand-written case."""
    assert rule in CASES, f"no hand-written case for {rule}"
    assert rule in fired(CASES[rule]())


def test_every_case_is_of_a_rule_of_the_table():
    assert set(CASES) <= set(reaction_table().rule_names())
