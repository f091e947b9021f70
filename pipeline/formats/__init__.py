"""chemie.formats."""

import os


def file_name_text(name: str) -> str:
    """A name taken from a file name as text: bytes that are not UTF-8 (kept by Python as
    lone surrogates, which no UTF-8 output can hold) become ``\\xNN`` escapes."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")
