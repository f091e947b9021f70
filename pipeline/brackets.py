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
