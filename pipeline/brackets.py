"""Bracket pairs in a string (shared by the tokenizer and the NER rules)."""

from __future__ import annotations

import regex

OPENING = "([{"
CLOSING = ")]}"
_PARTNER = dict(zip(OPENING, CLOSING, strict=True)) | dict(zip(CLOSING, OPENING, strict=True))
_ANY_BRACKET = regex.compile(r"[()\[\]{}]")


def bracket_partners(text: str) -> dict[int, int] | None:
    """Map each bracket position to its partner's position; None when unbalanced."""
    if _ANY_BRACKET.search(text) is None:
        return {}
    count = text.count
    if count("(") != count(")") or count("[") != count("]") or count("{") != count("}"):
        return None
    stack: list[int] = []
    pairs: dict[int, int] = {}
    for m in _ANY_BRACKET.finditer(text):
        i = m.start()
        ch = text[i]
        if ch in OPENING:
            stack.append(i)
        else:
            if not stack or text[stack[-1]] != _PARTNER[ch]:
                return None
            j = stack.pop()
            pairs[i] = j
            pairs[j] = i
    return None if stack else pairs


def partial_partners(text: str) -> dict[int, int]:
    """Partners of the brackets that do match (unmatched ones are left out)."""
    stack: list[int] = []
    pairs: dict[int, int] = {}
    for i, ch in enumerate(text):
        if ch in OPENING:
            stack.append(i)
        elif ch in CLOSING:
            while stack and text[stack[-1]] != _PARTNER[ch]:
                stack.pop()
            if stack:
                j = stack.pop()
                pairs[i] = j
                pairs[j] = i
    return pairs


def partner_of_first(text: str) -> int | None:
    """``partial_partners(text).get(0)`` for a ``text`` that starts with an opening bracket,
    reading only as far as needed (where the first bracket is matched or dropped)."""
    if not any(c in text for c in CLOSING):
        return None
    stack: list[int] = []
    for m in _ANY_BRACKET.finditer(text):
        i = m.start()
        ch = text[i]
        if ch in OPENING:
            stack.append(i)
            continue
        while stack and text[stack[-1]] != _PARTNER[ch]:
            stack.pop()
        if not stack:
            return None  # the first bracket was dropped (a closing one of another kind)
        if stack.pop() == 0:
            return i
    return None


def partner_of_last(text: str) -> int | None:
    """``partial_partners(text).get(len(text) - 1)`` (None at once when ``text`` holds no
    opening bracket)."""
    if not any(c in text for c in OPENING):
        return None
    return partial_partners(text).get(len(text) - 1)
