"""CONTRIBUTING.md stays true: every file it names exists (or, marked "(new)" where it is
first named, is one that an example creates and does not exist yet), every ``chemie.x.y``
name imports, and every test function it names is defined in tests/."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")

# a repository path: under a top-level folder of the repo, or a file at its root
PATH = re.compile(
    r"(?<![\w./-])(?:(?:pipeline|rules|lexicons|tests|notebooks|benchmarks|\.ci)/[\w./-]*[\w/]"
    r"|README\.md|CONTRIBUTING\.md|setup\.cfg|pyproject\.toml|ruff\.toml)"
)
NEW = re.compile(r"`?\s*\(new\)")  # right after a path: a file the example creates
DOTTED = re.compile(r"(?<![\w.])chemie(?:\.\w+)+")
TEST_NAME = re.compile(r"`(test_\w+)")


def _paths() -> tuple[set[str], set[str]]:
    """(existing, new): the paths the guide names; a path marked "(new)" once is new."""
    found = list(PATH.finditer(GUIDE))
    new = {m.group() for m in found if NEW.match(GUIDE, m.end())}
    return {m.group() for m in found} - new, new


EXISTING, NEW_FILES = _paths()
# modules an example creates: pipeline/vessels/component.py -> chemie.vessels.component
NEW_MODULES = {
    ("chemie." + p.removeprefix("pipeline/").removesuffix(".py").replace("/", ".")).removesuffix(
        ".__init__")
    for p in NEW_FILES if p.startswith("pipeline/") and p.endswith(".py")
}


def _resolve(name: str) -> object:
    """The module or attribute ``name`` (the longest importable prefix, then attributes)."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        module = ".".join(parts[:i])
        try:
            found: object = importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name is not None and module.startswith(e.name):
                continue
            raise
        for attr in parts[i:]:
            found = getattr(found, attr)
        return found
    raise ModuleNotFoundError(name)


def test_the_guide_names_files_and_modules():
    assert len(EXISTING) > 30 and NEW_FILES
    assert len(set(DOTTED.findall(GUIDE))) > 15


@pytest.mark.parametrize("path", sorted(EXISTING))
def test_every_file_named_exists(path):
    assert (ROOT / path).exists(), f"CONTRIBUTING.md names {path}, which does not exist"


@pytest.mark.parametrize("path", sorted(NEW_FILES))
def test_every_file_an_example_creates_is_new_in_an_existing_folder(path):
    assert not (ROOT / path).exists(), f"{path} exists now: drop its (new) mark or rename it"
    parent = (ROOT / path).parent
    # in an existing folder, or in a new one the example names (a new stage package)
    new_folder = str(parent.relative_to(ROOT)) + "/" in NEW_FILES
    assert parent.is_dir() or (new_folder and parent.parent.is_dir())


@pytest.mark.parametrize(
    "name", sorted(n for n in set(DOTTED.findall(GUIDE))
                   if not any(n == m or n.startswith(m + ".") for m in NEW_MODULES))
)
def test_every_chemie_name_imports(name):
    _resolve(name)


def test_every_test_named_is_defined():
    defined = {
        m.group(1)
        for path in (ROOT / "tests").glob("test_*.py")
        for m in re.finditer(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    }
    named = set(TEST_NAME.findall(GUIDE))
    assert named and named <= defined, sorted(named - defined)


def test_the_bridging_example_names_every_antecedent_role():
    from chemie.bridging.rules import ROLES

    section = GUIDE[GUIDE.index("## 5. Add a bridging rule"):]
    assert all(f"`{role.upper()}`" in section for role in ROLES)
