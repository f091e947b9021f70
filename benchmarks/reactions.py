"""Reaction benchmark: chemie's reactions vs the USPTO text-mined set (Lowe) on the 80 USPTO
paragraphs of ``uspto-reactions/dev.jsonl``, scored by ``chemie score reactions``' scorer.

Each paragraph is read as a document whose heading is its title
(:mod:`chemie.formats.uspto`) and run through the pipeline with ``chemie_reactions``; its
**last** reaction is its prediction (the reaction that makes its final product, as in
``--format rsmi``). Rows: products / reactants / reagents / species micro F1 (species:
reactants and reagents with roles ignored) and exact reactions with a Wilson 95% interval,
for chemie and for the USPTO text-mined reactions of ``dev_lowe.jsonl``, on three parts:

* ``tune 1-40``: the first 40 paragraphs by file order, on which the rules of
  ``rules/reactions.yaml`` were tuned after being written from ChEMU training text
  (ChEMU-Ref documents 0-599);
* ``held-out 41-80``: the other 40, whose errors were not read while writing rules;
* ``all 80``.

Targets (issue 15) on all 80: products F1 >= 0.95, species F1 >= 0.90, exact >= 0.50.

Speed (``--speed``): the whole pipeline with ``chemie_reactions`` and structures (warm
cache: a first pass fills the OPSIN and grounding caches) against the same pipeline with
``structures=False``, and that against the pipeline without ``chemie_reactions`` (what
``--no-structures`` costs), over the same documents, in one run, interleaved, in CPU
time of this process (the machine may be shared; with warm caches the JVM has nothing to
do); the JVM start-up is timed apart (wall clock). Target: with structures at least 1/3
of the speed without.

    python benchmarks/reactions.py [--data PATH] [--speed] [--rounds N] [--json]
                                   [--errors PART]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from chemie.corpora import data_dir
from chemie.formats.reactions import Reaction as ScoredReaction
from chemie.formats.reactions import read_reactions
from chemie.formats.uspto import iter_uspto
from chemie.nlp import annotate, load
from chemie.scoring.reactions import score_reactions
from chemie.structures.opsin import Opsin

PARTS = {"tune 1-40": (0, 40), "held-out 41-80": (40, 80), "all 80": (0, 80)}


def predict(nlp, docs: list) -> dict[str, ScoredReaction]:
    """Each document's last reaction, as the scorer reads it."""
    out = {}
    for doc in docs:
        reactions = annotate(nlp, doc).meta.get("reactions") or []
        if not reactions:
            continue
        r = reactions[-1]
        out[doc.id] = ScoredReaction(doc.id, *(tuple(r.smiles(role)) for role in
                                               ("reactants", "reagents", "products")))
    return out


def scores(gold: dict, pred: dict, ids: list[str], gold_path: Path) -> dict[str, float]:
    """The figures of one system on the paragraphs ``ids``."""
    g = {i: gold[i] for i in ids}
    p = {i: pred[i] for i in ids if i in pred}
    report = score_reactions(g, p, gold_path, gold_path)
    frame = report.tables[0].frame
    f = report.figures
    return {
        "products": frame.loc["products", "f1"], "reactants": frame.loc["reactants", "f1"],
        "reagents": frame.loc["reagents", "f1"], "species": frame.loc["species", "f1"],
        "exact": f["exact_fraction"], "exact_n": f["exact"], "n": f["reactions"],
        "low": f["exact_wilson95_low"], "high": f["exact_wilson95_high"],
    }


def accuracy(data: Path) -> dict[str, dict[str, dict[str, float]]]:
    gold_path = data / "uspto-reactions" / "dev.jsonl"
    lowe_path = data / "uspto-reactions" / "dev_lowe.jsonl"
    gold = read_reactions(gold_path).reactions
    lowe = read_reactions(lowe_path).reactions
    docs = list(iter_uspto(gold_path))
    ours = predict(load(reactions=True), docs)
    ids = [d.id for d in docs]
    out: dict[str, dict[str, dict[str, float]]] = {}
    for part, (lo, hi) in PARTS.items():
        out[part] = {"chemie": scores(gold, ours, ids[lo:hi], gold_path),
                     "USPTO text-mined": scores(gold, lowe, ids[lo:hi], gold_path)}
    return out


def speed(data: Path, rounds: int) -> dict[str, float]:
    """Documents/s with and without structures (warm caches), and the JVM start-up."""
    docs = list(iter_uspto(data / "uspto-reactions" / "dev.jsonl"))
    jvm = Opsin()
    start = time.perf_counter()
    jvm.parse(["methane"])
    startup = time.perf_counter() - start
    jvm.close()
    arms = {"with": load(reactions=True),
            "without": load(reactions=True, reactions_config={"structures": False}),
            "no component": load(roles=True)}
    for d in docs:  # warm: OPSIN's and grounding's caches, the pipelines' own caches
        for nlp in arms.values():
            annotate(nlp, d)
    times = dict.fromkeys(arms, 0.0)
    for _ in range(rounds):  # interleaved, so every arm sees the same machine load
        for name, nlp in arms.items():
            start = time.process_time()
            for d in docs:
                annotate(nlp, d)
            times[name] += time.process_time() - start
    n = len(docs) * rounds
    return {"docs_per_s_with": n / times["with"], "docs_per_s_without": n / times["without"],
            "docs_per_s_no_component": n / times["no component"],
            "ratio": times["without"] / times["with"],
            "no_structures_ratio": times["no component"] / times["without"],
            "jvm_startup_s": startup}


def table(results: dict) -> str:
    lines = [f"{'part':<16} {'system':<17} {'products':>8} {'reactants':>9} {'reagents':>8} "
             f"{'species':>7}  exact (Wilson 95%)"]
    for part, systems in results.items():
        for system, s in systems.items():
            lines.append(
                f"{part:<16} {system:<17} {s['products']:8.3f} {s['reactants']:9.3f} "
                f"{s['reagents']:8.3f} {s['species']:7.3f}  {s['exact']:.3f} "
                f"({s['exact_n']}/{s['n']}, {s['low']:.2f}-{s['high']:.2f})"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--speed", action="store_true", help="also the A/B speed")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    data = args.data or data_dir()
    results = {"accuracy": accuracy(data)}
    if args.speed:
        results["speed"] = speed(data, args.rounds)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(table(results["accuracy"]))
    print("targets on all 80: products >= 0.95, species >= 0.90, exact >= 0.50")
    if args.speed:
        s = results["speed"]
        print(f"\nspeed (one process, warm caches, CPU time): {s['docs_per_s_with']:.1f} "
              f"docs/s with structures, {s['docs_per_s_without']:.1f} without: ratio "
              f"{s['ratio']:.2f} "
              f"(target >= 0.33); JVM start-up {s['jvm_startup_s']:.2f} s")
        print(f"structures off: {s['docs_per_s_without']:.1f} docs/s against "
              f"{s['docs_per_s_no_component']:.1f} without chemie_reactions: ratio "
              f"{s['no_structures_ratio']:.2f}")


if __name__ == "__main__":
    main()
