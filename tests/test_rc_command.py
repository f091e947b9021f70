"""``chemie rc`` on each input format, --explain, and bad input."""

from __future__ import annotations

import json

import pytest

from chemie.cli import main
from chemie.formats import semeval, unified


def test_unified_output_keeps_pairs_and_order(fixtures, tmp_path):
    out = tmp_path / "pred.txt"
    pairs = fixtures / "rc/cv-pairs.txt"
    assert main(["rc", str(fixtures / "rc/cv-tokens.txt"), str(pairs), "-o", str(out)]) == 0
    pred = unified.read_pairs(out)
    gold = unified.read_pairs(pairs)
    assert [(p.head, p.tail) for p in pred] == [(g.head, g.tail) for g in gold]
    assert all(p.label for p in pred) and all(p.rule is None for p in pred)


def test_explain_adds_rule_column(fixtures, tmp_path):
    out = tmp_path / "pred.txt"
    args = ["rc", str(fixtures / "rc/cv-tokens.txt"), str(fixtures / "rc/cv-pairs.txt"),
            "-o", str(out), "--explain"]
    assert main(args) == 0
    rows = [line.split("\t") for line in out.read_text().splitlines()]
    assert all(len(r) == 4 and r[3] for r in rows)
    assert rows[0][2:] == ["USAGE", "usage_use_to"]  # "we use X for Y"


def test_semeval_output_has_direction(fixtures, tmp_path):
    out = tmp_path / "pred.txt"
    args = ["rc", str(fixtures / "rc/semeval.xml"), str(fixtures / "rc/semeval-relations.txt"),
            "-o", str(out)]
    assert main(args) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 5
    pred = semeval.read_relations(out)
    # "The accuracy of the parser": RESULT(parser, accuracy), written with REVERSE
    assert lines[2] == "RESULT(X01-0001.5,X01-0001.6,REVERSE)"
    assert pred[3].label == "COMPARE"  # "parser ... outperforms the baseline"


def test_scierc_output_is_json_with_scierc_labels(fixtures, tmp_path):
    out = tmp_path / "pred.json"
    assert main(["rc", str(fixtures / "rc/scierc.json"), "-o", str(out), "--explain"]) == 0
    docs = [json.loads(x) for x in out.read_text().splitlines()]
    first = docs[0]
    assert first["sentences"] == json.loads(
        (fixtures / "rc/scierc.json").read_text().splitlines()[0])["sentences"]
    labels = {r[4] for sent in first["relations"] for r in sent}
    assert labels <= {"USED-FOR", "FEATURE-OF", "PART-OF", "EVALUATE-FOR", "COMPARE",
                      "CONJUNCTION", "HYPONYM-OF"}
    assert docs[1]["relations"] == [[[0, 0, 2, 2, "CONJUNCTION"]]]
    assert docs[1]["relation_rules"] == [["conjunction_and"]]


@pytest.mark.parametrize(
    "pairs, line, message",
    [
        ("cv-0001.1\tcv-0001.2\tUSAGE\ncv-0001.1\tcv-0009.9\tUSAGE\n", 2, "unknown entity id"),
        ("cv-0001.1\tcv-0001.3\n", 1, "different sentences"),
        ("cv-0001.1\tcv-0002.1\n", 1, "different documents"),
        ("cv-0001.1\n", 1, "expected entity-1"),
    ],
)
def test_bad_pairs_exit_2_and_write_nothing(fixtures, tmp_path, capsys, pairs, line, message):
    path = tmp_path / "pairs.txt"
    path.write_text(pairs)
    out = tmp_path / "pred.txt"
    assert main(["rc", str(fixtures / "rc/cv-tokens.txt"), str(path), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{path}:{line}: " in err[0] and message in err[0]
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [path]


def test_missing_pairs_file_is_an_error(fixtures, capsys):
    assert main(["rc", str(fixtures / "rc/cv-tokens.txt")]) == 2
    assert "needs a pairs file" in capsys.readouterr().err


@pytest.mark.corpus
def test_unified_dev_predictions_score_above_majority(corpus, tmp_path):
    from chemie.scoring.rc import align, macro_f1

    tokens, pairs = corpus("sci-rc-unified/sample-dev.txt"), corpus(
        "sci-rc-unified/sample-dev-rel.txt")
    out = tmp_path / "pred.txt"
    assert main(["rc", str(tokens), str(pairs), "-o", str(out)]) == 0
    gold = unified.read_pairs(pairs)
    ours = macro_f1(align(gold, unified.read_pairs(out), pairs, out))
    majority = [g.__class__(g.head, g.tail, "USAGE", g.line) for g in gold]
    assert ours > macro_f1(align(gold, majority, pairs, None))


def test_output_that_is_an_input_is_refused(fixtures, tmp_path, capsys):
    tokens, pairs = tmp_path / "tokens.txt", tmp_path / "pairs.txt"
    tokens.write_text((fixtures / "rc/cv-tokens.txt").read_text())
    pairs.write_text((fixtures / "rc/cv-pairs.txt").read_text())
    before = pairs.read_text()
    same = tmp_path / "sub" / ".." / "pairs.txt"
    (tmp_path / "sub").mkdir()
    assert main(["rc", str(tokens), str(pairs), "-o", str(same)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "output file is also an input" in err[0]
    assert pairs.read_text() == before
