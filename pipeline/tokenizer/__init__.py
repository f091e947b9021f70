"""The tokenizer stage: the ``chemie`` spaCy language and its chemical tokenizer
(:mod:`chemie.tokenizer.language`, ``rules/tokenizer.yaml``) and the sentence segmenter
``chemie_sentences`` (:mod:`chemie.tokenizer.sentences`)."""
