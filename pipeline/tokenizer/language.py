"""The ``chemie`` spaCy language: English plus a tokenizer that keeps chemical names whole.

Rules live in ``rules/tokenizer.yaml``. The ideas follow ChemDataExtractor's tokenizer:

- a whitespace chunk that *looks chemical* (locants, atom prefixes, attached brackets,
  formulas, CAS numbers, codes) and has balanced brackets stays one token;
- an opening bracket whose closing partner is inside the same chunk and is followed by a
  letter, digit, hyphen or bracket is *attached* (``(E)-but-2-ene``) and is not split off;
  a bracket wrapping the whole chunk, or without a partner, is split off (``(THF)``);
- numbers and units glued together are split (``5.0g``, ``50°C``, ``1N``, ``3x``);
- numeric ranges stay one token (``10-20 %``), and so do CAS numbers (``7732-18-5``).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

try:  # the parser of Python's re module: widths of the suffix patterns
    from re import _parser as sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover
    import sre_parse

import regex
import spacy
from spacy.lang.en import English, EnglishDefaults
from spacy.lang.punctuation import TOKENIZER_PREFIXES, TOKENIZER_SUFFIXES
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc
from spacy.util import compile_infix_regex, registry
from spacy.vocab import Vocab
from thinc.api import Config

from chemie.brackets import (
    CLOSING,
    OPENING,
    bracket_partners,
    partner_of_first,
    partner_of_last,
)
from chemie.errors import InputError
from chemie.tables import load_table

_END_PUNCT = frozenset(".,;:!?")


def _attached_after(text: str, close: int) -> bool:
    """A closing bracket is attached when a letter, digit, hyphen or bracket follows it."""
    nxt = text[close + 1 : close + 2]
    return bool(nxt) and (nxt.isalnum() or nxt in "-‐([{'′+")


@dataclass(frozen=True)
class SplitRule:
    """A named pattern of ``rules/tokenizer.yaml`` with the example its test fires on."""

    name: str
    comment: str
    pattern: str
    example: str


@dataclass(frozen=True)
class KeepWholeRule(SplitRule):
    """A chunk that matches stays one token: ``full`` patterns match the whole chunk,
    ``shape`` patterns anywhere in it."""

    kind: Literal["full", "shape"]


@dataclass(frozen=True)
class TokenizerTable:
    """``rules/tokenizer.yaml``."""

    keep_whole: tuple[KeepWholeRule, ...]
    prefixes: tuple[SplitRule, ...]
    suffixes: tuple[SplitRule, ...]
    infixes: tuple[SplitRule, ...]
    special_cases: tuple[str, ...]


@functools.cache
def _compiled() -> dict[str, object]:
    rules = load_table("tokenizer.yaml", TokenizerTable)
    full = [r.pattern for r in rules.keep_whole if r.kind == "full"]
    shape = [r.pattern for r in rules.keep_whole if r.kind == "shape"]
    extra_pre = [r.pattern for r in rules.prefixes]
    extra_suf = [r.pattern for r in rules.suffixes]
    suffixes = extra_suf + list(TOKENIZER_SUFFIXES)
    return {
        "full": regex.compile("(?:" + "|".join(f"(?:{p})" for p in full) + ")"),
        "shape": regex.compile("|".join(f"(?:{p})" for p in shape)),
        "prefix": regex.compile(
            "^(?:" + "|".join(f"(?:{p})" for p in extra_pre + list(TOKENIZER_PREFIXES)) + ")"
        ),
        "suffix": regex.compile("(?:" + "|".join(f"(?:{p})" for p in suffixes) + ")$"),
        "suffix_width": _suffix_width(suffixes),
        "infix": compile_infix_regex([r.pattern for r in rules.infixes]),
        "special": tuple(dict.fromkeys(rules.special_cases)),
    }


def _suffix_width(patterns: list[str]) -> int:
    """The most characters a suffix can have, the ellipsis ``\\.\\.+`` left aside (0: no
    bound, every start is tried)."""
    widest = 0
    for p in patterns:
        if p == r"\.\.+":
            continue
        _, most = sre_parse.parse(p).getwidth()
        if most >= sre_parse.MAXREPEAT:
            return 0
        widest = max(widest, most)
    return widest


def token_match(text: str) -> bool:
    """True when the chunk must stay one token (chemical name, formula, number range …)."""
    if text.isalpha():
        return False
    c = _compiled()
    if c["full"].fullmatch(text):
        return True
    if len(text) < 3 or text[-1] in _END_PUNCT or not c["shape"].search(text):
        return False
    pairs = bracket_partners(text)
    if pairs is None:
        return False
    return not (text[0] in OPENING and pairs.get(0) == len(text) - 1)


def prefix_search(text: str) -> regex.Match | None:
    """Leading punctuation to split off; an attached opening bracket is kept."""
    if not text or (text[0].isalnum() and text[0] != "x"):  # x3: rule times_before_count
        return None
    if text[0] in OPENING:
        close = partner_of_first(text)
        if close is not None and close != len(text) - 1 and _attached_after(text, close):
            return None
    return _compiled()["prefix"].search(text)


def suffix_search(text: str) -> regex.Match | None:
    """Trailing punctuation or unit to split off; a closing bracket with a partner
    inside the chunk (other than one wrapping the whole chunk) is kept."""
    if text.isalpha():
        return None
    last = len(text) - 1
    if last > 0 and text[last] in CLOSING:
        opening = partner_of_last(text)
        if opening is not None and opening != 0:
            before = text[opening - 1]
            if before.isalnum() or before in "-)]":
                return None
    return _search_suffix(text)


def _search_suffix(text: str) -> regex.Match | None:
    """``search`` of the combined suffix pattern, started where a match can begin: within the
    last ``suffix_width`` characters, or at a run of 2+ final periods (the one suffix of no
    fixed length); lookbehinds still see the text before. The same match as a search from
    the start, without trying every character of a long chunk."""
    c = _compiled()
    start = len(text) - c["suffix_width"]
    if start > 0 and c["suffix_width"]:
        dots = len(text) - len(text.rstrip("."))
        if dots >= 2:
            start = min(start, len(text) - dots)
        return c["suffix"].search(text, start)
    return c["suffix"].search(text)


def _special_cases() -> dict[str, list[dict[str, str]]]:
    # English splits "°C." into three tokens and keeps "h." (initials) whole; in chemistry
    # text these are "°C" + "." and "h" + "." (for 2 h.)
    cases = {
        k: v
        for k, v in English.Defaults.tokenizer_exceptions.items()
        if "°" not in k and not (len(k) == 2 and k[1] == "." and k[0].islower())
    }
    for s in _compiled()["special"]:
        cases[s] = [{"ORTH": s}]
    return cases


@registry.tokenizers("chemie.tokenizer.v1")
def create_tokenizer() -> Callable[[Language], Tokenizer]:
    """spaCy registry entry: the chemistry-aware tokenizer."""

    def make(nlp: Language) -> Tokenizer:
        return make_tokenizer(nlp.vocab)

    return make


# the Tokenizer attributes that hold code (the chemie hooks), not data
_HOOKS = ("prefix_search", "suffix_search", "infix_finditer", "token_match", "url_match")
_SURROGATE = regex.compile(r"[\ud800-\udfff]")  # half of a UTF-16 pair: no UTF-8 for it
# Longest run of punctuation (no letter, digit or space) at either end of a chunk that
# spaCy's affix loop splits as it is: it takes one affix per pass and copies the rest of the
# chunk each time, so a longer run would take time in the square of its length. A longer run
# is cut into pieces of this length first (no corpus has a run of more than 16).
MAX_EDGE_RUN = 256
_ALNUM = regex.compile(r"[\p{L}\p{N}]")
_LAST_ALNUM = regex.compile(r"[\p{L}\p{N}]", regex.REVERSE)
_LONG_CHUNK = regex.compile(rf"(?<!\S)\S{{{MAX_EDGE_RUN + 1},}}")


class _LongEdgeRun(Exception):
    """A chunk with more than :data:`MAX_EDGE_RUN` punctuation characters at one end."""


def _edge_runs(text: str, start: int, end: int) -> tuple[int, int]:
    """The lengths of the runs without a letter or digit at the start and at the end of
    ``text[start:end]``."""
    first = _ALNUM.search(text, start, end)
    if first is None:
        return end - start, end - start
    last = _LAST_ALNUM.search(text, start, end)
    return first.start() - start, end - last.end()


def guarded_token_match(text: str) -> bool:
    """The tokenizer's ``token_match`` hook: :func:`token_match`, after raising
    ``_LongEdgeRun`` for a chunk with a punctuation run longer than :data:`MAX_EDGE_RUN` at
    one end (:class:`ChemieTokenizer` then tokenizes it in pieces)."""
    if len(text) > MAX_EDGE_RUN and max(_edge_runs(text, 0, len(text))) > MAX_EDGE_RUN:
        raise _LongEdgeRun
    return token_match(text)


def _edge_cuts(text: str) -> list[int]:
    """Where to cut ``text`` so that no chunk has a punctuation run longer than
    :data:`MAX_EDGE_RUN` at either end: inside those runs, every ``MAX_EDGE_RUN`` characters."""
    cuts: list[int] = []
    step = MAX_EDGE_RUN
    for m in _LONG_CHUNK.finditer(text):
        start, end = m.span()
        lead, trail = _edge_runs(text, start, end)
        if lead == end - start:  # punctuation only
            cuts.extend(range(start + step, end, step))
            continue
        if lead > step:
            cuts.extend(range(start + step, start + lead, step))
        if trail > step:
            cuts.extend(range(end - step, end - trail, -step))
    return sorted(cuts)


class ChemieTokenizer(Tokenizer):
    """spaCy's Tokenizer with the chemie hooks, which are functions (they look at bracket
    partners), not the methods of compiled patterns spaCy's serialisation expects: its
    ``to_bytes``/``to_disk`` write the special cases and settings without the hooks, and
    ``from_bytes``/``from_disk`` keep the hooks it was made with (``chemie.tokenizer.v1``
    makes them from ``rules/tokenizer.yaml``). A text that cannot be encoded (a lone
    surrogate) is an :class:`~chemie.errors.InputError` naming the character. A chunk with
    a punctuation run of more than :data:`MAX_EDGE_RUN` characters at one end is cut inside
    the run first (spaCy's affix loop is quadratic in such a run)."""

    def __call__(self, text: str) -> Doc:
        try:
            return Tokenizer.__call__(self, text)
        except _LongEdgeRun:
            return self._in_pieces(text)
        except UnicodeEncodeError:
            bad = _SURROGATE.search(text)
            if bad is None:
                raise
            where = f"character {bad.start()}: lone surrogate \\u{ord(bad.group()):04x}"
            raise InputError(None, None, f"{where}: not valid Unicode") from None

    def _in_pieces(self, text: str) -> Doc:
        """The Doc of a text with a long punctuation run at the end of a chunk: the text cut
        inside such runs (:func:`_edge_cuts`), each piece tokenized, the Docs joined (the
        text is kept exactly)."""
        bounds = [0, *_edge_cuts(text), len(text)]
        docs = [Tokenizer.__call__(self, text[a:b]) for a, b in itertools.pairwise(bounds)]
        return Doc.from_docs(docs, ensure_whitespace=False)

    def to_bytes(self, *, exclude: Iterable[str] = ()) -> bytes:
        return super().to_bytes(exclude=[*exclude, *_HOOKS])

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = ()) -> ChemieTokenizer:
        hooks = {name: getattr(self, name) for name in _HOOKS}
        super().from_bytes(bytes_data, exclude=[*exclude, *_HOOKS])  # (it clears the hooks)
        rules = self.rules
        self.rules = {}
        for name, hook in hooks.items():
            setattr(self, name, hook)
        self.rules = rules  # the special cases last: they are tokenized with the hooks
        return self


def make_tokenizer(vocab: Vocab) -> ChemieTokenizer:
    """A spaCy Tokenizer with the chemie rules."""
    c = _compiled()
    return ChemieTokenizer(
        vocab,
        rules=_special_cases(),
        prefix_search=prefix_search,
        suffix_search=suffix_search,
        infix_finditer=c["infix"].finditer,
        token_match=guarded_token_match,
        url_match=English.Defaults.url_match,
    )


class ChemieDefaults(EnglishDefaults):
    config = Config().from_str(
        """
[nlp]
lang = "chemie"

[nlp.tokenizer]
@tokenizers = "chemie.tokenizer.v1"
"""
    )


@spacy.registry.languages("chemie")
class Chemie(English):
    """English with the chemistry tokenizer (``spacy.blank("chemie")``)."""

    lang = "chemie"
    Defaults = ChemieDefaults


def blank(sentences: bool = True) -> Language:
    """A blank ``chemie`` Language, with the rule-based sentence segmenter by default.

    Importing the components registers the ``chemie_sentences`` and ``chemie_ner``
    factories, so ``nlp.add_pipe("chemie_ner")`` works on the result.
    """
    import chemie.ner.component  # noqa: F401  (registers the factory)
    import chemie.tokenizer.sentences  # noqa: F401  (registers the factory)

    nlp = Chemie()
    if sentences:
        nlp.add_pipe("chemie_sentences")
    return nlp


def tokenize(text: str) -> list[str]:
    """The token texts of ``text`` (convenience for tests and scripts)."""
    return [t.text for t in _tokenizer()(text)]


@functools.cache
def _tokenizer() -> Tokenizer:
    return make_tokenizer(Vocab())


__all__ = [
    "Chemie",
    "ChemieTokenizer",
    "blank",
    "bracket_partners",
    "make_tokenizer",
    "prefix_search",
    "suffix_search",
    "token_match",
    "tokenize",
]
