"""One reactant-or-reagent decision for the reaction records and the ChEMU 2020 labels
(issue 18), roles that do not depend on the structure engine beyond what the structure tier
documents (issue 21), and records that state the checks they failed (``problems``)."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable

import pytest
import spacy

import chemie
from chemie.context import reactions_of, roles_of
from chemie.model import Document
from chemie.model.reaction import Problem, Reaction
from chemie.nlp import annotate
from chemie.reactions import structure_roles
from chemie.reactions.accounting import Accounting, Given
from chemie.reactions.decision import REAGENT_CATALYST, STARTING_MATERIAL, TextTier
from chemie.reactions.table import reaction_table
from chemie.roles_evaluation import gold_documents, jsonl_order
from chemie.scale.worker import mapping_timeouts

needs_java = pytest.mark.skipif(shutil.which("java") is None, reason="java is not installed")

# hand-written, one per class where a species the text may call a reagent gives atoms
SNIPPETS = {
    "amide coupling": (
        "N-Benzyl-4-methoxybenzamide\n4-Methoxybenzoic acid (1.52 g, 10 mmol), benzylamine "
        "(1.2 mL, 11 mmol), HATU (4.2 g) and DIPEA (3.5 mL) in DMF (20 mL) were stirred for "
        "16 h to give the title compound (2.1 g, 75%)."),
    "SNAr": (
        "4-(5-Nitropyridin-2-yl)morpholine\n2-Chloro-5-nitropyridine (1.0 g, 6.3 mmol) and "
        "morpholine (0.66 g, 7.6 mmol) were heated in acetonitrile (10 mL) with potassium "
        "carbonate (1.7 g) at 80 °C for 4 h to give the title compound (1.2 g, 91%)."),
    "acyl chloride": (
        "3-Chlorobenzoyl chloride\n3-Chlorobenzoic acid (5.0 g) was heated in thionyl "
        "chloride (20 mL) at reflux for 3 h. Concentration gave the title compound (5.4 g)."),
    "oxime": (
        "Cyclohexanone oxime\nTo cyclohexanone (2.0 g) in ethanol (20 mL) were added "
        "hydroxylamine hydrochloride (1.7 g) and sodium acetate (2.0 g). The mixture was "
        "stirred for 2 h to give the title compound (2.1 g, 90%)."),
    "bromination": (
        "2-Bromonaphthalene\nNaphthalene (1.28 g) and N-bromosuccinimide (1.8 g) were stirred "
        "in acetonitrile (10 mL) for 5 h to give the title compound (1.5 g)."),
}
STRUCTURE_TIER = {r.name for r in reaction_table().structure} | {
    reaction_table().spectator_ions.name, reaction_table().same_as_reactant.name}
QUESTION = (STARTING_MATERIAL, REAGENT_CATALYST)
CHEMU = {"reactant": STARTING_MATERIAL, "reagent": REAGENT_CATALYST,
         "catalyst": REAGENT_CATALYST}


@pytest.fixture(scope="module")
def nlp():
    return chemie.load(reactions=True)


@pytest.fixture(scope="module")
def nlp_dictionary():
    return chemie.load(reactions=True, reactions_config={"opsin": False})


def pairs(doc) -> list[tuple[object, object]]:
    """(component, ChEMU 2020 span) of every input of the records that a span labelled
    STARTING_MATERIAL or REAGENT_CATALYST holds."""
    roles = roles_of(doc) if hasattr(doc, "_") else doc.roles
    reactions = reactions_of(doc) if hasattr(doc, "_") else doc.reactions
    out = []
    for c in (c for r in reactions for c in r.components() if c.role in CHEMU):
        span = next((s for s in roles if s.start <= c.start and c.end <= s.end
                     and s.label in QUESTION), None)
        if span is not None:
            out.append((c, span))
    return out


def agrees(c, span) -> bool:
    """The two readings of one decision: the record's role and the ChEMU label agree, but a
    reactant that the structure tier (or an oxidant class) found giving no carbon is a ChEMU
    reagent, by the ChEMU guidelines; and a salt split into ions (``spectator_ions``) is
    labelled by its ion that reacts."""
    if span.label == CHEMU[c.role] or c.rule == "spectator_ions":
        return True
    return c.role == "reactant" and span.label == REAGENT_CATALYST and (
        c.rule in STRUCTURE_TIER or c.rule == "class_oxidant")


@needs_java
def test_records_and_chemu_labels_agree_on_each_class(nlp):
    seen: Counter = Counter()
    for name, text in SNIPPETS.items():
        found = pairs(nlp(text))
        assert found, name
        for c, span in found:
            assert agrees(c, span), (name, c.name, c.role, c.rule, span.label)
            seen[(c.role, span.label)] += 1
    # both readings occur: the rule that a halogen, N-O or salt donor is a ChEMU reagent
    assert seen[("reactant", REAGENT_CATALYST)] >= 2 and seen[("reactant", STARTING_MATERIAL)]


@needs_java
def test_each_class_gets_its_documented_roles(nlp):
    def roles(name: str) -> dict[str, tuple[str, str]]:
        doc = nlp(SNIPPETS[name])
        labels = {c.name: s.label for c, s in pairs(doc)}
        out: dict[str, tuple[str, str]] = {}
        for c in (c for r in reactions_of(doc) for c in r.components() if c.structure.smiles):
            out.setdefault(c.name, (c.role, labels.get(c.name)))  # a salt's reacting ion
        return out

    coupling = roles("amide coupling")
    assert coupling["benzylamine"] == ("reactant", STARTING_MATERIAL)
    assert coupling["HATU"][0] == coupling["DIPEA"][0] == "reagent"
    snar = roles("SNAr")  # the dictionary may call morpholine a base: the atoms decide
    assert snar["morpholine"] == ("reactant", STARTING_MATERIAL)
    assert roles("acyl chloride")["thionyl chloride"][0] == "reactant"
    assert roles("oxime")["hydroxylamine hydrochloride"][0] == "reactant"
    assert roles("bromination")["N-bromosuccinimide"] == ("reactant", REAGENT_CATALYST)


@pytest.mark.corpus
@needs_java
def test_records_and_chemu_labels_agree_on_development_snippets(corpus, nlp):
    """On 40 ChEMU 2020 development documents (0-599 may be read), every compound that a
    record and a ChEMU 2020 span both label is read the same way by both."""
    folder = corpus("chemu2020/train")
    order = jsonl_order(corpus("chemu-ref/train.jsonl"))
    n = 0
    for gold in gold_documents(folder, 0, 40, order):
        doc = annotate(nlp, Document(gold.id, gold.text))
        for c, span in pairs(doc):
            assert agrees(c, span), (gold.id, c.name, c.role, c.rule, span.label)
            n += 1
    assert n > 60


@pytest.fixture(scope="module")
def nlp_text():
    return chemie.load(reactions=True, reactions_config={"structures": False})


def test_chemie_roles_asks_the_text_tier_of_the_same_decision(nlp_text):
    """Without structures, chemie_roles' labels and the records' roles are the text tier's
    one answer: a starting material the dictionary calls a base is a reagent on both sides
    (``reagent_by_class``, the roles rule naming ``classes.class_reagent``)."""
    text = ("Example 9\n2-Chloro-5-nitropyridine (1.0 g) and 4-methylmorpholine (0.7 g) were "
            "heated in acetonitrile (10 mL) at 80 °C for 4 h to give the title compound "
            "(1.2 g).")
    alone = chemie.load(roles=True)(text)
    labels = {r.text: (r.label, r.rule) for r in roles_of(alone)}
    assert labels["4-methylmorpholine"] == (REAGENT_CATALYST, "reagent_by_class")
    assert labels["2-Chloro-5-nitropyridine"][0] == STARTING_MATERIAL
    doc = nlp_text(text)
    found = pairs(doc)
    assert found and all(agrees(c, span) for c, span in found)
    roles = {c.name: c.role for r in reactions_of(doc) for c in r.components()}
    assert roles["4-methylmorpholine"] == "reagent"


@spacy.registry.misc("test.own_rules_only.v1")
def own_rules_only() -> Callable[[object], object]:
    """A decision that leaves the roles' own stage as it is."""
    return lambda stage: stage


def test_chemie_roles_takes_its_decision_from_its_config():
    """chemie_roles does not import the decision: its factory's ``decision`` config names a
    registered function, by default ``chemie.text_tier.v1`` (this module's
    :class:`TextTier`); another in its place decides what the stage's answer becomes."""
    text = ("2-Chloro-5-nitropyridine (1.0 g) and 4-methylmorpholine (0.7 g) were heated in "
            "acetonitrile (10 mL) to give the title compound.")
    shared = chemie.load(roles=True)
    assert shared.config["components"]["chemie_roles"]["decision"] == {
        "@misc": "chemie.text_tier.v1"}
    assert isinstance(shared.get_pipe("chemie_roles").stage, TextTier)
    own = chemie.load(roles={"decision": {"@misc": "test.own_rules_only.v1"}})
    labels = {n: {r.text: (r.label, r.rule) for r in roles_of(nlp(text))}
              for n, nlp in (("shared", shared), ("own", own))}
    assert labels["shared"]["4-methylmorpholine"] == (REAGENT_CATALYST, "reagent_by_class")
    assert labels["own"]["4-methylmorpholine"][0] == STARTING_MATERIAL
    assert labels["own"]["acetonitrile"] == labels["shared"]["acetonitrile"]


@pytest.mark.corpus
def test_roles_alone_and_records_without_structures_agree(corpus, nlp_text):
    """On 60 ChEMU 2020 development documents, chemie_roles alone (its labels as
    ``--format chemu2020`` writes them) and the records of a pipeline without structures read
    every compound both label the same way."""
    folder = corpus("chemu2020/train")
    order = jsonl_order(corpus("chemu-ref/train.jsonl"))
    alone = chemie.load(roles=True)
    n = 0
    for gold in gold_documents(folder, 0, 60, order):
        labels = {(r.start, r.end): r.label for r in annotate(alone, Document(gold.id,
                                                                          gold.text)).roles}
        doc = annotate(nlp_text, Document(gold.id, gold.text))
        for c, span in pairs(doc):
            assert labels[(span.start, span.end)] == span.label  # the same chemie_roles
            assert agrees(c, span), (gold.id, c.name, c.role, c.rule, span.label)
            n += 1
    assert n > 80


def _by_start(doc) -> tuple[dict[int, object], dict[tuple[int, int], object]]:
    components = {c.start: c for r in reactions_of(doc) for c in r.components()}
    spans = {(s.start, s.end): s for s in roles_of(doc)}
    return components, spans


@needs_java
def test_roles_without_opsin_differ_only_where_the_structure_tier_decides(nlp, nlp_dictionary):
    """Issue 21: without a structure engine for systematic names (OPSIN off: the dictionary
    alone, as without Java) the structure tier decides fewer species; every role and label
    that differs is one the structure tier decided in one of the two runs."""
    differences = 0
    for name, text in SNIPPETS.items():
        with_opsin, without = nlp(text), nlp_dictionary(text)
        a, sa = _by_start(with_opsin)
        b, sb = _by_start(without)
        # the same products, but for a name widened to the one OPSIN resolves (a title the
        # roles cut short: "Cyclohexanone" of "Cyclohexanone oxime", rule widened_name)
        assert [c.start for r in reactions_of(with_opsin) for c in r.products] == \
            [c.start for r in reactions_of(without) for c in r.products], name
        for start in a.keys() | b.keys():
            ca, cb = a.get(start), b.get(start)
            if ca is not None and cb is not None and ca.role == cb.role:
                continue
            differences += 1
            assert any(c is not None and c.rule in STRUCTURE_TIER for c in (ca, cb)), \
                (name, ca, cb)
        assert sa.keys() == sb.keys(), name
        for key, span in sa.items():
            if span.label != sb[key].label:
                differences += 1
                assert span.rule in STRUCTURE_TIER or sb[key].rule in STRUCTURE_TIER, \
                    (name, span, sb[key])
    assert differences  # OPSIN's structures let the structure tier decide some species


@needs_java
def test_a_record_says_which_component_has_no_structure(nlp):
    doc = nlp("Example 4\n3-Chloro-4-(quuxyl)benzonitrile (0.5 g) and benzyl bromide (0.3 g) "
              "were stirred in acetone (10 mL) with potassium carbonate (0.4 g) for 2 h to give "
              "the compound of Example 4 (0.4 g).")
    [r] = reactions_of(doc)
    # a name OPSIN cannot parse; "the compound of Example 4" is a reference, no name
    assert [(p.check, p.component, p.detail) for p in r.problems] == [
        ("unresolved_component", "3-Chloro-4-(quuxyl)benzonitrile",
         "no structure (parse failure)")]
    assert Reaction.from_dict(r.to_dict()).problems == r.problems


@needs_java
def test_a_record_whose_atoms_do_not_add_up_says_so(nlp):
    # the title's hydrochloride: no acid is named, so the chloride comes from no species
    doc = nlp("Benzylamine hydrochloride\ntert-Butyl benzylcarbamate (2.07 g, 10 mmol) was "
              "stirred in dichloromethane (20 mL) for 2 h to give the title compound (1.3 g).")
    [r] = reactions_of(doc)
    [problem] = [p for p in r.problems if p.check == "atoms_unexplained"]
    assert problem.component == "Benzylamine hydrochloride" and "1 Cl" in problem.detail
    assert r.to_dict()["problems"][0]["check"] == "atoms_unexplained"


@needs_java
def test_an_accounting_out_of_time_keeps_the_text_roles_and_names_the_reaction(
        nlp, monkeypatch):
    def out_of_time(species, product, **_):
        return Accounting([Given() for _ in species], complete=False)

    monkeypatch.setattr(structure_roles, "account", out_of_time)
    out = annotate(nlp, Document("d7", SNIPPETS["SNAr"]))
    [r] = out.reactions
    assert [p.check for p in r.problems] == ["mapping_timeout"]
    assert all(c.rule not in STRUCTURE_TIER for c in r.components())  # text roles kept
    assert mapping_timeouts(out) == "atom mapping gave up on reaction d7-1 (roles by text there)"


def test_problems_round_trip_and_stay_out_of_json_when_empty():
    r = Reaction("d-1", "d", "document_product")
    assert "problems" not in r.to_dict()
    r.problems = [Problem("atoms_unexplained", None, "1 Cl"), Problem("unresolved_component",
                                                                       "X", "no structure")]
    assert Reaction.from_dict(r.to_dict()).problems == r.problems
    assert r.to_dict()["problems"][1] == {"check": "unresolved_component", "component": "X",
                                          "detail": "no structure"}
