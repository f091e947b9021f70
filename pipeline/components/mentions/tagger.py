"""The tagger: one class letter per token (context-free shapes and word lists, then the
context re-lettering of the whole class string)."""

from __future__ import annotations

import functools
import re
from operator import itemgetter

from spacy.attrs import ORTH
from spacy.tokens import Doc

from chemie.components.mentions.docdata import _chemical_spans, _sentence_starts
from chemie.components.mentions.tables import MentionTables

NUMBER = re.compile(r"^[-+~≈˜]?\d+(?:[.,]\d+)?(?:[-–~×x*→∼]\d+(?:\.\d+)?)?$")
RATIO_TOKEN = re.compile(r"^\d+(?:\.\d+)?(?:[:/]\d+(?:\.\d+)?)+$")  # "10:1", "1/1"
PERCENT = re.compile(r"^[-+~≈˜]?\d+(?:[.,]\d+)?%?(?:[-–~→∼]\d+(?:\.\d+)?)?%$")
AMOUNT = re.compile(
    r"^\d+(?:\.\d+)?(?:[mk]?g|[mµu]?[lL]|[mµu]?mol|mmole|eq|equiv|M|N|%|wt\.?%)$"
)
REPEATED_UNIT = re.compile(r"^(?:[mµμu]?[lL]|[mk]?g)[*×x]\d+$")  # "mL*3"
REPEATED_AMOUNT = re.compile(r"^\d+[*×x]\d+(?:\.\d+)?[mµμu]?[lL]$")  # "3x75ml"
NAME_END = re.compile(r"(?:ate|ite|ide|ine|one|ol|ane|ene|acid|amide|amine|ile|ole|yde)$")
# "abs . ethanol", "conc . HCl": abbreviations whose full stop is a token of its own
SPLIT_ABBREVIATIONS = frozenset(["abs", "conc", "sat", "anh", "aq"])
# the rest of a name after a split opening bracket: "( E)-3-(4-...", "( 2S,5R)-2-..."
STEREO_REST = re.compile(r"^[\dRSEZ,]+\)-")
# "3-neck", "three-necked": the necks of a flask
NECK = re.compile(r"^(?:\d|one|two|three|four|five|single|double)-?neck(?:ed)?$", re.IGNORECASE)
# "N , N-dimethyl...", "O , O-diethyl ...": heteroatom locants split at their comma
HETERO_LOCANTS = frozenset(["N", "O", "S"])
COLOUR_WORDS = frozenset(["color", "colour"])
# the rest of a name after a comma in its locant list: "3-dihydro...", "11b-(epimino..."
LOCANT_REST = re.compile(r"^\d+[a-zA-Z]?'?[,-]")
# a name starts with a locant, a stereo descriptor or an N-prefix: "3-(", "(E)-", "(1S,3R)-",
# "N,N-diethyl", "N4-(", "[(2-"
LOCANT_START = re.compile(r"^(?:\(?\d|\(\d*[RSEZ]\b|\[\(|N\d?[,-])")
LABEL = re.compile(r"^\d{1,3}-?[a-z]{1,2}$")  # 1b, 34-d
GENERIC_ID = re.compile(r"^(?:\d{1,2}|[A-Z])$")  # "Solution 1", "elution system A"
NUMBERED_WORD = re.compile(r"^\(\d+\)[A-Za-z][a-z]+$")  # "(3)Preparation"
CAPITALIZED = re.compile(r"^(?:[\d,'()\[\]]*-|(?:tert|sec|rac|cis|trans)-)*[A-Z][a-z]{2,}")
CHEMICAL_SHAPE = re.compile(
    r"""^(?:
        (?=.*\d)(?=.*[A-Za-z]{3})[\w()\[\]{},.:'’+\-=@#*]{5,}    # IUPAC fragment: 3-bromo-...
      | (?=\S*\d)(?:[A-Z][a-z]?\d*){2,}[+-]?                     # formula with digits: Na2SO4
      | (?:[A-Z][a-z]?){2,4}                                      # short formula: HCl, NaOH
      | (?i:[a-z(),\-\[\]\d']{3,}(?:anes?|enes?|ynes?|ines?|ols?|ides?|ates?|ites?|ones?|yls?
            |ics?|ium|oxy|ethers?|amides?|azoles?|amines?|imines?|anols?|onitrile|ylate|oate
            |furans?|pyrans?|oles?|acids?|esters?|alcohols?|aldehydes?|ketones?|hydrates?|oxanes?
            |azines?|idines?|ydes?|ates?|sulfoxide|formamide|acetamide|ane-d\d))
    )$""",
    re.VERBOSE,
)
# "DCM(15", "acid(250", "acetonitrile(250mg": a name fused with the opening of its quantity:
# the text from its last "(" on, and two letters in the (spaceless) text before it
FUSED_TAIL = re.compile(r"\(\d+(?:[.,]\d+)?(?:mg|g|ml|mL|L|mmol|%)?$")
LETTER_PAIR = re.compile(r"[A-Za-z]{2}")
SPACE = re.compile(r"\s")
IDENT = re.compile(r"^(?:[A-Z]{0,4}-?\d+[a-zA-Z]{0,2}'?|\d+-[a-zA-Z]{1,2}|[A-Z]{1,3}\d*[a-z]?)$")
STATE_HEADS = frozenset(
    "solid solids oil oils foam gum powder crystal crystals liquid syrup wax glass semi-solid "
    "tar material substance film precipitate".split()
)
# finite verbs that end the fittings of equipment ("equipped with a stirrer was charged")
FINITE_VERBS = frozenset(["was", "were", "is", "are", "has", "had", "then"])
NOT_SOLVENT_HEADS = frozenset(["portion", "portions", "vacuo", "total", "one"])
NUMBER_SIGNS = frozenset(["no", "no.", "nos", "nos.", "#"])
KEEP_TRAILING = frozenset(
    ["anhydrous", "bed", "filter", "stream", "agent", "ppts", "present", "plug", "chips", "washes"]
)
# "an ice bath", "under microwave irradiation": no compound of the reaction (no mention)
NOT_A_COMPOUND_AFTER = frozenset(["bath", "baths", "irradiation", "oven"])
MIXTURE_HEADS = frozenset("mixture solution residue filtrate suspension".split())
SOLUTION_HEADS = frozenset("solution solutions mixture suspension slurry".split())
_PUNCT = {",": "P", ".": ".", ";": "P", "(": "(", "[": "(", "{": "(", ")": ")", "]": ")",
          "}": ")", "/": "/", "-": "-", ":": ":", "=": "="}



_FIRST, _SECOND, _THIRD = itemgetter(0), itemgetter(1), itemgetter(2)


def _fused_bracket(text: str) -> bool:
    """``^\\S*[A-Za-z]{2}\\S*`` before a last ``(`` that :data:`FUSED_TAIL` matches, checked in
    linear time (the single regex backtracks quadratically in the length of a long token)."""
    k = text.rfind("(")
    return (
        k >= 2 and FUSED_TAIL.match(text, k) is not None
        and LETTER_PAIR.search(text, 0, k) is not None and SPACE.search(text, 0, k) is None
    )


class TokenClassifier:
    """Token text -> class letter, cached (context-free part of the classification)."""

    def __init__(self, tables: MentionTables):
        self.t = tables
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
        if text in _PUNCT:
            return _PUNCT[text]
        if text in ("×", "x", "X", "*"):
            return "x"
        if text.isspace():
            return "."
        t, low = self.t, text.lower()
        if low in t.determiners:
            return "D"
        if low == "of":
            return "O"
        if low in ("in", "containing"):
            return "I"
        if low in ("dissolved", "suspended"):
            return "J"
        if low in ("equipped", "fitted"):
            return "Q"
        if low == "from":
            return "F"
        if low == "and":
            return "&"
        if low in ("yield", "yield:", "yields"):
            return "Y"
        if NUMBER.match(text):
            return "N"
        if RATIO_TOKEN.match(text):
            return "R"
        if AMOUNT.match(text) or PERCENT.match(text) or REPEATED_AMOUNT.match(text):
            return "A"
        if low in t.units or REPEATED_UNIT.match(text):
            return "U"
        if low in t.stop or NUMBERED_WORD.match(text):
            return "S"
        if low in t.generic:
            return "G"
        if low in t.reference:
            return "K"
        if low in t.equipment or low.rpartition("-")[2] in t.equipment:
            return "E"  # "flask", "mL-flask"
        if low in t.chemical:
            return "C"
        if low in t.modifiers:
            return "W"
        if _fused_bracket(text) and text.count("(") == text.count(")") + 1:
            return "V"
        if CHEMICAL_SHAPE.match(text):
            return "C"
        if IDENT.match(text):
            return "Z"
        if len(text) == 1 and text.isalpha():
            return "Z"
        if text.isalpha() and text.islower():
            return "W"
        return "X"



# classes that no contextual rule of _class_string changes (skipped quickly)
_NO_CONTEXT_RULE = frozenset(")OUAGEY:=/-&RFJQ")
# "( 7g )", "( 1g )": a compound label that looks like an amount in grams
GRAM_LABEL = re.compile(r"^\d{1,2}g$")
REF_LABEL = re.compile(r"^\d{1,3}[a-zA-Z]$")  # "compound 64g": a number with a letter
_BRACKET_COMMA_IN = frozenset("(PI")
# the first word of a sentence after a heading without a full stop: the class that begins a NP
_BEGIN = {"C": "b", "X": "b", "Z": "b", "K": "k", "N": "n"}


def _class_string(
    doc: Doc, classify: TokenClassifier, tables: MentionTables
) -> tuple[list[str], str]:
    """The words of ``doc`` and its class string."""
    words, cs, _low = _class_string_low(doc, classify, tables)
    return words, cs


def _class_string_low(
    doc: Doc, classify: TokenClassifier, tables: MentionTables
) -> tuple[list[str], str, list[str]]:
    """The words of ``doc``, its class string and the lowercased words."""
    words, classes, low = classify.doc_classes(doc)
    modifiers = _any_case(tables.modifiers)
    n = len(classes)
    _reference_ids(words, classes)
    for i in range(1, n):
        c = classes[i]
        if c in _NO_CONTEXT_RULE:
            continue
        prev = classes[i - 1]
        if c in _BRACKET_COMMA_IN:
            if i + 1 < n and classes[i + 1] in "CXbG":
                _split_name_context(words, classes, i, prev)
            elif (
                c == "I" and i + 3 < n and classes[i + 3] == "(" and low[i + 2] in COLOUR_WORDS
                and prev in "CKZ"
            ):
                # "the title compound in white color ( 31 mg , yield 4.6% )": one mention
                classes[i] = "W"
            elif (
                c == "(" and i + 3 < n and classes[i + 1] == "A" and classes[i + 2] == ")"
                and GRAM_LABEL.match(words[i + 1])
                and (classes[i + 3] in "CXb" or words[i + 3][:1].isupper())
            ):
                # "...acetate ( 7g ) 3-oxazol-2-yl-...", "...carbamate ( 1g ) A solution": a
                # label in grams' clothing, alone in its bracket before a new name
                classes[i + 1] = "Z"
            continue
        if prev in "Kk" and c in "SX" and words[i].lower() in NUMBER_SIGNS:
            # "Compound No. 5", "Example No . 12": the number sign joins head and number
            k = i + 2 if i + 2 < n and words[i + 1] == "." else i + 1
            if k < n and classes[k] in "NZ":
                classes[i:k] = ["#"] * (k - i)
            continue
        if c == "S":
            # "the combined organic layers", "the reaction mixture": a stop word after a
            # determiner that is also a modifier is a modifier; so is one before a name
            # ("with concentrated HCl", "Combined organic layers") and any stop word between
            # a determiner and a name ("the produced solid")
            before_name = i + 1 < n and classes[i + 1] in "CWGb"
            if (prev in "DW" or before_name) and (
                (prev == "D" and before_name) or words[i] in modifiers
            ):
                classes[i] = "W"
            elif prev == "D" and low[i] == "further" and i + 1 < n and classes[i + 1] in "NAn":
                classes[i] = "W"  # "a further 0.19 ml ( 1.11 mmol ) of DIPEA"
        # "...carboxylic acid 8.0 ml (...) of": a number with a unit after a name starts a new NP
        elif c == "N":
            if prev in "CXGEZbNK" and i + 1 < n and classes[i + 1] == "U":
                classes[i] = "n"
        elif c in "CXW":
            if c != "W" and _open_brackets(words[i]) > 0:
                _join_split_name(words, classes, i)
            # "Example 76A Methyl 4-...": a capitalized name after a name starts a new NP
            # (a word without capitals is its own lowercase form: no regex needed)
            if prev in "CZXKWNb" and words[i] != low[i] and CAPITALIZED.match(words[i]):
                classes[i] = "b"
            # "the reaction mixture butyl vinyl ether ( 1 mL )": a name after a mixture
            elif c == "C" and prev == "G" and words[i - 1].lower() in MIXTURE_HEADS:
                classes[i] = "b"
            # "Compound 5 Compound 5", "Example 14 4-bromo...": a new NP after a reference
            elif i > 1 and classes[i - 2] in "Kk" and prev in "NZ":
                classes[i] = "b"
            # "...benzonitrile NCS ( 4.75 g )": an all-caps abbreviation after a long name
            elif c != "W" and prev == "C" and words[i].isupper() and len(words[i - 1]) >= 15:
                classes[i] = "b"
        elif c == ".":
            # "The  mixture", "the\nmixture" (raw text): extra spaces or a line break after a
            # determiner or modifier do not end the noun phrase
            if prev in "DW" and words[i].isspace() and "\n\n" not in words[i]:
                classes[i] = "W"
            # "abs . ethanol": an abbreviated modifier split from its full stop
            elif (
                words[i - 1].lower() in SPLIT_ABBREVIATIONS and i + 1 < n
                and classes[i + 1] in "CWb"
            ):
                classes[i - 1] = classes[i] = "W"
        elif c == "D":
            if prev in "Kk" and words[i] == "A":
                classes[i] = "Z"  # "Compound A"
            elif prev == "G" and words[i] == "A" and (i + 1 == n or classes[i + 1] in ".P:)S"):
                classes[i] = "Z"  # "elution system A to obtain": a label
            elif prev == "D" and words[i - 1].lower() in ("all", "both"):
                classes[i] = "W"  # "All the organic layers": one noun phrase
        elif c == "x":
            if prev in "Kk":
                classes[i] = "Z"  # "Compound x"
        elif c == "K":
            # "...benzaldehyde Intermediate 16A": a capitalized reference after a name
            if prev in "CXZb" and words[i][:1].isupper():
                classes[i] = "k"
            elif i > 1 and classes[i - 2] in "Kk" and prev in "NZ":
                classes[i] = "k"
        elif c in "Zb" and i > 1 and classes[i - 2] in "Kk" and prev in "NZ":
            classes[i] = "b"
    starts = _sentence_starts(doc)
    if len(starts) > 1:
        # the end of a heading without a full stop begins a new noun phrase
        i = starts[1]
        plain_word = words[i].isalpha() and words[i].islower()
        if classes[i] in _BEGIN and classes[i - 1] in "CXZNb)" and not plain_word:
            classes[i] = _BEGIN[classes[i]]
    _heading_breaks(words, classes, tables.heading)
    chems = _chemical_spans(doc)
    if chems:
        for start, end, _label in chems:
            for i in range(start, end):
                # NER promotes words to chemicals; numbers, units and stop words stay
                if classes[i] in "WXZ":
                    classes[i] = "C"
    return words, "".join(classes), low


@functools.cache
def _open_brackets(word: str) -> int:
    """Opening minus closing round and square brackets of ``word``."""
    return word.count("(") + word.count("[") - word.count(")") - word.count("]")


# the token classes a name split by spaces may hold until its brackets close
_NAME_PIECES = frozenset("CXWZNb")
_NAME_BREAKS = frozenset(["(", ")", "[", "]", ","])


def _join_split_name(words: list[str], classes: list[str], i: int) -> None:
    """``name_split_by_spaces``: a name token whose brackets are left open continues after a
    space ("...-7-((1-fluorocyclopropyl ) methyl)-8-methyl-...", "...-2,6(3H , 7H)-dione",
    "...bis(...-sulfonyl fluoride )"): the brackets and commas up to where its brackets close
    join the pieces (nothing changes when they do not close within a few tokens)."""
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
            if not breaks or (k == i + 1 and (k + 1 == n or classes[k + 1] not in _NAME_PIECES)):
                return
            for b in breaks:
                # a break before a name piece joins it; one that closes the name ends it
                classes[b] = "-" if b + 1 < n and classes[b + 1] in _NAME_PIECES else "C"
            return


def _split_name_context(words: list[str], classes: list[str], i: int, prev: str) -> None:
    """Context rules for a bracket, comma or "in"/"containing" token ``i`` (a separate function:
    most tokens never need it)."""
    c, n = classes[i], len(classes)
    if c == "(":
        if i + 1 == n or classes[i + 1] not in "CXb":
            return
        nxt = words[i + 1]
        if (
            prev in "Cb" and i + 3 < n and classes[i + 2] == ")" and classes[i + 3] in "Cb"
            and nxt.endswith("yl")
        ):
            classes[i] = classes[i + 2] = "-"  # "tert-butyl ( 3-aminophenyl ) carbamate"
        elif STEREO_REST.match(nxt):
            # "( E)-3-(4-...)acrylic acid": one name (a new one after "Example 6")
            classes[i] = "b" if prev in "NZKk" else classes[i + 1]
    elif c == "P":
        # "2 , 3-Dichloropyridine", "...-1H-6 , 11b-(epiminoethano)-...": a locant list
        # split at its comma
        if (
            prev in "CbN" and i + 1 < n and classes[i + 1] in "Cb"
            and LOCANT_REST.match(words[i + 1])
            and words[i - 1][-1:].isdigit() and words[i] == ","
            and (prev in "Cb" or (prev == "N" and len(words[i - 1]) == 1
                                  and (i < 2 or classes[i - 2] not in "KkUAN")))
        ):
            classes[i] = "-"
            if prev == "N" and i > 1 and classes[i - 2] in "Cb" and NAME_END.search(words[i - 2]):
                # "...pyridin-2-amine 2 , 3-Dichloropyridine": the locant list starts a new name
                classes[i - 1] = "b"
        elif (
            prev == "U" and words[i - 1] in HETERO_LOCANTS and words[i] == ","
            and words[i + 1].startswith((words[i - 1] + "-", words[i - 1] + "'-"))
        ):
            # "N , N-dimethylformamide", "N , N'-dicyclohexylcarbodiimide": an N-locant
            # list split at its comma (the first "N" is no unit)
            classes[i - 1], classes[i] = "C", "-"
        elif (
            prev in "UXZ" and i + 2 < n and classes[i + 2] == "E" and words[i] == ","
            and NECK.match(words[i + 1])
        ):
            classes[i] = "W"  # "a dried 250 mL , 3-neck flask": one piece of equipment
    else:  # "I"
        # "Product containing fractions", "the product - containing fractions"
        if prev in "Kk-" and i + 1 < n and classes[i + 1] == "G" and words[i] == "containing":
            classes[i] = "W"


def _reference_ids(words: list[str], classes: list[str]) -> None:
    """The token after a reference head that is its id although it looks like a unit, a stop
    word, a determiner or an amount: "Compound l", "Compound n", "Compound a '", "the compound
    64g" (found by a string search: reference heads are rare)."""
    joined = "".join(classes)
    k = joined.find("K")
    while k != -1 and k + 1 < len(classes):
        nxt, c = words[k + 1], classes[k + 1]
        if (c in "UDS" and len(nxt) == 1 and nxt.islower()) or (
            c == "A" and REF_LABEL.match(nxt)
        ):
            classes[k + 1] = "Z"
        k = joined.find("K", k + 1)


@functools.cache
def _any_case(words: frozenset[str]) -> frozenset[str]:
    """``words`` as written in lower case, Capitalized and UPPER case (membership without
    lowercasing every token)."""
    return frozenset(v for w in words for v in (w, w.capitalize(), w.upper()))


def _heading_breaks(words: list[str], classes: list[str], heading: frozenset[str]) -> None:
    """In the heading (before the first verb): "Step 2 NAME" – the step number is no part of
    the name; "...acrylate 3-(2-((2-fluoro...", "...acrylate (E)-methyl ...", "...sulfonate
    N,N-diethyl-..." – a complete name followed by a long name starting with a locant (stereo
    descriptor, N-prefix) is where the heading name ends."""
    for i in range(1, len(classes) - 1):
        c, prev = classes[i], classes[i - 1]
        if c in "SD&" and words[i].lower() not in heading:
            return
        if c in "NZ" and prev in "S.:(" and classes[i + 1] in "CXb" and (
            words[i].isdigit() or (len(words[i]) == 1 and words[i].isupper())
        ):
            classes[i] = "S"  # "Step 2 NAME", "Step B NAME"
        elif (
            c == "C" and prev in "CbX" and NAME_END.search(words[i - 1])
            and (m := LOCANT_START.match(words[i]))
            and (len(words[i]) >= 12 or (m.group().startswith("(") and len(words[i]) >= 8))
        ):
            classes[i] = "b"

