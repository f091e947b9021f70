"""The result of one document: what a worker sends back and a sink writes."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Outcome:
    """The result for one item: ``payload`` (formatted output) or ``error``; maybe a warning.

    ``bad_input`` tells a failure caused by the document (unreadable, malformed) from one
    that is not its fault (a timeout, an internal error). ``counts``: what the task counted
    in the document for the run's summary line (``{"reaction with a component without a
    structure": 2}``, names singular)."""

    n: int
    key: str | None
    path: str
    line: int | None
    payload: object = None
    error: str | None = None
    warning: str | None = None
    tokens: int = 0
    bad_input: bool = False
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None
