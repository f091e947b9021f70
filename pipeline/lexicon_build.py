"""Rebuild the derived lexicons from the bc5cdr-chem TRAINING split (deterministic).

    python -m chemie.lexicon_build [--train PATH] [--out DIR] [--min-precision 0.5]

Writes ``bc5cdr_chemicals.tsv`` (chemical names seen as B/I-Chemical in training whose
token sequence is tagged as a whole chemical mention in at least ``min_precision`` of its
occurrences) and ``bc5cdr_nonchemical.txt`` (words of 4+ letters seen at least twice and
tagged O in at least 95 % of their occurrences: a veto list for the morphology rules).
Only the training file is read; output is sorted, so re-running gives identical files.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from chemie.corpora import data_dir
from chemie.errors import InputError, atomic_write
from chemie.formats.iob import IOBSentence, iob_spans, read_iob

CHEMICALS_FILE = "bc5cdr_chemicals.tsv"
NONCHEMICAL_FILE = "bc5cdr_nonchemical.txt"
MAX_WORDS = 12  # longer training mentions are too specific to be worth a lexicon entry


@dataclass(frozen=True)
class DerivedEntry:
    """A training chemical name: surface form (tokens joined by spaces), counts, precision."""

    name: str
    count: int
    occurrences: int

    @property
    def precision(self) -> float:
        return self.count / self.occurrences if self.occurrences else 0.0


def derive_chemicals(
    sentences: Sequence[IOBSentence], min_precision: float = 0.5
) -> list[DerivedEntry]:
    """Chemical names from training IOB with the precision filter, sorted by name."""
    tagged: Counter[tuple[str, ...]] = Counter()
    surface: dict[tuple[str, ...], Counter[str]] = {}
    for s in sentences:
        for start, end, kind in iob_spans(s.tags):
            if kind != "Chemical" or end - start > MAX_WORDS:
                continue
            words = s.words[start:end]
            key = tuple(w.lower() for w in words)
            tagged[key] += 1
            surface.setdefault(key, Counter())[" ".join(words)] += 1
    lengths = sorted({len(k) for k in tagged})
    seen: Counter[tuple[str, ...]] = Counter()
    for s in sentences:
        lower = [w.lower() for w in s.words]
        for n in lengths:
            for i in range(len(lower) - n + 1):
                key = tuple(lower[i : i + n])
                if key in tagged:
                    seen[key] += 1
    entries = []
    for key, count in tagged.items():
        form = min(surface[key].items(), key=lambda kv: (-kv[1], kv[0]))[0]
        entry = DerivedEntry(form, count, max(seen[key], count))
        if entry.precision >= min_precision:
            entries.append(entry)
    return sorted(entries, key=lambda e: (e.name.lower(), e.name))


def derive_nonchemical(
    sentences: Sequence[IOBSentence], min_count: int = 2, min_o_ratio: float = 0.95
) -> list[str]:
    """Lowercase words (4+ letters) mostly tagged O in training, sorted."""
    total: Counter[str] = Counter()
    outside: Counter[str] = Counter()
    for s in sentences:
        for w, t in zip(s.words, s.tags, strict=True):
            if len(w) >= 4 and w.isalpha():
                lw = w.lower()
                total[lw] += 1
                outside[lw] += t == "O"
    return sorted(
        w for w, n in total.items() if n >= min_count and outside[w] / n >= min_o_ratio
    )


def write_lexicons(
    train: Path, out_dir: Path, min_precision: float = 0.5, command: str = ""
) -> tuple[Path, Path]:
    """Derive both lists from ``train`` and write them (atomically) into ``out_dir``."""
    sentences = read_iob(train)
    chemicals = derive_chemicals(sentences, min_precision)
    nonchem = derive_nonchemical(sentences)
    command = command or f"python -m chemie.lexicon_build --min-precision {min_precision}"
    header = (
        f"# Derived automatically; do not edit by hand. Produced by: {command}\n"
        f"# Source: bc5cdr-chem/{train.name} (training split only)\n"
    )
    chem_path = out_dir / CHEMICALS_FILE
    with atomic_write(chem_path) as fh:
        fh.write(header)
        fh.write(
            f"# Chemical names tagged B/I-Chemical in training, kept when the token sequence "
            f"is a whole chemical mention in >= {min_precision:.2f} of its occurrences.\n"
            "# name (tokens joined by spaces)\tchemical_count\toccurrences\n"
        )
        for e in chemicals:
            fh.write(f"{e.name}\t{e.count}\t{e.occurrences}\n")
    stop_path = out_dir / NONCHEMICAL_FILE
    with atomic_write(stop_path) as fh:
        fh.write(header)
        fh.write("# Words (4+ letters, seen >= 2 times) tagged O in >= 95% of occurrences.\n")
        for w in nonchem:
            fh.write(w + "\n")
    return chem_path, stop_path


def main(argv: list[str] | None = None) -> int:
    repo_lexicons = Path(__file__).resolve().parent.parent / "lexicons"
    p = argparse.ArgumentParser(prog="python -m chemie.lexicon_build", description=__doc__)
    p.add_argument("--train", type=Path, default=None, help="bc5cdr-chem/train.tsv")
    p.add_argument("--out", type=Path, default=repo_lexicons, help="output folder")
    p.add_argument("--min-precision", type=float, default=0.5)
    args = p.parse_args(argv)
    train = args.train or data_dir() / "bc5cdr-chem" / "train.tsv"
    try:
        paths = write_lexicons(train, args.out, args.min_precision)
    except InputError as e:
        print(f"chemie: {e}", file=sys.stderr)
        return 2
    for path in paths:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
