"""ChemicalTagger-style action parser (factory ``chemie_actions``).

Finds action triggers (``was added``, ``extracted with``, ``to give`` …) from the verb
classes in ``rules/actions.yaml``, attaches the mentions of the clause by role and
groups the text into steps (``Step 2``, ``Example 5`` headings) and phases (reaction,
then work-up from the first work-up action of a step). Writes
:class:`chemie.model.Action` objects into ``doc._.actions``; a step heading is an
action labelled ``Heading``.

Roles: ``object`` (the passive subject ``X was added`` or the active object ``added X``),
``product`` (``to give X``, ``X was obtained``) and one role per preposition after the
trigger (``with`` -> ``reagent``, ``in`` -> ``solvent`` or ``container`` for equipment …).
"""

from __future__ import annotations

import bisect
import itertools
import operator
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy
import regex
from spacy.attrs import IDX, ORTH, SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from chemie.extensions import SENTENCE_STARTS, TOKEN_INFO, actions_of, mentions_of
from chemie.model import Action
from chemie.saving import SavesTables, rule_table, table_sources
from chemie.tables import load_table


@dataclass(frozen=True)
class ActionClass:
    """One verb class of ``rules/actions.yaml``: ``pattern`` matches its trigger words."""

    comment: str
    phase: Literal["reaction", "workup", "any"]
    pattern: str  # case-insensitive, matched against whole tokens
    near: frozenset[str] = frozenset()  # fires only with one of these words near it


@dataclass(frozen=True)
class ActionTable:
    """``rules/actions.yaml`` (each key is described there)."""

    classes: dict[str, ActionClass]
    reaction_end: frozenset[str]
    after_end: frozenset[str]
    post_modifiers: frozenset[str]
    partitives: frozenset[str]
    step_heading: str
    auxiliaries: frozenset[str]
    roles: dict[str, str]
    apparatus: frozenset[str]
    containers: frozenset[str]
    manner_before: frozenset[str]
    reference_before: frozenset[str]


def action_table(name: str | Path = "actions.yaml") -> ActionTable:
    """The action classes and word lists of ``rules/<name>`` (read once) or of a table file."""
    return load_table(name, ActionTable)


HEADING = "Heading"
_PREPOSITIONS = frozenset({"(", ",", "of", "in", "with", "from", "containing", "[", "was", "were"})
_DIGIT = regex.compile(r"\d")
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


@dataclass(slots=True)
class TokenTable:
    """Token texts, offsets and sentence numbers of a Doc, read once (Token objects are slow)."""

    text: list[str]
    lower: list[str]
    idx: list[int]  # character offset of each token (tokens are never empty)
    starts: list[int]  # first token of each sentence, 0 first
    sents: list[tuple[int, int]]  # token ranges of the sentences, end exclusive

    def starting_at(self, char: int) -> int | None:
        """The (last) token starting at character ``char``, or None."""
        i = bisect.bisect_right(self.idx, char) - 1
        return i if i >= 0 and self.idx[i] == char else None

    def ending_at(self, char: int) -> int | None:
        """The (last) token ending at character ``char``, or None."""
        i = bisect.bisect_left(self.idx, char) - 1  # the last token starting before it
        return i if i >= 0 and self.idx[i] + len(self.text[i]) == char else None

    def sentence_of(self, i: int) -> int:
        """The sentence number of token ``i``."""
        return bisect.bisect_right(self.starts, i) - 1


def token_table(doc: Doc) -> TokenTable:
    """The doc's :class:`TokenTable` (computed once per Doc, from arrays, not Token objects)."""
    table = _TABLES.get(doc)
    n = len(doc)
    if table is not None and len(table.text) == n:
        return table
    if not n:
        table = TokenTable([], [], [], [0], [])
        _TABLES[doc] = table
        return table
    # the words chemie_mentions already read (by orth id, no string-store lookup)
    info = doc.user_data.get(TOKEN_INFO)
    if info is not None and len(info[0]) == n:
        idx = doc.to_array(IDX).tolist()
        text = list(info[0])
    else:
        arr = doc.to_array([IDX, ORTH])
        idx = arr[:, 0].tolist()
        strings = doc.vocab.strings
        text = [strings[o] for o in arr[:, 1].tolist()]
    lower = list(map(str.lower, text))  # the LOWER attribute of the English vocab
    if "sents" in doc.user_hooks:
        sents = [(s.start, s.end) for s in doc.sents]
        starts = [a for a, _ in sents]
    else:
        # as Doc.has_annotation and Doc.sents: a sentence starts at token 0 and at every
        # token marked as a start; without any mark the doc is one sentence (the starts
        # chemie_mentions found, when it ran on this doc)
        starts = doc.user_data.get(SENTENCE_STARTS)
        if starts is None:
            starts = numpy.flatnonzero(doc.to_array(SENT_START) == 1).tolist()
            if not starts or starts[0] != 0:
                starts.insert(0, 0)
        sents = list(itertools.pairwise([*starts, n]))
    table = TokenTable(text, lower, idx, starts, sents)
    _TABLES[doc] = table
    return table


# token tables and mention views of live Docs (kept out of doc.user_data so Docs still
# serialise); views are reused while the doc's mention list is the same list, same length
_TABLES: weakref.WeakKeyDictionary[Doc, TokenTable] = weakref.WeakKeyDictionary()
_VIEWS: weakref.WeakKeyDictionary[Doc, tuple[list, int, MentionTable]] = (
    weakref.WeakKeyDictionary()
)
_MISSING = object()
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


class ActionParser(SavesTables):
    """Labels action phrases and their arguments; assigns steps and phases (``to_disk``
    saves the rule table, ``from_disk`` reads it back; the ``post_modifiers`` and
    ``partitives`` of the mention views stay those of ``rules/actions.yaml``)."""

    def __init__(self, rules: str | Path) -> None:
        self.table_files = table_sources(rules)
        self._build(action_table(rules))

    def load_tables(self, files: dict[str, Path]) -> None:
        """Use the rule table in ``files`` (see :class:`~chemie.saving.SavesTables`)."""
        self._build(action_table(rule_table(files)))

    def _build(self, table: ActionTable) -> None:
        """Compile the rule table ``table``."""
        self.table = table
        self.classes: list[tuple[str, regex.Pattern]] = [
            (label, regex.compile(rf"(?:{spec.pattern})", regex.IGNORECASE))
            for label, spec in table.classes.items()
        ]
        self.phase = {label: spec.phase for label, spec in table.classes.items()}
        self.heading = regex.compile(rf"(?:{table.step_heading})", regex.IGNORECASE)
        # classes that fire only near one of their words ("completion of the reaction")
        self.near: dict[str, frozenset[str]] = {
            label: spec.near for label, spec in table.classes.items() if spec.near
        }
        self._cache: dict[str, object] = {}
        # the class of each word as written (None: no class), filled as words are met; keyed
        # by the doc's own word strings (hash already known), a lookup per token stays cheap
        self._by_word: dict[str, str | None] = {}
        self._rules = {label: f"trigger:{label}" for label in self.phase}

    def classify(self, word: str) -> str | None:
        """The action class of a lowercased token (``HEADING`` for a step word), or None."""
        label = self._cache.get(word, _MISSING)
        if label is _MISSING:
            if self.heading.fullmatch(word):
                label = HEADING
            else:
                label = next((lab for lab, pat in self.classes if pat.fullmatch(word)), None)
            if len(self._cache) < 100_000:
                self._cache[word] = label
        return label

    def _is_heading(self, table: TokenTable, i: int) -> bool:
        word = table.text[i]
        if not word[:1].isupper():
            return False
        if i > 0 and table.lower[i - 1] in self.table.reference_before:
            return False  # "the compound from Example 8A": a reference, not a new step
        if i + 2 < len(table.text) and table.lower[i + 2] in self.table.auxiliaries:
            return False  # "... propan-1-ol Example 20A were then added": a compound's label
        nxt = table.text[i + 1] if i + 1 < len(table.text) else ""
        return bool(_DIGIT.match(nxt)) or (len(nxt) <= 3 and nxt.isalnum() and nxt.isupper())

    def __call__(self, doc: Doc) -> Doc:
        actions = actions_of(doc)
        table = token_table(doc)
        lower, text = table.lower, table.text
        by_word = self._by_word
        # the class of every word from the memo (_MISSING: not classified yet)
        labels = list(map(by_word.get, text, itertools.repeat(_MISSING)))
        # only the tokens with a class (or none known yet) are visited
        hits = list(itertools.compress(range(len(labels)), labels))
        if not hits:
            return doc  # no trigger word: the mentions are not needed
        mtable = mention_table(doc)
        views, firsts, by_last, covered = mtable.views, mtable.firsts, mtable.ending, mtable.covered
        step, phase = 0, "reaction"
        ended = False  # the reaction was declared over (complete, quenched): additions are work-up
        classify, sents, starts = self.classify, table.sents, table.starts
        idx, near_words, phases, t = table.idx, self.near, self.phase, self.table
        after_end, reaction_end = t.after_end, t.reaction_end
        apparatus, manner_before = t.apparatus, t.manner_before
        auxiliaries, roles, containers = t.auxiliaries, t.roles, t.containers
        rules, n_views = self._rules, len(views)
        bisect_right, bisect_left = bisect.bisect_right, bisect.bisect_left
        for i in hits:
            label = labels[i]
            if label is _MISSING:
                label = classify(lower[i])
                if len(by_word) < 100_000:
                    by_word[text[i]] = label
                if label is None:
                    continue
            k = bisect_right(starts, i) - 1
            start, end = sents[k]
            char = idx[i]
            if label == HEADING:
                if self._is_heading(table, i):
                    step, phase, ended = step + 1, "reaction", False
                    actions.append(Action(HEADING, char, char + len(text[i]), k,
                                          "heading:step", {}, phase, step))
                continue
            if covered[i]:
                continue
            near = near_words.get(label)
            if near is not None and near.isdisjoint(lower[max(start, i - 3) : i + 4]):
                continue  # "completion" not about the reaction ("completion of the addition")
            if ended and label in after_end:
                phase = "workup"  # "After completion of the reaction, water was added"
            elif (phases[label] != "any"
                    # "the ice bath was removed": an action on apparatus keeps the phase
                    and apparatus.isdisjoint(lower[max(start, i - 3) : i])
                    and not (i > start and lower[i - 1] in manner_before)):
                phase = phases[label]
                ended = ended and phase == "workup"
            ended = ended or label in reaction_end
            # arguments (inline: one call per trigger costs more than the rules):
            # the subject of "X was added" or the object of "added X"
            args: dict[str, list[str]] = {}
            if i > start and (lower[i - 1] in auxiliaries or (
                    i > start + 1 and lower[i - 2] in auxiliaries
                    and lower[i - 1].endswith("ly"))):
                aux = i - 1 if lower[i - 1] in auxiliaries else i - 2
                subject = by_last.get(aux - 1)
                if subject is not None:
                    args["product" if label == "Yield" else "object"] = [subject.id]
            else:
                j = bisect_left(firsts, i + 1)
                if j < n_views and firsts[j] <= i + 2 and firsts[j] < end:
                    args["product" if label == "Yield" else "object"] = [views[j].id]
            # prepositional arguments: "with X", "in X", "over X", "into X" within the clause
            for p in range(i + 1, min(end, i + 6)):
                role = roles.get(lower[p])
                if role is None:
                    continue
                j = bisect_left(firsts, p + 1)
                if j < n_views and firsts[j] <= p + 3:
                    v = views[j]
                    if role in ("solvent", "target") and v.head in containers:
                        role = "container"
                    args[role] = [v.id]  # the one prepositional role (the scan stops here)
                break
            actions.append(Action(label, char, char + len(text[i]), k, rules[label], args,
                                  phase, step))
        return doc


@Language.factory(
    "chemie_actions",
    default_config={"rules": "actions.yaml"},
    requires=["doc._.mentions"],
    assigns=["doc._.actions"],
)
def make_action_parser(nlp: Language, name: str, rules: str) -> ActionParser:
    """The action parser configured from a rule table in ``rules/``."""
    return ActionParser(rules)
