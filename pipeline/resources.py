"""Access to the bundled rule tables (``rules/``), lexicons (``lexicons/``) and examples."""

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


def rules_path(name: str) -> Path:
    """Path of a rule table shipped in ``rules/``."""
    return _path("chemie.rules", name)


def lexicon_path(name: str) -> Path:
    """Path of a word list shipped in ``lexicons/``."""
    return _path("chemie.lexicons", name)


def example_path(name: str) -> Path:
    """Path of a bundled example input shipped in ``pipeline/data/``."""
    return _path("chemie.data", name)


@functools.cache
def load_rules(name: str) -> Any:
    """Parse a YAML rule table from ``rules/`` (cached; treat the result as read-only)."""
    with rules_path(name).open(encoding="utf-8") as fh:
        return yaml.load(fh, Loader=_LOADER)


@functools.cache
def load_lexicon(name: str) -> tuple[str, ...]:
    """Entries of a word list in ``lexicons/``: one per line, ``#`` comments and blanks skipped.

    For TSV lexicons the first column is the entry.
    """
    entries = []
    with lexicon_path(name).open(encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            entries.append(line.split("\t", 1)[0])
    return tuple(entries)


def read_table(name: str) -> list[list[str]]:
    """Rows of a TSV lexicon in ``lexicons/`` (``#`` comments and blank lines skipped)."""
    rows = []
    with lexicon_path(name).open(encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if line.strip() and not line.startswith("#"):
                rows.append(line.split("\t"))
    return rows
