"""``chemie score reactions GOLD PRED [--bond-orders]``: reactions compared by heavy-atom
skeleton, or by skeleton and bond orders.

The convention of the uspto-reactions data README (and issue 15):

* Each SMILES is split into fragments; each fragment is keyed by its heavy-atom skeleton
  (:func:`chemie.structures.chem.skeleton_keys`: elements and connectivity; atom maps,
  stereo, charges, isotopes, hydrogens and bond orders ignored). This is the published
  protocol and the default. With ``--bond-orders`` (:data:`BOND_ORDERS`) the key keeps
  single, double, triple and aromatic bonds too
  (:func:`chemie.structures.chem.bond_order_keys`; charges and hydrogens still ignored),
  so a reduction whose predicted product is its own starting ketone is no longer exact.
* Per role (products, reactants, reagents) a reaction's fragments form a **set** of keys: a
  fragment listed twice (``[H-]`` four times in LiAlH4 split into ions, a salt's two
  chlorides) counts once. Micro P/R/F1 sum, over the gold reactions, ``|G & P|`` (true
  positives), ``|P - G|`` and ``|G - P|``. Sets reproduce the README's figures for the USPTO
  text-mined set (multisets would charge a system for how a salt is written).
* "species": the union of reactants and reagents, roles ignored.
* A reaction is exactly right when its three role sets equal gold's; the fraction comes
  with a Wilson 95% score interval.

Every gold id is scored; a gold id without a prediction counts as an empty prediction
(noted). Predicted ids that are not in the gold file are left out (noted). Malformed lines,
and gold SMILES that RDKit cannot read, are InputErrors (``FILE:LINE: what is wrong``); a
predicted SMILES that RDKit cannot read counts as a fragment that matches nothing (noted),
since systems such as LLMs do write broken SMILES.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from chemie.errors import InputError
from chemie.formats.reaction_smiles import Reaction, read_reactions
from chemie.scoring.report import ScoreReport, ScoreTable, prf
from chemie.structures.chem import bond_order_keys, skeleton_keys

ROWS = ("products", "reactants", "reagents", "species")
SKELETON = "heavy-atom skeleton"  # the published protocol (the default)
BOND_ORDERS = "bond orders"  # skeleton and single/double/triple/aromatic bonds
KEYS = {SKELETON: skeleton_keys, BOND_ORDERS: bond_order_keys}
TITLES = {SKELETON: "fragments by heavy-atom skeleton",
          BOND_ORDERS: "fragments by heavy-atom skeleton and bond orders"}
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (0, 0 when n is 0)."""
    if n == 0:
        return 0.0, 0.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class _Keyer:
    """Keys of SMILES (``mode``: a key of :data:`KEYS`); counts unreadable predicted SMILES,
    refuses unreadable gold."""

    path: Path
    strict: bool
    mode: str = SKELETON
    unreadable: int = 0

    def keys(self, reaction: Reaction, roles: Iterable[str]) -> frozenset[str]:
        out: set[str] = set()
        for role in roles:
            for i, smiles in enumerate(reaction.role(role)):
                keys = KEYS[self.mode](smiles)
                if keys is None:
                    if self.strict:
                        raise InputError(
                            self.path, reaction.line,
                            f"{role}[{i}]: RDKit cannot read SMILES {smiles!r}",
                        )
                    self.unreadable += 1
                    out.add(f"unreadable:{smiles}")  # a key no gold fragment has
                    continue
                out.update(keys)
        return frozenset(out)


def score_reactions(
    gold: dict[str, Reaction], pred: dict[str, Reaction], gold_path: Path, pred_path: Path,
    mode: str = SKELETON,
) -> ScoreReport:
    """Per-role micro P/R/F1, species, exact reactions (see the module docstring), fragments
    keyed by ``mode`` (:data:`SKELETON` or :data:`BOND_ORDERS`)."""
    gold_keys = _Keyer(gold_path, strict=True, mode=mode)
    pred_keys = _Keyer(pred_path, strict=False, mode=mode)
    empty = Reaction("", (), (), ())
    counts = {row: [0, 0, 0] for row in ROWS}
    exact = missing = 0
    role_sets = {row: ((row,) if row != "species" else ("reactants", "reagents")) for row in ROWS}
    for rid, g in gold.items():
        p = pred.get(rid)
        if p is None:
            missing += 1
            p = empty
        same = True
        for row, roles in role_sets.items():
            gk, pk = gold_keys.keys(g, roles), pred_keys.keys(p, roles)
            c = counts[row]
            c[0] += len(gk & pk)
            c[1] += len(pk - gk)
            c[2] += len(gk - pk)
            if row != "species":
                same = same and gk == pk
        exact += same
    rows = {}
    for row, (tp, fp, fn) in counts.items():
        p_, r_, f_ = prf(tp, fp, fn)
        rows[row] = {"tp": tp, "fp": fp, "fn": fn, "precision": p_, "recall": r_, "f1": f_}
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "role"
    n = len(gold)
    low, high = wilson(exact, n)
    report = ScoreReport("reactions", [ScoreTable(TITLES[mode], frame)])
    report.figures = {
        "reactions": n,
        "exact": exact,
        "exact_fraction": exact / n if n else 0.0,
        "exact_wilson95_low": low,
        "exact_wilson95_high": high,
        "products_f1": rows["products"]["f1"],
        "species_f1": rows["species"]["f1"],
    }
    extra = len(set(pred) - set(gold))
    if missing:
        report.notes.append(f"{missing} gold reactions have no prediction (scored as empty)")
    if extra:
        report.notes.append(f"{extra} predicted ids are not in the gold file (left out)")
    if pred_keys.unreadable:
        report.notes.append(
            f"{pred_keys.unreadable} predicted SMILES RDKit cannot read (each a fragment "
            "that matches nothing)"
        )
    return report


def score_files(gold: Path, pred: Path, args: argparse.Namespace | None = None) -> ScoreReport:
    """``chemie score reactions GOLD PRED`` (JSON lines or rsmi, told apart per file);
    ``args.bond_orders`` keys fragments by bond orders too."""
    g, p = read_reactions(gold), read_reactions(pred)
    mode = BOND_ORDERS if getattr(args, "bond_orders", False) else SKELETON
    report = score_reactions(g.reactions, p.reactions, gold, pred, mode)
    for path, f in ((gold, g), (pred, p)):
        if f.repeated:
            report.notes.append(
                f"{path}: {f.repeated} ids have several reactions; the last one of each is scored"
            )
    return report
