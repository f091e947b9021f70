"""``chemie ner`` at scale: folders and scale options stream text documents via chemie.scale."""

from __future__ import annotations

import json
from pathlib import Path

from chemie.cli import main
from chemie.scale.errorlog import read_errors

TEXTS = Path(__file__).parent / "fixtures" / "scale" / "texts"
FILES = [TEXTS / "s1.txt", TEXTS / "s2.txt", TEXTS / "more" / "s3.txt", TEXTS / "more" / "s4.txt"]


def test_folder_gives_the_rows_of_the_files_one_by_one(tmp_path):
    plain, scaled = tmp_path / "plain.tsv", tmp_path / "scaled.tsv"
    assert main(["ner", *map(str, FILES), "-o", str(plain)]) == 0
    assert main(["ner", str(TEXTS), "-o", str(scaled), "-q"]) == 0
    assert scaled.read_text() == plain.read_text()
    assert len(plain.read_text().splitlines()) > len(FILES)


def test_workers_json_lines_and_bad_documents(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    for f in FILES[:2]:
        (folder / f.name).write_text(f.read_text())
    (folder / "bad.txt").write_bytes(b"\xff\n")
    out = tmp_path / "ner.jsonl"
    argv = ["ner", str(folder), "-o", str(out), "--format", "json", "--workers", "2", "-q"]
    assert main(argv) == 1
    assert "bad.txt:1: not valid UTF-8" in capsys.readouterr().err
    docs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [Path(d["document"]).name for d in docs] == ["s1.txt", "s2.txt"]
    assert all(m["rule"] for d in docs for m in d["mentions"])
    assert [r["id"] for r in read_errors(tmp_path / "ner.jsonl.errors.tsv")] == ["bad"]
