"""Name -> structure: the curated dictionary first, then OPSIN, with the reason when neither.

``Resolver().resolve(names)`` takes names (strings, or :class:`~chemie.structures.grounding.Name`
objects whose spellings are tried in order) and returns one :class:`Resolution` per name, in
order. All the names of a call go to OPSIN as one batch (per-process JVM and cache: see
:mod:`chemie.structures.opsin`), so a caller resolves a whole document at once:
``resolve_texts(mention_texts)`` grounds each text and resolves every name in one call.

A structure OPSIN gives that cannot be the compound named (an ion alone, a missing element
the name asks for: :mod:`chemie.structures.plausible`) is refused; the next spelling is
tried, and the name stays unresolved with the reason (``implausible: …``) when none is
left.

Resolution takes *names*, never mentions: a reference such as "the title compound" is
grounded as ``reference`` and left to the caller (reaction assembly resolves it through the
heading or coreference, then calls :meth:`Resolver.resolve` with the antecedent's name and
records ``how`` as ``coreference → <name>``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from chemie.structures import chem
from chemie.structures.dictionary import Dictionary, compounds
from chemie.structures.grounding import Grounding, Name, candidates, ground
from chemie.structures.opsin import Opsin, service
from chemie.structures.plausible import implausible

HOW = ("dictionary", "opsin", "unresolved")
# OPSIN outcomes that say nothing about the name itself (tried again next time)
SERVICE_FAILURES = ("no java", "no opsin jar", "jvm failed to start", "timeout", "opsin died",
                     "opsin out of step")


@dataclass(frozen=True)
class Resolution:
    """The structure of one name, or why there is none.

    ``how``: ``dictionary``, ``opsin`` or ``unresolved``; ``kind``: ``molecule`` or
    ``material`` (a dictionary material: brine, silica gel; no SMILES), empty when
    unresolved; ``spelling``: the spelling that resolved; ``cls``: the dictionary class.
    """

    name: str
    smiles: str | None
    inchikey: str | None
    how: str
    reason: str | None = None
    kind: str = ""
    spelling: str | None = None
    cls: str | None = None

    @property
    def resolved(self) -> bool:
        return self.how != "unresolved"


@functools.lru_cache(maxsize=65536)
def structure_of(smiles: str) -> tuple[str, str | None] | None:
    """(canonical SMILES, InChIKey) of a SMILES, or None when RDKit cannot read it."""
    canonical = chem.canonical(smiles)
    if canonical is None:
        return None
    return canonical, chem.inchikey(canonical)


class Resolver:
    """Dictionary, then OPSIN (``use_opsin=False``: the dictionary alone)."""

    def __init__(self, dictionary: Dictionary | None = None, opsin: Opsin | None = None,
                 use_opsin: bool = True):
        self.dictionary = dictionary if dictionary is not None else compounds()
        self._opsin = opsin
        self.use_opsin = use_opsin
        # mention texts repeat ("water", "ethyl acetate"): their groundings are cached
        self._ground = functools.lru_cache(maxsize=65536)(self._ground_text)

    @property
    def opsin(self) -> Opsin:
        """The OPSIN service (the process's own unless one was given)."""
        return self._opsin if self._opsin is not None else service()

    def known(self, phrase: str) -> bool:
        """Whether the dictionary knows a phrase (grounding never cuts such a phrase)."""
        return self.dictionary.lookup(phrase) is not None

    def resolve(self, names: Sequence[str | Name]) -> list[Resolution]:
        """One resolution per name, in order; every OPSIN lookup of the call in one batch."""
        spellings = [n.candidates if isinstance(n, Name) else candidates(n) for n in names]
        texts = [n.text if isinstance(n, Name) else n for n in names]
        out: list[Resolution | None] = [
            self._from_dictionary(text, sp) for text, sp in zip(texts, spellings, strict=True)
        ]
        todo = [i for i, r in enumerate(out) if r is None]
        answers = {}
        if todo and self.use_opsin:
            answers = self.opsin.parse(s for i in todo for s in spellings[i])
        for i in todo:
            out[i] = self._from_opsin(texts[i], spellings[i], answers)
        return out  # type: ignore[return-value]

    def resolve_texts(self, texts: Sequence[str]) -> list[tuple[Grounding, list[Resolution]]]:
        """Ground each mention text and resolve all their names in one batch."""
        groundings = [self._ground(t) for t in texts]
        flat = self.resolve([n for g in groundings for n in g.names])
        out, k = [], 0
        for g in groundings:
            out.append((g, flat[k : k + len(g.names)]))
            k += len(g.names)
        return out

    def _ground_text(self, text: str) -> Grounding:
        return ground(text, self.known)

    def _from_dictionary(self, text: str, spellings: Sequence[str]) -> Resolution | None:
        for s in spellings:
            entry = self.dictionary.lookup(s)
            if entry is None:
                continue
            if entry.smiles is None:
                return Resolution(text, None, None, "dictionary", None, "material", s, entry.cls)
            structure = structure_of(entry.smiles)
            if structure is None:  # the dictionary test makes this unreachable
                continue
            return Resolution(text, *structure, "dictionary", None, "molecule", s, entry.cls)
        return None

    def _from_opsin(self, text: str, spellings: Sequence[str], answers: dict) -> Resolution:
        if not self.use_opsin:
            return Resolution(text, None, None, "unresolved", "not in the dictionary")
        reasons = []
        for s in spellings:
            answer = answers.get(s)
            if answer is None:
                continue
            if answer.smiles is None:
                reasons.append(answer.reason)
                continue
            structure = structure_of(answer.smiles)
            if structure is None:
                reasons.append("RDKit cannot read OPSIN's SMILES")
                continue
            refused = implausible(s, structure[0])
            if refused is not None:
                reasons.append(refused)
                continue
            return Resolution(text, *structure, "opsin", None, "molecule", s)
        reason = next((r for r in reasons if r in SERVICE_FAILURES), None)
        reason = reason or next((r for r in reasons if r != "parse failure"), "parse failure")
        return Resolution(text, None, None, "unresolved", reason)
