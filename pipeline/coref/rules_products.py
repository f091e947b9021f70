"""Coreference rules of products: the compound of the heading ("the title compound", its
yield, its analysis), the product just obtained ("this product", "the crude amine") and a
product named by its physical state ("as a white solid")."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from chemie.coref.features import (
    CONCENTRATION,
    TITLE_WORDS,
    Context,
    CorefMention,
    CorefRule,
    Found,
    enclosed,
    label_of_next,
    rule,
)


@dataclass(frozen=True, kw_only=True)
class AsPhysicalState(CorefRule):
    skip_after: frozenset[str]  # an earlier mention after one of these is no antecedent
    subject_verbs: tuple[str, ...]  # "Compound 27 was synthesized from A … as a solid"
    forms: frozenset[str]  # generic heads of a form: "as its hydrochloride salt"

    @cached_property
    def passive_yield(self) -> list[list[str]]:
        """The two words after a subject that made the product ("was prepared")."""
        return [[aux, v] for aux in ("was", "were", "is") for v in self.subject_verbs]


@rule("as_physical_state", params=AsPhysicalState, kinds=("state", "generic"))
def as_physical_state(c: Context, p: AsPhysicalState, a: CorefMention) -> Found:
    # a state ("as a white solid") or a form by class ("as its hydrochloride salt")
    if a.first < 1 or not (a.kind == "state" or (a.kind == "generic" and a.head in p.forms)):
        return None
    words, ms = c.words, c.ms
    if a.before != "as" and " ".join(words[max(0, a.first - 2) : a.first]) != "form of":
        return None
    # a label inside or after a name ("NAME ( 4a ) ( 1.2 g )") stands for the name
    same = [
        x for x in ms[: a.i]
        if x.sentence == a.sentence and x.kind != "equipment" and not x.bracketed
        and not enclosed(ms, x)
    ]
    # "Compound 27 was synthesized from A , B and C as a white solid": the subject
    for x in same:
        if (
            words[x.last + 1 : x.last + 3] in p.passive_yield
            and ":" not in words[x.last : a.first]
        ):
            return x
    for x in reversed(same):
        if x.before in p.skip_after:
            continue
        return x
    return None


@dataclass(frozen=True, kw_only=True)
class ThisProduct(CorefRule):
    heads: frozenset[str]  # "this product", "these compounds"
    bare: frozenset[str]  # "The product" / "product" alone (no quantity)


@rule("this_product", params=ThisProduct,
      gate=lambda f, p: f.det in ("this", "these", "the", "") and f.head in p.heads)
def this_product(c: Context, p: ThisProduct, a: CorefMention) -> Found:
    if a.head not in p.heads:
        return None
    # "... ( 1.3 g , 81% yield ) as a white solid . The product was ...": a bare "the
    # product" / "product" right after the yield statement is that product
    if a.det not in ("this", "these") and not (
        a.det in ("the", "") and a.core in p.bare and not a.m.quantity
    ):
        return None
    for x in reversed(c.ms[: a.i]):
        if x.sentence < a.sentence - 1:
            return None
        if "%" in x.m.text and x.kind in ("chemical", "reference", "state"):
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class DescribedProduct(CorefRule):
    heads: frozenset[str]  # "this salt", "this material", "the crude amine"
    demonstratives: frozenset[str]  # "this", "these", "said"
    modifiers: frozenset[str]  # after "the": "the crude amine", "the free base"
    max_sentences: int  # how many sentences back the product may be named


@rule("described_product", params=DescribedProduct,
      kinds=("generic", "chemical", "state", "reference"),
      gate=lambda f, p: f.head in p.heads and (f.det in p.demonstratives or f.det == "the"))
def described_product(c: Context, p: DescribedProduct, a: CorefMention) -> Found:
    # "to give the dihydrochloride salt ( 2.5 g , 91% ) . This salt was suspended",
    # "to afford a foam . The crude amine was dissolved": the product just obtained
    if a.head not in p.heads or a.m.quantity:
        return None
    if a.det not in p.demonstratives and not (
        a.det == "the" and a.core.split()[0] in p.modifiers
    ):
        return None
    words, verbs = c.words, c.table.yield_verbs
    if not verbs.isdisjoint(words[max(0, a.first - 2) : a.first]):
        return None  # "to give the free base": a product named, no anaphor
    for x in reversed(c.ms[: a.i]):
        if x.sentence < a.sentence - p.max_sentences:
            return None
        if x.bracketed or x.kind == "equipment":
            continue
        # a product: stated with its yield, or named right after a verb that gives it
        if "%" in x.m.text and CONCENTRATION.match(x.m.text) is None:
            return x
        if not verbs.isdisjoint(words[max(0, x.first - 3) : x.first]) and x.before != "as":
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class TitleCompound(CorefRule):
    phrases: frozenset[str]  # "the title compound", "the desired product" …

    @cached_property
    def tails(self) -> frozenset[str]:
        """The phrases that may end a longer core ("of the title compound")."""
        return frozenset(p for p in self.phrases if p.split()[0] in TITLE_WORDS)


# a phrase of the list, or a core with a title word (f.core is kept when it ends a phrase)
@rule("title_compound", params=TitleCompound, gate=lambda f, p: f.after_title and (
    f.titled or f.core in p.phrases or f"{f.det} {f.core}".strip() in p.phrases))
def title_compound(c: Context, p: TitleCompound, a: CorefMention) -> Found:
    title = c.title
    if title is None or a.i <= title.i:
        return None
    phrase = f"{a.det} {a.core}".strip() if a.det else a.core.strip()
    if phrase not in p.phrases and a.core not in p.phrases:
        core = a.core
        if not any(w in core for w in TITLE_WORDS):
            return None  # every title tail starts with one of these words
        # "a first portion of 2.28 g ( 63% ) of the title compound"
        tail = " ".join(core.split()[-2:])
        # "2.5 g of the target compound NAME": the phrase is followed by the name
        named = a.kind in ("chemical", "reference") and any(
            f" {t} " in f" {core} " for t in p.tails
        )
        if tail not in p.tails and not named:
            return None
    if a.core in ("product", "compound") and a.det != "this" and not a.m.quantity:
        return None
    return title


@dataclass(frozen=True, kw_only=True)
class FinalProduct(CorefRule):
    forms: frozenset[str]  # generic heads of a product by class: "the hydrochloride salt"


@rule("final_product", params=FinalProduct, kinds=("chemical", "reference", "state", "generic"),
      gate=lambda f, p: f.after_title and f.yield_or_label)
def final_product(c: Context, p: FinalProduct, a: CorefMention) -> Found:
    title = c.title
    named = a.kind in ("chemical", "reference", "state") or (
        a.kind == "generic" and a.head in p.forms)  # "the hydrochloride salt ( 1.4 g , 90% )"
    if title is None or a.i <= title.i or not named:
        return None
    if "%" in a.m.text and a.i == c.last_product():
        return title
    # "to produce Compound ( 4 ) : NAME ( 25 mg , yield 31% )": the label of the product
    ms = c.ms
    if (
        label_of_next(c, a)
        and "%" in ms[a.i + 1].m.text
        and c.table.yield_verbs.intersection(c.words[max(0, a.first - 3) : a.first])
        and not any("%" in x.m.text for x in ms[a.i + 2 :])
    ):
        return title
    return None


@dataclass(frozen=True, kw_only=True)
class AnalysisFormula(CorefRule):
    after: frozenset[str]  # the two words before the formula ("analysis :")

    @cached_property
    def before(self) -> frozenset[tuple[str, ...]]:
        """``after`` as pairs of lowercased words."""
        return frozenset(tuple(p.lower().split()) for p in self.after)


@rule("analysis_formula", params=AnalysisFormula, kinds=("chemical",),
      gate=lambda f, p: f.after_colon)
def analysis_formula(c: Context, p: AnalysisFormula, a: CorefMention) -> Found:
    # "Elemental analysis : C7H14N2 ...", "calcd . C56H32N4S : C , 84.82": the formula
    # of the product just made (not a mass "calcd for C82H64N2O2 1108.49")
    if a.kind != "chemical" or a.first < 2 or a.m.quantity:
        return None
    if tuple(c.words[a.first - 2 : a.first]) not in p.before:
        return None
    product = c.last_product()
    if 0 <= product < a.i:
        return c.ms[product]
    title = c.title
    return title if title is not None and title.i < a.i else None
