"""Score tables rendered as text, JSON or CSV (one representation for every scorer)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy
import pandas as pd


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """Precision, recall and F1 from counts (0.0 where undefined)."""
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def _figure(value: float | int) -> str:
    """A figure for the terminal: a count as an integer, a rate with four decimals."""
    if isinstance(value, int | numpy.integer) and not isinstance(value, bool):
        return str(value)
    return f"{value:.4f}"


@dataclass
class ScoreTable:
    """One titled table; the index names the rows (relation type, class, 'overall' …)."""

    title: str
    frame: pd.DataFrame


@dataclass
class ScoreReport:
    """What a scorer returns: tables plus notes (dropped pairs, missing documents …)."""

    task: str
    tables: list[ScoreTable] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    figures: dict[str, float | int] = field(default_factory=dict)  # counts stay ints

    def table(self, title: str) -> pd.DataFrame:
        """The frame of the table with this title."""
        for t in self.tables:
            if t.title == title:
                return t.frame
        raise KeyError(title)

    def omit(self, name: str, note: str) -> None:
        """Leave figure (and table column) ``name`` out, saying why in a note."""
        self.figures.pop(name, None)
        for t in self.tables:
            if name in t.frame.columns:
                t.frame = t.frame.drop(columns=name)
        self.notes.append(note)

    def to_text(self) -> str:
        """A readable rendering for the terminal."""
        parts = []
        for t in self.tables:
            frame = t.frame.copy()
            for col in frame.columns:
                if pd.api.types.is_float_dtype(frame[col]):
                    frame[col] = frame[col].map(lambda v: f"{v:.4f}")
            parts.append(f"== {t.title} ==\n{frame.to_string()}")
        if self.figures:
            parts.append("\n".join(f"{k}: {_figure(v)}" for k, v in self.figures.items()))
        parts.extend(f"note: {n}" for n in self.notes)
        return "\n\n".join(parts) + "\n"

    def to_dict(self) -> dict[str, object]:
        return {
            "task": self.task,
            "tables": {
                t.title: json.loads(t.frame.to_json(orient="index")) for t in self.tables
            },
            "figures": self.figures,
            "notes": self.notes,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def to_csv(self) -> str:
        """All tables stacked in long form: table, row, then the table's columns."""
        frames = []
        for t in self.tables:
            f = t.frame.copy()
            for col in f.columns:  # nullable ints: a column another table lacks stays integer
                if pd.api.types.is_integer_dtype(f[col]) and not pd.api.types.is_bool_dtype(f[col]):
                    f[col] = f[col].astype("Int64")
            f.insert(0, "row", f.index.astype(str))
            f.insert(0, "table", t.title)
            frames.append(f.reset_index(drop=True))
        if not frames:
            return ""
        return pd.concat(frames, ignore_index=True).to_csv(index=False)
