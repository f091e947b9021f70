"""ChEMU 2020 brat output: the roles of a Document as ``.ann`` lines.

``T`` lines carry the ChEMU 2020 labels (compounds by role, conditions, yields, example
labels, trigger words) with character offsets into the ``.txt``; an ``E`` line links a
trigger to one entity it acts on (``Arg1`` for a compound, ``ArgM`` for a condition or
quantity), one line per pair as in the ChEMU 2020 event annotations; ``#`` notes name the
rule of each ``T`` line (``rule=NAME``), as ``chemie run``'s brat output does.
"""

from __future__ import annotations

import re

from chemie.model import COMPOUND_ROLES, ROLE_TRIGGER_LABELS, Document, Mention

_COMPOUNDS = frozenset(COMPOUND_ROLES)
_TRIGGERS = frozenset(ROLE_TRIGGER_LABELS)


def _one_line(s: str) -> str:
    return re.sub(r"[\t\r\n]", " ", s)


def format_roles_ann(doc: Document) -> str:
    """The ``.ann`` content of ``doc.roles`` (ValueError for a span outside the text)."""
    ids = {r.id: f"T{n}" for n, r in enumerate(doc.roles, 1)}
    labels = {r.id: r.label for r in doc.roles}
    lines, events, notes = [], [], []
    for r in doc.roles:
        if not 0 <= r.start < r.end <= len(doc.text):
            raise ValueError(f"document {doc.id}: role {r.id} has offsets outside the text")
        tid = ids[r.id]
        lines.append(f"{tid}\t{r.label} {r.start} {r.end}\t{_one_line(doc.text[r.start:r.end])}")
        notes.append((tid, f"rule={r.rule}"))
        if r.label in _TRIGGERS:
            for arg in r.args:
                if arg in ids:
                    kind = "Arg1" if labels[arg] in _COMPOUNDS else "ArgM"
                    events.append(f"{r.label}:{tid} {kind}:{ids[arg]}")
    lines.extend(f"E{n}\t{event}" for n, event in enumerate(events, 1))
    lines.extend(f"#{n}\tAnnotatorNotes {tid}\t{_one_line(note)}"
                 for n, (tid, note) in enumerate(notes, 1))
    return "".join(line + "\n" for line in lines)


def roles_payload(doc: Document) -> tuple[str, str]:
    """What the brat sink writes for one document: its text and its ChEMU 2020 ``.ann``."""
    return doc.text, format_roles_ann(doc)


def roles_as_mentions(doc: Document) -> Document:
    """A Document whose mentions are the roles of ``doc`` (as the brat reader returns a
    ChEMU 2020 ``.ann``: one single-range mention per ``T`` line, with its rule)."""
    mentions = [Mention(r.id, ((r.start, r.end),), r.label, r.text, r.rule) for r in doc.roles]
    return Document(doc.id, doc.text, mentions=mentions, meta=dict(doc.meta))
