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
import weakref
from dataclasses import dataclass

import regex
from spacy.language import Language
from spacy.tokens import Doc

from chemie.extensions import actions_of, mentions_of
from chemie.model import Action
from chemie.resources import load_rules

HEADING = "Heading"
_PREPOSITIONS = frozenset({"(", ",", "of", "in", "with", "from", "containing", "[", "was", "were"})
_DIGIT = regex.compile(r"\d")


@dataclass(frozen=True)
class MentionView:
    """What the action and bridging rules need to know about one mention."""

    id: str
    first: int  # first token index
    last: int  # last token index (inclusive)
    sentence: int
    head: str  # lowercased head word
    words: tuple[str, ...]  # lowercased tokens of the first range


@dataclass(frozen=True)
class TokenTable:
    """Token texts, offsets and sentence numbers of a Doc, read once (Token objects are slow)."""

    text: list[str]
    lower: list[str]
    idx: list[int]
    start_of: dict[int, int]  # character offset -> token starting there
    end_of: dict[int, int]  # character offset -> token ending there
    sentence: list[int]  # sentence number of each token
    sents: list[tuple[int, int]]  # token ranges of the sentences, end exclusive


def token_table(doc: Doc) -> TokenTable:
    """The doc's :class:`TokenTable` (computed once per Doc)."""
    table = _TABLES.get(doc)
    if table is not None and len(table.text) == len(doc):
        return table
    text, lower, idx = [], [], []
    for t in doc:
        text.append(t.text)
        lower.append(t.lower_)
        idx.append(t.idx)
    ends = [i + len(w) for i, w in zip(idx, text, strict=True)]
    if not len(doc):
        sents = []
    elif doc.has_annotation("SENT_START"):
        sents = [(s.start, s.end) for s in doc.sents]
    else:
        sents = [(0, len(doc))]  # no sentence boundaries: one sentence
    sentence = [0] * len(doc)
    for k, (a, b) in enumerate(sents):
        sentence[a:b] = [k] * (b - a)
    table = TokenTable(
        text, lower, idx, {c: i for i, c in enumerate(idx)}, {c: i for i, c in enumerate(ends)},
        sentence, sents,
    )
    _TABLES[doc] = table
    return table


# token tables of live Docs (kept out of doc.user_data so Docs still serialise)
_TABLES: weakref.WeakKeyDictionary[Doc, TokenTable] = weakref.WeakKeyDictionary()
_MISSING = object()


def mention_views(doc: Doc) -> list[MentionView]:
    """Mentions of ``doc`` in text order with token positions, sentence and head word."""
    table = token_table(doc)
    starts, ends = table.start_of, table.end_of
    views = []
    for m in mentions_of(doc):
        lo, hi = min(a for a, _ in m.spans), max(b for _, b in m.spans)
        first, last = starts.get(lo), ends.get(hi)
        if first is None or last is None:
            span = doc.char_span(lo, hi, alignment_mode="expand")
            if span is None or not len(span):
                continue
            first, last = span.start, span.end - 1
        lead_end = min((b for a, b in m.spans if a == lo), default=hi)
        words = tuple(table.lower[first : ends.get(lead_end, last) + 1])
        views.append(
            MentionView(
                id=m.id,
                first=first,
                last=last,
                sentence=table.sentence[first],
                head=head_word(words),
                words=words,
            )
        )
    views.sort(key=lambda v: (v.first, v.last))
    return views


def head_word(words: tuple[str, ...]) -> str:
    """The head of a noun phrase: the last word before a bracket, comma or preposition."""
    head = words[0] if words else ""
    for i, w in enumerate(words):
        if w in _PREPOSITIONS and i > 0:
            break
        head = w
    return head


class ActionParser:
    """Labels action phrases and their arguments; assigns steps and phases."""

    def __init__(self, rules: str) -> None:
        table = load_rules(rules)
        self.classes: list[tuple[str, regex.Pattern]] = [
            (label, regex.compile(rf"(?:{spec['pattern']})", regex.IGNORECASE))
            for label, spec in table["classes"].items()
        ]
        self.phase = {label: spec["phase"] for label, spec in table["classes"].items()}
        self.heading = regex.compile(rf"(?:{table['step_heading']})", regex.IGNORECASE)
        self.auxiliaries = frozenset(table["auxiliaries"])
        self.roles: dict[str, str] = table["roles"]
        self.apparatus = frozenset(table["apparatus"])
        self.containers = frozenset(table["containers"])
        self._cache: dict[str, object] = {}

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
        nxt = table.text[i + 1] if i + 1 < len(table.text) else ""
        return bool(_DIGIT.match(nxt)) or (len(nxt) <= 3 and nxt.isalnum() and nxt.isupper())

    def _on_apparatus(self, lower: list[str], i: int, sent_start: int) -> bool:
        """True for "the ice bath was removed": an action on apparatus keeps the phase."""
        window = lower[max(sent_start, i - 3) : i]
        return any(w in self.apparatus for w in window)

    def __call__(self, doc: Doc) -> Doc:
        actions = actions_of(doc)
        table = token_table(doc)
        views = mention_views(doc)
        firsts = [v.first for v in views]
        by_last = _span_ends(doc, table, views)
        covered = _covered(doc, table)
        step, phase, lower = 0, "reaction", table.lower
        for k, (start, end) in enumerate(table.sents):
            for i in range(start, end):
                label = self.classify(lower[i])
                if label is None:
                    continue
                char, word = table.idx[i], table.text[i]
                if label == HEADING and self._is_heading(table, i):
                    step, phase = step + 1, "reaction"
                    actions.append(
                        Action(HEADING, char, char + len(word), k, "heading:step",
                               phase=phase, step=step)
                    )
                    continue
                if label == HEADING or covered[i]:
                    continue
                if self.phase[label] != "any" and not self._on_apparatus(lower, i, start):
                    phase = self.phase[label]
                action = Action(label, char, char + len(word), k,
                                f"trigger:{label}", phase=phase, step=step)
                self._arguments(table, action, i, start, end, views, firsts, by_last)
                actions.append(action)
        return doc

    def _arguments(
        self,
        table: TokenTable,
        action: Action,
        i: int,
        sent_start: int,
        sent_end: int,
        views: list[MentionView],
        firsts: list[int],
        by_last: dict[int, MentionView],
    ) -> None:
        """Fill ``action.args`` from the mentions around trigger token ``i``."""
        low = table.lower
        passive = i > sent_start and low[i - 1] in self.auxiliaries
        if passive or (i > sent_start + 1 and low[i - 2] in self.auxiliaries
                       and low[i - 1].endswith("ly")):
            aux = i - 1 if low[i - 1] in self.auxiliaries else i - 2
            subject = by_last.get(aux - 1)
            if subject is not None:
                role = "product" if action.label == "Yield" else "object"
                action.args.setdefault(role, []).append(subject.id)
        else:
            j = bisect.bisect_left(firsts, i + 1)
            if j < len(views) and views[j].first <= i + 2 and views[j].first < sent_end:
                role = "product" if action.label == "Yield" else "object"
                action.args.setdefault(role, []).append(views[j].id)
        # prepositional arguments: "with X", "in X", "over X", "into X" within the clause
        for p in range(i + 1, min(sent_end, i + 6)):
            role = self.roles.get(low[p])
            if role is None:
                continue
            j = bisect.bisect_left(firsts, p + 1)
            if j < len(views) and views[j].first <= p + 3:
                v = views[j]
                if role in ("solvent", "target") and v.head in self.containers:
                    role = "container"
                action.args.setdefault(role, []).append(v.id)
            break


def _span_ends(doc: Doc, table: TokenTable, views: list[MentionView]) -> dict[int, MentionView]:
    """Mention by the token index where one of its ranges ends (first mention wins)."""
    view = {v.id: v for v in views}
    out: dict[int, MentionView] = {}
    for m in mentions_of(doc):
        if m.id not in view:
            continue
        for _, b in m.spans:
            if b in table.end_of:
                out.setdefault(table.end_of[b], view[m.id])
    return out


def _covered(doc: Doc, table: TokenTable) -> bytearray:
    """1 for each token inside a mention range (a trigger word in a chemical name)."""
    covered = bytearray(len(table.text))
    for m in mentions_of(doc):
        for a, b in m.spans:
            first, last = table.start_of.get(a), table.end_of.get(b)
            if first is None or last is None:
                span = doc.char_span(a, b, alignment_mode="expand")
                if span is None:
                    continue
                first, last = span.start, span.end - 1
            covered[first : last + 1] = b"\x01" * (last + 1 - first)
    return covered


@Language.factory("chemie_actions", default_config={"rules": "actions.yaml"})
def make_action_parser(nlp: Language, name: str, rules: str) -> ActionParser:
    """The action parser configured from a rule table in ``rules/``."""
    return ActionParser(rules)
