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
    """A trigger per action that a trigger rule labels; an action of a rule that needs an
    argument is kept only when one of the labelled entities is its argument or follows it
    in its clause (before the next action of the sentence)."""
    out = []
    by_mention: dict[str, list[Found]] = {}
    for e in entities:
        if e.mention is not None:
            by_mention.setdefault(e.mention, []).append(e)
    skip, aux = table.words["non_triggers"], table.words["auxiliaries"]
    text = ctx.text
    actions = [a for a in ctx.actions if text[a.start : a.end].lower() not in skip]
    for n, action in enumerate(actions):
        rule = _rule_for(table, action, ctx.phase(action))
        if rule is None:
            continue
        args = [e for ids in action.args.values() for mid in ids for e in by_mention.get(mid, ())]
        if not args:
            nxt = actions[n + 1].start if n + 1 < len(actions) else len(ctx.text)
            sstart, send = ctx.sentence_chars(action.sentence)
            stop = min(nxt, send)
            args = [e for e in entities if action.end <= e.start and e.end <= stop]
            if not args and _passive(text, action.start, aux):
                # "X (1 g), Y and Z were then added": the subject before the verb
                prev = actions[n - 1].end if n > 0 else 0
                begin = max(prev, sstart)
                args = [e for e in entities if begin <= e.start and e.end <= action.start]
        if rule.needs_argument and not args:
            continue
        out.append(Found(action.start, action.end, "trigger", rule.label, rule.name,
                         action=action, args=args))
    return out
