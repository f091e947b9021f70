"""The compound rules of the table compiled into decision functions, one per kind of compound.

The first rule (in table order) whose conditions all hold gives a compound its label and the
rule's name. The conditions that cost nothing to know about a compound (its place, phase,
whether it is a reference or a state, whether a yield follows, its lexicon role, the labels of
the relations to its mention) make its *key*; for each key met, the rules are compiled once
into one function in which those conditions are already decided: a rule one of them fails is
left out, and a rule they satisfy entirely ends the function. The other conditions are tested
in the order of their cost, cheapest first: word lists, the compound's action, the word before
it, named patterns over its name (remembered per name: a name's patterns are tested once),
then patterns over the text around it. The generated source holds only the attribute names
below and constants ``c0, c1 …`` bound from the table: no text of the table becomes code.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import regex

from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import RoleTable

Decision = Callable[["Facts"], "tuple[str, str] | None"]
# conditions decided by the key, and the order of the others (cheapest first)
_KEYED = ("place", "phase", "reference", "state", "yield_after", "lexicon", "linked")
_COST = {"words": 0, "not_words": 0, "arg": 1, "action": 1, "verb": 2, "after": 3,
         "pattern": 4, "raw_pattern": 4, "next": 5, "before": 6, "bracketed": 7}
_EMPTY: frozenset[str] = frozenset()
_MEMO_LIMIT = 200_000  # names remembered per pattern before the memory starts afresh


class Facts:
    """What the compound rules test about one compound span."""

    __slots__ = ("ctx", "f", "skipped", "place", "phase", "reference", "state", "text",
                 "lexicon", "stated", "name_start", "name_end", "linked", "_after")

    def __init__(self, ctx: RoleContext, f: Found, skipped: frozenset[str], place: str,
                 phase: str, start: int, end: int, text: str, lexicon: str | None,
                 stated: bool, linked: frozenset[str] | set[str]):
        self.ctx, self.f, self.skipped = ctx, f, skipped
        self.name_start, self.name_end = start, end
        self.place, self.phase, self.text, self.lexicon = place, phase, text, lexicon
        kind = f.kind
        self.reference = kind == "reference"
        self.state = kind == "state"
        self.stated = stated
        self.linked = linked  # labels of the relations pointing to its mention
        self._after: str | None = None

    def after(self) -> str:
        """The lowercased word governing the compound: the nearest token before it that is
        not an amount, a unit, "of", a determiner or a modifier (up to 8 tokens)."""
        if self._after is None:
            tokens, skipped = self.ctx.tokens, self.skipped
            i = self.ctx.token_at(self.f.start) - 1
            word = ""
            for _ in range(8):
                if i < 0:
                    break
                low = tokens.lower[i]
                if low in skipped or low.replace(".", "").replace(",", "").isdigit():
                    i -= 1
                    continue
                word = low
                break
            self._after = word
        return self._after

    def bracketed(self) -> bool:
        """Whether the compound stands alone in brackets ("( 27 )", "(Compound 27)")."""
        text, start, end = self.ctx.text, self.f.start, self.f.end
        after = text[end : end + 3].lstrip()
        return after.startswith(")") and _open_before(text[max(0, start - 12) : start].rstrip())

    def before(self) -> str:
        """The 40 characters before the compound."""
        return self.ctx.text[max(0, self.f.start - 40) : self.f.start]

    def raw(self) -> str:
        """The compound's name as written (without a modifier or "aqueous")."""
        return self.ctx.text[self.name_start : self.name_end]

    def next(self) -> str:
        """The 40 characters after the compound."""
        return self.ctx.text[self.f.end : self.f.end + 40]

    def has_role(self, want: frozenset[str]) -> bool:
        return any(role in want for _, role in self.f.links)

    def has_action(self, want: frozenset[str]) -> bool:
        return any(a.label in want for a, _ in self.f.links)

    def has_verb(self, want: frozenset[str]) -> bool:
        text = self.ctx.text
        return any(text[a.start : a.end].lower() in want for a, _ in self.f.links)


def _open_before(before: str) -> bool:
    """Whether ``before`` ends with "(" or "(Compound" / "(cpd." (and spaces)."""
    if before.endswith("("):
        return True
    low = before.lower()
    for word in ("compound", "cpd.", "cpd"):
        if low.endswith(word) and low[: -len(word)].rstrip().endswith("("):
            return True
    return False


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


class Decider:
    """The table's compound rules: Facts -> (label, rule name) or None (no rule holds)."""

    def __init__(self, table: RoleTable):
        self.table = table
        # the relation labels some rule asks for (the rest leave the key unchanged)
        self.linked_labels = frozenset().union(
            *(r.when.linked for r in table.compounds if r.when.linked is not None))
        self._memos = {name: _memo(p) for name, p in table.compiled.items()}
        self._by_key: dict[Hashable, Decision] = {}

    def __call__(self, facts: Facts) -> tuple[str, str] | None:
        linked = facts.linked
        if linked:
            linked = frozenset(self.linked_labels.intersection(linked))
        key = (facts.place, facts.phase, facts.reference, facts.state, facts.stated,
               facts.lexicon, linked or _EMPTY)
        decide = self._by_key.get(key)
        if decide is None:
            decide = self._by_key[key] = self._compile(key)
        return decide(facts)

    def _keyed(self, cond: str, want: Any, key: tuple) -> bool:
        """A keyed condition decided for ``key``."""
        place, phase, reference, state, stated, lexicon, linked = key
        if cond == "place":
            return place == want
        if cond == "phase":
            return phase == want
        if cond == "reference":
            return reference == bool(want)
        if cond == "state":
            return state == bool(want)
        if cond == "yield_after":
            return stated == bool(want)
        if cond == "lexicon":
            return lexicon in want
        return not linked.isdisjoint(want)  # "linked"

    def _condition(self, cond: str, want: Any) -> tuple[str, Any]:
        """The source of one condition that the key leaves open (``{c}`` stands for its
        constant) and that constant."""
        words = self.table.words
        if cond == "bracketed":
            return ("F.bracketed()" if want else "not F.bracketed()"), None
        if cond == "arg":
            return "F.has_role({c})", frozenset(want)
        if cond == "action":
            return "F.has_action({c})", frozenset(want)
        if cond == "verb":
            return "F.has_verb({c})", frozenset(str(w).lower() for w in want)
        if cond == "after":
            return "F.after() in {c}", frozenset(str(w).lower() for w in want)
        if cond == "words":
            return "F.text in {c}", words[want]
        if cond == "not_words":
            return "F.text not in {c}", words[want]
        if cond == "pattern":
            return "{c}(F.text)", self._memos[want]
        if cond == "raw_pattern":
            return "{c}(F.raw())", self._memos[want]
        if cond == "before":
            return "{c}.search(F.before()) is not None", self.table.compiled[want]
        if cond == "next":
            return "{c}.match(F.next()) is not None", self.table.compiled[want]
        raise KeyError(cond)  # the table loader admits no other key

    def _compile(self, key: tuple) -> Decision:
        """The decision function of the compounds of ``key``."""
        namespace: dict[str, Any] = {}
        lines = ["def decide(F):"]
        for rule in self.table.compounds:
            when = dict(rule.when.items())
            if not all(self._keyed(c, when[c], key) for c in _KEYED if c in when):
                continue
            tests = []
            for cond in sorted((c for c in when if c not in _KEYED), key=_COST.__getitem__):
                source, const = self._condition(cond, when[cond])
                name = f"c{len(namespace)}"
                namespace[name] = const
                tests.append(source.format(c=name))
            result = f"c{len(namespace)}"
            namespace[result] = (rule.label, rule.name)
            if not tests:
                lines.append(f"    return {result}")
                break
            lines.append(f"    if {' and '.join(tests)}:")
            lines.append(f"        return {result}")
        else:
            lines.append("    return None")
        exec("\n".join(lines), namespace)  # noqa: S102 - source made above from names only
        return namespace["decide"]
