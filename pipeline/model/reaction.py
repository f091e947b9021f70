"""The reaction record: what one reaction of a document is made of (issue 15).

One :class:`Reaction` per step that makes a product. Each compound taking part is a
:class:`Component` with its name as written, the mention it came from, its role and the rule
that gave the role, its :class:`Amount` and its :class:`Structure` (or None when structures
are off). :class:`Yield`, :class:`Conditions` and the ordered :class:`Step` list complete the
record. Every object is a dataclass that serialises to plain JSON values (``to_dict``) and
back (``from_dict``); a key whose value is empty (None, an empty list) is left out of the
dictionary and restored with its default.

Mapping to the Open Reaction Database (``ord-schema``, ``reaction.proto``), chemie → ORD:

- ``Reaction.id`` → ``Reaction.reaction_id``; ``Reaction.rsmi()`` →
  ``Reaction.identifiers[type=REACTION_SMILES].value``.
- ``reactants``, ``reagents``, ``catalysts``, ``solvents`` → ``Reaction.inputs[name]``: one
  ``ReactionInput`` per component keyed by its name (``addition_order``: the order of the
  first step that names it), its ``components[0]`` a ``Compound`` with ``reaction_role`` =
  ``REACTANT``, ``REAGENT``, ``CATALYST`` or ``SOLVENT``.
- ``products`` → ``Reaction.outcomes[0].products[]`` (``ProductCompound``,
  ``reaction_role=PRODUCT``; ``is_desired_product`` for the first).
- ``Component.name`` → ``Compound.identifiers[type=NAME].value``; ``Structure.smiles`` →
  ``identifiers[type=SMILES].value``; ``Structure.inchikey`` →
  ``identifiers[type=INCHI_KEY].value``; ``Structure.label`` (``opsin``, ``dictionary``,
  ``coreference → <name>``) → that SMILES identifier's ``details``. An unresolved component
  has only its NAME identifier.
- ``Amount.mass`` / ``moles`` / ``volume`` → ``Compound.amount.mass|moles|volume``
  (``Mass``: GRAM, MILLIGRAM, MICROGRAM, KILOGRAM; ``Moles``: MOLE, MILLIMOLE, MICROMOLE;
  ``Volume``: LITER, MILLILITER, MICROLITER). ORD's ``Amount`` is a ``oneof``: moles first,
  then mass, then volume; the measures left over go to ``Compound.features``.
- ``Amount.equivalents`` → ``Compound.features["equivalents"]`` (``Data.float_value``: ORD
  has no field for it); ``Amount.concentration`` → ``Compound.features["concentration"]``
  (``Data.string_value`` such as ``"2 M"``; ORD's ``Concentration`` is for flow only).
- ``Yield.percent`` → ``ProductCompound.measurements[type=YIELD].percentage.value``;
  ``Yield.mass`` / ``moles`` → ``ProductCompound.measurements[type=AMOUNT].amount``.
- ``Conditions.temperature`` → ``ReactionConditions.temperature.setpoint`` (``Temperature``:
  CELSIUS, FAHRENHEIT, KELVIN); "reflux" → ``ReactionConditions.reflux = true``; "room
  temperature" → ``temperature.control.type = AMBIENT``.
- ``Conditions.time`` → ``ReactionOutcome.reaction_time`` (``Time``: SECOND, MINUTE, HOUR,
  DAY).
- ``Conditions.atmosphere`` → ``ReactionConditions.pressure.atmosphere.type`` (NITROGEN,
  ARGON, AIR, HYDROGEN …); ``Conditions.pressure`` → ``pressure.setpoint`` (``Pressure``:
  BAR, ATMOSPHERE, PSI, KPA, MPA, TORR, MM_HG).
- ``Step`` of phase ``reaction`` → ``ReactionNotes.procedure_details`` (the steps' text in
  order: ORD has no structured reaction steps); of phase ``workup`` → ``Reaction.workups[]``
  (``ReactionWorkup.type`` from the action: ADDITION, WASH, EXTRACTION, FILTRATION,
  CONCENTRATION, DRY_WITH_MATERIAL, FLASH_CHROMATOGRAPHY …; ``details``: the step's text).
- ``Reaction.doc_id``, ``Reaction.rule``, each ``Component.rule`` and ``label_rule``, and
  each ``Structure.rule`` → ``Reaction.provenance.record_created.details`` (the document
  and the rules that made it); so do ``Reaction.problems`` (the checks the record failed).
- ``Reaction.label`` ("Example 4", "Step 2") and ``Reaction.refers_to`` (the general
  procedure or example it follows, what it inherited and replaced) →
  ``ReactionNotes.procedure_details`` (ORD has no field that links two reactions).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

# the roles of a component: the USPTO convention splits the ORD roles in two (reactants
# contribute atoms to a product; reagents, catalysts and solvents are the rest)
INPUT_ROLES = ("reactant", "reagent", "catalyst", "solvent")
ROLES = ("product", *INPUT_ROLES)
HOW = ("dictionary", "opsin", "coreference", "unresolved")
CONDITION_KINDS = ("temperature", "time", "atmosphere", "pressure")
TEMPLATE = "general_procedure"  # the rule of a general procedure's template (no reaction)
PHASES = ("reaction", "workup")


def _clean(value: Any) -> Any:
    """Plain JSON values of a dataclass tree, without keys whose value is empty."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for f in dataclasses.fields(value):
            v = _clean(getattr(value, f.name))
            if v is None or v == [] or v == {}:
                continue
            out[f.name.rstrip("_")] = v
        return out
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


@dataclass
class Quantity:
    """A number with its unit (normalised symbol: ``g``, ``mL``, ``mmol``, ``°C``, ``h`` …)
    and the text it was read from."""

    value: float
    unit: str
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Quantity:
        return cls(float(d["value"]), d["unit"], d.get("text", ""))


def _quantity(d: dict[str, Any] | None) -> Quantity | None:
    return Quantity.from_dict(d) if d is not None else None


@dataclass
class Amount:
    """How much of a component: each measure that the text gives (None when not given)."""

    mass: Quantity | None = None
    volume: Quantity | None = None
    moles: Quantity | None = None
    equivalents: Quantity | None = None
    concentration: Quantity | None = None  # molar (M, mM) or normal (N), or a percentage

    def __bool__(self) -> bool:
        return any(getattr(self, f.name) is not None for f in dataclasses.fields(self))

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Amount:
        return cls(**{f.name: _quantity(d.get(f.name)) for f in dataclasses.fields(cls)})


@dataclass
class Structure:
    """The structure of a component, or why there is none.

    ``how``: ``dictionary``, ``opsin``, ``coreference`` (resolved through ``via``, the name
    it refers to: the heading, or the antecedent of a coreference link) or ``unresolved``
    (``reason``: ``compound label``, ``reference``, ``generic phrase``, ``parse failure``,
    ``no java`` …). ``kind``: ``molecule`` or ``material`` (brine, silica gel: no SMILES).
    ``rule``: the rule that chose the name resolved when it is not the component's span as
    written: a split of the grounding (``mixture_slash`` …, ``rules/grounding.yaml``), or
    ``widened_name``, ``joined_names``, ``title_salt``, ``reference_to_title``,
    ``coreference_antecedent`` (``rules/reactions.yaml``).
    """

    how: str
    smiles: str | None = None
    inchikey: str | None = None
    reason: str | None = None
    via: str | None = None
    kind: str | None = None
    rule: str | None = None

    @property
    def resolved(self) -> bool:
        return self.how != "unresolved"

    @property
    def label(self) -> str:
        """How it was resolved, as written in reports: ``coreference → <name>`` for a
        reference, ``unresolved (<reason>)`` when there is no structure."""
        if self.how == "coreference":
            return f"coreference → {self.via}"
        if self.how == "unresolved":
            return f"unresolved ({self.reason})" if self.reason else "unresolved"
        return self.how

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Structure:
        return cls(d["how"], d.get("smiles"), d.get("inchikey"), d.get("reason"), d.get("via"),
                   d.get("kind"), d.get("rule"))


@dataclass
class Component:
    """One compound of a reaction: its name as written, where it is (character offsets and
    the mention it came from), its role with the rule that gave it, amount and structure;
    ``label_rule``: the ``chemie_roles`` rule that gave its span the ChEMU 2020 label the
    role was read from (``line_break`` for the body part of a title span)."""

    name: str
    role: str
    rule: str
    start: int = -1
    end: int = -1
    mention: str | None = None
    amount: Amount = field(default_factory=Amount)
    structure: Structure | None = None  # None: structures were not resolved
    label_rule: str | None = None

    @property
    def smiles(self) -> str | None:
        return self.structure.smiles if self.structure is not None else None

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Component:
        structure = d.get("structure")
        return cls(
            d["name"], d["role"], d["rule"], d.get("start", -1), d.get("end", -1),
            d.get("mention"), Amount.from_dict(d.get("amount") or {}),
            Structure.from_dict(structure) if structure is not None else None,
            d.get("label_rule"),
        )


@dataclass
class Yield:
    """The yield of a product: a percentage and the amount obtained."""

    percent: float | None = None
    mass: Quantity | None = None
    moles: Quantity | None = None
    text: str = ""

    def __bool__(self) -> bool:
        return self.percent is not None or self.mass is not None or self.moles is not None

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Yield:
        percent = d.get("percent")
        return cls(None if percent is None else float(percent), _quantity(d.get("mass")),
                   _quantity(d.get("moles")), d.get("text", ""))


@dataclass
class Condition:
    """A condition as written, with its value when it has one: ``kind`` is ``temperature``
    (``°C``, ``K``, ``°F``; "reflux" and "room temperature" have no value), ``time``
    (``s``, ``min``, ``h``, ``d``), ``atmosphere`` (the gas's name) or ``pressure``."""

    kind: str
    text: str
    rule: str
    value: Quantity | None = None
    start: int = -1
    end: int = -1

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Condition:
        return cls(d["kind"], d["text"], d["rule"], _quantity(d.get("value")),
                   d.get("start", -1), d.get("end", -1))


@dataclass
class Conditions:
    """The conditions of a reaction, in text order within each kind."""

    temperature: list[Condition] = field(default_factory=list)
    time: list[Condition] = field(default_factory=list)
    atmosphere: list[Condition] = field(default_factory=list)
    pressure: list[Condition] = field(default_factory=list)

    def add(self, condition: Condition) -> None:
        getattr(self, condition.kind).append(condition)

    def __bool__(self) -> bool:
        return any(getattr(self, k) for k in CONDITION_KINDS)

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Conditions:
        return cls(*([Condition.from_dict(c) for c in d.get(k, [])] for k in CONDITION_KINDS))


@dataclass
class StepObject:
    """An argument of a step's action: its role in the action (``object``, ``solvent``,
    ``reagent``, ``product`` …), its text and mention."""

    role: str
    text: str
    mention: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> StepObject:
        return cls(d["role"], d["text"], d.get("mention"))


@dataclass
class Step:
    """One action of the action parser (``Add``, ``Stir``, ``Extract`` …): its trigger word,
    phase (``reaction`` or ``workup``), the rule that found it and its objects."""

    action: str
    text: str
    phase: str
    rule: str
    start: int = -1
    end: int = -1
    objects: list[StepObject] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Step:
        return cls(d["action"], d["text"], d["phase"], d["rule"], d.get("start", -1),
                   d.get("end", -1), [StepObject.from_dict(o) for o in d.get("objects", [])])


@dataclass
class Problem:
    """Why a record is not to be trusted as complete: ``check`` names the check that failed
    (``unresolved_component``: OPSIN and the dictionary gave no structure;
    ``atoms_unexplained``: heavy atoms of the product that no species with a structure
    gives; ``mapping_timeout``: the atom accounting ran out of time; ``product_is_reactant``:
    the product has the structure of a reactant an earlier step made), ``component`` the
    name of the component it concerns (the product whose atoms do not add up; None: the
    whole reaction), ``detail`` what failed."""

    check: str
    component: str | None = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Problem:
        return cls(d["check"], d.get("component"), d.get("detail", ""))


@dataclass
class Replacement:
    """A component of the procedure or example referred to (``old``, its name) that this
    record replaces by one of its own (``new``): "using X instead of Y", or a generic
    reactant of a general procedure ("the amine") and the example's own reactant.
    ``smiles``: the old component's structure, when the name the text gives it resolves."""

    old: str
    new: str | None = None
    smiles: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Replacement:
        return cls(d["old"], d.get("new"), d.get("smiles"))


@dataclass
class Reference:
    """What a record refers to (ChEMU 2021 reaction reference resolution): the general
    procedure or the example it follows. ``kind`` (``procedure``, ``example``,
    ``intermediate`` …) and ``label`` ("B", "10"; empty: the only general procedure) as the
    text names them (``text``, found by ``rule`` of ``rules/procedures.yaml``); ``source``:
    the id of the record (or general procedure) it inherited from, None when it was not
    found (``reason``); ``inherited``: the names of the components taken from it;
    ``replaced``: the components of it this record replaces."""

    kind: str
    label: str
    text: str
    rule: str
    source: str | None = None
    reason: str | None = None
    inherited: list[str] = field(default_factory=list)
    replaced: list[Replacement] = field(default_factory=list)

    @property
    def resolved(self) -> bool:
        return self.source is not None

    def to_dict(self) -> dict[str, Any]:
        return _clean(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Reference:
        return cls(d["kind"], d.get("label", ""), d.get("text", ""), d["rule"], d.get("source"),
                   d.get("reason"), list(d.get("inherited", [])),
                   [Replacement.from_dict(r) for r in d.get("replaced", [])])


@dataclass
class Reaction:
    """One reaction of a document: a step that makes a product (see the module docstring).
    ``label``: the section it comes from as its heading names it ("Step 2", "Example 4");
    ``refers_to``: the procedure or example it follows; ``problems``: the checks it failed."""

    id: str
    doc_id: str
    rule: str  # the rule that made this record (which step, which product)
    products: list[Component] = field(default_factory=list)
    reactants: list[Component] = field(default_factory=list)
    reagents: list[Component] = field(default_factory=list)
    catalysts: list[Component] = field(default_factory=list)
    solvents: list[Component] = field(default_factory=list)
    yield_: Yield = field(default_factory=Yield)
    conditions: Conditions = field(default_factory=Conditions)
    steps: list[Step] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)  # checks the record failed
    label: str | None = None
    refers_to: Reference | None = None

    def components(self) -> list[Component]:
        """Every component: products, then reactants, reagents, catalysts, solvents."""
        return [*self.products, *self.reactants, *self.reagents, *self.catalysts,
                *self.solvents]

    def smiles(self, role: str) -> list[str]:
        """The SMILES of one USPTO role (``products``, ``reactants``, or ``reagents``, which
        takes the reagents, catalysts and solvents), unresolved components left out, each
        structure once."""
        if role == "reagents":
            parts = [*self.reagents, *self.catalysts, *self.solvents]
        elif role in ("products", "reactants"):
            parts = getattr(self, role)
        else:
            raise ValueError(f"no USPTO role {role!r}")
        return list(dict.fromkeys(c.smiles for c in parts if c.smiles))

    def rsmi(self) -> str:
        """``reactants>reagents>products`` (the USPTO convention; species joined by ``.``)."""
        return ">".join(".".join(self.smiles(r)) for r in ("reactants", "reagents", "products"))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "doc_id": self.doc_id, "rule": self.rule}
        for role in ("products", "reactants", "reagents", "catalysts", "solvents"):
            out[role] = [c.to_dict() for c in getattr(self, role)]
        if self.yield_:
            out["yield"] = self.yield_.to_dict()
        if self.conditions:
            out["conditions"] = self.conditions.to_dict()
        out["steps"] = [s.to_dict() for s in self.steps]
        if self.problems:
            out["problems"] = [p.to_dict() for p in self.problems]
        if self.label:
            out["label"] = self.label
        if self.refers_to is not None:
            out["refers_to"] = self.refers_to.to_dict()
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Reaction:
        roles = {
            role: [Component.from_dict(c) for c in d.get(role, [])]
            for role in ("products", "reactants", "reagents", "catalysts", "solvents")
        }
        return cls(
            d["id"], d["doc_id"], d["rule"], **roles,
            yield_=Yield.from_dict(d.get("yield") or {}),
            conditions=Conditions.from_dict(d.get("conditions") or {}),
            steps=[Step.from_dict(s) for s in d.get("steps", [])],
            problems=[Problem.from_dict(p) for p in d.get("problems", [])],
            label=d.get("label"),
            refers_to=Reference.from_dict(d["refers_to"]) if d.get("refers_to") else None,
        )
