"""Structures of reaction candidates: every name of a document resolved in one batch, and
references resolved through the heading and coreference.

A candidate's text is grounded (:mod:`chemie.structures.grounding`): a mixture ("EtOAc /
hexane") becomes one candidate per name. Every structure whose name is not the candidate's
span as written names the rule that chose the name (``Structure.rule``: the grounding's
split, ``widened_name``, ``joined_names``, ``title_salt``, ``reference_to_title``,
``coreference_antecedent``). A text that holds no name keeps the grounding's
reason (``compound label``, ``reference``, ``generic phrase`` …), unless it refers to a
compound that has a structure:

* a product that refers to the title ("the title compound", "the
  product", a bare label of the heading's compound) takes the structure of the heading's
  product, ``coreference → <heading name>``;
* a mention linked by a COREFERENCE relation (``chemie_coref``) to an
  antecedent with a name takes the antecedent's structure, ``coreference → <antecedent>``.

"Intermediate 5" or "the compound of Example 12" with no antecedent in the document stays
``unresolved`` with its reason (``compound label``, ``reference``).
"""

from __future__ import annotations

import functools
from dataclasses import replace

import regex

from chemie.model.reaction import Structure
from chemie.reactions.assemble import Candidate, DocView
from chemie.reactions.table import ReactionTable
from chemie.structures import chem
from chemie.structures.dictionary import compounds
from chemie.structures.grounding import Grounding
from chemie.structures.resolve import Resolution, Resolver

# what refers to the compound of the heading when it is a product
_TITLE = regex.compile(r"(?i)\b(?:title|titled|subject|desired|target|above|final)\b|^(?:the\s+)?"
                       r"(?:crude\s+|pure\s+)?(?:product|compound)s?$")


@functools.cache
def classes_by_structure() -> dict[str, str]:
    """The compound dictionary's class of each structure (canonical SMILES; the first entry
    of a structure wins), for names the dictionary does not know ("tetrahydrofurane")."""
    out: dict[str, str] = {}
    for e in compounds().entries:
        if e.smiles is not None:
            out.setdefault(chem.canonical(e.smiles) or e.smiles, e.cls)
    return out


def _class(r: Resolution) -> str | None:
    """The dictionary class of a resolution: its entry's, else its structure's."""
    if r.cls is not None or r.smiles is None:
        return r.cls
    return classes_by_structure().get(r.smiles)


def _structure(r: Resolution, rule: str | None = None) -> Structure:
    """The structure of a resolution; ``rule`` names the rule that chose the name."""
    if not r.resolved:
        return Structure("unresolved", reason=r.reason, rule=rule)
    return Structure(r.how, r.smiles, r.inchikey, kind=r.kind or None, rule=rule)


class StructureResolver:
    """Resolves the candidates of one document (see the module docstring)."""

    def __init__(self, resolver: Resolver, table: ReactionTable):
        self.resolver = resolver
        self.table = table

    def resolve(self, view: DocView, found: list[Candidate]) -> list[Candidate]:
        """The candidates with structures (a mixture split into its names)."""
        results = self.resolver.resolve_texts([c.text for c in found])
        out: list[Candidate] = []
        pending: list[tuple[Candidate, Grounding]] = []
        for c, (grounding, resolutions) in zip(found, results, strict=True):
            if not grounding.names:
                c.structure = Structure("unresolved", reason=grounding.reason)
                pending.append((c, grounding))
                out.append(c)
                continue
            for name, r in zip(grounding.names, resolutions, strict=True):
                part = c if len(grounding.names) == 1 else replace(
                    c, start=c.start + name.start, end=c.start + name.end)
                split = len(grounding.names) > 1
                part.name = name.text if split else c.text
                part.structure = _structure(r, name.rule if split else None)
                part.cls = _class(r)
                out.append(part)
        self._widen(view, out)
        out = self._join(view, out)
        self._title_salts(view, out)
        if pending:
            self._references(view, out, [c for c, _ in pending])
        return out

    def _widen(self, view: DocView, found: list[Candidate]) -> None:
        """A name that is part of a longer name ("Biphenyl-2-ylcarbamic" of
        "Biphenyl-2-ylcarbamic Acid … Ester", "X" of "X, hydrochloride" in a title, cut by the
        tokenizer or the role rules) takes the name of its mention, or of its line, that
        holds it, when that resolves: for a name OPSIN cannot parse, and for the heading's
        product (a title names one compound, salt included); rule ``widened_name``."""
        todo = [c for c in found if c.structure is not None and (c.heading or _unparsed(c))]
        if not todo:
            return
        wider = [(c, a, b) for c in todo for a, b in self._around(view, c)]
        results = self.resolver.resolve_texts([view.text[a:b] for _, a, b in wider])
        done: set[int] = set()
        for (c, a, _), (grounding, resolutions) in zip(wider, results, strict=True):
            if id(c) in done:
                continue
            for name, r in zip(grounding.names, resolutions, strict=True):
                if r.resolved and a + name.start <= c.start and c.end <= a + name.end \
                        and name.text != c.text:
                    c.name, c.start, c.end = name.text, a + name.start, a + name.end
                    c.structure, c.cls = _structure(r, "widened_name"), _class(r)
                    done.add(id(c))
                    break

    def _join(self, view: DocView, found: list[Candidate]) -> list[Candidate]:
        """A name OPSIN cannot parse next to another name, when the two make one name ("X
        acid" + "(3R)-…-3-yl ester"; "tert-butyl ester" of "X acid" read as "X acid
        tert-butyl ester"): one candidate, the other dropped (``joined_names``)."""
        order = sorted(found, key=lambda c: c.start)
        tries: list[tuple[Candidate, Candidate, str]] = []
        for a, b in zip(order, order[1:], strict=False):
            if not any(_unparsed(c) for c in (a, b)) or a.label != b.label:
                continue
            gap = view.text[a.end:b.start]
            if _OF.fullmatch(gap):
                tries.append((a, b, f"{b.text} {a.text}"))
            elif gap.isspace() and len(gap) < 3:
                tries.append((a, b, f"{a.text} {b.text}"))
        if not tries:
            return found
        results = self.resolver.resolve_texts([t for _, _, t in tries])
        dropped: set[int] = set()
        for (a, b, _), (grounding, resolutions) in zip(tries, results, strict=True):
            if id(a) in dropped or id(b) in dropped or len(grounding.names) != 1 \
                    or not resolutions[0].resolved:
                continue
            a.name, a.end = grounding.names[0].text, b.end
            a.structure = _structure(resolutions[0], "joined_names")
            a.cls = _class(resolutions[0])
            dropped.add(id(b))
        return [c for c in found if id(c) not in dropped]

    def _title_salts(self, view: DocView, found: list[Candidate]) -> None:
        """The title's product with its salt ("X, hydrochloride": ``title_salt``)."""
        pattern = self.table.compiled["title_salt"]
        for c in found:
            if not c.heading or c.structure is None:
                continue
            a = view.text.rfind("\n", 0, c.start) + 1
            b = view.text.find("\n", c.end)
            b = len(view.text) if b < 0 else b
            line = view.text[a:b]
            if b - a > 300 or not pattern.search(line):
                continue
            [(grounding, resolutions)] = self.resolver.resolve_texts([pattern.sub(" ", line)])
            own = " ".join(pattern.sub(" ", c.name).split())  # "X, hydrochloride" as "X"…
            for name, r in zip(grounding.names, resolutions, strict=True):
                if r.resolved and own in name.text and r.smiles != c.structure.smiles:
                    c.name, c.start, c.end = name.text, a, b
                    c.structure, c.cls = _structure(r, self.table.title_salt.name), _class(r)
                    break

    @staticmethod
    def _around(view: DocView, c: Candidate) -> list[tuple[int, int]]:
        """The name with its brackets balanced, the mention and the line around a candidate
        (character ranges), when wider."""
        out = []
        balanced = _balanced(view.text, c.start, c.end)
        if balanced != (c.start, c.end):
            out.append(balanced)
        if c.mention is not None and (c.mention.start, c.mention.end) != (c.start, c.end):
            out.append((c.mention.start, c.mention.end))
        a = view.text.rfind("\n", 0, c.start) + 1
        b = view.text.find("\n", c.end)
        b = len(view.text) if b < 0 else b
        if b - a < 300 and (a, b) != (c.start, c.end):
            out.append((a, b))
        return out

    def _references(self, view: DocView, found: list[Candidate], refs: list[Candidate]) -> None:
        """Structures of the references, through the heading (``reference_to_title``) and
        coreference (``coreference_antecedent``)."""
        heading = next((c for c in found if c.heading and c.structure is not None
                        and c.structure.resolved), None)
        by_mention = {c.mention.id: c for c in found
                      if c.mention is not None and c.structure is not None
                      and c.structure.resolved}
        index = view.index
        todo: list[tuple[Candidate, str]] = []
        for c in refs:
            words = c.mention.text if c.mention is not None else c.text
            if c.role == "product" or c.label == "REACTION_PRODUCT":
                if heading is not None and (_TITLE.search(c.text) or _TITLE.search(words)):
                    self._via(c, heading.structure, heading.name, "reference_to_title")
                    continue
            antecedent = self._antecedent(view, c, index)
            if antecedent is None:
                continue
            known = by_mention.get(antecedent)
            if known is not None:
                self._via(c, known.structure, known.name, "coreference_antecedent")
            else:
                todo.append((c, antecedent))
        if not todo:
            return
        texts = [index[mid].text for _, mid in todo]
        for (c, _), (grounding, resolutions) in zip(
                todo, self.resolver.resolve_texts(texts), strict=True):
            r = next((r for r in resolutions if r.resolved), None)
            if r is not None and len(grounding.names) == 1:
                self._via(c, _structure(r), grounding.names[0].text, "coreference_antecedent")

    @staticmethod
    def _antecedent(view: DocView, c: Candidate, index: dict) -> str | None:
        """The nearest antecedent (following chains) of the candidate's mention that is no
        reference itself, or None."""
        if c.mention is None:
            return None
        seen = {c.mention.id}
        queue = list(view.coreference.get(c.mention.id, ()))
        while queue:
            mid = queue.pop(0)
            if mid in seen or mid not in index:
                continue
            seen.add(mid)
            if index[mid].kind not in ("reference", "generic", "state"):
                return mid
            queue.extend(view.coreference.get(mid, ()))
        return None

    @staticmethod
    def _via(c: Candidate, structure: Structure, name: str, rule: str) -> None:
        c.structure = Structure("coreference", structure.smiles, structure.inchikey,
                                via=name, kind=structure.kind, rule=rule)


_OPENERS, _CLOSERS = "([{", ")]}"
_OF = regex.compile(r"\s+of\s+")


def _unparsed(c: Candidate) -> bool:
    """A name OPSIN cannot parse, or whose reading is implausible (a name cut from a longer
    one: :mod:`chemie.structures.plausible`)."""
    s = c.structure
    return s is not None and s.how == "unresolved" and s.reason is not None \
        and (s.reason == "parse failure" or s.reason.startswith("implausible"))

MAX_REACH = 200  # characters a name is extended to balance its brackets


def _balanced(text: str, start: int, end: int) -> tuple[int, int]:
    """``[start, end)`` extended until its brackets balance and it starts and ends at word
    boundaries ("1R,3S)-6-…" back to "(E)-3-(4-((1R,3S)-6-…", "(E)-methyl 3-(4-((1S,3R" on
    to its closing brackets and the rest of the word), by at most :data:`MAX_REACH`
    characters each way; unchanged when the brackets cannot be balanced."""
    a, b = start, end
    while True:
        depth, low = 0, 0
        for ch in text[a:b]:
            if ch in _OPENERS:
                depth += 1
            elif ch in _CLOSERS:
                depth -= 1
                low = min(low, depth)
        if low == 0 and depth == 0:
            break
        need = -low  # closers without openers: go left
        while need > 0 and a > 0 and start - a < MAX_REACH:
            a -= 1
            need += (text[a] in _CLOSERS) - (text[a] in _OPENERS)
        open_ = depth - low  # openers without closers: go right
        while open_ > 0 and b < len(text) and b - end < MAX_REACH:
            open_ += (text[b] in _OPENERS) - (text[b] in _CLOSERS)
            b += 1
        if need > 0 or open_ > 0:
            return start, end
        while a > 0 and not text[a - 1].isspace() and start - a < MAX_REACH:
            a -= 1  # the rest of the words the brackets open and close in
        while b < len(text) and not text[b].isspace() and text[b] not in ",;" \
                and b - end < MAX_REACH:
            b += 1
    return a, b
