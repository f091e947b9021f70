"""Where the development corpora live (``../shared/data`` beside the repo, or $CHEMIE_DATA),
and the document ranges of their splits (``--docs 0:600``)."""

from __future__ import annotations

import argparse
import hashlib
import os
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    """The shared data folder: ``$CHEMIE_DATA`` if set, else ``../shared/data`` from the repo."""
    env = os.environ.get("CHEMIE_DATA")
    if env:
        return Path(env)
    for base in (Path.cwd(), _REPO):
        candidate = base.parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return _REPO.parent / "shared" / "data"


def uspto_part(paragraph_id: str) -> str:
    """The part of a USPTO paragraph (``uspto-reactions/dev.jsonl``) by its id: ``"U"`` when
    the SHA-1 of the id is odd (figures only: its text, outputs and errors are not read while
    writing rules), else ``"R"`` (may be read)."""
    return "U" if int(hashlib.sha1(paragraph_id.encode()).hexdigest(), 16) % 2 == 1 else "R"


def parse_slice(text: str) -> tuple[int, int | None]:
    """``START:END`` (either side may be empty) -> (start, end or None)."""
    start, sep, end = text.partition(":")
    try:
        if not sep:
            raise ValueError
        a = int(start) if start.strip() else 0
        b = int(end) if end.strip() else None
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected START:END, got {text!r}") from None
    if a < 0 or (b is not None and b < a):
        raise argparse.ArgumentTypeError(f"bad document range {text!r}")
    return a, b
