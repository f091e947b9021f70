"""Unicode characters read as their ASCII counterparts, once, where a text enters the
pipeline (:func:`chemie.nlp.annotate`), keeping every offset.

``rules/characters.yaml`` maps each character to one character ("EDC·HCl" → "EDC.HCl",
"Dess–Martin" → "Dess-Martin", "−78" → "-78", "Na₂SO₄" → "Na2SO4", a no-break space → a
space), so the normalised text has the original's length and an offset into one is an offset
into the other. The pipeline reads the normalised text; :func:`restore` puts the original
back into everything that quotes it (the document's text, its tokens, mention and role
texts, the names and texts of reaction records), so outputs quote the text as written.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

from chemie.model import Document, make_token
from chemie.tables import load_table

QUOTING_FIELDS = ("name", "text", "via")  # the fields of reaction records that quote text


@dataclass(frozen=True)
class CharacterRule:
    """One mapping: ``chars`` become ``becomes`` (one character, or one per character)."""

    name: str
    comment: str
    chars: str
    becomes: str
    example: str


@dataclass(frozen=True)
class CharacterTable:
    """``rules/characters.yaml``."""

    rules: tuple[CharacterRule, ...]


@functools.cache
def translation() -> dict[int, str]:
    """The ``str.translate`` table of every rule (ValueError for a rule whose ``becomes``
    is neither one character nor one per character)."""
    table: dict[int, str] = {}
    for rule in load_table("characters.yaml", CharacterTable).rules:
        if len(rule.becomes) not in (1, len(rule.chars)):
            raise ValueError(f"rules/characters.yaml: rules.{rule.name}.becomes: one "
                             "character, or one per character of chars")
        for i, char in enumerate(rule.chars):
            table[ord(char)] = rule.becomes[i if len(rule.becomes) > 1 else 0]
    return table


def normalise(text: str) -> str:
    """``text`` with the characters of ``rules/characters.yaml`` replaced, one for one
    (``text`` itself when none occurs)."""
    if text.isascii():
        return text
    out = text.translate(translation())
    return text if out == text else out


def normalised_document(document: Document, text: str) -> Document:
    """A copy of ``document`` whose text is ``text`` (its normalised text) and whose
    tokens are normalised alike."""
    tokens = [make_token(normalise(t.text), t.start, t.end) for t in document.tokens]
    return dataclasses.replace(document, text=text, tokens=tokens)


def restore(out: Document, original: Document) -> Document:
    """``out`` (annotated from the normalised copy of ``original``) quoting the original
    text: its text, tokens, mention and role texts and the quoting fields of its reaction
    records (a quote found at its offsets, else at its first place in the normalised
    text; a quote that is not there stays as it is)."""
    text, norm = original.text, out.text
    out.text = text
    out.tokens = list(original.tokens) if original.tokens else [
        make_token(text[t.start:t.end], t.start, t.end) for t in out.tokens]
    for m in out.mentions:
        pieces = [norm[a:b] for a, b in m.spans]
        m.text = out.span_text(m.spans) if m.text == " ".join(pieces) else \
            _quote(m.text, norm, text, m.spans[0][0])
    for r in out.roles:
        r.text = _quote(r.text, norm, text, r.start)
    for record in out.reactions:
        _restore_fields(record, norm, text)
    return out


def _quote(quote: str, norm: str, text: str, start: int = -1) -> str:
    """The original of ``quote``, a piece of ``norm``: at ``start`` when it is there, else
    at its first place; itself when it is not in ``norm``."""
    if start < 0 or norm[start:start + len(quote)] != quote:
        start = norm.find(quote) if quote else -1
    return text[start:start + len(quote)] if start >= 0 else quote


def _restore_fields(value: object, norm: str, text: str) -> None:
    """Restore the quoting fields of a reaction record and of the records it holds."""
    if isinstance(value, list | tuple):
        for item in value:
            _restore_fields(item, norm, text)
        return
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return
    start = getattr(value, "start", -1)
    for f in dataclasses.fields(value):
        item = getattr(value, f.name)
        if f.name in QUOTING_FIELDS and isinstance(item, str):
            setattr(value, f.name, _quote(item, norm, text, start if f.name != "via" else -1))
        else:
            _restore_fields(item, norm, text)
