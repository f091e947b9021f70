"""``chemie ner`` at scale: folders and scale options stream text documents via chemie.scale."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

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


ABSTRACTS = "1\tTitle with benzene\tAbstract with toluene.\n2\tCocaine\tCocaine (COC) kills.\n"


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if "partial" in p.name)


def test_chemdner_streams_with_scale_options_and_bad_lines(tmp_path, capsys):
    src = tmp_path / "abs.tsv"
    src.write_text(ABSTRACTS)
    assert main(["ner", str(src), "-o", str(tmp_path / "d")]) == 0
    assert main(["ner", str(src), "--workers", "2", "-o", str(tmp_path / "w2"), "-q"]) == 0
    for part in ("cem", "cdi"):
        assert (tmp_path / f"w2.{part}.tsv").read_text() == (tmp_path / f"d.{part}.tsv").read_text()
    assert {line.split("\t")[0] for line in (tmp_path / "d.cem.tsv").read_text().splitlines()} \
        == {"1", "2"}
    src.write_text(ABSTRACTS + "no tab here\n")
    assert main(["ner", str(src), "-o", str(tmp_path / "bad"), "-q"]) == 1
    assert f"{src}:3: expected PMID" in capsys.readouterr().err
    assert (tmp_path / "bad.cem.tsv").read_text() == (tmp_path / "d.cem.tsv").read_text()
    assert [r["line"] for r in read_errors(tmp_path / "bad.errors.tsv")] == ["3"]
    assert _leftovers(tmp_path) == []


def test_default_and_one_worker_agree_on_a_bad_document(tmp_path, capsys):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes(b"caf\xe9\n")
    argv = ["ner", str(FILES[0]), str(bad), str(FILES[1]), "-q"]
    assert main([*argv, "-o", str(tmp_path / "d.tsv")]) == 1
    assert main([*argv, "-o", str(tmp_path / "w1.tsv"), "--workers", "1"]) == 1
    assert (tmp_path / "d.tsv").read_text() == (tmp_path / "w1.tsv").read_text()
    assert "latin1.txt:1: not valid UTF-8" in capsys.readouterr().err


def test_resume_on_a_finished_output_adds_nothing(tmp_path, capsys):
    for fmt, name in (("tsv", "n.tsv"), ("json", "n.jsonl")):
        out = tmp_path / name
        assert main(["ner", str(TEXTS), "-o", str(out), "--format", fmt, "-q"]) == 0
        first = out.read_text()
        capsys.readouterr()
        assert main(["ner", str(TEXTS), "-o", str(out), "--format", fmt, "--resume"]) == 0
        assert "0 written, 4 already done" in capsys.readouterr().err
        assert out.read_text() == first


def test_a_fatal_error_leaves_no_partial_files(tmp_path, capsys):
    argv = ["ner", str(FILES[0]), str(tmp_path / "missing.txt"), "--workers", "2"]
    assert main([*argv, "-o", str(tmp_path / "w2")]) == 2
    assert "missing.txt: no such file" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_iob_ignores_scale_options_with_a_note(tmp_path, capsys):
    src = tmp_path / "g.iob"
    src.write_text("We\tO\ngave\tO\ncocaine\tB-Chemical\n.\tO\n")
    assert main(["ner", str(src), "--workers", "2", "-o", str(tmp_path / "p.iob")]) == 0
    assert "note: IOB input" in capsys.readouterr().err
    assert len((tmp_path / "p.iob").read_text().split()) == 8


def test_abstracts_that_all_time_out_are_listed_and_exit_1(tmp_path, capsys):
    src = tmp_path / "abs.tsv"
    src.write_text("1\tCaffeine and ethanol.\tWe gave aspirin.\n2\tBenzene\tToluene was used.\n")
    out = tmp_path / "nn"
    assert main(["ner", str(src), "-o", str(out), "--timeout", "1e-6", "--workers", "1"]) == 1
    assert f"bad documents are listed in {tmp_path / 'nn.errors.tsv'}" in capsys.readouterr().err
    assert [r["id"] for r in read_errors(tmp_path / "nn.errors.tsv")] == ["1", "2"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["abs.tsv", "nn.errors.tsv"]


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_table_format_has_one_row_per_mention_like_the_tsv(tmp_path, fmt):
    tsv = tmp_path / "m.tsv"
    assert main(["ner", str(TEXTS), "-o", str(tmp_path / "m.tsv"), "-q"]) == 0
    assert main(["ner", str(TEXTS), "-o", str(tmp_path / "tab"), "--format", fmt, "-q"]) == 0
    tables = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("tab"))
    assert tables == [f"tab.mentions.{fmt}"]  # beside it only the hidden journal .tab...done
    path = tmp_path / f"tab.mentions.{fmt}"
    table = pd.read_csv(path, keep_default_na=False) if fmt == "csv" else pd.read_parquet(path)
    expected = pd.read_csv(tsv, sep="\t", keep_default_na=False)
    assert len(table) == len(expected) > 0
    assert list(table["doc_id"]) == list(expected["document"])
    assert list(table["start"]) == list(expected["start"])
    assert list(table["text"]) == list(expected["text"])
    assert list(table["chemdner_class"]) == list(expected["class"])
    assert list(table["rule"]) == list(expected["rule"])


def test_table_format_needs_an_output_and_text_input(tmp_path, capsys):
    assert main(["ner", str(TEXTS), "--format", "csv"]) == 2
    assert "--format csv needs an output" in capsys.readouterr().err
    src = tmp_path / "abs.tsv"
    src.write_text("1\tCaffeine\tWe gave aspirin.\n")
    assert main(["ner", str(src), "--format", "parquet", "-o", str(tmp_path / "t")]) == 2
    assert "--format parquet is for text input" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [src]


@pytest.mark.parametrize("fmt", ["tsv", "json"])
def test_one_document_or_several_give_one_shape(tmp_path, capsys, fmt):
    """One file used to give a pretty JSON array (or a TSV header) and several JSON lines
    (or, on stdout, TSV blocks with no header and blank lines between them)."""
    printed = {}
    for n in (1, 2, 4):
        assert main(["ner", *map(str, FILES[:n]), "--format", fmt, "-q"]) == 0
        printed[n] = capsys.readouterr().out
        out = tmp_path / f"{n}.out"
        assert main(["ner", *map(str, FILES[:n]), "--format", fmt, "-o", str(out), "-q"]) == 0
        assert out.read_text() == printed[n]  # printed and written alike
        lines = printed[n].splitlines()
        assert "" not in lines
        if fmt == "json":
            assert [Path(json.loads(x)["document"]).name for x in lines] == [
                f.name for f in FILES[:n]]
        else:
            assert lines.count(lines[0]) == 1 and lines[0].startswith("document\tstart")
    assert printed[2].startswith(printed[1]) and printed[4].startswith(printed[2])


@pytest.mark.parametrize(
    ("name", "written"),
    [("m.json", "json"), ("m.jsonl", "json"), ("m.tsv", "tsv"), ("m.txt", "tsv"),
     ("m.csv", "m.mentions.csv")],
)
def test_a_ner_output_name_implies_its_format(tmp_path, name, written):
    assert main(["ner", str(FILES[0]), "-o", str(tmp_path / name), "-q"]) == 0
    if written == "json":
        [doc] = [json.loads(x) for x in (tmp_path / name).read_text().splitlines()]
        assert doc["mentions"]
    elif written == "tsv":
        assert (tmp_path / name).read_text().startswith("document\tstart\tend")
    else:
        assert (tmp_path / written).read_text().startswith("doc_id,mention_id")


def test_a_ner_format_that_contradicts_the_output_name_is_refused(tmp_path, capsys):
    out = tmp_path / "m.json"
    assert main(["ner", str(FILES[0]), "--format", "tsv", "-o", str(out)]) == 2
    assert "a .json name is for json output, not --format tsv" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.slow
def test_sigterm_stops_ner_like_ctrl_c_and_resume_completes_it(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    folder = tmp_path / "in"
    folder.mkdir()
    texts = [f.read_text() for f in FILES]
    for i in range(1500):
        (folder / f"{i:04d}.txt").write_text(texts[i % len(texts)])
    full, cut = tmp_path / "full.tsv", tmp_path / "cut.tsv"
    cmd = [sys.executable, "-m", "chemie", "ner", str(folder), "-q", "--workers", "2", "-o"]
    subprocess.run([*cmd, str(full)], check=True)
    proc = subprocess.Popen([*cmd, str(cut)], stderr=subprocess.PIPE, text=True)
    journal = Path(f"{cut}.partial.done")
    deadline = time.monotonic() + 120
    while not (journal.exists() and journal.stat().st_size) and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "chemie: interrupted; complete documents are kept, --resume continues" in err
    subprocess.run([*cmd, str(cut), "--resume"], check=True)
    assert cut.read_bytes() == full.read_bytes()


@pytest.mark.parametrize("inputs", [[FILES[0]], [TEXTS / "s1.txt", TEXTS / "s2.txt"]])
def test_an_output_that_cannot_be_written_exits_3(tmp_path, capsys, inputs):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["ner", *map(str, inputs), "-o", str(blocker / "m.tsv"), "-q"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"chemie: {blocker}") and "cannot write" in err
