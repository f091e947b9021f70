"""Access to the bundled rule tables (``rules/``), lexicons (``lexicons/``) and examples.

A table or lexicon is named by its file name in ``rules/`` or ``lexicons/`` (read once and
cached), or given as a :class:`~pathlib.Path` to any file, e.g. the copy a saved pipeline
holds (read each time).
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

# libyaml's safe loader parses the rule tables ~9x faster; the pure-Python one if it is missing
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _path(package: str, name: str) -> Path:
    return Path(str(resources.files(package).joinpath(name)))


def rules_path(name: str | Path) -> Path:
    """Path of a rule table shipped in ``rules/`` (a Path: itself)."""
    return name if isinstance(name, Path) else _path("chemie.rules", name)


def lexicon_path(name: str | Path) -> Path:
    """Path of a word list shipped in ``lexicons/`` (a Path: itself)."""
    return name if isinstance(name, Path) else _path("chemie.lexicons", name)


def example_path(name: str) -> Path:
    """Path of a bundled example input shipped in ``pipeline/data/``."""
    return _path("chemie.data", name)


def load_rules(name: str | Path) -> Any:
    """Parse a YAML rule table: a name in ``rules/`` (cached; treat the result as read-only)
    or a file."""
    if isinstance(name, Path):
        return _parse_yaml(name)
    return _shipped_rules(name)


@functools.cache
def _shipped_rules(name: str) -> Any:
    return _parse_yaml(rules_path(name))


def _parse_yaml(path: Path) -> Any:
    with path.open(encoding="utf-8") as fh:
        return yaml.load(fh, Loader=_LOADER)


def load_lexicon(name: str | Path) -> tuple[str, ...]:
    """Entries of a word list (a name in ``lexicons/``, cached, or a file): one per line,
    ``#`` comments and blanks skipped. For TSV lexicons the first column is the entry."""
    if isinstance(name, Path):
        return _entries(name)
    return _shipped_lexicon(name)


@functools.cache
def _shipped_lexicon(name: str) -> tuple[str, ...]:
    return _entries(lexicon_path(name))


def _entries(path: Path) -> tuple[str, ...]:
    entries = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            entries.append(line.split("\t", 1)[0])
    return tuple(entries)


def read_table(name: str | Path) -> list[list[str]]:
    """Rows of a TSV lexicon (a name in ``lexicons/``, or a file); ``#`` comments and blank
    lines skipped."""
    rows = []
    with lexicon_path(name).open(encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if line.strip() and not line.startswith("#"):
                rows.append(line.split("\t"))
    return rows
