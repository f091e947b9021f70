"""CHEMDNER files (BioCreative IV): abstracts, gold annotations, CEM and CDI predictions.

- abstracts: ``PMID<TAB>title<TAB>abstract``
- gold annotations: ``PMID<TAB>T|A<TAB>start<TAB>end<TAB>text<TAB>class`` (offsets into the
  title (T) or the abstract (A), end exclusive)
- CEM predictions: ``PMID<TAB>T:0:16<TAB>rank<TAB>confidence``
- CDI predictions: ``PMID<TAB>name<TAB>rank<TAB>confidence``
- CDI gold: the unique mention texts per document of an annotation file, or ``PMID<TAB>name``
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

from chemie.errors import InputError, atomic_write, read_text

PARTS = ("T", "A")
_CEM_OFFSET = re.compile(r"[TA]:\d+:\d+")  # column 2 of a CEM prediction, never a name

PathLike = str | os.PathLike[str]


@dataclass(frozen=True)
class Abstract:
    pmid: str
    title: str
    abstract: str


@dataclass(frozen=True)
class Annotation:
    """A gold mention (or a predicted one before it is ranked)."""

    pmid: str
    part: str
    start: int
    end: int
    text: str
    cls: str


@dataclass(frozen=True)
class CEMPrediction:
    pmid: str
    part: str
    start: int
    end: int
    rank: int
    confidence: float

    @property
    def key(self) -> tuple[str, int, int]:
        return (self.part, self.start, self.end)


@dataclass(frozen=True)
class CDIPrediction:
    pmid: str
    name: str
    rank: int
    confidence: float


def _lines(path: PathLike, allow_empty: bool = False) -> Iterable[tuple[int, list[str]]]:
    text = read_text(path)
    if not text.strip() and not allow_empty:
        raise InputError(path, None, "empty file")
    for lineno, line in enumerate(text.split("\n"), start=1):  # "\n" only (not U+2028 …)
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if "\t" not in line:
            raise InputError(path, lineno, "expected tab-separated columns, found no tab")
        yield lineno, line.split("\t")


def _int(value: str, path: PathLike, lineno: int, what: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise InputError(path, lineno, f"{what} is not an integer: {value!r}") from None


def _float(value: str, path: PathLike, lineno: int, what: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise InputError(path, lineno, f"{what} is not a number: {value!r}") from None


def _check_offsets(a: int, b: int, path: PathLike, lineno: int) -> None:
    """InputError unless ``0 <= a < b``, saying whether the range is reversed."""
    if a > b:
        raise InputError(path, lineno, f"bad offsets {a}-{b}: reversed (start after end)")
    if not 0 <= a < b:
        raise InputError(path, lineno, f"bad offsets {a}-{b}")


def read_abstracts(path: PathLike) -> list[Abstract]:
    """Read ``PMID<TAB>title<TAB>abstract`` lines (the abstract may be empty)."""
    out = []
    seen: set[str] = set()
    for lineno, cols in _lines(path):
        if len(cols) not in (2, 3):
            raise InputError(path, lineno, f"expected PMID, title, abstract: {len(cols)} columns")
        pmid = cols[0].strip()
        if not pmid:
            raise InputError(path, lineno, "empty PMID")
        if pmid in seen:
            raise InputError(path, lineno, f"duplicate PMID {pmid}")
        seen.add(pmid)
        out.append(Abstract(pmid, cols[1], cols[2] if len(cols) == 3 else ""))
    return out


def read_annotations(path: PathLike) -> list[Annotation]:
    """Read gold annotations ``PMID, T|A, start, end, text, class``."""
    out = []
    for lineno, cols in _lines(path):
        if len(cols) != 6:
            raise InputError(
                path, lineno, f"expected PMID, T|A, start, end, text, class: {len(cols)} columns"
            )
        pmid, part, start, end, text, cls = cols
        if part not in PARTS:
            raise InputError(path, lineno, f"part must be T or A, not {part!r}")
        a, b = _int(start, path, lineno, "start"), _int(end, path, lineno, "end")
        _check_offsets(a, b, path, lineno)
        if len(text) != b - a:
            raise InputError(path, lineno, f"text length {len(text)} does not match {a}-{b}")
        out.append(Annotation(pmid, part, a, b, text, cls))
    return out


def parse_offset(value: str, path: PathLike, lineno: int) -> tuple[str, int, int]:
    """``T:0:16`` -> ("T", 0, 16)."""
    bits = value.split(":")
    if len(bits) != 3 or bits[0] not in PARTS:
        raise InputError(path, lineno, f"expected T:START:END or A:START:END, not {value!r}")
    a, b = _int(bits[1], path, lineno, "start"), _int(bits[2], path, lineno, "end")
    _check_offsets(a, b, path, lineno)
    return bits[0], a, b


def read_cem(path: PathLike) -> list[CEMPrediction]:
    """Read CEM predictions ``PMID, T:start:end, rank, confidence`` (may be empty)."""
    out = []
    for lineno, cols in _lines(path, allow_empty=True):
        if len(cols) != 4:
            raise InputError(
                path, lineno, f"expected PMID, PART:START:END, rank, confidence: {len(cols)} cols"
            )
        part, a, b = parse_offset(cols[1], path, lineno)
        rank = _int(cols[2], path, lineno, "rank")
        conf = _float(cols[3], path, lineno, "confidence")
        out.append(CEMPrediction(cols[0], part, a, b, rank, conf))
    return out


def read_cdi(path: PathLike) -> list[CDIPrediction]:
    """Read CDI predictions ``PMID, name, rank, confidence`` (may be empty)."""
    out = []
    for lineno, cols in _lines(path, allow_empty=True):
        if len(cols) != 4:
            raise InputError(
                path, lineno, f"expected PMID, name, rank, confidence: {len(cols)} columns"
            )
        if not cols[1].strip():
            raise InputError(path, lineno, "empty name")
        if _CEM_OFFSET.fullmatch(cols[1].strip()):
            raise InputError(path, lineno, f"name {cols[1]!r} is a CEM offset: this is a CEM "
                             "prediction file (chemie score cem), not CDI")
        rank = _int(cols[2], path, lineno, "rank")
        conf = _float(cols[3], path, lineno, "confidence")
        out.append(CDIPrediction(cols[0], cols[1], rank, conf))
    return out


def read_cdi_gold(path: PathLike) -> dict[str, set[str]]:
    """Gold CDI: unique names per PMID from an annotation file or ``PMID<TAB>name`` lines."""
    first = next(iter(_lines(path)))[1]
    gold: dict[str, set[str]] = {}
    if len(first) == 6:
        for a in read_annotations(path):
            gold.setdefault(a.pmid, set()).add(a.text)
        return gold
    for lineno, cols in _lines(path):
        if len(cols) != 2:
            raise InputError(path, lineno, f"expected PMID, name: {len(cols)} columns")
        gold.setdefault(cols[0], set()).add(cols[1])
    return gold


def _clean(text: str) -> str:
    return " ".join(text.replace("\t", " ").split())


def write_abstracts(path: PathLike, abstracts: Iterable[Abstract]) -> None:
    with atomic_write(path) as fh:
        for a in abstracts:
            fh.write(f"{a.pmid}\t{_clean(a.title)}\t{_clean(a.abstract)}\n")


def write_annotations(path: PathLike, annotations: Iterable[Annotation]) -> None:
    with atomic_write(path) as fh:
        for a in annotations:
            fh.write(f"{a.pmid}\t{a.part}\t{a.start}\t{a.end}\t{a.text}\t{a.cls}\n")


def format_cem(predictions: Iterable[CEMPrediction]) -> str:
    return "".join(
        f"{p.pmid}\t{p.part}:{p.start}:{p.end}\t{p.rank}\t{p.confidence:.4g}\n"
        for p in predictions
    )


def format_cdi(predictions: Iterable[CDIPrediction]) -> str:
    return "".join(
        f"{p.pmid}\t{_clean(p.name)}\t{p.rank}\t{p.confidence:.4g}\n" for p in predictions
    )


def write_cem(path: PathLike, predictions: Iterable[CEMPrediction]) -> None:
    text = format_cem(predictions)
    with atomic_write(path) as fh:
        fh.write(text)


def write_cdi(path: PathLike, predictions: Iterable[CDIPrediction]) -> None:
    text = format_cdi(predictions)
    with atomic_write(path) as fh:
        fh.write(text)


def rank_cem(pmid: str, mentions: Iterable[tuple[str, int, int, float]]) -> list[CEMPrediction]:
    """Rank ``(part, start, end, confidence)`` mentions of one document (best first)."""
    unique: dict[tuple[str, int, int], float] = {}
    for part, a, b, conf in mentions:
        unique[(part, a, b)] = max(conf, unique.get((part, a, b), 0.0))
    order = sorted(unique.items(), key=lambda kv: (-kv[1], PARTS.index(kv[0][0]), kv[0][1]))
    return [
        CEMPrediction(pmid, part, a, b, rank, conf)
        for rank, ((part, a, b), conf) in enumerate(order, start=1)
    ]


def rank_cdi(pmid: str, names: Iterable[tuple[str, float]]) -> list[CDIPrediction]:
    """Unique names of one document ranked by best confidence, then frequency, then name."""
    best: dict[str, float] = {}
    count: dict[str, int] = {}
    for name, conf in names:
        best[name] = max(conf, best.get(name, 0.0))
        count[name] = count.get(name, 0) + 1
    order = sorted(best, key=lambda n: (-best[n], -count[n], n))
    return [CDIPrediction(pmid, n, r, best[n]) for r, n in enumerate(order, start=1)]
