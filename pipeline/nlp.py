"""Pipeline assembly and the Document <-> spaCy Doc bridge.

``load()`` builds the chemie pipeline: the chemical tokenizer and sentence segmenter, then
``chemie_ner`` → ``chemie_mentions`` → ``chemie_actions`` → ``chemie_coref`` →
``chemie_bridging`` (components that are not installed are skipped); ``chemie_roles`` and
``chemie_reactions`` are added on request (``roles=True``, which adds ``chemie_events`` too,
``reactions=True``).
``annotate()`` runs it on a :class:`~chemie.model.Document` and returns a Document with
predicted mentions and relations (and roles), each carrying the name of the rule that
produced it.
"""

from __future__ import annotations

import importlib
import itertools
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import replace
from itertools import accumulate, compress
from operator import attrgetter
from typing import TYPE_CHECKING

import numpy
import spacy
from spacy.attrs import IDX, LENGTH, ORTH, SENT_START
from spacy.language import Language
from spacy.tokens import Doc

from chemie.characters import normalise, normalised_document, restore
from chemie.components.words import WordTables
from chemie.errors import InputError
from chemie.extensions import (
    SAME_TEXT,
    TEXT,
    actions_of,
    doc_id_of,
    mentions_of,
    reactions_of,
    relations_of,
    roles_of,
    set_doc_id,
)
from chemie.mentions.document import describe_mention, doc_text
from chemie.model import Document, Mention, Range, Role, TokenPair, make_tokens

if TYPE_CHECKING:
    import pandas as pd

# Pipeline order; each entry is (component name, factory name).
PIPELINE: tuple[str, ...] = (
    "chemie_ner",
    "chemie_mentions",
    "chemie_actions",
    "chemie_coref",
    "chemie_bridging",
)
# Components added on request only (``load(roles=True)``, ``load(reactions=True)``, which
# needs the roles): they cost time, and the anaphora output does not use them
OPTIONAL: tuple[str, ...] = ("chemie_roles", "chemie_events", "chemie_reactions")
# the module whose import registers each component's factory (setup.cfg's spacy_factories
# entry points name the same modules, for spaCy)
FACTORY_MODULES: dict[str, str] = {
    "chemie_sentences": "chemie.tokenizer.sentences",
    "chemie_ner": "chemie.ner.component",
    "chemie_mentions": "chemie.mentions",
    "chemie_actions": "chemie.actions.component",
    "chemie_coref": "chemie.coref.component",
    "chemie_bridging": "chemie.bridging.component",
    "chemie_roles": "chemie.roles.component",
    "chemie_events": "chemie.events.component",
    "chemie_reactions": "chemie.reactions.component",
}
COREF_MODES = ("surface", "atomic")
SENTENCE_COMPONENTS = ("chemie_sentences", "sentencizer")
_TEXT = attrgetter("text")
_NOT_START = numpy.uint64(-1 % 2**64)  # SENT_START -1 (not a sentence start) as uint64
# word <-> orth id tables of the pipeline's vocabulary, kept across documents
_TABLES = WordTables()
# Input meta that describes the input's annotations, not its text: never copied to predictions.
ANNOTATION_META = frozenset({"dropped_pairs", "actions", "reactions"})


def _register_components(names: Iterable[str]) -> None:
    """Import the modules that make the components ``names`` (:data:`FACTORY_MODULES`), so
    their factories are registered; the others are not imported (the roles and reactions
    cost a tenth of a second)."""
    for name in names:
        importlib.import_module(FACTORY_MODULES[name])


def _blank() -> Language:
    """The chemical tokenizer + sentence segmenter, or blank English + sentencizer."""
    try:
        from chemie.tokenizer.language import blank
    except ImportError:
        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")
        return nlp
    return blank()


def load(*, coref: str = "surface", ner: bool = True, roles: bool | dict = False,
         reactions: bool = False, **config: dict) -> Language:
    """The chemie pipeline (anaphora: tokenizer, NER, mentions, actions, coref, bridging).

    ``coref`` is ``"surface"`` (each anaphor → the closest antecedent) or ``"atomic"``
    (each anaphor → the first mention of its chain). ``ner=False`` leaves out the chemical
    NER (mentions then come from the mention patterns alone). ``roles=True`` (or a config
    dict, e.g. ``roles={"lexicon": ...}``) adds ``chemie_roles`` (``doc._.roles``: ChEMU
    2020 labels) and ``chemie_events`` (the triggers' event arguments in their ``args``).
    ``reactions=True`` adds ``chemie_roles`` and ``chemie_reactions`` at the
    end (``doc._.reactions``; configured by ``reactions_config={"structures": False}`` and
    the like). Other keyword arguments are per-component configs keyed by short name, e.g.
    ``mentions={...}``, ``bridging={...}``.
    """
    if coref not in COREF_MODES:
        raise ValueError(f"coref must be one of {', '.join(COREF_MODES)}, not {coref!r}")
    reactions_config = dict(config.pop("reactions_config", {}))
    short = {name.removeprefix("chemie_"): name for name in PIPELINE}
    unknown = sorted(set(config) - set(short))
    if unknown:
        raise TypeError(f"unknown component config: {', '.join(unknown)}")
    _register_components([*PIPELINE, *(OPTIONAL if roles is not False or reactions else ())])
    nlp = _blank()
    for name in PIPELINE:
        if name == "chemie_ner" and not ner:
            continue
        if not Language.has_factory(name):
            continue
        cfg = dict(config.get(name.removeprefix("chemie_"), {}))
        if name == "chemie_coref":
            cfg.setdefault("mode", coref)
        nlp.add_pipe(name, config=cfg)
    if (roles is not False or reactions) and Language.has_factory("chemie_roles"):
        nlp.add_pipe("chemie_roles", config=dict(roles) if isinstance(roles, dict) else {})
        if roles is not False and Language.has_factory("chemie_events"):
            nlp.add_pipe("chemie_events")
    if reactions:
        nlp.add_pipe("chemie_reactions", config=reactions_config)
    return nlp


def doc_from_document(nlp: Language, document: Document, *, gold_mentions: bool = False) -> Doc:
    """A Doc whose tokens are exactly ``document.tokens`` (sentence starts from its sentences).

    With ``gold_mentions=True`` the document's mentions are put on ``doc._.mentions``
    (copied, an untyped one with ``kind``, ``head``, ``sentence``, ``tokens`` … filled in).
    """
    toks = document.tokens
    words = list(map(_TEXT, toks))
    if toks and document.text == " ".join(words):
        # the usual case (ChEMU-Ref jsonl): tokens joined by single spaces
        spaces = [True] * len(words)
        spaces[-1] = False
        same_text = True
    else:
        spaces = [toks[i + 1].start > toks[i].end for i in range(len(toks) - 1)]
        if toks:
            spaces.append(len(document.text) > toks[-1].end)
        rebuilt = "".join(w + " " if sp else w for w, sp in zip(words, spaces, strict=True))
        same_text = rebuilt == document.text
    try:
        doc = Doc(nlp.vocab, words=_TABLES.orth_ids(nlp.vocab, words), spaces=spaces)
    except ValueError:  # UnicodeEncodeError too
        _check_words(document, words)
        raise
    if document.sentences and toks:
        # one from_array call: much faster than Doc(sent_starts=...)
        starts = numpy.full((len(toks), 1), _NOT_START, dtype="uint64")
        column = starts[:, 0]
        for a, b in document.sentences:
            if b > a:
                column[a] = 1
        doc.from_array([SENT_START], starts)
    set_doc_id(doc, document.id)
    doc.user_data[SAME_TEXT] = same_text
    if same_text:
        doc.user_data[TEXT] = document.text  # == doc.text (see doc_text)
    if gold_mentions:
        mapper = _CharMap(document, doc)
        mentions = mentions_of(doc)
        for m in document.mentions:
            spans = mapper.to_doc(m.spans)
            gold = replace(m, spans=spans, rule=m.rule or "gold")
            mentions.append(gold if gold.kind else describe_mention(doc, gold))
    return doc


def _check_words(document: Document, words: list[str]) -> None:
    """InputError (naming the document's file and line) for a token a Doc cannot hold: an
    empty string, or one with a lone surrogate (a ``\\udc00`` escape without its pair)."""
    for i, word in enumerate(words):
        try:
            word.encode("utf-8")
            problem = "" if word else " is an empty string"
        except UnicodeEncodeError as e:
            problem = f": lone surrogate \\u{ord(word[e.start]):04x}: not valid Unicode"
        if problem:
            starts = [a for a, _ in document.sentences]
            s = max(bisect_right(starts, i) - 1, 0)
            where = f"sentence {s} token {i - starts[s]}" if starts else f"token {i}"
            meta = document.meta
            raise InputError(meta.get("path"), meta.get("line"), where + problem)


class _CharMap:
    """Converts character ranges between a Document's text and a Doc built from its tokens.

    A boundary inside a token (brat tokens are whitespace pieces, e.g. ``mL).``) maps to the
    edge of the covering token: a start to its start, an end to its end.
    """

    def __init__(self, document: Document, doc: Doc):
        same = doc.user_data.get(SAME_TEXT)
        self.same = doc_text(doc) == document.text if same is None else same
        if not self.same:
            src = [(t.start, t.end) for t in document.tokens]
            dst = [(d.idx, d.idx + len(d)) for d in doc]
            self.to_doc_tables = _edges(src, dst)
            self.from_doc_tables = _edges(dst, src)

    def to_doc(self, spans: Iterable[Range]) -> tuple[Range, ...]:
        if self.same:
            return tuple(spans)
        return _map_spans(spans, *self.to_doc_tables)

    def from_doc(self, spans: Iterable[Range]) -> tuple[Range, ...]:
        if self.same:
            return tuple(spans)
        return _map_spans(spans, *self.from_doc_tables)


def _edges(src: list[Range], dst: list[Range]) -> tuple[list[int], list[int], list[Range]]:
    """Token starts and ends of ``src`` (sorted) with the aligned ``dst`` token ranges."""
    return [a for a, _ in src], [b for _, b in src], dst


def _map_spans(
    spans: Iterable[Range], starts: list[int], ends: list[int], dst: list[Range]
) -> tuple[Range, ...]:
    """Each range to the ``dst`` range of the tokens covering it (empty token lists: as is)."""
    if not dst:
        return tuple(spans)
    out = []
    last = len(dst) - 1
    for a, b in spans:
        first = min(bisect_right(ends, a), last)  # the first token ending after a
        final = max(bisect_left(starts, b) - 1, first)  # the last token starting before b
        out.append((dst[first][0], dst[final][1]))
    return tuple(out)


def _copy_predictions(doc: Doc, out: Document, mapper: _CharMap | None) -> Document:
    """Move the Doc's predictions onto ``out`` (offsets mapped to its text when needed)."""
    for m in mentions_of(doc):
        if mapper is not None:
            m.spans = mapper.from_doc(m.spans)
            m.text = out.span_text(m.spans)
        out.mentions.append(m)
    out.relations = list(relations_of(doc))
    out.roles = _mapped_roles(roles_of(doc), out.text, mapper)
    actions = actions_of(doc)
    if actions:
        out.meta["actions"] = list(actions)
    reactions = reactions_of(doc)
    if reactions:  # (chemie_reactions; offsets are the Doc's, as the texts are the same)
        out.meta["reactions"] = list(reactions)
    return out


def _mapped_roles(roles: list[Role], text: str, mapper: _CharMap | None) -> list[Role]:
    """The roles with their offsets in the output text (mapped when it differs)."""
    if mapper is None:
        return list(roles)
    out = []
    for r in roles:
        ((a, b),) = mapper.from_doc([(r.start, r.end)])
        out.append(Role(r.id, a, b, r.label, text[a:b], r.rule, list(r.args),
                        list(r.arg_rules)))
    return out


def annotate(nlp: Language, document: Document, *, gold_mentions: bool = False) -> Document:
    """Run the pipeline on ``document``; a new Document with predicted mentions and relations.

    Pre-tokenized documents (non-empty ``tokens``, e.g. ChEMU-Ref jsonl) keep their tokens;
    otherwise the text goes through the tokenizer. Id, text, tokens, sentences and meta are
    preserved (token/sentence lists are filled in for raw text). ``gold_mentions=True`` runs
    the relation rules over the document's own mentions (needs tokens). The pipeline reads
    the text with the characters of ``rules/characters.yaml`` normalised, one for one
    (:mod:`chemie.characters`); the Document returned quotes the original.
    """
    text = normalise(document.text)
    if text is not document.text:
        out = _annotate(nlp, normalised_document(document, text), gold_mentions)
        return restore(out, document)
    return _annotate(nlp, document, gold_mentions)


def _annotate(nlp: Language, document: Document, gold_mentions: bool) -> Document:
    """:func:`annotate` of a document whose text is read as it is."""
    if document.tokens:
        doc = doc_from_document(nlp, document, gold_mentions=gold_mentions)
        # the input's own sentence boundaries are kept (ChEMU-Ref separates the heading)
        keep = SENTENCE_COMPONENTS if document.sentences else ()
        if gold_mentions:
            doc = _run_without(nlp, doc, ("chemie_ner", "chemie_mentions", *keep))
        else:
            doc = _run_without(nlp, doc, keep)
        mapper = _CharMap(document, doc)
        out = Document(
            document.id, document.text, list(document.tokens), list(document.sentences),
            meta=_input_meta(document),
        )
        return _copy_predictions(doc, out, None if mapper.same else mapper)
    doc = nlp.make_doc(document.text)
    doc.user_data[TEXT] = document.text  # spaCy's tokenizer keeps the text exactly
    set_doc_id(doc, document.id)  # before the components: reaction ids carry it
    doc = _run_without(nlp, doc, ())
    out = to_document(doc)
    out.meta = {**_input_meta(document), **out.meta}
    return out


def _input_meta(document: Document) -> dict[str, object]:
    """The input's meta without what describes its annotations (e.g. ``dropped_pairs``)."""
    return {k: v for k, v in document.meta.items() if k not in ANNOTATION_META}


def _run_without(nlp: Language, doc: Doc, skip: tuple[str, ...]) -> Doc:
    for name, proc in nlp.pipeline:
        if name not in skip:
            doc = proc(doc)
    return doc


def annotate_text(nlp: Language, text: str, doc_id: str = "doc") -> Document:
    """Run the pipeline on raw text; the Document with tokens, sentences and predictions."""
    return annotate(nlp, Document(doc_id, text))


def to_document(doc: Doc) -> Document:
    """A spaCy Doc (after the pipeline) as a Document: tokens, sentences, mentions, relations.

    spaCy's whitespace tokens (``"\\n"``, ``"  "``) are left out of ``Document.tokens``;
    sentence ranges and the token indices of mentions are renumbered to match.
    """
    # one to_array call for every column; token texts through the orth id -> text table
    table = doc.to_array([ORTH, IDX, LENGTH, SENT_START])
    words = _TABLES.texts_of(doc.vocab, table[:, 0].tolist())
    starts = table[:, 1].tolist()
    ends = (table[:, 1] + table[:, 2]).tolist()
    if any(map(str.isspace, words)):
        kept = [not w.isspace() for w in words]
        words_kept = list(compress(words, kept))
        starts = list(compress(starts, kept))
        ends = list(compress(ends, kept))
        # new index of each Doc token (a whitespace token: the index of the next kept token)
        new_index: list[int] | None = list(accumulate(kept, initial=0))
    else:
        words_kept, new_index = words, None
    tokens = make_tokens(words_kept, starts, ends)
    sentences = []
    for a, b in _sentence_bounds(doc, table[:, 3]):
        if new_index is not None:
            a, b = new_index[a], new_index[b]
        if b > a:
            sentences.append((a, b))
    out = Document(str(doc_id_of(doc) or ""), doc_text(doc, words), tokens, sentences)
    _copy_predictions(doc, out, None)
    if new_index is not None:
        for m in out.mentions:
            _reindex_tokens(m, new_index)
    return out


def _sentence_bounds(doc: Doc, sent_starts: numpy.ndarray) -> list[Range]:
    """The token ranges of ``doc.sents`` (read from its SENT_START column ``sent_starts``
    when spaCy's own rules apply: no ``sents`` hook, boundaries set)."""
    n = len(doc)
    if not n:
        return []
    if "sents" in doc.user_hooks or not doc.has_annotation("SENT_START"):
        return [(s.start, s.end) for s in doc.sents]  # spaCy's behaviour (or its error)
    cuts = [0, *(numpy.flatnonzero(sent_starts[1:] == 1) + 1).tolist(), n]
    return list(itertools.pairwise(cuts))


def _reindex_tokens(m: Mention, new_index: list[int]) -> None:
    """Renumber the inclusive token ranges ``tokens``, ``core`` and ``ranges`` of ``m``."""

    def pair(r: TokenPair) -> TokenPair:
        return (new_index[r[0]], max(new_index[r[1] + 1] - 1, new_index[r[0]]))

    if m.tokens is not None:
        m.tokens = pair(m.tokens)
    if m.core is not None:
        m.core = pair(m.core)
    m.ranges = tuple(map(pair, m.ranges))


def describe(document: Document) -> str:
    """A readable rendering: the mentions with their kinds, then the links with rule names."""
    lines = [f"# {document.id}" if document.id else "#", document.text.strip(), ""]
    lines.append(f"Mentions ({len(document.mentions)}):")
    for m in sorted(document.mentions, key=lambda m: m.spans):
        kind = m.kind
        lines.append(f"  {m.id:>4}  [{kind}] {m.text}   ({m.rule})")
    lines.append("")
    lines.append(f"Links ({len(document.relations)}):")
    index = document.mention_index()
    for r in document.relations:
        ana, ant = index[r.head], index[r.tail]
        lines.append(f"  {ana.text} --{r.label}[{r.rule}]--> {ant.text}")
    return "\n".join(lines) + "\n"


RELATION_COLUMNS = [
    "doc_id", "label", "anaphor", "anaphor_start", "anaphor_end",
    "antecedent", "antecedent_start", "antecedent_end", "rule", "confidence",
]


def relations_frame(documents: Iterable[Document | Doc]) -> pd.DataFrame:
    """One row per relation (doc_id, label, anaphor/antecedent text and offsets, rule,
    confidence) for Documents or for spaCy Docs that went through the pipeline."""
    import pandas as pd  # noqa: PLC0415  (imported on use: it is slow to import)

    rows = []
    for d in documents:
        if isinstance(d, Doc):
            d = to_document(d)
        index = d.mention_index()
        for r in d.relations:
            ana, ant = index[r.head], index[r.tail]
            rows.append((
                d.id, r.label, ana.text, ana.start, ana.end,
                ant.text, ant.start, ant.end, r.rule, r.confidence,
            ))
    return pd.DataFrame(rows, columns=RELATION_COLUMNS)
