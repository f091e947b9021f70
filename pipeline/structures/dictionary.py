"""The curated compound dictionary (``lexicons/compounds.tsv``): name -> SMILES and class.

Looked up before OPSIN. ``fold`` entries match in any case, ``exact`` entries (abbreviations
and formulas, where case matters: ``CO`` is not ``Co``) only as written; an exact match wins
over a folded one. Runs of whitespace in a name count as one space. A material has no
SMILES. The loader checks the schema and raises :class:`~chemie.errors.InputError`
(``FILE:LINE: what is wrong``) for a malformed row.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

from chemie.errors import InputError, read_text
from chemie.resources import lexicon_path

CLASSES = frozenset({
    "solvent", "acid", "base", "salt", "reagent", "coupling_agent", "reducing_agent",
    "oxidant", "catalyst", "ligand", "drying_agent", "metal", "gas", "material",
})
CASES = ("fold", "exact")
NO_STRUCTURE = "-"


@dataclass(frozen=True)
class Entry:
    """One dictionary row."""

    name: str
    smiles: str | None  # None for a material
    cls: str
    case: str
    line: int

    @property
    def kind(self) -> str:
        """``material`` or ``molecule``."""
        return "material" if self.cls == "material" else "molecule"


def _key(name: str) -> str:
    return " ".join(name.split())


class Dictionary:
    """Entries by exact name and by case-folded name."""

    def __init__(self, entries: list[Entry]):
        self.entries = entries
        self._exact: dict[str, Entry] = {}
        self._folded: dict[str, Entry] = {}
        for e in entries:
            self._exact[_key(e.name)] = e
            if e.case == "fold":
                self._folded[_key(e.name).casefold()] = e

    def lookup(self, name: str) -> Entry | None:
        """The entry of ``name`` (exact match first, then a ``fold`` entry in any case)."""
        key = _key(name)
        return self._exact.get(key) or self._folded.get(key.casefold())

    def __contains__(self, name: str) -> bool:
        return self.lookup(name) is not None

    def __len__(self) -> int:
        return len(self.entries)


def parse_dictionary(path: str | os.PathLike[str]) -> Dictionary:
    """Read and check a dictionary file (see the header of ``lexicons/compounds.tsv``)."""
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise InputError(path, number, f"expected 4 tab-separated fields "
                             f"(name, SMILES, class, case), got {len(fields)}")
        name, smiles, cls, case = fields
        if not name.strip() or name != name.strip() or _key(name) != name:
            raise InputError(path, number, f"name {name!r}: empty, or stray whitespace")
        if cls not in CLASSES:
            raise InputError(path, number, f"unknown class {cls!r} (known: "
                             f"{', '.join(sorted(CLASSES))})")
        if case not in CASES:
            raise InputError(path, number, f"case must be 'fold' or 'exact', got {case!r}")
        if (smiles == NO_STRUCTURE) != (cls == "material"):
            raise InputError(path, number, "a material has SMILES '-', anything else a SMILES")
        if not smiles or smiles != smiles.strip() or " " in smiles:
            raise InputError(path, number, f"SMILES {smiles!r}: empty or with spaces")
        for key in [name] + ([name.casefold()] if case == "fold" else []):
            if key in seen:
                raise InputError(path, number, f"name {name!r} repeats line {seen[key]}")
        seen[name] = number
        if case == "fold":
            seen[name.casefold()] = number
        entries.append(Entry(name, None if smiles == NO_STRUCTURE else smiles, cls, case, number))
    return Dictionary(entries)


@functools.cache
def compounds() -> Dictionary:
    """The bundled dictionary (``lexicons/compounds.tsv``), loaded once per process."""
    return parse_dictionary(Path(lexicon_path("compounds.tsv")))
