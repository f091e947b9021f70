"""Typed loading of the rule tables in ``rules/``: one schema per table, every key checked.

A schema is a (frozen) dataclass whose fields name the table's keys; a field without a
default is a required key. Field types may be ``str``, ``int``, ``float``, ``bool``,
``list[X]``, ``tuple[X, ...]``, ``frozenset[X]``, ``dict[str, X]``, ``X | None``,
``Literal[...]``, ``Any`` (taken as it is) or another schema dataclass, nested freely.
Unknown keys, missing keys and values of the wrong type are rejected with one line
``rules/NAME.yaml: path.to.key: what is wrong``, so a misspelt key never silently becomes
an empty list.

Shared vocabularies live once, in ``rules/vocabularies.yaml`` (named word lists). In any
word list of a table, an item ``"@name"`` (quoted: YAML reserves a plain ``@``) stands for
all the words of that vocabulary, e.g. ``equipment_heads: ["@equipment", kettle]``.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, Union

from chemie.resources import load_rules

T = TypeVar("T")
VOCABULARIES = "vocabularies.yaml"
_SEQUENCES = (list, tuple, frozenset)


class TableError(ValueError):
    """A rule table that does not match its schema: ``FILE: key.path: what is wrong``."""

    def __init__(self, table: str, path: str, message: str):
        self.table = table
        self.path = path
        self.message = message
        where = f"rules/{table}: {path}" if path else f"rules/{table}"
        super().__init__(f"{where}: {message}")


@functools.cache
def load_table(name: str, schema: type[T]) -> T:
    """The rule table ``rules/<name>`` parsed into ``schema`` (cached; treat as read-only)."""
    return parse_table(load_rules(name), schema, name)


def parse_table(data: object, schema: type[T], name: str) -> T:
    """``data`` (a parsed YAML document) checked against ``schema``; ``name`` is the table's
    file name, used in error messages."""
    return _Parser(name).value(data, schema, "")


@functools.cache
def vocabulary(name: str) -> tuple[str, ...]:
    """The words of the shared vocabulary ``name`` (``rules/vocabularies.yaml``)."""
    table = load_rules(VOCABULARIES)
    if not isinstance(table, Mapping) or name not in table:
        known = sorted(table) if isinstance(table, Mapping) else []
        raise TableError(VOCABULARIES, name, f"no such vocabulary{suggest(name, known)}")
    words = table[name]
    if not isinstance(words, list) or not all(isinstance(w, str | int | float) for w in words):
        raise TableError(VOCABULARIES, name, "a vocabulary is a list of words")
    return tuple(str(w) for w in words)


def suggest(key: str, known: typing.Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` for the closest of ``known``, or nothing."""
    close = difflib.get_close_matches(key, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _join(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def _type_name(tp: object) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


class _Parser:
    """Walks a parsed YAML value and a type together (one per table, for error messages)."""

    def __init__(self, table: str):
        self.table = table

    def fail(self, path: str, message: str) -> TableError:
        return TableError(self.table, path, message)

    def value(self, data: object, tp: Any, path: str) -> Any:
        if tp is Any or tp is object:
            return data
        if dataclasses.is_dataclass(tp) and isinstance(tp, type):
            return self.record(data, tp, path)
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if origin in (Union, types.UnionType):
            if data is None and type(None) in args:
                return None
            rest = [a for a in args if a is not type(None)]
            if len(rest) == 1:
                return self.value(data, rest[0], path)
            errors = []
            for alternative in rest:
                try:
                    return self.value(data, alternative, path)
                except TableError as e:
                    errors.append(e.message)
            raise self.fail(path, " or ".join(dict.fromkeys(errors)))
        if origin is Literal:
            if data not in args:
                raise self.fail(path, f"{data!r} is not one of {', '.join(map(repr, args))}")
            return data
        if origin in _SEQUENCES:
            return self.sequence(data, origin, args, path)
        if origin is dict or origin is Mapping:
            return self.mapping(data, args[1] if args else Any, path)
        return self.scalar(data, tp, path)

    def scalar(self, data: object, tp: type, path: str) -> object:
        if tp is float and isinstance(data, int | float) and not isinstance(data, bool):
            return float(data)
        if tp is str and isinstance(data, int | float) and not isinstance(data, bool):
            return str(data)  # a word list may hold numbers ("2", "1.5")
        if tp in (str, int, bool) and type(data) is tp:
            return data
        raise self.fail(path, f"expected {_type_name(tp)}, got {type(data).__name__} {data!r}")

    def sequence(self, data: object, origin: type, args: tuple, path: str) -> object:
        if not isinstance(data, list):
            raise self.fail(path, f"expected a list, got {type(data).__name__}")
        item = args[0] if args else Any
        items: list[object] = []
        for i, x in enumerate(data):
            if isinstance(x, str) and x.startswith("@") and len(x) > 1 and item in (str, Any):
                try:
                    items.extend(vocabulary(x[1:]))
                except TableError as e:
                    raise self.fail(_join(path, i), str(e)) from None
            else:
                items.append(self.value(x, item, _join(path, i)))
        return origin(items)

    def mapping(self, data: object, item: Any, path: str) -> dict:
        if not isinstance(data, Mapping):
            raise self.fail(path, f"expected a mapping, got {type(data).__name__}")
        return {str(k): self.value(v, item, _join(path, k)) for k, v in data.items()}

    def record(self, data: object, schema: type, path: str) -> object:
        if not isinstance(data, Mapping):
            raise self.fail(path, f"expected a mapping, got {type(data).__name__}")
        fields = {f.name: f for f in dataclasses.fields(schema) if f.init}
        hints = typing.get_type_hints(schema)
        for key in data:
            if key not in fields:
                raise self.fail(_join(path, key), f"unknown key{suggest(str(key), fields)}")
        values = {}
        for name, f in fields.items():
            if name in data:
                values[name] = self.value(data[name], hints[name], _join(path, name))
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise self.fail(_join(path, name), "missing key")
        return schema(**values)
