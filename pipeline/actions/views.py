"""Mention views: the mentions of a Doc as token positions with their sentence and head word,
read once per mention list (the action rules and the bridging rules look mentions up here)."""

from __future__ import annotations

import bisect
import operator
import weakref
from dataclasses import dataclass

from spacy.tokens import Doc

from chemie.actions.table import action_table
from chemie.context import TokenTable, mentions_of, token_table

_PREPOSITIONS = frozenset({"(", ",", "of", "in", "with", "from", "containing", "[", "was", "were"})
# Words after a head noun that do not head the phrase ("the residue obtained thereby", "the
# organic layer thus obtained"): rules/actions.yaml, post_modifiers.
_POST_MODIFIERS = action_table().post_modifiers
# Nouns of quantity before "of" that give the head to what follows ("a large number of white
# solid", "a second crop of the product"): rules/actions.yaml, partitives.
_PARTITIVES = action_table().partitives
# without any of these words, the head of a phrase is its last word (head_word's fast path)
_HEAD_STOPS = _PREPOSITIONS | _POST_MODIFIERS


@dataclass(slots=True)
class MentionView:
    """What the action and bridging rules need to know about one mention."""

    id: str
    first: int  # first token index
    last: int  # last token index (inclusive)
    sentence: int
    head: str  # lowercased head word
    words: tuple[str, ...]  # lowercased tokens of the first range



# mention views of live Docs (kept out of doc.user_data so Docs still serialise); reused while
# the doc's mention list is the same list, same length
_VIEWS: weakref.WeakKeyDictionary[Doc, tuple[list, int, MentionTable]] = (
    weakref.WeakKeyDictionary()
)
_POSITION = operator.attrgetter("first", "last")  # text order of mention views


@dataclass(frozen=True)
class MentionTable:
    """Mention views of a Doc, with what the action rules look up in them."""

    views: list[MentionView]  # in text order
    firsts: list[int]  # first token of each view, in the same order
    # the view by a token where one of its mention's ranges ends exactly (first mention wins;
    # mention ids are unique within a doc)
    ending: dict[int, MentionView]
    # 1 for each token inside a mention range of several tokens
    covered: bytearray


def mention_table(doc: Doc) -> MentionTable:
    """The doc's :class:`MentionTable` (recomputed when its mention list changes)."""
    mentions = mentions_of(doc)
    cached = _VIEWS.get(doc)
    if cached is not None and cached[0] is mentions and cached[1] == len(mentions):
        return cached[2]
    table = token_table(doc)
    idx, text, lower, starts = table.idx, table.text, table.lower, table.starts
    views: list[MentionView] = []
    ending: dict[int, MentionView] = {}
    covered = bytearray(len(idx))
    add_view, bisect_right, bisect_left = views.append, bisect.bisect_right, bisect.bisect_left
    for m in mentions:
        spans = m.spans
        if len(spans) == 1:
            # one range whose ends are token boundaries (the usual case): looked up inline
            a, b = spans[0]
            first = bisect_right(idx, a) - 1
            last = bisect_left(idx, b) - 1  # the last token starting before the end
            if first >= 0 and idx[first] == a and last >= first and (
                    idx[last] + len(text[last]) == b):
                words = tuple(lower[first : last + 1])
                view = MentionView(m.id, first, last, bisect_right(starts, first) - 1,
                                   head_word(words), words)
                add_view(view)
                if last not in ending:
                    ending[last] = view
                if last > first:
                    covered[first : last + 1] = b"\x01" * (last + 1 - first)
                continue
        view, exact = _general_view(doc, table, m.id, spans, covered)
        if view is not None:
            add_view(view)
            for end in exact:
                if end not in ending:
                    ending[end] = view
    firsts = [v.first for v in views]
    if not all(map(operator.lt, firsts, firsts[1:])):
        views.sort(key=_POSITION)  # mentions out of text order (or two starting together)
        firsts = [v.first for v in views]
    out = MentionTable(views, firsts, ending, covered)
    _VIEWS[doc] = (mentions, len(mentions), out)
    return out


def _general_view(
    doc: Doc, table: TokenTable, mid: str, spans: tuple[tuple[int, int], ...], covered: bytearray
) -> tuple[MentionView | None, list[int]]:
    """The view of mention ``mid`` with several ranges or ranges that are not token-aligned
    (or None), and the tokens where its ranges end exactly; marks its covered tokens."""
    start_of, end_of = table.starting_at, table.ending_at
    exact_ends: list[int] = []
    first = last = exact = -1
    for a, b in spans:
        first, last = start_of(a), end_of(b)
        exact = -1 if last is None else last
        if exact >= 0:
            exact_ends.append(exact)
        if first is None or last is None:
            span = doc.char_span(a, b, alignment_mode="expand")
            if span is None:
                first = last = -1
                continue
            first, last = span.start, span.end - 1
        if first >= 0 and last > first:
            covered[first : last + 1] = b"\x01" * (last + 1 - first)
    if len(spans) == 1:
        # one range: its tokens are the view's (the expanded span unless it is empty)
        if first < 0 or last < first:
            return None, exact_ends
        lead_last = exact if exact >= 0 else last
    else:
        lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
        lead_end = min((b for a, b in spans if a == lo), default=hi)
        first, last = start_of(lo), end_of(hi)
        if first is None or last is None:
            span = doc.char_span(lo, hi, alignment_mode="expand")
            if span is None or not len(span):
                return None, exact_ends
            first, last = span.start, span.end - 1
        lead = end_of(lead_end)
        lead_last = last if lead is None else lead
    words = tuple(table.lower[first : lead_last + 1])
    view = MentionView(mid, first, last, table.sentence_of(first), head_word(words), words)
    return view, exact_ends


def mention_views(doc: Doc) -> list[MentionView]:
    """Mentions of ``doc`` in text order with token positions, sentence and head word."""
    return mention_table(doc).views


def head_word(words: tuple[str, ...]) -> str:
    """The head of a noun phrase: the last word before a bracket, comma or preposition that
    is not a post-modifier ("the residue obtained thereby": residue)."""
    if _HEAD_STOPS.isdisjoint(words):
        return words[-1] if words else ""  # no preposition or post-modifier: the last word
    head = words[0]
    for i, w in enumerate(words):
        if w in _PREPOSITIONS and i > 0:
            if w == "of" and head in _PARTITIVES:
                continue  # "a large amount of white solid": the head is "solid"
            break
        if w not in _POST_MODIFIERS or i == 0:
            head = w
    return head
