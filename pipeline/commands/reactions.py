"""``chemie reactions INPUT... [-o OUT]``: reaction records as JSON lines.

Inputs as ``chemie run`` reads them (``.txt`` files, folders of them, ChEMU-Ref ``.jsonl``)
and USPTO paragraphs (``.jsonl`` lines with ``id``, ``title`` and ``text``: the title is the
heading, see :mod:`chemie.formats.uspto`). Each document goes through the pipeline with
``chemie_reactions``; every reaction it holds is one JSON line
(:meth:`chemie.reactions.model.Reaction.to_dict`; the mapping to the Open Reaction Database
is documented in :mod:`chemie.reactions.model`), in input order, a document's reactions in
text order (its last line makes its final product).

``--no-structures`` resolves no structure (no JVM); ``--no-opsin`` uses the compound
dictionary alone. A document that cannot be read or processed is listed in
``OUT.errors.tsv`` (with ``-o``; on stderr otherwise) and the run goes on (exit status 1);
the output is written to a temporary file and renamed, and never overwrites an input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from chemie.cliutil import add_max_chars, refuse_overwrite
from chemie.errors import InputError, atomic_write
from chemie.model import Document
from chemie.scale.errorlog import ErrorLog
from chemie.scale.sinks import errors_path
from chemie.scale.sources import Item, iter_items, read_item


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "reactions",
        help="reaction records with structures (JSON lines)",
        description="Reactions of patent paragraphs: products, reactants, reagents, "
        "catalysts, solvents with structures and amounts, yield, conditions, steps.",
    )
    p.add_argument("inputs", nargs="+", type=Path, metavar="INPUT",
                   help=".txt files or folders, ChEMU-Ref or USPTO-paragraph .jsonl")
    p.add_argument("-o", "--output", type=Path, default=None,
                   help="JSON-lines file (default: standard output)")
    p.add_argument("--no-structures", action="store_true",
                   help="no name-to-structure (no Java needed; fastest)")
    p.add_argument("--no-opsin", action="store_true",
                   help="structures from the compound dictionary only")
    add_max_chars(p)
    p.set_defaults(func=run)


def read_document(item: Item, max_chars: int) -> Document:
    """The Document of an input item; a jsonl line with ``text`` and no ``sentences`` is a
    USPTO paragraph (title as heading)."""
    if item.kind == "jsonl":
        from chemie.formats.uspto import is_uspto_object, parse_uspto_line  # noqa: PLC0415

        try:
            obj = json.loads(item.data)
        except json.JSONDecodeError:
            obj = None
        if is_uspto_object(obj):
            return parse_uspto_line(item.data, item.path, item.line, max_chars)
    return read_item(item, max_chars)


def run(args: argparse.Namespace) -> int:
    from chemie.nlp import annotate, load  # noqa: PLC0415  (spaCy: only when running)

    if args.output is not None:
        refuse_overwrite([args.output, errors_path(args.output)], args.inputs)
    items = list(iter_items(args.inputs, max_chars=args.max_chars))
    config = {"structures": not args.no_structures, "opsin": not args.no_opsin}
    nlp = load(reactions=True, reactions_config=config)
    nlp.max_length = max(nlp.max_length, args.max_chars)
    lines: list[str] = []
    log = ErrorLog(errors_path(args.output) if args.output is not None else None)
    log.open(resume=False)
    for item in items:
        try:
            document = read_document(item, args.max_chars)
            reactions = annotate(nlp, document).meta.get("reactions") or []
        except InputError as e:
            log.add(item.n, "error", item.path, item.line, item.key, e.message)
            continue
        except Exception as e:  # a document the pipeline cannot process: listed, run goes on
            log.add(item.n, "error", item.path, item.line, item.key,
                    f"{type(e).__name__}: {e}")
            continue
        lines.extend(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in reactions)
    if args.output is None:
        sys.stdout.write("".join(lines))
    else:
        with atomic_write(args.output) as fh:
            fh.write("".join(lines))
    log.close()
    for line in log.first:
        print(f"chemie: {line}", file=sys.stderr)
    print(f"chemie reactions: {len(items)} documents, {len(lines)} reactions"
          + (f", {log.errors} failed" if log.errors else ""), file=sys.stderr)
    return 1 if log.errors else 0
