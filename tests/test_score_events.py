"""The event scorer (ChEMU 2020 Task 2 links): known answers worked out by hand for each
matching rule (exact; relaxed overlap on trigger *and* argument; touching spans; duplicates;
a maximum matching), the brat R lines it reads, bad input and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chemie.cli import main
from chemie.errors import InputError
from chemie.formats.chemu2020 import read_event_gold
from chemie.model import Document, Mention, Relation
from chemie.scoring.events import score_events, score_files

TEXT = "Acetone was added to phenol and stirred at 20 C for 2 h."


def span(part: str, nth: int = 0) -> tuple[int, int]:
    """The character range of the ``nth`` occurrence of ``part`` in TEXT."""
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(part, start + 1)
    return start, start + len(part)


def doc(*events: tuple[str, tuple[str, tuple[int, int]], tuple[str, tuple[int, int]]],
        doc_id: str = "d") -> Document:
    """A document with one relation per ``(role, (trigger label, span), (arg label, span))``
    (each side its own T line, as brat allows)."""
    mentions, relations = [], []
    for n, (role, (t_label, t_span), (a_label, a_span)) in enumerate(events, 1):
        t = Mention(f"T{2 * n - 1}", (t_span,), t_label, TEXT[slice(*t_span)])
        a = Mention(f"T{2 * n}", (a_span,), a_label, TEXT[slice(*a_span)])
        mentions += [t, a]
        relations.append(Relation(role, t.id, a.id, id=f"R{n}"))
    return Document(doc_id, TEXT, mentions=mentions, relations=relations)


ADDED = ("REACTION_STEP", span("added"))
STIRRED = ("REACTION_STEP", span("stirred"))
ACETONE = ("STARTING_MATERIAL", span("Acetone"))
PHENOL = ("STARTING_MATERIAL", span("phenol"))
TEMP = ("TEMPERATURE", span("20 C"))
TIME = ("TIME", span("2 h"))


def counts(report, mode: str, row: str) -> tuple[int, int, int]:
    frame = report.table(f"events {mode}")
    return tuple(int(frame.loc[row, c]) for c in ("tp", "fp", "fn"))


def figures(report, mode: str, row: str) -> tuple[float, float, float]:
    frame = report.table(f"events {mode}")
    return tuple(float(frame.loc[row, c]) for c in ("precision", "recall", "f1"))


def test_exact_by_hand_per_role_and_overall():
    gold = doc(("ARG1", ADDED, ACETONE), ("ARG1", ADDED, PHENOL), ("ARGM", STIRRED, TEMP))
    pred = doc(("ARG1", ADDED, ACETONE), ("ARG1", ADDED, PHENOL), ("ARGM", STIRRED, TIME))
    report = score_events([gold], [pred])
    assert counts(report, "exact", "ARG1") == (2, 0, 0)
    assert counts(report, "exact", "ARGM") == (0, 1, 1)
    # P = 2/3 (2 of 3 predicted), R = 2/3 (2 of 3 gold), F1 = 2/3
    assert figures(report, "exact", "overall") == pytest.approx((2 / 3, 2 / 3, 2 / 3))
    assert report.figures["events_exact_f1"] == pytest.approx(2 / 3)
    assert list(report.table("events exact").index) == ["ARG1", "ARGM", "overall"]


def test_relaxed_needs_both_trigger_and_argument_to_overlap():
    at_20 = ("TEMPERATURE", span("at 20 C"))  # overlaps "20 C"
    ed = ("REACTION_STEP", span("ed to"))  # overlaps "added", not "stirred"
    gold = doc(("ARGM", STIRRED, TEMP), ("ARG1", ADDED, ACETONE), ("ARG1", ADDED, PHENOL))
    pred = doc(
        ("ARGM", STIRRED, at_20),  # both overlap: relaxed hit, exact miss
        ("ARG1", ed, PHENOL),  # trigger overlaps, argument exact: relaxed hit
        ("ARG1", STIRRED, ACETONE),  # argument right, trigger elsewhere: miss
    )
    report = score_events([gold], [pred])
    assert counts(report, "exact", "overall") == (0, 3, 3)
    # relaxed: 2 of 3 predicted and 2 of 3 gold -> P = R = F1 = 2/3
    assert counts(report, "relaxed", "overall") == (2, 1, 1)
    assert figures(report, "relaxed", "overall") == pytest.approx((2 / 3, 2 / 3, 2 / 3))


def test_an_overlapping_trigger_alone_is_no_relaxed_match():
    gold = doc(("ARG1", ADDED, ACETONE))
    pred = doc(("ARG1", ADDED, PHENOL))  # same trigger, same label, argument elsewhere
    report = score_events([gold], [pred])
    assert counts(report, "relaxed", "ARG1") == (0, 1, 1)
    assert figures(report, "relaxed", "overall") == (0.0, 0.0, 0.0)


def test_touching_spans_do_not_overlap():
    a, b = span("20 C")
    gold = doc(("ARGM", STIRRED, ("TEMPERATURE", (a, a + 2))))  # "20"
    touching = doc(("ARGM", STIRRED, ("TEMPERATURE", (a + 2, b))))  # " C": starts where it ends
    assert counts(score_events([gold], [touching]), "relaxed", "ARGM") == (0, 1, 1)
    next_trigger = doc(("ARGM", ("REACTION_STEP", (span("stirred")[1], a)), ("TEMPERATURE",
                                                                              (a, a + 2))))
    assert counts(score_events([gold], [next_trigger]), "relaxed", "ARGM") == (0, 1, 1)


def test_a_duplicate_prediction_matches_once():
    gold = doc(("ARG1", ADDED, ACETONE))
    pred = doc(("ARG1", ADDED, ACETONE), ("ARG1", ADDED, ACETONE))  # twice, own T lines
    report = score_events([gold], [pred])
    # TP 1, FP 1, FN 0: P = 1/2, R = 1, F1 = 2/3
    assert counts(report, "exact", "ARG1") == (1, 1, 0)
    assert figures(report, "exact", "overall") == pytest.approx((0.5, 1.0, 2 / 3))
    assert counts(report, "relaxed", "ARG1") == (1, 1, 0)


def test_a_duplicate_gold_link_is_missed_once():
    report = score_events([doc(("ARG1", ADDED, ACETONE), ("ARG1", ADDED, ACETONE))],
                          [doc(("ARG1", ADDED, ACETONE))])
    assert counts(report, "exact", "ARG1") == (1, 0, 1)


def test_relaxed_uses_a_maximum_matching_not_a_greedy_one():
    a, b = span("20 C")
    gold = doc(("ARGM", STIRRED, ("TEMPERATURE", (a, b))),
               ("ARGM", STIRRED, ("TEMPERATURE", (b - 1, b))))  # "20 C" and "C"
    # the first prediction overlaps both gold arguments, the second only "20 C": a greedy
    # pairing of the first with "20 C" would leave "C" unmatched
    pred = doc(("ARGM", STIRRED, ("TEMPERATURE", (a, b))),
               ("ARGM", STIRRED, ("TEMPERATURE", (a, a + 2))))
    assert counts(score_events([gold], [pred]), "relaxed", "ARGM") == (2, 0, 0)


def test_role_and_labels_must_agree():
    gold = doc(("ARG1", ADDED, ACETONE))
    for pred in (doc(("ARGM", ADDED, ACETONE)),  # another role
                 doc(("ARG1", ADDED, ("SOLVENT", span("Acetone")))),  # another argument label
                 doc(("ARG1", ("WORKUP", span("added")), ACETONE))):  # another trigger label
        report = score_events([gold], [pred])
        assert counts(report, "exact", "overall") == (0, 1, 1)
        assert counts(report, "relaxed", "overall") == (0, 1, 1)


def test_a_missing_prediction_misses_its_gold_links_and_other_labels_are_noted():
    gold = [doc(("ARG1", ADDED, ACETONE), doc_id="a"), doc(("ARGM", STIRRED, TIME), doc_id="b")]
    pred = doc(("ARG1", ADDED, ACETONE), doc_id="a")
    pred.relations.append(Relation("COREFERENCE", "T1", "T2", id="R9"))
    report = score_events(gold, [pred])
    assert counts(report, "exact", "overall") == (1, 0, 1)
    assert "1 gold documents had no prediction" in report.notes
    assert "1 relations with labels other than ARG1/ARGM not scored" in report.notes


def write(folder: Path, name: str, ann: str, text: str = TEXT) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    (folder / f"{name}.ann").write_text(ann, encoding="utf-8")


ANN = ("T1\tSTARTING_MATERIAL 0 7\tAcetone\nT2\tREACTION_STEP 12 17\tadded\n"
       "T3\tTIME 52 55\t2 h\nT4\tREACTION_STEP 32 39\tstirred\n"
       "R1\tARG1 Arg1:T2 Arg2:T1\nR2\tARGM Arg1:T4 Arg2:T3\n")


def test_brat_folders_and_the_cli_json(tmp_path, capsys):
    write(tmp_path / "gold", "s1", ANN)
    write(tmp_path / "pred", "s1", ANN.replace("R2\tARGM Arg1:T4 Arg2:T3\n",
                                               "R2\tARGM Arg1:T2 Arg2:T3\n#1\tAnnotatorNotes "
                                               "R2\trule=after_trigger\n"))
    report = score_files(tmp_path / "gold", tmp_path / "pred")
    assert counts(report, "exact", "ARGM") == (0, 1, 1)
    code = main(["score", "events", str(tmp_path / "gold"), str(tmp_path / "pred"), "--json"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["task"] == "events"
    assert data["tables"]["events exact"]["ARG1"]["tp"] == 1
    assert data["figures"]["events_exact_f1"] == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("R3\tARG1 Arg1:T2\n", ":7: R3: expected 'LABEL Arg1:ID Arg2:ID'"),
        ("R3\tARG1 Arg1:T2 Arg2:\n", ":7: R3: expected 'LABEL Arg1:ID Arg2:ID'"),
        ("R3\tARG1 Arg1:T2 Arg3:T1\n", ":7: R3: expected 'LABEL Arg1:ID Arg2:ID'"),
        ("R3\tARG1 Arg1:T2 Arg2:T9\n", ":7: R3: argument T9 is not a defined T id"),
        ("R3\tARG1 Arg1:T2 Arg2:R1\n", ":7: R3: argument R1 is not a defined T id"),
        ("R2\tARG1 Arg1:T2 Arg2:T1\n", ":7: R2 is defined twice"),
        ("R3\n", ":7: malformed line"),
    ],
)
def test_a_broken_relation_line_names_file_and_line_and_writes_nothing(tmp_path, capsys,
                                                                       line, message):
    write(tmp_path / "gold", "s1", ANN)
    write(tmp_path / "pred", "s1", ANN + line)
    out = tmp_path / "report.json"
    code = main(["score", "events", str(tmp_path / "gold"), str(tmp_path / "pred"), "--json",
                 "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{tmp_path / 'pred' / 's1.ann'}{message}" in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_event_gold_is_read_with_its_corpus_ann(tmp_path):
    write(tmp_path / "corpus", "s1", ANN.split("R1")[0])
    (tmp_path / "gold").mkdir()
    (tmp_path / "gold" / "s1.rel").write_text("R1\tARGM Arg1:T4 Arg2:T3\n", encoding="utf-8")
    (doc_,) = read_event_gold(tmp_path / "corpus", tmp_path / "gold")
    assert [(r.label, r.head, r.tail) for r in doc_.relations] == [("ARGM", "T4", "T3")]
    (tmp_path / "gold" / "s1.rel").write_text("\nR1\tARGM Arg1:T4 Arg2:T7\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"s1\.rel:2: R1: argument T7 is not a defined T id"):
        list(read_event_gold(tmp_path / "corpus", tmp_path / "gold"))
    (tmp_path / "gold" / "s1.rel").write_text("", encoding="utf-8")
    (tmp_path / "gold" / "s2.rel").write_text("", encoding="utf-8")
    with pytest.raises(InputError, match=r"s2\.rel: no s2\.txt and s2\.ann"):
        list(read_event_gold(tmp_path / "corpus", tmp_path / "gold"))


EVENT_GOLD = Path(__file__).parent.parent / "benchmarks" / "events_gold"


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["dev", "test"])
def test_the_shipped_event_gold_follows_the_convention(corpus, name):
    """Every link of benchmarks/events_gold/ goes from a trigger to a compound (ARG1) or a
    temperature, time or yield (ARGM), never to an example label, and the documents are of
    the development part (positions 0-599)."""
    folder = corpus("chemu2020/train")
    keys = [json.loads(line)["doc_key"] for line in
            corpus("chemu-ref/train.jsonl").read_text(encoding="utf-8").splitlines()]
    argm = {"TEMPERATURE", "TIME", "YIELD_PERCENT", "YIELD_OTHER"}
    docs = list(read_event_gold(folder, EVENT_GOLD / name))
    assert len(docs) == {"dev": 30, "test": 25}[name]
    for doc_ in docs:
        assert keys.index(doc_.id) < 600
        index = doc_.mention_index()
        for r in doc_.relations:
            trigger, arg = index[r.head], index[r.tail]
            assert trigger.label in ("REACTION_STEP", "WORKUP")
            assert arg.label not in ("REACTION_STEP", "WORKUP", "EXAMPLE_LABEL")
            assert r.label == ("ARGM" if arg.label in argm else "ARG1")
