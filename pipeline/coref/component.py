"""``chemie_coref``: rule-based COREFERENCE links between the mentions of ``chemie_mentions``.

Rules (``rules/coref.yaml``, in order; the first that resolves an anaphor wins; each a
function of :mod:`chemie.coref.rules` registered with its gate) put each
anaphor into the chain of an earlier mention. The links written to ``doc._.relations`` go
from each anaphor to the closest earlier member of its chain (``mode="surface"``; a label in
the gap of a discontinuous name is skipped, and rules marked ``link: direct`` link the mention
they name) or to the first member (``mode="atomic"``); each carries the name of the rule that
resolved it and an id C1, C2 … (:func:`number_relations`; bridging links are B1 …). A rule may
name several antecedents ("the solvent" -> the extraction and the reaction solvent): the
anaphor joins the chain of the first and is also linked to the others.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from operator import attrgetter
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc

from chemie.actions.component import token_table
from chemie.coref.rules import (
    RULES,
    TITLE_WORDS,
    Context,
    CorefMention,
    CorefRule,
    CorefTable,
    Features,
    enclosed,
    material_role,
    open_bracket,
)
from chemie.extensions import mentions_of, relations_of
from chemie.mentions.document import token_info
from chemie.model import Mention, Relation
from chemie.saving import SavesTables, rule_table, table_sources
from chemie.tables import load_table

_ID = re.compile(r"^(?:[A-Za-z]{0,4}-?\d+[a-zA-Z]{0,3}'?(?:-\d+)?|[A-Z]{1,3}|[IVX]+)$")
_SPANS = attrgetter("spans")
# a line with a digit and a letter (tried at line starts only: linear in the text's length)
_HAS_DIGIT_AND_LETTER = re.compile(r"^(?=[^\n]*\d)(?=[^\n]*[A-Za-z])", re.MULTILINE)
# "To", "In", "At" fit _HEADING_ID ("3a", "A", "IV") but are words
_WORD_NOT_ID = re.compile(r"^(?!(?:[IVX]+|No)$)[A-Za-z][a-z]+$")
_NUMBERED_WORD = re.compile(r"^[(\[]?\d{1,3}[a-z]?[)\]]([a-z]+)$")
_HEADING_ID = re.compile(
    r"^[(\[]?(?:\d[\dA-Za-z]{0,3}|[A-Za-z]\d{0,3}|[IVX]{1,4})(?:[.-]\d+)?[a-z]?[)\].:]?$"
)
# a rule to try: its name, its function and its entry of the table
Step = tuple[str, Callable, CorefRule]


def coref_table(name: str | Path = "coref.yaml") -> CorefTable:
    """The coreference rules and word lists of ``rules/<name>`` (read once) or of a table
    file."""
    return load_table(name, CorefTable)


def number_relations(relations: list[Relation], first: int, prefix: str) -> None:
    """Give ``relations[first:]`` (one component's links, in the order made) the ids PREFIX1,
    PREFIX2 …, skipping any id an earlier relation of the doc already has: coreference links
    are C1 …, bridging links B1 … (unique and stable within a document)."""
    taken = {r.id for r in relations[:first]}
    n = 0
    for r in relations[first:]:
        n += 1
        while f"{prefix}{n}" in taken:
            n += 1
        r.id = f"{prefix}{n}"


# The class letters (rules/mentions.yaml `alphabet`) coref reads; tests/test_coref.py checks
# each against the letters the tagger gives real tokens of its sort.
_NOT_CORE = frozenset("().P:=#")  # token classes left out of a mention's core text
_NAME_CLASSES = frozenset("CXZNbn")  # token classes of the chemical words of a name
_NUMBER, _UNIT = "N", "U"  # a number and a unit: "50 mL" is an amount, no part of a name
_IDENT = "Z"  # an identifier: 1b, F1304
_TEXT_START = frozenset("SD")  # a stop word or a determiner: the text starts after the heading
_IN = "I"  # in, containing ("In a microwave oven" starts the text too)
_AMOUNT_START = frozenset("NnA")  # a number or an amount: "5 g of X" starts no title name
_NEW_NAME = "b"  # a name that begins a new noun phrase ("NAME ammonium salt" in a heading)


_FIELDS = attrgetter("tokens", "ranges", "core", "det", "kind", "head", "sentence")


def _core_words(
    cs: str, low: list[str], c0: int, c1: int
) -> tuple[list[str], list[int], list[str]]:
    """The words (lowercased) and positions of the core tokens ``c0``..``c1`` (brackets and
    punctuation left out) and its chemical words (the words of its name)."""
    core_w: list[str] = []
    core_i: list[int] = []
    name_w: list[str] = []
    for i in range(c0, c1 + 1):
        c = cs[i]
        if c in _NOT_CORE:
            continue
        w = low[i]
        core_w.append(w)
        core_i.append(i)
        # an amount ("50 mL CH2Cl2") is no part of the name
        amount = c == _NUMBER and cs[i + 1 : i + 2] == _UNIT
        if (c in _NAME_CLASSES and not amount) or w == "acid":
            name_w.append(w)
    return core_w, core_i, name_w


class CorefResolver(SavesTables):
    """Applies the coreference rules to the mentions of a Doc (``to_disk`` saves the rule
    table, ``from_disk`` reads it back)."""

    def __init__(self, table: CorefTable, mode: str = "surface"):
        if mode not in ("surface", "atomic"):
            raise ValueError(f"coref mode must be surface or atomic, not {mode!r}")
        self.mode = mode
        self.table = table
        # the rules in table order (the table is read with each rule's registered params)
        self.order: list[Step] = [(r.name, RULES[r.name].fn, r) for r in table.rules]
        # rule -> Relation.confidence: its dev precision (python -m chemie.rule_precision)
        self.confidence = {r.name: r.confidence for r in table.rules}
        # rules whose antecedent is the mention itself, not the latest member of its chain
        self.direct = frozenset(r.name for r in table.rules if r.link == "direct")
        # the heads and cores that a gate may compare (Features keeps only these)
        self.gate_words = table.words()
        # anaphor features but after_title -> the rules to try before and after the title
        self._orders: dict[tuple, tuple[list[Step], list[Step]]] = {}
        self._words: list[str] = []
        self._heading_end = 0  # first token after the heading (set by _heading)
        # word -> whether it fits _ID / is a heading word or label (_heading): caches by word
        # (they grow with the vocabulary, as spaCy's does)
        self._id_words: dict[str, bool] = {}
        self._heading_words: dict[str, bool] = {}

    def load_tables(self, files: dict[str, Path]) -> None:
        """Use the rule table in ``files`` (see :class:`~chemie.saving.SavesTables`)."""
        self.__init__(coref_table(rule_table(files)), self.mode)

    def __call__(self, doc: Doc) -> Doc:
        mentions = sorted(mentions_of(doc), key=_SPANS)
        if len(mentions) < 2:
            return doc
        words, cs = token_info(doc)
        self._words = token_table(doc).lower  # the lowercased words, shared with actions
        self._heading_end = self._heading(words, cs)
        ms, orders = self._views(words, cs, mentions)
        title = self._title(cs, ms)
        c = Context(self.table, self._words, words, ms, title, self._heading_end)
        # the rules for an anaphor after the title (rules 2nd) or not (1st)
        later = title.i if title is not None else len(ms)
        chain_of: dict[int, list[int]] = {}  # mention position -> its chain (text order)
        links: list[tuple[int, int, str]] = []
        inner: set[int] = set()  # labels in the gap of a discontinuous mention
        surface, direct = self.mode == "surface", self.direct
        for a, order in zip(ms, orders, strict=True):
            for name, rule, params in order[a.i > later]:
                found = rule(c, params, a)
                if not found:
                    continue
                # a rule gives one antecedent or a list (closest first: "the solvent" -> the
                # extraction solvent and the reaction solvent)
                ant, *more = found if isinstance(found, list) else [found]
                if ant.i >= a.i:
                    continue
                chain = chain_of.setdefault(ant.i, [ant.i])
                # surface: the closest earlier member; atomic: the first one
                target = chain[0]
                if surface:
                    for j in reversed(chain):
                        # a label inside a name ("NAME 6b ( 75 mg )") is not what later
                        # mentions refer to: they refer to the name
                        if j == ant.i or (j not in inner and name not in direct):
                            target = j
                            break
                if enclosed(ms, a):
                    inner.add(a.i)
                chain.append(a.i)
                chain_of[a.i] = chain
                links.append((a.i, target, name))
                for x in more:
                    other = chain_of.get(x.i, [x.i])
                    if other is not chain:
                        links.append((a.i, x.i if surface else other[0], name))
                break
        relations = relations_of(doc)
        first = len(relations)
        for i, p, name in links:
            relations.append(
                Relation(
                    "COREFERENCE", ms[i].m.id, ms[p].m.id, name, confidence=self.confidence[name]
                )
            )
        number_relations(relations, first, "C")
        return doc

    def rules_for(self, f: Features) -> list[Step]:
        """The rules (in order) whose kinds and gate admit an anaphor with features ``f``:
        each rule left out rejects it by its own first tests."""
        return [step for step in self.order if RULES[step[0]].admits(f, step[2])]

    def _views(
        self, words: list[str], cs: str, mentions: list[Mention]
    ) -> tuple[list[CorefMention], list[tuple[list[Step], list[Step]]]]:
        """The views of ``mentions`` (in text order), built in one pass over the doc, and the
        rules to try on each (before and after the title: :meth:`rules_for`)."""
        low = self._words
        n_words = len(words)
        views: list[CorefMention] = []
        append = views.append
        orders = self._orders
        rules: list[tuple[list[Step], list[Step]]] = []
        add_rules = rules.append
        gate_words, rules_for, table = self.gate_words, self.rules_for, self.table
        title_word, target_word, desired_word = TITLE_WORDS
        heading_end, id_words = self._heading_end, self._id_words
        after_label = following = False  # a label / "the following compounds" before
        for n, m in enumerate(mentions):
            # one C call for the fields chemie_mentions sets (a gold mention may lack some)
            tokens, ranges, core_pair, det, kind, head, sentence = _FIELDS(m)
            first, last = (0, 0) if tokens is None else tokens
            ranges = ranges or ((first, last),)
            c0, c1 = (first, last) if core_pair is None else core_pair
            end = c1 + 1
            classes = cs[c0:end]
            # most cores have no bracket or punctuation: their words are a slice of the doc's
            if c0 >= 0 and _NOT_CORE.isdisjoint(classes):
                core_w = low[c0:end]
                core = " ".join(core_w)
                n_core, i0, i1 = len(core_w), c0, c1
                if _NAME_CLASSES.issuperset(classes) and not (
                    classes[-1:] == _NUMBER and cs[end : end + 1] == _UNIT
                ):
                    name = core  # every word is a chemical word
                elif _NAME_CLASSES.isdisjoint(classes) and "acid" not in core_w:
                    name = ""
                else:
                    # the chemical words, each with the class of the token after it
                    nexts = cs[c0 + 1 : end + 1]
                    if len(nexts) < n_core:
                        nexts += " "
                    name = " ".join([
                        w for w, c, d in zip(core_w, classes, nexts, strict=True)
                        if (c in _NAME_CLASSES and (c != _NUMBER or d != _UNIT))
                        or w == "acid"
                    ])
            else:
                core_w, core_i, name_w = _core_words(cs, low, c0, c1)
                core = " ".join(core_w)
                name = " ".join(name_w)
                n_core = len(core_i)
                i0, i1 = (core_i[0], core_i[-1]) if core_i else (0, 0)
            before = low[first - 1] if first > 0 else ""
            after = words[last + 1] if last + 1 < n_words else ""
            bracketed = before in ("(", "[") and after in (")", "]", ",")
            if (
                not bracketed and before == "," and after in (")", "]")
                and open_bracket(words, first) >= 0
            ):
                bracketed = True  # "NAME ( reaction scheme 3 , compound 142 )"
            ident = ""
            if kind == "reference" and n_core > 1 and cs[i1] in _NAME_CLASSES:
                ident = core_w[-1]
                if core_w[-2] in ("example", "examples"):
                    ident = "example " + ident  # Example 7 is not Compound 7
            elif n_core == 1:
                word = words[i0]
                is_id = id_words.get(word)
                if is_id is None:
                    is_id = id_words[word] = _ID.match(word) is not None
                if is_id and (
                    bracketed
                    or (cs[i0] == _IDENT and _HAS_DIGIT_AND_LETTER.search(word) is not None)
                ):
                    ident = core_w[0]
            append(CorefMention(
                m, n, first, last, core, kind, head, det, sentence, ident, name, ranges,
                before, bracketed, name.replace(" ", ""),
            ))
            label = kind == "reference" and ident != "" and head != "example"
            # the anaphor's Features but after_title (in their order)
            key = (
                kind, det, head if head in gate_words else "",
                core if core in gate_words else "",
                core[-1:].isdigit() and material_role(table, core),
                title_word in core or target_word in core or desired_word in core,
                ident != "" and not ident.startswith("example"),
                bracketed or m.abbreviation,
                before == "as",
                before in (":", "."), after_label, following, n > 0 and first < heading_end,
                label or "%" in m.text,
            )
            order = orders.get(key)
            if order is None:
                f = Features(*key, after_title=False)
                order = orders[key] = (rules_for(f), rules_for(f._replace(after_title=True)))
            add_rules(order)
            after_label = label
            following = following or (det == "the" and core.startswith("following "))
        return views, rules

    def _heading(self, words: list[str], cs: str) -> int:
        """The first token after the heading ("Step 2: Synthesis of X"), the text's first
        token if it has no heading."""
        stop = len(words)
        heading_words, low = self.table.heading_words, self._words
        in_heading = self._heading_words
        for i, w in enumerate(words):
            skip = in_heading.get(w)
            if skip is None:
                numbered = _NUMBERED_WORD.match(low[i])  # "(3)Preparation" as one token
                skip = in_heading[w] = low[i] in heading_words or (
                    _HEADING_ID.match(w) is not None and _WORD_NOT_ID.match(w) is None
                ) or (numbered is not None and numbered.group(1) in heading_words)
            if skip:
                continue
            # the text starts with a verb, a determiner or a capitalised preposition ("To a
            # solution of", "In a microwave oven")
            c = cs[i]
            if c in _TEXT_START or (c == _IN and w[0].isupper()) or i > 60:
                stop = i
                break
        return stop

    def _title(self, cs: str, ms: list[CorefMention]) -> CorefMention | None:
        """The compound named in the heading (ending at ``self._heading_end``), if any."""
        stop = self._heading_end
        best = None
        for x in ms:
            # "NAME ( racemate )": a descriptor bracket is no quantity
            quantity = x.m.quantity and x.m.rule != "descriptor_suffix"
            # "5 g of X" is a reactant; a name whose core starts with a number ("3 ,
            # 7-dihydroxy-…-oic acid", split after its first locant) is still a name
            if x.first >= stop or quantity or (
                cs[x.first] in _AMOUNT_START
                and not (x.kind == "chemical" and x.m.core is not None
                         and x.m.core[0] == x.first)
            ):
                break
            if x.bracketed:
                continue
            # "NAME ammonium salt": a name with a generic head
            if x.kind == "chemical" or (x.kind == "generic" and cs[x.first] == _NEW_NAME) or (
                x.kind == "reference" and x.ident and x.head != "example"
                # "... acid Compound l was condensed": the subject of the text's first verb
                # does not replace the name of the heading
                and not (best is not None and best.kind == "chemical" and x.last + 1 == stop)
            ):
                best = x
        return best

    # (the rules themselves: chemie.coref.rules)


@Language.factory(
    "chemie_coref",
    default_config={"rules": "coref.yaml", "mode": "surface"},
    requires=["doc._.mentions"],
    assigns=["doc._.relations"],
)
def make_coref(nlp: Language, name: str, rules: str, mode: str) -> CorefResolver:
    """The coreference resolver configured from ``rules/<rules>``."""
    resolver = CorefResolver(coref_table(rules), mode)
    resolver.table_files = table_sources(rules)
    return resolver
