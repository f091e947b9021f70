"""Reaction schemes for ``chemie show``: each reaction drawn as reactants → products, with
its reagents, catalysts and solvents over the arrow and its conditions under it.

Every structure is an RDKit depiction (inline SVG, so the page stays self-contained) with
the component's name under it, all drawn at one scale (a fixed bond length, the canvas
sized to the molecule: water is small and a product large, as on paper); a component
without a structure is its name in a dashed box, the reason on hover. A catalyst, and any
metal complex written as a metal atom with its ligands (Pd(PPh3)4), is one labelled box:
its name and role, not a drawing of its pieces. Each species is drawn once per scheme (a
solvent named twice, a reagent that is also a reactant: the first place it has). The
scheme is HTML laid out by the browser (flex boxes that wrap within the pane), so a long
reaction never overflows: it continues on the next line. The title of each figure says
role, rule, how the structure was resolved and its SMILES.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence

from chemie.model.reaction import Component, Reaction

BOND = 18  # px: the length of a bond in every drawing (one scale for every species)
MAX_SIZE = (360, 260)  # px: a larger molecule is scaled down to fit
_HEADER = re.compile(r"<\?xml[^>]*>\s*|<!--.*?-->\s*")
_VERBOSE = re.compile(r" class='[^']*'|;?fill-rule:evenodd|;stroke-linecap:butt|"
                      r";stroke-linejoin:miter|;stroke-opacity:1|;fill-opacity:1")


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


@functools.lru_cache(maxsize=4096)
def depict(smiles: str) -> str | None:
    """An RDKit SVG depiction of ``smiles`` at :data:`BOND` px per bond on a canvas sized to
    the molecule (at most :data:`MAX_SIZE`; transparent, without the XML header and the
    per-atom classes), or None when RDKit cannot read or draw it."""
    from rdkit.Chem.Draw import rdMolDraw2D

    from chemie.structures.chem import parse

    mol = parse(smiles)
    if mol is None:
        return None
    try:
        drawer = rdMolDraw2D.MolDraw2DSVG(-1, -1)  # a canvas the size of the drawing
        options = drawer.drawOptions()
        options.clearBackground = False
        options.fixedBondLength = BOND
        rdMolDraw2D.PrepareAndDrawMolecule(drawer, mol)
        drawer.FinishDrawing()
        svg = drawer.GetDrawingText()
        if drawer.Width() > MAX_SIZE[0] or drawer.Height() > MAX_SIZE[1]:
            drawer = rdMolDraw2D.MolDraw2DSVG(*MAX_SIZE)
            drawer.drawOptions().clearBackground = False
            rdMolDraw2D.PrepareAndDrawMolecule(drawer, mol)
            drawer.FinishDrawing()
            svg = drawer.GetDrawingText()
    except Exception:  # RDKit raises a few C++ errors instead of returning
        return None
    return _VERBOSE.sub("", _HEADER.sub("", svg)).strip()


def _transition_metal(fragment: str) -> bool:
    """Whether a SMILES fragment is a lone transition-metal atom (``[Pd]``, ``[Cu+2]``)."""
    from chemie.structures.chem import parse

    mol = parse(fragment) if fragment.startswith("[") and fragment.endswith("]") else None
    if mol is None or mol.GetNumAtoms() != 1:
        return False
    z = mol.GetAtomWithIdx(0).GetAtomicNum()
    return 21 <= z <= 30 or 39 <= z <= 48 or 57 <= z <= 80


def labelled(c: Component) -> bool:
    """Whether ``c`` is shown as one labelled box, not drawn: a catalyst, or a metal complex
    written as a lone metal atom and at least two more fragments (Pd(PPh3)4)."""
    if c.role == "catalyst":
        return True
    fragments = (c.smiles or "").split(".")
    return len(fragments) >= 3 and any(_transition_metal(f) for f in fragments)


def _title(c: Component) -> str:
    parts = [c.name, f"{c.role} (rule: {c.rule})"]
    s = c.structure
    if s is None:
        parts.append("structure: not resolved (structures off)")
    else:
        parts.append(f"structure: {s.label}")
        if s.smiles:
            parts.append(s.smiles)
    return "\n".join(parts)


def molecule(c: Component, small: bool = False, note: str = "") -> str:
    """One component: its depiction (or a dashed box with the reason; a catalyst or metal
    complex: a box with its role, see :func:`labelled`) and its name under it, with the
    name a reference resolved through (``= NAME``) and ``note`` (a product's yield).
    ``small``: over the arrow (the same scale; only its caption is smaller)."""
    s = c.structure
    boxed = labelled(c)
    drawing = depict(c.smiles) if c.smiles and not boxed else None
    classes = ["mol"] + (["small"] if small else []) + (["boxed"] if boxed else []) + (
        [] if drawing or boxed else ["none"])
    if boxed:
        drawing = f'<span class="item">{_esc(c.role)}</span>'
    elif drawing is None:
        why = "no structure" if s is None else (s.reason or s.kind or "no structure")
        drawing = f'<span class="nostruct">{_esc(why)}</span>'
    via = s.via if s is not None and s.how == "coreference" and s.via else ""
    extra = (f'<span class="via">= {_esc(via)}</span>' if via else "") + (
        f'<span class="note">{_esc(note)}</span>' if note else "")
    return (f'<figure class="{" ".join(classes)}" data-role="{_esc(c.role)}" '
            f'title="{_esc(_title(c))}">{drawing}<figcaption>{_esc(c.name)}{extra}'
            "</figcaption></figure>")


def _joined(parts: Sequence[str]) -> str:
    return '<span class="plus">+</span>'.join(parts)


def _conditions(r: Reaction) -> str:
    c = r.conditions
    return ", ".join(x.text for kind in (c.temperature, c.time, c.atmosphere, c.pressure)
                     for x in kind)


def _yield(r: Reaction) -> str:
    y = r.yield_
    if y.percent is not None:
        return f"{y.percent:g}%"
    return y.mass.text if y.mass is not None else ""


def _species(c: Component) -> str:
    """What makes two components the same species in a scheme: the structure, else the
    name."""
    return c.smiles or " ".join(c.name.lower().split())


def _once(components: Sequence[Component], seen: set[str]) -> list[Component]:
    """``components`` without the species in ``seen`` or named earlier (``seen`` grows)."""
    out = []
    for c in components:
        if _species(c) not in seen:
            seen.add(_species(c))
            out.append(c)
    return out


def scheme(r: Reaction) -> str:
    """One reaction as a ``<figure class="scheme">``, each species drawn once: reactants,
    then products, then what goes over the arrow (reagents, catalysts, solvents)."""
    seen: set[str] = set()
    reactants, products = _once(r.reactants, seen), _once(r.products, seen)
    over = [molecule(c, small=True)
            for c in _once([*r.reagents, *r.catalysts, *r.solvents], seen)]
    under = _conditions(r)
    arrow = (f'<div class="arrow">{"".join(over)}<span class="line"></span>'
             + (f'<span class="cond">{_esc(under)}</span>' if under else "") + "</div>")
    note = _yield(r)
    products_html = _joined([molecule(c, note=note if i == 0 else "")
                             for i, c in enumerate(products)])
    return (f'<figure class="scheme" data-reaction="{_esc(r.id)}">'
            f'<figcaption>{_esc(r.id)} <span class="rule">{_esc(r.rule)}</span></figcaption>'
            f'<div class="rx">{_joined([molecule(c) for c in reactants])}{arrow}'
            f'{products_html}</div></figure>')


def schemes(reactions: Sequence[Reaction]) -> str:
    """The schemes of a document's reactions, in text order (empty for none)."""
    return "".join(scheme(r) for r in reactions)
