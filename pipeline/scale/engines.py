"""Engines: run chunks of items through :func:`~chemie.scale.worker.process_chunk`, in order.

Each engine takes a lazy stream of chunks and yields their outcome lists in input order,
keeping at most ``window`` chunks in flight, so memory stays flat however large the input.

- :func:`run_inline`: this process (one worker, or a tiny input).
- :func:`run_pool`: a local process pool; each worker builds the pipeline once.
- :func:`run_dask`: dask.distributed, an embedded ``LocalCluster`` or ``scheduler`` address.
"""

from __future__ import annotations

import ctypes
import logging
import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from chemie.extras import require
from chemie.scale.outcome import Outcome
from chemie.scale.sources import Item
from chemie.scale.worker import Job, process_chunk

Chunks = Iterable[list[Item]]


class RunAborted(Exception):
    """The engine itself failed (a worker process died, the cluster went away)."""


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _windowed(
    chunks: Chunks, submit: Callable[[list[Item]], Any], result: Callable[[Any], list[Outcome]],
    window: int,
) -> Iterator[list[Outcome]]:
    """Submit chunks, keeping ``window`` in flight; yield results in submission order."""
    pending: deque = deque()
    for chunk in chunks:
        pending.append(submit(chunk))
        if len(pending) >= window:
            yield result(pending.popleft())
    while pending:
        yield result(pending.popleft())


def _result(future: Any) -> list[Outcome]:
    """A chunk's outcomes; any failure here is the engine's, not a document's."""
    try:
        return future.result()
    except BrokenProcessPool:
        raise RunAborted("a worker process died (out of memory?)") from None
    except Exception as e:
        raise RunAborted(f"{type(e).__name__}: {e}") from None


def run_inline(chunks: Chunks, job: Job) -> Iterator[list[Outcome]]:
    """Process every chunk in this process."""
    for chunk in chunks:
        yield process_chunk(job, chunk)


_PR_SET_PDEATHSIG = 1  # prctl option (Linux): a signal sent to this process when its parent dies


def _init_worker(parent: int) -> None:
    """Pool workers leave Ctrl-C and SIGTERM to the parent, which stops the run cleanly,
    and end with it when it is killed (on Linux; else they would wait forever on the queue
    whose other end their siblings hold)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux
        return
    if os.getppid() != parent:  # the parent died before the death signal was set
        os._exit(1)


def run_pool(chunks: Chunks, job: Job, workers: int, window: int = 0) -> Iterator[list[Outcome]]:
    """Process chunks on ``workers`` local processes, started now (before any thread of the
    caller's progress bar exists, since they are forked on POSIX)."""
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_init_worker, initargs=(os.getpid(),)
    )
    for _ in pool.map(int, range(workers)):  # start every worker process now
        pass
    return _pool_results(pool, chunks, job, window or 4 * workers)


def _pool_results(
    pool: ProcessPoolExecutor, chunks: Chunks, job: Job, window: int
) -> Iterator[list[Outcome]]:
    try:
        yield from _windowed(
            chunks, lambda chunk: pool.submit(process_chunk, job, chunk), _result, window
        )
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def run_dask(
    chunks: Chunks, job: Job, workers: int, scheduler: str | None = None, window: int = 0
) -> Iterator[list[Outcome]]:
    """Process chunks on dask.distributed: an embedded LocalCluster (``workers`` processes,
    one thread each) or the cluster whose scheduler is at ``scheduler`` (tcp://HOST:PORT).
    Needs the cluster extra (:class:`~chemie.extras.MissingExtra` without it)."""
    require("cluster", "the Dask engine")
    from distributed import Client, LocalCluster

    cluster = None
    try:
        if scheduler:
            client = Client(scheduler, timeout="10s")
        else:
            cluster = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=logging.ERROR,
            )
            client = Client(cluster)
    except OSError as e:
        raise RunAborted(f"cannot reach the Dask scheduler {scheduler}: {e}") from None
    try:
        threads = sum(w["nthreads"] for w in client.scheduler_info()["workers"].values())
        yield from _windowed(
            chunks,
            lambda chunk: client.submit(process_chunk, job, chunk, pure=False),
            _result,
            window or 3 * max(threads, 1),
        )
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
