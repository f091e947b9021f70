"""Optional extras: without dask/pyarrow everything but the Dask engine and Parquet works,
and asking for those names the extra to install in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from chemie.cli import main

SCALE = Path(__file__).parent / "fixtures" / "scale"
TEXTS = SCALE / "texts"


@pytest.fixture
def without(monkeypatch):
    """Make ``import NAME`` fail for the given modules, as if they were not installed."""

    def block(*names: str) -> None:
        for name in names:
            monkeypatch.setitem(sys.modules, name, None)

    return block


@pytest.mark.parametrize(
    ("argv", "missing", "extra"),
    [
        (["run", str(TEXTS), "--format", "parquet", "-o", "{out}"], "pyarrow", "parquet"),
        (["run", str(TEXTS), "-o", "{out}.parquet"], "pyarrow", "parquet"),
        (["ner", str(TEXTS), "--format", "parquet", "-o", "{out}"], "pyarrow", "parquet"),
        (["run", str(TEXTS), "-o", "{out}", "--engine", "dask"], "distributed", "cluster"),
        (["ner", str(TEXTS), "-o", "{out}", "--scheduler", "tcp://localhost:1"], "distributed",
         "cluster"),
    ],
)
def test_a_missing_extra_is_named_in_one_line(tmp_path, capsys, without, argv, missing, extra):
    without(missing)
    out = tmp_path / "out"
    assert main([a.format(out=out) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"pip install 'chemie[{extra}]'" in err
    assert list(tmp_path.iterdir()) == []


CORE = """
import sys
for name in ("pyarrow", "dask", "distributed"):
    sys.modules[name] = None  # as after a plain `pip install chemie`
from chemie.cli import main
status = main(sys.argv[1:])
loaded = [m for m in ("pyarrow", "dask", "distributed") if sys.modules.get(m) is not None]
sys.exit(status or (9 if loaded else 0))
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["run", str(TEXTS), "--format", "csv", "-o", "{out}"],
        ["run", str(SCALE / "snippets.jsonl"), "-o", "{out}.jsonl", "--workers", "2"],
        ["ner", str(TEXTS), "-o", "{out}.tsv"],
        ["show", str(SCALE / "snippets.jsonl"), "-o", "{out}.html"],
    ],
)
def test_the_core_commands_run_without_the_extras(tmp_path, argv):
    out = tmp_path / "out"
    cmd = [sys.executable, "-c", CORE, *(a.format(out=out) for a in argv), "-q"]
    if argv[0] == "show":
        cmd.pop()  # show has no --quiet
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert any(tmp_path.iterdir())


def test_each_extra_is_declared_in_setup_cfg_and_tested():
    import configparser

    from chemie.extras import EXTRAS

    cfg = configparser.ConfigParser()
    cfg.read(Path(__file__).parent.parent / "setup.cfg")
    extras = cfg["options.extras_require"]
    core = set(cfg["options"]["install_requires"].split())
    for extra in EXTRAS:
        declared = set(extras[extra].split())
        assert declared and declared <= set(extras["test"].split())  # the tests use them
        assert not declared & core  # a plain install goes without them


def test_what_pip_install_leaves_in_the_checkout_is_ignored_by_git():
    """`pip install .` builds in the checkout: build/ and chemie.egg-info/ at its root."""
    import shutil

    root = Path(__file__).parent.parent
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    leftovers = ["build/lib/chemie/cli.py", "build/bdist.linux-x86_64/x",
                 "chemie.egg-info/PKG-INFO"]
    done = subprocess.run(["git", "check-ignore", "--no-index", *leftovers], cwd=root,
                          capture_output=True, text=True)
    assert done.stdout.split() == leftovers
    kept = subprocess.run(["git", "check-ignore", "--no-index", "pipeline/scale/build.py"],
                          cwd=root, capture_output=True, text=True)
    assert kept.returncode == 1  # a source file named like them is not ignored
