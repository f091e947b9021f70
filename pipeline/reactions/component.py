"""Reaction records (factory ``chemie_reactions``): reactants, reagents, products with
structures, amounts, yield, conditions and steps, after ``chemie_roles``.

Writes :class:`chemie.model.reaction.Reaction` objects to ``doc._.reactions``, one per
step that makes a product (see :mod:`chemie.reactions.records`). Roles follow the USPTO
convention and name their rule (``rules/reactions.yaml``): the reactant-or-reagent decision
of :mod:`chemie.reactions.decision`, by text, then, with structures, by the atom accounting
of each reaction, whose decisions the ChEMU 2020 labels of ``doc._.roles`` then follow
(:mod:`chemie.reactions.labels`). A record states the checks it failed (``problems``: a
name without a structure, product atoms no species gives, an accounting that ran out of
time …). Structures come from the
compound dictionary and OPSIN (one batch per document, through
:class:`chemie.structures.resolve.Resolver`); with ``structures=False`` nothing is resolved
(no JVM, RDKit is not even imported: components have ``structure`` None, the structure
rules do not run, and a reference by class of compound, "the imidate", takes the previous
product); with ``opsin=False`` only the dictionary is used. Steps, references to earlier
products and general procedures follow ``rules/procedures.yaml``
(:mod:`chemie.reactions.records`). ``nlp.to_disk`` saves both rule tables with the pipeline
(the grounding rules and the compound dictionary are read from the installed package).
"""

from __future__ import annotations

import functools
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc

from chemie.context import (
    actions_of,
    doc_id_of,
    doc_text,
    mentions_of,
    reactions_of,
    relations_of,
    roles_of,
)
from chemie.model.reaction import Problem
from chemie.reactions.assemble import DocView, candidates
from chemie.reactions.implied import implied_species
from chemie.reactions.labels import follow
from chemie.reactions.procedures_table import procedure_table
from chemie.reactions.records import records
from chemie.reactions.roles import text_roles
from chemie.reactions.sections import plan
from chemie.reactions.table import reaction_table
from chemie.saving import SavesTables, table_sources


class ReactionAssembler(SavesTables):
    """Builds the reaction records of a Doc (``to_disk`` saves its rule table, ``from_disk``
    reads it back)."""

    def __init__(self, rules: str | Path, procedures: str | Path, structures: bool,
                 opsin: bool):
        self.table = reaction_table(rules)
        self.steps = procedure_table(procedures)
        self.table_files = table_sources(rules, procedures)
        self.names = (Path(rules).name, Path(procedures).name)
        self.structures = structures
        self.opsin = opsin
        self._resolver = None

    def load_tables(self, files: dict[str, Path]) -> None:
        """Use the rule tables in ``files`` (see :class:`~chemie.saving.SavesTables`)."""
        rules, procedures = self.names
        self.__init__(files[rules], files[procedures], self.structures, self.opsin)

    @property
    def resolver(self):  # noqa: ANN201  (imported on first use: RDKit and the JVM)
        if self._resolver is None:
            from chemie.reactions.grounded import StructureResolver  # noqa: PLC0415
            from chemie.structures.resolve import Resolver  # noqa: PLC0415

            self._resolver = StructureResolver(Resolver(use_opsin=self.opsin), self.table)
        return self._resolver

    def __call__(self, doc: Doc) -> Doc:
        view = doc_view(doc)
        sections = plan(view, self.steps)
        found = candidates(view, self.table, sections.kept)
        implied = functools.partial(implied_species, table=self.table,
                                    structures=self.structures)
        if not self.structures:
            text_roles(found, self.table)
            reactions_of(doc).extend(records(view, self.table, found, None, implied,
                                             sections=sections, steps_table=self.steps))
            return doc
        from chemie.reactions.structure_roles import structure_roles, unresolved  # noqa: PLC0415
        from chemie.structures.chem import has_group  # noqa: PLC0415

        if found:
            found = self.resolver.resolve(view, found)
        decided = text_roles(found, self.table)

        def check(members: list) -> list[Problem]:
            outcome = structure_roles(members, self.table)
            decided.extend(outcome.decisions)
            return outcome.problems

        reactions = records(view, self.table, found, check, implied, sections=sections,
                            steps_table=self.steps, has_group=has_group)
        for reaction in reactions:
            reaction.problems[:0] = unresolved(reaction)
        follow(doc, decided)  # the ChEMU 2020 labels follow the decisions
        reactions_of(doc).extend(reactions)
        return doc


def doc_view(doc: Doc) -> DocView:
    """What assembly reads from a Doc that went through ``chemie_roles``."""
    links: dict[str, dict[str, list[str]]] = {"COREFERENCE": {}, "TRANSFORMED": {}}
    for r in relations_of(doc):
        if r.label in links:
            links[r.label].setdefault(r.head, []).append(r.tail)
    return DocView(str(doc_id_of(doc) or ""), doc_text(doc), list(roles_of(doc)),
                   list(mentions_of(doc)), list(actions_of(doc)), links["COREFERENCE"],
                   links["TRANSFORMED"])


@Language.factory(
    "chemie_reactions",
    default_config={"rules": "reactions.yaml", "procedures": "procedures.yaml",
                    "structures": True, "opsin": True},
    requires=["doc._.mentions", "doc._.actions", "doc._.relations", "doc._.roles"],
    assigns=["doc._.reactions", "doc._.roles", "doc.spans"],
)
def make_reaction_assembler(nlp: Language, name: str, rules: str, procedures: str,
                            structures: bool, opsin: bool) -> ReactionAssembler:
    """The reaction assembler configured from the rule tables in ``rules/``."""
    return ReactionAssembler(rules, procedures, structures, opsin)
