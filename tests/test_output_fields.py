"""The README's field reference is generated from the format registry and complete: every
column of every table and every key of every JSON record a format writes is described."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chemie.cli import main
from chemie.formats.ner_records import TSV_HEADER
from chemie.formats.reaction_records import TABLES as REACTION_TABLES
from chemie.formats.tabular import MENTIONS
from chemie.formats.tabular import TABLES as RUN_TABLES
from chemie.scale import outputs

ROOT = Path(__file__).parent.parent
TEXT = ("Acetic acid (5 mL) was added to the amine (2.0 g) in EtOAc/hexane (1:1, 10 mL). The "
        "mixture was stirred at 20 °C for 2 h to give the product (1.1 g, 80%).\n")


def described(fmt: outputs.OutputFormat) -> set[str]:
    """The field names a format describes, one per name (``TABLE.a, b`` names a and b of
    TABLE; ``a, b`` names a and b)."""
    names = set()
    for field, _ in fmt.fields:
        table = ""
        for part in field.split(", "):
            if "." in part and not part.endswith((".txt", ".tsv")):
                table, _, part = part.rpartition(".")
            names.add(f"{table}.{part}" if table else part)
    return names


def test_the_readme_field_reference_is_the_registry():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    reference = outputs.markdown_fields()
    assert reference in readme, f"README's field reference is stale; it should read:\n{reference}"


def test_every_format_that_writes_records_describes_its_fields():
    for fmt in outputs.FORMATS.values():
        if fmt.name != "describe":
            assert fmt.fields, f"{fmt.key} has no field reference"


@pytest.mark.parametrize(("key", "tables"), [
    ("run/csv", RUN_TABLES), ("run/parquet", RUN_TABLES), ("ner/csv", (MENTIONS,)),
    ("ner/parquet", (MENTIONS,)), ("reactions/csv", REACTION_TABLES),
    ("reactions/parquet", REACTION_TABLES),
])
def test_every_table_column_is_described(key, tables):
    columns = {f"{t.name}.{c}" for t in tables for c in t.names}
    assert described(outputs.FORMATS[key]) == columns


def test_the_ner_columns_are_described():
    columns = set(TSV_HEADER.strip().split("\t"))
    assert described(outputs.FORMATS["ner/tsv"]) == columns


def _keys(record: object, prefix: str = "") -> set[str]:
    """``key`` and ``list[].key`` names of a JSON record (one level into lists of records)."""
    out = set()
    for key, value in record.items():  # type: ignore[attr-defined]
        out.add(prefix + key)
        if isinstance(value, list) and value and isinstance(value[0], dict) and not prefix:
            out |= {f"{key}[]." + k for v in value for k in v}
    return out


def test_every_json_key_is_described(tmp_path, capsys):
    src = tmp_path / "a.txt"
    src.write_text(TEXT, encoding="utf-8")
    doc = tmp_path / "doc.jsonl"
    assert main(["run", str(src), "-o", str(doc), "--format", "json", "-q"]) == 0
    names = described(outputs.FORMATS["run/json"])
    record = json.loads(doc.read_text(encoding="utf-8"))
    assert set(record) <= {n.removesuffix("[]") for n in names}
    rx = tmp_path / "rx.jsonl"
    assert main(["reactions", str(src), "-o", str(rx), "--no-structures", "-q"]) == 0
    names = described(outputs.FORMATS["reactions/jsonl"])
    [reaction] = [json.loads(line) for line in rx.read_text(encoding="utf-8").splitlines()]
    top = {n.removesuffix("[]") for n in names if "." not in n}
    assert set(reaction) <= top
    component = {k for role in ("products", "reactants", "reagents", "catalysts", "solvents")
                 for c in reaction.get(role, []) for k in c}
    assert component  # the components' keys are listed in the text of their row
    row = dict(outputs.FORMATS["reactions/jsonl"].fields)[
        "products[], reactants[], reagents[], catalysts[], solvents[]"]
    assert all(f"{key}" in row for key in component)
    chemu = tmp_path / "c.jsonl"
    assert main(["run", str(src), "-o", str(chemu), "--format", "chemu", "-q"]) == 0
    record = json.loads(chemu.read_text(encoding="utf-8"))
    names = described(outputs.FORMATS["run/chemu"])
    assert set(record) <= names
