"""The statistical back-off behind the cue rules: a naive-Bayes vote over mined cue counts.

When no rule of ``rules/rc.yaml`` fires, the label is not simply the majority label:
the words of the example vote, weighted by how often they went with each unified
label and direction in sci-rc-unified/sample-train. The counts live in
``rules/rc_backoff.tsv``, built by ``python -m chemie.rc.build_backoff`` (deterministic,
tuning documents only, never hand-edited). Features (:func:`features`): the head word
(last word) of each entity and, when the entities are close, each word and each pair of
adjacent words between them.
Classes are a unified label plus a direction (``>`` forward, ``<`` reverse); a known
direction restricts the vote to its classes. Multinomial naive Bayes with add-one
smoothing; an example none of whose features is in the table gets no vote (the
classifier's default label then stands).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from chemie.rc.features import Context
from chemie.resources import rules_path

TABLE = "rc_backoff.tsv"
MAX_GAP = 8  # words between the entities still counted as cues
MIN_COUNT = 2  # features seen fewer times in the tuning data are left out of the table
ALPHA = 1.0  # add-alpha smoothing
FORWARD, REVERSE = ">", "<"
PRIOR = "#prior"


def features(ctx: Context) -> list[str]:
    """The back-off features of a rule context: entity head words, words and word pairs between."""
    out = []
    for name, text in (("h1", ctx.e1), ("h2", ctx.e2)):
        words = text.split()
        if words:
            out.append(f"{name}={words[-1]}")
    if ctx.gap <= MAX_GAP:
        words = ctx.between.split()
        out.extend(f"b={w}" for w in sorted(set(words)))
        out.extend(f"bb={a}_{b}" for a, b in sorted(set(zip(words, words[1:], strict=False))))
    return out


def class_name(label: str, reverse: bool) -> str:
    """A back-off class: unified label and direction mark (``USAGE>``, ``RESULT<``)."""
    return label + (REVERSE if reverse else FORWARD)


@dataclass(frozen=True)
class Vote:
    """The back-off's decision: a unified label and a direction."""

    label: str
    reverse: bool


class Backoff:
    """Naive Bayes over the mined count table (class -> prior and feature counts)."""

    def __init__(self, classes: list[str], prior: dict[str, int],
                 counts: dict[str, dict[str, int]]):
        self.classes = classes
        total = sum(prior.values())
        vocab = len(counts)
        mass = {c: sum(row.get(c, 0) for row in counts.values()) for c in classes}
        self.log_prior = {
            c: math.log((prior.get(c, 0) + ALPHA) / (total + ALPHA * len(classes)))
            for c in classes
        }
        self.log_p = {
            f: {c: math.log((row.get(c, 0) + ALPHA) / (mass[c] + ALPHA * vocab)) for c in classes}
            for f, row in counts.items()
        }

    def vote(self, ctx: Context, reverse: bool | None) -> Vote | None:
        """The best class for ``ctx`` (among the known direction's, if any); None: no evidence."""
        known = [f for f in features(ctx) if f in self.log_p]
        if not known:
            return None
        allowed = [c for c in self.classes
                   if reverse is None or c.endswith(REVERSE if reverse else FORWARD)]
        if not allowed:
            return None
        score = {c: self.log_prior[c] + sum(self.log_p[f][c] for f in known) for c in allowed}
        best = max(allowed, key=lambda c: (score[c], c))
        return Vote(best[:-1], best.endswith(REVERSE))


def parse(lines: list[str]) -> Backoff:
    """A back-off from the table's lines (``#`` comments; header row; ``#prior`` row)."""
    rows = [line.rstrip("\n").split("\t") for line in lines
            if line.strip() and (not line.startswith("#") or line.startswith(PRIOR + "\t"))]
    header, body = rows[0], rows[1:]
    if header[0] != "feature":
        raise ValueError(f"{TABLE}: first row must be the header 'feature<TAB>classes...'")
    classes = header[1:]
    prior: dict[str, int] = {}
    counts: dict[str, dict[str, int]] = {}
    for row in body:
        values = {c: int(v) for c, v in zip(classes, row[1:], strict=True) if v != "0"}
        if row[0] == PRIOR:
            prior = values
        else:
            counts[row[0]] = values
    return Backoff(classes, prior, counts)


@functools.cache
def load() -> Backoff:
    """The back-off shipped in ``rules/rc_backoff.tsv`` (cached)."""
    with rules_path(TABLE).open(encoding="utf-8") as fh:
        return parse(fh.readlines())
