"""``chemie run``: inputs and outputs, bad input, workers, resume after a kill, Dask."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from chemie.cli import main
from chemie.formats.brat import read_brat_dir
from chemie.formats.chemu import read_chemu
from chemie.formats.tabular import read_tables
from chemie.scale.errorlog import read_errors

SCALE = Path(__file__).parent / "fixtures" / "scale"


def _slice(corpus, tmp_path: Path, n: int) -> Path:
    """The first ``n`` ChEMU-Ref training snippets as a jsonl file."""
    lines = corpus("chemu-ref/train.jsonl").read_text(encoding="utf-8").splitlines()[:n]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_no_input_runs_the_bundled_example(capsys):
    assert main(["run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# example")
    assert "Mentions (" in out and "Links (" in out


def test_text_folder_to_brat_with_rule_notes(tmp_path):
    out = tmp_path / "brat"
    assert main(["run", str(SCALE / "texts"), "-o", str(out), "-q"]) == 0
    names = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.ann"))
    assert names == ["more/s3.ann", "more/s4.ann", "s1.ann", "s2.ann"]
    assert (out / "more" / "s3.txt").read_text() == (SCALE / "texts/more/s3.txt").read_text()
    docs = list(read_brat_dir(out))
    assert any(d.relations for d in docs)
    assert all(m.rule for d in docs for m in d.mentions)
    assert all(r.rule for d in docs for r in d.relations)
    assert not (tmp_path / "brat.errors.tsv").exists()


def test_jsonl_to_chemu_keeps_input_tokens_and_scores_directly(corpus, tmp_path, capsys):
    src = _slice(corpus, tmp_path, 30)
    out = tmp_path / "pred.jsonl"
    assert main(["run", str(src), "-o", str(out), "-q", "--workers", "1"]) == 0
    pred = [json.loads(line) for line in out.read_text().splitlines()]
    gold = [json.loads(line) for line in src.read_text().splitlines()]
    assert [p["sentences"] for p in pred] == [g["sentences"] for g in gold]
    assert [p["doc_key"] for p in pred] == [g["doc_key"] for g in gold]
    assert sum(len(p["Work-up"]) for p in pred) > 0
    capsys.readouterr()
    assert main(["score", "anaphora", str(src), str(out)]) == 0
    assert "WORK_UP" in capsys.readouterr().out


def test_two_workers_give_the_single_process_output(corpus, tmp_path):
    src = _slice(corpus, tmp_path, 150)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["run", str(src), "-o", str(one), "-q", "--workers", "1"]) == 0
    assert main(["run", str(src), "-o", str(two), "-q", "--workers", "2"]) == 0
    assert one.read_bytes() == two.read_bytes()


def test_chemu2020_format_writes_the_roles(tmp_path):
    out = tmp_path / "roles"
    assert main(["run", str(SCALE / "texts" / "s1.txt"), "-o", str(out), "--format",
                 "chemu2020", "-q", "--workers", "1"]) == 0
    ann = (out / "s1.ann").read_text(encoding="utf-8")
    labels = {line.split("\t")[1].split()[0] for line in ann.splitlines() if line.startswith("T")}
    assert labels & {"STARTING_MATERIAL", "REAGENT_CATALYST", "SOLVENT", "REACTION_PRODUCT"}


def test_json_csv_and_parquet_outputs(tmp_path):
    texts = str(SCALE / "texts")
    assert main(["run", texts, "-o", str(tmp_path / "all.jsonl"), "--format", "json", "-q"]) == 0
    docs = [json.loads(line) for line in (tmp_path / "all.jsonl").read_text().splitlines()]
    assert [d["id"] for d in docs] == ["s1", "s2", "more/s3", "more/s4"]
    assert all(m["rule"] for d in docs for m in d["mentions"])
    assert all(r["rule"] for d in docs for r in d["relations"])
    n_relations = sum(len(d["relations"]) for d in docs)
    assert main(["run", texts, "-o", str(tmp_path / "t"), "--format", "csv", "-q"]) == 0
    assert len(pd.read_csv(tmp_path / "t.relations.csv")) == n_relations
    assert main(["run", texts, "-o", str(tmp_path / "t"), "--format", "parquet", "-q"]) == 0
    mentions = pd.read_parquet(tmp_path / "t.mentions.parquet")
    assert len(mentions) == sum(len(d["mentions"]) for d in docs)
    assert mentions["rule"].notna().all()


def test_non_utf8_text_is_one_line_error_and_no_output(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"Water (5 ml) was added.\n\xff\xfe\n")
    out = tmp_path / "out"
    assert main(["run", str(bad), "-o", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2: not valid UTF-8" in err and "Traceback" not in err
    assert not out.exists()


def test_empty_text_warns_and_gives_an_empty_result(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    out = tmp_path / "out"
    assert main(["run", str(empty), "-o", str(out), "-q"]) == 0
    err = capsys.readouterr().err
    assert "empty document" in err
    assert (out / "empty.ann").read_text() == ""
    # a warning is not an error: no errors file, and no claim that one lists it
    assert not (tmp_path / "out.errors.tsv").exists() and "listed in" not in err


def test_bad_documents_are_listed_and_the_run_goes_on(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.txt").write_text((SCALE / "texts" / "s2.txt").read_text())
    (folder / "latin.txt").write_bytes(b"caf\xe9 au lait\n")
    (folder / "orphan.ann").write_text("T1\tCHEM 0 4\tcafe\n")
    out = tmp_path / "out"
    assert main(["run", str(folder), "-o", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert "2 failed" in err and "Traceback" not in err
    rows = read_errors(tmp_path / "out.errors.tsv")
    assert [(Path(r["file"]).name, r["level"]) for r in rows] == [
        ("latin.txt", "error"), ("orphan.ann", "error"),
    ]
    assert sorted(p.name for p in out.iterdir()) == ["good.ann", "good.txt"]


def test_a_folder_without_documents_is_an_error(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "notes.md").write_text("nothing here")
    assert main(["run", str(tmp_path / "in"), "-o", str(tmp_path / "out"), "-q"]) == 2
    assert "no documents" in capsys.readouterr().err


def test_malformed_jsonl_lines_are_reported_with_line_numbers(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    good = (SCALE / "snippets.jsonl").read_text().splitlines()
    src.write_text("\n".join([good[0], '{"doc_key": "x"', '{"doc_key": "y"}', good[1]]) + "\n")
    out = tmp_path / "out.jsonl"
    assert main(["run", str(src), "-o", str(out), "-q"]) == 1
    assert f"{src}:3: missing key 'sentences'" in capsys.readouterr().err
    assert [r["line"] for r in read_errors(tmp_path / "out.jsonl.errors.tsv")] == ["2", "3"]
    assert len(out.read_text().splitlines()) == 2


@pytest.mark.parametrize(
    "argv, message",
    [
        (["nowhere.jsonl", "-o", "o"], "no such file"),
        ([str(SCALE / "texts"), str(SCALE / "snippets.jsonl"), "-o", "o"], "mixed"),
        ([str(SCALE / "snippets.jsonl"), "-o", str(SCALE / "snippets.jsonl")], "overwrite"),
        ([str(SCALE / "texts"), "-o", str(SCALE / "texts" / "out")], "inside the input"),
    ],
)
def test_fatal_input_errors_exit_2(argv, message, capsys):
    assert main(["run", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def _chemie(*args: str) -> list[str]:
    return [sys.executable, "-m", "chemie", "run", *args]


@pytest.mark.slow
def test_resume_after_a_kill_gives_the_uninterrupted_output(corpus, tmp_path):
    src = _slice(corpus, tmp_path, 600)
    full, cut = tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    subprocess.run(_chemie(str(src), "-o", str(full), "-q", "--workers", "1"), check=True)
    proc = subprocess.Popen(
        _chemie(str(src), "-o", str(cut), "-q", "--workers", "2"), start_new_session=True
    )
    partial = Path(str(cut) + ".partial")
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        if partial.exists() and partial.stat().st_size > 0:
            os.killpg(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.02)
    proc.wait()
    if proc.returncode == -signal.SIGKILL:
        assert not cut.exists()
    done = subprocess.run(_chemie(str(src), "-o", str(cut), "--resume", "--workers", "2"),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert cut.read_bytes() == full.read_bytes()
    if proc.returncode == -signal.SIGKILL:
        assert "already done (resumed)" in done.stderr


@pytest.mark.slow
def test_dask_engine_gives_the_single_process_output(corpus, tmp_path):
    src = _slice(corpus, tmp_path, 40)
    one, dask = tmp_path / "one.jsonl", tmp_path / "dask.jsonl"
    assert main(["run", str(src), "-o", str(one), "-q", "--workers", "1"]) == 0
    argv = ["run", str(src), "-o", str(dask), "-q", "--engine", "dask", "--workers", "2"]
    assert main(argv) == 0
    assert one.read_bytes() == dask.read_bytes()


@pytest.mark.parametrize(
    "name, data, fmt, existing",
    [
        ("latin1.txt", b"caf\xe9\n", ["--format", "chemu"], ["pre.jsonl"]),
        ("allbad.jsonl", b"not json\n", [], ["pre.jsonl"]),
        ("allbad.jsonl", b"not json\n", ["--format", "csv"],
         ["pre.mentions.csv", "pre.relations.csv"]),
    ],
)
def test_a_failed_run_leaves_existing_outputs_untouched(
    tmp_path, capsys, name, data, fmt, existing
):
    src = tmp_path / name
    src.write_bytes(data)
    for e in existing:
        (tmp_path / e).write_text("PRE\n")
    (tmp_path / "pre.jsonl.errors.tsv").write_text("OLD\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    out = tmp_path / ("pre" if "csv" in fmt else "pre.jsonl")
    assert main(["run", str(src), *fmt, "-o", str(out), "-q"]) == 2
    err = capsys.readouterr().err
    assert f"{src}:1:" in err and "listed in" not in err  # one document: its error alone
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    for e in existing:
        assert (tmp_path / e).read_text() == "PRE\n"
    assert (tmp_path / "pre.jsonl.errors.tsv").read_text() == "OLD\n"


def test_an_empty_jsonl_file_warns_and_gives_an_empty_result(tmp_path, capsys):
    src = tmp_path / "empty.jsonl"
    src.write_text("")
    out = tmp_path / "out.jsonl"
    assert main(["run", str(src), "-o", str(out), "-q"]) == 0
    assert "warning: no documents" in capsys.readouterr().err
    assert out.read_text() == ""


@pytest.mark.parametrize(
    "argv", [["--timeout", "-1"], ["--workers", "-2"], ["--workers", "0"], ["--timeout", "x"]]
)
def test_negative_scale_options_are_argument_errors(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(["run", str(SCALE / "snippets.jsonl"), *argv])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"error: argument {argv[0]}" in err and "Traceback" not in err


def test_when_every_document_fails_the_errors_file_lists_them(tmp_path, capsys):
    for name in ("latin1.txt", "l2.txt"):
        (tmp_path / name).write_bytes(b"caf\xe9\n")
    out = tmp_path / "pre2"
    argv = ["run", str(tmp_path / "latin1.txt"), str(tmp_path / "l2.txt"), "--format", "csv"]
    assert main([*argv, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    errors = tmp_path / "pre2.errors.tsv"
    assert f"bad documents are listed in {errors}" in err
    assert [Path(r["file"]).name for r in read_errors(errors)] == ["latin1.txt", "l2.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["l2.txt", "latin1.txt", errors.name]


def test_an_earlier_errors_file_is_kept_and_not_claimed(tmp_path, capsys):
    for name in ("latin1.txt", "l2.txt"):
        (tmp_path / name).write_bytes(b"caf\xe9\n")
    errors = tmp_path / "pre2.errors.tsv"
    errors.write_text("OLD\n")
    argv = ["run", str(tmp_path / "latin1.txt"), str(tmp_path / "l2.txt"), "--format", "json"]
    assert main([*argv, "-o", str(tmp_path / "pre2")]) == 2
    assert "listed in" not in capsys.readouterr().err
    assert errors.read_text() == "OLD\n"


def test_a_run_where_every_document_timed_out_exits_1(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    argv = ["run", str(SCALE / "texts"), "--format", "json", "--timeout", "1e-6", "--workers", "1"]
    assert main([*argv, "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "timed out" in err and f"listed in {tmp_path / 'out.jsonl.errors.tsv'}" in err
    assert not out.exists()
    rows = read_errors(tmp_path / "out.jsonl.errors.tsv")
    assert rows and all("timed out" in r["message"] for r in rows)


@pytest.mark.parametrize("fmt", ["json", "csv", "brat"])
def test_a_repeated_document_id_fails_alone_and_folder_ids_are_relative_paths(
    tmp_path, capsys, fmt
):
    nest = tmp_path / "nest"
    (nest / "sub").mkdir(parents=True)
    (nest / "a.txt").write_text("The solution was stirred.\n")
    (nest / "sub" / "a.txt").write_text("Water was added.\n")
    files = [str(nest / "a.txt"), str(nest / "sub" / "a.txt")]
    out = tmp_path / "by-name"
    assert main(["run", *files, "--format", fmt, "-o", str(out), "-q"]) == 1
    assert "document id 'a' already written in this run" in capsys.readouterr().err
    rows = read_errors(tmp_path / "by-name.errors.tsv")
    assert [r["file"] for r in rows] == [files[1]]
    out = tmp_path / "by-folder"
    assert main(["run", str(nest), "--format", fmt, "-o", str(out), "-q"]) == 0
    if fmt == "json":
        ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    elif fmt == "csv":
        ids = list(dict.fromkeys(pd.read_csv(tmp_path / "by-folder.mentions.csv")["doc_id"]))
    else:
        ids = sorted(p.relative_to(out).with_suffix("").as_posix() for p in out.rglob("*.ann"))
    assert ids == ["a", "sub/a"]


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_table_runs_errors_file_is_named_like_its_tables(tmp_path, fmt):
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9\n")
    (tmp_path / "ok.txt").write_text("Water was added to the flask.\n")
    out = tmp_path / f"pre.{fmt}"
    files = [str(tmp_path / "latin1.txt"), str(tmp_path / "ok.txt")]
    assert main(["run", *files, "--format", fmt, "-o", str(out), "-q"]) == 1
    assert (tmp_path / f"pre.mentions.{fmt}").exists()
    rows = read_errors(tmp_path / "pre.errors.tsv")
    assert [Path(r["file"]).name for r in rows] == ["latin1.txt"]
    assert not (tmp_path / f"pre.{fmt}.errors.tsv").exists()


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_resume_on_finished_tables_adds_nothing(tmp_path, capsys, fmt):
    out = tmp_path / f"t.{fmt}"
    argv = ["run", str(SCALE / "texts"), "--format", fmt, "-o", str(out)]
    assert main([*argv, "-q"]) == 0
    first = read_tables(tmp_path / "t", fmt)
    assert main([*argv, "--resume"]) == 0
    err = capsys.readouterr().err
    assert "not supported" not in err and "0 written" in err
    assert all(a.equals(b) for a, b in zip(first, read_tables(tmp_path / "t", fmt), strict=True))


def test_a_repeated_doc_key_fails_alone_in_chemu_output_too(tmp_path, capsys):
    line = (SCALE / "snippets.jsonl").read_text(encoding="utf-8").splitlines()[0]
    src = tmp_path / "in.jsonl"
    src.write_text(f"{line}\n{line}\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["run", str(src), "-o", str(out), "-q", "--workers", "1"]) == 1
    assert "document id '0001' already written in this run" in capsys.readouterr().err
    assert [r["line"] for r in read_errors(tmp_path / "out.jsonl.errors.tsv")] == ["2"]
    assert [json.loads(x)["doc_key"] for x in out.read_text().splitlines()] == ["0001"]
    gold = tmp_path / "gold.jsonl"
    gold.write_text(line + "\n", encoding="utf-8")
    assert main(["score", "anaphora", str(gold), str(out)]) == 0  # the output can be scored


def _children(pid: int) -> set[int]:
    """The ids of the live child processes of ``pid`` (Linux /proc)."""
    kids = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        kids.update(map(int, (task / "children").read_text().split()))
    return kids


def _alive(pid: int) -> bool:
    """True while process ``pid`` runs (neither gone nor a zombie)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_pool_workers_end_when_the_run_is_killed(tmp_path):
    lines = (SCALE / "snippets.jsonl").read_text(encoding="utf-8").splitlines()
    src = tmp_path / "in.jsonl"
    with open(src, "w", encoding="utf-8") as fh:
        for i in range(3000):
            fh.write(json.dumps({**json.loads(lines[i % len(lines)]), "doc_key": str(i)}) + "\n")
    out = tmp_path / "out.jsonl"
    proc = subprocess.Popen(
        _chemie(str(src), "-o", str(out), "-q", "--workers", "2"), start_new_session=True
    )
    try:
        partial = Path(str(out) + ".partial")
        deadline = time.monotonic() + 60
        while not (partial.exists() and partial.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.02)
        workers = _children(proc.pid)
        assert len(workers) >= 2 and proc.poll() is None
        proc.kill()  # the run alone, as `kill -9 PID` or the OOM killer does
        proc.wait()
        deadline = time.monotonic() + 20
        while workers and time.monotonic() < deadline:
            workers = set(filter(_alive, workers))
            time.sleep(0.1)
        assert not workers, "worker processes outlived the run"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.parametrize("fmt", ["brat", "json", "csv", "parquet"])
def test_file_names_that_are_not_utf8_name_documents_with_escapes(tmp_path, capsys, fmt):
    folder = tmp_path / "in"
    folder.mkdir()
    raw = os.fsencode(folder)
    with open(raw + b"/caf\xe9.txt", "w", encoding="utf-8") as fh:
        fh.write("Water (5 mL) was added to the solution. The mixture was stirred.\n")
    with open(raw + b"/bad\xff.txt", "wb") as fh:
        fh.write(b"Water \xff was added.\n")
    out = tmp_path / "out"
    assert main(["run", str(folder), "--format", fmt, "-o", str(out), "-q", "--workers", "1"]) == 1
    err = capsys.readouterr().err
    assert "bad\\udcff.txt:1: not valid UTF-8 (byte 0xff)" in err and "Traceback" not in err
    [row] = read_errors(tmp_path / "out.errors.tsv")
    assert (row["id"], row["file"].endswith("bad\\udcff.txt")) == ("bad\\xff", True)
    if fmt == "brat":
        ids = [p.stem for p in out.glob("*.ann")]
    elif fmt == "json":
        ids = [json.loads(x)["id"] for x in out.read_text(encoding="utf-8").splitlines()]
    else:
        ids = list(set(read_tables(out, fmt)[0]["doc_id"]))
    assert ids == ["caf\\xe9"]
    os.unlink(raw + b"/bad\xff.txt")
    html = tmp_path / "page.html"
    assert main(["show", str(folder), "-o", str(html)]) == 0
    assert "caf\\xe9" in html.read_text(encoding="utf-8")


def test_a_reader_that_stops_early_ends_the_run_quietly(tmp_path):
    lines = (SCALE / "snippets.jsonl").read_text(encoding="utf-8").splitlines()
    src = tmp_path / "in.jsonl"
    src.write_text("".join(
        json.dumps({**json.loads(lines[i % len(lines)]), "doc_key": str(i)}) + "\n"
        for i in range(400)
    ), encoding="utf-8")
    proc = subprocess.Popen(  # like `chemie run in.jsonl | head -1`
        _chemie(str(src), "--workers", "1"), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout.readline().startswith(b"# ")
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert (proc.wait(), err) == (0, "")


def test_text_input_to_chemu_output_puts_the_links_on_its_tokens(tmp_path):
    src = tmp_path / "one.txt"
    src.write_text("Acetic acid (9.8 ml) was added to the solution in a flask.\n\n"
                   "The mixture was stirred at 50°C, and\tconcentrated.\n", encoding="utf-8")
    out, js = tmp_path / "out.jsonl", tmp_path / "out.json"
    assert main(["run", str(src), "--format", "chemu", "-o", str(out), "-q"]) == 0
    assert main(["run", str(src), "--format", "json", "-o", str(js), "-q"]) == 0
    [doc] = read_chemu(out)
    [full] = [json.loads(line) for line in js.read_text(encoding="utf-8").splitlines()]
    assert [t.text for t in doc.tokens] == [t["text"] for t in full["tokens"]]
    texts = {m["id"]: m["text"] for m in full["mentions"]}
    expected = {(r["label"], texts[r["head"]], texts[r["tail"]]) for r in full["relations"]}
    index = doc.mention_index()
    squeeze = str.maketrans("", "", " \t\n")
    found = {(r.label, index[r.head].text, index[r.tail].text) for r in doc.relations}
    assert expected and {(a, b.translate(squeeze), c.translate(squeeze)) for a, b, c in found} \
        == {(a, b.translate(squeeze), c.translate(squeeze)) for a, b, c in expected}


def test_an_empty_text_gives_an_empty_chemu_document_with_a_warning(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("Water was added to the flask.\n", encoding="utf-8")
    (folder / "b.txt").write_text(" \n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["run", str(folder), "--format", "chemu", "-o", str(out), "-q"]) == 0
    assert "b.txt: warning: empty document" in capsys.readouterr().err
    assert [(d.id, d.tokens) for d in read_chemu(out)][1] == ("b", [])


def test_an_output_written_with_a_trailing_slash_is_a_folder(tmp_path, capsys):
    src = SCALE / "snippets.jsonl"
    tables = tmp_path / "tables"
    assert main(["run", str(src), "--format", "csv", "-o", f"{tables}/", "-q"]) == 0
    assert sorted(p.name for p in tables.glob("[!.]*")) == [
        "mentions.csv", "relations.csv", "roles.csv"]
    assert main(["run", str(src), "-o", f"{tmp_path / 'pred'}/", "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pred" in err and "folder" in err
    assert not (tmp_path / "pred").exists()


@pytest.mark.parametrize(
    ("tokens", "message"),
    [
        (["Water", "\\udc00", "."], r"sentence 1 token 1: lone surrogate \udc00: not valid"),
        (["was", "", "added"], "sentence 1 token 1 is an empty string"),
    ],
)
@pytest.mark.parametrize("command", [["run"], ["eval", "chemu-ref"], ["show"]])
def test_tokens_a_doc_cannot_hold_are_one_line_errors_naming_file_and_line(
    tmp_path, capsys, tokens, message, command
):
    good = (SCALE / "snippets.jsonl").read_text(encoding="utf-8").splitlines()[0]
    words = ", ".join(f'"{t}"' for t in tokens)
    bad = f'{{"doc_key": "x", "sentences": [["A"], [{words}]]}}'
    src = tmp_path / "in.jsonl"
    src.write_text(f"{good}\n{bad}\n", encoding="utf-8")
    out = ["-o", str(tmp_path / ("p.html" if command == ["show"] else "p.jsonl"))]
    status = main([*command, str(src), *(out if command != ["eval", "chemu-ref"] else [])])
    err = capsys.readouterr().err
    assert f"{src}:2: {message}" in err and "Traceback" not in err
    assert status == (1 if command == ["run"] else 2)  # run: the other document is written


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("out.jsonl", ["out.jsonl"]),
        ("out.json", ["out.json"]),
        ("out.csv", ["out.mentions.csv", "out.relations.csv", "out.roles.csv"]),
        ("out.parquet", ["out.mentions.parquet", "out.relations.parquet", "out.roles.parquet"]),
    ],
)
def test_an_output_name_implies_its_format(tmp_path, name, written):
    """`chemie run x.txt -o out.jsonl` used to write a brat folder named out.jsonl."""
    src = SCALE / "texts" / "s1.txt"
    assert main(["run", str(src), "-o", str(tmp_path / name), "-q", "--workers", "1"]) == 0
    assert sorted(p.name for p in tmp_path.glob("[!.]*")) == written
    assert all((tmp_path / w).is_file() for w in written)
    if name == "out.jsonl":  # text -> ChEMU-Ref lines, as --format chemu writes them
        assert [d.id for d in read_chemu(tmp_path / name)] == ["s1"]
    elif name == "out.json":  # text -> everything, as --format json writes it
        assert json.loads((tmp_path / name).read_text())["id"] == "s1"


def test_a_jsonl_input_keeps_its_chemu_output_whatever_json_name_it_gets(tmp_path):
    src = SCALE / "snippets.jsonl"
    assert main(["run", str(src), "-o", str(tmp_path / "a.jsonl"), "-q", "--workers", "1"]) == 0
    assert main(["run", str(src), "-o", str(tmp_path / "b.json"), "-q", "--workers", "1"]) == 0
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.json").read_bytes()


@pytest.mark.parametrize(
    ("fmt", "name", "message"),
    [
        ("brat", "out.jsonl", "a .jsonl name is for chemu or json output, not --format brat"),
        ("csv", "out.json", "a .json name is for json or chemu output, not --format csv"),
        ("chemu", "out.parquet", "a .parquet name is for parquet output, not --format chemu"),
    ],
)
def test_a_format_that_contradicts_the_output_name_is_refused(tmp_path, capsys, fmt, name,
                                                              message):
    src = SCALE / "texts"
    assert main(["run", str(src), "--format", fmt, "-o", str(tmp_path / name), "-q"]) == 2
    err = capsys.readouterr().err
    assert err == f"chemie: {tmp_path / name}: {message}: rename the output or change --format\n"
    assert list(tmp_path.iterdir()) == []


def test_an_output_written_as_a_folder_says_nothing_by_its_suffix(tmp_path):
    out = tmp_path / "x.jsonl"
    assert main(["run", str(SCALE / "texts"), "--format", "brat", "-o", f"{out}/", "-q"]) == 0
    assert (out / "s1.ann").is_file()


def test_warnings_alone_write_no_errors_file_but_are_listed_beside_errors(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("Water was added to the flask.\n")
    (folder / "b.txt").write_text("\n")
    out = tmp_path / "out.jsonl"
    assert main(["run", str(folder), "--format", "json", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "b.txt: warning: empty document" in err and "1 warnings" in err
    assert "listed in" not in err and not (tmp_path / "out.jsonl.errors.tsv").exists()
    (folder / "c.txt").write_bytes(b"caf\xe9\n")
    assert main(["run", str(folder), "--format", "json", "-o", str(out), "-q"]) == 1
    assert f"listed in {tmp_path / 'out.jsonl.errors.tsv'}" in capsys.readouterr().err
    rows = read_errors(tmp_path / "out.jsonl.errors.tsv")
    assert [(Path(r["file"]).name, r["level"]) for r in rows] == [
        ("b.txt", "warning"), ("c.txt", "error")]


@pytest.mark.parametrize("fmt", ["chemu", "brat", "csv"])
def test_an_output_that_cannot_be_written_exits_3(tmp_path, capsys, fmt):
    """Not 2: the input is fine. (A file stands where a folder must be: root ignores
    permission bits, so a read-only folder would not stop it.)"""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = blocker / "sub" / "out"
    argv = ["run", str(SCALE / "snippets.jsonl"), "--format", fmt, "-o", str(out), "-q"]
    assert main([*argv, "--workers", "1"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"chemie: {blocker}")
    assert "cannot write" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.fixture(scope="module")
def many_snippets(tmp_path_factory) -> tuple[Path, Path]:
    """1,500 snippets (the fixture's, renamed) and their uninterrupted output."""
    folder = tmp_path_factory.mktemp("many")
    lines = (SCALE / "snippets.jsonl").read_text(encoding="utf-8").splitlines()
    src, full = folder / "in.jsonl", folder / "full.jsonl"
    with open(src, "w", encoding="utf-8") as fh:
        for i in range(1500):
            fh.write(json.dumps({**json.loads(lines[i % len(lines)]), "doc_key": str(i)}) + "\n")
    subprocess.run(_chemie(str(src), "-o", str(full), "-q", "--workers", "2"), check=True)
    return src, full


def _terminate_when_started(cmd: list[str], partial: Path, group: bool) -> tuple[int, str]:
    """Start ``cmd``, send SIGTERM once ``partial`` holds output; its status and stderr."""
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not (partial.exists() and partial.stat().st_size) and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read()
            time.sleep(0.02)
        (os.killpg if group else os.kill)(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    return proc.returncode, err


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "group"),
    [
        (["--workers", "1"], False),
        (["--workers", "2"], False),
        (["--workers", "2"], True),  # the whole process group, as a service manager does
        (["--engine", "dask", "--workers", "2"], False),
    ],
)
def test_sigterm_stops_a_run_like_ctrl_c_and_resume_completes_it(
    tmp_path, many_snippets, options, group
):
    """It used to end with status 143 and no message."""
    if "dask" in options:
        pytest.importorskip("distributed")
    src, full = many_snippets
    cut = tmp_path / "cut.jsonl"
    status, err = _terminate_when_started(
        _chemie(str(src), "-o", str(cut), "-q", *options), Path(f"{cut}.partial"), group
    )
    assert status == 130, err
    assert err.endswith("chemie: interrupted; complete documents are kept, --resume continues\n")
    assert "Traceback" not in err and not cut.exists()
    done = subprocess.run(_chemie(str(src), "-o", str(cut), "--resume", "--workers", "2"),
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "already done (resumed)" in done.stderr
    assert cut.read_bytes() == full.read_bytes()
