"""chemie_reactions on hand-written snippets: records, references, structures off, DocBin."""

from __future__ import annotations

import json
import shutil

import pytest
from spacy.tokens import DocBin

import chemie
from chemie.context import reactions_of
from chemie.formats.reaction_smiles import Reaction as ScoredReaction
from chemie.formats.reaction_smiles import read_reactions
from chemie.formats.uspto import iter_uspto
from chemie.model.reaction import Reaction
from chemie.nlp import annotate
from chemie.scoring.reactions import score_reactions
from chemie.structures.chem import skeleton_keys

needs_java = pytest.mark.skipif(shutil.which("java") is None, reason="java is not installed")

ESTER = ("Benzyl benzoate\nA mixture of benzoic acid (1.22 g, 10 mmol), benzyl bromide (1.9 g, "
         "11 mmol) and potassium carbonate (2.0 equiv.) in DMF (20 mL) was stirred at 80 °C "
         "for 3 h under nitrogen. The title compound was obtained (1.9 g, 90%).")
LABELS = ("Example 12\nIntermediate 5 (0.5 g) and methyl iodide (0.3 g) were stirred in "
          "acetone (10 mL) with potassium carbonate (0.4 g) for 2 h to give the compound of "
          "Example 12 (0.4 g).")
REDUCTION = ("Benzyl alcohol\nBenzaldehyde (1.0 g) was dissolved in methanol (10 mL) and sodium "
             "borohydride (0.4 g) was added at 0 °C. The mixture was stirred for 1 h to give "
             "the title compound (0.9 g, 88%).")


@pytest.fixture(scope="module")
def nlp():
    return chemie.load(reactions=True)


@pytest.fixture(scope="module")
def nlp_off():
    return chemie.load(reactions=True, reactions_config={"structures": False})


def _by_name(reaction: Reaction) -> dict[str, object]:
    return {c.name: c for c in reaction.components()}


def test_structures_off_gives_records_without_structures(nlp_off):
    doc = nlp_off(ESTER)
    [r] = reactions_of(doc)
    assert [c.name for c in r.products] == ["Benzyl benzoate"]
    # without structures the roles are the text's (chemie_roles may call the acid a reagent)
    assert {c.name for c in r.components()} == {"Benzyl benzoate", "benzoic acid",
                                                 "benzyl bromide", "potassium carbonate", "DMF"}
    assert "benzyl bromide" in [c.name for c in r.reactants]
    assert [c.name for c in r.reagents][-1:] == ["potassium carbonate"]
    assert [c.name for c in r.solvents] == ["DMF"]
    assert all(c.structure is None for c in r.components())
    assert r.rsmi() == ">>"
    acid = _by_name(r)["benzoic acid"]
    assert (acid.amount.mass.value, acid.amount.moles.value) == (1.22, 10.0)
    assert acid.mention is not None and ESTER[acid.start:acid.end] == "benzoic acid"
    assert [c.text for c in r.conditions.temperature] == ["80 °C"]
    assert r.conditions.time[0].value.value == 3.0
    assert [c.text for c in r.conditions.atmosphere] == ["nitrogen"]
    assert [s.action for s in r.steps][:1] == ["Stir"]


def test_structures_off_never_starts_opsin(nlp_off, monkeypatch):
    import chemie.structures.opsin as opsin

    def refuse(*args, **kwargs):
        raise AssertionError("OPSIN started with structures off")

    monkeypatch.setattr(opsin, "service", refuse)
    monkeypatch.setattr(opsin.Opsin, "parse", refuse)
    assert reactions_of(nlp_off(REDUCTION))


@needs_java
def test_structures_and_uspto_roles(nlp):
    [r] = reactions_of(nlp(ESTER))
    assert r.smiles("products") == ["O=C(OCc1ccccc1)c1ccccc1"]
    assert set(r.smiles("reactants")) == {"O=C(O)c1ccccc1", "BrCc1ccccc1"}
    assert set(r.smiles("reagents")) == {"O=C([O-])[O-].[K+].[K+]", "CN(C)C=O"}
    hows = {c.name: c.structure.how for c in r.components()}
    assert hows["DMF"] == "dictionary" and hows["Benzyl benzoate"] == "opsin"
    assert all(c.structure.inchikey for c in r.components())


@needs_java
def test_a_reduced_aldehyde_is_a_reactant_not_the_product(nlp):
    [r] = reactions_of(nlp(REDUCTION))
    assert r.smiles("reactants") == ["O=Cc1ccccc1"]
    assert r.smiles("products") == ["OCc1ccccc1"]
    assert r.yield_.percent == 88.0 and r.yield_.mass.value == 0.9


@needs_java
def test_labels_stay_unresolved_with_their_reason(nlp):
    [r] = reactions_of(nlp(LABELS))
    parts = _by_name(r)
    assert parts["Intermediate 5"].structure.label == "unresolved (compound label)"
    assert parts["methyl iodide"].smiles == "CI"
    [product] = r.products
    assert product.structure.how == "unresolved" and product.smiles is None


@needs_java
def test_the_title_compound_resolves_through_the_heading(nlp):
    text = ("2-Chloropyridine\nThe title compound was prepared from 2-hydroxypyridine (1.0 g) "
            "and phosphorus oxychloride (5 mL) at 100 °C for 2 h.")
    doc = nlp(text)
    labels = [c.structure.label for r in reactions_of(doc) for c in r.components()
              if c.name.lower().endswith("title compound")]
    products = [c for r in reactions_of(doc) for c in r.products]
    assert products and products[0].smiles == "Clc1ccccn1"
    assert all(label == "coreference → 2-Chloropyridine" for label in labels)


def test_one_record_per_step_that_makes_a_product(nlp_off):
    text = ("Step 1\nBenzoic acid (1.0 g) was stirred in methanol (10 mL) with sulfuric acid "
            "(0.1 mL) for 5 h to give methyl benzoate (0.9 g). Step 2\nMethyl benzoate (0.9 g) "
            "was stirred with hydrazine (1 mL) in ethanol (10 mL) for 3 h to give benzohydrazide "
            "(0.7 g).")
    doc = nlp_off(text)
    reactions = reactions_of(doc)
    assert len(reactions) == 2
    assert [c.name for c in reactions[0].products] == ["methyl benzoate"]
    assert [c.name for c in reactions[1].products] == ["benzohydrazide"]
    assert "Methyl benzoate" in [c.name for c in reactions[1].reactants]
    assert "Benzoic acid" not in [c.name for c in reactions[1].components()]
    assert reactions[0].rule == "section_product"


def test_a_stage_after_a_yield_is_a_new_reaction(nlp_off):
    text = ("Methyl benzoate (1.4 g) and hydrazine hydrate (2 mL) were heated in ethanol (10 mL) "
            "for 3 h. Benzohydrazide (1.2 g, 88%) was obtained as a solid. 1.0 g of "
            "benzohydrazide was stirred with acetic anhydride (2 mL) for 1 h to give "
            "N'-acetylbenzohydrazide (1.1 g, 84%).")
    reactions = reactions_of(nlp_off(text))
    assert [r.rule for r in reactions] == ["section_product", "yield_then_stage"]
    assert [c.name for c in reactions[0].products] == ["Benzohydrazide"]
    assert "Methyl benzoate" not in [c.name for c in reactions[1].components()]
    assert "benzohydrazide" in [c.name for c in reactions[1].reactants]


def test_records_survive_docbin_and_json(nlp_off):
    doc = nlp_off(ESTER)
    docbin = DocBin(store_user_data=True)
    docbin.add(doc)
    [back] = DocBin(store_user_data=True).from_bytes(docbin.to_bytes()).get_docs(nlp_off.vocab)
    assert reactions_of(back) == reactions_of(doc)
    record = reactions_of(doc)[0]
    assert Reaction.from_dict(json.loads(json.dumps(record.to_dict()))) == record


def test_reactions_only_on_request():
    assert "chemie_reactions" not in chemie.load().pipe_names
    assert chemie.load(reactions=True).pipe_names[-1] == "chemie_reactions"


@needs_java
@pytest.mark.slow
def test_uspto_paragraphs_give_scorable_reactions(corpus, nlp):
    path = corpus("uspto-reactions/dev.jsonl")
    docs = list(iter_uspto(path))[:10]
    pred = {}
    for d in docs:
        reactions = annotate(nlp, d).reactions
        assert reactions, d.id
        r = reactions[-1]
        assert r.doc_id == d.id and r.id.startswith(d.id)
        pred[d.id] = ScoredReaction(d.id, *(tuple(r.smiles(x)) for x in
                                            ("reactants", "reagents", "products")))
        for role in ("reactants", "reagents", "products"):
            assert all(skeleton_keys(s) for s in r.smiles(role))
    gold = {k: v for k, v in read_reactions(path).reactions.items() if k in pred}
    report = score_reactions(gold, pred, path, path)
    assert report.figures["reactions"] == 10


@needs_java
def test_a_title_salt_after_a_comma_belongs_to_the_product(nlp):
    text = ("Benzylamine, hydrochloride\nN-Benzylacetamide (1.0 g) was heated in 6 M "
            "hydrochloric acid (10 mL) for 12 h. The title compound was obtained (0.8 g).")
    [r] = reactions_of(nlp(text))
    assert set(r.smiles("products")[0].split(".")) == {"Cl", "NCc1ccccc1"}
    assert r.products[0].name == "Benzylamine hydrochloride"
