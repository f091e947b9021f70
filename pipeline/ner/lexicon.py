"""Chemical lexicons for the NER: exact-token lookup plus Aho-Corasick for names that
span several tokens, independent of how the text was tokenized.

Every entry is keyed by its text with whitespace removed: ``5 - fluorouracil`` (as tokenized
in BC5CDR), ``5-fluorouracil`` (one chemie token) and ``sodium sulfate`` (two tokens) are
matched on the concatenation of the document's token texts, and a hit only counts when it
starts and ends on token boundaries.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

import ahocorasick

from chemie.ner.rules import ELEMENTS, guess_class
from chemie.resources import read_table

EXACT_CLASSES = frozenset({"ABBREVIATION", "FORMULA", "IDENTIFIER"})
_CHARGES = frozenset({"+", "-", "−", "2+", "3+"})
_WHITESPACE = re.compile(r"\s")  # the characters str.isspace accepts


@dataclass(frozen=True)
class LexEntry:
    """What a lexicon says about a name."""

    label: str
    source: str
    confidence: float


def squash(text: str) -> str:
    """The lookup key of a name: whitespace removed."""
    return "".join(text.split())


def needs_exact_case(name: str) -> bool:
    """Short names and names with inner capitals (abbreviations, formulas) match exactly."""
    key = squash(name)
    return len(key) <= 3 or any(c.isupper() for c in key[1:])


class LexiconIndex:
    """Case-exact and lowercase dictionaries plus automata for multi-token names."""

    def __init__(self) -> None:
        self.exact: dict[str, LexEntry] = {}
        self.lower: dict[str, LexEntry] = {}
        self._auto_exact = ahocorasick.Automaton()
        self._auto_lower = ahocorasick.Automaton()
        # both automata's keys lowercased in one automaton: one pass over the lowered text
        self._auto_both = ahocorasick.Automaton()
        self._multi: list[tuple[str, bool, LexEntry]] = []
        self._built = False

    def add(self, name: str, entry: LexEntry, exact: bool) -> None:
        """Add a name; an earlier entry for the same key wins."""
        key = squash(name)
        if not key:
            return
        table, auto = (self.exact, self._auto_exact) if exact else (self.lower, self._auto_lower)
        if not exact:
            key = key.lower()
        if key in table:
            return
        table[key] = entry
        if not key.isalnum() or " " in name.strip():
            auto.add_word(key, (len(key), entry))
            self._multi.append((key, exact, entry))
        self._built = False

    def add_many(self, names: Iterable[tuple[str, LexEntry]], exact_classes: bool = True) -> None:
        for name, entry in names:
            exact = needs_exact_case(name) or (exact_classes and entry.label in EXACT_CLASSES)
            self.add(name, entry, exact)

    def build(self) -> None:
        self._auto_both = ahocorasick.Automaton()
        for key, exact, entry in self._multi:
            low = key.lower()
            self._auto_both.add_word(low, [*self._auto_both.get(low, []), (key, exact, entry)])
        for auto in (self._auto_exact, self._auto_lower, self._auto_both):
            if len(auto):
                auto.make_automaton()
        self._built = True

    def lookup(self, text: str) -> LexEntry | None:
        """The entry for one token or glued string (exact case first, then lowercase)."""
        key = squash(text)
        hit = self.exact.get(key)
        if hit is None:
            hit = self.lower.get(key.lower())
        return hit

    def find_spans(
        self, words: Sequence[str], spaces: bool | None = None
    ) -> list[tuple[int, int, LexEntry]]:
        """Multi-token hits ``(start, end_exclusive, entry)`` aligned to token boundaries.
        ``spaces``: whether a token is whitespace, when the caller knows (else checked)."""
        if not self._built:
            self.build()
        # whitespace tokens become a sentinel character nothing matches across
        text = "".join(words)
        pieces = words
        if spaces is None:
            spaces = _WHITESPACE.search(text) is not None and any(map(str.isspace, words))
        if spaces:
            pieces = [w if not w.isspace() else "\x00" for w in words]
            text = "".join(pieces)
        hits = []
        lowered = text.lower()
        if len(lowered) == len(text):
            if len(self._auto_both):
                hits = self._hits(text, lowered)
        else:  # lowercasing changed offsets: each automaton on its own text
            for auto, haystack in ((self._auto_exact, text), (self._auto_lower, lowered)):
                if len(auto):
                    hits.extend(auto.iter(haystack))
        if not hits:
            return []
        # token i covers characters [ends_at[i] - len(pieces[i]), ends_at[i])
        ends_at = list(accumulate(map(len, pieces)))
        n = len(ends_at)
        found = []
        for end_char, (length, entry) in hits:
            end = end_char + 1
            end_tok = bisect_left(ends_at, end)
            if end_tok == n or ends_at[end_tok] != end:
                continue
            start = end - length
            start_tok = bisect_right(ends_at, start)  # first token ending after ``start``
            if (
                ends_at[start_tok] - len(pieces[start_tok]) == start
                and end_tok - start_tok >= 1
                and pieces[end_tok] not in _CHARGES  # "Na +": the charge is a token
            ):
                found.append((start_tok, end_tok + 1, entry))
        return found


    def _hits(self, text: str, lowered: str) -> list[tuple[int, tuple[int, LexEntry]]]:
        """What the exact automaton finds in ``text`` followed by what the lowercase one
        finds in ``lowered`` (same length), from one pass of the combined automaton."""
        exact_hits = []
        lower_hits = []
        for end_char, values in self._auto_both.iter(lowered):
            for key, exact, entry in values:
                k = len(key)
                if not exact:
                    lower_hits.append((end_char, (k, entry)))
                elif text[end_char + 1 - k : end_char + 1] == key:
                    exact_hits.append((end_char, (k, entry)))
        return exact_hits + lower_hits


CURATED = "chemicals_curated.tsv"
DERIVED = "bc5cdr_chemicals.tsv"


def default_index(
    derived: bool = True,
    curated: bool = True,
    derived_rows: Iterable[Sequence[str]] | None = None,
    files: Mapping[str, Path] | None = None,
    guess: Callable[[str], str] = guess_class,
) -> LexiconIndex:
    """The shipped lexicons: curated chemicals, element names, derived BC5CDR names.

    ``derived_rows`` (``name, chemical_count, occurrences``) replaces the shipped derived
    list, e.g. with one built in memory from a training split. ``files``: the lexicons to
    read instead of the shipped ones, by file name (a saved pipeline's copies); ``guess``
    the class of a derived name (the NER rules' :func:`guess_class`).
    """

    def rows(name: str) -> list[list[str]]:
        return read_table(files[name] if files is not None else name)

    index = LexiconIndex()
    if curated:
        index.add_many(
            (row[0], LexEntry(row[1], "lexicon:chemicals_curated", 0.9)) for row in rows(CURATED)
        )
        index.add_many(
            (row[0], LexEntry("TRIVIAL", "lexicon:elements", 0.85)) for row in rows(ELEMENTS)
        )
    if derived_rows is not None:
        index.add_many(derived_entries(derived_rows, guess))
    elif derived:
        index.add_many(derived_entries(rows(DERIVED), guess))
    index.build()
    return index


def derived_entries(
    rows: Iterable[Sequence[str]], guess: Callable[[str], str] = guess_class
) -> list[tuple[str, LexEntry]]:
    """Entries from rows ``name, chemical_count, occurrences`` of a derived lexicon (``guess``:
    the class of a name)."""
    out = []
    for row in rows:
        name, count, occ = row[0], int(row[1]), int(row[2])
        precision = (count + 0.5) / (occ + 1.0)
        conf = round(0.5 + 0.45 * precision, 3)
        out.append((name, LexEntry(guess(squash(name)), "lexicon:bc5cdr_chemicals", conf)))
    return out
