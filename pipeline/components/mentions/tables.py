"""The word lists of ``rules/mentions.yaml``."""

from __future__ import annotations

from dataclasses import dataclass

from chemie.resources import load_rules


@dataclass(frozen=True)
class MentionTables:
    """The word lists of ``rules/mentions.yaml`` as lowercase sets."""

    determiners: frozenset[str]
    generic: frozenset[str]
    reference: frozenset[str]
    equipment: frozenset[str]
    chemical: frozenset[str]
    modifiers: frozenset[str]
    stop: frozenset[str]
    units: frozenset[str]
    heading: frozenset[str]
    confidence: dict[str, float]  # rule name -> mention confidence
    # reaction_as_subject: verbs, not_after, process (participles after the verb: no mention)
    reaction_filter: tuple[frozenset[str], frozenset[str], frozenset[str]]
    adjective_filter: tuple[tuple[str, ...], tuple[str, ...]]  # adjective_head: suffixes, except
    # determined_head: heads, determiners, not_after
    determined_filter: tuple[frozenset[str], frozenset[str], frozenset[str]]
    partitives: frozenset[str]  # non_partitive_of: nouns that measure out what follows "of"
    infinitive_verbs: frozenset[str]  # infinitive_verb: verbs that are no mention after "to"
    pronoun_verbs: frozenset[str]  # pronoun_subject: "it was <verb>" makes "it" a mention

    @classmethod
    def load(cls, name: str = "mentions.yaml") -> MentionTables:
        t = load_rules(name)

        def s(key: str) -> frozenset[str]:
            return frozenset(str(w).lower() for w in t[key])

        return cls(
            s("determiners"), s("generic_heads"), s("reference_heads"), s("equipment_heads"),
            s("chemical_words"), s("modifiers"), s("stop_words"), s("units"),
            s("heading_words"),
            {str(r["name"]): float(r.get("confidence", 0.5)) for r in t.get("rules", [])},
            _filter_words(t, "reaction_as_subject"),
            _adjective_suffixes(t),
            _determined_heads(t),
            frozenset(
                str(w).lower()
                for f in t.get("filters", []) if f["name"] == "non_partitive_of"
                for w in f.get("partitives", ())
            ),
            frozenset(
                str(w).lower()
                for f in t.get("filters", []) if f["name"] == "infinitive_verb"
                for w in f.get("verbs", ())
            ),
            frozenset(str(w).lower() for w in t.get("pronoun_verbs", ())),
        )


def _filter_words(
    t: dict, name: str
) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The ``verbs``, ``not_after`` and ``process`` word sets of the filter ``name`` in the
    rules table."""
    f = next((x for x in t.get("filters", []) if x["name"] == name), {})
    return (
        frozenset(str(w).lower() for w in f.get("verbs", ())),
        frozenset(str(w).lower() for w in f.get("not_after", ())),
        frozenset(str(w).lower() for w in f.get("process", ())),
    )


def _determined_heads(t: dict) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The ``heads``, ``determiners`` and ``not_after`` of the ``determined_head`` filter."""
    f = next((x for x in t.get("filters", []) if x["name"] == "determined_head"), {})
    return tuple(  # type: ignore[return-value]
        frozenset(str(w).lower() for w in f.get(key, ()))
        for key in ("heads", "determiners", "not_after")
    )


def _adjective_suffixes(t: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ``suffixes`` and ``except_suffixes`` of the ``adjective_head`` filter."""
    f = next((x for x in t.get("filters", []) if x["name"] == "adjective_head"), {})
    return (
        tuple(str(w).lower() for w in f.get("suffixes", ())),
        tuple(str(w).lower() for w in f.get("except_suffixes", ())),
    )

