"""Known answers for every scorer: tiny gold/prediction pairs whose P/R/F1 are worked out by
hand here, one case per matching rule (exact, relaxed overlap on both arguments, coreference
expansion, bipartite matching, discontinuous spans, touching spans, duplicates).

Each case is built so that a scorer with one wrong operator (relaxed matching satisfied by one
argument, touching spans counted as overlapping, a greedy matching, duplicates counted twice,
no coreference expansion, a direction-blind relation match, bond orders read by the skeleton
mode) gets a different figure.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from chemie.model import Document, Mention, Relation
from chemie.scoring.anaphora import score_anaphora
from chemie.scoring.chemdner import score_cdi_files, score_cem_files
from chemie.scoring.entities import score_entities
from chemie.scoring.iob import score_files as score_iob_files
from chemie.scoring.rc import score_files as score_rc_files
from chemie.scoring.reactions import score_files as score_reaction_files

# 0         1         2         3         4         5
# 012345678901234567890123456789012345678901234567890123
TEXT = "The ester A was heated with base B in water and gave C."


def f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def prf_of(frame, row: str) -> tuple[int, int, int, float, float, float]:
    """tp, fp, fn, precision, recall, f1 of one row of a score table."""
    r = frame.loc[row]
    return (int(r["tp"]), int(r["fp"]), int(r["fn"]), float(r["precision"]),
            float(r["recall"]), float(r["f1"]))


def expect(frame, row: str, tp: int, fp: int, fn: int, p: float, r: float) -> None:
    """The row has these counts and the hand-computed precision and recall (and their F1)."""
    got = prf_of(frame, row)
    assert got[:3] == (tp, fp, fn)
    assert got[3:] == pytest.approx((p, r, f1(p, r)))


# --- anaphora (ChEMU 2021 Task 2) -------------------------------------------------------------


def mention(mid: str, *spans: tuple[int, int]) -> Mention:
    return Mention(mid, tuple(spans), "ENTITY", " ".join(TEXT[a:b] for a, b in spans))


def ana_doc(*links: tuple[str, Mention, Mention]) -> Document:
    """A document with one relation per ``(label, anaphor, antecedent)``."""
    mentions: dict[str, Mention] = {}
    relations = []
    for label, head, tail in links:
        for m in (head, tail):
            mentions.setdefault(m.id, m)
        relations.append(Relation(label, head.id, tail.id))
    return Document("d", TEXT, mentions=list(mentions.values()), relations=relations)


ESTER = mention("ester", (4, 9))       # "ester"
A = mention("A", (10, 11))             # "A"
ESTER_A = mention("esterA", (4, 11))   # "ester A"
BASE_B = mention("baseB", (28, 34))    # "base B"
BASE = mention("base", (28, 32))       # "base"
WATER = mention("water", (38, 43))     # "water"
C = mention("C", (53, 54))             # "C"
THE = mention("The", (0, 3))           # "The"


def test_anaphora_exact_needs_both_spans_and_the_type():
    gold = ana_doc(("TRANSFORMED", C, ESTER_A), ("REACTION_ASSOCIATED", C, BASE_B),
                   ("WORK_UP", C, WATER))
    # 1: right; 2: antecedent one word short; 3: right spans, wrong type
    pred = ana_doc(("TRANSFORMED", C, ESTER_A), ("REACTION_ASSOCIATED", C, BASE),
                   ("CONTAINED", C, WATER))
    exact = score_anaphora([gold], [pred]).table("exact")
    # overall: tp 1; fp 2 (the short one, the CONTAINED); fn 2 -> P 1/3, R 1/3
    expect(exact, "overall", 1, 2, 2, 1 / 3, 1 / 3)
    expect(exact, "REACTION_ASSOCIATED", 0, 1, 1, 0.0, 0.0)
    expect(exact, "CONTAINED", 0, 1, 0, 0.0, 0.0)
    relaxed = score_anaphora([gold], [pred]).table("relaxed")
    # relaxed: "base" overlaps "base B" -> tp 2, fp 1, fn 1 -> P 2/3, R 2/3
    expect(relaxed, "overall", 2, 1, 1, 2 / 3, 2 / 3)


def test_anaphora_relaxed_needs_an_overlap_on_both_arguments():
    gold = ana_doc(("REACTION_ASSOCIATED", C, BASE_B), ("WORK_UP", C, WATER))
    # the first: anaphor right, antecedent elsewhere; the second: anaphor elsewhere,
    # antecedent overlapping. Neither overlaps on both arguments.
    pred = ana_doc(("REACTION_ASSOCIATED", C, ESTER), ("WORK_UP", THE, WATER))
    relaxed = score_anaphora([gold], [pred]).table("relaxed")
    expect(relaxed, "overall", 0, 2, 2, 0.0, 0.0)
    # one of them fixed: tp 1, fp 1, fn 1 -> P 1/2, R 1/2
    pred = ana_doc(("REACTION_ASSOCIATED", C, BASE), ("WORK_UP", THE, WATER))
    expect(score_anaphora([gold], [pred]).table("relaxed"), "overall", 1, 1, 1, 0.5, 0.5)


def test_anaphora_touching_spans_do_not_overlap():
    # a prediction that ends where gold begins: "The " (0-4) against "ester" (4-9) touch at
    # 4 and share no character
    the_ = mention("The_", (0, 4))
    gold = ana_doc(("TRANSFORMED", C, ESTER))
    pred = ana_doc(("TRANSFORMED", C, the_))
    relaxed = score_anaphora([gold], [pred]).table("relaxed")
    expect(relaxed, "TRANSFORMED", 0, 1, 1, 0.0, 0.0)
    # one character more ("The e", 0-5) overlaps: tp 1 -> P 1, R 1
    pred = ana_doc(("TRANSFORMED", C, mention("The_e", (0, 5))))
    expect(score_anaphora([gold], [pred]).table("relaxed"), "TRANSFORMED", 1, 0, 0, 1.0, 1.0)


def test_anaphora_coreference_is_expanded_on_both_sides():
    # gold chain C -> A -> ester: expanded C->A, C->ester, A->ester (3 links)
    gold = ana_doc(("COREFERENCE", C, A), ("COREFERENCE", A, ESTER))
    # predicted C -> A and C -> ester: no chain to follow, 2 links, both in gold's expansion
    pred = ana_doc(("COREFERENCE", C, A), ("COREFERENCE", C, ESTER))
    exact = score_anaphora([gold], [pred]).table("exact")
    # tp 2, fp 0, fn 1 (A -> ester) -> P 1, R 2/3, F1 0.8 (unexpanded gold would give tp 1)
    expect(exact, "COREFERENCE", 2, 0, 1, 1.0, 2 / 3)
    assert exact.loc["COREFERENCE", "f1"] == pytest.approx(0.8)
    # the prediction's own chain is expanded too: C -> A -> ester gives C -> ester
    expect(score_anaphora([gold], [gold]).table("exact"), "COREFERENCE", 3, 0, 0, 1.0, 1.0)


def test_anaphora_bridging_is_not_expanded():
    gold = ana_doc(("WORK_UP", C, A), ("WORK_UP", A, ESTER))
    pred = ana_doc(("WORK_UP", C, A), ("WORK_UP", C, ESTER))
    # tp 1 (C -> A); C -> ester is no gold link: fp 1; A -> ester missed: fn 1
    expect(score_anaphora([gold], [pred]).table("exact"), "WORK_UP", 1, 1, 1, 0.5, 0.5)


def test_anaphora_relaxed_matching_is_a_maximum_bipartite_matching():
    # gold anaphors "ester A" and "A"; predictions "ester A" (overlaps both) and "ester"
    # (overlaps only "ester A"). Taken in order, a greedy pairing gives the first prediction
    # to "ester A" and nothing to "A": tp 1. The maximum matching pairs "ester A"-"ester" and
    # "A"-"ester A": tp 2.
    gold = ana_doc(("TRANSFORMED", ESTER_A, C), ("TRANSFORMED", A, C))
    pred = ana_doc(("TRANSFORMED", mention("pEA", (4, 11)), C), ("TRANSFORMED", ESTER, C))
    relaxed = score_anaphora([gold], [pred]).table("relaxed")
    expect(relaxed, "TRANSFORMED", 2, 0, 0, 1.0, 1.0)
    exact = score_anaphora([gold], [pred]).table("exact")
    expect(exact, "TRANSFORMED", 1, 1, 1, 0.5, 0.5)


def test_anaphora_discontinuous_spans_compare_range_by_range():
    # gold antecedent "ester ... C" in two ranges (4-9, 53-54)
    split = mention("split", (4, 9), (53, 54))
    gold = ana_doc(("CONTAINED", WATER, split))
    # exact: the same two ranges; the hull 4-54 is not the same mention
    same = ana_doc(("CONTAINED", WATER, mention("s2", (4, 9), (53, 54))))
    expect(score_anaphora([gold], [same]).table("exact"), "CONTAINED", 1, 0, 0, 1.0, 1.0)
    hull = ana_doc(("CONTAINED", WATER, mention("hull", (4, 54))))
    expect(score_anaphora([gold], [hull]).table("exact"), "CONTAINED", 0, 1, 1, 0.0, 0.0)
    # relaxed: a prediction inside the gap ("base B", 28-34) shares no character with either
    # range, so it does not overlap although it lies between the mention's start and end
    gap = ana_doc(("CONTAINED", WATER, BASE_B))
    expect(score_anaphora([gold], [gap]).table("relaxed"), "CONTAINED", 0, 1, 1, 0.0, 0.0)
    # one range overlapping is enough: "C" alone
    one = ana_doc(("CONTAINED", WATER, mention("c2", (53, 54))))
    expect(score_anaphora([gold], [one]).table("relaxed"), "CONTAINED", 1, 0, 0, 1.0, 1.0)


def test_anaphora_duplicates_count_once_per_partner():
    gold = ana_doc(("WORK_UP", C, WATER))
    # the same link twice (two mention ids, same spans): tp 1, fp 1 -> P 1/2, R 1
    pred = ana_doc(("WORK_UP", C, WATER), ("WORK_UP", mention("C2", (53, 54)), WATER))
    for mode in ("exact", "relaxed"):
        expect(score_anaphora([gold], [pred]).table(mode), "WORK_UP", 1, 1, 0, 0.5, 1.0)
    # and the other way round: gold twice, predicted once -> tp 1, fn 1: P 1, R 1/2
    for mode in ("exact", "relaxed"):
        expect(score_anaphora([pred], [gold]).table(mode), "WORK_UP", 1, 0, 1, 1.0, 0.5)


# --- entities (ChEMU 2020 brat) ---------------------------------------------------------------


def ent_doc(*entities: tuple[str, tuple[tuple[int, int], ...]]) -> Document:
    mentions = [Mention(f"T{i}", spans, label, " ".join(TEXT[a:b] for a, b in spans))
                for i, (label, spans) in enumerate(entities, 1)]
    return Document("d", TEXT, mentions=mentions)


def test_entities_exact_and_relaxed_by_label():
    gold = ent_doc(("STARTING_MATERIAL", ((4, 11),)), ("REAGENT_CATALYST", ((28, 34),)),
                   ("SOLVENT", ((38, 43),)), ("REACTION_PRODUCT", ((53, 54),)))
    pred = ent_doc(("STARTING_MATERIAL", ((4, 11),)),   # exact
                   ("REAGENT_CATALYST", ((33, 34),)),   # "B": relaxed only
                   ("REAGENT_CATALYST", ((38, 43),)),   # right span, wrong label
                   ("REACTION_PRODUCT", ((53, 54),)))   # exact
    report = score_entities([gold], [pred])
    # exact: tp 2, fp 2, fn 2 -> P 1/2, R 1/2
    expect(report.table("entities exact"), "overall", 2, 2, 2, 0.5, 0.5)
    # relaxed: "B" matches "base B": tp 3, fp 1, fn 1 -> P 3/4, R 3/4
    expect(report.table("entities relaxed"), "overall", 3, 1, 1, 0.75, 0.75)
    expect(report.table("entities relaxed"), "SOLVENT", 0, 0, 1, 0.0, 0.0)


def test_entities_touching_spans_do_not_overlap():
    gold = ent_doc(("STARTING_MATERIAL", ((4, 9),)))
    pred = ent_doc(("STARTING_MATERIAL", ((0, 4),)), ("STARTING_MATERIAL", ((9, 11),)))
    # both predictions touch gold (at 4 and at 9) without sharing a character
    expect(score_entities([gold], [pred]).table("entities relaxed"), "overall",
           0, 2, 1, 0.0, 0.0)


def test_entities_relaxed_matching_is_a_maximum_bipartite_matching():
    gold = ent_doc(("OTHER_COMPOUND", ((4, 11),)), ("OTHER_COMPOUND", ((10, 11),)))
    # "ester A" overlaps both gold entities, "ester" only the first: greedy in file order
    # would give tp 1, the maximum matching tp 2
    pred = ent_doc(("OTHER_COMPOUND", ((4, 11),)), ("OTHER_COMPOUND", ((4, 9),)))
    report = score_entities([gold], [pred])
    expect(report.table("entities relaxed"), "overall", 2, 0, 0, 1.0, 1.0)
    expect(report.table("entities exact"), "overall", 1, 1, 1, 0.5, 0.5)


def test_entities_discontinuous_spans_compare_range_by_range():
    gold = ent_doc(("OTHER_COMPOUND", ((4, 9), (53, 54))))
    same = ent_doc(("OTHER_COMPOUND", ((4, 9), (53, 54))))
    hull = ent_doc(("OTHER_COMPOUND", ((4, 54),)))
    gap = ent_doc(("OTHER_COMPOUND", ((28, 34),)))
    expect(score_entities([gold], [same]).table("entities exact"), "overall", 1, 0, 0, 1, 1)
    expect(score_entities([gold], [hull]).table("entities exact"), "overall", 0, 1, 1, 0, 0)
    expect(score_entities([gold], [gap]).table("entities relaxed"), "overall", 0, 1, 1, 0, 0)


def test_entities_duplicates_count_once_and_triggers_apart():
    gold = ent_doc(("SOLVENT", ((38, 43),)), ("REACTION_STEP", ((15, 21),)))
    pred = ent_doc(("SOLVENT", ((38, 43),)), ("SOLVENT", ((38, 43),)),
                   ("REACTION_STEP", ((15, 21),)), ("WORKUP", ((48, 52),)))
    report = score_entities([gold], [pred])
    # entities: tp 1, fp 1 (the duplicate), fn 0 -> P 1/2, R 1
    expect(report.table("entities exact"), "overall", 1, 1, 0, 0.5, 1.0)
    # triggers: tp 1, fp 1 ("gave" as WORKUP), fn 0 -> P 1/2, R 1
    expect(report.table("triggers exact"), "overall", 1, 1, 0, 0.5, 1.0)
    # gold twice, predicted once: one prediction matches one gold entity -> P 1, R 1/2
    report = score_entities([ent_doc(("SOLVENT", ((38, 43),)), ("SOLVENT", ((38, 43),)))],
                            [ent_doc(("SOLVENT", ((38, 43),)))])
    expect(report.table("entities relaxed"), "overall", 1, 0, 1, 1.0, 0.5)


# --- CHEMDNER CEM / CDI -----------------------------------------------------------------------


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _args() -> argparse.Namespace:
    return argparse.Namespace(resamples=0, seed=0)


CHEMDNER_GOLD = (
    "1\tT\t0\t7\tAspirin\tTRIVIAL\n"
    "1\tA\t0\t7\tAspirin\tTRIVIAL\n"
    "1\tA\t20\t25\tNaOH.\tFORMULA\n"
    "2\tA\t5\t12\tethanol\tSYSTEMATIC\n"
)


def test_cem_is_exact_on_part_and_offsets(tmp_path):
    gold = _write(tmp_path / "g.tsv", CHEMDNER_GOLD)
    pred = _write(tmp_path / "p.tsv", (
        "1\tT:0:7\t1\t0.9\n"     # right
        "1\tA:0:7\t2\t0.9\n"     # right (same offsets, other part: its own entity)
        "1\tA:20:24\t3\t0.5\n"   # one character short: wrong
        "2\tT:5:12\t1\t0.5\n"    # right offsets, wrong part: wrong
    ))
    frame = score_cem_files(gold, pred, _args()).table("CEM")
    # tp 2, fp 2, fn 2 -> P 1/2, R 1/2
    expect(frame, "overall", 2, 2, 2, 0.5, 0.5)


def test_cem_touching_and_duplicate_predictions(tmp_path):
    gold = _write(tmp_path / "g.tsv", "1\tA\t10\t15\tNaOH.\tFORMULA\n")
    pred = _write(tmp_path / "p.tsv", (
        "1\tA:10:15\t1\t0.9\n"
        "1\tA:10:15\t2\t0.9\n"   # the same mention again: a set, counted once
        "1\tA:15:20\t3\t0.5\n"   # touches the gold mention: wrong
    ))
    # tp 1, fp 1, fn 0 -> P 1/2, R 1
    expect(score_cem_files(gold, pred, _args()).table("CEM"), "overall", 1, 1, 0, 0.5, 1.0)


def test_cdi_is_exact_string_match_per_document(tmp_path):
    gold = _write(tmp_path / "g.tsv", CHEMDNER_GOLD)
    pred = _write(tmp_path / "p.tsv", (
        "1\tAspirin\t1\t0.9\n"   # right (gold has it twice: one unique name)
        "1\taspirin\t2\t0.8\n"   # another string: wrong
        "2\tNaOH.\t1\t0.5\n"     # a name of document 1, not of 2: wrong
        "2\tethanol\t2\t0.5\n"   # right
    ))
    frame = score_cdi_files(gold, pred, _args()).table("CDI")
    # gold names: 1 {Aspirin, NaOH.}, 2 {ethanol}; tp 2, fp 2, fn 1 -> P 1/2, R 2/3
    expect(frame, "overall", 2, 2, 1, 0.5, 2 / 3)


# --- IOB --------------------------------------------------------------------------------------


def _iob(words: list[str], tags: list[str]) -> str:
    return "".join(f"{w}\t{t}\n" for w, t in zip(words, tags, strict=True))


def test_iob_exact_spans_with_touching_and_typed_spans(tmp_path):
    words = ["a", "b", "c", "d", "e", "f"]
    gold_tags = ["B-Chemical", "I-Chemical", "B-Chemical", "O", "B-Disease", "O"]
    # a-b right; c missed because the prediction joins it to nothing and marks d;
    # e right span, wrong type; f spurious
    pred_tags = ["B-Chemical", "I-Chemical", "O", "B-Chemical", "B-Chemical", "B-Chemical"]
    gold = _write(tmp_path / "g.tsv", _iob(words, gold_tags))
    pred = _write(tmp_path / "p.tsv", _iob(words, pred_tags))
    frame = score_iob_files(gold, pred, None).table("IOB exact spans")
    # gold {ab:C, c:C, e:D}; pred {ab:C, d:C, e:C, f:C}: tp 1, fp 3, fn 2 -> P 1/4, R 1/3
    expect(frame, "overall", 1, 3, 2, 0.25, 1 / 3)
    expect(frame, "Chemical", 1, 3, 1, 0.25, 0.5)
    expect(frame, "Disease", 0, 0, 1, 0.0, 0.0)


def test_iob_adjacent_b_tags_are_two_spans_not_one(tmp_path):
    gold = _write(tmp_path / "g.tsv", "x\tB-Chemical\ny\tB-Chemical\nz\tO\n")
    pred = _write(tmp_path / "p.tsv", "x\tB-Chemical\ny\tI-Chemical\nz\tO\n")
    frame = score_iob_files(gold, pred, None).table("IOB exact spans")
    # gold {x, y}, pred {x-y}: tp 0, fp 1, fn 2
    expect(frame, "overall", 0, 1, 2, 0.0, 0.0)


# --- relation classification ------------------------------------------------------------------


def _rc(path: Path, rows: list[tuple[str, ...]]) -> Path:
    return _write(path, "".join("\t".join(r) + "\n" for r in rows))


def test_rc_label_and_direction_must_both_be_right(tmp_path):
    gold = _rc(tmp_path / "g.txt", [("a", "b", "USAGE"), ("c", "d", "USAGE"),
                                     ("e", "f", "RESULT"), ("g", "h", "COMPARE")])
    pred = _rc(tmp_path / "p.txt", [("a", "b", "USAGE"),     # right
                                     ("d", "c", "USAGE"),     # reversed: wrong
                                     ("e", "f", "USAGE")])    # wrong label; g-h missing
    report = score_rc_files(gold, pred, argparse.Namespace(rc_format="auto"))
    table = report.table("per class")
    # USAGE: tp 1, predicted 3, gold 2 -> P 1/3, R 1/2, F1 0.4
    assert table.loc["USAGE", ["P", "R"]].tolist() == pytest.approx([1 / 3, 1 / 2])
    assert table.loc["USAGE", "F1"] == pytest.approx(0.4)
    # RESULT and COMPARE: nothing right -> F1 0; macro over the three classes
    assert table.loc["RESULT", "F1"] == 0.0 and table.loc["COMPARE", "F1"] == 0.0
    assert report.figures["macro_f1"] == pytest.approx(0.4 / 3)
    assert report.figures["accuracy"] == pytest.approx(1 / 4)


def test_rc_a_gold_pair_repeated_verbatim_counts_once(tmp_path):
    gold = _rc(tmp_path / "g.txt", [("a", "b", "USAGE"), ("a", "b", "USAGE"),
                                     ("c", "d", "RESULT")])
    pred = _rc(tmp_path / "p.txt", [("a", "b", "USAGE"), ("c", "d", "USAGE")])
    report = score_rc_files(gold, pred, argparse.Namespace(rc_format="auto"))
    # 2 gold pairs; USAGE P 1/2 R 1 -> 2/3; RESULT 0 -> macro 1/3, accuracy 1/2
    assert report.figures["pairs"] == 2
    assert report.figures["macro_f1"] == pytest.approx(1 / 3)
    assert report.figures["accuracy"] == pytest.approx(0.5)


# --- reactions (skeleton mode) ----------------------------------------------------------------


def _jsonl(path: Path, records: list[dict]) -> Path:
    return _write(path, "".join(json.dumps(r) + "\n" for r in records))


def _rx(rid: str, reactants: list[str], reagents: list[str], products: list[str]) -> dict:
    return {"id": rid, "reactants": reactants, "reagents": reagents, "products": products}


def test_reactions_skeleton_mode_ignores_bond_orders_charges_and_hydrogens(tmp_path):
    # a reduction of acetone to isopropanol; the prediction names the ketone as product:
    # the same heavy-atom skeleton, so skeleton mode counts it right (the published protocol)
    gold = _jsonl(tmp_path / "g.jsonl", [_rx("r", ["CC(C)=O"], ["[BH4-].[Na+]", "CO"],
                                             ["CC(C)O"])])
    pred = _jsonl(tmp_path / "p.jsonl", [_rx("r", ["CC(C)=O"], ["[Na+].[BH4-]", "OC"],
                                             ["CC(=O)C"])])
    report = score_reaction_files(gold, pred)
    t = report.table("fragments by heavy-atom skeleton")
    expect(t, "products", 1, 0, 0, 1.0, 1.0)
    # reagents {B, Na, C-O}: all three found
    expect(t, "reagents", 3, 0, 0, 1.0, 1.0)
    assert report.figures["exact"] == 1


def test_reactions_sets_species_and_exact_by_hand(tmp_path):
    gold = _jsonl(tmp_path / "g.jsonl", [
        # amide coupling: acid + amine, HATU and DIPEA in DMF
        _rx("a", ["OC(=O)c1ccccc1", "NCC"], ["CCN(C(C)C)C(C)C", "CN(C)C=O"],
            ["CCNC(=O)c1ccccc1"]),
        _rx("b", ["CCO"], ["Cl.Cl"], ["CCCl"]),
    ])
    pred = _jsonl(tmp_path / "p.jsonl", [
        # amine taken for a reagent and DIPEA for a reactant; the product right
        _rx("a", ["OC(=O)c1ccccc1", "CCN(C(C)C)C(C)C"], ["NCC", "CN(C)C=O", "O"],
            ["CCNC(=O)c1ccccc1"]),
        _rx("b", ["CCO", "CCO"], ["Cl"], ["CCCl"]),  # a duplicate reactant; one chloride
    ])
    report = score_reaction_files(gold, pred)
    t = report.table("fragments by heavy-atom skeleton")
    # products: a 1/1, b 1/1 -> tp 2
    expect(t, "products", 2, 0, 0, 1.0, 1.0)
    # reactants: a gold {acid, ethylamine} pred {acid, DIPEA}: tp 1 fp 1 fn 1; b {CCO}: tp 1
    expect(t, "reactants", 2, 1, 1, 2 / 3, 2 / 3)
    # reagents: a gold {DIPEA, DMF} pred {ethylamine, DMF, water}: tp 1 fp 2 fn 1;
    # b gold {Cl} (a set) pred {Cl}: tp 1
    expect(t, "reagents", 2, 2, 1, 0.5, 2 / 3)
    # species, roles ignored: a gold 4 pred 5 (water extra): tp 4 fp 1; b tp 2
    expect(t, "species", 6, 1, 0, 6 / 7, 1.0)
    # exact: a has roles swapped, b is right (sets) -> 1 of 2
    assert report.figures["exact"] == 1 and report.figures["reactions"] == 2
