"""References across the documents of one input (ChEMU 2021 Task 1, reaction reference
resolution, between paragraphs): "prepared according to General Procedure D" in one
paragraph, the procedure in another; "as described in Example 10, using X instead of Y";
"Intermediate 3" named as a reactant, made in the paragraph titled "Intermediate 3: NAME".

Documents are processed one by one (by worker processes, in any order); this pass runs
after them, in input order, over the records of each document (:class:`Resolver`, used by
``chemie reactions`` in its own process, before a document's records are written):

* :meth:`Resolver.add` keeps, per input (one INPUT argument: a file of paragraphs, a folder
  of texts), each labelled record under its label's kind and label ("Example 10" ->
  ``("example", "10")``; the record's ``label``, see :mod:`chemie.reactions.records`) and
  each general procedure's template (``("procedure", "D")``); steps ("Step 2") are labels of
  their document only;
* :meth:`Resolver.resolve` gives a record whose ``refers_to`` its own document could not
  resolve (``reason`` "not in this document") what the labelled record or template it names
  has (:func:`chemie.reactions.procedures.inherit`, components of the other document
  without offsets); a component named by a label of such a record ("Intermediate 3") takes
  its product's structure (``Structure.rule`` ``compound_label``). A reference to a
  document later in the input, or in no document of it, stays unresolved, ``reason`` "not
  earlier in this input".

Only what comes earlier is known, so the output keeps its order and can be streamed; with
``--resume`` the entries of the documents already written are read back from a journal
(:meth:`Resolver.entries` / :meth:`Resolver.restore`, kept beside the output while the run is
unfinished). :func:`link` does the same for records in memory (the Python API).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from chemie.reactions.model import TEMPLATE, Reaction, Structure
from chemie.reactions.procedures import inherit
from chemie.reactions.procedures_table import ProcedureTable, procedure_table

NOT_IN_DOCUMENT = "not in this document"
NOT_EARLIER = "not earlier in this input"
Key = tuple[str, str]


@dataclass
class _Input:
    """The labelled records and templates of one input seen so far."""

    labelled: dict[Key, Reaction] = field(default_factory=dict)
    templates: list[Reaction] = field(default_factory=list)


class Resolver:
    """The cross-document pass of one run (see the module docstring); ``has_group``: the
    substructure test of :func:`chemie.structures.chem.has_group` when structures are
    resolved, else None."""

    def __init__(self, table: ProcedureTable | None = None,
                 has_group: Callable[[str, str], bool] | None = None):
        self.table = table or procedure_table()
        self.has_group = has_group
        self.inputs: dict[str, _Input] = {}

    def keys(self, r: Reaction) -> list[Key]:
        """The labels a record is known by in its input (not its steps)."""
        out = []
        for part in (r.label or "").split(", "):
            m = self.table.compiled["document_label"].match(part)
            if m is not None:
                out.append((self.table.kind(m.group("kind")), (m.group("label") or "").lower()))
        return out

    def resolve(self, scope: str, reactions: list[Reaction]) -> None:
        """Resolve the references of one document's records to earlier documents of the
        input ``scope`` (in place)."""
        known = self.inputs.get(scope, _Input())
        for r in reactions:
            ref = r.refers_to
            if ref is not None and ref.source is None and ref.reason == NOT_IN_DOCUMENT:
                source = self._source(known, ref.kind, ref.label)
                if source is None:
                    ref.reason = NOT_EARLIER
                else:
                    inherit(r, source, ref, self.table, elsewhere=True,
                            has_group=self.has_group)
                    r.rule = "procedure_example"
            self._labels(known, r)

    def add(self, scope: str, reactions: list[Reaction]) -> list[dict[str, Any]]:
        """Keep the labelled records and templates of one document of input ``scope``;
        returns them as the journal keeps them (plain dictionaries)."""
        known = self.inputs.setdefault(scope, _Input())
        kept = []
        for r in reactions:
            keys = self.keys(r)
            if r.rule == TEMPLATE:
                known.templates.append(r)
            if keys or r.rule == TEMPLATE:
                kept.append(r.to_dict())
            for key in keys:
                known.labelled[key] = r
        return kept

    def restore(self, scope: str, records: list[dict[str, Any]]) -> None:
        """Keep records read back from a journal (what :meth:`add` returned)."""
        self.add(scope, [Reaction.from_dict(d) for d in records])

    def _source(self, known: _Input, kind: str, label: str) -> Reaction | None:
        if kind == "procedure" and not label:
            return known.templates[0] if len(known.templates) == 1 else None
        return known.labelled.get((kind, label.lower()))

    def _labels(self, known: _Input, r: Reaction) -> None:
        """Components named by a label of an earlier document ("Intermediate 3") take the
        structure of its product."""
        pattern = self.table.compiled["label_references"]
        for c in r.components():
            if c.structure is None or c.structure.resolved:
                continue
            m = pattern.match(" ".join(c.name.split()))
            if m is None or not m.group("kind"):
                continue
            source = known.labelled.get((self.table.kind(m.group("kind")),
                                         m.group("label").lower()))
            product = source.products[0] if source is not None and source.products else None
            s = product.structure if product is not None else None
            if s is not None and s.resolved:
                c.structure = Structure("coreference", s.smiles, s.inchikey,
                                        via=f"{source.label}: {product.name}", kind=s.kind,
                                        rule=self.table.label_references.name)


def link(documents: Iterable[list[Reaction]], table: ProcedureTable | None = None,
         has_group: Callable[[str, str], bool] | None = None) -> None:
    """Resolve the references between the documents of one source (each a list of records,
    in input order), in place: what ``chemie reactions --link-documents`` does for each
    INPUT. ``has_group``: :func:`chemie.structures.chem.has_group` when the records have
    structures."""
    resolver = Resolver(table, has_group)
    for records in documents:
        resolver.resolve("", records)
        resolver.add("", records)
