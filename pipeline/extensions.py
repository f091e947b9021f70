"""Custom attributes the chemie components read and write on spaCy Docs.

- ``doc._.doc_id``: the document id (str or None).
- ``doc._.mentions``: list[chemie.model.Mention], char offsets into ``doc.text``.
- ``doc._.relations``: list[chemie.model.Relation] (anaphor -> antecedent, with rule names).
- ``doc._.actions``: list[chemie.model.Action].

Defaults are None (a shared mutable default would leak between docs): use the accessors.
"""

from __future__ import annotations

from spacy.tokens import Doc

from chemie.model import Action, Mention, Relation

for _name in ("doc_id", "mentions", "relations", "actions"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=None)


def mentions_of(doc: Doc) -> list[Mention]:
    """The doc's mention list, created empty on first use."""
    if doc._.mentions is None:
        doc._.mentions = []
    return doc._.mentions


def relations_of(doc: Doc) -> list[Relation]:
    """The doc's relation list, created empty on first use."""
    if doc._.relations is None:
        doc._.relations = []
    return doc._.relations


def actions_of(doc: Doc) -> list[Action]:
    """The doc's action list, created empty on first use."""
    if doc._.actions is None:
        doc._.actions = []
    return doc._.actions
