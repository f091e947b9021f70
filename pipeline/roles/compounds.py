"""Compound spans (ChEMU 2020 conventions) and their roles by the table's compound rules."""

from __future__ import annotations

import regex

from chemie.model import Mention
from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import NONE, CompoundRule, RoleTable

# "aqueous X", "aq. X": the prefix belongs to the name
_AQUEOUS = regex.compile(r"(?i:\b(?:aqueous|aq\.?)\s)$")
# a compound label: "22", "38-h", "1-a", "I-305", "A5b", "(4)"
_IDENT = regex.compile(r"^[(\[]?([0-9]+[A-Za-z]?(?:[-.][0-9A-Za-z]+)*|[A-Z]{1,2}-?[0-9]*[a-z]?|"
                       r"[IVX]+-[0-9]+[a-z]?)[)\]]?$")
_NUMBER_HEADS = frozenset(("compound", "compounds", "product", "products"))
_EXAMPLE_REF = regex.compile(r"(?i)^(?:the\s+)?(compounds?\s+(?:from|of)\s+(?:ex\.|example)\s*\S+)")
_DROP_MODIFIERS = frozenset(("the", "a", "an", "this", "that", "white", "crude", "pure",
                             "obtained", "solid", "resulting", "precipitated", "yellow"))


def find_compounds(ctx: RoleContext) -> list[Found]:
    """Compound spans: NER chemicals (names split at a space joined again when one mention
    core holds them, "aqueous" kept before a name) and references to compounds."""
    text = ctx.text
    cores = [(_core_chars(ctx, m), m) for m in ctx.mentions if "core" in m.attrs]
    out: list[Found] = []
    for a, b in ctx.chemicals:
        if out and out[-1].kind == "compound" and text[out[-1].end : a] == " " and any(
                ca <= out[-1].start and b <= cb for (ca, cb), _ in cores):
            out[-1].end = b  # "2-bromoethyl methyl ether" split by the NER
            continue
        pre = _AQUEOUS.search(text, max(0, a - 9), a)
        if pre is not None:
            a = pre.start()
        out.append(Found(a, b, "compound"))
    for (ca, cb), m in cores:
        if m.attrs.get("kind") != "reference":
            continue
        ref = _reference_span(ctx, m, ca, cb)
        if ref is not None and not any(f.overlaps(ref) for f in out):
            out.append(ref)
    out.sort(key=lambda f: f.start)
    return out


def _core_chars(ctx: RoleContext, m: Mention) -> tuple[int, int]:
    first, last = m.attrs["core"]  # type: ignore[misc]
    return ctx.tokens.idx[first], ctx.ends[last]


def _reference_span(ctx: RoleContext, m: Mention, ca: int, cb: int) -> Found | None:
    """The span of a reference mention: the label of "compound 22", the whole "compound from
    Example 5", "Intermediate 3-a", or "title compound" without determiner or adjectives."""
    text = ctx.text
    core = text[ca:cb]
    ex = _EXAMPLE_REF.match(core)
    if ex:
        return Found(ca + ex.start(1), ca + ex.end(1), "reference")
    words = core.split()
    head = str(m.attrs.get("head", ""))
    if head == "example":
        return None
    if len(words) >= 2 and words[-2].lower() in _NUMBER_HEADS and _IDENT.match(words[-1]):
        label = _IDENT.match(words[-1])
        start = cb - len(words[-1]) + label.start(1)
        return Found(start, start + len(label.group(1)), "reference")
    # drop leading adjectives and determiners ("the white title compound")
    start = ca
    for w in words[:-1]:
        if w.lower() not in _DROP_MODIFIERS:
            break
        start = text.index(w, start) + len(w)
        while start < cb and text[start].isspace():
            start += 1
    return Found(start, cb, "reference")


def describe(ctx: RoleContext, f: Found, table: RoleTable, heading: int) -> dict[str, object]:
    """The facts the compound rules test, for one compound span."""
    for m in ctx.covering(f.start, f.end):
        if f.mention is None:
            f.mention = m.id
        hits = ctx.argument_of.get(m.id)
        if hits:
            f.links = hits
            f.action, f.role = hits[-1]
            break
    phase = f.action.phase if f.action is not None else _phase_near(ctx, f.start)
    return {
        "place": "heading" if f.start < heading else "body",
        "phase": phase,
        "reference": f.kind == "reference",
        "text": ctx.text[f.start : f.end].lower(),
        "after": _word_before(ctx, f.start, table.words["skipped_before"]),
    }


def _phase_near(ctx: RoleContext, char: int) -> str:
    """The phase of the action nearest before ``char`` in its sentence, else the phase of the
    next action in the sentence, else of the last action before it, else "reaction"."""
    import bisect

    k = bisect.bisect_right(ctx.action_starts, char)
    sentence = ctx.sentence_of_char(char)
    if k > 0 and ctx.actions[k - 1].sentence == sentence:
        return ctx.actions[k - 1].phase
    if k < len(ctx.actions) and ctx.actions[k].sentence == sentence:
        return ctx.actions[k].phase
    return ctx.actions[k - 1].phase if k > 0 else "reaction"


def _word_before(ctx: RoleContext, char: int, skipped: frozenset[str]) -> str:
    """The lowercased word governing the compound at ``char``: the nearest token before it
    that is not an amount, a unit, "of", a determiner or a modifier (up to 8 tokens)."""
    tokens = ctx.tokens
    i = ctx.token_at(char) - 1
    for _ in range(8):
        if i < 0:
            return ""
        low = tokens.lower[i]
        if low in skipped or low.replace(".", "").replace(",", "").isdigit():
            i -= 1
            continue
        return low
    return ""


def matches(rule: CompoundRule, facts: dict[str, object], f: Found,
            table: RoleTable, yields: set[int]) -> bool:
    """Whether compound ``f`` with ``facts`` meets every condition of ``rule``."""
    for key, want in rule.when.items():
        if key in ("place", "phase", "reference"):
            if facts[key] != want:
                return False
        elif key == "arg":
            if not any(role in want for _, role in f.links):
                return False
        elif key == "action":
            if not any(a.label in want for a, _ in f.links):
                return False
        elif key == "after":
            if facts["after"] not in want:
                return False
        elif key == "words":
            if facts["text"] not in table.words[want]:
                return False
        elif key == "not_words":
            if facts["text"] in table.words[want]:
                return False
        elif key == "yield_after":
            if (f.start in yields) != want:
                return False
        else:  # "lexicon": not available yet
            return False
    return True


def assign_roles(ctx: RoleContext, compounds: list[Found], table: RoleTable, heading: int,
                 yields: set[int]) -> list[Found]:
    """Label each compound by the first rule it meets; those labelled NONE are dropped."""
    out = []
    for f in compounds:
        facts = describe(ctx, f, table, heading)
        for rule in table.compounds:
            if matches(rule, facts, f, table, yields):
                f.label, f.rule = rule.label, rule.name
                break
        if f.label and f.label != NONE:
            out.append(f)
    return out
