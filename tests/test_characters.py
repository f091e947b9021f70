"""Unicode characters read as ASCII once, where a text enters the pipeline, offsets kept,
outputs quoting the original (rules/characters.yaml, chemie.characters)."""

from __future__ import annotations

import json

import pytest

from chemie.characters import CharacterTable, normalise, translation
from chemie.cli import main
from chemie.formats.chemu import parse_chemu_line
from chemie.model import Document
from chemie.nlp import annotate, load
from chemie.tables import load_table

RULES = load_table("characters.yaml", CharacterTable).rules

COUPLING = ("To a solution of the acid (1.0 g) in DMF (10 mL) were added EDC·HCl (1.2 g) and "
            "HOBt (0.8 g). The mixture was stirred for 16\u00a0h. The alcohol (1.0 g) was "
            "oxidised with Dess–Martin periodinane (2.0 g) in CH₂Cl₂ (10 mL) at −20 °C. "
            "The organic layer was dried over Na₂SO₄.")


@pytest.fixture(scope="module")
def nlp():
    return load(roles=True)


@pytest.mark.parametrize("rule", RULES, ids=[r.name for r in RULES])
def test_every_rule_fires_on_its_example_one_character_for_one(rule):
    out = normalise(rule.example)
    assert out != rule.example and len(out) == len(rule.example)
    changed = [(a, b) for a, b in zip(rule.example, out, strict=True) if a != b]
    assert changed and all(a in rule.chars for a, _ in changed)
    assert all(b in rule.becomes for _, b in changed)


def test_ascii_and_unmapped_text_is_returned_as_it_is():
    for text in ("plain ASCII", "°C and µL stay", "β-alanine"):
        assert normalise(text) is text
    assert all(len(v) == 1 for v in translation().values())


def test_the_pipeline_reads_normalised_text_and_quotes_the_original(nlp):
    doc = annotate(nlp, Document("d", COUPLING))
    assert doc.text == COUPLING
    roles = {r.text: r.label for r in doc.roles}
    # each was missed, cut or unlabelled when read as written
    assert roles["EDC·HCl"] == "REAGENT_CATALYST"
    assert "Dess–Martin periodinane" in roles and "periodinane" not in roles
    assert roles["CH₂Cl₂"] == "SOLVENT" and "Na₂SO₄" in roles
    assert roles["16\u00a0h"] == "TIME"
    for r in doc.roles:
        assert COUPLING[r.start:r.end] == r.text
    for m in doc.mentions:
        assert doc.span_text(m.spans) == m.text
    assert all(COUPLING[t.start:t.end] == t.text for t in doc.tokens)
    assert any(t.text == "EDC·HCl" for t in doc.tokens)


def test_pre_tokenized_documents_keep_their_tokens(nlp):
    line = json.dumps({"doc_key": "k", "sentences": [
        ["EDC·HCl", "(", "1.2", "g", ")", "was", "added", "to", "the", "acid", "."],
        ["The", "mixture", "was", "cooled", "to", "−78", "°C", "."]]}, ensure_ascii=False)
    document = parse_chemu_line(line)
    out = annotate(nlp, document)
    assert out.text == document.text and out.tokens == document.tokens
    assert any(m.text.startswith("EDC·HCl") for m in out.mentions)


def test_outputs_quote_the_original_text(tmp_path, capsys):
    src = tmp_path / "coupling.txt"
    src.write_text(COUPLING, encoding="utf-8")
    brat = tmp_path / "brat"
    assert main(["run", str(src), "-o", str(brat), "--format", "chemu2020", "-q"]) == 0
    assert (brat / "coupling.txt").read_text(encoding="utf-8") == COUPLING
    ann = (brat / "coupling.ann").read_text(encoding="utf-8")
    assert "\tEDC·HCl\n" in ann and "\tDess–Martin periodinane\n" in ann
    tsv = tmp_path / "ner.tsv"
    assert main(["ner", str(src), "-o", str(tsv), "-q"]) == 0
    names = [row.split("\t")[3] for row in tsv.read_text(encoding="utf-8").splitlines()[1:]]
    assert "Na₂SO₄" in names and all(n in COUPLING for n in names)
    records = tmp_path / "rx.jsonl"
    assert main(["reactions", str(src), "-o", str(records), "--no-structures", "-q"]) == 0
    quoted = [c["name"] for line in records.read_text(encoding="utf-8").splitlines()
              for role in ("reactants", "reagents", "solvents", "catalysts", "products")
              for c in json.loads(line).get(role, [])]
    assert "EDC·HCl" in quoted and all(n in COUPLING for n in quoted)


def test_restore_quotes_discontinuous_mentions_and_reaction_fields():
    from dataclasses import dataclass

    from chemie.characters import restore
    from chemie.model import Mention, Role

    @dataclass
    class Named:  # a record with quoting fields, as chemie_reactions makes them
        name: str
        start: int = -1
        end: int = -1

    original = Document("d", "a cold (−30 °C) solution of EDC·HCl in THF")
    norm = normalise(original.text)
    out = Document("d", norm, mentions=[
        Mention("M1", ((0, 14), (28, 35)), text=f"{norm[0:14]} {norm[28:35]}"),
        Mention("M2", ((28, 35),), text=norm[28:35])],
        roles=[Role("R1", 8, 14, "TEMPERATURE", norm[8:14], "r")],
        reactions=[[Named("EDC.HCl", 28, 35), Named("EDC.HCl")]])
    restore(out, original)
    assert [m.text for m in out.mentions] == ["a cold (−30 °C EDC·HCl", "EDC·HCl"]
    assert out.roles[0].text == "−30 °C"
    assert [n.name for n in out.reactions[0]] == ["EDC·HCl", "EDC·HCl"]
