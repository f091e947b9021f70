"""Small pieces shared by the CLI commands: argparse number types, the size option,
report output and the check that no output overwrites an input."""

from __future__ import annotations

import argparse
import os
import stat
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from chemie.errors import InputError, atomic_write
from chemie.limits import MAX_CHARS

READ_IN_FOLDERS = (".txt", ".ann")  # the files chemie reads in an input folder (plain, brat)


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


def add_max_chars(p: argparse.ArgumentParser) -> None:
    """``--max-chars N``: the size limit on one document (:mod:`chemie.limits`)."""
    p.add_argument(
        "--max-chars", type=whole_number(1), default=MAX_CHARS, metavar="N",
        help=f"a longer document fails alone (default: {MAX_CHARS:,} characters; "
        "also spaCy's nlp.max_length)",
    )


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except (OSError, ValueError):
        return None


def _same_inode(folder: Path, st: os.stat_result) -> Path | None:
    """A file chemie reads under ``folder`` that is the file ``st`` describes (a hard
    link), or None."""
    for root, _, files in os.walk(folder):
        for name in files:
            if not name.lower().endswith(READ_IN_FOLDERS):
                continue
            other = _stat(Path(root) / name)
            if other is not None and (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
                return Path(root) / name
    return None


def refuse_overwrite(outputs: Iterable[Path | None], inputs: Iterable[Path | None]) -> None:
    """InputError when writing one of ``outputs`` would overwrite one of ``inputs``.

    An output overwrites an input when it is the same file or folder by path, through a
    symbolic link or by inode (a hard link), or when it is a file inside an input folder
    that chemie reads there (``.txt``, ``.ann``), or a hard link to one.
    """
    ins = [(Path(p), st) for p in inputs if p is not None and (st := _stat(Path(p)))]
    for out in outputs:
        if out is None:
            continue
        out = Path(out)
        st = _stat(out)
        if st is None:
            continue  # nothing there yet: nothing to overwrite
        for inp, ist in ins:
            if (st.st_dev, st.st_ino) == (ist.st_dev, ist.st_ino):
                same = "" if out.absolute() == inp.absolute() else f" ({inp}, the same file)"
                raise InputError(
                    out, None,
                    f"output file is also an input{same}: it would overwrite it; choose another -o",
                )
            if not stat.S_ISDIR(ist.st_mode) or not stat.S_ISREG(st.st_mode):
                continue
            inside = out.resolve().is_relative_to(inp.resolve())
            if inside and out.suffix.lower() not in READ_IN_FOLDERS:
                continue
            linked = None if inside or st.st_nlink < 2 else _same_inode(inp, st)
            if inside or linked is not None:
                where = "" if inside else f" (a hard link to {linked})"
                raise InputError(
                    out, None, f"output file is an input in the folder {inp}{where}: it would "
                    "overwrite it; choose another -o",
                )
