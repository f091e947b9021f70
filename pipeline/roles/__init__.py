"""Reaction roles (ChEMU 2020 labels) for the ``chemie_roles`` component: the rule table,
what the rules read about a Doc, and the finders for compounds, conditions and triggers."""
