"""Each compound's role: the first of the table's compound rules that holds, else the
reactant-or-reagent stage (:func:`assign_roles`); then the label in brackets after a
labelled compound (:func:`bracket_labels`)."""

from __future__ import annotations

import regex

from chemie.roles.context import RoleContext
from chemie.roles.features import FeatureIndex, compound_features
from chemie.roles.found import Found
from chemie.roles.participants import ReactantOrReagentStage
from chemie.roles.rules import RuleBook
from chemie.roles.table import NONE

_WORD = regex.compile(r"\w+\.?")
# a step heading inside a heading: "Step 1", "Step A:", "[Step 1]", "(1) Preparation of";
# "(Step 3, scheme 5)" after a name is a note on the name, not a heading
_STEP_HEADING = regex.compile(
    r"(?i)(?<!\(\s*)\b(?:step|stage)\s*[0-9A-Z]\b"
    r"|\(\d{1,3}(?:-\d{1,3})?\)\s*(?:preparation|synthesis)\b"
    r"|\b(?:first|second|third)\s+step\b|\b(?:synthesis|preparation)\s+of\b"
    r"|\bintermediate\s+\w+|\b\d+\.\d+\s*:")
OTHER, SOLVENT, PRODUCT = "OTHER_COMPOUND", "SOLVENT", "REACTION_PRODUCT"
COREF_RULE = "coreferent_product"  # a builtin rule (rules/roles.yaml)
AQUEOUS_RULE = "aqueous_solvent"  # a builtin rule (rules/roles.yaml)


def assign_roles(ctx: RoleContext, compounds: list[Found], heading: int,
                 lexicon: dict[str, str], index: FeatureIndex, rules: RuleBook,
                 stage: ReactantOrReagentStage) -> list[Found]:
    """Label each compound by the first compound rule that holds, else by the
    reactant-or-reagent ``stage``; those labelled NONE (or by no rule) are dropped."""
    out = []
    # where each step heading inside the heading ends ("... Step A:")
    steps = [m.end() for m in _STEP_HEADING.finditer(ctx.text, 0, heading)] if heading else []
    xs = compound_features(ctx, compounds, index, heading, steps, lexicon)
    for x in xs:
        f = x.span
        decision = rules.decide(ctx, x) or stage(ctx, x)
        if decision is None or decision[0] == NONE:
            continue
        f.label, f.rule = decision
        if f.aqueous >= 0 and f.label != OTHER:
            # "2 M aqueous potassium carbonate" in a reaction: "aqueous" is the solvent
            word = _WORD.match(ctx.text, f.start)
            out.append(Found(f.start, word.end() if word else f.aqueous, f.kind, SOLVENT,
                             AQUEOUS_RULE, f.mention, f.action, f.role, f.links))
            f.start = f.aqueous
        elif f.aqueous_tail >= 0 and f.label != OTHER:
            # "2 mol/L potassium carbonate aqueous solution": the same, after the name
            out.append(Found(f.end - len("aqueous"), f.end, f.kind, SOLVENT, AQUEOUS_RULE,
                             f.mention, f.action, f.role, f.links))
            f.end = f.aqueous_tail
        out.append(f)
    _coreferent_products(ctx, out)
    return out


def _coreferent_products(ctx: RoleContext, entities: list[Found]) -> None:
    """A starting material whose mention corefers (chemie_coref) with a mention that holds a
    product of the heading is that product named again: a product (``coreferent_product``)."""
    products = [f for f in entities if f.label == PRODUCT and f.rule == "heading_product"]
    if not products or not ctx.antecedents:
        return
    for f in entities:
        if f.label != "STARTING_MATERIAL" or f.mention is None:
            continue
        for mid in ctx.antecedents.get(f.mention, ()):
            m = ctx.mention_by_id.get(mid)
            if m is not None and any(m.start <= p.start and p.end <= m.end for p in products):
                f.label, f.rule = PRODUCT, COREF_RULE
                break


_BRACKET_LABEL = regex.compile(
    r"\s?\((?:(?i:compound|cpd\.?|intermediate)\s)?(?![0-9]{1,2}[MN][,)])"
    r"([0-9]{1,4}[a-zA-Z]?(?:-[0-9a-zA-Z]{1,4})?|"
    r"[A-Z]{1,4}-?[0-9]{1,4}[a-z]?|[IVXL]{1,6}|[A-Z]'?)(?:\)(?![-\w])|(?=,\s))"
    r"|\s?\((CAS#?\s?\d+-\d+-\d)(?=[,;)])")
BRACKET_RULE = "bracket_label"  # a builtin rule (rules/roles.yaml)


def bracket_labels(text: str, entities: list[Found]) -> list[Found]:
    """The entities with the label in brackets after each compound added, labelled as the
    compound ("1-(4-amino-3-methoxyphenyl)ethanone (8)": "8" is a product too)."""
    labels = []
    for f in entities:
        if f.kind not in ("compound", "reference"):
            continue
        m = _BRACKET_LABEL.match(text, f.end)
        if m:
            g = 1 if m.start(1) >= 0 else 2
            labels.append(Found(m.start(g), m.end(g), "reference", f.label, BRACKET_RULE,
                                f.mention, f.action, f.role, f.links))
    kept = [f for f in entities if not any(f.overlaps(x) for x in labels)]
    return sorted(kept + labels, key=lambda f: f.start)
