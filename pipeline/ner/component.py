"""``chemie_ner``: the rule-based chemical NER (:class:`~chemie.ner.finder.ChemicalNER`) as
a spaCy component, built from the shipped rules and lexicons."""

from __future__ import annotations

from spacy.language import Language

from chemie.ner.finder import ChemicalNER, shared_index, shipped_files


@Language.factory(
    "chemie_ner",
    default_config={"nonchemical_veto": "rules", "abbreviation_window": 0, "derived": True},
    assigns=["doc.spans", "span._.chem_rule", "span._.chem_conf"],
)
def make_chemical_ner(
    nlp: Language, name: str, nonchemical_veto: str, abbreviation_window: int, derived: bool
) -> ChemicalNER:
    """spaCy factory: the rule-based chemical NER with the shipped lexicons."""
    ner = ChemicalNER(
        index=shared_index(derived),
        nonchemical_veto=nonchemical_veto,
        abbreviation_window=abbreviation_window,
    )
    ner.table_files = shipped_files(derived)
    return ner
