"""Shared state on spaCy Docs: every custom attribute and every ``doc.user_data`` key the
chemie components read and write, defined here and nowhere else.

Custom attributes (registered on import of this module):

- ``doc._.doc_id``: the document id (str or None).
- ``doc._.mentions``: list[chemie.model.Mention], char offsets into ``doc.text``
  (``chemie_mentions``).
- ``doc._.relations``: list[chemie.model.Relation] (anaphor -> antecedent, with rule names;
  ``chemie_coref``, ``chemie_bridging``).
- ``doc._.actions``: list[chemie.model.Action] (``chemie_actions``).
- ``doc._.roles``: list[chemie.model.Role] (ChEMU 2020 labels, with rule names; ``chemie_roles``).
- ``doc._.reactions``: list[chemie.model.reaction.Reaction] (``chemie_reactions``).
- ``span._.chem_rule``, ``span._.chem_conf``: the rule (or lexicon) and confidence of a
  chemical span in ``doc.spans[CHEMICAL_SPANS]`` (``chemie_ner``; kept in :data:`NER_STORE`).

The lists are never None: each Doc gets its own empty list on first access (a
shared mutable default would leak between docs), so ``for r in doc._.relations`` works
on any Doc, including one in which nothing was found.

``doc.spans[CHEMICAL_SPANS]`` (``"chemicals"``): the NER's chemical spans, labelled with
their CHEMDNER class (``chemie_ner``; read by ``chemie_mentions``).
``doc.spans[ROLE_SPANS]`` (``"roles"``): the token-aligned roles, labelled with their ChEMU
2020 label (``chemie_roles``).

``doc.user_data`` keys (the constants below; all but :data:`NER_STORE` are caches or hints
that a reader recomputes when they are absent):

- :data:`TEXT`: ``doc.text`` (str), stored by :mod:`chemie.nlp` when it knows it; read by
  ``doc_text`` (mentions, bridging) and ``chemie_sentences`` (are there line breaks?).
- :data:`SAME_TEXT`: whether the Doc's text is its input Document's (bool); :mod:`chemie.nlp`.
- :data:`ORTH_IDS`: the Doc's orth ids (list[int]) left by ``chemie_sentences``; taken
  (popped) by the next reader of token texts (``chemie_ner`` through ``cached_words``).
- :data:`NER_STORE`: ``{"start:end": (rule, confidence)}`` of the chemical spans, written by
  ``chemie_ner``; behind ``span._.chem_rule``/``chem_conf``, read by ``chemie_mentions``.
- :data:`CHEMICALS`: the NER spans as ``[(start, end, label)]``, cached by ``chemie_mentions``.
- :data:`SENTENCE_STARTS`: the first token of every sentence (list[int]), cached by
  ``chemie_mentions``; read by the token tables of ``chemie_actions`` (and coref, bridging).
- :data:`TOKEN_INFO`: ``(words, class string)`` of ``chemie_mentions``; read by the token
  tables of ``chemie_actions`` and by ``chemie_coref``.

Annotated Docs serialise (``Doc.to_bytes``, ``DocBin(store_user_data=True)``,
``nlp.pipe(..., n_process=N)``): see :mod:`chemie.serialize`.
"""

from __future__ import annotations

from collections.abc import Callable

from spacy.tokens import Doc, Span

from chemie import serialize
from chemie.model import Action, Mention, Relation, Role
from chemie.model.reaction import Reaction

# -- doc.user_data keys (see the table above) -------------------------------------------
TEXT = "chemie.text"
SAME_TEXT = "chemie.same_text"
ORTH_IDS = "chemie.orth_ids"
NER_STORE = "chemie_ner"
CHEMICALS = "chemie.chemicals"
SENTENCE_STARTS = "chemie.sentence_starts"
TOKEN_INFO = "chemie.token_info"
# -- doc.spans keys: the NER's chemical spans, the roles' spans ---------------------------
CHEMICAL_SPANS = "chemicals"
ROLE_SPANS = "roles"

_LISTS = ("mentions", "relations", "actions", "roles", "reactions")


def _list_accessors(name: str) -> tuple[Callable[[Doc], list], Callable[[Doc, list], None]]:
    key = ("._.", name, None, None)  # where spaCy keeps attribute extensions

    def get(doc: Doc) -> list:
        value = doc.user_data.get(key)
        if value is None:
            value = doc.user_data[key] = []
        elif value.__class__ is tuple:  # read back by DocBin, whose msgpack makes tuples
            value = doc.user_data[key] = list(value)
        return value

    def set_(doc: Doc, value: list) -> None:
        doc.user_data[key] = value

    return get, set_


def _ner_field(index: int) -> tuple[Callable[[Span], object], Callable[[Span, object], None]]:
    """Accessors of field ``index`` of a span's :data:`NER_STORE` entry (rule, confidence)."""

    def get(span: Span) -> object:
        entry = span.doc.user_data.get(NER_STORE, {}).get(f"{span.start}:{span.end}")
        return None if entry is None else entry[index]

    def set_(span: Span, value: object) -> None:
        store = span.doc.user_data.setdefault(NER_STORE, {})
        key = f"{span.start}:{span.end}"
        entry = list(store.get(key, (None, None)))
        entry[index] = value
        store[key] = tuple(entry)

    return get, set_


_ACCESSORS = {name: _list_accessors(name) for name in _LISTS}
_DOC_ID = ("._.", "doc_id", None, None)
if not Doc.has_extension("doc_id"):
    Doc.set_extension("doc_id", default=None)
for _name, (_get, _set) in _ACCESSORS.items():
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, getter=_get, setter=_set)
# span._.chem_rule / span._.chem_conf: kept in one dict per doc (cheap to write in bulk)
for _index, _name in enumerate(("chem_rule", "chem_conf")):
    if not Span.has_extension(_name):
        _get, _set = _ner_field(_index)
        Span.set_extension(_name, getter=_get, setter=_set)

serialize.register()  # annotated Docs can be written (Doc.to_bytes, nlp.pipe(n_process=N))

# the same lists read straight from doc.user_data (15x cheaper than through ``doc._``)
_mentions, _relations, _actions, _roles, _reactions = (_ACCESSORS[name][0] for name in _LISTS)


def mentions_of(doc: Doc) -> list[Mention]:
    """The doc's mention list (``doc._.mentions``)."""
    return _mentions(doc)


def relations_of(doc: Doc) -> list[Relation]:
    """The doc's relation list (``doc._.relations``)."""
    return _relations(doc)


def actions_of(doc: Doc) -> list[Action]:
    """The doc's action list (``doc._.actions``)."""
    return _actions(doc)


def roles_of(doc: Doc) -> list[Role]:
    """The doc's role list (``doc._.roles``)."""
    return _roles(doc)


def reactions_of(doc: Doc) -> list[Reaction]:
    """The doc's reaction list (``doc._.reactions``)."""
    return _reactions(doc)


def set_doc_id(doc: Doc, doc_id: str | None) -> None:
    """``doc._.doc_id = doc_id``, written straight to ``doc.user_data``."""
    doc.user_data[_DOC_ID] = doc_id


def doc_id_of(doc: Doc) -> str | None:
    """``doc._.doc_id``, read straight from ``doc.user_data``."""
    return doc.user_data.get(_DOC_ID)
