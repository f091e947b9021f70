"""The post-passes over the validated mentions, registered by rule (or filter) name with
:func:`post_pass`; the table's ``passes`` list gives their order and when they run.

A pass takes the doc's :class:`DocContext` and the candidates so far and returns the new list:
it adds mentions (``pronoun_subject``), attaches words after a mention to it (``later_yield``,
``suffixes``), joins or splits mentions (``eluent_pair``, ``column_packing``...) or drops them
(the filters). Its words and fragments are in its rule's entry of ``rules/mentions.yaml``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate
from operator import attrgetter

from chemie.mentions.candidate import Candidate, DocContext
from chemie.mentions.table import MentionTables
from chemie.tables import TableError

PassFunction = Callable[[DocContext, list[Candidate]], list[Candidate]]
PASSES: dict[str, PassFunction] = {}
_RANGES = attrgetter("ranges")


def post_pass(name: str) -> Callable[[PassFunction], PassFunction]:
    """Register ``function`` as the post-pass ``name`` (listed in the table's ``passes``)."""
    def register(function: PassFunction) -> PassFunction:
        PASSES[name] = function
        return function
    return register


class PostPasses:
    """The passes of a table, in its order, each with its guard."""

    def __init__(self, tables: MentionTables):
        listed = [p.name for p in tables.table.passes]
        for i, name in enumerate(listed):
            if name not in PASSES:
                raise TableError(tables.name, f"passes.{i}.name", f"no pass coded as {name!r}")
        unlisted = sorted(set(PASSES) - set(listed))
        if unlisted:
            raise TableError(tables.name, "passes", f"coded passes not listed: {unlisted}")
        self.passes = [
            (PASSES[p.name], frozenset(p.when_words), p.when_classes) for p in tables.table.passes
        ]

    def __call__(self, x: DocContext, found: list[Candidate]) -> list[Candidate]:
        cs, low_set = x.cs, x.low_set
        for function, words, classes in self.passes:
            if words and words.isdisjoint(low_set):
                continue
            if classes:
                for run in classes:
                    if run in cs:
                        break
                else:
                    continue
            found = function(x, found)
        return found


# -- mentions added ------------------------------------------------------------------------


@post_pass("pronoun_subject")
def pronoun_subject(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``pronoun_subject``: "it" as the subject of a process verb stands for the reaction
    mixture ("It was cooled to room temperature", "it was diluted with water")."""
    low = x.low
    verbs = x.tables.words["pronoun_subject"]["verbs"]
    be = x.tables.words["pronoun_subject"]["be"]
    out = list(found)
    i = -1
    while True:
        try:
            i = low.index("it", i + 1)
        except ValueError:
            break
        if i + 2 >= len(low):
            break
        nxt = low[i + 1]
        if (nxt in be and low[i + 2] in verbs) or nxt in verbs:
            out.append(Candidate(((i, i),), "pronoun_subject", "generic", "it", x.sent_of[i],
                                 (i, i), (i, i), "", False))
    return out


@post_pass("yield_bracket")
def yield_bracket(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``yield_bracket``: a bracket with only a yield that opens a sentence stands for the
    product ("... were used . ( 92% ) MS ...")."""
    cs, words = x.cs, x.words
    percent = x.tables.shapes["PERCENT"]
    out = list(found)
    i = cs.find(".(")
    while i != -1:
        a = i + 1
        if a + 2 < len(cs) and cs[a + 2] == ")" and percent.match(words[a + 1]):
            out.append(Candidate(((a, a + 2),), "yield_bracket", "state", words[a + 1],
                                 x.sent_of[a], (a, a + 2), (a + 1, a + 1), "", True))
        i = cs.find(".(", a)
    return out


# -- words after a mention that belong to it -----------------------------------------------


@post_pass("np_as_state_quantity")
def np_as_state_quantity(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``np_as_state_quantity``: ``the title compound (was obtained) as a white solid (0.25 g,
    77%)``: the quantity belongs to the compound (a discontinuous mention); ``a white solid``
    stays a mention."""
    cs, low = x.cs, x.low
    out = sorted(found, key=_RANGES)
    for j, s in enumerate(out):
        if s.kind != "state" or not s.quantity or len(s.ranges) != 1:
            continue
        s0 = s.first
        if s0 < 2 or low[s0 - 1] != "as" or s.rule == "amount_of_np":
            continue
        core_end = s.core[1]
        q0, q1 = core_end + 1, s.ranges[0][1]
        if cs[q0 : q0 + 1] != "(":
            continue
        i = j - 1
        while i >= 0 and out[i].abbreviation:
            i -= 1
        if i < 0:
            continue
        c = out[i]
        gap = cs[c.last + 1 : s0 - 1]
        if (
            (c.quantity and c.rule != "amount_of_np") or len(c.ranges) != 1 or len(gap) > 5
            or gap.strip("SW&")
        ):
            continue
        out[i] = c.but(ranges=(c.ranges[0], (q0, q1)), rule="np_as_state_quantity",
                       tokens=(c.first, q1), quantity=True)
        out[j] = s.but(ranges=((s0, core_end),), tokens=(s0, core_end), quantity=False)
    return out


@post_pass("later_yield")
def later_yield(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """The yield stated after a product belongs to it (a discontinuous mention):
    ``np_with_later_yield`` ("X was obtained with a yield of 99%") and
    ``np_with_later_quantity`` (the subject of "was/were ..." and a later bracket with an amount
    and a yield: "X was used without further purification ( 316 mg , 94% )")."""
    cs, low = x.cs, x.low
    yield_after = x.grammar.fragment["YIELD_AFTER"]
    later_quantity = x.grammar.fragment["LATER_QUANTITY"]
    subject_verbs = x.tables.words["np_with_later_quantity"]["subject_verbs"]
    out = []
    starts: set[int] | None = None  # where the mentions start (made when first needed)
    has_yield = "Y" in cs  # YIELD_AFTER needs a "yield" word
    for c in found:
        end = c.ranges[-1][1]
        m = yield_after.match(cs, end + 1) if has_yield else None
        if m and (c.kind != "state" or c.rule == "amount_of_np"):
            new_rule = "np_with_later_yield"
        elif (
            not c.quantity and end + 1 < len(low) and low[end + 1] in subject_verbs
            and (m := later_quantity.match(cs, end + 1))
            and any("%" in w for w in low[m.start("y") : m.end("y")])
        ):
            new_rule = "np_with_later_quantity"
        else:
            m = None
        if m and starts is None:
            starts = {f.ranges[0][0] for f in found}
        if m and not starts.intersection(range(end + 1, m.end())):
            y0, y1 = m.span("y")
            c = c.but(ranges=(*c.ranges, (y0, y1 - 1)), rule=new_rule, tokens=(c.first, y1 - 1),
                      quantity=True)
        out.append(c)
    return out


@post_pass("suffixes")
def suffixes(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """Words after a mention that belong to it: ``np_comma_amount`` (an amount after a comma
    in a bracket after a procedure word), ``aq_suffix`` (``( aq )`` after a chemical),
    ``descriptor_suffix`` (a bracket that only describes it), ``punct_quantity`` (an amount
    with a yield after a full stop or comma: "Intermediate 1-a . ( 35.0 g , 79.7% )"),
    ``solution_suffix`` (more solvents and the word "solution" after a solution); notes in its
    quantity bracket that are no part of it (``quantity_source_note``,
    ``quantity_eluent_note``). Mentions the longer ones now cover are dropped."""
    cs, words = x.cs, x.words
    punct_quantity = x.grammar.fragment["PUNCT_QUANTITY"]
    solution_suffix = x.grammar.fragment["SOLUTION_SUFFIX"]
    out: list[Candidate] = []
    for c in found:
        end = c.ranges[-1][1]
        new_end, new_rule = -1, c.rule
        if (
            len(c.ranges) == 1 and c.kind == "chemical" and not c.quantity
            and (cs[end + 1 : end + 2] == "(" or cs[c.ranges[0][0] - 2 : c.ranges[0][0]] == "S(")
        ):
            new_end, new_rule = _chemical_suffix(x, c)
        if (
            cs[end + 1 : end + 3] in (".(", "P(") and new_end < 0 and len(c.ranges) == 1
            and c.kind in ("chemical", "reference")
            and not c.quantity and (m := punct_quantity.match(cs, end + 1))
            and words[end + 1] in (".", ",") and any("%" in w for w in words[end + 2 : m.end()])
        ):
            # a product's amount and yield after a full stop or comma: one mention
            new_end, new_rule = m.end() - 1, "punct_quantity"
        elif c.rule == "np_in_solvent" and (m := solution_suffix.match(cs, end + 1)):
            if words[m.end() - 1].lower() == "solution":
                new_end, new_rule = m.end() - 1, "solution_suffix"
        elif len(c.ranges) <= 2 and cs[end] == ")" and c.quantity:
            c = _quantity_notes(x, c, out)
        if new_end > end:
            c = c.but(ranges=(*c.ranges[:-1], (c.ranges[-1][0], new_end)), rule=new_rule,
                      tokens=(c.first, new_end), quantity=True)
        out.append(c)
    return _drop_inside(out)


def _chemical_suffix(x: DocContext, c: Candidate) -> tuple[int, str]:
    """The new end and rule of an unquantified chemical followed by ``np_comma_amount``
    ("chromatography ( SiO2 , 40 g"), ``aq_suffix`` ("sat. NaHCO3 ( aq )") or
    ``descriptor_suffix`` ("NH4Cl ( saturated solution )"); ``(-1, rule)`` when none."""
    cs, words = x.cs, x.words
    first, end = c.first, c.last
    if cs[first - 2 : first] == "S(" and (
        m := x.grammar.fragment["COMMA_AMOUNT"].match(cs, end + 1)
    ):
        return m.end() - 1, "np_comma_amount"
    if cs.startswith("(W)", end + 1) and (
        words[end + 2].lower() in x.tables.words["aq_suffix"]["aq"]
    ):
        return end + 3, "aq_suffix"
    if cs[end + 1 : end + 2] == "(" and (close := _descriptor_bracket(x, end + 1)):
        return close, "descriptor_suffix"
    return -1, c.rule


def _quantity_notes(x: DocContext, c: Candidate, out: list[Candidate]) -> Candidate:
    """``c`` without a note in its last bracket, found from the right: where the compound comes
    from ("X ( 128 mg , 0.57 mmol , prepared by a method disclosed in ... )":
    ``quantity_source_note``) or an eluent ("silica gel ( 40 g , 0-100% EtOAc in hexanes )":
    ``quantity_eluent_note``, the eluent added to ``out`` as a mention of its own)."""
    cs, words = x.cs, x.words
    notes = x.tables.words["quantity_source_note"]["notes"]
    not_eluent = x.tables.words["quantity_eluent_note"]["not_eluent"]
    eluent = x.grammar.fragment["ELUENT_IN_BRACKET"]
    end = c.last
    a = c.ranges[-1][0]
    lo = max(cs.rfind("(", a + 1, end), a)
    k = cs.rfind("P", lo + 1, end)
    while k != -1:
        if words[k + 1].lower() in notes:
            return c.but(ranges=(*c.ranges[:-1], (a, k - 1), (end, end)),
                         rule="quantity_source_note")
        if eluent.fullmatch(cs, k + 1, end) and words[k + 2].lower() not in not_eluent:
            out.append(c.but(ranges=((k + 1, end - 1),), rule="eluent_gradient", kind="chemical",
                             head=words[end - 1].lower(), tokens=(k + 1, end - 1),
                             core=(k + 1, end - 1), det="", quantity=False))
            return c.but(ranges=(*c.ranges[:-1], (a, k - 1), (end, end)),
                         rule="quantity_eluent_note")
        k = cs.rfind("P", lo + 1, k)
    return c


def _descriptor_bracket(x: DocContext, k: int) -> int:
    """The closing bracket of a bracket at ``k`` that only describes the compound before it
    ("( saturated solution )", "( racemate )", "( cat . )"), not followed by an amount; 0
    when there is none."""
    words = x.words
    descriptors = x.tables.lists["descriptor_words"]
    number = x.tables.shapes["NUMBER"]
    n = len(words)
    for j in range(k + 1, min(k + 6, n)):
        if words[j] == ")":
            if j == k + 1 or (j + 1 < n and number.match(words[j + 1])):
                return 0
            return j
        if words[j].lower() not in descriptors:
            return 0
    return 0


# mentions that take in the words after them and drop the mentions inside
_COVERING_RULES = frozenset(["solution_suffix", "descriptor_suffix"])


def _drop_inside(found: list[Candidate]) -> list[Candidate]:
    """Mentions that a longer single-range mention now covers are dropped."""
    spans = sorted((c.first, c.last) for c in found if c.rule in _COVERING_RULES)
    if not spans:
        return found
    starts = [a for a, _ in spans]
    reach = list(accumulate((b for _, b in spans), max))  # the furthest end of spans[:k + 1]
    out = []
    for c in found:
        k = bisect_right(starts, c.first) - 1  # the spans that start at or before it
        if c.rule in _COVERING_RULES or k < 0 or reach[k] < c.last:
            out.append(c)
    return out


# -- mentions joined or split --------------------------------------------------------------


@post_pass("solution_component")
def solution_component(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``solution_component``: in "a solution of X ( 4i ) ( 130 mg ) in THF", where the label
    or abbreviation names X, the compound "X ( 130 mg )" is a mention of its own too."""
    cs = x.cs
    abbrev_at = sorted(c.first for c in found if c.abbreviation)
    if not abbrev_at:
        return found
    out = list(found)
    for c in found:
        if c.rule != "np_in_solvent" or c.kind != "generic":
            continue
        first, last = c.first, c.last
        k = bisect_right(abbrev_at, first)  # the first abbreviation after the mention start
        if k == len(abbrev_at) or abbrev_at[k] >= last:
            continue
        of = cs.find("O", first, c.ranges[0][1] + 1)
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
        inner = tuple(
            (max(a, start), min(b, stop)) for a, b in c.ranges if a <= stop and b >= start
        )
        name_end = inner[0][1]
        out.append(c.but(ranges=inner, rule="solution_component", kind="chemical", head="",
                         tokens=(inner[0][0], inner[-1][1]), core=(start, name_end), det="",
                         quantity=len(inner) > 1 or stop > name_end))
    return out


@post_pass("solution_in_mixture")
def solution_in_mixture(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``solution_in_mixture``: "a solution of X ( 1 g ) in a mixture of THF ( 10 mL ) and
    water ( 2 mL )": the solution and the mixture of its solvents are one mention."""
    words = x.tables.words["solution_in_mixture"]
    heads, mixtures = words["heads"], words["mixtures"]
    cs = x.cs
    by_first = {c.first: c for c in found if c.rule in mixtures and len(c.ranges) == 1}
    if not by_first:
        return found
    joined: dict[int, Candidate] = {}  # id of a solution -> the joined mention
    gone: set[int] = set()  # ids of the mixtures joined
    for c in found:
        if c.kind != "generic" or c.head not in heads or len(c.ranges) > 1:
            continue
        k = c.last + 1
        if k + 1 >= len(cs) or cs[k] != "I":
            continue
        m = by_first.get(k + 1)
        if m is None and cs[k + 1] == "D":
            m = by_first.get(k + 2)  # "in a 1 : 1 mixture of ...": the ratio starts the mixture
        if m is None:
            continue
        joined[id(c)] = c.but(ranges=((c.first, m.last),), rule="solution_in_mixture",
                              tokens=(c.first, m.last), quantity=True)
        gone.add(id(m))
    if not joined:
        return found
    return [joined.get(id(c), c) for c in found if id(c) not in gone]


@post_pass("catalyst_component")
def catalyst_component(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``catalyst_component``: in "a mixture of X ( 5 g ) and 10% Pd / C ( 0.5 g ) in MeOH",
    the metal catalyst "10% Pd / C ( 0.5 g )" is a mention of its own too: "the catalyst"
    refers to it. The items of the mixture are the runs between "of", commas, "and" and "in"
    outside brackets."""
    words = x.tables.words["catalyst_component"]
    metals, rules = words["metals"], words["rules"]
    cs, low = x.cs, x.low
    out = list(found)
    for c in found:
        if c.rule not in rules or len(c.ranges) > 1 or c.kind != "generic":
            continue
        first, last = c.first, c.last
        of = cs.find("O", first, last + 1)
        if of == -1:
            continue
        for a, b in _items(cs, of + 1, last):
            if any(low[k].split("(", 1)[0] in metals for k in range(a, b + 1)):
                core_end = cs.find("(", a, b + 1)
                out.append(Candidate(((a, b),), "catalyst_component", "chemical", low[a],
                                     x.sent_of[a], (a, b), (a, core_end - 1 if core_end > a
                                                           else b), "", core_end > a))
    return out


def _items(cs: str, start: int, last: int) -> list[tuple[int, int]]:
    """The items of a list from token ``start`` to ``last``: runs of tokens between commas,
    "and" and "in" outside brackets (the list ends at "in")."""
    items, depth, a = [], 0, start
    for k in range(start, last + 1):
        ch = cs[k]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and ch in "P&I":
            if k > a:
                items.append((a, k - 1))
            if ch == "I":
                return items
            a = k + 1
    if last >= a:
        items.append((a, last))
    return items


@post_pass("abbreviated_solution")
def abbreviated_solution(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``abbreviated_solution``: "2 N hydrochloric acid ( HCl ) solution", "15% sodium hydroxide
    ( NaOH ) aqueous solution": the name and the word "solution" after its bracketed
    abbreviation are one discontinuous mention (the abbreviation stays a mention)."""
    cs = x.cs
    out: list[Candidate] = []
    for b in sorted(found, key=_RANGES):
        if len(out) >= 2:
            a, abbrev = out[-2], out[-1]
            e = a.last
            if (
                abbrev.rule == "bracketed_abbreviation" and abbrev.ranges == ((e + 2, e + 2),)
                and cs[e + 1] == "(" and cs[e + 3] == ")" and len(a.ranges) == 1
                and a.rule in ("chemical_np", "amount_of_np") and a.kind == "chemical"
                and b.rule == "generic_np" and b.first == e + 4 and len(b.ranges) == 1
                and b.head == "solution" and not b.det
            ):
                out[-2:] = [abbrev, a.but(ranges=a.ranges + b.ranges, rule="abbreviated_solution",
                                          tokens=(a.first, b.ranges[0][1]))]
                continue
        out.append(b)
    return out


@post_pass("eluent_additive")
def eluent_additive(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``eluent_additive``: a solvent or eluent with a percentage of an additive is one eluent
    ("methanol containing 1% ammonium hydroxide", "acetonitrile-H2O with 0.1% TFA",
    "acetonitrile / water gradient with addition of 0.1% TFA", "DCM : MeOH = 50 : 1 , 0.1%
    aqueous ammonia"): the words between them are one of the rule's ``joiners`` (after an
    eluent with a ratio also one of ``ratio_joiners``); the additive starts with its
    percentage; a column packing (``packings``) takes none."""
    cs, low, words = x.cs, x.low, x.words
    table = x.tables.words["eluent_additive"]
    joiners, ratio_joiners = table["joiners"], table["ratio_joiners"]
    eluents, packings = table["eluents"], table["packings"]
    out: list[Candidate] = []
    for b in sorted(found, key=_RANGES):
        b0 = b.first
        if out and cs[b0] == "A":  # (most candidates start otherwise: one test)
            a = out[-1]
            a1 = a.last
            if (
                a1 + 1 < b0 <= a1 + 5 and "%" in words[b0]
                and a.rule in eluents and b.rule in ("chemical_np", "np_quantity")
                and len(a.ranges) == len(b.ranges) == 1 and a.kind == "chemical"
                and b.kind == "chemical"
                # "silica gel with 0-15% EtOAc": the packing takes no additive
                and packings.isdisjoint(low[a.first : a1 + 1])
            ):
                between = " ".join(low[a1 + 1 : b0])
                if between in joiners or (a.rule == "eluent_ratio" and between in ratio_joiners):
                    out[-1] = b.but(ranges=((a.first, b.last),), rule="eluent_additive",
                                    tokens=(a.first, b.last), core=(a.core[0], b.core[1]),
                                    det=a.det)
                    continue
        out.append(b)
    return out


@post_pass("eluent_pair")
def eluent_pair(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``eluent_pair``: two solvents joined by "and" with a bracket of percentages after the
    second are one eluent ("methanol and chloroform ( concentration gradient , 0 to 20% )");
    a bracket with an amount ("( 50 mL )") belongs to the second solvent alone."""
    cs, words = x.cs, x.words
    out: list[Candidate] = []
    for b in sorted(found, key=_RANGES):
        if out:
            a = out[-1]
            if (
                a.rule in ("chemical_np", "eluent_additive") and b.rule == "np_quantity"
                and len(a.ranges) == 1
                and len(b.ranges) == 1 and a.kind == b.kind == "chemical"
                and b.first == a.ranges[0][1] + 2 and cs[a.ranges[0][1] + 1] == "&"
            ):
                b0, b1 = b.core[1] + 1, b.ranges[0][1]
                if "U" not in cs[b0:b1] and any("%" in w for w in words[b0:b1]):
                    out[-1] = b.but(ranges=((a.first, b1),), rule="eluent_pair",
                                    tokens=(a.first, b1), core=(a.core[0], b0 - 1), det=a.det)
                    continue
        out.append(b)
    return out


@post_pass("column_packing")
def column_packing(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``column_packing``: before "column"/"chromatography" the mention is the packing alone:
    its determiner and modifiers belong to the column ("onto a silica gel column" -> "silica
    gel", "reverse phase silica gel column" -> "silica gel"); without a chemical word it is
    no mention ("thin layer chromatography", "reverse phase column"). ``amount_comma_packing``:
    "an Isolute column ( 2g , silica )": the amount before the packing is its own."""
    cs, low = x.cs, x.low
    column = x.tables.words["column_packing"]["column"]
    out = []
    n = len(low)
    for c in found:
        a, b = c.ranges[-1]
        if len(c.ranges) > 1 or b + 1 >= n or low[b + 1] not in column:
            out.append(c)
            continue
        k = a
        while k <= b and cs[k] in "DW-":
            k += 1
        if k == a:
            out.append(c)
        elif any(ch in "CbX" for ch in cs[k : b + 1]):
            out.append(c.but(ranges=((k, b),), rule="column_packing", tokens=(k, b), core=(k, b),
                             det=""))
    if "(AP" not in cs:
        return out
    for j, c in enumerate(out):
        a, b = c.ranges[0]
        if (
            len(c.ranges) == 1 and 3 < a and b + 1 < n and cs[a - 3 : a] == "(AP"
            and cs[b + 1] == ")" and low[a - 4] in column and c.kind == "chemical"
        ):
            out[j] = c.but(ranges=((a - 2, b),), rule="amount_comma_packing", tokens=(a - 2, b),
                           quantity=True)
    return out


@post_pass("solvent_pair")
def solvent_pair(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``solvent_pair``: two solvents with their volumes joined by "/" are one mention
    ("dissolved in ethanol ( 15 mL ) / water ( 4 mL )", "a solvent of THF ( 200 ml ) / water
    ( 50 ml )")."""
    cs = x.cs
    out: list[Candidate] = []
    for f in sorted(found, key=_RANGES):
        if out:
            c = out[-1]
            (a, b), *rest = c.ranges
            (d0, d), *rest2 = f.ranges
            if (
                not rest and not rest2 and d0 == b + 2 and cs[b] == ")" and cs[b + 1] == "/"
                and cs[d] == ")" and c.quantity and f.quantity and f.kind == "chemical"
            ):
                out[-1] = c.but(ranges=((a, d),), rule="solvent_pair", tokens=(a, d))
                continue
        out.append(f)
    return out


@post_pass("eluent_sequence")
def eluent_sequence(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``eluent_sequence``: eluents run one after the other are one eluent ("petroleum ether /
    acetone 100 / 0 to 80 / 20 then heptane / acetone 100 / 0 to 60 / 40", "70-100% EtOAc in DCM
    , then 0-5% MeOH in EtOAc"): the words between them are one of the rule's ``joiners``."""
    low = x.low
    table = x.tables.words["eluent_sequence"]
    joiners, eluents = table["joiners"], table["eluents"]
    out: list[Candidate] = []
    for b in sorted(found, key=_RANGES):
        if out:
            a = out[-1]
            if (
                a.rule in eluents and b.rule in eluents and len(a.ranges) == len(b.ranges) == 1
                and a.last + 1 < b.first <= a.last + 3
                and " ".join(low[a.last + 1 : b.first]) in joiners
            ):
                out[-1] = a.but(ranges=((a.first, b.last),), rule="eluent_sequence",
                                tokens=(a.first, b.last), core=(a.core[0], b.core[1]))
                continue
        out.append(b)
    return out


# -- filters -------------------------------------------------------------------------------


@post_pass("tlc_eluent")
def tlc_eluent(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``tlc_eluent``: the eluent of a TLC check is no compound of the reaction ("After TLC
    ( PE : EA = 10 : 1 ) showed completion", "monitored by TLC ( hexane : EtOAc = 2 : 1 )")."""
    cs, low = x.cs, x.low
    tlc = x.tables.words["tlc_eluent"]["tlc"]
    out = []
    for c in found:
        k = cs.rfind("(", 0, c.first)
        if not (k > 0 and low[k - 1] in tlc and ")" not in cs[k : c.first]):
            out.append(c)
    return out


@post_pass("reaction_as_subject")
def reaction_as_subject(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``reaction_as_subject``: a bare "(the) reaction" is a mention only as the subject of
    was/were/is ("the reaction was stirred"), not in "completion of the reaction", "reaction
    scheme", "after the reaction ,", nor when the verb names the process itself ("the
    reaction was stopped", "the reaction was carried out")."""
    if "reaction" not in x.low_set:
        return found  # (no mention has the head "reaction")
    words = x.tables.words["reaction_as_subject"]
    verbs, not_after, process = words["verbs"], words["not_after"], words["process"]
    low = x.low

    def kept(c: Candidate) -> bool:
        if c.head != "reaction" or len(c.ranges) > 1:
            return True
        a, b = c.ranges[0]
        if b - a > 1 or (b > a and c.det == ""):
            return True  # a longer phrase: "the reaction mixture" has another head anyway
        after = low[b + 1] if b + 1 < len(low) else ""
        before = low[a - 1] if a else ""
        then = low[b + 2] if b + 2 < len(low) else ""
        return after in verbs and before not in not_after and then not in process

    return [c for c in found if c.head != "reaction" or kept(c)]


@post_pass("determined_head")
def determined_head(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``determined_head``: "the result", "the whole", "the resultant" stand for the reaction
    material only with a determiner ("As a result ,", "by precipitation" are no mentions)."""
    words = x.tables.words["determined_head"]
    heads, dets, not_after = words["heads"], words["determiners"], words["not_after"]
    if heads.isdisjoint(x.low_set):
        return found  # (no mention has one of these heads)
    low = x.low
    return [
        c for c in found
        if c.head not in heads
        or (c.det in dets and (c.first == 0 or low[c.first - 1] not in not_after))
    ]


@post_pass("infinitive_verb")
def infinitive_verb(x: DocContext, found: list[Candidate]) -> list[Candidate]:
    """``infinitive_verb``: a one-word mention after "to" that is a verb ("to terminate the
    reaction", "to concentrate", "to precipitate a solid"), not a compound."""
    verbs = x.tables.words["infinitive_verb"]["verbs"]
    if verbs.isdisjoint(x.low_set):
        return found  # (no mention has one of these heads)
    low = x.low
    return [
        c for c in found
        if c.head not in verbs
        or not (len(c.ranges) == 1 and c.ranges[0][0] == c.ranges[0][1] and c.first > 0
                and low[c.first - 1] == "to")
    ]
