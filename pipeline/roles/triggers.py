"""Trigger words (REACTION_STEP, WORKUP) from the action parser's actions."""

from __future__ import annotations

from chemie.model import Action
from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import RoleTable, TriggerRule


def _rule_for(table: RoleTable, action: Action, phase: str) -> TriggerRule | None:
    for rule in table.triggers:
        if action.label in rule.classes and rule.phase in (None, phase):
            return rule
    return None


def _passive(text: str, start: int, aux: frozenset[str]) -> bool:
    """Whether the word before ``start`` (or the one before an adverb) is an auxiliary."""
    words = text[max(0, start - 30) : start].lower().split()[-2:]
    return bool(words) and (words[-1] in aux or (len(words) == 2 and words[0] in aux))


def find_triggers(ctx: RoleContext, table: RoleTable, entities: list[Found]) -> list[Found]:
    """A trigger per action that a trigger rule labels. Its arguments are the labelled
    entities of its clause: after it up to the next action or the end of the sentence, and
    before it back to the previous action for a passive verb ("X and Y were added"); a rule
    that needs an argument keeps only actions with one (a compound for a work-up action:
    "dried over MgSO4", not "dried under vacuum at 50 °C")."""
    out = []
    skip, aux = table.words["non_triggers"], table.words["auxiliaries"]
    condition_verbs = table.words["condition_classes"]
    passive_only = table.words["passive_only"]
    text = ctx.text
    manner, by = table.words["manner_nouns"], table.words["manner_before"]
    ruled = []
    for a in ctx.actions:
        word = text[a.start : a.end].lower()
        if word in skip:
            continue
        if word in manner and by.intersection(text[max(0, a.start - 25) : a.start].lower().split()):
            continue  # "quenched by dropwise addition of X": the manner of the quench
        rule = _rule_for(table, a, ctx.phase(a))
        if rule is not None:
            ruled.append((a, rule))
    actions = [a for a, _ in ruled]  # only actions with a rule end a clause
    for n, (action, rule) in enumerate(ruled):
        if text[action.start : action.end].lower() in passive_only and not _passive(
                text, action.start, aux):
            continue  # "the residue obtained", "X (prepared in step 1)": no step here
        nxt = actions[n + 1].start if n + 1 < len(actions) else len(text)
        sstart, send = ctx.sentence_chars(action.sentence)
        stop = min(nxt, send)
        args = [e for e in entities if action.end <= e.start and e.end <= stop]
        if _passive(text, action.start, aux):
            # "X (1 g), Y and Z were then added": the subject before the verb
            prev = actions[n - 1].end if n > 0 else 0
            begin = max(prev, sstart)
            args = [e for e in entities if begin <= e.start and e.end <= action.start] + args
        if action.label.lower() not in condition_verbs:
            args = [e for e in args if e.kind in ("compound", "reference")]
        if rule.needs_argument and not args:
            continue
        out.append(Found(action.start, action.end, "trigger", rule.label, rule.name,
                         action=action, args=args))
    return out
