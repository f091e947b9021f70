"""Reaction roles (factory ``chemie_roles``): ChEMU 2020 labels from the whole pipeline.

Runs after ``chemie_bridging`` and labels spans with the ChEMU 2020 labels: compounds by
their role in the reaction (REACTION_PRODUCT, STARTING_MATERIAL, REAGENT_CATALYST, SOLVENT,
OTHER_COMPOUND), conditions and quantities (TIME, TEMPERATURE, YIELD_PERCENT, YIELD_OTHER),
EXAMPLE_LABEL, and the trigger words of the steps (REACTION_STEP, WORKUP). Compounds come
from the NER's chemicals and the mentions; their roles from the rules of
``rules/roles.yaml`` over the mention's action (argument role, phase), its place (heading
or body) and the words around it (a compound none of them labels: the reactant-or-reagent
stage, through the factory's ``decision``, by default ``chemie.text_tier.v1``, the text
tier of the decision the reaction records share); triggers from the action parser's
actions. Writes :class:`chemie.model.Role` objects to ``doc._.roles`` (each names its
rule; a trigger lists the ids of the roles it acts on) and the token-aligned ones to
``doc.spans["roles"]``.
"""

from __future__ import annotations

import bisect
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from chemie.context import ROLE_SPANS, roles_of
from chemie.model import Role
from chemie.resources import lexicon_path
from chemie.roles.anchors import Anchors
from chemie.roles.compounds import CompoundFinder, merge_heading_names
from chemie.roles.conditions import (
    find_amounts,
    find_conditions,
    find_example_labels,
    find_percents,
    heading_end,
)
from chemie.roles.context import Patterns, RoleContext, role_context
from chemie.roles.features import FeatureIndex
from chemie.roles.found import Found
from chemie.roles.labelling import assign_roles, bracket_labels
from chemie.roles.lexicon import load_role_lexicon
from chemie.roles.participants import ReactantOrReagent, StageDecision
from chemie.roles.phases import assign_phases
from chemie.roles.rules import RuleBook
from chemie.roles.table import RoleTable, role_table
from chemie.roles.triggers import TriggerFinder, modifiers
from chemie.roles.yields import YieldFinder
from chemie.saving import SavesTables, table_sources

SPANS_KEY = ROLE_SPANS
PRODUCT = "REACTION_PRODUCT"


class RoleLabeller(SavesTables):
    """Labels compounds by role, conditions, yields, example labels and trigger words
    (``to_disk`` saves the rule table, its vocabularies and the role lexicon; ``from_disk``
    reads them back); ``decision``: what the answer of its reactant-or-reagent stage goes
    through (see :mod:`chemie.roles.participants`)."""

    def __init__(self, rules: str | Path, lexicon: str | Path, decision: StageDecision):
        self.decision = decision
        self.rules_file, self.lexicon_file = Path(rules).name, Path(lexicon).name
        self.table_files = {**table_sources(rules), self.lexicon_file: lexicon_path(lexicon)}
        self._build(role_table(rules), load_role_lexicon(lexicon))

    def load_tables(self, files: dict[str, Path]) -> None:
        """Use the rule table and lexicon in ``files`` (see
        :class:`~chemie.saving.SavesTables`)."""
        self._build(role_table(files[self.rules_file]),
                    load_role_lexicon(files[self.lexicon_file]))

    def _build(self, table: RoleTable, lexicon: dict[str, str]) -> None:
        """Compile the rule table ``table``; ``lexicon``: name -> its training role."""
        self.table = table
        self.lexicon = lexicon
        self.find_compounds = CompoundFinder(table)
        self.rules = RuleBook(table.compounds)
        # the reactant-or-reagent stage: (context, compound) -> (label, rule) | None, its
        # own rules' answer through the decision it was given
        self.stage = self.decision(ReactantOrReagent(table))
        self.index = FeatureIndex(table.words, [*table.compounds, *table.reactant_or_reagent])
        self.patterns = Patterns(table.compiled, table.words["skipped_before"])
        self.find_triggers = TriggerFinder(table)
        self.extra_words = frozenset(table.extra_actions)
        self.anchor_words = table.anchor_words
        self.ending = table.words["ending_classes"]

    def __call__(self, doc: Doc) -> Doc:
        ctx = role_context(doc, self.table.extra_actions, self.extra_words)
        if not ctx.tokens.text:
            return doc
        ctx.patterns = self.patterns
        table = self.table
        anchors = Anchors(ctx, self.anchor_words)
        conditions = find_conditions(ctx, table, anchors)
        ctx.modifiers = modifiers(ctx, table)
        compounds = self.find_compounds(ctx)
        ctx.names = [(f.start, f.end) for f in compounds if f.kind == "compound"]
        phases = assign_phases(ctx, table, conditions)
        ctx.phase_of = {id(a): p for a, p in zip(ctx.actions, phases, strict=True)}
        heading = heading_end(ctx, table, compounds)
        compounds = merge_heading_names(ctx.text, compounds, heading, table.words["names"])
        finder = YieldFinder(ctx, find_amounts(ctx, anchors), find_percents(ctx, anchors))
        ctx.yields = finder
        entities = bracket_labels(ctx.text, assign_roles(ctx, compounds, heading,
                                                         self.lexicon, self.index, self.rules,
                                                         self.stage))
        accepted = _Accepted()
        accept = accepted.add
        accept(find_example_labels(ctx, heading))
        accept(entities)
        accept(finder.bracketed())
        for f in entities:
            if f.label != PRODUCT:
                continue
            rule = "product_yield"
            amounts, percents = finder.after(f)
            if not amounts and not percents:
                amounts, percents = finder.before(f)
            if not amounts and not percents:
                rule = "described_yield"
                amounts, percents = finder.described(f)
            if amounts:
                accept([Found(a.start, a.end, "amount", "YIELD_OTHER", rule,
                              mention=f.mention) for a in amounts])
            if percents:
                accept([Found(p.start, p.end, "percent", "YIELD_PERCENT", rule,
                              mention=f.mention) for p in percents])
        ending = self.ending
        verbs = [(a.start, a.end) for a in ctx.actions if a.label.lower() in ending]
        accept(finder.after_verbs(verbs))
        accept(finder.amount_percents(accepted.spans))
        accept(finder.yield_neighbours(accepted.spans))
        accept(conditions)
        accept(self.find_triggers(ctx, accepted.spans))
        _write(doc, ctx, accepted.spans)
        return doc


class _Accepted:
    """The spans accepted so far, in text order: a span overlapping one accepted before is
    left out."""

    __slots__ = ("spans", "starts")

    def __init__(self) -> None:
        self.spans: list[Found] = []
        self.starts: list[int] = []

    def add(self, found: list[Found]) -> None:
        """Accept the spans of ``found`` that overlap no span accepted before."""
        spans, starts = self.spans, self.starts
        bisect_left = bisect.bisect_left
        for f in found:
            start, end = f.start, f.end
            if end <= start:
                continue
            i = bisect_left(starts, end)  # spans starting before f ends: 0..i-1
            if i and spans[i - 1].end > start:
                continue
            if i < len(spans) and spans[i].start < end:
                continue
            spans.insert(i, f)
            starts.insert(i, start)


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


_NAMES: list[str] = []  # "T1", "T2" …: the role ids, made once


def _names(n: int) -> list[str]:
    """The first ``n`` role ids."""
    if len(_NAMES) < n:
        _NAMES.extend(f"T{k}" for k in range(len(_NAMES) + 1, 2 * n + 1))
    return _NAMES[:n]


def _write(doc: Doc, ctx: RoleContext, found: list[Found]) -> None:
    """``doc._.roles`` (ids T1, T2 … in text order) and ``doc.spans["roles"]`` (the roles
    whose both ends are token boundaries)."""
    text, idx, ends = ctx.text, ctx.tokens.idx, ctx.ends
    names = _names(len(found))
    ids = None
    append = roles_of(doc).append
    spans = []
    add_span = spans.append
    bisect_left = bisect.bisect_left
    labels = _LABEL_IDS.of(doc)
    n_tokens = len(idx)
    for f, name in zip(found, names, strict=True):
        start, end, label = f.start, f.end, f.label
        args = []
        if f.args:
            if ids is None:
                ids = dict(zip(map(id, found), names, strict=True))
            args = [ids[id(a)] for a in f.args if id(a) in ids]
        append(Role(name, start, end, label, text[start:end], f.rule, args))
        i = bisect_left(idx, start)
        if i < n_tokens and idx[i] == start:
            j = bisect_left(ends, end, i)
            if j < n_tokens and ends[j] == end:
                label_id = labels.get(label)
                if label_id is None:
                    label_id = labels[label] = doc.vocab.strings.add(label)
                add_span(Span(doc, i, j + 1, label=label_id))
    doc.spans[SPANS_KEY] = SpanGroup(doc, name=SPANS_KEY, spans=spans)


@Language.factory(
    "chemie_roles",
    default_config={"rules": "roles.yaml", "lexicon": "chemu2020_roles.tsv",
                    "decision": {"@misc": "chemie.text_tier.v1"}},
    requires=["doc._.mentions", "doc._.actions", "doc._.relations"],
    assigns=["doc._.roles", "doc.spans"],
)
def make_role_labeller(nlp: Language, name: str, rules: str, lexicon: str,
                       decision: StageDecision) -> RoleLabeller:
    """The role labeller configured from a rule table in ``rules/`` and a role lexicon in
    ``lexicons/`` (or a path); ``decision``: a function of spaCy's ``misc`` registry (found
    through the ``spacy_misc`` entry points of setup.cfg)."""
    return RoleLabeller(rules, lexicon, decision)
