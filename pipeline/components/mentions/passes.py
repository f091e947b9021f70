"""The post-passes over the validated mentions: attach later yields and suffixes, join pairs,
split packings, and the filters."""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

from chemie.components.mentions.docdata import _SentenceIndex
from chemie.components.mentions.grammar import CORE, QPAREN
from chemie.components.mentions.tagger import _FIRST, NUMBER, PERCENT, SOLUTION_HEADS

YIELD_AFTER = re.compile(r"(?:S{1,3}P?|\.)(?P<y>[SI]DYOS?(?:A|NU)|[SI]DWY(?=[.P])|Y[:=]?[AN])")


# "X was used without further purification ( 316 mg , 94% )": a later quantity bracket
LATER_QUANTITY = re.compile(r"S[SWDIP]{0,10}?(?P<y>\((?=[^().]*A)[^().]*\))")
SUBJECT_VERBS = frozenset(["was", "were"])


def _yield_brackets(
    words: list[str], cs: str, sent_of: _SentenceIndex
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``yield_bracket``: a bracket with only a yield that opens a sentence stands for the
    product ("... were used . ( 92% ) MS ...")."""
    out = []
    i = cs.find(".(")
    while i != -1:
        a = i + 1
        if a + 2 < len(cs) and cs[a + 2] == ")" and PERCENT.match(words[a + 1]):
            out.append((((a, a + 2),), "yield_bracket", {
                "kind": "state", "head": words[a + 1], "sentence": sent_of[a],
                "tokens": (a, a + 2), "core": (a + 1, a + 1), "det": "", "quantity": True}))
        i = cs.find(".(", a)
    return out


def _attach_yields(
    cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]], low: list[str]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """The yield stated after a product belongs to it (a discontinuous mention):
    ``np_with_later_yield`` ("X was obtained with a yield of 99%") and
    ``np_with_later_quantity`` (the subject of "was/were ..." and a later bracket with an amount
    and a yield: "X was used without further purification ( 316 mg , 94% )")."""
    out = []
    starts: set[int] | None = None  # where the mentions start (made when first needed)
    has_yield = "Y" in cs  # YIELD_AFTER needs a "yield" word
    for ranges, rule, attrs in found:
        end = ranges[-1][1]
        m = YIELD_AFTER.match(cs, end + 1) if has_yield else None
        if m and (attrs["kind"] != "state" or rule == "amount_of_np"):
            new_rule = "np_with_later_yield"
        elif (
            not attrs["quantity"] and end + 1 < len(low) and low[end + 1] in SUBJECT_VERBS
            and (m := LATER_QUANTITY.match(cs, end + 1))
            and any("%" in w for w in low[m.start("y") : m.end("y")])
        ):
            new_rule = "np_with_later_quantity"
        else:
            m = None
        if m and starts is None:
            starts = {f[0][0][0] for f in found}
        if m and not starts.intersection(range(end + 1, m.end())):
            y0, y1 = m.span("y")
            ranges = (*ranges, (y0, y1 - 1))
            attrs = {**attrs, "tokens": (ranges[0][0], y1 - 1), "quantity": True}
            rule = new_rule
        out.append((ranges, rule, attrs))
    return out


# "( SiO2 , 40 g cartridge", "( silica gel , 10 g )": an amount after a comma in a bracket
COMMA_AMOUNT = re.compile(r"P(?:NU|A)(?=[WS)P])")
# "Compound 12 ( 60 mg ) in ethanol ( 2 mL ) and THF ( 1 mL ) solution": the solvents and
# the word "solution" after them belong to the solution
SOLUTION_SUFFIX = re.compile(rf"(?:[&P]{CORE}{QPAREN})*(?:P?&{CORE}{QPAREN})?G")
# "0-100% EtOAc in hexanes" after a comma in a quantity bracket
ELUENT_IN_BRACKET = re.compile(rf"(?:NS)?A{CORE}I{CORE}")
# words of a bracket that describes the compound before it: "( saturated aqueous solution )"
DESCRIPTOR_WORDS = frozenset(
    "saturated sat sat. aqueous aq aq. solution racemate racemic stereoisomer stereoisomers "
    "diastereomer diastereomers mixture cat cat. catalytic conc conc. concentrated .".split()
)
# "( 73.2 mg , 60% dispersion in mineral oil )": the form of the reagent, no eluent
DISPERSION_WORDS = frozenset(["dispersion", "suspension", "solution", "slurry"])
# notes in a quantity bracket that are no part of the compound: its source ("prepared by ...",
# "available from Sigma-Aldrich", "international patent application ...") or its Rf
SOURCE_NOTES = frozenset(
    ["prepared", "purchased", "commercially", "cas", "synthesized", "available", "international",
     "rf"]
)
# "afforded Intermediate 1-a . ( 35.0 g , 79.7% )", "X , ( 1.59 g , 23% yield )"
PUNCT_QUANTITY = re.compile(rf"[.P]{QPAREN}")


def _attach_suffixes(
    words: list[str], cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """Words after a mention that belong to it: ``np_comma_amount`` (an amount after a comma
    in a bracket), ``solution_suffix`` (more solvents and the word "solution" after a solution),
    ``aq_suffix`` (``( aq )`` after a chemical), ``punct_quantity`` (an amount with a yield
    after a full stop or comma: "Intermediate 1-a . ( 35.0 g , 79.7% )")."""
    out = []
    for ranges, rule, attrs in found:
        first, end = ranges[0][0], ranges[-1][1]
        new_end, new_rule = -1, rule
        if len(ranges) == 1 and attrs["kind"] == "chemical" and not attrs["quantity"]:
            # only after a procedure word: "chromatography ( SiO2 , 40 g"
            if cs[first - 2 : first] == "S(" and (m := COMMA_AMOUNT.match(cs, end + 1)):
                new_end, new_rule = m.end() - 1, "np_comma_amount"
            elif cs.startswith("(W)", end + 1) and words[end + 2].lower() in ("aq", "aq."):
                new_end, new_rule = end + 3, "aq_suffix"  # "sat. NaHCO3 ( aq )"
            elif cs[end + 1 : end + 2] == "(" and (close := _descriptor_bracket(words, end + 1)):
                new_end, new_rule = close, "descriptor_suffix"
        if (
            cs[end + 1 : end + 3] in (".(", "P(") and new_end < 0 and len(ranges) == 1
            and attrs["kind"] in ("chemical", "reference")
            and not attrs["quantity"] and (m := PUNCT_QUANTITY.match(cs, end + 1))
            and words[end + 1] in (".", ",") and any("%" in w for w in words[end + 2 : m.end()])
        ):
            # a product's amount and yield after a full stop or comma: one mention
            new_end, new_rule = m.end() - 1, "punct_quantity"
        elif rule == "np_in_solvent" and (m := SOLUTION_SUFFIX.match(cs, end + 1)):
            if words[m.end() - 1].lower() == "solution":
                new_end, new_rule = m.end() - 1, "solution_suffix"
        elif len(ranges) <= 2 and cs[end] == ")" and attrs["quantity"]:
            # "X ( 128 mg , 0.57 mmol , prepared by a method disclosed in ... )": the note on
            # where the compound comes from is no part of it ("quantity_source_note")
            # the commas of the last bracket, from the right
            a = ranges[-1][0]
            lo = max(cs.rfind("(", a + 1, end), a)
            k = cs.rfind("P", lo + 1, end)
            while k != -1:
                if words[k + 1].lower() in SOURCE_NOTES:
                    ranges = (*ranges[:-1], (a, k - 1), (end, end))
                    rule = "quantity_source_note"
                    break
                if (
                    ELUENT_IN_BRACKET.fullmatch(cs, k + 1, end)
                    and words[k + 2].lower() not in DISPERSION_WORDS
                ):
                    # "silica gel ( 40 g , 0-100% EtOAc in hexanes )": the eluent is a
                    # mention of its own ("quantity_eluent_note")
                    ranges = (*ranges[:-1], (a, k - 1), (end, end))
                    rule = "quantity_eluent_note"
                    out.append((((k + 1, end - 1),), "eluent_gradient", {
                        **attrs, "kind": "chemical", "head": words[end - 1].lower(),
                        "tokens": (k + 1, end - 1), "core": (k + 1, end - 1), "det": "",
                        "quantity": False}))
                    break
                k = cs.rfind("P", lo + 1, k)
        if new_end > end:
            ranges = (*ranges[:-1], (ranges[-1][0], new_end))
            attrs = {**attrs, "tokens": (first, new_end), "quantity": True}
            rule = new_rule
        out.append((ranges, rule, attrs))
    return _drop_inside(out)


def _describes(low: list[str], a: int, b: int) -> bool:
    """The words ``low[a + 1 : b - 1]`` after the opening bracket at ``a`` (up to the comma
    before ``b``) describe the compound ("( conc , 1 mL )", "( racemate , 117 mg )",
    "( hexane solution , 22 mL )"): no abbreviation, the bracket stays whole."""
    inner = low[a + 1 : b - 1]
    return bool(inner) and (
        all(w in DESCRIPTOR_WORDS for w in inner) or inner[-1] in SOLUTION_HEADS
    )


def _descriptor_bracket(words: list[str], k: int) -> int:
    """The closing bracket of a bracket at ``k`` that only describes the compound before it
    ("( saturated solution )", "( racemate )", "( cat . )"), not followed by an amount; 0
    when there is none."""
    n = len(words)
    for j in range(k + 1, min(k + 6, n)):
        if words[j] == ")":
            if j == k + 1 or (j + 1 < n and NUMBER.match(words[j + 1])):
                return 0
            return j
        if words[j].lower() not in DESCRIPTOR_WORDS:
            return 0
    return 0


def _abbreviated_solutions(
    cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``abbreviated_solution``: "2 N hydrochloric acid ( HCl ) solution", "15% sodium hydroxide
    ( NaOH ) aqueous solution": the name and the word "solution" after its bracketed
    abbreviation are one discontinuous mention (the abbreviation stays a mention)."""
    out: list[tuple[tuple[tuple[int, int], ...], str, dict]] = []
    for b_ranges, b_rule, b_attrs in sorted(found, key=_FIRST):
        if len(out) >= 2:
            (a_ranges, a_rule, a_attrs), (x_ranges, x_rule, _) = out[-2], out[-1]
            e = a_ranges[-1][1]
            if (
                x_rule == "bracketed_abbreviation" and x_ranges == ((e + 2, e + 2),)
                and cs[e + 1] == "(" and cs[e + 3] == ")" and len(a_ranges) == 1
                and a_rule in ("chemical_np", "amount_of_np") and a_attrs["kind"] == "chemical"
                and b_rule == "generic_np" and b_ranges[0][0] == e + 4 and len(b_ranges) == 1
                and b_attrs["head"] == "solution" and not b_attrs["det"]
            ):
                b1 = b_ranges[0][1]
                out[-2:] = [out[-1], (a_ranges + b_ranges, "abbreviated_solution", {
                    **a_attrs, "tokens": (a_ranges[0][0], b1)})]
                continue
        out.append((b_ranges, b_rule, b_attrs))
    return out


def _eluent_additives(
    words: list[str], low: list[str], cs: str,
    found: list[tuple[tuple[tuple[int, int], ...], str, dict]],
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``eluent_additive``: a solvent containing a percentage of another is one eluent
    ("methanol containing 1% ammonium hydroxide", "25% methanol containing 0.2% NH4OH")."""
    out: list[tuple[tuple[tuple[int, int], ...], str, dict]] = []
    for b_ranges, b_rule, b_attrs in sorted(found, key=_FIRST):
        if out:
            a_ranges, a_rule, a_attrs = out[-1]
            a1, b0 = a_ranges[-1][1], b_ranges[0][0]
            if (
                a_rule in ("chemical_np", "amount_of_np")
                and b_rule in ("chemical_np", "np_quantity")
                and len(a_ranges) == len(b_ranges) == 1 and a_attrs["kind"] == "chemical"
                and b_attrs["kind"] == "chemical" and b0 == a1 + 2 and low[a1 + 1] == "containing"
                and cs[b0] == "A" and "%" in words[b0]
            ):
                a0, b1 = a_ranges[0][0], b_ranges[0][1]
                out[-1] = (((a0, b1),), "eluent_additive", {
                    **b_attrs, "tokens": (a0, b1),
                    "core": (a_attrs["core"][0], b_attrs["core"][1]), "det": a_attrs["det"]})
                continue
        out.append((b_ranges, b_rule, b_attrs))
    return out


def _eluent_pairs(
    words: list[str], cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``eluent_pair``: two solvents joined by "and" with a bracket of percentages after the
    second are one eluent ("methanol and chloroform ( concentration gradient , 0 to 20% )");
    a bracket with an amount ("( 50 mL )") belongs to the second solvent alone."""
    out: list[tuple[tuple[tuple[int, int], ...], str, dict]] = []
    for b_ranges, b_rule, b_attrs in sorted(found, key=_FIRST):
        if out:
            a_ranges, a_rule, a_attrs = out[-1]
            if (
                a_rule in ("chemical_np", "eluent_additive") and b_rule == "np_quantity"
                and len(a_ranges) == 1
                and len(b_ranges) == 1 and a_attrs["kind"] == b_attrs["kind"] == "chemical"
                and b_ranges[0][0] == a_ranges[0][1] + 2 and cs[a_ranges[0][1] + 1] == "&"
            ):
                b0, b1 = b_attrs["core"][1] + 1, b_ranges[0][1]
                if "U" not in cs[b0:b1] and any("%" in w for w in words[b0:b1]):
                    a0 = a_ranges[0][0]
                    out[-1] = (((a0, b1),), "eluent_pair", {
                        **b_attrs, "tokens": (a0, b1), "core": (a_attrs["core"][0], b0 - 1),
                        "det": a_attrs["det"]})
                    continue
        out.append((b_ranges, b_rule, b_attrs))
    return out


# mentions that take in the words after them and drop the mentions inside
_COVERING_RULES = frozenset(["solution_suffix", "descriptor_suffix"])


def _drop_inside(
    found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """Mentions that a longer single-range mention now covers are dropped."""
    spans = sorted((f[0][0][0], f[0][-1][1]) for f in found if f[1] in _COVERING_RULES)
    if not spans:
        return found
    starts = [a for a, _ in spans]
    reach = list(accumulate((b for _, b in spans), max))  # the furthest end of spans[:k + 1]
    out = []
    for f in found:
        k = bisect_right(starts, f[0][0][0]) - 1  # the spans that start at or before it
        if f[1] in _COVERING_RULES or k < 0 or reach[k] < f[0][-1][1]:
            out.append(f)
    return out


def _solution_components(
    cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``solution_component``: in "a solution of X ( 4i ) ( 130 mg ) in THF", where the label
    or abbreviation names X, the compound "X ( 130 mg )" is a mention of its own too."""
    abbrev_at = sorted(f[0][0][0] for f in found if f[2].get("abbreviation"))
    if not abbrev_at:
        return found
    out = list(found)
    for ranges, rule, attrs in found:
        if rule != "np_in_solvent" or attrs["kind"] != "generic":
            continue
        first, last = ranges[0][0], ranges[-1][1]
        k = bisect_right(abbrev_at, first)  # the first abbreviation after the mention start
        if k == len(abbrev_at) or abbrev_at[k] >= last:
            continue
        of = cs.find("O", first, ranges[0][1] + 1)
        if of == -1:
            continue
        start, depth, stop = of + 1, 0, -1
        for k in range(start, last + 1):
            ch = cs[k]
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif ch in "IJ" and depth == 0:
                stop = k - 1
                break
        if stop < start:
            continue
        inner = tuple((max(a, start), min(b, stop)) for a, b in ranges if a <= stop and b >= start)
        name_end = inner[0][1]
        out.append((inner, "solution_component", {
            **attrs, "kind": "chemical", "head": "", "tokens": (inner[0][0], inner[-1][1]),
            "core": (start, name_end), "det": "", "quantity": len(inner) > 1 or stop > name_end,
        }))
    return out


def _solvent_pairs(
    cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``solvent_pair``: two solvents with their volumes joined by "/" are one mention
    ("dissolved in ethanol ( 15 mL ) / water ( 4 mL )", "a solvent of THF ( 200 ml ) / water
    ( 50 ml )")."""
    out: list[tuple[tuple[tuple[int, int], ...], str, dict]] = []
    for f in sorted(found, key=_FIRST):
        if out:
            ranges, rule, attrs = out[-1]
            (a, b), *rest = ranges
            (c, d), *rest2 = f[0]
            if (
                not rest and not rest2 and c == b + 2 and cs[b] == ")" and cs[b + 1] == "/"
                and cs[d] == ")" and attrs["quantity"] and f[2]["quantity"]
                and f[2]["kind"] == "chemical"
            ):
                out[-1] = (((a, d),), "solvent_pair", {**attrs, "tokens": (a, d)})
                continue
        out.append(f)
    return out


# "a silica gel column", "by thin layer chromatography": words a column packing comes before
COLUMN_WORDS = frozenset(["column", "columns", "chromatography"])


def _column_packings(
    low: list[str], cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``column_packing``: before "column"/"chromatography" the mention is the packing alone:
    its determiner and modifiers belong to the column ("onto a silica gel column" -> "silica
    gel", "reverse phase silica gel column" -> "silica gel"); without a chemical word it is
    no mention ("thin layer chromatography", "reverse phase column")."""
    out = []
    n = len(low)
    for f in found:
        ranges, rule, attrs = f
        a, b = ranges[-1]
        if len(ranges) > 1 or b + 1 >= n or low[b + 1] not in COLUMN_WORDS:
            out.append(f)
            continue
        k = a
        while k <= b and cs[k] in "DW-":
            k += 1
        if k == a:
            out.append(f)
        elif any(c in "CbX" for c in cs[k : b + 1]):
            out.append((((k, b),), "column_packing", {
                **attrs, "tokens": (k, b), "core": (k, b), "det": ""}))
    if "(AP" not in cs:
        return out
    for j, (ranges, _rule, attrs) in enumerate(out):
        a, b = ranges[0]
        if (
            len(ranges) == 1 and 3 < a and b + 1 < n and cs[a - 3 : a] == "(AP"
            and cs[b + 1] == ")" and low[a - 4] in COLUMN_WORDS and attrs["kind"] == "chemical"
        ):
            # "an Isolute column ( 2g , silica )": the amount before the packing is its own
            out[j] = (((a - 2, b),), "amount_comma_packing", {
                **attrs, "tokens": (a - 2, b), "quantity": True})
    return out


def _reaction_is_a_mixture(
    low: list[str], f: tuple, verbs: frozenset[str], not_after: frozenset[str],
    process: frozenset[str],
) -> bool:
    """``reaction_as_subject``: a bare "(the) reaction" is a mention only as the subject of
    was/were/is ("the reaction was stirred"), not in "completion of the reaction", "reaction
    scheme", "after the reaction ,", nor when the verb names the process itself ("the
    reaction was stopped", "the reaction was carried out")."""
    ranges, _rule, attrs = f
    if attrs["head"] != "reaction" or len(ranges) > 1:
        return True
    a, b = ranges[0]
    if b - a > 1 or (b > a and attrs["det"] == ""):
        return True  # a longer phrase: "the reaction mixture" has another head anyway
    after = low[b + 1] if b + 1 < len(low) else ""
    before = low[a - 1] if a else ""
    then = low[b + 2] if b + 2 < len(low) else ""
    return after in verbs and before not in not_after and then not in process


def _is_determined(
    low: list[str], f: tuple, dets: frozenset[str], not_after: frozenset[str]
) -> bool:
    """``determined_head``: "the result", "the whole", "the resultant" stand for the reaction
    material only with a determiner ("As a result ,", "by precipitation" are no mentions)."""
    a = f[0][0][0]
    return f[2]["det"] in dets and (a == 0 or low[a - 1] not in not_after)


def _in_tlc_bracket(low: list[str], cs: str, a: int) -> bool:
    """``tlc_eluent``: the eluent of a TLC check is no compound of the reaction ("After TLC
    ( PE : EA = 10 : 1 ) showed completion", "monitored by TLC ( hexane : EtOAc = 2 : 1 )")."""
    k = cs.rfind("(", 0, a)
    return k > 0 and low[k - 1] == "tlc" and ")" not in cs[k:a]


def _is_infinitive(low: list[str], f: tuple) -> bool:
    """``infinitive_verb``: a one-word mention after "to" that is a verb ("to terminate the
    reaction", "to concentrate", "to precipitate a solid"), not a compound."""
    (a, b), *rest = f[0]
    return not rest and a == b and a > 0 and low[a - 1] == "to"


def _attach_state_quantities(
    low: list[str], cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``the title compound (was obtained) as a white solid (0.25 g, 77%)``: the quantity
    belongs to the compound (a discontinuous mention); ``a white solid`` stays a mention."""
    out = sorted(found, key=_FIRST)
    for j, (s_ranges, s_rule, s_attrs) in enumerate(out):
        if s_attrs["kind"] != "state" or not s_attrs["quantity"] or len(s_ranges) != 1:
            continue
        s0 = s_ranges[0][0]
        if s0 < 2 or low[s0 - 1] != "as" or s_rule == "amount_of_np":
            continue
        core_end = s_attrs["core"][1]
        q0, q1 = core_end + 1, s_ranges[0][1]
        if cs[q0 : q0 + 1] != "(":
            continue
        i = j - 1
        while i >= 0 and out[i][2].get("abbreviation"):
            i -= 1
        if i < 0:
            continue
        ranges, _rule, attrs = out[i]
        end = ranges[-1][1]
        gap = cs[end + 1 : s0 - 1]
        if (
            (attrs["quantity"] and _rule != "amount_of_np") or len(ranges) != 1 or len(gap) > 5
            or gap.strip("SW&")
        ):
            continue
        out[i] = (
            (ranges[0], (q0, q1)),
            "np_as_state_quantity",
            {**attrs, "tokens": (ranges[0][0], q1), "quantity": True},
        )
        out[j] = (
            ((s0, core_end),),
            s_rule,
            {**s_attrs, "tokens": (s0, core_end), "quantity": False},
        )
    return out

