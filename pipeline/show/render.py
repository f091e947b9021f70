"""Self-contained HTML pages: highlighted mentions and anaphora arcs, optionally against gold;
reaction roles and triggers (ChEMU 2020 labels) as a second view; reaction schemes.

The page carries its CSS and JS inline (``page.css``, ``page.js``, ``page.html`` beside this
module; the colours of kinds, relation labels and role labels come from ``palette.py``).
Mentions become nested ``<span class="m k-KIND" data-m=ID>`` elements; the relations of each
text are listed in a ``data-arcs`` JSON attribute that ``page.js`` turns into SVG arcs above
the text (anaphor -> antecedent, arrow on the antecedent, kept inside the pane), and in a
plain table below it. A document with roles (``doc.roles``) also gets its text with the
roles marked (``<span class="r r-LABEL" data-r=ID>``, a trigger framed, what it acts on
highlighted on hover) and a table of its triggers; a switch in the header (a page with
roles only) shows one view or the other. Each panel has a slot above its text
(``panel(above=...)``): the reaction schemes of ``doc.meta["reactions"]``
(:mod:`chemie.show.scheme`) go there. All text is escaped; output depends only on the input.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import pairwise
from string import Template

from chemie.formats.tabular import chemdner_class
from chemie.model import Document, Mention, Role
from chemie.model.reaction import Reaction
from chemie.show.compare import Marks, compare, relation_key, roles_only
from chemie.show.layout import Node, Piece, nest
from chemie.show.palette import (
    KIND_ORDER,
    KIND_SHORT,
    ROLE_ORDER,
    ROLE_SHORT,
    SHORT_LABELS,
    css,
    slug,
)
from chemie.show.scheme import schemes

STATUS_TEXT = {"tp": "correct", "fp": "false positive", "fn": "false negative"}


def esc(value: object) -> str:
    """HTML-escape ``value`` (quotes included, so it is safe in attributes too)."""
    return html.escape(str(value), quote=True)


def mention_kind(m: Mention) -> str:
    """``kind``, else the label (``ENTITY``, the untyped gold label, is "mention")."""
    kind = m.kind
    if kind:
        return slug(str(kind))
    return "mention" if m.label == "ENTITY" else slug(m.label)


def _resource(name: str) -> str:
    return resources.files("chemie.show").joinpath(name).read_text(encoding="utf-8")


def _mention_title(doc: Document, m: Mention, status: str) -> str:
    parts = [f"{m.id} {m.label}", f"kind: {m.kind or mention_kind(m)}"]
    cls = chemdner_class(m)
    if cls:
        parts.append(f"class: {cls}")
    if m.head:
        parts.append(f"head: {m.head}")
    parts.append(f"rule: {m.rule or '-'}")
    if m.ner_rule:
        parts.append(f"NER rule: {m.ner_rule}")
    if m.confidence is not None:
        parts.append(f"confidence: {m.confidence:.2f}")
    if status:
        parts.append(STATUS_TEXT[status])
    text = m.text or doc.span_text(m.spans)
    return f"{text}\n" + "\n".join(parts)


def _depth(node: Node) -> int:
    """How many fragments deep the fragments inside ``node`` nest."""
    return max((1 + _depth(c) for c in node.children), default=0)


def _word_end(text: str, i: int) -> bool:
    return i >= len(text) or not (text[i].isalnum() or text[i] in "-'")


def _open_tag(doc: Document, node: Node, mentions: dict[str, Mention], marks: Marks | None) -> str:
    assert node.piece is not None
    m = mentions[node.piece.mention]
    status = marks.mentions.get(m.id, "") if marks else ""
    classes = ["m", f"k-{mention_kind(m)}"]
    if status:
        classes.append(f"st-{status}")
    if node.piece.count > 1:
        classes.append("disc")
    depth = _depth(node)
    if depth:
        classes.append(f"o{min(depth, 3)}")
    # a fragment cut where a crossing mention begins or ends: no rounded corner there
    if node.start > node.piece.start:
        classes.append("cut-l")
    if node.end < node.piece.end:
        classes.append("cut-r")
    attrs = [
        f'class="{" ".join(classes)}"',
        f'data-m="{esc(m.id)}"',
        f'data-p="{node.piece.index}"',
        f'title="{esc(_mention_title(doc, m, status))}"',
    ]
    cls = chemdner_class(m)
    # the class tag goes after the mention, unless that would split a word (it is in the title)
    if cls and node.end == m.end and _word_end(doc.text, node.end):
        attrs.append(f'data-tag="{esc(cls)}"')
    return f"<span {' '.join(attrs)}>"


# Inside long words (systematic names), lines may also break after these characters and
# before an opening bracket: a half-width pane then wraps ``...-1,3,5-triazine`` or
# ``(triphenylphosphine)palladium`` at a natural place instead of anywhere.
LONG_WORD = 14
BREAK_AFTER = "-,)]}/"
BREAK_BEFORE = "([{"
_WORD = re.compile(rf"\S{{{LONG_WORD},}}")


def break_points(text: str) -> set[int]:
    """Offsets inside long words where ``text`` may wrap (a ``<wbr>`` goes before them);
    never less than 3 characters from either end of the word."""
    points = set()
    for w in _WORD.finditer(text):
        a, b = w.span()
        for i in range(a + 3, b - 2):
            prev, cur = text[i - 1], text[i]
            if (prev in BREAK_AFTER and cur not in BREAK_AFTER) or (
                cur in BREAK_BEFORE and prev not in BREAK_BEFORE + BREAK_AFTER
            ):
                points.add(i)
    return points


def _text(doc: Document, a: int, b: int, breaks: set[int]) -> str:
    """Escaped ``doc.text[a:b]`` with ``<wbr>`` at the break points in it."""
    cuts = sorted(i for i in breaks if a <= i < b) if breaks else []
    if not cuts:
        return esc(doc.text[a:b])
    return "<wbr>".join(esc(doc.text[x:y]) for x, y in pairwise([a, *cuts, b]))


def _breakable(text: str) -> str:
    """Escaped ``text`` with ``<wbr>`` at its break points."""
    return _text(Document("", text), 0, len(text), break_points(text))


def _fragments_html(
    doc: Document,
    node: Node,
    mentions: dict[str, Mention],
    marks: Marks | None,
    breaks: set[int],
) -> str:
    out, pos = [], node.start
    for child in node.children:
        out.append(_text(doc, pos, child.start, breaks))
        out.append(_open_tag(doc, child, mentions, marks))
        out.append(_fragments_html(doc, child, mentions, marks, breaks))
        out.append("</span>")
        pos = child.end
    out.append(_text(doc, pos, node.end, breaks))
    return "".join(out)


def text_html(doc: Document, marks: Marks | None = None) -> str:
    """The document text with every mention piece wrapped in (nested) spans, and break
    opportunities inside long names."""
    mentions = doc.mention_index()
    pieces = [
        Piece(a, b, m.id, i, len(m.spans)) for m in doc.mentions for i, (a, b) in enumerate(m.spans)
    ]
    tree = nest(pieces, len(doc.text))
    return _fragments_html(doc, tree, mentions, marks, break_points(doc.text))


def arcs(doc: Document, marks: Marks | None = None) -> list[dict[str, str]]:
    """The relations of ``doc`` as the JSON records ``page.js`` draws."""
    known = doc.mention_index()
    out = []
    for i, r in enumerate(doc.relations):
        if r.head not in known or r.tail not in known:
            continue
        key = relation_key(doc, i)
        out.append(
            {
                "id": key,
                "label": r.label,
                "short": SHORT_LABELS.get(r.label, r.label),
                "head": r.head,
                "tail": r.tail,
                "rule": r.rule or "",
                "status": marks.relations.get(key, "") if marks else "",
                "cls": f"l-{slug(r.label)}",
            }
        )
    return out


def _mention_cell(doc: Document, mentions: dict[str, Mention], mid: str) -> str:
    m = mentions.get(mid)
    if m is None:
        return f'<td class="missing">{esc(mid)} (missing)</td>'
    text = m.text or doc.span_text(m.spans)
    return f'<td><span class="rid">{esc(mid)}</span> {_breakable(text)}</td>'


def relation_table(doc: Document, marks: Marks | None = None) -> str:
    """The relations as a plain table: status (only when compared with gold), label,
    anaphor, antecedent, rule."""
    if not doc.relations:
        return '<p class="none">No relations.</p>'
    mentions = doc.mention_index()
    rows = []
    for i, r in enumerate(doc.relations):
        key = relation_key(doc, i)
        status = marks.relations.get(key, "") if marks else ""
        cell = f'<td class="status">{esc(STATUS_TEXT.get(status, ""))}</td>' if marks else ""
        rows.append(
            f'<tr class="st-{status or "none"}" data-rel="{esc(key)}">{cell}'
            f'<td class="lab l-{slug(r.label)}" title="{esc(r.label)}">'
            f"{esc(SHORT_LABELS.get(r.label, r.label))}</td>"
            f"{_mention_cell(doc, mentions, r.head)}{_mention_cell(doc, mentions, r.tail)}"
            f'<td class="rule">{esc(r.rule or "-").replace("_", "_<wbr>")}</td></tr>'
        )
    status = '<th class="status">status</th>' if marks else ""
    return (
        f'<table class="rels"><thead><tr>{status}<th class="lab">relation</th><th>anaphor</th>'
        '<th>antecedent</th><th class="rule">rule</th></tr></thead><tbody>'
        + "".join(rows) + "</tbody></table>"
    )


def _role_title(r: Role, roles: dict[str, Role], status: str = "") -> str:
    parts = [r.text, f"{r.id} {r.label}", f"rule: {r.rule or '-'}"]
    if r.args:
        parts.append("acts on: " + ", ".join(
            f"{a} {roles[a].text}" if a in roles else a for a in r.args))
    if status:
        parts.append(STATUS_TEXT[status])
    return "\n".join(parts)


def _roles_fragments(doc: Document, node: Node, roles: dict[str, Role], breaks: set[int],
                     marks: Marks | None = None) -> str:
    out, pos = [], node.start
    for child in node.children:
        assert child.piece is not None
        r = roles[child.piece.mention]
        status = marks.roles.get(r.id, "") if marks else ""
        attrs = [f'class="r r-{slug(r.label)}{f" st-{status}" if status else ""}"',
                 f'data-r="{esc(r.id)}"', f'title="{esc(_role_title(r, roles, status))}"']
        if r.args:
            attrs.append(f'data-args="{esc(" ".join(r.args))}"')
        out.append(_text(doc, pos, child.start, breaks))
        inner = _roles_fragments(doc, child, roles, breaks, marks)
        out.append(f"<span {' '.join(attrs)}>{inner}</span>")
        pos = child.end
    out.append(_text(doc, pos, node.end, breaks))
    return "".join(out)


def roles_html(doc: Document, marks: Marks | None = None) -> str:
    """The document text with its ChEMU 2020 roles wrapped in spans (label, rule and, for a
    trigger, what it acts on in the title; ``data-args``: the ids of those roles); against
    gold, each marked ``st-tp``, ``st-fp`` or ``st-fn``."""
    roles = {r.id: r for r in doc.roles}
    tree = nest([Piece(r.start, r.end, r.id) for r in doc.roles], len(doc.text))
    return _roles_fragments(doc, tree, roles, break_points(doc.text), marks)


def steps_table(doc: Document) -> str:
    """The trigger words of the document's steps, with what each acts on and its rule."""
    roles = {r.id: r for r in doc.roles}
    triggers = [r for r in doc.roles if r.args or r.label in ("REACTION_STEP", "WORKUP")]
    if not triggers:
        return '<p class="none steps">No step triggers.</p>'
    rows = []
    for r in triggers:
        args = ", ".join(
            f'<span class="rid">{esc(a)}</span> {_breakable(roles[a].text)}' if a in roles
            else esc(a) for a in r.args
        )
        rows.append(
            f'<tr data-r="{esc(r.id)}"><td class="lab"><span class="r r-{slug(r.label)}">'
            f"{esc(ROLE_SHORT.get(r.label, r.label))}</span></td>"
            f'<td><span class="rid">{esc(r.id)}</span> {esc(r.text)}</td><td>{args}</td>'
            f'<td class="rule">{esc(r.rule or "-").replace("_", "_<wbr>")}</td></tr>'
        )
    return (
        '<table class="steps"><thead><tr><th class="lab">trigger</th><th>word</th>'
        '<th>acts on</th><th class="rule">rule</th></tr></thead><tbody>'
        + "".join(rows) + "</tbody></table>"
    )


def panel(
    doc: Document, title: str, side: str, marks: Marks | None = None, above: str = ""
) -> str:
    """One annotated text (``side`` is "pred" or "gold") with its arcs and relation table,
    and, when the document has roles, the roles view of its text and its step triggers.

    ``above`` is HTML placed between the heading and the text (e.g. a reaction scheme as
    inline SVG); it is inserted as given, so the caller escapes it.
    """
    data = esc(json.dumps(arcs(doc, marks), ensure_ascii=False, sort_keys=True))
    slot = f'<div class="above">{above}</div>' if above else ""
    roles = (f'<div class="text roles">{roles_html(doc, marks)}</div>{steps_table(doc)}'
             if doc.roles else "")
    classes = f"panel {side}" + (" has-roles" if doc.roles else "")
    return (
        f'<div class="{classes}"><h3>{esc(title)}</h3>{slot}'
        f'<div class="text" data-arcs="{data}">{text_html(doc, marks)}</div>{roles}'
        f"{relation_table(doc, marks)}</div>"
    )


def reactions_of(doc: Document) -> list[Reaction]:
    """The reaction records a document carries (``doc.meta["reactions"]``)."""
    return list(doc.meta.get("reactions") or [])  # type: ignore[call-overload]


def _amount(c) -> str:  # noqa: ANN001  (a reaction Component)
    a = c.amount
    return ", ".join(q.text or f"{q.value:g} {q.unit}" for q in
                     (a.mass, a.volume, a.moles, a.equivalents, a.concentration) if q)


def components_table(reactions: Sequence[Reaction]) -> str:
    """Every component of the reactions: role, name, amount, structure and rule."""
    rows = []
    for r in reactions:
        for c in r.components():
            how = c.structure.label if c.structure is not None else "not resolved"
            rows.append(
                f'<tr><td>{esc(r.id)}</td><td>{esc(c.role)}</td><td>{_breakable(c.name)}</td>'
                f"<td>{esc(_amount(c))}</td><td>{esc(how)}</td>"
                f'<td class="rule">{esc(c.rule).replace("_", "_<wbr>")}</td></tr>'
            )
    return (
        '<table class="components"><thead><tr><th>reaction</th><th>role</th><th>name</th>'
        '<th>amount</th><th>structure</th><th class="rule">rule</th></tr></thead><tbody>'
        + "".join(rows) + "</tbody></table>"
    )


def reactions_panel(doc: Document) -> str:
    """The reactions of a document shown without its text (``chemie reactions`` output):
    their schemes and a table of their components."""
    reactions = reactions_of(doc)
    return (f'<div class="panel pred"><h3>Reactions</h3><div class="above">'
            f"{schemes(reactions)}</div>{components_table(reactions)}</div>")


@dataclass
class Summary:
    """Counts for the table of contents / index."""

    doc_id: str
    anchor: str
    mentions: int
    relations: int
    gold: int | None = None
    tp: int | None = None
    fp: int | None = None
    fn: int | None = None
    note: str = ""
    roles: int = 0
    reactions: int = 0
    role_marks: tuple[int, int, int] | None = None  # roles against gold: correct, FP, FN


def _counts_html(s: Summary) -> str:
    parts = [f"{s.mentions} mentions", f"{s.relations} relations"]
    if s.roles:
        parts.append(f"{s.roles} roles")
    if s.reactions:
        parts.append(f"{s.reactions} reactions")
    if s.gold is not None:
        parts.append(f"{s.gold} gold")
    if s.tp is not None:
        parts.append(
            f'<span class="st-tp">{s.tp} correct</span>, <span class="st-fp">{s.fp} FP</span>, '
            f'<span class="st-fn">{s.fn} FN</span>'
        )
    if s.role_marks is not None:
        tp, fp, fn = s.role_marks
        parts.append(f'roles: <span class="st-tp">{tp} correct</span>, '
                     f'<span class="st-fp">{fp} FP</span>, <span class="st-fn">{fn} FN</span>')
    return " · ".join(parts)


def document_section(
    pred: Document, gold: Document | None = None, anchor: str = "doc", nav: str = ""
) -> tuple[str, Summary]:
    """The ``<section>`` for one document (and its gold), and its summary counts."""
    reactions = reactions_of(pred)
    summary = Summary(pred.id, anchor, len(pred.mentions), len(pred.relations),
                      roles=len(pred.roles), reactions=len(reactions))
    above = schemes(reactions)
    if not pred.text and reactions:
        body = reactions_panel(pred)
    elif gold is None:
        body = panel(pred, "Annotations", "pred", above=above)
    else:
        summary.gold = len(gold.relations)
        if gold.text != pred.text:
            summary.note = "gold text differs: not compared"
            body = panel(pred, "Predicted", "pred", above=above) + panel(gold, "Gold", "gold")
        else:
            pm, gm = compare(pred, gold)
            if roles_only(gold):
                summary.gold = None
            else:
                summary.tp, summary.fp = pm.count("tp"), pm.count("fp")
                summary.fn = gm.count("fn")
            if gold.roles:
                statuses = [*pm.roles.values(), *gm.roles.values()]
                summary.role_marks = (list(pm.roles.values()).count("tp"),
                                      statuses.count("fp"), statuses.count("fn"))
            body = (panel(pred, "Predicted", "pred", pm, above)
                    + panel(gold, "Gold", "gold", gm))
    note = f' <span class="note">{esc(summary.note)}</span>' if summary.note else ""
    section = (
        f'<section class="doc" id="{esc(anchor)}" data-doc="{esc(pred.id)}">{nav}'
        f"<h2>{esc(pred.id)}</h2>"
        f'<p class="counts">{_counts_html(summary)}{note}</p>'
        f'<div class="panels{" two" if gold is not None else ""}">{body}</div></section>'
    )
    return section, summary


VIEWS = (
    '<span class="views">view: <label><input type="radio" name="view" value="anaphora" '
    'checked> mentions and links</label> <label><input type="radio" name="view" '
    'value="roles"> reaction roles (ChEMU 2020)</label></span>'
)


def _role_legend(labels: set[str], with_gold: bool) -> str:
    """The role labels of the page, in palette order (shown in the roles view); against
    gold, the false positive and false negative marks too."""
    known = {label: i for i, label in enumerate(ROLE_ORDER)}
    items = [
        f'<span class="r r-{slug(label)}">{esc(ROLE_SHORT.get(label, label))}</span>'
        for label in sorted(labels, key=lambda lab: (known.get(lab, len(known)), lab))
    ]
    if with_gold:
        items += ['<span class="r st-fp">false positive</span>',
                  '<span class="r st-fn">false negative</span>']
    return f'<span class="lg-roles">{" ".join(items)}</span>'


def _legend(docs: Iterable[Document], with_gold: bool) -> str:
    kinds: set[str] = set()
    labels: set[str] = set()
    role_labels: set[str] = set()
    for d in docs:
        kinds.update(mention_kind(m) for m in d.mentions)
        labels.update(r.label for r in d.relations)
        role_labels.update(r.label for r in d.roles)
    order = {k: i for i, k in enumerate(KIND_ORDER)}
    items = [
        f'<span class="m k-{k}">{esc(KIND_SHORT.get(k, k))}</span>'
        for k in sorted(kinds, key=lambda k: (order.get(k, len(order)), k))
    ]
    known = {label: i for i, label in enumerate(SHORT_LABELS)}
    items += [
        f'<span class="lab l-{slug(label)}">{esc(SHORT_LABELS.get(label, label))}</span>'
        for label in sorted(labels, key=lambda lab: (known.get(lab, len(known)), lab))
    ]
    if with_gold:
        items += [
            '<span class="m st-fp">false positive</span>',
            '<span class="m st-fn">false negative</span>',
        ]
    if not role_labels:
        return f'<div class="legend">{" ".join(items)}</div>' if items else ""
    return (f'<div class="legend">{VIEWS} <span class="lg-anaphora">{" ".join(items)}</span>'
            f"{_role_legend(role_labels, with_gold)}</div>")


def page(title: str, body: str, legend: str = "") -> str:
    """A complete HTML page with the inline stylesheet and script."""
    return Template(_resource("page.html")).substitute(
        title=esc(title),
        style=_resource("page.css") + css(),
        script=_resource("page.js"),
        legend=legend,
        body=body,
    )


def summary_table(summaries: Sequence[Summary], href: str = "#{anchor}") -> str:
    """A table of contents: one row per document, linking to ``href`` (formatted)."""
    with_gold = any(s.gold is not None for s in summaries)
    with_notes = any(s.note for s in summaries)
    with_roles = any(s.roles for s in summaries)
    with_reactions = any(s.reactions for s in summaries)
    with_role_marks = any(s.role_marks is not None for s in summaries)
    head = "<th>document</th><th>mentions</th><th>relations</th>"
    if with_roles:
        head += "<th>roles</th>"
    if with_reactions:
        head += "<th>reactions</th>"
    if with_gold:
        head += "<th>gold</th><th>correct</th><th>FP</th><th>FN</th>"
    if with_role_marks:
        head += "<th>roles correct</th><th>roles FP</th><th>roles FN</th>"
    if with_notes:
        head += "<th>note</th>"
    rows = []
    for s in summaries:
        link = esc(href.format(anchor=s.anchor))
        cells = [f'<a href="{link}">{esc(s.doc_id)}</a>', s.mentions, s.relations]
        if with_roles:
            cells.append(s.roles)
        if with_reactions:
            cells.append(s.reactions)
        if with_gold:
            cells += [s.gold, s.tp, s.fp, s.fn]
        if with_role_marks:
            cells += list(s.role_marks or (None, None, None))
        if with_notes:
            cells.append(esc(s.note))
        rows.append("<tr>" + "".join(f"<td>{'' if c is None else c}</td>" for c in cells) + "</tr>")
    body = "".join(rows)
    return f'<table class="toc"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def anchors(docs: Sequence[Document]) -> list[str]:
    """Unique, URL- and file-name-safe anchors for the documents (``doc-<id>``)."""
    seen: dict[str, int] = {}
    out = []
    for d in docs:
        base = "doc-" + re.sub(r"[^A-Za-z0-9_.-]+", "_", d.id)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(base if n == 0 else f"{base}-{n + 1}")
    return out


def render_page(
    pairs: Sequence[tuple[Document, Document | None]], title: str = "chemie show"
) -> str:
    """One page for all documents; a table of contents first when there are several."""
    docs = [p for p, _ in pairs]
    sections, summaries = [], []
    for (pred, gold), anchor in zip(pairs, anchors(docs), strict=True):
        section, summary = document_section(pred, gold, anchor)
        sections.append(section)
        summaries.append(summary)
    toc = f'<nav class="contents">{summary_table(summaries)}</nav>' if len(pairs) > 1 else ""
    with_gold = any(g is not None for _, g in pairs)
    legend_docs = docs + [g for _, g in pairs if g is not None]
    return page(title, toc + "".join(sections), _legend(legend_docs, with_gold))


def render_site(
    pairs: Sequence[tuple[Document, Document | None]], title: str = "chemie show"
) -> dict[str, str]:
    """``{file name: page}``: ``index.html`` plus one ``doc-<id>.html`` page per document."""
    docs = [p for p, _ in pairs]
    names = anchors(docs)
    with_gold = any(g is not None for _, g in pairs)
    files, summaries = {}, []
    for i, ((pred, gold), anchor) in enumerate(zip(pairs, names, strict=True)):
        links = ['<a href="index.html">index</a>']
        if i > 0:
            links.append(f'<a href="{esc(names[i - 1])}.html">previous</a>')
        if i + 1 < len(names):
            links.append(f'<a href="{esc(names[i + 1])}.html">next</a>')
        nav = f'<nav class="pager">{" · ".join(links)}</nav>'
        section, summary = document_section(pred, gold, anchor, nav)
        summaries.append(summary)
        legend_docs = [pred] + ([gold] if gold is not None else [])
        files[f"{anchor}.html"] = page(
            f"{title}: {pred.id}", section, _legend(legend_docs, with_gold)
        )
    index = f'<nav class="contents">{summary_table(summaries, "{anchor}.html")}</nav>'
    files["index.html"] = page(title, index)
    return files
