"""The action stage: ``chemie_actions`` (:mod:`chemie.actions.component`, ``rules/actions.yaml``),
ChemicalTagger-style action phrases and their arguments."""
