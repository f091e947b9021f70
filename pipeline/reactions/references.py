"""References to what an earlier reaction of the document made: a step's reactants named as
"the product of Step 1", "the imidate", "compound 6", "this nitro compound".

:class:`References` resolves, for one reaction (its candidates and its text), every
reference to the product of an earlier reaction of the same document
(``rules/procedures.yaml``):

* a phrase naming another step ("the carbamate obtained in Step 1": ``step_references``);
* a compound label ("6", "compound 2a", "Intermediate 3": ``label_references``), given to a
  name by a bracket after it ("NAME (6)": ``label_definition``) or by the heading that
  carries it ("Intermediate 3: NAME");
* a class of compound ("the imidate", "the acid chloride": ``class_references``): the latest
  earlier product whose structure has that group (without structures: the latest);
* "the product", "the crude material" (``product_references``): the previous product;
* a mention that ``chemie_coref`` links (COREFERENCE, TRANSFORMED) to the mention of an
  earlier product (``linked_product``).

A reference that is a compound span of ``chemie_roles`` takes the product's structure
(``Structure.how`` ``coreference``, ``via`` the product's name, ``rule`` the reference rule);
one found only in the text becomes a new candidate when it is an input
(``reference_input``). Either is a reactant (rule ``step_reference``). A class noun used as
a reference is never resolved as a literal name ("the carbamate" is not the carbamate ion):
without an earlier product of its class it stays unresolved (reason ``reference``), a
placeholder a general procedure's example replaces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from chemie.model.reaction import Structure
from chemie.reactions.amounts import amount_near
from chemie.reactions.assemble import INPUTS, Candidate, DocView
from chemie.reactions.procedures_table import ProcedureTable
from chemie.reactions.sections import Plan, Section
from chemie.reactions.table import ReactionTable

STEP_REFERENCE = "step_reference"
LINKED = "linked_product"  # the rule of a reference reached through chemie_coref's links
# every class, product and step reference opens with one of these (patterns are tried only
# there); a step reference names a step, stage or part
_DETERMINER = regex.compile(r"\b(?i:the|this|that|said)\b")
_STEP_WORDS = regex.compile(r"(?i:\bstep|\bstage|\bpart)\b")


@dataclass
class Made:
    """The product an earlier reaction of the document made, and its section."""

    section: Section
    product: Candidate


class References:
    """The references of a document's reactions (see the module docstring)."""

    def __init__(self, view: DocView, table: ProcedureTable, reactions: ReactionTable,
                 plan: Plan, found: list[Candidate],
                 has_group: Callable[[str, str], bool] | None = None):
        self.view = view
        self.table = table
        self.reactions = reactions
        self.plan = plan
        self.has_group = has_group  # None: structures are off
        self.labels = self._labels(found)

    def label_key(self, text: str) -> tuple[str, str] | None:
        """``(kind, label)`` of a text that is a compound label ("compound 6" ->
        ``("compound", "6")``), else None."""
        m = self.table.compiled["label_references"].match(" ".join(text.split()))
        if m is None:
            return None
        return self.table.kind(m.group("kind") or "compound"), m.group("label")

    def _labels(self, found: list[Candidate]) -> dict[tuple[str, str], Candidate]:
        """The compounds the document gives labels to: a bracket after a name, the title of
        a document that opens with a label ("Intermediate 3: NAME")."""
        out: dict[tuple[str, str], Candidate] = {}
        pattern = self.table.compiled["label_definition"]
        text = self.view.text
        for c in found:
            if not _resolved(c):
                continue
            m = pattern.match(text, c.end, min(len(text), c.end + 60))
            if m is not None:
                kind = self.table.kind(m.group("kind") or "compound")
                out.setdefault((kind, m.group("label")), c)
        first = self.plan.sections[0] if self.plan.sections else None
        if self.plan.label is not None and first is not None and first.title_at >= 0:
            title = next((c for c in found if c.start >= first.title_at and _resolved(c)
                          and c.start in self.plan.titles), None)
            if title is not None:
                out.setdefault(self.plan.label, title)
        return out

    def resolve(self, members: list[Candidate], made: list[Made], a: int, b: int,
                found: list[Candidate]) -> list[Candidate]:
        """Resolve the references among ``members`` (the candidates of one reaction, text
        ``[a, b)``) to the products in ``made`` (earlier reactions); returns the new
        candidates found in the text (the caller adds them)."""
        text = self.view.text
        steps = [(m, rule.name) for rule in self.table.step_references
                 for m in self.table.compiled[rule.name].finditer(text, a, b)] \
            if _STEP_WORDS.search(text, a, b) else []
        for c in members:
            if a <= c.start < b:
                self._candidate(c, made, steps)
        return self._in_text(made, a, b, found) if made else []

    def _candidate(self, c: Candidate, made: list[Made],
                   steps: list[tuple[regex.Match, str]]) -> None:
        key = self.label_key(c.text)
        if key is not None and not _resolved(c):
            target = self.labels.get(key)
            if target is not None and target is not c:
                _refer(c, target, self.table.label_references.name, keep_role=True)
            return
        if c.role not in INPUTS and c.role != "none":
            return
        for m, rule in steps:
            if m.start() <= c.start and c.end <= m.end():
                target = self._step(m, made)
                if target is not None:
                    _refer(c, target, rule)
                return
        target = self._linked(c, made)
        if target is not None:
            _refer(c, target, LINKED)
            return
        if not _DETERMINER.search(self.view.text, max(0, c.start - 40), c.start):
            return  # every class or product reference opens with one
        if c.structure is not None and c.structure.how == "coreference":
            return  # chemie_coref found what it refers to
        m = self._phrase(c, "class_references")
        if m is not None:
            target = self._of_class(" ".join(m.group("noun").lower().split()), made)
            if target is not None:
                _refer(c, target, self.table.class_references.name)
            elif c.structure is not None:  # a class named, not a compound
                c.structure = Structure("unresolved", reason="reference")
        elif made and self._phrase(c, "product_references") is not None:
            _refer(c, made[-1].product, self.table.product_references.name)

    def _linked(self, c: Candidate, made: list[Made]) -> Candidate | None:
        """The earlier product that the candidate's mention reaches through chemie_coref's
        COREFERENCE and TRANSFORMED links, when it has no structure of its own."""
        if c.mention is None or not made or _resolved(c) and c.structure.how != "coreference":
            return None
        products = {x.product.mention.id: x.product for x in made
                    if x.product.mention is not None}
        seen, queue = {c.mention.id}, [c.mention.id]
        while queue:
            mid = queue.pop(0)
            for nxt in (*self.view.coreference.get(mid, ()), *self.view.transformed.get(mid, ())):
                if nxt in products and products[nxt] is not c:
                    return products[nxt]
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return None

    def placeholders(self, members: list[Candidate]) -> None:
        """The class phrases of a general procedure ("the amine", "the aryl bromide") are
        generic reactants, not the compounds their nouns name: unresolved (``reference``)."""
        for c in members:
            if c.structure is not None and c.structure.how != "coreference" \
                    and _DETERMINER.search(self.view.text, max(0, c.start - 40), c.start) \
                    and self._phrase(c, "class_references") is not None:
                c.structure = Structure("unresolved", reason="reference")

    def _phrase(self, c: Candidate, key: str) -> regex.Match | None:
        """The reference phrase (``key``: its compiled pattern) that ends where the candidate
        ends and holds it ("the aryl bromide" for "bromide")."""
        pattern = self.table.compiled[key]
        text = self.view.text
        return next((m for m in pattern.finditer(text, max(0, c.start - 40), c.end)
                     if m.end() == c.end and m.start() <= c.start), None)

    def _in_text(self, made: list[Made], a: int, b: int,
                 found: list[Candidate]) -> list[Candidate]:
        """References in the text ``[a, b)`` that no candidate covers and that are inputs,
        before the first work-up word of the reaction, as new reactants."""
        text = self.view.text
        stop = min((r.start for r in self.view.roles if r.label == "WORKUP" and a <= r.start < b),
                   default=b)
        spans = [(c.start, c.end) for c in found]
        out: list[Candidate] = []
        rules = [(r.name, self._step) for r in self.table.step_references]
        rules += [(self.table.class_references.name, self._class_match),
                  (self.table.product_references.name, lambda m, made: made[-1].product)]
        opening = [d.start() for d in _DETERMINER.finditer(text, a, stop)]
        for name, target_of in rules:
            pattern = self.table.compiled[_pattern_key(self.table, name)]
            for m in filter(None, (pattern.match(text, at) for at in opening)):
                if any(s < m.end() and m.start() < e for s, e in spans):
                    continue
                target = target_of(m, made)
                if target is None or not self._is_input(m.start(), m.end()):
                    continue
                c = self._new(m.start(), m.end())
                _refer(c, target, name)
                spans.append((c.start, c.end))
                out.append(c)
        return out

    def _new(self, start: int, end: int) -> Candidate:
        view = self.view
        section = self.plan.section_of(start)
        amount = amount_near(view.text, start, end, self.reactions)
        return Candidate(start, end, view.text[start:end], "STARTING_MATERIAL", "", section,
                         view.covering(start, end), amount, name=view.text[start:end])

    def _is_input(self, start: int, end: int) -> bool:
        text = self.view.text
        amount = amount_near(text, start, end, self.reactions)
        if amount.mass or amount.moles or amount.volume:
            return True
        return bool(self.table.compiled["reference_before"].search(text[max(0, start - 40):start])
                    or self.table.compiled["reference_after"].match(text[end:end + 100]))

    def _step(self, m: regex.Match, made: list[Made]) -> Candidate | None:
        """The product of the step a step reference names."""
        kind, label = self.table.kind(m.group("kind")), m.group("label")
        return next((x.product for x in reversed(made)
                     if x.section.kind == kind and x.section.label.lower() == label.lower()),
                    None)

    def _class_match(self, m: regex.Match, made: list[Made]) -> Candidate | None:
        return self._of_class(" ".join(m.group("noun").lower().split()), made)

    def _of_class(self, noun: str, made: list[Made]) -> Candidate | None:
        """The latest earlier product of the class of ``noun`` (without structures: the
        latest earlier product)."""
        if not made:
            return None
        if self.has_group is None:
            return made[-1].product
        smarts = self.table.smarts_of(noun)
        return next((x.product for x in reversed(made) if x.product.structure is not None
                     and x.product.structure.smiles
                     and self.has_group(x.product.structure.smiles, smarts)), None)


def _pattern_key(table: ProcedureTable, name: str) -> str:
    """The key of a reference rule's compiled pattern."""
    if name == table.class_references.name:
        return "class_references"
    if name == table.product_references.name:
        return "product_references"
    return name


def _resolved(c: Candidate) -> bool:
    return c.structure is not None and c.structure.resolved


def _refer(c: Candidate, target: Candidate, rule: str, keep_role: bool = False) -> None:
    """``c`` refers to ``target``: its structure (when structures are resolved), and, as an
    input, the role of a reactant."""
    s = target.structure
    if s is not None:
        c.structure = Structure("coreference", s.smiles, s.inchikey, via=target.name,
                                kind=s.kind, rule=rule)
        c.cls = target.cls
    if not keep_role or c.role in INPUTS:
        c.role, c.rule = "reactant", STEP_REFERENCE
