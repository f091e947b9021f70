"""Reaction and work-up phases of the actions, as ChEMU 2020 draws the line.

The action parser's own phase (for the ChEMU-Ref bridging rules) starts a work-up at the
first work-up action and goes back to the reaction at the next addition. ChEMU 2020 ends
the reaction once the mixture has reacted (stirred, heated or left for a time): what
follows is work-up ("cooled to room temperature", "diluted with water", "water was
added", "poured into ice") until a reagent is added again or a new step begins.
"""

from __future__ import annotations

import bisect

import regex

from chemie.model import Action
from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import RoleTable

REACTION, WORKUP = "reaction", "workup"


def _chemicals(ctx: RoleContext, action: Action, roles: tuple[str, ...],
               prefixes: frozenset[str]) -> list[str]:
    """The lowercased names (the compound spans, else the NER chemicals) inside the mentions
    an action names in ``roles``; a name up to three words after a work-up prefix
    ("saturated aqueous NaHCO3", "an aqueous solution of X") comes as ``"aqueous"``."""
    out: list[str] = []
    chemicals, low = ctx.names or ctx.chemicals, ctx.lower_text
    for role in roles:
        for mid in action.args.get(role, ()):
            m = ctx.mention_by_id.get(mid)
            if m is None:
                continue
            k = bisect.bisect_left(chemicals, (m.start, -1))
            while k < len(chemicals) and chemicals[k][0] < m.end:
                a, b = chemicals[k]
                k += 1
                if b <= m.end:
                    # "an aqueous solution of X", "10% aqueous X" (a span of its own)
                    before = [*low[m.start : a].split()[-3:], low[a:b].split(" ", 1)[0]]
                    out.append("aqueous" if prefixes.intersection(before) else low[a:b])
    return out


class PhaseWalk:
    """The ChEMU 2020 phase of each action of a document, in one walk over its actions."""

    def __init__(self, ctx: RoleContext, table: RoleTable, conditions: list[Found]):
        w = table.words
        self.ctx = ctx
        self.materials, self.prefixes = w["workup_materials"], w["workup_prefixes"]
        self.react_classes, self.workup_classes = w["reaction_classes"], w["workup_classes"]
        self.ending, self.cooling_to = w["ending_classes"], w["workup_temperatures"]
        self.runs, self.completion = w["run_classes"], w["completion_classes"]
        self.quenches, self.workup_verbs = w["quench_classes"], w["workup_verbs"]
        self.amount = table.compiled.get("substance_amount")
        self.purposes = table.compiled.get("workup_purpose")
        self.heads = sorted(a.start for a in ctx.headings)
        self.labels = [a.label.lower() for a in ctx.actions]
        self.timed = _timed(ctx, conditions, w["run_words"])
        # the state of the walk: the phase, whether the mixture has reacted, whether the
        # reaction was declared complete, whether a work-up material was just added
        self.phase, self.reacted, self.ended, self.quenched = REACTION, False, False, False

    def phases(self) -> list[str]:
        """The phase of each action of ``ctx.actions`` (same order)."""
        heads, actions = self.heads, self.ctx.actions
        out: list[str] = []
        h = 0
        for n, a in enumerate(actions):
            while h < len(heads) and heads[h] < a.start:
                # a new step
                self.phase, self.reacted, self.ended, self.quenched = (REACTION, False, False,
                                                                      False)
                h += 1
            label = self.labels[n]
            if label in self.workup_classes:
                self.phase = WORKUP
                self.quenched = label in self.quenches
            elif label in self.completion:
                self.reacted = self.ended = self.phase == REACTION
            elif label in self.ending:
                pass  # a product obtained: the phase goes on
            elif label in self.react_classes:
                self.reaction_action(n, a, label)
            out.append(self.phase)
        return out

    def reaction_action(self, n: int, a: Action, label: str) -> None:
        """Move the walk over an action of a reaction class (an addition, a stirring …)."""
        ctx = self.ctx
        objects = _chemicals(ctx, a, ("object", "reagent"), self.prefixes)
        # (a work-up material measured in mmol is a reagent: "NaHCO3 (20 mL, 20.0 mmol)")
        worked_up = (bool(objects) and set(objects) <= self.materials
                     and not _measured(ctx, a, self.amount))
        if self.phase == REACTION and self.for_workup(n, a, label):
            # "X was added to quench the reaction" (the purpose may be an action of its
            # own: "added to terminate the reaction")
            self.phase = WORKUP
        elif self.phase == REACTION and self.reacted:
            self.after_reaction(n, a, label, objects, worked_up)
        elif (self.phase == WORKUP and not worked_up and self.reaction_ahead(n)
              and not (self.quenched and not objects)):
            # "The residue was dissolved in DCM, TFA was added and the mixture was stirred
            # for 2 h": a new reaction on the worked-up material
            self.phase, self.reacted = REACTION, False
        if self.phase == REACTION and self.timed[n]:
            self.reacted = True
        # a work-up material was just added: stirring it is still work-up
        self.quenched = self.phase == WORKUP and (worked_up or (self.quenched and not objects))

    def after_reaction(self, n: int, a: Action, label: str, objects: list[str],
                       worked_up: bool) -> None:
        """An action of a reaction class once the mixture has reacted: a cooling to room
        temperature (or before a work-up), a dilution, a work-up material added, "poured",
        or an addition after the reaction was declared complete starts the work-up;
        another reagent added lets the reaction go on."""
        ctx, actions = self.ctx, self.ctx.actions
        stop = actions[n + 1].start if n + 1 < len(actions) else len(ctx.text)
        nxt = ctx.lower_text[a.end : min(stop, ctx.sentence_ranges[a.sentence][1])]
        word = ctx.lower_text[a.start : a.end]
        if label == "cool" and (any(t in nxt for t in self.cooling_to) or self.workup_ahead(n)):
            self.phase = WORKUP
        elif (label == "dilute" or worked_up or word in self.workup_verbs
              or (self.ended and label == "add")):
            self.phase = WORKUP
        elif label == "add" and self.workup_next(n):
            # "a solution of sodium sulfite was added, followed by extraction with EtOAc"
            self.phase = WORKUP
        elif objects:
            self.reacted = False  # another reagent: the reaction goes on

    def workup_next(self, n: int) -> bool:
        """Whether the action after action ``n`` is a work-up action of the same sentence."""
        actions = self.ctx.actions
        return (n + 1 < len(actions) and actions[n + 1].sentence == actions[n].sentence
                and self.labels[n + 1] in self.workup_classes)

    def for_workup(self, n: int, a: Action, label: str) -> bool:
        """Whether an addition says it is made for a work-up ("to quench", "to adjust the
        pH") within 30 characters."""
        if label != "add" or self.purposes is None:
            return False
        send = self.ctx.sentence_ranges[a.sentence][1]
        purpose = self.purposes.search(self.ctx.lower_text, a.end, send)
        return purpose is not None and purpose.start() < a.end + 30

    def reaction_ahead(self, n: int) -> bool:
        """Whether the mixture reacts (stirred or heated for a time, or a reagent that is no
        work-up material is added) before the next work-up action, product or step
        heading."""
        actions, labels = self.ctx.actions, self.labels
        for j in range(n, len(actions)):
            if j > n and (labels[j] in self.workup_classes or labels[j] in self.ending or any(
                    actions[n].start < h < actions[j].start for h in self.heads)):
                return False
            if labels[j] in self.runs and self.timed[j]:
                return True
            if j > n and labels[j] == "add":
                added = _chemicals(self.ctx, actions[j], ("object", "reagent"), self.prefixes)
                if added and not set(added) <= self.materials:
                    return True  # "The residue was dissolved in DCM. TEA and MsCl were added"
        return False

    def workup_ahead(self, n: int) -> bool:
        """Whether the next action that is not a cooling or stirring is a work-up action or
        the addition of work-up material ("cooled to 0 °C and saturated NH4Cl was added")."""
        labels, actions = self.labels, self.ctx.actions
        for j in range(n + 1, len(labels)):
            if labels[j] in ("cool", "stir", "wait"):
                continue
            if labels[j] == "add":
                return self.adds_workup_material(actions[j])
            return labels[j] in self.workup_classes
        return False

    def adds_workup_material(self, a: Action) -> bool:
        """Whether action ``a`` adds work-up material only (none measured in mmol)."""
        objects = _chemicals(self.ctx, a, ("object", "reagent"), self.prefixes)
        return (bool(objects) and set(objects) <= self.materials
                and not _measured(self.ctx, a, self.amount))


def _timed(ctx: RoleContext, conditions: list[Found], run_words: frozenset[str]) -> list[bool]:
    """For each action, whether a time follows it in its clause (before the next action and
    the end of its sentence): "stirred for 2 h", "stirred overnight"."""
    actions = ctx.actions
    times = [f.start for f in conditions if f.label == "TIME"]
    low = ctx.lower_text
    for word in run_words:
        at = low.find(word)
        while at >= 0:
            times.append(at)
            at = low.find(word, at + 1)
    if not times:
        return [False] * len(actions)
    times.sort()
    sentences = ctx.sentence_ranges
    n_times, n_actions, bisect_left = len(times), len(actions), bisect.bisect_left
    timed = []
    for n, a in enumerate(actions):
        k = bisect_left(times, a.end)
        if k < n_times:
            stop = actions[n + 1].start if n + 1 < n_actions else len(ctx.text)
            timed.append(times[k] < min(stop, sentences[a.sentence][1]))
        else:
            timed.append(False)
    return timed


def assign_phases(ctx: RoleContext, table: RoleTable, conditions: list[Found]) -> list[str]:
    """The phase of each action of ``ctx.actions`` (same order)."""
    return PhaseWalk(ctx, table, conditions).phases()


def _measured(ctx: RoleContext, action: Action, amount: regex.Pattern | None) -> bool:
    """Whether a mention the action adds (object or reagent) gives an amount of substance
    ("20.0 mmol")."""
    if amount is None:
        return False
    text = ctx.text
    for role in ("object", "reagent"):
        for mid in action.args.get(role, ()):
            m = ctx.mention_by_id.get(mid)
            if m is not None and amount.search(text, m.start, m.end) is not None:
                return True
    return False
