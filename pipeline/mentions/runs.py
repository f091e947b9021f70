"""Tests on runs of the class string that the detector makes on a match (functions of the
letters and words alone, no state): where a rejected bare core can be skipped, whether a core
describes a solution, names a solvent, a bracket describes the compound, a core ends with a
reference id."""

from __future__ import annotations

import re

# A rejected bare core made only of these classes ("! ! ! ...", a line of punctuation) needs
# no search from the positions inside it: a core starting there ends where it ends, takes the
# same (absent) groups after it and is rejected too (it has no chemical, generic, reference or
# equipment word), and no other branch can start there ...
PLAIN_RUN = re.compile(r"[XZU/-]+")
# ... nor with words, numbers and amounts in it, unless the class after it continues a lead
# amount ("W* N : N", "N U (", "A ... O"), a gradient ("A ... I", "N S A") or a lone "n"
PLAIN_RUN_WORDS = re.compile(r"[XZUWNA/-]+")
CONTINUES_LEAD = frozenset("nx:S(DOPI")


def plain_run(cs: str, start: int, stop: int) -> bool:
    """True when no search from inside the rejected bare core ``start:stop`` finds a mention
    before ``stop`` (so the search resumes there: linear time on long runs)."""
    if PLAIN_RUN.fullmatch(cs, start, stop):
        return True
    return (
        PLAIN_RUN_WORDS.fullmatch(cs, start, stop) is not None
        and (stop == len(cs) or cs[stop] not in CONTINUES_LEAD)
    )


def is_solution(
    words: list[str], low: list[str], cs: str, c0: int, c1: int, solution_heads: frozenset[str]
) -> bool:
    """``a solution of X``, ``a 4 M HCl solution``: a core that describes a solution."""
    core = cs[c0:c1]
    if "O" in core:
        return core[core.index("O") - 1] == "G"
    if core[:2] in ("NU", "nU") and words[c0 + 1] in ("M", "N"):
        return True  # "4 M hydrogen chloride in dioxane"
    return core[-1:] == "G" and low[c1 - 1] in solution_heads


def has_name(cs: str, m: re.Match) -> bool:
    """``in THF ( 2 mL )`` names something; ``in 240 ml`` does not."""
    a, b = m.span("sol") if m.group("sol") else m.span("sol2")
    return any(c in "CXGKWbk" for c in cs[a:b].split("(")[0])


def describes(
    low: list[str], a: int, b: int, descriptor_words: frozenset[str],
    solution_heads: frozenset[str],
) -> bool:
    """The words ``low[a + 1 : b - 1]`` after the opening bracket at ``a`` (up to the comma
    before ``b``) describe the compound ("( conc , 1 mL )", "( racemate , 117 mg )",
    "( hexane solution , 22 mL )"): no abbreviation, the bracket stays whole."""
    inner = low[a + 1 : b - 1]
    return bool(inner) and (
        all(w in descriptor_words for w in inner) or inner[-1] in solution_heads
    )


def ref_id(cs: str, c0: int, end: int) -> bool:
    """``Compound 22``, ``intermediate 4a``, ``Compound No. 5``: a reference head followed by
    an identifier."""
    if end - c0 < 2 or cs[end - 1] not in "NZXCnb":
        return False
    k = end - 2  # the last class before the id that is no number sign
    while k > c0 and cs[k] == "#":
        k -= 1
    return cs[k] in "Kk"
