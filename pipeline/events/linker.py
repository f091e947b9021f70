"""Event arguments (ChEMU 2020 Task 2): the entities each trigger word acts on.

A post-pass over the labelled spans of a document (``doc._.roles`` once their labels are
final, or a gold ``.ann``): per sentence, each candidate entity (a label of the table's
``roles``) is given to the rules of ``rules/events.yaml`` in table order; the first that
decides links it to one trigger of its sentence (``ARG1`` for a compound, ``ARGM`` for a
temperature, time or yield, by its label) or leaves it unlinked. The convention is
``rules/events.md``. Each rule is a function registered here under its table name::

    @rule("fronted_phrase", places=(FIRST,))
    def fronted_phrase(s: Sentence, r: EventRule, e: int) -> Decision:
        ...

It gets the sentence (its triggers and candidates in text order), its own table entry and
the candidate's index, and returns a trigger index, :data:`NO_LINK` or None (undecided).
``places`` says where a candidate must be for the rule to decide (before the sentence's
first trigger, between two, after the last); the linker tries the rule nowhere else, and
the function checks the same itself. The rules a candidate meets are chosen once per label
and place when the table loads, so a candidate costs a few function calls.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path

from chemie.model import Role
from chemie.tables import TableError, load_table

NO_LINK = -1  # a rule's decision: the candidate is no argument
Decision = int | None  # a trigger's index in the sentence, NO_LINK, or None (undecided)


@dataclass(frozen=True)
class EventRule:
    """One entry of ``rules``: a named, commented rule and its own lists."""

    name: str
    comment: str
    labels: frozenset[str] = frozenset()  # the candidate labels it applies to (empty: all)
    words: frozenset[str] = frozenset()  # its words, lowercase


@dataclass(frozen=True)
class EventTable:
    """``rules/events.yaml``."""

    roles: dict[str, frozenset[str]]  # ARG1 / ARGM -> the labels taking that role
    triggers: frozenset[str]  # the labels of trigger words
    sentence_ends: frozenset[str]  # a sentence ending otherwise runs on into the next
    auxiliaries: frozenset[str]  # "was", "were": a passive trigger follows one
    adverbs: frozenset[str]  # words allowed between the auxiliary and the trigger
    prepositions: frozenset[str]  # "in", "with": a candidate after one is no subject
    clause_breaks: tuple[str, ...]  # regexes: where a passive trigger's clause may start
    rules: tuple[EventRule, ...]


@dataclass(slots=True)
class Link:
    """One trigger-argument pair: a brat ``R`` line ``ROLE Arg1:TRIGGER Arg2:ARG``."""

    trigger: str  # the trigger's role id
    arg: str  # the argument's role id
    role: str  # ARG1 or ARGM
    rule: str  # the rule that linked them


RuleFunction = Callable[["Sentence", EventRule, int], Decision]
# a candidate's place in its sentence: before the first trigger, between two, after the last
FIRST, BETWEEN, LAST = "first", "between", "last"
PLACES = (FIRST, BETWEEN, LAST)
RULES: dict[str, RuleFunction] = {}
RULE_PLACES: dict[str, frozenset[str]] = {}
WORD_GATED: set[str] = set()  # rules that decide only in a sentence holding one of their words


def rule(name: str, places: tuple[str, ...] = PLACES, *, in_sentence: bool = False
         ) -> Callable[[RuleFunction], RuleFunction]:
    """Register the function of the table's rule ``name``; ``places``: where a candidate
    must be for the rule to decide; ``in_sentence``: it decides only in a sentence that
    holds one of its ``words`` (the linker tries it nowhere else)."""

    def add(fn: RuleFunction) -> RuleFunction:
        RULES[name] = fn
        RULE_PLACES[name] = frozenset(places)
        if in_sentence:
            WORD_GATED.add(name)
        return fn

    return add


_START_END = attrgetter("start", "end")
_WORD = re.compile(r"[A-Za-z]+")
_BREAK = re.compile(r"[)\]]\s+(?=[A-Z0-9])")  # a bracket closing a heading, then the body
_TAIL = re.compile(r"[)\]]\s+\Z")  # a bracket and spaces up to the next span
_SPACES = re.compile(r"\s+")
_BRACKETED = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_AND = re.compile(r"(?:,\s*|\s)and\s+")


class Sentence:
    """The triggers and candidate arguments of one sentence, in text order."""

    __slots__ = ("text", "start", "end", "triggers", "candidates", "spans", "linker",
                 "places", "gates", "_body", "_subjects", "_passive")

    def __init__(self, text: str, start: int, end: int, triggers: list[Role],
                 candidates: list[Role], spans: list[Role], linker: EventLinker,
                 gates: tuple[bool, ...] = ()):
        self.text = text  # the whole document's text
        self.start, self.end = start, end
        self.triggers, self.candidates = triggers, candidates
        self.spans = spans  # every labelled span of the sentence (headings end at any)
        self.linker = linker
        self.gates = gates  # per word-gated rule: whether the sentence has one of its words
        self._body = -1
        self._subjects: dict[int, int | None] = {}
        self._passive: dict[int, bool] = {}
        starts = [t.start for t in triggers]
        n = len(starts)
        bisect_left = bisect.bisect_left
        # per candidate: the indices of the triggers before and after it (or None)
        self.places = [((k - 1 if k else None), (k if k < n else None))
                       for k in [bisect_left(starts, c.start) for c in candidates]]

    def passive(self, k: int) -> bool:
        """Whether trigger ``k`` is passive (an auxiliary before it; once per trigger)."""
        found = self._passive.get(k)
        if found is None:
            found = self._passive[k] = self.linker.is_passive(self.text, self.start,
                                                               self.triggers[k].start)
        return found

    def subject(self, nxt: int) -> int | None:
        """Where the subject of passive trigger ``nxt`` starts (once per trigger; see
        :meth:`EventLinker.subject_start`)."""
        if nxt not in self._subjects:
            self._subjects[nxt] = self.linker.subject_start(self, nxt - 1, nxt)
        return self._subjects[nxt]

    def around(self, e: int) -> tuple[int | None, int | None]:
        """The triggers before and after candidate ``e`` (indices, None when there is none)."""
        return self.places[e]

    def position(self, e: int) -> Decision:
        """The trigger that the place of candidate ``e`` gives it (the rules after
        ``product_yield``, in table order)."""
        return self.linker.decide(self, e, self.linker.positional)[0]

    @property
    def body(self) -> int:
        """Where the body starts: after the last heading break before the first trigger
        (the sentence's start when there is none)."""
        if self._body < 0:
            self._body = self.linker.body_start(self)
        return self._body


class EventLinker:
    """Links the candidates of each sentence to its triggers by the table's rules."""

    def __init__(self, table: EventTable, source: str | Path = "events.yaml"):
        unknown = [r.name for r in table.rules if r.name not in RULES]
        if unknown:
            raise TableError(source, f"rules.{unknown[0]}.name",
                             f"unknown name {unknown[0]!r} (no rule function)")
        self.table = table
        self.role_of = {label: role for role, labels in table.roles.items()
                        for label in labels}
        self.breaks = re.compile("|".join(f"(?:{b})" for b in table.clause_breaks))
        rules = [(RULES[r.name], r) for r in table.rules]
        names = [r.name for r in table.rules]
        after = names.index("product_yield") + 1 if "product_yield" in names else 0
        self.gated = [r for r in table.rules if r.name in WORD_GATED]
        # per candidate label and place, and which word-gated rules the sentence allows:
        # the rules that may decide for the candidate, all and those after product_yield
        gates = list(itertools.product((False, True), repeat=len(self.gated)))
        self.rules = {(label, place, g): _applying(rules, label, place, self._off(g))
                      for label in self.role_of for place in PLACES for g in gates}
        self.positional = {
            (label, place, g): _applying(rules[after:], label, place, self._off(g))
            for label in self.role_of for place in PLACES for g in gates}

    def _off(self, gates: tuple[bool, ...]) -> frozenset[str]:
        """The word-gated rules that ``gates`` leaves out."""
        return frozenset(r.name for r, on in zip(self.gated, gates, strict=True) if not on)

    def is_passive(self, text: str, floor: int, start: int) -> bool:
        """Whether an auxiliary comes before the trigger at ``start`` (adverbs between)."""
        words = _WORD.findall(text[max(floor, start - 40):start])
        for word in reversed(words[-4:]):
            low = word.lower()
            if low in self.table.auxiliaries:
                return True
            if low not in self.table.adverbs and not low.endswith("ly"):
                return False
        return False

    def body_start(self, s: Sentence) -> int:
        """The end of the sentence's heading: the last place before its first trigger where
        a labelled span or a closing bracket is followed, after spaces only, by a capital
        letter, a digit or another labelled span ("… (Compound 5) To a solution", "Step 1
        X Y (1 g) was")."""
        limit = s.triggers[0].start if s.triggers else s.end
        text = s.text
        spans = [r for r in s.spans if r.end <= limit]
        # the gaps between the spans, last first: the last break wins
        for k in range(len(spans) - 1, -2, -1):
            a = spans[k].end if k >= 0 else s.start
            b = spans[k + 1].start if k + 1 < len(spans) else limit
            if k + 1 < len(spans) and (m := _TAIL.search(text, a, b)):
                return m.end()  # ") Y": a bracket, spaces, then a span
            last = None
            for last in _BREAK.finditer(text, a, b):  # noqa: B007 (the last one is kept)
                pass
            if last is not None:
                return last.end()
            if k >= 0 and (m := _SPACES.match(text, a, b)):  # a span's own end
                after = m.end()
                if after == b and k + 1 < len(spans) or text[after].isupper() \
                        or text[after].isdigit():
                    return after
        return s.start

    def subject_start(self, s: Sentence, before: int, nxt: int) -> int | None:
        """Where the subject of the passive trigger ``nxt`` starts after trigger ``before``:
        after the last clause break between them ("…, and X was added"); without one, after
        the first "and" that follows the last candidate governed by a preposition ("…
        dissolved in dioxane (3 mL) and X (15 mg) was added"), or at ``before``'s end when no
        candidate between them is; None when there is no such "and"."""
        a, b = s.triggers[before].end, s.triggers[nxt].start
        start = None
        for m in self.breaks.finditer(s.text, a, b):
            start = m.end()
        if start is not None:
            return start
        governed = a
        prev = a
        for c in s.candidates:
            if a <= c.start < b:
                words = _WORD.findall(_BRACKETED.sub(" ", s.text[prev:c.start]))
                if any(w.lower() in self.table.prepositions for w in words):
                    governed = c.end
                prev = c.end
        if governed == a:
            return a
        m = _AND.search(s.text, governed, b)
        return m.end() if m else None

    def decide(self, s: Sentence, e: int, table: dict[tuple, list] | None = None
               ) -> tuple[Decision, str]:
        """The first decision of the rules (``self.rules``, or the table given)."""
        before, nxt = s.places[e]
        place = FIRST if before is None else LAST if nxt is None else BETWEEN
        key = (s.candidates[e].label, place, s.gates)
        for fn, r in (table or self.rules)[key]:
            found = fn(s, r, e)
            if found is not None:
                return found, r.name
        return None, ""

    def sentences(self, text: str, ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """The sentences the linker works in: ``ranges`` in order, each joined to the one
        before it unless that one ends with a character of the table's ``sentence_ends``
        ("… in Reference | Example 5, X and Y were reacted.": one sentence)."""
        out: list[tuple[int, int]] = []
        ends = self.table.sentence_ends
        for a, b in sorted(ranges) or [(0, len(text))]:
            if out and _last_char(text, *out[-1]) not in ends:
                out[-1] = (out[-1][0], b)
            else:
                out.append((a, b))
        return out

    def link(self, text: str, roles: Sequence[Role],
             sentences: Sequence[tuple[int, int]] = ()) -> list[Link]:
        """The links of one document: ``roles`` its labelled spans, ``sentences`` the
        character ranges of its sentences (the whole text is one sentence when empty)."""
        spans = sorted(roles, key=_START_END)
        starts = [r.start for r in spans]
        trigger_labels, role_of = self.table.triggers, self.role_of
        lower = text.lower() if self.gated else ""
        links = []
        for a, b in self.sentences(text, sentences):
            inside = spans[bisect.bisect_left(starts, a):bisect.bisect_left(starts, b)]
            triggers = [r for r in inside if r.label in trigger_labels]
            candidates = [r for r in inside if r.label in role_of]
            if not triggers or not candidates:
                continue
            gates = tuple(any(lower.find(w, a, b) >= 0 for w in r.words) for r in self.gated)
            s = Sentence(text, a, b, triggers, candidates, inside, self, gates)
            for e, cand in enumerate(candidates):
                found, name = self.decide(s, e)
                if found is not None and found != NO_LINK:
                    links.append(Link(triggers[found].id, cand.id, role_of[cand.label], name))
        return links


def _applying(rules: list[tuple[RuleFunction, EventRule]], label: str, place: str,
              off: frozenset[str]) -> list[tuple[RuleFunction, EventRule]]:
    """The rules for a candidate with ``label`` at ``place``, in table order (those named
    in ``off`` left out)."""
    return [(fn, r) for fn, r in rules if (not r.labels or label in r.labels)
            and place in RULE_PLACES[r.name] and r.name not in off]


def _last_char(text: str, a: int, b: int) -> str:
    """The last character of ``text[a:b]`` that is no space ("" when there is none)."""
    while b > a and text[b - 1].isspace():
        b -= 1
    return text[b - 1] if b > a else ""


def load_linker(table: str | Path = "events.yaml") -> EventLinker:
    """The linker of the rule table ``table`` (a name in ``rules/`` or a file)."""
    return EventLinker(load_table(table, EventTable), table)


def set_arguments(roles: Sequence[Role], links: Sequence[Link]) -> None:
    """Write ``links`` into the triggers' ``args`` and ``arg_rules`` (every trigger's are
    replaced; links in text order of their arguments)."""
    by_id = {}
    for r in roles:
        if r.args or r.arg_rules:
            r.args, r.arg_rules = [], []
        by_id[r.id] = r
    for link in links:
        trigger = by_id[link.trigger]
        trigger.args.append(link.arg)
        trigger.arg_rules.append(link.rule)


# -- the rules, in the order of rules/events.yaml ----------------------------------------


@rule("inert_gas")
def inert_gas(s: Sentence, r: EventRule, e: int) -> Decision:
    return NO_LINK if s.candidates[e].text.lower() in r.words else None


@rule("heading", places=(FIRST,))
def heading(s: Sentence, r: EventRule, e: int) -> Decision:
    if s.places[e][0] is not None:  # after a trigger: in the body
        return None
    return NO_LINK if s.candidates[e].end <= s.body else None


@rule("product_yield")
def product_yield(s: Sentence, r: EventRule, e: int) -> Decision:
    products = [i for i, c in enumerate(s.candidates) if c.label == "REACTION_PRODUCT"
                and (s.places[i][0] is not None or c.start >= s.body)]
    if not products:
        return None
    before = [i for i in products if i < e]
    found = s.position(before[-1] if before else products[0])
    return found if found is not None and found != NO_LINK else None


@rule("after_time", places=(FIRST, BETWEEN))
def after_time(s: Sentence, r: EventRule, e: int) -> Decision:
    _, nxt = s.around(e)
    if nxt is None:
        return None
    cand = s.candidates[e]
    words = _WORD.findall(s.text[max(s.start, cand.start - 12):cand.start])
    return nxt if words and words[-1].lower() in r.words else None


@rule("replaced_compound", in_sentence=True)
def replaced_compound(s: Sentence, r: EventRule, e: int) -> Decision:
    before, _ = s.around(e)
    a = s.triggers[before].end if before is not None else s.body
    gap = s.text[a:s.candidates[e].start].lower()
    found = max((gap.rfind(w) for w in r.words), default=-1)
    return NO_LINK if found >= 0 and "," not in _BRACKETED.sub(" ", gap[found:]) else None


@rule("passive_subject", places=(BETWEEN,))
def passive_subject(s: Sentence, r: EventRule, e: int) -> Decision:
    before, nxt = s.around(e)
    if nxt is None or before is None or not s.passive(nxt):
        return None
    start = s.subject(nxt)
    return nxt if start is not None and s.candidates[e].start >= start else None


@rule("fronted_phrase", places=(FIRST,))
def fronted_phrase(s: Sentence, r: EventRule, e: int) -> Decision:
    before, nxt = s.around(e)
    if before is not None or nxt is None:
        return None
    start = s.triggers[nxt].start
    words = _WORD.findall(s.text[max(s.start, start - 8):start])
    return None if words and words[-1].lower() in r.words else nxt


@rule("after_trigger", places=(BETWEEN, LAST))
def after_trigger(s: Sentence, r: EventRule, e: int) -> Decision:
    before, _ = s.around(e)
    return before
