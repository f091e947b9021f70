"""Every command reads every input shape the README lists for any of them, or says in one
line which command reads it; JSON lines split at line feeds only, errors at the column
Python names."""

from __future__ import annotations

import json

import pytest

from chemie.cli import main
from chemie.errors import InputError
from chemie.formats.chemdner import read_annotations
from chemie.formats.reaction_smiles import read_reactions
from chemie.formats.uspto import iter_uspto

PARAGRAPHS = [
    {"id": "p1", "title": "Benzyl benzoate",
     "text": "Benzoic acid (1.2 g) and benzyl bromide (1.9 g) were stirred in DMF (20 mL) "
             "for 3 h. The mixture was filtered to give the title compound."},
    {"id": "p2", "title": "Ethyl acetate",
     "text": "Acetic acid (5 mL) was added to ethanol. The solution was stirred."},
]


def _one_error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def _paragraphs(tmp_path):
    src = tmp_path / "paragraphs.jsonl"
    src.write_text("".join(json.dumps(p) + "\n" for p in PARAGRAPHS), encoding="utf-8")
    return src


def test_run_reads_uspto_paragraphs(tmp_path, capsys):
    src = _paragraphs(tmp_path)
    out = tmp_path / "out.jsonl"
    assert main(["run", str(src), "-o", str(out), "-q", "--workers", "1"]) == 0
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["doc_key"] for line in lines] == ["p1", "p2"]
    # the title is the heading: its words come first
    assert lines[0]["sentences"][0] == ["Benzyl", "benzoate"]
    assert any(lines[0].get(k) for k in ("Coreference", "Transformed", "Work-up"))
    brat = tmp_path / "brat"
    assert main(["run", str(src), "-o", str(brat), "--format", "brat", "-q"]) == 0
    assert sorted(p.name for p in brat.iterdir()) == ["p1.ann", "p1.txt", "p2.ann", "p2.txt"]
    assert capsys.readouterr().err == ""


def test_run_resumes_uspto_paragraphs_by_their_ids(tmp_path):
    src = _paragraphs(tmp_path)
    out = tmp_path / "out.jsonl"
    assert main(["run", str(src), "-o", str(out), "-q", "--workers", "1"]) == 0
    first = out.read_text(encoding="utf-8")
    assert main(["run", str(src), "-o", str(out), "-q", "--resume"]) == 0
    assert out.read_text(encoding="utf-8") == first


@pytest.mark.parametrize("command", ["run", "reactions"])
def test_reaction_records_name_the_commands_that_read_them(tmp_path, capsys, command):
    src = tmp_path / "records.jsonl"
    src.write_text(json.dumps({"id": "a", "reactants": ["CCO"], "reagents": [],
                               "products": ["CC=O"]}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main([command, str(src), "-o", str(out), "--no-structures" if command ==
                 "reactions" else "-q"]) == 2
    err = _one_error(capsys)
    assert f"{src}: reaction records without text" in err
    assert "`chemie show`" in err and "`chemie score reactions`" in err
    assert not out.exists()


@pytest.mark.parametrize(("name", "reader"), [
    ("x.rsmi", "chemie score reactions"), ("x.tsv", "chemie ner"), ("x.xml", "chemie rc"),
    ("x.ann", "chemie show"),
])
@pytest.mark.parametrize("command", ["run", "reactions", "show"])
def test_other_shapes_name_the_command_that_reads_them(tmp_path, capsys, name, reader,
                                                       command):
    src = tmp_path / name
    src.write_text("a\tb\n", encoding="utf-8")
    if name.endswith(".ann"):
        if command == "show":
            return  # chemie show reads a .ann (with its .txt)
        (tmp_path / "x.txt").write_text("a b\n", encoding="utf-8")
    assert main([command, str(src)]) == 2
    err = _one_error(capsys)
    assert "unknown input type" in err and f"`{reader}" in err


def test_chemu_ref_readers_name_uspto_paragraphs(tmp_path, capsys):
    src = _paragraphs(tmp_path)
    assert main(["score", "anaphora", str(src), str(src)]) == 2
    err = _one_error(capsys)
    assert f"{src}:1: missing key 'doc_key'" in err and "`chemie run`" in err


def test_json_lines_split_at_line_feeds_only(tmp_path):
    # U+2028, U+0085 and a form feed are legal inside a JSON string; str.splitlines() would
    # cut the line there
    text = "Benzoic acid\u2028was added\u0085to the\x0cmixture."
    src = tmp_path / "p.jsonl"
    src.write_text(json.dumps({"id": "p1", "title": "T", "text": text, "reactants": ["CCO"],
                               "reagents": [], "products": ["CC=O"]}, ensure_ascii=False)
                   + "\n" + json.dumps({"id": "p2", "title": "U", "text": "x",
                                        "reactants": [], "reagents": [], "products": ["C"]})
                   + "\n", encoding="utf-8")
    docs = list(iter_uspto(src))
    assert [d.id for d in docs] == ["p1", "p2"] and docs[0].text == "T\n" + text
    assert read_reactions(src).reactions["p2"].line == 2
    gold = tmp_path / "gold.tsv"
    gold.write_text("1\tA\t0\t5\tWater\tTRIVIAL\n2\tA\t0\t3\tf\u2028o\tX\n", encoding="utf-8")
    assert [a.pmid for a in read_annotations(gold)] == ["1", "2"]


@pytest.mark.parametrize("command", [
    ["score", "reactions", "{src}", "{src}"], ["reactions", "{src}", "--no-structures"],
    ["run", "{src}"], ["show", "{src}", "--no-run"],
])
def test_a_json_error_names_the_column_python_names(tmp_path, capsys, command):
    line = ('{"id": "p1", "title": "T", "text": "Benzoic acid\u2028was added", '
            '"reactants": [], "reagents": [], "products": nope}')
    with pytest.raises(json.JSONDecodeError) as e:
        json.loads(line)
    src = tmp_path / "p.jsonl"
    src.write_text(line + "\n", encoding="utf-8")
    assert main([a.format(src=src) for a in command]) == 2
    err = _one_error(capsys)
    assert f"{src}:1:" in err and f"column {e.value.colno})" in err


def test_scierc_json_errors_name_the_column(tmp_path):
    from chemie.formats.scierc import read

    src = tmp_path / "s.json"
    src.write_text('{"doc_key": "d", "sentences": [["a"]], "ner": [[]], "relations": x}\n')
    with pytest.raises(InputError, match=r"s.json:1: bad JSON: Expecting value \(column 66\)"):
        read(src)
