"""The role lexicon (``lexicons/chemu2020_roles.tsv``, rebuilt by
``python -m chemie.roles_lexicon_build``): the reaction role a compound name had most often
in the development documents."""

from __future__ import annotations

import functools
from pathlib import Path

from chemie.errors import InputError, read_text
from chemie.resources import lexicon_path

ROLES = ("STARTING_MATERIAL", "REAGENT_CATALYST", "SOLVENT")


def load_role_lexicon(name: str | Path) -> dict[str, str]:
    """Name (lowercased, spaces normalised) -> its most frequent reaction role (names whose
    top count is shared by two roles are left out). ``name`` is a file in ``lexicons/``
    (cached) or a path (read each time)."""
    if isinstance(name, Path):
        return _read(name)
    return _shipped(name)


@functools.cache
def _shipped(name: str) -> dict[str, str]:
    return _read(lexicon_path(name))


def _read(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for lineno, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        try:
            counts = [int(x) for x in fields[1:]]
        except ValueError:
            counts = []
        if len(counts) != len(ROLES):
            raise InputError(path, lineno, f"expected a name and {len(ROLES)} counts")
        top = max(counts)
        if top > 0 and counts.count(top) == 1:
            out[fields[0]] = ROLES[counts.index(top)]
    return out
