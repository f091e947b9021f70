"""ChEMU 2020 brat output: the roles of a Document as ``.ann`` lines.

``T`` lines carry the ChEMU 2020 labels (compounds by role, conditions, yields, example
labels, trigger words) with character offsets into the ``.txt``; an ``R`` line links a
trigger to one entity it acts on, ``R1<TAB>ARG1 Arg1:T_trigger Arg2:T_entity`` (``ARG1``
for a compound, ``ARGM`` for a temperature, time or yield), one line per pair as in the
official ChEMU 2020 event annotations; ``#`` notes name the rule of each ``T`` and ``R`` line
(``rule=NAME``), as ``chemie run``'s brat output does.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from chemie.errors import InputError
from chemie.formats.brat import read_brat_pair
from chemie.model import COMPOUND_ROLES, ROLE_TRIGGER_LABELS, Document, Mention, Relation

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
            rules = r.arg_rules if len(r.arg_rules) == len(r.args) else [""] * len(r.args)
            for arg, rule in zip(r.args, rules, strict=True):
                if arg in ids:
                    role = "ARG1" if labels[arg] in _COMPOUNDS else "ARGM"
                    events.append((f"{role} Arg1:{tid} Arg2:{ids[arg]}", rule))
    for n, (event, rule) in enumerate(events, 1):
        lines.append(f"R{n}\t{event}")
        if rule:
            notes.append((f"R{n}", f"rule={rule}"))
    lines.extend(f"#{n}\tAnnotatorNotes {target}\t{_one_line(note)}"
                 for n, (target, note) in enumerate(notes, 1))
    return "".join(line + "\n" for line in lines)


def roles_payload(doc: Document) -> tuple[str, str]:
    """What the brat sink writes for one document: its text and its ChEMU 2020 ``.ann``."""
    return doc.text, format_roles_ann(doc)


def roles_as_mentions(doc: Document) -> Document:
    """A Document whose mentions are the roles of ``doc`` and whose relations are the
    triggers' event arguments (as the brat reader returns a ChEMU 2020 ``.ann``: one
    single-range mention per ``T`` line, one ``ARG1``/``ARGM`` relation per ``R`` line, each
    with its rule)."""
    mentions = [Mention(r.id, ((r.start, r.end),), r.label, r.text, r.rule) for r in doc.roles]
    labels = {r.id: r.label for r in doc.roles}
    relations = []
    for r in doc.roles:
        rules = r.arg_rules if len(r.arg_rules) == len(r.args) else [None] * len(r.args)
        for arg, rule in zip(r.args, rules, strict=True):
            if arg in labels:
                role = "ARG1" if labels[arg] in _COMPOUNDS else "ARGM"
                relations.append(Relation(role, r.id, arg, rule or None,
                                          id=f"R{len(relations) + 1}"))
    return Document(doc.id, doc.text, mentions=mentions, relations=relations,
                    meta=dict(doc.meta))


def read_event_gold(corpus: Path, gold: Path) -> Iterator[Document]:
    """The documents of a folder of event gold, ``gold/KEY.rel`` (``R`` lines keyed to the
    T ids of the corpus's own ``corpus/KEY.ann``), each read with its corpus ``.txt`` and
    ``.ann``; sorted by name."""
    rels = sorted(Path(gold).glob("*.rel"))
    if not rels:
        raise InputError(gold, None, "no .rel files (event gold) in this folder")
    for rel in rels:
        txt, ann = Path(corpus) / f"{rel.stem}.txt", Path(corpus) / f"{rel.stem}.ann"
        if not (txt.is_file() and ann.is_file()):
            raise InputError(rel, None, f"no {txt.name} and {ann.name} in {corpus}")
        yield read_brat_pair(txt, ann, rel)
