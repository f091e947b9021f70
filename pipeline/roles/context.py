"""What the role rules read about a Doc, gathered once: tokens, NER chemicals, mentions,
actions (with the mention each argument names) and the end of the heading."""

from __future__ import annotations

import bisect
import operator
from dataclasses import dataclass, field
from itertools import compress

from spacy.tokens import Doc

from chemie.components.actions import HEADING, TokenTable, token_table
from chemie.components.mentions.document import doc_text
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
        mentions, starts, ends = self.mentions, self.mention_starts, self.mention_ends
        found = []
        for k in range(bisect.bisect_right(starts, start) - 1, -1, -1):
            if starts[k] < end - self.longest:
                break  # no mention starting this early reaches the end
            if ends[k] >= end:
                found.append(mentions[k])
        if len(found) > 1:
            found.sort(key=lambda m: m.end - m.start)
        return found


def _text(doc: Doc, table: TokenTable) -> str:
    """``doc.text`` from the token table: each token padded with spaces up to the next one
    (a gap between tokens is spaces; other whitespace is a token of its own)."""
    text = doc.user_data.get("chemie.text")
    if text is not None:
        return text
    idx, words = table.idx, table.text
    if not words:
        return doc_text(doc)
    widths = list(map(operator.sub, idx[1:], idx[:-1]))
    widths.append(len(words[-1]))  # (a space after the last token is left out)
    return "".join(map(str.ljust, words, widths))


_POSITION = operator.attrgetter("start")
EXTRA_RULE = "roles:extra_action"  # the rule of an action added from the role table


def role_context(doc: Doc, extra: dict[str, str] | None = None) -> RoleContext:
    """The :class:`RoleContext` of a Doc that went through the chemie pipeline; ``extra``
    maps action words the parser does not know to their class (actions made here, for the
    roles only: ``doc._.actions`` is not changed)."""
    table = token_table(doc)
    idx = table.idx
    ends = list(map(operator.add, idx, map(len, table.text)))
    # the NER's chemicals as chemie_mentions cached them (token start, end, class)
    found = doc.user_data.get("chemie.chemicals")
    if found is None:
        spans = doc.spans.get("chemicals") if doc.spans is not None else None
        found = sorted((s.start, s.end, s.label_) for s in spans) if spans else []
    chemicals = [(idx[a], ends[b - 1]) for a, b, _ in found]
    mentions = mentions_of(doc)
    starts = [m.start for m in mentions]
    if not all(map(operator.lt, starts, starts[1:])):  # usually in text order already
        mentions = sorted(mentions, key=_POSITION)
        starts = [m.start for m in mentions]
    else:
        mentions = list(mentions)
    actions, headings = [], []
    for a in actions_of(doc):
        (headings if a.label == HEADING else actions).append(a)
    if extra and not extra.keys().isdisjoint(table.lower):
        taken = {a.start for a in actions} | {a.start for a in headings}
        lower = table.lower
        for i in compress(range(len(lower)), map(extra.__contains__, lower)):
            start = idx[i]
            if start not in taken:
                actions.append(Action(extra[lower[i]], start, ends[i], table.sentence_of(i),
                                      EXTRA_RULE))
    actions.sort(key=lambda a: a.start)
    info = doc.user_data.get("chemie.token_info")
    classes = info[1] if info is not None and len(info[1]) == len(ends) else ""
    if not isinstance(classes, str):
        classes = "".join(classes)
    ctx = RoleContext(_text(doc, table), table, ends, chemicals, classes, mentions, actions,
                      headings)
    lower = ctx.text.lower()
    if len(lower) != len(ctx.text):  # a character whose lower case is longer ("İ")
        lower = "".join(c if len(c.lower()) != 1 else c.lower() for c in ctx.text)
    ctx.lower_text = lower
    ctx.action_starts = [a.start for a in actions]
    ctx.mention_by_id = {m.id: m for m in mentions}
    ctx.mention_starts = starts
    ctx.mention_ends = [m.end for m in mentions]
    ctx.longest = max(map(operator.sub, ctx.mention_ends, ctx.mention_starts), default=0)
    for r in relations_of(doc):
        ctx.linked.setdefault(r.tail, set()).add(r.label)
        if r.label == "COREFERENCE":
            ctx.antecedents.setdefault(r.head, []).append(r.tail)
    for a in actions:
        for role, ids in a.args.items():
            for mid in ids:
                ctx.argument_of.setdefault(mid, []).append((a, role))
    return ctx
