"""The NER rules written in code: one function per rule of the kinds ``glued`` and
``context`` of ``rules/ner.yaml``, registered under the entry's name (``stage_rules("ner")``).

A ``glued`` rule is a test of a string glued from several tokens (``classifier``: the
:class:`chemie.ner.rules.TokenClassifier`). A ``context`` rule is applied by the finder
(``ner``: the :class:`chemie.ner.finder.ChemicalNER`) to the chosen names, in table order,
called in one of two ways:

- ``pass``: ``fn(ner, rule, words, found, by_start, codes) -> found``, over all the names
  (``found`` in start order after the first pass; ``by_start``: the names before any join,
  by start token, which a pass may change; ``codes``: the words' glue-run string);
- ``join``: ``fn(ner, rule, words, prev, f) -> Cand | None``, the name that replaces ``f``
  (merging ``prev`` when it starts where ``prev`` starts), or None; consecutive join rules
  are tried in one pass over the names, the first that answers wins.

Every name a rule writes carries the rule's name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import methodcaller
from typing import Literal, Protocol

import regex

from chemie.registry import StageRules, stage_rules

Cand = tuple[int, int, str, str, float]  # (start, end, label, rule, confidence)


class Rule(Protocol):
    """What a rule function reads of its compiled entry (chemie.ner.rules.Rule)."""

    name: str
    label: str
    confidence: float
    pattern: regex.Pattern | None


class TokenClassifier(Protocol):
    """What a glued rule asks the classifier (chemie.ner.rules.TokenClassifier)."""

    def systematic(self, text: str) -> bool: ...


class ChemicalNER(Protocol):
    """What a context rule reads of the finder (chemie.ner.finder.ChemicalNER): its word
    lists, its abbreviation window and its overlap filter."""

    words: dict[str, object]
    abbreviation_window: int

    def non_overlapping(self, found: list[Cand]) -> list[Cand]: ...

_SUBSTITUENT = re.compile(r"[a-z]{3,}yl")  # a substituent word: maltolyl, cyclopentyl
_ABBR = regex.compile(r"^(?=.*[A-Z])[A-Za-z0-9][A-Za-z0-9\-+,′']{1,11}$")
_CODE_DIGITS = re.compile(r"\d{3}")  # a compound code, never an abbreviation
_NUMBER = regex.compile(r"^\d+(?:[.,]\d+)?$")
_OPENING = re.compile(r"[(\[]")  # opening brackets in a glue string
_match_start = methodcaller("start")  # ``map(_match_start, finditer)``: each match.start()
_ABBR_VETO_BELOW = 0.9


@dataclass(frozen=True)
class NerRuleSpec:
    """A registered NER rule: the table kind it is written for, its function and, for a
    ``context`` rule, how the finder calls it (``pass`` or ``join``)."""

    kind: Literal["glued", "context"]
    fn: Callable
    calls: Literal["", "pass", "join"] = ""


RULES: StageRules[NerRuleSpec] = stage_rules("ner")


def ner_rule(name: str, kind: Literal["glued", "context"],
             calls: Literal["", "pass", "join"] = "") -> Callable[[Callable], Callable]:
    """Register the decorated function as the NER rule ``name`` of table kind ``kind``."""

    def register(fn: Callable) -> Callable:
        RULES.add(name, NerRuleSpec(kind, fn, calls))
        return fn

    return register


# -- glued ------------------------------------------------------------------------------
@ner_rule("locant_name", kind="glued")
def locant_name(classifier: TokenClassifier, rule: Rule, text: str) -> bool:
    """A name with locants or brackets whose last word is chemical (see ``systematic``)."""
    return rule.pattern.fullmatch(text) is not None and classifier.systematic(text)


@ner_rule("protected_name", kind="glued")
def protected_name(classifier: TokenClassifier, rule: Rule, text: str) -> bool:
    """A protecting group before any name: N-Boc-prolinol."""
    return rule.pattern.fullmatch(text) is not None


# -- context ----------------------------------------------------------------------------
@ner_rule("head_letter", kind="context", calls="pass")
def head_letter(ner: ChemicalNER, rule: Rule, words: Sequence[str], found: list[Cand],
                by_start: dict[int, Cand], codes: str) -> list[Cand]:
    """Head + letter: vitamin E, prostaglandin E2 (the head may be blacklisted alone); the
    joined names replace their parts in ``by_start``."""
    heads = ner.words["head_any_case"]
    if not heads.isdisjoint(words):
        n = len(words)
        letter = ner.words["head_letter"]
        for i in [i for i, w in enumerate(words) if w in heads and i < n - 1]:
            if letter.fullmatch(words[i + 1]):
                by_start.pop(i + 1, None)
                by_start[i] = (i, i + 2, rule.label, rule.name, rule.confidence)
    return sorted(by_start.values())  # the starts are distinct


@ner_rule("cation_anion", kind="context", calls="join")
def cation_anion(ner: ChemicalNER, rule: Rule, words: Sequence[str], prev: Cand | None,
                 f: Cand) -> Cand | None:
    """Cation + anion: sodium valproate, calcium carbonate, ammonium fluoride."""
    if (
        prev is not None
        and prev[1] == f[0]
        and prev[1] - prev[0] == 1
        and _is_cation(ner, words[prev[0]], words[f[1] - 1])
        and words[f[0]].lower() not in ner.words["cation"]
    ):
        return (prev[0], f[1], rule.label, rule.name, rule.confidence)
    return None


@ner_rule("substituent_name", kind="context", calls="join")
def substituent_name(ner: ChemicalNER, rule: Rule, words: Sequence[str], prev: Cand | None,
                     f: Cand) -> Cand | None:
    """Substituent + name (hexafluorodiethyl ether, t - butyl bicyclo - orthobenzoate,
    triamcinolone diacetate), or an unknown substituent word before a name (maltolyl p -
    coumarate)."""
    if prev is not None and prev[1] == f[0] and _joins(ner, words, prev, f):
        return (prev[0], f[1], rule.label, rule.name, rule.confidence)
    start = f[0]
    if start and _SUBSTITUENT.fullmatch(words[start - 1]) and (prev is None or prev[1] < start):
        return (start - 1, f[1], rule.label, rule.name, rule.confidence)
    return None


@ner_rule("salt_extension", kind="context", calls="pass")
def salt_extension(ner: ChemicalNER, rule: Rule, words: Sequence[str], found: list[Cand],
                   by_start: dict[int, Cand], codes: str) -> list[Cand]:
    """Extend names over a following ``-yl ester`` or salt word."""
    salt_words = ner.words["salt"]
    n = len(words)
    out = []
    for f in found:
        e = f[1]
        if e + 1 < n and words[e + 1] == "ester" and words[e].endswith("yl"):
            f = (f[0], e + 2, f[2], rule.name, max(f[4], rule.confidence))
        elif e < n and words[e].lower() in salt_words and e - f[0] <= 6:
            nxt = by_start.get(e)
            if nxt is None or nxt[1] == e + 1:
                f = (f[0], e + 1, f[2], rule.name, max(f[4], rule.confidence))
        out.append(f)
    return out


@ner_rule("abbreviation_definition", kind="context", calls="pass")
def abbreviation_definition(ner: ChemicalNER, rule: Rule, words: Sequence[str],
                            found: list[Cand], by_start: dict[int, Cand],
                            codes: str) -> list[Cand]:
    """Abbreviations defined in brackets after a chemical become chemicals in the document
    (or within ``abbreviation_window`` tokens); abbreviations defined after a non-chemical
    phrase veto low-confidence names of the same text. The names it reads are made
    non-overlapping first."""
    chosen = ner.non_overlapping(found)
    chem, nonchem = _bracketed(words, chosen, codes)
    if not chem and not nonchem:
        return chosen
    n = len(words)
    window = ner.abbreviation_window
    occupied = bytearray(n)
    for f in chosen:
        occupied[f[0] : f[1]] = b"\x01" * (f[1] - f[0])
    out = list(chosen)
    if nonchem:
        out = [
            f
            for f in out
            if not (
                f[4] < _ABBR_VETO_BELOW
                and tuple(words[f[0] : f[1]]) in nonchem
                and _near(f[0], nonchem[tuple(words[f[0] : f[1]])], window)
            )
        ]
    for inner, at in chem.items():
        k = len(inner)
        first = inner[0]
        for p in compress(range(n), map(first.__eq__, words)):
            if tuple(words[p : p + k]) != inner:
                continue
            if any(occupied[p : p + k]) or not _near(p, at, window):
                continue
            out.append((p, p + k, rule.label, rule.name, rule.confidence))
            occupied[p : p + k] = b"\x01" * k
    return out


# -- helpers ----------------------------------------------------------------------------
def _joins(ner: ChemicalNER, words: Sequence[str], prev: Cand, f: Cand) -> bool:
    """``prev`` ends with a substituent word (-yl), or ``f`` is one ester or salt word
    that the morphology rule found (diacetate; the listed salt words are salt_extension's)."""
    if _SUBSTITUENT.fullmatch(words[prev[1] - 1]):
        return True
    if f[1] - f[0] != 1 or f[3] != "morphology_word":
        return False
    low = words[f[0]].lower()
    return low.endswith(ner.words["anion_end"]) and low not in ner.words["salt"]


def _is_cation(ner: ChemicalNER, word: str, anion: str) -> bool:
    """A cation name, or an -ium or -yl word followed by an anion (``ammonium fluoride``,
    ``benzyl acetate``)."""
    low = word.lower()
    if low in ner.words["cation"]:
        return True
    return low.endswith(("ium", "yl")) and anion.lower().endswith(ner.words["anion_end"])


def _bracketed(
    words: Sequence[str], chosen: list[Cand], codes: str
) -> tuple[dict[tuple[str, ...], int], dict[tuple[str, ...], int]]:
    """The abbreviations in brackets (``codes``: the glue-run string of ``words``), each
    with the position of its opening bracket: those after a chosen name that they
    plausibly abbreviate, and those after no name (not chemical)."""
    n = len(words)
    starts_by_end = {f[1]: f[0] for f in chosen}
    chem: dict[tuple[str, ...], int] = {}
    nonchem: dict[tuple[str, ...], int] = {}
    for i in map(_match_start, _OPENING.finditer(codes)):
        if not 0 < i < n - 2:
            continue
        if words[i + 2] != "-" and _NUMBER.match(words[i + 1]):
            continue  # "( 5.0 g , ...", "( 80 mL )": a quantity (or no capital letter)
        # "( THF )", or "( DEN ; 100 mg / kg )": the abbreviation ends at ; : or ,
        closers = (")" if words[i] == "(" else "]", ";", ":", ",")
        for j in range(i + 2, min(n, i + 7)):
            if words[j] in closers:
                break
        else:
            continue
        inner = tuple(words[i + 1 : j])
        abbr = "".join(inner)
        if not _ABBR.match(abbr) or abbr.isdigit():
            continue
        if len(inner) > 1 and _NUMBER.match(inner[0]) and inner[1] != "-":
            continue  # a quantity such as "( 80 mL )"
        if i in starts_by_end:
            if _plausible(abbr, words[min(starts_by_end[i], i - 1) : i]):
                chem.setdefault(inner, i)
        elif not _CODE_DIGITS.search(abbr):  # "antagonist ( GR 55562 )" names a code
            nonchem.setdefault(inner, i)
    return chem, nonchem


def _near(p: int, at: int, window: int) -> bool:
    return window <= 0 or abs(p - at) <= window


def _plausible(abbr: str, before: Sequence[str]) -> bool:
    """The abbreviation's first letter occurs in the words just before the bracket."""
    letters = [c for c in abbr if c.isalpha()]
    if not letters:
        return False
    return letters[0].lower() in "".join(before).lower()
