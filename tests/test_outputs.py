"""The output-format registry: one registration makes a format that `chemie run` writes,
per-command format sets, folder and multi-table formats, and the README's table."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from chemie.cli import main
from chemie.formats.tabular import Table, read_tables
from chemie.model import Document, Mention
from chemie.scale import outputs
from chemie.scale.errorlog import ErrorLog
from chemie.scale.outputs import FOLDER, PREFIX, OutputFormat, register
from chemie.scale.runner import run_job
from chemie.scale.sinks import BlockSink, BratSink, JsonlSink, TableSink
from chemie.scale.sources import iter_items
from chemie.scale.worker import Job

SCALE = Path(__file__).parent / "fixtures" / "scale"
ROOT = Path(__file__).parent.parent


@pytest.fixture
def registry(monkeypatch):
    """The registry as it is, restored after the test (formats registered here vanish)."""
    monkeypatch.setattr(outputs, "FORMATS", dict(outputs.FORMATS))
    return outputs


def ids_line(doc: Document) -> str:
    """Toy formatter: the document's id and number of mentions as one JSON line."""
    return json.dumps({"id": doc.id, "mentions": len(doc.mentions)})


@pytest.mark.parametrize("workers", ["1", "2"])
def test_one_registration_adds_a_format_to_chemie_run(registry, tmp_path, capsys, workers):
    register(OutputFormat(
        "run", "ids", ids_line, JsonlSink, {"key_field": "id", "unique": True},
        suffixes=(".ids",), help="ids and mention counts",
    ))
    out = tmp_path / "out.ids"  # the suffix chooses the format
    argv = ["run", str(SCALE / "texts"), "-o", str(out), "-q", "--workers", workers]
    assert main(argv) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [d["id"] for d in lines] == ["s1", "s2", "more/s3", "more/s4"]
    assert all(d["mentions"] > 0 for d in lines)
    explicit = tmp_path / "explicit"
    assert main(["run", str(SCALE / "texts"), "--format", "ids", "-o", str(explicit), "-q"]) == 0
    assert explicit.read_bytes() == out.read_bytes()
    assert main([*argv, "--resume"]) == 0  # resumable, as its sink is
    assert out.read_bytes() == explicit.read_bytes()
    capsys.readouterr()
    wrong = ["run", str(SCALE / "texts"), "--format", "ids", "-o", str(tmp_path / "x.csv")]
    assert main(wrong) == 2
    assert "a .csv name is for csv output, not --format ids" in capsys.readouterr().err


def role_count(doc: Document) -> str:
    """Toy formatter: the document's id and number of ChEMU 2020 roles as one JSON line."""
    return json.dumps({"id": doc.id, "roles": len(doc.roles)})


def test_a_format_that_needs_roles_gets_them_and_no_other_pays_for_them(registry, tmp_path):
    for name, needs in (("with", True), ("without", False)):
        register(OutputFormat("run", name, role_count, JsonlSink, {"key_field": "id"},
                              needs_roles=needs, help="role counts"))
    counts = {}
    for name in ("with", "without"):
        out = tmp_path / f"{name}.out"
        argv = ["run", str(SCALE / "texts"), "--format", name, "-o", str(out), "-q",
                "--workers", "1"]
        assert main(argv) == 0
        counts[name] = [json.loads(line)["roles"] for line in out.read_text().splitlines()]
    assert all(n > 0 for n in counts["with"])
    assert counts["without"] == [0] * len(counts["with"])


def test_a_format_of_another_command_is_not_offered_by_run(registry, tmp_path, capsys):
    register(OutputFormat("demo", "ids", ids_line, JsonlSink, {"key_field": "id"}))
    assert [f.name for f in outputs.offered("demo")] == ["ids"]
    assert "ids" not in [f.name for f in outputs.offered("run")]
    with pytest.raises(SystemExit):
        main(["run", str(SCALE / "texts"), "--format", "ids", "-o", str(tmp_path / "o")])
    assert "invalid choice: 'ids'" in capsys.readouterr().err
    with pytest.raises(ValueError, match="already registered"):
        register(OutputFormat("demo", "ids", ids_line, JsonlSink))


def make_tagger() -> object:
    """Stand-in pipeline: one mention per word starting with a capital (no model needed)."""

    def tag(doc: Document) -> Document:
        words = [w for w in doc.text.split() if w[:1].isupper()]
        start = 0
        for i, word in enumerate(words, 1):
            start = doc.text.index(word, start)
            doc.mentions.append(Mention(f"T{i}", ((start, start + len(word)),), "CAP", word))
            start += len(word)
        return doc

    return tag


def _caps(doc: Document) -> list[dict]:
    return [{"doc_id": doc.id, "word": m.text} for m in doc.mentions]


def _sizes(doc: Document) -> list[dict]:
    return [{"doc_id": doc.id, "chars": len(doc.text), "words": len(doc.text.split())}]


CAPS = Table("caps", (("doc_id", "str"), ("word", "str")), _caps)
SIZES = Table("sizes", (("doc_id", "str"), ("chars", "int"), ("words", "int")), _sizes)


def caps_lines(doc: Document) -> str:
    """Toy formatter: one line per capitalised word (zero or more lines per document)."""
    return "".join(f"{doc.id}\t{m.text}\n" for m in doc.mentions)


def caps_ann(doc: Document) -> tuple[str, str]:
    """Toy formatter: brat files with one entity per capitalised word."""
    ann = "".join(f"{m.id}\tCAP {m.start} {m.end}\t{m.text}\n" for m in doc.mentions)
    return doc.text, ann


def _run(fmt: OutputFormat, out: Path, resume: bool = False) -> object:
    job = Job(f"{__name__}:make_tagger", fmt.key)
    items = iter_items([SCALE / "texts"], keys=resume)
    return run_job(items, job, fmt.open(out), ErrorLog(out.with_name("errors.tsv")), resume=resume)


def test_a_new_command_can_declare_line_folder_and_multi_table_formats(registry, tmp_path):
    """What reaction outputs need: a format set of their own, zero or more lines per
    document, a brat-like folder, and several tables in CSV or Parquet."""
    lines = register(OutputFormat("demo", "caps", caps_lines, BlockSink, {"header": "id\tword\n"},
                                  suffixes=(".caps",)))
    folder = register(OutputFormat("demo", "ann", caps_ann, BratSink, layout=FOLDER))
    tables = {
        fmt: register(OutputFormat("demo", fmt, lambda doc: doc, TableSink,
                                   {"fmt": fmt, "tables": (CAPS, SIZES)}, layout=PREFIX,
                                   suffixes=(f".{fmt}",)))
        for fmt in ("csv", "parquet")
    }
    assert _run(lines, tmp_path / "w.caps").written == 4
    rows = (tmp_path / "w.caps").read_text().splitlines()
    assert rows[0] == "id\tword" and ("s1\tStep" in rows)
    assert _run(folder, tmp_path / "ann").written == 4
    assert "CAP 0 4\tStep" in (tmp_path / "ann" / "s1.ann").read_text()
    assert outputs.choose("demo", None, tmp_path / "t.parquet", {"txt"}) is tables["parquet"]
    for fmt, spec in tables.items():
        assert _run(spec, tmp_path / "t").written == 4
        caps, sizes = read_tables(tmp_path / "t", fmt, (CAPS, SIZES))
        assert len(caps) == len(rows) - 1 and list(sizes["doc_id"]) == [
            "s1", "s2", "more/s3", "more/s4"]
        assert sizes["chars"].dtype == "int64"
        assert _run(spec, tmp_path / "t", resume=True).skipped == 4


def test_the_readme_table_of_formats_is_the_registry():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = outputs.markdown_table()
    assert table in readme, f"README's format table is stale; it should read:\n{table}"


def test_each_built_in_format_says_how_it_is_written():
    for fmt in outputs.FORMATS.values():
        assert fmt.help and fmt.layout in outputs.LAYOUTS
        if fmt.layout in (FOLDER, PREFIX):
            assert not fmt.prints, f"{fmt.key} cannot be printed"
    assert outputs.get("run", "chemu").resumable and not outputs.get("run", "describe").resumable
    assert outputs.get("ner", "tsv").prints and not outputs.get("ner", "csv").prints


def _imports(path: Path, package: str) -> set[str]:
    """The chemie modules ``path`` imports, anywhere in it (deferred and type-checking
    imports too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("chemie"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("chemie"))
    return {m for m in found if m.startswith(package)}


@pytest.mark.parametrize("package", ["scale", "formats"])
def test_no_import_cycle_among_the_output_modules(package):
    """chemie.scale.sinks and chemie.scale.worker used to import each other."""
    folder = ROOT / "pipeline" / package
    graph = {
        f"chemie.{package}.{p.stem}": _imports(p, f"chemie.{package}.")
        for p in folder.glob("*.py") if p.stem != "__init__"
    }

    def visit(module: str, path: tuple[str, ...]) -> None:
        for target in graph.get(module, ()):
            assert target not in path, f"import cycle: {' -> '.join((*path, target))}"
            visit(target, (*path, target))

    for module in graph:
        visit(module, (module,))
