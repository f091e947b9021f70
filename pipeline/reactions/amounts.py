"""Quantities in text: numbers with units, parsed into :class:`~chemie.model.reaction.Amount`.

The units and their measures are data (``rules/reactions.yaml``, ``units``). A quantity is a
number (``1.5``, ``1,5``, ``0.5-1``: a range takes its first number; a temperature keeps its
sign: ``-78 °C``, ``−20 °C``) followed by a known unit;
a percentage is a concentration only when no yield is meant ("10% aqueous NaOH"). Where a
compound's amount is written, :func:`amount_near` finds it: in the bracket right after its
name ("X (1.2 g, 3.0 mmol)") or before it ("1.2 g (3.0 mmol) of X", "2 M X").
"""

from __future__ import annotations

import functools

import regex

from chemie.model.reaction import Amount, Quantity
from chemie.reactions.table import ReactionTable, reaction_table

AMOUNT_MEASURES = ("mass", "volume", "moles", "equivalents", "concentration")
LEAD_REACH = 100  # characters before a name where its amount may be written
_NUMBER = r"(?P<value>\d+(?:[.,]\d+)?|\.\d+)(?:\s?(?:-|–|~|to)\s?\d+(?:[.,]\d+)?)?"


def _units(table: ReactionTable) -> tuple[regex.Pattern, dict[str, tuple[str, str]],
                                          dict[str, tuple[str, str]]]:
    """The unit pattern and lookups of a table (made once, kept in ``table.compiled``)."""
    cached = table.compiled.get("units")
    if cached is not None:
        return cached
    exact: dict[str, tuple[str, str]] = {}
    folded: dict[str, tuple[str, str]] = {}
    for measure, units in table.units.items():
        for written, symbol in units.items():
            exact[written] = (measure, symbol)
            folded.setdefault(written.casefold(), (measure, symbol))
    alternatives = "|".join(regex.escape(u) for u in sorted(exact, key=len, reverse=True))
    pattern = regex.compile(
        rf"(?<![\w.])(?P<sign>[-−–]\s?)?{_NUMBER}\s?(?P<unit>{alternatives})(?![\w/])",
        regex.IGNORECASE
    )
    table.compiled["units"] = (pattern, exact, folded)
    return pattern, exact, folded


def quantities(text: str, table: ReactionTable | None = None) -> list[tuple[str, Quantity, int,
                                                                            int]]:
    """``(measure, Quantity, start, end)`` of every quantity in ``text``, in order."""
    if table is None or table is reaction_table():  # a fresh Quantity each: records own them
        return [(m, Quantity(q.value, q.unit, q.text), a, b)
                for m, q, a, b in _default_quantities(text)]
    return _quantities(text, table)


@functools.lru_cache(maxsize=8192)
def _default_quantities(text: str) -> tuple[tuple[str, Quantity, int, int], ...]:
    """The quantities of a text with the bundled table (texts repeat: "2 h", "10 mL")."""
    return tuple(_quantities(text, reaction_table()))


def _quantities(text: str, table: ReactionTable) -> list[tuple[str, Quantity, int, int]]:
    if not any(ch.isdigit() for ch in text):
        return []
    pattern, exact, folded = _units(table)
    out = []
    for m in pattern.finditer(text):
        unit = m.group("unit")
        found = exact.get(unit) or folded.get(unit.casefold())
        if found is None:
            continue
        if unit not in exact and unit.casefold() in ("m", "n", "mm", "k", "l", "s", "d"):
            continue  # "5 m" is no molarity, "2 d" as written only
        measure, symbol = found
        value = float(m.group("value").replace(",", "."))
        start = m.start()
        if m.group("sign") and measure == "temperature":
            value = -value  # "-78 °C", "−20 °C"
        elif m.group("sign"):
            start = m.start("value")  # a dash before another measure is no sign
        out.append((measure, Quantity(value, symbol, text[start : m.end()]), start, m.end()))
    return out


def parse_amount(text: str, table: ReactionTable | None = None) -> Amount:
    """The amount that ``text`` states (the first quantity of each measure)."""
    amount = Amount()
    for measure, q, _, _ in quantities(text, table):
        if measure in AMOUNT_MEASURES and getattr(amount, measure) is None:
            setattr(amount, measure, q)
    return amount


_BRACKET = regex.compile(r"\s*[(\[]([^()\[\]]*(?:\([^()]*\)[^()\[\]]*)*)[)\]]")
# where the words before a name stop belonging to it (outside brackets)
_BREAKS = regex.compile(r"[.;:]\s|,\s|\s(?:and|with|to|from|into|by|then|or|was|were|is)\s")
# what a quantity before a name ends with: "1.2 g (3 mmol) of", "10 mL of a 2 M solution of"
_LEADS = regex.compile(
    r"^\s*\d[^;]*?(?:\s(?:of|in)(?:\s(?:a|an|the))?(?:\s[^\s]+)?(?:\s(?:solution|suspension)"
    r"\s(?:of|in))?|\s?(?:M|N|mM|%))?\s*$"
)


def amount_near(text: str, start: int, end: int, table: ReactionTable | None = None,
                limit: int = 0) -> Amount:
    """The amount of the name at ``[start, end)`` of ``text``: the quantities in the bracket
    that follows it, completed by those written just before it ("1.2 g (3.0 mmol) of X",
    "2 M X"), back to ``limit`` (the end of the previous name) or a clause break."""
    amount = Amount()
    m = _BRACKET.match(text, end)
    if m and not quantities(m.group(1), table):  # an alias first: "ferrocene ( Fc ) ( 9 g )"
        m = _BRACKET.match(text, m.end())
    if m:
        amount = parse_amount(m.group(1), table)
    lead = _lead(text, max(limit, start - LEAD_REACH), start)
    if lead:
        found = parse_amount(lead, table)
        for measure in AMOUNT_MEASURES:
            if getattr(amount, measure) is None:
                setattr(amount, measure, getattr(found, measure))
    return amount


def may_state(text: str, start: int, end: int, measure: str,
              table: ReactionTable | None = None, limit: int = 0) -> bool:
    """Whether the text where :func:`amount_near` looks for the amount of ``[start, end)``
    (the two brackets after it, the words before it) holds a unit of ``measure`` in any
    case: a cheap test before reading an amount that matters only when it states that
    measure (False means it states none)."""
    table = table or reaction_table()
    words = table.compiled.get(f"unit_words.{measure}")
    if words is None:
        words = tuple({u.casefold() for u in table.units.get(measure, {})})
        table.compiled[f"unit_words.{measure}"] = words
    first = _BRACKET.match(text, end)
    second = _BRACKET.match(text, first.end()) if first else None
    stop = (second or first).end() if first else end
    window = f"{text[max(limit, start - LEAD_REACH):start]} {text[end:stop]}".casefold()
    return any(w in window for w in words)


def _lead(text: str, a: int, b: int) -> str:
    """The words just before ``b`` (from ``a``) that state a quantity of what follows (the
    longest that starts with a number and holds no clause break outside brackets), or ""."""
    before = text[a:b]
    for m in _NUMBER_START.finditer(before):
        segment = before[m.start():]
        # _LEADS holds any segment from a digit without ';' (its ending is optional)
        if ";" in segment and not _LEADS.match(segment):
            continue
        # blanking brackets only takes breaks away: a segment without breaks or closing
        # brackets needs no blanking
        if (_BREAKS.search(segment) or ")" in segment or "]" in segment) and \
                _unbracketed_break(segment):
            continue
        return segment
    return ""


_NUMBER_START = regex.compile(r"(?<![\w.,])\d")
_INNERMOST = regex.compile(r"[(\[][^()\[\]]*[)\]]")


def _unbracketed_break(text: str) -> bool:
    """Whether ``text`` has a clause break outside its brackets, or a closing bracket
    without its opening one (the text started inside a bracket)."""
    flat = _flat(text)
    return bool(_BREAKS.search(flat)) or ")" in flat or "]" in flat


def _flat(text: str) -> str:
    """``text`` with every bracket that closes in it blanked (brackets and insides), and all
    after an opening bracket that does not close; a closing bracket without its opening one
    is kept."""
    while True:
        blanked = _INNERMOST.sub(lambda m: "_" * len(m.group()), text)
        if blanked == text:
            break
        text = blanked
    opened = min((i for i in (text.find("("), text.find("[")) if i >= 0), default=-1)
    return text if opened < 0 else text[:opened] + "_" * (len(text) - opened)
