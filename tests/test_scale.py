"""chemie.scale machinery with stand-in workers: sources, order, errors, resume, sinks."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from chemie.formats.tabular import read_tables
from chemie.model import Document, Mention, Relation, Token
from chemie.scale.engines import RunAborted
from chemie.scale.errorlog import ErrorLog, read_errors
from chemie.scale.outputs import make_sink
from chemie.scale.runner import run_job
from chemie.scale.sinks import BlockSink, BratSink, JsonlSink, StepSink, errors_path
from chemie.scale.sources import iter_items
from chemie.scale.worker import Job

SCALE = Path(__file__).parent / "fixtures" / "scale"
_seen = {"n": 0}


def make_linker() -> object:
    """Stand-in pipeline: a mention per token pair and a coreference link between them."""

    def link(doc: Document) -> Document:
        if not doc.tokens:
            doc.tokens = [Token(m[0], m.start(), m.end()) for m in re.finditer(r"\S+", doc.text)]
        toks = doc.tokens
        doc.mentions = [
            Mention("T1", ((toks[0].start, toks[0].end),), rule="first"),
            Mention("T2", ((toks[-1].start, toks[-1].end),), rule="last"),
        ]
        doc.relations = [Relation("COREFERENCE", "T2", "T1", rule="stand_in")]
        return doc

    return link


def make_interrupter(after: int) -> object:
    """Stand-in pipeline that behaves like Ctrl-C after ``after`` documents."""
    link = make_linker()

    def interrupt(doc: Document) -> Document:
        _seen["n"] += 1
        if _seen["n"] > after:
            raise KeyboardInterrupt
        return link(doc)

    return interrupt


LINK = Job(f"{__name__}:make_linker", "chemu")


def _bad_jsonl(tmp_path: Path) -> Path:
    """The fixture snippets, repeated, with a malformed line, a line without keys,
    a non-UTF-8 line and an empty document among them."""
    good = (SCALE / "snippets.jsonl").read_bytes().splitlines()
    lines = []
    for rep in range(3):
        for raw in good:
            obj = json.loads(raw)
            obj["doc_key"] = f"{obj['doc_key']}-{rep}"
            lines.append(json.dumps(obj).encode())
    lines[2:2] = [b'{"doc_key": "broken", "sentences": [[', b'{"sentences": [["a"]]}']
    lines[7:7] = [b'{"doc_key": "latin", "sentences": [["caf\xe9"]]}']
    lines[9:9] = [b'{"doc_key": "empty", "sentences": []}']
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _run(src: Path, out: Path, job: Job = LINK, **kw) -> object:
    return run_job(
        iter_items([src], keys=kw.get("resume", False)), job, make_sink(job.fmt, out),
        ErrorLog(errors_path(out)), **kw,
    )


def test_txt_folder_items_are_sorted_keyed_and_report_orphan_ann(tmp_path):
    folder = tmp_path / "texts"
    shutil.copytree(SCALE / "texts", folder)
    (folder / "orphan.ann").write_text("T1\tX 0 1\ta\n")
    items = list(iter_items([folder]))
    assert [i.key for i in items] == ["s1", "s2", "more/s3", "more/s4", "orphan"]
    assert [i.n for i in items] == [1, 2, 3, 4, 5]
    assert items[-1].kind == "error" and "without its .txt" in items[-1].data


def test_jsonl_items_keep_line_numbers_and_flag_non_utf8(tmp_path):
    items = list(iter_items([_bad_jsonl(tmp_path)], keys=True))
    latin = next(i for i in items if i.line == 8)
    assert latin.kind == "error" and "UTF-8" in latin.data
    assert items[0].key == "0001-0" and items[2].key is None  # malformed: no key


def test_bad_documents_are_reported_and_the_run_continues(tmp_path):
    out = tmp_path / "out.jsonl"
    summary = _run(_bad_jsonl(tmp_path), out)
    assert (summary.documents, summary.written, summary.errors, summary.warnings) == (16, 13, 3, 1)
    written = [json.loads(line)["doc_key"] for line in out.read_text().splitlines()]
    assert "empty" in written and "broken" not in written and len(written) == 13
    rows = read_errors(errors_path(out))
    assert [(r["line"], r["level"]) for r in rows] == [
        ("3", "error"), ("4", "error"), ("8", "error"), ("10", "warning"),
    ]
    assert "missing key 'doc_key'" in rows[1]["message"]
    assert not Path(str(out) + ".partial").exists()


def test_pool_output_equals_single_process_in_input_order(tmp_path):
    src = _bad_jsonl(tmp_path)
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    _run(src, one, workers=1)
    _run(src, two, workers=2, chunk_size=2)
    assert one.read_bytes() == two.read_bytes()
    assert errors_path(one).read_text() == errors_path(two).read_text()


def test_chemu_output_uses_input_token_indices(tmp_path):
    out = tmp_path / "out.jsonl"
    _run(SCALE / "snippets.jsonl", out)
    first = json.loads(out.read_text().splitlines()[0])
    n_tokens = sum(len(s) for s in first["sentences"])
    assert first["Coreference"] == [[[[n_tokens - 1, n_tokens - 1]], [[0, 0]]]]


def _interrupt(src: Path, out: Path, fmt: str, after: int) -> None:
    _seen["n"] = 0
    with pytest.raises(KeyboardInterrupt):
        _run(src, out, Job(f"{__name__}:make_interrupter", fmt, (("after", after),)),
             chunk_size=2)


def test_interrupted_jsonl_run_resumes_to_the_same_output(tmp_path):
    src = _bad_jsonl(tmp_path)
    full, cut = tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    _run(src, full)
    _interrupt(src, cut, "chemu", 5)
    partial = Path(str(cut) + ".partial")
    assert not cut.exists() and partial.exists()
    assert 0 < len(partial.read_text().splitlines()) < 13
    summary = _run(src, cut, resume=True)
    assert summary.skipped > 0
    assert cut.read_bytes() == full.read_bytes()
    assert errors_path(cut).read_text() == errors_path(full).read_text()
    assert not partial.exists()


def test_resume_drops_a_half_written_last_line(tmp_path):
    src = SCALE / "snippets.jsonl"
    full, cut = tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    _run(src, full)
    lines = full.read_bytes().splitlines(keepends=True)
    Path(str(cut) + ".partial").write_bytes(lines[0] + lines[1][:40])
    summary = _run(src, cut, resume=True)
    assert summary.skipped == 1
    assert cut.read_bytes() == full.read_bytes()


def test_interrupted_json_run_over_texts_resumes_to_the_same_output(tmp_path):
    job = Job(f"{__name__}:make_linker", "json")
    src = SCALE / "texts"
    full, cut = tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    _run(src, full, job)
    _interrupt(src, cut, "json", 2)
    _run(src, cut, job, resume=True)
    assert cut.read_bytes() == full.read_bytes()
    docs = [json.loads(line) for line in full.read_text().splitlines()]
    assert [d["id"] for d in docs] == ["s1", "s2", "more/s3", "more/s4"]
    assert docs[0]["relations"][0]["rule"] == "stand_in"


def test_brat_sink_resume_skips_documents_whose_ann_exists(tmp_path):
    sink = BratSink(tmp_path / "out")
    sink.open(resume=True)
    (tmp_path / "out" / "more").mkdir(parents=True)
    (tmp_path / "out" / "more" / "s3.ann").write_text("")
    items = list(iter_items([SCALE / "texts"]))
    assert [sink.done(i) for i in items] == [False, False, True, False]


def test_jsonl_sink_keeps_nothing_under_the_final_name_until_closed(tmp_path):
    sink = JsonlSink(tmp_path / "o.jsonl")
    sink.open(resume=False)
    assert not (tmp_path / "o.jsonl").exists()
    sink.abort()
    assert not (tmp_path / "o.jsonl").exists()


def test_no_errors_file_when_all_is_well_and_stale_one_removed(tmp_path):
    out = tmp_path / "out.jsonl"
    errors_path(out).write_text("stale\n")
    summary = _run(SCALE / "snippets.jsonl", out)
    assert summary.errors == 0 and not errors_path(out).exists()


def test_tokenize_task_and_tables(tmp_path):
    out = tmp_path / "tables"
    summary = _run(SCALE / "snippets.jsonl", out, Job(f"{__name__}:make_linker", "csv"))
    assert summary.written == 4
    relations = (tmp_path / "tables.relations.csv").read_text().splitlines()
    assert len(relations) == 5 and "stand_in" in relations[1]
    tok = tmp_path / "tok.jsonl"
    _run(SCALE / "texts", tok, Job("tokenize", "json"))
    doc = json.loads(tok.read_text().splitlines()[0])
    assert doc["tokens"][0] == {"text": "Step", "start": 0, "end": 4} and not doc["mentions"]


@pytest.mark.slow
def test_dask_engine_equals_single_process(tmp_path):
    pytest.importorskip("distributed")
    src = _bad_jsonl(tmp_path)
    one, dask = tmp_path / "one.jsonl", tmp_path / "dask.jsonl"
    job = Job("tokenize", "json")
    _run(src, one, job)
    summary = _run(src, dask, job, engine="dask", workers=2, chunk_size=3)
    assert summary.errors == 3
    assert one.read_bytes() == dask.read_bytes()
    assert errors_path(one).read_text() == errors_path(dask).read_text()


def rows_of_long_documents(doc: Document) -> str:
    """Stand-in block formatter: one row for documents over 60 tokens, none otherwise."""
    return f"{doc.id}\t{len(doc.tokens)}\n" if len(doc.tokens) > 60 else ""


def test_interrupted_block_run_resumes_even_with_empty_blocks(tmp_path):
    src = _bad_jsonl(tmp_path)
    fmt = f"{__name__}:rows_of_long_documents"
    full, cut = tmp_path / "full.tsv", tmp_path / "cut.tsv"
    job = Job(f"{__name__}:make_linker", fmt)

    def run(out: Path, job: Job, **kw) -> object:
        items = iter_items([src], keys=kw.get("resume", False))
        sink = BlockSink(out, "id\ttokens\n")
        return run_job(items, job, sink, ErrorLog(errors_path(out)), **kw)

    run(full, job)
    rows = full.read_text().splitlines()
    assert rows[0] == "id\ttokens" and 1 < len(rows) < 14
    _seen["n"] = 0
    with pytest.raises(KeyboardInterrupt):
        run(cut, Job(f"{__name__}:make_interrupter", fmt, (("after", 7),)), chunk_size=2)
    with open(Path(str(cut) + ".partial"), "a") as fh:
        fh.write("half a ro")  # a block written but not journalled: dropped on resume
    summary = run(cut, job, resume=True)
    assert summary.skipped > 0
    assert cut.read_bytes() == full.read_bytes()
    assert errors_path(cut).read_text() == errors_path(full).read_text()


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file()}


def test_interrupted_brat_run_resumes_to_the_same_files(tmp_path):
    job = Job(f"{__name__}:make_linker", "brat")
    src = SCALE / "texts"
    full, cut = tmp_path / "full", tmp_path / "cut"
    _run(src, full, job)
    _interrupt(src, cut, "brat", 2)
    assert sorted(_tree(cut)) == ["s1.ann", "s1.txt", "s2.ann", "s2.txt"]
    summary = _run(src, cut, job, resume=True)
    assert summary.skipped == 2
    assert _tree(cut) == _tree(full)
    assert "rule=stand_in" in (full / "more" / "s3.ann").read_text()


def make_sleeper(doc_id: str) -> object:
    """Stand-in pipeline that hangs on one document."""
    link = make_linker()

    def sleep(doc: Document) -> Document:
        if doc.id == doc_id:
            time.sleep(5)
        return link(doc)

    return sleep


def test_a_document_over_the_time_limit_fails_alone(tmp_path):
    out = tmp_path / "out.jsonl"
    job = Job(f"{__name__}:make_sleeper", "chemu", (("doc_id", "0002"),), timeout=0.2)
    summary = _run(SCALE / "snippets.jsonl", out, job)
    assert (summary.written, summary.errors) == (3, 1)
    [row] = read_errors(errors_path(out))
    assert row["id"] == "0002" and row["message"] == "timed out after 0.2 s"


def make_crasher(doc_id: str) -> object:
    """Stand-in pipeline whose worker process dies on one document."""
    link = make_linker()

    def crash(doc: Document) -> Document:
        if doc.id == doc_id:
            os._exit(3)
        return link(doc)

    return crash


def test_a_dead_worker_aborts_the_run_and_resume_completes_it(tmp_path):
    src = _bad_jsonl(tmp_path)
    full, cut = tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    _run(src, full)
    crasher = Job(f"{__name__}:make_crasher", "chemu", (("doc_id", "0003-1"),))
    with pytest.raises(RunAborted, match="worker process died"):
        _run(src, cut, crasher, workers=2, chunk_size=2)
    assert not cut.exists()
    _run(src, cut, resume=True)
    assert cut.read_bytes() == full.read_bytes()


def make_swallower() -> object:
    """Stand-in pipeline whose slow part runs in a finalizer, where an alarm is swallowed."""
    link = make_linker()

    class Slow:
        def __del__(self) -> None:
            time.sleep(0.5)

    def swallow(doc: Document) -> Document:
        Slow()  # dropped at once: the slow __del__ runs here
        return link(doc)

    return swallow


def test_a_time_limit_hit_inside_a_finalizer_still_fails_the_document(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    job = Job(f"{__name__}:make_swallower", "chemu", timeout=0.1)
    src = tmp_path / "one.jsonl"
    src.write_text((SCALE / "snippets.jsonl").read_text().splitlines()[0] + "\n")
    summary = _run(src, out, job)
    assert (summary.written, summary.errors) == (0, 1)
    assert "Exception ignored" not in capsys.readouterr().err


def _failing_items(src: Path, after: int):
    """The items of ``src``, then the engine breaks down."""
    for i, item in enumerate(iter_items([src])):
        if i == after:
            raise RunAborted("cluster went away")
        yield item


@pytest.mark.parametrize("fmt", ["chemu", "csv"])
def test_a_run_that_breaks_down_before_any_output_leaves_no_files(tmp_path, fmt):
    out = tmp_path / "out"
    job = Job(f"{__name__}:make_linker", fmt)
    with pytest.raises(RunAborted):
        run_job(_failing_items(SCALE / "snippets.jsonl", 0), job, make_sink(fmt, out),
                ErrorLog(errors_path(out)))
    assert list(tmp_path.iterdir()) == []


def test_a_run_that_breaks_down_later_keeps_its_partial_output(tmp_path):
    out = tmp_path / "out.jsonl"
    with pytest.raises(RunAborted):
        run_job(_failing_items(SCALE / "snippets.jsonl", 2), LINK, make_sink("chemu", out),
                ErrorLog(errors_path(out)), chunk_size=1)
    assert len((tmp_path / "out.jsonl.partial").read_text().splitlines()) >= 1


def test_chemu_fast_paths_match_the_token_objects():
    """Reading and writing ChEMU-Ref by offsets (no Token objects) keeps the same indices."""
    from chemie.formats.chemu import TokenIndex, format_chemu_doc, parse_chemu_line
    from chemie.model import ANAPHORA_LABELS, tokens_from_words

    for line in (SCALE / "snippets.jsonl").read_text().splitlines():
        obj = json.loads(line)
        doc = parse_chemu_line(line)
        text, tokens = tokens_from_words([w for s in obj["sentences"] for w in s])
        assert (doc.text, doc.tokens) == (text, tokens)
        fast = TokenIndex.from_offsets([t.start for t in tokens], [t.end for t in tokens])
        spans = [(t.start, t.end) for t in tokens] + [(1, text.find(" ", 5))]
        assert fast.ranges(spans, snap=True) == TokenIndex(tokens).ranges(spans, snap=True)
        out = json.loads(format_chemu_doc(doc))
        for key in ANAPHORA_LABELS.values():
            assert out[key] == obj.get(key, [])


def pair_of_blocks(doc: Document) -> tuple[str, str]:
    """Stand-in pair formatter: a row for each file (CEM and CDI in ``chemie ner``)."""
    return f"{doc.id}\tfirst\n", f"{doc.id}\tsecond\t{len(doc.tokens)}\n"


def test_interrupted_pair_run_resumes_to_the_same_two_files(tmp_path):
    src = _bad_jsonl(tmp_path)
    fmt = f"{__name__}:pair_of_blocks"

    def run(prefix: str, job: Job, **kw) -> object:
        sink = StepSink(tmp_path / f"{prefix}.1", tmp_path / f"{prefix}.2")
        items = iter_items([src], keys=kw.get("resume", False))
        return run_job(items, job, sink, ErrorLog(tmp_path / f"{prefix}.err"), **kw)

    run("full", Job(LINK.task, fmt))
    _seen["n"] = 0
    with pytest.raises(KeyboardInterrupt):
        run("cut", Job(f"{__name__}:make_interrupter", fmt, (("after", 5),)), chunk_size=2)
    first = tmp_path / "cut.1.partial"
    with open(first, "a") as fh:
        fh.write("extra\tfirst\n")  # the first file one document ahead of the second
    with open(tmp_path / "cut.1.partial.done", "a") as journal:
        journal.write(f"{first.stat().st_size}\textra\n")
    assert run("cut", Job(LINK.task, fmt), resume=True).skipped > 0
    for n in ("1", "2"):
        assert (tmp_path / f"cut.{n}").read_bytes() == (tmp_path / f"full.{n}").read_bytes()
    assert not list(tmp_path.glob("*partial*"))


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_interrupted_table_run_resumes_to_the_same_tables(tmp_path, fmt):
    src = _bad_jsonl(tmp_path)
    _run(src, tmp_path / "full", Job(LINK.task, fmt))
    _interrupt(src, tmp_path / "cut", fmt, 5)
    assert not (tmp_path / f"cut.mentions.{fmt}").exists()
    assert list(tmp_path.glob(f"cut.relations.{fmt}*.partial"))
    summary = _run(src, tmp_path / "cut", Job(LINK.task, fmt), resume=True)
    assert summary.skipped > 0 and summary.written > 0
    for name in ("mentions", "relations"):
        cut, full = tmp_path / f"cut.{name}.{fmt}", tmp_path / f"full.{name}.{fmt}"
        assert cut.read_bytes() == full.read_bytes() if fmt == "csv" else (
            pd.read_parquet(cut).equals(pd.read_parquet(full))
        )
    assert not list(tmp_path.glob("*partial*")) and not list(tmp_path.glob("*.arrows"))


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_resume_on_a_finished_table_output_adds_nothing_twice(tmp_path, fmt):
    src = _bad_jsonl(tmp_path)
    out = tmp_path / "t"
    first = _run(src, out, Job(LINK.task, fmt))
    before = read_tables(out, fmt)
    summary = _run(src, out, Job(LINK.task, fmt), resume=True)
    assert summary.written == 0 and summary.skipped == first.written > 0
    after = read_tables(out, fmt)
    assert all(a.equals(b) for a, b in zip(before, after, strict=True))
    assert not list(tmp_path.glob("*.arrows"))


def make_spinner(doc_id: str) -> object:
    """Stand-in pipeline that computes for 10 s (in Python) on one document."""
    link = make_linker()

    def spin(doc: Document) -> Document:
        if doc.id == doc_id:
            end = time.perf_counter() + 10
            while time.perf_counter() < end:
                pass
        return link(doc)

    return spin


def test_the_time_limit_interrupts_a_document_on_a_worker_thread():
    """Dask runs documents on worker threads, where no SIGALRM reaches them."""
    import threading

    from chemie.scale.worker import process_item

    job = Job(f"{__name__}:make_spinner", "chemu", (("doc_id", "0002"),), timeout=0.2)
    items = list(iter_items([SCALE / "snippets.jsonl"]))
    outcomes: list = []

    def work() -> None:
        started = time.perf_counter()
        outcomes.extend(process_item(job, item) for item in items)
        outcomes.append(time.perf_counter() - started)
        end = time.perf_counter() + 0.5  # no stale timeout may land after the documents
        while time.perf_counter() < end:
            pass
        outcomes.append("clean")

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(30)
    *results, seconds, clean = outcomes
    assert [o.error for o in results] == [None, "timed out after 0.2 s", None, None]
    assert seconds < 5 and clean == "clean"  # interrupted, not run for its 10 s


def test_document_json_is_the_json_of_the_documents_fields():
    """The fast writer gives the bytes json.dumps gives for the Document's fields as dicts
    (dataclasses.asdict; a mention as its first six fields and its attrs map), actions in
    meta as dicts, other meta values as str."""
    import dataclasses

    from chemie.formats.jsondoc import document_json
    from chemie.model import Action

    text = 'Le "sel" à 5 °C\tok'
    tokens = [Token("Le", 0, 2), Token('"sel"', 3, 8), Token("à", 9, 10), Token("5", 11, 12),
              Token("°C", 13, 15), Token("ok", 16, 18)]
    m = Mention("T1", ((3, 8),), text='"sel"', rule="r", confidence=0.5, kind="chemical",
                head='"sel"', tokens=(1, 1), core=(1, 1), ranges=((1, 1),),
                chemdner_class="TRIVIAL")
    untyped = Mention("T2", ((0, 2),), tokens=(0, 0), notes=["a note"])
    doc = Document("d\u00e9", text, tokens, [(0, 6)], [m, untyped],
                   [Relation("COREFERENCE", "T1", "T1")])
    action = Action("Add", 0, 2, 0, "add", {"object": ["T1"]})
    doc.meta = {"sentences": [["x"]], "token": tokens[1], "n": 3}
    doc.actions = [action]  # written under meta, after the input's own keys
    expected = json.dumps({
        "id": doc.id, "text": text, "tokens": [dataclasses.asdict(t) for t in tokens],
        "sentences": [list(s) for s in doc.sentences],
        "mentions": [
            {"id": "T1", "spans": [[3, 8]], "label": "ENTITY", "text": '"sel"', "rule": "r",
             "confidence": 0.5, "attrs": {
                 "kind": "chemical", "head": '"sel"', "sentence": 0, "tokens": [1, 1],
                 "core": [1, 1], "det": "", "quantity": False, "ranges": [[1, 1]],
                 "chemdner_class": "TRIVIAL"}},
            {"id": "T2", "spans": [[0, 2]], "label": "ENTITY", "text": "", "rule": None,
             "confidence": None, "attrs": {"tokens": [0, 0], "notes": ["a note"]}},
        ],
        "relations": [dataclasses.asdict(doc.relations[0])],
        "meta": {"token": tokens[1], "n": 3, "actions": [dataclasses.asdict(action)]},
    }, ensure_ascii=False, default=str)
    assert document_json(doc) == expected
    assert document_json(Document("e", "")) == json.dumps({
        "id": "e", "text": "", "tokens": [], "sentences": [], "mentions": [], "relations": [],
        "meta": {},
    })


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_a_table_run_killed_before_its_first_document_resumes_to_the_same_tables(
    tmp_path, fmt
):
    src = _bad_jsonl(tmp_path)
    job = Job(f"{__name__}:make_linker", fmt)
    full, cut = tmp_path / "full", tmp_path / "cut"
    _run(src, full, job)
    # a process killed right after opening its output (nothing flushed by Python)
    kill = (
        "import os, sys, pathlib; from chemie.scale.outputs import make_sink; "
        "sink = make_sink(sys.argv[1], pathlib.Path(sys.argv[2])); sink.open(False); os._exit(9)"
    )
    assert subprocess.run([sys.executable, "-c", kill, fmt, str(cut)]).returncode == 9
    summary = _run(src, cut, job, resume=True)
    assert summary.written == _run(src, tmp_path / "again", job).written
    for name in ("mentions", "relations"):
        a, b = (Path(f"{p}.{name}.{fmt}") for p in (full, cut))
        if fmt == "csv":
            assert b.read_bytes() == a.read_bytes()
        else:
            assert pd.read_parquet(b).equals(pd.read_parquet(a))


@pytest.mark.parametrize(("fmt", "suffix", "garbage"), [
    ("chemu", ".partial", b"not json\n"),
    ("chemu", ".partial", b'{"no_key": 1}\n'),
    ("chemu", "", b"[1]\n"),  # a finished output
    ("csv", ".relations.csv.partial.done", b"garbage\n"),
])
def test_resume_from_a_partial_file_that_is_not_ours_is_a_one_line_error(
    tmp_path, capsys, fmt, suffix, garbage
):
    from chemie.cli import main

    src = tmp_path / "in.jsonl"
    src.write_text((SCALE / "snippets.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["run", str(src), "--format", fmt, "-o", str(out), "-q", "--workers", "1"]) == 0
    base = Path(f"{out}.mentions.csv" if fmt == "csv" else out)
    bad = Path(f"{out}{suffix}")
    if fmt == "csv":  # an interrupted run: its partial files and a spoilt journal
        for name in ("mentions", "relations"):
            shutil.copy(f"{out}.{name}.csv", f"{out}.{name}.csv.partial")
            Path(f"{out}.{name}.csv.partial.done").write_text("")
    elif bad != base:
        shutil.copy(base, bad)
    bad.write_bytes(bad.read_bytes() + garbage)
    before = bad.read_bytes()
    argv = ["run", str(src), "--format", fmt, "-o", str(out), "-q", "--resume", "--workers", "1"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{bad}:" in err and "--resume" in err
    assert bad.read_bytes() == before


def test_an_errors_row_stays_one_row_whatever_the_document_id_holds(tmp_path):
    log = ErrorLog(tmp_path / "out.errors.tsv")
    log.open(False)
    log.add(1, "error", "in.jsonl", 1, "a\rb\u2028c\x85d\te\nf", "bad\r line")
    log.add(2, "warning", "in.jsonl", 2, "g", "empty")
    log.close()
    rows = read_errors(tmp_path / "out.errors.tsv")
    assert [(r["n"], r["level"]) for r in rows] == [("1", "error"), ("2", "warning")]
    assert pd.read_csv(tmp_path / "out.errors.tsv", sep="\t").shape == (2, 6)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_resume_on_tables_whose_document_ids_hold_line_breaks_adds_nothing(
    tmp_path, capsys, fmt
):
    from chemie.cli import main

    words = '[["Water", "was", "added", "to", "the", "flask", "."]]'
    src = tmp_path / "in.jsonl"
    src.write_text("".join(f'{{"doc_key": "{key}", "sentences": {words}}}\n'
                           for key in ("a\\nb", "c\\rd", "e\\\\nf")), encoding="utf-8")
    out = tmp_path / "out"
    argv = ["run", str(src), "--format", fmt, "-o", str(out), "--workers", "1"]
    assert main(argv) == 0
    before = read_tables(out, fmt)
    capsys.readouterr()
    assert main([*argv, "--resume"]) == 0
    assert "3 already done" in capsys.readouterr().err
    after = read_tables(out, fmt)
    assert all(a.equals(b) for a, b in zip(before, after, strict=True))
    assert set(after[0]["doc_id"]) == {"a\nb", "c\rd", "e\\nf"}
