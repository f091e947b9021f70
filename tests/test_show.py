"""chemie show: nesting of mention pieces, exact-match marks, HTML rendering and the CLI."""

from __future__ import annotations

import html
import json
import re
from importlib import resources

import pytest
from html_parts import HtmlParts

from chemie.cli import main
from chemie.model import Document, Mention, Relation, mention_attrs
from chemie.show.compare import compare
from chemie.show.inputs import read_inputs, with_kinds
from chemie.show.layout import Node, Piece, nest
from chemie.show.palette import KINDS, RELATIONS, slug
from chemie.show.render import arcs, break_points, panel, render_page, render_site, text_html


def _flatten(node: Node, depth: int = 0) -> list[tuple[int, int, str, int]]:
    out = []
    for c in node.children:
        assert node.start <= c.start < c.end <= node.end
        out.append((c.start, c.end, c.piece.mention, depth))
        out.extend(_flatten(c, depth + 1))
    return out


def test_nest_orders_nested_and_splits_crossing_pieces():
    pieces = [Piece(4, 8, "inner"), Piece(0, 10, "outer"), Piece(6, 14, "cross")]
    tree = _flatten(nest(pieces, 20))
    assert tree == [
        (0, 10, "outer", 0),
        (4, 8, "inner", 1),
        (6, 8, "cross", 2),
        (8, 10, "cross", 1),
        (10, 14, "cross", 0),
    ]
    # siblings never overlap
    assert _flatten(nest([Piece(0, 5, "a"), Piece(5, 9, "b"), Piece(30, 40, "out")], 20)) == [
        (0, 5, "a", 0),
        (5, 9, "b", 0),
    ]


def _doc(doc_id: str = "d1") -> Document:
    text = 'The acid <b>A</b> & "B" was added ; the mixture was stirred .'
    acid = text.index("acid")
    mix = text.index("mixture")
    doc = Document(doc_id, text)
    doc.mentions = [
        Mention(
            "T1", ((acid, acid + 4),), "CHEMICAL", "acid", rule="lex<1>",
            kind="chemical", chemdner_class="FAMILY",
        ),
        Mention("T2", ((0, 3), (mix, mix + 7)), "GENERIC", rule="gen", kind="generic"),
    ]
    doc.relations = [Relation("REACTION_ASSOCIATED", "T2", "T1", rule="ra&co", id="R1")]
    return doc


def _gold(pred: Document) -> Document:
    gold = Document(pred.id, pred.text)
    t1, t2 = pred.mentions
    gold.mentions = [
        Mention("G1", t1.spans, "ENTITY"),
        Mention("G2", t2.spans, "ENTITY"),
        Mention("G3", ((pred.text.index("was"), pred.text.index("was") + 3),), "ENTITY"),
    ]
    gold.relations = [
        Relation("REACTION_ASSOCIATED", "G2", "G1", id="R1"),
        Relation("COREFERENCE", "G3", "G1", id="R2"),
    ]
    return gold


def test_compare_marks_exact_matches():
    pred = _doc()
    pred.mentions.append(Mention("T3", ((4, 5),), "CHEMICAL"))  # not in any relation
    pred.relations.append(Relation("COREFERENCE", "T2", "T1", id="R2"))
    pm, gm = compare(pred, _gold(_doc()))
    assert pm.relations == {"R1": "tp", "R2": "fp"}
    assert gm.relations == {"R1": "tp", "R2": "fn"}
    # untyped gold ENTITY matches any label; unjudged mentions get no status
    assert pm.mentions == {"T1": "tp", "T2": "tp", "T3": ""}
    assert gm.mentions == {"G1": "tp", "G2": "tp", "G3": "fn"}


def test_compare_with_typed_gold_checks_labels():
    pred, gold = _doc(), _doc()
    gold.mentions[0].label = "SYSTEMATIC"
    pm, gm = compare(pred, gold)
    assert pm.mentions["T1"] == "fp" and gm.mentions["T1"] == "fn"
    assert pm.relations == {"R1": "tp"}



def test_text_is_escaped_and_mentions_carry_kind_class_rule():
    doc = _doc()
    fragment = text_html(doc)
    parser = HtmlParts(fragment)
    assert [t for t, _ in parser.tags] == ["span", "span", "span"]  # no <b> from the text
    assert "".join(parser.text) == doc.text
    spans = [a for _, a in parser.tags]
    acid = next(a for a in spans if a["data-m"] == "T1")
    assert "k-chemical" in acid["class"] and acid["data-tag"] == "FAMILY"
    assert "rule: lex<1>" in acid["title"] and "class: FAMILY" in acid["title"]
    pieces = [a for a in spans if a["data-m"] == "T2"]
    assert [a["data-p"] for a in pieces] == ["0", "1"]
    assert all("disc" in a["class"] and "k-generic" in a["class"] for a in pieces)


def test_arcs_records_point_from_anaphor_to_antecedent():
    pm, _ = compare(_doc(), _gold(_doc()))
    (arc,) = arcs(_doc(), pm)
    assert (arc["head"], arc["tail"], arc["rule"], arc["status"]) == ("T2", "T1", "ra&co", "tp")


def _arcs_in(page: str) -> list[list[dict]]:
    return [json.loads(html.unescape(m)) for m in re.findall(r'data-arcs="([^"]*)"', page)]


def test_page_is_self_contained_deterministic_and_escaped():
    pairs = [(_doc("d1"), _gold(_doc("d1"))), (_doc("d<2>"), None)]
    page = render_page(pairs, title="t <&>")
    assert page == render_page(pairs, title="t <&>")
    assert "<title>t &lt;&amp;&gt;</title>" in page
    assert "<style>" in page and "<script>" in page
    assert not re.search(r'<link|src=|href="(https?:)?//|@import|url\(', page)
    assert 'id="doc-d_2_"' in page and 'href="#doc-d_2_"' in page  # table of contents
    assert "&lt;b&gt;A&lt;/b&gt;" in page and "<b>A</b>" not in page
    assert [len(a) for a in _arcs_in(page)] == [1, 2, 1]  # pred, gold, second doc
    assert "1 correct" in page and "1 FN" in page


def test_site_has_index_and_linked_pages():
    files = render_site([(_doc("a"), None), (_doc("b"), None)], title="site")
    assert sorted(files) == ["doc-a.html", "doc-b.html", "index.html"]
    assert 'href="doc-a.html"' in files["index.html"]
    assert 'href="doc-b.html">next' in files["doc-a.html"]
    assert 'href="doc-a.html">previous' in files["doc-b.html"]


def test_cli_prediction_folder_against_gold(fixtures, tmp_path):
    out = tmp_path / "page.html"
    show = fixtures / "show"
    argv = ["show", str(show / "pred"), "--gold", str(show / "gold.jsonl"), "-o", str(out)]
    assert main(argv) == 0
    page = out.read_text(encoding="utf-8")
    pred_arcs, gold_arcs = _arcs_in(page)
    assert sorted(a["status"] for a in pred_arcs) == ["fp", "tp", "tp", "tp"]
    assert sorted(a["status"] for a in gold_arcs) == ["fn", "tp", "tp", "tp"]
    assert {a["rule"] for a in pred_arcs} == {"ra_added", "tr_give", "coref_mixture"}
    assert "</span> &lt;&amp;&gt; ." in page


def test_cli_gold_file_as_folder_of_pages(fixtures, tmp_path):
    out = tmp_path / "site"
    gold = fixtures / "show" / "gold.jsonl"
    assert main(["show", str(gold), "--no-run", "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["doc-s1.html", "doc-s2.html", "index.html"]
    page = (out / "doc-s2.html").read_text(encoding="utf-8")
    (arcs_s2,) = _arcs_in(page)
    assert [a["label"] for a in arcs_s2] == ["CONTAINED"]
    # untyped gold mentions are coloured by the kind the mention describer gives them
    kinds = dict(re.findall(r'class="m k-([a-z-]+)[^"]*" data-m="(T\d+)"', page))
    assert set(kinds) == {"chemical", "equipment"}


def test_cli_selects_documents_and_writes_stdout(fixtures, capsys):
    gold = fixtures / "show" / "gold.jsonl"
    assert main(["show", str(gold), "--no-run", "--doc", "s2"]) == 0
    page = capsys.readouterr().out
    assert 'data-doc="s2"' in page and 'data-doc="s1"' not in page
    assert main(["show", str(gold), "--no-run", "--limit", "1"]) == 0
    page = capsys.readouterr().out
    assert 'data-doc="s1"' in page and 'data-doc="s2"' not in page


def test_cli_names_a_doc_id_it_does_not_have(fixtures, capsys):
    gold = fixtures / "show" / "gold.jsonl"
    assert main(["show", str(gold), "--no-run", "--doc", "s2", "--doc", "s9"]) == 0
    captured = capsys.readouterr()
    assert 'data-doc="s2"' in captured.out
    assert captured.err.strip() == f"chemie: warning: {gold}: no document with the id 's9'"


def test_cli_runs_the_pipeline_on_raw_text(tmp_path):
    pytest.importorskip("chemie.nlp", reason="the chemie pipeline (chemie.nlp) is not installed")
    txt = tmp_path / "snippet.txt"
    txt.write_text(
        "Benzoic acid (1.0 g) was dissolved in ethanol (10 mL). The solution was stirred.\n",
        encoding="utf-8",
    )
    out = tmp_path / "snippet.html"
    assert main(["show", str(txt), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert 'data-doc="snippet"' in page
    assert re.search(r'class="m k-[a-z-]+', page)  # the pipeline found mentions
    assert 'data-tag="TRIVIAL"' in page  # benzoic acid, with its CHEMDNER class
    assert "NER rule: " in page


@pytest.mark.parametrize(
    "argv, message",
    [
        (["show", "{tmp}/missing.jsonl"], "no such file"),
        (["show", "{tmp}/bad.jsonl", "--no-run", "-o", "{tmp}/out.html"], "bad.jsonl:2:"),
        (["show", "{tmp}/bad.jsonl", "--no-run", "--limit", "0"], "--limit"),
        (["show", "{tmp}/file.csv"], "unknown input type"),
        (["show", "{gold}", "--no-run", "--doc", "nope"], "no document with the id 'nope'"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(fixtures, tmp_path, capsys, argv, message):
    gold = fixtures / "show" / "gold.jsonl"
    (tmp_path / "bad.jsonl").write_text(
        gold.read_text(encoding="utf-8").splitlines()[0] + "\n{not json\n", encoding="utf-8"
    )
    (tmp_path / "file.csv").write_text("a,b\n", encoding="utf-8")
    args = [a.format(tmp=tmp_path, gold=gold) for a in argv]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "out.html").exists()


def _run_json(doc: Document) -> str:
    """A line as written by ``chemie run --format json``."""
    return json.dumps(
        {
            "id": doc.id,
            "text": doc.text,
            "tokens": [],
            "sentences": [],
            "mentions": [
                {"id": m.id, "spans": [list(s) for s in m.spans], "label": m.label,
                 "text": m.text, "rule": m.rule, "confidence": m.confidence,
                 "attrs": mention_attrs(m)}
                for m in doc.mentions
            ],
            "relations": [
                {"label": r.label, "head": r.head, "tail": r.tail, "rule": r.rule, "id": r.id}
                for r in doc.relations
            ],
            "meta": {},
        }
    )


def test_cli_reads_run_json_output_without_rerunning(tmp_path):
    path = tmp_path / "run.jsonl"
    path.write_text(_run_json(_doc("j1")) + "\n", encoding="utf-8")
    out = tmp_path / "j.html"
    assert main(["show", str(path), "-o", str(out)]) == 0  # has rule names: shown as is
    page = out.read_text(encoding="utf-8")
    (arc,) = _arcs_in(page)[0]
    assert arc["rule"] == "ra&co" and 'data-tag="FAMILY"' in page


def test_cli_bad_run_json_line(tmp_path, capsys):
    path = tmp_path / "run.jsonl"
    path.write_text(_run_json(_doc()) + '\n{"id": "x", "text": "t", "mentions": [{}]}\n')
    assert main(["show", str(path)]) == 2
    assert "run.jsonl:2: not a chemie document" in capsys.readouterr().err


def test_show_library_does_not_import_the_command_layer():
    """``chemie.show`` is a library: ``chemie.commands.show`` uses it, never the reverse
    (deferred imports inside functions included)."""
    import ast
    from importlib import resources

    offenders = []
    for path in resources.files("chemie.show").iterdir():
        if not path.name.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names] if isinstance(node, ast.Import)
                else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            )
            offenders += [f"{path.name}: {n}" for n in names if n.startswith("chemie.commands")]
    assert offenders == []


def test_long_names_get_break_points_and_text_is_unchanged():
    name = "2-(3-bromophenyl)-4,6-bis(trifluoromethyl)-1,3,5-triazine"
    text = f"To {name} (1,2 mmol) was added."
    doc = Document("w", text)
    doc.mentions = [Mention("T1", ((3, 3 + len(name)),), "CHEMICAL", kind="chemical")]
    fragment = text_html(doc)
    parser = HtmlParts(fragment)
    assert "".join(parser.text) == text  # <wbr> adds no characters
    pieces = re.sub(r"<[^w][^>]*>", "", fragment).split("<wbr>")  # mention tags dropped
    assert pieces == [
        "To 2-(3-", "bromophenyl)-", "4,", "6-", "bis", "(trifluoromethyl)-", "1,", "3,", "5-",
        "triazine (1,2 mmol) was added.",
    ]
    assert break_points("short (1,2) words-only") == set()


def test_mentions_cut_inside_words_have_no_tag_there_and_square_cut_ends():
    text = "The thiourea salt was dried."
    doc = Document("c", text)
    doc.mentions = [
        Mention("M1", ((0, 9),), "ENTITY", kind="generic", chemdner_class="TRIVIAL"),
        Mention("M2", ((6, 17),), "ENTITY", kind="chemical", chemdner_class="FAMILY"),
    ]
    parser = HtmlParts(text_html(doc))
    spans = [a for _, a in parser.tags]
    m1 = [a for a in spans if a["data-m"] == "M1"]
    m2 = [a for a in spans if a["data-m"] == "M2"]
    assert "data-tag" not in m1[0]  # "The thiou|rea": no class tag inside the word
    assert m2[-1]["data-tag"] == "FAMILY"  # "…salt| was": at a word end
    # M2 crosses M1's end: cut there, no rounded corner on the cut sides
    assert [a["class"].split()[2:] for a in m2] == [["cut-r"], ["cut-l"]]
    assert "o1" in m1[0]["class"]  # M1 encloses a fragment: its underline sits lower


def test_status_column_only_against_gold():
    alone = render_page([(_doc("d1"), None)])
    assert "<th class=\"status\">" not in alone and 'class="status"' not in alone
    compared = render_page([(_doc("d1"), _gold(_doc("d1")))])
    assert compared.count('<th class="status">') == 2  # predicted and gold tables
    assert '<td class="status">correct</td>' in compared


def _toc_rows(page: str) -> list[list[str]]:
    toc = re.search(r'<table class="toc">(.*?)</table>', page).group(1)
    return [re.findall(r"<t[hd]>(.*?)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", toc)]


def test_table_of_contents_has_no_empty_column():
    rows = _toc_rows(render_page([(_doc("a"), _gold(_doc("a"))), (_doc("b"), _gold(_doc("b")))]))
    assert rows[0] == ["document", "mentions", "relations", "gold", "correct", "FP", "FN"]
    assert all(len(r) == len(rows[0]) and all(c != "" for c in r) for r in rows)
    other = _gold(_doc("b"))
    other.text = other.text.upper()
    rows = _toc_rows(render_page([(_doc("a"), _gold(_doc("a"))), (_doc("b"), other)]))
    assert rows[0][-1] == "note" and rows[2][-1] == "gold text differs: not compared"


def test_palette_is_the_one_source_of_kind_and_label_colours():
    page = render_page([(_doc("d1"), None)])
    for k in KINDS:
        assert f".k-{k.name} {{ background: {k.background};" in page
    for r in RELATIONS:
        assert f".l-{slug(r.label)} {{ --c: {r.colour}; }}" in page
    css = resources.files("chemie.show").joinpath("page.css").read_text(encoding="utf-8")
    assert not re.search(r"^\.(k|l)-[a-z-]+ \{", css, re.M)  # none hard-coded in page.css
    legend = re.search(r'<div class="legend">(.*?)</div>', page).group(1)
    assert re.findall(r"k-([a-z]+)", legend) == ["chemical", "generic"]  # palette order


def test_panel_has_a_slot_above_the_text():
    svg = '<svg viewBox="0 0 10 10"><circle cx="5" cy="5" r="4"/></svg>'
    html_ = panel(_doc(), "Predicted", "pred", above=svg)
    assert html_.index('<div class="above">' + svg) < html_.index('<div class="text"')
    assert '<div class="above">' not in panel(_doc(), "Predicted", "pred")


def test_gold_mention_takes_the_kind_of_the_shown_mention_with_its_spans(fixtures, tmp_path):
    gold_path = fixtures / "show" / "gold.jsonl"
    (gold,) = [d for d in read_inputs(gold_path) if d.id == "s1"]
    first = gold.mentions[0]
    (described,) = with_kinds([gold])
    kind = described.mentions[0].kind
    other = "generic" if kind != "generic" else "chemical"  # not what the describer says
    pred = Document("s1", gold.text)
    pred.mentions = [Mention("P1", first.spans, "ENTITY", rule="r", kind=other)]
    run = tmp_path / "run.jsonl"
    run.write_text(_run_json(pred) + "\n", encoding="utf-8")
    out = tmp_path / "page.html"
    assert main(["show", str(run), "--gold", str(gold_path), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    gold_side = page[page.index('<div class="panel gold">'):]
    assert re.search(rf'class="m k-{other}[^"]*" data-m="{first.id}"', gold_side)
