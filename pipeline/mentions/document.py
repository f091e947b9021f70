"""Document helpers other components import: the doc's text, its words and class string, the
description of a gold mention."""

from __future__ import annotations

from dataclasses import replace

from spacy.attrs import ORTH, SPACY
from spacy.tokens import Doc

from chemie.extensions import TEXT, TOKEN_INFO
from chemie.mentions.docdata import sentence_index
from chemie.mentions.tagger import default_tagger
from chemie.model import Mention


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


def token_info(doc: Doc) -> tuple[list[str], str]:
    """The words of ``doc`` and its class string, computed once per doc and cached in
    ``doc.user_data`` (the coreference rules reuse them)."""
    info = doc.user_data.get(TOKEN_INFO)
    if info is None:
        words, cs, _low = default_tagger().class_string(doc)
        info = doc.user_data[TOKEN_INFO] = (words, cs)
    return info


def describe_mention(doc: Doc, m: Mention) -> Mention:
    """A copy of ``m`` (a gold mention, its spans char offsets into ``doc``) with what
    chemie_mentions says of a mention: ``kind``, ``head``, ``sentence``, ``tokens``, ``core``,
    ``det``, ``quantity``, ``ranges`` (when its spans fall outside the doc's tokens: a
    chemical at token 0, without core or ranges)."""
    spans = m.spans
    lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
    whole = doc.char_span(lo, hi, alignment_mode="expand")
    first_range = doc.char_span(spans[0][0], spans[0][1], alignment_mode="expand")
    if whole is None or first_range is None or not len(first_range):
        return replace(m, kind="chemical", head="", sentence=0, tokens=(0, 0))
    tagger = default_tagger()
    classify = tagger.classify
    toks = list(first_range)
    # the core ends before the first bracket (quantities) of the first range
    core = toks
    for k, t in enumerate(toks):
        if k and classify(t.text) == "(":
            core = toks[:k]
            break
    det = core[0].lower_ if classify(core[0].text) == "D" else ""
    words = [t for t in core if classify(t.text) not in "().P:=NUA"] or core
    head_tok = words[-1]
    kind = tagger.tables.table.grammar.head_kinds.get(classify(head_tok.text), "chemical")
    if kind == "generic" and head_tok.lower_ in tagger.tables.lists["state_heads"]:
        kind = "state"
    ranges = tuple(
        (sp.start, sp.end - 1)
        for sp in (doc.char_span(a, b, alignment_mode="expand") for a, b in spans)
        if sp is not None and len(sp)
    )
    return replace(
        m, kind=kind, head=head_tok.lower_, sentence=sentence_index(doc)[whole.start],
        tokens=(whole.start, whole.end - 1),
        core=(core[0].i + (1 if det and len(core) > 1 else 0), core[-1].i), det=det,
        quantity=len(core) < len(toks) or len(spans) > 1, ranges=ranges,
    )


def core_is_bare_reference(cs: str, c0: int, end: int) -> bool:
    """``compound``, ``the compound``: a reference head with no name or number."""
    return cs[c0:end].lstrip("DW") in ("K", "k")
