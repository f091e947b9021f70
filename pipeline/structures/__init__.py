"""Names to structures (issue 15): grounding, the curated dictionary, OPSIN, RDKit utilities.

- :mod:`chemie.structures.grounding`: a mention's text -> the names to resolve, with what
  was stripped and why (rules in ``rules/grounding.yaml``).
- :mod:`chemie.structures.dictionary`: ``lexicons/compounds.tsv``, looked up before OPSIN.
- :mod:`chemie.structures.opsin`: one long-lived OPSIN JVM per process (the py2opsin jar).
- :mod:`chemie.structures.resolve`: names -> :class:`~chemie.structures.resolve.Resolution`.
- :mod:`chemie.structures.chem`: canonical SMILES, InChIKey, fragments, skeleton keys.
"""
