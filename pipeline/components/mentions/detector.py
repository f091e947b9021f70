"""The detector: the mention pattern over the class string, each match validated into
mentions, then the post-passes and the filters."""

from __future__ import annotations

import functools
import re
from bisect import bisect_left, bisect_right

from spacy.attrs import IDX
from spacy.tokens import Doc

from chemie.components.mentions.docdata import (
    NER_STORE,
    _chemical_spans,
    _ner_confidence,
    _sentence_of_tokens,
    _SentenceIndex,
)
from chemie.components.mentions.document import core_is_bare_reference, doc_text
from chemie.components.mentions.grammar import (
    FRACTIONS,
    MENTION,
    MENTION_FUSED,
    MENTION_NO_MIX,
    MENTION_NO_RATIO,
    MIX_HEADS,
    NUMERIC_RATIO,
)
from chemie.components.mentions.passes import (
    COLUMN_WORDS,
    _abbreviated_solutions,
    _attach_state_quantities,
    _attach_suffixes,
    _attach_yields,
    _column_packings,
    _describes,
    _eluent_additives,
    _eluent_pairs,
    _in_tlc_bracket,
    _is_determined,
    _is_infinitive,
    _reaction_is_a_mixture,
    _solution_components,
    _solvent_pairs,
    _yield_brackets,
)
from chemie.components.mentions.tables import MentionTables
from chemie.components.mentions.tagger import (
    _FIRST,
    FINITE_VERBS,
    GENERIC_ID,
    KEEP_TRAILING,
    LABEL,
    NOT_A_COMPOUND_AFTER,
    NOT_SOLVENT_HEADS,
    SOLUTION_HEADS,
    STATE_HEADS,
    TokenClassifier,
    _class_string_low,
)
from chemie.extensions import mentions_of
from chemie.model import Mention, Range

# A rejected bare core made only of these classes ("! ! ! ...", a line of punctuation) needs
# no search from the positions inside it: a core starting there ends where it ends, takes the
# same (absent) groups after it and is rejected too (it has no chemical, generic, reference or
# equipment word), and no other branch can start there ...
PLAIN_RUN = re.compile(r"[XZU/-]+")
# ... nor with words, numbers and amounts in it, unless the class after it continues a lead
# amount ("W* N : N", "N U (", "A ... O"), a gradient ("A ... I", "N S A") or a lone "n"
PLAIN_RUN_WORDS = re.compile(r"[XZUWNA/-]+")
CONTINUES_LEAD = frozenset("nx:S(DOPI")


def _plain_run(cs: str, start: int, stop: int) -> bool:
    """True when no search from inside the rejected bare core ``start:stop`` finds a mention
    before ``stop`` (so the search resumes there: linear time on long runs)."""
    if PLAIN_RUN.fullmatch(cs, start, stop):
        return True
    return (
        PLAIN_RUN_WORDS.fullmatch(cs, start, stop) is not None
        and (stop == len(cs) or cs[stop] not in CONTINUES_LEAD)
    )


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
                if got:
                    pos = max(got[0][0][-1][1], start) + 1
                elif _plain_run(cs, start, stop):
                    pos = stop  # each later start in the run is the same rejected core
                else:
                    pos = start + 1
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
    k = end - 2  # the last class before the id that is no number sign
    while k > c0 and cs[k] == "#":
        k -= 1
    return cs[k] in "Kk"

