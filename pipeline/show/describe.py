"""Fill in what the pipeline would say about given mentions (``kind``, ``head`` …)."""

from __future__ import annotations

from collections.abc import Iterable

from chemie.model import Document, Mention, Relation, with_description


def describe_mentions(nlp: object, docs: Iterable[Document]) -> list[Document]:
    """Copies of ``docs`` whose mentions carry the pipeline's ``kind``/``head`` fields.

    Uses :func:`chemie.nlp.doc_from_document` with ``gold_mentions=True`` on each mention's
    first range (where its head is looked up); a typed mention (``kind`` set) keeps its own.
    """
    from chemie.context import mentions_of
    from chemie.nlp import doc_from_document

    out = []
    for d in docs:
        firsts = Document(d.id, d.text, d.tokens, d.sentences)
        firsts.mentions = [Mention(m.id, m.spans[:1], m.label) for m in d.mentions]
        spacy_doc = doc_from_document(nlp, firsts, gold_mentions=True)
        described = {m.id: m for m in mentions_of(spacy_doc)}
        copy = Document(d.id, d.text, d.tokens, d.sentences, meta=d.meta)
        copy.mentions = [with_description(m, described.get(m.id)) for m in d.mentions]
        copy.relations = [
            Relation(r.label, r.head, r.tail, r.rule, r.id, r.confidence) for r in d.relations
        ]
        out.append(copy)
    return out
