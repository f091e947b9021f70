"""Reaction schemes for ``chemie show``: each reaction drawn as reactants → products, with
its reagents, catalysts and solvents over the arrow and its conditions under it.

Every structure is an RDKit depiction (inline SVG, so the page stays self-contained) with
the component's name under it; a component without a structure is its name in a dashed
box, the reason on hover. The scheme is HTML laid out by the browser (flex boxes that wrap
within the pane), so a long reaction never overflows: it continues on the next line. The
title of each figure says role, rule, how the structure was resolved and its SMILES.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence

from chemie.reactions.model import Component, Reaction

SIZE = (180, 140)  # px: reactants and products
SMALL = (110, 85)  # px: over the arrow
_HEADER = re.compile(r"<\?xml[^>]*>\s*|<!--.*?-->\s*")
_VERBOSE = re.compile(r" class='[^']*'|;?fill-rule:evenodd|;stroke-linecap:butt|"
                      r";stroke-linejoin:miter|;stroke-opacity:1|;fill-opacity:1")


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


@functools.lru_cache(maxsize=4096)
def depict(smiles: str, width: int, height: int) -> str | None:
    """An RDKit SVG depiction of ``smiles`` (transparent, without the XML header and the
    per-atom classes), or None when RDKit cannot read or draw it."""
    from rdkit.Chem.Draw import rdMolDraw2D

    from chemie.structures.chem import parse

    mol = parse(smiles)
    if mol is None:
        return None
    try:
        drawer = rdMolDraw2D.MolDraw2DSVG(width, height)
        drawer.drawOptions().clearBackground = False
        rdMolDraw2D.PrepareAndDrawMolecule(drawer, mol)
        drawer.FinishDrawing()
    except Exception:  # RDKit raises a few C++ errors instead of returning
        return None
    return _VERBOSE.sub("", _HEADER.sub("", drawer.GetDrawingText())).strip()


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
    """One component: its depiction (or a dashed box with the reason) and its name under
    it, with the name a reference resolved through (``= NAME``) and ``note`` (a product's
    yield)."""
    width, height = SMALL if small else SIZE
    s = c.structure
    drawing = depict(c.smiles, width, height) if c.smiles else None
    classes = ["mol"] + (["small"] if small else []) + ([] if drawing else ["none"])
    if drawing is None:
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


def scheme(r: Reaction) -> str:
    """One reaction as a ``<figure class="scheme">``."""
    over = [molecule(c, small=True) for c in (*r.reagents, *r.catalysts, *r.solvents)]
    under = _conditions(r)
    arrow = (f'<div class="arrow">{"".join(over)}<span class="line"></span>'
             + (f'<span class="cond">{_esc(under)}</span>' if under else "") + "</div>")
    reactants = _joined([molecule(c) for c in r.reactants])
    note = _yield(r)
    products = _joined([molecule(c, note=note if i == 0 else "")
                        for i, c in enumerate(r.products)])
    return (f'<figure class="scheme" data-reaction="{_esc(r.id)}">'
            f'<figcaption>{_esc(r.id)} <span class="rule">{_esc(r.rule)}</span></figcaption>'
            f'<div class="rx">{reactants}{arrow}{products}</div></figure>')


def schemes(reactions: Sequence[Reaction]) -> str:
    """The schemes of a document's reactions, in text order (empty for none)."""
    return "".join(scheme(r) for r in reactions)
