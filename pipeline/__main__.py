"""``python -m chemie``."""

from chemie.cli import entry

entry()
