"""``chemie run [INPUT...] [-o OUT]``: anaphora resolution over snippets, streamed at scale.

With no input, runs the bundled example and prints the mentions and links readably.
``.txt`` files and folders of them (plain or brat) become a brat folder (rule names as
``#`` notes), ChEMU-Ref ``.jsonl`` becomes ChEMU-Ref ``.jsonl`` in the input's token
indices (ready for ``chemie score anaphora``). An output name ending in ``.jsonl``,
``.json``, ``.csv`` or ``.parquet`` implies its format; ``--format`` chooses: brat, chemu,
json (everything with rule names, one document per line), csv/parquet (a mention table
and a relation table) or chemu2020 (a brat folder of the reaction roles: ChEMU 2020 labels,
trigger-argument R lines ARG1/ARGM); the formats are declared in :mod:`chemie.scale.outputs`. Input
and output are streamed; bad documents are listed in ``OUT.errors.tsv`` and the run goes
on. Documents read from folders are named by their path in the folder without suffix
(``sub/a``), files given by name by their name (``a``); a second document with the same
name in one run fails (listed as an error). A folder is read for its ``.txt`` files:
``.jsonl``/``.json`` files in it are not read (a warning names them; give them by name). A
document longer than ``--max-chars`` characters fails alone (:mod:`chemie.limits`). The
pairs of ChEMU-Ref input are not used: a bad one gives a warning, not an error.
Exit status: 0 all documents done (an empty input file gives a warning and an empty
result), 1 some failed (or all, when any of them timed out or hit an internal error),
2 bad input (every document unreadable or malformed, or none found: an existing output
is left as it was and no partial file stays; the errors are printed and, for several
documents when there is no errors file yet, listed in a new one), 3 the output could not
be written or the run itself broke down, 130 interrupted by Ctrl-C or SIGTERM
(``--resume`` continues).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import signal
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from chemie.cliutil import add_max_chars, refuse_overwrite, whole_number
from chemie.errors import InputError, OutputError
from chemie.extras import MissingExtra, require
from chemie.resources import example_path
from chemie.scale import outputs
from chemie.scale.engines import RunAborted, default_workers
from chemie.scale.errorlog import ErrorLog
from chemie.scale.outputs import FOLDER, PREFIX, OutputFormat
from chemie.scale.runner import ENGINES, Summary, run_job
from chemie.scale.sinks import Sink, errors_path
from chemie.scale.sources import Item, input_kind, iter_items, unread_files
from chemie.scale.worker import Job


def seconds(text: str) -> float:
    """argparse type: a number of seconds, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be 0 or more seconds, got {text}")
    return value


class OutputPath(argparse.Action):
    """``-o OUT``: a Path, and ``output_folder``: True when written with a trailing slash
    (``OUT/``), which names a folder (``Path`` drops the slash)."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
        values: object, option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, Path(str(values)))
        namespace.output_folder = str(values).endswith(("/", os.sep))


def make_output_folder(args: argparse.Namespace, folder_ok: bool, what: str) -> None:
    """Make the folder that ``-o OUT/`` names, when ``folder_ok``; else an InputError
    (``what`` is the output that must be one file)."""
    if args.output is None or not getattr(args, "output_folder", False):
        return
    if not folder_ok:
        raise InputError(args.output, None, f"{what} is one file: give a file name, not a folder")
    try:
        args.output.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputError(e.errno, f"cannot write: {e.strerror or e}", str(args.output)) from None


def format_help(command: str) -> str:
    """``--format``'s help: the formats ``command`` offers, from the registry."""
    return "; ".join(f"{f.name}: {f.help.replace('`', '')}" for f in outputs.offered(command))


def requirements(fmt: OutputFormat, args: argparse.Namespace) -> None:
    """InputError naming the extra to install when the format or the engine needs one
    that is missing (before anything is written)."""
    try:
        if fmt.extra:
            require(fmt.extra, f"--format {fmt.name}")
        if args.scheduler or args.engine == "dask":
            require("cluster", "--scheduler" if args.scheduler else "--engine dask")
    except MissingExtra as e:
        raise InputError(None, None, str(e)) from None


def add_scale_options(p: argparse.ArgumentParser) -> None:
    """``--workers --engine --scheduler --resume --quiet`` (shared with ``chemie ner``)."""
    g = p.add_argument_group("scale")
    g.add_argument(
        "--workers", type=whole_number(1), default=None, metavar="N",
        help="worker processes (default: all cores)",
    )
    g.add_argument(
        "--engine", choices=ENGINES, default=None,
        help="local process pool (default) or dask.distributed",
    )
    g.add_argument(
        "--scheduler", metavar="tcp://HOST:PORT",
        help="address of an existing Dask scheduler (implies --engine dask)",
    )
    g.add_argument(
        "--resume", action="store_true",
        help="continue an interrupted run: skip documents already complete in the output",
    )
    g.add_argument(
        "--timeout", type=seconds, default=60.0, metavar="SECONDS",
        help="a document taking longer fails alone (default: 60; 0: no limit)",
    )
    g.add_argument("-q", "--quiet", action="store_true", help="no progress bar or summary")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "run",
        help="resolve anaphora (coreference and bridging) in reaction snippets",
        description=__doc__.split("\n\n", 1)[1],
    )
    p.add_argument(
        "inputs", nargs="*", type=Path, metavar="INPUT",
        help=".txt file, folder of .txt (plain or brat) or ChEMU-Ref .jsonl (default: example)",
    )
    p.add_argument(
        "-o", "--output", action=OutputPath, metavar="OUT",
        help="output folder (brat) or file (jsonl/json) or table prefix (csv/parquet); "
        "without it, documents are printed readably",
    )
    p.add_argument(
        "--format", choices=[f.name for f in outputs.offered("run")],
        help="output format (default: the one -o OUT's suffix implies, else brat for text "
        "input and chemu for ChEMU-Ref .jsonl): " + format_help("run"),
    )
    p.add_argument(
        "--coref", choices=("surface", "atomic"), default="surface",
        help="coreference links to the closest (surface) or first (atomic) antecedent",
    )
    add_max_chars(p)
    add_scale_options(p)
    p.set_defaults(func=run)


def output_format(
    kinds: set[str], requested: str | None, out: Path | None, folder: bool = False
) -> OutputFormat:
    """The output format: requested, or implied by the output's suffix or the input kinds
    (InputError if they conflict or nothing decides)."""
    if out is None:
        fmt = outputs.get("run", requested or "describe")
        if not fmt.prints:
            raise InputError(None, None, f"--format {requested} needs an output: -o OUT")
        return fmt
    fmt = outputs.choose("run", requested, out, kinds, folder)
    if fmt is None:
        raise InputError(None, None, "mixed .jsonl and .txt inputs: choose --format json|csv|"
                         "parquet (or an output name ending in .json, .csv or .parquet)")
    return fmt


def written_files(out: Path, fmt: OutputFormat, inputs: list[Path]) -> list[Path | None]:
    """The files (and folder) a run writing ``fmt`` to ``out`` makes that can be known
    before it starts: the output, its errors file, its tables, and the brat files of
    ``.txt`` inputs given by name."""
    files = [out, errors_path(out) if out.name else None]
    tables = fmt.sink_options.get("tables")
    if fmt.layout == PREFIX and tables:
        from chemie.formats.tabular import table_paths  # pandas and pyarrow: only for tables

        files.extend(table_paths(out, str(fmt.sink_options["fmt"]), tables).values())
    if fmt.layout == FOLDER:
        stems = [p.stem for p in inputs if p.is_file() and input_kind(p) == "txt"]
        files.extend(out / f"{stem}{suffix}" for stem in stems for suffix in (".txt", ".ann"))
    return files


def check_folder(out: Path, fmt: OutputFormat, inputs: list[Path]) -> None:
    """Refuse a folder output that overlaps an input folder, or that could hold an input
    file under a ``.jsonl`` document's name (InputError)."""
    resolved = out.resolve()
    jsonl = any(p.is_file() and input_kind(p) == "jsonl" for p in inputs)
    for p in inputs:
        folder = p.resolve()
        if p.is_dir() and resolved.is_relative_to(folder):
            raise InputError(out, None, f"{fmt.name} output inside the input folder {p}")
        if p.is_dir() and folder.is_relative_to(resolved):
            prefix = folder.relative_to(resolved)
            if (folder / prefix).is_dir():  # OUT/PREFIX/x.txt would be the input PREFIX/x.txt
                raise InputError(
                    out, None, f"{fmt.name} output would write into the input folder {p}"
                )
        if jsonl and p.is_file() and folder.is_relative_to(resolved):
            raise InputError(out, None, f"{fmt.name} output folder holds the input {p}, which "
                             "a .jsonl document of the same name would overwrite")


def check_output(out: Path, fmt: OutputFormat, inputs: list[Path]) -> None:
    """Refuse an output that would overwrite an input or has the wrong kind (InputError)."""
    refuse_overwrite(written_files(out, fmt, inputs), inputs)
    if fmt.layout == FOLDER:
        check_folder(out, fmt, inputs)
    if fmt.layout == FOLDER and out.exists() and not out.is_dir():
        raise InputError(out, None, f"{fmt.name} output must be a folder, and this is a file")
    if fmt.layout not in (FOLDER, PREFIX) and out.is_dir():
        raise InputError(out, None, f"{fmt.name} output is one file, and this is a folder")


def report(summary: Summary, errors: ErrorLog, quiet: bool) -> None:
    """The first bad documents and a one-line summary, on stderr (for a single document,
    its error alone)."""
    for line in errors.first:
        print(f"chemie: {line}", file=sys.stderr)
    if summary.documents == 1 and summary.errors:
        return
    more = errors.errors + errors.warnings - len(errors.first)
    if more > 0:
        print(f"chemie: ... and {more} more", file=sys.stderr)
    if errors.listed:
        print(f"chemie: bad documents are listed in {errors.path}", file=sys.stderr)
    if not quiet or summary.errors:
        print(f"chemie: {summary.text()}", file=sys.stderr)


def exit_status(summary: Summary) -> int:
    """0 all done (an empty input file: a warning), 1 some documents failed (or all, not
    all of them through bad input), 2 bad input: every document was unreadable or
    malformed, or a folder held none."""
    if not summary.documents:
        if summary.failed:
            print("chemie: no documents found in the input", file=sys.stderr)
            return 2
        print("chemie: warning: no documents in the input: empty result", file=sys.stderr)
        return 0
    if summary.failed and summary.bad_input == summary.errors:
        return 2
    return 1 if summary.errors else 0


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: the run stops as it does on Ctrl-C."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """SIGTERM stops the block like Ctrl-C (in the main thread; elsewhere nothing changes)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _kept(errors: ErrorLog) -> str:
    """What a stopped run left behind: its partial files (when it wrote something)."""
    if errors.partial is not None and errors.partial.exists():
        return "; complete documents are kept, --resume continues"
    return "; nothing was written"


def execute(
    args: argparse.Namespace, job: Job, inputs: list[Path], sink: Sink,
    items: Iterable[Item] | None = None, out: Path | None = None,
) -> int:
    """Run ``job`` over ``inputs`` (or the given ``items`` read from them) into ``sink``
    (writing ``out`` or ``args.output``, or stdout when None) with the scale options of
    ``args``; returns the exit status."""
    out = out or args.output
    if args.resume and out is not None and not sink.resumable:
        print("chemie: --resume is not supported for this output: starting over", file=sys.stderr)
    errors = ErrorLog(errors_path(out) if out is not None else None)
    engine = "dask" if args.scheduler else args.engine or "local"
    job = dataclasses.replace(job, timeout=args.timeout, max_chars=args.max_chars)
    if items is None:
        for path in inputs:
            input_kind(path)  # a missing or unknown input stops the run before any output
        items = iter_items(inputs, keys=args.resume, max_chars=args.max_chars)
    try:
        with sigterm_interrupts():
            summary = run_job(
                items,
                job,
                sink,
                errors,
                workers=args.workers or default_workers(),
                engine=engine,
                scheduler=args.scheduler,
                resume=args.resume,
                quiet=args.quiet,
                allow_empty=all(Path(p).is_file() for p in inputs),
            )
    except KeyboardInterrupt:
        print(f"chemie: interrupted{_kept(errors)}", file=sys.stderr)
        return 130
    except RunAborted as e:
        print(f"chemie: run aborted: {e}{_kept(errors)}", file=sys.stderr)
        return 3
    except OutputError as e:
        print(f"chemie: {e.filename or '<output>'}: {e.strerror}{_kept(errors)}", file=sys.stderr)
        return 3
    report(summary, errors, args.quiet or out is None)
    return exit_status(summary)


def warn_unread(folder: Path, shown: int = 3) -> None:
    """A warning on stderr naming the ``.jsonl``/``.json`` files in ``folder``, which a
    folder input does not read (its ``.txt`` files are the documents)."""
    unread = [p.relative_to(folder).as_posix() for p in unread_files(folder)]
    if unread:
        names = ", ".join(unread[:shown]) + (", ..." if len(unread) > shown else "")
        print(f"chemie: warning: {folder}: {len(unread)} .jsonl/.json files not read (a folder "
              f"is read for its .txt files; give these by name): {names}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    inputs = list(args.inputs) or [example_path("example.txt")]
    kinds = {input_kind(p) for p in inputs}
    fmt = output_format(kinds, args.format, args.output, getattr(args, "output_folder", False))
    requirements(fmt, args)
    if args.output is not None:
        check_output(args.output, fmt, inputs)
        make_output_folder(args, fmt.layout in (FOLDER, PREFIX), f"{fmt.name} output")
    for p in inputs:
        if p.is_dir():
            warn_unread(p)
    if not args.inputs:
        args.workers = 1
    # the roles only for the formats that write them (they cost time)
    roles = (("roles", True),) if fmt.needs_roles else ()
    job = Job("anaphora", fmt.key, (("coref", args.coref), *roles))
    return execute(args, job, inputs, fmt.open(args.output))
