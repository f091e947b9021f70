"""Input shapes chemie reads, and which command reads each: the one line a command prints
when it is given a shape it does not read (``chemie run x.rsmi``: "reaction SMILES lines:
`chemie score reactions` scores them")."""

from __future__ import annotations

import os
from pathlib import Path

# by file suffix: what the file holds and which commands read it
BY_SUFFIX: dict[str, str] = {
    ".rsmi": "reaction SMILES lines: `chemie score reactions` scores them",
    ".tsv": "tab-separated (IOB tokens, CHEMDNER abstracts or annotations): `chemie ner` "
            "reads IOB and CHEMDNER abstracts, `chemie score iob|cem|cdi` scores",
    ".iob": "IOB tokens: `chemie ner` tags them, `chemie score iob` scores them",
    ".bio": "IOB tokens: `chemie ner` tags them, `chemie score iob` scores them",
    ".conll": "IOB tokens: `chemie ner` tags them, `chemie score iob` scores them",
    ".xml": "SemEval-2018 XML: `chemie rc` reads it with its relations file",
    ".ann": "a brat annotation file: `chemie show` reads it; `chemie run`, `chemie "
            "reactions` and `chemie score entities` read the folder of .txt and .ann files",
    ".csv": "a table written by chemie: no command reads it back",
    ".parquet": "a table written by chemie: no command reads it back",
}
PARAGRAPHS = ("USPTO paragraphs (id, title, text, no annotations): `chemie run`, `chemie "
              "reactions` and `chemie show` read them")
REACTION_RECORDS = ("reaction records without text (chemie reactions output, or reaction "
                    "SMILES): `chemie show` draws them, `chemie score reactions` scores them")


def unknown_input(path: str | os.PathLike[str], reads: str) -> str:
    """The message for an input of a type this command does not read: what it reads
    (``reads``) and, for a shape another command reads, which one."""
    other = BY_SUFFIX.get(Path(path).suffix.lower())
    return f"unknown input type: expected {reads}" + (f" (this looks like {other})"
                                                      if other else "")
