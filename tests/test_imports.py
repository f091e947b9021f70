"""The import graph of ``chemie``: no cycles (imports inside functions count), and every
module imports on its own in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pipeline"  # the package ``chemie``


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Module name -> file, for every ``.py`` file of the package."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(["chemie", *parts])] = path
    return found


def import_edges(known: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the chemie modules it imports anywhere in its code (at the top, inside a
    function or under ``TYPE_CHECKING``); ``from chemie import x`` names the module ``x``."""
    edges: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parent, *([base] if base else [])])
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in known else base)
            edges[name].update(t for t in targets if t in known and t != name)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_graph_walk_finds_a_cycle_through_a_deferred_import(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from chemie.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .. import a\n")
    (pkg / "c.py").write_text("from chemie import a\n")
    edges = import_edges(modules(pkg))
    assert edges["chemie.c"] == {"chemie.a"}
    assert cycles(edges) == [frozenset({"chemie.a", "chemie.sub.b"})]


def test_the_package_has_no_import_cycles():
    found = cycles(import_edges(modules()))
    assert not found, sorted(map(sorted, found))


@pytest.mark.slow
def test_every_module_imports_fresh_on_its_own():
    """Each module imported first, in an interpreter where no chemie module is loaded."""
    names = sorted(n for n in modules() if n != "chemie.__main__")
    script = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    for loaded in [m for m in sys.modules if m == 'chemie' or m.startswith('chemie.')]:\n"
        "        del sys.modules[loaded]\n"
        "    importlib.import_module(name)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *names], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_every_top_level_module_has_a_layer():
    """``lint-imports`` checks only the modules its layers contract names (setup.cfg): a new
    top-level module or package of ``chemie`` must be given its layer there."""
    import configparser

    config = configparser.ConfigParser()
    config.read(PACKAGE.parent / "setup.cfg", encoding="utf-8")
    layers = config["importlinter:contract:layers"]["layers"]
    named = {m.strip() for line in layers.split("\n") for m in line.replace(":", "|").split("|")}
    top = {".".join(name.split(".")[:2]) for name in modules() if name != "chemie"}
    assert top - named == set()
    assert named - top - {""} == set()


def test_the_roles_component_imports_no_reactions_module():
    """chemie_roles is given the decision the reactions own through its factory's config
    (spaCy's registry), not by an import that runs up the layers (issue 20)."""
    script = (
        "import sys\n"
        "import chemie.roles.component\n"
        "print([m for m in sys.modules if m.startswith('chemie.reactions')])\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == "[]\n"
