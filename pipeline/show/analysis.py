"""Error analysis of anaphora predictions: which rule made each link, which gold links nobody
found. Used by ``notebooks/error_analysis.ipynb``.

A predicted link is *correct* when a gold link has the same label and the same anaphor and
antecedent spans, gold coreference being expanded transitively first (as the scorer does),
so a rule linking to an earlier mention of the same chain is not counted as wrong.
A gold link is *missed* when no predicted link (coreference expanded likewise) matches it.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from chemie.model import Document, Mention
from chemie.scoring.anaphora import doc_pairs
from chemie.scoring.report import prf

LINK_COLUMNS = [
    "doc_id", "label", "rule", "outcome", "anaphor", "anaphor_head", "anaphor_kind",
    "antecedent", "anaphor_found", "antecedent_found",
]

Key = tuple[str, frozenset, frozenset]


def head_word(mention: Mention, text: str) -> str:
    """The mention's ``head``, else the last alphabetic word before a ``(`` or ``,``
    in its first range, lowercased (``"compound 6 ( 1.2 g )"`` -> ``"compound"``)."""
    head = mention.head
    if head:
        return head.lower()
    a, b = mention.spans[0]
    words = text[a:b].split("(")[0].split(",")[0].split()
    alpha = [w for w in words if any(c.isalpha() for c in w)]
    return (alpha[-1] if alpha else (words[-1] if words else "")).lower()


def _keys(doc: Document) -> set[Key]:
    by_type, _ = doc_pairs(doc)
    return {
        (label, frozenset(a.spans), frozenset(b.spans))
        for label, pairs in by_type.items()
        for a, b in pairs
    }


def link_outcomes(gold: Iterable[Document], pred: Iterable[Document]) -> pd.DataFrame:
    """One row per predicted link (``correct``/``wrong``) and per missed gold link (``missed``).

    Documents are matched by id; predicted documents without gold are skipped. ``rule`` is
    empty for missed links; ``anaphor_found``/``antecedent_found`` say whether the
    prediction has a mention with exactly those spans (mention detection vs linking errors).
    """
    gold_docs = {d.id: d for d in gold}
    rows = []
    for p in pred:
        g = gold_docs.get(p.id)
        if g is None:
            continue
        gold_keys, pred_keys = _keys(g), _keys(p)
        pred_spans = {m.spans for m in p.mentions}
        for doc, outcome_of in ((p, None), (g, pred_keys)):
            index = doc.mention_index()
            for r in doc.relations:
                ana, ant = index[r.head], index[r.tail]
                key = (r.label, frozenset(ana.spans), frozenset(ant.spans))
                if outcome_of is None:
                    outcome = "correct" if key in gold_keys else "wrong"
                elif key in outcome_of:
                    continue
                else:
                    outcome = "missed"
                rows.append(
                    {
                        "doc_id": doc.id,
                        "label": r.label,
                        "rule": (r.rule or "") if outcome_of is None else "",
                        "outcome": outcome,
                        "anaphor": ana.text or doc.span_text(ana.spans),
                        "anaphor_head": head_word(ana, doc.text),
                        "anaphor_kind": ana.kind,
                        "antecedent": ant.text or doc.span_text(ant.spans),
                        "anaphor_found": ana.spans in pred_spans,
                        "antecedent_found": ant.spans in pred_spans,
                    }
                )
    return pd.DataFrame(rows, columns=LINK_COLUMNS)


def rule_table(links: pd.DataFrame, gold_counts: dict[str, int]) -> pd.DataFrame:
    """Per (rule, label): links made, correct, wrong, precision, share of the label's gold
    links it found (``recall``) and their F1; sorted by wrong links, most first."""
    made = links[links["outcome"] != "missed"]
    rows = []
    for (rule, label), group in made.groupby(["rule", "label"], sort=True):
        tp = int((group["outcome"] == "correct").sum())
        fp = len(group) - tp
        total = gold_counts.get(label, 0)
        p, r, f = prf(tp, fp, max(total - tp, 0))
        rows.append((rule or "(no rule)", label, len(group), tp, fp, p, r, f))
    frame = pd.DataFrame(
        rows, columns=["rule", "label", "links", "correct", "wrong", "precision", "recall", "f1"]
    )
    return frame.sort_values(["wrong", "rule"], ascending=[False, True]).reset_index(drop=True)


def missed_patterns(links: pd.DataFrame, top: int = 25) -> pd.DataFrame:
    """Missed gold links grouped by label and anaphor head word, most frequent first, with
    how often the anaphor/antecedent mention had been detected and an example anaphor."""
    missed = links[links["outcome"] == "missed"]
    grouped = missed.groupby(["label", "anaphor_head"], sort=True).agg(
        missed=("doc_id", "size"),
        anaphor_found=("anaphor_found", "mean"),
        antecedent_found=("antecedent_found", "mean"),
        example=("anaphor", "first"),
    )
    grouped = grouped.reset_index().sort_values(
        ["missed", "label", "anaphor_head"], ascending=[False, True, True]
    )
    return grouped.head(top).reset_index(drop=True)
