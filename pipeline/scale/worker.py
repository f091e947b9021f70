"""What a worker process does with a chunk of items: read, annotate, format, report.

The pipeline is built once per process (:func:`processor` caches it by job), so a pool
worker or a Dask worker pays the loading cost once. Every document yields one
:class:`Outcome`: its formatted output, or the error that stopped it, never an exception.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from chemie import startup
from chemie.errors import InputError
from chemie.limits import MAX_CHARS
from chemie.model import Document, Token
from chemie.scale.outcome import Outcome
from chemie.scale.outputs import formatter
from chemie.scale.sources import INPUT_WARNINGS, Item, read_item

Processor = Callable[[Document], Document]
TASKS = ("tokenize", "ner", "anaphora", "reactions")
PROCESS_WARNINGS = "process_warnings"  # doc.meta key: a task's warnings about a document
PROCESS_COUNTS = "process_counts"  # doc.meta key: what a task counted for the summary line
INCOMPLETE = "reaction with a component without a structure"  # a count's name (singular)
PARAGRAPH_KINDS = ("jsonl", "uspto")  # items whose document names itself (its id)


@dataclass(frozen=True)
class Job:
    """A picklable description of the work: task, its options, and the output format.

    ``task`` is one of :data:`TASKS` or ``"module:function"``, a factory called with
    ``options`` that returns a ``Document -> Document`` function; ``fmt`` names the output
    format (:func:`chemie.scale.outputs.formatter`: ``COMMAND/NAME``, a ``chemie run``
    format's name, or ``"module:function"``, Document -> payload).
    A document that takes longer than ``timeout`` seconds fails alone (interrupted where
    the worker runs tasks on its main thread: local runs; on Dask's worker threads it fails
    once it has finished). A document longer than ``max_chars`` characters fails alone
    (:mod:`chemie.limits`; 0: no limit); the built-in tasks set their pipeline's
    ``nlp.max_length`` to it.
    """

    task: str = "anaphora"
    fmt: str = "chemu"
    options: tuple[tuple[str, object], ...] = field(default_factory=tuple)
    timeout: float = 0.0  # seconds per document (0: no limit)
    max_chars: int = MAX_CHARS


def _max_length(max_chars: int) -> int:
    """spaCy's ``nlp.max_length`` for a job's ``max_chars`` (0: no limit)."""
    return max_chars or sys.maxsize


def _tokenizer(max_chars: int = MAX_CHARS) -> Processor:
    import spacy

    nlp = spacy.blank("en")
    nlp.max_length = _max_length(max_chars)

    def tokenize(doc: Document) -> Document:
        if not doc.tokens:
            doc.tokens = [Token(t.text, t.idx, t.idx + len(t)) for t in nlp.make_doc(doc.text)]
        return doc

    return tokenize


def _pipeline(max_chars: int = MAX_CHARS, **options: object) -> Processor:
    from chemie.nlp import annotate, load

    nlp = load(**options)  # type: ignore[arg-type]
    nlp.max_length = _max_length(max_chars)
    return lambda doc: annotate(nlp, doc)


def _ner_only(max_chars: int = MAX_CHARS, **options: object) -> Processor:
    """Tokenizer + chemical NER, without mention detection, actions or relations."""
    from chemie.nlp import PIPELINE, annotate, load

    nlp = load(ner=True)
    nlp.max_length = _max_length(max_chars)
    for name in PIPELINE:
        if name != "chemie_ner" and name in nlp.pipe_names:
            nlp.remove_pipe(name)
    return lambda doc: annotate(nlp, doc)


def _reactions(
    max_chars: int = MAX_CHARS, timeout: float = 0.0, structures: bool = True,
    opsin: bool = True, warn_no_java: bool = True,
) -> Processor:
    """The whole pipeline with ``chemie_reactions`` (``structures``, ``opsin``: its config).

    With OPSIN, this process's JVM (one per process: :func:`chemie.structures.opsin.service`)
    starts now, not inside a document's time limit, and a batch of names gets half of that
    limit, so a JVM that hangs is killed (its names unresolved, reason ``timeout``) before
    the document would time out. ``warn_no_java=False``: the caller has reported a missing
    java already. A document some of whose names OPSIN failed on (its JVM died, hung, could
    not start) gets a warning naming them, and one whose atom accounting of a reaction ran
    out of time a warning naming that reaction (:data:`PROCESS_WARNINGS`). With structures,
    the reactions with a component that has none are counted for the summary line
    (:data:`PROCESS_COUNTS`: rsmi names such components in a column of their own).
    """
    from chemie.formats.reaction_records import reactions_of, unresolved
    from chemie.nlp import annotate, load
    from chemie.structures import opsin as service

    config = {"structures": structures, "opsin": opsin}
    nlp = load(reactions=True, reactions_config=config)
    nlp.max_length = _max_length(max_chars)
    if structures and opsin:
        if not warn_no_java:
            service.no_java_warned()
        jvm = service.service()
        if timeout > 0:
            jvm.timeout = min(jvm.timeout, timeout / 2)
        jvm.ready()

    def process(doc: Document) -> Document:
        out = annotate(nlp, doc)
        if structures:  # no RDKit without
            warnings = [w for w in (structure_failures(out), mapping_timeouts(out)) if w]
            if warnings:
                out.meta[PROCESS_WARNINGS] = warnings
            out.meta[PROCESS_COUNTS] = {
                INCOMPLETE: sum(bool(unresolved(r)) for r in reactions_of(out))}
        return out

    return process


def mapping_timeouts(doc: Document) -> str | None:
    """A warning naming the reactions of ``doc`` whose atom accounting ran out of time
    (problem ``mapping_timeout``: the species it had not reached keep their text roles),
    or None."""
    ids = [r.id for r in doc.reactions
           if any(p.check == "mapping_timeout" for p in r.problems)]
    if not ids:
        return None
    return f"atom mapping gave up on reaction {', '.join(ids)} (roles by text there)"


def structure_failures(doc: Document, shown: int = 3) -> str | None:
    """A warning naming the components of ``doc``'s reactions left unresolved because OPSIN
    failed (not because of their names), or None. A missing java or jar is reported once
    per run, not per document."""
    from chemie.structures.resolve import SERVICE_FAILURES

    global_reasons = ("no java", "no opsin jar")
    failed: dict[str, str] = {}
    for reaction in doc.reactions:
        for c in reaction.components():
            reason = c.structure.reason if c.structure is not None else None
            if reason in SERVICE_FAILURES and reason not in global_reasons:
                failed.setdefault(c.name, reason)
    if not failed:
        return None
    names = ", ".join(f"{name!r} ({reason})" for name, reason in list(failed.items())[:shown])
    more = f" and {len(failed) - shown} more" if len(failed) > shown else ""
    return f"OPSIN failed on {len(failed)} names, left unresolved: {names}{more}"


def build(job: Job) -> Processor:
    """The ``Document -> Document`` function of ``job`` (not cached)."""
    options = dict(job.options)
    if job.task == "tokenize":
        return _tokenizer(job.max_chars)
    if job.task == "ner":
        return _ner_only(job.max_chars, **options)
    if job.task == "anaphora":
        return _pipeline(job.max_chars, **options)
    if job.task == "reactions":
        return _reactions(job.max_chars, job.timeout, **options)  # type: ignore[arg-type]
    module, _, name = job.task.partition(":")
    return getattr(importlib.import_module(module), name)(**options)


_CACHE: dict[Job, Processor] = {}
_LOCK = threading.Lock()


def processor(job: Job) -> Processor:
    """The job's function, built on first use in this process and reused afterwards."""
    with _LOCK:
        if job not in _CACHE:
            with startup.building():
                _CACHE[job] = build(job)
        return _CACHE[job]


class DocumentTimeout(Exception):
    """One document took longer than the job's time limit."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise DocumentTimeout when the block takes longer than ``seconds`` (no limit for 0).

    On the main thread an alarm (SIGALRM) interrupts a long computation; on another thread
    (a Dask worker's) a timer raises the exception in that thread instead. Either lands at
    the thread's next Python instruction (a single long C call finishes first). One that
    lands in a finalizer (``__del__``) or a broad ``except`` is swallowed there, so the
    elapsed time is checked again at the end.
    """
    if seconds <= 0:
        yield
        return
    started = time.perf_counter()
    main = threading.current_thread() is threading.main_thread()
    with _alarm(seconds) if main and hasattr(signal, "setitimer") else _timer(seconds):
        yield
    if time.perf_counter() - started > seconds:
        raise DocumentTimeout


def _raise_timeout(signum: int, frame: object) -> None:
    raise DocumentTimeout


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """SIGALRM after ``seconds``; a swallowed alarm is never printed ("Exception ignored")."""
    previous = signal.signal(signal.SIGALRM, _raise_timeout)
    hook = sys.unraisablehook

    def unraisable(info: sys.UnraisableHookArgs) -> None:
        if not isinstance(info.exc_value, DocumentTimeout):
            hook(info)

    sys.unraisablehook = unraisable
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.unraisablehook = hook


@contextlib.contextmanager
def _timer(seconds: float) -> Iterator[None]:
    """DocumentTimeout raised asynchronously in this thread after ``seconds``
    (``PyThreadState_SetAsyncExc``); one still pending when the block ends is dropped."""
    thread = ctypes.c_ulong(threading.get_ident())
    lock = threading.Lock()
    state = {"active": True, "fired": False}

    def fire() -> None:
        with lock:
            if state["active"]:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    thread, ctypes.py_object(DocumentTimeout)
                )
                state["fired"] = True

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["active"] = False
            if state["fired"]:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(thread, None)
        timer.cancel()


def process_item(job: Job, item: Item) -> Outcome:
    """Read, annotate and format one item; failures become the outcome's ``error``."""
    out = Outcome(item.n, item.key, item.path, item.line)
    try:
        doc = read_item(item, job.max_chars)
        out.key = doc.id if item.kind in PARAGRAPH_KINDS else item.key
        warnings: list[str] = doc.meta.pop(INPUT_WARNINGS, [])  # type: ignore[assignment]
        if doc.text.strip():
            process = processor(job)
            with time_limit(job.timeout):
                doc = process(doc)
            warnings.extend(doc.meta.pop(PROCESS_WARNINGS, []))  # type: ignore[arg-type]
            out.counts = doc.meta.pop(PROCESS_COUNTS, {})  # type: ignore[assignment]
        else:
            warnings.append("empty document: empty result")
        out.warning = "; ".join(warnings) or None
        out.tokens = len(doc.tokens)
        out.payload = formatter(job.fmt)(doc)
    except DocumentTimeout:
        out.error = f"timed out after {job.timeout:g} s"
    except InputError as e:
        out.error, out.bad_input = e.message, True
        out.key = out.key if out.key is not None else e.doc_id
        out.path, out.line = e.path or out.path, e.line if e.line is not None else out.line
    except ValueError as e:
        out.error, out.bad_input = str(e), True
    except Exception as e:  # a bug on one document must not stop a million-document run
        out.error = f"internal error: {type(e).__name__}: {e}"
    return out


def process_chunk(job: Job, items: list[Item]) -> list[Outcome]:
    """Outcomes of a chunk of items, in order (the unit of work sent to a worker)."""
    return [process_item(job, item) for item in items]
