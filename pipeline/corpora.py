"""Where the development corpora live (``../shared/data`` beside the repo, or $CHEMIE_DATA)."""

from __future__ import annotations

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
