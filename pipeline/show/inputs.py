"""Documents to show: read any input ``chemie show`` accepts, and run the pipeline if asked.

Inputs: a ChEMU-Ref ``.jsonl`` file; the JSON lines of ``chemie run --format json`` (one
``{"id", "text", "tokens", "mentions", "relations", ...}`` object per line); a brat folder
(``.txt`` with or without ``.ann``); a ``.ann`` file (with the ``.txt`` beside it); a ``.txt``
file (with the annotations of a ``.ann`` beside it, if there is one). Raw text is one
document whose id is the file stem.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from chemie.errors import InputError, read_text
from chemie.model import Document, Mention, Relation, Token

if TYPE_CHECKING:
    from spacy.tokens import Doc

PathLike = str | os.PathLike[str]
NER = Callable[[str], "Doc"]


def read_inputs(path: PathLike) -> Iterator[Document]:
    """The documents of ``path`` with whatever annotations the file carries."""
    from chemie.formats.brat import read_brat_dir, read_brat_pair
    from chemie.formats.chemu import iter_chemu

    p = Path(path)
    if p.is_dir():
        yield from read_brat_dir(p)
        return
    if not p.exists():
        raise InputError(p, None, "no such file or folder")
    suffix = p.suffix.lower()
    if suffix in (".jsonl", ".json"):
        yield from (iter_document_json(p) if _is_document_json(p) else iter_chemu(p))
    elif suffix == ".ann":
        txt = p.with_suffix(".txt")
        if not txt.exists():
            raise InputError(p, None, f"no matching text file {txt.name}")
        yield read_brat_pair(txt, p)
    elif suffix == ".txt":
        ann = p.with_suffix(".ann")
        if ann.exists():
            yield read_brat_pair(p, ann)
        else:
            doc = Document(p.stem, read_text(p, bom_as_space=True))  # offsets as in brat
            doc.meta.update(format="txt", path=str(p), line=None)
            yield doc
    else:
        raise InputError(p, None, "unknown input type: expected .jsonl, .txt, .ann or a folder")


def has_predictions(docs: Iterable[Document]) -> bool:
    """True when some mention or relation names the rule that produced it."""
    return any(
        m.rule for d in docs for m in d.mentions
    ) or any(r.rule for d in docs for r in d.relations)


def run_pipeline(docs: Iterable[Document], ner: NER) -> Iterator[Document]:
    """Predictions for ``docs`` from the chemie pipeline (their own annotations are ignored),
    chemical mentions classed by ``ner`` (see :func:`add_chemdner_classes`).

    ChEMU-Ref documents keep their tokens (so predictions align with the gold); any other
    text goes through the chemie tokenizer.
    """
    from chemie import nlp as pipeline

    model = pipeline.load()
    for doc in docs:
        bare = Document(doc.id, doc.text, meta=dict(doc.meta))
        if doc.meta.get("format") == "chemu":
            bare.tokens, bare.sentences = list(doc.tokens), list(doc.sentences)
        yield add_chemdner_classes(pipeline.annotate(model, bare), ner)


def add_chemdner_classes(doc: Document, ner: NER) -> Document:
    """Give chemical mentions without an NER rule the CHEMDNER class and NER rule of the
    chemical NER mention that overlaps their ``core`` (token indices) the most.

    ``ner`` is the NER pipeline of ``chemie ner`` (text -> spaCy ``Doc``); the caller
    builds it, so this library module does not depend on the command layer.
    """
    from chemie.components.ner import mention_records

    targets = [
        m for m in doc.mentions
        if m.kind == "chemical" and m.ner_rule is None
    ]
    if not targets:
        return doc
    records = mention_records(ner(doc.text))
    for m in targets:
        core = m.core
        if core is not None and doc.tokens:
            a, b = doc.tokens[core[0]].start, doc.tokens[core[1]].end
        else:
            a, b = m.spans[0]
        best = max(
            records,
            key=lambda r: min(b, int(r["end"])) - max(a, int(r["start"])),
            default=None,
        )
        if best is not None and min(b, int(best["end"])) > max(a, int(best["start"])):
            m.chemdner_class = best["class"]
            m.ner_rule = best["rule"]
    return doc


def _is_document_json(path: Path) -> bool:
    """True when the first non-empty line is a ``chemie run --format json`` document."""
    with open(path, encoding="utf-8-sig", errors="replace") as fh:
        for line in fh:
            if line.strip():
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError:
                    return False
                return isinstance(obj, dict) and "text" in obj and "doc_key" not in obj
    return False


def parse_document_json(
    line: str, path: PathLike | None = None, lineno: int | None = None
) -> Document:
    """One line of ``chemie run --format json`` -> a Document (InputError when malformed)."""
    try:
        obj = json.loads(line)
        doc = Document(str(obj["id"]), obj["text"])
        doc.tokens = [Token(t["text"], t["start"], t["end"]) for t in obj.get("tokens", [])]
        doc.sentences = [(a, b) for a, b in obj.get("sentences", [])]
        doc.mentions = [
            Mention.from_attrs(
                str(m["id"]), tuple((a, b) for a, b in m["spans"]), m.get("label", "ENTITY"),
                m.get("text", ""), m.get("rule"), m.get("confidence"), m.get("attrs"),
            )
            for m in obj.get("mentions", [])
        ]
        doc.relations = [
            Relation(
                r["label"], str(r["head"]), str(r["tail"]), r.get("rule"), r.get("id", ""),
                r.get("confidence"),
            )
            for r in obj.get("relations", [])
        ]
    except json.JSONDecodeError as e:
        raise InputError(path, lineno, f"malformed JSON: {e.msg} (column {e.colno})") from None
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise InputError(path, lineno, f"not a chemie document ({type(e).__name__}: {e})") from None
    doc.meta.update(format="json", path=None if path is None else str(path), line=lineno)
    return doc


def iter_document_json(path: PathLike) -> Iterator[Document]:
    """Documents of a ``chemie run --format json`` file, one per non-empty line."""
    p = Path(path)
    for lineno, line in enumerate(read_text(p).split("\n"), 1):
        if line.strip():
            yield parse_document_json(line, p, lineno)


def _untyped(m: Mention) -> bool:
    return not m.kind and m.label == "ENTITY"


def borrow_kinds(gold: Document, pred: Document) -> Document:
    """``gold`` with each untyped mention given the ``kind`` and ``head`` of the ``pred``
    mention with the same spans (when its text is the same), so that one mention has one
    colour on both sides of a comparison; other mentions are left to :func:`with_kinds`."""
    if gold.text != pred.text:
        return gold
    typed = {m.spans: m for m in pred.mentions if m.kind}
    mentions = []
    for m in gold.mentions:
        src = typed.get(m.spans) if _untyped(m) else None
        if src is not None:
            m = replace(m, kind=src.kind, head=m.head or src.head)
        mentions.append(m)
    copy = replace(gold, meta=dict(gold.meta))
    copy.mentions = mentions
    return copy


def with_kinds(docs: list[Document]) -> list[Document]:
    """``docs``, with untyped mentions (label ``ENTITY``, no ``kind`` attr: brat output of
    ``chemie run``, ChEMU-Ref gold) given the kind the pipeline's mention describer assigns
    to their head word. Other mentions keep their fields (a label such as ``CHEMICAL`` is
    shown as the kind)."""
    if not any(_untyped(m) for d in docs for m in d.mentions):
        return docs
    from chemie import nlp as pipeline
    from chemie.show.describe import describe_mentions

    described = describe_mentions(pipeline.load(ner=False), docs)
    for doc, new in zip(docs, described, strict=True):
        pairs = zip(doc.mentions, new.mentions, strict=True)
        new.mentions = [n if _untyped(m) else m for m, n in pairs]
    return described
