"""Coreference rules of reagents and work-up: a repeated name, "the solvent", "the starting
material", the eluent, the drying agent, the catalyst, the filter pad and a definite repeat of
an indefinite noun ("a solid ... the solid")."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from chemie.coref.features import (
    Context,
    CorefMention,
    CorefRule,
    Found,
    material_role,
    rule,
)

# a digit or bracket: a name specific enough to repeat (repeated_name)
_SPECIFIC_NAME = re.compile(r"[\d(\[]")
# a molar amount (starting_material)
# (tried where a number starts only: a match never starts inside one, and a long digit run
# is read once)
_AMOUNT = re.compile(r"(?<!\d)(\d+(?:\.\d+)?)\s*(mmole?|[uµμ]mol|mol)\b")
_TO_MMOL = {"mmol": 1.0, "mmole": 1.0, "umol": 1e-3, "µmol": 1e-3, "μmol": 1e-3, "mol": 1e3}


def _mmol(text: str) -> float:
    """The first molar amount in ``text`` in mmol ("2.06 g , 10 mmol" -> 10.0), else 0."""
    m = _AMOUNT.search(text)
    return float(m.group(1)) * _TO_MMOL[m.group(2)] if m else 0.0


@dataclass(frozen=True, kw_only=True)
class AsEluent(CorefRule):
    heads: frozenset[str]  # role nouns ("eluent", "catalyst")


@rule("as_eluent", params=AsEluent, gate=lambda f, p: f.head in p.heads or f.material_role)
def as_eluent(c: Context, p: AsEluent, a: CorefMention) -> Found:
    # "using hexane as eluent", "using 1.45 g of X as Raw material 2": the role of X
    if not (a.head in p.heads or material_role(c.table, a.core)) or a.first < 1:
        return None
    words = c.words
    if a.before != "as" and words[max(0, a.first - 2) : a.first] != ["as", "the"]:
        return None
    for x in reversed(c.ms[: a.i]):
        if x.sentence != a.sentence:
            return None
        if x.kind in ("chemical", "generic") and not x.bracketed:
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class RepeatedName(CorefRule):
    min_length: int  # a name this long (with a digit or bracket) is specific
    not_names: frozenset[str]
    removal: frozenset[str]  # "to remove methanol"
    removed: frozenset[str]  # "CH2Cl2 was removed"


def _removed(c: Context, p: RepeatedName, a: CorefMention) -> bool:
    """Whether ``a`` is removed: "to remove methanol", "Magnesium sulfate was filtered
    off"."""
    if a.before in p.removal:
        return True
    words, i = c.words, a.last + 1
    return i + 1 < len(words) and words[i] in ("was", "were") and words[i + 1] in p.removed


@rule("repeated_name", params=RepeatedName, kinds=("chemical",))
def repeated_name(c: Context, p: RepeatedName, a: CorefMention) -> Found:
    if a.kind != "chemical" or not a.name or a.name in p.not_names:
        return None
    specific = (
        len(a.name) >= p.min_length
        and a.name not in c.table.solvents
        and _SPECIFIC_NAME.search(a.name) is not None
        and a.m.rule != "eluent_ratio"
    )
    if not specific and a.det not in ("the", "this", "said") and not _removed(c, p, a):
        return None
    key = a.name_key
    for x in reversed(c.ms[: a.i]):
        # a solution that contains the name is no antecedent of it
        if x.name_key == key and not x.first <= a.first <= x.last:
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class TheSolvent(CorefRule):
    anaphors: frozenset[str]  # "the solvent", "the volatiles"
    not_solvents: frozenset[str]  # words of aqueous wash and work-up solutions
    aqueous: frozenset[str]  # words of an aqueous work-up
    reagent_units: tuple[str, ...]  # case-sensitive, after a number
    removal: frozenset[str]  # "to remove methanol": the word before a solvent removed
    removed: frozenset[str]  # "the acetone was removed": the participle after was / were
    plural: frozenset[str]  # "the organic solvents": every solvent, whatever the modifier

    @cached_property
    def reagent_amount(self) -> re.Pattern:
        """An amount that makes a solvent a reagent ("THF ( 1 M , 2 mL )")."""
        units = "|".join(re.escape(u) for u in self.reagent_units)
        # "pyridine ( 0.098 mL , 1.23mmol )": the unit may stick to its number
        return re.compile(rf"\d\s*(?:{units or '(?!)'})(?![A-Za-z])")


@rule("the_solvent", params=TheSolvent, kinds=("generic", "chemical"),
      gate=lambda f, p: f.head in p.anaphors and f.det in ("the", ""))
def the_solvent(c: Context, p: TheSolvent, a: CorefMention) -> Found:
    if a.head not in p.anaphors or a.kind not in ("generic", "chemical"):
        return None
    if a.det not in ("the", "") or (a.det == "" and a.core not in p.anaphors):
        return None
    found: list[CorefMention] = []
    washed = False
    every = a.core in p.anaphors or a.head in p.plural
    for x in reversed(c.ms[: a.i]):
        if found and _solvents_end(c, p, x):
            break  # the solvents before this one are gone
        words = x.core.split()
        if p.not_solvents.intersection(words):
            # an aqueous work-up: the solvents of the reaction before it went with the
            # aqueous phase; only more portions of the closest solvent are "the solvent"
            washed = washed or (bool(found) and not p.aqueous.isdisjoint(words))
            continue
        if washed and x.name_key != found[0].name_key:
            continue
        if _names_solvent(c, p, x):
            found.append(x)
            if not every:
                break  # "the organic solvent", "the elution solvent": one antecedent
            # else every solvent of the mixture: "The solvent" after an extraction with
            # EtOAc of a reaction run in THF -> the EtOAc and the THF
    return found or None


def _solvents_end(c: Context, p: TheSolvent, x: CorefMention) -> bool:
    """Whether the solvents named before ``x`` are gone: ``x`` is an earlier "the solvent"
    or a product (a yield), or a solvent named as removed ("the acetone was removed")."""
    if (x.kind == "generic" and x.head in p.anaphors) or "%" in x.m.text:
        return True
    return x.kind == "chemical" and _solvent_removed(c, p, x)


def _names_solvent(c: Context, p: TheSolvent, x: CorefMention) -> bool:
    """Whether ``x`` is a solvent: a listed one, a name that ends with one ("dry THF") or a
    quantity after "in" / "with", unless a molar amount makes it a reagent."""
    if x.kind != "chemical":
        return False
    name = x.name
    if not (
        name in c.table.solvents or name.endswith(c.table.solvent_tails)
        or (x.before in ("in", "with") and x.m.quantity)
    ):
        return False
    return p.reagent_amount.search(x.m.text) is None  # a molar amount: a reagent


def _solvent_removed(c: Context, p: TheSolvent, x: CorefMention) -> bool:
    """Whether ``x`` is named as removed: "to remove methanol", "the acetone was
    evaporated"."""
    if x.before in p.removal:
        return True
    words, i = c.words, x.last + 1
    return i + 1 < len(words) and words[i] in ("was", "were") and words[i + 1] in p.removed


@dataclass(frozen=True, kw_only=True)
class StartingMaterial(CorefRule):
    anaphors: frozenset[str]  # "the raw material", "the starting material"
    equimolar: float  # other reactants: a molar amount within this share of the first's


@rule("starting_material", params=StartingMaterial, gate=lambda f, p: f.core in p.anaphors)
def starting_material(c: Context, p: StartingMaterial, a: CorefMention) -> Found:
    if a.core not in p.anaphors:
        return None
    found: list[CorefMention] = []
    first = 0.0
    for x in c.ms[: a.i]:
        if x.kind not in ("chemical", "reference") or not x.m.quantity:
            continue
        if not found:
            found.append(x)
            first = _mmol(x.m.text)
        elif first and abs(_mmol(x.m.text) - first) <= p.equimolar * first:
            # the other reactant, in the same molar amount: "A ( 10 mmol ) and B
            # ( 10 mmol ) ... the raw material" -> A and B (not the base, 13 mmol)
            found.append(x)
    return found or None


@dataclass(frozen=True, kw_only=True)
class DryingAgent(CorefRule):
    heads: frozenset[str]  # the solid filtered off after drying
    modifiers: frozenset[str]  # the only words allowed before the head
    after: tuple[str, ...]  # the two words before the drying agent ("dried over")

    @cached_property
    def over(self) -> list[list[str]]:
        """``after`` split into words."""
        return [p.split() for p in self.after]


@rule("drying_agent", params=DryingAgent,
      gate=lambda f, p: f.det in ("the", "") and f.head in p.heads)
def drying_agent(c: Context, p: DryingAgent, a: CorefMention) -> Found:
    # "dried over anhydrous magnesium sulfate . The insoluble substance was separated by
    # filtration": the solid filtered off is the drying agent
    if a.head not in p.heads or a.det not in ("the", ""):
        return None
    # "the insoluble substance", not "the precipitated solid"
    if not p.modifiers.issuperset(a.core.split()[:-1]):
        return None
    words, i = c.words, a.last + 1
    if words[i : i + 1] not in (["was"], ["were"]) or words[i + 1 : i + 2] not in (
        ["separated"], ["filtered"], ["removed"]
    ):
        return None
    for x in reversed(c.ms[: a.i]):
        if x.sentence < a.sentence - 1:
            return None
        if x.kind == "chemical" and words[max(0, x.first - 2) : x.first] in p.over:
            return x
    return None


@dataclass(frozen=True, kw_only=True)
class TheCatalyst(CorefRule):
    anaphors: frozenset[str]  # "the catalyst"
    metals: frozenset[str]  # words of a catalyst's name ("pd", "palladium", "raney")
    max_sentences: int  # how many sentences back the catalyst may be named


@rule("the_catalyst", params=TheCatalyst, kinds=("generic",),
      gate=lambda f, p: f.det in ("the", "this", "") and f.head in p.anaphors)
def the_catalyst(c: Context, p: TheCatalyst, a: CorefMention) -> Found:
    # "10% Pd / C ( 0.2 g ) was added ... The catalyst was filtered off": the catalyst named
    if a.kind != "generic" or a.head not in p.anaphors or a.det not in ("the", "this", ""):
        return None
    if a.core.split()[0] not in p.anaphors:
        return None  # "the catalyst" alone, not "the catalyst solution" or "a fresh catalyst"
    for x in reversed(c.ms[: a.i]):
        if x.sentence < a.sentence - p.max_sentences:
            return None
        if x.kind == "chemical" and _names_metal(x.name, p.metals):
            return x
    return None


def _names_metal(name: str, metals: frozenset[str]) -> bool:
    """Whether a word of ``name`` is a metal word or starts with one before a bracket
    ("pd(oh)2", "pd(pph3)4")."""
    for w in name.split():
        if w in metals or w.split("(", 1)[0] in metals:
            return True
    return False


@dataclass(frozen=True, kw_only=True)
class FilterPad(CorefRule):
    anaphors: frozenset[str]  # "the pad", "the plug", "the filter cake"
    aids: frozenset[str]  # words of a filter aid's name ("celite", "silica")
    max_sentences: int  # how many sentences back the filter aid may be named


@rule("filter_pad", params=FilterPad, kinds=("generic",),
      gate=lambda f, p: f.det == "the" and f.head in p.anaphors)
def filter_pad(c: Context, p: FilterPad, a: CorefMention) -> Found:
    # "filtered through a pad of Celite and the pad was washed": the pad of filter aid;
    # "filtered through diatomite and the filter cake was washed": the filter aid itself
    if a.kind != "generic" or a.det != "the" or a.head not in p.anaphors:
        return None
    for x in reversed(c.ms[: a.i]):
        if x.sentence < a.sentence - p.max_sentences:
            return None
        if x.head == a.head and x.det in ("a", "an", ""):
            return x  # "a pad of Celite", "a Celite pad"
        if x.kind == "chemical" and not p.aids.isdisjoint(x.name.split()):
            return x  # "through diatomite", "through Celite"
    return None


@dataclass(frozen=True, kw_only=True)
class DefiniteRepeat(CorefRule):
    heads: frozenset[str]  # "the solid", "the flask"


@rule("definite_repeat", params=DefiniteRepeat,
      gate=lambda f, p: f.det == "the" and f.head in p.heads)
def definite_repeat(c: Context, p: DefiniteRepeat, a: CorefMention) -> Found:
    if a.det != "the" or a.head not in p.heads:
        return None
    for x in reversed(c.ms[: a.i]):
        if x.head == a.head and (x.det in ("a", "an") or (x.det == "" and x.kind == "state")):
            return x
    return None
