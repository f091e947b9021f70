"""rules/reactions.yaml: every rule fires on a hand-written case, and the table is checked."""

from __future__ import annotations

import copy

import pytest

from chemie.model import Mention, Role
from chemie.reactions import assemble
from chemie.reactions.amounts import amount_near
from chemie.reactions.assemble import Candidate, DocView, conditions
from chemie.reactions.model import Amount, Quantity, Structure
from chemie.reactions.roles import structure_roles, text_roles
from chemie.reactions.structures import StructureResolver
from chemie.reactions.table import ReactionTable, reaction_table
from chemie.resources import load_rules
from chemie.structures import chem
from chemie.structures.grounding import Grounding, Name
from chemie.structures.resolve import Resolution
from chemie.tables import TableError, parse_table

FIRED: set[str] = set()


def _c(name: str, label: str, smiles: str | None = None, *, cls: str | None = None,
       label_rule: str = "reactant", amount: Amount | None = None) -> Candidate:
    structure = None
    if smiles is not None:
        structure = Structure("opsin", smiles, chem.inchikey(smiles))
    c = Candidate(0, len(name), name, label, label_rule, 0, None, amount or Amount(),
                  structure=structure, cls=cls, name=name)
    return c


def _roles(found: list[Candidate]) -> dict[str, tuple[str, str]]:
    table = reaction_table()
    text_roles(found, table)
    structure_roles(found, table)
    FIRED.update(c.rule for c in found)
    return {f"{c.name}|{c.structure.smiles if c.structure else ''}": (c.role, c.rule)
            for c in found}


def test_label_rules_give_the_uspto_roles():
    out = _roles([
        _c("benzyl benzoate", "REACTION_PRODUCT", "O=C(OCc1ccccc1)c1ccccc1",
           label_rule="heading_product"),
        _c("benzoic acid", "STARTING_MATERIAL", "O=C(O)c1ccccc1"),
        _c("benzyl bromide", "STARTING_MATERIAL", "BrCc1ccccc1"),
        _c("triethylamine", "REAGENT_CATALYST", "CCN(CC)CC", label_rule="known_reagent"),
        _c("DMF", "SOLVENT", "CN(C)C=O", label_rule="solvent_after_in"),
    ])
    roles = {k.split("|")[0]: v for k, v in out.items()}
    assert roles["benzyl benzoate"] == ("product", "label_product")
    assert roles["benzoic acid"] == ("reactant", "label_starting_material")
    assert roles["triethylamine"] == ("reagent", "label_reagent")
    assert roles["DMF"] == ("solvent", "label_solvent")


def test_water_that_is_no_argument_takes_no_part():
    out = _roles([_c("water", "SOLVENT", "O", label_rule="known_solvent"),
                  _c("Water", "SOLVENT", "O", label_rule="solvent_after_in"),
                  _c("H2O", "SOLVENT", "O", label_rule="known_solvent",
                     amount=Amount(volume=Quantity(50.0, "mL")))])
    assert out["water|O"] == ("none", "water_not_argument")
    assert out["Water|O"] == ("solvent", "label_solvent")  # "in water": a solvent
    assert out["H2O|O"] == ("solvent", "label_solvent")  # "charged with water (50 mL)"


def test_reagent_names_make_coupling_agents_reagents():
    edc = _c("1-(3-dimethylaminopropyl)-3-ethylcarbodiimide", "STARTING_MATERIAL",
             "CCN=C=NCCCN(C)C")
    assert _roles([edc])[f"{edc.name}|CCN=C=NCCCN(C)C"] == ("reagent", "reagent_name")


def test_dictionary_classes():
    weighed = Amount(mass=Quantity(1.0, "g"))
    out = _roles([
        _c("tetrahydrofurane", "STARTING_MATERIAL", "C1CCOC1", cls="solvent"),
        _c("anisole", "STARTING_MATERIAL", "COc1ccccc1", cls="solvent", amount=weighed),
        _c("Pd/C", "REAGENT_CATALYST", "[Pd]", cls="catalyst"),
        _c("lithium aluminium hydride", "STARTING_MATERIAL", "[Li+].[AlH4-]",
           cls="reducing_agent"),
        _c("Celite", "REAGENT_CATALYST", None, cls="material"),
    ])
    assert out["tetrahydrofurane|C1CCOC1"] == ("solvent", "class_solvent")
    assert out["anisole|COc1ccccc1"] == ("reactant", "label_starting_material")
    assert out["Pd/C|[Pd]"] == ("catalyst", "class_catalyst")
    assert out["lithium aluminium hydride|[Li+].[AlH4-]"] == ("reagent", "class_reagent")
    assert out["Celite|"] == ("none", "class_material")


def test_structure_rules():
    found = [
        _c("piperidine hydrochloride", "REACTION_PRODUCT", "C1CCNCC1.Cl"),
        _c("tert-butyl piperidine-1-carboxylate", "STARTING_MATERIAL",
           "CC(C)(C)OC(=O)N1CCCCC1"),
        _c("HCl", "REAGENT_CATALYST", "Cl"),
        _c("sodium borohydride", "STARTING_MATERIAL", "[Na+].[BH4-]"),
        _c("methyl iodide", "STARTING_MATERIAL", "CI"),
    ]
    out = _roles(found)
    assert out["HCl|Cl"] == ("reactant", "salt_of_product")  # and not moved back
    assert out["sodium borohydride|[Na+].[BH4-]"] == ("reagent", "shares_no_substructure")
    # a one-carbon reactant shares its one carbon: it stays (needed() counts non-metals)
    assert out["methyl iodide|CI"][0] == "reactant"


def test_spectator_ions_split_a_salt():
    found = [_c("phenylacetonitrile", "REACTION_PRODUCT", "N#CCc1ccccc1"),
             _c("potassium cyanide", "STARTING_MATERIAL", "[K+].[C-]#N")]
    out = _roles(found)
    assert out["potassium cyanide|[C-]#N"] == ("reactant", "label_starting_material")
    assert out["potassium cyanide|[K+]"] == ("reagent", "spectator_ions")
    assert len(found) == 3


def _products(found: list[Candidate], heading: bool) -> None:
    text_roles(found, reaction_table())
    assemble._choose_products(found, heading)
    FIRED.update(c.rule for c in found)


def test_title_product_and_is_the_product():
    title = _c("benzyl alcohol", "REACTION_PRODUCT", "OCc1ccccc1",
               label_rule="heading_product")
    other = _c("benzaldehyde oxime", "REACTION_PRODUCT", "ON=Cc1ccccc1",
               label_rule="yield_product")
    again = _c("benzyl alcohol", "STARTING_MATERIAL", "OCc1ccccc1")
    aldehyde = _c("benzaldehyde", "STARTING_MATERIAL", "O=Cc1ccccc1")
    _products([title, other, again, aldehyde], heading=True)
    assert (title.role, title.rule) == ("product", "title_product")
    assert (other.role, other.rule) == ("none", "title_product")
    assert (again.role, again.rule) == ("none", "is_the_product")
    assert aldehyde.role == "reactant"  # same skeleton, another compound


def test_a_solvent_is_no_title_compound():
    solvent = _c("Isopropanol", "REACTION_PRODUCT", "CC(C)O", cls="solvent",
                 label_rule="heading_product")
    salt = _c("the citrate", "REACTION_PRODUCT", "NC1CN2CCC1CC2", label_rule="yield_product")
    _products([solvent, salt], heading=True)
    assert (salt.role, salt.rule) == ("product", "last_product")
    assert solvent.role == "none"


def test_alias():
    text = "diisopropylethylamine (DIPEA) (1.2 mL) and DMF"
    long = _c("diisopropylethylamine", "REAGENT_CATALYST", "CCN(C(C)C)C(C)C")
    short = _c("DIPEA", "REAGENT_CATALYST", "CCN(C(C)C)C(C)C")
    short.start, short.end = 23, 28
    short.amount = Amount(volume=Quantity(1.2, "mL"))
    text_roles([long, short], reaction_table())
    assemble._aliases(text, [long, short])
    FIRED.update((long.rule, short.rule))
    assert (short.role, short.rule) == ("none", "alias")
    assert long.role == "reagent" and long.amount.volume.value == 1.2


def test_a_reference_to_another_input_is_an_alias():
    dcm = _c("DCM", "SOLVENT", "ClCCl", label_rule="solvent_after_in")
    sm = _c("SM", "STARTING_MATERIAL", "ClCCl")
    sm.structure = Structure("coreference", "ClCCl", dcm.structure.inchikey, via="DCM")
    text_roles([dcm, sm], reaction_table())
    assemble._aliases("DCM ... SM", [dcm, sm])
    assert (sm.role, sm.rule) == ("none", "alias") and dcm.role == "solvent"


def test_a_halogen_donor_contributes_its_halogen():
    found = [_c("4-chloroquinazoline", "REACTION_PRODUCT", "Clc1ncnc2ccccc12"),
             _c("POCl3", "STARTING_MATERIAL", "O=P(Cl)(Cl)Cl"),
             _c("HCl", "STARTING_MATERIAL", "Cl")]
    out = _roles(found)
    assert out["POCl3|O=P(Cl)(Cl)Cl"][0] == "reactant"
    assert out["HCl|Cl"][0] == "reactant"  # one shared atom is all HCl has
    bromide = [_c("benzoic acid", "REACTION_PRODUCT", "O=C(O)c1ccccc1"),
               _c("sodium bromide", "STARTING_MATERIAL", "[Na+].[Br-]")]
    assert _roles(bromide)["sodium bromide|[Na+].[Br-]"][0] == "reagent"


def test_the_acid_of_a_product_salt_shares_its_substructure():
    found = [_c("3-aminoquinuclidine phosphate", "REACTION_PRODUCT",
                "NC1CN2CCC1CC2.O=P(O)(O)O"),
             _c("phosphoric acid", "STARTING_MATERIAL", "O=P(O)(O)O")]
    assert _roles(found)["phosphoric acid|O=P(O)(O)O"][0] == "reactant"


def test_last_product_without_a_title():
    first = _c("benzoic acid", "REACTION_PRODUCT", "O=C(O)c1ccccc1", label_rule="yield_product")
    last = _c("methyl benzoate", "REACTION_PRODUCT", "COC(=O)c1ccccc1",
              label_rule="yield_product")
    _products([first, last], heading=True)
    assert (last.role, last.rule) == ("product", "last_product")
    assert first.role == "none"


def test_atmosphere_and_pressure():
    text = "The mixture was stirred under an argon atmosphere at 50 psi for 2 h."
    view = DocView("d", text, [], [], [], {})
    out = conditions(view, reaction_table(), 0, len(text))
    assert [c.text for c in out.atmosphere] == ["argon"]
    assert out.pressure[0].value.value == 50.0 and out.pressure[0].value.unit == "psi"
    FIRED.update(c.rule for c in (*out.atmosphere, *out.pressure))


def test_every_rule_has_a_comment():
    table = reaction_table()
    rules = [*table.labels, table.reagent_names, *table.classes, *table.structure,
             table.after_reaction, *table.products, *table.names, table.atmosphere,
             table.pressure]
    assert all(r.comment.strip() and "\n" not in r.comment for r in rules)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["labels"][0].update(role="catalyzer"), "labels.0.role"),
    (lambda d: d["classes"][0].update(form_roles=["reactant"]), "classes.0.form_roles"),
    (lambda d: d.pop("products"), "products: missing key"),
    (lambda d: d["structure"][0].update(timeout="soon"), "structure.0.timeout"),
])
def test_a_bad_table_is_refused_naming_the_key(change, message):
    data = copy.deepcopy(load_rules("reactions.yaml"))
    change(data)
    with pytest.raises(TableError, match=message.replace(".", r"\.")):
        parse_table(data, ReactionTable, "reactions.yaml")


def test_an_oxidant_gives_its_oxygen():
    found = [_c("benzoic acid", "REACTION_PRODUCT", "O=C(O)c1ccccc1"),
             _c("toluene", "STARTING_MATERIAL", "Cc1ccccc1"),
             _c("potassium permanganate", "STARTING_MATERIAL", "[K+].[O-][Mn](=O)(=O)=O",
                cls="oxidant"),
             _c("sodium borohydride", "STARTING_MATERIAL", "[Na+].[BH4-]")]
    out = _roles(found)
    assert out["potassium permanganate|[O]=[Mn](=[O])(=[O])[O-]"][0] == "reactant"
    assert out["potassium permanganate|[K+]"] == ("reagent", "spectator_ions")
    assert out["sodium borohydride|[Na+].[BH4-]"] == ("reagent", "shares_no_substructure")


def test_after_reaction():
    text = ("Benzoic acid (1.0 g), pyridine (2 mmol) and DMF (5 mL) were stirred overnight. "
            "Acetic acid was added and the mixture was extracted with ethyl acetate.")
    found = []
    for name, label, rule in (("Benzoic acid", "STARTING_MATERIAL", "reactant"),
                              ("DMF", "SOLVENT", "known_solvent"),
                              ("Acetic acid", "SOLVENT", "known_solvent"),
                              ("ethyl acetate", "SOLVENT", "solvent_after_in"),
                              ("pyridine", "REAGENT_CATALYST", "known_reagent")):
        start = text.index(name)
        c = _c(name, label, label_rule=rule)
        c.start, c.end = start, start + len(name)
        c.amount = amount_near(text, c.start, c.end)
        found.append(c)
    text_roles(found, reaction_table())
    view = DocView("d", text, [], [], [], {})
    assemble._after_reaction(view, reaction_table(), found, len(text))
    FIRED.update(c.rule for c in found)
    roles = {c.name: (c.role, c.rule) for c in found}
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


def test_title_salt():
    text = "Benzylamine, hydrochloride\nIt was made."
    c = _c("Benzylamine", "REACTION_PRODUCT", "NCc1ccccc1", label_rule="heading_product")
    fake = _FakeResolver({"Benzylamine hydrochloride": "Cl.NCc1ccccc1"})
    StructureResolver(fake, reaction_table())._title_salts(DocView("d", text, [], [], [], {}),
                                                           [c])
    assert fake.asked == ["Benzylamine hydrochloride"]
    assert c.name == "Benzylamine hydrochloride" and c.structure.smiles == "Cl.NCc1ccccc1"
    assert c.structure.rule == "title_salt"
    FIRED.add(c.structure.rule)


def test_yield_then_stage():
    text = "X was obtained (1.2 g, 80%). 310 mg of X was added to Y. Z (5 mg) was obtained."
    def role(label, part, after=0):
        a = text.index(part, after)
        return Role(f"T{a}", a, a + len(part), label, part, "r")
    roles = [role("YIELD_PERCENT", "80%"), role("STARTING_MATERIAL", "X", 20),
             role("YIELD_OTHER", "5 mg")]
    view = DocView("d", text, roles, [], [], {})
    assert view.section_starts() == [0, text.index("310")]
    # no weighed starting material after the last yield: no new stage
    assert DocView("d", text[:28], roles[:1], [], [], {}).section_starts() == [0]
    FIRED.add("yield_then_stage")


def test_joined_names():
    text = "tert-butyl ester of piperidine-1-carboxylic acid and hexylamine"
    ester = _c("tert-butyl ester", "STARTING_MATERIAL")
    ester.structure = Structure("unresolved", reason="parse failure")
    acid = _c("piperidine-1-carboxylic acid", "STARTING_MATERIAL", "OC(=O)N1CCCCC1")
    acid.start = text.index("piperidine")
    acid.end = acid.start + len(acid.text)
    amine = _c("hexylamine", "STARTING_MATERIAL", "CCCCCCN")
    amine.start = text.index("hexylamine")
    amine.end = amine.start + len(amine.text)
    joined = "piperidine-1-carboxylic acid tert-butyl ester"
    fake = _FakeResolver({joined: "CC(C)(C)OC(=O)N1CCCCC1"})
    out = StructureResolver(fake, reaction_table())._join(DocView("d", text, [], [], [], {}),
                                                          [ester, acid, amine])
    assert fake.asked == [joined]
    assert [c.name for c in out] == [joined, "hexylamine"]
    assert (out[0].start, out[0].end) == (0, acid.end)
    assert out[0].structure.rule == "joined_names" and out[1].structure.rule is None
    FIRED.add(out[0].structure.rule)


def test_widened_name():
    text = "Biphenyl-2-ylcarbamic acid tert-butyl ester (1.0 g) was stirred in water."
    whole = "Biphenyl-2-ylcarbamic acid tert-butyl ester"
    c = _c("Biphenyl-2-ylcarbamic", "STARTING_MATERIAL")
    c.structure = Structure("unresolved", reason="parse failure")
    c.mention = Mention("M1", ((0, len(whole)),), "CHEMICAL", whole)
    fake = _FakeResolver({whole: "CC(C)(C)OC(=O)Nc1ccccc1-c1ccccc1"})
    StructureResolver(fake, reaction_table())._widen(DocView("d", text, [], [c.mention], [], {}),
                                                     [c])
    assert c.name == whole
    assert (c.structure.how, c.structure.rule) == ("opsin", "widened_name")
    FIRED.add(c.structure.rule)


def test_references_take_the_structure_they_refer_to():
    text = "Benzyl alcohol\nBenzaldehyde (1.0 g) ... the aldehyde ... to give the title compound."
    mentions = [Mention(f"M{n}", ((text.index(w), text.index(w) + len(w)),), "CHEMICAL", w)
                for n, w in enumerate(("Benzyl alcohol", "Benzaldehyde", "the aldehyde",
                                       "the title compound"))]
    title = _c("Benzyl alcohol", "REACTION_PRODUCT", "OCc1ccccc1", label_rule="heading_product")
    sm = _c("Benzaldehyde", "STARTING_MATERIAL", "O=Cc1ccccc1")
    again = _c("the aldehyde", "STARTING_MATERIAL")
    product = _c("the title compound", "REACTION_PRODUCT", label_rule="title_reference")
    for c, m in zip((title, sm, again, product), mentions, strict=True):
        c.start, c.end, c.mention = m.start, m.end, m
    for c in (again, product):
        c.structure = Structure("unresolved", reason="reference")
    view = DocView("d", text, [], mentions, [], {"M2": ["M1"]})
    StructureResolver(_FakeResolver({}), reaction_table())._references(
        view, [title, sm, again, product], [again, product])
    assert (again.structure.label, again.structure.rule) == (
        "coreference → Benzaldehyde", "coreference_antecedent")
    assert (product.structure.label, product.structure.rule) == (
        "coreference → Benzyl alcohol", "reference_to_title")
    FIRED.update((again.structure.rule, product.structure.rule))


def test_counted_workup_compound_and_oxidants():
    out = _roles([
        _c("methanesulfonyl chloride", "OTHER_COMPOUND", label_rule="workup_compound",
           amount=Amount(moles=Quantity(44.0, "mmol"))),
        _c("brine", "OTHER_COMPOUND", label_rule="workup_compound"),
        _c("hydrogen peroxide", "REAGENT_CATALYST", cls="oxidant", label_rule="known_reagent"),
    ])
    assert out["methanesulfonyl chloride|"] == ("reactant", "counted_workup_compound")
    assert out["brine|"] == ("none", "no_label")
    assert out["hydrogen peroxide|"] == ("reactant", "class_oxidant")


def test_shares_much_substructure():
    found = [_c("butyl phenyl ether", "REACTION_PRODUCT", "CCCCOc1ccccc1"),
             _c("sodium phenolate", "REAGENT_CATALYST", "[Na+].[O-]c1ccccc1",
                label_rule="reagent_by_name"),
             _c("triethylamine", "REAGENT_CATALYST", "CCN(CC)CC", cls="base")]
    out = _roles(found)
    assert out["sodium phenolate|[O-]c1ccccc1"] == ("reactant", "shares_much_substructure")
    assert out["sodium phenolate|[Na+]"] == ("reagent", "spectator_ions")  # split after a move
    assert out["triethylamine|CCN(CC)CC"][0] == "reagent"  # the dictionary calls it a base
    oxadiazole = [_c("3-phenyl-1,2,4-oxadiazole", "REACTION_PRODUCT", "c1ccc(-c2ncon2)cc1"),
                  _c("hydroxylamine hydrochloride", "REAGENT_CATALYST", "NO.Cl", cls="reagent")]
    out = _roles(oxadiazole)
    assert out["hydroxylamine hydrochloride|NO"] == ("reactant", "shares_much_substructure")


def test_line_break():
    text = "Benzyl benzoate\nBenzoic acid(1 g) was heated."
    span = text[:text.index("(")]
    parts = assemble._lines(Role("T1", 0, len(span), "REACTION_PRODUCT", span,
                                 "heading_product"))
    assert [(p.text, p.label, p.rule) for p in parts] == [
        ("Benzyl benzoate", "REACTION_PRODUCT", "heading_product"),
        ("Benzoic acid", "STARTING_MATERIAL", "line_break")]
    assert [text[p.start:p.end] for p in parts] == ["Benzyl benzoate", "Benzoic acid"]
    FIRED.add("line_break")


def test_every_rule_fired_at_last():
    """After every test of this file: each rule of the table fired in one of them."""
    assert set(reaction_table().rule_names()) <= FIRED
