"""The tagger: one class letter per token.

:class:`TokenClassifier` gives each token text the letter of the first entry of the table's
``alphabet`` that holds (cached per text); :class:`Tagger` then re-letters tokens from their
context, in the named steps of the table's ``context`` (one method per step), and returns the
class string of the doc.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from operator import itemgetter

from spacy.attrs import ORTH
from spacy.tokens import Doc

from chemie.mentions.docdata import chemical_spans, sentence_starts
from chemie.mentions.table import Letter, MentionTables
from chemie.tables import TableError

_FIRST, _SECOND, _THIRD = itemgetter(0), itemgetter(1), itemgetter(2)


class TokenClassifier:
    """Token text -> class letter (the context-free part of the tagging), cached."""

    def __init__(self, tables: MentionTables):
        self.tables = tables
        self.entries = tuple(_Entry(tables, e) for e in tables.table.alphabet if not e.context)
        # the first entry whose word lists hold a text, by dict lookups (exact token texts,
        # lowercased words, the part after the last hyphen); the entries with shapes or a test
        # are then tried in order, only those before that entry
        self._exact: dict[str, int] = {}
        self._lower: dict[str, int] = {}
        self._tail: dict[str, int] = {}
        for i, entry in enumerate(self.entries):
            for t in entry.tokens:
                self._exact.setdefault(t, i)
            for w in entry.words:
                self._lower.setdefault(w, i)
                if entry.hyphen_tail:
                    self._tail.setdefault(w, i)
        self._checked = tuple((i, e) for i, e in enumerate(self.entries) if e.shapes or e.test)
        self.cache: dict[str, str] = {}
        # orth id -> (word, class, lowercased word)
        self.by_orth: dict[int, tuple[str, str, str]] = {}

    def __call__(self, text: str) -> str:
        c = self.cache.get(text)
        if c is None:
            c = self.cache[text] = self._classify(text)
        return c

    def doc_classes(self, doc: Doc) -> tuple[list[str], list[str], list[str]]:
        """The words, the class letter and the lowercased word of every token, looked up by
        orth id (no Token objects made, no string-store lookup for known orths)."""
        by_orth = self.by_orth
        triples = [by_orth.get(o) or self._add(doc, o) for o in doc.to_array(ORTH).tolist()]
        return list(map(_FIRST, triples)), list(map(_SECOND, triples)), list(map(_THIRD, triples))

    def _add(self, doc: Doc, orth: int) -> tuple[str, str, str]:
        word = doc.vocab.strings[orth]
        triple = self.by_orth[orth] = (word, self(word), word.lower())
        return triple

    def _classify(self, text: str) -> str:
        """The letter of the first entry that holds for ``text``."""
        low = text.lower()
        end = len(self.entries)
        first = min(self._exact.get(text, end), self._lower.get(low, end))
        if self._tail:
            first = min(first, self._tail.get(low.rpartition("-")[2], end))
        for i, entry in self._checked:
            if i >= first:
                break
            if entry.matches(text):
                first = i
                break
        return self.entries[first].letter if first < end else "X"  # (the last is "anything")


class _Entry:
    """One alphabet entry, compiled: does it hold for a token text?"""

    __slots__ = ("letter", "tokens", "words", "hyphen_tail", "shapes", "test")

    def __init__(self, tables: MentionTables, e: Letter):
        self.letter = e.letter
        self.tokens = frozenset(e.tokens)
        self.words = frozenset(
            [w.lower() for w in e.words] + [w for name in e.lists for w in tables.lists[name]]
        )
        self.hyphen_tail = e.hyphen_tail
        self.shapes = tuple(tables.shapes[name] for name in e.shapes)
        self.test: Callable[[str], bool] | None = None
        if e.test == "fused_bracket":
            self.test = functools.partial(
                fused_bracket, tables.shapes["FUSED_TAIL"], tables.shapes["NAME_LETTERS"]
            )
        elif e.test:
            self.test = _TESTS[e.test]

    def matches(self, text: str) -> bool:
        """Whether one of its shapes or its test holds for ``text`` (its word lists are looked
        up by :class:`TokenClassifier`)."""
        return any(shape.match(text) for shape in self.shapes) or (
            self.test is not None and self.test(text)
        )


_SPACE = re.compile(r"\s")


def fused_bracket(tail: re.Pattern[str], letters: re.Pattern[str], text: str) -> bool:
    """``DCM(15``, ``acid(250mg``: ``tail`` matches from the last "(", the text before it has
    no space and ``letters``, one bracket is left open. (Checked piece by piece in linear time:
    the single regex ``^\\S*[A-Za-z]{2}\\S*\\(...`` backtracks quadratically in the length of a
    long token.)"""
    k = text.rfind("(")
    return (
        k >= 2 and tail.match(text, k) is not None
        and letters.search(text, 0, k) is not None and _SPACE.search(text, 0, k) is None
        and text.count("(") == text.count(")") + 1
    )


_TESTS: dict[str, Callable[[str], bool]] = {
    "space": str.isspace,
    "one_letter": lambda text: len(text) == 1 and text.isalpha(),
    "lowercase_word": lambda text: text.isalpha() and text.islower(),
    "anything": lambda text: True,
}


# a determiner, an "x", a reference head, an identifier or a name start: the classes before it
# that a step looks for (_after_a_name)
_AFTER = {"D": "KkGD", "x": "Kk", "K": "CXZbN", "Z": "NZ", "b": "NZ"}
# classes that no step of the pass changes (skipped quickly)
_NO_STEP = frozenset(")OUAGEY:=/-&RFJQVkn#")
# the class that a word gets where it begins a noun phrase after a heading without a full stop
_BEGIN = {"C": "b", "X": "b", "Z": "b", "K": "k", "N": "n"}
# the token classes a name split by spaces may hold until its brackets close
_NAME_PIECES = frozenset("CXWZNb")
_NAME_BREAKS = frozenset(["(", ")", "[", "]", ","])


class Tagger:
    """The class string of a doc: the classifier's letters, re-lettered from their context by
    the steps of the table's ``context`` (each a method of the same name)."""

    # the named steps of the table's ``context``
    STEPS = (
        "reference_id", "split_name", "colour_phrase", "gram_label", "number_sign",
        "stop_word_modifier", "number_starts_np", "join_split_name", "new_name", "space_in_np",
        "determiner_label", "compound_x", "reference_starts_np", "heading_end",
        "heading_breaks", "ner_chemicals", "vessel_description", "supported_catalyst",
    )

    def __init__(self, tables: MentionTables):
        self.tables = tables
        self.classify = TokenClassifier(tables)
        listed = [s.name for s in tables.table.context]
        if sorted(listed) != sorted(self.STEPS):
            missing = sorted(set(self.STEPS) ^ set(listed))
            raise TableError(tables.name, "context", f"steps listed and coded differ: {missing}")
        shape, words = tables.shapes, tables.words
        self.ref_label = shape["REF_LABEL"]
        self.gram_label = shape["GRAM_LABEL"]
        self.stereo_rest = shape["STEREO_REST"]
        self.locant_rest = shape["LOCANT_REST"]
        self.name_end = shape["NAME_END"]
        self.neck = shape["NECK"]
        self.capitalized = shape["CAPITALIZED"]
        self.locant_start = shape["LOCANT_START"]
        self.hetero_locants = words["split_name"]["hetero_locants"]
        self.colour = words["colour_phrase"]["colour"]
        self.number_signs = words["number_sign"]["signs"]
        self.further = words["stop_word_modifier"]["further"]
        self.modifiers = _any_case(tables.lists["modifiers"])
        self.mixture_heads = words["new_name"]["mixture_heads"]
        self.abbreviations = words["space_in_np"]["abbreviations"]
        self.all = words["determiner_label"]["all"]
        catalyst = words["supported_catalyst"]
        self.catalyst_metals, self.supports = catalyst["metals"], catalyst["supports"]
        self.support_joins = catalyst["joins"]
        self.heading = tables.lists["heading_words"]

    def class_string(self, doc: Doc) -> tuple[list[str], str, list[str]]:
        """The words of ``doc``, its class string and the lowercased words."""
        words, classes, low = self.classify.doc_classes(doc)
        self._reference_id(words, classes)
        self._relabel(words, classes, low)
        self._heading_end(doc, words, classes)
        self._heading_breaks(words, classes)
        self._ner_chemicals(doc, classes)
        self._vessel_description(classes)
        self._supported_catalyst(classes, low)
        return words, "".join(classes), low

    def _relabel(self, words: list[str], classes: list[str], low: list[str]) -> None:
        """The pass from left to right: each token's step, by its class (a step sees the classes
        its earlier neighbours got). The conditions here are cheap necessary conditions of the
        steps (most tokens need none: no call)."""
        n, modifiers = len(classes), self.modifiers
        for i in range(1, n):
            c = classes[i]
            if c in _NO_STEP:
                continue
            prev = classes[i - 1]
            if c in "(PI":
                nxt = classes[i + 1] if i + 1 < n else "$"
                if nxt in "CXbG":
                    self._split_name(words, classes, i)
                elif c == "I":
                    self._colour_phrase(classes, low, i)
                elif c == "(" and nxt == "A":
                    self._gram_label(words, classes, i)
            elif c in "SX" and prev in "Kk" and self._number_sign(words, classes, i):
                continue
            elif c == "S":
                if (prev == "D" or words[i] in modifiers) and (
                    prev in "DW" or (i + 1 < n and classes[i + 1] in "CWGbNAn")
                ):
                    self._stop_word_modifier(words, classes, low, i)
            elif c in "CXW":
                if c != "W" and _open_brackets(words[i]) > 0:
                    self._join_split_name(words, classes, i)
                if prev in "CZXKWNbG" and (
                    words[i] != low[i] or prev == "G" or classes[i - 2] in "Kk"
                ):
                    self._new_name(words, classes, low, i)
            elif c == "N":
                if prev in "CXGEZbNK" and i + 1 < n and classes[i + 1] == "U":
                    # number_starts_np: "...carboxylic acid 8.0 ml ( ... ) of": a number with a
                    # unit after a name starts a new noun phrase
                    classes[i] = "n"
            elif c == ".":
                if prev in "DW" or low[i - 1] in self.abbreviations:
                    self._space_in_np(words, classes, i)
            elif prev in _AFTER.get(c, ""):
                self._after_a_name(words, classes, i)

    # -- steps before the pass -------------------------------------------------------------

    def _reference_id(self, words: list[str], classes: list[str]) -> None:
        """``reference_id``: the token after a reference head that is its id although it looks
        like a unit, a stop word, a determiner or an amount: "Compound l", "Compound n",
        "Compound a '", "the compound 64g" (found by a string search: reference heads are
        rare)."""
        joined = "".join(classes)
        k = joined.find("K")
        while k != -1 and k + 1 < len(classes):
            nxt, c = words[k + 1], classes[k + 1]
            if (c in "UDS" and len(nxt) == 1 and nxt.islower()) or (
                c == "A" and self.ref_label.match(nxt)
            ):
                classes[k + 1] = "Z"
            k = joined.find("K", k + 1)

    # -- the pass: one method per class ----------------------------------------------------

    def _split_name(self, words: list[str], classes: list[str], i: int) -> None:
        """``split_name``: a bracket, comma or "in"/"containing" token ``i`` before a name
        piece that joins the pieces of a name split by spaces."""
        c, n, prev = classes[i], len(classes), classes[i - 1]
        if c == "(":
            if i + 1 == n or classes[i + 1] not in "CXb":
                return
            nxt = words[i + 1]
            if (
                prev in "Cb" and i + 3 < n and classes[i + 2] == ")" and classes[i + 3] in "Cb"
                and nxt.endswith("yl")
            ):
                classes[i] = classes[i + 2] = "-"  # "tert-butyl ( 3-aminophenyl ) carbamate"
            elif self.stereo_rest.match(nxt):
                # "( E)-3-(4-...)acrylic acid": one name (a new one after "Example 6")
                classes[i] = "b" if prev in "NZKk" else classes[i + 1]
        elif c == "P":
            self._split_locants(words, classes, i)
        # "Product containing fractions", "the product - containing fractions"
        elif prev in "Kk-" and i + 1 < n and classes[i + 1] == "G" and words[i] == "containing":
            classes[i] = "W"

    def _split_locants(self, words: list[str], classes: list[str], i: int) -> None:
        """``split_name`` at a comma: a locant list ("2 , 3-Dichloropyridine"), a heteroatom
        locant list ("N , N-dimethylformamide"), the necks of a flask ("250 mL , 3-neck")."""
        n, prev = len(classes), classes[i - 1]
        if (
            prev in "CbN" and i + 1 < n and classes[i + 1] in "Cb"
            and self.locant_rest.match(words[i + 1])
            and words[i - 1][-1:].isdigit() and words[i] == ","
            and (prev in "Cb" or (prev == "N" and len(words[i - 1]) == 1
                                  and (i < 2 or classes[i - 2] not in "KkUAN")))
        ):
            # "2 , 3-Dichloropyridine", "...-1H-6 , 11b-(epiminoethano)-..."
            classes[i] = "-"
            if (
                prev == "N" and i > 1 and classes[i - 2] in "Cb"
                and self.name_end.search(words[i - 2])
            ):
                # "...pyridin-2-amine 2 , 3-Dichloropyridine": the locant list starts a new name
                classes[i - 1] = "b"
        elif (
            prev == "U" and words[i - 1] in self.hetero_locants and words[i] == ","
            and words[i + 1].startswith((words[i - 1] + "-", words[i - 1] + "'-"))
        ):
            # "N , N-dimethylformamide", "N , N'-dicyclohexylcarbodiimide": the first "N" is
            # no unit
            classes[i - 1], classes[i] = "C", "-"
        elif (
            prev in "UXZ" and i + 2 < n and classes[i + 2] == "E" and words[i] == ","
            and self.neck.match(words[i + 1])
        ):
            classes[i] = "W"  # "a dried 250 mL , 3-neck flask": one piece of equipment

    def _colour_phrase(self, classes: list[str], low: list[str], i: int) -> None:
        """``colour_phrase``: "the title compound in white color ( 31 mg , yield 4.6% )": one
        mention."""
        if (
            i + 3 < len(classes) and classes[i + 3] == "(" and low[i + 2] in self.colour
            and classes[i - 1] in "CKZ"
        ):
            classes[i] = "W"

    def _gram_label(self, words: list[str], classes: list[str], i: int) -> None:
        """``gram_label``: "...acetate ( 7g ) 3-oxazol-2-yl-...", "...carbamate ( 1g ) A
        solution": a label in grams' clothing, alone in its bracket before a new name."""
        if (
            i + 3 < len(classes) and classes[i + 1] == "A" and classes[i + 2] == ")"
            and self.gram_label.match(words[i + 1])
            and (classes[i + 3] in "CXb" or words[i + 3][:1].isupper())
        ):
            classes[i + 1] = "Z"

    def _number_sign(self, words: list[str], classes: list[str], i: int) -> bool:
        """``number_sign``: "Compound No. 5", "Example No . 12": the number sign joins head and
        number. True when the token is a number sign after a reference head (no other step
        applies to it)."""
        if classes[i - 1] not in "Kk" or words[i].lower() not in self.number_signs:
            return False
        n = len(classes)
        k = i + 2 if i + 2 < n and words[i + 1] == "." else i + 1
        if k < n and classes[k] in "NZ":
            classes[i:k] = ["#"] * (k - i)
        return True

    def _stop_word_modifier(self, words: list[str], classes: list[str], low: list[str], i: int):
        """``stop_word_modifier``: "the combined organic layers", "the reaction mixture": a stop
        word after a determiner that is also a modifier is a modifier; so is one before a name
        ("with concentrated HCl", "Combined organic layers") and any stop word between a
        determiner and a name ("the produced solid"); "a further 0.19 ml ( 1.11 mmol )"."""
        prev, n = classes[i - 1], len(classes)
        before_name = i + 1 < n and classes[i + 1] in "CWGb"
        if (prev in "DW" or before_name) and (
            (prev == "D" and before_name) or words[i] in self.modifiers
        ):
            classes[i] = "W"
        elif prev == "D" and low[i] in self.further and i + 1 < n and classes[i + 1] in "NAn":
            classes[i] = "W"

    def _join_split_name(self, words: list[str], classes: list[str], i: int) -> None:
        """``join_split_name``: a name token whose brackets are left open continues after a
        space ("...-7-((1-fluorocyclopropyl ) methyl)-8-methyl-...", "...-2,6(3H , 7H)-dione",
        "...bis(...-sulfonyl fluoride )"): the brackets and commas up to where its brackets
        close join the pieces (nothing changes when they do not close within a few tokens)."""
        depth, n = _open_brackets(words[i]), len(classes)
        breaks = []
        for k in range(i + 1, min(i + 8, n)):
            w = words[k]
            if w in _NAME_BREAKS:
                breaks.append(k)
            elif classes[k] not in _NAME_PIECES:
                return
            depth += _open_brackets(w)
            if depth < 0:
                return
            if depth == 0:
                if not breaks or (
                    k == i + 1 and (k + 1 == n or classes[k + 1] not in _NAME_PIECES)
                ):
                    return
                for b in breaks:
                    # a break before a name piece joins it; one that closes the name ends it
                    classes[b] = "-" if b + 1 < n and classes[b + 1] in _NAME_PIECES else "C"
                return

    def _new_name(self, words: list[str], classes: list[str], low: list[str], i: int) -> None:
        """``new_name``: a name that begins a new noun phrase: "Example 76A Methyl 4-..." (a
        capitalized name after a name), "the reaction mixture butyl vinyl ether ( 1 mL )" (a
        name after a mixture), "Compound 5 Compound 5", "Example 14 4-bromo..." (after a
        numbered reference), "...benzonitrile NCS ( 4.75 g )" (an all-caps abbreviation after
        a long name)."""
        c, prev, word = classes[i], classes[i - 1], words[i]
        # (a word without capitals is its own lowercase form: no regex needed)
        if prev in "CZXKWNb" and word != low[i] and self.capitalized.match(word):
            classes[i] = "b"
        elif c == "C" and prev == "G" and words[i - 1].lower() in self.mixture_heads:
            classes[i] = "b"
        elif i > 1 and classes[i - 2] in "Kk" and prev in "NZ":
            classes[i] = "b"
        elif c != "W" and prev == "C" and word.isupper() and len(words[i - 1]) >= 15:
            classes[i] = "b"

    def _space_in_np(self, words: list[str], classes: list[str], i: int) -> None:
        """``space_in_np``: "The  mixture", "the\\nmixture" (raw text): extra spaces or a line
        break after a determiner or modifier do not end the noun phrase; "abs . ethanol": an
        abbreviated modifier split from its full stop."""
        prev = classes[i - 1]
        if prev in "DW" and words[i].isspace() and "\n\n" not in words[i]:
            classes[i] = "W"
        elif (
            words[i - 1].lower() in self.abbreviations and i + 1 < len(classes)
            and classes[i + 1] in "CWb"
        ):
            classes[i - 1] = classes[i] = "W"

    def _after_a_name(self, words: list[str], classes: list[str], i: int) -> None:
        """The steps of a determiner, an "x", a reference head, an identifier or a name start
        after a head, name or number: ``determiner_label``, ``compound_x``,
        ``reference_starts_np``, ``new_name``."""
        c = classes[i]
        if c == "D":
            self._determiner_label(words, classes, i)
        elif c == "x":
            self._compound_x(classes, i)
        elif c == "K":
            self._reference_starts_np(words, classes, i)
        elif c in "Zb" and i > 1 and classes[i - 2] in "Kk" and classes[i - 1] in "NZ":
            classes[i] = "b"  # new_name: "Compound 5 4a" begins anew

    def _determiner_label(self, words: list[str], classes: list[str], i: int) -> None:
        """``determiner_label``: "Compound A"; "elution system A to obtain" (a label); "All the
        organic layers" (one noun phrase)."""
        prev = classes[i - 1]
        if prev in "Kk" and words[i] == "A":
            classes[i] = "Z"
        elif (
            prev == "G" and words[i] == "A"
            and (i + 1 == len(classes) or classes[i + 1] in ".P:)S")
        ):
            classes[i] = "Z"
        elif prev == "D" and words[i - 1].lower() in self.all:
            classes[i] = "W"

    @staticmethod
    def _compound_x(classes: list[str], i: int) -> None:
        """``compound_x``: "Compound x"."""
        if classes[i - 1] in "Kk":
            classes[i] = "Z"

    @staticmethod
    def _reference_starts_np(words: list[str], classes: list[str], i: int) -> None:
        """``reference_starts_np``: "...benzaldehyde Intermediate 16A" (a capitalized reference
        after a name), "Compound 5 Compound 6" (one after a numbered reference)."""
        prev = classes[i - 1]
        if prev in "CXZb" and words[i][:1].isupper():
            classes[i] = "k"
        elif i > 1 and classes[i - 2] in "Kk" and prev in "NZ":
            classes[i] = "k"

    # -- steps after the pass --------------------------------------------------------------

    def _heading_end(self, doc: Doc, words: list[str], classes: list[str]) -> None:
        """``heading_end``: the end of a heading without a full stop begins a new noun
        phrase."""
        starts = sentence_starts(doc)
        if len(starts) > 1:
            i = starts[1]
            plain_word = words[i].isalpha() and words[i].islower()
            if classes[i] in _BEGIN and classes[i - 1] in "CXZNb)" and not plain_word:
                classes[i] = _BEGIN[classes[i]]

    def _heading_breaks(self, words: list[str], classes: list[str]) -> None:
        """``heading_breaks``: in the heading (before the first verb): "Step 2 NAME" – the step
        number is no part of the name; "...acrylate 3-(2-((2-fluoro...", "...acrylate
        (E)-methyl ...", "...sulfonate N,N-diethyl-..." – a complete name followed by a long
        name starting with a locant (stereo descriptor, N-prefix) is where the heading name
        ends."""
        heading = self.heading
        for i in range(1, len(classes) - 1):
            c, prev = classes[i], classes[i - 1]
            if c in "SD&" and words[i].lower() not in heading:
                return
            if c in "NZ" and prev in "S.:(" and classes[i + 1] in "CXb" and (
                words[i].isdigit() or (len(words[i]) == 1 and words[i].isupper())
            ):
                classes[i] = "S"  # "Step 2 NAME", "Step B NAME"
            elif (
                c == "C" and prev in "CbX" and self.name_end.search(words[i - 1])
                and (m := self.locant_start.match(words[i]))
                and (len(words[i]) >= 12 or (m.group().startswith("(") and len(words[i]) >= 8))
            ):
                classes[i] = "b"

    def _ner_chemicals(self, doc: Doc, classes: list[str]) -> None:
        """``ner_chemicals``: NER promotes words to chemicals; numbers, units and stop words
        stay."""
        for start, end, _label in chemical_spans(doc):
            for i in range(start, end):
                if classes[i] in "WXZ":
                    classes[i] = "C"


    def _supported_catalyst(self, classes: list[str], low: list[str]) -> None:
        """``supported_catalyst``: "10% palladium on carbon", "palladium hydroxide on
        charcoal", "rhodium on alumina": the word joining a metal to its support is part of
        the catalyst's name (found by a string search for each joining word)."""
        n = len(low)
        for join in self.support_joins:
            i = 0
            while True:
                try:
                    i = low.index(join, i + 1)
                except ValueError:
                    break
                if (i + 1 < n and low[i + 1] in self.supports
                        and low[i - 1].split("(", 1)[0] in self.catalyst_metals):
                    classes[i] = "W"

    @staticmethod
    def _vessel_description(classes: list[str]) -> None:
        """``vessel_description``: "an oven - dried 100 mL flask", "a pressure tube": the stop
        words between a determiner and an equipment head describe the vessel (modifiers);
        found by a string search (equipment heads are rare)."""
        joined = "".join(classes)
        k = joined.find("E")
        while k != -1:
            i = k - 1
            while i >= 0 and k - i <= _VESSEL_REACH and classes[i] in _VESSEL_WORDS:
                i -= 1
            if i >= 0 and classes[i] == "D" and "S" in joined[i + 1 : k]:
                for j in range(i + 1, k):
                    if classes[j] == "S":
                        classes[j] = "W"
            k = joined.find("E", k + 1)


# the classes between a determiner and an equipment head that a vessel's description may hold
# (words, numbers, units, hyphens, the comma of "250 mL , 3-neck", names, stop words, other
# capitalised words: "an oven - dried Schlenk tube"), and how far back the determiner may be
# (vessel_description)
_VESSEL_WORDS = frozenset("WNU-PCSX")
_VESSEL_REACH = 8


@functools.cache
def _open_brackets(word: str) -> int:
    """Opening minus closing round and square brackets of ``word``."""
    return word.count("(") + word.count("[") - word.count(")") - word.count("]")


@functools.cache
def _any_case(words: frozenset[str]) -> frozenset[str]:
    """``words`` as written in lower case, Capitalized and UPPER case (membership without
    lowercasing every token)."""
    return frozenset(v for w in words for v in (w, w.capitalize(), w.upper()))


@functools.cache
def default_tagger() -> Tagger:
    """The tagger of the default table (for the document helpers)."""
    return Tagger(MentionTables.load())
