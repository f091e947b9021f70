"""The compound rules of the table compiled into one decision function.

Each rule of ``compounds`` becomes one ``if`` test over the facts of a compound (a
:class:`Facts`), in table order; the first rule whose conditions all hold gives the label
and its name. The generated source holds only the attribute names below and constants
``c0, c1 …`` bound from the table: no text of the table becomes code. Facts that cost
something (the word before, the brackets around, the text before) are computed when a rule
first asks for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import RoleTable

Decision = Callable[["Facts"], "tuple[str, str] | None"]


class Facts:
    """What the compound rules test about one compound span."""

    __slots__ = ("ctx", "f", "skipped", "place", "phase", "reference", "state", "text",
                 "lexicon", "stated", "name_start", "name_end", "linked", "_after",
                 "_bracketed", "_before")

    def __init__(self, ctx: RoleContext, f: Found, skipped: frozenset[str], place: str,
                 phase: str, span: tuple[int, int], text: str, lexicon: str | None,
                 stated: bool):
        self.ctx, self.f, self.skipped = ctx, f, skipped
        self.name_start, self.name_end = span
        self.place, self.phase, self.text, self.lexicon = place, phase, text, lexicon
        self.reference = f.kind == "reference"
        self.state = f.kind == "state"
        self.stated = stated
        self.linked: set[str] = set()  # labels of the relations pointing to its mention
        self._after: str | None = None
        self._bracketed: bool | None = None
        self._before: str | None = None

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
        if self._bracketed is None:
            text, start, end = self.ctx.text, self.f.start, self.f.end
            after = text[end : end + 3].lstrip()
            self._bracketed = after.startswith(")") and _open_before(
                text[max(0, start - 12) : start].rstrip())
        return self._bracketed

    def before(self) -> str:
        """The 40 characters before the compound."""
        if self._before is None:
            self._before = self.ctx.text[max(0, self.f.start - 40) : self.f.start]
        return self._before

    def raw(self) -> str:
        """The compound's name as written (without a modifier or "aqueous")."""
        return self.ctx.text[self.name_start : self.name_end]

    def next(self) -> str:
        """The 20 characters after the compound."""
        return self.ctx.text[self.f.end : self.f.end + 20]

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


def _condition(key: str, want: Any, table: RoleTable) -> tuple[str, Any]:
    """The source of one condition (``{c}`` stands for its constant) and that constant."""
    if key in ("place", "phase"):
        return f"F.{key} == {{c}}", want
    if key in ("reference", "state"):
        return (f"F.{key}" if want else f"not F.{key}"), None
    if key == "yield_after":
        return ("F.stated" if want else "not F.stated"), None
    if key == "bracketed":
        return ("F.bracketed()" if want else "not F.bracketed()"), None
    if key == "arg":
        return "F.has_role({c})", frozenset(want)
    if key == "action":
        return "F.has_action({c})", frozenset(want)
    if key == "verb":
        return "F.has_verb({c})", frozenset(str(w).lower() for w in want)
    if key == "after":
        return "F.after() in {c}", frozenset(str(w).lower() for w in want)
    if key == "words":
        return "F.text in {c}", table.words[want]
    if key == "not_words":
        return "F.text not in {c}", table.words[want]
    if key == "linked":
        return "not F.linked.isdisjoint({c})", frozenset(want)
    if key == "lexicon":
        return "F.lexicon in {c}", frozenset(want)
    if key == "pattern":
        return "{c}.search(F.text) is not None", table.patterns[want]
    if key == "raw_pattern":
        return "{c}.search(F.raw()) is not None", table.patterns[want]
    if key == "before":
        return "{c}.search(F.before()) is not None", table.patterns[want]
    if key == "next":
        return "{c}.match(F.next()) is not None", table.patterns[want]
    raise KeyError(key)  # the table loader admits no other key


def compile_rules(table: RoleTable) -> Decision:
    """The decision function of ``table.compounds``: Facts -> (label, rule name) or None."""
    namespace: dict[str, Any] = {}
    lines = ["def decide(F):"]
    for rule in table.compounds:
        tests = []
        for key, want in rule.when.items():
            source, const = _condition(key, want, table)
            name = f"c{len(namespace)}"
            namespace[name] = const
            tests.append(source.format(c=name))
        result = f"c{len(namespace)}"
        namespace[result] = (rule.label, rule.name)
        lines.append(f"    if {' and '.join(tests) or 'True'}:")
        lines.append(f"        return {result}")
    lines.append("    return None")
    exec("\n".join(lines), namespace)  # noqa: S102 - source made above from names only
    return namespace["decide"]
