"""Start-up benchmark: whole processes, A/B in one run, interleaved.

Each round runs, one after the other: ``python -c "import spacy"`` (the reference: the
least any spaCy pipeline pays), ``chemie run`` on the bundled one-snippet example (the
README's first command: start, build the pipeline, annotate, print, end), ``chemie
--help`` and an argument error (``chemie run --workers 0``). For each it prints the median
over ``--rounds`` of the wall-clock time and of the CPU time (user + system of the child),
and the ratio of ``chemie run`` to ``import spacy``. Interleaving keeps the machine's load
the same for every arm; on a shared machine the CPU-time ratio is the steadier figure.
Target (issue 21): ``chemie run`` at most 1.5x ``import spacy``; ``--help`` and argument
errors import neither spaCy nor pandas (asserted by tests/test_startup.py, not timed).

    python benchmarks/startup.py [--rounds 15] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

ARMS = {
    "import spacy": [sys.executable, "-c", "import spacy"],
    "chemie run": [sys.executable, "-m", "chemie", "run"],
    "chemie --help": [sys.executable, "-m", "chemie", "--help"],
    "argument error": [sys.executable, "-m", "chemie", "run", "--workers", "0"],
}


def once(cmd: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (user + system) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in ARMS}
    for cmd in ARMS.values():  # a warm-up round: file caches
        once(cmd)
    for _ in range(args.rounds):
        for name, cmd in ARMS.items():
            times[name].append(once(cmd))
    figures = {
        name: {"wall_s": statistics.median(w for w, _ in runs),
               "cpu_s": statistics.median(c for _, c in runs)}
        for name, runs in times.items()
    }
    ref, run = figures["import spacy"], figures["chemie run"]
    figures["ratio"] = {"wall": run["wall_s"] / ref["wall_s"], "cpu": run["cpu_s"] / ref["cpu_s"]}
    figures["machine"] = {"cpus": os.cpu_count(), "load": os.getloadavg()[0],
                          "python": sys.version.split()[0]}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{'arm':<16} {'wall (median)':>14} {'CPU (median)':>13}")
    for name in ARMS:
        f = figures[name]
        print(f"{name:<16} {f['wall_s']:13.3f}s {f['cpu_s']:12.3f}s")
    r = figures["ratio"]
    m = figures["machine"]
    print(f"chemie run / import spacy: wall {r['wall']:.2f}x, CPU {r['cpu']:.2f}x "
          f"(target <= 1.5x); {args.rounds} interleaved rounds, {m['cpus']} CPUs, "
          f"load {m['load']:.1f}, Python {m['python']}")


if __name__ == "__main__":
    main()
