"""Document helpers other components import: the doc's text, its words and class string, the
attrs of a gold mention."""

from __future__ import annotations

from spacy.attrs import ORTH, SPACY
from spacy.tokens import Doc

from chemie.components.mentions.docdata import _sentence_of_tokens
from chemie.components.mentions.tables import MentionTables
from chemie.components.mentions.tagger import STATE_HEADS, TokenClassifier, _class_string
from chemie.model import Range


def doc_text(doc: Doc, words: list[str] | None = None) -> str:
    """``doc.text`` without making a Token object per token (much faster on long docs); the
    text stored by :func:`chemie.nlp.doc_from_document` when there is one."""
    text = doc.user_data.get("chemie.text")
    if text is not None:
        return text
    if words is None:
        strings = doc.vocab.strings
        words = [strings[o] for o in doc.to_array(ORTH).tolist()]
    spaces = doc.to_array(SPACY).tolist()
    return "".join([w + " " if sp else w for w, sp in zip(words, spaces, strict=True)])


_DEFAULT: tuple[MentionTables, TokenClassifier] | None = None


def _default_classifier() -> tuple[MentionTables, TokenClassifier]:
    global _DEFAULT
    if _DEFAULT is None:
        tables = MentionTables.load()
        _DEFAULT = (tables, TokenClassifier(tables))
    return _DEFAULT


def token_info(doc: Doc) -> tuple[list[str], str]:
    """The words of ``doc`` and its class string, computed once per doc and cached in
    ``doc.user_data`` (the coreference rules reuse them)."""
    info = doc.user_data.get("chemie.token_info")
    if info is None:
        tables, classify = _default_classifier()
        info = doc.user_data["chemie.token_info"] = _class_string(doc, classify, tables)
    return info


def describe_mention(doc: Doc, spans: tuple[Range, ...]) -> dict[str, object]:
    """``kind``/``head``/``sentence``/``tokens``/``core``/``det`` attrs for a mention given by
    char ranges (used for gold mentions)."""
    lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
    whole = doc.char_span(lo, hi, alignment_mode="expand")
    first_range = doc.char_span(spans[0][0], spans[0][1], alignment_mode="expand")
    if whole is None or first_range is None or not len(first_range):
        return {"kind": "chemical", "head": "", "sentence": 0, "tokens": (0, 0)}
    tables, classify = _default_classifier()
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
    cls = classify(head_tok.text)
    kind = {"G": "generic", "K": "reference", "E": "equipment"}.get(cls, "chemical")
    if kind == "generic" and head_tok.lower_ in STATE_HEADS:
        kind = "state"
    return {
        "kind": kind,
        "head": head_tok.lower_,
        "sentence": _sentence_of_tokens(doc)[whole.start],
        "tokens": (whole.start, whole.end - 1),
        "core": (core[0].i + (1 if det and len(core) > 1 else 0), core[-1].i),
        "det": det,
        "quantity": len(core) < len(toks) or len(spans) > 1,
        "ranges": tuple(
            (sp.start, sp.end - 1)
            for sp in (doc.char_span(a, b, alignment_mode="expand") for a, b in spans)
            if sp is not None and len(sp)
        ),
    }


def core_is_bare_reference(cs: str, c0: int, end: int) -> bool:
    """``compound``, ``the compound``: a reference head with no name or number."""
    return cs[c0:end].lstrip("DW") in ("K", "k")
