"""Rule-based chemical NER, the engine of ``chemie_ner``: lexicons + regular expressions +
context rules.

Writes ``doc.spans["chemicals"]``; each span's ``label_`` is a CHEMDNER class (SYSTEMATIC,
TRIVIAL, FORMULA, ABBREVIATION, FAMILY, IDENTIFIER, MULTIPLE), ``span._.chem_rule`` the
rule or lexicon that produced it and ``span._.chem_conf`` a confidence in [0, 1].

It only reads token texts, so it works the same on Docs from the chemie tokenizer and on
Docs built from pre-tokenized words (``Doc(vocab, words=...)``). Steps:

1. candidates: single tokens (lexicon, then the ``token`` rules), lexicon names spanning
   several tokens (Aho-Corasick on the concatenated tokens), runs of tokens glued by
   hyphens, brackets and locant commas (``N - methyl - D - aspartate``), sequence rules;
2. longest, then most confident, non-overlapping candidates win;
3. context rules: salts (``lidocaine hydrochloride``), cation + anion (``sodium valproate``),
   head + letter (``vitamin E``);
4. abbreviations defined after a chemical (``tetrahydrofuran (THF)``) become chemicals in
   the whole document (or within ``abbreviation_window`` tokens); abbreviations defined
   after a non-chemical phrase veto low-confidence matches of the same text.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Sequence
from itertools import accumulate, compress, repeat
from operator import is_not, itemgetter, le
from pathlib import Path
from typing import NamedTuple

import regex
from spacy.tokens import Doc, Span, SpanGroup

from chemie.context import CHEMICAL_SPANS, NER_STORE, cached_words
from chemie.ner.lexicon import (
    CURATED,
    DERIVED,
    LexEntry,
    LexiconIndex,
    default_index,
)
from chemie.ner.rules import (
    ELEMENTS,
    RULES,
    TABLE,
    NerRules,
    TokenClassifier,
    Verdict,
    default_rules,
    ner_table,
    symbols_of,
)
from chemie.resources import lexicon_path, load_lexicon, read_table, rules_path
from chemie.saving import SavesTables

SPANS_KEY = CHEMICAL_SPANS
CLASSES = ("SYSTEMATIC", "TRIVIAL", "FORMULA", "ABBREVIATION", "FAMILY", "IDENTIFIER", "MULTIPLE")

_CONNECTORS = frozenset("- ‐ – ( ) [ ] ' ′ ,".split())
_SMALL_INT = regex.compile(r"^\d{1,2}$")
_OPEN = frozenset("([")
_END_OK = frozenset(")]'′+")
_NOT_FIRST = _CONNECTORS - _OPEN  # connectors a glued name cannot start with
_NOT_LAST = _CONNECTORS - _END_OK  # connectors a glued name cannot end with
_LOCANTISH = regex.compile(r"^(?:\d+[A-Za-z]?['′]*|[A-Z]['′]*|\d+[a-z]?[RSEZ])$")
_MAX_RUN = 40
_CACHE_MAX = 100_000  # entries a string-keyed cache keeps (then it starts over)


class Found(NamedTuple):
    """A mention over token indices ``[start, end)`` (a named tuple: cheap to create)."""

    start: int
    end: int
    label: str
    rule: str
    confidence: float


# Inside a document, mentions are plain tuples laid out as ``Found`` (start, end, label,
# rule, confidence): cheaper to create and read than the named tuple; ``find`` turns them
# into ``Found``.
Cand = tuple[int, int, str, str, float]
_start, _end, _confidence = itemgetter(0), itemgetter(1), itemgetter(4)


NONCHEMICAL = "bc5cdr_nonchemical.txt"
BLACKLIST = "blacklist.txt"


def shipped_files(derived: bool = True) -> dict[str, Path]:
    """The files of ``rules/`` and ``lexicons/`` the NER factory builds it from (the derived
    BC5CDR lexicon only when ``derived``)."""
    names = [CURATED, ELEMENTS, *([DERIVED] if derived else []), NONCHEMICAL, BLACKLIST]
    return {TABLE: rules_path(TABLE), **{name: lexicon_path(name) for name in names}}


@functools.cache
def _word_lists(rules: NerRules) -> dict[str, object]:
    table = rules.table
    return {
        "salt": frozenset(w.lower() for w in table.salt_words),
        "cation": table.cation_words,
        "anion_end": table.anion_endings,
        "head_any_case": frozenset(
            v for w in table.head_words for v in (w, w.lower(), w.capitalize(), w.upper())
        ),
        "head_letter": regex.compile(table.head_letters),
        "veto_after": table.veto_after,
        "veto_before": table.veto_before,
    }


class ChemicalNER(SavesTables):
    """Finds chemical mentions in a sequence of token texts.

    Made by the factory, it saves its rule table and lexicons with the pipeline
    (``to_disk``) and is rebuilt from the saved copies (``from_disk``); one made in Python
    from other word lists has no files to save (:attr:`table_files` is empty).
    """

    def __init__(
        self,
        index: LexiconIndex | None = None,
        nonchemical: Sequence[str] | None = None,
        blacklist: Sequence[str] | None = None,
        nonchemical_veto: str = "rules",
        abbreviation_window: int = 0,
        rules: NerRules | None = None,
    ) -> None:
        self.table_files = {}
        self.rules = default_rules() if rules is None else rules
        self.index = index if index is not None else default_index()
        if nonchemical is None:
            nonchemical = load_lexicon("bc5cdr_nonchemical.txt")
        if blacklist is None:
            blacklist = load_lexicon("blacklist.txt")
        self.nonchemical = frozenset(nonchemical)
        self.blacklist = frozenset(blacklist)
        self.nonchemical_veto = nonchemical_veto
        self.veto_all = nonchemical_veto == "all"
        self.abbreviation_window = abbreviation_window
        self.classifier = TokenClassifier(
            self._lookup, self.nonchemical, self.blacklist, self.rules
        )
        self.words = _word_lists(self.rules)
        self._veto_keys = frozenset(self.words["veto_after"])
        self._veto_before_keys = frozenset(self.words["veto_before"])
        self._steps = self._context_steps()
        self._vocab: object = None  # the vocabulary the two caches below belong to
        self._labels: dict[str, int] = {}
        self._texts: dict[int, str] = {}
        self._runs: dict[tuple[str, ...], tuple[tuple[int, int, Verdict], ...]] = {}

    def load_tables(self, files: dict[str, Path]) -> None:
        """Rebuild the NER from a rule table and lexicons (the files of :func:`shipped_files`,
        e.g. a saved pipeline's copies), keeping its settings."""
        if not files:
            return
        rules = NerRules(ner_table(files[TABLE]), symbols_of(read_table(files[ELEMENTS])))
        self.__init__(
            index=default_index(derived=DERIVED in files, files=files, guess=rules.guess_class),
            nonchemical=load_lexicon(files[NONCHEMICAL]),
            blacklist=load_lexicon(files[BLACKLIST]),
            nonchemical_veto=self.nonchemical_veto,
            abbreviation_window=self.abbreviation_window,
            rules=rules,
        )

    def _lookup(self, text: str) -> LexEntry | None:
        hit = self.index.lookup(text)
        if (
            hit is not None
            and self.veto_all
            and hit.source != "lexicon:bc5cdr_chemicals"
            and text.lower() in self.nonchemical
        ):
            return None
        return hit

    # -- public -------------------------------------------------------------------------
    def find(self, words: Sequence[str]) -> list[Found]:
        """Mentions in ``words`` (one document), sorted by start."""
        return list(map(tuple.__new__, repeat(Found), self._find(words)))

    def _find(self, words: Sequence[str]) -> list[Cand]:
        """``find`` as plain tuples."""
        n = len(words)
        if not n:
            return []
        codes = _glue_string(words)  # one character per token, shared by the steps below
        cands = self._token_candidates(words)
        cands.extend(
            (s, e, h.label, h.source, h.confidence)
            for s, e, h in self.index.find_spans(words, " " in codes)
        )
        cands.extend(self._glued_candidates(words, codes))
        cands.extend(self._sequence_candidates(words))
        veto = self.words["veto_after"]
        if not self._veto_keys.isdisjoint(words):  # most documents have no word a veto follows
            cands = [
                f for f in cands if not (f[0] and words[f[0]] in veto.get(words[f[0] - 1], ()))
            ]
        if not self._veto_before_keys.isdisjoint(words):  # "ASA class II": not aspirin
            before = self.words["veto_before"]
            cands = [
                f
                for f in cands
                if not (f[1] < n and words[f[1]] in before.get(words[f[1] - 1], ()))
                or f[1] - f[0] > 1
            ]
        chosen = self._context(words, _resolve(cands, n), codes)
        chosen.sort(key=_start)
        return chosen

    # -- candidates ---------------------------------------------------------------------
    def _token_candidates(self, words: Sequence[str]) -> list[Cand]:
        token = self.classifier.token
        verdicts = list(map(self.classifier.cache.get, words))  # None: not seen yet
        out = []
        for i in compress(range(len(words)), map(is_not, verdicts, repeat(False))):
            v = verdicts[i] or token(words[i])
            if v:
                out.append((i, i + 1, *v))
        return out

    def _glued_candidates(self, words: Sequence[str], codes: str) -> list[Cand]:
        """Glued names in ``words`` (``codes``: their ``_glue_string``)."""
        out = []
        cache = self._runs
        for start, end in _glue_runs(codes):
            run = tuple(words[start:end])
            found = cache.get(run)  # most runs are cached (and glue nothing): no call
            if found is None:
                found = self._glued_in_run(run)
            for s, e, v in found:
                out.append((start + s, start + e, *v))
        return out

    def _glued_in_run(self, run: tuple[str, ...]) -> tuple[tuple[int, int, Verdict], ...]:
        """Glued names in one run of linked tokens, longest first from the left, as
        ``(start, end, verdict)`` in the run; cached by the run's tokens (a run is a few
        tokens such as ``( 80`` or ``N - methyl - D - aspartate``)."""
        cache = self._runs
        found = cache.get(run)
        if found is not None:
            return found
        out = []
        known = self.classifier.glued_verdicts
        classify = self.classifier.glued
        end = len(run)
        s = 0
        while s < end:
            if run[s] in _NOT_FIRST:
                s += 1
                continue
            for e in range(min(end, s + _MAX_RUN), s + 1, -1):
                if run[e - 1] in _NOT_LAST:
                    continue
                text = "".join(run[s:e])
                v = known.get(text, False)
                if v is False:
                    v = classify(text)
                if v is not None:
                    out.append((s, e, v))
                    s = e
                    break
            else:
                s += 1
        if len(cache) > _CACHE_MAX:
            cache.clear()
        found = cache[run] = tuple(out)
        return found

    def _sequence_candidates(self, words: Sequence[str]) -> list[Cand]:
        text = " ".join(words)
        matches = self.rules.sequence_matches(text)
        if not matches:
            return []
        n = len(words)
        ends_at = list(accumulate(map((1).__add__, map(len, words))))  # after each space
        out = []
        for a, b, r in matches:
            e = bisect.bisect_left(ends_at, b + 1)  # the token ending at character b
            if e == n or ends_at[e] != b + 1:
                continue
            k = bisect.bisect_left(ends_at, a)  # the token after the space before a
            s = 0 if a == 0 else k + 1 if k < n and ends_at[k] == a else None
            if s is not None and s < n:
                out.append((s, e + 1, r.label, r.name, r.confidence))
        return out

    # -- context rules ------------------------------------------------------------------
    def _context_steps(self) -> tuple[tuple[str, tuple], ...]:
        """The context rules in table order, as steps: ``("pass", (rule, fn))``, or
        ``("join", ((rule, fn), ...))`` for consecutive join rules (tried in one pass)."""
        steps: list[tuple[str, tuple]] = []
        for r in self.rules.of_kind("context"):
            spec = RULES[r.name]
            if spec.calls == "join" and steps and steps[-1][0] == "join":
                steps[-1] = ("join", (*steps[-1][1], (r, spec.fn)))
            elif spec.calls == "join":
                steps.append(("join", ((r, spec.fn),)))
            else:
                steps.append(("pass", (r, spec.fn)))
        return tuple(steps)

    def _context(self, words: Sequence[str], chosen: list[Cand], codes: str) -> list[Cand]:
        """Apply the context rules (chemie.ner.rules_code) to the chosen names, in table
        order; ``codes``: the ``_glue_string`` of ``words``."""
        by_start = {f[0]: f for f in chosen}
        found = chosen
        for how, step in self._steps:
            if how == "pass":
                found = step[1](self, step[0], words, found, by_start, codes)
            else:
                found = self._join(words, found, step)
        return found

    def _join(self, words: Sequence[str], found: list[Cand], rules: tuple) -> list[Cand]:
        """One pass of the join rules ``rules`` (``(rule, fn)`` pairs) over ``found``, in
        start order: the first rule that answers gives the name that replaces each one
        (merged with the previous name when it starts where that one starts)."""
        merged: list[Cand] = []
        prev = None
        for f in found:
            for r, fn in rules:
                g = fn(self, r, words, prev, f)
                if g is not None:
                    break
            else:
                g = f
            if prev is not None and g[0] == prev[0]:
                merged[-1] = g
            else:
                merged.append(g)
            prev = g
        return merged

    def non_overlapping(self, found: list[Cand]) -> list[Cand]:
        """``found`` (in start order) without the names overlapping an earlier, longer one
        (only a head + letter or an extended name can overlap)."""
        if all(map(le, map(_end, found), map(_start, found[1:]))):
            return found
        return _dedupe(found)

    # -- spaCy --------------------------------------------------------------------------
    def _label_ids(self, doc: Doc) -> dict[str, int]:
        """The string-store ids of the class labels (added once per vocabulary)."""
        self._check_vocab(doc)
        if not self._labels:
            strings = doc.vocab.strings
            self._labels = {c: strings.add(c) for c in CLASSES}
        return self._labels

    def _doc_words(self, doc: Doc) -> list[str]:
        """The token texts of ``doc`` through a per-vocabulary cache of orth id -> text."""
        self._check_vocab(doc)
        return cached_words(doc, self._texts)

    def _check_vocab(self, doc: Doc) -> None:
        if self._vocab is not doc.vocab:
            self._vocab = doc.vocab
            self._labels = {}
            self._texts = {}

    def __call__(self, doc: Doc) -> Doc:
        found = self._find(self._doc_words(doc))
        store = doc.user_data.setdefault(NER_STORE, {})
        store.update({f"{s}:{e}": (r, c) for s, e, _, r, c in found})
        labels = self._label_ids(doc)
        spans = [Span(doc, s, e, labels.get(lab, lab)) for s, e, lab, _, _ in found]
        doc.spans[SPANS_KEY] = SpanGroup(doc, name=SPANS_KEY, spans=spans)
        return doc


# One character per token for the glue-run rules (the token tests those rules make):
# connectors by kind ("-" hyphens, "(", "[", ")" closing brackets, "'" primes, ","), "."
# and "+" as themselves; "n" a number of 1-2 digits, "L" another locant (2a, 4', N), "s"
# the word s, "v" a lowercase word of 3 letters, "w" one of 1-2 letters, "A" another word
# of 3+ letters, " " a whitespace token, "o" anything else (" " and "o" link alike).
_GLUE_CHARS = {"-": "-", "‐": "-", "–": "-", "(": "(", "[": "[", ")": ")", "]": ")",
               "'": "'", "′": "'", ",": ",", ".": ".", "+": "+"}
# Where tokens j and j + 1 are linked (a one-character match at j), over the glue-run
# characters; the alternatives exclude each other (each starts with its first token's
# character, so a position fails fast). Never across a charge "+"
# ("Na +" in BC5CDR). A period only between ring sizes in brackets: [ 4 . 3 . 0 ]. A
# comma only in a locant list: 2 , 4 - dichloro. A connector first: linked, except the
# possessive "aspirin ' s" and a closing bracket before a short lowercase word (") in").
# A connector second: linked, except an opening bracket after a word ("didanosine ( ddI").
_GLUE_LINK = re.compile(
    # each alternative has a connector at j or j + 1: a first check skips other positions
    r"(?=[-(\[)'.,]|.[-(\[)'.,])(?:"
    r"[^-(\[)'.+,Av](?=[-(\[)'])|[Av](?=[-\[)'])"
    r"|[-(\[](?=[^.+,])|\)(?=[^.+,svw])|'(?=[^.+,s])"
    r"|\.(?<=[\[.]n\.)(?=n)|,(?<=[nL],)(?=[nL])"
    r"|n(?=\.n)(?<=[\[.]n)|[nL](?=,[nL]))"
)
_glue_codes: dict[str, str] = {}


def _glue_code(word: str) -> str:
    """The glue-run character of one token (see ``_GLUE_CHARS``)."""
    code = _GLUE_CHARS.get(word)
    if code is not None:
        return code
    if word.isspace():
        return " "
    if _SMALL_INT.match(word):
        return "n"
    if _LOCANTISH.match(word):
        return "L"
    if word.isalpha():
        if word.islower() and len(word) <= 3:
            return "s" if word == "s" else "v" if len(word) == 3 else "w"
        if len(word) >= 3:
            return "A"
    return "o"


def _glue_string(words: Sequence[str]) -> str:
    """The glue-run characters of ``words`` as one string (through a per-word cache)."""
    try:
        return "".join(map(_glue_codes.__getitem__, words))
    except KeyError:
        if len(_glue_codes) > _CACHE_MAX:
            _glue_codes.clear()
        codes = []
        for w in words:
            code = _glue_codes.get(w)
            if code is None:
                code = _glue_codes[w] = _glue_code(w)
            codes.append(code)
        return "".join(codes)


def _glue_runs(codes: str) -> list[tuple[int, int]]:
    """Maximal runs ``[start, end)`` of 2+ tokens linked by connector tokens (``codes``:
    the tokens' ``_glue_string``)."""
    runs: list[tuple[int, int]] = []
    last = -2  # the last linked pair
    for m in _GLUE_LINK.finditer(codes):
        j = m.start()  # tokens j and j + 1 belong to one glued name
        if last == j - 1:
            runs[-1] = (runs[-1][0], j + 2)
        else:
            runs.append((j, j + 2))
        last = j
    return runs


def _resolve(cands: list[Cand], n: int) -> list[Cand]:
    """Longest, then most confident, non-overlapping candidates (in no particular order).

    Candidates of other lengths go first, in that order; single tokens then fill the
    free tokens, the most confident (then the first) one per token: the same choice as
    one greedy pass over all candidates sorted by (length, confidence), cheaper."""
    occupied = bytearray(n)
    chosen = []
    multi = [f for f in cands if f[1] - f[0] != 1]
    if multi:
        for f in sorted(multi, key=lambda f: (f[0] - f[1], -f[4], f[0])):
            s, e = f[0], f[1]
            if not any(occupied[s:e]):
                occupied[s:e] = b"\x01" * (e - s)
                chosen.append(f)
        singles = [f for f in cands if f[1] - f[0] == 1]
    else:
        singles = cands
    singles = sorted(singles, key=_confidence, reverse=True)  # stable: ties keep order
    for f in singles:
        s = f[0]
        if not occupied[s]:
            occupied[s] = 1
            chosen.append(f)
    return chosen


def _dedupe(found: list[Cand]) -> list[Cand]:
    """Drop mentions overlapping an earlier, longer one."""
    return _resolve(found, max((f[1] for f in found), default=0))


@functools.cache
def shared_index(derived: bool = True) -> LexiconIndex:
    """The default lexicon index, built once per process."""
    return default_index(derived=derived)


def mention_records(doc: Doc) -> list[dict[str, object]]:
    """The chemical spans of ``doc`` as plain records (char offsets, end exclusive)."""
    return [
        {
            "start": s.start_char,
            "end": s.end_char,
            "text": s.text,
            "class": s.label_,
            "confidence": s._.chem_conf,
            "rule": s._.chem_rule,
        }
        for s in doc.spans.get(SPANS_KEY, [])
    ]


__all__ = [
    "CLASSES",
    "ChemicalNER",
    "Found",
    "SPANS_KEY",
    "find_in_sentences",
    "mention_records",
    "shared_index",
]


def find_in_sentences(ner: ChemicalNER, sentences: Sequence[Sequence[str]]) -> list[list[Found]]:
    """Mentions per sentence when ``sentences`` form one document (abbreviations defined
    in one sentence apply to the others); indices are relative to each sentence."""
    words: list[str] = []
    offsets = []
    for s in sentences:
        offsets.append(len(words))
        words.extend(s)
        words.append("\n")  # a sentinel no rule or lexicon entry matches across
    per: list[list[Found]] = [[] for _ in sentences]
    for f in ner.find(words):
        k = bisect.bisect_right(offsets, f.start) - 1
        base = offsets[k]
        per[k].append(Found(f.start - base, f.end - base, f.label, f.rule, f.confidence))
    return per

