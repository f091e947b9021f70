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

Whether an input is linked at all (``--link-documents auto``, the default) is decided
before its documents are processed, on their texts (:func:`one_source`, the rules of
``linking`` in ``rules/procedures.yaml``): a label that heads two of its documents
("Example 6" twice) is evidence of several patents (``repeated_label``), and the input is
not linked; its references stay unresolved and say why (:attr:`Verdict.reason`). In a
linked input, auto resolves a reference only to the one earlier document known by its label
(``unique_source``); ``--link-documents on`` takes the latest.

Only what comes earlier is known, so the output keeps its order and can be streamed; with
``--resume`` the entries of the documents already written are read back from a journal
(:meth:`Resolver.entries` / :meth:`Resolver.restore`, kept beside the output while the run is
unfinished). :func:`link` does the same for records in memory (the Python API).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from chemie.model.reaction import TEMPLATE, Reaction, Structure
from chemie.reactions.procedures import inherit
from chemie.reactions.procedures_table import ProcedureTable, procedure_table

NOT_IN_DOCUMENT = "not in this document"
NOT_EARLIER = "not earlier in this input"
NOT_LINKED = "documents of this input not linked"
SEVERAL = "label of several earlier documents of this input"
Key = tuple[str, str]


@dataclass(frozen=True)
class Verdict:
    """Whether ``--link-documents auto`` links the documents of one input: ``rule`` names the
    rule that found evidence of several sources (None: linked), ``detail`` what it saw."""

    rule: str | None = None
    detail: str = ""

    @property
    def linked(self) -> bool:
        return self.rule is None

    @property
    def reason(self) -> str:
        """The ``refers_to.reason`` of a reference its own document did not resolve."""
        return f"{NOT_IN_DOCUMENT}; {NOT_LINKED}: {self.detail} ({self.rule})"


def one_source(documents: Iterable[tuple[str, str]],
               table: ProcedureTable | None = None) -> Verdict:
    """Whether the documents of one input, ``(id, text)`` in input order, look like the
    paragraphs of one patent: not when a label of ``linking.kinds`` heads two of them
    (``repeated_label``; an unlabelled "General procedure" heading does not count)."""
    table = table or procedure_table()
    rules = table.linking
    heads: dict[Key, str] = {}
    for n, (doc_id, text) in enumerate(documents):
        m = table.compiled["document_label"].match(text)
        if m is None or not m.group("label"):
            continue
        key = (table.kind(m.group("kind")), m.group("label").lower())
        if key[0] not in rules.kinds:
            continue
        if key in heads:
            heading = " ".join(m.group().split())
            return Verdict(rules.repeated_label.name,
                           f'"{heading}" heads documents {heads[key]} and {doc_id}')
        heads[key] = doc_id or f"#{n + 1}"
    return Verdict()


@dataclass
class _Input:
    """The labelled records and templates of one input seen so far; ``shared``: the labels
    that records of two documents carry."""

    labelled: dict[Key, Reaction] = field(default_factory=dict)
    templates: list[Reaction] = field(default_factory=list)
    shared: set[Key] = field(default_factory=set)


class Resolver:
    """The cross-document pass of one run (see the module docstring); ``has_group``: the
    substructure test of :func:`chemie.structures.chem.has_group` when structures are
    resolved, else None; ``unique``: a label of two earlier documents resolves nothing
    (``unique_source``, auto), else the latest is taken (on); ``unlinked``: the inputs not
    linked and why (:func:`one_source`)."""

    def __init__(self, table: ProcedureTable | None = None,
                 has_group: Callable[[str, str], bool] | None = None, unique: bool = False,
                 unlinked: dict[str, Verdict] | None = None):
        self.table = table or procedure_table()
        self.has_group = has_group
        self.unique = unique
        self.unlinked = dict(unlinked or {})
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
        input ``scope`` (in place); in an input not linked, they say why."""
        verdict = self.unlinked.get(scope)
        if verdict is not None:
            for r in reactions:
                if _open(r):
                    r.refers_to.reason = verdict.reason
            return
        known = self.inputs.get(scope, _Input())
        for r in reactions:
            ref = r.refers_to
            if _open(r):
                source, reason = self._source(known, ref.kind, ref.label)
                if source is None:
                    ref.reason = reason
                else:
                    inherit(r, source, ref, self.table, elsewhere=True,
                            has_group=self.has_group)
                    r.rule = "procedure_example"
            self._labels(known, r)

    def add(self, scope: str, reactions: list[Reaction]) -> list[dict[str, Any]]:
        """Keep the labelled records and templates of one document of input ``scope``;
        returns them as the journal keeps them (plain dictionaries); nothing of an input not
        linked."""
        if scope in self.unlinked:
            return []
        known = self.inputs.setdefault(scope, _Input())
        kept = []
        for r in reactions:
            keys = self.keys(r)
            if r.rule == TEMPLATE:
                known.templates.append(r)
            if keys or r.rule == TEMPLATE:
                kept.append(r.to_dict())
            for key in keys:
                before = known.labelled.get(key)
                if before is not None and before.doc_id != r.doc_id:
                    known.shared.add(key)
                known.labelled[key] = r
        return kept

    def restore(self, scope: str, records: list[dict[str, Any]]) -> None:
        """Keep records read back from a journal (what :meth:`add` returned)."""
        self.add(scope, [Reaction.from_dict(d) for d in records])

    def _source(self, known: _Input, kind: str, label: str) -> tuple[Reaction | None, str]:
        """The earlier record or template a reference names, or None and why not."""
        if kind == "procedure" and not label:
            return (known.templates[0], "") if len(known.templates) == 1 else (None, NOT_EARLIER)
        key = (kind, label.lower())
        if self.unique and key in known.shared:
            return None, f"{SEVERAL} ({self.table.linking.unique_source.name})"
        source = known.labelled.get(key)
        return source, "" if source is not None else NOT_EARLIER

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
            key = (self.table.kind(m.group("kind")), m.group("label").lower())
            if self.unique and key in known.shared:
                continue
            source = known.labelled.get(key)
            product = source.products[0] if source is not None and source.products else None
            s = product.structure if product is not None else None
            if s is not None and s.resolved:
                c.structure = Structure("coreference", s.smiles, s.inchikey,
                                        via=f"{source.label}: {product.name}", kind=s.kind,
                                        rule=self.table.label_references.name)


def _open(r: Reaction) -> bool:
    """Whether a record's reference is one its own document left to the other documents."""
    ref = r.refers_to
    return ref is not None and ref.source is None and ref.reason == NOT_IN_DOCUMENT


def link(documents: Iterable[list[Reaction]], table: ProcedureTable | None = None,
         has_group: Callable[[str, str], bool] | None = None,
         verdict: Verdict | None = None) -> None:
    """Resolve the references between the documents of one source (each a list of records,
    in input order), in place: what ``chemie reactions --link-documents on`` does for each
    INPUT; with ``verdict`` (:func:`one_source` of the documents' texts) what auto does.
    ``has_group``: :func:`chemie.structures.chem.has_group` when the records have
    structures."""
    unlinked = {"": verdict} if verdict is not None and not verdict.linked else None
    resolver = Resolver(table, has_group, unique=verdict is not None, unlinked=unlinked)
    for records in documents:
        resolver.resolve("", records)
        resolver.add("", records)
