"""Steps, references and general procedures (issue 18 parts 4-5): every rule of
``rules/procedures.yaml`` fires; records of multi-step and general-procedure paragraphs
(hand-written here); references between the documents of one input (``--link-documents``,
workers, resume); a floor on the hand-written paragraphs of ``tests/fixtures/reactions``."""

from __future__ import annotations

import json
import shutil

import pytest
from rdkit import Chem

import chemie
from chemie.cli import main
from chemie.commands.reactions import ResolvingSink
from chemie.formats.reaction_records import rsmi_block, written
from chemie.formats.uspto import iter_uspto
from chemie.model import Document, Mention
from chemie.model.reaction import TEMPLATE, Reaction, Reference, Replacement, Structure
from chemie.nlp import annotate
from chemie.reactions.assemble import Candidate, DocView
from chemie.reactions.inputs import (
    NOT_EARLIER,
    NOT_IN_DOCUMENT,
    NOT_LINKED,
    SEVERAL,
    Verdict,
    link,
    one_source,
)
from chemie.reactions.procedures_table import CODE_RULES, check_table, procedure_table
from chemie.reactions.references import Made, References
from chemie.reactions.sections import Plan, Section
from chemie.reactions.table import reaction_table
from chemie.structures.chem import canonical, has_group
from chemie.tables import TableError, load_table

needs_java = pytest.mark.skipif(shutil.which("java") is None, reason="java is not installed")


@pytest.fixture(scope="module")
def nlp():
    return chemie.load(reactions=True)


@pytest.fixture(scope="module")
def nlp_off():
    return chemie.load(reactions=True, reactions_config={"structures": False})


# -- the table: each rule fires on a text of its class ---------------------------------------

# (rule, compiled pattern key, text, groups it must find; None: the whole match is checked)
FIRES = [
    ("procedure_heading", "procedure_heading", "done.\nGeneral Procedure B: A mixture of",
     {"label": "B"}),
    ("lettered_step_heading", "lettered_step_heading", "was dried.\nStep b) The amine",
     {"heading": "Step b)"}),
    ("listed_examples", "listed_examples",
     "The following esters were prepared by method C: methyl X, from X acid", None),
    ("heading_label", "heading_label", "Stage B: Synthesis of", {"kind": "Stage", "label": "B"}),
    ("section_title", "title_gap", ": Preparation of ", None),
    ("document_label", "document_label", "Intermediate 7: 4-bromoanisole",
     {"kind": "Intermediate", "label": "7"}),
    ("follows_procedure", "follows_procedure", "obtained following method 2 from X",
     {"label": "2"}),
    ("procedure_followed", "procedure_followed", "General procedure C was used with",
     {"label": "C"}),
    ("follows_general_procedure", "follows_general_procedure",
     "made by the general procedure above from X", None),
    ("as_in_example", "as_in_example", "analogously to Preparation 12, starting",
     {"kind": "Preparation", "label": "12"}),
    ("instead_of", "instead_of", "with NaH in place of potassium carbonate", None),
    ("substituting_for", "substituting_for", "substituting 2-bromopyridine for bromobenzene",
     None),
    ("replacing_with", "replacing_with", "replacing acetone with butanone", None),
    ("product_of_step", "product_of_step", "the crude ester obtained in stage 2 (1 g)",
     {"kind": "stage", "label": "2"}),
    ("compound_label", "label_references", "Compound 14b", {"label": "14b"}),
    ("bracketed_label", "label_definition", " (compound 3)", {"label": "3"}),
    ("class_reference", "class_references", "This aldehyde (0.8 g) was", {"noun": "aldehyde"}),
    ("previous_product", "product_references", "the crude material (2.1 g)", None),
    ("reference_input", "reference_before", "to a slurry of ", None),
]


@pytest.mark.parametrize(("rule", "key", "text", "groups"), FIRES,
                         ids=[f[0] for f in FIRES])
def test_each_rule_fires_on_its_class_of_text(rule, key, text, groups):
    table = procedure_table()
    pattern = table.compiled[key]
    m = pattern.fullmatch(text) if rule == "section_title" else pattern.search(text)
    assert m is not None, rule
    for group, value in (groups or {}).items():
        assert m.group(group) == value


# rules written in code: the tests below that fire each
CODE_TESTS = {
    "step_reference": "test_without_structures_a_reference_is_still_a_reactant",
    "linked_product": "test_a_mention_linked_to_an_earlier_product_is_that_product",
    "general_procedure": "test_examples_of_a_general_procedure_are_one_record_each",
    "procedure_example": "test_examples_of_a_general_procedure_are_one_record_each",
    "replaced_component": "test_link_replaces_what_the_text_names",
    "referenced_heading": "test_a_step_named_in_brackets_opens_no_section",
    "heading_word": "test_examples_of_a_general_procedure_are_one_record_each",
    "reference_then_stage": "test_a_class_reference_takes_the_previous_stages_product",
    "product_is_reactant": "test_a_product_identical_to_its_reactant_is_not_written",
}


# the rules of `linking` (--link-documents auto): the tests that fire each
LINKING_TESTS = {
    "repeated_label": "test_auto_does_not_link_an_input_whose_label_heads_two_documents",
    "unique_source": "test_auto_resolves_a_label_of_two_earlier_documents_to_neither",
}


def test_every_rule_is_fired_by_a_test():
    table = procedure_table()
    fired = {f[0] for f in FIRES} | set(CODE_TESTS) | set(LINKING_TESTS)
    assert set(table.rule_names()) == fired
    assert set(CODE_RULES) == set(CODE_TESTS)
    assert all(name in globals() for name in (*CODE_TESTS.values(), *LINKING_TESTS.values()))


def test_every_class_smarts_is_read_by_rdkit():
    for c in procedure_table().class_references.classes:
        assert Chem.MolFromSmarts(c.smarts) is not None, c.nouns


def test_a_table_without_a_code_rule_is_refused(tmp_path):
    table = load_table("procedures.yaml", type(procedure_table()))
    broken = type(table)(**{**table.__dict__, "code": table.code[1:], "compiled": {}})
    with pytest.raises(TableError, match="rules/procedures.yaml: code: missing rule"):
        check_table(broken, "procedures.yaml")


# -- steps and references ------------------------------------------------------------------

PROPANOL = "OCCCOCc1ccccc1"
ESTER = "COC(=O)CCOCc1ccccc1"
TWO_STEPS = (
    "3-(Benzyloxy)propan-1-ol\nStep 1\nSodium hydride (60% in oil, 0.44 g, 11 mmol) was added "
    "to a solution of methyl 3-hydroxypropanoate (1.04 g, 10 mmol) in tetrahydrofuran (20 mL) "
    "at 0 °C, followed by benzyl bromide (1.71 g, 10 mmol). After 4 h at room temperature the "
    "mixture was quenched with water and extracted with ether, and the extract was dried and "
    "concentrated to give methyl 3-(benzyloxy)propanoate as a colourless oil (1.80 g, 93%).\n"
    "Step 2\nA solution of the product of Step 1 (1.00 g, 5.1 mmol) in tetrahydrofuran (5 mL) "
    "was added to lithium aluminium hydride (0.29 g, 7.7 mmol) in tetrahydrofuran (10 mL) at "
    "0 °C. After 1 h the reaction was quenched with water and filtered, and the filtrate was "
    "concentrated to give the title compound as a solid (0.80 g, 94%).")


def _records(nlp, text: str, doc_id: str = "d") -> list[Reaction]:
    """The records of ``text`` read as the document ``doc_id``."""
    return annotate(nlp, Document(doc_id, text)).meta.get("reactions") or []


@needs_java
def test_a_second_step_makes_the_title_from_the_first_steps_product(nlp):
    first, second = _records(nlp, TWO_STEPS)
    assert (first.label, second.label) == ("Step 1", "Step 2")
    assert [c.smiles for c in first.products] == [canonical(ESTER)]
    assert [c.smiles for c in second.products] == [canonical(PROPANOL)]
    [reference] = second.reactants  # (its role's rule may be the structure tier's)
    assert reference.name == "the product of Step 1"
    assert reference.smiles == canonical(ESTER) and reference.amount.mass.value == 1.0
    assert (reference.structure.via, reference.structure.rule) == (
        "methyl 3-(benzyloxy)propanoate", "product_of_step")
    # the last rsmi line (the final product) makes the title from the intermediate
    last = rsmi_block(Document("d", "", meta={"reactions": [first, second]})).splitlines()[-1]
    assert last.split("\t")[1].split(">")[::2] == [canonical(ESTER), canonical(PROPANOL)]


@needs_java
def test_a_product_identical_to_its_reactant_is_not_written(nlp):
    # the second step names the first step's product as its own by mistake
    text = TWO_STEPS.replace("the title compound as a solid",
                             "methyl 3-(benzyloxy)propanoate as a solid").split("\n", 1)[1]
    second = _records(nlp, text)[-1]
    assert second.products == []
    [problem] = second.problems
    assert problem.check == "product_is_reactant"
    assert "the product of Step 1" in problem.detail
    assert [c.smiles for c in second.reactants] == [canonical(ESTER)]


@needs_java
def test_a_class_reference_takes_the_previous_stages_product(nlp):
    text = ("4-Methoxy-N-propylbenzamide\n4-Methoxybenzoic acid (1.52 g, 10 mmol) was heated "
            "in thionyl chloride (10 mL) at reflux for 2 h and the excess was evaporated to give "
            "4-methoxybenzoyl chloride (1.60 g, 94%). The acid chloride (0.85 g, 5.0 mmol) was "
            "added to a solution of propylamine (0.59 g, 10 mmol) in dichloromethane (10 mL) "
            "and the mixture "
            "was stirred for 1 h to give the title compound (0.90 g, 93%).")
    first, second = _records(nlp, text)
    assert second.rule == "reference_then_stage"
    assert [c.smiles for c in first.products] == [canonical("COc1ccc(C(=O)Cl)cc1")]
    reference = next(c for c in second.reactants if c.structure.how == "coreference")
    assert reference.name == "acid chloride" and reference.structure.rule == "class_reference"
    assert reference.smiles == canonical("COc1ccc(C(=O)Cl)cc1")
    assert [c.smiles for c in second.products] == [canonical("CCCNC(=O)c1ccc(OC)cc1")]


@needs_java
def test_a_compound_label_names_the_compound_it_was_given_to(nlp):
    text = ("Step A: Ethyl 2-(4-nitrophenoxy)acetate (4). A mixture of 4-nitrophenol (1.39 g, "
            "10 mmol), ethyl bromoacetate (1.84 g, 11 mmol) and potassium carbonate (2.76 g, "
            "20 mmol) in acetone (30 mL) was heated at reflux for 6 h, filtered and concentrated "
            "to give compound 4 (2.10 g, 93%). Step B: Compound 4 (1.13 g, 5.0 mmol) and 10% "
            "palladium on carbon (0.1 g) in ethanol (20 mL) were stirred under hydrogen for 3 h. "
            "Filtration and evaporation gave ethyl 2-(4-aminophenoxy)acetate (0.90 g, 92%).")
    first, second = _records(nlp, text)
    label = next(c for c in second.reactants if c.name == "4")
    assert label.structure.rule == "compound_label"
    assert label.smiles == canonical("CCOC(=O)COc1ccc([N+](=O)[O-])cc1")
    assert [c.smiles for c in first.products] == [label.smiles]


@needs_java
def test_a_step_named_in_brackets_opens_no_section(nlp):
    text = ("Step 3: 1-Benzoylpiperidin-4-one\nTo a solution of piperidin-4-one [Example 1, Step "
            "2] (0.99 g, 10 mmol) and triethylamine (2.1 mL) in dichloromethane (20 mL) was "
            "added benzoyl chloride (1.41 g, 10 mmol). After 2 h the mixture was washed and "
            "concentrated to give the title compound (1.90 g, 94%).")
    [record] = _records(nlp, text)
    assert record.label == "Step 3"
    assert {c.name for c in record.reactants} == {"piperidin-4-one", "benzoyl chloride"}


def test_without_structures_a_reference_is_still_a_reactant(nlp_off):
    first, second = _records(nlp_off, TWO_STEPS)
    [reference] = second.reactants
    assert (reference.name, reference.rule, reference.structure) == (
        "the product of Step 1", "step_reference", None)


def test_a_mention_linked_to_an_earlier_product_is_that_product():
    """chemie_coref's TRANSFORMED link from "the oil" (no name) to the mention of the first
    stage's product makes it that product, a reactant of the second stage."""
    text = "Stage 1 gave methyl benzoate. Stage 2: the oil (1.0 g) was heated with hydrazine."
    product_at, oil_at = text.index("methyl benzoate"), text.index("oil")
    product = Candidate(product_at, product_at + 15, "methyl benzoate", "REACTION_PRODUCT", "",
                        0, Mention("M1", ((product_at, product_at + 15),)), role="product",
                        structure=Structure("opsin", "COC(=O)c1ccccc1", "QPJVMBTYPHYUOC"),
                        name="methyl benzoate")
    oil = Candidate(oil_at, oil_at + 3, "oil", "STARTING_MATERIAL", "", 1,
                    Mention("M2", ((oil_at - 4, oil_at + 3),)), role="reactant",
                    structure=Structure("unresolved", reason="generic phrase"), name="oil")
    view = DocView("d", text, [], [product.mention, oil.mention], [], {}, {"M2": ["M1"]})
    sections = Plan([Section(0, 30), Section(30, len(text))])
    refs = References(view, procedure_table(), reaction_table(), sections, [product, oil])
    refs.resolve([oil], [Made(sections.sections[0], product)], 30, len(text), [product, oil])
    assert (oil.role, oil.rule) == ("reactant", "step_reference")
    assert (oil.structure.smiles, oil.structure.rule) == ("COC(=O)c1ccccc1", "linked_product")


# -- general procedures in one document -----------------------------------------------------

PROCEDURE = (
    "Sulfonamides by general procedure F\nGeneral procedure F. To a solution of the amine "
    "(1.0 mmol) and pyridine (0.16 mL, 2.0 mmol) in dichloromethane (5 mL) at 0 °C was added "
    "the sulfonyl chloride (1.1 mmol). The mixture was stirred at room temperature for 3 h, "
    "washed with 1 M hydrochloric acid, dried and concentrated.\nExample 7\n"
    "N-Butylbenzenesulfonamide. Prepared by general procedure F from butylamine (73 mg, "
    "1.0 mmol) and benzenesulfonyl chloride (194 mg, 1.1 mmol). Colourless oil (190 mg, 89%).\n"
    "Example 8\n4-Methyl-N-propylbenzenesulfonamide. Prepared by general procedure F from "
    "propylamine (59 mg, 1.0 mmol) and tosyl chloride (210 mg, 1.1 mmol). White solid "
    "(180 mg, 84%).")


@needs_java
def test_examples_of_a_general_procedure_are_one_record_each(nlp):
    records = _records(nlp, PROCEDURE)
    template = next(r for r in records if r.rule == TEMPLATE)
    assert template.id == "d-procedure-F" and template.products == []
    seven, eight = [r for r in records if r.rule != TEMPLATE]
    assert (seven.rule, seven.label, eight.label) == ("procedure_example", "Example 7",
                                                      "Example 8")
    assert [c.smiles for c in seven.products] == [canonical("CCCCNS(=O)(=O)c1ccccc1")]
    assert [c.smiles for c in eight.products] == [canonical("CCCNS(=O)(=O)c1ccc(C)cc1")]
    assert {c.name for c in seven.reactants} == {"butylamine", "benzenesulfonyl chloride"}
    assert {c.name for c in eight.reactants} == {"propylamine", "tosyl chloride"}
    assert (seven.yield_.percent, eight.yield_.percent) == (89.0, 84.0)
    for r in (seven, eight):  # what the procedure gives to both
        assert {"pyridine", "dichloromethane"} <= {c.name for c in r.components()}
        assert [c.text for c in r.conditions.time] == ["3 h"]
        assert r.refers_to.source == "d-procedure-F" and r.refers_to.label == "F"
        assert all(c.name != "General" for c in r.components())  # heading_word
    assert {(x.old, x.new) for x in seven.refers_to.replaced} == {
        ("amine", "butylamine"), ("sulfonyl chloride", "benzenesulfonyl chloride")}
    doc = Document("d", "", meta={"reactions": records})
    assert len(written(doc)) == 2 and len(rsmi_block(doc).splitlines()) == 2


@needs_java
def test_a_list_of_examples_is_one_record_per_item(nlp):
    text = ("Method C. Di-tert-butyl dicarbonate (1.1 equiv.) was added to the amine (1.0 "
            "equiv.) and triethylamine (1.5 equiv.) in dichloromethane at 0 °C and the solution "
            "was stirred for 4 h.\nThe following compounds were made by method C: tert-butyl "
            "phenethylcarbamate, from 2-phenylethylamine (1.21 g, 10.0 mmol), 2.10 g (95%); "
            "tert-butyl piperidine-1-carboxylate, from piperidine (0.85 g, 10.0 mmol), 1.75 g.")
    first, second = [r for r in _records(nlp, text) if r.rule != TEMPLATE]
    assert [c.name for c in first.products] == ["tert-butyl phenethylcarbamate"]
    assert [c.name for c in second.products] == ["tert-butyl piperidine-1-carboxylate"]
    assert first.refers_to.rule == "follows_procedure" and first.refers_to.label == "C"
    assert "Di-tert-butyl dicarbonate" in {c.name for c in first.reactants}


# -- references between the documents of one input ------------------------------------------


def _component(name: str, role: str, smiles: str | None = None, rule: str = "label") -> dict:
    structure = {"how": "opsin", "smiles": smiles} if smiles else {"how": "unresolved",
                                                                    "reason": "reference"}
    return {"name": name, "role": role, "rule": rule, "structure": structure}


def _reaction(rid: str, label: str | None, rule: str = "document_product", **roles) -> Reaction:
    d = {"id": rid, "doc_id": rid.rsplit("-", 1)[0], "rule": rule, "label": label}
    for role, items in roles.items():
        d[role] = [_component(*item) for item in items]
    return Reaction.from_dict(d)


GP = _reaction("p1-procedure-D", "General Procedure D", TEMPLATE,
               reactants=[("the aldehyde", "reactant"), ("the amine", "reactant")],
               reagents=[("sodium triacetoxyborohydride", "reagent", "[BH4-].[Na+]")],
               solvents=[("1,2-dichloroethane", "solvent", "ClCCCl")])


def _follows(rid: str, kind: str, label: str, **roles) -> Reaction:
    r = _reaction(rid, None, **roles)
    r.refers_to = Reference(kind, label, f"{kind} {label}", "follows_procedure",
                            reason=NOT_IN_DOCUMENT)
    return r


def test_link_inherits_from_a_procedure_of_an_earlier_document():
    example = _follows("p2-1", "procedure", "D",
                       products=[("4-benzylmorpholine", "product", "C1COCCN1Cc1ccccc1")],
                       reactants=[("benzaldehyde", "reactant", "O=Cc1ccccc1"),
                                  ("morpholine", "reactant", "C1COCCN1")])
    link([[GP], [example]], has_group=has_group)
    ref = example.refers_to
    assert (ref.source, ref.reason, example.rule) == ("p1-procedure-D", None, "procedure_example")
    assert {c.name for c in example.reagents} == {"sodium triacetoxyborohydride"}
    assert [c.name for c in example.solvents] == ["1,2-dichloroethane"]
    assert example.solvents[0].start == -1  # offsets of another document are left out
    assert {(x.old, x.new) for x in ref.replaced} == {("the aldehyde", "benzaldehyde"),
                                                       ("the amine", "morpholine")}
    assert {c.name for c in example.reactants} == {"benzaldehyde", "morpholine"}


def test_link_replaces_what_the_text_names():
    ten = _reaction("p4-1", "Example 10",
                    products=[("1-methylpyrazole", "product", "Cn1cccn1")],
                    reactants=[("iodomethane", "reactant", "CI"), ("pyrazole", "reactant",
                                                                   "c1cn[nH]c1")],
                    reagents=[("caesium carbonate", "reagent", "[Cs+].[Cs+].[O-]C([O-])=O")])
    eleven = _follows("p5-1", "example", "10",
                      products=[("1-ethylpyrazole", "product", "CCn1cccn1")],
                      reactants=[("iodoethane", "reactant", "CCI")])
    eleven.refers_to.replaced.append(Replacement("iodomethane", "iodoethane"))
    link([[ten], [eleven]], has_group=has_group)
    assert eleven.refers_to.source == "p4-1"
    assert {c.name for c in eleven.reactants} == {"iodoethane", "pyrazole"}
    assert [c.name for c in eleven.reagents] == ["caesium carbonate"]
    assert eleven.refers_to.inherited == ["pyrazole", "caesium carbonate"]


def test_a_reference_to_a_later_or_absent_document_stays_unresolved():
    example = _follows("p2-1", "procedure", "D", reactants=[("benzaldehyde", "reactant",
                                                             "O=Cc1ccccc1")])
    link([[example], [GP]])
    assert (example.refers_to.source, example.refers_to.reason) == (None, NOT_EARLIER)
    assert example.reagents == []


def test_link_gives_an_intermediate_label_its_structure():
    three = _reaction("p6-1", "Intermediate 3",
                      products=[("2-chloroacetanilide", "product", "ClCC(=O)Nc1ccccc1")])
    user = _reaction("p7-1", None, reactants=[("Intermediate 3", "reactant")])
    link([[three], [user]])
    s = user.reactants[0].structure
    assert (s.smiles, s.rule, s.via) == ("ClCC(=O)Nc1ccccc1", "compound_label",
                                         "Intermediate 3: 2-chloroacetanilide")


def _lines(path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_link_documents_on_the_command_line(fixtures, tmp_path):
    src = fixtures / "reactions" / "patent.jsonl"
    one, two, plain, auto = (tmp_path / f"{n}.jsonl" for n in ("one", "two", "plain", "auto"))
    base = ["reactions", str(src), "--no-opsin", "-q"]
    assert main([*base, "-o", str(one), "--link-documents", "on", "--workers", "1"]) == 0
    assert main([*base, "-o", str(two), "--link-documents", "on", "--workers", "2"]) == 0
    assert one.read_bytes() == two.read_bytes()
    records = {r["doc_id"]: r for r in _lines(one)}
    assert records["pat-2"]["refers_to"]["source"] == "pat-1-procedure-D"
    assert "pat-1" not in records  # a general procedure is no reaction
    assert records["pat-5"]["refers_to"]["source"] == "pat-4-1"
    assert records["pat-5"]["refers_to"]["replaced"][0]["old"] == "iodomethane"
    assert not (tmp_path / "one.jsonl.references.partial").exists()
    assert main([*base, "-o", str(plain), "--link-documents", "off"]) == 0
    unlinked = {r["doc_id"]: r for r in _lines(plain)}
    assert unlinked["pat-2"]["refers_to"]["reason"] == NOT_IN_DOCUMENT
    # the default, auto: one patent's paragraphs (no label heads two of them) are linked
    assert main([*base, "-o", str(auto), "--workers", "2"]) == 0
    assert auto.read_bytes() == one.read_bytes()


@pytest.mark.parametrize("flag", [["--link-documents", "on"], []], ids=["on", "auto"])
def test_link_documents_resumes_with_what_was_written(fixtures, tmp_path, monkeypatch, flag):
    src = fixtures / "reactions" / "patent.jsonl"
    out, fresh = tmp_path / "out.jsonl", tmp_path / "fresh.jsonl"
    argv = ["reactions", str(src), "--no-opsin", "-q", *flag, "--workers", "1"]
    assert main([*argv, "-o", str(fresh)]) == 0
    write = ResolvingSink.write
    calls = []

    def interrupted(self, outcome):
        calls.append(outcome)
        if len(calls) == 4:  # the procedure and examples 1-3 written: then an interruption
            raise KeyboardInterrupt
        write(self, outcome)

    monkeypatch.setattr(ResolvingSink, "write", interrupted)
    assert main([*argv, "-o", str(out)]) == 130
    journal = tmp_path / "out.jsonl.references.partial"  # beside out.jsonl.errors.tsv
    assert journal.exists()
    monkeypatch.setattr(ResolvingSink, "write", write)
    assert main([*argv, "-o", str(out), "--resume"]) == 0
    assert out.read_bytes() == fresh.read_bytes()
    assert not journal.exists()


# -- --link-documents auto: which inputs are linked ------------------------------------------

ONE_PATENT = [("p1", "General Procedure D: reductive amination\nTo a solution of"),
              ("p2", "4-Benzylmorpholine\nPrepared according to General Procedure D"),
              ("p3", "Example 10: 1-Methylpyrazole\nIodomethane was added"),
              ("p4", "Example 11\nPrepared as described in Example 10"),
              ("p5", "Intermediate 10: 4-Bromoanisole\nMethyl iodide"),
              ("p6", "General procedure\nA mixture"), ("p7", "General procedure\nTo a")]


def test_auto_links_the_paragraphs_of_one_patent():
    """Labels of different kinds ("Example 10", "Intermediate 10") and unlabelled general
    procedures may repeat; nothing else does."""
    assert one_source(ONE_PATENT) == Verdict()


def test_auto_does_not_link_an_input_whose_label_heads_two_documents():
    other = ("q1", "Example 10 (reference compound)\nA solution of")
    verdict = one_source([*ONE_PATENT, other])
    assert (verdict.linked, verdict.rule) == (False, "repeated_label")
    assert verdict.detail == '"Example 10" heads documents p3 and q1'
    assert one_source([*ONE_PATENT, ("q2", "General Method D. To")]).rule == "repeated_label"
    # what its references say: left to other documents, then not linked, and why
    example = _follows("p2-1", "procedure", "D", reactants=[("benzaldehyde", "reactant")])
    link([[GP], [example]], verdict=verdict)
    assert example.refers_to.source is None and example.reagents == []
    assert example.refers_to.reason == (f"{NOT_IN_DOCUMENT}; {NOT_LINKED}: {verdict.detail} "
                                        "(repeated_label)")


def test_every_kind_of_document_label_is_a_linking_kind():
    table = procedure_table()
    for heading in ("Example 1", "Reference Example 1", "Comparative Example 1",
                    "Intermediate 1", "Preparation 1", "General Procedure A", "Method A",
                    "General synthetic method A"):
        m = table.compiled["document_label"].match(heading + ": NAME")
        assert table.kind(m.group("kind")) in table.linking.kinds, heading


def _example_ten(doc: str, product: tuple[str, str, str]) -> Reaction:
    return _reaction(f"{doc}-1", "Example 10", products=[product],
                     reagents=[("caesium carbonate", "reagent", "[Cs+].[Cs+].[O-]C([O-])=O")])


def test_auto_resolves_a_label_of_two_earlier_documents_to_neither():
    """Two earlier records labelled "Example 10" (a section of a document, say): auto
    resolves a reference to neither; on takes the latest."""
    for verdict, source, reason in ((Verdict(), None, f"{SEVERAL} (unique_source)"),
                                    (None, "p9-1", None)):
        first = _example_ten("p8", ("1-methylpyrazole", "product", "Cn1cccn1"))
        second = _example_ten("p9", ("1-ethylpyrazole", "product", "CCn1cccn1"))
        user = _follows("p10-1", "example", "10", reactants=[("pyrazole", "reactant")])
        named = _reaction("p11-1", None, reactants=[("Example 10", "reactant")])
        link([[first], [second], [user], [named]], verdict=verdict)
        assert (user.refers_to.source, user.refers_to.reason) == (source, reason)
        assert named.reactants[0].structure.resolved is (verdict is None)


@pytest.mark.parametrize("flag", [[], ["--link-documents", "on"]], ids=["auto", "on"])
def test_auto_names_an_input_it_does_not_link(fixtures, tmp_path, capsys, flag):
    src = tmp_path / "two_patents.jsonl"
    patent = (fixtures / "reactions" / "patent.jsonl").read_text(encoding="utf-8")
    other = {"id": "other-4", "title": "Example 10: 4-Nitro-1-propyl-1H-pyrazole",
             "text": "1-Iodopropane (2.04 g, 12.0 mmol) was added to 4-nitro-1H-pyrazole "
                     "(1.13 g, 10.0 mmol) in acetone (20 mL)."}
    src.write_text(json.dumps(other) + "\n" + patent, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["reactions", str(src), "--no-opsin", "-q", "-o", str(out), *flag]) == 0
    err = capsys.readouterr().err
    records = {r["doc_id"]: r for r in _lines(out)}
    if flag:  # on: the latest "Example 10", this patent's
        assert records["pat-5"]["refers_to"]["source"] == "pat-4-1"
        assert "not linked" not in err
        return
    assert err.count("not linked") == 1
    assert f"{src}: its documents are not linked" in err
    assert '"Example 10: 4-Nitro-1-propyl-1H-pyrazole"' not in err  # the label, not the title
    assert ('"Example 10" heads documents other-4 and pat-4, as in several patents '
            "(repeated_label)") in err
    for doc in ("pat-2", "pat-5"):
        ref = records[doc]["refers_to"]
        assert "source" not in ref and ref["reason"].startswith(f"{NOT_IN_DOCUMENT}; {NOT_LINKED}")


@pytest.mark.corpus
def test_auto_does_not_link_the_chemu_snippets_nor_anything_in_uspto(corpus):
    """ChEMU-Ref train gathers snippets of many patents: auto does not link it, on the
    evidence of its documents 0-599 (the first label seen twice is there). The USPTO
    paragraphs have no labelled heading: nothing says several, nothing can be linked."""
    from chemie.commands.reactions import input_texts

    chemu = corpus("chemu-ref/train.jsonl")
    first600 = list(input_texts(chemu, None))[:600]
    verdict = one_source(input_texts(chemu, None))
    assert verdict.rule == "repeated_label"
    assert one_source(first600) == verdict
    assert one_source(input_texts(corpus("uspto-reactions/dev.jsonl"), None)).linked


# -- the hand-written paragraphs --------------------------------------------------------------


def _keys(smiles: list[str] | tuple[str, ...]) -> set[str]:
    from chemie.structures.chem import bond_order_keys

    return {k for x in smiles for k in bond_order_keys(x) or ()}


@needs_java
def test_hand_written_paragraphs_floor(nlp, fixtures):
    """Every reaction of the hand-written paragraphs, with bond orders, a little under
    today's figures (products 39/39, exact 29/39; ``python benchmarks/reactions.py``)."""
    exact = products = total = 0
    for path in sorted((fixtures / "reactions").glob("*.jsonl")):
        gold = {row["id"]: row["gold"] for row in _lines(path)}
        docs = [(d.id, written(annotate(nlp, d))) for d in iter_uspto(path)]
        verdict = one_source((d.id, d.text) for d in iter_uspto(path))
        assert verdict.linked  # each file the paragraphs of one patent: auto links them
        link((records for _, records in docs), has_group=has_group, verdict=verdict)
        for doc_id, records in docs:
            total += len(gold[doc_id])
            for g, r in zip(gold[doc_id], records, strict=False):
                same = {role: _keys(r.smiles(role)) == _keys(g[role])
                        for role in ("reactants", "reagents", "products")}
                products += same["products"]
                exact += all(same.values())
    assert total == 39
    assert products >= 37 and exact >= 26
