"""The table of steps, references and general procedures (``rules/procedures.yaml``), read
typed through :func:`chemie.tables.load_table`: a misspelt, missing or mistyped key is an
error naming the file and the key; every pattern is compiled once (``{label}`` and
``{nouns}`` filled in) and every rule written in code must be named in ``code``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regex

from chemie.reactions.table import NamedRule, PatternRule
from chemie.registry import InlineRule, StageRules, inline_rules, stage_rules
from chemie.tables import TableError, load_table, shipped_cache

TABLE = "procedures.yaml"
# the rules written in code (stage "procedures" of the one registry); ``code`` names each
RULES: StageRules[InlineRule] = stage_rules("procedures")
inline_rules(RULES, "code", "chemie.reactions.references", "step_reference", "linked_product")
inline_rules(RULES, "code", "chemie.model.reaction", "general_procedure")
inline_rules(RULES, "code", "chemie.reactions.records", "procedure_example", "replaced_component",
             "heading_word", "product_is_reactant")
inline_rules(RULES, "code", "chemie.reactions.sections", "referenced_heading",
             "reference_then_stage")


@dataclass(frozen=True)
class ProcedureReference:
    """What an example says about the procedure or example it follows."""

    name: str
    comment: str
    pattern: str
    kind: str | None = None  # the kind of label the pattern names
    kind_group: str | None = None  # or: the group of the pattern that holds the heading word


@dataclass(frozen=True)
class ReplacementRule:
    """A cue of "using X instead of Y" (``new_first``) or "replacing Y with X"."""

    name: str
    comment: str
    pattern: str
    new_first: bool


@dataclass(frozen=True)
class CompoundClass:
    """Nouns of a class of compound and the group (SMARTS) its members have."""

    nouns: tuple[str, ...]
    smarts: str


@dataclass(frozen=True)
class ClassReferences:
    """References by a class of compound ("the imidate")."""

    name: str
    comment: str
    pattern: str
    classes: tuple[CompoundClass, ...]


@dataclass(frozen=True)
class InputRule:
    """When a reference found in the text is an input: what may stand before and after it."""

    name: str
    comment: str
    before: str
    after: str


@dataclass(frozen=True)
class LinkingRules:
    """When ``--link-documents auto`` links the documents of an input: the kinds of label a
    patent gives to one paragraph only, and the rules (written in code) that decide."""

    kinds: tuple[str, ...]
    repeated_label: NamedRule
    unique_source: NamedRule


@dataclass(frozen=True)
class ProcedureTable:
    """``rules/procedures.yaml``."""

    label: str
    procedure_headings: tuple[PatternRule, ...]
    step_headings: tuple[PatternRule, ...]
    listed_examples: PatternRule
    heading_label: PatternRule
    title_gap: PatternRule
    title_end: str
    document_label: PatternRule
    label_kinds: dict[str, str]
    reference_cues: tuple[str, ...]
    procedure_references: tuple[ProcedureReference, ...]
    replacements: tuple[ReplacementRule, ...]
    linking: LinkingRules
    step_references: tuple[PatternRule, ...]
    label_references: PatternRule
    label_definition: PatternRule
    class_references: ClassReferences
    product_references: PatternRule
    reference_input: InputRule
    code: tuple[NamedRule, ...]
    # compiled patterns, made once: by rule name, and the class of each noun
    compiled: dict[str, Any] = field(default_factory=dict, compare=False)

    def rule_names(self) -> list[str]:
        """Every rule of the table, in order."""
        return [r.name for r in (*self.procedure_headings, *self.step_headings,
                                 self.listed_examples,
                                 self.heading_label, self.title_gap,
                                 self.document_label,
                                 *self.procedure_references, *self.replacements,
                                 self.linking.repeated_label, self.linking.unique_source,
                                 *self.step_references, self.label_references,
                                 self.label_definition,
                                 self.class_references, self.product_references,
                                 self.reference_input, *self.code)]

    def kind(self, words: str) -> str:
        """The kind of label that heading words name ("General Procedure" -> procedure)."""
        key = " ".join(words.lower().split())
        key = self.label_kinds.get(key, key)
        return key[:-1] if key.endswith("s") and key[:-1] in self.label_kinds.values() else key

    def smarts_of(self, noun: str) -> str:
        """The SMARTS of a class noun (any case)."""
        return self.compiled["nouns"][" ".join(noun.lower().split())]


@shipped_cache
def procedure_table(name: str | Path = TABLE) -> ProcedureTable:
    """The checked table (see :func:`check_table`) ``rules/<name>`` (cached) or the table file
    at the path ``name`` (read each time: :func:`chemie.tables.shipped_cache`)."""
    return check_table(load_table(name, ProcedureTable), name)


def check_table(table: ProcedureTable, name: str | Path) -> ProcedureTable:
    """``table`` with its patterns compiled into ``table.compiled`` (TableError naming the key
    of a pattern that does not compile, of an empty SMARTS, or of a rule written in code that
    the table does not name; that RDKit reads every SMARTS is a test's)."""
    RULES.check([r.name for r in table.code], name, key="code", every_function=True)
    nouns: dict[str, str] = {}
    for i, c in enumerate(table.class_references.classes):
        if not c.smarts.strip():
            raise TableError(name, f"class_references.classes.{i}.smarts", "empty SMARTS")
        for noun in c.nouns:
            nouns.setdefault(" ".join(noun.lower().split()), c.smarts)
    table.compiled["nouns"] = nouns
    alternatives = "|".join(regex.escape(n).replace(r"\ ", r"\s+")
                            for n in sorted(nouns, key=len, reverse=True))
    items = [(f"{key}.{r.name}", r.name, r.pattern) for key in ("procedure_headings",
                                                               "step_headings")
             for r in getattr(table, key)]
    items += [("heading_label.pattern", "heading_label", table.heading_label.pattern),
              ("listed_examples.pattern", "listed_examples", table.listed_examples.pattern),
              ("title_gap.pattern", "title_gap", r"\A(?:" + table.title_gap.pattern + r")\Z"),
              ("title_end", "title_end", table.title_end),
              ("document_label.pattern", "document_label", table.document_label.pattern),
              ("label_references.pattern", "label_references", table.label_references.pattern),
              ("label_definition.pattern", "label_definition", table.label_definition.pattern),
              ("class_references.pattern", "class_references",
               "(?i:" + table.class_references.pattern.replace("{nouns}", alternatives) + ")"),
              ("product_references.pattern", "product_references",
               table.product_references.pattern),
              ("reference_input.before", "reference_before", table.reference_input.before),
              ("reference_input.after", "reference_after", table.reference_input.after)]
    items += [(f"procedure_references.{r.name}", r.name, r.pattern)
              for r in table.procedure_references]
    items += [(f"replacements.{r.name}", r.name, r.pattern) for r in table.replacements]
    items += [(f"step_references.{r.name}", r.name, r.pattern) for r in table.step_references]
    cues = "|".join(regex.escape(c) for c in table.reference_cues)
    items.append(("reference_cues", "reference_cues", rf"(?i)\b(?:{cues})"))
    for key, rule, pattern in items:
        try:
            table.compiled[rule] = regex.compile(pattern.replace("{label}", table.label))
        except regex.error as e:
            raise TableError(name, key, f"does not compile: {e}") from None
    return table
