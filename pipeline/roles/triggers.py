"""Trigger words (REACTION_STEP, WORKUP) from the action parser's actions."""

from __future__ import annotations

import bisect

from chemie.model import Action
from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import RoleTable, TriggerRule


def _between(entities: list[Found], starts: list[int], a: int, b: int) -> list[Found]:
    """The entities within characters ``[a, b)`` (``starts``: their starts, in order)."""
    out = []
    for i in range(bisect.bisect_left(starts, a), bisect.bisect_left(starts, b)):
        if entities[i].end <= b:
            out.append(entities[i])
    return out


_ADVERB = ("ly", "wise")  # how adverbs end ("slowly", "dropwise", "portionwise")


def _passive(low: str, start: int, aux: frozenset[str]) -> bool:
    """Whether the word before ``start`` (or before one or two adverbs: "was slowly dropwise
    added") is an auxiliary, or the verb is the second of a passive pair ("X was separated
    and obtained as a liquid") (``low``: the lowercased text)."""
    words = low[max(0, start - 50) : start].split()[-4:]
    if not words:
        return False
    if words[-1] in aux or (len(words) >= 2 and words[-2] in aux):
        return True
    if len(words) >= 3 and words[-3] in aux and all(w.endswith(_ADVERB) for w in words[-2:]):
        return True  # "was slowly dropwise added"
    return len(words) >= 3 and words[-1] in ("and", "then") and not aux.isdisjoint(words[:-2])


def modifiers(ctx: RoleContext, table: RoleTable) -> set[int]:
    """The id() of each action that is a participle modifying a noun ("the residue
    obtained", "X (prepared in step 1)"): a participle of ``passive_only`` without an
    auxiliary before it."""
    passive_only, aux = table.words["passive_only"], table.words["auxiliaries"]
    low = ctx.lower_text
    return {id(a) for a in ctx.actions
            if low[a.start : a.end] in passive_only and not _passive(low, a.start, aux)}


class TriggerFinder:
    """A trigger per action that a trigger rule labels (the first rule, in table order,
    whose classes, phase and words admit the action). Its arguments are the labelled
    entities of its clause: after it up to the next action or the end of the sentence, and
    before it back to the previous action for a passive verb ("X and Y were added"); a rule
    that needs an argument keeps only actions with one (a compound for a work-up action:
    "dried over MgSO4", not "dried under vacuum at 50 °C")."""

    def __init__(self, table: RoleTable):
        w = table.words
        self.rules = table.triggers
        self.skip, self.aux = w["non_triggers"], w["auxiliaries"]
        self.condition_verbs = w["condition_classes"]
        self.manner = w["manner_nouns"]
        self.manner_of, self.manner_before = w["manner_of"], w["manner_before"]
        self.openers = w["adverbial_openers"]
        self.nouns, self.determiners = w["noun_forms"], w["noun_determiners"]
        self.clause = table.compiled["clause_opener"]
        self._rules: dict[tuple[str, str, str], TriggerRule | None] = {}

    def rule_for(self, label: str, phase: str, word: str) -> TriggerRule | None:
        """The first trigger rule admitting an action of class ``label`` in ``phase``."""
        key = (label, phase, word)
        if key not in self._rules:
            self._rules[key] = next(
                (r for r in self.rules if label in r.classes and r.phase in (None, phase)
                 and (not r.words or word in r.words)), None)
        return self._rules[key]

    def ruled(self, ctx: RoleContext, entities: list[Found]
              ) -> list[tuple[Action, TriggerRule]]:
        """The actions a rule labels, with the rule: not a word of ``non_triggers``, not a
        word that is an entity itself ("heated to reflux": "reflux" is a temperature), not
        a noun of an action without its object ("after the addition," but "by addition of
        water")."""
        low, skip, manner = ctx.lower_text, self.skip, self.manner
        starts = [e.start for e in entities]
        out: list[tuple[Action, TriggerRule]] = []
        for a in ctx.actions:
            word = low[a.start : a.end]
            if word in skip or (word in self.nouns and self.noun_use(low, a.start)):
                continue
            if word in manner and (self.manner_of_last(low, a, out)
                                   or not (word.endswith("ing")
                                           or low.startswith(" of ", a.end))):
                continue
            k = bisect.bisect_right(starts, a.start) - 1
            if k >= 0 and entities[k].end > a.start:
                continue  # the action's word is an entity ("reflux")
            rule = self.rule_for(a.label, ctx.phase_of.get(id(a), a.phase), word)
            if rule is not None:
                out.append((a, rule))
        return out

    def noun_use(self, low: str, start: int) -> bool:
        """Whether the word at ``start`` is used as a noun: after a determiner or a
        percentage ("the overall yield is 80%", "74% yield"), not "to yield X"."""
        before = low[max(0, start - 15) : start].split()[-1:]
        return bool(before) and (before[0] in self.determiners or before[0].endswith("%"))

    def adverbial(self, low: str, start: int) -> bool:
        """Whether the action at ``start`` opens an adverbial phrase ("After cooling",
        "Under ice cooling": a word of ``adverbial_openers`` one or two words before)."""
        words = low[max(0, start - 20) : start].split()[-2:]
        return not self.openers.isdisjoint(words)

    def manner_of_last(self, low: str, a: Action, ruled: list[tuple[Action, TriggerRule]]
                       ) -> bool:
        """Whether the noun of action ``a`` gives the manner of the last action labelled so
        far ("quenched by the addition of water": the quench is the step, its argument the
        water): an action of ``manner_of`` in the same sentence, "by" or "with" between."""
        if not ruled:
            return False
        last = ruled[-1][0]
        if last.sentence != a.sentence or last.label.lower() not in self.manner_of:
            return False
        return not self.manner_before.isdisjoint(low[last.end : a.start].split())

    def __call__(self, ctx: RoleContext, entities: list[Found]) -> list[Found]:
        """The triggers of the document (``entities``: the labelled spans, in text order)."""
        out = []
        aux, condition_verbs = self.aux, self.condition_verbs
        text, low = ctx.text, ctx.lower_text
        ruled = self.ruled(ctx, entities)
        actions = [a for a, _ in ruled]  # only actions with a rule end a clause
        starts = [e.start for e in entities]  # entities are in text order
        modifying = ctx.modifiers
        sentences = ctx.sentence_ranges
        for n, (action, rule) in enumerate(ruled):
            if id(action) in modifying:
                continue  # "the residue obtained", "X (prepared in step 1)": no step here
            nxt = actions[n + 1].start if n + 1 < len(actions) else len(text)
            sstart, send = sentences[action.sentence]
            if low.startswith(",", action.end) and self.adverbial(low, action.start):
                nxt = action.end  # "After cooling, X was added": no argument of its own
            args = _between(entities, starts, action.end, min(nxt, send))
            if _passive(low, action.start, aux):
                # "X (1 g), Y and Z were then added": the subject before the verb
                prev = max(actions[n - 1].end if n > 0 else 0, sstart)
                # ... of its own clause: "dried over MgSO4, the mixture was filtered"
                for m in self.clause.finditer(low, prev, action.start):
                    prev = m.end()
                args = _between(entities, starts, prev, action.start) + args
            if action.label.lower() not in condition_verbs and args:
                args = [e for e in args if e.kind in ("compound", "reference")]
            if rule.needs_argument and not args:
                continue
            out.append(Found(action.start, action.end, "trigger", rule.label, rule.name,
                             action=action, args=args))
        return out
