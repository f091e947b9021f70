"""Shared fixtures: the development corpora in ../shared/data, skipped or required."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from chemie.corpora import data_dir

FIXTURES = Path(__file__).parent / "fixtures"


def _require() -> bool:
    return os.environ.get("CHEMIE_REQUIRE_CORPORA", "") not in ("", "0")


def corpus_path(relative: str) -> Path:
    """Path of a corpus file; skips the test when absent (fails under CHEMIE_REQUIRE_CORPORA=1)."""
    path = data_dir() / relative
    if not path.exists():
        message = f"corpus {relative} not found under {data_dir()} (set CHEMIE_DATA)"
        if _require():
            pytest.fail(f"CHEMIE_REQUIRE_CORPORA=1 and {message}")
        pytest.skip(message)
    return path


@pytest.fixture
def corpus():
    """``corpus("chemu-ref/train.jsonl")`` -> Path, with skip/fail handled."""
    return corpus_path


@pytest.fixture
def fixtures() -> Path:
    return FIXTURES
