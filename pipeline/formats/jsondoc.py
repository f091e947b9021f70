"""The full JSON of an annotated document: one line with its text, tokens, sentences,
mentions and relations (with the rules that made them) and what else it carries (``meta``).
``chemie run --format json`` writes one such line per document."""

from __future__ import annotations

import dataclasses
import json
from json.encoder import encode_basestring
from operator import attrgetter

from chemie.model import Document, Mention, Token, mention_attrs


def _fields(obj: object) -> object:
    """A dataclass instance as a dict of its fields, for :func:`json.dumps` (``default``):
    the encoder recurses into the values itself, so this gives the JSON of
    ``dataclasses.asdict`` without its deep copy (10x cheaper); a Mention as its first six
    fields and ``attrs`` (:func:`~chemie.model.mention_attrs`); anything else: ``str``."""
    if obj.__class__ is Mention:
        m: Mention = obj  # type: ignore[assignment]
        return {"id": m.id, "spans": m.spans, "label": m.label, "text": m.text, "rule": m.rule,
                "confidence": m.confidence, "attrs": mention_attrs(m)}
    names = _FIELD_NAMES.get(type(obj))
    if names is None:
        if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
            return str(obj)
        names = _FIELD_NAMES[type(obj)] = tuple(f.name for f in dataclasses.fields(obj))
    return {name: getattr(obj, name) for name in names}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_TEXT, _START, _END = attrgetter("text"), attrgetter("start"), attrgetter("end")


_TOKEN_JSON = '{{"text": {}, "start": {}, "end": {}}}'.format  # as json.dumps writes a token


def _tokens_json(tokens: list[Token]) -> str:
    """``json.dumps`` of the tokens as ``{"text", "start", "end"}`` objects (``ensure_ascii``
    off), written by C-level maps: twice as fast as encoding a dict per token."""
    texts = map(encode_basestring, map(_TEXT, tokens))
    return f"[{', '.join(map(_TOKEN_JSON, texts, map(_START, tokens), map(_END, tokens)))}]"


def document_json(doc: Document) -> str:
    """Everything known about ``doc`` as one line of JSON (mentions and links with rule names)."""
    out = {
        "id": doc.id,
        "text": doc.text,
        "tokens": None,  # written by _tokens_json below
        "sentences": doc.sentences,
        "mentions": doc.mentions,
        "relations": doc.relations,
    }
    meta: dict[str, object] = {k: v for k, v in doc.meta.items() if k != "sentences"}
    # the typed annotations without a key of their own, written under meta as they always were
    if doc.actions:
        meta["actions"] = [_fields(a) for a in doc.actions]
    if doc.reactions:
        meta["reactions"] = doc.reactions
    # no cycle check: Documents hold trees of plain values (a cycle would fail either way)
    head, _, rest = json.dumps(
        out, ensure_ascii=False, default=_fields, check_circular=False
    ).partition('"tokens": null')
    # meta's other values are written with ``str`` (not as dataclasses): encoded on their own
    meta_json = json.dumps(meta, ensure_ascii=False, default=str, check_circular=False)
    return f'{head}"tokens": {_tokens_json(doc.tokens)}{rest[:-1]}, "meta": {meta_json}}}'
