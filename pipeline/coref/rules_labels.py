"""Coreference rules of names and labels (``rules/coref.yaml``): an abbreviation or a label
in brackets after a name, "referred to as", "the following compounds : NAME", a repeated
compound number and the label before a name in the heading or before ":"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from chemie.coref.features import (
    Context,
    CorefMention,
    CorefRule,
    Found,
    label_of_next,
    open_bracket,
    rule,
)

# a bracketed text that is no abbreviation or label of the name before it
_NOT_ABBREVIATION = re.compile(
    r"[%:=]|\bFIG\b|\s\S+\s\S+\s|(?i:mhz|ppm|racemate|enantiomer|diastereomer|isomer)"
    # "( Example 5 )" cites a procedure; "M+", "FAB", "ESI" are mass-spectrometry terms
    r"|^(?i:examples?)\b|^M[+-]$|^(?:FAB|ESI|APCI|EI|CI)$"
    # "NAME ( saturated solution )", "( 3x75ml )", "( 20 vol. )": a state or an amount
    r"|(?i:\bsolution\b|\d\s*m?l$|\bvol\.?$)"
    # "Tert-butyl ( 3-aminophenyl ) carbamate": a substituent inside a name
    r"|(?i:yl[\])]*$)"
    # "the residue ( silica gel )": the stationary phase
    r"|^(?i:silica gel)$"
)
_LABEL_FILLERS = frozenset(("(", ")", "[", "]", "No", "no", "NO", "."))
# an antecedent that is a substituent ("tert-butyl") or an NMR frequency ("400MHz ( CDCl3 )")
_NOT_ABBREVIATED = re.compile(r"(?i)yl$|mhz$")


@rule("bracketed_abbreviation", gate=lambda f, p: f.bracketed)
def bracketed_abbreviation(c: Context, p: CorefRule, a: CorefMention) -> Found:
    if not (a.bracketed or a.m.abbreviation):
        return None
    text = a.m.text
    if a.kind == "reference" and a.ident:
        # "NAME ( Compound No . 1 )", "NAME ( compound ( IU ) )": a label of three words
        text = " ".join(w for w in text.split() if w not in _LABEL_FILLERS)
    if _NOT_ABBREVIATION.search(text):
        return None
    # "NH silica gel ( chloroform / methanol )": an eluent of solvents, no abbreviation
    parts = a.core.split(" / ")
    if len(parts) > 1 and c.table.solvents.issuperset(parts):
        return None
    # the unclosed "(" just before the anaphor, or -1
    opened = open_bracket(c.words, a.first)
    ends = (a.first - 1, a.first - 2, opened - 1)
    first = a.first
    for x in reversed(c.ms[: a.i]):
        ranges = x.ranges
        if len(ranges) == 1:
            if ranges[0][1] not in ends:
                continue
        elif not (
            any(r1 in ends for _, r1 in ranges) or ranges[0][1] < first <= ranges[-1][0]
        ):
            continue
        return None if _NOT_ABBREVIATED.search(x.m.text) else x
    return None


@rule("referred_to_as", gate=lambda f, p: f.after_as)
def referred_to_as(c: Context, p: CorefRule, a: CorefMention) -> Found:
    words = c.words
    if a.before != "as" or words[max(0, a.first - 3) : a.first] != ["referred", "to", "as"]:
        return None
    opens = [i for i in range(max(0, a.first - 8), a.first) if words[i] == "("]
    if not opens:
        return None
    for x in reversed(c.ms[: a.i]):
        if any(r1 == opens[-1] - 1 for _, r1 in x.ranges):
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class FollowingCompounds(CorefRule):
    heads: frozenset[str]  # of "the following compounds"
    max_tokens: int  # from the end of "the following compounds" to the name


@rule("following_compounds", params=FollowingCompounds, kinds=("chemical",),
      gate=lambda f, p: f.after_following)
def following_compounds(c: Context, p: FollowingCompounds, a: CorefMention) -> Found:
    if a.kind != "chemical" or a.i == 0:
        return None
    ms = c.ms
    # the first chemical after the colon: only a cited "Example 5" in between
    x = ms[a.i - 1]
    if x.kind == "reference" and x.head == "example" and a.i > 1:
        x = ms[a.i - 2]
    if x.det != "the" or not x.core.startswith("following ") or x.head not in p.heads:
        return None
    if a.first - x.last > p.max_tokens or ":" not in c.words[x.last + 1 : a.first]:
        return None
    return x


@rule("heading_label", kinds=("chemical", "reference"), gate=lambda f, p: f.in_heading)
def heading_label(c: Context, p: CorefRule, a: CorefMention) -> Found:
    # the title, or any chemical name of the heading ("Intermediate 74 : NAME Step A : ...")
    in_heading = a.kind == "chemical" and a.last < c.heading_end
    if a.i == 0 or not (a is c.title or (in_heading and not a.m.quantity)):
        return None
    x = c.ms[a.i - 1]
    if (
        x.kind == "reference" and x.ident and x.head != "example" and a.first - x.last <= 2
        and not x.m.quantity
    ):
        return x
    return None


@rule("label_colon_name", gate=lambda f, p: f.after_label)
def label_colon_name(c: Context, p: CorefRule, a: CorefMention) -> Found:
    if a.i == 0 or a.last < c.heading_end:
        return None
    x = c.ms[a.i - 1]
    return x if label_of_next(c, x) else None


@rule("compound_number", gate=lambda f, p: f.ident)
def compound_number(c: Context, p: CorefRule, a: CorefMention) -> Found:
    # "Example 4A" names a procedure: a repeat cites it and is no compound
    if not a.ident or a.ident.startswith("example"):
        return None
    for x in reversed(c.ms[: a.i]):
        if x.ident == a.ident:
            return x
    return None
