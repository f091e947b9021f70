"""The regular-expression rules of ``rules/ner.yaml`` compiled for the NER component.

A rule never reads files: the component passes in the element symbols and the word lists.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import regex

from chemie.brackets import bracket_partners
from chemie.ner.rules_code import RULES
from chemie.resources import read_table
from chemie.tables import TableError, load_table

_ALPHA_SEG = regex.compile(r"[A-Za-z]+")
_JOINER = regex.compile(r"[\-‐(),\[\]'′]")
_RING_END = regex.compile(r"(?:en|an|in|ol|on|ole|ine|ane|ene|yl|ide|ate|one)$")
# strings no token rule can match: numbers and punctuation, short lowercase words
_NO_RULE = regex.compile(r"^(?:[\d.,:;%/()\[\]<>=±~×x]+|[a-z]{1,4})$")
TABLE = "ner.yaml"
ELEMENTS = "elements.tsv"  # the element symbols of the {E} placeholder
_SEQUENCE_WINDOW = 250  # characters before a required word in which a sequence rule matches
_ENUMERATOR = regex.compile(r"\d+|[ivx]+|[a-h]")  # "(2)", "(iv)", "(b)": a list label
_ISOTOPE = regex.compile(r"[A-Z][a-z]?[-‐]")  # "(3)H-": an isotope mass before its symbol
# a locant group (2,4-); a try starts where a number starts, and not after a comma that
# follows a plain locant (the try from the list's start covers it, unless a Greek letter
# follows), so a long list is read once
_LOCANT_GROUP = regex.compile(
    r"(?<!\d)(?!(?<=\d[A-Za-z]?['′]*,)\d++(?!alpha|beta))"
    r"\d+(?:alpha|beta|[A-Za-z])?['′]*(?:,\d+[A-Za-z]?['′]*)*-"
)
_DIGIT_OR_BRACKET = regex.compile(r"\d|[(\[]")
_BRACKET_END = regex.compile(r"[IVX]+|\d*[+\-−]|\d|[RSEZ]")


@dataclass(frozen=True)
class RuleSpec:
    """One rule as ``rules/ner.yaml`` writes it (the kinds and keys are described there)."""

    name: str
    kind: Literal["token", "glued", "sequence", "context"]
    label: str = field(metadata={"key": "class"})  # the CHEMDNER class
    confidence: float
    comment: str
    example: str
    pattern: str | None = None
    flags: str = ""  # "i": case-insensitive
    letters_only: bool = False
    requires: tuple[str, ...] = ()
    anchored: bool = False
    prefilter: tuple[str, ...] = ()


@dataclass(frozen=True)
class NerTable:
    """``rules/ner.yaml``: the rules, their placeholders and the context rules' word lists."""

    placeholders: dict[str, str]
    rules: tuple[RuleSpec, ...]
    name_prefixes: str  # words separated by white space
    bare_suffixes: str  # words separated by white space
    adjective_endings: tuple[str, ...]
    veto_after: dict[str, frozenset[str]]
    veto_before: dict[str, frozenset[str]]
    salt_words: tuple[str, ...]
    cation_words: frozenset[str]
    anion_endings: tuple[str, ...]
    head_words: tuple[str, ...]
    head_letters: str


# the rules of kinds ``glued`` and ``context`` are functions of chemie.ner.rules_code,
# registered on stage "ner" of the one registry (RULES); the table names each, and only
# these, with its kind
_CODE_KINDS = ("glued", "context")


def ner_table(name: str | Path = TABLE) -> NerTable:
    """The typed NER table ``rules/<name>`` (read once) or a table file; its rules of the
    kinds written in code (``glued``, ``context``) are the registered ones."""
    table = load_table(name, NerTable)
    coded = [r for r in table.rules if r.kind in _CODE_KINDS]
    RULES.check([r.name for r in coded], name, every_function=True)
    for r in coded:
        if RULES[r.name].kind != r.kind:
            raise TableError(name, "rules", f"{r.name} is a {RULES[r.name].kind} rule, "
                             f"not {r.kind}")
    return table


@dataclass(frozen=True)
class Rule:
    """One compiled rule of the table."""

    name: str
    kind: str
    label: str
    confidence: float
    comment: str
    example: str
    pattern: regex.Pattern | None


def _expand(pattern: str, placeholders: dict[str, str]) -> str:
    for key, value in placeholders.items():
        pattern = pattern.replace("{" + key + "}", value)
    return pattern


def symbols_of(rows: Iterable[Sequence[str]]) -> tuple[str, ...]:
    """Element symbols from the rows of ``elements.tsv`` (name, symbol), longest first."""
    symbols = {row[1] for row in rows}
    return tuple(sorted(symbols, key=lambda s: (-len(s), s)))


# a sequence rule, the lowercase words one of which it needs (empty: none), for an
# ``anchored`` rule its pattern compiled for matching backwards from such a word, and its
# ``prefilter`` (regexes every match contains)
SequenceRule = tuple[Rule, tuple[str, ...], regex.Pattern | None, tuple[re.Pattern, ...]]


class NerRules:
    """The compiled rules of one NER rule table (``rules/ner.yaml`` or a saved copy), with
    the element symbols its ``{E}`` placeholder stands for."""

    def __init__(self, table: NerTable, symbols: Sequence[str]) -> None:
        self.table = table
        placeholders = {k: "".join(v.split()) for k, v in table.placeholders.items()}
        placeholders["E"] = "(?:" + "|".join(symbols) + ")"
        rules = []
        for r in table.rules:
            pattern = None
            if r.pattern is not None:
                flags = regex.IGNORECASE if "i" in r.flags else 0
                pattern = regex.compile(_expand(r.pattern, placeholders), flags)
            rules.append(
                Rule(r.name, r.kind, r.label, r.confidence, r.comment, r.example, pattern)
            )
        self.rules: tuple[Rule, ...] = tuple(rules)
        # names of the token rules that can only match a word made of letters
        self.letters_only = frozenset(r.name for r in table.rules if r.letters_only)
        self.morph = regex.compile("".join(table.placeholders["MORPH"].split()))
        self.sequence: tuple[SequenceRule, ...] = self._sequence_rules()
        self._token_regexes: dict[tuple, re.Pattern | regex.Pattern] = {}
        self.letter_regex = regex.compile(
            self.token_regex(letters=True).pattern, regex.V0 | regex.REVERSE
        )

    def of_kind(self, kind: str) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.kind == kind)

    def rule(self, name: str) -> Rule:
        """The rule with this name (KeyError when absent)."""
        for r in self.rules:
            if r.name == name:
                return r
        raise KeyError(name)

    def token_regex(
        self, letters: bool | None = None, labels: tuple[str, ...] | None = None
    ) -> re.Pattern | regex.Pattern:
        """The ``token`` rules as one alternation of named groups, in table order (the first
        rule that matches the whole string wins, as when trying them one by one); compiled
        with the stdlib engine when it accepts the patterns (faster), else with ``regex``.

        ``letters=True``: only the rules marked ``letters_only`` (for tokens of letters);
        ``letters=False``: only the others; None: all of them. ``labels``: only the rules
        of these classes. (:attr:`letter_regex` matches the ``letters_only`` rules from the
        end of the word, ``regex`` REVERSE: a word without a chemical ending fails at once
        instead of after trying every morpheme at every position. A full match exists in
        either direction and the first rule, in table order, that fully matches still wins.)
        """
        key = (letters, labels)
        compiled = self._token_regexes.get(key)
        if compiled is not None:
            return compiled
        parts = []
        for r in self.of_kind("token"):
            if letters is not None and (r.name in self.letters_only) != letters:
                continue
            if labels is not None and r.label not in labels:
                continue
            flags = "i" if r.pattern.flags & regex.IGNORECASE else "-i"
            parts.append(f"(?P<{r.name}>(?{flags}:{r.pattern.pattern}))")
        pattern = "|".join(parts) or "(?!)"
        try:
            compiled = re.compile(pattern)
        except re.error:
            compiled = regex.compile(pattern, regex.V0)
        self._token_regexes[key] = compiled
        return compiled

    def guess_class(self, text: str) -> str:
        """A CHEMDNER class for a lexicon name without one, from its shape."""
        for r in self.of_kind("token"):
            if r.label in ("FORMULA", "IDENTIFIER") and r.pattern.fullmatch(text):
                return r.label
        if any(c.isdigit() for c in text) and ("-" in text or "(" in text or "," in text):
            return "SYSTEMATIC"
        letters = [c for c in text if c.isalpha()]
        if letters and len(text) <= 8 and sum(c.isupper() for c in letters) >= len(letters) / 2:
            return "ABBREVIATION"
        return "TRIVIAL"

    def has_morph(self, word: str) -> bool:
        return self.morph.search(word) is not None

    def _sequence_rules(self) -> tuple[SequenceRule, ...]:
        raw = {r.name: r for r in self.table.rules}
        out = []
        for r in self.of_kind("sequence"):
            backwards = None
            if raw[r.name].anchored:
                backwards = regex.compile(
                    f"(?P<rule>{r.pattern.pattern})(?s:.{{0,3}}?)",
                    r.pattern.flags | regex.REVERSE,
                )
            prefilter = tuple(re.compile(p) for p in raw[r.name].prefilter)
            out.append((r, raw[r.name].requires, backwards, prefilter))
        return tuple(out)

    def sequence_matches(self, text: str) -> list[tuple[int, int, Rule]]:
        """Character spans of the sequence rules in ``text`` (words joined by spaces).

        An anchored rule is matched backwards from each occurrence of its required words
        (the same matches as a forward scan of the whole text, much cheaper).
        """
        out = set()
        lowered = text.lower()
        for r, required, backwards, prefilter in self.sequence:
            if required and not any(map(lowered.__contains__, required)):
                continue
            if prefilter and any(p.search(text) is None for p in prefilter):
                continue
            if backwards is None:
                out.update((*_mention_span(m), r) for m in _forward(r).finditer(text))
                continue
            for word in required:
                at = lowered.find(word)
                while at >= 0:
                    m = _match_back(backwards, text, at, len(word))
                    if m is not None and m.start("rule") <= at:
                        out.add((*_mention_span(m), r))
                    at = lowered.find(word, at + 1)
        return sorted(out, key=lambda x: (x[0], x[1]))


@functools.cache
def default_rules() -> NerRules:
    """The rules of ``rules/ner.yaml`` with the symbols of ``lexicons/elements.tsv``."""
    return NerRules(ner_table(), symbols_of(read_table(ELEMENTS)))


def guess_class(text: str) -> str:
    """:meth:`NerRules.guess_class` with the shipped rules."""
    return default_rules().guess_class(text)


Verdict = tuple[str, str, float]  # (class, rule or lexicon name, confidence)


class TokenClassifier:
    """Classifies one token (or glued string) as a chemical, with a cache per string."""

    def __init__(
        self,
        lookup: Callable[[str], object],
        nonchemical: Iterable[str] = (),
        blacklist: Iterable[str] = (),
        rules: NerRules | None = None,
    ) -> None:
        self.lookup = lookup
        self.nonchemical = frozenset(nonchemical)
        self.blacklist = frozenset(blacklist)
        self.rules = rules = default_rules() if rules is None else rules
        self.token_rules = rules.of_kind("token")
        self._by_name = {r.name: r for r in self.token_rules}
        # a token of letters can only match the letters_only rules, any other token only
        # the other rules: two smaller alternations, same verdicts as the whole table
        self._letter_rules = rules.letter_regex
        self._other_rules = rules.token_regex(letters=False)
        # glued strings: only the FORMULA and IDENTIFIER token rules, first match wins
        self._shape_rules = rules.token_regex(labels=("FORMULA", "IDENTIFIER"))
        # the glued rules, in table order, with their registered functions
        self._glued_rules = tuple((r, RULES[r.name].fn) for r in rules.of_kind("glued"))
        table = rules.table
        self.name_prefixes = frozenset(table.name_prefixes.split())
        self.bare_suffixes = frozenset(table.bare_suffixes.split())
        self.adjective_endings = table.adjective_endings
        self.cache: dict[str, Verdict | bool] = {}  # False: not a chemical
        self.glued_verdicts: dict[str, Verdict | None] = {}  # cache of glued()

    def token(self, text: str) -> Verdict | None:
        """Verdict for a single token text."""
        verdict = self.cache.get(text)
        if verdict is None:
            verdict = self._classify(text) or False
            self.cache[text] = verdict
        return verdict or None

    def _classify(self, text: str) -> Verdict | None:
        if text in self.blacklist or len(text) < 2 and text not in "CNOSPHKFIUVWY":
            return None
        hit = self.lookup(text)
        if hit is not None:
            return hit.label, hit.source, hit.confidence
        low = text.lower()
        if len(text) < 2 or low in self.nonchemical or _NO_RULE.match(text):
            return None
        if low.endswith(self.adjective_endings):
            return None
        m = (self._letter_rules if text.isalpha() else self._other_rules).fullmatch(text)
        if m is not None:
            r = self._by_name[m.lastgroup]
            return r.label, r.name, r.confidence
        if len(text) > 4 and _JOINER.search(text) is not None:
            return self._classify_glued(text, checked=True)
        return None

    def glued(self, text: str) -> Verdict | None:
        """Verdict for a string glued from several tokens (``N-methyl-D-aspartate``)."""
        try:
            return self.glued_verdicts[text]
        except KeyError:
            pass
        verdict = self._classify_glued(text)
        self.glued_verdicts[text] = verdict
        return verdict

    def _classify_glued(self, text: str, checked: bool = False) -> Verdict | None:
        """``checked``: the lexicons and the token rules have already failed on ``text``
        (a token of more than letters: the FORMULA/IDENTIFIER rules are among them)."""
        pairs = bracket_partners(text)
        if pairs is None or (text[0] in "([" and pairs.get(0) == len(text) - 1):
            return None
        if text in self.blacklist:
            return None
        if text[-1] in ")]" and not _BRACKET_END.fullmatch(text[pairs[len(text) - 1] + 1 : -1]):
            return None  # "didanosine (ddI)": a name and its abbreviation, not one name
        if text[0] in "([":
            after = text[pairs[0] + 1 :]
            if not after.startswith(("-", "‐")) and (
                len(after) < 3 or not after[0].isalpha() or self._enumerated(text, pairs[0])
            ):
                return None  # "(octreotide) on", "(LHRH-A) 3.75", "(2) cocaine"
        if not checked:
            hit = self.lookup(text)
            if hit is not None:
                return hit.label, hit.source, hit.confidence
            m = self._shape_rules.fullmatch(text)
            if m is not None:
                r = self._by_name[m.lastgroup]
                return r.label, r.name, r.confidence
        for r, applies in self._glued_rules:
            if applies(self, r, text):
                return r.label, r.name, r.confidence
        return None

    @staticmethod
    def _enumerated(text: str, close: int) -> bool:
        """``text`` starts with a list label in brackets before a word ("(2)cocaine",
        "(i)gabapentin"), not with an isotope mass before its symbol ("(3)H-haloperidol")."""
        return (
            _ENUMERATOR.fullmatch(text, 1, close) is not None
            and _ISOTOPE.match(text, close + 1) is None
        )

    def systematic(self, text: str) -> bool:
        """Last word is a chemical; other words are locants, stereo prefixes or chemical."""
        segments = _ALPHA_SEG.findall(text)
        if not segments:
            return False
        k = self._last_word(segments)
        if k < 0 or not self._ends_in_chemical(text, segments[k]):
            return False
        whole = self._whole_words(segments[:k])
        if whole is None:
            return False
        # "doxorubicin-cisplatin" is two chemicals, not one name
        return not (whole >= 1 and "-" in text and not _DIGIT_OR_BRACKET.search(text))

    def _last_word(self, segments: list[str]) -> int:
        """The index of the name's last word (bare suffixes and short words after it
        skipped), or -1 when a word follows the name or the last word is too short."""
        k = len(segments) - 1
        if (
            len(segments[k]) == 2
            and segments[k].islower()
            and segments[k] not in self.bare_suffixes
            and segments[k] not in self.name_prefixes
        ):
            return -1  # "cyclosporine-or", "alcohol-na(ive)": a word after the name
        while k > 0 and (segments[k].lower() in self.bare_suffixes or len(segments[k]) <= 2):
            k -= 1
        return k if len(segments[k]) >= 3 else -1

    def _ends_in_chemical(self, text: str, last: str) -> bool:
        """Whether the last word ``last`` of ``text`` is a chemical word."""
        if self.token(last) is not None:
            return True
        # a ring name without a listed ending (chromen, azepin) is enough only in a
        # clearly systematic name: brackets, or two or more locant groups
        strong = "(" in text or "[" in text or len(_LOCANT_GROUP.findall(text)) >= 2
        low = last.lower()
        return bool(strong and _RING_END.search(low) and self.rules.has_morph(low))

    def _whole_words(self, before: list[str]) -> int | None:
        """How many of the words ``before`` the last one are whole chemical names (five
        letters or more), or None when one is neither a prefix nor chemical."""
        whole = 0
        for seg in before:
            low = seg.lower()
            if low in self.name_prefixes or (len(seg) <= 2 and not seg.islower()):
                continue
            if low in self.nonchemical:
                return None
            verdict = self.token(seg)
            if verdict is None and not self.rules.has_morph(low):
                return None
            if verdict is not None and len(seg) >= 5 and verdict[1] != "morphology_word":
                whole += 1
        return whole


@functools.cache
def _forward(rule_: Rule) -> re.Pattern | regex.Pattern:
    """The rule for a forward scan: the stdlib engine when it can compile it (faster at
    scanning long texts), else the ``regex`` pattern."""
    try:
        flags = re.IGNORECASE if rule_.pattern.flags & regex.IGNORECASE else 0
        return re.compile(rule_.pattern.pattern, flags)
    except re.error:
        return rule_.pattern


def _mention_span(m: re.Match | regex.Match) -> tuple[int, int]:
    """The span of the ``mention`` group when the pattern has one, else of the ``rule``
    group (an anchored backwards pattern) or the whole match."""
    if "mention" in m.re.groupindex:
        return m.span("mention")
    if "rule" in m.re.groupindex:
        return m.span("rule")
    return m.span()


def _match_back(
    backwards: regex.Pattern, text: str, at: int, length: int
) -> regex.Match | None:
    """What a backwards ``search`` of the rule from 3 characters after the required word at
    ``at`` finds, when it ends after the word (else None). ``backwards`` is the rule
    followed by ``.{0,3}?`` and matched anchored at that end: the same ends tried in the
    same order, but a failure costs a few attempts instead of a scan of the whole window."""
    m = backwards.match(
        text, max(0, at - _SEQUENCE_WINDOW), min(len(text), at + length + 3)
    )
    if m is None or m.end("rule") < at + length:
        return None
    return m
