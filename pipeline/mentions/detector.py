"""The detector: :meth:`MentionDetector.match` runs the mention pattern over the class string and
validates each match into :class:`Candidate` mentions, then runs the post-passes;
:meth:`MentionDetector.set_annotations` turns the candidates into ``doc._.mentions`` (as spaCy's
``SpanRuler`` splits ``match()`` and ``set_annotations()``).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from operator import attrgetter
from pathlib import Path

from spacy.tokens import Doc

from chemie.context import forget_derived, mentions_of, set_token_info
from chemie.mentions.candidate import Candidate, DocContext, add_mentions
from chemie.mentions.coded import RULES, check_coded
from chemie.mentions.docdata import sentence_index
from chemie.mentions.document import core_is_bare_reference
from chemie.mentions.grammar import Grammar, grammar_of
from chemie.mentions.groups import GroupRule
from chemie.mentions.passes import PostPasses
from chemie.mentions.runs import describes, has_name, is_solution, plain_run, ref_id
from chemie.mentions.table import MentionTables
from chemie.mentions.tagger import Tagger
from chemie.model import Range
from chemie.saving import SavesTables, rule_table
from chemie.tables import TableError

_RANGES = attrgetter("ranges")
# the conditions a rule of grammar.core_rules may name besides the groups of the pattern
CONDITIONS = ("trimmed", "solvent", "quantity", "generic_id")
_PLANS = 4096  # the bare-core plans kept (per distinct class shape)
# the branches of the mention pattern that make a whole mention alone, by group
_WHOLE_BRANCHES = ("soln", "ystat", "fused", "grad")

_SHORT = 4  # (a shorter run is searched again from each position: it costs less than the test)

class MentionDetector(SavesTables):
    """The ``chemie_mentions`` component: finds mentions with the compiled class-string pattern
    and validates their heads, then runs the post-passes of the table (``to_disk`` saves the
    table, ``from_disk`` reads it back)."""

    def __init__(self, tables: MentionTables):
        self.tables = tables
        self.tagger = Tagger(tables)
        self.classify = self.tagger.classify
        self.grammar: Grammar = grammar_of(tables)
        check_coded(tables)  # the table's passes and checks have their code, and back
        self.passes = PostPasses(tables)
        self.pattern = self.grammar.mention()
        self.fused_pattern = self.grammar.mention(frozenset(["fused"]))
        rules = {r.name: r for r in tables.table.rules}
        self.group_rules: tuple[GroupRule, ...] = tuple(
            RULES[name].code(tables, rules[name]) for name in tables.table.grammar.checks
        )
        # m.group(*checked) is ``unchecked`` when no checked group matched (a quick test)
        self.checked = tuple(r.group for r in self.group_rules) or ("core",)
        self.unchecked = None if len(self.checked) == 1 else (None,) * len(self.checked)
        grammar = tables.table.grammar
        groups = set(self.grammar.mention().groupindex)
        for i, c in enumerate(grammar.core_rules):
            if c.when not in CONDITIONS and c.when not in groups:
                raise TableError(tables.name, f"grammar.core_rules.{i}.when",
                                 f"{c.when!r} is no group of the mention pattern nor one of "
                                 f"{', '.join(CONDITIONS)}")
        # (rule, group, index of the condition or -1)
        self.core_rules = tuple(
            (c.rule, c.when, CONDITIONS.index(c.when) if c.when in CONDITIONS else -1)
            for c in grammar.core_rules
        )
        self.head_kinds = grammar.head_kinds
        self.kind_rules = grammar.kind_rules
        self._plans: dict[str, tuple[int, str, str, bool, bool] | tuple[()] | None] = {}
        words, shape = tables.words, tables.shapes
        self.keep_trailing = words["np_trimmed"]["keep_trailing"]
        self.not_a_compound_after = words["np_trimmed"]["not_a_compound_after"]
        self.finite_verbs = words["equipment_equipped_with"]["finite_verbs"]
        self.not_solvent_heads = words["np_in_solvent"]["not_solvent_heads"]
        self.fractions = words["np_in_solvent"]["fractions"]
        self.partitives = words["non_partitive_of"]["partitives"]
        suffixes = tables.table.filters[_index(tables, "adjective_head")].words
        self.adjective_suffixes = tuple(suffixes["suffixes"])
        self.adjective_except = tuple(suffixes["except_suffixes"])
        self.state_heads = tables.lists["state_heads"]
        self.solution_heads = tables.lists["solution_heads"]
        self.descriptor_words = tables.lists["descriptor_words"]
        self.label = shape["LABEL"]
        self.generic_id = shape["GENERIC_ID"]
        self._adjectives: dict[str, bool] = {}  # word -> adjective_head verdict (cache)

    def load_tables(self, files: dict[str, Path]) -> None:
        """Use the mention table in ``files`` (see :class:`~chemie.saving.SavesTables`)."""
        self.__init__(MentionTables.load(rule_table(files)))

    def __call__(self, doc: Doc) -> Doc:
        mentions_of(doc)  # the doc gets its (possibly empty) mention list
        if len(doc):
            self.set_annotations(doc, self.match(doc))
        return doc

    # -- match -----------------------------------------------------------------------------

    def match(self, doc: Doc) -> list[Candidate]:
        """The mention candidates of ``doc``, sorted by their ranges."""
        forget_derived(doc)  # read the NER spans and sentence starts afresh
        words, cs, low = self.tagger.class_string(doc)
        set_token_info(doc, words, cs)
        x = DocContext(doc, words, low, cs, sentence_index(doc), self.tables, self.grammar)
        found = self._search(x)
        x.low_set = frozenset(low)  # the doc's words, for the guards of the rarer rules
        return sorted(self.passes(x, found), key=_RANGES)

    def _search(self, x: DocContext) -> list[Candidate]:
        """The validated matches of the mention pattern, from left to right."""
        cs = x.cs
        found: list[Candidate] = []
        pos, n_tokens = 0, len(cs)
        pattern = self.fused_pattern if "V" in cs else self.pattern
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
                got = self._bare_np(x, c0, c1)
                found.extend(got)
                if got:
                    pos = max(got[0].ranges[-1][1], start) + 1
                elif stop - start > _SHORT and plain_run(cs, start, stop):
                    pos = stop  # each later start in the run is the same rejected core
                else:
                    pos = start + 1
                continue
            if m.group(*self.checked) != self.unchecked:
                m = self._checked(x, m)
                if m is None:
                    pos = start + 1
                    continue
            got = self._validate(x, m) if m.end() > m.start() else []
            found.extend(got)
            # a rejected or shortened match lets the next one start inside it
            end = m.start()
            for c in got:
                last = c.ranges[-1][1]
                if last > end:
                    end = last
            pos = end + 1
        return found

    def _checked(self, x: DocContext, m: re.Match) -> re.Match | None:
        """``m``, or the match at its start with the fallback variant of each grouped rule whose
        check fails ("DSC : 195" is no eluent ratio, "a period of X and Y" no mixture); None
        when the fallback still has the group (the fallback variant always matches there: its
        core may be empty)."""
        fallbacks: frozenset[str] = frozenset()
        for rule in self.group_rules:
            if m.group(rule.group) and not rule.accepts(x, m):
                fallbacks |= {rule.fallback}
                m = self.grammar.mention(fallbacks).match(x.cs, m.start()) or m
                if m.group(rule.group):
                    return None
        return m

    # -- validation of one match -----------------------------------------------------------

    def _validate(self, x: DocContext, m: re.Match) -> list[Candidate]:
        """The mention(s) of one pattern match, or none when its head is not a compound."""
        cs = x.cs
        if m.end() - m.start() == 1 and cs[m.start()] in "WNZXDUA":
            return []  # a lone word, number or identifier
        c0, c1 = m.span("core")
        if c0 == m.start() and m.group("mix") is None and m.group("frm") is None:
            if c1 == m.end():
                return self._bare_np(x, c0, c1)
            if m.span("qp") == (c1, m.end()):
                return self._core_quantity(x, c0, c1, m.end())
        g = m.groupdict()
        if g["soln"] or g["ystat"] or g["grad"] or g.get("fused"):
            return self._whole_branch(x, m, g)
        return self._core_match(x, m, g)

    def _whole_branch(self, x: DocContext, m: re.Match, g: dict) -> list[Candidate]:
        """A branch that is a whole mention: ``solution_of_list``, ``yield_statement``,
        ``np_fused_quantity``, ``eluent_gradient``."""
        cs, low = x.cs, x.low
        group = next(name for name in _WHOLE_BRANCHES if g.get(name))
        a, b = m.span(group)
        if group == "soln":
            return [self._solution_list(x, a, b)]
        if group == "ystat":
            return [Candidate(((a, b - 1),), "yield_statement", "chemical", "yield",
                              x.sent_of[a], (a, b - 1), (a, a), "", True)]
        if group == "fused":
            v = cs.index("V", a)
            det = low[a] if cs[a] == "D" else ""
            return [Candidate(((a, b - 1),), "np_fused_quantity", "chemical",
                              low[v].partition("(")[0], x.sent_of[a], (a, b - 1),
                              (a + (1 if det else 0), v), det, True)]
        if m.group("to") and low[m.start("to")] != "to":
            return []  # "10% MeOH was 5% ...": no gradient
        return [Candidate(((a, b - 1),), "eluent_gradient", "chemical", low[b - 1],
                          x.sent_of[a], (a, b - 1), (a, b - 1), "", False)]

    def _core_match(self, x: DocContext, m: re.Match, g: dict) -> list[Candidate]:
        """A match built around its core: the head decides whether it is a mention, the groups
        around the core which rule makes it and which brackets are mentions of their own."""
        cs, low = x.cs, x.low
        c0 = self._core_start(x, m, g)
        has_qp = g["qp"] is not None or g["pid"] is not None or g["amt"] is not None
        sol = self._solvent(x, m, g)
        core = self._core_head(x, c0, m.end("core"), not has_qp and not g["ratio"] and not sol)
        if core is None:
            return []
        end, head_i, trimmed, gid, ref = core
        kind = self._kind(x, head_i)
        if self._head_rejected(x, g, c0, end, head_i, kind, has_qp):
            return []
        start, stop = self._extent(x, m, g, c0, end, trimmed, sol)
        rule = self._rule_of(g, kind, trimmed, bool(sol), has_qp, gid and head_i == end - 2)
        ranges, out, end = self._own_brackets(
            x, m, g, start, stop, c0, end, trimmed, has_qp, sol, ref
        )
        det = cs[c0] == "D"
        out.append(Candidate(
            ranges, rule, kind, low[head_i], bisect_right(x.sent_of.starts, ranges[0][0]) - 1,
            (ranges[0][0], ranges[-1][1]), (c0 + (1 if det else 0), end - 1),
            low[c0] if det else "", has_qp or bool(g["lead"]),
        ))
        if rule == "np_in_solvent" and stop == m.end():
            out.extend(self._solvent_component(x, m, g))
        return out

    def _core_start(self, x: DocContext, m: re.Match, g: dict) -> int:
        """Where the name starts: after a non-partitive "of" (``non_partitive_of``: "The pH of
        the solution" -> "the solution"), then where the group rule of the match says."""
        cs = x.cs
        c0, c1 = m.span("core")
        of = cs.find("O", c0, c1)
        if of > c0 and cs[of - 1] in "WX" and x.low[of - 1] not in self.partitives:
            c0 = of + 1
        for rule in self.group_rules:
            if g[rule.group]:
                c0 = rule.core_start(x, m, c0, c1)
        return c0

    def _solvent(self, x: DocContext, m: re.Match, g: dict) -> str | None:
        """The solvent group (``sol`` or ``sol2``) when it is the solvent of the core
        (``np_in_solvent``), else None."""
        cs, low = x.cs, x.low
        sol = g["sol"] or g["sol2"]
        if not sol or self._solvent_is_equipment(x, m) or not has_name(cs, m):
            return None  # "in a flask", "in 240 ml"
        core0, core1 = m.span("core")
        if g["sol2"] and not (
            is_solution(x.words, low, cs, core0, core1, self.solution_heads)
            # "Fractions containing the desired compound"
            or (low[m.start("sol2")] == "containing" and low[core1 - 1] in self.fractions)
            # "88 μl ( 0.51 mmol ) of DIPEA in 0.4 ml of DMF": an amount in an amount of solvent
            or (g["lead"] and cs[cs.index("I", m.start("sol2")) + 1] in "NAn"
                and "O" in g["sol2"])
        ):
            return None
        if g["sol"] and "O" in g["sol"] and not (
            g["lead"] or is_solution(x.words, low, cs, core0, core1, self.solution_heads)
            or g["sol"].startswith("SDG")  # "X ( 1 g ) as a solution in 3 mL of DCM"
        ):
            return None  # "X ( 4.5 g ) in 380 ml of THF": two mentions
        if cs[m.end() : m.end() + 1] == "O":
            return None  # "X ( 410 mg ) in a mixture of A and B": the mixture is its own
        return sol

    def _kind(self, x: DocContext, head_i: int) -> str:
        """The kind of a mention with head token ``head_i``."""
        kind = self.head_kinds.get(x.cs[head_i].upper(), "chemical")
        if kind == "generic" and x.low[head_i] in self.state_heads:
            kind = "state"
        return kind

    def _head_rejected(
        self, x: DocContext, g: dict, c0: int, end: int, head_i: int, kind: str, has_qp: bool
    ) -> bool:
        """No mention: a number, unit or amount head without a lead amount or ratio; an
        adjective head (``adjective_head``); a modifier, symbol or identifier head with no
        chemical word and nothing that makes it a compound."""
        cs = x.cs
        head_cls = cs[head_i].upper()
        if head_cls in "NUA" and not g["lead"] and not g["ratio"]:
            return True
        if cs[head_i] in "CXb" and self._adjective(x.words[head_i]):
            return True  # "Endothermic (peak)", "chromatographic (purification)"
        if "C" in cs[c0:end].upper():
            return False
        if head_cls == "W" and not (has_qp or g["lead"]):
            return True
        return head_cls in "XZ" and kind == "chemical" and not (has_qp or g["lead"] or g["ratio"])

    def _extent(
        self, x: DocContext, m: re.Match, g: dict, c0: int, end: int, trimmed: bool,
        sol: str | None,
    ) -> tuple[int, int]:
        """The first token and the end (exclusive) of the mention: from its lead amount (or
        solution prefix) or its core, to the end of the match, of its trimmed core, before a
        "from" that names a source, before a solvent that is none, or at the verb after the
        fittings of equipment."""
        cs = x.cs
        start = m.start() if g["lead"] or g["svp"] else c0
        stop = end if trimmed else m.end()
        if g["frm"] and cs[m.start("frm") - 1] not in "Kk":
            stop = m.start("frm")  # "a yellow solid from Compound 202"
        if sol is None and (g["sol"] or g["sol2"]):
            stop = m.start("sol") if g["sol"] else m.start("sol2")
        if g["eqp"]:
            # "a flask equipped with a stirrer was charged": the fittings end at the verb
            k = next((k for k in range(m.start("eqp"), stop) if x.low[k] in self.finite_verbs),
                     stop)
            while cs[k - 1] in "P&":
                k -= 1
            stop = k
        return start, stop

    def _rule_of(
        self, g: dict, kind: str, trimmed: bool, solvent: bool, quantity: bool, generic_id: bool
    ) -> str:
        """The rule of a core match: the first of ``grammar.core_rules`` whose group matched or
        whose condition holds, else the rule of its kind."""
        found = (trimmed, solvent, quantity, generic_id)  # in the order of CONDITIONS
        for rule, when, k in self.core_rules:
            if found[k] if k >= 0 else g.get(when):
                return rule
        return self.kind_rules.get(kind, self.kind_rules["chemical"])

    def _own_brackets(
        self, x: DocContext, m: re.Match, g: dict, start: int, stop: int, c0: int, end: int,
        trimmed: bool, has_qp: bool, sol: str | None, ref: bool,
    ) -> tuple[tuple[Range, ...], list[Candidate], int]:
        """The ranges of the mention and the mentions of their own inside it: an abbreviation
        before the quantity ("trifluoroacetic acid ( TFA , 5 mL )"), a label after the name
        ("...sulfonate 1b ( 128 mg )"), a state in the quantity bracket ("( 1.40 g , as a
        yellow oil )"), an id bracket ("( Pd(OAc)2 )", "compound ( 3d )"); and the end of the
        core after them."""
        ranges: tuple[Range, ...] = ((start, stop - 1),)
        out: list[Candidate] = []
        if trimmed:
            return ranges, out, end
        cs, low = x.cs, x.low
        if g["pid"] and not describes(low, *m.span("pid"), self.descriptor_words,
                                       self.solution_heads):
            a, b = m.span("pid")
            ranges = ((start, a), (b, stop - 1))
            out.append(self._abbrev(x, a + 1, b - 2))
        if (
            g["qp"] and not g["idp"] and end - c0 >= 2 and cs[end - 2] in "Cb"
            and cs[end - 1] == "Z" and self.label.match(x.words[end - 1]) and not ref
        ):
            ranges = ((start, end - 2), (m.start("qp"), stop - 1))
            out.append(self._abbrev(x, end - 1, end - 1))
            end -= 1
        if g["qp"] and len(ranges) == 1:
            state = self._state_in_bracket(x, *m.span("qp"))
            if state is not None:
                k, close = state
                ranges = ((ranges[0][0], k - 1), (close, ranges[0][1]))
                out.append(self._state(x, k + 2, close - 1))
        if g["idp"] or g["idp2"]:
            ranges, end = self._id_brackets(x, m, g, start, stop, c0, end, has_qp, sol, ranges,
                                            out)
        return ranges, out, end

    def _id_brackets(
        self, x: DocContext, m: re.Match, g: dict, start: int, stop: int, c0: int, end: int,
        has_qp: bool, sol: str | None, ranges: tuple[Range, ...], out: list[Candidate],
    ) -> tuple[tuple[Range, ...], int]:
        """:meth:`_own_brackets` for the id brackets (``idp``, ``idp2``): "compound ( 3d )" is
        the compound's number; "( Pd(OAc)2 )", "( TFA )" are abbreviations, mentions of their
        own (appended to ``out``). The ranges of the mention and the end of its core."""
        if g["idp"] and core_is_bare_reference(x.cs, c0, end):
            end = m.end("idp")  # "compound ( 3d )": the bracket is the compound's number
        for group in ("idp", "idp2"):
            if g[group] is None or (group == "idp" and end == m.end("idp")):
                continue
            a, b = m.span(group)
            if group == "idp" and has_qp:
                # "palladium(II) acetate ( Pd(OAc)2 ) ( 10 mg )": name + quantity are one
                # discontinuous mention, the bracketed abbreviation another.
                ranges = ((start, a - 1), (m.start("qp"), stop - 1))
            elif group == "idp" or (group == "idp2" and not sol and len(ranges) == 1):
                ranges = ((ranges[0][0], a - 1),)
            if b - a < 6:  # "[ Example 9 , Step 1 ]" is a reference, no abbreviation
                out.append(self._abbrev(x, a + 1, b - 2))
        return ranges, end

    def _solvent_component(self, x: DocContext, m: re.Match, g: dict) -> list[Candidate]:
        """``solvent_component``: "a solution of X in THF ( 10 mL )": the solvent is a mention
        of its own too."""
        cs, low = x.cs, x.low
        a, b = m.span("sol") if g["sol"] else m.span("sol2")
        a = cs.index("I", a) + 1  # after "in" (", dissolved in", "suspended in")
        k = cs.find("(", a, b)
        if g["sol2"] and k > a and cs[b - 1] == ")" and cs.count("(", a, b) == 1:
            # "a 4 M HCl solution in 1,4-dioxane ( 1.6 mL )": the bracket after the solvent of
            # an unquantified solute measures the whole solution
            b = k
        if b <= a:
            return []
        det = low[a] if cs[a] == "D" else ""
        return [Candidate(((a, b - 1),), "solvent_component", "chemical", low[b - 1],
                          x.sent_of[a], (a, b - 1), (a + (1 if det else 0), b - 1), det,
                          "(" in cs[a:b])]

    # -- the common matches, fast --------------------------------------------------------------

    def _core_quantity(self, x: DocContext, c0: int, c1: int, stop: int) -> list[Candidate]:
        """:meth:`_validate` of a core followed by its quantity bracket ``c1:stop`` and nothing
        else (``np_quantity``, the most common match after the bare noun phrase), with the
        branches for the other groups left out."""
        head = self._head(x, c0, c1, False)
        if head is None:
            return []
        c0, end, head_i, kind, _trimmed, _gid, ref = head
        cs, low = x.cs, x.low
        ranges: tuple[Range, ...] = ((c0, stop - 1),)
        out = []
        if (
            end - c0 >= 2 and cs[end - 2] in "Cb" and cs[end - 1] == "Z"
            and self.label.match(x.words[end - 1]) and not ref
        ):
            # "...sulfonate 1b ( 128 mg )": the label is a mention of its own
            ranges = ((c0, end - 2), (c1, stop - 1))
            out.append(self._abbrev(x, end - 1, end - 1))
            end -= 1
        elif (state := self._state_in_bracket(x, c1, stop)) is not None:
            # "X ( 2.00 g , as a yellow oil )": the state is a mention of its own
            k, close = state
            ranges = ((c0, k - 1), (close, stop - 1))
            out.append(self._state(x, k + 2, close - 1))
        det = cs[c0] == "D"
        out.append(Candidate(
            ranges, "np_quantity", kind, low[head_i], bisect_right(x.sent_of.starts, c0) - 1,
            (c0, stop - 1), (c0 + 1 if det else c0, end - 1), low[c0] if det else "", True,
        ))
        return out

    def _bare_np(self, x: DocContext, c0: int, c1: int) -> list[Candidate]:
        """:meth:`_validate` of a match that is its core alone (no lead amount, quantity, ratio,
        solvent, id bracket, "from" or second component: the common case), with the branches
        for those left out."""
        cs, low = x.cs, x.low
        shape = cs[c0:c1]
        plan = self._plans.get(shape, _UNKNOWN)
        if plan is _UNKNOWN:
            if len(self._plans) >= _PLANS:
                self._plans.clear()
            plan = self._plans[shape] = self._bare_plan(shape)
        if plan is not None:
            # the class letters alone decide the head: only its word is looked at
            if plan is _REJECT:
                return []
            head_rel, kind, rule, det, adjective_check = plan
            head_i = c0 + head_rel
            if adjective_check and self._adjective(x.words[head_i]):
                return []  # adjective_head
            head_low = low[head_i]
            if kind == "generic" and head_low in self.state_heads:
                kind = "state"
            return [Candidate(
                ((c0, c1 - 1),), rule, kind, head_low, bisect_right(x.sent_of.starts, c0) - 1,
                (c0, c1 - 1), (c0 + 1 if det else c0, c1 - 1), low[c0] if det else "", False,
            )]
        head = self._head(x, c0, c1, True)
        if head is None:
            return []
        c0, end, head_i, kind, trimmed, gid, _ = head
        if cs[head_i].upper() in "WXZ" and kind == "chemical" and "C" not in cs[c0:end].upper():
            return []
        rule = self._rule_of({}, kind, trimmed, False, False, gid and head_i == end - 2)
        det = cs[c0] == "D"
        return [Candidate(
            ((c0, end - 1),), rule, kind, low[head_i], bisect_right(x.sent_of.starts, c0) - 1,
            (c0, end - 1), (c0 + 1 if det else c0, end - 1), low[c0] if det else "", False,
        )]

    def _bare_plan(self, shape: str) -> tuple[int, str, str, bool, bool] | tuple[()] | None:
        """What :meth:`_bare_np` decides from the class letters ``shape`` of a bare core alone
        (kept per distinct shape: "DG", "C", "DWG" ... recur in every doc): ``(head offset,
        kind, rule, determiner, adjective check)``, ``_REJECT`` (no mention), or None when a
        word decides it (non-partitive "of", trailing words that may be trimmed, a generic
        head with its label, a kept trailing word: the full path)."""
        n = len(shape)
        of = shape.find("O")
        if of == 0 or (of > 0 and shape[of - 1] in "WX"):
            # non_partitive_of looks at the word before "of" (the class before the core, when
            # it starts with "of")
            return None
        if n >= 2 and shape[-2] == "G" and shape[-1] in "NZ":
            return None  # generic_with_id looks at the label
        if shape[-1] in "WDnNU-/" and not ref_id(shape, 0, n):
            return None  # trailing words are trimmed unless listed in keep_trailing (so the
            # head is never a trailing W, and a lone determiner never gets here)
        head_i = n - 1
        if shape[head_i] in "NZXCnb" and n >= 2 and shape[n - 2] in "Kk#" and ref_id(shape, 0, n):
            head_i = len(shape[: n - 1].rstrip("#")) - 1  # "Compound 4": the reference head
        elif (of := shape.find("O")) != -1 and shape[of - 1] == "G":
            head_i = of - 1  # "a solution of X"
        head_cls = shape[head_i].upper()
        if head_cls in "NUA":
            return _REJECT
        kind = self.head_kinds.get(head_cls, "chemical")
        if head_cls in "WXZ" and kind == "chemical" and "C" not in shape.upper():
            return _REJECT
        rule = self._rule_of({}, kind, False, False, False, False)
        return head_i, kind, rule, shape[0] == "D", shape[head_i] in "CXb"

    # -- heads -----------------------------------------------------------------------------

    def _head(
        self, x: DocContext, c0: int, c1: int, may_trim: bool
    ) -> tuple[int, int, int, str, bool, bool, bool] | None:
        """The head of a plain core ``c0:c1`` (``non_partitive_of``, :meth:`_core_head`, no
        number/unit/amount head, ``adjective_head``): ``(c0, end, head_i, kind, trimmed, gid,
        ref)`` with ``c0`` moved past a non-partitive "of"; None when it is no mention."""
        cs = x.cs
        of = cs.find("O", c0, c1)
        if of > c0 and cs[of - 1] in "WX" and x.low[of - 1] not in self.partitives:
            c0 = of + 1  # non_partitive_of
        core = self._core_head(x, c0, c1, may_trim)
        if core is None:
            return None
        end, head_i, trimmed, gid, ref = core
        if cs[head_i].upper() in "NUA":
            return None
        if cs[head_i] in "CXb" and self._adjective(x.words[head_i]):
            return None  # adjective_head
        return c0, end, head_i, self._kind(x, head_i), trimmed, gid, ref

    def _core_head(
        self, x: DocContext, c0: int, c1: int, may_trim: bool
    ) -> tuple[int, int, bool, bool, bool] | None:
        """The end of the core ``c0:c1`` and its head token: ``(end, head_i, trimmed, gid,
        ref)`` (``ref``: the core ends with a reference id, "Compound 4"); None when no
        mention is left. With ``may_trim`` trailing words that cannot be heads are cut
        (``np_trimmed``: "silica gel pad" keeps "silica gel"); ``gid``: a generic head with
        its label ("Solution 1 was added", "as Raw material 2 .", "elution system A":
        ``generic_with_id``)."""
        cs, low = x.cs, x.low
        end = c1
        gid = (
            end - c0 >= 2 and cs[end - 2] == "G" and cs[end - 1] in "NZ"
            and self.generic_id.match(x.words[end - 1]) is not None
            and (end == len(cs) or cs[end] in ".P:)S")
        )
        if may_trim and not gid:
            end = self._trim(x, c0, end)
        if end == c0 or (end == c0 + 1 and cs[c0] == "D"):
            return None
        trimmed = end != c1
        if trimmed and low[end] in self.not_a_compound_after:
            return None
        head_i = end - 1
        if cs[head_i] == "W" and low[head_i] in self.keep_trailing and cs[head_i - 1] in "CGKEb":
            head_i -= 1  # "The solid ppts", "the nitrogen stream": the noun before
        # (cheap necessary conditions first: an id right after a reference head or number sign)
        ref = cs[end - 1] in "NZXCnb" and cs[end - 2] in "Kk#" and ref_id(cs, c0, end)
        if ref:
            head_i = len(cs[: end - 1].rstrip("#")) - 1
        elif gid and not trimmed:
            head_i = end - 2
        if not ref and (of := cs.find("O", c0, end)) != -1 and cs[of - 1] == "G":
            head_i = of - 1  # "a solution of X": the head is the noun before "of" when generic
        return end, head_i, trimmed, gid, ref

    def _trim(self, x: DocContext, c0: int, end: int) -> int:
        """``np_trimmed``: the end of the core ``c0:end`` without its trailing words that cannot
        be heads (unless a reference id or listed in ``keep_trailing``)."""
        cs, low = x.cs, x.low
        while (
            end > c0
            and cs[end - 1] in "WDnNU-/"
            and not ref_id(cs, c0, end)
            and low[end - 1] not in self.keep_trailing
        ):
            end -= 1
        return end

    def _adjective(self, word: str) -> bool:
        """``adjective_head``: a plain word with an adjective suffix (-ic, -ous, -al) that is
        no chemical name ending ("butanal", "dimethyl acetal"); cached per word."""
        verdict = self._adjectives.get(word)
        if verdict is None:
            low = word.lower()
            verdict = self._adjectives[word] = (
                word.isalpha()
                and low.endswith(self.adjective_suffixes)
                and not low.endswith(self.adjective_except)
                and (word.islower() or word[1:].islower())
            )
        return verdict

    # -- mentions inside a match -----------------------------------------------------------

    def _solvent_is_equipment(self, x: DocContext, m: re.Match) -> bool:
        """``... in a flask``: equipment after "in" is not part of the solution."""
        a, b = m.span("sol") if m.group("sol") else m.span("sol2")
        body = x.cs[a:b].split("(")[0]
        if x.low[a + len(body) - 1] in self.not_solvent_heads:  # "in portions"
            return True
        return body.rstrip("WD")[-1:] == "E" or body[-1:] == "E"

    @staticmethod
    def _state_in_bracket(x: DocContext, q0: int, q1: int) -> tuple[int, int] | None:
        """The comma before "as" and the closing bracket of a state in the quantity bracket
        ``q0:q1`` ("( 1.40 g , as a yellow oil )"), or None."""
        cs, low = x.cs, x.low
        k = cs.find("P", q0, q1)
        while k != -1 and low[k + 1] != "as":
            k = cs.find("P", k + 1, q1)
        close = cs.find(")", k + 1, q1) if k != -1 else -1
        if k != -1 and close > k + 2 and cs[close - 1] == "G":
            return k, close
        return None

    def _solution_list(self, x: DocContext, a: int, b: int) -> Candidate:
        """``solution_of_list``: "a solution of X ( 1 g ) , Y ( 2 g ) and Z in S"."""
        cs = x.cs
        head = cs.find("G", a, b)
        kind = "generic"
        if head == -1:  # "X ( 1 g ) and Y ( 2 g ) in THF ( 5 mL )": no "solution of"
            head, kind = cs.index("(", a) - 1, "chemical"
        det = cs[a] == "D"
        return Candidate(((a, b - 1),), "solution_of_list", kind, x.low[head], x.sent_of[a],
                         (a, b - 1), (a + (1 if det else 0), head), x.low[a] if det else "",
                         True)

    def _state(self, x: DocContext, a: int, b: int) -> Candidate:
        """A state inside a quantity bracket: "a yellow oil"."""
        det = x.low[a] if self.classify(x.words[a]) == "D" else ""
        kind = "state" if x.low[b] in self.state_heads else "generic"
        return Candidate(((a, b),), "generic_np", kind, x.low[b], x.sent_of[a], (a, b),
                         (a + (1 if det else 0), b), det, False)

    def _abbrev(self, x: DocContext, a: int, b: int) -> Candidate:
        """``bracketed_abbreviation``: "( COMPOUND 8 )" is a numbered reference; "( TFA )" a
        chemical."""
        ref = b > a and self.classify(x.words[a]) == "K"
        return Candidate(((a, b),), "bracketed_abbreviation", "reference" if ref else "chemical",
                         x.low[a if ref else b], x.sent_of[a], (a, b), (a, b), "", False, True)

    # -- set_annotations -------------------------------------------------------------------

    def set_annotations(self, doc: Doc, candidates: list[Candidate]) -> None:
        """Append a :class:`~chemie.model.Mention` per candidate (in order) to
        ``doc._.mentions`` (:func:`~chemie.mentions.candidate.add_mentions`)."""
        add_mentions(doc, candidates, self.tables.confidence)


def _index(tables: MentionTables, name: str) -> int:
    """The position of the filter ``name`` in the table."""
    for i, f in enumerate(tables.table.filters):
        if f.name == name:
            return i
    raise TableError(tables.name, "filters", f"no filter {name!r}")


_REJECT = ()  # a bare noun phrase that its class letters rule out
_UNKNOWN = object()  # (a shape whose plan is not made yet)
