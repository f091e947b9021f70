"""Conditions and quantities: TIME and TEMPERATURE by the table's patterns, the amounts and
percentages a yield is made of, and the end of the heading with its EXAMPLE_LABEL."""

from __future__ import annotations

from itertools import compress, repeat

import regex

from chemie.roles.anchors import Anchors
from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import PERCENT_WORDS, RoleTable

# a mass or an amount of substance ("383 mg", "1.2 g", "5.48 mmol")
AMOUNT = regex.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)?\s?(?:mg|g|kg|µg|μg|mmol|mol|µmol|μmol)(?![\w/])"
)
# any quantity (an amount, a volume, equivalents): after a name, it makes the name a reactant
QUANTITY = regex.compile(
    r"(?<![\w.])\d+(?:[.,]\d+)?\s?(?:mg|g|kg|µg|μg|mmol|mol|µmol|μmol|ml|mL|L|l|µL|μL|uL|"
    r"eq|equiv|M|N|%)(?![\w/(-])"
)
AMOUNT_UNITS = frozenset(("mg", "g", "kg", "µg", "μg", "mmol", "mol", "µmol", "μmol"))
PERCENT_UNITS = frozenset(("%",))
# a percentage ("42%", "88.5 %"), or a quantitative yield
PERCENT = regex.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?%|\b(?i:quantitative|quant\.)")
# a percentage that is a concentration or a gradient ("10% aqueous", "0-50% EtOAc")
_CONCENTRATION = regex.compile(r"\s?(?:[A-Za-z(]|w/|v/)")
_GRADIENT = regex.compile(r"(?:\d\s?%?\s?(?:-|–|to)\s?)$")
# a heading label: "Example 5", "Step 2", "Intermediate 7A" (the label is the second word)
_LABEL = regex.compile(r"[(\[]?([0-9A-Za-z]{1,5}(?:[.-][0-9A-Za-z]{1,4}){0,2})[)\]]?[.:]?$")
# a label opening the text: "16.8: NAME", "(4) Preparation of", "j. PREPARATION OF"
_OPENING_LABEL = regex.compile(r"^\s*\(?(\d{1,4}(?:[.-]\d{1,4}){0,2}[A-Za-z]?|[a-z]{1,3})"
                               r"(?:\)\s?|[.:]\s|:)(?=\s*[A-Z0-9(\[])")
# a sub-heading label inside a heading: "... compound 164) 164.1: NAME", "(64-1) Synthesis of"
_SUB_LABEL = regex.compile(r"(?<=[)\]]\s)(\d{1,4}\.\d{1,2})(?=:)|\((\d{1,4}-\d{1,2})\)(?=\s*"
                           r"(?i:synthesis|preparation))")
_ORDINALS = frozenset(("first", "second", "third", "fourth", "fifth", "sixth"))
# heading words whose label counts only where the text opens ("Intermediate 5:", "Core 39")
_OPENING_ONLY = frozenset(("intermediate", "core", "preparation"))
# what may stand between a name and its quantity: "X (", "X solution (", "X suspension ("
_OPEN = regex.compile(r"(?:\s+(?i:solution|suspension))?\s*(\(?)\s*")
_LABEL_OPEN = regex.compile(r"\s*(?:\([^()]{1,8}\)\s*(\(?)|\([^(),]{1,24},)\s*")
# "70.0 mg (0.2 mmol) of X": an amount followed by "of"
OF_AFTER = regex.compile(r"\s*(?:\([^()]*\)\s*)?of\b")
_DIGITS = frozenset("0123456789")
# "[Step 2]", "(Example 7)": a label that closes its bracket, and a title after it
_BRACKETED_HEADING = regex.compile(r"[^\s()\[\],]{1,8}[)\]]")
_TITLE_AFTER = regex.compile(r"\s*(?i:synthesis|preparation|production|step)\b")
_HEADING_LABEL_WORDS = frozenset(("example", "step", "stage", "part", "intermediate",
                                  "embodiment", "method", "core", "preparation"))


def find_conditions(ctx: RoleContext, table: RoleTable, anchors: Anchors) -> list[Found]:
    """TIME and TEMPERATURE spans of the table's condition rules (first rule first), each
    pattern tried where it may start (see :mod:`chemie.roles.anchors`)."""
    text = ctx.text
    out: list[Found] = []
    for rule in table.conditions:
        pattern = table.condition_patterns[rule.name]
        if rule.units or rule.words:
            found = [m for m in map(pattern.match, repeat(text), anchors.starts(
                rule.units, rule.words)) if m is not None]
        else:
            found = list(pattern.finditer(text))
        for m in found:
            if rule.not_after and _word_before(text, m.start()) in rule.not_after:
                continue
            out.append(Found(m.start(), m.end(), "condition", rule.label, rule.name))
    return out


def _word_before(text: str, char: int) -> str:
    """The lowercased whitespace-separated word before ``char`` (skipping one word like
    "of" or "at" that may sit between)."""
    words = text[max(0, char - 30) : char].split()
    if not words:
        return ""
    if words[-1].lower() in ("of", "at", "about", "approx.", "ca.") and len(words) > 1:
        return words[-2].lower()
    return words[-1].lower()


def find_amounts(ctx: RoleContext, anchors: Anchors) -> list[Found]:
    """Masses and amounts of substance (candidates for YIELD_OTHER)."""
    text = ctx.text
    matches = map(AMOUNT.match, repeat(text), anchors.starts(AMOUNT_UNITS))
    return [Found(m.start(), m.end(), "amount") for m in matches if m is not None]


def find_percents(ctx: RoleContext, anchors: Anchors) -> list[Found]:
    """Percentages that can be a yield (not a concentration or a gradient)."""
    text = ctx.text
    out = []
    for m in map(PERCENT.match, repeat(text), anchors.starts(PERCENT_UNITS, PERCENT_WORDS)):
        if m is None:
            continue
        if m.group().endswith("%"):
            after = text[m.end() : m.end() + 3]
            if _CONCENTRATION.match(after) and not after.lstrip().lower().startswith(
                    ("yield", "of", "y", "in")):
                continue
            if _GRADIENT.search(text[max(0, m.start() - 8) : m.start()]):
                continue
        out.append(Found(m.start(), m.end(), "percent"))
    return out


def heading_end(ctx: RoleContext, table: RoleTable, names: list[Found]) -> int:
    """The character where the heading ends and the procedure begins (0: no heading).

    The heading is the run of heading words, labels and names (``names``: the compound
    spans) at the start of the text: it ends at a word that starts a procedure ("A solution
    of", "To", "The"), a verb the action parser knows, or a name with its quantity ("X (1.0
    g) was added": a reactant).
    """
    tokens = ctx.tokens
    words, stops = table.words["heading_words"], table.words["heading_stops"]
    titles = table.words["title_words"]
    first_action = ctx.action_starts[0] if ctx.action_starts else len(ctx.text)
    text = ctx.text
    n = len(tokens.text)
    starts = {f.start: f for f in names}
    named = False  # a name was seen (after it, a capitalised word ends the heading)
    titled = False  # a heading word was seen ("Example", "Step", "Preparation of")
    skip_to = -1  # the end of the name being passed
    if _opens_procedure(ctx, table, first_action, starts):
        return 0  # "Under argon, X was added": no heading (a line of its own is one)
    for i in range(n):
        start = tokens.idx[i]
        if start < skip_to:
            continue
        if start >= first_action:
            # "Compound 18 was prepared": the subject of the first sentence, no heading
            return 0 if _passive_subject(tokens.lower, i, table, titled) else start
        name = starts.get(start)
        if name is not None:
            if _quantity_after(ctx, name.end):
                return start  # "X (1.0 g) was added": a reactant, not a title
            named, skip_to = True, name.end
            continue
        low, word = tokens.lower[i], tokens.text[i]
        if i > 0 and tokens.lower[i - 1] in titles and _LABEL.match(word):
            continue  # "Step A:", "Step 2": the label of a step, not an article or amount
        if word[0] in _DIGITS and QUANTITY.match(text, start):
            return start
        if low in stops and i > 0 and _stops_heading(tokens.text, i, words, named):
            return start
        if low in words or _LABEL.match(word):
            titled = titled or low in titles
            continue
        if word[:1].isupper() and named:
            return start
        named = named or bool(word[:1].isalnum())
    return len(text)


def _passive_subject(lower: list[str], i: int, table: RoleTable, titled: bool) -> bool:
    """Whether the first action (token ``i``) is passive and no heading word came before:
    what comes before is its subject ("Compound 18 was prepared"), no heading."""
    return not titled and i > 0 and lower[i - 1] in table.words["auxiliaries"]


def _opens_procedure(ctx: RoleContext, table: RoleTable, first_action: int,
                     starts: dict[int, Found]) -> bool:
    """Whether the text opens with a capitalised procedure word ("Under", "To", "A"), no
    action or name, and no line of its own before its first action."""
    tokens = ctx.tokens
    if not tokens.text or first_action <= 0 or tokens.idx[0] in starts:
        return False
    word = tokens.text[0]
    return (tokens.lower[0] in table.words["procedure_openers"] and word[:1].isupper()
            and "\n" not in ctx.text[:first_action])


def _stops_heading(words: list[str], i: int, heading_words: frozenset[str],
                   named: bool) -> bool:
    """Whether the procedure word ``words[i]`` ends the heading: capitalised or after a
    name, and not a heading word before a label ("Preparation 3")."""
    word = words[i]
    if not (word[:1].isupper() or named):
        return False
    label_next = i + 1 < len(words) and _LABEL.match(words[i + 1]) is not None
    return named or not (word.lower() in heading_words and label_next)


def _label_after(ctx: RoleContext, i: int, end: int, starts: set[int]) -> Found | None:
    """The EXAMPLE_LABEL after the heading word ``i`` ("Example 194", "[Step 2]") in the
    heading (which ends at character ``end``) or at a sentence start (``starts``: the first
    token of each sentence), or the ordinal of "The second step"."""
    tokens, text = ctx.tokens, ctx.text
    lower, words = tokens.lower, tokens.text
    low, char = lower[i], tokens.idx[i]
    prev = words[i - 1] if i else ""
    if not (char < end or i in starts or prev in (".", ":")):
        return None
    rule = "heading_label"
    if prev in ("[", "(") and char:
        # "[Step 2] Synthesis of", "(Example 7) Synthesis of" open a heading;
        # "[Example 9, Step 1]", "(Example 3)" elsewhere are references
        if not _BRACKETED_HEADING.match(text, tokens.idx[i + 1]) or (
                text[: tokens.idx[i - 1]].strip()
                and not _TITLE_AFTER.match(text, ctx.ends[i + 1] + 1)):
            return None
        rule = "bracketed_heading_label"
    if i and lower[i - 1] in _ORDINALS:
        if low != "step":
            return None
        # "The second step": the ordinal is the label
        return Found(tokens.idx[i - 1], ctx.ends[i - 1], "label", "EXAMPLE_LABEL",
                     "heading_label")
    if low in _OPENING_ONLY and char >= end:
        return None  # "Intermediate 5: NAME", "Core 39 NAME" open a heading
    if low == "intermediate" and i and lower[i - 1] in ("of", "to", "from"):
        return None  # "Synthesis of Intermediate 1-k": the product, not a label
    nxt = words[i + 1]
    lm = _LABEL.match(nxt)
    digit = any(c.isdigit() for c in nxt)
    if lm is None or (not digit and (len(lm.group(1)) > 2 or low in _OPENING_ONLY)):
        return None
    a = tokens.idx[i + 1] + lm.start(1)
    return Found(a, a + len(lm.group(1)), "label", "EXAMPLE_LABEL", rule)


def _quantity_after(ctx: RoleContext, end: int) -> bool:
    """Whether a quantity follows character ``end`` ("X (1.0 g", "X 5.0 g", "X (4a) (2 g")."""
    rest = ctx.text[end : end + 60]
    m = _OPEN.match(rest)
    q = QUANTITY.match(rest, m.end())
    if q is None:  # "X (4a) (2 g": a label bracket first; "X (CAS#64-17-5, 2 g"
        m = _LABEL_OPEN.match(rest)
        q = QUANTITY.match(rest, m.end()) if m else None
    if q is None:
        return False
    if m and m.group(1):
        return True  # in brackets: "X (1.0 g"
    # "NAME 70.0 mg of X", "NAME 4N HCl in dioxane": the amount or concentration of the
    # next sentence's compound, not of the name
    return not OF_AFTER.match(rest, q.end()) and not q.group().endswith(("M", "N"))


def find_example_labels(ctx: RoleContext, end: int) -> list[Found]:
    """EXAMPLE_LABEL spans: the label after a heading word ("Example 194", "Step 6") in the
    heading or at a sentence start, the ordinal of "The second step", a sub-heading label
    ("164.1:", "(64-1) Synthesis of"), and a label that opens the text ("16.8:", "(4)",
    "k. PREPARATION OF")."""
    tokens = ctx.tokens
    text = ctx.text
    out: list[Found] = []
    m = _OPENING_LABEL.match(text)
    if m:
        out.append(Found(m.start(1), m.end(1), "label", "EXAMPLE_LABEL", "opening_label"))
    starts = set(tokens.starts)
    for i in compress(range(len(tokens.lower) - 1),
                      map(_HEADING_LABEL_WORDS.__contains__, tokens.lower)):
        found = _label_after(ctx, i, end, starts)
        if found is not None:
            out.append(found)
    for m in _SUB_LABEL.finditer(text, 0, end):
        g = 1 if m.start(1) >= 0 else 2
        out.append(Found(m.start(g), m.end(g), "label", "EXAMPLE_LABEL", "heading_label"))
    out.sort(key=lambda f: f.start)
    return out
