"""The NER stage: ``chemie_ner`` (:mod:`chemie.ner.component`), its rules
(:mod:`chemie.ner.rules`, ``rules/ner.yaml``) and lexicon index (:mod:`chemie.ner.lexicon`)."""
