"""The sections of a document: where each step, example, stage or general procedure starts,
what its heading names it, and the compound its heading (or the document's title) names.

Sections start at chemie_actions' step headings ("Step 2", "Example 5"), after a stage's
yield (:meth:`chemie.reactions.assemble.DocView.section_starts`) and at a general
procedure's heading (``procedure_headings`` of ``rules/procedures.yaml``). A section's
**title** is the compound named right after its heading label ("Step 1: NAME (2a).",
"Example 4\\nNAME."); the document's title is the compound of its first line (a USPTO
paragraph's title) or the compound ``chemie_roles`` marks as the heading's. Nothing here
reads structures: titles are found on the text and the ``chemie_roles`` spans.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import regex

from chemie.reactions.assemble import _SENTENCE_END, HEADING_ACTION, DocView
from chemie.reactions.procedures import Found, find_references
from chemie.reactions.procedures_table import ProcedureTable

STAGE, HEADING, PROCEDURE = "yield_then_stage", "step_heading", "procedure_heading"
REFERENCE_STAGE = "reference_then_stage"
LISTED = "listed_examples"
YIELDS = ("YIELD_PERCENT", "YIELD_OTHER")
COMPOUNDS = ("REACTION_PRODUCT", "STARTING_MATERIAL", "REAGENT_CATALYST", "SOLVENT",
             "OTHER_COMPOUND")
TITLE_RULES = frozenset({"heading_product", "heading_target"})  # chemie_roles' heading spans


@dataclass
class Section:
    """One section: ``[start, end)``, how it was opened (``rule``: "" for the document's
    start, :data:`HEADING`, :data:`STAGE`, :data:`REFERENCE_STAGE`, :data:`PROCEDURE`,
    :data:`LISTED`), the kind and label its heading names (``step`` "2", ``example`` "4",
    ``procedure`` "B"; "" without), the heading as written ("Step 2") and where a title may
    follow its label (``title_at``; -1 without a heading)."""

    start: int
    end: int
    rule: str = ""
    kind: str = ""
    label: str = ""
    heading: str = ""
    title_at: int = -1
    context: int = -1  # where the text it follows from starts (a list's opening; -1: start)


@dataclass
class Plan:
    """The sections of a document, the end of its title line (0: none) and the label the
    document itself opens with (``("example", "10")``; None)."""

    sections: list[Section]
    title_end: int = 0
    label: tuple[str, str] | None = None
    label_text: str = ""
    titles: set[int] = field(default_factory=set)  # starts of spans that are section titles
    heading_spans: set[int] = field(default_factory=set)  # starts of the title line's spans
    body: int = 0  # where the first action (not a heading) starts: before it, the heading
    references: list[Found] = field(default_factory=list)  # procedure references, in order

    @property
    def kept(self) -> set[int]:
        """The starts of the spans that are candidates whatever their label (titles)."""
        return self.titles | self.heading_spans

    def section_of(self, at: int) -> int:
        """The index of the section that holds character ``at``."""
        return max((i for i, s in enumerate(self.sections) if s.start <= at), default=0)


def plan(view: DocView, table: ProcedureTable) -> Plan:
    """The sections of ``view`` (their starts become ``view``'s section starts, so the
    candidates fall into them) with their headings, and the document's title line."""
    text = view.text
    title_end = _title_end(view)
    starts = {s: STAGE for s in view.section_starts()}
    starts[0] = ""
    references = find_references(text, table)
    _action_starts(view, table, references, starts)
    _pattern_starts(text, table, title_end, starts)
    listed = _listed(text, table)
    for at in listed:
        starts[at] = LISTED
    order = sorted(starts)
    view._sections = order  # the candidates' sections (see DocView.section_starts)
    ends = [*order[1:], len(text)]
    sections = [_section(text, table, a, b, starts[a]) for a, b in zip(order, ends, strict=True)]
    for sec in sections:
        if sec.rule == LISTED:
            sec.kind, sec.title_at, sec.context = "example", sec.start, listed[sec.start]
    body = min((a.start for a in view.actions if a.label != HEADING_ACTION), default=len(text))
    out = Plan(sections, title_end, body=body, references=references)
    if sections and sections[0].start == 0:
        _opening(text, table, out)
    _titles(view, table, out)
    return out


def _action_starts(view: DocView, table: ProcedureTable, references: list[Found],
                   starts: dict[int, str]) -> None:
    """Add to ``starts`` the step headings of chemie_actions (dropping those in brackets or
    in a procedure reference) and the starts of reference stages."""
    text = view.text
    for a in view.actions:
        if a.label == HEADING_ACTION and a.start > 0:
            if _in_brackets(text, a.start) or any(f.start <= a.start < f.end
                                                  for f in references):
                starts.pop(a.start, None)  # "[Example 1, Step 2]", "as in Example 1"
            else:
                starts[a.start] = HEADING
    for at in _reference_stages(view, table):
        starts.setdefault(at, REFERENCE_STAGE)


def _pattern_starts(text: str, table: ProcedureTable, title_end: int,
                    starts: dict[int, str]) -> None:
    """Add to ``starts`` the procedure and step headings that the heading patterns find
    after the title line."""
    lower = text.lower()
    for rules, opens, cues in ((table.procedure_headings, PROCEDURE, ("procedure", "method")),
                               (table.step_headings, HEADING, ("step", "stage"))):
        if not any(cue in lower for cue in cues):
            continue  # no heading word: no heading (the patterns are slow to try everywhere)
        for rule in rules:
            for m in table.compiled[rule.name].finditer(text):
                if m.start("heading") > title_end:
                    starts[m.start("heading")] = opens


def _titles(view: DocView, table: ProcedureTable, out: Plan) -> None:
    """Set ``out``'s section titles (after a heading label; the first compound of a listed
    example) and the spans of its title line or heading."""
    text = view.text
    out.titles = {r.start for s in out.sections for r in view.roles
                  if s.title_at >= 0 and _is_title(text, table, s.title_at, r.start, r.end)}
    out.titles |= {min((r.start for r in view.roles if s.start <= r.start < s.end
                        and r.label in COMPOUNDS), default=-1)
                   for s in out.sections if s.rule == LISTED} - {-1}
    out.heading_spans = {r.start for r in view.roles
                         if r.start < out.title_end or r.rule in TITLE_RULES}


def _listed(text: str, table: ProcedureTable) -> dict[int, int]:
    """The start of each item of a list of examples (``listed_examples``), with the start
    of the sentence that opens the list."""
    out: dict[int, int] = {}
    if "following" not in text.lower():
        return out
    for m in table.compiled["listed_examples"].finditer(text):
        end = text.find("\n", m.end())
        end = len(text) if end < 0 else end
        at = m.end()
        while at < end:
            while at < end and text[at] in " \t;":
                at += 1
            if at < end:
                out[at] = m.start()
            stop = text.find(";", at, end)
            at = end if stop < 0 else stop + 1
    return out


def _reference_stages(view: DocView, table: ProcedureTable) -> list[int]:
    """Where a sentence that states a yield is followed by one that opens with that product,
    by reference ("The imidate", "The product") or by the name it was given, weighed or
    used (``reference_then_stage``): the next stage starts there."""
    text = view.text
    products = [r for r in view.roles if r.label == "REACTION_PRODUCT"]
    starting = {r.start: r for r in view.roles if r.label == "STARTING_MATERIAL"}
    out = []
    for r in view.roles:
        stop = _SENTENCE_END.search(text, r.end) if r.label in YIELDS else None
        if stop is None:
            continue
        at = stop.end()
        end = None
        for key in ("class_references", "product_references"):
            m = table.compiled[key].match(text, at)
            end = m.end() if m is not None else end
        named = starting.get(at)
        if named is not None and any(p.end <= at and " ".join(p.text.lower().split())
                                     == " ".join(named.text.lower().split()) for p in products):
            end = named.end
        if end is not None and (table.compiled["reference_after"].match(text, end, end + 100)
                                or _WEIGHED.match(text, end)):
            out.append(at)
    return out


_WEIGHED = regex.compile(r"\s*\(\s*\d")  # "X (2.16 g, …"


def _section(text: str, table: ProcedureTable, a: int, b: int, rule: str) -> Section:
    s = Section(a, b, rule)
    if rule == HEADING:
        m = table.compiled["heading_label"].match(text, a)
        if m is not None:
            s.kind, s.label = table.kind(m.group("kind")), m.group("label")
            s.heading, s.title_at = " ".join(m.group().split()), m.end()
    elif rule == PROCEDURE:
        for r in table.procedure_headings:
            m = table.compiled[r.name].match(text, a)
            if m is not None:
                s.kind, s.label = "procedure", m.group("label") or ""
                s.heading, s.title_at = " ".join(m.group("heading").split()), m.end()
                break
    return s


def _in_brackets(text: str, at: int) -> bool:
    """Whether ``at`` lies inside a bracket opened within a sentence, less than 80 characters
    before it (``referenced_heading``: "X [Example 1, Step 2] (2 g)")."""
    depth = 0
    for i in range(at - 1, max(-1, at - 80), -1):
        ch = text[i]
        if ch in ")]":
            depth += 1
        elif ch in "([":
            if depth == 0:
                before = text[:i].rstrip()
                return bool(before) and before[-1] not in ".:;\n"
            depth -= 1
        elif ch == "\n" or (ch == "." and depth == 0 and text[i + 1:i + 2].isspace()):
            return False
    return False


def _opening(text: str, table: ProcedureTable, out: Plan) -> None:
    """The label the document opens with ("Example 10: NAME", "General Procedure D: …",
    "Step 3: NAME"): the first section takes it, with its title after it."""
    m = table.compiled["document_label"].match(text)
    if m is None:
        step = table.compiled["heading_label"].match(text)
        if step is not None:
            first = out.sections[0]
            first.kind, first.label = table.kind(step.group("kind")), step.group("label")
            first.heading, first.title_at = " ".join(step.group().split()), step.end()
        return
    first = out.sections[0]
    kind = table.kind(m.group("kind"))
    out.label, out.label_text = (kind, m.group("label") or ""), " ".join(m.group().split())
    first.kind, first.label, first.heading = kind, m.group("label") or "", out.label_text
    first.title_at = m.end()
    if kind == "procedure":
        first.rule = PROCEDURE


def _title_end(view: DocView) -> int:
    """The end of the document's first line when it is a title (a line of its own, before
    the body, in which no action but a heading starts: a USPTO paragraph's title, not a
    ChEMU snippet's first sentence), else 0."""
    end = view.text.find("\n")
    if end <= 0 or end > 400 or any(a.start < end and a.label != HEADING_ACTION
                                    for a in view.actions):
        return 0
    return end


def _is_title(text: str, table: ProcedureTable, at: int, start: int, end: int) -> bool:
    """Whether the span ``[start, end)`` is the title that follows a heading label ending at
    ``at``: only the title gap between them, and the heading line ends after it."""
    if start < at or start - at > 80:
        return False
    return bool(table.compiled["title_gap"].match(text[at:start])) and bool(
        table.compiled["title_end"].match(text, end))
