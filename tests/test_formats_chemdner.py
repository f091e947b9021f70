"""CHEMDNER abstracts, annotations, CEM and CDI files."""

from __future__ import annotations

import pytest

from chemie.errors import InputError
from chemie.formats.chemdner import (
    Abstract,
    Annotation,
    CDIPrediction,
    CEMPrediction,
    rank_cdi,
    rank_cem,
    read_abstracts,
    read_annotations,
    read_cdi,
    read_cdi_gold,
    read_cem,
    write_abstracts,
    write_annotations,
    write_cdi,
    write_cem,
)


def test_abstracts_round_trip(tmp_path):
    items = [Abstract("1", "Cocaine toxicity", "Cocaine was given."), Abstract("2", "T", "")]
    write_abstracts(tmp_path / "a.tsv", items)
    assert read_abstracts(tmp_path / "a.tsv") == items


def test_annotations_round_trip(tmp_path):
    items = [Annotation("1", "T", 0, 7, "Cocaine", "TRIVIAL"),
             Annotation("1", "A", 10, 15, "K2CO3", "FORMULA")]
    write_annotations(tmp_path / "g.tsv", items)
    assert read_annotations(tmp_path / "g.tsv") == items


def test_cem_and_cdi_round_trip(tmp_path):
    cem = [CEMPrediction("1", "T", 0, 16, 1, 0.9), CEMPrediction("1", "A", 3, 8, 2, 0.5)]
    cdi = [CDIPrediction("1", "cocaine", 1, 0.9), CDIPrediction("2", "ethyl acetate", 1, 0.7)]
    write_cem(tmp_path / "p.cem.tsv", cem)
    write_cdi(tmp_path / "p.cdi.tsv", cdi)
    assert (tmp_path / "p.cem.tsv").read_text().splitlines()[0] == "1\tT:0:16\t1\t0.9"
    assert read_cem(tmp_path / "p.cem.tsv") == cem
    assert read_cdi(tmp_path / "p.cdi.tsv") == cdi


def test_cdi_gold_from_annotations_or_name_list(tmp_path):
    ann = tmp_path / "g.tsv"
    ann.write_text("1\tT\t0\t3\tTHF\tABBREVIATION\n1\tA\t5\t8\tTHF\tABBREVIATION\n")
    assert read_cdi_gold(ann) == {"1": {"THF"}}
    names = tmp_path / "n.tsv"
    names.write_text("1\tTHF\n2\twater\n")
    assert read_cdi_gold(names) == {"1": {"THF"}, "2": {"water"}}


def test_empty_prediction_files_are_valid(tmp_path):
    p = tmp_path / "p.tsv"
    p.write_text("", encoding="utf-8")
    assert read_cem(p) == [] and read_cdi(p) == []


def test_ranking_is_unique_and_by_confidence():
    cem = rank_cem("9", [("A", 5, 9, 0.5), ("T", 0, 3, 0.9), ("A", 5, 9, 0.7)])
    assert [(c.part, c.start, c.rank, c.confidence) for c in cem] == [
        ("T", 0, 1, 0.9), ("A", 5, 2, 0.7)]
    cdi = rank_cdi("9", [("THF", 0.5), ("water", 0.5), ("THF", 0.5), ("DMF", 0.8)])
    assert [c.name for c in cdi] == ["DMF", "THF", "water"]
    assert [c.rank for c in cdi] == [1, 2, 3]


@pytest.mark.parametrize(
    ("reader", "text", "match"),
    [
        (read_abstracts, "1 no tab here\n", r"f.tsv:1: .*no tab"),
        (read_abstracts, "1\tT\tA\n1\tT\tB\n", r"f.tsv:2: duplicate PMID"),
        (read_annotations, "1\tX\t0\t3\tTHF\tABBREVIATION\n", r"f.tsv:1: part must be T or A"),
        (read_annotations, "1\tA\t0\tz\tTHF\tABBREVIATION\n", r"f.tsv:1: end is not an integer"),
        (read_annotations, "1\tA\t0\t4\tTHF\tABBREVIATION\n", r"f.tsv:1: text length"),
        (read_cem, "1\tA:3\t1\t0.5\n", r"f.tsv:1: expected T:START:END"),
        (read_cem, "1\tA:3:5\tone\t0.5\n", r"f.tsv:1: rank is not an integer"),
        (read_cdi, "1\tTHF\t1\thigh\n", r"f.tsv:1: confidence is not a number"),
        (read_annotations, "", r"f.tsv: empty file"),
    ],
)
def test_errors_name_file_and_line(tmp_path, reader, text, match):
    p = tmp_path / "f.tsv"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=match):
        reader(p)
