"""Writers of ``chemie ner``'s results: a document's mention records (``doc.meta["ner"]``:
char offsets, text, CHEMDNER class, confidence, rule) as TSV rows, a JSON line, a mention
table, or CHEMDNER CEM and CDI rows."""

from __future__ import annotations

import json

from chemie.formats import file_name_text
from chemie.formats.chemdner import format_cdi, format_cem, rank_cdi, rank_cem
from chemie.model import Document, Mention

TSV_HEADER = "document\tstart\tend\ttext\tclass\tconfidence\trule\n"


def _records(doc: Document) -> list[dict[str, object]]:
    return doc.meta.get("ner", [])  # type: ignore[return-value]


def _name(doc: Document) -> str:
    """The document's file (or id), as text (see :func:`~chemie.formats.file_name_text`)."""
    return file_name_text(str(doc.meta.get("source", doc.id)))


def tsv_block(doc: Document) -> str:
    """The TSV rows of one document (columns of :data:`TSV_HEADER`)."""
    name = _name(doc)
    lines = []
    for m in _records(doc):
        text = str(m["text"]).replace("\t", " ").replace("\n", " ")
        lines.append(
            f"{name}\t{m['start']}\t{m['end']}\t{text}\t{m['class']}\t"
            f"{float(m['confidence']):.3f}\t{m['rule']}\n"  # type: ignore[arg-type]
        )
    return "".join(lines)


def json_line(doc: Document) -> str:
    """One JSON line ``{"document", "mentions"}``."""
    return json.dumps({"document": _name(doc), "mentions": _records(doc)}, ensure_ascii=False)


def table_document(doc: Document) -> Document:
    """The document named by its file, its records as Mentions (label: the CHEMDNER class),
    for the mention table of :mod:`chemie.formats.tabular`."""
    mentions = [
        Mention(f"T{i}", ((int(m["start"]), int(m["end"])),), str(m["class"]), str(m["text"]),
                str(m["rule"]), float(m["confidence"]))  # type: ignore[arg-type]
        for i, m in enumerate(_records(doc), 1)
    ]
    return Document(id=_name(doc), text=doc.text, mentions=mentions)


def chemdner_blocks(doc: Document) -> tuple[str, str]:
    """The CEM and CDI rows of one abstract (``doc.text`` is the title, a newline and the
    abstract; ``doc.id`` the PMID)."""
    cut = doc.text.find("\n") + 1 if "\n" in doc.text else len(doc.text) + 1
    found = []
    for m in _records(doc):
        start, end = int(m["start"]), int(m["end"])  # type: ignore[call-overload]
        part, base = ("T", 0) if start < cut else ("A", cut)
        found.append((part, start - base, end - base, str(m["text"]), float(m["confidence"])))  # type: ignore[arg-type]
    cem = rank_cem(doc.id, [(p, a, b, c) for p, a, b, _, c in found])
    cdi = rank_cdi(doc.id, [(t, c) for _, _, _, t, c in found])
    return format_cem(cem), format_cdi(cdi)
