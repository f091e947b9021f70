"""Name-to-structure benchmark: how many of the pipeline's chemical mentions get a structure.

Runs the chemie pipeline on ChEMU-Ref ``train.jsonl`` (documents 0-599, the part used to
tune grounding and the dictionary, and 600-899, untouched: figures only), grounds the text
of every mention of kind ``chemical`` (chemie_mentions' kind; references, generic phrases,
equipment and states are other kinds) and resolves its names (dictionary, then OPSIN).

Definitions:

* a mention **holds a name** when grounding leaves at least one name that is not a
  dictionary material (brine, silica gel, Celite: typed as materials, without a structure;
  counted apart). Mentions left with no name are counted by grounding's reason (compound
  label "7A", reference "the title compound", generic phrase "ketone", not a chemical name
  "LCMS", molecular formula, or nothing but a quantity).
* such a mention **resolves** when every one of its (non-material) names gets a structure
  (a mixture "EtOAc / hexane" needs both); **through OPSIN alone**: the same, with an
  empty dictionary (the same names and spellings, OPSIN only).
* per name: the same over the names themselves, with the reasons of the unresolved ones.

Targets (issue 15), on 600-899: resolved >= 0.88, OPSIN alone >= 0.60.
Speed: distinct names per second through OPSIN with a cold cache (a new JVM; its start-up
reported apart) and with a warm cache (the same names again), and the time per document of
grounding + resolving (warm) against the pipeline's own time per document, in one run.

    python benchmarks/structures.py [--data PATH] [--json] [--examples N]

``--examples N`` prints N unresolved names of the development part (0-599) only.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from collections import Counter
from pathlib import Path

from chemie.corpora import data_dir
from chemie.formats.chemu import iter_chemu
from chemie.nlp import annotate, load
from chemie.structures.dictionary import Dictionary
from chemie.structures.grounding import ground
from chemie.structures.opsin import Opsin
from chemie.structures.resolve import Resolver

PARTS = {"dev 0-599": (0, 600), "untouched 600-899": (600, 900)}


def chemical_texts(nlp, path: Path, lo: int, hi: int) -> tuple[list[list[str]], float]:
    """The texts of the chemical mentions of each document, and the pipeline's seconds."""
    docs = list(itertools.islice(iter_chemu(path), lo, hi))
    annotate(nlp, docs[0])  # warm the pipeline's caches
    start = time.perf_counter()
    annotated = [annotate(nlp, d) for d in docs]
    seconds = time.perf_counter() - start
    texts = [[m.text for m in d.mentions if m.kind == "chemical"] for d in annotated]
    return texts, seconds


def measure(resolver: Resolver, opsin_only: Resolver, texts: list[list[str]]) -> dict:
    """Counts and shares of one part (see the module docstring)."""
    c: Counter[str] = Counter()
    no_name: Counter[str] = Counter()
    unresolved: Counter[str] = Counter()
    examples: list[str] = []
    for doc in texts:
        results = resolver.resolve_texts(doc)
        names = [n for g, _ in results for n in g.names]
        alone = iter(opsin_only.resolve(names))
        for g, res in results:
            c["mentions"] += 1
            pairs = [(r, next(alone)) for r in res]
            molecular = [(r, a) for r, a in pairs if r.kind != "material"]
            c["material names"] += len(pairs) - len(molecular)
            if not molecular:
                no_name["material only" if pairs else g.reason] += 1
                continue
            c["mentions holding a name"] += 1
            c["mentions resolved"] += all(r.resolved for r, _ in molecular)
            c["mentions resolved by OPSIN alone"] += all(a.resolved for _, a in molecular)
            for r, a in molecular:
                c["names"] += 1
                c[f"names by {r.how}"] += 1
                c["names resolved by OPSIN alone"] += a.resolved
                if not r.resolved:
                    unresolved[r.reason] += 1
                    examples.append(r.name)
    held = c["mentions holding a name"] or 1
    n = c["names"] or 1
    return {
        "counts": dict(c),
        "mentions_resolved": c["mentions resolved"] / held,
        "mentions_opsin_alone": c["mentions resolved by OPSIN alone"] / held,
        "names_resolved": (c["names by dictionary"] + c["names by opsin"]) / n,
        "names_opsin_alone": c["names resolved by OPSIN alone"] / n,
        "no_name_reasons": dict(no_name.most_common()),
        "unresolved_reasons": dict(unresolved.most_common()),
        "examples": examples,
    }


def speed(texts: list[list[str]], pipeline_seconds: float) -> dict:
    """OPSIN names/s cold and warm (a new JVM, start-up apart) and seconds per document."""
    opsin = Opsin()
    names = sorted({n.candidates[0] for doc in texts for t in doc for n in ground(t).names})
    opsin.parse(["methane"])  # starts the JVM: its start-up is timed apart
    startup = opsin.startup_seconds  # spawn until its first answer
    start = time.perf_counter()
    opsin.parse(names)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    opsin.parse(names)
    warm = time.perf_counter() - start
    opsin.close()
    full = Resolver()
    for doc in texts:  # fill the process's cache
        full.resolve_texts(doc)
    start = time.perf_counter()
    for doc in texts:
        full.resolve_texts(doc)
    per_doc = (time.perf_counter() - start) / len(texts)
    pipeline_per_doc = pipeline_seconds / len(texts)
    return {
        "distinct_names": len(names),
        "jvm_startup_s": startup,
        "opsin_cold_names_per_s": len(names) / cold if cold else 0.0,
        "opsin_warm_names_per_s": len(names) / warm if warm else 0.0,
        "structures_warm_ms_per_doc": per_doc * 1000,
        "pipeline_ms_per_doc": pipeline_per_doc * 1000,
        "structures_warm_over_pipeline": per_doc / pipeline_per_doc if pipeline_per_doc else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=data_dir() / "chemu-ref" / "train.jsonl")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--dev-only", action="store_true",
                        help="only docs 0-599 (while tuning), no speed figures")
    parser.add_argument("--examples", type=int, default=0,
                        help="print this many unresolved names of docs 0-599")
    args = parser.parse_args()
    nlp = load()
    resolver = Resolver()
    opsin_only = Resolver(dictionary=Dictionary([]))
    figures: dict[str, dict] = {}
    dev_texts: list[list[str]] = []
    dev_seconds = 0.0
    parts = {k: v for k, v in PARTS.items() if not args.dev_only or v[0] == 0}
    for part, (lo, hi) in parts.items():
        texts, seconds = chemical_texts(nlp, args.data, lo, hi)
        if lo == 0:
            dev_texts, dev_seconds = texts, seconds
        figures[part] = measure(resolver, opsin_only, texts)
    if not args.dev_only:
        figures["speed (docs 0-599)"] = speed(dev_texts, dev_seconds)
    examples = figures["dev 0-599"].pop("examples")
    figures.get("untouched 600-899", {}).pop("examples", None)
    if args.json:
        print(json.dumps(figures, indent=2, ensure_ascii=False))
        return
    for part in parts:
        f = figures[part]
        c = f["counts"]
        print(f"#### {part}: {c['mentions']} chemical mentions, "
              f"{c['mentions holding a name']} hold a name ({c['names']} names, "
              f"{c.get('material names', 0)} material names apart)")
        print(f"mentions resolved {f['mentions_resolved']:.3f} (target 0.88), "
              f"by OPSIN alone {f['mentions_opsin_alone']:.3f} (target 0.60)")
        print(f"names resolved {f['names_resolved']:.3f} (dictionary "
              f"{c.get('names by dictionary', 0)}, OPSIN {c.get('names by opsin', 0)}, "
              f"unresolved {c.get('names by unresolved', 0)}), "
              f"by OPSIN alone {f['names_opsin_alone']:.3f}")
        print(f"no name: {f['no_name_reasons']}")
        print(f"unresolved names: {f['unresolved_reasons']}\n")
    s = figures.get("speed (docs 0-599)")
    if s:
        _print_speed(s)
    if args.examples:
        print("\n#### unresolved names, docs 0-599")
        for name, k in Counter(examples).most_common(args.examples):
            print(f"{k}\t{name}")


def _print_speed(s: dict) -> None:
    print(f"#### speed (docs 0-599, {s['distinct_names']} distinct names)")
    print(f"JVM start-up {s['jvm_startup_s']:.2f} s; OPSIN cold {s['opsin_cold_names_per_s']:.0f} "
          f"names/s, warm {s['opsin_warm_names_per_s']:.0f} names/s")
    print(f"grounding + resolving (warm) {s['structures_warm_ms_per_doc']:.2f} ms/doc vs the "
          f"pipeline {s['pipeline_ms_per_doc']:.2f} ms/doc "
          f"(ratio {s['structures_warm_over_pipeline']:.2f})")


if __name__ == "__main__":
    main()
