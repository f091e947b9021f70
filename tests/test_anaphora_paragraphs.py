"""Issue 22 classes on hand-written paragraphs (tests/fixtures/anaphora/paragraphs.yaml): the
reaction as a thing, vessels, salts and described products, catalysts and filter aids,
solvents, hydrogenations, through the whole pipeline on raw text."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from chemie.model import Document
from chemie.nlp import annotate_text, load
from chemie.scoring.anaphora import doc_pairs

PARAGRAPHS = yaml.safe_load(
    (Path(__file__).parent / "fixtures" / "anaphora" / "paragraphs.yaml").read_text("utf-8")
)


@pytest.fixture(scope="module")
def nlp():
    return load()


def linked(doc: Document) -> set[tuple[str, str, str]]:
    """(label, anaphor text, antecedent text) of every scored link (coreference expanded)."""
    pairs, _ = doc_pairs(doc)
    return {(label, a.text, b.text) for label, found in pairs.items() for a, b in found}


@pytest.mark.parametrize("paragraph", PARAGRAPHS, ids=[p["name"] for p in PARAGRAPHS])
def test_paragraph_links(nlp, paragraph):
    got = linked(annotate_text(nlp, paragraph["text"], paragraph["name"]))
    for link in paragraph["expect"]:
        assert tuple(link) in got, f"missing {link}"
    for link in paragraph.get("absent", []):
        assert tuple(link) not in got, f"made {link}"
