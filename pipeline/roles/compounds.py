"""Compound spans (ChEMU 2020 conventions); :mod:`chemie.roles.labelling` gives them their roles."""

from __future__ import annotations

import bisect
import functools
import operator
from itertools import compress

import regex

from chemie.model import Mention
from chemie.roles.context import RoleContext
from chemie.roles.found import Found
from chemie.roles.table import RoleTable

# "aqueous X", "aq. X": the prefix belongs to the name
_AQUEOUS = regex.compile(r"(?i:\b(?:aqueous|aq\.?)\s)$")
# "an aqueous solution of X", "2 M aqueous sodium hydroxide solution": "aqueous" alone
_AQUEOUS_ALONE = regex.compile(r"(?i:\b(aqueous)\s(?=solution|suspension))")
# a compound label: "22", "38-h", "1-a", "I-305", "A5b", "(4)"
_IDENT = regex.compile(r"^[(\[]?([0-9]+[A-Za-z]?(?:[-.][0-9A-Za-z]+)*|[A-Z]{1,2}-?[0-9]*[a-z]?|"
                       r"[IVX]+-[0-9]+[a-z]?)[)\]]?$")
_NUMBER_HEADS = frozenset(("compound", "compounds", "product", "products"))
_EXAMPLE_REF = regex.compile(r"(?i)^(?:the\s+)?(compounds?\s+(?:from|of)\s+(?:ex\.|example)\s*\S+)")
# "aq" apart from the name it qualifies ("aq. sat. NaHCO3", "sat. NaHCO3 (aq)", "(10% aq)"),
# not a layer ("the aq. layer")
_AQ_ALONE = regex.compile(r"(?<![\w.])aq(?=[.)]|\s|$)(?!\.?\s*(?:layers?|phases?)\b)")
_MARKS, _MARKS_DOT = ("®", "™"), ("®.", "™.", "®,", "™,")
_FROM_EXAMPLE = regex.compile(r"(?i)\bcompounds?\s+from\s+example\s*[0-9][0-9A-Za-z-]*")
_DROP_MODIFIERS = frozenset(("the", "a", "an", "this", "that", "white", "crude", "pure",
                             "obtained", "solid", "resulting", "precipitated", "yellow"))


# a run of name tokens: chemical words and the brackets inside a name (a name starting a
# sentence after a heading, class b, starts a run of its own), with an identifier after it
# ("... carboxamide I-1", "phenol 3b")
_NAME_RUN = regex.compile(r"[Cb][C-]*(?<!-)V?|[C-]*CV?|V")


# a token the mention classes leave as "other" (X) that reads as a name: letters, and
# digits or brackets ("3-(4-((1S,3R/1R,3S)-...)acrylate", "[bis(...)imidate]gold(I)")
_NAME_LIKE = regex.compile(r"(?=.*[a-z]{3})(?=.*[\d(\[])\S{6,}")
# mixture names joined by a dash, slash or colon ("hexane-ethyl acetate", "water/MeCN")
_JOINS = regex.compile(r"\s?[-/:]\s?")
# a whole systematic name ends a token ("...propan-2-amine") and another starts the next
# ("1-(benzofuran-3-yl)...", "(R)-..."): two names side by side, not one
_COMPLETE = ("ine", "one", "ane", "ene", "yne", "ide", "ate", "ole", "ol", "oic", "amide",
             "amine", "ite")
# ... unless the next token is a counter-ion, an oxide or a complex of the name before
_NEXT_NAME = regex.compile(
    r"(?!(?i:(?:\d+(?:,\d+)*-)?(?:di|tri|tetra|mono)?(?:oxide|hydrochloride|chloride|bromide|"
    r"hydrate|complex|salt|\S*sulfonate|\S*sulphonate)\b))"
    r"(?:\d+(?:,\d+)*-|[(\[]\S*\d|[A-Z][a-z]+-?\d*-?\(?)\S{5,}")
# "di-", "N,N-di-" left before a name by the tokenizer; a chemical word of a name before it
_MULTIPLIER = regex.compile(r"(?<![\w-])(?:di|tri|tetra|bis|tris|mono|n,n-di)-$")
_CHEMICAL_WORD = regex.compile(r"[a-z][a-z\d,()\[\]-]{3,}(?:yl|sulfur|amino|oxy)$")
_CHEMICAL_ENDS = ("yl", "sulfur", "amino", "oxy")
_AMOUNT_WORD = regex.compile(r"\d+(?:\.\d+)?(?:mg|g|mmol|kg)$")
_LETTER = regex.compile(r"[^\W\d_]")
# word -> whether it holds a letter (grows with the vocabulary, as spaCy's does, up to a limit)
_LETTERED: dict[str, bool] = {}
_CACHE_LIMIT = 200_000
_FIRST_WORD = regex.compile(r"[^\s-]+[\s-]")
# a word right before / after a name
_WORD_BEFORE = regex.compile(r"(\S+)\s$")
_WORD_AFTER = regex.compile(r"\s(\w+)\b")
# "NaOH aqueous solution", "NaHCO3 aqueous": "aqueous" after the name
_AQUEOUS_AFTER = regex.compile(r"\s(aqueous)\b(?!\s+(?:layer|phase)s?\b)", regex.IGNORECASE)
# "NAME (racemate)": the descriptor belongs to the name
_RACEMATE = regex.compile(r"\s\((?:racemate|racemic|rac)\)")
# supported and named catalysts that the words of a name do not hold together
_CATALYST = regex.compile(r"(?i)\b(?:\d+(?:\.\d+)?\s?(?:%|w/w%)\s?)?((?:pd(?:\(oh\)2)?/c|"
                          r"palladium(?:\s+hydroxide)?(?:/|\s+on\s+(?:activated\s+)?)"
                          r"(?:carbon|charcoal)|raney\s+nickel))\b")
# patent numbers, formulas of a mass spectrum: no compound of the procedure
_NOT_NAME = regex.compile(r"(?:wo|us|ep|jp|cn|kr)\d{6,}$|c\d+h\d+[a-z\d]*[+-]?$")
_NOT_NAME_FIRST = frozenset("wuejck")  # the letters _NOT_NAME starts with
_RATIO_CHARS = frozenset("0123456789.:")
# "a yellow solid 36-d (1.8 g, 91%)": the label a physical state carries before its bracket
_STATE_LABEL = regex.compile(r"\b(?:solid|oil|liquid|foam|gum|powder|crystals?|syrup|wax)\s"
                             r"(\d{1,4}-?[a-z])(?=\s?\()")
_STATE_WORDS = ("solid", "oil", "liquid", "foam", "gum", "powder", "crystal", "syrup", "wax")
_MATCH_START = operator.methodcaller("start")
_START = operator.attrgetter("start")
_CONTAINING = ("containing the ", "contains the ", "containing ")  # "fractions containing the
# desired compound": no product obtained


class CompoundFinder:
    """Compound spans: runs of chemical words (names split by spaces or brackets kept
    whole, "aqueous" kept before a name, an identifier after a name kept with it, a mixture
    "hexane-ethyl acetate" split into its names), the NER chemicals outside them, names
    glued to a ratio, and references to compounds."""

    def __init__(self, table: RoleTable):
        w = table.words
        self.known, self.strip = w["names"], w["name_prefixes"]
        self.not_compounds, self.supports = w["not_compounds"], w["supports"]
        self.heads, self.titles = w["reference_heads"], w["title_refs"]
        self.kept_before, self.tails = w["kept_modifiers"], w["name_tails"]
        self.strip_starts, self.known_starts = _prefixes(self.strip), _prefixes(self.known)
        self.tail_starts = (*self.tails, "aqueous")  # the words that may follow a name

    def __call__(self, ctx: RoleContext) -> list[Found]:
        """The compound and reference spans of a document, in text order."""
        low = ctx.lower_text
        runs, covered = self.names(ctx)
        if "=" in low:
            runs.extend(self.glued_to_ratio(ctx, covered))
        if "/c" in low or "palladium" in low or "raney" in low:
            runs = _catalysts(ctx.text, runs)
        runs.sort(key=_START)
        aqueous_text = "aq" in low
        for f in runs:
            self.extend(ctx, f, aqueous_text)
        out = runs
        if aqueous_text:
            _aqueous_alone(ctx, out)
        if "compound" in low or "intermediate" in low or "macrocy" in low:
            _labelled_references(ctx.text, low, out)
        _state_labels(low, out)
        if "compound" in low or "product" in low:
            self.title_phrases(ctx, out)
        self.mention_references(ctx, out)
        out.sort(key=_START)
        return out

    def names(self, ctx: RoleContext) -> tuple[list[Found], bytearray]:
        """The name runs (a leading "ice" or "DI" left out, a mixture split), the NER
        chemicals outside them and the known names outside both, and which characters they
        cover."""
        text, low = ctx.text, ctx.lower_text
        known, not_compounds = self.known, self.not_compounds
        runs: list[Found] = []
        for f in _name_runs(ctx, self.heads):
            if low.startswith(self.strip_starts, f.start, f.end):
                f = _strip(text, f, self.strip)
            # (a mixture starts with a known name)
            pieces = (_split_mixture(text, f, known)
                      if low.startswith(self.known_starts, f.start, f.end) else (f,))
            for g in pieces:
                name = low[g.start : g.end]
                if g.end > g.start and name not in not_compounds and not _not_a_name(name):
                    runs.append(g)
        covered = bytearray(len(text) + 1)
        for f in runs:
            covered[f.start : f.end] = b"\x01" * (f.end - f.start)
        for a, b in ctx.chemicals:
            if 1 not in covered[a:b]:
                name = low[a:b]
                if name in not_compounds or _not_a_name(name):
                    continue
                runs.append(Found(a, b, "compound"))
                covered[a:b] = b"\x01" * (b - a)
        names = _known_names(ctx, known, self.supports, covered)
        if names:
            runs = [f for f in runs
                    if not any(g.start <= f.start and f.end <= g.end for g in names)]
            runs.extend(names)
        return runs, covered

    def glued_to_ratio(self, ctx: RoleContext, covered: bytearray) -> list[Found]:
        """ "CH2Cl2=8:1", "MeOH:CH2Cl2=2:98": a known name glued to a ratio in one token."""
        text, low, known = ctx.text, ctx.lower_text, self.known
        out = []
        p = text.find("=")
        while p > 0:
            a = p
            while a > 0 and text[a - 1].isalnum():
                a -= 1
            if (a < p and text[a].isalpha() and low[a:p] in known and not covered[a]
                    and (a == 0 or not (text[a - 1] in ")]_" or text[a - 1].isalnum()))
                    and p + 1 < len(text) and text[p + 1] in _RATIO_CHARS):
                out.append(Found(a, p, "compound"))
            p = text.find("=", p + 1)
        return out

    def extend(self, ctx: RoleContext, f: Found, aqueous_text: bool) -> None:
        """Grow span ``f`` over the words that belong to its name: "di-" split off by the
        tokenizer, "aqueous" or a kept modifier before it, a tail word after it ("mineral
        oil"), "aqueous" after it, a trade mark, "(racemate)"."""
        text, low = ctx.text, ctx.lower_text
        start, end = f.start, f.end
        if start and low[start - 1] == "-":
            pre = _MULTIPLIER.search(low, max(0, start - 8), start)
            if pre is not None:
                f.start = start = pre.start()  # "di-" split off "di-tert-butyl dicarbonate"
        if start and text[start - 1].isspace():
            self.extend_before(low, f, start, aqueous_text)
        if low.startswith(self.tail_starts, end + 1):
            end = self.tail(text, f, end, aqueous_text)
        if text.startswith(("™", "®"), end):  # "Celite®", "Celite™ 545"
            end += 1
            if text[end : end + 4].startswith(" ") and text[end + 1 : end + 4].isdigit():
                end += 4
        if text.startswith(" (r", end):
            racemate = _RACEMATE.match(text, end)
            if racemate:
                end = racemate.end()
        f.end = end

    def extend_before(self, low: str, f: Found, start: int, aqueous_text: bool) -> None:
        """The word before ``f``: "aqueous X" (kept, split off later in a reaction) or a kept
        modifier ("concentrated sulfuric acid", "glacial acetic acid")."""
        w0 = low.rfind(" ", 0, start - 1) + 1
        word = low[w0 : start - 1]
        if aqueous_text and _is_aqueous(low, start):
            f.aqueous = start
            f.start = low.rindex("aq", 0, start)
        elif word in self.kept_before:
            f.core = start  # the name itself, for the rules
            f.start = w0
        elif (word[:-1] if word[-1:] == "\n" else word).endswith(_CHEMICAL_ENDS) and (
                _CHEMICAL_WORD.match(word)):
            f.start = w0  # "diethylaminosulfur trifluoride"

    def tail(self, text: str, f: Found, end: int, aqueous_text: bool) -> int:
        """The end of ``f`` with its tail words ("mineral oil", "Burgess reagent", "zinc
        powder") and an "aqueous" after them ("NaHCO3 aqueous (solution)")."""
        tails = self.tails
        tail = _WORD_AFTER.match(text, end)
        while tail and tail.group(1).lower() in tails:
            end = tail.end(1)
            tail = _WORD_AFTER.match(text, end)
        if aqueous_text and tail and f.aqueous < 0 and tail.group(1).lower() == "aqueous" and (
                _AQUEOUS_AFTER.match(text, end)):
            f.aqueous_tail = end
            end = tail.end(1)
        return end

    def title_phrases(self, ctx: RoleContext, out: list[Found]) -> None:
        """ "the title compound" and the other title references wherever they stand ("the
        title compound in white color (6.0 g)", "2.28 g (63%) of the title compound"); a
        name right after one joins it ("the title compound NAME 4c": one span)."""
        text, low = ctx.text, ctx.lower_text
        by_start = {f.start: f for f in out if f.kind == "compound"}
        for phrase in self.titles:
            at = low.find(phrase)
            while at >= 0:
                f = by_start.get(at + len(phrase) + 1)
                if f is not None:
                    f.start, f.kind = at, "reference"
                elif _WORDCHAR(text[at - 1 : at]) or _WORDCHAR(text[at + len(phrase) :][:1]):
                    pass  # inside a longer word
                elif not low.endswith(_CONTAINING, 0, at) and not any(
                        g.start < at + len(phrase) and at < g.end for g in out):
                    out.append(Found(at, at + len(phrase), "reference"))
                at = low.find(phrase, at + 1)

    def mention_references(self, ctx: RoleContext, out: list[Found]) -> None:
        """The reference and state mentions (chemie_mentions) where no span is: "compound
        22" -> "22", "a white solid" -> "solid"; a title reference with a name after it
        becomes one span with the name."""
        taken = None
        starts: dict[int, Found] = {}
        low, titles = ctx.lower_text, self.titles
        for m in ctx.mentions:
            kind = m.kind
            if (kind != "reference" and kind != "state") or m.core is None:
                continue
            ca, cb = _core_chars(ctx, m)
            ref = (_reference_span(ctx, m, ca, cb, titles) if kind == "reference"
                   else _state_span(ctx, m))
            if ref is None:
                continue
            if taken is None:
                taken = _taken(out, starts, len(ctx.text))
            title = _title_prefix(low[ref.start : ref.end], titles)
            after = starts.get(ref.start + title + 1) if title else None
            if after is not None:
                after.start = ref.start  # "the title compound NAME 4c": one span
                after.kind = "reference"
                taken[ref.start : after.end] = b"\x01" * (after.end - ref.start)
            elif 1 not in taken[ref.start : ref.end]:
                out.append(ref)
                taken[ref.start : ref.end] = b"\x01" * (ref.end - ref.start)


def _taken(out: list[Found], starts: dict[int, Found], n: int) -> bytearray:
    """Which of the ``n`` characters the spans of ``out`` cover; fills ``starts`` (start ->
    the first compound span starting there)."""
    taken = bytearray(n + 1)
    for f in out:
        taken[f.start : f.end] = b"\x01" * (f.end - f.start)
        if f.kind == "compound":
            starts.setdefault(f.start, f)
    return taken


def _catalysts(text: str, runs: list[Found]) -> list[Found]:
    """``runs`` with each supported or named catalyst ("10% Pd/C", "palladium on carbon",
    "Raney nickel") in place of the spans it overlaps."""
    for m in _CATALYST.finditer(text):
        runs = [f for f in runs if not (f.start < m.end() and m.start() < f.end)]
        runs.append(Found(m.start(), m.end(), "compound", core=m.start(1)))
    return runs


def _aqueous_alone(ctx: RoleContext, out: list[Found]) -> None:
    """Add "aqueous" before "solution" ("an aqueous solution of X") and "aq" apart from the
    name it qualifies ("aq. sat. NaHCO3", "(10% aq)") where no span starts."""
    if "aqueous" in ctx.lower_text:
        for m in _AQUEOUS_ALONE.finditer(ctx.text):
            if not any(f.start <= m.start() < f.end for f in out):
                out.append(Found(m.start(), m.end(1), "compound"))
    for m in _AQ_ALONE.finditer(ctx.lower_text):
        if not any(f.start <= m.start() < f.end for f in out):
            out.append(Found(m.start(), m.end(), "compound"))


def _state_labels(low: str, out: list[Found]) -> None:
    """Add the label a physical state carries before its bracket ("a yellow solid 36-d (1.8
    g, 91%)") where no span is (the pattern tried where a state word stands: scanning the
    whole text with it costs thirty times more)."""
    found = []
    for word in _STATE_WORDS:
        at = low.find(word)
        while at >= 0:
            m = _STATE_LABEL.match(low, at)
            if m is not None:
                found.append(m)
            at = low.find(word, at + 1)
    found.sort(key=_MATCH_START)
    for m in found:
        if not any(f.start < m.end(1) and m.start(1) < f.end for f in out):
            out.append(Found(m.start(1), m.end(1), "reference"))


def _not_a_name(name: str) -> bool:
    """Whether a lowercased candidate name is no compound: a patent number, a formula of a
    mass spectrum, or one English adjective in "-ic" ("chromatographic", "biphasic",
    "endothermic": words a chemical dictionary holds; a compound in "-ic" is "X-ic acid")."""
    if name[-2:] == "ic" and len(name) > 5 and name.isalpha():
        return True
    return name[:1] in _NOT_NAME_FIRST and _NOT_NAME.match(name) is not None


def _known_names(ctx: RoleContext, known: frozenset[str], marked: frozenset[str],
                 covered: bytearray) -> list[Found]:
    """Known names (the ``names`` word list) that no other span holds: a token that is one
    ("Hex" in "(Hex/EA = 3/1)"), or a token that is a mixture of them ("n-Hex/EA",
    "n-hexane/EtOAc"), split into its names; a word of ``marked`` with a trade mark fused to
    the punctuation after it ("Celite®.")."""
    out: list[Found] = []
    tokens = ctx.tokens
    idx, words, ends, lower = tokens.idx, tokens.text, ctx.ends, tokens.lower
    last = len(words) - 1
    # the candidate tokens: known names, and tokens with a slash or colon
    candidates = set(compress(range(len(lower)), map(known.__contains__, lower)))
    text = ctx.text
    for sep in "/:®™":
        at = text.find(sep)
        while at >= 0:
            candidates.add(bisect.bisect_right(idx, at) - 1)
            at = text.find(sep, at + 1)
    candidates.discard(-1)
    for i in sorted(candidates):
        low = lower[i]
        a = idx[i]
        if covered[a]:
            continue
        if low in known:
            out.append(Found(a, a + len(low), "compound"))
        elif (low.endswith(_MARKS) or low.endswith(_MARKS_DOT)) and (
                low.rstrip(".,")[:-1] in marked):
            # "Celite®." read as one token: the support with its mark
            out.append(Found(a, a + len(low.rstrip(".,")), "compound"))
        elif ("/" in low or ":" in low) and low[:1].isalpha():
            pieces = _pieces(words[i], known)
            if pieces is None and i < last and idx[i + 1] == ends[i] + 1:
                # "n-hexane/ethyl acetate": the last name ends in the next token
                pieces = _pieces(ctx.text[a : ends[i + 1]], known)
            if pieces is not None and len(pieces) > 1:
                at = a
                for piece in pieces:
                    start = ctx.text.index(piece, at)
                    out.append(Found(start, start + len(piece), "compound"))
                    at = start + len(piece)
    return out


def _is_aqueous(low: str, start: int) -> bool:
    """Whether "aqueous " / "aq " / "aq. " (a whole word) stands right before ``start``."""
    for word in ("aqueous", "aq"):
        a = start - 1 - len(word)
        if a >= 0 and low.startswith(word, a) and (a == 0 or not _WORDCHAR(low[a - 1])):
            return True
    return False


def _WORDCHAR(c: str) -> bool:
    return c.isalnum() or c == "_"


def _title_prefix(text: str, titles: frozenset[str]) -> int:
    """The length of the title reference that ``text`` starts with ("title compound"), or 0."""
    words = text.lower().split()
    for n in (2, 3):
        head = " ".join(words[:n])
        if head in titles and len(words) >= n:
            return len(head)
    return 0


# "compound 38-c", "Compound No. 5": the label; "Intermediate E", "macrocycle C": whole
_COMPOUND_LABEL = regex.compile(
    r"(?i:\b(compounds?\s+(?:no\.\s*)?)|\b(?:intermediate|macrocycle|macrocyle)\s+)"
    r"(?-i:([0-9]{1,4}[A-Za-z]?(?:-[0-9A-Za-z]{1,4})?|[A-Z]{1,3}[0-9]{0,3}[a-z]?|[a-z]))"
    r"(?![\w-])")
# "the compound from Ex. 164A": two entities, "compound from Ex." and the label
_FROM_EX = regex.compile(r"(?i)\b(compounds?\s+from\s+ex\.)\s+([0-9]{1,4}[A-Z]?)\b")


def _labelled_references(text: str, low: str, out: list[Found]) -> None:
    """Add the references by label the mentions leave out ("a solution of compound 38-c",
    "Intermediate E"), where no other span is."""
    taken = bytearray(len(text) + 1)
    for f in out:
        taken[f.start : f.end] = b"\x01" * (f.end - f.start)
    found = []
    if "from ex." in low:
        for m in _FROM_EX.finditer(text):
            found += [Found(m.start(1), m.end(1), "reference"),
                      Found(m.start(2), m.end(2), "reference")]
    if "from example" in low:
        # "a solution of 200 mg of the compound from Example 99A in DMF": the whole reference
        found += [Found(m.start(), m.end(), "reference") for m in _FROM_EXAMPLE.finditer(text)]
    for word in ("compound", "intermediate", "macrocy"):
        at = low.find(word)
        while at >= 0:
            m = _COMPOUND_LABEL.match(text, at)
            if m is not None:
                a = m.start(2) if m.group(1) else m.start()
                found.append(Found(a, m.end(2), "reference"))
            at = low.find(word, at + 1)
    found.sort(key=_START)
    for f in found:
        if 1 not in taken[f.start : f.end]:
            out.append(f)
            taken[f.start : f.end] = b"\x01" * (f.end - f.start)


def _state_span(ctx: RoleContext, m: Mention) -> Found | None:
    """The head word of a physical state ("a pale brown solid" -> "solid"), a candidate
    product of the step that gives it."""
    head = m.head
    text = ctx.text
    # "200mg of a white solid with a yield of 52.2%": the core ends at the head, the mention
    # after it
    end = ctx.ends[m.core[1]] if m.core is not None else m.end
    while end > m.start and not text[end - 1].isalnum():
        end -= 1
    start = end - len(head)
    if not head or text[start:end].lower() != head:
        return None
    return Found(start, end, "state")


# a word between two pieces of one name in a heading: with a digit, bracket, comma or dash
# ("ethylamino)", "[4,3", "d]", ",9-tetrahydro"), a substituent ("ethyl"), or one to three
# letters ("and", "d"); an English word of four letters or more ends the name
_NAME_GAP_WORD = regex.compile(r"(?:.*[\d()\[\],'\-].*|[A-Za-z]{1,3}|[a-z]+(?:yl|o|amino|oxy))$")
# (not a concentration: "NaOH (2M, 75 mL)")
def merge_heading_names(text: str, compounds: list[Found], heading: int,
                        known: frozenset[str]) -> list[Found]:
    """Join the pieces of a name the heading holds split by odd spaces ("tert butyl
    (2S,4S)-...", "...-3-yl) ethylamino) pyrimidine", "pyrazolo [4,3 - d]pyrimidine"); a
    known name after it ("... Isopropanol") starts the procedure."""
    out: list[Found] = []
    for f in compounds:
        prev = out[-1] if out else None
        if (prev is not None and f.end <= heading and prev.kind == f.kind == "compound"
                and f.start - prev.end <= 40 and _name_gap(text[prev.end : f.start])
                and text[f.start : f.end].lower() not in known):
            prev.end = f.end
            continue
        out.append(f)
    return out


def _name_gap(gap: str) -> bool:
    """Whether ``gap`` can sit inside one name (no round bracket of a label, no sentence)."""
    words = gap.split()
    if not words:
        return True
    if gap.lstrip().startswith("(") and not any(c.isdigit() for c in gap):
        return False  # "NAME (racemate)", "NAME (Compound 2)"
    return all(_NAME_GAP_WORD.match(w) for w in words)


def _balanced(text: str) -> bool:
    """Whether every bracket of ``text`` is closed in it (and none closed before opened)."""
    depth = 0
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def _strip(text: str, f: Found, prefixes: frozenset[str]) -> Found:
    """``f`` without a leading word of ``prefixes`` ("ice water", "ice-water", "DI water")."""
    while True:
        word = _FIRST_WORD.match(text, f.start, f.end)
        if word is None or word.group()[:-1].lower() not in prefixes:
            return f
        f.start += len(word.group())


def _pieces(part: str, known: frozenset[str]) -> list[str] | None:
    """``part`` split at slashes, colons and dashes into known names, or None."""
    if part.lower() in known:
        return [part]
    for m in _JOINS.finditer(part):
        head, tail = part[: m.start()], part[m.end() :]
        if head.lower() in known:
            rest = _pieces(tail, known)
            if rest is not None:
                return [head, *rest]
    return None


@functools.cache
def _prefixes(known: frozenset[str]) -> tuple[str, ...]:
    """``known`` as a tuple, for ``str.startswith``."""
    return tuple(sorted(known))


def _split_mixture(text: str, f: Found, known: frozenset[str]) -> list[Found]:
    """A run naming a mixture of known names ("hexane-ethyl acetate", "n-hexane/ethyl
    acetate") as one span per name."""
    part = text[f.start : f.end]
    if not part.lower().startswith(_prefixes(known)) or not _JOINS.search(part):
        return [f]  # a mixture starts with a known name
    pieces = _pieces(part, known)
    if pieces is None or len(pieces) < 2:
        return [f]
    out, at = [], f.start
    for p in pieces:
        a = text.index(p, at)
        out.append(Found(a, a + len(p), "compound"))
        at = a + len(p)
    return out


def _name_runs(ctx: RoleContext, heads: frozenset[str]) -> list[Found]:
    """The runs of name tokens in the class string, as compound spans (tokens of a run are
    at most one space apart; reference heads such as "COMPOUND" are no name tokens)."""
    cs = _name_classes(ctx, heads)
    out: list[Found] = []
    if not cs:
        return out
    idx, ends, words, lower = ctx.tokens.idx, ctx.ends, ctx.tokens.text, ctx.tokens.lower
    for m in _NAME_RUN.finditer(cs):
        first, last = m.start(), m.end() - 1
        # split where tokens are further apart than one space, or where one whole name
        # ends a token and another starts the next
        start = first
        for i in range(first, last):
            if idx[i + 1] - ends[i] > 1 or (
                    len(words[i]) > 8 and lower[i].endswith(_COMPLETE)
                    and _NEXT_NAME.match(words[i + 1])):
                _add_run(ctx, cs, start, i, out)
                start = i + 1
        _add_run(ctx, cs, start, last, out)
    return out


def _name_classes(ctx: RoleContext, heads: frozenset[str]) -> str:
    """The class string with the "other" tokens (X) that read as names made name tokens (C)
    and the reference heads ("compound") made words (W)."""
    cs, words, lower = ctx.classes, ctx.tokens.text, ctx.tokens.lower
    if "X" not in cs and heads.isdisjoint(lower):
        return cs
    chars = list(cs)
    i = cs.find("X")
    while i >= 0:
        if _NAME_LIKE.match(words[i]):
            chars[i] = "C"
        i = cs.find("X", i + 1)
    for i in compress(range(len(lower)), map(heads.__contains__, lower)):
        chars[i] = "W"
    return "".join(chars)


def _add_run(ctx: RoleContext, cs: str, start: int, end: int, out: list[Found]) -> None:
    """Add the name of tokens ``start..end`` (inclusive) to ``out``: brackets around it left
    out, the identifier after it kept ("... carboxamide I-1", "phenol 3b"); a run whose
    first word has no letter is none."""
    idx, ends, words = ctx.tokens.idx, ctx.ends, ctx.tokens.text
    while end > start and cs[end] == "-":
        end -= 1
    if cs[start] == "-" and not _balanced(ctx.text[idx[start] : ends[end]]):
        start += 1  # a bracket before the name, not its "(E)-" or "[(4R)-"
    if start > end:
        return
    b = ends[end]
    if cs[end] == "V":  # "carbonate(24.4": the name before its bracket
        b = idx[end] + words[end].index("(")
    if end + 1 < len(cs) and cs[end + 1] == "Z" and idx[end + 1] - b == 1 and (
            end + 2 >= len(cs) or cs[end + 2] not in "CZ"):
        b = ends[end + 1]
    word = words[start]
    lettered = _LETTERED.get(word)
    if lettered is None:
        if len(_LETTERED) >= _CACHE_LIMIT:
            _LETTERED.clear()
        lettered = _LETTERED[word] = _LETTER.search(word) is not None
    if lettered:
        out.append(Found(idx[start], b, "compound"))


def _core_chars(ctx: RoleContext, m: Mention) -> tuple[int, int]:
    first, last = m.core  # type: ignore[misc]
    return ctx.tokens.idx[first], ctx.ends[last]


def _reference_span(ctx: RoleContext, m: Mention, ca: int, cb: int,
                    titles: frozenset[str]) -> Found | None:
    """The span of a reference mention: the label of "compound 22", the whole "compound from
    Example 5", "Intermediate 3-a", or "title compound" without determiner or adjectives."""
    text = ctx.text
    core = text[ca:cb]
    ex = _EXAMPLE_REF.match(core)
    if ex:
        return Found(ca + ex.start(1), ca + ex.end(1), "reference")
    words = core.split()
    head = m.head
    if head == "example":
        return None
    if len(words) >= 3 and words[-2].lower() in ("no.", "no") and (
            words[-3].lower() in _NUMBER_HEADS):
        words = words[:-2] + words[-1:]
    if len(words) >= 2 and words[-2].lower() in _NUMBER_HEADS and _IDENT.match(words[-1]):
        label = _IDENT.match(words[-1])
        start = cb - len(words[-1]) + label.start(1)
        return Found(start, start + len(label.group(1)), "reference")
    # "a total of 7.42 g (77%) of the title compound": the reference at the end
    low = ctx.lower_text[ca:cb]
    for phrase in titles:
        if low.endswith(phrase) and len(low) > len(phrase):
            return Found(cb - len(phrase), cb, "reference")
    # drop leading adjectives, determiners and amounts ("the white title compound",
    # "694mg pure compound")
    start = ca
    for w in words[:-1]:
        if w.lower() not in _DROP_MODIFIERS and not _AMOUNT_WORD.match(w):
            break
        start = text.index(w, start) + len(w)
        while start < cb and text[start].isspace():
            start += 1
    return Found(start, cb, "reference")
