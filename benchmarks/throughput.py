"""Throughput benchmark: ChEMU-Ref training snippets replicated to N snippets (default 50,000).

The replicated file is generated on the fly in a temporary folder (never in the repo):
each pass over ``chemu-ref/train.jsonl`` gets fresh ``doc_key``s. Prints one table:

- in-process, one core, pipeline only (reading excluded): spaCy's blank English tokenizer
  (the floor; also as a new one at each pass, since replicated text is otherwise
  mostly cache hits), the chemie tokenizer + chemical NER, and the whole anaphora pipeline, all on
  the raw text of the snippets, then the whole pipeline on the file's own tokens (what
  ``chemie run`` does with ChEMU-Ref input); documents/s, tokens/s, the ratio to the floor,
  and documents per CPU-second (what one core does, whatever else the machine runs); below
  it, what the ratio is measured against (the warm-cache blank tokenizer, as issue 6 asks)
  and the whole pipeline's figures on raw text and on file tokens next to the targets;
- ``chemie run IN.jsonl -o OUT.jsonl`` end to end (read, process, write; a subprocess) with
  1 and 2 workers (``--repeat``: alternated, best kept), and the speed-up, also as implied
  by CPU time per document (what 2 idle cores would give on a shared, loaded machine);
- peak memory of ``chemie run --workers 2`` at two input sizes (default 10,000 and 100,000):
  the largest single process and the whole process tree (sum of RSS; forked workers share
  pages, so the sum over-counts), sampled every 50 ms.

Targets (issue 6): whole pipeline >= 1,000 snippets/s on one core and within 15x of the
blank tokenizer; >= 1.7x with 2 workers on 2 cores; peak RSS < 500 MB at any input size.

    python benchmarks/throughput.py [--n 50000] [--quick] [--rss-sizes 10000,100000]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import spacy
from _watch import watch

from chemie.corpora import data_dir
from chemie.formats.chemu import iter_chemu
from chemie.model import Document
from chemie.scale.worker import Job, build


def replicate(src: Path, dst: Path, n: int) -> int:
    """Write the first ``n`` snippets of ``src`` repeated; returns the number of tokens."""
    lines = [json.loads(line) for line in src.read_text(encoding="utf-8").splitlines() if line]
    tokens = 0
    with open(dst, "w", encoding="utf-8") as fh:
        for i in range(n):
            obj = dict(lines[i % len(lines)])
            obj["doc_key"] = f"{obj['doc_key']}-{i // len(lines)}"
            tokens += sum(len(s) for s in obj["sentences"])
            fh.write(json.dumps(obj) + "\n")
    return tokens


def documents(src: Path, n: int) -> Iterator[Document]:
    """``n`` documents cycling over ``src`` (parsed once; gold annotations removed)."""
    docs = list(iter_chemu(src))
    for d in docs:
        d.mentions.clear()
        d.relations.clear()
    return itertools.islice(itertools.cycle(docs), n)


def timed(
    fn: Callable[[Document], int], docs: Iterator[Document]
) -> tuple[int, int, float, float]:
    """(documents, tokens, wall seconds and CPU seconds spent inside ``fn``)."""
    n = tokens = 0
    wall = cpu = 0.0
    for doc in docs:
        t0, c0 = time.perf_counter(), time.process_time()
        tokens += fn(doc)
        wall += time.perf_counter() - t0
        cpu += time.process_time() - c0
        n += 1
    return n, tokens, wall, cpu


def in_process_rows(src: Path, n: int) -> list[tuple[str, int, int, float, float]]:
    """Pipeline-only rows, one core: (name, documents, tokens, wall s, CPU s)."""
    blank = spacy.blank("en")
    ner = build(Job("ner", "json"))
    whole = build(Job("anaphora", "json"))
    raw = lambda d: Document(d.id, d.text)  # noqa: E731 - the text only, to be tokenized
    stages: list[tuple[str, Callable[[Document], int]]] = [
        ("blank tokenizer (floor)", lambda d: len(blank.make_doc(d.text))),
        ("chemie tokenizer + NER", lambda d: len(ner(raw(d)).tokens)),
        ("whole pipeline, raw text", lambda d: len(whole(raw(d)).tokens)),
        ("whole pipeline, file tokens", lambda d: len(whole(d).tokens)),
    ]
    cold = {"nlp": spacy.blank("en"), "seen": 0, "wall": 0.0, "cpu": 0.0}
    size = sum(1 for line in src.open(encoding="utf-8") if line.strip())

    def cold_blank(d: Document) -> int:
        """A new blank English (tokenizer and vocabulary) at every pass: no cache hits from
        the replication. (Flushing one tokenizer's cache instead slows it down pass after
        pass: 580 µs per snippet after 55 flushes, against 166 after one.) Making it is
        set-up, not tokenizing: its time is taken out of the row."""
        if cold["seen"] % size == 0:
            t0, c0 = time.perf_counter(), time.process_time()
            cold["nlp"] = spacy.blank("en")
            cold["wall"] += time.perf_counter() - t0
            cold["cpu"] += time.process_time() - c0
        cold["seen"] += 1
        return len(cold["nlp"].make_doc(d.text))

    stages.insert(1, ("blank tokenizer, cold cache each pass", cold_blank))
    rows = []
    for name, fn in stages:
        fn(next(documents(src, 1)))  # warm-up: lazy loading is not throughput
        cold.update(seen=0, wall=0.0, cpu=0.0)
        docs, tokens, wall, cpu = timed(fn, documents(src, n))
        if fn is cold_blank:
            wall, cpu = wall - cold["wall"], cpu - cold["cpu"]
        rows.append((name, docs, tokens, wall, cpu))
        print(f"  measured {name}", file=sys.stderr)
    return rows


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_cli(data: Path, out: Path, workers: int) -> tuple[float, float, int, int]:
    """``chemie run`` in a subprocess: (wall seconds, CPU seconds of the whole process tree,
    peak RSS of the largest process, peak sum of RSS over the tree; bytes, sampled every
    50 ms)."""
    cmd = [sys.executable, "-m", "chemie", "run", str(data), "-o", str(out),
           "--workers", str(workers), "--quiet"]
    cpu0 = _children_cpu()
    seen = watch(cmd, "chemie run")
    return seen.seconds, _children_cpu() - cpu0, seen.largest, seen.tree


def print_targets(rows: list[tuple[str, int, int, float, float]], distinct: int) -> None:
    """What the 'x floor' column is measured against, and the issue's targets (by wall clock
    and by CPU time, which other load on the machine does not inflate)."""
    by_name = {name: (docs, tokens, wall, cpu) for name, docs, tokens, wall, cpu in rows}
    docs, tokens, wall, cpu = by_name["blank tokenizer (floor)"]
    floor, floor_cpu = docs / wall, docs / cpu
    print(f"\n'x floor' = floor docs/s / stage docs/s. The floor is spaCy's blank English "
          f"tokenizer with a warm cache\non this replicated input (as issue 6 asks): "
          f"{floor:,.0f} docs/s, {tokens / wall:,.0f} tokens/s ({floor_cpu:,.0f} docs/CPU-s).")
    if docs < 10 * distinct:
        print(f"Only {docs:,} snippets: the first pass over the {distinct:,} distinct ones (cold "
              f"caches in every stage)\nweighs on every row; the default --n 50000 gives the "
              f"issue's figures.")
    for name in ("whole pipeline, raw text", "whole pipeline, file tokens"):
        docs, _, wall, cpu = by_name[name]
        rate, rate_cpu = docs / wall, docs / cpu
        print(f"{name}: {rate:,.0f} snippets/s, {floor / rate:.1f}x the floor; per CPU-second "
              f"{rate_cpu:,.0f}, {floor_cpu / rate_cpu:.1f}x (targets >= 1,000 and <= 15x: "
              f"{'met' if rate >= 1000 and floor / rate <= 15 else 'NOT met'} by wall clock, "
              f"{'met' if rate_cpu >= 1000 and floor_cpu / rate_cpu <= 15 else 'NOT met'} "
              f"by CPU time)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=50_000, help="snippets (default 50,000)")
    ap.add_argument("--quick", action="store_true", help="2,000 snippets, small RSS sizes")
    ap.add_argument("--rss-sizes", default="10000,100000", help="input sizes for peak RSS")
    ap.add_argument("--repeat", type=int, default=1, help="end-to-end runs each (best kept)")
    ap.add_argument("--data", type=Path, default=data_dir() / "chemu-ref" / "train.jsonl")
    args = ap.parse_args()
    if not args.data.exists():
        raise SystemExit(f"{args.data}: not found (set CHEMIE_DATA or use --data)")
    n = 2000 if args.quick else args.n
    rss_sizes = [1000, 4000] if args.quick else [int(s) for s in args.rss_sizes.split(",")]
    cores = len(os.sched_getaffinity(0))

    rows = in_process_rows(args.data, n)
    floor_rate = rows[0][1] / rows[0][3]
    load = os.getloadavg()[0]
    print(f"\nThroughput on {n:,} ChEMU-Ref training snippets (replicated), {cores} cores, "
          f"load average {load:.1f} at the start\n")
    print(f"{'stage':<38} {'docs/s':>9} {'tokens/s':>10} {'x floor':>8} {'docs/CPU-s':>11}")
    for name, docs, tokens, wall, cpu in rows:
        rate = docs / wall
        print(f"{name:<38} {rate:>9,.0f} {tokens / wall:>10,.0f} {floor_rate / rate:>7.1f}x "
              f"{docs / cpu:>11,.0f}")
    print_targets(rows, sum(1 for line in args.data.open(encoding="utf-8") if line.strip()))

    with tempfile.TemporaryDirectory(prefix="chemie-bench-") as tmp:
        data = Path(tmp) / "snippets.jsonl"
        tokens = replicate(args.data, data, n)
        best: dict[int, tuple[float, float]] = {}
        for _ in range(args.repeat):  # alternate 1 and 2 workers, keep the best of each
            for workers in (1, 2):
                seconds, cpu, _, _ = run_cli(data, Path(tmp) / f"out{workers}.jsonl", workers)
                best[workers] = min(best.get(workers, (seconds, cpu)), (seconds, cpu))
        for workers, (seconds, cpu) in best.items():
            print(f"{f'chemie run end to end, {workers} worker(s)':<38} {n / seconds:>9,.0f} "
                  f"{tokens / seconds:>10,.0f} {floor_rate * seconds / n:>7.1f}x "
                  f"{n / cpu:>11,.0f}")
        same = (Path(tmp) / "out1.jsonl").read_bytes() == (Path(tmp) / "out2.jsonl").read_bytes()
        cpu_bound = 2 * best[1][1] / best[2][1]
        print(f"\nspeed-up 1 -> 2 workers: {best[1][0] / best[2][0]:.2f}x wall clock "
              f"(CPU per document implies {cpu_bound:.2f}x on 2 idle cores); "
              f"outputs identical: {'yes' if same else 'NO'}")
        for f in Path(tmp).glob("out*"):
            f.unlink()

        print(f"\n{'peak memory, chemie run --workers 2':<38} {'largest proc':>12} {'tree':>8}")
        for size in rss_sizes:
            replicate(args.data, data, size)
            _, _, largest, tree = run_cli(data, Path(tmp) / "rss.jsonl", 2)
            mb = largest / 2**20, tree / 2**20
            print(f"{f'{size:,} snippets':<38} {mb[0]:>9,.0f} MB {mb[1]:>5,.0f} MB")
            (Path(tmp) / "rss.jsonl").unlink()


if __name__ == "__main__":
    main()
