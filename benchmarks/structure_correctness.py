"""Structure correctness: are the structures of the names the ones the reviewers gave?

``benchmarks/structures.py`` counts how many names get a structure; this one judges the
structures. Each of the 80 USPTO paragraphs of ``uspto-reactions/dev.jsonl`` comes with the
human-reviewed species of its reaction (SMILES by role); chemie's names of the paragraph
are aligned to them by :func:`chemie.scoring.names.align` (its docstring defines right,
wrong, extra, unresolved and material; in short: right when every fragment of the structure
is a fragment of a reviewed species by heavy-atom skeleton, the scorer's comparison; wrong
when it matches none but is close — an isomer, or Tanimoto >= 0.5 — to a reviewed species
that no right name matched; extra when it is close to none: a work-up compound the reaction
does not list). Two sets of names per paragraph, each distinct name once:

* ``mentions``: every name that grounding finds in the pipeline's mentions (the title's
  included), resolved as :class:`chemie.structures.resolve.Resolver` resolves a name alone
  (dictionary, then OPSIN);
* ``records``: the names of the components of the paragraph's reaction records (every
  reaction), with the structures ``chemie reactions`` writes (a name widened or joined by
  reaction assembly, a salt's ions put back together; implied species, which the text does
  not name, left out); components resolved through a
  reference (``coreference → …``) are judged with them (the left-over species are those
  no right name or reference matched) and counted apart, as ``references``.

Parts (the split of issue 18): a paragraph whose ``int(sha1(id), 16) % 2 == 1`` is part U,
whose text, names and errors are never printed (figures only); the others are part R.
``--names`` prints the judged names of part R that are not right (or ``--all`` of them).

Target (issue 18): >= 98% of the judged names right (right / (right + wrong)), on the
records, with wrong names going down without unresolved ones going up.

    python benchmarks/structure_correctness.py [--data PATH] [--names] [--all] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from pathlib import Path

from chemie.corpora import data_dir
from chemie.formats.uspto import iter_uspto
from chemie.nlp import annotate, load
from chemie.reactions.table import reaction_table
from chemie.scoring.names import VERDICTS, Alignment, align
from chemie.structures.resolve import Resolver

SETS = ("mentions", "records", "references")
ROLES = ("reactants", "reagents", "products")


def part(paragraph_id: str) -> str:
    """``U`` (never read) or ``R`` (may be read), by the hash of the id."""
    return "U" if int(hashlib.sha1(paragraph_id.encode()).hexdigest(), 16) % 2 else "R"


def mention_names(resolver: Resolver, doc) -> list[tuple[str, str | None, bool]]:
    """Every distinct name grounded in the document's mentions, resolved alone."""
    out: dict[str, tuple[str, str | None, bool]] = {}
    for grounding, resolutions in resolver.resolve_texts([m.text for m in doc.mentions]):
        for name, r in zip(grounding.names, resolutions, strict=True):
            key = " ".join(name.text.split())
            out.setdefault(key, (key, r.smiles, r.kind == "material"))
    return list(out.values())


def record_names(doc) -> list[tuple[str, str | None, bool]]:
    """The components of every reaction record, each distinct name once (a reference as
    ``name → antecedent``), a component split into ions put back together (by name and
    place)."""
    implied = {r.name for r in reaction_table().implied}  # species the text does not name
    groups: dict[tuple[str, int], list] = {}
    for reaction in doc.reactions:
        for c in reaction.components():
            if c.structure is None or c.structure.rule not in implied:
                groups.setdefault((" ".join(c.name.split()), c.start), []).append(c)
    out: dict[str, tuple[str, str | None, bool]] = {}
    for (name, _), comps in groups.items():
        s = comps[0].structure
        if s is None:
            continue
        smiles = ".".join(dict.fromkeys(c.smiles for c in comps if c.smiles)) or None
        key = f"{name} → {s.via}" if s.how == "coreference" else name
        out.setdefault(key, (key, smiles, s.kind == "material"))
    return list(out.values())


def judge(data: Path) -> dict[str, dict[str, list[tuple[str, Alignment]]]]:
    """Per part and set of names, each paragraph's alignment."""
    path = data / "uspto-reactions" / "dev.jsonl"
    gold = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            obj = json.loads(line)
            gold[obj["id"]] = [s for role in ROLES for s in obj[role]]
    nlp = load(reactions=True)
    resolver = Resolver()
    out: dict[str, dict[str, list[tuple[str, Alignment]]]] = {
        p: {s: [] for s in SETS} for p in "RU"}
    for doc in iter_uspto(path):
        annotated = annotate(nlp, doc)
        species = gold[doc.id]
        records = align(record_names(annotated), species)
        refs = {True: [], False: []}
        for v in records.names:
            refs[" → " in v.name].append(v)
        sets = {"mentions": align(mention_names(resolver, annotated), species),
                "records": Alignment(tuple(refs[False]), records.left_over),
                "references": Alignment(tuple(refs[True]), ())}
        for name_set, alignment in sets.items():
            out[part(doc.id)][name_set].append((doc.id, alignment))
    return out


def totals(alignments: list[tuple[str, Alignment]]) -> dict[str, float]:
    """Verdict counts, left-over species and the share of judged names that are right."""
    c: Counter[str] = Counter()
    for _, a in alignments:
        for v in VERDICTS:
            c[v] += a.count(v)
        c["left over"] += len(a.left_over)
    judged = c["right"] + c["wrong"]
    resolved = judged + c["extra"]
    return {**{v: c[v] for v in VERDICTS}, "left over": c["left over"],
            "right_of_judged": c["right"] / judged if judged else 0.0,
            "right_of_resolved": c["right"] / resolved if resolved else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--names", action="store_true",
                        help="print the names of part R that are not right")
    parser.add_argument("--all", action="store_true", help="with --names: every name")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = judge(args.data or data_dir())
    figures = {p: {s: totals(a) for s, a in sets.items()} for p, sets in results.items()}
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"{'part':<5} {'names':<11} {'right':>6} {'wrong':>6} {'extra':>6} "
              f"{'unres.':>6} {'mater.':>6} {'left over':>9}  right/judged  right/resolved")
        for p, sets in figures.items():
            for s, f in sets.items():
                print(f"{p:<5} {s:<11} {f['right']:>6} {f['wrong']:>6} {f['extra']:>6} "
                      f"{f['unresolved']:>6} {f['material']:>6} {f['left over']:>9}  "
                      f"{f['right_of_judged']:12.3f}  {f['right_of_resolved']:14.3f}")
        print("target: records, right / (right + wrong) >= 0.98 (resolved = right + wrong + "
              "extra: extra names are compounds the reviewed reaction does not list)")
    if args.names:
        for s, alignments in results["R"].items():
            print(f"\n#### part R, {s}")
            for pid, a in alignments:
                for v in a.names:
                    if args.all or v.verdict != "right":
                        near = f"  ~ {v.species} ({v.closeness})" if v.species else ""
                        print(f"{pid}\t{v.verdict}\t{v.name}\t{v.smiles}{near}")
                if a.left_over:
                    print(f"{pid}\tleft over\t{' | '.join(a.left_over)}")


if __name__ == "__main__":
    main()
