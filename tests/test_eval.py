"""``chemie eval chemu-ref``: run and score in one step."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from chemie.cli import main
from chemie.corpora import parse_slice

MINI = Path(__file__).parent / "fixtures" / "anaphora" / "mini.jsonl"


def test_eval_prints_both_tables(capsys):
    assert main(["eval", "chemu-ref", str(MINI)]) == 0
    out = capsys.readouterr().out
    assert "== exact ==" in out and "== relaxed ==" in out
    assert "COREFERENCE" in out and "overall" in out


def test_eval_json_slice_and_modes(capsys):
    assert main(["eval", "chemu-ref", str(MINI), "--docs", "1:2", "--json",
                 "--coref", "atomic"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["tables"]) == {"exact", "relaxed"}
    assert "1 gold documents" in " ".join(report["notes"])


def test_eval_gold_mentions_finds_gold_coreference(capsys):
    assert main(["eval", "chemu-ref", str(MINI), "--gold-mentions", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tables"]["exact"]["COREFERENCE"]["tp"] > 0


def test_parse_slice():
    assert parse_slice("0:600") == (0, 600)
    assert parse_slice("600:") == (600, None)
    for bad in ("5", "a:b", "10:5"):
        with pytest.raises(argparse.ArgumentTypeError):
            parse_slice(bad)


def test_eval_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"doc_key": "x"}\n', encoding="utf-8")
    assert main(["eval", "chemu-ref", str(bad)]) == 2
    assert "bad.jsonl:1:" in capsys.readouterr().err
    assert main(["eval", "chemu-ref", str(MINI), "--docs", "5:9"]) == 2
    assert "no documents" in capsys.readouterr().err


@pytest.mark.corpus
def test_eval_on_corpus_slice(corpus, capsys):
    path = corpus("chemu-ref/train.jsonl")
    assert main(["eval", "chemu-ref", str(path), "--docs", "0:20", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tables"]["relaxed"]["overall"]["tp"] > 0


def test_eval_does_not_count_gold_dropped_pairs_as_predicted(tmp_path, capsys):
    # a gold pair with an empty argument is dropped on the gold side only
    line = json.loads(MINI.read_text(encoding="utf-8").splitlines()[0])
    line["Coreference"].append([[], [[5, 6]]])
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert main(["eval", "chemu-ref", str(path)]) == 0
    assert "dropped: 1 gold, 0 predicted" in capsys.readouterr().out


def _chemu2020_folder(tmp_path: Path) -> Path:
    gold = tmp_path / "gold"
    gold.mkdir()
    text = "4-Bromoaniline (1.0 g) was dissolved in methanol (10 mL) and stirred for 2 h."
    (gold / "b.txt").write_text(text, encoding="utf-8")
    (gold / "b.ann").write_text(
        "T1\tSTARTING_MATERIAL 0 14\t4-Bromoaniline\nT2\tREACTION_STEP 27 36\tdissolved\n"
        "T3\tSOLVENT 40 48\tmethanol\nT4\tTIME 73 76\t2 h\n", encoding="utf-8")
    (gold / "a.txt").write_text("The mixture was stirred for 5 h.", encoding="utf-8")
    (gold / "a.ann").write_text("T1\tTIME 28 31\t5 h\n", encoding="utf-8")
    return gold


def test_eval_chemu2020_scores_entities_and_triggers(tmp_path, capsys):
    gold = _chemu2020_folder(tmp_path)
    assert main(["eval", "chemu2020", str(gold), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["task"] == "entities"
    assert report["tables"]["entities exact"]["SOLVENT"]["tp"] == 1
    assert report["tables"]["entities exact"]["TIME"]["tp"] == 2
    assert "2 gold documents" in " ".join(report["notes"])


def test_eval_chemu2020_scores_events_when_the_gold_has_r_lines(tmp_path, capsys):
    gold = _chemu2020_folder(tmp_path)
    assert main(["eval", "chemu2020", str(gold), "--json"]) == 0
    assert "events exact" not in json.loads(capsys.readouterr().out)["tables"]
    with (gold / "b.ann").open("a", encoding="utf-8") as fh:
        fh.write("R1\tARG1 Arg1:T2 Arg2:T1\nR2\tARG1 Arg1:T2 Arg2:T3\n")
    assert main(["eval", "chemu2020", str(gold), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tables"]["entities exact"]["SOLVENT"]["tp"] == 1
    assert report["tables"]["events exact"]["ARG1"]["tp"] == 2  # dissolved: both compounds
    assert "events_exact_f1" in report["figures"]


def test_eval_chemu2020_documents_by_name_or_by_a_jsonl_order(tmp_path, capsys):
    gold = _chemu2020_folder(tmp_path)
    assert main(["eval", "chemu2020", str(gold), "--docs", "0:1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tables"]["entities exact"]["overall"]["tp"] == 1  # a.txt: "5 h"
    order = tmp_path / "order.jsonl"
    order.write_text('{"doc_key": "b"}\n{"doc_key": "a"}\n', encoding="utf-8")
    assert main(["eval", "chemu2020", str(gold), "--docs", "0:1", "--order", str(order),
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tables"]["entities exact"]["SOLVENT"]["tp"] == 1  # b.txt first


def test_eval_chemu2020_bad_gold_line(tmp_path, capsys):
    gold = _chemu2020_folder(tmp_path)
    (gold / "a.ann").write_text("T1\tTIME 28\t5 h\n", encoding="utf-8")
    assert main(["eval", "chemu2020", str(gold)]) == 2
    assert f"{gold / 'a.ann'}:1: T1: bad offsets" in capsys.readouterr().err
