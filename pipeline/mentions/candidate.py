"""A mention candidate (what a rule finds, in token indices) and the one place where it becomes
a :class:`chemie.model.Mention` (:meth:`Candidate.mention`, called by :func:`add_mentions`);
the per-doc context the rules read."""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from spacy.attrs import IDX
from spacy.tokens import Doc

from chemie.context import NER_STORE, chemical_spans, doc_text, mentions_of, token_info
from chemie.mentions.docdata import SentenceIndex, ner_confidence
from chemie.mentions.table import MentionTables
from chemie.model import Mention, Range, TokenPair

if TYPE_CHECKING:
    from chemie.mentions.grammar import Grammar

Ranges = tuple[TokenPair, ...]


@dataclass(slots=True)
class Candidate:
    """A mention found by the rule ``rule``: its token ``ranges`` (one, or more when it is
    discontinuous) and what the other components read of the Mention made from it."""

    ranges: Ranges
    rule: str
    kind: str  # chemical | generic | reference | equipment | state
    head: str  # the lowercased head word
    sentence: int  # the index of the sentence of its first token
    tokens: TokenPair  # first and last token over all its ranges
    core: TokenPair  # the name without determiner and quantities
    det: str = ""  # its determiner, lowercased
    quantity: bool = False  # it has an amount
    abbreviation: bool = False  # a bracketed abbreviation or label of a name

    @property
    def first(self) -> int:
        """Its first token."""
        return self.ranges[0][0]

    @property
    def last(self) -> int:
        """Its last token."""
        return self.ranges[-1][1]

    def but(self, **changes: object) -> Candidate:
        """A copy with ``changes`` (field name -> value)."""
        new = Candidate(
            self.ranges, self.rule, self.kind, self.head, self.sentence, self.tokens, self.core,
            self.det, self.quantity, self.abbreviation,
        )
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def mention(
        self, mention_id: str, spans: tuple[Range, ...], text: str, confidence: float | None,
        chemdner_class: str | None = None,
    ) -> Mention:
        """The Mention (label ``ENTITY``) at char ``spans`` made from this candidate, with the
        class of the NER span in its name (``chemdner_class``) when given."""
        return Mention(
            mention_id, spans, "ENTITY", text, self.rule, confidence, self.kind, self.head,
            self.sentence, self.tokens, self.core, self.det, self.quantity, self.abbreviation,
            self.ranges, chemdner_class,
        )


@dataclass(slots=True)
class DocContext:
    """What the rules read of the doc being matched: its words, lowercased words and class
    string, the sentence of a token, and the mention table with its compiled grammar."""

    doc: Doc
    words: list[str]
    low: list[str]
    cs: str
    sent_of: SentenceIndex
    tables: MentionTables
    grammar: Grammar
    low_set: frozenset[str] = field(default_factory=frozenset)  # the doc's lowercased words


def add_mentions(doc: Doc, candidates: list[Candidate], rule_conf: dict[str, float]) -> None:
    """Append a :class:`~chemie.model.Mention` per candidate (in order) to ``doc._.mentions``:
    its char spans and text, its rule's confidence (``rule_conf``) or, for a chemical whose
    name holds NER chemical spans, their NER class and confidence."""
    mentions = mentions_of(doc)
    words = token_info(doc)[0]
    text_of_doc = doc_text(doc, words)
    idx = doc.to_array(IDX).tolist()
    chem = chemical_spans(doc)
    chem_starts = [c[0] for c in chem]
    ner_store = doc.user_data.get(NER_STORE, {}) if chem else {}
    for n, c in enumerate(candidates, 1):
        ranges = c.ranges
        if len(ranges) == 1:
            a, b = ranges[0]
            spans: tuple[Range, ...] = ((idx[a], idx[b] + len(words[b])),)
            text = text_of_doc[spans[0][0] : spans[0][1]]
        else:
            spans = tuple((idx[a], idx[b] + len(words[b])) for a, b in ranges)
            text = " ".join(text_of_doc[a:b] for a, b in spans)
        conf = rule_conf.get(c.rule, 0.5)
        chemdner_class = None
        if chem and c.kind == "chemical":
            # the NER spans (sorted by start) inside the name
            c0, c1 = c.core
            k = bisect_left(chem_starts, c0)
            inside = []
            while k < len(chem) and chem[k][0] <= c1:
                if chem[k][1] <= c1 + 1:
                    inside.append(chem[k])
                k += 1
            if len(inside) == 1:
                chemdner_class = inside[0][2]
                conf = ner_confidence(ner_store, inside[0][0], inside[0][1])
            elif inside:
                # the class of the longest NER span in the name; its NER confidence
                chemdner_class = max(inside, key=lambda s: (s[1] - s[0], -s[0]))[2]
                conf = max(ner_confidence(ner_store, s[0], s[1]) for s in inside)
        mentions.append(c.mention(f"M{n}", spans, text, conf, chemdner_class))
