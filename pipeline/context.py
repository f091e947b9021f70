"""The document context: every piece of per-document state the chemie stages share, defined
here and nowhere else (a stage reads and writes another stage's results only through this
module; no component imports another component).

Custom attributes (registered on import of this module):

- ``doc._.doc_id``: the document id (str or None).
- ``doc._.mentions``: list[chemie.model.Mention], char offsets into ``doc.text``
  (``chemie_mentions``).
- ``doc._.relations``: list[chemie.model.Relation] (anaphor -> antecedent, with rule names;
  ``chemie_coref``, ``chemie_bridging``; ids given by :func:`number_relations`).
- ``doc._.actions``: list[chemie.model.Action] (``chemie_actions``; a step heading is an action
  labelled :data:`HEADING`).
- ``doc._.roles``: list[chemie.model.Role] (ChEMU 2020 labels, with rule names; ``chemie_roles``).
- ``doc._.reactions``: list[chemie.model.reaction.Reaction] (``chemie_reactions``).
- ``span._.chem_rule``, ``span._.chem_conf``: the rule (or lexicon) and confidence of a
  chemical span in ``doc.spans[CHEMICAL_SPANS]`` (``chemie_ner``; kept in :data:`NER_STORE`).

The lists are never None: each Doc gets its own empty list on first access (a
shared mutable default would leak between docs), so ``for r in doc._.relations`` works
on any Doc, including one in which nothing was found. The ``*_of`` accessors read them
straight from ``doc.user_data`` (15x cheaper than through ``doc._``).

``doc.spans[CHEMICAL_SPANS]`` (``"chemicals"``): the NER's chemical spans, labelled with
their CHEMDNER class (``chemie_ner``; read by ``chemie_mentions`` through
:func:`chemical_spans`). ``doc.spans[ROLE_SPANS]`` (``"roles"``): the token-aligned roles,
labelled with their ChEMU 2020 label (``chemie_roles``).

``doc.user_data`` keys (the constants below; all but :data:`NER_STORE` are caches or hints
that the accessor here recomputes when they are absent or no longer fit the Doc):

- :data:`TEXT`: ``doc.text`` (str), stored by :mod:`chemie.nlp` and ``chemie_sentences``
  when they know it; read through :func:`doc_text`.
- :data:`SAME_TEXT`: whether the Doc's text is its input Document's (bool); :mod:`chemie.nlp`.
- :data:`ORTH_IDS`: the Doc's orth ids (list[int]) left by ``chemie_sentences``; read (never
  taken) through :func:`cached_words`, which ignores them once they no longer fit the Doc.
- :data:`NER_STORE`: ``{"start:end": (rule, confidence)}`` of the chemical spans, written by
  ``chemie_ner``; behind ``span._.chem_rule``/``chem_conf``, read by ``chemie_mentions``.
- :data:`CHEMICALS`: the NER spans as ``[(start, end, label)]`` (:func:`chemical_spans`).
- :data:`SENTENCE_STARTS`: the first token of every sentence (list[int])
  (:func:`sentence_starts`); read by :func:`token_table`.
- :data:`TOKEN_INFO`: ``(words, class string)`` of the mention tagger (:func:`token_info`),
  stored by ``chemie_mentions`` with the pipeline's own mention table (or by
  :mod:`chemie.nlp` for gold mentions); read by :func:`token_table` and ``chemie_coref``.

Per live Doc, kept out of ``doc.user_data`` (so Docs still serialise): the
:class:`TokenTable` of :func:`token_table` (token texts, offsets and sentences, read once).

Annotated Docs serialise (``Doc.to_bytes``, ``DocBin(store_user_data=True)``,
``nlp.pipe(..., n_process=N)``): see :mod:`chemie.serialize`, registered on import.
"""

from __future__ import annotations

import bisect
import itertools
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy
from spacy.attrs import IDX, ORTH, SENT_START, SPACY
from spacy.tokens import Doc, Span
from spacy.vocab import Vocab

from chemie import serialize
from chemie.model import Action, Mention, Relation, Role

if TYPE_CHECKING:
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


# -- relations: ids -----------------------------------------------------------------------


def number_relations(relations: list[Relation], first: int, prefix: str) -> None:
    """Give ``relations[first:]`` (one component's links, in the order made) the ids PREFIX1,
    PREFIX2 …, skipping any id an earlier relation of the doc already has: coreference links
    are C1 …, bridging links B1 … (unique and stable within a document)."""
    taken = {r.id for r in relations[:first]}
    n = 0
    for r in relations[first:]:
        n += 1
        while f"{prefix}{n}" in taken:
            n += 1
        r.id = f"{prefix}{n}"


# -- actions: the label of a step heading --------------------------------------------------

HEADING = "Heading"  # the label of the action a step heading (``Step 2``, ``Example 5``) makes


# -- token texts by orth id ---------------------------------------------------------------


def orth_ids(doc: Doc) -> list[int]:
    """The orth ids of ``doc``'s tokens: those chemie_sentences left (:data:`ORTH_IDS`) while
    they still fit the Doc, else read afresh (the stored ids are left for the next reader)."""
    ids = doc.user_data.get(ORTH_IDS)
    if ids is None or len(ids) != len(doc):
        ids = doc.to_array(ORTH).tolist()
    return ids


def cached_words(doc: Doc, texts: dict[int, str]) -> list[str]:
    """The token texts of ``doc`` through ``texts`` (orth id -> text), which the caller keeps
    per vocabulary; a miss fills it from the string store."""
    return _texts(texts, doc.vocab, orth_ids(doc))


def _texts(texts: dict[int, str], vocab: Vocab, ids: list[int]) -> list[str]:
    """The texts of orth ids through the cache ``texts``, filled from ``vocab`` on a miss."""
    try:
        return list(map(texts.__getitem__, ids))
    except KeyError:
        strings = vocab.strings
        texts.update((h, strings[h]) for h in ids if h not in texts)
        return list(map(strings.__getitem__, ids))


class WordTables:
    """Orth id <-> text tables of one vocabulary, kept across documents (like the vocabulary,
    they grow with the distinct words seen); :meth:`of` starts afresh for another one."""

    def __init__(self) -> None:
        self.vocab: Vocab | None = None
        self.texts: dict[int, str] = {}  # orth id -> text
        self.orths: dict[str, int] = {}  # text -> orth id

    def of(self, vocab: Vocab) -> WordTables:
        """These tables, emptied first if they belong to another vocabulary."""
        if vocab is not self.vocab:
            self.vocab, self.texts, self.orths = vocab, {}, {}
        return self

    def texts_of(self, vocab: Vocab, ids: list[int]) -> list[str]:
        """The texts of orth ids of ``vocab`` (as :func:`cached_words`)."""
        return _texts(self.of(vocab).texts, vocab, ids)

    def orth_ids(self, vocab: Vocab, words: list[str]) -> list[int]:
        """The orth ids of ``words`` in ``vocab`` (``Doc(vocab, words=ids)`` makes the same
        Doc as ``words=words`` without hashing every string: 4x cheaper)."""
        orths = self.of(vocab).orths
        try:
            return list(map(orths.__getitem__, words))
        except KeyError:
            ids = list(map(vocab.strings.add, words))
            if not vocab.in_memory_zone:  # a zone's strings are dropped when it ends
                orths.update(zip(words, ids, strict=True))
            return ids


# -- text, sentences, NER spans -----------------------------------------------------------


def doc_text(doc: Doc, words: list[str] | None = None) -> str:
    """``doc.text`` without making a Token object per token (much faster on long docs); the
    text stored by :func:`chemie.nlp.doc_from_document` when there is one."""
    text = doc.user_data.get(TEXT)
    if text is not None:
        return text
    if words is None:
        strings = doc.vocab.strings
        words = [strings[o] for o in doc.to_array(ORTH).tolist()]
    spaces = doc.to_array(SPACY).tolist()
    return "".join([w + " " if sp else w for w, sp in zip(words, spaces, strict=True)])


def sentence_starts(doc: Doc) -> list[int]:
    """The first token of every sentence, 0 first ([0] without sentence boundaries); cached in
    ``doc.user_data``."""
    starts = doc.user_data.get(SENTENCE_STARTS)
    if starts is None:
        starts = [0]
        if doc.has_annotation("SENT_START"):
            # Doc.sents starts at token 0 and wherever sent_start is 1
            starts = [sent.start for sent in doc.sents] or [0]
        doc.user_data[SENTENCE_STARTS] = starts
    return starts


def forget_derived(doc: Doc) -> None:
    """Drop what is cached from earlier stages (the NER chemical spans, the sentence starts):
    the mention stage calls it first, so a Doc run again reads them afresh."""
    doc.user_data.pop(CHEMICALS, None)
    doc.user_data.pop(SENTENCE_STARTS, None)


def stored_token_info(doc: Doc) -> tuple[list[str], str] | None:
    """The words and class string the mention stage stored (:func:`set_token_info`), or None
    (never made here: :func:`token_info` makes them)."""
    return doc.user_data.get(TOKEN_INFO)


def stored_text(doc: Doc) -> str | None:
    """The text of the Document a Doc was made from (:data:`TEXT`), or None."""
    return doc.user_data.get(TEXT)


def chemical_spans(doc: Doc) -> list[tuple[int, int, str]]:
    """The NER chemical spans (``doc.spans["chemicals"]``): start, end, class (cached in
    ``doc.user_data``: reading a span group makes a Span object per span)."""
    found = doc.user_data.get(CHEMICALS)
    if found is None:
        spans = doc.spans.get(CHEMICAL_SPANS) if doc.spans is not None else None
        found = sorted([(sp.start, sp.end, sp.label_) for sp in spans]) if spans else []
        doc.user_data[CHEMICALS] = found
    return found


# -- words and class string of the mention tagger ----------------------------------------


class ClassTagger(Protocol):
    """What makes a class string: ``class_string(doc)`` -> (words, class string, lowered)."""

    def class_string(self, doc: Doc) -> tuple[list[str], str, list[str]]: ...


# the mention tagger of a live Doc whose chemie_mentions does not run (see use_tagger)
_TAGGERS: weakref.WeakKeyDictionary[Doc, ClassTagger] = weakref.WeakKeyDictionary()


def set_token_info(doc: Doc, words: list[str], classes: str) -> tuple[list[str], str]:
    """Store the words of ``doc`` and their class string (:data:`TOKEN_INFO`)."""
    info = doc.user_data[TOKEN_INFO] = (words, classes)
    return info


def use_tagger(doc: Doc, tagger: ClassTagger) -> None:
    """Make the class string of ``doc``, when one is asked for, with ``tagger`` (the pipeline's
    own mention tagger, named by :mod:`chemie.nlp` when chemie_mentions does not run: gold
    mentions)."""
    _TAGGERS[doc] = tagger


def token_info(
    doc: Doc, default: Callable[[], ClassTagger] | None = None
) -> tuple[list[str], str]:
    """The words of ``doc`` and their class string, as the pipeline's mention tagger made
    them; when none is stored, made (and stored) by the tagger :func:`use_tagger` named, else
    by ``default()``; ValueError without either."""
    info = doc.user_data.get(TOKEN_INFO)
    if info is None:
        tagger = _TAGGERS.get(doc)
        if tagger is None:
            if default is None:
                raise ValueError("no class string on this Doc: chemie_mentions did not run")
            tagger = default()
        words, classes, _low = tagger.class_string(doc)
        info = set_token_info(doc, words, classes)
    return info


# -- the token table ----------------------------------------------------------------------


@dataclass(slots=True)
class TokenTable:
    """Token texts, offsets and sentence numbers of a Doc, read once (Token objects are slow)."""

    text: list[str]
    lower: list[str]
    idx: list[int]  # character offset of each token (tokens are never empty)
    starts: list[int]  # first token of each sentence, 0 first
    sents: list[tuple[int, int]]  # token ranges of the sentences, end exclusive

    def starting_at(self, char: int) -> int | None:
        """The (last) token starting at character ``char``, or None."""
        i = bisect.bisect_right(self.idx, char) - 1
        return i if i >= 0 and self.idx[i] == char else None

    def ending_at(self, char: int) -> int | None:
        """The (last) token ending at character ``char``, or None."""
        i = bisect.bisect_left(self.idx, char) - 1  # the last token starting before it
        return i if i >= 0 and self.idx[i] + len(self.text[i]) == char else None

    def sentence_of(self, i: int) -> int:
        """The sentence number of token ``i``."""
        return bisect.bisect_right(self.starts, i) - 1


# token tables of live Docs (kept out of doc.user_data so Docs still serialise)
_TABLES: weakref.WeakKeyDictionary[Doc, TokenTable] = weakref.WeakKeyDictionary()


def token_table(doc: Doc) -> TokenTable:
    """The doc's :class:`TokenTable` (computed once per Doc, from arrays, not Token objects)."""
    table = _TABLES.get(doc)
    n = len(doc)
    if table is not None and len(table.text) == n:
        return table
    if not n:
        table = TokenTable([], [], [], [0], [])
        _TABLES[doc] = table
        return table
    # the words chemie_mentions already read (by orth id, no string-store lookup)
    info = doc.user_data.get(TOKEN_INFO)
    if info is not None and len(info[0]) == n:
        idx = doc.to_array(IDX).tolist()
        text = list(info[0])
    else:
        arr = doc.to_array([IDX, ORTH])
        idx = arr[:, 0].tolist()
        strings = doc.vocab.strings
        text = [strings[o] for o in arr[:, 1].tolist()]
    lower = list(map(str.lower, text))  # the LOWER attribute of the English vocab
    if "sents" in doc.user_hooks:
        sents = [(s.start, s.end) for s in doc.sents]
        starts = [a for a, _ in sents]
    else:
        # as Doc.has_annotation and Doc.sents: a sentence starts at token 0 and at every
        # token marked as a start; without any mark the doc is one sentence (the starts
        # chemie_mentions found, when it ran on this doc)
        starts = doc.user_data.get(SENTENCE_STARTS)
        if starts is None:
            starts = numpy.flatnonzero(doc.to_array(SENT_START) == 1).tolist()
            if not starts or starts[0] != 0:
                starts.insert(0, 0)
        sents = list(itertools.pairwise([*starts, n]))
    table = TokenTable(text, lower, idx, starts, sents)
    _TABLES[doc] = table
    return table
