"""Documents to show: read any input ``chemie show`` accepts, and run the pipeline if asked.

Inputs: a ChEMU-Ref ``.jsonl`` file; the JSON lines of ``chemie run --format json`` (one
``{"id", "text", "tokens", "mentions", "relations", ...}`` object per line); USPTO
paragraphs (``.jsonl`` lines with ``id``, ``title``, ``text``: the title is the heading);
the JSON lines of ``chemie reactions`` (one reaction record per line: a document per
``doc_id`` with its reactions in ``meta["reactions"]`` and no text, since records carry
none); a brat folder (``.txt`` with or without ``.ann``); a ``.ann`` file (with the ``.txt``
beside it); a ``.txt`` file (with the annotations of a ``.ann`` beside it, if there is one).
Raw text is one document whose id is the file stem. The kind of a ``.jsonl`` file is told
by its first non-empty line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from chemie.errors import InputError, read_text
from chemie.formats.shapes import unknown_input
from chemie.model import (
    ROLE_ENTITY_LABELS,
    ROLE_TRIGGER_LABELS,
    Document,
    Mention,
    Relation,
    Role,
    Token,
)
from chemie.model.reaction import Reaction

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
        shape = jsonl_shape(p)
        if shape == "document":
            yield from iter_document_json(p)
        elif shape == "reactions":
            yield from iter_reaction_documents(p)
        elif shape == "paragraphs":
            yield from _paragraphs(p)
        else:
            yield from iter_chemu(p)
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
        raise InputError(p, None, unknown_input(p, ".jsonl, .txt, .ann or a folder"))


def has_predictions(docs: Iterable[Document]) -> bool:
    """True when some mention or relation names the rule that produced it."""
    return any(
        m.rule for d in docs for m in d.mentions
    ) or any(r.rule for d in docs for r in d.relations)


def run_pipeline(
    docs: Iterable[Document], ner: NER, reactions: Mapping[str, object] | None = None
) -> Iterator[Document]:
    """Predictions for ``docs`` from the chemie pipeline (their own annotations are ignored),
    chemical mentions classed by ``ner`` (see :func:`add_chemdner_classes`); with
    ``reactions`` (the config of ``chemie_reactions``, e.g. ``{"structures": False}``) their
    reaction records too (``meta["reactions"]``).

    ChEMU-Ref documents keep their tokens (so predictions align with the gold); any other
    text goes through the chemie tokenizer.
    """
    from chemie import nlp as pipeline

    if reactions is None:  # the roles for the second view (opt-in in the pipeline)
        model = pipeline.load(roles=True)
    else:
        model = pipeline.load(reactions=True, reactions_config=dict(reactions))
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
    from chemie.ner.component import mention_records

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


def jsonl_shape(path: Path) -> str:
    """What a JSON-lines file holds, told by its first non-empty line: ``document`` (``chemie
    run --format json``), ``reactions`` (``chemie reactions``), ``paragraphs`` (USPTO
    paragraphs: ``title`` and ``text``, no annotations) or ``chemu`` (anything else: read
    as ChEMU-Ref, whose reader reports what is wrong)."""
    with open(path, encoding="utf-8-sig", errors="replace") as fh:
        for line in fh:
            if line.strip():
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError:
                    return "chemu"
                if not isinstance(obj, dict):
                    return "chemu"
                if "doc_id" in obj and "rule" in obj and "text" not in obj:
                    return "reactions"
                if "text" in obj and "title" in obj and not {"mentions", "tokens"} & set(obj):
                    return "paragraphs"
                return "document" if "text" in obj and "doc_key" not in obj else "chemu"
    return "chemu"


def _paragraphs(path: Path) -> Iterator[Document]:
    from chemie.formats.uspto import iter_uspto

    for doc in iter_uspto(path):
        doc.meta["format"] = "uspto"
        yield doc


def read_reactions_file(path: PathLike) -> dict[str, list[Reaction]]:
    """The records of a ``chemie reactions`` JSON-lines file by document id, in file order
    (InputError naming the line of a record that cannot be read)."""
    p = Path(path)
    out: dict[str, list[Reaction]] = {}
    for lineno, line in enumerate(read_text(p).split("\n"), 1):
        if not line.strip():
            continue
        try:
            record = Reaction.from_dict(json.loads(line))
        except json.JSONDecodeError as e:
            raise InputError(p, lineno, f"malformed JSON: {e.msg} (column {e.colno})") from None
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise InputError(
                p, lineno, f"not a chemie reaction record ({type(e).__name__}: {e})"
            ) from None
        out.setdefault(record.doc_id, []).append(record)
    return out


def iter_reaction_documents(path: PathLike) -> Iterator[Document]:
    """One Document per ``doc_id`` of a ``chemie reactions`` file: no text, its records in
    ``meta["reactions"]``."""
    for doc_id, records in read_reactions_file(path).items():
        yield Document(doc_id, "", meta={"reactions": records, "format": "reactions",
                                         "path": str(path)})


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


def roles_from_labels(doc: Document) -> Document:
    """``doc`` with ``roles`` made from its mentions labelled with ChEMU 2020 labels (brat
    gold of ChEMU 2020, ``chemie run --format chemu2020`` output) when it has no roles: the
    roles view then shows them, against gold too. A discontinuous mention gives one role per
    range."""
    if doc.roles:
        return doc
    labels = set(ROLE_ENTITY_LABELS) | set(ROLE_TRIGGER_LABELS)
    doc.roles = [
        Role(m.id if len(m.spans) == 1 else f"{m.id}.{i}", a, b, m.label, doc.text[a:b],
             m.rule or "")
        for m in doc.mentions if m.label in labels for i, (a, b) in enumerate(m.spans)
    ]
    return doc
