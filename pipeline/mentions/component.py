"""The ``chemie_mentions`` factory: the mention detector of ``rules/<rules>``."""

from __future__ import annotations

from spacy.language import Language

from chemie.mentions.detector import MentionDetector
from chemie.mentions.table import MentionTables
from chemie.saving import table_sources


@Language.factory(
    "chemie_mentions",
    default_config={"rules": "mentions.yaml"},
    requires=["token.is_sent_start"],
    assigns=["doc._.mentions"],
)
def make_mentions(nlp: Language, name: str, rules: str) -> MentionDetector:
    """The mention detector configured from ``rules/<rules>``."""
    detector = MentionDetector(MentionTables.load(rules))
    detector.table_files = table_sources(rules)
    return detector
