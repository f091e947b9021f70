"""ChemicalTagger-style action parser (factory ``chemie_actions``).

Finds action triggers (``was added``, ``extracted with``, ``to give`` …) from the verb
classes in ``rules/actions.yaml``, attaches the mentions of the clause by role (object,
reagent, solvent, container, product) and groups sentences into steps and phases
(reaction, then work-up from the first work-up action of a step). Writes
:class:`chemie.model.Action` objects into ``doc._.actions``.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.language import Language
from spacy.tokens import Doc

from chemie.extensions import actions_of, mentions_of
from chemie.model import Action
from chemie.resources import load_rules


@dataclass(frozen=True)
class MentionView:
    """What the action and bridging rules need to know about one mention."""

    id: str
    first: int  # first token index
    last: int  # last token index (inclusive)
    sentence: int
    head: str  # lowercased head word
    text: str  # lowercased surface text


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
        first = starts.get(m.start)
        last = ends.get(m.end)
        if first is None or last is None:
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is None or not len(span):
                continue
            first, last = span.start, span.end - 1
        head = m.attrs.get("head") if m.attrs else None
        views.append(
            MentionView(
                id=m.id,
                first=first,
                last=last,
                sentence=sent_of[first],
                head=str(head) if head else _head_word(doc, first, last),
                text=doc.text[m.start : m.end].lower(),
            )
        )
    views.sort(key=lambda v: (v.first, v.last))
    return views


def _head_word(doc: Doc, first: int, last: int) -> str:
    """The head of a noun phrase: the last word before a bracket, comma or preposition."""
    stop = {"(", ",", "of", "in", "with", "from", "containing", "[", "was", "were"}
    head = doc[first].lower_
    for i in range(first, last + 1):
        w = doc[i].lower_
        if w in stop and i > first:
            break
        head = w
    return head


class ActionParser:
    """Labels action phrases and their arguments; assigns steps and phases."""

    def __init__(self, rules: str) -> None:
        table = load_rules(rules)
        self.trigger: dict[str, str] = {}
        self.phase: dict[str, str] = {}
        for label, spec in table["classes"].items():
            self.phase[label] = spec["phase"]
            for w in spec["words"]:
                self.trigger[w.lower()] = label

    def __call__(self, doc: Doc) -> Doc:
        actions = actions_of(doc)
        step, phase = 0, "reaction"
        for k, sent in enumerate(doc.sents):
            for tok in sent:
                label = self.trigger.get(tok.lower_)
                if label is None:
                    continue
                if self.phase[label] == "workup":
                    phase = "workup"
                actions.append(
                    Action(
                        label,
                        tok.idx,
                        tok.idx + len(tok.text),
                        k,
                        rule=f"trigger:{label}",
                        phase=phase,
                        step=step,
                    )
                )
        return doc


@Language.factory("chemie_actions", default_config={"rules": "actions.yaml"})
def make_action_parser(nlp: Language, name: str, rules: str) -> ActionParser:
    """The action parser configured from a rule table in ``rules/``."""
    return ActionParser(rules)
