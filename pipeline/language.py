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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import regex
import spacy
from spacy.lang.en import English, EnglishDefaults
from spacy.lang.punctuation import TOKENIZER_PREFIXES, TOKENIZER_SUFFIXES
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.util import compile_infix_regex, registry
from spacy.vocab import Vocab
from thinc.api import Config

from chemie.tables import load_table

OPENING = "([{"
CLOSING = ")]}"
_PARTNER = dict(zip(OPENING, CLOSING, strict=True)) | dict(zip(CLOSING, OPENING, strict=True))
_END_PUNCT = frozenset(".,;:!?")
_ANY_BRACKET = regex.compile(r"[()\[\]{}]")


def bracket_partners(text: str) -> dict[int, int] | None:
    """Map each bracket position to its partner's position; None when unbalanced."""
    if _ANY_BRACKET.search(text) is None:
        return {}
    count = text.count
    if count("(") != count(")") or count("[") != count("]") or count("{") != count("}"):
        return None
    stack: list[int] = []
    pairs: dict[int, int] = {}
    for m in _ANY_BRACKET.finditer(text):
        i = m.start()
        ch = text[i]
        if ch in OPENING:
            stack.append(i)
        else:
            if not stack or text[stack[-1]] != _PARTNER[ch]:
                return None
            j = stack.pop()
            pairs[i] = j
            pairs[j] = i
    return None if stack else pairs


def _partial_partners(text: str) -> dict[int, int]:
    """Partners of the brackets that do match (unmatched ones are left out)."""
    stack: list[int] = []
    pairs: dict[int, int] = {}
    for i, ch in enumerate(text):
        if ch in OPENING:
            stack.append(i)
        elif ch in CLOSING:
            while stack and text[stack[-1]] != _PARTNER[ch]:
                stack.pop()
            if stack:
                j = stack.pop()
                pairs[i] = j
                pairs[j] = i
    return pairs


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
    return {
        "full": regex.compile("(?:" + "|".join(f"(?:{p})" for p in full) + ")"),
        "shape": regex.compile("|".join(f"(?:{p})" for p in shape)),
        "prefix": regex.compile(
            "^(?:" + "|".join(f"(?:{p})" for p in extra_pre + list(TOKENIZER_PREFIXES)) + ")"
        ),
        "suffix": regex.compile(
            "(?:" + "|".join(f"(?:{p})" for p in extra_suf + list(TOKENIZER_SUFFIXES)) + ")$"
        ),
        "infix": compile_infix_regex([r.pattern for r in rules.infixes]),
        "special": tuple(dict.fromkeys(rules.special_cases)),
    }


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
        close = _partial_partners(text).get(0)
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
        opening = _partial_partners(text).get(last)
        if opening is not None and opening != 0:
            before = text[opening - 1]
            if before.isalnum() or before in "-)]":
                return None
    return _compiled()["suffix"].search(text)


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


def make_tokenizer(vocab: Vocab) -> Tokenizer:
    """A spaCy Tokenizer with the chemie rules."""
    c = _compiled()
    return Tokenizer(
        vocab,
        rules=_special_cases(),
        prefix_search=prefix_search,
        suffix_search=suffix_search,
        infix_finditer=c["infix"].finditer,
        token_match=token_match,
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
    import chemie.components.ner  # noqa: F401  (registers the factory)
    import chemie.components.sentences  # noqa: F401  (registers the factory)

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
    "blank",
    "bracket_partners",
    "make_tokenizer",
    "prefix_search",
    "suffix_search",
    "token_match",
    "tokenize",
]
