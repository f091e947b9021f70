"""``chemie_mentions``: ChEMU-Ref mentions (chemical NPs with quantities, generic expressions,
equipment, numbered compounds) from a class string over the tokens.

The mention table ``rules/mentions.yaml`` drives it all; the package's modules:

- ``table``: the table's schema (typed loading) and its compiled word lists and shapes;
- ``tagger``: one class letter per token (the table's ``alphabet``), then the context
  re-lettering (its ``context`` steps): the class string of the doc;
- ``grammar``: the named, commented regex fragments (``{NAME}`` placeholders), composed into
  the mention pattern and its variants;
- ``component``: the factory ``chemie_mentions`` (a thin spaCy component);
- ``detector``: the detector: ``match()`` (the pattern over the class string, each match
  validated into :class:`~chemie.mentions.candidate.Candidate` mentions, then the
  post-passes) and ``set_annotations()`` (``doc._.mentions``);
- ``groups``: the checks of the rules that a group of the pattern makes (``grammar.checks``);
- ``passes``: the post-passes, run in the table's ``passes`` order;
- ``coded``: the registry of those checks and passes by rule name (the mention stage's part
  of :mod:`chemie.registry`), checked against the table;
- ``runs``: the detector's tests on runs of the class string (no state);
- ``candidate``: the candidate and the one method that makes a Mention of it
  (``add_mentions``: the candidates of a doc into ``doc._.mentions``);
- ``docdata``: what the component reads from a Doc beyond :mod:`chemie.context` (the
  sentence of a token, the NER confidence of a span);
- ``document``: what the tables say of a given (gold) mention (``describe_mention``).

Each :class:`~chemie.model.Mention` gets its typed fields: ``kind`` (chemical | generic |
reference | equipment | state), ``head`` (lowercased head word), ``sentence`` (index),
``tokens`` (first, last inclusive, over the whole mention), ``core`` ((first, last) tokens of
the name without quantities), ``det`` (its determiner or ""), ``quantity`` (has an amount),
``abbreviation`` (a bracketed abbreviation or label), ``ranges`` (token ranges) and, for
chemicals that hold NER spans, ``chemdner_class``. NER spans (``doc.spans["chemicals"]``) are
chemical seeds when present.
"""
