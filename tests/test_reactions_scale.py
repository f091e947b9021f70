"""``chemie reactions`` through the output-format registry and the scale machinery: jsonl,
rsmi, csv and parquet; one JVM per worker process and the same output for 1 and 2
workers; resume; errors; and an OPSIN that dies, hangs, cannot start or is missing.

OPSIN here is a fake ``java`` on PATH (a small Python script speaking OPSIN's line
protocol with a fixed table of names), so the tests are deterministic and need no Java.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest

from chemie.cli import main
from chemie.formats.reaction_smiles import read_reactions
from chemie.formats.tabular import read_tables
from chemie.model.reaction import Reaction
from chemie.scale import worker
from chemie.structures import opsin as opsin_module
from chemie.structures.chem import canonical

SMILES = {
    "benzyl benzoate": "O=C(OCc1ccccc1)c1ccccc1",
    "benzoic acid": "OC(=O)c1ccccc1",
    "benzyl bromide": "BrCc1ccccc1",
    "benzyl 4-nitrobenzoate": "O=C(OCc1ccccc1)c1ccc([N+](=O)[O-])cc1",
    "4-nitrobenzoic acid": "OC(=O)c1ccc([N+](=O)[O-])cc1",
    "4-nitrobenzoyl chloride": "O=C(Cl)c1ccc([N+](=O)[O-])cc1",
    "benzyl alcohol": "OCc1ccccc1",
}

FAKE_JAVA = f"""#!{sys.executable}
# a stand-in for `java -jar opsin.jar -osmi -n`: answers "SMILES<TAB>name" per line from
# the table in FAKE_OPSIN_SMILES (no SMILES: a parse failure); logs its start (pid, parent
# pid) and every name to FAKE_OPSIN_LOG; the name FAKE_OPSIN_DIE (any case) exits, the
# name FAKE_OPSIN_HANG sleeps; FAKE_OPSIN_MODE=exit exits at once
import json, os, sys, time
if os.environ.get("FAKE_OPSIN_MODE") == "exit":
    sys.exit(1)
table = json.loads(os.environ["FAKE_OPSIN_SMILES"])
die, hang = os.environ.get("FAKE_OPSIN_DIE"), os.environ.get("FAKE_OPSIN_HANG")
log = open(os.environ["FAKE_OPSIN_LOG"], "a")
log.write(f"start {{os.getpid()}} {{os.getppid()}}\\n")
log.flush()
for line in sys.stdin:
    name = line.rstrip("\\n")
    log.write(f"name {{name}}\\n")
    log.flush()
    if name.lower() == die:
        sys.exit(3)
    if name.lower() == hang:
        time.sleep(600)
    print(table.get(name.lower(), "") + "\\t" + name, flush=True)
"""

ONE = ("Benzyl benzoate\nBenzoic acid (1.2 g) and benzyl bromide (1.9 g) were stirred in DMF "
       "(20 mL) with potassium carbonate (2.8 g) for 3 h to give the title compound (1.9 g).\n")
TWO = ("Benzyl 4-nitrobenzoate\nStep 1\n4-Nitrobenzoic acid (1.0 g) was dissolved in thionyl "
       "chloride (5 mL) and heated at reflux for 2 h. The mixture was concentrated to give "
       "4-nitrobenzoyl chloride (1.1 g).\nStep 2\n4-Nitrobenzoyl chloride (1.1 g) and benzyl "
       "alcohol (0.7 g) were stirred in dichloromethane (10 mL) with triethylamine (1.2 mL) "
       "for 3 h to give the title compound (1.3 g, 85%).\n")
PARAGRAPH = {"id": "p1", "title": "Benzyl benzoate", "text": ONE.split("\n", 1)[1].strip()}


@pytest.fixture
def fresh_opsin(monkeypatch):
    """This process's OPSIN service, pipelines and no-java warning as if new (restored)."""
    old = opsin_module._service
    monkeypatch.setattr(opsin_module, "_service", None)
    monkeypatch.setattr(opsin_module, "_warned_no_java", False)
    monkeypatch.setattr(worker, "_CACHE", {})
    yield
    if opsin_module._service is not None:
        opsin_module._service[1].close()
    opsin_module._service = old


@pytest.fixture
def fake_java(tmp_path, monkeypatch, fresh_opsin):
    """A fake java first on PATH and a fake jar; returns the log of its starts and names."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    java = bin_dir / "java"
    java.write_text(FAKE_JAVA, encoding="utf-8")
    java.chmod(java.stat().st_mode | stat.S_IXUSR)
    jar = tmp_path / "opsin.jar"
    jar.write_bytes(b"not a real jar")
    log = tmp_path / "opsin.log"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("CHEMIE_OPSIN_JAR", str(jar))
    monkeypatch.setenv("FAKE_OPSIN_SMILES", json.dumps(SMILES))
    monkeypatch.setenv("FAKE_OPSIN_LOG", str(log))
    return log


def _starts(log: Path) -> list[tuple[int, int]]:
    """(pid, parent pid) of each start of the fake JVM."""
    if not log.exists():
        return []
    return [tuple(map(int, line.split()[1:])) for line in log.read_text().splitlines()
            if line.startswith("start ")]


def _new_process(log: Path) -> None:
    """As if the next run were in a new process: no JVM, no OPSIN cache, no pipeline; an
    empty log."""
    opsin_module._service[1].close()
    opsin_module._service = None
    worker._CACHE.clear()
    log.unlink()


def _names(log: Path) -> list[str]:
    return [line[5:] for line in log.read_text().splitlines() if line.startswith("name ")]


@pytest.fixture
def docs(tmp_path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "one.txt").write_text(ONE, encoding="utf-8")
    (folder / "two.txt").write_text(TWO, encoding="utf-8")
    return folder


def _records(path: Path) -> list[Reaction]:
    return [Reaction.from_dict(json.loads(line))
            for line in path.read_text(encoding="utf-8").splitlines()]


def test_rsmi_lines_by_document_the_last_makes_the_final_product(fake_java, docs, tmp_path):
    out = tmp_path / "out.rsmi"  # the suffix implies --format rsmi
    assert main(["reactions", str(docs), "-o", str(out), "-q", "--workers", "1"]) == 0
    lines = [line.split("\t") for line in out.read_text(encoding="utf-8").splitlines()]
    assert [doc for doc, _ in lines] == ["one", "two", "two"]
    products = [rsmi.split(">")[2] for _, rsmi in lines]
    assert products == [canonical(SMILES[n]) for n in
                        ("benzyl benzoate", "4-nitrobenzoyl chloride", "benzyl 4-nitrobenzoate")]
    first_step = lines[1][1].split(">")[0].split(".")
    assert canonical(SMILES["4-nitrobenzoic acid"]) in first_step
    # chemie score reactions reads it: the last line of each document is its reaction
    scored = read_reactions(out)
    assert scored.repeated == 1
    assert scored.reactions["two"].products == (canonical(SMILES["benzyl 4-nitrobenzoate"]),)


def test_rsmi_names_components_without_a_structure_and_the_summary_counts_them(
        fake_java, tmp_path, capsys):
    # "Intermediate 7" is a compound label: no structure; the line must not look complete
    src = tmp_path / "label.txt"
    src.write_text(ONE.replace("benzyl bromide", "Intermediate 7"), encoding="utf-8")
    out = tmp_path / "out.rsmi"
    assert main(["reactions", str(src), "-o", str(out)]) == 0
    [line] = out.read_text(encoding="utf-8").splitlines()
    doc_id, rsmi, missing = line.split("\t")
    assert doc_id == "label" and missing == "reactant=Intermediate 7"
    assert canonical(SMILES["benzoic acid"]) in rsmi.split(">")[0].split(".")
    assert "1 reaction with a component without a structure" in capsys.readouterr().err
    # chemie score reactions reads the column and scores the SMILES as they are
    scored = read_reactions(out).reactions["label"]
    assert scored.unresolved == ("reactant=Intermediate 7",)
    assert scored.reactants == (canonical(SMILES["benzoic acid"]),)
    # a complete reaction keeps two columns and is not counted
    (tmp_path / "one.txt").write_text(ONE, encoding="utf-8")
    assert main(["reactions", str(tmp_path / "one.txt"), "-o", str(tmp_path / "one.rsmi")]) == 0
    assert (tmp_path / "one.rsmi").read_text(encoding="utf-8").count("\t") == 1
    assert "without a structure" not in capsys.readouterr().err


def test_without_java_rsmi_lines_name_what_is_missing(fresh_opsin, tmp_path, monkeypatch,
                                                       capsys):
    monkeypatch.setenv("PATH", str(tmp_path))  # no java here
    src = tmp_path / "one.txt"
    src.write_text(ONE, encoding="utf-8")
    out = tmp_path / "out.rsmi"
    assert main(["reactions", str(src), "-o", str(out)]) == 0
    [line] = out.read_text(encoding="utf-8").splitlines()
    missing = line.split("\t")[2].split("; ")
    assert "product=Benzyl benzoate" in missing and "reactant=Benzoic acid" in missing
    assert not any(m.endswith("=DMF") for m in missing)  # the dictionary needs no JVM
    assert "1 reaction with a component without a structure" in capsys.readouterr().err


def test_jsonl_is_the_default_and_matches_the_python_api(fake_java, docs, tmp_path):
    out = tmp_path / "out.jsonl"
    assert main(["reactions", str(docs / "two.txt"), "-o", str(out), "-q"]) == 0
    records = _records(out)
    assert [r.id for r in records] == ["two-1", "two-2"]
    [product] = records[-1].products
    # the title is the last step's product, with the amount of "the title compound (1.3 g)"
    assert product.name == "Benzyl 4-nitrobenzoate" and product.amount.mass.value == 1.3
    assert product.smiles == canonical(SMILES["benzyl 4-nitrobenzoate"])
    rsmi = tmp_path / "out.rsmi"
    assert main(["reactions", str(docs / "two.txt"), "-o", str(rsmi), "-q"]) == 0
    assert [line.split("\t")[1] for line in rsmi.read_text().splitlines()] == [
        r.rsmi() for r in records]


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_tables_of_reactions_components_and_steps(fake_java, docs, tmp_path, fmt):
    from chemie.formats.reaction_records import TABLES

    prefix = tmp_path / f"t.{fmt}"
    assert main(["reactions", str(docs), "-o", str(prefix), "-q", "--workers", "1"]) == 0
    reactions, components, steps = read_tables(prefix, fmt, TABLES)
    assert list(reactions["reaction_id"]) == ["one-1", "two-1", "two-2"]
    jsonl = tmp_path / "same.jsonl"
    assert main(["reactions", str(docs), "-o", str(jsonl), "-q", "--workers", "1"]) == 0
    records = _records(jsonl)
    assert list(reactions["rsmi"]) == [r.rsmi() for r in records]
    assert len(components) == sum(len(r.components()) for r in records)
    assert len(steps) == sum(len(r.steps) for r in records)
    last = components[components["reaction_id"] == "two-2"]
    product = last[last["role"] == "product"].iloc[0]
    assert product["name"] == "Benzyl 4-nitrobenzoate" and product["mass"] == 1.3
    assert product["mass_unit"] == "g"
    assert set(steps["reaction_id"]) <= set(reactions["reaction_id"])
    assert (tmp_path / f"t.reactions.{fmt}").exists()


def test_uspto_paragraphs_and_no_structures(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(PARAGRAPH) + "\n", encoding="utf-8")
    assert main(["reactions", str(src), "--no-structures", "-q"]) == 0
    [record] = [Reaction.from_dict(json.loads(line))
                for line in capsys.readouterr().out.splitlines()]
    assert record.doc_id == "p1" and record.products[0].name == "Benzyl benzoate"
    assert all(c.structure is None for c in record.components())
    assert main(["reactions", str(src), "--no-structures", "--format", "rsmi"]) == 2
    assert "cannot be used with --no-structures" in capsys.readouterr().err
    assert main(["reactions", str(src), "--format", "csv"]) == 2
    assert "--format csv needs an output" in capsys.readouterr().err


def test_two_workers_one_jvm_each_and_the_same_output(fake_java, tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(40):  # more than one chunk of 32: the pool is used
        (folder / f"d{i:02d}.txt").write_text(ONE if i % 2 else TWO, encoding="utf-8")
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["reactions", str(folder), "-o", str(one), "-q", "--workers", "1"]) == 0
    inline = _starts(fake_java)
    assert [parent for _, parent in inline] == [os.getpid()]  # this process, one JVM
    _new_process(fake_java)
    assert main(["reactions", str(folder), "-o", str(two), "-q", "--workers", "2"]) == 0
    assert one.read_bytes() == two.read_bytes()
    parents = [parent for _, parent in _starts(fake_java)]
    assert 1 <= len(parents) <= 2 and len(set(parents)) == len(parents)  # one JVM a worker
    assert os.getpid() not in parents  # the parent process starts none


def test_resume_skips_the_documents_done(fake_java, tmp_path):
    src = tmp_path / "in.jsonl"
    rows = [dict(PARAGRAPH, id=f"p{i}") for i in range(1, 5)]
    rows[1]["title"] = "Phenylmethyl benzoate"
    rows[2] = {"id": "p3", "title": "Benzyl 4-nitrobenzoate", "text": TWO.split("\n", 1)[1]}
    src.write_text("".join(json.dumps(r) + "\n" for r in rows[:2]), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["reactions", str(src), "-o", str(out), "-q", "--workers", "1"]) == 0
    # what an interrupted run leaves: the partial output and its journal
    out.rename(tmp_path / "out.jsonl.partial")
    (tmp_path / ".out.jsonl.done").rename(tmp_path / "out.jsonl.partial.done")
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    _new_process(fake_java)
    argv = ["reactions", str(src), "-o", str(out), "-q", "--workers", "1", "--resume"]
    assert main(argv) == 0
    names = [n.lower() for n in _names(fake_java)]
    assert "benzyl 4-nitrobenzoate" in names and "phenylmethyl benzoate" not in names
    resumed = out.read_bytes()
    fresh = tmp_path / "fresh.jsonl"
    assert main(["reactions", str(src), "-o", str(fresh), "-q", "--workers", "1"]) == 0
    assert resumed == fresh.read_bytes()
    assert [r.doc_id for r in _records(out)] == ["p1", "p2", "p3", "p3", "p4"]
    assert main(argv) == 0  # a finished output: nothing added twice
    assert out.read_bytes() == resumed


def test_opsin_dying_on_a_name_leaves_it_unresolved_and_the_run_goes_on(
        fake_java, docs, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_OPSIN_DIE", "benzoic acid")
    out = tmp_path / "out.jsonl"
    assert main(["reactions", str(docs), "-o", str(out), "--workers", "1"]) == 0
    records = _records(out)
    assert [r.doc_id for r in records] == ["one", "two", "two"]
    by_name = {c.name: c.structure for r in records for c in r.components()}
    assert by_name["Benzoic acid"].reason == "opsin died"
    assert by_name["Benzyl benzoate"].smiles == canonical(SMILES["benzyl benzoate"])
    assert records[-1].products[0].smiles == canonical(SMILES["benzyl 4-nitrobenzoate"])
    err = capsys.readouterr().err
    assert "one.txt: warning: OPSIN failed on 1 names, left unresolved: 'Benzoic acid' " \
           "(opsin died)" in err
    assert len(_starts(fake_java)) == 2  # a new JVM after the death


def test_a_hanging_opsin_is_given_up_within_the_document_time_limit(
        fake_java, docs, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_OPSIN_HANG", "benzoic acid")
    out = tmp_path / "out.jsonl"
    argv = ["reactions", str(docs), "-o", str(out), "--workers", "1", "--timeout", "3"]
    assert main(argv) == 0
    records = _records(out)
    by_name = {c.name: c.structure for r in records for c in r.components()}
    assert by_name["Benzoic acid"].reason == "timeout"
    assert records[-1].products[0].smiles == canonical(SMILES["benzyl 4-nitrobenzoate"])
    assert "(timeout)" in capsys.readouterr().err
    assert len(_starts(fake_java)) == 2  # the hung JVM was killed, the next document's is new


def test_a_jvm_that_cannot_start(fake_java, docs, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FAKE_OPSIN_MODE", "exit")
    out = tmp_path / "out.jsonl"
    assert main(["reactions", str(docs / "one.txt"), "-o", str(out), "--workers", "1"]) == 0
    reasons = {c.structure.reason for r in _records(out) for c in r.components()
               if not c.structure.resolved}
    assert "jvm failed to start" in reasons
    assert "(jvm failed to start)" in capsys.readouterr().err


def test_no_java_one_warning_for_two_workers(fresh_opsin, tmp_path, monkeypatch, capfd):
    monkeypatch.setenv("PATH", str(tmp_path))  # no java here
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(40):
        (folder / f"d{i:02d}.txt").write_text(ONE, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["reactions", str(folder), "-o", str(out), "-q", "--workers", "2"]) == 0
    err = capfd.readouterr().err
    assert err.count("java not found") == 1
    records = _records(out)
    assert len(records) == 40
    structures = [c.structure for c in records[0].components()]
    assert {s.reason for s in structures if not s.resolved} == {"no java"}
    assert any(s.how == "dictionary" for s in structures)  # DMF: the dictionary needs no JVM


def test_bad_documents_are_listed_and_nothing_written_is_lost(tmp_path, monkeypatch, capsys):
    src = tmp_path / "in.jsonl"
    long_text = "Benzoic acid was stirred. " * 40
    rows = [PARAGRAPH, {"id": "p2", "text": 7}, dict(PARAGRAPH, id="p3", text=long_text),
            dict(PARAGRAPH, id="p4", text="CRASH " + PARAGRAPH["text"]), dict(PARAGRAPH, id="p5")]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    from chemie import nlp

    annotate = nlp.annotate

    def crashing(model, doc, **kw):
        if "CRASH" in doc.text:
            raise RuntimeError("a name that crashes the pipeline")
        return annotate(model, doc, **kw)

    monkeypatch.setattr(nlp, "annotate", crashing)
    monkeypatch.setattr(worker, "_CACHE", {})
    out = tmp_path / "out.jsonl"
    argv = ["reactions", str(src), "-o", str(out), "--no-structures", "--workers", "1",
            "--max-chars", "500"]
    assert main(argv) == 1
    assert [r.doc_id for r in _records(out)] == ["p1", "p5"]
    errors = (tmp_path / "out.jsonl.errors.tsv").read_text(encoding="utf-8").splitlines()
    assert [row.split("\t")[3] for row in errors[1:]] == ["p2", "p3", "p4"]
    assert "'text' must be a string" in errors[1]
    assert "characters" in errors[2]
    assert "internal error: RuntimeError: a name that crashes the pipeline" in errors[3]
    assert f"{src}:2: 'text' must be a string" in capsys.readouterr().err


def test_outputs_never_overwrite_inputs(docs, tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(PARAGRAPH) + "\n", encoding="utf-8")
    before = src.read_bytes()
    assert main(["reactions", str(src), "-o", str(src), "--no-structures"]) == 2
    assert src.read_bytes() == before
    one = (docs / "one.txt").read_bytes()
    argv = ["reactions", str(docs), "-o", str(docs / "one.txt"), "--format", "rsmi"]
    assert main(argv) == 2  # a file read in the input folder
    assert (docs / "one.txt").read_bytes() == one
    assert "one.txt" in capsys.readouterr().err
    assert main(["reactions", str(src), "-o", str(tmp_path / "x.csv"), "--format", "rsmi"]) == 2
    assert "a .csv name is for csv output" in capsys.readouterr().err


def test_dask_engine_one_jvm_per_worker(fake_java, docs, tmp_path):
    pytest.importorskip("distributed")
    one, dask = tmp_path / "one.jsonl", tmp_path / "dask.jsonl"
    assert main(["reactions", str(docs), "-o", str(one), "-q", "--workers", "1"]) == 0
    _new_process(fake_java)
    argv = ["reactions", str(docs), "-o", str(dask), "-q", "--engine", "dask", "--workers", "2"]
    assert main(argv) == 0
    assert one.read_bytes() == dask.read_bytes()
    parents = [parent for _, parent in _starts(fake_java)]
    assert parents and len(set(parents)) == len(parents) and os.getpid() not in parents


def test_a_batch_interrupted_by_the_document_time_limit_stops_its_jvm(fake_java, tmp_path,
                                                                      monkeypatch):
    monkeypatch.setenv("FAKE_OPSIN_HANG", "benzoic acid")
    o = opsin_module.Opsin(jar=tmp_path / "opsin.jar", timeout=60)
    try:
        assert o.ready() and o.starts == 1
        assert o.ready() and o.starts == 1  # running already
        with pytest.raises(worker.DocumentTimeout), worker.time_limit(0.5):
            o.parse(["benzyl alcohol", "benzoic acid"])
        assert o._jvm is None  # its answers would be out of step with the next names
        assert o.parse(["benzyl alcohol"])["benzyl alcohol"].smiles == SMILES["benzyl alcohol"]
        assert o.starts == 2
    finally:
        o.close()


def test_chemu_ref_jsonl_input_keeps_its_document_keys(tmp_path):
    src = Path(__file__).parent / "fixtures" / "scale" / "snippets.jsonl"
    keys = [json.loads(line)["doc_key"] for line in src.read_text().splitlines()]
    out = tmp_path / "out.jsonl"
    argv = ["reactions", str(src), "-o", str(out), "--no-structures", "-q", "--workers", "1"]
    assert main(argv) == 0
    ids = [r.doc_id for r in _records(out)]
    assert ids and ids == sorted(ids, key=keys.index)  # input order, each a doc_key
    assert all(r.id.startswith(f"{r.doc_id}-") for r in _records(out))


def test_a_broken_line_is_named_listed_and_skipped(fake_java, tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(PARAGRAPH) + '\n{"id": "p2", "text": "no end\n'
                   + json.dumps(dict(PARAGRAPH, id="p3")) + "\n", encoding="utf-8")
    out = tmp_path / "out.rsmi"
    assert main(["reactions", str(src), "-o", str(out), "--workers", "1"]) == 1
    assert [line.split("\t")[0] for line in out.read_text().splitlines()] == ["p1", "p3"]
    assert f"{src}:2: malformed JSON" in capsys.readouterr().err
    errors = (tmp_path / "out.rsmi.errors.tsv").read_text(encoding="utf-8").splitlines()
    assert len(errors) == 2 and errors[1].split("\t")[1:3] == [str(src), "2"]


def test_an_interrupted_run_keeps_the_old_output_and_resumes(fake_java, tmp_path, monkeypatch):
    src = tmp_path / "in.jsonl"
    rows = [dict(PARAGRAPH, id=f"p{i:02d}") for i in range(40)]  # more than a chunk of 32
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    out.write_text("an earlier output\n", encoding="utf-8")
    from chemie import nlp

    annotate = nlp.annotate

    def interrupted(model, doc, **kw):
        if doc.id == "p36":
            raise KeyboardInterrupt
        return annotate(model, doc, **kw)

    monkeypatch.setattr(nlp, "annotate", interrupted)
    argv = ["reactions", str(src), "-o", str(out), "-q", "--workers", "1"]
    assert main(argv) == 130
    assert out.read_text(encoding="utf-8") == "an earlier output\n"  # not half-written
    partial = tmp_path / "out.jsonl.partial"
    done = [json.loads(line)["doc_id"] for line in partial.read_text().splitlines()]
    assert done and done == [r["id"] for r in rows[:len(done)]] and "p36" not in done
    monkeypatch.setattr(nlp, "annotate", annotate)
    worker._CACHE.clear()  # as in a new process: no pipeline built with the stand-in
    assert main([*argv, "--resume"]) == 0
    assert [r.doc_id for r in _records(out)] == [r["id"] for r in rows]
    assert not partial.exists()


def test_no_structures_starts_no_jvm_and_imports_no_rdkit(fake_java, docs, tmp_path):
    import subprocess

    out = tmp_path / "out.jsonl"
    code = ("import sys\nfrom chemie.cli import main\n"
            f"status = main(['reactions', {str(docs)!r}, '-o', {str(out)!r}, "
            "'--no-structures', '-q', '--workers', '1'])\n"
            "print(status, sorted({m.split('.')[0] for m in sys.modules} & {'rdkit'}))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["0", "[]"]
    assert _starts(fake_java) == []
    assert len(_records(out)) == 3
