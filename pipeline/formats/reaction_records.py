"""Writers of ``chemie reactions``' results: a document's reaction records
(``doc.meta["reactions"]``, :class:`chemie.model.reaction.Reaction`) as JSON lines, reaction
SMILES lines or the rows of three tables. The templates of general procedures (rule
``general_procedure``: no reaction of their own) are not written (:func:`written`).

- JSON lines: one line per reaction, :meth:`~chemie.model.reaction.Reaction.to_dict`.
- rsmi: one line per reaction, ``ID<TAB>reactants>reagents>products`` (the document's id,
  as the USPTO sets are distributed and ``chemie score reactions`` reads them); a reaction
  with a component that has no structure gets a third column naming such components. A document's
  reactions come in text order, so its last line is the reaction that makes its final
  product (the title's compound belongs to the last reaction: :mod:`chemie.reactions.records`).
- Tables (:data:`TABLES`): ``reactions`` (one row per reaction: its rule, reaction SMILES,
  yield and conditions), ``components`` (one row per component: role and rule, name,
  offsets, mention, amount, structure and how it was resolved) and ``steps`` (one row per
  action of the action parser, with its objects). Rows join on ``doc_id`` and
  ``reaction_id``.
"""

from __future__ import annotations

import json

from chemie.formats.tabular import Table
from chemie.model import Document
from chemie.model.reaction import CONDITION_KINDS, TEMPLATE, Component, Quantity, Reaction

MEASURES = ("mass", "volume", "moles", "equivalents", "concentration")
ROLE_LISTS = ("products", "reactants", "reagents", "catalysts", "solvents")


def reactions_of(doc: Document) -> list[Reaction]:
    """The reaction records of an annotated document (none when it has no reactions), the
    templates of its general procedures included."""
    return doc.meta.get("reactions") or []  # type: ignore[return-value]


def written(doc: Document) -> list[Reaction]:
    """The records that are written: reactions, not the templates of general procedures
    (rule ``general_procedure``, :mod:`chemie.reactions.records`)."""
    return [r for r in reactions_of(doc) if r.rule != TEMPLATE]


def reactions_document(doc: Document) -> Document:
    """Only what the tables read: the id and the reactions (a light payload for a worker
    to send back)."""
    return Document(doc.id, "", meta={"reactions": reactions_of(doc)})


def jsonl_block(doc: Document) -> str:
    """One JSON line per reaction of ``doc``."""
    return "".join(
        json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in written(doc)
    )


def rsmi_id(doc_id: str) -> str:
    """A document id as the first column of an rsmi line (tabs and line breaks as spaces)."""
    return " ".join(doc_id.replace("\t", " ").splitlines()) or "-"


def unresolved(r: Reaction) -> list[Component]:
    """The components of ``r`` that should have a structure and have none (a name OPSIN
    cannot parse, a compound label, no Java …; not a material such as brine, and nothing
    when structures were not resolved at all)."""
    return [c for c in r.components() if c.structure is not None and not c.structure.smiles
            and c.structure.how == "unresolved"]


def rsmi_block(doc: Document) -> str:
    """One ``ID<TAB>reactants>reagents>products`` line per reaction of ``doc``, in text order
    (the last makes the document's final product). A reaction with :func:`unresolved`
    components gets a third column naming them, ``role=name; role=name``: its SMILES lacks
    them, so the line must not look complete."""
    name = rsmi_id(doc.id)
    lines = []
    for r in written(doc):
        missing = "; ".join(f"{c.role}={rsmi_id(c.name)}" for c in unresolved(r))
        lines.append(f"{name}\t{r.rsmi()}\t{missing}\n" if missing else f"{name}\t{r.rsmi()}\n")
    return "".join(lines)


def _texts(items: list) -> str | None:
    return "; ".join(i.text for i in items) or None


def _resolved(r: Reaction) -> bool:
    """Whether structures were resolved for ``r`` (not with ``--no-structures``)."""
    return any(c.structure is not None for c in r.components())


def reaction_rows(doc: Document) -> list[dict]:
    """One row per reaction (columns of :data:`REACTIONS`; ``rsmi`` empty when structures
    were not resolved)."""
    rows = []
    for r in written(doc):
        y = r.yield_
        row = {
            "doc_id": doc.id, "reaction_id": r.id, "rule": r.rule,
            "rsmi": r.rsmi() if _resolved(r) else None,
            "products": len(r.products), "reactants": len(r.reactants),
            "reagents": len(r.reagents), "catalysts": len(r.catalysts),
            "solvents": len(r.solvents), "yield_percent": y.percent,
            "yield_mass": y.mass.value if y.mass else None,
            "yield_mass_unit": y.mass.unit if y.mass else None,
            "yield_moles": y.moles.value if y.moles else None,
            "yield_moles_unit": y.moles.unit if y.moles else None,
            "yield_text": y.text or None,
        }
        for kind in CONDITION_KINDS:
            row[kind] = _texts(getattr(r.conditions, kind))
        row["steps"] = len(r.steps)
        rows.append(row)
    return rows


def _measure(q: Quantity | None) -> tuple[float | None, str | None]:
    return (q.value, q.unit) if q is not None else (None, None)


def _component_row(doc: Document, r: Reaction, n: int, c: Component) -> dict:
    s = c.structure
    row = {
        "doc_id": doc.id, "reaction_id": r.id, "component": n, "role": c.role, "rule": c.rule,
        "name": c.name, "start": c.start, "end": c.end, "mention": c.mention,
        "smiles": s.smiles if s else None, "inchikey": s.inchikey if s else None,
        "how": s.how if s else None, "via": s.via if s else None,
        "reason": s.reason if s else None, "kind": s.kind if s else None,
    }
    for measure in MEASURES:
        row[measure], row[f"{measure}_unit"] = _measure(getattr(c.amount, measure))
    return row


def component_rows(doc: Document) -> list[dict]:
    """One row per component of every reaction (columns of :data:`COMPONENTS`), numbered
    within the reaction: products, reactants, reagents, catalysts, solvents."""
    return [
        _component_row(doc, r, n, c)
        for r in written(doc)
        for n, c in enumerate(r.components(), 1)
    ]


def step_rows(doc: Document) -> list[dict]:
    """One row per step of every reaction (columns of :data:`STEPS`); ``objects`` lists
    each argument as ``role=text`` (``; `` between them)."""
    return [
        {
            "doc_id": doc.id, "reaction_id": r.id, "step": n, "action": s.action,
            "text": s.text, "phase": s.phase, "rule": s.rule, "start": s.start, "end": s.end,
            "objects": "; ".join(f"{o.role}={o.text}" for o in s.objects) or None,
        }
        for r in written(doc)
        for n, s in enumerate(r.steps, 1)
    ]


_KEY = (("doc_id", "str"), ("reaction_id", "str"))
REACTIONS = Table(
    "reactions",
    (*_KEY, ("rule", "str"), ("rsmi", "str"), *((role, "int") for role in ROLE_LISTS),
     ("yield_percent", "float"), ("yield_mass", "float"), ("yield_mass_unit", "str"),
     ("yield_moles", "float"), ("yield_moles_unit", "str"), ("yield_text", "str"),
     *((kind, "str") for kind in CONDITION_KINDS), ("steps", "int")),
    reaction_rows,
)
COMPONENTS = Table(
    "components",
    (*_KEY, ("component", "int"), ("role", "str"), ("rule", "str"), ("name", "str"),
     ("start", "int"), ("end", "int"), ("mention", "str"), ("smiles", "str"),
     ("inchikey", "str"), ("how", "str"), ("via", "str"), ("reason", "str"), ("kind", "str"),
     *((col, kind) for m in MEASURES for col, kind in ((m, "float"), (f"{m}_unit", "str")))),
    component_rows,
)
STEPS = Table(
    "steps",
    (*_KEY, ("step", "int"), ("action", "str"), ("text", "str"), ("phase", "str"),
     ("rule", "str"), ("start", "int"), ("end", "int"), ("objects", "str")),
    step_rows,
)
TABLES = (REACTIONS, COMPONENTS, STEPS)  # the tables of ``chemie reactions --format csv``
