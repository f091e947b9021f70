"""``chemie reactions``: JSON lines per reaction, bad documents listed, inputs never overwritten."""

from __future__ import annotations

import json

import pytest

from chemie.cli import main
from chemie.model.reaction import Reaction

PARAGRAPH = {"id": "p1", "title": "Benzyl benzoate",
             "text": "Benzoic acid (1.2 g) and benzyl bromide (1.9 g) were stirred in DMF "
                     "(20 mL) with potassium carbonate (2.8 g) for 3 h to give the title "
                     "compound (1.9 g)."}


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_uspto_jsonl_to_json_lines(tmp_path):
    src = _write(tmp_path / "in.jsonl", [PARAGRAPH])
    out = tmp_path / "out.jsonl"
    assert main(["reactions", str(src), "-o", str(out), "--no-structures"]) == 0
    [line] = out.read_text(encoding="utf-8").splitlines()
    record = Reaction.from_dict(json.loads(line))
    assert record.doc_id == "p1" and record.id == "p1-1"
    assert [c.name for c in record.products] == ["Benzyl benzoate"]
    assert {c.name for c in record.components()} >= {"Benzoic acid", "benzyl bromide"}


def test_text_files_and_stdout(tmp_path, capsys):
    txt = tmp_path / "s1.txt"
    txt.write_text("Benzyl benzoate\n" + PARAGRAPH["text"], encoding="utf-8")
    assert main(["reactions", str(txt), "--no-structures"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["doc_id"] for line in out] == ["s1"]


def test_a_bad_document_is_listed_and_the_run_goes_on(tmp_path, capsys):
    src = _write(tmp_path / "in.jsonl", [PARAGRAPH, {"id": "p2", "text": 7}])
    out = tmp_path / "out.jsonl"
    assert main(["reactions", str(src), "-o", str(out), "--no-structures"]) == 1
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1
    errors = (tmp_path / "out.jsonl.errors.tsv").read_text(encoding="utf-8")
    assert "'text' must be a string" in errors
    assert f"{src}:2: 'text' must be a string" in capsys.readouterr().err


def test_refuses_to_overwrite_an_input(tmp_path, capsys):
    src = _write(tmp_path / "in.jsonl", [PARAGRAPH])
    before = src.read_bytes()
    assert main(["reactions", str(src), "-o", str(src), "--no-structures"]) == 2
    assert src.read_bytes() == before
    assert "in.jsonl" in capsys.readouterr().err


def test_missing_input(tmp_path):
    with pytest.raises(SystemExit) as e:
        main(["reactions"])
    assert e.value.code == 2
    assert main(["reactions", str(tmp_path / "nope.jsonl")]) == 2


def test_a_line_that_is_not_utf8_is_listed(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_bytes(json.dumps(PARAGRAPH).encode() + b"\n" + b'{"id": "b", "text": "\xff"}\n')
    out = tmp_path / "out.jsonl"
    assert main(["reactions", str(src), "-o", str(out), "--no-structures"]) == 1
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1
    assert "not valid UTF-8" in (tmp_path / "out.jsonl.errors.tsv").read_text(encoding="utf-8")
