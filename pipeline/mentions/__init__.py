"""``chemie_mentions``: ChEMU-Ref mentions (chemical NPs with quantities, generic expressions,
equipment, numbered compounds) from a class string over the tokens.

The mention table ``rules/mentions.yaml`` drives it all; the package's modules:

- ``table``: the table's schema (typed loading) and its compiled word lists and shapes;
- ``tagger``: one class letter per token (the table's ``alphabet``), then the context
  re-lettering (its ``context`` steps): the class string of the doc;
- ``grammar``: the regex fragments with ``{NAME}`` placeholders, compiled into the mention
  pattern and its variants;
- ``detector``: the component: ``match()`` (the pattern over the class string, each match
  validated into :class:`~chemie.mentions.candidate.Candidate` mentions, then the
  post-passes) and ``set_annotations()`` (``doc._.mentions``);
- ``passes``: the post-passes, registered by rule name, run in the table's ``passes`` order;
- ``candidate``: the candidate and the one method that makes a Mention of it;
- ``docdata``: what the component reads from a Doc (sentence starts, NER chemical spans);
- ``document``: helpers other components import (``doc_text``, ``token_info``,
  ``describe_mention``).

Each :class:`~chemie.model.Mention` gets its typed fields: ``kind`` (chemical | generic |
reference | equipment | state), ``head`` (lowercased head word), ``sentence`` (index),
``tokens`` (first, last inclusive, over the whole mention), ``core`` ((first, last) tokens of
the name without quantities), ``det`` (its determiner or ""), ``quantity`` (has an amount),
``abbreviation`` (a bracketed abbreviation or label), ``ranges`` (token ranges) and, for
chemicals that hold NER spans, ``chemdner_class``. NER spans (``doc.spans["chemicals"]``) are
chemical seeds when present.
"""

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
