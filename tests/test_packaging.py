"""The built wheel holds every file of the package: a module, rule table, lexicon, page
asset or example that the source tree has and the wheel lacks would work in the editable
install of the tests and fail for a user (.ci/run also installs the wheel and runs the
README's first command from outside the checkout)."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SKIP = ("__pycache__", ".pyc")


def _package_dirs() -> dict[str, Path]:
    """Import name -> source folder, from setup.cfg's package_dir."""
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    out = {}
    for line in config["options"]["package_dir"].strip().splitlines():
        name, _, folder = (part.strip() for part in line.partition("="))
        out[name] = REPO / folder
    return out


def _source_files() -> set[str]:
    """Every file the package's source folders hold, as a path inside the wheel."""
    dirs = _package_dirs()
    files = set()
    for name, folder in dirs.items():
        inner = [d for n, d in dirs.items() if n != name and d.is_relative_to(folder)]
        for path in folder.rglob("*"):
            if not path.is_file() or any(s in str(path) for s in SKIP):
                continue
            if any(path.is_relative_to(d) for d in inner):
                continue
            files.add("/".join([*name.split("."), *path.relative_to(folder).parts]))
    return files


@pytest.mark.slow
def test_the_wheel_holds_every_file_of_the_source_tree(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("setup.cfg", "pyproject.toml", "README.md"):
        shutil.copy(REPO / name, src / name)
    for folder in {d.relative_to(REPO).parts[0] for d in _package_dirs().values()}:
        shutil.copytree(REPO / folder, src / folder, ignore=shutil.ignore_patterns(*SKIP))
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
         str(src)], capture_output=True, text=True, timeout=600, check=False)
    if proc.returncode != 0 and "No matching distribution" in proc.stderr:
        pytest.skip("the build requirements (setuptools, wheel) cannot be installed here")
    assert proc.returncode == 0, proc.stderr[-3000:]
    [wheel] = (tmp_path / "dist").glob("chemie-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        packed = {n for n in zf.namelist() if not n.split("/")[0].endswith(".dist-info")}
    missing = sorted(_source_files() - packed)
    assert not missing, f"{len(missing)} files of the source are not in the wheel: {missing[:10]}"
    assert "chemie/rules/characters.yaml" in packed and "chemie/show/page.js" in packed
