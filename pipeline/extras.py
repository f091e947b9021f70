"""Optional parts of chemie, installed as extras: ``pip install 'chemie[cluster]'`` etc.

A plain ``pip install chemie`` runs everything on one machine; the Dask engine and Parquet
output need their extra. :func:`require` says which one is missing, in one line.
"""

from __future__ import annotations

import importlib

# extra -> the module it installs (as declared in setup.cfg's extras_require)
EXTRAS = {"cluster": "distributed", "parquet": "pyarrow"}


class MissingExtra(ImportError):
    """An optional part is used without its extra installed."""


def require(extra: str, what: str) -> None:
    """Raise :class:`MissingExtra` naming ``extra`` when its module cannot be imported
    (``what`` is what needs it, e.g. ``--format parquet``)."""
    try:
        importlib.import_module(EXTRAS[extra])
    except ImportError:
        raise MissingExtra(
            f"{what} needs the {extra} extra: pip install 'chemie[{extra}]'"
        ) from None
