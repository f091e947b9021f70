"""Yields: the amounts and percentages stated for a product (YIELD_OTHER, YIELD_PERCENT)."""

from __future__ import annotations

import bisect

import regex

from chemie.roles.context import RoleContext
from chemie.roles.found import Found

# "383 mg (42% of theory) of the title compound", "1.2 g of X": an amount before "of"
_OF_BEFORE = regex.compile(r"\bof\s+(?:the\s+|pure\s+|a\s+)?$")
# "Yield: 66%", "with a yield of 28%", "in 3.2% yield", "yield 84%"
_YIELD_WORD = regex.compile(r"(?i)\byield")
_MAX_BRACKET = 120


def bracket_after(text: str, end: int) -> tuple[int, int] | None:
    """The bracket right after character ``end`` (spaces and an amount between allowed:
    "X 34 mg (yield 84%)"), as (open, close+1), or None."""
    i = end
    n = len(text)
    while i < n and text[i] == " ":
        i += 1
    if i < n and text[i] != "(":
        return None
    if i >= n:
        return None
    depth = 0
    for j in range(i, min(n, i + _MAX_BRACKET)):
        c = text[j]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i, j + 1
    return None


class YieldFinder:
    """Links amounts and percentages to the compounds they are stated for."""

    def __init__(self, ctx: RoleContext, amounts: list[Found], percents: list[Found]):
        self.ctx = ctx
        self.amounts = amounts
        self.percents = percents
        self.amount_starts = [f.start for f in amounts]
        self.percent_starts = [f.start for f in percents]

    def _within(self, found: list[Found], starts: list[int], a: int, b: int) -> list[Found]:
        i = bisect.bisect_left(starts, a)
        out = []
        while i < len(found) and found[i].end <= b:
            out.append(found[i])
            i += 1
        return out

    def after(self, f: Found) -> tuple[list[Found], list[Found]]:
        """The amounts and percentages in the bracket after compound ``f`` (an amount between
        the name and the bracket included)."""
        text = self.ctx.text
        end = f.end
        lead = [a for a in self.amounts if a.start >= end and text[end : a.start].strip() == ""]
        if lead:
            end = lead[0].end
        bracket = bracket_after(text, end)
        if bracket is None:
            return lead[:1], []
        a, b = bracket
        return (lead[:1] + self._within(self.amounts, self.amount_starts, a, b),
                self._within(self.percents, self.percent_starts, a, b))

    def before(self, f: Found) -> tuple[list[Found], list[Found]]:
        """"383 mg (42% of theory) of the title compound": the amount before "of" and the
        percentages in the bracket between."""
        text = self.ctx.text
        m = _OF_BEFORE.search(text, max(0, f.start - 20), f.start)
        if m is None:
            return [], []
        stop = m.start()
        i = bisect.bisect_left(self.amount_starts, stop) - 1
        while i >= 0 and self.amounts[i].end > stop:
            i -= 1
        if i < 0:
            return [], []
        amount = self.amounts[i]
        between = text[amount.end : stop].strip()
        if between and not (between.startswith("(") and between.endswith(")")):
            return [], []
        return [amount], self._within(self.percents, self.percent_starts, amount.end, stop)

    def has_yield_after(self, f: Found) -> bool:
        """Whether a bracket after ``f`` states a yield (a percentage with an amount, or the
        word "yield")."""
        amounts, percents = self.after(f)
        return bool(percents) and bool(amounts)

    def sentence_percent(self, f: Found) -> list[Found]:
        """A percentage called a yield later in the sentence of ``f`` ("... yield: 66%")."""
        k = self.ctx.sentence_of_char(f.start)
        _, send = self.ctx.sentence_chars(k)
        text = self.ctx.text
        for p in self._within(self.percents, self.percent_starts, f.end, send + 1):
            window = text[max(f.end, p.start - 25) : p.end + 8]
            if _YIELD_WORD.search(window):
                return [p]
        return []
