"""msgpack support for chemie's annotations on spaCy Docs.

spaCy serialises ``doc.user_data`` with srsly's msgpack, which knows no dataclasses, so a Doc
that went through the pipeline could not be written (``Doc.to_bytes``, ``DocBin(store_user_data=
True)``) nor come back from ``nlp.pipe(..., n_process=N)``. Registering :func:`encode` and
:func:`decode` with srsly (done on import of :mod:`chemie.extensions`) turns each
:class:`~chemie.model.Mention`, :class:`~chemie.model.Relation`,
:class:`~chemie.model.Action` and :class:`~chemie.model.Role` into a tagged map and back,
with its tuples restored (a Mention as its first six fields and its
:func:`~chemie.model.mention_attrs` map); a :class:`~chemie.model.reaction.Reaction` travels
as its ``to_dict`` dictionary.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

import srsly

from chemie.model import Action, Mention, Relation, Role, mention_attrs
from chemie.model.reaction import Reaction

_TAG = "__chemie__"
_CLASSES: dict[str, type] = {cls.__name__: cls for cls in (Mention, Relation, Action, Role)}
_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in (Relation, Action, Role)
}


def encode(obj: Any, chain: Callable[[Any], Any] | None = None) -> Any:
    """A chemie annotation as ``{"__chemie__": class name, "fields": [values]}``; anything
    else goes on to the next encoder."""
    names = _FIELDS.get(type(obj))
    if names is None:
        if type(obj) is Mention:
            return {_TAG: "Mention", "fields": [
                obj.id, obj.spans, obj.label, obj.text, obj.rule, obj.confidence,
                mention_attrs(obj),
            ]}
        if type(obj) is Reaction:  # a tree of dataclasses: its own plain dictionary
            return {_TAG: "Reaction", "dict": obj.to_dict()}
        return obj if chain is None else chain(obj)
    return {_TAG: type(obj).__name__, "fields": [getattr(obj, n) for n in names]}


def decode(obj: Any, chain: Callable[[Any], Any] | None = None) -> Any:
    """The annotation a map made by :func:`encode` stands for (msgpack's lists, or DocBin's
    tuples, turned back into what the components write); any other map goes on to the next
    decoder."""
    name = obj.get(_TAG) if isinstance(obj, dict) else None
    if name is None:
        return obj if chain is None else chain(obj)
    if name == "Reaction":
        return Reaction.from_dict(_lists(obj["dict"]))
    cls = _CLASSES[name]
    if cls is Mention:
        return Mention.from_attrs(*obj["fields"])
    value = cls(*obj["fields"])
    if cls is Action:
        value.args = {k: list(v) for k, v in value.args.items()}
    elif cls is Role:
        value.args, value.arg_rules = list(value.args), list(value.arg_rules)
    return value


def _lists(value: Any) -> Any:
    """DocBin's tuples back into lists (a reaction's dictionary holds lists only)."""
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_lists(v) for v in value]
    return value


def register() -> None:
    """Add the chemie encoder and decoder to srsly's msgpack registries (idempotent)."""
    srsly.msgpack_encoders.register("chemie_annotations", func=encode)
    srsly.msgpack_decoders.register("chemie_annotations", func=decode)
