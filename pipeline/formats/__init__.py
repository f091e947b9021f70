"""chemie.formats: readers and writers of every file format (a reader never scores)."""

import json
import os

from chemie.errors import InputError


def file_name_text(name: str) -> str:
    """A name taken from a file name as text: bytes that are not UTF-8 (kept by Python as
    lone surrogates, which no UTF-8 output can hold) become ``\\xNN`` escapes."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def identified_object(text: str, path: str | os.PathLike[str] | None, line: int | None) -> dict:
    """A JSON line that is an object with a non-empty string ``id`` (an InputError naming the
    file and line otherwise)."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(path, line, f"malformed JSON: {e.msg} (column {e.colno})") from None
    if not isinstance(obj, dict):
        raise InputError(path, line, "expected a JSON object")
    rid = obj.get("id")
    if not isinstance(rid, str) or not rid:
        raise InputError(path, line, "'id' must be a non-empty string")
    return obj
