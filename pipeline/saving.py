"""Saving a component's rule tables with the pipeline (``nlp.to_disk`` / ``spacy.load``).

A component built from files of ``rules/`` and ``lexicons/`` mixes in :class:`SavesTables`:
``to_disk`` copies those files into the component's folder and ``from_disk`` rebuilds the
component from the copies there, as spaCy's ``SpanRuler`` writes and reads its patterns. A
saved pipeline so carries the rules it was built with, and an edited copy changes what the
loaded pipeline does.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from chemie.errors import InputError
from chemie.resources import rules_path
from chemie.tables import VOCABULARIES


def table_sources(*tables: str | Path) -> dict[str, Path]:
    """The files a component built from the rule tables ``tables`` (names in ``rules/`` or
    files) saves: each table, and the vocabularies file their ``"@name"`` references read
    (the one beside a table file, else the shipped one)."""
    files = {Path(t).name: rules_path(t) for t in tables}
    beside = [Path(t).parent / VOCABULARIES for t in tables if isinstance(t, Path)]
    files[VOCABULARIES] = next((v for v in beside if v.is_file()), rules_path(VOCABULARIES))
    return files


def rule_table(files: dict[str, Path]) -> Path:
    """The one rule table among a component's saved ``files`` (the vocabularies file aside):
    what a component built from a single table rebuilds from."""
    (table,) = (path for name, path in files.items() if name != VOCABULARIES)
    return table


class SavesTables:
    """Mixin: ``to_disk``/``from_disk`` of the files in :attr:`table_files`; the component
    defines :meth:`load_tables`, which rebuilds it from such files."""

    #: file name in the component's folder -> the file the component was built from
    table_files: dict[str, Path]

    def load_tables(self, files: dict[str, Path]) -> None:
        """Rebuild the component from ``files`` (the keys of :attr:`table_files`)."""
        raise NotImplementedError(f"{type(self).__name__} defines load_tables")

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        """Copy the component's tables into the folder ``path``."""
        folder = Path(path)
        folder.mkdir(parents=True, exist_ok=True)
        for name, source in self.table_files.items():
            target = folder / name
            if not (target.exists() and target.samefile(source)):
                shutil.copyfile(source, target)

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> SavesTables:
        """Rebuild the component from the tables in the folder ``path``."""
        files = {name: Path(path) / name for name in self.table_files}
        for file in files.values():
            if not file.is_file():
                raise InputError(file, None, "missing: a saved chemie component needs its tables")
        self.load_tables(files)
        self.table_files = files
        return self
