"""The result of one document: what a worker sends back and a sink writes."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Outcome:
    """The result for one item: ``payload`` (formatted output) or ``error``; maybe a warning.

    ``bad_input`` tells a failure caused by the document (unreadable, malformed) from one
    that is not its fault (a timeout, an internal error)."""

    n: int
    key: str | None
    path: str
    line: int | None
    payload: object = None
    error: str | None = None
    warning: str | None = None
    tokens: int = 0
    bad_input: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None
