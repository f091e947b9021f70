"""The records of a document: one reaction per step, stage or example that makes a product.

:func:`records` groups the sections of :func:`chemie.reactions.sections.plan`: a section
that makes a product (one labelled by ``chemie_roles``, or its title) ends a reaction, and a
section without one gives its compounds to the next; a general procedure without a product
of its own is a template (rule ``general_procedure``), not a reaction. Then, reaction by
reaction in text order:

1. references to the products of earlier reactions become its reactants
   (:class:`chemie.reactions.references.References`: "the product of Step 1", "the
   imidate", "compound 6");
2. its product is its section's title, else (the last reaction) the document's title, else
   the last product it names (:func:`chemie.reactions.assemble.choose_products`);
3. an input with the product's structure that refers to the title ("the title compound" as
   a starting material, the title repeated) takes no part (``is_the_product``); one named
   in the body or reached by a step reference means the product is wrong: the record is
   written without it and says so (problem ``product_is_reactant``);
4. the structure rules (``check``) and the record's components, yield, conditions and steps.

Last, an example that says which general procedure or example it follows inherits from it
when that is in the document (:func:`chemie.reactions.procedures.inherit`); otherwise its
``refers_to`` is left unresolved for the documents of its input
(:mod:`chemie.reactions.inputs`). Records are numbered in text order; templates are named
``DOC-procedure[-LABEL]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import regex

from chemie.model.reaction import TEMPLATE, Problem, Reaction, Reference, Replacement
from chemie.reactions.assemble import (
    INPUTS,
    ROLE_LISTS,
    Candidate,
    DocView,
    _after_reaction,
    _aliases,
    _component,
    _key,
    _merge_products,
    choose_products,
    conditions,
    steps,
    yield_of,
)
from chemie.reactions.procedures import inherit, reference_in, replacements_in
from chemie.reactions.procedures_table import ProcedureTable, procedure_table
from chemie.reactions.references import STEP_REFERENCE, Made, References
from chemie.reactions.sections import HEADING, PROCEDURE, REFERENCE_STAGE, STAGE, Plan, plan
from chemie.reactions.table import ReactionTable

_TITLE = regex.compile(r"(?i)\b(?:title|titled|subject|desired|target|final)\b")

# the structure tier of the roles over one reaction's candidates (the problems it finds)
Check = Callable[[list[Candidate]], list[Problem] | None]
# what may add implied species to one reaction's candidates (its text [a, b))
Implied = Callable[[DocView, list[Candidate], int, int], None]


@dataclass
class Group:
    """The sections ``first`` to ``last`` (indexes) of one reaction; ``template``: a
    general procedure without a product of its own."""

    first: int
    last: int
    template: bool = False


@dataclass
class _Context:
    view: DocView
    table: ReactionTable
    steps: ProcedureTable
    plan: Plan
    check: Check | None
    implied: Implied | None
    has_group: Callable[[str, str], bool] | None


def records(view: DocView, table: ReactionTable, found: list[Candidate],
            check: Check | None = None, implied: Implied | None = None, *,
            sections: Plan | None = None, steps_table: ProcedureTable | None = None,
            has_group: Callable[[str, str], bool] | None = None) -> list[Reaction]:
    """The records of a document (see the module docstring): ``found`` its candidates (in
    text order; references found in the text are added); per reaction, ``implied`` may add
    species the text implies, then ``check`` (the structure rules) sees its candidates and
    returns the problems its record states; ``sections`` the document's plan (made here when
    not given), ``has_group`` whether a structure has a substructure (SMARTS; None when
    structures are off)."""
    steps_table = steps_table or procedure_table()
    sections = sections or plan(view, steps_table)
    ctx = _Context(view, table, steps_table, sections, check, implied, has_group)
    refs = References(view, steps_table, table, sections, found, has_group)
    _heading_words(sections, found)
    titles = _titles(sections, found)
    title = _document_title(sections, found, titles)
    groups = _groups(sections, found, titles, title)
    last = max((i for i, g in enumerate(groups) if not g.template), default=-1)
    made: list[Made] = []
    out: list[Reaction] = []
    kept: dict[int, Reference] = {}  # what each record says it follows, by id(record)
    for i, g in enumerate(groups):
        a, b = sections.sections[g.first].start, sections.sections[g.last].end
        members = [c for c in found if (c is title and i == last)
                   or (g.first <= c.section <= g.last and c is not title)]
        if g.template:
            refs.placeholders(members)
            out.append(_template(ctx, g, members, a, b))
            continue
        new = refs.resolve(members, made, a, b, found)
        members.extend(new)
        found.extend(new)
        own = titles.get(g.last)
        chosen = choose_products(members, own or (title if i == last and _makes_title(
            title, members) else None), "section_title" if own is not None else "title_product")
        context = sections.sections[g.last].context
        reference = _reference(ctx, members, context if context >= 0 else a, b)
        reaction = _reaction(ctx, g, members, chosen, made, a, b)
        if reference is not None:
            kept[id(reaction)] = reference
        if chosen is not None and chosen.role == "product":
            made.append(Made(sections.sections[g.last], chosen))
        out.append(reaction)
    _number(view, out)
    _follow(ctx, out, kept)
    return out


def _reaction(ctx: _Context, g: Group, members: list[Candidate], chosen: Candidate | None,
              made: list[Made], a: int, b: int) -> Reaction:
    """The record of one reaction's members (their product chosen; numbered later)."""
    problems = inputs_like_product(ctx.plan, members, chosen, made)
    _after_reaction(ctx.view, ctx.table, members, b)
    if ctx.implied is not None:
        ctx.implied(ctx.view, members, a, b)
    if ctx.check is not None:
        problems.extend(ctx.check(members) or [])
    reaction = Reaction("", ctx.view.doc_id, _rule(ctx.plan, g), problems=problems,
                        label=_label(ctx.plan, g))
    _fill(ctx, reaction, members, a, b)
    return reaction


def _fill(ctx: _Context, reaction: Reaction, members: list[Candidate], a: int, b: int) -> None:
    _aliases(ctx.view.text, members)
    for c in members:
        if c.role in ROLE_LISTS:
            getattr(reaction, ROLE_LISTS[c.role]).append(_component(c))
    _merge_products(reaction)
    reaction.yield_ = yield_of(ctx.view, ctx.table, a, b)
    reaction.conditions = conditions(ctx.view, ctx.table, a, b)
    reaction.steps = steps(ctx.view, a, b)


def _template(ctx: _Context, g: Group, members: list[Candidate], a: int, b: int) -> Reaction:
    """A general procedure without a product: the template its examples inherit from."""
    section = ctx.plan.sections[g.last]
    label = section.label or (ctx.plan.label[1] if ctx.plan.label else "")
    rid = "-".join(x for x in (ctx.view.doc_id, "procedure", label) if x)
    reaction = Reaction(rid, ctx.view.doc_id, TEMPLATE, label=section.heading or None)
    _fill(ctx, reaction, [c for c in members if c.role != "product"], a, b)
    return reaction


def inputs_like_product(p: Plan, members: list[Candidate], chosen: Candidate | None,
                        made: list[Made]) -> list[Problem]:
    """Inputs with the product's structure (InChIKey connectivity block) are the product
    named again ("the title compound" taken for a starting material: ``is_the_product``),
    and take no part; unless the input is an earlier reaction's product (reached by a step
    reference, or made before) with the very structure (stereo too): then the product is
    wrong (``product_is_reactant``: it takes no part and the record says so)."""
    key = _key(chosen) if chosen is not None else None
    if key is None:
        return []
    earlier = {x.product.structure.inchikey for x in made if x.product.structure is not None}
    wrong = []
    for c in members:
        if c.role not in INPUTS or _key(c) != key:
            continue
        if _identical(c, chosen) and not _names_title(p, c) and (
                c.rule == STEP_REFERENCE or c.structure.inchikey in earlier):
            wrong.append(c)
        else:
            c.role, c.rule = "none", "is_the_product"
    if not wrong:
        return []
    rule = "product_is_reactant"
    for c in members:
        if c.role == "product" and _key(c) == key:
            c.role, c.rule = "none", rule
    names = ", ".join(dict.fromkeys(c.name for c in wrong))
    return [Problem(rule, chosen.name, f"the product has the structure of its reactant "
                    f"{names}: no product written")]


def _identical(a: Candidate, b: Candidate) -> bool:
    """Whether two candidates have one structure, stereo and isotopes included (the whole
    InChIKey; a racemate resolved into its enantiomer is no such case)."""
    return a.structure is not None and b.structure is not None \
        and a.structure.inchikey == b.structure.inchikey


def _names_title(p: Plan, c: Candidate) -> bool:
    """Whether an input names the document's title rather than a reactant: a reference to
    it ("the title compound"), the title's own span or line, a name of the heading before
    the first action, or the title repeated as the body's first line (``line_break``)."""
    s = c.structure
    via_title = s is not None and s.how == "coreference" and s.rule in (
        "reference_to_title", "coreference_antecedent")
    return via_title or c.heading or c.start < max(p.title_end, p.body) \
        or c.label_rule == "line_break"


def _makes_title(title: Candidate | None, members: list[Candidate]) -> bool:
    """Whether the last reaction makes the document's title: always, unless the title is the
    target a step heading follows ("Example 13: NAME Step 1 …": ``heading_target`` of
    ``chemie_roles``) and the reaction names a product of its own (the snippet's step makes
    an intermediate)."""
    if title is None or title.label_rule != "heading_target":
        return title is not None
    return not any(c is not title and c.role == "product" and not _TITLE.search(c.text)
                   for c in members)


def _heading_words(p: Plan, found: list[Candidate]) -> None:
    """A compound span among a section heading's words ("General" of "General procedure A")
    takes no part (``heading_word``)."""
    for c in found:
        s = p.sections[c.section] if c.section < len(p.sections) else None
        if s is not None and s.title_at > s.start and s.start <= c.start < s.title_at:
            c.role, c.rule = "none", "heading_word"


def _titles(p: Plan, found: list[Candidate]) -> dict[int, Candidate]:
    """The title candidate of each section that has one (the first of its title spans)."""
    out: dict[int, Candidate] = {}
    for c in sorted(found, key=lambda c: c.start):
        if c.start in p.titles and c.start >= p.title_end:
            out.setdefault(c.section, c)
    return out


def _document_title(p: Plan, found: list[Candidate],
                    titles: dict[int, Candidate]) -> Candidate | None:
    """The document's title: the title of a document that opens with a label ("Example 10:
    NAME"), else the compound ``chemie_roles`` marks as the heading's product (unless it is
    a step's own title: "NAME Step 1: NAME1"), else the heading's target (NAME). Of each,
    one with a structure first."""
    if p.label is not None and 0 in titles and p.label[0] != "procedure":
        return titles[0]
    own = {id(c) for i, c in titles.items() if i > 0}
    marked = [c for c in found if c.heading and id(c) not in own]
    targets = [c for c in found if c.label_rule == "heading_target"]
    for pool in (marked, targets):
        if pool:
            return next((c for c in pool if c.structure is not None and c.structure.resolved),
                        pool[0])
    return None


def _groups(p: Plan, found: list[Candidate], titles: dict[int, Candidate],
            title: Candidate | None) -> list[Group]:
    """The reactions of a document: sections that make a product end one (a section without
    one gives its compounds to the next); a general procedure without a product is a
    template."""
    makes = {c.section for c in found if c.role == "product" and not c.heading
             and c is not title} | set(titles)
    out: list[Group] = []
    first = 0
    for i, s in enumerate(p.sections):
        if s.rule == PROCEDURE and i not in makes:
            out.append(Group(first, i, template=True))
            first = i + 1
        elif i in makes:
            out.append(Group(first, i))
            first = i + 1
    if not any(not g.template for g in out) and found and first < len(p.sections):
        out.append(Group(first, len(p.sections) - 1))
    return out


def _rule(p: Plan, g: Group) -> str:
    """The rule that made a record: the section kind that opened its first section."""
    opened = p.sections[g.first].rule
    if opened in (STAGE, REFERENCE_STAGE):
        return opened
    return "section_product" if opened in ("", HEADING, PROCEDURE) else opened


def _label(p: Plan, g: Group) -> str | None:
    """The record's label: the document's ("Example 10") and its section's ("Step 2")."""
    heading = p.sections[g.last].heading
    if heading and heading.lower() in p.label_text.lower():
        heading = ""
    return ", ".join(x for x in (p.label_text, heading) if x) or None


def _number(view: DocView, out: list[Reaction]) -> None:
    """Ids in text order (``DOC-1`` …); the rule of the only record is ``document_product``."""
    written = [r for r in out if r.rule != TEMPLATE]
    for n, r in enumerate(written, 1):
        r.id = f"{view.doc_id}-{n}" if view.doc_id else str(n)
    if len(written) == 1 and written[0].rule == "section_product":
        written[0].rule = "document_product"


def _reference(ctx: _Context, members: list[Candidate], a: int, b: int) -> Reference | None:
    """The procedure or example the reaction's text says it follows, with what it replaces
    (the old components named in the text take no part: ``replaced_component``)."""
    ref = reference_in(ctx.plan.references, a, b)
    if ref is None:
        return None
    for r in replacements_in(ctx.view.text, a, b, members, ctx.steps):
        old = r.old_candidate
        smiles = old.structure.smiles if old is not None and old.structure is not None else None
        if old is not None:
            old.role, old.rule = "none", "replaced_component"
        ref.replaced.append(Replacement(r.old, r.new.name if r.new is not None else None,
                                        smiles))
    return ref


def _follow(ctx: _Context, out: list[Reaction], kept: dict[int, Reference]) -> None:
    """Each record that says what it follows inherits from it when it is in the document
    (an earlier example, or a general procedure); else its reference waits for the input's
    other documents (``reason``)."""
    templates = [r for r in out if r.rule == TEMPLATE]
    for i, r in enumerate(out):
        ref = kept.get(id(r))
        if ref is None:
            continue
        source = _source(ctx, ref, templates, out[:i])
        if source is None:
            ref.reason = "not in this document"
            r.refers_to = ref
            continue
        inherit(r, source, ref, ctx.steps, has_group=ctx.has_group)
        r.rule = "procedure_example"


def _source(ctx: _Context, ref: Reference, templates: list[Reaction],
            earlier: list[Reaction]) -> Reaction | None:
    """The template or earlier record that ``ref`` names, in this document."""
    if ref.kind == "procedure":
        if not ref.label:
            return templates[0] if len(templates) == 1 else None
        return next((t for t in templates if _labelled(ctx, t, ref)), None)
    return next((r for r in reversed(earlier) if r.rule != TEMPLATE and _labelled(ctx, r, ref)),
                None)


def _labelled(ctx: _Context, r: Reaction, ref: Reference) -> bool:
    """Whether record ``r``'s label names what ``ref`` refers to ("Example 4")."""
    if not r.label:
        return False
    for part in r.label.split(", "):
        m = ctx.steps.compiled["document_label"].match(part)
        if m is not None and ctx.steps.kind(m.group("kind")) == ref.kind \
                and (m.group("label") or "").lower() == ref.label.lower():
            return True
    return False
