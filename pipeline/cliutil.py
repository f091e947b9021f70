"""Small pieces shared by the CLI commands: argparse number types and report output."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from chemie.errors import atomic_write


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse type accepting whole numbers of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def emit(text: str, output: Path | None) -> None:
    """Write ``text`` atomically to ``output``, or to standard output when it is None."""
    if output:
        with atomic_write(output) as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)
