"""Event arguments (factory ``chemie_events``): the ChEMU 2020 Task 2 links of each trigger.

Runs after ``chemie_roles``, once the role labels are final: a post-pass over the labelled
spans of ``doc._.roles`` and the sentences of the Doc (:mod:`chemie.events.linker`, rules in
``rules/events.yaml``). Each trigger's ``args`` become the ids of the entities it acts on
(ARG1 for a compound, ARGM for a temperature, time or yield, by the entity's label) and its
``arg_rules`` the rule that linked each. A component of its own rather than a step inside
``chemie_roles``: it reads only the final labels and sentences, so it runs as well on gold
labels (the benchmark does) and stays apart from how the roles are found.
"""

from __future__ import annotations

import operator
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc

from chemie.actions.component import token_table
from chemie.events.linker import EventLinker, load_linker, set_arguments
from chemie.extensions import TEXT, roles_of
from chemie.mentions.document import doc_text
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
            text, sentences = text_and_sentences(doc)
            set_arguments(roles, self.linker.link(text, roles, sentences))
        return doc


def text_and_sentences(doc: Doc) -> tuple[str, list[tuple[int, int]]]:
    """The text of ``doc`` and the character range of each sentence, from the token table
    the action parser read (iterating ``doc.sents`` or ``doc.text`` makes a Token object per
    token and costs more than the linking)."""
    table = token_table(doc)
    idx, words = table.idx, table.text
    if not words:
        return doc_text(doc), []
    text = doc.user_data.get(TEXT)
    if text is None:
        widths = list(map(operator.sub, idx[1:], idx[:-1]))
        widths.append(len(words[-1]) + len(doc[-1].whitespace_))
        text = "".join(map(str.ljust, words, widths))
    return text, [(idx[a], idx[b - 1] + len(words[b - 1])) for a, b in table.sents]


@Language.factory("chemie_events", default_config={"rules": "events.yaml"},
                  requires=["doc._.roles", "token.is_sent_start"], assigns=["doc._.roles"])
def make_event_arguments(nlp: Language, name: str, rules: str) -> EventArguments:
    """The event-argument linker configured from a rule table in ``rules/`` (or a path)."""
    component = EventArguments(load_linker(rules))
    component.table_files = table_sources(rules)
    return component
