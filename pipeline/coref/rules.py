"""The coreference rules of ``rules/coref.yaml``, by family, and the table they are read
from: importing this module registers every rule function (``stage_rules("coref")``).

- :mod:`chemie.coref.rules_labels`: names and labels (an abbreviation in brackets, "referred
  to as", a compound number, the label before a name);
- :mod:`chemie.coref.rules_products`: products (the title compound, "this product", a yield,
  "as a white solid");
- :mod:`chemie.coref.rules_workup`: reagents and work-up (a repeated name, "the solvent",
  "the catalyst", "the pad").

What they share (the anaphor's view, its features, the context, the table's schema and the
``@rule`` decorator) is :mod:`chemie.coref.features`.
"""

from __future__ import annotations

from pathlib import Path

from chemie.coref import rules_labels, rules_products, rules_workup  # noqa: F401 (register)
from chemie.coref.features import RULES, CorefTable
from chemie.tables import load_table


def coref_table(name: str | Path = "coref.yaml") -> CorefTable:
    """The coreference rules and word lists of ``rules/<name>`` (read once) or of a table
    file; every entry names a registered rule function (a shipped table names every one)."""
    table = load_table(name, CorefTable)
    RULES.check([r.name for r in table.rules], name, every_function=isinstance(name, str))
    return table
