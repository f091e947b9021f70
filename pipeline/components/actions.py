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


def mention_views(doc: Doc) -> list[MentionView]:
    """Mentions of ``doc`` in text order with token positions, sentence and head word."""
    starts = {t.idx: t.i for t in doc}
    ends = {t.idx + len(t.text): t.i for t in doc}
    sent_of = [0] * len(doc)
    for k, sent in enumerate(doc.sents):
        for i in range(sent.start, sent.end):
            sent_of[i] = k
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
        words = tuple(t.lower_ for t in doc[first : ends.get(lead_end, last) + 1])
        views.append(
            MentionView(
                id=m.id,
                first=first,
                last=last,
                sentence=sent_of[first],
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
        self._cache: dict[str, str | None] = {}

    def classify(self, word: str) -> str | None:
        """The action class of a lowercased token, or None."""
        if word in self._cache:
            return self._cache[word]
        label = next((lab for lab, pat in self.classes if pat.fullmatch(word)), None)
        if len(self._cache) < 100_000:
            self._cache[word] = label
        return label

    def _is_heading(self, doc: Doc, i: int) -> bool:
        tok = doc[i]
        if not tok.text[:1].isupper() or not self.heading.fullmatch(tok.text):
            return False
        nxt = doc[i + 1].text if i + 1 < len(doc) else ""
        return bool(_DIGIT.match(nxt)) or (len(nxt) <= 3 and nxt.isalnum() and nxt.isupper())

    def __call__(self, doc: Doc) -> Doc:
        actions = actions_of(doc)
        views = mention_views(doc)
        firsts = [v.first for v in views]
        by_last = _span_ends(doc, views)
        covered = _covered(doc)
        step, phase = 0, "reaction"
        for k, sent in enumerate(doc.sents):
            for tok in sent:
                i = tok.i
                if self._is_heading(doc, i):
                    step, phase = step + 1, "reaction"
                    actions.append(
                        Action(HEADING, tok.idx, tok.idx + len(tok.text), k, "heading:step",
                               phase=phase, step=step)
                    )
                    continue
                label = self.classify(tok.lower_)
                if label is None or covered[i]:
                    continue
                if self.phase[label] != "any":
                    phase = self.phase[label]
                action = Action(label, tok.idx, tok.idx + len(tok.text), k,
                                f"trigger:{label}", phase=phase, step=step)
                self._arguments(doc, action, i, sent.start, sent.end, views, firsts, by_last)
                actions.append(action)
        return doc

    def _arguments(
        self,
        doc: Doc,
        action: Action,
        i: int,
        sent_start: int,
        sent_end: int,
        views: list[MentionView],
        firsts: list[int],
        by_last: dict[int, MentionView],
    ) -> None:
        """Fill ``action.args`` from the mentions around trigger token ``i``."""
        passive = i > sent_start and doc[i - 1].lower_ in self.auxiliaries
        if passive or (i > sent_start + 1 and doc[i - 2].lower_ in self.auxiliaries
                       and doc[i - 1].lower_.endswith("ly")):
            aux = i - 1 if doc[i - 1].lower_ in self.auxiliaries else i - 2
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
            role = self.roles.get(doc[p].lower_)
            if role is None:
                continue
            j = bisect.bisect_left(firsts, p + 1)
            if j < len(views) and views[j].first <= p + 3:
                v = views[j]
                if role in ("solvent", "target") and v.head in _EQUIPMENT_HINT:
                    role = "container"
                action.args.setdefault(role, []).append(v.id)
            break


_EQUIPMENT_HINT = frozenset({"flask", "vessel", "tube", "vial", "autoclave", "reactor", "bottle"})


def _span_ends(doc: Doc, views: list[MentionView]) -> dict[int, MentionView]:
    """Mention by the token index where one of its ranges ends (first mention wins)."""
    ends = {t.idx + len(t.text): t.i for t in doc}
    view = {v.id: v for v in views}
    out: dict[int, MentionView] = {}
    for m in mentions_of(doc):
        if m.id not in view:
            continue
        for _, b in m.spans:
            if b in ends:
                out.setdefault(ends[b], view[m.id])
    return out


def _covered(doc: Doc) -> bytearray:
    """1 for each token inside a mention range (a trigger word in a chemical name)."""
    covered = bytearray(len(doc))
    for m in mentions_of(doc):
        for a, b in m.spans:
            span = doc.char_span(a, b, alignment_mode="expand")
            if span is not None:
                covered[span.start : span.end] = b"\x01" * len(span)
    return covered


@Language.factory("chemie_actions", default_config={"rules": "actions.yaml"})
def make_action_parser(nlp: Language, name: str, rules: str) -> ActionParser:
    """The action parser configured from a rule table in ``rules/``."""
    return ActionParser(rules)
