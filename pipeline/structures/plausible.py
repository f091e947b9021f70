"""Whether a structure OPSIN gives is plausible for the name it was read from.

OPSIN reads what a name says. A name cut from a longer one, or misread, can still be the
name of another molecule, valid but not the compound meant; the dictionary goes first for
the common names, and this check refuses what a compound named in a procedure cannot be:

* **an ion alone** (a net charge): a name cut from its ester or amide ("…pyridazine-3-
  carboxylate" cut from "methyl …-3-carboxylate" is read as the carboxylate anion, "(4-
  fluoro-phenyl)-amide" cut from "…carboxylic acid (4-fluoro-phenyl)-amide" as an amide
  anion); a compound added to or obtained from a reaction is neutral, salts included;
* **an element the name asks for and the structure lacks** ("chloro", "bromide", "sulfonyl",
  "phosphine", "silyl", "borohydride" without Cl, Br, S, P, Si, B): the name was read as
  another one.

:func:`implausible` gives the reason, or None. Resolution treats a refused structure as no
structure (``implausible: …``), and reaction assembly then tries the wider text or the
neighbouring name, as it does for a name OPSIN cannot parse.
"""

from __future__ import annotations

import functools
import re

from rdkit import Chem

from chemie.structures import chem

# words of a name -> the element its structure must have
_ELEMENT_WORDS = (
    (re.compile(r"fluoro|fluorid", re.IGNORECASE), "F"),
    (re.compile(r"chloro|chlorid", re.IGNORECASE), "Cl"),
    (re.compile(r"bromo|bromid", re.IGNORECASE), "Br"),
    (re.compile(r"iodo|iodid", re.IGNORECASE), "I"),
    (re.compile(r"sulf|sulph|mercapto", re.IGNORECASE), "S"),
    (re.compile(r"phosph", re.IGNORECASE), "P"),
    (re.compile(r"silyl|silox|silan", re.IGNORECASE), "Si"),
    (re.compile(r"boron|borate|borane|boronic|borohydride", re.IGNORECASE), "B"),
)


@functools.lru_cache(maxsize=65536)
def implausible(name: str, smiles: str) -> str | None:
    """Why ``smiles`` cannot be the structure of the compound ``name``, or None."""
    mol = chem.parse(smiles)
    if mol is None:
        return None
    charge = Chem.GetFormalCharge(mol)
    if charge:
        return f"implausible: an ion alone (net charge {charge:+d})"
    symbols = {a.GetSymbol() for a in mol.GetAtoms()}
    for words, symbol in _ELEMENT_WORDS:
        if symbol not in symbols and words.search(name):
            return f"implausible: the name asks for {symbol}"
    return None
