"""Compound spans (ChEMU 2020 conventions) and their roles by the table's compound rules."""

from __future__ import annotations

import regex

from chemie.model import Mention
from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import NONE, CompoundRule, RoleTable

# "aqueous X", "aq. X": the prefix belongs to the name
_AQUEOUS = regex.compile(r"(?i:\b(?:aqueous|aq\.?)\s)$")
# "an aqueous solution of X", "2 M aqueous sodium hydroxide solution": "aqueous" alone
_AQUEOUS_ALONE = regex.compile(r"(?i:\b(aqueous)\s(?=solution|mixture|suspension))")
# a compound label: "22", "38-h", "1-a", "I-305", "A5b", "(4)"
_IDENT = regex.compile(r"^[(\[]?([0-9]+[A-Za-z]?(?:[-.][0-9A-Za-z]+)*|[A-Z]{1,2}-?[0-9]*[a-z]?|"
                       r"[IVX]+-[0-9]+[a-z]?)[)\]]?$")
_WORD = regex.compile(r"\w+\.?")
# a step heading inside a heading: "Step 1", "Step A:", "[Step 1]", "(1) Preparation of"
_STEP_HEADING = regex.compile(r"(?i)\b(?:step|stage)\s*[0-9A-Z]\b|\(\d{1,2}\)\s*(?:preparation|"
                              r"synthesis)\b|\b(?:first|second|third)\s+step\b")
OTHER, SOLVENT = "OTHER_COMPOUND", "SOLVENT"
AQUEOUS_RULE = "aqueous_solvent"  # a builtin rule (rules/roles.yaml)
_NUMBER_HEADS = frozenset(("compound", "compounds", "product", "products"))
_EXAMPLE_REF = regex.compile(r"(?i)^(?:the\s+)?(compounds?\s+(?:from|of)\s+(?:ex\.|example)\s*\S+)")
_DROP_MODIFIERS = frozenset(("the", "a", "an", "this", "that", "white", "crude", "pure",
                             "obtained", "solid", "resulting", "precipitated", "yellow"))


# a run of name tokens: chemical words and the brackets inside a name (a name starting a
# sentence after a heading, class b, starts a run of its own), with an identifier after it
# ("... carboxamide I-1", "phenol 3b")
_NAME_RUN = regex.compile(r"[Cb][C-]*(?<!-)|[C-]*C")


# a token the mention classes leave as "other" (X) that reads as a name: letters, and
# digits or brackets ("3-(4-((1S,3R/1R,3S)-...)acrylate", "[bis(...)imidate]gold(I)")
_NAME_LIKE = regex.compile(r"(?=.*[a-z]{3})(?=.*[\d(\[])\S{6,}")
# mixture names joined by a dash, slash or colon ("hexane-ethyl acetate", "water/MeCN")
_JOINS = regex.compile(r"\s?[-/:]\s?")
# a word right before / after a name
_WORD_BEFORE = regex.compile(r"(\S+)\s$")
_WORD_AFTER = regex.compile(r"\s(\w+)\b")
# "NaOH aqueous solution", "NaHCO3 aqueous": "aqueous" after the name
_AQUEOUS_AFTER = regex.compile(r"\s(aqueous)\b(?!\s+(?:layer|phase)s?\b)", regex.IGNORECASE)
# "NAME (racemate)": the descriptor belongs to the name
_RACEMATE = regex.compile(r"\s\((?:racemate|racemic|rac)\)")
# supported and named catalysts that the words of a name do not hold together
_CATALYST = regex.compile(r"(?i)\b(?:\d+(?:\.\d+)?\s?(?:%|w/w%)\s?)?(?:pd(?:\(oh\)2)?/c|"
                          r"palladium(?:\s+hydroxide)?(?:/|\s+on\s+(?:activated\s+)?)"
                          r"(?:carbon|charcoal)|raney\s+nickel)\b")
# "CH2Cl2=8:1", "MeOH:CH2Cl2=2:98": a name glued to a ratio in one token
_RATIO_NAME = regex.compile(r"(?<![\w)\]])([A-Za-z][A-Za-z0-9]*)(?==[\d.:]+)")


def find_compounds(ctx: RoleContext, table: RoleTable) -> list[Found]:
    """Compound spans: runs of chemical words (names split by spaces or brackets kept
    whole, "aqueous" kept before a name, an identifier after a name kept with it, a mixture
    "hexane-ethyl acetate" split into its names), the NER chemicals outside them, names
    glued to a ratio, and references to compounds."""
    text = ctx.text
    known = table.words["names"]
    strip = table.words["name_prefixes"]
    runs: list[Found] = []
    for f in _name_runs(ctx, table.words["reference_heads"]):
        runs.extend(_split_mixture(text, _strip(text, f, strip), known))
    runs = [f for f in runs if f.end > f.start and text[f.start : f.end].lower() not in
            table.words["not_compounds"]]
    covered = [(f.start, f.end) for f in runs]
    for a, b in ctx.chemicals:
        if not any(x < b and a < y for x, y in covered):
            runs.append(Found(a, b, "compound"))
    for m in _RATIO_NAME.finditer(text):
        if m.group(1).lower() in known and not any(
                x < m.end() and m.start() < y for x, y in covered):
            runs.append(Found(m.start(1), m.end(1), "compound"))
    for m in _CATALYST.finditer(text):
        runs = [f for f in runs if not (f.start < m.end() and m.start() < f.end)]
        runs.append(Found(m.start(), m.end(), "compound"))
    runs.sort(key=lambda f: f.start)
    out: list[Found] = []
    kept_before, tails = table.words["kept_modifiers"], table.words["name_tails"]
    for f in runs:
        pre = _AQUEOUS.search(text, max(0, f.start - 9), f.start)
        if pre is not None:
            f.aqueous = f.start
            f.start = pre.start()
        else:
            mod = _WORD_BEFORE.search(text, max(0, f.start - 14), f.start)
            if mod and mod.group(1).lower() in kept_before:
                f.start = mod.start(1)  # "concentrated sulfuric acid", "glacial acetic acid"
        tail = _WORD_AFTER.match(text, f.end)
        while tail and tail.group(1).lower() in tails:
            f.end = tail.end(1)  # "mineral oil", "Burgess reagent", "zinc powder"
            tail = _WORD_AFTER.match(text, f.end)
        aq = _AQUEOUS_AFTER.match(text, f.end)
        if aq and f.aqueous < 0:
            f.aqueous_tail = f.end
            f.end = aq.end(1)  # "NaHCO3 aqueous (solution)"
        racemate = _RACEMATE.match(text, f.end)
        if racemate:
            f.end = racemate.end()
        out.append(f)
    for m in _AQUEOUS_ALONE.finditer(text):
        if not any(f.start <= m.start() < f.end for f in out):
            out.append(Found(m.start(), m.end(1), "compound"))
    titles = table.words["title_refs"]
    for m in ctx.mentions:
        kind = m.attrs.get("kind")
        if kind not in ("reference", "state") or "core" not in m.attrs:
            continue
        ca, cb = _core_chars(ctx, m)
        ref = _reference_span(ctx, m, ca, cb) if kind == "reference" else _state_span(ctx, m)
        if ref is None:
            continue
        title = _title_prefix(text[ref.start : ref.end], titles)
        after = [f for f in out if f.kind == "compound" and
                 f.start == ref.start + title + 1] if title else []
        if after:
            after[0].start = ref.start  # "the title compound NAME 4c": one span
            after[0].kind = "reference"
        elif not any(f.overlaps(ref) for f in out):
            out.append(ref)
    out.sort(key=lambda f: f.start)
    return out


def _title_prefix(text: str, titles: frozenset[str]) -> int:
    """The length of the title reference that ``text`` starts with ("title compound"), or 0."""
    words = text.lower().split()
    for n in (2, 3):
        head = " ".join(words[:n])
        if head in titles and len(words) >= n:
            return len(head)
    return 0


def _state_span(ctx: RoleContext, m: Mention) -> Found | None:
    """The head word of a physical state ("a pale brown solid" -> "solid"), a candidate
    product of the step that gives it."""
    head = str(m.attrs.get("head", ""))
    text = ctx.text
    end = m.end
    while end > m.start and not text[end - 1].isalnum():
        end -= 1
    start = end - len(head)
    if not head or text[start:end].lower() != head:
        return None
    return Found(start, end, "state")


# the gap between two pieces of one name in a heading: spaces, dashes, square brackets,
# digits and words of one to three letters ("and"), no round bracket or comma
_NAME_GAP = regex.compile(r"^(?:[\s\-\[\]0-9]|\b[A-Za-z]{1,3}\b)*$")


# "NAME (8)", "NAME (Compound 39)", "NAME (LMT-891)": the label of the name before it
_BRACKET_LABEL = regex.compile(
    r"\s?\((?:(?i:compound|cpd\.?)\s)?([0-9]{1,4}[a-zA-Z]?(?:-[0-9a-zA-Z]{1,4})?|"
    r"[A-Z]{1,4}-?[0-9]{1,4}[a-z]?|[IVXL]{1,6}|[A-Z]'?)\)(?![-\w])")
BRACKET_RULE = "bracket_label"  # a builtin rule (rules/roles.yaml)


def bracket_labels(text: str, entities: list[Found]) -> list[Found]:
    """The entities with the label in brackets after each compound added, labelled as the
    compound ("1-(4-amino-3-methoxyphenyl)ethanone (8)": "8" is a product too)."""
    labels = []
    for f in entities:
        if f.kind not in ("compound", "reference"):
            continue
        m = _BRACKET_LABEL.match(text, f.end)
        if m:
            labels.append(Found(m.start(1), m.end(1), "reference", f.label, BRACKET_RULE,
                                f.mention, f.action, f.role, f.links))
    kept = [f for f in entities if not any(f.overlaps(x) for x in labels)]
    return sorted(kept + labels, key=lambda f: f.start)


def merge_heading_names(text: str, compounds: list[Found], heading: int,
                        known: frozenset[str]) -> list[Found]:
    """Join the pieces of a name the heading holds split by odd spaces ("tert butyl
    (2S,4S)-...", "...isoquinolin-1 -yl)-3,5 -difluorophenyl)acrylate"); a known name after
    it ("... Isopropanol") starts the procedure."""
    out: list[Found] = []
    for f in compounds:
        prev = out[-1] if out else None
        if (prev is not None and f.end <= heading and prev.kind == f.kind == "compound"
                and f.start - prev.end <= 6 and _NAME_GAP.match(text[prev.end : f.start])
                and text[f.start : f.end].lower() not in known):
            prev.end = f.end
            continue
        out.append(f)
    return out


def _balanced(text: str) -> bool:
    """Whether every bracket of ``text`` is closed in it (and none closed before opened)."""
    depth = 0
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _strip(text: str, f: Found, prefixes: frozenset[str]) -> Found:
    """``f`` without a leading word of ``prefixes`` ("ice water", "ice-water", "DI water")."""
    while True:
        word = regex.match(r"[^\s-]+[\s-]", text[f.start : f.end])
        if word is None or word.group()[:-1].lower() not in prefixes:
            return f
        f.start += len(word.group())


def _pieces(part: str, known: frozenset[str]) -> list[str] | None:
    """``part`` split at slashes, colons and dashes into known names, or None."""
    if part.lower() in known:
        return [part]
    for m in _JOINS.finditer(part):
        head, tail = part[: m.start()], part[m.end() :]
        if head.lower() in known:
            rest = _pieces(tail, known)
            if rest is not None:
                return [head, *rest]
    return None


def _split_mixture(text: str, f: Found, known: frozenset[str]) -> list[Found]:
    """A run naming a mixture of known names ("hexane-ethyl acetate", "n-hexane/ethyl
    acetate") as one span per name."""
    part = text[f.start : f.end]
    pieces = _pieces(part, known) if _JOINS.search(part) else None
    if pieces is None or len(pieces) < 2:
        return [f]
    out, at = [], f.start
    for p in pieces:
        a = text.index(p, at)
        out.append(Found(a, a + len(p), "compound"))
        at = a + len(p)
    return out


def _name_runs(ctx: RoleContext, heads: frozenset[str]) -> list[Found]:
    """The runs of name tokens in the class string, as compound spans (tokens of a run are
    at most one space apart; reference heads such as "COMPOUND" are no name tokens)."""
    idx, ends, words, lower = ctx.tokens.idx, ctx.ends, ctx.tokens.text, ctx.tokens.lower
    cs = "".join("C" if c == "X" and _NAME_LIKE.match(w) else "W" if low in heads else c
                 for c, w, low in zip(ctx.classes, words, lower, strict=False))
    out: list[Found] = []
    if not cs:
        return out
    for m in _NAME_RUN.finditer(cs):
        first, last = m.start(), m.end() - 1
        # split where tokens are further apart than one space
        start = first
        for i in range(first, last + 1):
            if i == last or idx[i + 1] - ends[i] > 1:
                end = i
                while end > start and cs[end] == "-":
                    end -= 1
                if cs[start] == "-" and not _balanced(ctx.text[idx[start] : ends[end]]):
                    start += 1  # a bracket before the name, not its "(E)-" or "[(4R)-"
                if start <= end:
                    b = ends[end]
                    # "... carboxamide I-1", "phenol 3b": the identifier after the name
                    if end + 1 < len(cs) and cs[end + 1] == "Z" and idx[end + 1] - b == 1 and (
                            end + 2 >= len(cs) or cs[end + 2] not in "CZ"):
                        b = ends[end + 1]
                    if any(c.isalpha() for c in words[start]):
                        out.append(Found(idx[start], b, "compound"))
                start = i + 1
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
    if len(words) >= 3 and words[-2].lower() in ("no.", "no") and (
            words[-3].lower() in _NUMBER_HEADS):
        words = words[:-2] + words[-1:]
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


def describe(ctx: RoleContext, f: Found, table: RoleTable, heading: int,
             lexicon: dict[str, str]) -> dict[str, object]:
    """The facts the compound rules test, for one compound span."""
    for m in ctx.covering(f.start, f.end):
        if f.mention is None:
            f.mention = m.id
        hits = ctx.argument_of.get(m.id)
        if hits:
            f.links = hits
            f.action, f.role = hits[-1]
            break
    phase = ctx.phase(f.action) if f.action is not None else _phase_near(ctx, f.start)
    end = f.aqueous_tail if f.aqueous_tail >= 0 else f.end
    text = ctx.text[max(f.start, f.aqueous) : end].lower()
    place = "body"
    if f.start < heading:
        place = "heading"
        rest = ctx.text[f.end : heading]
        step = _STEP_HEADING.search(rest)
        if step and text not in rest[step.end() :].lower():
            place = "title"  # "Intermediate 62: NAME Step A: NAME2": NAME is the target
    return {
        "place": place,
        "phase": phase,
        "reference": f.kind == "reference",
        "state": f.kind == "state",
        "text": text,
        "lexicon": lexicon.get(" ".join(text.split())),
        "after": _word_before(ctx, f.start, table.words["skipped_before"]),
        "source": ctx.text,
        "before": ctx.text[max(0, f.start - 40) : f.start],
        "bracketed": _bracketed(ctx.text, f.start, f.end),
    }


def _bracketed(text: str, start: int, end: int) -> bool:
    """Whether ``[start, end)`` stands alone in brackets ("( 27 )", "(Compound 27)")."""
    before = text[max(0, start - 12) : start].rstrip()
    after = text[end : end + 3].lstrip()
    return (before.endswith("(") or bool(regex.search(r"\((?i:compound|cpd\.?)\s*$", before))
            ) and after.startswith(")")


def _phase_near(ctx: RoleContext, char: int) -> str:
    """The phase of the action nearest before ``char`` in its sentence, else the phase of the
    next action in the sentence, else of the last action before it, else "reaction"."""
    import bisect

    k = bisect.bisect_right(ctx.action_starts, char)
    sentence = ctx.sentence_of_char(char)
    if k > 0 and ctx.actions[k - 1].sentence == sentence:
        return ctx.phase(ctx.actions[k - 1])
    if k < len(ctx.actions) and ctx.actions[k].sentence == sentence:
        return ctx.phase(ctx.actions[k])
    return ctx.phase(ctx.actions[k - 1]) if k > 0 else "reaction"


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
        if key in ("place", "phase", "reference", "state"):
            if facts[key] != want:
                return False
        elif key == "arg":
            if not any(role in want for _, role in f.links):
                return False
        elif key == "action":
            if not any(a.label in want for a, _ in f.links):
                return False
        elif key == "verb":
            text = facts["source"]
            if not any(text[a.start : a.end].lower() in want for a, _ in f.links):
                return False
        elif key == "bracketed":
            if facts["bracketed"] != want:
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
        elif key == "pattern":
            if table.patterns[want].search(facts["text"]) is None:
                return False
        elif key == "before":
            if table.patterns[want].search(facts["before"]) is None:
                return False
        elif key == "lexicon":
            if facts["lexicon"] not in want:
                return False
    return True


def assign_roles(ctx: RoleContext, compounds: list[Found], table: RoleTable, heading: int,
                 yields: set[int], lexicon: dict[str, str]) -> list[Found]:
    """Label each compound by the first rule it meets; those labelled NONE are dropped."""
    out = []
    for f in compounds:
        facts = describe(ctx, f, table, heading, lexicon)
        for rule in table.compounds:
            if matches(rule, facts, f, table, yields):
                f.label, f.rule = rule.label, rule.name
                break
        if not f.label or f.label == NONE:
            continue
        if f.aqueous >= 0 and f.label != OTHER:
            # "2 M aqueous potassium carbonate" in a reaction: "aqueous" is the solvent
            word = _WORD.match(ctx.text, f.start)
            out.append(Found(f.start, word.end() if word else f.aqueous, f.kind, SOLVENT,
                             AQUEOUS_RULE, f.mention, f.action, f.role, f.links))
            f.start = f.aqueous
        elif f.aqueous_tail >= 0 and f.label != OTHER:
            # "2 mol/L potassium carbonate aqueous solution": the same, after the name
            out.append(Found(f.end - len("aqueous"), f.end, f.kind, SOLVENT, AQUEOUS_RULE,
                             f.mention, f.action, f.role, f.links))
            f.end = f.aqueous_tail
        out.append(f)
    return out
