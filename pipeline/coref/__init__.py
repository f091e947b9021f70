"""The coreference stage: ``chemie_coref`` (:mod:`chemie.coref.component`) and its rules, each a
function registered with its gate (:mod:`chemie.coref.rules`, ``rules/coref.yaml``)."""
