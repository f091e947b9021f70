"""Load a relation-classification input in any supported format and write predictions.

Formats: ``unified`` (tokens file + pairs file; the pair order gives the direction),
``semeval`` (XML + relation/pairs file; direction to be predicted) and ``scierc``
(one json file; relations give the pairs and their order the direction).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import IO

from chemie.errors import InputError
from chemie.formats import scierc, semeval, unified
from chemie.model.rc import Pair, RCDocument, RCExample
from chemie.rc.examples import build_examples

FORMATS = ("unified", "semeval", "scierc")


@dataclass
class RCTask:
    """Documents, (gold or unlabelled) pairs and examples of one input."""

    fmt: str
    docs: dict[str, RCDocument]
    pairs: list[Pair]
    examples: list[RCExample]
    pairs_path: Path


def detect(path: Path) -> str:
    """The format of a main input file: .json/.jsonl scierc, .xml semeval, else unified."""
    if path.suffix in (".json", ".jsonl"):
        return "scierc"
    if path.suffix == ".xml":
        return "semeval"
    return "unified"


def load(path: Path, pairs: Path | None = None, fmt: str = "auto") -> RCTask:
    """Read an input; InputError for a missing pairs file or pairs that cannot be examples."""
    fmt = detect(path) if fmt == "auto" else fmt
    if fmt == "scierc":
        if pairs is not None:
            raise InputError(pairs, None, "a SciERC json file carries its own pairs")
        docs, pair_list = scierc.read(path)
        pairs_path = path
    else:
        if pairs is None:
            raise InputError(path, None, f"{fmt} input needs a pairs file")
        if fmt == "semeval":
            docs, pair_list = semeval.read_xml(path), semeval.read_relations(pairs)
        else:
            docs, pair_list = unified.read_tokens(path), unified.read_pairs(pairs)
        pairs_path = pairs
    examples = build_examples(docs, pair_list, pairs_path, direction_known=fmt != "semeval")
    return RCTask(fmt, docs, pair_list, examples, pairs_path)


def restrict(task: RCTask, doc_ids: set[str] | frozenset[str]) -> RCTask:
    """The part of a task whose documents are in ``doc_ids``."""
    docs = {k: v for k, v in task.docs.items() if k in doc_ids}
    kept = [i for i, ex in enumerate(task.examples) if ex.doc_id in doc_ids]
    return RCTask(
        task.fmt,
        docs,
        [task.pairs[i] for i in kept],
        [task.examples[i] for i in kept],
        task.pairs_path,
    )


def check_unique(task: RCTask) -> list[str]:
    """Warnings for pairs that repeat an earlier line verbatim (the same two entities in the
    same order with the same label, or both unlabelled: public test files do this; each line
    is classified, so the output keeps one line per input line, and ``chemie score rc``
    counts such a gold pair once); InputError (FILE:LINE) at a pair that repeats the same
    two entities with another label or the other direction, which no single prediction
    can match."""
    seen: dict[tuple[str, str], Pair] = {}
    warnings = []
    for pair in task.pairs:
        first = seen.setdefault(pair.key(), pair)
        if first is pair:
            continue
        where = f"line {first.line}" if first.line != pair.line else "an earlier pair"
        if (first.head, first.label) != (pair.head, pair.label):
            raise InputError(task.pairs_path, pair.line, f"pair {pair.head},{pair.tail} "
                             f"repeats {where} with another label or direction")
        warnings.append(f"{task.pairs_path}:{pair.line}: pair {pair.head},{pair.tail} "
                        f"repeats {where}: classified again")
    return warnings


def write(task: RCTask, pairs: list[Pair], fh: IO[str], explain: bool = False) -> None:
    """Write predicted pairs in the task's format."""
    if task.fmt == "scierc":
        scierc.write(task.docs, pairs, fh, explain)
    elif task.fmt == "semeval":
        semeval.write_relations(pairs, fh, explain)
    else:
        unified.write_pairs(pairs, fh, explain)
