"""A command run in a subprocess and watched: wall time and peak RSS of its process tree
(shared by the benchmark scripts that time ``chemie`` end to end)."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field

import psutil


@dataclass
class Watched:
    """What :func:`watch` saw: wall seconds, the peak RSS (bytes, sampled every 50 ms) of the
    largest process and of the whole tree, and the pids of the tree by process name."""

    seconds: float = 0.0
    largest: int = 0
    tree: int = 0
    pids: dict[str, set[int]] = field(default_factory=dict)


def watch(cmd: list[str], what: str) -> Watched:
    """Run ``cmd``, sampling its process tree until it ends; exits naming ``what`` if the
    command fails."""
    seen = Watched()
    t0 = time.perf_counter()
    proc = psutil.Popen(cmd, stdout=subprocess.DEVNULL)
    while proc.poll() is None:
        try:
            procs = [proc, *proc.children(recursive=True)]
            rss = [p.memory_info().rss for p in procs]
            for p in procs:
                seen.pids.setdefault(p.name(), set()).add(p.pid)
        except psutil.Error:
            continue
        seen.largest, seen.tree = max(seen.largest, *rss), max(seen.tree, sum(rss))
        time.sleep(0.05)
    seen.seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{what} failed with status {proc.returncode}")
    return seen
