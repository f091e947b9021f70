"""``chemie_mentions``: ChEMU-Ref mentions (chemical NPs with quantities, generic expressions,
equipment, numbered compounds) from a class string over the tokens.

Every token gets one class letter (tables in ``rules/mentions.yaml``); compiled patterns over
the class string of the whole doc find the mentions, so nothing loops a regex per token except
the cached word-shape lookup. NER spans (``doc.spans["chemicals"]``) are used as chemical
seeds when present. Each mention gets ``attrs``: ``kind`` (chemical | generic | reference |
equipment | state), ``head`` (lowercased head word), ``sentence`` (index), ``tokens`` (first,
last inclusive, over the whole mention) plus ``quantity`` (has an amount), ``det`` (its
determiner or ""), ``core`` ((first, last) tokens of the name without quantities).

Class letters: D determiner, W other lowercase word/modifier, C chemical word, G generic head,
K reference head (compound, intermediate …), E equipment head, Z identifier (1b, F1304),
N number, A fused amount (7.13g), U unit, O "of", I "in", S stop word, ``,`` comma → P,
``.`` / ``;`` → ``.``, brackets → ``(`` ``)``, ``/`` and ``-`` joiners, ``#`` a number sign
after a reference head (Compound No. 5), V a name fused with the opening of its quantity
bracket ("DCM(15"), X anything else.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from operator import itemgetter

from spacy.attrs import IDX, ORTH, SPACY
from spacy.language import Language
from spacy.tokens import Doc

from chemie.extensions import mentions_of
from chemie.model import Mention, Range
from chemie.resources import load_rules

_IN = "WCGEKZNUAXV"
CORE = rf"(?=[Dbnk{_IN}])(?:D?[bnk]|D)?(?:[{_IN}]|[/-](?=[{_IN}])|#+(?=[NZ]))*"
# Speed guards (necessary conditions checked before a costly branch; they change no match):
# the characters a core (with its joiners) can consume
RUN = rf"[Dbnk{_IN}/#-]*"
# every branch of the mention pattern starts at one of these classes (a determiner, a core
# class, a lead amount, "Yield"): the search tests it before trying the branches
START = rf"(?=[Dbnk{_IN}Y])"
# a ratio branch needs "=", ":", "/" or "(" right after (or inside) the core run
RATIO_GUARD = rf"(?=[Dbnk{_IN}#-]*[=:/(])"
# "( 15 g ( 32.5% yield ) )", "( 73.5 mg ( 0.145 mmol ) , 94% yield )": one nested bracket
QPAREN = r"\((?=[^().]*[AU])[^().]*(?:\([^().]*\)[^().]*)?\)"
# "( 4a )", "( TFA )", "[ Example 9 , Step 1 ]": a label or a reference bracket
IDPAREN = r"\((?:[CZXKN]{1,3}|K[NZ]PS[NZ])\)"
LEAD = (
    r"(?:(?:DW)?(?:[NAn][Ux]+|A)(?:[Px]?[NAn]U*)*(?:\([^().]*\))?(?:D(?=O))?O|W*[Nn](?::N)+"
    # "1.45 g ( 7 mmol ) L-valine ethyl ester": an amount with its moles before a name
    r"|[Nn]U\((?=[^().]*U)[^().]*\)(?=[Cb]))"
)
FROM = r"(?P<frm>F(?:[Kk]|[XZ]\.?)[NZ])"
YIELD = r"(?:[P:]?Y[:=O]?[NA]|[SI]DYOS?(?:A|NU)|I(?:NU|[AN])Y)"
# ", v / v" after a ratio: "MeOH : CH2Cl2 = 1 : 8 , v / v", "( 6 / 1 , v / v )"; a bracket
# "( V / V = 6 : 1 )" after a mixture
VV = r"(?:PZ/Z)?"
RATIO = (
    r"(?:(?:\([^().]*\))?(?:[=:]F?|P?(?=N[/:]N))(?=[NAR])(?:[NAXUR]|[:/-](?=[NAX])|S(?=[NA]))+"
    rf"{VV}|\((?:N(?::N)+|R|N/N{VV}|Z/Z[=:]?N(?:[:/]N)+)\))"
)
# "0 to 25% EtOAc in heptane", "1-10% MeOH in DCM": a gradient eluent
# "100% hexanes to 9 : 1 hexanes / EtOAc", "10% EtOAc to 15% EtOAc in hexanes": from one
# eluent to another
GRADIENT = (
    rf"(?P<grad>(?:NS)?A{CORE}I{CORE}|(?={RUN}I){CORE}I{CORE}\(A\)"
    rf"|A{CORE}(?P<to>S)(?:N(?::N)+|A){CORE}(?:I{CORE})?)"
)
# One mention: [amount of] core [of core] [(id)] [(quantity) [(id)] [in core [(quantity)]]]
# "a solution of X ( 1 g ) , Y ( 2 g ) and Z ( 3 g ) in EtOAc ( 4 mL )": one mention
# a compound of a list: "X ( 1 g )", "X ( 4i ) ( 1 g )", "20 g ( 156 mmol ) of X"
LIST_ITEM = rf"(?:(?=[NAn]){LEAD}{CORE}|{CORE}(?:{IDPAREN})?(?:{QPAREN})+)"
SOLUTION_LIST = (
    rf"(?P<soln>(?:D[WCb]+\([^()]*\))?D?W*GO{LIST_ITEM}"
    rf"(?:(?:P&?|&){LIST_ITEM})+"
    rf"(?:I{LEAD}?{CORE}(?:{QPAREN})?)?"
    # "added to X ( 1 g ) and Y ( 2 g ) in THF ( 5 mL )": compounds with their solvent
    rf"|(?<=S)(?=[Cb]){CORE}{QPAREN}(?:P?&{CORE}{QPAREN})+I{CORE}{QPAREN})"
)
# "in THF ( 5 mL ) and water ( 1 mL )", "in CH2Cl2 ( 3 mL ) / MeCN ( 3 mL )", "in 15 ml of THF and
# 3 mL of water": more solvents of the same solution
MORE_SOLVENTS = rf"(?:[&/](?=[bnkNAWCX]){LEAD}?{CORE}(?:{QPAREN})?)*"
# "DCM(15 mL × 3 )", "acid(250 mg , 83.1% yield )": a name whose bracket opens in its token
FUSED_QUANTITY = rf"(?P<fused>D?[W{_IN}]*V[^().]*\))"
# "An NMP ( 1 mL ) solution of X", "a cooled ( 0° C . ) solution of X": a bracket between the
# determiner and "solution of"
SOLUTION_PREFIX = r"D[WCb]+\([^()]*\)(?=W*GO)"
# "Yield : 530 mg ( 81% of theory )": a product stated by its yield
YIELD_STATEMENT = r"(?P<ystat>Y:?[NAn]U+(?:\([^().]*\))?)"


def _mention_pattern(ratio: bool, mix: bool = True, fused: bool = False) -> re.Pattern[str]:
    """The mention pattern; without ``ratio`` it has no eluent-ratio branch (the fallback when
    a ratio match is no eluent: "DSC : 195"), without ``mix`` no second component after "of"
    (the fallback when the noun before "of" is no mixture: "a period of X and Y"); ``fused``
    adds the fused-quantity branch (only for docs with such a token: it scans every run)."""
    fused_branch = f"{FUSED_QUANTITY}|" if fused else ""
    ratio_core = rf"{RATIO_GUARD}{CORE}(?:[:/]{CORE})*(?={RATIO})|" if ratio else ""
    ratio_group = rf"(?P<ratio>{RATIO})?" if ratio else r"(?P<ratio>(?!))?"
    mix_group = rf"(?P<mix>&(?=[bnkNAWCX]){LEAD}?{CORE})?" if mix else r"(?P<mix>(?!))?"
    return re.compile(
        rf"{START}(?:{SOLUTION_LIST}|{GRADIENT}|{YIELD_STATEMENT}|{fused_branch}(?:(?P<lead>{LEAD})|(?P<svp>{SOLUTION_PREFIX}))?(?P<core>{ratio_core}{CORE}(?:O{LEAD}?{CORE}{mix_group})?{FROM}?)"
        rf"(?P<amt>(?<=[Kk])nU+(?:\([^().]*\))?)?{ratio_group}(?P<idp>{IDPAREN})?"
        rf"(?:(?:(?P<pid>\((?:[CZXKWGbk]|[Kk]?[NZ]){{1,3}}P)(?=[^().]*[AU])[^().]*\)"
        rf"|(?P<qp>(?:{QPAREN})+))(?P<idp2>{IDPAREN})?(?P<sol>(?!I(?:NU|[ADN])Y)(?:P?J|SDG)?I{LEAD}?{CORE}(?:{QPAREN})?{MORE_SOLVENTS})?"
        rf"|(?P<sol2>(?!I(?:NU|[ADN])Y)(?:P?J)?I{LEAD}?{CORE}(?:{QPAREN})?{MORE_SOLVENTS})|(?<=E)(?P<eqp>QS(?:P?&?D[WXCENS-]+)+))?"
        rf"(?P<yld>{YIELD})?)"
    )


MENTION = _mention_pattern(ratio=True)
MENTION_FUSED = _mention_pattern(ratio=True, fused=True)
MENTION_NO_RATIO = _mention_pattern(ratio=False)
MENTION_NO_MIX = {True: _mention_pattern(ratio=True, mix=False),
                  False: _mention_pattern(ratio=False, mix=False)}
# "a mixture of THF and toluene ( 4 mL / 6 mL )": heads before "of" that join two components
FRACTIONS = frozenset(["fraction", "fractions"])
MIX_HEADS = frozenset("solution solutions mixture mixtures suspension slurry solvent".split())
# an eluent ratio is numeric: "20 / 1", "4 : 1", "100→1 : 80" (or percentages: "0% to 80%")
NUMERIC_RATIO = re.compile(r"\d ?[:/] ?\d|%")

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
# "DCM(15", "acid(250", "acetonitrile(250mg": a name fused with the opening of its quantity
FUSED_BRACKET = re.compile(r"^[^\s]*[A-Za-z]{2}[^\s]*\(\d+(?:[.,]\d+)?(?:mg|g|ml|mL|L|mmol|%)?$")
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


@dataclass(frozen=True)
class MentionTables:
    """The word lists of ``rules/mentions.yaml`` as lowercase sets."""

    determiners: frozenset[str]
    generic: frozenset[str]
    reference: frozenset[str]
    equipment: frozenset[str]
    chemical: frozenset[str]
    modifiers: frozenset[str]
    stop: frozenset[str]
    units: frozenset[str]
    heading: frozenset[str]
    confidence: dict[str, float]  # rule name -> mention confidence
    # reaction_as_subject: verbs, not_after, process (participles after the verb: no mention)
    reaction_filter: tuple[frozenset[str], frozenset[str], frozenset[str]]
    adjective_filter: tuple[tuple[str, ...], tuple[str, ...]]  # adjective_head: suffixes, except
    # determined_head: heads, determiners, not_after
    determined_filter: tuple[frozenset[str], frozenset[str], frozenset[str]]
    partitives: frozenset[str]  # non_partitive_of: nouns that measure out what follows "of"
    infinitive_verbs: frozenset[str]  # infinitive_verb: verbs that are no mention after "to"
    pronoun_verbs: frozenset[str]  # pronoun_subject: "it was <verb>" makes "it" a mention

    @classmethod
    def load(cls, name: str = "mentions.yaml") -> MentionTables:
        t = load_rules(name)

        def s(key: str) -> frozenset[str]:
            return frozenset(str(w).lower() for w in t[key])

        return cls(
            s("determiners"), s("generic_heads"), s("reference_heads"), s("equipment_heads"),
            s("chemical_words"), s("modifiers"), s("stop_words"), s("units"),
            s("heading_words"),
            {str(r["name"]): float(r.get("confidence", 0.5)) for r in t.get("rules", [])},
            _filter_words(t, "reaction_as_subject"),
            _adjective_suffixes(t),
            _determined_heads(t),
            frozenset(
                str(w).lower()
                for f in t.get("filters", []) if f["name"] == "non_partitive_of"
                for w in f.get("partitives", ())
            ),
            frozenset(
                str(w).lower()
                for f in t.get("filters", []) if f["name"] == "infinitive_verb"
                for w in f.get("verbs", ())
            ),
            frozenset(str(w).lower() for w in t.get("pronoun_verbs", ())),
        )


def _filter_words(
    t: dict, name: str
) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The ``verbs``, ``not_after`` and ``process`` word sets of the filter ``name`` in the
    rules table."""
    f = next((x for x in t.get("filters", []) if x["name"] == name), {})
    return (
        frozenset(str(w).lower() for w in f.get("verbs", ())),
        frozenset(str(w).lower() for w in f.get("not_after", ())),
        frozenset(str(w).lower() for w in f.get("process", ())),
    )


def _determined_heads(t: dict) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The ``heads``, ``determiners`` and ``not_after`` of the ``determined_head`` filter."""
    f = next((x for x in t.get("filters", []) if x["name"] == "determined_head"), {})
    return tuple(  # type: ignore[return-value]
        frozenset(str(w).lower() for w in f.get(key, ()))
        for key in ("heads", "determiners", "not_after")
    )


def _adjective_suffixes(t: dict) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ``suffixes`` and ``except_suffixes`` of the ``adjective_head`` filter."""
    f = next((x for x in t.get("filters", []) if x["name"] == "adjective_head"), {})
    return (
        tuple(str(w).lower() for w in f.get("suffixes", ())),
        tuple(str(w).lower() for w in f.get("except_suffixes", ())),
    )


_FIRST, _SECOND, _THIRD = itemgetter(0), itemgetter(1), itemgetter(2)


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
        if FUSED_BRACKET.match(text) and text.count("(") == text.count(")") + 1:
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


def doc_text(doc: Doc, words: list[str] | None = None) -> str:
    """``doc.text`` without making a Token object per token (much faster on long docs); the
    text stored by :func:`chemie.nlp.doc_from_document` when there is one."""
    text = doc.user_data.get("chemie.text")
    if text is not None:
        return text
    if words is None:
        strings = doc.vocab.strings
        words = [strings[o] for o in doc.to_array(ORTH).tolist()]
    spaces = doc.to_array(SPACY).tolist()
    return "".join([w + " " if sp else w for w, sp in zip(words, spaces, strict=True)])


_DEFAULT: tuple[MentionTables, TokenClassifier] | None = None


def _default_classifier() -> tuple[MentionTables, TokenClassifier]:
    global _DEFAULT
    if _DEFAULT is None:
        tables = MentionTables.load()
        _DEFAULT = (tables, TokenClassifier(tables))
    return _DEFAULT


def token_info(doc: Doc) -> tuple[list[str], str]:
    """The words of ``doc`` and its class string, computed once per doc and cached in
    ``doc.user_data`` (the coreference rules reuse them)."""
    info = doc.user_data.get("chemie.token_info")
    if info is None:
        tables, classify = _default_classifier()
        info = doc.user_data["chemie.token_info"] = _class_string(doc, classify, tables)
    return info


def class_string(doc: Doc, classify: TokenClassifier, tables: MentionTables) -> str:
    """One class letter per token of ``doc`` (NER chemical spans become ``C``)."""
    return _class_string(doc, classify, tables)[1]


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


def describe_mention(doc: Doc, spans: tuple[Range, ...]) -> dict[str, object]:
    """``kind``/``head``/``sentence``/``tokens``/``core``/``det`` attrs for a mention given by
    char ranges (used for gold mentions)."""
    lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
    whole = doc.char_span(lo, hi, alignment_mode="expand")
    first_range = doc.char_span(spans[0][0], spans[0][1], alignment_mode="expand")
    if whole is None or first_range is None or not len(first_range):
        return {"kind": "chemical", "head": "", "sentence": 0, "tokens": (0, 0)}
    tables, classify = _default_classifier()
    toks = list(first_range)
    # the core ends before the first bracket (quantities) of the first range
    core = toks
    for k, t in enumerate(toks):
        if k and classify(t.text) == "(":
            core = toks[:k]
            break
    det = core[0].lower_ if classify(core[0].text) == "D" else ""
    words = [t for t in core if classify(t.text) not in "().P:=NUA"] or core
    head_tok = words[-1]
    cls = classify(head_tok.text)
    kind = {"G": "generic", "K": "reference", "E": "equipment"}.get(cls, "chemical")
    if kind == "generic" and head_tok.lower_ in STATE_HEADS:
        kind = "state"
    return {
        "kind": kind,
        "head": head_tok.lower_,
        "sentence": _sentence_of_tokens(doc)[whole.start],
        "tokens": (whole.start, whole.end - 1),
        "core": (core[0].i + (1 if det and len(core) > 1 else 0), core[-1].i),
        "det": det,
        "quantity": len(core) < len(toks) or len(spans) > 1,
        "ranges": tuple(
            (sp.start, sp.end - 1)
            for sp in (doc.char_span(a, b, alignment_mode="expand") for a, b in spans)
            if sp is not None and len(sp)
        ),
    }


def _chemical_spans(doc: Doc) -> list[tuple[int, int, str]]:
    """The NER chemical spans (``doc.spans["chemicals"]``): start, end, class (cached in
    ``doc.user_data``: reading a span group makes a Span object per span)."""
    found = doc.user_data.get("chemie.chemicals")
    if found is None:
        spans = doc.spans.get("chemicals") if doc.spans is not None else None
        found = sorted([(sp.start, sp.end, sp.label_) for sp in spans]) if spans else []
        doc.user_data["chemie.chemicals"] = found
    return found


# doc.user_data key where chemie_ner keeps {"start:end": (rule, confidence)} (the store behind
# span._.chem_conf; read directly: the extension getter costs microseconds per call)
NER_STORE = "chemie_ner"


def _ner_confidence(store: dict, start: int, end: int) -> float:
    """The NER confidence of the chemical span ``start:end`` in the doc's NER ``store`` (0.5
    when unknown)."""
    entry = store.get(f"{start}:{end}")
    conf = entry[1] if entry else None
    return 0.5 if conf is None else float(conf)


class _SentenceIndex:
    """``index[token]`` -> the sentence index of the token (a bisect over the sentence starts:
    only the few tokens that begin a mention are looked up)."""

    __slots__ = ("starts",)

    def __init__(self, starts: list[int]):
        self.starts = starts

    def __getitem__(self, token: int) -> int:
        return bisect_right(self.starts, token) - 1


def _sentence_starts(doc: Doc) -> list[int]:
    """The first token of every sentence, 0 first ([0] without sentence boundaries); cached in
    ``doc.user_data``."""
    starts = doc.user_data.get("chemie.sentence_starts")
    if starts is None:
        starts = [0]
        if doc.has_annotation("SENT_START"):
            # Doc.sents starts at token 0 and wherever sent_start is 1
            starts = [sent.start for sent in doc.sents] or [0]
        doc.user_data["chemie.sentence_starts"] = starts
    return starts


def _sentence_of_tokens(doc: Doc) -> _SentenceIndex:
    """The sentence index of every token (all 0 without sentence boundaries)."""
    return _SentenceIndex(_sentence_starts(doc))


class MentionDetector:
    """Finds mentions with the compiled class-string pattern and validates their heads."""

    def __init__(self, tables: MentionTables):
        self.tables = tables
        self.classify = TokenClassifier(tables)
        self._words: list[str] = []  # the words of the doc being processed
        self._low: list[str] = []  # the same, lowercased
        self._adjectives: dict[str, bool] = {}  # word -> adjective_head verdict (cache)

    def __call__(self, doc: Doc) -> Doc:
        mentions = mentions_of(doc)
        if not len(doc):
            return doc
        doc.user_data.pop("chemie.chemicals", None)  # read the NER spans afresh
        doc.user_data.pop("chemie.sentence_starts", None)
        words, cs, low = _class_string_low(doc, self.classify, self.tables)
        doc.user_data["chemie.token_info"] = (words, cs)
        self._words, self._low = words, low
        sent_of = _sentence_of_tokens(doc)
        found: list[tuple[tuple[tuple[int, int], ...], str, dict]] = []
        pos, n_tokens = 0, len(cs)
        pattern = MENTION_FUSED if "V" in cs else MENTION
        while pos < n_tokens:
            m = pattern.search(cs, pos)
            if m is None:
                break
            start, stop = m.span()
            if stop - start <= 1 and (stop == start or cs[start] in "WNZXDUA"):
                pos = start + 1  # a lone word, number or identifier (no mention)
                continue
            c0, c1 = m.span("core")
            if c0 == start and c1 == stop and m.group("mix") is None and m.group("frm") is None:
                # a bare noun phrase (the common case): no ratio, mixture or quantity
                got = self._bare_np(cs, c0, c1, sent_of)
                found.extend(got)
                pos = max(got[0][0][-1][1], start) + 1 if got else start + 1
                continue
            if m.group("ratio") and not self._is_eluent(cs, m):
                # "DSC : 195", "pH = 8": no eluent; the same place without the ratio branch
                m = MENTION_NO_RATIO.match(cs, m.start()) or m
                if m.group("ratio"):
                    pos = m.start() + 1
                    continue
            if m.group("mix") and self._low[cs.rfind("O", 0, m.start("mix")) - 1] not in MIX_HEADS:
                m = MENTION_NO_MIX[m.re is not MENTION_NO_RATIO].match(cs, m.start()) or m
            got = self._validate(doc, cs, m, sent_of) if m.end() > m.start() else []
            found.extend(got)
            # a rejected or shortened match lets the next one start inside it
            end = m.start()
            for r, _, _ in got:
                if r[-1][1] > end:
                    end = r[-1][1]
            pos = end + 1
        low_set = set(self._low)  # the doc's words, for the guards of the rarer rules
        if "it" in low_set:
            found.extend(self._pronouns(sent_of))
        if ".(" in cs:
            found.extend(_yield_brackets(words, cs, sent_of))
        found = _attach_state_quantities(self._low, cs, found)
        found = _attach_yields(cs, found, self._low)
        found = _attach_suffixes(words, cs, found)
        found = _solution_components(cs, found)
        if "solution" in low_set:
            found = _abbreviated_solutions(cs, found)
        if "containing" in low_set:
            found = _eluent_additives(words, low, cs, found)
        if "&" in cs:
            found = _eluent_pairs(words, cs, found)
        if not COLUMN_WORDS.isdisjoint(low_set):
            found = _column_packings(self._low, cs, found)
        if ")/" in cs:
            found = _solvent_pairs(cs, found)
        verbs, not_after, process = self.tables.reaction_filter
        heads, dets, not_after_det = self.tables.determined_filter
        inf = self.tables.infinitive_verbs
        if "tlc" in low_set:
            found = [f for f in found if not _in_tlc_bracket(self._low, cs, f[0][0][0])]
        found = [
            f for f in found
            if ((h := f[2]["head"]) != "reaction"
                or _reaction_is_a_mixture(self._low, f, verbs, not_after, process))
            and (h not in heads or _is_determined(self._low, f, dets, not_after_det))
            and (h not in inf or not _is_infinitive(self._low, f))
        ]
        text_of_doc = doc_text(doc, words)
        idx = doc.to_array(IDX).tolist()
        chem = _chemical_spans(doc)
        rule_conf = self.tables.confidence
        chem_starts = [c[0] for c in chem] if chem else []
        ner_store = doc.user_data.get(NER_STORE, {}) if chem else {}
        for n, (ranges, rule, attrs) in enumerate(sorted(found, key=_FIRST), 1):
            if len(ranges) == 1:
                a, b = ranges[0]
                spans: tuple[Range, ...] = ((idx[a], idx[b] + len(words[b])),)
                text = text_of_doc[spans[0][0] : spans[0][1]]
            else:
                spans = tuple((idx[a], idx[b] + len(words[b])) for a, b in ranges)
                text = " ".join(text_of_doc[a:b] for a, b in spans)
            attrs["ranges"] = ranges
            conf = rule_conf.get(rule, 0.5)
            if chem and attrs["kind"] == "chemical":
                c0, c1 = attrs["core"]
                # NER spans (sorted by start) inside the name
                k = bisect_left(chem_starts, c0)
                inside = []
                while k < len(chem) and chem[k][0] <= c1:
                    if chem[k][1] <= c1 + 1:
                        inside.append(chem[k])
                    k += 1
                if len(inside) == 1:
                    attrs["chemdner_class"] = inside[0][2]
                    conf = _ner_confidence(ner_store, inside[0][0], inside[0][1])
                elif inside:
                    # the class of the longest NER span in the name; its NER confidence
                    best = max(inside, key=lambda c: (c[1] - c[0], -c[0]))
                    attrs["chemdner_class"] = best[2]
                    conf = max(_ner_confidence(ner_store, c[0], c[1]) for c in inside)
            mentions.append(Mention(f"M{n}", spans, "ENTITY", text, rule, conf, attrs))
        return doc

    def _pronouns(
        self, sent_of: _SentenceIndex
    ) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
        """``pronoun_subject``: "it" as the subject of a process verb stands for the reaction
        mixture ("It was cooled to room temperature", "it was diluted with water")."""
        low, verbs, out = self._low, self.tables.pronoun_verbs, []
        i = -1
        while True:
            try:
                i = low.index("it", i + 1)
            except ValueError:
                break
            if i + 2 >= len(low):
                break
            nxt = low[i + 1]
            if (nxt in ("was", "is") and low[i + 2] in verbs) or nxt in verbs:
                out.append((((i, i),), "pronoun_subject", {
                    "kind": "generic", "head": "it", "sentence": sent_of[i], "tokens": (i, i),
                    "core": (i, i), "det": "", "quantity": False}))
        return out

    def _adjective(self, word: str) -> bool:
        """``adjective_head``: a plain word with an adjective suffix (-ic, -ous, -al) that is
        no chemical name ending ("butanal", "dimethyl acetal"); cached per word."""
        verdict = self._adjectives.get(word)
        if verdict is None:
            suffixes, except_suffixes = self.tables.adjective_filter
            low = word.lower()
            verdict = self._adjectives[word] = (
                word.isalpha()
                and low.endswith(suffixes)
                and not low.endswith(except_suffixes)
                and (word.islower() or word[1:].islower())
            )
        return verdict

    def _is_eluent(self, cs: str, m: re.Match) -> bool:
        """``eluent_ratio`` needs two solvent-like parts ("DCM / MeOH", "EtOAc : hexane", "a mixture
        of DCM and hexane") and a numeric ratio ("20 / 1", "4 : 1", "from 0% to 80%")."""
        c0, c1 = m.span("core")
        parts = re.split(r"[/:&]" if m.group("mix") else r"[/:]", cs[c0:c1])
        if sum(1 for p in parts if any(ch in "CbX" for ch in p)) < 2:
            return False
        # the core may end with the ratio's first number: "hexane / EtOAc 4 : 1"
        return NUMERIC_RATIO.search(" ".join(self._words[c1 - 1 : m.end("ratio")])) is not None

    def _validate(
        self, doc: Doc, cs: str, m: re.Match, sent_of: _SentenceIndex
    ) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
        """The mention(s) of one pattern match, or none when its head is not a compound."""
        if m.end() - m.start() == 1 and cs[m.start()] in "WNZXDUA":
            return []  # a lone word, number or identifier
        c0, c1 = m.span("core")
        if c0 == m.start() and m.group("mix") is None and m.group("frm") is None:
            if c1 == m.end():
                return self._bare_np(cs, c0, c1, sent_of)
            if m.span("qp") == (c1, m.end()):
                return self._core_quantity(doc, cs, c0, c1, m.end(), sent_of)
        g = m.groupdict()
        words, low = self._words, self._low
        if g["soln"]:
            return [self._solution_list(doc, cs, m, sent_of)]
        if g["ystat"]:
            a, b = m.span("ystat")
            attrs = {"kind": "chemical", "head": "yield", "sentence": sent_of[a],
                     "tokens": (a, b - 1), "core": (a, a), "det": "", "quantity": True}
            return [(((a, b - 1),), "yield_statement", attrs)]
        if g.get("fused"):
            a, b = m.span("fused")
            v = cs.index("V", a)
            det = low[a] if cs[a] == "D" else ""
            attrs = {"kind": "chemical", "head": low[v].partition("(")[0],
                     "sentence": sent_of[a], "tokens": (a, b - 1),
                     "core": (a + (1 if det else 0), v), "det": det, "quantity": True}
            return [(((a, b - 1),), "np_fused_quantity", attrs)]
        if g["grad"] and g["to"] and low[m.start("to")] != "to":
            return []  # "10% MeOH was 5% ...": no gradient
        if g["grad"]:
            a, b = m.span("grad")
            attrs = {"kind": "chemical", "head": low[b - 1], "sentence": sent_of[a],
                     "tokens": (a, b - 1), "core": (a, b - 1), "det": "", "quantity": False}
            return [(((a, b - 1),), "eluent_gradient", attrs)]
        of = cs.find("O", c0, c1)
        if of > c0 and cs[of - 1] in "WX" and low[of - 1] not in self.tables.partitives:
            c0 = of + 1  # non_partitive_of: "The pH of the solution" -> "the solution"
        if g["ratio"] and cs[c0] in "GW":
            # "eluent : hexane / EtOAc 10 : 1", "mobile phase hexane / EtOAc 5 : 1": the eluent
            # is the ratio, not the word that announces it
            k = c0
            while k < c1 and cs[k] in "GW":
                k += 1
            k += cs[k] == ":"
            if k < c1 and cs[k] in "Cb":
                c0 = k
        has_qp = g["qp"] is not None or g["pid"] is not None or g["amt"] is not None
        sol = g["sol"] or g["sol2"]
        if sol and (self._solvent_is_equipment(cs, m) or not _has_name(cs, m)):
            sol = None
        if g["sol2"] and not (
            _is_solution(words, low, cs, m.start("core"), m.end("core"))
            # "Fractions containing the desired compound"
            or (low[m.start("sol2")] == "containing" and low[m.end("core") - 1] in FRACTIONS)
            # "88 μl ( 0.51 mmol ) of DIPEA in 0.4 ml of DMF": an amount in an amount of solvent
            or (g["lead"] and cs[cs.index("I", m.start("sol2")) + 1] in "NAn"
                and "O" in g["sol2"])
        ):
            sol = None
        if sol and g["sol"] and "O" in g["sol"] and not (
            g["lead"] or _is_solution(words, low, cs, m.start("core"), m.end("core"))
            or g["sol"].startswith("SDG")  # "X ( 1 g ) as a solution in 3 mL of DCM"
        ):
            sol = None  # "X ( 4.5 g ) in 380 ml of THF": two mentions
        if sol and cs[m.end() : m.end() + 1] == "O":
            sol = None  # "X ( 410 mg ) in a mixture of A and B": the mixture is its own
        core = self._core_head(cs, c0, c1, not has_qp and not g["ratio"] and not sol)
        if core is None:
            return []
        end, head_i, trimmed, gid, ref = core
        head_cls = cs[head_i].upper()
        head_low = low[head_i]
        kind = _KIND_OF_HEAD.get(head_cls, "chemical")
        if kind == "generic" and head_low in STATE_HEADS:
            kind = "state"
        if head_cls in "NUA" and not g["lead"] and not g["ratio"]:
            return []
        if cs[head_i] in "CXb" and self._adjective(words[head_i]):
            return []  # adjective_head: "Endothermic (peak)", "chromatographic (purification)"
        core_cls = cs[c0:end]
        if head_cls == "W" and not (has_qp or g["lead"]) and "C" not in core_cls.upper():
            return []
        if (
            head_cls in "XZ"
            and kind == "chemical"
            and not (has_qp or g["lead"] or g["ratio"])
            and "C" not in core_cls.upper()
        ):
            return []
        start = m.start() if g["lead"] or g["svp"] else c0
        stop = end if trimmed else m.end()
        if g["frm"] and cs[m.start("frm") - 1] not in "Kk":
            # "a yellow solid from Compound 202": "from" names the source, not the compound
            stop = m.start("frm")
        if sol is None and (g["sol"] or g["sol2"]):
            stop = m.start("sol") if g["sol"] else m.start("sol2")
        if g["eqp"]:
            # "a flask equipped with a stirrer was charged": the fittings end at the verb
            k = next((k for k in range(m.start("eqp"), stop) if low[k] in FINITE_VERBS), stop)
            while cs[k - 1] in "P&":
                k -= 1
            stop = k
        if trimmed:
            rule = "np_trimmed"
        elif g["ratio"]:
            rule = "eluent_ratio"
        elif g["yld"]:
            rule = "np_with_yield"
        elif sol:
            rule = "np_in_solvent"
        elif g["mix"]:
            rule = "mixture_of_components"
        elif g["eqp"]:
            rule = "equipment_equipped_with"
        elif has_qp:
            rule = "np_quantity"
        elif g["lead"]:
            rule = "amount_of_np"
        elif gid and head_i == end - 2:
            rule = "generic_with_id"
        else:
            rule = _RULE_OF_KIND.get(kind, "chemical_np")
        ranges: tuple[tuple[int, int], ...] = ((start, stop - 1),)
        out = []
        if g["pid"] and not trimmed and not _describes(low, *m.span("pid")):
            # "trifluoroacetic acid ( TFA , 5 mL )": name + bracket + quantity are one
            # discontinuous mention, the abbreviation another
            a, b = m.span("pid")
            ranges = ((start, a), (b, stop - 1))
            out.append(self._abbrev(doc, a + 1, b - 2, sent_of))
        if (
            g["qp"] and not trimmed and not g["idp"] and end - c0 >= 2
            and cs[end - 2] in "Cb" and cs[end - 1] == "Z" and LABEL.match(words[end - 1])
            and not ref
        ):
            # "...sulfonate 1b ( 128 mg )": the label is a mention of its own
            ranges = ((start, end - 2), (m.start("qp"), stop - 1))
            out.append(self._abbrev(doc, end - 1, end - 1, sent_of))
            end -= 1
        if g["qp"] and not trimmed and len(ranges) == 1:
            # "X ( 1.40 g , as a yellow oil ) with a yield of 68%": the state is a mention
            # of its own and the quantity bracket goes around it
            q0, q1 = m.span("qp")
            k = cs.find("P", q0, q1)
            while k != -1 and low[k + 1] != "as":
                k = cs.find("P", k + 1, q1)
            close = cs.find(")", k + 1, q1) if k != -1 else -1
            if k != -1 and close > k + 2 and cs[close - 1] == "G":
                ranges = ((ranges[0][0], k - 1), (close, ranges[0][1]))
                out.append(self._state(doc, k + 2, close - 1, sent_of))
        if g["idp"] and not trimmed and core_is_bare_reference(cs, c0, end):
            # "compound ( 3d )": the bracket is the compound's number, one mention
            end = m.end("idp")
        for group in ("idp", "idp2") if g["idp"] or g["idp2"] else ():
            if g[group] is None or trimmed or (group == "idp" and end == m.end("idp")):
                continue
            a, b = m.span(group)
            if group == "idp" and has_qp:
                # "palladium(II) acetate ( Pd(OAc)2 ) ( 10 mg )": name + quantity are one
                # discontinuous mention, the bracketed abbreviation another.
                ranges = ((start, a - 1), (m.start("qp"), stop - 1))
            elif group == "idp" or (group == "idp2" and not sol and len(ranges) == 1):
                ranges = ((ranges[0][0], a - 1),)
            if b - a < 6:  # "[ Example 9 , Step 1 ]" is a reference, no abbreviation
                out.append(self._abbrev(doc, a + 1, b - 2, sent_of))
        attrs = {
            "kind": kind,
            "head": head_low,
            "sentence": bisect_right(sent_of.starts, ranges[0][0]) - 1,
            "tokens": (ranges[0][0], ranges[-1][1]),
            "core": (c0 + (1 if cs[c0] == "D" else 0), end - 1),
            "det": low[c0] if cs[c0] == "D" else "",
            "quantity": has_qp or bool(g["lead"]),
        }
        out.append((ranges, rule, attrs))
        if rule == "np_in_solvent":
            # "a solution of X in THF ( 10 mL )": the solvent is a mention of its own too
            a, b = m.span("sol") if g["sol"] else m.span("sol2")
            a = cs.index("I", a) + 1  # after "in" (", dissolved in", "suspended in")
            k = cs.find("(", a, b)
            if g["sol2"] and k > a and cs[b - 1] == ")" and cs.count("(", a, b) == 1:
                # "a 4 M HCl solution in 1,4-dioxane ( 1.6 mL )": the bracket after the
                # solvent of an unquantified solute measures the whole solution
                b = k
            if b > a and stop == m.end():
                det = low[a] if cs[a] == "D" else ""
                out.append((((a, b - 1),), "solvent_component", {
                    "kind": "chemical", "head": low[b - 1], "sentence": sent_of[a],
                    "tokens": (a, b - 1), "core": (a + (1 if det else 0), b - 1), "det": det,
                    "quantity": "(" in cs[a:b]}))
        return out

    def _core_quantity(
        self, doc: Doc, cs: str, c0: int, c1: int, stop: int, sent_of: _SentenceIndex
    ) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
        """:meth:`_validate` of a core followed by its quantity bracket ``c1:stop`` and nothing
        else (``np_quantity``, the most common match after the bare noun phrase), with the
        branches for the other groups left out."""
        head = self._head(cs, c0, c1, False)
        if head is None:
            return []
        c0, end, head_i, kind, _trimmed, _gid, ref = head
        words, low = self._words, self._low
        head_low = low[head_i]
        ranges: tuple[tuple[int, int], ...] = ((c0, stop - 1),)
        out = []
        if (
            end - c0 >= 2 and cs[end - 2] in "Cb" and cs[end - 1] == "Z"
            and LABEL.match(words[end - 1]) and not ref
        ):
            # "...sulfonate 1b ( 128 mg )": the label is a mention of its own
            ranges = ((c0, end - 2), (c1, stop - 1))
            out.append(self._abbrev(doc, end - 1, end - 1, sent_of))
            end -= 1
        else:
            # "X ( 2.00 g , as a yellow oil )": the state is a mention of its own
            k = cs.find("P", c1, stop)
            while k != -1 and low[k + 1] != "as":
                k = cs.find("P", k + 1, stop)
            close = cs.find(")", k + 1, stop) if k != -1 else -1
            if k != -1 and close > k + 2 and cs[close - 1] == "G":
                ranges = ((c0, k - 1), (close, stop - 1))
                out.append(self._state(doc, k + 2, close - 1, sent_of))
        det = cs[c0] == "D"
        out.append((ranges, "np_quantity", {
            "kind": kind,
            "head": head_low,
            "sentence": bisect_right(sent_of.starts, c0) - 1,
            "tokens": (c0, stop - 1),
            "core": (c0 + 1 if det else c0, end - 1),
            "det": low[c0] if det else "",
            "quantity": True,
        }))
        return out

    def _head(
        self, cs: str, c0: int, c1: int, may_trim: bool
    ) -> tuple[int, int, int, str, bool, bool, bool] | None:
        """The head of a plain core ``c0:c1`` (``non_partitive_of``, :meth:`_core_head`, no
        number/unit/amount head, ``adjective_head``): ``(c0, end, head_i, kind, trimmed, gid,
        ref)`` with ``c0`` moved past a non-partitive "of"; None when it is no mention."""
        words, low = self._words, self._low
        of = cs.find("O", c0, c1)
        if of > c0 and cs[of - 1] in "WX" and low[of - 1] not in self.tables.partitives:
            c0 = of + 1  # non_partitive_of
        core = self._core_head(cs, c0, c1, may_trim)
        if core is None:
            return None
        end, head_i, trimmed, gid, ref = core
        head_cls = cs[head_i].upper()
        if head_cls in "NUA":
            return None
        if cs[head_i] in "CXb" and self._adjective(words[head_i]):
            return None  # adjective_head
        kind = _KIND_OF_HEAD.get(head_cls, "chemical")
        if kind == "generic" and low[head_i] in STATE_HEADS:
            kind = "state"
        return c0, end, head_i, kind, trimmed, gid, ref

    def _core_head(
        self, cs: str, c0: int, c1: int, may_trim: bool
    ) -> tuple[int, int, bool, bool, bool] | None:
        """The end of the core ``c0:c1`` and its head token: ``(end, head_i, trimmed, gid,
        ref)`` (``ref``: the core ends with a reference id, "Compound 4");
        None when no mention is left. With ``may_trim`` trailing words that cannot be heads
        are cut ("silica gel pad" keeps "silica gel"); ``gid``: a generic head with its label
        ("Solution 1 was added", "as Raw material 2 .", "elution system A": generic_with_id)."""
        words, low = self._words, self._low
        end = c1
        gid = (
            end - c0 >= 2 and cs[end - 2] == "G" and cs[end - 1] in "NZ"
            and GENERIC_ID.match(words[end - 1]) is not None
            and (end == len(cs) or cs[end] in ".P:)S")
        )
        if may_trim and not gid:
            while (
                end > c0
                and cs[end - 1] in "WDnNU-/"
                and not _ref_id(cs, c0, end)
                and low[end - 1] not in KEEP_TRAILING
            ):
                end -= 1
        if end == c0 or (end == c0 + 1 and cs[c0] == "D"):
            return None
        trimmed = end != c1
        if trimmed and low[end] in NOT_A_COMPOUND_AFTER:
            return None
        head_i = end - 1
        if cs[head_i] == "W" and low[head_i] in KEEP_TRAILING and cs[head_i - 1] in "CGKEb":
            head_i -= 1  # "The solid ppts", "the nitrogen stream": the noun before
        # (cheap necessary conditions first: an id right after a reference head or number sign)
        ref = cs[end - 1] in "NZXCnb" and cs[end - 2] in "Kk#" and _ref_id(cs, c0, end)
        if ref:
            head_i = len(cs[: end - 1].rstrip("#")) - 1
        elif gid and not trimmed:
            head_i = end - 2
        if not ref and (of := cs.find("O", c0, end)) != -1 and cs[of - 1] == "G":
            head_i = of - 1  # "a solution of X": the head is the noun before "of" when generic
        return end, head_i, trimmed, gid, ref

    def _bare_np(
        self, cs: str, c0: int, c1: int, sent_of: _SentenceIndex
    ) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
        """:meth:`_validate` of a match that is its core alone (no lead amount, quantity,
        ratio, solvent, id bracket, "from" or second component: the common case), with the
        branches for those left out."""
        plan = _bare_plan(cs[c0:c1])
        if plan is not None:
            # the class letters alone decide the head: only its word is looked at
            if plan is _REJECT:
                return []
            head_rel, kind, rule, det, adjective_check = plan
            head_i = c0 + head_rel
            if adjective_check and self._adjective(self._words[head_i]):
                return []  # adjective_head
            low = self._low
            head_low = low[head_i]
            if kind == "generic" and head_low in STATE_HEADS:
                kind = "state"
            return [(((c0, c1 - 1),), rule, {
                "kind": kind,
                "head": head_low,
                "sentence": bisect_right(sent_of.starts, c0) - 1,
                "tokens": (c0, c1 - 1),
                "core": (c0 + 1 if det else c0, c1 - 1),
                "det": low[c0] if det else "",
                "quantity": False,
            })]
        head = self._head(cs, c0, c1, True)
        if head is None:
            return []
        c0, end, head_i, kind, trimmed, gid, _ = head
        low = self._low
        head_low = low[head_i]
        if cs[head_i].upper() in "WXZ" and kind == "chemical" and "C" not in cs[c0:end].upper():
            return []
        if trimmed:
            rule = "np_trimmed"
        elif gid and head_i == end - 2:
            rule = "generic_with_id"
        else:
            rule = _RULE_OF_KIND.get(kind, "chemical_np")
        det = cs[c0] == "D"
        attrs = {
            "kind": kind,
            "head": head_low,
            "sentence": bisect_right(sent_of.starts, c0) - 1,
            "tokens": (c0, end - 1),
            "core": (c0 + 1 if det else c0, end - 1),
            "det": low[c0] if det else "",
            "quantity": False,
        }
        return [(((c0, end - 1),), rule, attrs)]

    def _solvent_is_equipment(self, cs: str, m: re.Match) -> bool:
        """``... in a flask``: equipment after "in" is not part of the solution."""
        a, b = m.span("sol") if m.group("sol") else m.span("sol2")
        body = cs[a:b].split("(")[0]
        if self._low[a + len(body) - 1] in NOT_SOLVENT_HEADS:  # "in portions"
            return True
        return body.rstrip("WD")[-1:] == "E" or body[-1:] == "E"

    def _solution_list(
        self, doc: Doc, cs: str, m: re.Match, sent_of: _SentenceIndex
    ) -> tuple[tuple[tuple[int, int], ...], str, dict]:
        a, b = m.span("soln")
        head = cs.find("G", a, b)
        kind = "generic"
        if head == -1:  # "X ( 1 g ) and Y ( 2 g ) in THF ( 5 mL )": no "solution of"
            head, kind = cs.index("(", a) - 1, "chemical"
        attrs = {
            "kind": kind,
            "head": self._low[head],
            "sentence": sent_of[a],
            "tokens": (a, b - 1),
            "core": (a + (1 if cs[a] == "D" else 0), head),
            "det": self._low[a] if cs[a] == "D" else "",
            "quantity": True,
        }
        return ((a, b - 1),), "solution_of_list", attrs

    def _state(
        self, doc: Doc, a: int, b: int, sent_of: _SentenceIndex
    ) -> tuple[tuple[tuple[int, int], ...], str, dict]:
        det = self._low[a] if self.classify(self._words[a]) == "D" else ""
        attrs = {
            "kind": "state" if self._low[b] in STATE_HEADS else "generic",
            "head": self._low[b],
            "sentence": sent_of[a],
            "tokens": (a, b),
            "core": (a + (1 if det else 0), b),
            "det": det,
            "quantity": False,
        }
        return ((a, b),), "generic_np", attrs

    def _abbrev(
        self, doc: Doc, a: int, b: int, sent_of: _SentenceIndex
    ) -> tuple[tuple[tuple[int, int], ...], str, dict]:
        # "( COMPOUND 8 )" is a numbered reference; "( TFA )" a chemical
        ref = b > a and self.classify(self._words[a]) == "K"
        attrs = {
            "kind": "reference" if ref else "chemical",
            "head": self._low[a if ref else b],
            "sentence": sent_of[a],
            "tokens": (a, b),
            "core": (a, b),
            "det": "",
            "quantity": False,
            "abbreviation": True,
        }
        return ((a, b),), "bracketed_abbreviation", attrs


# the mention kind of a head's class letter (any other: "chemical")
_KIND_OF_HEAD = {"G": "generic", "K": "reference", "E": "equipment"}
# the rule of a plain noun phrase by its kind (any other: "chemical_np")
_RULE_OF_KIND = {"generic": "generic_np", "state": "generic_np", "equipment": "equipment_np",
                 "reference": "reference_np"}


_REJECT = ()  # a bare noun phrase that its class letters rule out


@functools.lru_cache(maxsize=4096)
def _bare_plan(
    shape: str,
) -> tuple[int, str, str, bool, bool] | tuple[()] | None:
    """What :meth:`MentionDetector._bare_np` decides from the class letters ``shape`` of a
    bare core alone (cached per distinct shape: "DG", "C", "DWG" ... recur in every doc):
    ``(head offset, kind, rule, determiner, adjective check)``, ``_REJECT`` (no mention), or
    None when a word decides it (non-partitive "of", trailing words that may be trimmed, a
    generic head with its label, a kept trailing word: the full path)."""
    n = len(shape)
    of = shape.find("O")
    if of == 0 or (of > 0 and shape[of - 1] in "WX"):
        # non_partitive_of looks at the word before "of" (the class before the core, when
        # it starts with "of")
        return None
    if n >= 2 and shape[-2] == "G" and shape[-1] in "NZ":
        return None  # generic_with_id looks at the label
    if shape[-1] in "WDnNU-/" and not _ref_id(shape, 0, n):
        return None  # trailing words are trimmed unless listed in KEEP_TRAILING (so the
        # head is never a trailing W, and a lone determiner never gets here)
    head_i = n - 1
    if shape[head_i] in "NZXCnb" and n >= 2 and shape[n - 2] in "Kk#" and _ref_id(shape, 0, n):
        head_i = len(shape[: n - 1].rstrip("#")) - 1  # "Compound 4": the reference head
    elif (of := shape.find("O")) != -1 and shape[of - 1] == "G":
        head_i = of - 1  # "a solution of X"
    head_cls = shape[head_i].upper()
    if head_cls in "NUA":
        return _REJECT
    kind = _KIND_OF_HEAD.get(head_cls, "chemical")
    if head_cls in "WXZ" and kind == "chemical" and "C" not in shape.upper():
        return _REJECT
    rule = _RULE_OF_KIND.get(kind, "chemical_np")
    return head_i, kind, rule, shape[0] == "D", shape[head_i] in "CXb"


def core_is_bare_reference(cs: str, c0: int, end: int) -> bool:
    """``compound``, ``the compound``: a reference head with no name or number."""
    return cs[c0:end].lstrip("DW") in ("K", "k")


def _is_solution(words: list[str], low: list[str], cs: str, c0: int, c1: int) -> bool:
    """``a solution of X``, ``a 4 M HCl solution``: a core that describes a solution."""
    core = cs[c0:c1]
    if "O" in core:
        return core[core.index("O") - 1] == "G"
    if core[:2] in ("NU", "nU") and words[c0 + 1] in ("M", "N"):
        return True  # "4 M hydrogen chloride in dioxane"
    return core[-1:] == "G" and low[c1 - 1] in SOLUTION_HEADS


def _has_name(cs: str, m: re.Match) -> bool:
    """``in THF ( 2 mL )`` names something; ``in 240 ml`` does not."""
    a, b = m.span("sol") if m.group("sol") else m.span("sol2")
    return any(c in "CXGKWbk" for c in cs[a:b].split("(")[0])


def _ref_id(cs: str, c0: int, end: int) -> bool:
    """``Compound 22``, ``intermediate 4a``, ``Compound No. 5``: a reference head followed by
    an identifier."""
    if end - c0 < 2 or cs[end - 1] not in "NZXCnb":
        return False
    return cs[c0 : end - 1].rstrip("#")[-1:] in ("K", "k")


# "X was obtained with a yield of about 99.1%", "X ( 170 mg ) . Yield : 73%"
YIELD_AFTER = re.compile(r"(?:S{1,3}P?|\.)(?P<y>[SI]DYOS?(?:A|NU)|[SI]DWY(?=[.P])|Y[:=]?[AN])")


# "X was used without further purification ( 316 mg , 94% )": a later quantity bracket
LATER_QUANTITY = re.compile(r"S[SWDIP]{0,10}?(?P<y>\((?=[^().]*A)[^().]*\))")
SUBJECT_VERBS = frozenset(["was", "were"])


def _yield_brackets(
    words: list[str], cs: str, sent_of: _SentenceIndex
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``yield_bracket``: a bracket with only a yield that opens a sentence stands for the
    product ("... were used . ( 92% ) MS ...")."""
    out = []
    i = cs.find(".(")
    while i != -1:
        a = i + 1
        if a + 2 < len(cs) and cs[a + 2] == ")" and PERCENT.match(words[a + 1]):
            out.append((((a, a + 2),), "yield_bracket", {
                "kind": "state", "head": words[a + 1], "sentence": sent_of[a],
                "tokens": (a, a + 2), "core": (a + 1, a + 1), "det": "", "quantity": True}))
        i = cs.find(".(", a)
    return out


def _attach_yields(
    cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]], low: list[str]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """The yield stated after a product belongs to it (a discontinuous mention):
    ``np_with_later_yield`` ("X was obtained with a yield of 99%") and
    ``np_with_later_quantity`` (the subject of "was/were ..." and a later bracket with an amount
    and a yield: "X was used without further purification ( 316 mg , 94% )")."""
    out = []
    starts: set[int] | None = None  # where the mentions start (made when first needed)
    has_yield = "Y" in cs  # YIELD_AFTER needs a "yield" word
    for ranges, rule, attrs in found:
        end = ranges[-1][1]
        m = YIELD_AFTER.match(cs, end + 1) if has_yield else None
        if m and (attrs["kind"] != "state" or rule == "amount_of_np"):
            new_rule = "np_with_later_yield"
        elif (
            not attrs["quantity"] and end + 1 < len(low) and low[end + 1] in SUBJECT_VERBS
            and (m := LATER_QUANTITY.match(cs, end + 1))
            and any("%" in w for w in low[m.start("y") : m.end("y")])
        ):
            new_rule = "np_with_later_quantity"
        else:
            m = None
        if m and starts is None:
            starts = {f[0][0][0] for f in found}
        if m and not starts.intersection(range(end + 1, m.end())):
            y0, y1 = m.span("y")
            ranges = (*ranges, (y0, y1 - 1))
            attrs = {**attrs, "tokens": (ranges[0][0], y1 - 1), "quantity": True}
            rule = new_rule
        out.append((ranges, rule, attrs))
    return out


# "( SiO2 , 40 g cartridge", "( silica gel , 10 g )": an amount after a comma in a bracket
COMMA_AMOUNT = re.compile(r"P(?:NU|A)(?=[WS)P])")
# "Compound 12 ( 60 mg ) in ethanol ( 2 mL ) and THF ( 1 mL ) solution": the solvents and
# the word "solution" after them belong to the solution
SOLUTION_SUFFIX = re.compile(rf"(?:[&P]{CORE}{QPAREN})*(?:P?&{CORE}{QPAREN})?G")
# "0-100% EtOAc in hexanes" after a comma in a quantity bracket
ELUENT_IN_BRACKET = re.compile(rf"(?:NS)?A{CORE}I{CORE}")
# words of a bracket that describes the compound before it: "( saturated aqueous solution )"
DESCRIPTOR_WORDS = frozenset(
    "saturated sat sat. aqueous aq aq. solution racemate racemic stereoisomer stereoisomers "
    "diastereomer diastereomers mixture cat cat. catalytic conc conc. concentrated .".split()
)
# "( 73.2 mg , 60% dispersion in mineral oil )": the form of the reagent, no eluent
DISPERSION_WORDS = frozenset(["dispersion", "suspension", "solution", "slurry"])
# notes in a quantity bracket that are no part of the compound: its source ("prepared by ...",
# "available from Sigma-Aldrich", "international patent application ...") or its Rf
SOURCE_NOTES = frozenset(
    ["prepared", "purchased", "commercially", "cas", "synthesized", "available", "international",
     "rf"]
)
# "afforded Intermediate 1-a . ( 35.0 g , 79.7% )", "X , ( 1.59 g , 23% yield )"
PUNCT_QUANTITY = re.compile(rf"[.P]{QPAREN}")


def _attach_suffixes(
    words: list[str], cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """Words after a mention that belong to it: ``np_comma_amount`` (an amount after a comma
    in a bracket), ``solution_suffix`` (more solvents and the word "solution" after a solution),
    ``aq_suffix`` (``( aq )`` after a chemical), ``punct_quantity`` (an amount with a yield
    after a full stop or comma: "Intermediate 1-a . ( 35.0 g , 79.7% )")."""
    out = []
    for ranges, rule, attrs in found:
        first, end = ranges[0][0], ranges[-1][1]
        new_end, new_rule = -1, rule
        if len(ranges) == 1 and attrs["kind"] == "chemical" and not attrs["quantity"]:
            # only after a procedure word: "chromatography ( SiO2 , 40 g"
            if cs[first - 2 : first] == "S(" and (m := COMMA_AMOUNT.match(cs, end + 1)):
                new_end, new_rule = m.end() - 1, "np_comma_amount"
            elif cs.startswith("(W)", end + 1) and words[end + 2].lower() in ("aq", "aq."):
                new_end, new_rule = end + 3, "aq_suffix"  # "sat. NaHCO3 ( aq )"
            elif cs[end + 1 : end + 2] == "(" and (close := _descriptor_bracket(words, end + 1)):
                new_end, new_rule = close, "descriptor_suffix"
        if (
            cs[end + 1 : end + 3] in (".(", "P(") and new_end < 0 and len(ranges) == 1
            and attrs["kind"] in ("chemical", "reference")
            and not attrs["quantity"] and (m := PUNCT_QUANTITY.match(cs, end + 1))
            and words[end + 1] in (".", ",") and any("%" in w for w in words[end + 2 : m.end()])
        ):
            # a product's amount and yield after a full stop or comma: one mention
            new_end, new_rule = m.end() - 1, "punct_quantity"
        elif rule == "np_in_solvent" and (m := SOLUTION_SUFFIX.match(cs, end + 1)):
            if words[m.end() - 1].lower() == "solution":
                new_end, new_rule = m.end() - 1, "solution_suffix"
        elif len(ranges) <= 2 and cs[end] == ")" and attrs["quantity"]:
            # "X ( 128 mg , 0.57 mmol , prepared by a method disclosed in ... )": the note on
            # where the compound comes from is no part of it ("quantity_source_note")
            # the commas of the last bracket, from the right
            a = ranges[-1][0]
            lo = max(cs.rfind("(", a + 1, end), a)
            k = cs.rfind("P", lo + 1, end)
            while k != -1:
                if words[k + 1].lower() in SOURCE_NOTES:
                    ranges = (*ranges[:-1], (a, k - 1), (end, end))
                    rule = "quantity_source_note"
                    break
                if (
                    ELUENT_IN_BRACKET.fullmatch(cs, k + 1, end)
                    and words[k + 2].lower() not in DISPERSION_WORDS
                ):
                    # "silica gel ( 40 g , 0-100% EtOAc in hexanes )": the eluent is a
                    # mention of its own ("quantity_eluent_note")
                    ranges = (*ranges[:-1], (a, k - 1), (end, end))
                    rule = "quantity_eluent_note"
                    out.append((((k + 1, end - 1),), "eluent_gradient", {
                        **attrs, "kind": "chemical", "head": words[end - 1].lower(),
                        "tokens": (k + 1, end - 1), "core": (k + 1, end - 1), "det": "",
                        "quantity": False}))
                    break
                k = cs.rfind("P", lo + 1, k)
        if new_end > end:
            ranges = (*ranges[:-1], (ranges[-1][0], new_end))
            attrs = {**attrs, "tokens": (first, new_end), "quantity": True}
            rule = new_rule
        out.append((ranges, rule, attrs))
    return _drop_inside(out)


def _describes(low: list[str], a: int, b: int) -> bool:
    """The words ``low[a + 1 : b - 1]`` after the opening bracket at ``a`` (up to the comma
    before ``b``) describe the compound ("( conc , 1 mL )", "( racemate , 117 mg )",
    "( hexane solution , 22 mL )"): no abbreviation, the bracket stays whole."""
    inner = low[a + 1 : b - 1]
    return bool(inner) and (
        all(w in DESCRIPTOR_WORDS for w in inner) or inner[-1] in SOLUTION_HEADS
    )


def _descriptor_bracket(words: list[str], k: int) -> int:
    """The closing bracket of a bracket at ``k`` that only describes the compound before it
    ("( saturated solution )", "( racemate )", "( cat . )"), not followed by an amount; 0
    when there is none."""
    n = len(words)
    for j in range(k + 1, min(k + 6, n)):
        if words[j] == ")":
            if j == k + 1 or (j + 1 < n and NUMBER.match(words[j + 1])):
                return 0
            return j
        if words[j].lower() not in DESCRIPTOR_WORDS:
            return 0
    return 0


def _abbreviated_solutions(
    cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``abbreviated_solution``: "2 N hydrochloric acid ( HCl ) solution", "15% sodium hydroxide
    ( NaOH ) aqueous solution": the name and the word "solution" after its bracketed
    abbreviation are one discontinuous mention (the abbreviation stays a mention)."""
    out = sorted(found, key=_FIRST)
    j = 2
    while j < len(out):
        (a_ranges, a_rule, a_attrs), (x_ranges, x_rule, _), (b_ranges, b_rule, b_attrs) = (
            out[j - 2], out[j - 1], out[j])
        e = a_ranges[-1][1]
        if (
            x_rule == "bracketed_abbreviation" and x_ranges == ((e + 2, e + 2),)
            and cs[e + 1] == "(" and cs[e + 3] == ")" and len(a_ranges) == 1
            and a_rule in ("chemical_np", "amount_of_np") and a_attrs["kind"] == "chemical"
            and b_rule == "generic_np" and b_ranges[0][0] == e + 4 and len(b_ranges) == 1
            and b_attrs["head"] == "solution" and not b_attrs["det"]
        ):
            b1 = b_ranges[0][1]
            out[j] = (a_ranges + b_ranges, "abbreviated_solution", {
                **a_attrs, "tokens": (a_ranges[0][0], b1)})
            del out[j - 2]
            continue
        j += 1
    return out


def _eluent_additives(
    words: list[str], low: list[str], cs: str,
    found: list[tuple[tuple[tuple[int, int], ...], str, dict]],
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``eluent_additive``: a solvent containing a percentage of another is one eluent
    ("methanol containing 1% ammonium hydroxide", "25% methanol containing 0.2% NH4OH")."""
    out = sorted(found, key=_FIRST)
    j = 1
    while j < len(out):
        (a_ranges, a_rule, a_attrs), (b_ranges, b_rule, b_attrs) = out[j - 1], out[j]
        a1, b0 = a_ranges[-1][1], b_ranges[0][0]
        if (
            a_rule in ("chemical_np", "amount_of_np") and b_rule in ("chemical_np", "np_quantity")
            and len(a_ranges) == len(b_ranges) == 1 and a_attrs["kind"] == "chemical"
            and b_attrs["kind"] == "chemical" and b0 == a1 + 2 and low[a1 + 1] == "containing"
            and cs[b0] == "A" and "%" in words[b0]
        ):
            a0, b1 = a_ranges[0][0], b_ranges[0][1]
            out[j - 1 : j + 1] = [(((a0, b1),), "eluent_additive", {
                **b_attrs, "tokens": (a0, b1), "core": (a_attrs["core"][0], b_attrs["core"][1]),
                "det": a_attrs["det"]})]
            continue
        j += 1
    return out


def _eluent_pairs(
    words: list[str], cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``eluent_pair``: two solvents joined by "and" with a bracket of percentages after the
    second are one eluent ("methanol and chloroform ( concentration gradient , 0 to 20% )");
    a bracket with an amount ("( 50 mL )") belongs to the second solvent alone."""
    out = sorted(found, key=_FIRST)
    j = 1
    while j < len(out):
        (a_ranges, a_rule, a_attrs), (b_ranges, b_rule, b_attrs) = out[j - 1], out[j]
        if (
            a_rule in ("chemical_np", "eluent_additive") and b_rule == "np_quantity"
            and len(a_ranges) == 1
            and len(b_ranges) == 1 and a_attrs["kind"] == b_attrs["kind"] == "chemical"
            and b_ranges[0][0] == a_ranges[0][1] + 2 and cs[a_ranges[0][1] + 1] == "&"
        ):
            b0, b1 = b_attrs["core"][1] + 1, b_ranges[0][1]
            if "U" not in cs[b0:b1] and any("%" in w for w in words[b0:b1]):
                a0 = a_ranges[0][0]
                out[j - 1 : j + 1] = [(((a0, b1),), "eluent_pair", {
                    **b_attrs, "tokens": (a0, b1), "core": (a_attrs["core"][0], b0 - 1),
                    "det": a_attrs["det"]})]
                continue
        j += 1
    return out


# mentions that take in the words after them and drop the mentions inside
_COVERING_RULES = frozenset(["solution_suffix", "descriptor_suffix"])


def _drop_inside(
    found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """Mentions that a longer single-range mention now covers are dropped."""
    spans = [(f[0][0][0], f[0][-1][1]) for f in found if f[1] in _COVERING_RULES]
    if not spans:
        return found
    return [
        f for f in found
        if f[1] in _COVERING_RULES
        or not any(a <= f[0][0][0] and f[0][-1][1] <= b for a, b in spans)
    ]


def _solution_components(
    cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``solution_component``: in "a solution of X ( 4i ) ( 130 mg ) in THF", where the label
    or abbreviation names X, the compound "X ( 130 mg )" is a mention of its own too."""
    abbrev_at = [f[0][0][0] for f in found if f[2].get("abbreviation")]
    if not abbrev_at:
        return found
    out = list(found)
    for ranges, rule, attrs in found:
        if rule != "np_in_solvent" or attrs["kind"] != "generic":
            continue
        first, last = ranges[0][0], ranges[-1][1]
        if not any(first < a < last for a in abbrev_at):
            continue
        of = cs.find("O", first, ranges[0][1] + 1)
        if of == -1:
            continue
        start, depth, stop = of + 1, 0, -1
        for k in range(start, last + 1):
            ch = cs[k]
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif ch in "IJ" and depth == 0:
                stop = k - 1
                break
        if stop < start:
            continue
        inner = tuple((max(a, start), min(b, stop)) for a, b in ranges if a <= stop and b >= start)
        name_end = inner[0][1]
        out.append((inner, "solution_component", {
            **attrs, "kind": "chemical", "head": "", "tokens": (inner[0][0], inner[-1][1]),
            "core": (start, name_end), "det": "", "quantity": len(inner) > 1 or stop > name_end,
        }))
    return out


def _solvent_pairs(
    cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``solvent_pair``: two solvents with their volumes joined by "/" are one mention
    ("dissolved in ethanol ( 15 mL ) / water ( 4 mL )", "a solvent of THF ( 200 ml ) / water
    ( 50 ml )")."""
    out: list[tuple[tuple[tuple[int, int], ...], str, dict]] = []
    for f in sorted(found, key=_FIRST):
        if out:
            ranges, rule, attrs = out[-1]
            (a, b), *rest = ranges
            (c, d), *rest2 = f[0]
            if (
                not rest and not rest2 and c == b + 2 and cs[b] == ")" and cs[b + 1] == "/"
                and cs[d] == ")" and attrs["quantity"] and f[2]["quantity"]
                and f[2]["kind"] == "chemical"
            ):
                out[-1] = (((a, d),), "solvent_pair", {**attrs, "tokens": (a, d)})
                continue
        out.append(f)
    return out


# "a silica gel column", "by thin layer chromatography": words a column packing comes before
COLUMN_WORDS = frozenset(["column", "columns", "chromatography"])


def _column_packings(
    low: list[str], cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``column_packing``: before "column"/"chromatography" the mention is the packing alone:
    its determiner and modifiers belong to the column ("onto a silica gel column" -> "silica
    gel", "reverse phase silica gel column" -> "silica gel"); without a chemical word it is
    no mention ("thin layer chromatography", "reverse phase column")."""
    out = []
    n = len(low)
    for f in found:
        ranges, rule, attrs = f
        a, b = ranges[-1]
        if len(ranges) > 1 or b + 1 >= n or low[b + 1] not in COLUMN_WORDS:
            out.append(f)
            continue
        k = a
        while k <= b and cs[k] in "DW-":
            k += 1
        if k == a:
            out.append(f)
        elif any(c in "CbX" for c in cs[k : b + 1]):
            out.append((((k, b),), "column_packing", {
                **attrs, "tokens": (k, b), "core": (k, b), "det": ""}))
    if "(AP" not in cs:
        return out
    for j, (ranges, _rule, attrs) in enumerate(out):
        a, b = ranges[0]
        if (
            len(ranges) == 1 and 3 < a and b + 1 < n and cs[a - 3 : a] == "(AP"
            and cs[b + 1] == ")" and low[a - 4] in COLUMN_WORDS and attrs["kind"] == "chemical"
        ):
            # "an Isolute column ( 2g , silica )": the amount before the packing is its own
            out[j] = (((a - 2, b),), "amount_comma_packing", {
                **attrs, "tokens": (a - 2, b), "quantity": True})
    return out


def _reaction_is_a_mixture(
    low: list[str], f: tuple, verbs: frozenset[str], not_after: frozenset[str],
    process: frozenset[str],
) -> bool:
    """``reaction_as_subject``: a bare "(the) reaction" is a mention only as the subject of
    was/were/is ("the reaction was stirred"), not in "completion of the reaction", "reaction
    scheme", "after the reaction ,", nor when the verb names the process itself ("the
    reaction was stopped", "the reaction was carried out")."""
    ranges, _rule, attrs = f
    if attrs["head"] != "reaction" or len(ranges) > 1:
        return True
    a, b = ranges[0]
    if b - a > 1 or (b > a and attrs["det"] == ""):
        return True  # a longer phrase: "the reaction mixture" has another head anyway
    after = low[b + 1] if b + 1 < len(low) else ""
    before = low[a - 1] if a else ""
    then = low[b + 2] if b + 2 < len(low) else ""
    return after in verbs and before not in not_after and then not in process


def _is_determined(
    low: list[str], f: tuple, dets: frozenset[str], not_after: frozenset[str]
) -> bool:
    """``determined_head``: "the result", "the whole", "the resultant" stand for the reaction
    material only with a determiner ("As a result ,", "by precipitation" are no mentions)."""
    a = f[0][0][0]
    return f[2]["det"] in dets and (a == 0 or low[a - 1] not in not_after)


def _in_tlc_bracket(low: list[str], cs: str, a: int) -> bool:
    """``tlc_eluent``: the eluent of a TLC check is no compound of the reaction ("After TLC
    ( PE : EA = 10 : 1 ) showed completion", "monitored by TLC ( hexane : EtOAc = 2 : 1 )")."""
    k = cs.rfind("(", 0, a)
    return k > 0 and low[k - 1] == "tlc" and ")" not in cs[k:a]


def _is_infinitive(low: list[str], f: tuple) -> bool:
    """``infinitive_verb``: a one-word mention after "to" that is a verb ("to terminate the
    reaction", "to concentrate", "to precipitate a solid"), not a compound."""
    (a, b), *rest = f[0]
    return not rest and a == b and a > 0 and low[a - 1] == "to"


def _attach_state_quantities(
    low: list[str], cs: str, found: list[tuple[tuple[tuple[int, int], ...], str, dict]]
) -> list[tuple[tuple[tuple[int, int], ...], str, dict]]:
    """``the title compound (was obtained) as a white solid (0.25 g, 77%)``: the quantity
    belongs to the compound (a discontinuous mention); ``a white solid`` stays a mention."""
    out = sorted(found, key=_FIRST)
    for j, (s_ranges, s_rule, s_attrs) in enumerate(out):
        if s_attrs["kind"] != "state" or not s_attrs["quantity"] or len(s_ranges) != 1:
            continue
        s0 = s_ranges[0][0]
        if s0 < 2 or low[s0 - 1] != "as" or s_rule == "amount_of_np":
            continue
        core_end = s_attrs["core"][1]
        q0, q1 = core_end + 1, s_ranges[0][1]
        if cs[q0 : q0 + 1] != "(":
            continue
        i = j - 1
        while i >= 0 and out[i][2].get("abbreviation"):
            i -= 1
        if i < 0:
            continue
        ranges, _rule, attrs = out[i]
        end = ranges[-1][1]
        gap = cs[end + 1 : s0 - 1]
        if (
            (attrs["quantity"] and _rule != "amount_of_np") or len(ranges) != 1 or len(gap) > 5
            or gap.strip("SW&")
        ):
            continue
        out[i] = (
            (ranges[0], (q0, q1)),
            "np_as_state_quantity",
            {**attrs, "tokens": (ranges[0][0], q1), "quantity": True},
        )
        out[j] = (
            ((s0, core_end),),
            s_rule,
            {**s_attrs, "tokens": (s0, core_end), "quantity": False},
        )
    return out


@Language.factory("chemie_mentions", default_config={"rules": "mentions.yaml"})
def make_mentions(nlp: Language, name: str, rules: str) -> MentionDetector:
    """The mention detector configured from ``rules/<rules>``."""
    return MentionDetector(MentionTables.load(rules))
