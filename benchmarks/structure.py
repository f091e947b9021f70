"""Structure and speed of the house (issue 20): the figures a renovation must keep.

Prints, for the package in ``pipeline/``: the largest modules (target: none over 700 lines),
the most complex functions by McCabe (radon; target: none over 25), the import cycles among
top-level imports (target: none), the import-linter contracts of ``setup.cfg`` (target: all
kept, none ignored). With ``--against REV`` it also counts callgrind instructions of the whole
pipeline with roles and events on the first ``--docs`` ChEMU-Ref train snippets (a warm pass,
then one counted pass), for REV's code (``git archive``) and the working tree, each in a
process of its own, and prints the ratio (issue 20: within 3%). Needs valgrind for that part,
and REV must register the same spaCy entry points as the installed checkout (spaCy imports
every factory module it names): across a move of modules, count each arm in a venv installed
at its own revision.

    python benchmarks/structure.py [--against REV] [--docs 50] [--json]
"""

from __future__ import annotations

import argparse
import ast
import functools
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pipeline"
MAX_LINES, MAX_COMPLEXITY = 700, 25


def module_name(path: Path) -> str:
    """``pipeline/a/b.py`` -> ``chemie.a.b`` (a package's ``__init__`` is the package)."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(("chemie", *parts)).removesuffix(".__init__")


def largest_modules(n: int) -> list[tuple[str, int]]:
    sizes = [(str(p.relative_to(ROOT)), len(p.read_text("utf-8").splitlines()))
             for p in PACKAGE.rglob("*.py")]
    return sorted(sizes, key=lambda x: -x[1])[:n]


def most_complex(n: int) -> list[tuple[str, int]]:
    """The ``n`` functions of highest cyclomatic complexity (radon), as ``path:line name``."""
    from radon.complexity import cc_visit

    found = []
    for p in PACKAGE.rglob("*.py"):
        for block in cc_visit(p.read_text("utf-8")):
            found.append((f"{p.relative_to(ROOT)}:{block.lineno} {block.fullname}",
                          block.complexity))
    return sorted(found, key=lambda x: -x[1])[:n]


def import_cycles() -> list[list[str]]:
    """Strongly connected groups (more than one module) of the top-level chemie imports."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = graph[name] = set()
        for node in ast.parse(path.read_text("utf-8")).body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("chemie"):
                edges.update(m for m in (node.module, *(f"{node.module}.{a.name}"
                                                        for a in node.names)) if m in modules)
            elif isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
    return _strongly_connected(graph)


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm; only groups of two or more nodes."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []
    counter = itertools.count()

    def visit(v: str) -> None:
        index[v] = low[v] = next(counter)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for v in graph:
        if v not in index:
            visit(v)
    return out


def contracts() -> tuple[str, int]:
    """The import-linter summary line and its exit status."""
    run = subprocess.run(["lint-imports"], cwd=ROOT, capture_output=True, text=True, check=False)
    lines = [ln for ln in run.stdout.splitlines() if re.search(r"KEPT|BROKEN|Contracts:", ln)]
    ignored = sum("ignore_imports" in ln for ln in (ROOT / "setup.cfg").read_text().splitlines())
    return "; ".join(lines) + f"; ignore_imports entries: {ignored}", run.returncode


ARM = """
import functools, itertools, sys
from chemie.formats.chemu import iter_chemu
from chemie.model import Document
from chemie.nlp import annotate, load
docs = [Document(d.id, d.text) for d in itertools.islice(iter_chemu(sys.argv[1]), int(sys.argv[2]))]
nlp = load(roles=True)
for d in docs:
    annotate(nlp, d)
functools.reduce(lambda _, d: annotate(nlp, d), docs, None)
"""


def instructions(code: Path, docs: int, data: Path) -> int:
    """Callgrind instructions of one counted pass (inside ``functools.reduce``) with the
    ``chemie`` package found at ``code`` first on the path."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cg.out"
        env = {**os.environ, "PYTHONPATH": str(code), "PYTHONHASHSEED": "0"}
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        "--collect-atstart=no", "--toggle-collect=functools_reduce",
                        sys.executable, "-c", ARM, str(data), str(docs)],
                       env=env, check=True, capture_output=True)
        for line in out.read_text().splitlines():
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise RuntimeError("callgrind wrote no totals")


def snapshot(rev: str | None, dest: Path) -> Path:
    """A folder holding the ``chemie`` package (with its rules and lexicons) of ``rev``
    (None: the working tree)."""
    pkg = dest / "chemie"
    if rev is None:
        shutil.copytree(PACKAGE, pkg)
        shutil.copytree(ROOT / "rules", pkg / "rules")
        shutil.copytree(ROOT / "lexicons", pkg / "lexicons")
        return dest
    dest.mkdir(parents=True)
    archive = dest / "src.tar"
    with archive.open("wb") as f:
        subprocess.run(["git", "archive", rev, "pipeline", "rules", "lexicons"], cwd=ROOT,
                       stdout=f, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(dest / "src", filter="data")
    (dest / "src" / "pipeline").rename(pkg)
    for part in ("rules", "lexicons"):
        (dest / "src" / part).rename(pkg / part)
    return dest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV", help="count instructions against REV")
    parser.add_argument("--docs", type=int, default=50)
    parser.add_argument("--data", type=Path,
                        default=ROOT.parent / "shared" / "data" / "chemu-ref" / "train.jsonl")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures: dict[str, object] = {
        "largest modules": largest_modules(5),
        "most complex functions": most_complex(5),
        "import cycles": import_cycles(),
        "contracts": contracts()[0],
    }
    if args.against:
        if shutil.which("valgrind") is None:
            sys.exit("structure.py: --against needs valgrind (not found on PATH)")
        with tempfile.TemporaryDirectory() as tmp:
            count = functools.partial(instructions, docs=args.docs, data=args.data)
            base = count(snapshot(args.against, Path(tmp) / "base"))
            mine = count(snapshot(None, Path(tmp) / "mine"))
        figures["instructions"] = {args.against: base, "working tree": mine,
                                   "ratio": round(mine / base, 4), "docs": args.docs}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"largest modules (target: none over {MAX_LINES} lines)")
    for path, n in figures["largest modules"]:
        print(f"  {n:5d}  {path}")
    print(f"most complex functions, McCabe by radon (target: none over {MAX_COMPLEXITY})")
    for where, n in figures["most complex functions"]:
        print(f"  {n:5d}  {where}")
    print(f"import cycles among top-level imports (target: none): {figures['import cycles']}")
    print(f"import-linter: {figures['contracts']}")
    if "instructions" in figures:
        ins = figures["instructions"]
        print(f"instructions, pipeline with roles and events, {ins['docs']} ChEMU-Ref snippets: "
              f"{args.against} {ins[args.against]:,}, working tree {ins['working tree']:,}, "
              f"ratio {ins['ratio']} (target: within 3%)")


if __name__ == "__main__":
    main()
