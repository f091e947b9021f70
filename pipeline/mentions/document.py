"""What the mention tables say of a given (gold) mention, and of a bare reference."""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Doc

from chemie.mentions.docdata import sentence_index
from chemie.mentions.tagger import Tagger
from chemie.model import Mention


def describe_mention(doc: Doc, m: Mention, tagger: Tagger) -> Mention:
    """A copy of ``m`` (a gold mention, its spans char offsets into ``doc``) with what
    chemie_mentions (its ``tagger``) says of a mention: ``kind``, ``head``, ``sentence``,
    ``tokens``, ``core``, ``det``, ``quantity``, ``ranges`` (when its spans fall outside the
    doc's tokens: a chemical at token 0, without core or ranges)."""
    spans = m.spans
    lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
    whole = doc.char_span(lo, hi, alignment_mode="expand")
    first_range = doc.char_span(spans[0][0], spans[0][1], alignment_mode="expand")
    if whole is None or first_range is None or not len(first_range):
        return replace(m, kind="chemical", head="", sentence=0, tokens=(0, 0))
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
