"""What the role rules read about a Doc, gathered once: tokens, NER chemicals, mentions,
actions (with the mention each argument names) and the end of the heading."""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import compress
from typing import Protocol

import regex
from spacy.tokens import Doc

from chemie.context import (
    HEADING,
    TokenTable,
    actions_of,
    chemical_spans,
    doc_text,
    mentions_of,
    relations_of,
    stored_text,
    stored_token_info,
    token_table,
)
from chemie.model import Action, Mention
from chemie.roles.found import Found


class YieldsLike(Protocol):
    """What the rules ask of the document's yields (:class:`chemie.roles.yields.YieldFinder`)."""

    def has_yield_after(self, f: Found) -> bool: ...


_MEMO_LIMIT = 200_000  # names remembered per pattern before the memory starts afresh


class Patterns:
    """The table's named patterns, and for the patterns over a compound's name whether each
    name matched (remembered across documents: a name's pattern is tested once)."""

    def __init__(self, compiled: dict[str, regex.Pattern], skipped: frozenset[str]):
        self.compiled = compiled
        self.skipped = skipped  # words skipped before a compound's governing word
        self.memos: dict[str, Callable[[str], bool]] = {
            name: _memo(p) for name, p in compiled.items()}


def _memo(pattern: regex.Pattern) -> Callable[[str], bool]:
    """``pattern.search(name) is not None``, remembered per name."""
    seen: dict[str, bool] = {}
    search = pattern.search

    def test(name: str) -> bool:
        hit = seen.get(name)
        if hit is None:
            if len(seen) >= _MEMO_LIMIT:
                seen.clear()
            hit = seen[name] = search(name) is not None
        return hit

    return test


@dataclass(slots=True)
class RoleContext:
    """One Doc as the role rules see it (character offsets into ``text``)."""

    text: str
    tokens: TokenTable
    ends: list[int]  # character end of each token
    chemicals: list[tuple[int, int]]  # NER chemical spans (characters), in text order
    # the class letter of each token (chemie_mentions: C chemical word, b a name starting a
    # sentence after a heading, - a bracket inside a name, Z an identifier …), or ""
    classes: str
    mentions: list[Mention]  # in text order
    actions: list[Action]  # actions that are not step headings, in text order
    headings: list[Action]  # step headings ("Example 5", "Step 2")
    action_starts: list[int] = field(default_factory=list)
    # mention id -> the (action, argument role) pairs of the actions that name it
    argument_of: dict[str, list[tuple[Action, str]]] = field(default_factory=dict)
    mention_by_id: dict[str, Mention] = field(default_factory=dict)
    lower_text: str = ""  # text.lower()
    mention_starts: list[int] = field(default_factory=list)  # of ``mentions``, in order
    mention_ends: list[int] = field(default_factory=list)
    longest: int = 0  # the length of the longest mention
    # mention id -> the mentions it corefers with as an anaphor (chemie_coref)
    antecedents: dict[str, list[str]] = field(default_factory=dict)
    # mention id -> the labels of the relations (coreference, bridging) that point to it
    linked: dict[str, set[str]] = field(default_factory=dict)
    # id() of the actions that are participles modifying a noun ("the residue obtained")
    modifiers: set[int] = field(default_factory=set)
    # the ChEMU 2020 phase of each action, by id() of the action (chemie.roles.phases)
    phase_of: dict[int, str] = field(default_factory=dict)
    sentence_ranges: list[tuple[int, int]] = field(default_factory=list)  # characters
    patterns: Patterns | None = None  # the rule table's patterns (set by the labeller)
    names: list[tuple[int, int]] = field(default_factory=list)  # the compound spans
    yields: YieldsLike | None = None  # the yields of the document (set by the labeller)

    def pattern(self, name: str) -> regex.Pattern:
        """The table's pattern ``name``."""
        return self.patterns.compiled[name]  # type: ignore[union-attr]

    def name_matches(self, name: str, text: str) -> bool:
        """Whether the pattern ``name`` matches a compound's name ``text``."""
        return self.patterns.memos[name](text)  # type: ignore[union-attr]

    def word_before(self, char: int) -> str:
        """The lowercased word governing a compound at ``char``: the nearest token before it
        that is not an amount, a unit, "of", a determiner or a modifier (up to 8 tokens)."""
        lower, skipped = self.tokens.lower, self.patterns.skipped  # type: ignore[union-attr]
        i = self.token_at(char) - 1
        for _ in range(8):
            if i < 0:
                break
            low = lower[i]
            if low in skipped or low.replace(".", "").replace(",", "").isdigit():
                i -= 1
                continue
            return low
        return ""

    def phase(self, action: Action) -> str:
        """The ChEMU 2020 phase of ``action`` (its parser phase until phases are set)."""
        return self.phase_of.get(id(action), action.phase)

    def token_at(self, char: int) -> int:
        """The index of the token containing (or starting after) character ``char``."""
        return bisect.bisect_right(self.ends, char)

    def covering(self, start: int, end: int) -> list[Mention]:
        """The mentions whose extent covers ``[start, end)``, smallest first."""
        starts, ends = self.mention_starts, self.mention_ends
        found = []
        earliest = end - self.longest  # no mention starting before it reaches the end
        for k in range(bisect.bisect_right(starts, start) - 1, -1, -1):
            if starts[k] < earliest:
                break
            if ends[k] >= end:
                found.append(k)
        if len(found) > 1:
            found.sort(key=lambda k: ends[k] - starts[k])
        mentions = self.mentions
        return [mentions[k] for k in found]


def _text(doc: Doc, table: TokenTable) -> str:
    """``doc.text`` from the token table: each token padded with spaces up to the next one
    (a gap between tokens is spaces; other whitespace is a token of its own)."""
    text = stored_text(doc)
    if text is not None:
        return text
    idx, words = table.idx, table.text
    if not words:
        return doc_text(doc)
    widths = list(map(operator.sub, idx[1:], idx[:-1]))
    widths.append(len(words[-1]))  # (a space after the last token is left out)
    return "".join(map(str.ljust, words, widths))


_POSITION = operator.attrgetter("start")
_SPANS = operator.attrgetter("spans")
EXTRA_RULE = "roles:extra_action"  # the rule of an action added from the role table


def role_context(doc: Doc, extra: dict[str, str] | None = None,
                 extra_words: frozenset[str] = frozenset()) -> RoleContext:
    """The :class:`RoleContext` of a Doc that went through the chemie pipeline; ``extra``
    maps action words the parser does not know to their class (actions made here, for the
    roles only: ``doc._.actions`` is not changed; ``extra_words``: its keys)."""
    table = token_table(doc)
    idx = table.idx
    ends = list(map(operator.add, idx, map(len, table.text)))
    # the NER's chemicals (token start, end, class)
    chemicals = [(idx[a], ends[b - 1]) for a, b, _ in chemical_spans(doc)]
    mentions, ranges = _mentions(doc)
    actions, headings = _actions(doc, table, ends, extra, extra_words)
    info = stored_token_info(doc)
    classes = info[1] if info is not None and len(info[1]) == len(ends) else ""
    if not isinstance(classes, str):
        classes = "".join(classes)
    ctx = RoleContext(_text(doc, table), table, ends, chemicals, classes, mentions, actions,
                      headings)
    text = ctx.text
    low = text.lower()
    if len(low) != len(text):  # a character whose lower case is longer ("İ")
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    ctx.lower_text = low
    ctx.action_starts = [a.start for a in actions]
    ctx.sentence_ranges = [(idx[a], ends[b - 1]) for a, b in table.sents]
    ctx.mention_by_id = {m.id: m for m in mentions}
    ctx.mention_starts = [r[0][0] for r in ranges]
    ctx.mention_ends = mention_ends = [r[-1][1] for r in ranges]
    ctx.longest = max(map(operator.sub, mention_ends, ctx.mention_starts), default=0)
    _relations(doc, ctx.linked, ctx.antecedents)
    argument_of = ctx.argument_of
    for a in actions:
        for role, ids in a.args.items():
            for mid in ids:
                hits = argument_of.get(mid)
                if hits is None:
                    argument_of[mid] = [(a, role)]
                else:
                    hits.append((a, role))
    return ctx


def _mentions(doc: Doc) -> tuple[list[Mention], list]:
    """The doc's mentions in text order, and their character ranges."""
    mentions = list(mentions_of(doc))
    ranges = list(map(_SPANS, mentions))
    starts = [r[0][0] for r in ranges]
    if not all(map(operator.lt, starts, starts[1:])):  # usually in text order already
        mentions.sort(key=_POSITION)
        ranges = list(map(_SPANS, mentions))
    return mentions, ranges


def _actions(doc: Doc, table: TokenTable, ends: list[int], extra: dict[str, str] | None,
             extra_words: frozenset[str]) -> tuple[list[Action], list[Action]]:
    """The doc's actions that are no step headings (with the table's extra action words
    added), and the step headings, each in text order."""
    actions, headings = [], []
    for a in actions_of(doc):
        (headings if a.label == HEADING else actions).append(a)
    lower, idx = table.lower, table.idx
    if extra and not extra_words.isdisjoint(lower):
        taken = {a.start for a in actions} | {a.start for a in headings}
        for i in compress(range(len(lower)), map(extra.__contains__, lower)):
            start = idx[i]
            if start not in taken:
                actions.append(Action(extra[lower[i]], start, ends[i], table.sentence_of(i),
                                      EXTRA_RULE))
        actions.sort(key=_POSITION)
    elif not all(map(operator.lt, firsts := [a.start for a in actions], firsts[1:])):
        actions.sort(key=_POSITION)
    return actions, headings


def _relations(doc: Doc, linked: dict[str, set[str]], antecedents: dict[str, list[str]]
               ) -> None:
    """Fill ``linked`` (mention id -> the labels of the relations pointing to it) and
    ``antecedents`` (anaphor id -> the mentions it corefers with)."""
    for r in relations_of(doc):
        label = r.label
        tail = linked.get(r.tail)
        if tail is None:
            linked[r.tail] = {label}
        else:
            tail.add(label)
        if label == "COREFERENCE":
            antecedents.setdefault(r.head, []).append(r.tail)
