"""Reaction roles (factory ``chemie_roles``): ChEMU 2020 labels from the whole pipeline.

Runs after ``chemie_bridging`` and labels spans with the ChEMU 2020 labels: compounds by
their role in the reaction (REACTION_PRODUCT, STARTING_MATERIAL, REAGENT_CATALYST, SOLVENT,
OTHER_COMPOUND), conditions and quantities (TIME, TEMPERATURE, YIELD_PERCENT, YIELD_OTHER),
EXAMPLE_LABEL, and the trigger words of the steps (REACTION_STEP, WORKUP). Compounds come
from the NER's chemicals and the mentions; their roles from the rules of
``rules/roles.yaml`` over the mention's action (argument role, phase), its place (heading
or body) and the words around it; triggers from the action parser's actions. Writes
:class:`chemie.model.Role` objects to ``doc._.roles`` (each names its rule; a trigger lists
the ids of the roles it acts on) and the token-aligned ones to ``doc.spans["roles"]``.
"""

from __future__ import annotations

import bisect

from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from chemie.errors import InputError
from chemie.extensions import roles_of
from chemie.model import Role
from chemie.roles.anchors import Anchors
from chemie.roles.compounds import (
    AQUEOUS_RULE,
    BRACKET_RULE,
    COREF_RULE,
    assign_roles,
    bracket_labels,
    find_compounds,
    merge_heading_names,
)
from chemie.roles.conditions import (
    find_amounts,
    find_conditions,
    find_example_labels,
    find_percents,
    heading_end,
)
from chemie.roles.context import RoleContext, role_context
from chemie.roles.decide import compile_rules
from chemie.roles.found import Found
from chemie.roles.lexicon import load_role_lexicon
from chemie.roles.phases import assign_phases
from chemie.roles.table import load_table
from chemie.roles.triggers import find_triggers, modifiers, rules_by_class
from chemie.roles.yields import YieldFinder

SPANS_KEY = "roles"
PRODUCT = "REACTION_PRODUCT"
# the rules written in code: each must be named in the table's ``builtin`` section
BUILTIN = ("heading_label", "opening_label", "product_yield", "yield_bracket", "yield_word",
           "yield_amount", AQUEOUS_RULE, BRACKET_RULE, COREF_RULE)


class RoleLabeller:
    """Labels compounds by role, conditions, yields, example labels and trigger words."""

    def __init__(self, rules: str, lexicon: str):
        self.table = load_table(rules)
        self.lexicon = load_role_lexicon(lexicon)
        self.decide = compile_rules(self.table)
        self.triggers = rules_by_class(self.table)
        named = {r.name for r in self.table.builtin}
        for name in BUILTIN:
            if name not in named:
                raise InputError(self.table.path, None, f"builtin.{name}: missing")

    def __call__(self, doc: Doc) -> Doc:
        ctx = role_context(doc, self.table.actions)
        if not ctx.tokens.text:
            return doc
        table = self.table
        anchors = Anchors(ctx, table.anchor_words)
        conditions = find_conditions(ctx, table, anchors)
        ctx.modifiers = modifiers(ctx, table)
        phases = assign_phases(ctx, table, conditions)
        ctx.phase_of = {id(a): p for a, p in zip(ctx.actions, phases, strict=True)}
        compounds = find_compounds(ctx, table)
        heading = heading_end(ctx, table, compounds)
        compounds = merge_heading_names(ctx.text, compounds, heading, table.words["names"])
        finder = YieldFinder(ctx, find_amounts(ctx, anchors), find_percents(ctx, anchors))
        stated = {f.start for f in compounds if finder.has_yield_after(f)}
        entities = bracket_labels(ctx.text, assign_roles(ctx, compounds, table, heading,
                                                         stated, self.lexicon, self.decide))
        accepted: list[Found] = []
        _accept(accepted, find_example_labels(ctx, heading))
        _accept(accepted, entities)
        _accept(accepted, finder.bracketed())
        for f in entities:
            if f.label != PRODUCT:
                continue
            amounts, percents = finder.after(f)
            if not amounts and not percents:
                amounts, percents = finder.before(f)
            rule = "product_yield"
            _accept(accepted, [Found(a.start, a.end, "amount", "YIELD_OTHER", rule,
                                     mention=f.mention) for a in amounts])
            _accept(accepted, [Found(p.start, p.end, "percent", "YIELD_PERCENT", rule,
                                     mention=f.mention) for p in percents])
        ending = table.words["ending_classes"]
        verbs = [(a.start, a.end) for a in ctx.actions if a.label.lower() in ending]
        _accept(accepted, finder.after_verbs(verbs))
        _accept(accepted, conditions)
        _accept(accepted, find_triggers(ctx, table, accepted, self.triggers))
        _write(doc, ctx, accepted)
        return doc


def _accept(accepted: list[Found], found: list[Found]) -> None:
    """Add the spans of ``found`` that overlap no span accepted before (``accepted`` is kept
    in text order)."""
    starts = [g.start for g in accepted]
    for f in found:
        if f.end <= f.start:
            continue
        i = bisect.bisect_left(starts, f.end)  # spans starting before f ends: 0..i-1
        if i and accepted[i - 1].end > f.start:
            continue
        if i < len(accepted) and accepted[i].start < f.end:
            continue
        accepted.insert(i, f)
        starts.insert(i, f.start)


class _LabelIds:
    """Label string -> its id in the string store of the vocabulary last seen (a Span made
    with the id costs a quarter of one made with the string)."""

    def __init__(self) -> None:
        self.vocab: object = None
        self.ids: dict[str, int] = {}

    def of(self, doc: Doc) -> dict[str, int]:
        if self.vocab is not doc.vocab:
            self.vocab, self.ids = doc.vocab, {}
        return self.ids


_LABEL_IDS = _LabelIds()


def _write(doc: Doc, ctx: RoleContext, found: list[Found]) -> None:
    """``doc._.roles`` (ids T1, T2 … in text order) and ``doc.spans["roles"]`` (the roles
    whose both ends are token boundaries)."""
    text, idx, ends = ctx.text, ctx.tokens.idx, ctx.ends
    names = [f"T{n}" for n in range(1, len(found) + 1)]
    ids = dict(zip(map(id, found), names, strict=True))
    roles = roles_of(doc)
    spans = []
    bisect_left = bisect.bisect_left
    labels = _LABEL_IDS.of(doc)
    n_tokens = len(idx)
    for f, name in zip(found, names, strict=True):
        start, end, label = f.start, f.end, f.label
        args = [ids[id(a)] for a in f.args if id(a) in ids] if f.args else []
        roles.append(Role(name, start, end, label, text[start:end], f.rule, args))
        i = bisect_left(idx, start)
        if i < n_tokens and idx[i] == start:
            j = bisect_left(ends, end, i)
            if j < n_tokens and ends[j] == end:
                label_id = labels.get(label)
                if label_id is None:
                    label_id = labels[label] = doc.vocab.strings.add(label)
                spans.append(Span(doc, i, j + 1, label=label_id))
    doc.spans[SPANS_KEY] = SpanGroup(doc, name=SPANS_KEY, spans=spans)


@Language.factory("chemie_roles",
                  default_config={"rules": "roles.yaml", "lexicon": "chemu2020_roles.tsv"})
def make_role_labeller(nlp: Language, name: str, rules: str, lexicon: str) -> RoleLabeller:
    """The role labeller configured from a rule table in ``rules/`` and a role lexicon in
    ``lexicons/`` (or a path)."""
    return RoleLabeller(rules, lexicon)
