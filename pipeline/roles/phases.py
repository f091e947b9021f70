"""Reaction and work-up phases of the actions, as ChEMU 2020 draws the line.

The action parser's own phase (for the ChEMU-Ref bridging rules) starts a work-up at the
first work-up action and goes back to the reaction at the next addition. ChEMU 2020 ends
the reaction once the mixture has reacted (stirred, heated or left for a time): what
follows is work-up ("cooled to room temperature", "diluted with water", "water was
added", "poured into ice") until a reagent is added again or a new step begins.
"""

from __future__ import annotations

import bisect

from chemie.model import Action
from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import RoleTable

REACTION, WORKUP = "reaction", "workup"


def _chemicals(ctx: RoleContext, action: Action, roles: tuple[str, ...],
               prefixes: frozenset[str]) -> list[str]:
    """The lowercased names of the NER chemicals inside the mentions an action names in
    ``roles``; a name up to three words after a work-up prefix ("saturated aqueous NaHCO3",
    "an aqueous solution of X") comes as ``"aqueous"``."""
    out: list[str] = []
    chemicals, low = ctx.chemicals, ctx.lower_text
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
                    before = low[m.start : a].split()[-3:]  # "aqueous solution of"
                    out.append("aqueous" if prefixes.intersection(before) else low[a:b])
    return out


def assign_phases(ctx: RoleContext, table: RoleTable, conditions: list[Found]) -> list[str]:
    """The phase of each action of ``ctx.actions`` (same order)."""
    w = table.words
    materials, prefixes = w["workup_materials"], w["workup_prefixes"]
    react_classes, workup_classes = w["reaction_classes"], w["workup_classes"]
    ending, cooling_to = w["ending_classes"], w["workup_temperatures"]
    runs = w["run_classes"]
    completion, quenches, workup_verbs = (w["completion_classes"], w["quench_classes"],
                                          w["workup_verbs"])
    # a time in the clause of an action lets the mixture react ("stirred for 2 h",
    # "stirred overnight")
    times = [f.start for f in conditions if f.label == "TIME"]
    low = ctx.lower_text
    for word in w["run_words"]:
        at = low.find(word)
        while at >= 0:
            times.append(at)
            at = low.find(word, at + 1)
    times.sort()
    heads = sorted(a.start for a in ctx.headings)
    actions = ctx.actions
    labels = [a.label.lower() for a in actions]
    timed = []
    sentences = ctx.sentence_ranges
    if times:
        n_times, n_actions, bisect_left = len(times), len(actions), bisect.bisect_left
        for n, a in enumerate(actions):
            k = bisect_left(times, a.end)
            if k < n_times:
                stop = actions[n + 1].start if n + 1 < n_actions else len(ctx.text)
                timed.append(times[k] < min(stop, sentences[a.sentence][1]))
            else:
                timed.append(False)
    else:
        timed = [False] * len(actions)

    def reaction_ahead(n: int) -> bool:
        """Whether the mixture reacts (stirred or heated for a time, or a reagent that is no
        work-up material is added) before the next work-up action, product or step
        heading."""
        for j in range(n, len(actions)):
            if j > n and (labels[j] in workup_classes or labels[j] in ending or any(
                    actions[n].start < h < actions[j].start for h in heads)):
                return False
            if labels[j] in runs and timed[j]:
                return True
            if j > n and labels[j] == "add":
                added = _chemicals(ctx, actions[j], ("object", "reagent"), prefixes)
                if added and not set(added) <= materials:
                    return True  # "The residue was dissolved in DCM. TEA and MsCl were added"
        return False

    def workup_ahead(n: int) -> bool:
        """Whether the next action that is not a cooling or stirring is a work-up action."""
        for j in range(n + 1, len(actions)):
            if labels[j] in ("cool", "stir", "wait"):
                continue
            return labels[j] in workup_classes
        return False

    purposes = table.compiled.get("workup_purpose")
    phases: list[str] = []
    phase, reacted, ended = REACTION, False, False
    quenched = False
    h = 0
    for n, a in enumerate(actions):
        while h < len(heads) and heads[h] < a.start:
            phase, reacted, ended, quenched = REACTION, False, False, False  # a new step
            h += 1
        label = labels[n]
        if label in workup_classes:
            phase = WORKUP
            quenched = label in quenches
        elif label in completion:
            reacted = ended = phase == REACTION
        elif label in ending:
            pass  # a product obtained: the phase goes on
        elif label in react_classes:
            objects = _chemicals(ctx, a, ("object", "reagent"), prefixes)
            worked_up = bool(objects) and set(objects) <= materials
            stop = actions[n + 1].start if n + 1 < len(actions) else len(ctx.text)
            send = sentences[a.sentence][1]
            nxt = low[a.end : min(stop, send)]
            purpose = (purposes.search(low, a.end, send) if phase == REACTION
                       and purposes is not None and label == "add" else None)
            if purpose is not None and purpose.start() < a.end + 30:
                # "X was added to quench the reaction" (the purpose may be an action of its
                # own: "added to terminate the reaction")
                phase = WORKUP
            elif phase == REACTION and reacted:
                word = ctx.text[a.start : a.end].lower()
                if label == "cool" and (any(t in nxt for t in cooling_to) or workup_ahead(n)):
                    phase = WORKUP
                elif (label == "dilute" or worked_up or word in workup_verbs
                      or (ended and label == "add")):
                    phase = WORKUP
                elif objects:
                    reacted = False  # another reagent: the reaction goes on
            elif (phase == WORKUP and not worked_up and reaction_ahead(n)
                  and not (quenched and not objects)):
                # "The residue was dissolved in DCM, TFA was added and the mixture was
                # stirred for 2 h": a new reaction on the worked-up material
                phase, reacted = REACTION, False
            if phase == REACTION and timed[n]:
                reacted = True
            # a work-up material was just added: stirring it is still work-up
            quenched = phase == WORKUP and (worked_up or (quenched and not objects))
        phases.append(phase)
    return phases
