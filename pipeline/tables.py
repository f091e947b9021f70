"""Typed loading of the rule tables in ``rules/``: one schema per table, every key checked.

A schema is a (frozen) dataclass whose fields name the table's keys; a field without a
default is a required key. Field types may be ``str``, ``int``, ``float``, ``bool``,
``list[X]``, ``tuple[X, ...]``, ``frozenset[X]``, ``dict[str, X]``, ``X | None``,
``Literal[...]``, ``Any`` (taken as it is) or another schema dataclass, nested freely.
Unknown keys, missing keys and values of the wrong type are rejected with one line
``rules/NAME.yaml: path.to.key: what is wrong``, so a misspelt key never silently becomes
an empty list. In a path, an item of a list is named by its ``name`` key when it has one
(``rules.as_eluent.heads``), else by its position (``limits.0``).

A field may read a key that is no Python name: ``label: str = field(metadata={"key":
"class"})``. A schema with a class attribute ``table_variants`` (a mapping, e.g. filled by a
registry) is a family of records told apart by one key (``table_tag``, default ``name``):
each mapping is read with the dataclass that ``table_variants`` gives for that key's value
(the rules of ``coref.yaml``, each with its own parameters).

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
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar, Union

from chemie.resources import load_rules

T = TypeVar("T")
VOCABULARIES = "vocabularies.yaml"
_SEQUENCES = (list, tuple, frozenset)


class TableError(ValueError):
    """A rule table that does not match its schema: ``FILE: key.path: what is wrong``.

    ``table`` is a shipped table's file name in ``rules/`` (shown as ``rules/NAME``) or the
    path of a table file elsewhere (a saved pipeline's copy, shown as it is)."""

    def __init__(self, table: str | Path, path: str, message: str):
        self.table = str(table)
        self.path = path
        self.message = message
        shown = str(table) if isinstance(table, Path) else f"rules/{table}"
        where = f"{shown}: {path}" if path else shown
        super().__init__(f"{where}: {message}")


def load_table(name: str | Path, schema: type[T]) -> T:
    """The rule table ``rules/<name>`` (cached; treat as read-only) or the table file at the
    path ``name`` (a saved pipeline's copy: its ``"@name"`` references read the
    ``vocabularies.yaml`` beside it, else the shipped one) parsed into ``schema``."""
    if isinstance(name, Path):
        beside = name.parent / VOCABULARIES
        words = functools.partial(_vocabulary, beside) if beside.is_file() else vocabulary
        return _Parser(name, words).value(load_rules(name), schema, "")
    return _load_shipped(name, schema)


def shipped_cache(build: Callable[[str | Path], T]) -> Callable[[str | Path], T]:
    """``build(name)`` cached for the name of a shipped table (``rules/<name>`` does not change
    while the process runs); for a table file given by path (a saved pipeline's copy, which
    may be edited between two loads) it is called afresh each time: a cache keyed by path
    would serve the old rules."""
    cached = functools.cache(build)
    default = (build.__defaults__ or (None,))[0]  # the shipped table's name, if build has one

    @functools.wraps(build)
    def load(name: str | Path = default) -> T:
        return build(name) if isinstance(name, Path) else cached(name)

    return load


@functools.cache
def _load_shipped(name: str, schema: type[T]) -> T:
    return parse_table(load_rules(name), schema, name)


def parse_table(data: object, schema: type[T], name: str) -> T:
    """``data`` (a parsed YAML document) checked against ``schema``; ``name`` is the table's
    file name in ``rules/``, used in error messages."""
    return _Parser(name, vocabulary).value(data, schema, "")


@functools.cache
def vocabulary(name: str) -> tuple[str, ...]:
    """The words of the shared vocabulary ``name`` (``rules/vocabularies.yaml``)."""
    return _vocabulary(VOCABULARIES, name)


def _vocabulary(source: str | Path, name: str) -> tuple[str, ...]:
    """The words of vocabulary ``name`` in the vocabularies file ``source`` (a shipped name or
    a path)."""
    table = load_rules(source)
    if not isinstance(table, Mapping) or name not in table:
        known = sorted(table) if isinstance(table, Mapping) else []
        raise TableError(source, name, f"no such vocabulary{suggest(name, known)}")
    words = table[name]
    if not isinstance(words, list) or not all(isinstance(w, str | int | float) for w in words):
        raise TableError(source, name, "a vocabulary is a list of words")
    return tuple(str(w) for w in words)


def suggest(key: str, known: typing.Iterable[str]) -> str:
    """`` (did you mean 'X'?)`` for the closest of ``known``, or nothing."""
    close = difflib.get_close_matches(key, list(known), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _named(name: object) -> bool:
    return isinstance(name, str) and name != "" and "." not in name


def _join(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def _type_name(tp: object) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


class _Parser:
    """Walks a parsed YAML value and a type together (one per table, for error messages)."""

    def __init__(self, table: str | Path, words: Callable[[str], tuple[str, ...]]):
        self.table = table
        self.words = words  # vocabulary name -> its words

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
                    items.extend(self.words(x[1:]))
                except TableError as e:
                    raise self.fail(_join(path, i), str(e)) from None
            else:
                name = x.get("name") if isinstance(x, Mapping) else None
                items.append(self.value(x, item, _join(path, name if _named(name) else i)))
        return origin(items)

    def mapping(self, data: object, item: Any, path: str) -> dict:
        if not isinstance(data, Mapping):
            raise self.fail(path, f"expected a mapping, got {type(data).__name__}")
        return {str(k): self.value(v, item, _join(path, k)) for k, v in data.items()}

    def record(self, data: object, schema: type, path: str) -> object:
        if not isinstance(data, Mapping):
            raise self.fail(path, f"expected a mapping, got {type(data).__name__}")
        variants = getattr(schema, "table_variants", None)
        if variants is not None:
            schema = self.variant(data, schema, variants, path)
        # YAML key -> field (a field's metadata may name another key: "class" -> label)
        fields = {
            f.metadata.get("key", f.name): f for f in dataclasses.fields(schema) if f.init
        }
        hints = typing.get_type_hints(schema)
        for key in data:
            if key not in fields:
                raise self.fail(_join(path, key), f"unknown key{suggest(str(key), fields)}")
        values = {}
        for key, f in fields.items():
            if key in data:
                values[f.name] = self.value(data[key], hints[f.name], _join(path, key))
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise self.fail(_join(path, key), "missing key")
        return schema(**values)

    def variant(
        self, data: Mapping, schema: type, variants: Mapping[str, type], path: str
    ) -> type:
        """The dataclass of ``variants`` that the tag key of ``data`` names."""
        tag = getattr(schema, "table_tag", "name")
        value = data.get(tag)
        if value is None:
            raise self.fail(_join(path, tag), "missing key")
        if not isinstance(value, str) or value not in variants:
            known = suggest(str(value), variants)
            raise self.fail(_join(path, tag), f"unknown {tag} {value!r}{known}")
        return variants[value]
