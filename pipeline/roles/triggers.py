"""Trigger words (REACTION_STEP, WORKUP) from the action parser's actions."""

from __future__ import annotations

import bisect

from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import RoleTable, TriggerRule


def rules_by_class(table: RoleTable) -> dict[tuple[str, str], TriggerRule]:
    """The first trigger rule of each (action class, phase) the table names."""
    out: dict[tuple[str, str], TriggerRule] = {}
    for rule in table.triggers:
        for label in rule.classes:
            for phase in ("reaction", "workup"):
                if rule.phase in (None, phase):
                    out.setdefault((label, phase), rule)
    return out


def _between(entities: list[Found], starts: list[int], a: int, b: int) -> list[Found]:
    """The entities within characters ``[a, b)`` (``starts``: their starts, in order)."""
    out = []
    for i in range(bisect.bisect_left(starts, a), bisect.bisect_left(starts, b)):
        if entities[i].end <= b:
            out.append(entities[i])
    return out


def _passive(low: str, start: int, aux: frozenset[str]) -> bool:
    """Whether the word before ``start`` (or the one before an adverb) is an auxiliary
    (``low``: the lowercased text)."""
    words = low[max(0, start - 30) : start].split()[-2:]
    return bool(words) and (words[-1] in aux or (len(words) == 2 and words[0] in aux))


def modifiers(ctx: RoleContext, table: RoleTable) -> set[int]:
    """The id() of each action that is a participle modifying a noun ("the residue
    obtained", "X (prepared in step 1)"): a participle of ``passive_only`` without an
    auxiliary before it."""
    passive_only, aux = table.words["passive_only"], table.words["auxiliaries"]
    low = ctx.lower_text
    return {id(a) for a in ctx.actions
            if low[a.start : a.end] in passive_only and not _passive(low, a.start, aux)}


def find_triggers(ctx: RoleContext, table: RoleTable, entities: list[Found],
                  by_class: dict[tuple[str, str], TriggerRule]) -> list[Found]:
    """A trigger per action that a trigger rule labels. Its arguments are the labelled
    entities of its clause: after it up to the next action or the end of the sentence, and
    before it back to the previous action for a passive verb ("X and Y were added"); a rule
    that needs an argument keeps only actions with one (a compound for a work-up action:
    "dried over MgSO4", not "dried under vacuum at 50 °C")."""
    out = []
    skip, aux = table.words["non_triggers"], table.words["auxiliaries"]
    condition_verbs = table.words["condition_classes"]
    text, low = ctx.text, ctx.lower_text
    manner, by = table.words["manner_nouns"], table.words["manner_before"]
    ruled = []
    phase_of = ctx.phase_of
    for a in ctx.actions:
        word = low[a.start : a.end]
        if word in skip:
            continue
        if word in manner and by.intersection(low[max(0, a.start - 25) : a.start].split()):
            continue  # "quenched by dropwise addition of X": the manner of the quench
        rule = by_class.get((a.label, phase_of.get(id(a), a.phase)))
        if rule is not None:
            ruled.append((a, rule))
    actions = [a for a, _ in ruled]  # only actions with a rule end a clause
    starts = [e.start for e in entities]  # entities are in text order
    modifying = ctx.modifiers
    sentences = ctx.sentence_ranges
    for n, (action, rule) in enumerate(ruled):
        if id(action) in modifying:
            continue  # "the residue obtained", "X (prepared in step 1)": no step here
        passive = _passive(low, action.start, aux)
        nxt = actions[n + 1].start if n + 1 < len(actions) else len(text)
        sstart, send = sentences[action.sentence]
        stop = min(nxt, send)
        args = _between(entities, starts, action.end, stop)
        if passive:
            # "X (1 g), Y and Z were then added": the subject before the verb
            prev = actions[n - 1].end if n > 0 else 0
            args = _between(entities, starts, max(prev, sstart), action.start) + args
        if action.label.lower() not in condition_verbs and args:
            args = [e for e in args if e.kind in ("compound", "reference")]
        if rule.needs_argument and not args:
            continue
        out.append(Found(action.start, action.end, "trigger", rule.label, rule.name,
                         action=action, args=args))
    return out
