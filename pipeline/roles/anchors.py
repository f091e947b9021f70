"""Where a quantity or a condition may start: numbers by the unit after them, and words.

Scanning the whole text with each pattern costs more than the rest of the role labeller;
the patterns are tried only where they can match instead: at a number whose unit (the
token after it, or the rest of its own token: "16h", "25°C") is one of the rule's units,
and at the rule's words. A range ("2-3 h", "0 to 5 °C") anchors at its first number.
"""

from __future__ import annotations

import operator
from collections import defaultdict
from itertools import compress

import regex

from chemie.roles.context import RoleContext

_DIGITS = frozenset("0123456789")
_SIGNS = frozenset("−–-")
_RANGE = frozenset(("-", "–", "to", "~", "and"))


_NUMBER = regex.compile(r"[−–-]?\d*(?:[.,\-–]\d+)*")
_FIRST = operator.itemgetter(0)
# word -> the unit glued to the number it starts with ("16h" -> "h", "25" -> ""); grows with
# the vocabulary, as spaCy's does, up to a limit
_UNITS: dict[str, str] = {}
_CACHE_LIMIT = 200_000


def _numeric_end(word: str) -> int:
    """The length of the number that ``word`` starts with ("16h" -> 2, "−78" -> 3)."""
    return _NUMBER.match(word).end()


def _glued_unit(word: str) -> str:
    """What follows the number that the lowercased ``word`` starts with."""
    unit = _UNITS.get(word)
    if unit is None:
        if len(_UNITS) >= _CACHE_LIMIT:
            _UNITS.clear()
        unit = _UNITS[word] = word[_numeric_end(word) :]
    return unit


class Anchors:
    """Candidate start characters of a document's quantities, by unit, and of its words."""

    def __init__(self, ctx: RoleContext, words: frozenset[str]):
        tokens = ctx.tokens
        text, lower, idx = tokens.text, tokens.lower, tokens.idx
        n = len(text)
        self.by_unit: dict[str, list[int]] = defaultdict(list)
        firsts = list(map(_FIRST, text))
        for i in compress(range(n), map(_DIGITS.__contains__, firsts)):
            self._number(text, lower, idx, firsts, i)
        for i in compress(range(n), map(_SIGNS.__contains__, firsts)):
            w = text[i]
            if len(w) > 1 and w[1] in _DIGITS:  # "−78" as one token
                unit = _glued_unit(lower[i])
                j = i + 1
                while not unit and j < n:
                    unit = lower[j] if not lower[j].isspace() else ""
                    j += 1
                self.by_unit[unit].append(idx[i])
        self.by_word: dict[str, list[int]] = defaultdict(list)
        for i in compress(range(n), map(words.__contains__, lower)):
            self.by_word[lower[i]].append(idx[i])

    def _number(self, text: list[str], lower: list[str], idx: list[int], firsts: list[str],
                i: int) -> None:
        """File the number token ``i`` under its unit: the rest of its token ("16h"), else
        the token after it (a no-break space skipped), or after a range ("2 - 3 h", "0 to
        5 °C")."""
        start = idx[i]
        if i and text[i - 1] in _SIGNS and idx[i - 1] + 1 == start:
            start = idx[i - 1]  # "−", "78": a sign of its own
        unit = _glued_unit(lower[i])
        j, n = i, len(text)
        while not unit and j + 1 < n:
            nxt = lower[j + 1]
            if nxt.isspace():  # "16\u00a0h": a no-break space is a token of its own
                j += 1
                continue
            if nxt in _RANGE and j + 2 < n and firsts[j + 2] in _DIGITS:
                j += 2
                unit = _glued_unit(lower[j])
                continue
            unit = nxt
        self.by_unit[unit].append(start)

    def starts(self, units: frozenset[str], words: frozenset[str] = frozenset()) -> list[int]:
        """The sorted candidate starts for numbers with one of ``units`` and ``words``."""
        out: list[int] = []
        for u, starts in self.by_unit.items():
            if u in units:
                out.extend(starts)
        for w, starts in self.by_word.items():
            if w in words:
                out.extend(starts)
        out.sort()
        return out
