"""Reactions with structures (issue 15): amounts, assembly, roles and the records built from
them. The record itself (:class:`~chemie.model.reaction.Reaction` and its parts,
JSON-serialisable, with its mapping to the Open Reaction Database) is in
:mod:`chemie.model.reaction`.
"""
