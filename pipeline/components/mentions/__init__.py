"""``chemie_mentions``: ChEMU-Ref mentions (chemical NPs with quantities, generic expressions,
equipment, numbered compounds) from a class string over the tokens.

Every token gets one class letter (tables in ``rules/mentions.yaml``); compiled patterns over
the class string of the whole doc find the mentions, so nothing loops a regex per token except
the cached word-shape lookup. NER spans (``doc.spans["chemicals"]``) are used as chemical
seeds when present. Each mention gets ``attrs``: ``kind`` (chemical | generic | reference |
equipment | state), ``head`` (lowercased head word), ``sentence`` (index), ``tokens`` (first,
last inclusive, over the whole mention) plus ``quantity`` (has an amount), ``det`` (its
determiner or ""), ``core`` ((first, last) tokens of the name without quantities).

Class letters: D determiner, W other lowercase word/modifier, C chemical word, G generic head,
K reference head (compound, intermediate …), E equipment head, Z identifier (1b, F1304),
N number, A fused amount (7.13g), U unit, O "of", I "in", S stop word, ``,`` comma → P,
``.`` / ``;`` → ``.``, brackets → ``(`` ``)``, ``/`` and ``-`` joiners, ``#`` a number sign
after a reference head (Compound No. 5), V a name fused with the opening of its quantity
bracket ("DCM(15"), X anything else.
"""

from __future__ import annotations

from spacy.language import Language

from chemie.components.mentions.detector import MentionDetector
from chemie.components.mentions.tables import MentionTables


@Language.factory("chemie_mentions", default_config={"rules": "mentions.yaml"})
def make_mentions(nlp: Language, name: str, rules: str) -> MentionDetector:
    """The mention detector configured from ``rules/<rules>``."""
    return MentionDetector(MentionTables.load(rules))
