"""The per-document state the bridging walk and its rules share.

:class:`Context` is what the walk reads from the action parser (steps, phases, products,
objects of actions), built once per document; :class:`Walk` is the walk's memory within one
step (the current state of the reaction system and the compounds that entered it since);
the rules read both through :class:`~chemie.bridging.rules.Step`.
"""

from __future__ import annotations

import bisect
import operator
from dataclasses import dataclass, field

from chemie.actions.views import MentionView
from chemie.bridging.table import BridgingTable
from chemie.context import HEADING, TokenTable
from chemie.model import Action

_START = operator.attrgetter("start")  # text order of actions


@dataclass(slots=True)
class Walk:
    """The walk's memory within one step (a new step, or a named product, starts a new
    one)."""

    state: MentionView | None = None
    pending: list[MentionView] = field(default_factory=list)
    since: int = -1  # actions before this character belong to an earlier procedure
    workup_inputs: set[str] = field(default_factory=set)  # pending ids added in a work-up
    parent: MentionView | None = None  # the state the current state was made from
    sibling: MentionView | None = None  # the layer the current (parallel) layer was split from
    inputs: list[MentionView] = field(default_factory=list)  # compounds the state was made with
    # the last full-stop scan of an input: the mentions ending up to ``scan_end`` share it,
    # and whether the action before that stop is a work-up
    scanned: int = 0
    scan_end: int = -1
    at_stop: bool = False


class Context:
    """What the walk needs from the action parser: steps, phases, products, objects."""

    def __init__(
        self, actions: list[Action], table: TokenTable, text: str, t: BridgingTable,
        setters: frozenset[str], special: frozenset[str],
    ) -> None:
        """``t`` is the bridging table, ``setters`` the action classes that set the phase,
        ``special`` those whose object some check reads
        (:attr:`~chemie.bridging.classify.Classifier.object_actions`)."""
        self.table = table
        self.percent = "%" in text  # (else no mention holds a yield percentage)
        # the lowercased tokens with two "" before and after: the words around a mention
        # (token i at i + 2) without bounds tests
        self.around = ["", "", *table.lower, "", ""]
        self.views: list[MentionView] = []
        self._ending: dict[int, MentionView] | None = None
        self.setters = setters  # action classes that set the phase
        self.adding = t.adding_actions
        self.step_start: int | None = None  # the first action of the walk's step
        body = [a for a in actions if a.label != HEADING]
        self.headings = ([a.start for a in actions if a.label == HEADING]
                         if len(body) < len(actions) else [])
        body.sort(key=_START)
        self.starts = starts = [a.start for a in body]
        self.steps = steps = [a.step for a in body]
        self.phases = [a.phase for a in body]
        self.labels = [a.label for a in body]
        self.objects = [a.args.get("object", ()) if a.args else () for a in body]
        self._starts: dict[str, int] | None = None  # mention id -> first character
        # the first action of each step (filled backwards: the earliest start is written last)
        self.first_action: dict[int, int] = dict(
            zip(reversed(steps), reversed(starts), strict=True))
        self.products: set[str] = set()
        self.removed: set[str] = set()
        self.targets: set[str] = set()  # "X was prepared / synthesized ...": the step's target
        self.extracted: set[str] = set()  # objects of extractions ("the layer was extracted")
        self.solvents: set[str] = set()  # solvents of actions ("dissolved in W")
        self.thrown_away: set[str] = set()  # objects of "removed", "decanted" (not evaporated)
        self.workup_objects: set[str] = set()
        self.processed: set[str] = set()  # objects of condition actions ("the tube was heated")
        for a in body:
            args = a.args
            if not args:
                continue  # no mention to record (an action without arguments)
            if "product" in args:
                self.products.update(args["product"])
            if "solvent" in args:
                self.solvents.update(args["solvent"])
            if a.label in special:  # (most actions: no rule reads this action's object)
                self._read_object(a, t)
        self._carry_condition(body, t.carried_conditions)

    def _read_object(self, a: Action, t: BridgingTable) -> None:
        """Record the object of an action that some check reads (a target, a compound
        removed, a vessel heated, a layer extracted …)."""
        args, label, table = a.args, a.label, self.table
        if label in t.target_actions:
            self.targets.update(args.get("object", ()))
        if label in t.removing_actions:
            self.removed.update(args.get("object", ()))
            k = table.starting_at(a.start)
            if k is not None and table.lower[k] in t.discarding_triggers:
                self.thrown_away.update(args.get("object", ()))
        if label in t.condition_actions:
            self.processed.update(args.get("object", ()))
        if a.phase == "workup" and label in t.workup_subject_actions:
            self.workup_objects.update(args.get("object", ()))
        if label in t.extracting_actions:
            self.extracted.update(args.get("object", ()))

    def _carry_condition(self, body: list[Action], conditions: frozenset[str]) -> None:
        """A condition verb without an object right after "and" acts on what the action before
        it (in the sentence) acted on: "The vial was capped and heated", "X and Y were placed in
        a flask and refluxed": the vial, the flask are processed (they hold the system)."""
        table = self.table
        for before, a in zip(body, body[1:], strict=False):
            if (a.label not in conditions or (a.args and a.args.get("object"))
                    or not before.args or before.sentence != a.sentence):
                continue
            k = table.starting_at(a.start)
            if k is None or k < 2:
                continue
            low = table.lower
            if low[k - 1] == "then" and low[k - 2] == "and":
                k -= 1
            if low[k - 1] == "and":
                self.processed.update(before.args.get("object", ()))
                self.processed.update(before.args.get("container", ()))

    def workup_active(self, step: int, char: int, since: int = -1) -> bool:
        """True when the last action of ``step`` between ``since`` and ``char`` is a work-up."""
        k = bisect.bisect_left(self.starts, char) - 1
        if since < 0:
            return k >= 0 and self.steps[k] == step and self.phases[k] == "workup"
        while k >= 0 and self.starts[k] > since and self.steps[k] == step:
            if self.labels[k] in self.setters:
                return self.phases[k] == "workup"
            k -= 1
        return False

    def one_addition_between(self, lo: int, hi: int) -> bool:
        """True when exactly one action starts between characters ``lo`` and ``hi`` and it
        is an addition ("X was added to the mixture")."""
        a, b = bisect.bisect_right(self.starts, lo), bisect.bisect_left(self.starts, hi)
        return b - a == 1 and self.labels[a] in self.adding

    def adds_later(self, lo: int, hi: int) -> bool:
        """True when the addition starting between characters ``lo`` and ``hi`` names what
        it adds after ``lo`` ("dissolved in W at rt , and Z was added to the solution")."""
        a = bisect.bisect_right(self.starts, lo)
        added = self.objects[a] if a < len(self.objects) else ()
        return bool(added) and min(map(self.mention_start, added)) > lo

    def mention_start(self, mention_id: str) -> int:
        """The character offset of a mention's first token (the index is built on first
        use)."""
        if self._starts is None:
            idx = self.table.idx
            self._starts = {v.id: idx[v.first] for v in self.views}
        return self._starts.get(mention_id, -1)

    def actions_between(self, lo: int, hi: int) -> int:
        """Number of actions starting between characters ``lo`` and ``hi``."""
        return bisect.bisect_left(self.starts, hi) - bisect.bisect_right(self.starts, lo)

    def ending(self, i: int) -> MentionView | None:
        """The mention whose last token is ``i`` (the index is built on first use)."""
        if self._ending is None:
            self._ending = {v.last: v for v in self.views}
        return self._ending.get(i)

    def is_target(self, m: MentionView) -> bool:
        """True for the step's target named before its first action ("Intermediate 1-a was
        synthesized as illustrated in Scheme 1: ...")."""
        return m.id in self.targets and self.before_first_action(self.table.idx[m.first])

    def before_first_action(self, char: int) -> bool:
        """True before the first action of the current step (or in a step without one)."""
        start = self.step_start
        return start is None or char < start
