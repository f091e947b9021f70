"""Bridging: relations between mentions that are not the same compound (stage package).

``chemie_bridging`` (:mod:`chemie.bridging.component`) walks the mentions of each step
(:mod:`chemie.bridging.walk`), tells what each is (:mod:`chemie.bridging.classify`), and links
states and vessels by the rules of ``rules/bridging.yaml`` (schema :mod:`chemie.bridging.table`),
each a function registered in :mod:`chemie.bridging.rules`; :mod:`chemie.bridging.state` holds the
per-document state they share.
"""
