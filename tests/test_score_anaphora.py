"""The ChEMU 2021 anaphora scorer: matching, coreference expansion, errors, the CLI."""

from __future__ import annotations

import io
import json

import pandas as pd
import pytest

from chemie.cli import main
from chemie.errors import InputError
from chemie.formats.brat import write_brat
from chemie.formats.chemu import iter_chemu, parse_chemu_line
from chemie.model import ANAPHORA_LABELS, Document, Mention, Relation
from chemie.scoring.anaphora import TYPES, expand_coreference, score_anaphora, score_files

WORDS = ["w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9"]


def doc(doc_id: str = "d", words: list[str] = WORDS, **relations: list) -> Document:
    """A document from jsonl-style relations, e.g. ``Coreference=[[[[0, 0]], [[1, 1]]]]``."""
    obj = {"doc_key": doc_id, "sentences": [words]}
    obj.update({key.replace("_", "-"): pairs for key, pairs in relations.items()})
    return parse_chemu_line(json.dumps(obj))


def tok(*indices: int) -> list:
    """A single-token mention for each index (jsonl form)."""
    return [[[i, i]] for i in indices]


def counts(report, mode: str, row: str) -> tuple[int, int, int]:
    frame = report.table(mode)
    return tuple(int(frame.loc[row, c]) for c in ("tp", "fp", "fn"))


def chain(*indices: int) -> list:
    """Coreference pairs w_i -> w_j for consecutive indices."""
    m = tok(*indices)
    return [[m[i], m[i + 1]] for i in range(len(m) - 1)]


def test_identical_documents_score_one():
    gold = doc(Coreference=chain(0, 1, 2), Work_up=[[tok(3)[0], [[4, 6]]]])
    report = score_anaphora(
        [gold], [doc(Coreference=chain(0, 1, 2), Work_up=[[tok(3)[0], [[4, 6]]]])]
    )
    for mode in ("exact", "relaxed"):
        frame = report.table(mode)
        assert frame.loc["overall", "f1"] == 1.0
        assert frame.loc["COREFERENCE", "f1"] == 1.0
        assert list(frame.index) == [*TYPES, "overall"]


def test_overview_example_two_links():
    """Gold T1->T2, T2->T3 vs predicted T1->T3, T2->T3: TP 2, FN 1, FP 0."""
    t = tok(1, 2, 3)
    gold = doc(Coreference=[[t[0], t[1]], [t[1], t[2]]])
    pred = doc(Coreference=[[t[0], t[2]], [t[1], t[2]]])
    report = score_anaphora([gold], [pred])
    assert counts(report, "exact", "COREFERENCE") == (2, 0, 1)
    assert counts(report, "relaxed", "COREFERENCE") == (2, 0, 1)


def test_overview_example_three_links():
    """Gold T1->T2, T2->T3, T3->T4 vs predicted Ti->T4: TP 3, FN 3, FP 0."""
    t = tok(1, 2, 3, 4)
    gold = doc(Coreference=[[t[0], t[1]], [t[1], t[2]], [t[2], t[3]]])
    pred = doc(Coreference=[[t[0], t[3]], [t[1], t[3]], [t[2], t[3]]])
    assert counts(score_anaphora([gold], [pred]), "exact", "COREFERENCE") == (3, 0, 3)


def test_bridging_is_not_expanded():
    t = tok(1, 2, 3)
    gold = doc(Work_up=[[t[0], t[1]], [t[1], t[2]]])
    pred = doc(Work_up=[[t[0], t[2]]])
    assert counts(score_anaphora([gold], [pred]), "exact", "WORK_UP") == (0, 1, 2)


def test_relaxed_uses_a_maximum_matching_not_a_greedy_one():
    # gold anaphors w0-w3 and w0; predicted w0-w1 (overlaps both) and w2-w3 (only the first)
    ant = [[5, 5]]
    gold = doc(Transformed=[[[[0, 3]], ant], [[[0, 0]], ant]])
    pred = doc(Transformed=[[[[0, 1]], ant], [[[2, 3]], ant]])
    report = score_anaphora([gold], [pred])

    # a greedy matching (each gold relation takes the first free overlapping prediction)
    g = [(gold.mention(r.head), gold.mention(r.tail)) for r in gold.relations]
    p = [(pred.mention(r.head), pred.mention(r.tail)) for r in pred.relations]
    free, greedy = list(range(len(p))), 0
    for ga, gt in g:
        j = next((j for j in free if ga.overlaps(p[j][0]) and gt.overlaps(p[j][1])), None)
        if j is not None:
            free.remove(j)
            greedy += 1
    assert greedy == 1
    assert counts(report, "relaxed", "TRANSFORMED") == (2, 0, 0)
    assert counts(report, "exact", "TRANSFORMED") == (0, 2, 2)


def test_duplicates_match_once():
    pair = [tok(1)[0], tok(2)[0]]
    gold = doc(Contained=[pair, pair])
    pred = doc(Contained=[pair])
    report = score_anaphora([gold], [pred])
    assert counts(report, "exact", "CONTAINED") == (1, 0, 1)
    assert counts(report, "relaxed", "CONTAINED") == (1, 0, 1)


def test_discontinuous_spans_compare_as_sets():
    gold = doc(Contained=[[tok(0)[0], [[2, 2], [4, 5]]]])
    pred = doc(Contained=[[tok(0)[0], [[2, 2], [4, 5]]]])
    near = doc(Contained=[[tok(0)[0], [[2, 2]]]])
    assert counts(score_anaphora([gold], [pred]), "exact", "CONTAINED") == (1, 0, 0)
    report = score_anaphora([gold], [near])
    assert counts(report, "exact", "CONTAINED") == (0, 1, 1)
    assert counts(report, "relaxed", "CONTAINED") == (1, 0, 0)


def test_missing_prediction_and_dropped_pairs_are_noted():
    gold = [
        doc("a", Work_up=[[tok(1)[0], tok(2)[0]], [[], tok(3)[0]]]),
        doc("b", Work_up=[[tok(1)[0], tok(2)[0]]]),
    ]
    report = score_anaphora(gold, [doc("a", Work_up=[[tok(1)[0], tok(2)[0]]])])
    assert counts(report, "exact", "WORK_UP") == (1, 0, 1)
    notes = " | ".join(report.notes)
    assert "1 gold documents had no prediction" in notes
    assert "dropped: 1 gold, 0 predicted" in notes


def test_unknown_prediction_document():
    with pytest.raises(InputError, match="document zz is not in the gold data"):
        score_anaphora([doc("a")], [doc("zz")])


def test_prediction_with_other_text():
    with pytest.raises(InputError, match="document a: text differs"):
        score_anaphora([doc("a")], [doc("a", words=["x", "y"])])


def test_prediction_with_other_tokens():
    with pytest.raises(InputError, match="document a: tokens differ"):
        score_anaphora([doc("a", words=["x", "y"])], [doc("a", words=["x y"])])


def test_duplicate_documents():
    with pytest.raises(InputError, match="document a appears twice in the gold data"):
        score_anaphora([doc("a"), doc("a")], [])
    with pytest.raises(InputError, match="document a is predicted twice"):
        score_anaphora([doc("a")], [doc("a"), doc("a")])


def test_other_relation_labels_are_ignored_and_noted():
    gold = doc(Work_up=[[tok(1)[0], tok(2)[0]]])
    pred = doc(Work_up=[[tok(1)[0], tok(2)[0]]])
    pred.relations.append(Relation("USED-FOR", pred.relations[0].head, pred.relations[0].tail))
    report = score_anaphora([gold], [pred])
    assert counts(report, "exact", "overall") == (1, 0, 0)
    assert any("ignored: 0 gold, 1 predicted" in n for n in report.notes)


def test_brat_prediction_folder(fixtures, tmp_path):
    gold = fixtures / "chemu" / "small.jsonl"
    pred = tmp_path / "pred"
    for d in iter_chemu(fixtures / "chemu" / "pred.jsonl"):
        write_brat(d, pred)
    report = score_files(gold, pred)
    expected = score_files(gold, fixtures / "chemu" / "pred.jsonl")
    for mode in ("exact", "relaxed"):
        pd.testing.assert_frame_equal(report.table(mode), expected.table(mode))
    text = (pred / "d1.txt").read_text()
    (pred / "d1.txt").write_text(text[:-1] + "!")
    with pytest.raises(InputError, match="text differs") as e:
        score_files(gold, pred)
    assert e.value.path == str(pred / "d1.ann")


def test_fixture_scores(fixtures):
    """Hand-checked: exact TP 1 FP 3 FN 5; relaxed TP 3 FP 1 FN 3 (see pred.jsonl)."""
    report = score_files(fixtures / "chemu" / "small.jsonl", fixtures / "chemu" / "pred.jsonl")
    assert counts(report, "exact", "overall") == (1, 3, 5)
    assert counts(report, "relaxed", "overall") == (3, 1, 3)
    assert counts(report, "relaxed", "REACTION_ASSOCIATED") == (2, 1, 0)
    assert counts(report, "relaxed", "WORK_UP") == (1, 0, 1)
    assert "1 gold documents had no prediction" in report.notes


# --- the command line ---------------------------------------------------------------------


def test_cli_json(fixtures, capsys):
    gold, pred = fixtures / "chemu" / "small.jsonl", fixtures / "chemu" / "pred.jsonl"
    assert main(["score", "anaphora", str(gold), str(pred), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["tables"]) == {"exact", "relaxed"}
    assert data["tables"]["relaxed"]["overall"]["tp"] == 3
    assert set(data["tables"]["exact"]) == {*ANAPHORA_LABELS, "overall"}


def test_cli_csv_parses(fixtures, capsys):
    gold, pred = fixtures / "chemu" / "small.jsonl", fixtures / "chemu" / "pred.jsonl"
    assert main(["score", "anaphora", str(gold), str(pred), "--csv"]) == 0
    frame = pd.read_csv(io.StringIO(capsys.readouterr().out))
    assert set(frame["table"]) == {"exact", "relaxed"}
    assert len(frame) == 2 * (len(TYPES) + 1)
    row = frame[(frame["table"] == "exact") & (frame["row"] == "overall")].iloc[0]
    assert (row["tp"], row["fp"], row["fn"]) == (1, 3, 5)


def test_cli_malformed_prediction_line(fixtures, tmp_path, capsys):
    pred = tmp_path / "pred.jsonl"
    lines = (fixtures / "chemu" / "pred.jsonl").read_text().splitlines()
    pred.write_text(lines[0] + "\n{oops\n")
    out = tmp_path / "report.txt"
    out.write_text("previous")
    code = main(
        ["score", "anaphora", str(fixtures / "chemu" / "small.jsonl"), str(pred), "-o", str(out)]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"chemie: {pred}:2: malformed JSON")
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
    assert out.read_text() == "previous"


def test_cli_unknown_document_names_file_and_line(fixtures, tmp_path, capsys):
    pred = tmp_path / "pred.jsonl"
    pred.write_text('\n{"doc_key": "nope", "sentences": [["x"]]}\n')
    code = main(["score", "anaphora", str(fixtures / "chemu" / "small.jsonl"), str(pred)])
    assert code == 2
    assert f"{pred}:2: document nope is not in the gold data" in capsys.readouterr().err


def test_cli_output_file(fixtures, tmp_path, capsys):
    gold, pred = fixtures / "chemu" / "small.jsonl", fixtures / "chemu" / "pred.jsonl"
    out = tmp_path / "sub" / "report.json"
    assert main(["score", "anaphora", str(gold), str(pred), "--json", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    assert json.loads(out.read_text())["task"] == "anaphora"
    assert [p.name for p in out.parent.iterdir()] == ["report.json"]


def test_cli_missing_file(tmp_path, capsys):
    code = main(["score", "anaphora", str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl")])
    assert code == 2
    assert "no such file" in capsys.readouterr().err


def test_corpus_scores_itself_perfectly(corpus, capsys):
    path = str(corpus("chemu-ref/train.jsonl"))
    assert main(["score", "anaphora", path, path, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for mode in ("exact", "relaxed"):
        table = data["tables"][mode]
        assert {row: table[row]["f1"] for row in table} == {row: 1.0 for row in table}
        assert table["overall"]["tp"] > 0


def test_expand_coreference_follows_chains_and_skips_cycles_back():
    a, b, c = (Mention(f"T{i}", ((i, i + 1),)) for i in range(3))
    b_copy = Mention("other-id", b.spans)
    expanded = expand_coreference([(a, b), (b_copy, c), (c, a)])
    got = {(x.spans, y.spans) for x, y in expanded}
    spans = [a.spans, b.spans, c.spans]
    assert got == {(x, y) for x in spans for y in spans if x != y}
    assert len(expanded) == len(got)
    assert expand_coreference([(a, a)]) == [(a, a)]
