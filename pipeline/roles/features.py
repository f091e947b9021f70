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
    """What the rules name, for :func:`features_of`: each name of the named word lists -> the
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


def features_of(ctx: RoleContext, f: Found, index: FeatureIndex, heading: int,
                steps: list[int], lexicon: dict[str, str]) -> Compound:
    """The :class:`Compound` of span ``f`` (whose mention, links and action are set here
    from the smallest covering mention named by an action; ``steps``: where the step
    headings of the heading end)."""
    linked: frozenset[str] | set[str] = _EMPTY
    covering = ctx.covering(f.start, f.end)
    if covering:
        linked = _link(ctx, f, covering)
        if linked:
            linked = index.linked.intersection(linked)
    action = f.action
    phase = (ctx.phase_of.get(id(action), action.phase) if action is not None
             else phase_near(ctx, f.start))
    end = f.aqueous_tail if f.aqueous_tail >= 0 else f.end
    start = f.start
    if f.aqueous > start:
        start = f.aqueous
    if f.core > start:
        start = f.core
    low = ctx.lower_text
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
        actions = index.one_action.get(a.label, _EMPTY)
        verbs = index.one_verb.get(low[a.start : a.end], _EMPTY)
        roles = index.one_role.get(role, _EMPTY)
    else:
        actions = index.actions.intersection([a.label for a, _ in links])
        verbs = index.verbs.intersection([low[a.start : a.end] for a, _ in links])
        roles = index.roles.intersection([r for _, r in links])
    name = text if " " not in text else " ".join(text.split())
    # (tuple.__new__: a NamedTuple's own __new__ is Python code, three times slower)
    features = _new(Features, (place, phase, f.kind, lexicon.get(name, ""), linked or _EMPTY,
                               index.lists.get(text, _EMPTY), actions, roles, verbs))
    return Compound(f, features, start, end, text, ctx.text, low)


def _link(ctx: RoleContext, f: Found, covering: list) -> frozenset[str] | set[str]:
    """Set the mention of ``f`` (the smallest covering one) and its links (the actions naming
    the smallest covering mention that an action names, participles that name no step left
    out); the labels of the relations pointing to the mention."""
    linked: frozenset[str] | set[str] = _EMPTY
    argument_of, modifying = ctx.argument_of, ctx.modifiers
    for m in covering:
        if f.mention is None:
            f.mention = m.id
            linked = ctx.linked.get(m.id, linked)
        hits = argument_of.get(m.id)
        if hits and modifying:
            # "the residue obtained": a participle that names no step
            hits = [h for h in hits if id(h[0]) not in modifying]
        if hits:
            f.links = hits
            f.action, f.role = hits[-1]
            break
    return linked


def phase_near(ctx: RoleContext, char: int) -> str:
    """The phase of the action nearest before ``char`` in its sentence, else the phase of the
    next action in the sentence, else of the last action before it, else "reaction"."""
    k = bisect.bisect_right(ctx.action_starts, char)
    sentence = ctx.sentence_of_char(char)
    if k > 0 and ctx.actions[k - 1].sentence == sentence:
        return ctx.phase(ctx.actions[k - 1])
    if k < len(ctx.actions) and ctx.actions[k].sentence == sentence:
        return ctx.phase(ctx.actions[k])
    return ctx.phase(ctx.actions[k - 1]) if k > 0 else "reaction"
