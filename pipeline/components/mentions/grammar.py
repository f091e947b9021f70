"""The grammar of mentions: regex fragments over the class string and the mention pattern."""

from __future__ import annotations

import re

_IN = "WCGEKZNUAXV"
CORE = rf"(?=[Dbnk{_IN}])(?:D?[bnk]|D)?(?:[{_IN}]|[/-](?=[{_IN}])|#+(?=[NZ]))*"
# Speed guards (necessary conditions checked before a costly branch; they change no match):
# what a core (with its joiners) can consume: a determiner or name start, then core classes
RUN = rf"(?:D?[bnk]|D)?[{_IN}/#-]*"
# every branch of the mention pattern starts at one of these classes (a determiner, a core
# class, a lead amount, "Yield"): the search tests it before trying the branches
START = rf"(?=[Dbnk{_IN}Y])"
# a ratio branch needs "=", ":", "/" or "(" right after (or inside) the core run
RATIO_GUARD = rf"(?=(?:D?[bnk]|D)?[{_IN}#-]*[=:/(])"
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
# (the run of name classes is taken whole, as by an atomic group: the lookahead captures it and
# the backreference consumes it, so a failed bracket is not retried after every shorter run)
FUSED_QUANTITY = (
    rf"(?P<fused>D?(?=[W{_IN}]*V)(?=(?P<fusedrun>[W{_IN}]*))(?P=fusedrun)[^().]*\))"
)
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
