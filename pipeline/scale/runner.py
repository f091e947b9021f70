"""Drive a job: items -> engine -> sink, with resume, an errors file, progress and a summary."""

from __future__ import annotations

import contextlib
import itertools
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from tqdm import tqdm

from chemie.errors import OutputError
from chemie.scale.engines import run_dask, run_inline, run_pool
from chemie.scale.errorlog import ErrorLog
from chemie.scale.outcome import Outcome
from chemie.scale.sinks import Sink
from chemie.scale.sources import Item
from chemie.scale.worker import Job

ENGINES = ("local", "dask")
FLUSH_SECONDS = 1.0


@dataclass
class Summary:
    """What a run did: documents seen, written, skipped (resume), failed (``bad_input`` of
    them through the document's fault, the others timed out or hit an internal error),
    warned about."""

    documents: int = 0
    written: int = 0
    skipped: int = 0
    errors: int = 0
    bad_input: int = 0
    warnings: int = 0
    tokens: int = 0
    seconds: float = 0.0
    failed: bool = False  # nothing could be done: the output was left as it was
    counts: dict[str, int] = field(default_factory=dict)  # the outcomes' counts, summed
    # (keys singular: "reaction with a component without a structure")

    @property
    def processed(self) -> int:
        return self.documents - self.skipped

    def text(self) -> str:
        """One line: counts and speed."""
        rate = self.processed / self.seconds if self.seconds > 0 else 0.0
        plural = "" if self.documents == 1 else "s"
        parts = [f"{self.documents} document{plural}", f"{self.written} written"]
        if self.skipped:
            parts.append(f"{self.skipped} already done (resumed)")
        if self.errors:
            parts.append(f"{self.errors} failed")
        if self.warnings:
            parts.append(f"{self.warnings} warnings")
        parts.extend(_count(n, what) for what, n in self.counts.items() if n)
        return ", ".join(parts) + f" in {self.seconds:.1f} s ({rate:.0f} documents/s)"


def _count(n: int, what: str) -> str:
    """``1 reaction with …``, ``2 reactions with …`` (``what`` is singular)."""
    first, _, rest = what.partition(" ")
    return f"{n} {first}{'' if n == 1 else 's'}{' ' if rest else ''}{rest}"


def progress_bar(quiet: bool) -> tqdm:
    """A documents/s bar on stderr; silent with ``quiet`` or when stderr is not a terminal."""
    return tqdm(
        unit=" docs", file=sys.stderr, disable=quiet or not sys.stderr.isatty(),
        smoothing=0.05, dynamic_ncols=True,
    )


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    it = iter(items)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


def _engine(
    chunks: Iterator[list[Item]], job: Job, workers: int, engine: str, scheduler: str | None
) -> Iterator[list[Outcome]]:
    """The engine's outcome stream; a local run with a single chunk stays in this process."""
    if engine == "dask":
        return run_dask(chunks, job, workers, scheduler)
    if workers <= 1:
        return run_inline(chunks, job)
    head = list(itertools.islice(chunks, 2))
    if len(head) < 2:
        return run_inline(head, job)
    return run_pool(itertools.chain(head, chunks), job, workers)


def run_job(
    items: Iterable[Item],
    job: Job,
    sink: Sink,
    errors: ErrorLog | None = None,
    *,
    workers: int = 1,
    engine: str = "local",
    scheduler: str | None = None,
    resume: bool = False,
    quiet: bool = True,
    chunk_size: int = 32,
    allow_empty: bool = False,
) -> Summary:
    """Process ``items`` with ``job`` and write the outcomes to ``sink`` in input order.

    Bad documents go to ``errors``; with ``resume`` documents already complete in the output
    are skipped. On any exception (Ctrl-C included) the sink keeps only complete documents,
    so the same call with ``resume=True`` continues where this one stopped. An output that
    cannot be written raises :class:`~chemie.errors.OutputError`.

    When nothing could be done (every document failed, or there was none and not
    ``allow_empty``; or an exception before any document was written) the run changes
    nothing on disk: an earlier output stays as it was, and no new or partial output is
    left (``summary.failed``); with more than one document the errors file is written if
    there is none yet (see :meth:`ErrorLog.fail`). An empty input with ``allow_empty`` gives an
    empty output.
    """
    errors = errors or ErrorLog(None)
    summary = Summary()
    started = time.perf_counter()
    resume = resume and sink.resumable
    with _writing():
        sink.open(resume)
    try:
        with _writing():
            errors.open(resume)
    except BaseException:
        sink.discard()
        raise
    bar = None

    def todo() -> Iterator[Item]:
        for item in items:
            summary.documents += 1
            if resume and sink.done(item):
                summary.skipped += 1
                continue
            yield item

    try:
        outcomes = _engine(_chunks(todo(), chunk_size), job, workers, engine, scheduler)
        bar = progress_bar(quiet)
        last_flush = time.monotonic()
        for chunk in outcomes:
            with _writing():
                for o in chunk:
                    _record(o, sink, errors, summary)
                if time.monotonic() - last_flush > FLUSH_SECONDS:
                    errors.flush()
                    sink.flush()
                    last_flush = time.monotonic()
            bar.update(len(chunk))
    except BaseException:
        if summary.written or summary.skipped:
            sink.abort()
            errors.abort()
        else:
            sink.discard()
            errors.discard()
        raise
    finally:
        if bar is not None:
            bar.close()
    summary.errors, summary.warnings = errors.errors, errors.warnings
    summary.failed = not summary.written and not summary.skipped and bool(
        summary.errors or not (summary.documents or allow_empty)
    )
    with _writing():
        if summary.failed:
            sink.discard()
            if summary.documents > 1:
                errors.fail()
            else:  # a single bad document is a plain bad input: its one error, no file
                errors.discard()
        else:
            errors.close()
            sink.close()
    summary.seconds = time.perf_counter() - started
    return summary


@contextlib.contextmanager
def _writing() -> Iterator[None]:
    """An OSError while writing the output or the errors file (no permission, a full disk)
    stops the run as an :class:`~chemie.errors.OutputError` (a reader that stopped early,
    ``BrokenPipeError``, stays what it is)."""
    try:
        yield
    except (BrokenPipeError, OutputError):
        raise
    except OSError as e:
        raise OutputError(e.errno, f"cannot write: {e.strerror or e}", e.filename) from None


def _record(o: Outcome, sink: Sink, errors: ErrorLog, summary: Summary) -> None:
    """Write one outcome (its warning first, so a resumed run never loses it)."""
    summary.tokens += o.tokens
    for what, n in o.counts.items():
        summary.counts[what] = summary.counts.get(what, 0) + n
    if o.ok and o.warning:
        errors.add(o.n, "warning", o.path, o.line, o.key, o.warning)
    if o.ok:
        try:
            sink.write(o)
            summary.written += 1
            return
        except ValueError as e:
            o.error, o.bad_input = str(e), True
    summary.bad_input += o.bad_input
    errors.add(o.n, "error", o.path, o.line, o.key, o.error or "")
