"""Yields: the amounts (YIELD_OTHER) and percentages (YIELD_PERCENT) stated for a product.

Seven builtin rules (named in ``rules/roles.yaml``):

- ``yield_bracket``: a bracket with an amount and a yield percentage, wherever it stands
  ("as a white solid (0.25 g, 1.2 mmol, 77%)"); not a bracket of equivalents or purity;
- ``yield_word``: a percentage called a yield ("yield: 66%", "in 97% yield", "42% of
  theory") and the amount after "Yield:";
- ``product_yield``: the amounts in the bracket after a product ("the crude product
  (0.44 g)") or before it ("383 mg (42%) of the title compound");
- ``described_yield``: the amounts in the bracket after the state that describes a product
  ("X as a colorless liquid (2.615 g)");
- ``amount_percent``: the percentage opening the bracket after such an amount ("Yield:
  870.7 mg (70%)");
- ``yield_neighbour``: the amount right before a percentage called a yield ("180 mg, 54%
  yield") or in the bracket right after it ("91% (16.5 g)");
- ``yield_amount``: the amount a step gives ("to give 2.5 g of the target compound",
  "1.3 g of a white solid was obtained").
"""

from __future__ import annotations

import bisect

import regex

from chemie.roles.conditions import OF_AFTER
from chemie.roles.context import RoleContext
from chemie.roles.found import Found

# "383 mg (42% of theory) of the title compound", "1.2 g of X", "7.2 g of Compound 17": an
# amount before "of"
_OF_BEFORE = regex.compile(r"\bof\s+(?:the\s+|pure\s+|a\s+)?(?:[Cc]ompound\s+)?$")
# a yield named next to a percentage: "yield: 66%", "66% yield", "yield of 28%", "of theory"
_YIELD_BEFORE = regex.compile(r"(?i)(?:yield|yielded|yielding)\s*(?:[:=]|of|was|is)?\s*"
                              r"(?:about|approximately|ca\.|greater than|~)?\s*$")
_YIELD_AFTER = regex.compile(r"(?i)^\s*\)?\s*(?:yield|of theory|of the theoretical)")
# "Yield: 530 mg", "Mass: 0.55g": the amount after
_AMOUNT_AFTER_WORD = regex.compile(r"(?i)\b(?:yield|mass)\s*[:=]?\s*$")
# a bracket of a reactant: equivalents, a purity or a volume, not a yield
_NOT_YIELD = regex.compile(r"(?i)\beq\b|\bequiv|purity|\bwt\b|w/w|dispersion|\d\s?[mμµ]?[lL]\b")
_NOT_YIELD_BUT_PURITY = regex.compile(
    r"(?i)\beq\b|\bequiv|\bwt\b|w/w|dispersion|\d\s?[mμµ]?[lL]\b")
# "give 2.5 g of", "obtain 3.13 g of": an amount right after a verb of a product obtained
_AFTER_VERB = regex.compile(r"^\s+(?:about\s+|approximately\s+)?$")
_STATE = regex.compile(r"^\s+of\s+(?:a|an|the)?\s*(?:\w+\s+){0,3}?(?:solid|oil|powder|foam|"
                       r"crystals?|gum|liquid|syrup|wax|glass)\b")
# "X as a colorless liquid (2.615 g)": the state that describes a product before its bracket
_AS_STATE = regex.compile(r"\s+as\s+(?:an?\s+)?(?:[\w-]+\s+){0,4}?(?:solid|oil|powder|foam|"
                          r"crystals?|gum|liquid|syrup|wax|glass)\b")
# between an amount and the yield after it: ", ", " (", ": "
_NEIGHBOUR_GAP = regex.compile(r"\s?[,(:]?\s?\(?")
_MAX_BRACKET = 120
# ", (": a comma, then a bracket
_COMMA_BRACKET = regex.compile(r"\s?,\s?\(")
# a compound's label in brackets: "(8)", "(Q-C)", "(F1130)"
_LABEL_BRACKET = regex.compile(r"\([^()\s,;]{1,8}\)")
_PAREN = regex.compile(r"[()]")


def bracket_pairs(text: str) -> tuple[list[tuple[int, int]], dict[int, int]]:
    """The outermost bracket pairs ``(open, close+1)`` of the text (a bracket longer than
    120 characters or never closed is left out), and the close+1 of every bracket by its
    opening (nested ones too)."""
    outer: list[tuple[int, int]] = []
    close: dict[int, int] = {}
    stack: list[int] = []
    for m in _PAREN.finditer(text):
        i = m.start()
        if text[i] == "(":
            stack.append(i)
        elif stack:
            a = stack.pop()
            if i + 1 - a <= _MAX_BRACKET:
                close[a] = i + 1
                if not stack:
                    outer.append((a, i + 1))
    return outer, close


class YieldFinder:
    """Finds the amounts and percentages of yields among the text's quantities."""

    def __init__(self, ctx: RoleContext, amounts: list[Found], percents: list[Found]):
        self.ctx = ctx
        self.amounts = amounts
        self.percents = percents
        self.amount_starts = [f.start for f in amounts]
        self.percent_starts = [f.start for f in percents]
        self.outer, self.close = bracket_pairs(ctx.text) if "(" in ctx.text else ([], {})
        self._after: dict[int, tuple[list[Found], list[Found]]] = {}  # by the compound's end

    def bracket_after(self, end: int) -> tuple[int, int] | None:
        """The bracket right after character ``end`` (spaces between): (open, close+1)."""
        text = self.ctx.text
        i = end
        while i < len(text) and text[i] == " ":
            i += 1
        close = self.close.get(i)
        return None if close is None else (i, close)

    def _within(self, found: list[Found], starts: list[int], a: int, b: int) -> list[Found]:
        i = bisect.bisect_left(starts, a)
        out = []
        while i < len(found) and found[i].end <= b:
            out.append(found[i])
            i += 1
        return out

    def _yield_percent(self, p: Found) -> bool:
        text = self.ctx.text
        return bool(_YIELD_BEFORE.search(text, max(0, p.start - 40), p.start)
                    or _YIELD_AFTER.match(text[p.end : p.end + 25]))

    def bracketed(self) -> list[Found]:
        """``yield_bracket`` and ``yield_word`` spans."""
        text = self.ctx.text
        out: list[Found] = []
        seen: set[int] = set()
        low = self.ctx.lower_text
        for a, b in self.outer:
            if "%" not in text[a:b] and "quant" not in low[a:b]:
                continue
            amounts = self._within(self.amounts, self.amount_starts, a, b)
            percents = self._within(self.percents, self.percent_starts, a, b)
            if amounts and percents and "purity" in low[a:b] and "yield" in low[a:b] and (
                    not _NOT_YIELD_BUT_PURITY.search(text, a, b)):
                # "(23 g, purity 99.2%, yield 86%)": the yield without the purity
                percents = [p for p in percents
                            if "purity" not in low[max(a, p.start - 10) : p.start]]
                for f in amounts:
                    out.append(Found(f.start, f.end, "amount", "YIELD_OTHER", "yield_bracket"))
                for f in percents:
                    out.append(Found(f.start, f.end, "percent", "YIELD_PERCENT",
                                     "yield_bracket"))
                    seen.add(f.start)
            elif amounts and percents and not _NOT_YIELD.search(text, a, b):
                for f in amounts:
                    out.append(Found(f.start, f.end, "amount", "YIELD_OTHER", "yield_bracket"))
                for f in percents:
                    out.append(Found(f.start, f.end, "percent", "YIELD_PERCENT",
                                     "yield_bracket"))
                    seen.add(f.start)
        for p in self.percents:
            if p.start not in seen and self._yield_percent(p):
                out.append(Found(p.start, p.end, "percent", "YIELD_PERCENT", "yield_word"))
        for f in self.amounts:
            before = low[max(0, f.start - 12) : f.start]
            if ("yield" in before or "mass" in before) and _AMOUNT_AFTER_WORD.search(
                    text, max(0, f.start - 12), f.start):
                out.append(Found(f.start, f.end, "amount", "YIELD_OTHER", "yield_word"))
        return out

    def after(self, f: Found) -> tuple[list[Found], list[Found]]:
        """The amounts and percentages in the bracket after compound ``f`` (an amount
        between the name and the bracket included: "the title compound 34 mg (84%)")."""
        found = self._after.get(f.end)
        if found is None:
            found = self._after[f.end] = self._after_end(f.end)
        return found

    def _after_end(self, end: int) -> tuple[list[Found], list[Found]]:
        text = self.ctx.text
        nxt = text[end : end + 2].lstrip()[:1]
        if nxt == "," and _COMMA_BRACKET.match(text, end):
            # "Compound B2, NAME, (1.59 g, 23% yield)": the bracket after the apposition
            end, nxt = text.index(",", end) + 1, "("
        if nxt != "(" and not nxt.isdigit():
            return [], []  # neither a bracket nor an amount follows
        i = bisect.bisect_left(self.amount_starts, end)
        lead = [self.amounts[i]] if i < len(self.amounts) and not text[
            end : self.amounts[i].start].strip() else []
        if lead and OF_AFTER.match(text, lead[0].end):
            return [], []  # "NAME 70.0 mg of X": the amount of the next compound
        if lead:
            end = lead[0].end
        bracket = self.bracket_after(end)
        if bracket is not None and _LABEL_BRACKET.fullmatch(text, *bracket):
            # "NAME (8) (50 g, 67% yield)": the yield after the compound's label
            bracket = self.bracket_after(bracket[1]) or bracket
        if bracket is None:
            return lead, []
        a, b = bracket
        if _NOT_YIELD.search(text, a, b):
            return lead, []
        return (lead + self._within(self.amounts, self.amount_starts, a, b),
                self._within(self.percents, self.percent_starts, a, b))

    def before(self, f: Found) -> tuple[list[Found], list[Found]]:
        """"383 mg (42% of theory) of the title compound": the amount before "of" and the
        percentages in the bracket between."""
        text = self.ctx.text
        if "of" not in text[max(0, f.start - 20) : f.start]:
            return [], []
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
        percents = self._within(self.percents, self.percent_starts, amount.end, stop)
        # "61 mg (96% of theory, purity 99%) of the title compound": not the purity
        return [amount], [p for p in percents if "purity" not in
                          self.ctx.lower_text[max(0, p.start - 10) : p.start]]

    def described(self, f: Found) -> tuple[list[Found], list[Found]]:
        """``described_yield``: the amounts and percentages in the bracket after the state
        that describes product ``f`` ("X as a colorless liquid (2.615 g)")."""
        if not self.ctx.text.startswith(" as ", f.end):
            return [], []
        m = _AS_STATE.match(self.ctx.text, f.end)
        bracket = self.bracket_after(m.end()) if m else None
        if bracket is None or _NOT_YIELD.search(self.ctx.text, *bracket):
            return [], []
        a, b = bracket
        return (self._within(self.amounts, self.amount_starts, a, b),
                self._within(self.percents, self.percent_starts, a, b))

    def amount_percents(self, spans: list[Found]) -> list[Found]:
        """``amount_percent``: the percentage that opens the bracket right after an amount
        taken as a yield ("Yield: 870.7 mg (70%)", "420 g (82%; mp 209 °C)")."""
        out = []
        for f in spans:
            if f.label != "YIELD_OTHER":
                continue
            bracket = self.bracket_after(f.end)
            if bracket is None:
                continue
            percents = self._within(self.percents, self.percent_starts, *bracket)
            if percents and percents[0].start == bracket[0] + 1:
                p = percents[0]
                out.append(Found(p.start, p.end, "percent", "YIELD_PERCENT", "amount_percent"))
        return out

    def yield_neighbours(self, spans: list[Found]) -> list[Found]:
        """``yield_neighbour``: the amount right before a percentage called a yield ("180 mg,
        54% yield", "14 mg (61% yield)") or in the bracket right after it ("91% (16.5 g)")."""
        text = self.ctx.text
        out = []
        for p in spans:
            if p.rule != "yield_word" or p.label != "YIELD_PERCENT":
                continue
            i = bisect.bisect_left(self.amount_starts, p.start) - 1
            if i >= 0 and _NEIGHBOUR_GAP.fullmatch(text, self.amounts[i].end, p.start):
                a = self.amounts[i]
                out.append(Found(a.start, a.end, "amount", "YIELD_OTHER", "yield_neighbour"))
            bracket = self.bracket_after(p.end)
            if bracket is not None:
                amounts = self._within(self.amounts, self.amount_starts, *bracket)
                if len(amounts) == 1 and amounts[0].start == bracket[0] + 1:
                    a = amounts[0]
                    out.append(Found(a.start, a.end, "amount", "YIELD_OTHER", "yield_neighbour"))
        return out

    def has_yield_after(self, f: Found) -> bool:
        """Whether the bracket after ``f`` states a yield (an amount and a percentage)."""
        amounts, percents = self.after(f)
        return bool(percents) and bool(amounts)

    def after_verbs(self, verbs: list[tuple[int, int]]) -> list[Found]:
        """``yield_amount`` spans: an amount right after a verb of a product obtained ("to give
        2.5 g of"), or before "of a white solid"."""
        text = self.ctx.text
        out = []
        for a in self.amounts:
            k = bisect.bisect_right(verbs, (a.start, a.start)) - 1
            after_verb = k >= 0 and _AFTER_VERB.match(text[verbs[k][1] : a.start])
            if after_verb or _STATE.match(text[a.end : a.end + 60]):
                out.append(Found(a.start, a.end, "amount", "YIELD_OTHER", "yield_amount"))
        return out
