"""Exact-match marking of predictions against gold, for display (not a scorer).

A relation matches when its label and the spans of both its arguments are identical. A
mention matches a mention with the same spans and label; the untyped gold label
``ENTITY`` (ChEMU-Ref mentions) matches any label. Each relation and mention gets a status:
``tp``, ``fp`` (predicted, not in gold), ``fn`` (gold, not predicted) or ``""`` (a predicted
mention the gold does not judge: gold with only untyped mentions annotates the arguments of
relations alone, so a predicted mention outside every predicted relation is not an error).
A reaction role (ChEMU 2020 label) matches a role with the same label and offsets.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chemie.model import ROLE_ENTITY_LABELS, ROLE_TRIGGER_LABELS, Document, Mention, Range

UNTYPED = "ENTITY"

RelKey = tuple[str, tuple[Range, ...], tuple[Range, ...]]


@dataclass
class Marks:
    """Statuses by mention id and relation id (``Relation.id`` or its position)."""

    mentions: dict[str, str] = field(default_factory=dict)
    relations: dict[str, str] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)

    def count(self, status: str) -> int:
        """How many relations have this status."""
        return sum(s == status for s in self.relations.values())


def relation_key(doc: Document, index: int) -> str:
    """The id under which :class:`Marks` stores ``doc.relations[index]``."""
    return doc.relations[index].id or f"#{index}"


def _relation_keys(doc: Document) -> dict[str, RelKey]:
    mentions = doc.mention_index()
    keys = {}
    for i, r in enumerate(doc.relations):
        head, tail = mentions.get(r.head), mentions.get(r.tail)
        if head is not None and tail is not None:
            keys[relation_key(doc, i)] = (r.label, head.spans, tail.spans)
    return keys


def _same(pred: Mention, gold: Mention) -> bool:
    return pred.spans == gold.spans and (
        pred.label == gold.label or UNTYPED in (pred.label, gold.label)
    )


def roles_only(gold: Document) -> bool:
    """Whether ``gold`` annotates reaction roles alone (ChEMU 2020 brat: every mention has
    a ChEMU 2020 label, no relation), so its mentions and relations judge nothing else."""
    labels = set(ROLE_ENTITY_LABELS) | set(ROLE_TRIGGER_LABELS)
    return bool(gold.roles) and not gold.relations and all(
        m.label in labels for m in gold.mentions)


def compare(pred: Document, gold: Document) -> tuple[Marks, Marks]:
    """``(pred_marks, gold_marks)``: exact-match statuses of both documents' annotations
    (of the roles alone when the gold annotates nothing else)."""
    pm, gm = Marks(), Marks()
    if gold.roles:
        _mark_roles(pred, gold, pm, gm)
        if roles_only(gold):
            return pm, gm
    pred_keys, gold_keys = _relation_keys(pred), _relation_keys(gold)
    gold_set, pred_set = set(gold_keys.values()), set(pred_keys.values())
    pm.relations = {k: "tp" if v in gold_set else "fp" for k, v in pred_keys.items()}
    gm.relations = {k: "tp" if v in pred_set else "fn" for k, v in gold_keys.items()}
    _mark_mentions(pred, gold, pm, gm)
    return pm, gm


def _mark_roles(pred: Document, gold: Document, pm: Marks, gm: Marks) -> None:
    """Set the role statuses of ``pm`` (tp or fp) and ``gm`` (tp or fn)."""
    gold_roles = {(r.label, r.start, r.end) for r in gold.roles}
    pred_roles = {(r.label, r.start, r.end) for r in pred.roles}
    pm.roles = {r.id: "tp" if (r.label, r.start, r.end) in gold_roles else "fp"
                for r in pred.roles}
    gm.roles = {r.id: "tp" if (r.label, r.start, r.end) in pred_roles else "fn"
                for r in gold.roles}


def _mark_mentions(pred: Document, gold: Document, pm: Marks, gm: Marks) -> None:
    """Set the mention statuses of ``pm`` (tp, fp or "" when the gold does not judge it)
    and ``gm`` (tp or fn)."""
    by_spans: dict[tuple[Range, ...], list[Mention]] = {}
    for m in gold.mentions:
        by_spans.setdefault(m.spans, []).append(m)
    typed_gold = any(m.label != UNTYPED for m in gold.mentions)
    in_relation = {mid for r in pred.relations for mid in (r.head, r.tail)}
    found: set[str] = set()
    for m in pred.mentions:
        hits = [g for g in by_spans.get(m.spans, []) if _same(m, g)]
        found.update(g.id for g in hits)
        if hits:
            pm.mentions[m.id] = "tp"
        else:
            pm.mentions[m.id] = "fp" if typed_gold or m.id in in_relation else ""
    gm.mentions = {m.id: "tp" if m.id in found else "fn" for m in gold.mentions}
