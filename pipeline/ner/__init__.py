"""The NER stage: ``chemie_ner`` (:mod:`chemie.ner.component`, a thin component over the
engine :mod:`chemie.ner.finder`), its rules (:mod:`chemie.ner.rules`, ``rules/ner.yaml``) and
lexicon index (:mod:`chemie.ner.lexicon`)."""
