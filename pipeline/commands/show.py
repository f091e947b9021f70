"""``chemie show INPUT [-o page.html|FOLDER] [--gold FILE] [--no-run]``: HTML visualisation."""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

from chemie.cliutil import refuse_overwrite
from chemie.errors import InputError, atomic_write
from chemie.model import Document

DESCRIPTION = """\
Render mentions (coloured by kind, with their CHEMDNER class) and anaphoric relations
(arcs from anaphor to antecedent, rule names on hover) as a self-contained HTML page; the
reaction roles and step triggers (ChEMU 2020 labels) as a second view of each text (a
switch in the header, a legend for each view); and each reaction's scheme (RDKit
depictions, reactants -> products with reagents, catalysts and solvents over the arrow,
names under the structures) above its text.

INPUT is a ChEMU-Ref .jsonl file, the output of `chemie run --format json`, USPTO
paragraphs (.jsonl with id, title, text), the output of `chemie reactions` (JSON lines),
a brat folder, a .ann file or a .txt file. Unless the input already carries predictions
(rule names), the chemie pipeline runs on its text, reactions and roles included (the
structures need Java for OPSIN; --no-structures draws schemes of names only); --no-run
shows the input's own annotations instead (e.g. gold). The records of `chemie reactions`
carry no text: given as INPUT they are shown as schemes and tables of components, one
section per document; given with --reactions FILE beside a text INPUT they are drawn above
the texts of the same document ids (no reactions are found then, no Java is needed). With
--gold FILE the predictions are shown beside the gold, false positives and false negatives
marked (exact match of label and spans); a ChEMU 2020 brat gold (every mention a ChEMU 2020
label, no relations) is compared in the roles view, each label in its colour.

Output: -o NAME.html writes one page (a table of contents first when there are several
documents); -o FOLDER (any other name) writes FOLDER/index.html plus one page per
document (better for large inputs); without -o the single page goes to standard output.
Untyped mentions (label ENTITY without a kind: brat, ChEMU-Ref) are coloured by the kind
the pipeline's mention describer gives their head word; a gold mention with the same spans
as a shown one takes its kind, so that it has the same colour on both sides.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "show",
        help="HTML visualisation of mentions and relations (optionally against gold)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("input", type=Path, help=".jsonl, .txt, .ann or brat folder")
    p.add_argument("-o", "--output", type=Path, help="NAME.html (one page) or a folder")
    p.add_argument("--gold", type=Path, help="gold .jsonl, .ann/.txt or brat folder")
    p.add_argument(
        "--no-run", action="store_true", help="show the input's own annotations, do not run"
    )
    p.add_argument("--doc", action="append", metavar="ID", help="only this document (repeatable)")
    p.add_argument("--limit", type=int, metavar="N", help="only the first N documents")
    p.add_argument("--title", help="page title (default: the input's name)")
    p.add_argument(
        "--reactions", type=Path, metavar="JSONL",
        help="draw the reactions of this `chemie reactions` output above the texts",
    )
    p.add_argument(
        "--no-structures", action="store_true",
        help="reaction schemes without structures (no Java needed)",
    )
    p.set_defaults(func=run)


def _select(args: argparse.Namespace) -> list[Document]:
    from chemie.show.inputs import read_inputs

    docs = read_inputs(args.input)
    if args.doc:
        wanted = set(args.doc)
        docs = (d for d in docs if d.id in wanted)
    if args.limit is not None:
        if args.limit < 1:
            raise InputError(None, None, "--limit must be at least 1")
        docs = itertools.islice(docs, args.limit)
    selected = list(docs)
    shown = {d.id for d in selected}
    unknown = ", ".join(repr(i) for i in dict.fromkeys(args.doc or ()) if i not in shown)
    if unknown and not selected:
        raise InputError(args.input, None, f"no document with the id {unknown}")
    if unknown and args.limit is None:  # (with --limit, it may only be cut off)
        print(f"chemie: warning: {args.input}: no document with the id {unknown}",
              file=sys.stderr)
    if not selected:
        raise InputError(args.input, None, "no documents to show")
    return selected


def _gold(path: Path, docs: list[Document]) -> dict[str, Document]:
    """The gold documents of the shown ones, coloured like them where the mentions agree."""
    from chemie.show.inputs import borrow_kinds, read_inputs, roles_from_labels, with_kinds

    pred = {d.id: d for d in docs}
    gold = [borrow_kinds(g, pred[g.id]) for g in read_inputs(path) if g.id in pred]
    return {g.id: roles_from_labels(g) for g in with_kinds(gold)}


def _read_paths(path: Path | None) -> list[Path]:
    """The files ``chemie show`` reads for an input: the file, and the ``.txt`` or ``.ann``
    beside a ``.ann`` or ``.txt``."""
    if path is None:
        return []
    if path.suffix.lower() in (".txt", ".ann"):
        return [path, path.with_suffix(".ann" if path.suffix.lower() == ".txt" else ".txt")]
    return [path]


def _predicted(args: argparse.Namespace, docs: list[Document]) -> list[Document]:
    """The documents to show: the input's own (records of ``chemie reactions``, predictions,
    ``--no-run``) or the pipeline's, with the reactions of ``--reactions FILE`` when given."""
    from chemie.commands.common import build_nlp
    from chemie.show.inputs import has_predictions, read_reactions_file, run_pipeline

    records_only = all(d.meta.get("format") == "reactions" for d in docs)
    if not (records_only or args.no_run or has_predictions(docs)):
        config = None if args.reactions else {"structures": not args.no_structures}
        docs = list(run_pipeline(docs, build_nlp(), config))
    if args.reactions:
        records = read_reactions_file(args.reactions)
        for d in docs:
            d.reactions = records.get(d.id, [])
        if records and not any(d.id in records for d in docs):
            ids = ", ".join(list(records)[:3]) + (" …" if len(records) > 3 else "")
            print(f"chemie: warning: {args.reactions}: no shown document has the id of one "
                  f"of its reactions ({ids}): no schemes drawn", file=sys.stderr)
    return docs


def run(args: argparse.Namespace) -> int:
    from chemie.show.inputs import roles_from_labels, with_kinds
    from chemie.show.render import render_page, render_site

    inputs = [*_read_paths(args.input), *_read_paths(args.gold), *_read_paths(args.reactions)]
    refuse_overwrite([args.output], inputs)
    docs = [roles_from_labels(d) for d in with_kinds(_predicted(args, _select(args)))]
    gold = _gold(args.gold, docs) if args.gold else {}
    if args.gold and not gold:
        raise InputError(args.gold, None, "none of the shown documents is in the gold file")
    pairs = [(d, gold.get(d.id) if args.gold else None) for d in docs]
    title = args.title or f"chemie show: {args.input.name}"
    out = args.output
    if out is None:
        sys.stdout.write(render_page(pairs, title))
    elif out.suffix.lower() in (".html", ".htm"):
        with atomic_write(out) as fh:
            fh.write(render_page(pairs, title))
    else:
        if out.exists() and not out.is_dir():
            raise InputError(out, None, "exists and is not a folder (use NAME.html for a page)")
        site = render_site(pairs, title)
        refuse_overwrite([out / name for name in site], inputs)
        for name, text in site.items():
            with atomic_write(out / name) as fh:
                fh.write(text)
    return 0
