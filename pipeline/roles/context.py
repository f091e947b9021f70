"""What the role rules read about a Doc, gathered once: tokens, NER chemicals, mentions,
actions (with the mention each argument names) and the end of the heading."""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from spacy.tokens import Doc

from chemie.components.actions import HEADING, TokenTable, token_table
from chemie.components.mentions import doc_text
from chemie.extensions import actions_of, mentions_of, relations_of
from chemie.model import Action, Mention


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
    # mention ids coreferent with another mention (anaphor -> antecedents)
    coreferent: dict[str, list[str]] = field(default_factory=dict)
    mention_by_id: dict[str, Mention] = field(default_factory=dict)
    # the ChEMU 2020 phase of each action, by id() of the action (chemie.roles.phases)
    phase_of: dict[int, str] = field(default_factory=dict)

    def phase(self, action: Action) -> str:
        """The ChEMU 2020 phase of ``action`` (its parser phase until phases are set)."""
        return self.phase_of.get(id(action), action.phase)

    def token_at(self, char: int) -> int:
        """The index of the token containing (or starting after) character ``char``."""
        return bisect.bisect_right(self.ends, char)

    def sentence_of_char(self, char: int) -> int:
        return self.tokens.sentence_of(min(self.token_at(char), len(self.ends) - 1))

    def sentence_chars(self, k: int) -> tuple[int, int]:
        """The character range of sentence ``k``."""
        a, b = self.tokens.sents[k]
        return self.tokens.idx[a], self.ends[b - 1]

    def covering(self, start: int, end: int) -> list[Mention]:
        """The mentions whose extent covers ``[start, end)``, smallest first."""
        found = [m for m in self.mentions if m.start <= start and end <= m.end]
        found.sort(key=lambda m: m.end - m.start)
        return found


EXTRA_RULE = "roles:extra_action"  # the rule of an action added from the role table


def role_context(doc: Doc, extra: dict[str, str] | None = None) -> RoleContext:
    """The :class:`RoleContext` of a Doc that went through the chemie pipeline; ``extra``
    maps action words the parser does not know to their class (actions made here, for the
    roles only: ``doc._.actions`` is not changed)."""
    table = token_table(doc)
    ends = [i + len(t) for i, t in zip(table.idx, table.text, strict=True)]
    idx = table.idx
    chemicals = []
    spans = doc.spans.get("chemicals") if doc.spans is not None else None
    if spans:
        chemicals = sorted((idx[s.start], ends[s.end - 1]) for s in spans)
    mentions = sorted(mentions_of(doc), key=lambda m: (m.start, -m.end))
    actions, headings = [], []
    for a in actions_of(doc):
        (headings if a.label == HEADING else actions).append(a)
    if extra:
        taken = {a.start for a in actions} | {a.start for a in headings}
        for i, low in enumerate(table.lower):
            label = extra.get(low)
            if label is not None and table.idx[i] not in taken:
                start = table.idx[i]
                actions.append(Action(label, start, ends[i], table.sentence_of(i), EXTRA_RULE))
    actions.sort(key=lambda a: a.start)
    info = doc.user_data.get("chemie.token_info")
    classes = "".join(info[1]) if info is not None and len(info[1]) == len(ends) else ""
    ctx = RoleContext(doc_text(doc), table, ends, chemicals, classes, mentions, actions,
                      headings)
    ctx.action_starts = [a.start for a in actions]
    ctx.mention_by_id = {m.id: m for m in mentions}
    for a in actions:
        for role, ids in a.args.items():
            for mid in ids:
                ctx.argument_of.setdefault(mid, []).append((a, role))
    for r in relations_of(doc):
        if r.label == "COREFERENCE":
            ctx.coreferent.setdefault(r.head, []).append(r.tail)
    return ctx
