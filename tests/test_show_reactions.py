"""chemie show with reactions and roles: reaction schemes above the text (RDKit SVG), the
ChEMU 2020 roles as a second view with its legend, and the inputs that carry reactions
(text run through the pipeline, `chemie reactions` output alone or beside its text, USPTO
paragraphs)."""

from __future__ import annotations

import json
import re
from importlib import resources

from html_parts import HtmlParts

from chemie.cli import main
from chemie.model import Document, Mention, Role
from chemie.model.reaction import (
    Component,
    Condition,
    Conditions,
    Quantity,
    Reaction,
    Structure,
    Yield,
)
from chemie.show.palette import ROLE_LABELS, slug
from chemie.show.render import panel, render_page, roles_html, steps_table
from chemie.show.scheme import depict, molecule, scheme

TEXT = ("Benzyl benzoate\nBenzoic acid (1.2 g) and benzyl bromide (1.9 g) were stirred in "
        "DMF (20 mL) with potassium carbonate (2.8 g) for 3 h to give the title compound "
        "(1.9 g).")


def _at(word: str, text: str = TEXT, after: int = 0) -> tuple[int, int]:
    start = text.index(word, after)
    return start, start + len(word)


def _component(name: str, role: str, smiles: str | None, how: str = "opsin", **kw) -> Component:
    structure = Structure(how, smiles, None, **kw) if smiles or how != "opsin" else \
        Structure("unresolved", reason="parse failure")
    return Component(name, role, f"rule_{role}", *_at(name.split()[0]), structure=structure)


def reaction(doc_id: str = "one") -> Reaction:
    """The reaction of TEXT, written by hand (structures as OPSIN would give them)."""
    return Reaction(
        f"{doc_id}-1", doc_id, "document_product",
        products=[Component("title compound", "product", "title_product", *_at("title"),
                            structure=Structure("coreference", "O=C(OCc1ccccc1)c1ccccc1",
                                                via="Benzyl benzoate"))],
        reactants=[_component("Benzoic acid", "reactant", "O=C(O)c1ccccc1"),
                   _component("benzyl bromide", "reactant", "BrCc1ccccc1", "dictionary")],
        reagents=[_component("potassium carbonate", "reagent", "O=C([O-])[O-].[K+].[K+]",
                             "dictionary"),
                  Component("the <catalyst>", "reagent", "rule_reagent",
                            structure=Structure("unresolved", reason="generic phrase"))],
        solvents=[_component("DMF", "solvent", "CN(C)C=O", "dictionary")],
        yield_=Yield(mass=Quantity(1.9, "g", "1.9 g")),
        conditions=Conditions(time=[Condition("time", "3 h", "time_rule")]),
    )


def roles() -> list[Role]:
    acid, bromide, verb = _at("Benzoic acid"), _at("benzyl bromide"), _at("stirred")
    return [
        Role("T1", *_at("Benzyl benzoate"), "REACTION_PRODUCT", "Benzyl benzoate", "heading"),
        Role("T2", *acid, "STARTING_MATERIAL", "Benzoic acid", "lexicon"),
        Role("T3", *bromide, "STARTING_MATERIAL", "benzyl bromide", "lexicon"),
        Role("T4", *verb, "REACTION_STEP", "stirred", "reaction_step", ["T2", "T3"]),
    ]


def document(doc_id: str = "one") -> Document:
    doc = Document(doc_id, TEXT, meta={"reactions": [reaction(doc_id)]})
    doc.mentions = [Mention("M1", (_at("Benzoic acid"),), "ENTITY", "Benzoic acid", "r",
                            kind="chemical")]
    doc.roles = roles()
    return doc



def test_a_scheme_draws_every_component_with_its_name_under_it():
    html_ = scheme(reaction())
    parser = HtmlParts(html_)
    figures = [a for t, a in parser.tags if t == "figure" and "mol" in a["class"].split()]
    assert [f["data-role"] for f in figures] == [
        "reactant", "reactant", "reagent", "reagent", "solvent", "product"]
    small = [f for f in figures if "small" in f["class"].split()]
    assert [f["data-role"] for f in small] == ["reagent", "reagent", "solvent"]  # over the arrow
    assert sum(t == "svg" for t, _ in parser.tags) == 5  # all but the unresolved one
    order = [html_.index(x) for x in ("Benzoic acid", 'class="arrow"', "title compound")]
    assert order == sorted(order)
    assert "the &lt;catalyst&gt;" in html_ and "<catalyst>" not in html_
    unresolved = next(f for f in figures if "none" in f["class"].split())
    assert "unresolved (generic phrase)" in unresolved["title"]
    assert '<span class="nostruct">generic phrase</span>' in html_
    assert "= Benzyl benzoate" in html_ and '<span class="note">1.9 g</span>' in html_
    assert '<span class="cond">3 h</span>' in html_
    assert html_.count('<span class="plus">+</span>') == 1  # between the two reactants


def test_depictions_are_inline_svg_without_xml_header_and_bad_smiles_are_none():
    svg = depict("c1ccccc1O")
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "<?xml" not in svg
    assert "viewBox='0 0 " in svg and "class=" not in svg
    assert depict("C1CC(") is None
    c = Component("mystery", "reactant", "r", structure=Structure("opsin", "C1CC("))
    assert 'class="nostruct"' in molecule(c)


def _size(svg: str) -> tuple[int, int]:
    w, h = re.search(r"width='(\d+)px' height='(\d+)px'", svg).groups()
    return int(w), int(h)


def test_every_species_is_drawn_at_one_scale():
    water, benzoate = _size(depict("O")), _size(depict("O=C(OCc1ccccc1)c1ccccc1"))
    assert water[0] < benzoate[0] / 4  # water small, the product large: as on paper
    # one bond length: a chain twice as long is about twice as wide
    short, long_ = _size(depict("CCCCCC")), _size(depict("CCCCCCCCCCC"))
    assert 1.7 < long_[0] / short[0] < 2.3
    # the same molecule is the same drawing over the arrow and beside it
    dmf = _component("DMF", "solvent", "CN(C)C=O", "dictionary")
    svg = lambda html_: re.search(r"<svg.*?</svg>", html_, re.S).group(0)  # noqa: E731
    assert svg(molecule(dmf, small=True)) == svg(molecule(dmf))


def test_a_catalyst_or_metal_complex_is_one_labelled_item_and_each_species_is_drawn_once():
    pd = "[Pd].c1ccc(P(c2ccccc2)c2ccccc2)cc1.c1ccc(P(c2ccccc2)c2ccccc2)cc1." \
         "c1ccc(P(c2ccccc2)c2ccccc2)cc1.c1ccc(P(c2ccccc2)c2ccccc2)cc1"
    r = reaction()
    r.reagents.append(Component("Pd(PPh3)4", "reagent", "r", structure=Structure(
        "dictionary", pd)))
    r.catalysts.append(Component("copper iodide", "catalyst", "r", structure=Structure(
        "dictionary", "[Cu]I")))
    r.solvents.append(_component("DMF", "solvent", "CN(C)C=O", "dictionary"))  # again
    r.reagents.append(_component("benzyl bromide", "reagent", "BrCc1ccccc1"))  # a reactant
    html_ = scheme(r)
    figures = [a for t, a in HtmlParts(html_).tags if t == "figure" and "mol" in a["class"]]
    boxed = [f for f in figures if "boxed" in f["class"].split()]
    assert [f["data-role"] for f in boxed] == ["reagent", "catalyst"]
    assert '<span class="item">reagent</span><figcaption>Pd(PPh3)4' in html_
    assert sum(t == "svg" for t, _ in HtmlParts(html_).tags) == 5  # as before: no pieces
    assert [f["data-role"] for f in figures].count("solvent") == 1
    assert html_.count("<figcaption>benzyl bromide") == 1


def test_roles_view_marks_each_role_and_what_a_trigger_acts_on():
    doc = document()
    parser = HtmlParts(roles_html(doc))
    assert "".join(parser.text) == doc.text
    spans = {a["data-r"]: a for t, a in parser.tags if t == "span" and "data-r" in a}
    assert spans["T1"]["class"] == "r r-reaction-product"
    assert spans["T4"]["data-args"] == "T2 T3"
    assert "acts on: T2 Benzoic acid, T3 benzyl bromide" in spans["T4"]["title"]
    assert "rule: reaction_step" in spans["T4"]["title"]
    table = steps_table(doc)
    assert table.count("<tr data-r=") == 1 and "benzyl bromide" in table
    shown = panel(doc, "Annotations", "pred")
    assert 'class="panel pred has-roles"' in shown
    assert shown.index('<div class="text" data-arcs') < shown.index('<div class="text roles">')
    assert 'class="panel pred"' in panel(Document("x", "no roles"), "A", "pred")


def test_page_with_roles_has_the_view_switch_and_both_legends():
    page = render_page([(document(), None)])
    legend = re.search(r'<div class="legend">(.*?)</div>', page).group(1)
    assert 'name="view" value="anaphora" checked' in legend and 'value="roles"' in legend
    anaphora = re.search(r'<span class="lg-anaphora">(.*?)</span><span class="lg-roles">',
                         legend).group(1)
    assert "k-chemical" in anaphora
    assert re.findall(r'class="r r-([a-z-]+)"', legend) == [
        "reaction-product", "starting-material", "reaction-step"]  # palette order
    for r in ROLE_LABELS:  # colours from palette.py only
        assert f".r-{slug(r.label)} {{ background: {r.background};" in page
    css = resources.files("chemie.show").joinpath("page.css").read_text(encoding="utf-8")
    assert not re.search(r"^\.r-[a-z-]+ \{", css, re.M)
    assert "1 roles" not in page and "4 roles · 1 reactions" in page
    # the scheme sits in the slot above the text of the predicted panel only
    assert page.index('<div class="above"><figure class="scheme"') < page.index(
        '<div class="text" data-arcs')
    plain = render_page([(Document("x", "Nothing here."), None)])
    assert '<input type="radio"' not in plain and 'class="lg-roles"' not in plain


def _records_file(tmp_path, docs=("one", "two")):
    path = tmp_path / "rx.jsonl"
    path.write_text("".join(json.dumps(reaction(d).to_dict()) + "\n" for d in docs),
                    encoding="utf-8")
    return path


def test_cli_shows_chemie_reactions_output_alone(tmp_path):
    out = tmp_path / "page.html"
    assert main(["show", str(_records_file(tmp_path)), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert re.findall(r'data-doc="([^"]+)"', page) == ["one", "two"]
    assert page.count('<figure class="scheme"') == 2
    assert page.count('<table class="components">') == 2
    assert "coreference → Benzyl benzoate" in page and "1.2 g" not in page
    assert '<div class="text"' not in page  # the records carry no text


def test_cli_draws_a_reactions_file_above_the_texts_it_came_from(tmp_path):
    txt = tmp_path / "one.txt"
    txt.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "page.html"
    argv = ["show", str(txt), "--reactions", str(_records_file(tmp_path)), "-o", str(out)]
    assert main(argv) == 0
    page = out.read_text(encoding="utf-8")
    assert page.count('<figure class="scheme" data-reaction="one-1">') == 1
    assert "two-1" not in page  # another document's
    assert page.index('<figure class="scheme"') < page.index('<div class="text" data-arcs')
    assert 'class="r r-' in page  # the pipeline ran: roles


def test_cli_warns_when_no_reaction_id_is_a_shown_document(tmp_path, capsys):
    txt = tmp_path / "three.txt"
    txt.write_text(TEXT, encoding="utf-8")
    records = _records_file(tmp_path)
    out = tmp_path / "page.html"
    assert main(["show", str(txt), "--reactions", str(records), "-o", str(out)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"chemie: warning: {records}: no shown document has the id of one of its "
                   "reactions (one, two): no schemes drawn"]
    assert '<figure class="scheme"' not in out.read_text(encoding="utf-8")


def test_cli_runs_reactions_on_uspto_paragraphs(tmp_path):
    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps({"id": "p1", "title": "Benzyl benzoate",
                               "text": TEXT.split("\n", 1)[1]}) + "\n", encoding="utf-8")
    out = tmp_path / "page.html"
    assert main(["show", str(src), "--no-structures", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert 'data-doc="p1"' in page and '<figure class="scheme" data-reaction="p1-1">' in page
    assert '<span class="nostruct">no structure</span>' in page  # structures off
    # the title is the heading: the product of the reaction and a REACTION_PRODUCT role
    assert re.findall(r'data-role="product" title="([^\n"]*)', page) == ["Benzyl benzoate"]
    assert re.search(r'class="r r-reaction-product"[^>]*>Benzyl benzoate<', page)


def test_cli_bad_reaction_record_is_one_line_and_exit_2(tmp_path, capsys):
    path = _records_file(tmp_path, ("one",))
    with open(path, "a", encoding="utf-8") as fh:
        fh.write('{"id": "x", "doc_id": "x", "rule": "r", "products": [{"name": 1}]}\n')
    assert main(["show", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "rx.jsonl:2: not a chemie reaction record" in err and len(err.splitlines()) == 1


def test_cli_refuses_to_overwrite_the_reactions_file(tmp_path):
    txt = tmp_path / "one.txt"
    txt.write_text(TEXT, encoding="utf-8")
    records = _records_file(tmp_path)
    before = records.read_bytes()
    assert main(["show", str(txt), "--reactions", str(records), "-o", str(records)]) == 2
    assert records.read_bytes() == before


def test_chemu2020_gold_colours_every_label_and_compares_roles(tmp_path):
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "one.txt").write_text(TEXT, encoding="utf-8")
    labels = [("REACTION_PRODUCT", "Benzyl benzoate"), ("STARTING_MATERIAL", "Benzoic acid"),
              ("SOLVENT", "DMF"), ("TIME", "3 h"), ("REACTION_STEP", "stirred"),
              ("WORKUP", "title")]  # the last one no system would find: a false negative
    (gold / "one.ann").write_text("".join(
        f"T{i}\t{label} {a} {b}\t{TEXT[a:b]}\n"
        for i, (label, word) in enumerate(labels, 1) for a, b in [_at(word)]), encoding="utf-8")
    out = tmp_path / "page.html"
    assert main(["show", str(gold / "one.txt"), "--gold", str(gold), "--no-structures",
                 "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    # every label has its colour (no grey): the mention view of the gold, and the legend
    for r in ROLE_LABELS:
        assert f".k-{slug(r.label)} {{ background: {r.background};" in page
    assert re.search(r'class="m k-reaction-product[^"]*"[^>]*>Benzyl benzoate<', page)
    assert '<span class="m k-starting-material">starting material</span>' in page
    # the roles view of both panels, marked against each other, with the marks in the legend
    assert re.search(r'class="r r-workup st-fn"[^>]*>title<', page)
    assert re.search(r'class="r r-starting-material st-tp"[^>]*>Benzoic acid<', page)
    assert '<span class="r st-fp">false positive</span>' in page
    assert re.search(r"roles: <span class=\"st-tp\">\d+ correct</span>", page)
    # the gold annotates roles alone: its mentions judge no predicted mention
    assert 'class="m k-chemical st-fp' not in page
