"""Reaction-level benchmark on ChEMU 2020 train: chemie's reaction records against the
snippets' compound labels (:mod:`chemie.scoring.chemu_reactions` says how).

Every snippet of ``chemu2020/train`` (899, ordered as ``chemu-ref/train.jsonl``; documents
0-599 may be read, 600-899 are untouched: figures only) is run through the pipeline with
``chemie_reactions``; the components of its records (templates of general procedures
left out) are compared, as the union over its reactions, with the gold species:
products (``REACTION_PRODUCT``), reactants (``STARTING_MATERIAL``), reagents
(``REAGENT_CATALYST`` and ``SOLVENT``). Conventions:

* a record's reactant is read in the ChEMU convention, by the label the pipeline's ChEMU
  2020 span covering it carries (it follows the reactant-or-reagent decision: a reactant
  that gives no carbon is a ChEMU reagent, :func:`chemie.reactions.decision.chemu_label`);
* the ions of a salt that the records split (a reactant's hydrochloride: the reactant and
  the chloride a reagent) are one ChEMU compound, with the role of the part that gives
  atoms;
* gold mentions of one species are grouped by their text and by ChEMU-Ref's
  ``COREFERENCE`` and ``WORK_UP`` links (the same snippets, aligned by their characters);
* a species the text only implies (``implied`` rules of ``rules/reactions.yaml``: hydrogen
  of "hydrogenated", water of "aqueous") is judged only when the words that imply it carry
  a compound label (ChEMU labels "aqueous" a solvent, never "hydrogenated").

Rows per part: products / reactants / reagents P, R, F1, species F1 (reactants and
reagents, roles ignored) and exact snippets (every gold species with its role, nothing
extra) with a Wilson 95% interval. ``--structures off`` runs the pipeline without
structures, ``--structures dictionary`` with the compound dictionary's only (no OPSIN): the
product must not depend on them. ``--errors`` lists the disagreements of
documents 0-599 by class (never those of 600-899).

    python benchmarks/chemu_reactions.py [--data PATH] [--part dev|untouched|both]
                                         [--structures on|off] [--errors [N]] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter
from pathlib import Path

from chemie.corpora import data_dir
from chemie.formats.chemu import read_chemu
from chemie.model import Document
from chemie.nlp import annotate, load
from chemie.reactions.table import reaction_table
from chemie.roles_evaluation import gold_documents, jsonl_order
from chemie.scoring.chemu_reactions import ROLES, Link, Snippet, Summary, items, judge

PARTS = {"dev 0-599": (0, 600), "untouched 600-899": (600, 900)}
LINKS = ("COREFERENCE", "WORK_UP")
STRUCTURES = {"on": {}, "dictionary": {"opsin": False}, "off": {"structures": False}}


def align(ref: str, text: str) -> list[int] | None:
    """Each character offset of ``ref`` mapped to ``text``'s, by their non-space characters
    (None when those differ)."""
    a = [i for i, ch in enumerate(ref) if not ch.isspace()]
    b = [i for i, ch in enumerate(text) if not ch.isspace()]
    if [ref[i] for i in a] != [text[i] for i in b]:
        return None
    out = [0] * (len(ref) + 1)
    k = 0
    for i in range(len(ref) + 1):
        while k < len(a) and a[k] < i:
            k += 1
        out[i] = b[k] if k < len(b) else len(text)
    return out


def links(ref: Document | None, text: str) -> list[Link]:
    """The ChEMU-Ref links of one species (``LINKS``), as spans of ``text``."""
    if ref is None:
        return []
    where = align(ref.text, text)
    if where is None:
        return []
    index = {m.id: m for m in ref.mentions}
    out = []
    for r in ref.relations:
        a, b = index.get(r.head), index.get(r.tail)
        if r.label in LINKS and a is not None and b is not None:
            out.append(((where[a.start], where[a.end]), (where[b.start], where[b.end])))
    return out


def run(data: Path, parts: dict[str, tuple[int, int]], config: dict[str, bool],
        ) -> dict[str, list[Snippet]]:
    """The judged snippets of each part (``config``: of ``chemie_reactions``)."""
    folder = data / "chemu2020" / "train"
    ref_path = data / "chemu-ref" / "train.jsonl"
    order = jsonl_order(ref_path)
    refs = {d.id: d for d in read_chemu(ref_path)}
    implied = frozenset(r.name for r in reaction_table().implied)
    nlp = load(reactions=True, reactions_config=config)
    out = {}
    for part, (lo, hi) in parts.items():
        judged = []
        for g in gold_documents(folder, lo, hi, order):
            doc = annotate(nlp, Document(g.id, g.text))
            records = doc.reactions
            judged.append(judge(g, items(records, doc.roles, g, implied),
                                links(refs.get(g.id), g.text)))
        out[part] = judged
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of ``k`` of ``n``."""
    if not n:
        return 0.0, 0.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def figures(judged: dict[str, list[Snippet]]) -> dict[str, dict[str, float]]:
    out = {}
    for part, snippets in judged.items():
        s = Summary()
        for x in snippets:
            s.add(x)
        f = s.figures()
        f["low"], f["high"] = wilson(s.exact, s.n)
        out[part] = f
    return out


def table(results: dict[str, dict[str, float]]) -> str:
    head = "  ".join(f"{r:>20}" for r in ROLES)
    lines = ["reaction records vs ChEMU 2020 labels, union over each snippet's reactions",
             f"{'part':<18} {'n':>4}  {head}  {'species':>7}  exact (Wilson 95%)",
             f"{'':<18} {'':>4}  " + "  ".join(f"{'P     R     F1':>20}" for _ in ROLES)]
    for part, f in results.items():
        cells = "  ".join(f"{f[f'{r}_p']:.3f} {f[f'{r}_r']:.3f} {f[f'{r}_f1']:.3f}".rjust(20)
                          for r in ROLES)
        lines.append(f"{part:<18} {f['n']:>4}  {cells}  {f['species_f1']:7.3f}  "
                     f"{f['exact']:.3f} ({f['exact_n']}/{f['n']}, {f['low']:.2f}-"
                     f"{f['high']:.2f})")
    return "\n".join(lines)


def errors(snippets: list[Snippet], limit: int) -> str:
    """The disagreements by class (documents 0-599 only), with up to ``limit`` examples."""
    by: dict[tuple[str, str], list[str]] = {}
    for s in snippets:
        for e in s.errors:
            by.setdefault((e.kind, e.role), []).append(
                f"{s.doc_id}@{e.start} {e.text!r} {e.detail}".rstrip())
    lines = ["\nerrors on dev 0-599 by class (kind, role): count"]
    for (kind, role), rows in sorted(by.items(), key=lambda x: -len(x[1])):
        lines.append(f"{kind:<11} {role:<10} {len(rows):>4}")
        lines.extend(f"    {row}" for row in rows[:limit])
    names = Counter(e.text.lower() for s in snippets for e in s.errors)
    lines.append("most frequent names: " + ", ".join(f"{n} {k}" for n, k in
                                                      names.most_common(25)))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=None)
    parser.add_argument("--part", choices=("dev", "untouched", "both"), default="both")
    parser.add_argument("--structures", choices=tuple(STRUCTURES), default="on",
                        help="on; dictionary (no OPSIN); off")
    parser.add_argument("--errors", type=int, nargs="?", const=8, default=None,
                        help="list dev 0-599 disagreements by class (N examples each)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    keys = {"dev": ["dev 0-599"], "untouched": ["untouched 600-899"],
            "both": list(PARTS)}[args.part]
    judged = run(args.data or data_dir(), {k: PARTS[k] for k in keys},
                 STRUCTURES[args.structures])
    results = figures(judged)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(table(results))
    if args.errors is not None and "dev 0-599" in judged:
        print(errors(judged["dev 0-599"], args.errors))


if __name__ == "__main__":
    main()
