"""The bridging component (factory ``chemie_bridging``).

Reads ``doc._.mentions`` and ``doc._.actions`` (from ``chemie_actions``) and adds
TRANSFORMED, REACTION_ASSOCIATED, WORK_UP and CONTAINED relations (anaphor -> antecedent)
to ``doc._.relations``, each carrying the name of the rule of ``rules/bridging.yaml`` that
made it and an id B1, B2 … unique within the document. The walk is
:mod:`chemie.bridging.walk`, the rules :mod:`chemie.bridging.rules`.
"""

from __future__ import annotations

from pathlib import Path

from spacy.language import Language

from chemie.actions.table import action_table
from chemie.bridging.rules import bridging_table
from chemie.bridging.walk import Walker
from chemie.saving import SavesTables, table_sources


class BridgingResolver(Walker, SavesTables):
    """Applies the bridging rules of a rule table to one doc (``to_disk`` saves its rule
    table and the action table, ``from_disk`` reads them back)."""

    table_names = ("bridging.yaml", "actions.yaml")  # file names of (rules, actions)

    def load_tables(self, files: dict[str, Path]) -> None:
        """Use the bridging and action tables in ``files`` (see
        :class:`~chemie.saving.SavesTables`)."""
        rules, actions = self.table_names
        self.__init__(bridging_table(files[rules]), action_table(files[actions]))


@Language.factory(
    "chemie_bridging",
    default_config={"rules": "bridging.yaml", "actions": "actions.yaml"},
    requires=["doc._.mentions", "doc._.actions"],
    assigns=["doc._.relations"],
)
def make_bridging(nlp: Language, name: str, rules: str, actions: str) -> BridgingResolver:
    """The bridging resolver configured from rule tables in ``rules/`` (its own and the
    action classes, to know which actions set the phase)."""
    resolver = BridgingResolver(bridging_table(rules), action_table(actions))
    resolver.table_files = table_sources(rules, actions)
    resolver.table_names = (Path(rules).name, Path(actions).name)
    return resolver
