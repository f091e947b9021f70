"""Event arguments (factory ``chemie_events``): the ChEMU 2020 Task 2 links of each trigger.

Runs after ``chemie_roles``, once the role labels are final: a post-pass over the labelled
spans of ``doc._.roles`` and the sentences of the Doc (:mod:`chemie.roles.events`, rules in
``rules/events.yaml``). Each trigger's ``args`` become the ids of the entities it acts on
(ARG1 for a compound, ARGM for a temperature, time or yield, by the entity's label) and its
``arg_rules`` the rule that linked each. A component of its own rather than a step inside
``chemie_roles``: it reads only the final labels and sentences, so it runs as well on gold
labels (the benchmark does) and stays apart from how the roles are found.
"""

from __future__ import annotations

from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc

from chemie.extensions import roles_of
from chemie.roles.events import EventLinker, load_linker, set_arguments
from chemie.saving import SavesTables, rule_table, table_sources


class EventArguments(SavesTables):
    """Links the triggers of ``doc._.roles`` to their arguments (``to_disk`` saves the rule
    table; ``from_disk`` reads it back)."""

    def __init__(self, linker: EventLinker):
        self.linker = linker

    def load_tables(self, files: dict[str, Path]) -> None:
        """Use the rule table in ``files`` (see :class:`~chemie.saving.SavesTables`)."""
        self.linker = load_linker(rule_table(files))

    def __call__(self, doc: Doc) -> Doc:
        roles = roles_of(doc)
        if roles:
            sentences = [(s.start_char, s.end_char) for s in doc.sents]
            set_arguments(roles, self.linker.link(doc.text, roles, sentences))
        return doc


@Language.factory("chemie_events", default_config={"rules": "events.yaml"},
                  requires=["doc._.roles", "token.is_sent_start"], assigns=["doc._.roles"])
def make_event_arguments(nlp: Language, name: str, rules: str) -> EventArguments:
    """The event-argument linker configured from a rule table in ``rules/`` (or a path)."""
    component = EventArguments(load_linker(rules))
    component.table_files = table_sources(rules)
    return component
