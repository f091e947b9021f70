"""chemie: rule-based chemical information extraction as spaCy pipeline components."""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

if TYPE_CHECKING:
    from spacy.language import Language


def load(**config: object) -> Language:
    """The full pipeline: chemical tokenizer, NER, mentions, actions, coreference, bridging."""
    from chemie.nlp import load as _load

    return _load(**config)


__all__ = ["__version__", "load"]
