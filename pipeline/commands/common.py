"""What the commands that stream documents share (``chemie run``, ``chemie ner``,
``chemie reactions``): the scale options and the output argument, the checks of an output
before a run, the run itself (:func:`execute`) with its report and exit status; the NER
pipeline ``chemie ner`` and ``chemie show`` build (:func:`build_nlp`)."""

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
from typing import TYPE_CHECKING

from chemie.cliutil import refuse_overwrite, whole_number
from chemie.errors import InputError, OutputError
from chemie.extras import MissingExtra, require
from chemie.limits import MAX_CHARS
from chemie.scale import outputs
from chemie.scale.engines import RunAborted, default_workers
from chemie.scale.errorlog import ErrorLog
from chemie.scale.outputs import FOLDER, PREFIX, OutputFormat
from chemie.scale.runner import ENGINES, Summary, run_job
from chemie.scale.sinks import Sink, errors_path
from chemie.scale.sources import Item, input_kind, iter_items
from chemie.scale.worker import Job

if TYPE_CHECKING:  # spaCy: imported when a command needs it, not for --help
    from spacy.language import Language


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


def build_nlp(
    abbreviation_window: int = 0, nonchemical_veto: str = "rules", max_chars: int = MAX_CHARS
) -> Language:
    """The chemie tokenizer, sentence segmenter and NER (``nlp.max_length``: ``max_chars``)."""
    from chemie.tokenizer.language import blank  # chemie_ner: found by its entry point

    nlp = blank()
    nlp.max_length = max_chars
    nlp.add_pipe(
        "chemie_ner",
        config={"abbreviation_window": abbreviation_window, "nonchemical_veto": nonchemical_veto},
    )
    return nlp
