"""``chemie_coref``: rule-based COREFERENCE links between the mentions of ``chemie_mentions``.

Rules (``rules/coref.yaml``, in order; the first that resolves an anaphor wins) put each
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter, itemgetter

from spacy.language import Language
from spacy.tokens import Doc

from chemie.components.actions import token_table
from chemie.components.mentions.document import token_info
from chemie.extensions import mentions_of, relations_of
from chemie.model import Mention, Relation
from chemie.resources import load_rules

_ID = re.compile(r"^(?:[A-Za-z]{0,4}-?\d+[a-zA-Z]{0,3}'?(?:-\d+)?|[A-Z]{1,3}|[IVX]+)$")
_NOT_ABBREVIATION = re.compile(
    r"[%:=]|\bFIG\b|\s\S+\s\S+\s|(?i:mhz|ppm|racemate|enantiomer|diastereomer|isomer)"
    # "( Example 5 )" cites a procedure; "M+", "FAB", "ESI" are mass-spectrometry terms
    r"|^(?i:examples?)\b|^M[+-]$|^(?:FAB|ESI|APCI|EI|CI)$"
    # "NAME ( saturated solution )", "( 3x75ml )", "( 20 vol. )": a state or an amount
    r"|(?i:\bsolution\b|\d\s*m?l$|\bvol\.?$)"
    # "Tert-butyl ( 3-aminophenyl ) carbamate": a substituent inside a name
    r"|(?i:yl[\])]*$)"
    # "the residue ( silica gel )": the stationary phase
    r"|^(?i:silica gel)$"
)
_SPANS = attrgetter("spans")
# "0-15% ethyl acetate / hexane", "10% Pd / C": a concentration, not a yield
_CONCENTRATION = re.compile(r"\d+(?:\.\d+)?(?:\s*[-–~]\s*\d+(?:\.\d+)?)?\s*%\s*[A-Za-z]")
_AQUEOUS = frozenset(("water", "brine", "aqueous"))  # an aqueous work-up (the_solvent)
_THIS_HEADS = frozenset(("product", "compound", "material"))  # "this product" (this_product)
_BARE_PRODUCT = frozenset(("product", "compound"))  # "The product" (this_product)
_APPOSITION = (":", ",")  # "Compound ( 4 ) : NAME", "Compound B5 , NAME" (label_colon_name)
_LABEL_FILLERS = frozenset(("(", ")", "[", "]", "No", "no", "NO", "."))
# an antecedent that is a substituent ("tert-butyl") or an NMR frequency ("400MHz ( CDCl3 )")
_NOT_ABBREVIATED = re.compile(r"(?i)yl$|mhz$")
_HAS_DIGIT_AND_LETTER = re.compile(r"(?=.*\d)(?=.*[A-Za-z])")
_SPECIFIC_NAME = re.compile(r"[\d(\[]")
# "To", "In", "At" fit _HEADING_ID ("3a", "A", "IV") but are words
_WORD_NOT_ID = re.compile(r"^(?!(?:[IVX]+|No)$)[A-Za-z][a-z]+$")
_NUMBERED_WORD = re.compile(r"^[(\[]?\d{1,3}[a-z]?[)\]]([a-z]+)$")
_HEADING_ID = re.compile(
    r"^[(\[]?(?:\d[\dA-Za-z]{0,3}|[A-Za-z]\d{0,3}|[IVX]{1,4})(?:[.-]\d+)?[a-z]?[)\].:]?$"
)


# rule -> the anaphor kinds it can resolve (its own first test; rules not listed: any kind).
# The resolver tries only these rules on a mention of another kind.
_RULE_KINDS: dict[str, frozenset[str]] = {
    "following_compounds": frozenset(("chemical",)),
    "as_physical_state": frozenset(("state",)),
    "repeated_name": frozenset(("chemical",)),
    "analysis_formula": frozenset(("chemical",)),
    "the_solvent": frozenset(("generic", "chemical")),
    # the title is a chemical or a reference (_title)
    "heading_label": frozenset(("chemical", "reference")),
    "final_product": frozenset(("chemical", "reference", "state")),
}


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


@dataclass(slots=True)
class _M:
    """A mention with what the rules compare."""

    m: Mention
    i: int  # position in text order
    first: int
    last: int
    core: str  # lowercased core text (no determiner, no quantities)
    kind: str
    head: str
    det: str
    sentence: int
    ident: str  # "22" for "Compound 22" / "( 22 )", else ""
    name: str  # the chemical words of the core (modifiers and determiners dropped)
    ranges: Sequence[tuple[int, int]]  # token ranges (inclusive), one per piece
    before: str  # lowercased token before the mention ("" at the start)
    bracketed: bool  # directly inside "(" … ")" or "(" … ","
    name_key: str  # name without spaces (what repeated_name compares)


_NOT_CORE = frozenset("().P:=#")  # token classes left out of a mention's core text
_NAME_CLASSES = frozenset("CXZNbn")  # token classes of the chemical words of a name


_ATTRS = itemgetter("tokens", "ranges", "core", "det", "kind", "head", "sentence")


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
        if (c in _NAME_CLASSES and not (c == "N" and cs[i + 1 : i + 2] == "U")) or w == "acid":
            name_w.append(w)
    return core_w, core_i, name_w


def _open_bracket(words: list[str], first: int) -> int:
    """Position of an unclosed "(" or "[" at most 10 tokens before ``first``, else -1."""
    depth = 0
    for i in range(first - 1, max(-1, first - 11), -1):
        if words[i] in (")", "]"):
            depth += 1
        elif words[i] in ("(", "["):
            if depth == 0:
                return i
            depth -= 1
    return -1


_AMOUNT = re.compile(r"(\d+(?:\.\d+)?)\s*(mmole?|[uµμ]mol|mol)\b")
_TO_MMOL = {"mmol": 1.0, "mmole": 1.0, "umol": 1e-3, "µmol": 1e-3, "μmol": 1e-3, "mol": 1e3}


def _mmol(text: str) -> float:
    """The first molar amount in ``text`` in mmol ("2.06 g , 10 mmol" -> 10.0), else 0."""
    m = _AMOUNT.search(text)
    return float(m.group(1)) * _TO_MMOL[m.group(2)] if m else 0.0


def _enclosed(ms: list[_M], x: _M) -> bool:
    """Whether ``x`` lies in the gap of the discontinuous mention just before it."""
    if x.i == 0:
        return False
    y = ms[x.i - 1]
    return len(y.ranges) > 1 and y.ranges[0][1] < x.first <= y.ranges[-1][0]


class CorefResolver:
    """Applies the coreference rules to the mentions of a Doc."""

    def __init__(self, rules: dict, mode: str = "surface"):
        if mode not in ("surface", "atomic"):
            raise ValueError(f"coref mode must be surface or atomic, not {mode!r}")
        self.mode = mode
        self.rules = {r["name"]: r for r in rules["rules"]}
        # rule -> Relation.confidence: its dev precision (python -m chemie.rule_precision)
        self.confidence: dict[str, float | None] = {
            name: None if r.get("confidence") is None else float(r["confidence"])
            for name, r in self.rules.items()
        }
        # rules whose antecedent is the mention itself, not the latest member of its chain
        self.direct = frozenset(n for n, r in self.rules.items() if r.get("link") == "direct")
        self.order: list[tuple[str, Callable]] = [
            (name, getattr(self, f"_rule_{name}")) for name in self.rules
        ]
        # anaphor features (_rules_for's arguments) -> the rules to try before and after
        # the title
        self._orders: dict[tuple, tuple[list, list]] = {}
        title = self.rules.get("title_compound", {})
        self.title_phrases = frozenset(title.get("phrases", ()))
        self._title_tails = frozenset(
            p for p in self.title_phrases if p.split()[0] in ("title", "target", "desired")
        )
        state = self.rules.get("as_physical_state", {})
        self.state_skip = frozenset(state.get("skip_after", ()))
        self.role_heads = frozenset(self.rules.get("as_eluent", {}).get("heads", ()))
        self._passive_yield = [
            [aux, str(v)] for aux in ("was", "were", "is") for v in state.get("subject_verbs", ())
        ]
        self._words: list[str] = []
        self._heading_end = 0  # first token after the heading (set by _heading)
        self._product = -2  # _last_product of the current doc (-2: not computed yet)
        solvent = self.rules.get("the_solvent", {})
        self.solvent_anaphors = frozenset(solvent.get("anaphors", ()))
        self.solvents = tuple(str(s).lower() for s in solvent.get("solvents", ()))
        self.solvent_set = frozenset(self.solvents)
        self._solvent_tails = tuple(" " + s for s in self.solvents)  # "dry thf", "the dmf"
        self.not_solvent = frozenset(str(w).lower() for w in solvent.get("not_solvents", ()))
        units = "|".join(re.escape(str(u)) for u in solvent.get("reagent_units", ()))
        # "pyridine ( 0.098 mL , 1.23mmol )": the unit may stick to its number
        self.reagent_amount = re.compile(rf"\d\s*(?:{units or '(?!)'})(?![A-Za-z])")
        product = self.rules.get("final_product", {})
        self.yield_verbs = frozenset(product.get("verbs_before", ()))
        material = self.rules.get("starting_material", {})
        self.material_anaphors = frozenset(material.get("anaphors", ()))
        self.equimolar = float(material.get("equimolar", 0.0))
        self.analysis_words = frozenset(
            tuple(str(p).lower().split()) for p in self.rules.get("analysis_formula", {}).get(
                "after", ()
            )
        )
        dried = self.rules.get("drying_agent", {})
        self.dried_heads = frozenset(dried.get("heads", ()))
        self.dried_modifiers = frozenset(dried.get("modifiers", ()))
        self.dried_over = [str(p).split() for p in dried.get("after", ())]
        self.definite_heads = frozenset(self.rules.get("definite_repeat", {}).get("heads", ()))
        following = self.rules.get("following_compounds", {})
        self.following = frozenset(following.get("heads", ()))
        self.following_span = int(following.get("max_tokens", 30))
        repeated = self.rules.get("repeated_name", {})
        self.min_name = int(repeated.get("min_length", 8))
        self.not_names = frozenset(str(w).lower() for w in repeated.get("not_names", ()))
        self.removal = frozenset(str(w).lower() for w in repeated.get("removal", ()))
        self.removed = frozenset(str(w).lower() for w in repeated.get("removed", ()))
        # head word -> bits: 1 a role ("eluent"), 2 "the solvent", 4 definite_repeat, 8 "this
        # product", 16 drying_agent (one lookup instead of five)
        self._head_kinds: dict[str, int] = {}
        for bit, heads in enumerate((
            self.role_heads, self.solvent_anaphors, self.definite_heads, _THIS_HEADS,
            self.dried_heads,
        )):
            for h in heads:
                self._head_kinds[h] = self._head_kinds.get(h, 0) | 1 << bit
        # word -> whether it fits _ID / is a heading word or label (_heading): caches by word
        # (they grow with the vocabulary, as spaCy's does)
        self._id_words: dict[str, bool] = {}
        self._heading_words: dict[str, bool] = {}
        self.heading_words = frozenset(
            str(w).lower() for w in load_rules("mentions.yaml")["heading_words"]
        )

    def __call__(self, doc: Doc) -> Doc:
        mentions = sorted(mentions_of(doc), key=_SPANS)
        if len(mentions) < 2:
            return doc
        words, cs = token_info(doc)
        self._words = token_table(doc).lower  # the lowercased words, shared with actions
        self._heading_end = self._heading(words, cs)
        self._product = -2
        ms, orders = self._views(words, cs, mentions)
        title = self._title(cs, ms)
        # the rules for an anaphor after the title (rules 2nd) or not (1st)
        later = title.i if title is not None else len(ms)
        chain_of: dict[int, list[int]] = {}  # mention position -> its chain (text order)
        links: list[tuple[int, int, str]] = []
        inner: set[int] = set()  # labels in the gap of a discontinuous mention
        surface, direct = self.mode == "surface", self.direct
        for a, order in zip(ms, orders, strict=True):
            for name, rule in order[a.i > later]:
                found = rule(doc, ms, a, title)
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
                if _enclosed(ms, a):
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

    def _rule_lists(
        self, kind: str, det: str, head_kind: int, after_as: bool, material: bool,
        material_role: bool, bracketed: bool, ident: bool, yield_or_label: bool,
        after_label: bool, following: bool, in_heading: bool, after_colon: bool,
    ) -> tuple[list[tuple[str, Callable]], list[tuple[str, Callable]]]:
        """The rules to try on an anaphor with these features (``head_kind``: the bits of
        :attr:`_head_kinds`) before and after the title."""
        role, solvent, definite, this, dried = (
            bool(head_kind & bit) for bit in (1, 2, 4, 8, 16)
        )
        common = (
            kind, det, after_as, material, bracketed, ident, role or material_role, solvent,
            definite, this, dried, yield_or_label, after_label, following, in_heading, after_colon,
        )
        return self._rules_for(*common, False), self._rules_for(*common, True)

    def _rules_for(
        self, kind: str, det: str, after_as: bool, material: bool, bracketed: bool,
        ident: bool, role_head: bool, solvent_head: bool, definite_head: bool, this_head: bool,
        dried_head: bool,
        yield_or_label: bool, after_label: bool, following: bool, in_heading: bool,
        after_colon: bool,
        after_title: bool,
    ) -> list[tuple[str, Callable]]:
        """The rules (in order) that can resolve an anaphor with these features: each rule
        left out rejects it by its own first tests."""
        can = {
            "following_compounds": following,
            "heading_label": in_heading,
            "analysis_formula": after_colon,
            "label_colon_name": after_label,
            "title_compound": after_title,
            "final_product": after_title and yield_or_label,
            "bracketed_abbreviation": bracketed,
            "referred_to_as": after_as,
            "as_eluent": role_head,
            "this_product": det in ("this", "these", "the", "") and this_head,
            "compound_number": ident,
            "the_solvent": solvent_head and det in ("the", ""),
            "starting_material": material,
            "definite_repeat": det == "the" and definite_head,
            "drying_agent": det in ("the", "") and dried_head,
        }
        return [
            (n, rule) for n, rule in self.order
            if can.get(n, True) and kind in _RULE_KINDS.get(n, (kind,))
        ]

    def _views(
        self, words: list[str], cs: str, mentions: list[Mention]
    ) -> tuple[list[_M], list[tuple[list, list]]]:
        """The views of ``mentions`` (in text order), built in one pass over the doc, and the
        rules to try on each (before and after the title: :meth:`_rules_for`)."""
        low = self._words
        n_words = len(words)
        views: list[_M] = []
        append = views.append
        orders = self._orders
        rules: list[tuple[list, list]] = []
        add_rules = rules.append
        material, head_kinds = self.material_anaphors, self._head_kinds
        heading_end, id_words = self._heading_end, self._id_words
        after_label = following = False  # a label / "the following compounds" before
        for n, m in enumerate(mentions):
            attrs = m.attrs
            try:  # one C call for the attributes chemie_mentions always sets
                (first, last), ranges, (c0, c1), det, kind, head, sentence = _ATTRS(attrs)
            except KeyError:
                get = attrs.get
                first, last = get("tokens", (0, 0))  # type: ignore[misc]
                ranges = get("ranges", ((first, last),))
                c0, c1 = get("core", (first, last))  # type: ignore[misc]
                det, kind, head = get("det", ""), get("kind", ""), get("head", "")
                sentence = get("sentence", 0)
            if (
                det.__class__ is not str or kind.__class__ is not str
                or head.__class__ is not str or sentence.__class__ is not int
            ):
                det, kind, head, sentence = str(det), str(kind), str(head), int(sentence)
            end = c1 + 1
            classes = cs[c0:end]
            # most cores have no bracket or punctuation: their words are a slice of the doc's
            if c0 >= 0 and _NOT_CORE.isdisjoint(classes):
                core_w = low[c0:end]
                core = " ".join(core_w)
                n_core, i0, i1 = len(core_w), c0, c1
                if _NAME_CLASSES.issuperset(classes) and not (
                    classes[-1:] == "N" and cs[end : end + 1] == "U"
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
                        if (c in _NAME_CLASSES and (c != "N" or d != "U")) or w == "acid"
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
                and _open_bracket(words, first) >= 0
            ):
                bracketed = True  # "NAME ( reaction scheme 3 , compound 142 )"
            ident = ""
            if kind == "reference" and n_core > 1 and cs[i1] in "NZXCnb":
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
                    or (cs[i0] == "Z" and _HAS_DIGIT_AND_LETTER.search(word) is not None)
                ):
                    ident = core_w[0]
            append(_M(
                m, n, first, last, core, kind, head, det, sentence, ident, name, ranges,
                before, bracketed, name.replace(" ", ""),
            ))
            label = kind == "reference" and ident != "" and head != "example"
            key = (
                kind, det, head_kinds.get(head, 0), before == "as", core in material,
                core[-1:].isdigit() and self._material_role(core),
                bracketed or bool(attrs.get("abbreviation")),
                ident != "" and not ident.startswith("example"),
                label or "%" in m.text, after_label, following, n > 0 and first < heading_end,
                before in (":", "."),
            )
            order = orders.get(key)
            if order is None:
                order = orders[key] = self._rule_lists(*key)
            add_rules(order)
            after_label = label
            following = following or (
                det == "the" and core.startswith("following ") and head in self.following
            )
        return views, rules

    def _heading(self, words: list[str], cs: str) -> int:
        """The first token after the heading ("Step 2: Synthesis of X"), the text's first
        token if it has no heading."""
        stop = len(words)
        heading_words, low, in_heading = self.heading_words, self._words, self._heading_words
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
            if c in "SD" or (c == "I" and w[0].isupper()) or i > 60:
                stop = i
                break
        return stop

    def _title(self, cs: str, ms: list[_M]) -> _M | None:
        """The compound named in the heading (ending at ``self._heading_end``), if any."""
        stop = self._heading_end
        best = None
        for x in ms:
            # "NAME ( racemate )": a descriptor bracket is no quantity
            quantity = x.m.attrs.get("quantity") and x.m.rule != "descriptor_suffix"
            # "5 g of X" is a reactant; a name whose core starts with a number ("3 ,
            # 7-dihydroxy-…-oic acid", split after its first locant) is still a name
            if x.first >= stop or quantity or (
                cs[x.first] in "NnA"
                and not (x.kind == "chemical" and x.m.attrs.get("core", (-1,))[0] == x.first)
            ):
                break
            if x.bracketed:
                continue
            # "NAME ammonium salt": a name with a generic head
            if x.kind == "chemical" or (x.kind == "generic" and cs[x.first] == "b") or (
                x.kind == "reference" and x.ident and x.head != "example"
                # "... acid Compound l was condensed": the subject of the text's first verb
                # does not replace the name of the heading
                and not (best is not None and best.kind == "chemical" and x.last + 1 == stop)
            ):
                best = x
        return best

    # --- rules: each takes (doc, mentions, anaphor, title) -> antecedent, a list of
    # antecedents (closest first) or None ---

    def _rule_bracketed_abbreviation(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if not (a.bracketed or a.m.attrs.get("abbreviation")):
            return None
        text = a.m.text
        if a.kind == "reference" and a.ident:
            # "NAME ( Compound No . 1 )", "NAME ( compound ( IU ) )": a label of three words
            text = " ".join(w for w in text.split() if w not in _LABEL_FILLERS)
        if _NOT_ABBREVIATION.search(text):
            return None
        # "NH silica gel ( chloroform / methanol )": an eluent of solvents, no abbreviation
        parts = a.core.split(" / ")
        if len(parts) > 1 and self.solvent_set.issuperset(parts):
            return None
        # the unclosed "(" just before the anaphor, or -1
        opened = _open_bracket(self._words, a.first)
        ends = (a.first - 1, a.first - 2, opened - 1)
        first = a.first
        for x in reversed(ms[: a.i]):
            ranges = x.ranges
            if len(ranges) == 1:
                if ranges[0][1] not in ends:
                    continue
            elif not (
                any(r1 in ends for _, r1 in ranges) or ranges[0][1] < first <= ranges[-1][0]
            ):
                continue
            return None if _NOT_ABBREVIATED.search(x.m.text) else x
        return None

    def _rule_referred_to_as(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        words = self._words
        if a.before != "as" or words[max(0, a.first - 3) : a.first] != ["referred", "to", "as"]:
            return None
        opens = [i for i in range(max(0, a.first - 8), a.first) if words[i] == "("]
        if not opens:
            return None
        for x in reversed(ms[: a.i]):
            if any(r1 == opens[-1] - 1 for _, r1 in x.ranges):
                return x
        return None

    def _rule_following_compounds(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if a.kind != "chemical" or a.i == 0:
            return None
        # the first chemical after the colon: only a cited "Example 5" in between
        x = ms[a.i - 1]
        if x.kind == "reference" and x.head == "example" and a.i > 1:
            x = ms[a.i - 2]
        if x.det != "the" or not x.core.startswith("following ") or x.head not in self.following:
            return None
        if a.first - x.last > self.following_span or ":" not in self._words[x.last + 1 : a.first]:
            return None
        return x

    def _material_role(self, core: str) -> bool:
        """Whether ``core`` names a numbered reactant role ("raw material 2")."""
        return core[-1:].isdigit() and core.rsplit(" ", 1)[0] in self.material_anaphors

    def _rule_as_eluent(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        # "using hexane as eluent", "using 1.45 g of X as Raw material 2": the role of X
        if not (a.head in self.role_heads or self._material_role(a.core)) or a.first < 1:
            return None
        words = self._words
        if a.before != "as" and words[max(0, a.first - 2) : a.first] != ["as", "the"]:
            return None
        for x in reversed(ms[: a.i]):
            if x.sentence != a.sentence:
                return None
            if x.kind in ("chemical", "generic") and not x.bracketed:
                return x
        return None

    def _rule_as_physical_state(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if a.kind != "state" or a.first < 1:
            return None
        words = self._words
        if a.before != "as" and " ".join(words[max(0, a.first - 2) : a.first]) != "form of":
            return None
        # a label inside or after a name ("NAME ( 4a ) ( 1.2 g )") stands for the name
        same = [
            x for x in ms[: a.i]
            if x.sentence == a.sentence and x.kind != "equipment" and not x.bracketed
            and not _enclosed(ms, x)
        ]
        # "Compound 27 was synthesized from A , B and C as a white solid": the subject
        for x in same:
            if (
                words[x.last + 1 : x.last + 3] in self._passive_yield
                and ":" not in words[x.last : a.first]
            ):
                return x
        for x in reversed(same):
            if x.before in self.state_skip:
                continue
            return x
        return None

    def _rule_this_product(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if a.head not in _THIS_HEADS:
            return None
        # "... ( 1.3 g , 81% yield ) as a white solid . The product was ...": a bare "the
        # product" / "product" right after the yield statement is that product
        if a.det not in ("this", "these") and not (
            a.det in ("the", "") and a.core in _BARE_PRODUCT and not a.m.attrs.get("quantity")
        ):
            return None
        for x in reversed(ms[: a.i]):
            if x.sentence < a.sentence - 1:
                return None
            if "%" in x.m.text and x.kind in ("chemical", "reference", "state"):
                return x
        return None

    def _rule_title_compound(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if title is None or a.i <= title.i:
            return None
        phrase = f"{a.det} {a.core}".strip() if a.det else a.core.strip()
        if phrase not in self.title_phrases and a.core not in self.title_phrases:
            core = a.core
            if not ("title" in core or "target" in core or "desired" in core):
                return None  # every title tail starts with one of these words
            # "a first portion of 2.28 g ( 63% ) of the title compound"
            tail = " ".join(core.split()[-2:])
            # "2.5 g of the target compound NAME": the phrase is followed by the name
            named = a.kind in ("chemical", "reference") and any(
                f" {t} " in f" {core} " for t in self._title_tails
            )
            if tail not in self._title_tails and not named:
                return None
        if a.core in ("product", "compound") and a.det != "this" and not a.m.attrs.get("quantity"):
            return None
        return title

    def _rule_compound_number(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        # "Example 4A" names a procedure: a repeat cites it and is no compound
        if not a.ident or a.ident.startswith("example"):
            return None
        for x in reversed(ms[: a.i]):
            if x.ident == a.ident:
                return x
        return None

    def _rule_repeated_name(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if a.kind != "chemical" or not a.name or a.name in self.not_names:
            return None
        specific = (
            len(a.name) >= self.min_name
            and a.name not in self.solvent_set
            and _SPECIFIC_NAME.search(a.name) is not None
            and a.m.rule != "eluent_ratio"
        )
        if not specific and a.det not in ("the", "this", "said") and not self._removed(a):
            return None
        key = a.name_key
        for x in reversed(ms[: a.i]):
            # a solution that contains the name is no antecedent of it
            if x.name_key == key and not x.first <= a.first <= x.last:
                return x
        return None

    def _removed(self, a: _M) -> bool:
        """Whether ``a`` is removed: "to remove methanol", "Magnesium sulfate was filtered
        off"."""
        if a.before in self.removal:
            return True
        words, i = self._words, a.last + 1
        return i + 1 < len(words) and words[i] in ("was", "were") and words[i + 1] in self.removed

    def _rule_the_solvent(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if a.head not in self.solvent_anaphors or a.kind not in ("generic", "chemical"):
            return None
        if a.det not in ("the", "") or (a.det == "" and a.core not in self.solvent_anaphors):
            return None
        found: list[_M] = []
        washed = False
        for x in reversed(ms[: a.i]):
            if found and (
                (x.kind == "generic" and x.head in self.solvent_anaphors) or "%" in x.m.text
            ):
                break  # the solvents before an earlier "the solvent" or a product are gone
            words = x.core.split()
            if self.not_solvent.intersection(words):
                # an aqueous work-up: the solvents of the reaction before it went with the
                # aqueous phase; only more portions of the closest solvent are "the solvent"
                washed = washed or (bool(found) and not _AQUEOUS.isdisjoint(words))
                continue
            if washed and x.name_key != found[0].name_key:
                continue
            if x.kind == "chemical" and (
                x.name in self.solvent_set or x.name.endswith(self._solvent_tails)
                or (x.before in ("in", "with") and x.m.attrs.get("quantity"))
            ):
                if self.reagent_amount.search(x.m.text) is not None:
                    continue  # a molar amount: added as a reagent, not as the solvent
                found.append(x)
                if a.core not in self.solvent_anaphors:
                    break  # "the organic solvent", "the elution solvent": one antecedent
                # else every solvent of the mixture: "The solvent" after an extraction with
                # EtOAc of a reaction run in THF -> the EtOAc and the THF
        return found or None

    def _rule_starting_material(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if a.core not in self.material_anaphors:
            return None
        found: list[_M] = []
        first = 0.0
        for x in ms[: a.i]:
            if x.kind not in ("chemical", "reference") or not x.m.attrs.get("quantity"):
                continue
            if not found:
                found.append(x)
                first = _mmol(x.m.text)
            elif first and abs(_mmol(x.m.text) - first) <= self.equimolar * first:
                # the other reactant, in the same molar amount: "A ( 10 mmol ) and B
                # ( 10 mmol ) ... the raw material" -> A and B (not the base, 13 mmol)
                found.append(x)
        return found or None

    def _rule_heading_label(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        # the title, or any chemical name of the heading ("Intermediate 74 : NAME Step A : ...")
        in_heading = a.kind == "chemical" and a.last < self._heading_end
        if a.i == 0 or not (a is title or (in_heading and not a.m.attrs.get("quantity"))):
            return None
        x = ms[a.i - 1]
        if (
            x.kind == "reference" and x.ident and x.head != "example" and a.first - x.last <= 2
            and not x.m.attrs.get("quantity")
        ):
            return x
        return None

    def _rule_final_product(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if title is None or a.i <= title.i or a.kind not in ("chemical", "reference", "state"):
            return None
        if "%" in a.m.text:
            if self._product == -2:
                self._product = self._last_product(doc, ms)  # once per doc
            if a.i == self._product:
                return title
        # "to produce Compound ( 4 ) : NAME ( 25 mg , yield 31% )": the label of the product
        if (
            self._label_of_next(ms, a)
            and "%" in ms[a.i + 1].m.text
            and self.yield_verbs.intersection(self._words[max(0, a.first - 3) : a.first])
            and not any("%" in x.m.text for x in ms[a.i + 2 :])
        ):
            return title
        return None

    def _label_of_next(self, ms: list[_M], a: _M) -> bool:
        """Whether ``a`` is a label ("Compound ( 4 )") followed by ":" or "," and a chemical
        name."""
        if a.kind != "reference" or not a.ident or a.head == "example" or a.i + 1 >= len(ms):
            return False
        x = ms[a.i + 1]
        return (
            x.kind == "chemical" and x.first - a.last == 2
            and self._words[a.last + 1] in _APPOSITION and not a.m.attrs.get("quantity")
        )

    def _rule_label_colon_name(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if a.i == 0 or a.last < self._heading_end:
            return None
        x = ms[a.i - 1]
        return x if self._label_of_next(ms, x) else None

    def _last_product(self, doc: Doc, ms: list[_M]) -> int:
        """Position of the last mention with a yield (%) right after a yield verb, or -1."""
        words = token_info(doc)[0]
        for x in reversed(ms):
            around = words[max(0, x.first - 3) : x.first] + words[x.last + 1 : x.last + 4]
            if "%" in x.m.text and _CONCENTRATION.match(x.m.text) is None and (
                any(w.lower() in self.yield_verbs for w in around)
                # a sentence of its own: "Yellow solid ( 22 mg , 55% )"
                or (x.kind == "state" and x.before in ("", ".", ":", ";"))
                # "Yield : 0.15 g ( 58% of theory )"
                or x.m.rule == "yield_statement"
            ):
                return x.i
        return -1

    def _rule_analysis_formula(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        # "Elemental analysis : C7H14N2 ...", "calcd . C56H32N4S : C , 84.82": the formula
        # of the product just made (not a mass "calcd for C82H64N2O2 1108.49")
        if a.kind != "chemical" or a.first < 2 or a.m.attrs.get("quantity"):
            return None
        if tuple(self._words[a.first - 2 : a.first]) not in self.analysis_words:
            return None
        if self._product == -2:
            self._product = self._last_product(doc, ms)
        if 0 <= self._product < a.i:
            return ms[self._product]
        return title if title is not None and title.i < a.i else None

    def _rule_drying_agent(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        # "dried over anhydrous magnesium sulfate . The insoluble substance was separated by
        # filtration": the solid filtered off is the drying agent
        if a.head not in self.dried_heads or a.det not in ("the", ""):
            return None
        # "the insoluble substance", not "the precipitated solid"
        if not self.dried_modifiers.issuperset(a.core.split()[:-1]):
            return None
        words, i = self._words, a.last + 1
        if words[i : i + 1] not in (["was"], ["were"]) or words[i + 1 : i + 2] not in (
            ["separated"], ["filtered"], ["removed"]
        ):
            return None
        for x in reversed(ms[: a.i]):
            if x.sentence < a.sentence - 1:
                return None
            if x.kind == "chemical" and words[max(0, x.first - 2) : x.first] in self.dried_over:
                return x
        return None

    def _rule_definite_repeat(self, doc: Doc, ms: list[_M], a: _M, title: _M | None):
        if a.det != "the" or a.head not in self.definite_heads:
            return None
        for x in reversed(ms[: a.i]):
            if x.head == a.head and (x.det in ("a", "an") or (x.det == "" and x.kind == "state")):
                return x
        return None


@Language.factory(
    "chemie_coref", default_config={"rules": "coref.yaml", "mode": "surface"}
)
def make_coref(nlp: Language, name: str, rules: str, mode: str) -> CorefResolver:
    """The coreference resolver configured from ``rules/<rules>``."""
    return CorefResolver(load_rules(rules), mode)
