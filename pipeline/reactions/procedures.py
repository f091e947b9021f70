"""General procedures and reaction references (ChEMU 2021 Task 1, "chemical reaction
reference resolution"): what an example says it follows, what it replaces, and what it
inherits.

An example that follows a general procedure (or another example: "as described in Example
3, using X instead of Y") is one record with its own reactants, product, amounts and yield,
and the reagents, catalysts, solvents and conditions of what it follows
(:func:`inherit`). Its :class:`~chemie.model.reaction.Reference` (``refers_to``) names the
procedure or example (:func:`find_references`, ``procedure_references`` of
``rules/procedures.yaml``), the record inherited from (``source``), the components taken
(``inherited``) and those replaced (``replaced``: "using X instead of Y",
:func:`replacements_in`; the generic reactants of a procedure, "the amine", by the
example's own). The same function serves the examples of one document
(:mod:`chemie.reactions.records`) and the documents of one input
(:mod:`chemie.reactions.inputs`). Nothing here imports RDKit: the class of a compound is
asked of ``has_group`` when structures are resolved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from chemie.model.reaction import (
    CONDITION_KINDS,
    Component,
    Condition,
    Reaction,
    Reference,
    Replacement,
)
from chemie.reactions.assemble import Candidate
from chemie.reactions.procedures_table import ProcedureTable

INHERITED = ("reagents", "catalysts", "solvents")
_DETERMINERS = regex.compile(r"(?i)^(?:the|a|an|this|that|said)\s+")
# what may stand between "instead of" and the old name: its amount ("1.64 g (7.08 mmol) of")
_AMOUNT_OF = regex.compile(r"\s*(?:[\d.,]+\s*[^\W\d]{1,5}\.?\s*(?:\([^()]{0,40}\)\s*)?of\s+)?")
_OLD_NAME = regex.compile(r"[^,;.()\n]+?(?=\s*(?:[,;.()\n]|\band\b|$))")


@dataclass
class Found:
    """A procedure reference found in a text: where, and what it says."""

    start: int
    end: int
    reference: Reference


def find_references(text: str, table: ProcedureTable) -> list[Found]:
    """Every procedure or example reference of ``text`` (``procedure_references``), in text
    order: each pattern is tried around each cue word (``reference_cues``), not over the
    whole text."""
    seen: dict[tuple[int, int], Found] = {}
    for cue in table.compiled["reference_cues"].finditer(text):
        a, b = max(0, cue.start() - 160), min(len(text), cue.end() + 40)
        for rule in table.procedure_references:
            for m in table.compiled[rule.name].finditer(text, a, b):
                if (m.start(), m.end()) in seen or not m.start() <= cue.start() < m.end():
                    continue
                kind = table.kind(m.group(rule.kind_group)) if rule.kind_group else rule.kind
                seen[(m.start(), m.end())] = Found(m.start(), m.end(), Reference(
                    kind or "procedure", m.groupdict().get("label") or "",
                    " ".join(m.group().split()), rule.name))
    return sorted(seen.values(), key=lambda f: (f.start, -f.end))


def reference_in(found: list[Found], a: int, b: int) -> Reference | None:
    """The first reference of ``found`` (:func:`find_references`) in ``[a, b)`` (a copy: the
    record owns it), or None."""
    first = next((f for f in found if a <= f.start < b), None)
    return None if first is None else Reference.from_dict(first.reference.to_dict())


@dataclass
class Replaced:
    """A replacement found in the text: the new candidate (None when the cue has no
    compound before it), the old component's name, and its candidate when it is one."""

    new: Candidate | None
    old: str
    old_candidate: Candidate | None
    rule: str


def replacements_in(text: str, a: int, b: int, members: list[Candidate],
                    table: ProcedureTable) -> list[Replaced]:
    """The replacements ("using X instead of Y") of the text ``[a, b)``, with the
    candidates they name."""
    ordered = sorted((c for c in members if a <= c.start < b), key=lambda c: c.start)
    out = []
    for rule in table.replacements:
        for m in table.compiled[rule.name].finditer(text, a, b):
            before = next((c for c in reversed(ordered) if c.end <= m.start()
                           and not regex.search(r"[.;]\s", text[c.end:m.start()])), None)
            after = next((c for c in ordered if c.start >= m.end()
                          and _AMOUNT_OF.fullmatch(text, m.end(), c.start)), None)
            new, old = (before, after) if rule.new_first else (after, before)
            if old is not None:
                name = old.name
            else:
                found = _OLD_NAME.match(text, m.end()) if rule.new_first else None
                if found is None:
                    continue
                name = found.group().strip()
            out.append(Replaced(new, _DETERMINERS.sub("", name), old, rule.name))
    return out


def inherit(record: Reaction, template: Reaction, ref: Reference, table: ProcedureTable, *,
            elsewhere: bool = False,
            has_group: Callable[[str, str], bool] | None = None) -> None:
    """``record`` takes from ``template`` (see the module docstring): reactants that it does
    not replace, reagents, catalysts and solvents that it does not name, the conditions of
    each kind it gives none of, and the steps before its own; ``ref`` says what was taken
    and replaced. ``elsewhere``: the template is another document's (its components' offsets
    and mentions are left out). The reactants of a general procedure without a structure are
    generic ("the amine"): the example's own reactants replace them; other reactants of what
    it follows (a procedure's "the benzyl bromide", an example's specific reactants) are
    replaced by the record's own reactant of the same classes (``class_references``, with
    ``has_group`` when structures are resolved), unless the text says which
    (``ref.replaced``)."""
    own = {_key(c) for c in record.components()}
    told = {_norm(r.old) for r in ref.replaced} | {r.smiles for r in ref.replaced if r.smiles}
    explicit = bool(ref.replaced)
    for c in template.reactants:
        if _norm(c.name) in told or c.smiles in told:
            _take_role(record, ref, c)
            continue
        if c.structure is not None and not c.structure.resolved:
            ref.replaced.append(Replacement(c.name, _match(c.name, record, table, has_group)))
            continue
        if _key(c) in own:
            continue
        if not explicit:  # "from 4-methoxybenzyl bromide": replaces "the benzyl bromide"
            new = _same_class(c, record, table, has_group)
            if new is not None:
                ref.replaced.append(Replacement(c.name, new))
                continue
        record.reactants.append(_copy(c, elsewhere))
        ref.inherited.append(c.name)
        own.add(_key(c))
    for role in INHERITED:
        for c in getattr(template, role):
            if _key(c) in own or _norm(c.name) in told or c.smiles in told:
                continue
            getattr(record, role).append(_copy(c, elsewhere))
            ref.inherited.append(c.name)
            own.add(_key(c))
    for kind in CONDITION_KINDS:
        if not getattr(record.conditions, kind):
            setattr(record.conditions, kind, [_condition(x, elsewhere)
                                              for x in getattr(template.conditions, kind)])
    record.steps = [*template.steps, *record.steps] if not elsewhere else record.steps
    ref.source = template.id
    ref.reason = None
    record.refers_to = ref


def _take_role(record: Reaction, ref: Reference, old: Component) -> None:
    """The new component of a replacement takes the role of the old one."""
    replacement = next(r for r in ref.replaced
                       if _norm(r.old) == _norm(old.name) or (r.smiles and r.smiles == old.smiles))
    for role in ("reactants", *INHERITED):
        for c in list(getattr(record, role)):
            if replacement.new is not None and c.name == replacement.new:
                target = old.role + "s" if old.role != "product" else role
                if target != role:
                    getattr(record, role).remove(c)
                    c.role = old.role
                    getattr(record, target).append(c)
                return


def _match(name: str, record: Reaction, table: ProcedureTable,
           has_group: Callable[[str, str], bool] | None) -> str | None:
    """The record's own reactant of the class a generic name ("the aryl bromide") names."""
    noun = _norm(name)
    if has_group is None or noun not in table.compiled["nouns"]:
        return None
    smarts = table.smarts_of(noun)
    return next((c.name for c in record.reactants
                 if c.smiles and has_group(c.smiles, smarts)), None)


def _same_class(old: Component, record: Reaction, table: ProcedureTable,
                has_group: Callable[[str, str], bool] | None) -> str | None:
    """The record's own reactant with the same classes (``class_references``) as ``old``,
    which it so replaces; None without structures or when none has."""
    if has_group is None or not old.smiles:
        return None
    signature = _classes(old.smiles, table, has_group)
    if not signature:
        return None
    return next((c.name for c in record.reactants if c.smiles
                 and _classes(c.smiles, table, has_group) == signature), None)


def _classes(smiles: str, table: ProcedureTable, has_group: Callable[[str, str], bool]
             ) -> frozenset[str]:
    return frozenset(c.smarts for c in table.class_references.classes
                     if has_group(smiles, c.smarts))


def _norm(name: str) -> str:
    return " ".join(_DETERMINERS.sub("", name.strip()).lower().split())


def _key(c: Component) -> str:
    return c.smiles or _norm(c.name)


def _copy(c: Component, elsewhere: bool) -> Component:
    out = Component.from_dict(c.to_dict())
    if elsewhere:
        out.start = out.end = -1
        out.mention = None
    return out


def _condition(c: Condition, elsewhere: bool) -> Condition:
    out = Condition.from_dict(c.to_dict())
    if elsewhere:
        out.start = out.end = -1
    return out
