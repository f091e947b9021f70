"""Run the pipeline over a gold ChEMU 2020 brat folder and score its roles in one step."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from spacy.language import Language

from chemie.errors import InputError, read_text
from chemie.formats.brat import read_brat_dir
from chemie.formats.chemu2020 import roles_as_mentions
from chemie.model import Document
from chemie.nlp import annotate
from chemie.scoring.entities import score_entities
from chemie.scoring.report import ScoreReport


def jsonl_order(path: Path) -> list[str]:
    """The ``doc_key`` of each line of a ChEMU-Ref jsonl file, in file order."""
    keys = []
    for lineno, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            keys.append(str(json.loads(line)["doc_key"]))
        except (ValueError, KeyError, TypeError):
            raise InputError(path, lineno, "expected a JSON object with a doc_key") from None
    return keys


def gold_documents(folder: Path, start: int, end: int | None,
                   order: list[str] | None = None) -> list[Document]:
    """Documents ``start..end-1`` of a brat folder, by file name or in ``order`` (doc keys;
    a key without a file is skipped, a file without a key is left out)."""
    docs = {d.id: d for d in read_brat_dir(folder)}
    keys = sorted(docs) if order is None else [k for k in order if k in docs]
    return [docs[k] for k in keys[start:end]]


def predict(nlp: Language, gold: Iterable[Document]) -> Iterator[Document]:
    """The pipeline's roles for the text of each gold document, as mentions."""
    for g in gold:
        yield roles_as_mentions(annotate(nlp, Document(g.id, g.text)))


def evaluate(nlp: Language, gold: list[Document]) -> ScoreReport:
    """Score the pipeline's roles against ``gold`` (see :mod:`chemie.scoring.entities`)."""
    return score_entities(gold, predict(nlp, gold))
