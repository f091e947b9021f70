"""Reaction files: JSON lines of SMILES by role, or reaction SMILES lines (``.rsmi``).

* JSON lines (the shape of ``uspto-reactions/dev.jsonl``): one object per line with ``id``
  (a string) and the lists of SMILES ``reactants``, ``reagents`` and ``products``; other keys
  (``title``, ``text`` …) are ignored.
* rsmi: ``ID<TAB>reactants>reagents>products`` per line, species separated by ``.`` (as the
  USPTO sets are distributed, with our document id in front). A trailing ChemAxon extension
  (`` |f:1.2|``, which groups fragments into salts) is dropped: scoring counts fragments.
  A third column (``chemie reactions`` writes it for a reaction with components that have
  no structure: ``role=name; …``) is kept in :attr:`Reaction.unresolved`; the SMILES are
  scored as they are.

The format is told by the first non-blank line (``{`` starts JSON lines). Blank lines are
skipped. Several records with one id: the **last** one is the document's reaction (the
convention of ``chemie reactions --format rsmi``: a document's last line is the reaction
that makes its final product); :attr:`ReactionFile.repeated` counts the ids concerned.
Malformed lines raise :class:`~chemie.errors.InputError` naming the file and line.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from chemie.errors import InputError, read_text
from chemie.formats import identified_object

ROLES = ("reactants", "reagents", "products")
_CXSMILES = re.compile(r"\s+\|[^|]*\|\s*$")


@dataclass(frozen=True)
class Reaction:
    """One reaction: SMILES per role, with the line it was read from."""

    id: str
    reactants: tuple[str, ...]
    reagents: tuple[str, ...]
    products: tuple[str, ...]
    line: int = 0
    unresolved: tuple[str, ...] = ()  # rsmi: the components named without a structure

    def role(self, name: str) -> tuple[str, ...]:
        """The SMILES of role ``name`` (one of :data:`ROLES`)."""
        return getattr(self, name)


@dataclass
class ReactionFile:
    """The reactions of a file by id (the last record of each id) and what was merged."""

    reactions: dict[str, Reaction] = field(default_factory=dict)
    repeated: int = 0  # ids with more than one record (the last one is kept)


def read_reactions(path: str | os.PathLike[str]) -> ReactionFile:
    """Read a JSON-lines or rsmi reaction file (see the module docstring)."""
    lines = read_text(path).split("\n")  # "\n" only: U+2028 may stand inside a string
    first = next((ln.lstrip() for ln in lines if ln.strip()), "")
    parse = _json_line if first.startswith("{") else _rsmi_line
    out = ReactionFile()
    records: dict[str, int] = {}
    for number, text in enumerate(lines, 1):
        if not text.strip():
            continue
        reaction = parse(text, path, number)
        records[reaction.id] = records.get(reaction.id, 0) + 1
        out.reactions[reaction.id] = reaction  # a later record replaces an earlier one
    out.repeated = sum(n > 1 for n in records.values())
    return out


def _json_line(text: str, path: str | os.PathLike[str], line: int) -> Reaction:
    obj = identified_object(text, path, line)
    rid = obj["id"]
    roles = []
    for role in ROLES:
        value = obj.get(role)
        if value is None:
            raise InputError(path, line, f"no {role!r} list")
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise InputError(path, line, f"{role!r} must be a list of SMILES strings")
        if any(not s.strip() for s in value):
            raise InputError(path, line, f"{role!r} holds an empty SMILES")
        roles.append(tuple(value))
    return Reaction(rid, *roles, line=line)


def _rsmi_line(text: str, path: str | os.PathLike[str], line: int) -> Reaction:
    fields = text.rstrip("\r").split("\t")
    if len(fields) not in (2, 3):
        raise InputError(
            path, line, "expected ID<TAB>reactants>reagents>products[<TAB>unresolved "
            f"components], got {len(fields)} tab-separated fields",
        )
    rid, rsmi = fields[0].strip(), _CXSMILES.sub("", fields[1].strip())
    if not rid:
        raise InputError(path, line, "empty reaction id")
    sides = rsmi.split(">")
    if len(sides) != 3:
        raise InputError(
            path, line, f"reaction SMILES needs two '>' (reactants>reagents>products), "
            f"found {len(sides) - 1}",
        )
    roles = []
    for role, side in zip(ROLES, sides, strict=True):
        species = side.split(".") if side else []
        if any(not s for s in species):
            raise InputError(path, line, f"{role}: empty species (a stray '.')")
        roles.append(tuple(species))
    unresolved = tuple(n.strip() for n in fields[2].split(";") if n.strip()) \
        if len(fields) == 3 else ()
    return Reaction(rid, *roles, line=line, unresolved=unresolved)
