"""The context a rule looks at: words between, before and after the two entities."""

from __future__ import annotations

from dataclasses import dataclass

from chemie.model.rc import RCExample

WINDOW = 4  # words kept before the first and after the second entity
_BRACKETS = {"-lrb-": "(", "-rrb-": ")", "-lsb-": "[", "-rsb-": "]"}


def normalise(tokens: list[str]) -> str:
    """Lower-cased words joined by single spaces (PTB bracket tokens restored)."""
    words = (t.strip().lower() for t in tokens)
    return " ".join(_BRACKETS.get(w, w) for w in words if w)


@dataclass(frozen=True)
class Context:
    """Normalised text fields of one example, in text order (e1 first)."""

    between: str
    before: str
    after: str
    e1: str
    e2: str
    sentence: str
    gap: int

    def field(self, name: str) -> str:
        return getattr(self, name)


def context(ex: RCExample, window: int = WINDOW) -> Context:
    """The rule context of an example (nested or overlapping entities: empty between)."""
    toks = ex.tokens
    between = toks[ex.e1.end : ex.e2.start] if ex.e1.end <= ex.e2.start else []
    return Context(
        between=normalise(between),
        before=normalise(toks[max(0, ex.e1.start - window) : ex.e1.start]),
        after=normalise(toks[ex.e2.end : ex.e2.end + window]),
        e1=normalise(ex.e1.text.split()),
        e2=normalise(ex.e2.text.split()),
        sentence=normalise(toks),
        gap=len(between),
    )
