"""``chemie ner``: text, CHEMDNER and IOB inputs; bad input gives one line and no output."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest

from chemie.cli import main
from chemie.commands.ner import detect_format
from chemie.formats.chemdner import read_cdi, read_cem
from chemie.formats.iob import read_iob

TEXT = "Tetrahydrofuran (THF) was added to K2CO3.\nThe THF was removed.\n"


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_text_to_tsv(tmp_path):
    src = _write(tmp_path, "a.txt", TEXT)
    out = tmp_path / "m.tsv"
    assert main(["ner", str(src), "-o", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == [
        "document", "start", "end", "text", "class", "confidence", "rule"]
    rows = [line.split("\t") for line in lines[1:]]
    for row in rows:
        assert TEXT[int(row[1]) : int(row[2])] == row[3]
    assert [r[3] for r in rows] == ["Tetrahydrofuran", "THF", "K2CO3", "THF"]


def test_text_to_json(tmp_path, capsys):
    src = _write(tmp_path, "a.txt", TEXT)
    assert main(["ner", str(src), "--format", "json"]) == 0
    [payload] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    mentions = payload["mentions"]  # one JSON line per document, however many there are
    assert payload["document"] == str(src)
    assert {m["class"] for m in mentions} == {"TRIVIAL", "ABBREVIATION", "FORMULA"}
    assert all(m["rule"] for m in mentions)


def test_chemdner_to_cem_and_cdi(tmp_path):
    title = "Cocaine and 5-fluorouracil"
    abstract = "5-Fluorouracil (5-FU) and cocaine were given; 5-FU was toxic."
    src = _write(tmp_path, "abstracts.tsv", f"123\t{title}\t{abstract}\n")
    assert main(["ner", str(src), "-o", str(tmp_path / "out" / "pred")]) == 0
    cem = read_cem(tmp_path / "out" / "pred.cem.tsv")
    cdi = read_cdi(tmp_path / "out" / "pred.cdi.tsv")
    texts = {title, abstract}
    for c in cem:
        part_text = title if c.part == "T" else abstract
        assert part_text[c.start : c.end]
        assert part_text in texts
    assert [c.rank for c in cem] == list(range(1, len(cem) + 1))
    assert ("T", 0, 7) in {(c.part, c.start, c.end) for c in cem}
    assert {"Cocaine", "5-FU"} <= {c.name for c in cdi}
    assert len({c.name for c in cdi}) == len(cdi)


def test_chemdner_output_folder(tmp_path):
    src = _write(tmp_path, "abs.tsv", "1\tCocaine\tCocaine kills.\n")
    folder = tmp_path / "preds"
    folder.mkdir()
    assert main(["ner", str(src), "-o", str(folder)]) == 0
    assert (folder / "abs.cem.tsv").exists() and (folder / "abs.cdi.tsv").exists()


def test_iob_keeps_tokens_and_scores(tmp_path, capsys):
    gold = _write(
        tmp_path, "g.tsv",
        "Selegiline\tB-Chemical\n-\tO\ninduced\tO\nhypotension\tO\n.\tO\n\n"
        "We\tO\ngave\tO\ncocaine\tB-Chemical\n.\tO\n",
    )
    pred = tmp_path / "p.tsv"
    assert main(["ner", str(gold), "-o", str(pred)]) == 0
    g, p = read_iob(gold), read_iob(pred)
    assert [s.words for s in g] == [s.words for s in p]
    assert main(["score", "iob", str(gold), str(pred)]) == 0
    assert "overall" in capsys.readouterr().out


def test_detect_format(tmp_path):
    assert detect_format(tmp_path / "a.txt", "Some text.\n") == "text"
    assert detect_format(tmp_path / "a.tsv", "word\tO\n") == "iob"
    assert detect_format(tmp_path / "a.tsv", "1\ttitle\tabstract\n") == "chemdner"
    assert detect_format(tmp_path / "a.iob", "x\n") == "iob"


def test_input_format_override(tmp_path):
    src = _write(tmp_path, "a.data", "1\tCocaine\tCocaine kills.\n")
    assert main(["ner", str(src), "--input-format", "chemdner", "-o", str(tmp_path / "x")]) == 0
    assert (tmp_path / "x.cem.tsv").exists()


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("bin.txt", b"\x00\x01\x02", "binary"),
        ("latin.txt", b"caf\xe9\n", "latin.txt:1: not valid UTF-8"),
        ("bad.iob", b"word\tO\nnotab\n", "bad.iob:2: expected token<TAB>tag"),
        ("bad.tsv", b"\ttitle\tabstract\n", "bad.tsv:1: empty PMID"),
    ],
)
def test_bad_input_one_line_and_no_output(tmp_path, capsys, name, data, message):
    src = tmp_path / name
    src.write_bytes(data)
    out = tmp_path / "out.tsv"
    assert main(["ner", str(src), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not out.exists()
    assert not list(tmp_path.glob("out*"))


def test_empty_text_warns_and_gives_an_empty_result(tmp_path, capsys):
    src = _write(tmp_path, "empty.txt", "")
    out = tmp_path / "out.tsv"
    assert main(["ner", str(src), "-o", str(out)]) == 0
    assert "warning: empty document" in capsys.readouterr().err
    assert out.read_text().splitlines() == ["document\tstart\tend\ttext\tclass\tconfidence\trule"]


def test_bc5cdr_devel_slice_round_trips(tmp_path, corpus):
    path = corpus("bc5cdr-chem/devel.tsv")
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)[:2000]
    gold = tmp_path / "slice.tsv"
    gold.write_text("".join(lines), encoding="utf-8")
    pred = tmp_path / "pred.tsv"
    assert main(["ner", str(gold), "-o", str(pred)]) == 0
    g, p = read_iob(gold), read_iob(pred)
    assert [s.words for s in g] == [s.words for s in p]
    assert any(t != "O" for s in p for t in s.tags)


@pytest.mark.parametrize("fmt", ["tsv", "parquet"])
def test_a_file_name_that_is_not_utf8_is_written_with_escapes(tmp_path, fmt):
    folder = tmp_path / "in"
    folder.mkdir()
    with open(os.fsencode(folder) + b"/caf\xe9.txt", "w", encoding="utf-8") as fh:
        fh.write("Water was added.\n")
    out = tmp_path / "out"
    assert main(["ner", str(folder), "--format", fmt, "-o", str(out), "-q"]) == 0
    if fmt == "tsv":
        names = {line.split("\t")[0] for line in out.read_text(encoding="utf-8").splitlines()[1:]}
    else:
        names = set(pd.read_parquet(tmp_path / "out.mentions.parquet")["doc_id"])
    assert names == {f"{folder}/caf\\xe9.txt"}


def test_a_chemu_ref_jsonl_is_refused_with_what_to_run_instead(tmp_path, capsys):
    line = '{"doc_key": "a", "sentences": [["Water", "was", "added", "."]]}\n'
    src = _write(tmp_path, "in.jsonl", line)
    assert main(["ner", str(src), "-o", str(tmp_path / "out.tsv")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"chemie: {src}: ")
    assert "chemie run" in err and "--input-format text" in err
    assert not (tmp_path / "out.tsv").exists()
    assert main(["ner", str(src), "--input-format", "text"]) == 0  # as plain text on request


def test_chemdner_output_to_a_new_folder_named_with_a_trailing_slash(tmp_path):
    src = _write(tmp_path, "abs.tsv", "1\tCocaine\tCocaine kills.\n")
    folder = tmp_path / "preds"
    assert main(["ner", str(src), "-o", f"{folder}/", "-q"]) == 0
    assert sorted(p.name for p in folder.glob("[!.]*")) == ["abs.cdi.tsv", "abs.cem.tsv"]
