"""Name grounding: from a mention's text to the clean name(s) to resolve, and why the rest went.

``ground("a solution of 2 - chloro - pyridine ( 1.2 g , 3 mmol ) in dry THF ( 5 mL )")``
gives two names, ``2 - chloro - pyridine`` (role ``solute``; spellings to try:
``2 - chloro - pyridine``, ``2-chloro-pyridine``) and ``THF`` (role ``solvent``), and the
pieces taken out with their rule and reason (``quantity``, ``determiner``, ``modifier`` …).
Parts that are no names are kept with the reason (``compound label``, ``reference``,
``generic phrase``, ``not a chemical name``, ``molecular formula``), so a caller can say
why a mention has no structure. The rules are data: ``rules/grounding.yaml`` (the order of
work is described there).

Offsets (``start``, ``end``) are character offsets into the grounded text, so a caller that
grounds a mention's text can place each name in its document. Nothing here reads a file at
call time or resolves anything: :mod:`chemie.structures.resolve` tries the spellings.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from chemie.tables import TableError, load_table

TABLE = "grounding.yaml"

Known = Callable[[str], bool]
MAX_TEXT = 1000  # characters; the longest chemical mention in ChEMU-Ref docs 0-599 has 318
ROLES = ("name", "solute", "solvent", "component")
_DASHES = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2212"} | {"\u2032": "'"})
# spaces next to these are tokenizer artefacts inside a name ("2 - chloro", "( E)-", "8 ,9")
_JOINERS = re.compile(r"\s*([-()\[\]{},'])\s*")
_OPEN, _CLOSE = "([{", ")]}"
_MARKS = re.compile(r"[®™©]")
_INNER_SPACES = re.compile(r"(?<=[(\[{])\s+|\s+(?=[)\]}])|\s*([-,'])\s*")
_BROKEN_WORD = re.compile(r"(?<=[a-z]) - (?=[a-z])")
_SALT_DOT = re.compile(r"(?<=[a-z)\]])[.·](?=[a-z]{4})")  # "amine.dibenzoate" -> "amine dibenzoate"
# a salt or hydrate written as a formula after a dot ("amine·HCl", "amine.2HCl", "acid·H2O")
_SALT_FORMULA = re.compile(r"(?<=[\w)\]])\s*[.·•]\s*(?P<n>[1-3]?)\s*(?P<salt>HCl|HBr|HI|TFA|H2O)$")
_HYDRATES = {"": "hydrate", "1": "monohydrate", "2": "dihydrate", "3": "trihydrate"}
# a substituent prefix with a locant cut from its parent by a space ("2-hydroxy acetamide",
# "4-methyl benzoate"): the space before a lowercase word after a word with a locant
_SPACED_PREFIX = re.compile(r"(?<!\S)(\S*\d-\S*[a-z]) (?=[a-z])(?!(?:acids?|esters?|salts?|ethers?|"
                            r"anhydrides?|and|or|in|of|with|hydro\w+|mono\w+|di\w*hydro\w+)\b)")
# alternative stereodescriptors, which OPSIN refuses: "(1S,3R/1R,3S)", "(E/Z)" (the first is
# tried: structures are compared without stereo)
_STEREO = r"(?:\d+[a-z]?)?[RSEZ]\*?"
_ALTERNATIVE_STEREO = re.compile(rf"\(({_STEREO}(?:,\s?{_STEREO})*)/{_STEREO}(?:,\s?{_STEREO})*\)")
# a locant list written with a dot ("3.5-bis(trifluoromethyl)", "thieno[3.2-d]"): a comma
_LOCANT_DOT = re.compile(r"(?<![\d.])(\d)\.(\d)(?=-)")
# indicated hydrogen written with a hyphen ("2-H-chromene"): "2H-chromene"
_DASHED_HYDROGEN = re.compile(r"(?<![\d\w])(\d+)-H-(?=[a-z])")
# an ester written as one word ("diethylmalonate", "ethyl4-bromobenzoate"): its alkyl apart
_ONE_WORD_ESTER = re.compile(
    r"^((?:di|tri)?(?:methyl|ethyl|n-propyl|propyl|isopropyl|n-butyl|butyl|isobutyl|"
    r"tert-butyl|t-butyl|benzyl|allyl|phenyl|vinyl))(?=[a-z\d(\[]\S*ate$)", re.IGNORECASE)


@dataclass(frozen=True)
class Piece:
    """Text taken out of the mention (or a part that is no name), with its rule and reason."""

    text: str
    start: int
    end: int
    rule: str
    reason: str


@dataclass(frozen=True)
class Name:
    """A name to resolve: its text as written (spaces normalised), where it is, its role in
    the mention, the rule that made it a part, and the spellings to try in order."""

    text: str
    start: int
    end: int
    role: str
    rule: str
    candidates: tuple[str, ...]


@dataclass(frozen=True)
class Grounding:
    """The names of one mention text, and everything that was taken out or refused."""

    text: str
    names: tuple[Name, ...] = ()
    stripped: tuple[Piece, ...] = ()
    rejected: tuple[Piece, ...] = ()

    @property
    def reason(self) -> str | None:
        """Why the text holds no name (None when it holds one): the first refused part's
        reason, else a label taken out ("( 4a )"), else ``no name`` (nothing but quantities,
        determiners …)."""
        if self.names:
            return None
        if self.rejected:
            return self.rejected[0].reason
        return next((p.reason for p in self.stripped if p.reason == "compound label"), "no name")

    def rules(self) -> set[str]:
        """Every rule that fired (for tests and explanations)."""
        return {p.rule for p in (*self.stripped, *self.rejected)} | {n.rule for n in self.names}


@dataclass(frozen=True)
class _Rule:
    name: str
    reason: str
    regex: re.Pattern[str]
    kind: str = ""  # splits: "pattern" or "separator"; guards: "no_locant", "known_sides"
    guard: str = ""


@dataclass
class _Work:
    """The text being grounded: ``w`` is the text with taken-out brackets blanked."""

    text: str
    w: str
    known: Known
    stripped: list[Piece] = field(default_factory=list)
    rejected: list[Piece] = field(default_factory=list)
    names: list[Name] = field(default_factory=list)
    aliases: list[tuple[int, int]] = field(default_factory=list)
    extra: list[tuple[int, int, str, str]] = field(default_factory=list)  # (a, b, role, rule)

    def take(self, a: int, b: int, rule: str, reason: str) -> None:
        piece = " ".join(self.w[a:b].split())
        if piece:
            self.stripped.append(Piece(piece, a, b, rule, reason))

    def blank(self, a: int, b: int) -> None:
        self.w = self.w[:a] + " " * (b - a) + self.w[b:]

    def clean(self, a: int, b: int) -> str:
        return " ".join(self.w[a:b].split())


def _compile(pattern: str, placeholders: dict[str, str], exact: bool = False) -> re.Pattern:
    for key, value in placeholders.items():
        pattern = pattern.replace("{" + key + "}", value)
    return re.compile(pattern, 0 if exact else re.IGNORECASE)


@dataclass(frozen=True)
class PatternRule:
    """A named pattern of ``rules/grounding.yaml`` (``reason``: why what it takes out
    leaves no name; ``case: exact`` matches case-sensitively)."""

    name: str
    comment: str
    pattern: str
    example: str
    reason: str = ""
    case: Literal["exact", "any"] = "any"


@dataclass(frozen=True)
class SplitRule:
    """A named split: a ``pattern`` with named groups, or a ``separator`` between pieces,
    tried only where its ``guard`` allows."""

    name: str
    comment: str
    example: str
    pattern: str | None = None
    separator: str | None = None
    guard: Literal["", "no_locant", "known_sides"] = ""


@dataclass(frozen=True)
class GroundingTable:
    """``rules/grounding.yaml``."""

    placeholders: dict[str, str]
    brackets: tuple[PatternRule, ...]
    bracket_solvents: tuple[PatternRule, ...]
    prefixes: tuple[PatternRule, ...]
    suffixes: tuple[PatternRule, ...]
    splits: tuple[SplitRule, ...]
    rejects: tuple[PatternRule, ...]


_SECTIONS = ("brackets", "bracket_solvents", "prefixes", "suffixes", "splits", "rejects")


def grounding_table() -> GroundingTable:
    """The typed grounding rules (``rules/grounding.yaml``, read once)."""
    table = load_table(TABLE, GroundingTable)
    for r in table.splits:
        if (r.pattern is None) == (r.separator is None):
            raise TableError(TABLE, f"splits.{r.name}", "give a pattern or a separator")
    return table


@functools.cache
def _rules() -> dict[str, list[_Rule]]:
    table = grounding_table()
    ph = {k: "".join(v.split()) for k, v in table.placeholders.items()}
    out: dict[str, list[_Rule]] = {}
    for section in ("brackets", "bracket_solvents", "prefixes", "suffixes", "rejects"):
        out[section] = [
            _Rule(r.name, r.reason, _compile(r.pattern, ph, r.case == "exact"))
            for r in getattr(table, section)
        ]
    out["splits"] = [
        _Rule(r.name, "", _compile(r.pattern or r.separator or "", ph),
              "pattern" if r.pattern is not None else "separator", r.guard)
        for r in table.splits
    ]
    return out


def rule_examples() -> list[tuple[str, str, str]]:
    """``(section, rule name, example)`` of every rule (the tests fire each one)."""
    table = grounding_table()
    return [(section, r.name, r.example) for section in _SECTIONS for r in getattr(table, section)]


def _depths(text: str) -> list[int]:
    """Bracket depth before each character (unbalanced closers do not go below 0)."""
    depth, out = 0, []
    for ch in text:
        if ch in _CLOSE:
            depth = max(0, depth - 1)
        out.append(depth)
        if ch in _OPEN:
            depth += 1
    return out


def _bracket_groups(text: str) -> list[tuple[int, int]]:
    """Top-level ``( ... )`` groups that stand alone: after a space, the start or another
    bracket, and before the end, another bracket, punctuation or a word that starts a new
    part ("and", "in" …); not "(R)-3-...", "1-(4-...)" nor "tert-butyl ( 3-aminophenyl )
    carbamate", whose brackets belong to the name."""
    groups, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                before = text[start - 1] if start else " "
                if (before.isspace() or before in ")]") and _ENDS_PART.match(text, i + 1):
                    groups.append((start, i + 1))
    return groups


_ENDS_PART = re.compile(
    r"\s*(?:$|[,;.:/=])|\s+\(|\s+(?:and|in|or|containing|with|was|were|is|are|as|to|for|"
    r"from|dissolved|suspended|solution|mixture)\b",
    re.IGNORECASE,
)


def _brackets(work: _Work) -> None:
    """Classify standalone brackets: take out quantities, labels, notes, ratios; keep
    aliases (another name of the compound before them) and solvents named inside. Then take
    out every innermost bracket that holds a quantity, wherever it stands."""
    rules = _rules()
    for a, b in _bracket_groups(work.w):
        inner = work.w[a + 1 : b - 1]
        rule = next((r for r in rules["brackets"] if r.regex.fullmatch(inner)), None)
        if rule is None:
            work.aliases.append((a + 1, b - 1))
        else:
            _take_bracket(work, a, b, rule)
        work.blank(a, b)
    quantity = next(r for r in rules["brackets"] if r.reason == "quantity")
    for m in _INNERMOST.finditer(work.w):
        if quantity.regex.fullmatch(m.group(1)):
            _take_bracket(work, m.start(), m.end(), quantity)
            work.blank(m.start(), m.end())


_INNERMOST = re.compile(r"\(([^()]*)\)")


def _take_bracket(work: _Work, a: int, b: int, rule: _Rule) -> None:
    """Record a bracket taken out; a quantity bracket may name the solvent of its compound."""
    work.take(a, b, rule.name, rule.reason)
    if rule.reason != "quantity":
        return
    inner = work.w[a + 1 : b - 1]
    for sr in _rules()["bracket_solvents"]:
        for m in sr.regex.finditer(inner):
            g = "solvent" if m.group("solvent") else "solvent2"
            work.extra.append((a + 1 + m.start(g), a + 1 + m.end(g), "solvent", sr.name))


def _trim(work: _Work, a: int, b: int) -> tuple[int, int]:
    while a < b and work.w[a].isspace():
        a += 1
    while b > a and work.w[b - 1].isspace():
        b -= 1
    return a, b


def _strip(work: _Work, a: int, b: int) -> tuple[int, int]:
    """Strip prefixes and suffixes from ``w[a:b]`` while one matches (never from a part the
    dictionary knows or a reject rule refuses: "Intermediate 5" keeps its number)."""
    rules = _rules()
    a, b = _trim(work, a, b)
    changed = True
    while changed and a < b and not _stop(work, work.clean(a, b)):
        changed = False
        for r in rules["prefixes"]:
            m = r.regex.match(work.w, a, b)
            if m and m.end() > a:
                work.take(a, m.end(), r.name, r.reason)
                a, b = _trim(work, m.end(), b)
                changed = True
                break
        if changed:
            continue
        for r in rules["suffixes"]:
            m = r.regex.search(work.w, a, b)
            if m and m.start() < b and m.end() == b:
                work.take(m.start(), b, r.name, r.reason)
                a, b = _trim(work, a, m.start())
                changed = True
                break
    return a, b


def _stop(work: _Work, text: str) -> bool:
    """True for a part that is final as it is: known to the dictionary, or refused."""
    return work.known(text) or any(r.regex.fullmatch(text) for r in _rules()["rejects"])


_LOCANT_END = re.compile(r"(?:^|[\s,(\[-])(?:\d+'*|[A-Za-z]|\d+[A-Z])$")
_LOCANT_START = re.compile(r"^(?:\d+'*|[A-Za-z]|\d+[A-Z])(?:[,'-]|$)")


def _split_once(work: _Work, a: int, b: int) -> tuple[str, list[tuple[int, int, str]]] | None:
    """The first split rule that cuts ``w[a:b]``: (rule, [(start, end, role or "")])."""
    depth = _depths(work.w[a:b])
    for r in _rules()["splits"]:
        if r.kind == "pattern":
            parts = _pattern_parts(work, r, a, b, depth)
        else:
            parts = _cut_parts(work, r, a, b, depth)
        if parts is not None:
            return r.name, parts
    return None


def _pattern_parts(
    work: _Work, r: _Rule, a: int, b: int, depth: list[int]
) -> list[tuple[int, int, str]] | None:
    """The named groups of pattern rule ``r`` on ``w[a:b]`` as parts (role: the group's
    name without digits), or None when it does not match at bracket depth 0 or does not cut."""
    m = r.regex.match(work.w, a, b)
    if not m or any(depth[m.start(g) - a] for g in m.re.groupindex if m.start(g) > a):
        return None
    parts = []
    for g in m.re.groupindex:
        if m.group(g) is not None and m.group(g).strip():
            parts.append((*m.span(g), g.rstrip("0123456789")))
    if len(parts) > 1 or (parts and (parts[0][0], parts[0][1]) != (a, b)):
        return parts
    return None


def _cut_parts(
    work: _Work, r: _Rule, a: int, b: int, depth: list[int]
) -> list[tuple[int, int, str]] | None:
    """The pieces of ``w[a:b]`` between the matches of separator rule ``r`` at bracket depth
    0, or None when it has none inside or its guard refuses the sides."""
    cuts = [m for m in r.regex.finditer(work.w, a, b) if depth[m.start() - a] == 0
            and m.start() > a and m.end() < b]
    if not cuts:
        return None
    bounds, start = [], a
    for m in cuts:
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, b))
    sides = [work.clean(s, e) for s, e in bounds]
    if r.guard == "known_sides" and not all(work.known(s) for s in sides):
        return None
    if r.guard == "no_locant" and any(
        _LOCANT_END.search(left) or _LOCANT_START.search(right)
        for left, right in zip(sides, sides[1:], strict=False)
    ):
        return None
    return [(s, e, "") for s, e in bounds]


def _parts(work: _Work, a: int, b: int, role: str, rule: str) -> None:
    """Split ``w[a:b]`` recursively; strip and classify the parts."""
    a, b = _strip(work, a, b)
    if a >= b:
        return
    text = work.clean(a, b)
    if not work.known(text):
        cut = _split_once(work, a, b)
        if cut is not None:
            name, pieces = cut
            for s, e, sub_role in pieces:
                new_role = sub_role or (role if role != "name" else "component")
                _parts(work, s, e, new_role, name)
            return
        for r in _rules()["rejects"]:
            if r.regex.fullmatch(text):
                work.rejected.append(Piece(text, a, b, r.name, r.reason))
                return
    work.names.append(Name(text, a, b, role, rule, candidates(text)))


def candidates(text: str) -> tuple[str, ...]:
    """Spellings of a name to try, in order: with the spaces inside brackets and around
    hyphens, commas, primes and brackets removed ("2 - chloro - pyridine" ->
    "2-chloro-pyridine", "( 3-aminophenyl )" -> "(3-aminophenyl)", "fluorocyclopropyl )
    methyl" -> "fluorocyclopropyl)methyl", "-5-yl] -acetyl] amino-N-" -> "-5-yl]-acetyl]amino-
    N-"); the same with the spaces around brackets kept; as written. A space next to a bracket
    is mostly a break inside one systematic name, which OPSIN may read otherwise as written
    (a valid, different molecule); spaces between words stay ("ethyl acetate"); Unicode
    dashes are made hyphens and trade mark signs dropped. Then: in
    lower case when written in capitals; with a salt's dot made a space ("amine.dibenzoate"
    -> "amine dibenzoate", "amine·2HCl" -> "amine 2HCl", "acid·H2O" -> "acid hydrate"); with
    a substituent prefix joined to the lowercase word after it ("N-phenyl-2-hydroxy
    acetamide" -> "N-phenyl-2-hydroxyacetamide"); with the first of alternative
    stereodescriptors ("(1S,3R/1R,3S)" -> "(1S,3R)"); with a locant list's dot made a comma
    and indicated hydrogen without its hyphen ("3.5-bis(...)" -> "3,5-bis(...)", "2-H-chromen"
    -> "2H-chromen"); with the alkyl of an ester written as one word apart ("diethylmalonate"
    -> "diethyl malonate", which OPSIN otherwise reads as a diethylmalonate anion); with a
    word broken by a spaced hyphen joined ("propa - noate" -> "propanoate")."""
    written = " ".join(text.split())
    plain = " ".join(_MARKS.sub(" ", written.translate(_DASHES)).split())
    joined = _JOINERS.sub(r"\1", plain)
    out = [joined, _INNER_SPACES.sub(r"\1", plain), written]
    if sum(c.isupper() for c in joined) > 8 and not any(c.islower() for c in joined):
        out.append(joined.lower())
    if _SALT_DOT.search(joined):
        out.append(_SALT_DOT.sub(" ", joined))
    salt = _SALT_FORMULA.search(joined)
    if salt:
        n, formula = salt.group("n"), salt.group("salt")
        word = _HYDRATES[n] if formula == "H2O" else f"{n}{formula}"
        out.append(f"{joined[:salt.start()]} {word}")
    if _SPACED_PREFIX.search(joined):
        out.append(_SPACED_PREFIX.sub(r"\1", joined))
    if _ALTERNATIVE_STEREO.search(joined):
        out.append(_ALTERNATIVE_STEREO.sub(r"(\1)", joined))
    if _LOCANT_DOT.search(joined) or _DASHED_HYDROGEN.search(joined):
        out.append(_DASHED_HYDROGEN.sub(r"\1H-", _LOCANT_DOT.sub(r"\1,\2", joined)))
    if _ONE_WORD_ESTER.search(joined):
        out.append(_ONE_WORD_ESTER.sub(r"\1 ", joined))
    if _BROKEN_WORD.search(written):
        out.append(_INNER_SPACES.sub(r"\1", _BROKEN_WORD.sub("", plain)))
    return tuple(dict.fromkeys(out))


def ground(text: str, known: Known | None = None) -> Grounding:
    """The names in a mention's text (see the module docstring). ``known`` says whether the
    compound dictionary knows a phrase (default: :func:`chemie.structures.dictionary.compounds`);
    a known phrase is never cut or stripped."""
    if len(text) > MAX_TEXT:  # no mention is this long; the rules would take quadratic time
        return Grounding(text, rejected=(Piece(text[:40] + "…", 0, len(text), "too_long",
                                               "too long"),))
    if known is None:
        from chemie.structures.dictionary import compounds

        known = compounds().__contains__
    w = "".join(" " if ch.isspace() else ch for ch in text)
    work = _Work(text, w, known)
    _brackets(work)
    a, b = _strip(work, 0, len(w))
    _parts(work, a, b, "name", "whole")
    for s, e, role, rule in work.extra:  # solvents named inside blanked quantity brackets
        work.w = work.w[:s] + text[s:e] + work.w[e:]
        _parts(work, s, e, role, rule)
    _attach_aliases(work)
    names = sorted(work.names, key=lambda n: n.start)
    return Grounding(text, tuple(names), tuple(sorted(work.stripped, key=lambda p: p.start)),
                     tuple(work.rejected))


def _attach_aliases(work: _Work) -> None:
    """An alias bracket ("trifluoroacetic acid ( TFA )") adds its spellings to the name just
    before it; with no name before it, it is a name itself."""
    for s, e in work.aliases:
        alias = " ".join(work.text[s:e].split())
        if not alias:
            continue
        before = [n for n in work.names if n.end <= s]
        if before:
            n = max(before, key=lambda n: n.end)
            extra = tuple(c for c in candidates(alias) if c not in n.candidates)
            work.names[work.names.index(n)] = Name(
                n.text, n.start, n.end, n.role, n.rule, n.candidates + extra
            )
        else:
            work.w = work.w[:s] + work.text[s:e] + work.w[e:]
            _parts(work, s, e, "name", "alias")
