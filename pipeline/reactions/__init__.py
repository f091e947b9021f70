"""Reactions with structures (issue 15): the record model, amounts, assembly and roles.

- :mod:`chemie.reactions.model`: the record (:class:`~chemie.reactions.model.Reaction` and
  its parts), JSON-serialisable, with its mapping to the Open Reaction Database.
"""
