"""The curated compound dictionary (``lexicons/compounds.tsv``): name -> SMILES and class.

Looked up before OPSIN. ``fold`` entries match in any case, ``exact`` entries (abbreviations
and formulas, where case matters: ``CO`` is not ``Co``) only as written; an exact match wins
over a folded one. Runs of whitespace in a name count as one space. A material has no
SMILES. An optional fifth column is a note: why the entry's structure is not OPSIN's reading
of its name (the conventional reading of an under-specified name, a gas as a molecule).

When no entry matches, the **loose** spelling is tried (:func:`loose`): the spaces, hyphens
and full stops between two letters or brackets dropped ("sec.-BuLi", "s-BuLi" and "sBuLi";
"ethyl acetate", "ethylacetate" and "ethyl-acetate"; "tetra-n-butylammonium fluoride") and
the dot of a solvate or salt written one way ("Pd(dppf)Cl2.CH2Cl2", "Pd(dppf)Cl2 · CH2Cl2"),
and the spaces that set a subscript apart ("K 2 CO 3", "Pd(PPh 3 ) 4"), with the case rule
of each entry; a loose spelling that two entries of different structures share matches
neither. Hyphens and full stops next to a digit stay ("N-2" is no "N2", "1,4-dioxane"), and
so does a space between two digits.

The loader checks the schema and raises :class:`~chemie.errors.InputError`
(``FILE:LINE: what is wrong``) for a malformed row.
"""

from __future__ import annotations

import functools
import os
import re
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
    note: str = ""  # why the structure is not OPSIN's reading of the name

    @property
    def kind(self) -> str:
        """``material`` or ``molecule``."""
        return "material" if self.cls == "material" else "molecule"


def _key(name: str) -> str:
    return " ".join(name.split())


# a salt's or solvate's dot, however written ("·", "•", " . ", "." after a formula)
_SOLVATE_DOT = re.compile(r"\s*[·•∙]\s*|(?<=[\d)\]])\s*\.\s*(?=[A-Z\d])")
# spaces, hyphens and full stops between two letters or brackets
_BREAK = re.compile(r"(?<=[^\W\d_]|[)\]])[\s.\-‐‑–]+(?=[^\W\d_]|[(\[])")
# spaces between a letter or bracket and a digit, and inside brackets ("K 2 CO 3", "N 2",
# "Pd(PPh 3 ) 4": subscripts set apart); a space between two digits stays
_SUBSCRIPT_SPACE = re.compile(r"(?<=[^\W\d_]|[)\]])\s+(?=\d)|(?<=\d)\s+(?=[^\W\d_]|[()\[\]])"
                              r"|(?<=[(\[])\s+|\s+(?=[)\]])")


@functools.lru_cache(maxsize=65536)
def loose(name: str) -> str:
    """The loose spelling of a name (see the module docstring)."""
    return _BREAK.sub("", _SUBSCRIPT_SPACE.sub("", _SOLVATE_DOT.sub("·", _key(name))))


class Dictionary:
    """Entries by exact name, by case-folded name, and by their loose spellings."""

    def __init__(self, entries: list[Entry]):
        self.entries = entries
        self._exact: dict[str, Entry] = {}
        self._folded: dict[str, Entry] = {}
        self._loose: dict[str, Entry | None] = {}  # None: two structures share the spelling
        self._loose_folded: dict[str, Entry | None] = {}
        for e in entries:
            self._exact[_key(e.name)] = e
            _add_loose(self._loose, loose(e.name), e)
            if e.case == "fold":
                self._folded[_key(e.name).casefold()] = e
                _add_loose(self._loose_folded, loose(e.name).casefold(), e)

    def lookup(self, name: str) -> Entry | None:
        """The entry of ``name``: an exact match first, then a ``fold`` entry in any case,
        then the same by the loose spelling."""
        key = _key(name)
        found = self._exact.get(key) or self._folded.get(key.casefold())
        if found is not None:
            return found
        spelt = loose(key)
        return self._loose.get(spelt) or self._loose_folded.get(spelt.casefold())

    def ambiguous(self) -> list[str]:
        """The loose spellings that entries of two structures share (they match neither)."""
        return sorted(k for index in (self._loose, self._loose_folded)
                      for k, e in index.items() if e is None)

    def __contains__(self, name: str) -> bool:
        return self.lookup(name) is not None

    def __len__(self) -> int:
        return len(self.entries)


def _add_loose(index: dict[str, Entry | None], key: str, entry: Entry) -> None:
    """Index an entry by a loose spelling; one that entries of two structures share is
    nobody's."""
    old = index.get(key, entry)
    index[key] = entry if old is not None and old.smiles == entry.smiles else None


def parse_dictionary(path: str | os.PathLike[str]) -> Dictionary:
    """Read and check a dictionary file (see the header of ``lexicons/compounds.tsv``)."""
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) not in (4, 5):
            raise InputError(path, number, f"expected 4 or 5 tab-separated fields "
                             f"(name, SMILES, class, case[, note]), got {len(fields)}")
        name, smiles, cls, case = fields[:4]
        note = fields[4].strip() if len(fields) == 5 else ""
        if len(fields) == 5 and not note:
            raise InputError(path, number, "an empty note (leave the fifth field out)")
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
        entries.append(Entry(name, None if smiles == NO_STRUCTURE else smiles, cls, case, number,
                             note))
    return Dictionary(entries)


@functools.cache
def compounds() -> Dictionary:
    """The bundled dictionary (``lexicons/compounds.tsv``), loaded once per process."""
    return parse_dictionary(Path(lexicon_path("compounds.tsv")))
