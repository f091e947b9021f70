"""What the compound rules read about a compound span, computed once per compound.

:class:`Features` are the facts a rule may test without the text (the rules' cache key:
:class:`chemie.roles.rules.RuleBook` decides the feature rules once per distinct set), and
:class:`Compound` adds the span, its name and the text around it for the text rules.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from chemie.model import Mention
from chemie.roles.context import RoleContext
from chemie.roles.found import Found

_EMPTY: frozenset[str] = frozenset()
_new = tuple.__new__


class Features(NamedTuple):
    """What a compound rule may test about a compound without reading the text. The sets
    keep only what some rule names (a word list, an action class, a verb, a relation
    label), so that few distinct feature sets occur."""

    place: str  # "title" (a heading before a step heading), "heading" or "body"
    phase: str  # "reaction" or "workup": the phase of its action or of the nearest one
    kind: str  # "compound", "reference" ("the title compound") or "state" ("a solid")
    lexicon: str  # its most frequent role in the development documents, or ""
    linked: frozenset[str]  # labels of the relations pointing to its mention
    lists: frozenset[str]  # the word lists that hold its (lowercased) name
    actions: frozenset[str]  # classes of the actions naming its mention
    roles: frozenset[str]  # its argument roles in those actions
    verbs: frozenset[str]  # the words of those actions


@dataclass(slots=True)
class Compound:
    """A compound span, its features, and its name's characters (without a kept modifier,
    "aqueous" before or after it)."""

    span: Found
    f: Features
    start: int
    end: int
    text: str  # the name, lowercased
    source: str  # the document's text
    lower: str  # ... lowercased

    @property
    def raw(self) -> str:
        """The name as written."""
        return self.source[self.start : self.end]

    @property
    def before(self) -> str:
        """The 40 characters before the span."""
        start = self.span.start
        return self.source[max(0, start - 40) : start]

    @property
    def next(self) -> str:
        """The 40 characters after the span."""
        end = self.span.end
        return self.source[end : end + 40]

    @property
    def before_lower(self) -> str:
        """:attr:`before`, lowercased."""
        start = self.span.start
        return self.lower[max(0, start - 40) : start]

    @property
    def next_lower(self) -> str:
        """:attr:`next`, lowercased."""
        end = self.span.end
        return self.lower[end : end + 40]



class FeatureIndex:
    """What the rules name, for :func:`compound_features`: each name of the named word lists -> the
    lists holding it, and the action classes, verbs, argument roles and relation labels
    (each as a one-element set, the common case of one action naming a compound)."""

    def __init__(self, words: dict[str, frozenset[str]], entries: Iterable[object]):
        entries = list(entries)
        named = {getattr(e, k) for e in entries for k in ("words", "not_words")
                 if getattr(e, k, None) is not None}
        index: dict[str, set[str]] = {}
        for name in sorted(named):
            for w in words[name]:
                index.setdefault(w, set()).add(name)
        self.lists = {w: frozenset(v) for w, v in index.items()}
        self.actions = _union(entries, "actions")
        self.verbs = _union(entries, "verbs")
        self.roles = _union(entries, "arg")
        self.linked = _union(entries, "linked")
        self.one_action = {w: frozenset((w,)) for w in self.actions}
        self.one_verb = {w: frozenset((w,)) for w in self.verbs}
        self.one_role = {w: frozenset((w,)) for w in self.roles}


def _union(entries: list[object], key: str) -> frozenset[str]:
    return frozenset().union(*(getattr(e, key) for e in entries
                               if getattr(e, key, None) is not None))


def compound_features(ctx: RoleContext, spans: list[Found], index: FeatureIndex,
                      heading: int, steps: list[int], lexicon: dict[str, str]
                      ) -> list[Compound]:
    """The :class:`Compound` of each span of ``spans`` (in text order), in one pass over the
    document: each span's mention, links and action are set here from the mentions covering
    it (the smallest covering mention named by an action) and its phase from its action or
    the action nearest to it (``steps``: where the step headings of the heading end)."""
    low, source = ctx.lower_text, ctx.text
    m_starts, m_ends, mentions = ctx.mention_starts, ctx.mention_ends, ctx.mentions
    longest, linked_of = ctx.longest, ctx.linked
    near = _PhaseNear(ctx)
    one_action, one_verb, one_role = index.one_action, index.one_verb, index.one_role
    lists_of, lexicon_of, index_linked = index.lists.get, lexicon.get, index.linked
    bisect_right = bisect.bisect_right
    out = []
    for f in spans:
        start, end = f.start, f.end
        linked: frozenset[str] | set[str] = _EMPTY
        # the mentions covering the span, smallest first
        k = bisect_right(m_starts, start) - 1
        if k >= 0:
            earliest = end - longest  # no mention starting before it reaches the end
            covering = []
            while k >= 0 and m_starts[k] >= earliest:
                if m_ends[k] >= end:
                    covering.append(k)
                k -= 1
            if covering:
                if len(covering) > 1:
                    covering.sort(key=lambda k: m_ends[k] - m_starts[k])
                linked = _link(ctx, f, [mentions[k] for k in covering], linked_of)
                if linked:
                    linked = index_linked.intersection(linked)
        action = f.action
        phase = (ctx.phase_of.get(id(action), action.phase) if action is not None
                 else near.phase(start))
        if f.aqueous_tail >= 0:
            end = f.aqueous_tail
        if f.aqueous > start:
            start = f.aqueous
        if f.core > start:
            start = f.core
        text = low[start:end]
        place = "body"
        if f.start < heading:
            place = "heading"
            k = bisect.bisect_left(steps, f.end)
            if k < len(steps) and text not in low[steps[k] : heading]:
                place = "title"  # "Intermediate 62: NAME Step A: NAME2": NAME is the target
        links = f.links
        if not links:
            actions = verbs = roles = _EMPTY
        elif len(links) == 1:
            a, role = links[0]
            actions = one_action.get(a.label, _EMPTY)
            verbs = one_verb.get(low[a.start : a.end], _EMPTY)
            roles = one_role.get(role, _EMPTY)
        else:
            actions = index.actions.intersection([a.label for a, _ in links])
            verbs = index.verbs.intersection([low[a.start : a.end] for a, _ in links])
            roles = index.roles.intersection([r for _, r in links])
        name = text if " " not in text else " ".join(text.split())
        # (tuple.__new__: a NamedTuple's own __new__ is Python code, three times slower)
        features = _new(Features, (place, phase, f.kind, lexicon_of(name, ""), linked or _EMPTY,
                                   lists_of(text, _EMPTY), actions, roles, verbs))
        out.append(Compound(f, features, start, end, text, source, low))
    return out


def _link(ctx: RoleContext, f: Found, covering: list[Mention],
          linked_of: dict[str, set[str]]) -> frozenset[str] | set[str]:
    """Set the mention of ``f`` (the smallest covering one) and its links (the actions naming
    the smallest covering mention that an action names, participles that name no step left
    out); the labels of the relations pointing to the mention."""
    linked: frozenset[str] | set[str] = _EMPTY
    argument_of, modifying = ctx.argument_of, ctx.modifiers
    for m in covering:
        if f.mention is None:
            f.mention = m.id
            linked = linked_of.get(m.id, linked)
        hits = argument_of.get(m.id)
        if hits and modifying:
            # "the residue obtained": a participle that names no step
            hits = [h for h in hits if id(h[0]) not in modifying]
        if hits:
            f.links = hits
            f.action, f.role = hits[-1]
            break
    return linked


class _PhaseNear:
    """The phase of the action nearest to a character (for a span no action names)."""

    __slots__ = ("ctx", "starts", "actions", "bounds")

    def __init__(self, ctx: RoleContext):
        self.ctx = ctx
        self.starts, self.actions = ctx.action_starts, ctx.actions
        # the character where each sentence but the first starts to count: the end of the
        # token before it (a character at or after it is in that sentence or a later one)
        ends = ctx.ends
        self.bounds = [ends[s - 1] if s else -1 for s in ctx.tokens.starts[1:]]

    def phase(self, char: int) -> str:
        """The phase of the action nearest before ``char`` in its sentence, else the phase of
        the next action in the sentence, else of the last action before it, else
        "reaction"."""
        actions = self.actions
        k = bisect.bisect_right(self.starts, char)
        sentence = bisect.bisect_right(self.bounds, char)
        phase_of = self.ctx.phase_of
        if k > 0 and actions[k - 1].sentence == sentence:
            a = actions[k - 1]
        elif k < len(actions) and actions[k].sentence == sentence:
            a = actions[k]
        elif k > 0:
            a = actions[k - 1]
        else:
            return "reaction"
        return phase_of.get(id(a), a.phase)
