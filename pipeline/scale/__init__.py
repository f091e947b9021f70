"""chemie.scale: stream any number of documents through a pipeline, locally or on Dask.

    from chemie.scale import ErrorLog, Job, errors_path, iter_items, make_sink, run_job

    out = Path("out.jsonl")
    summary = run_job(
        iter_items(["big.jsonl"]), Job("anaphora", "run/chemu"), make_sink("run/chemu", out),
        ErrorLog(errors_path(out)), workers=4,
    )

Sources are lazy, at most a few chunks per worker are in flight, results come back in
input order, bad documents land in the errors file, and ``resume=True`` continues an
interrupted run. Output formats are declared in :mod:`chemie.scale.outputs`.
"""

from chemie.scale.engines import RunAborted, default_workers, run_dask, run_inline, run_pool
from chemie.scale.errorlog import ErrorLog, read_errors
from chemie.scale.outcome import Outcome
from chemie.scale.outputs import OutputFormat, make_sink, register
from chemie.scale.runner import ENGINES, Summary, run_job
from chemie.scale.sinks import (
    BlockSink,
    BratSink,
    JsonlSink,
    PrefixSink,
    Sink,
    StdoutSink,
    StepSink,
    TableSink,
    errors_path,
)
from chemie.scale.sources import Item, input_kind, iter_items, read_item
from chemie.scale.worker import TASKS, Job, process_chunk

__all__ = [
    "ENGINES",
    "TASKS",
    "BlockSink",
    "BratSink",
    "ErrorLog",
    "Item",
    "Job",
    "JsonlSink",
    "Outcome",
    "OutputFormat",
    "PrefixSink",
    "RunAborted",
    "Sink",
    "StdoutSink",
    "StepSink",
    "Summary",
    "TableSink",
    "default_workers",
    "errors_path",
    "input_kind",
    "iter_items",
    "make_sink",
    "process_chunk",
    "read_errors",
    "read_item",
    "register",
    "run_dask",
    "run_inline",
    "run_job",
    "run_pool",
]
