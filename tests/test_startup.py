"""The command line starts light: ``chemie --help``, every command's help and argument
errors import neither spaCy nor pandas; a run leaves ``spacy.cli`` out, and the process
ends with its status and complete outputs (chemie.startup). What is imported is asserted
here; the time it takes is measured by benchmarks/startup.py."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from chemie.cli import build_parser

HEAVY = ("spacy", "pandas", "numpy", "pyarrow", "rdkit", "scipy", "thinc")
COMMANDS = sorted(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]

# the command line as the console script runs it, reporting at exit what it imported
PROBE = """
import atexit, json, sys
def report():
    sys.stderr.write("\\nMODULES " + json.dumps(sorted(m for m in sys.modules
        if m.split(".")[0] in {heavy!r} or m in ("spacy.cli", "typer", "click"))) + "\\n")
    sys.stderr.write("PLACEHOLDER " + str(type(sys.modules.get("spacy.cli")).__name__) + "\\n")
atexit.register(report)
sys.argv = ["chemie", *{argv!r}]
from chemie.cli import entry
entry()
"""


def _chemie(*argv: str, cwd=None) -> tuple[int, str, list[str], str]:
    """Status, stdout, the heavy modules imported and the type of ``spacy.cli``."""
    code = PROBE.format(heavy=HEAVY, argv=list(argv))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, cwd=cwd, check=False)
    line = next(x for x in proc.stderr.splitlines() if x.startswith("MODULES "))
    kind = next(x for x in proc.stderr.splitlines() if x.startswith("PLACEHOLDER "))
    return proc.returncode, proc.stdout, json.loads(line[len("MODULES "):]), kind.split()[1]


def _top(modules: list[str]) -> set[str]:
    return {m.split(".")[0] for m in modules}


def test_chemie_help_imports_neither_spacy_nor_pandas():
    status, out, modules, _ = _chemie("--help")
    assert status == 0 and "score" in out and "reactions" in out
    assert not _top(modules) & set(HEAVY), modules


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_is_light(command):
    status, out, modules, _ = _chemie(command, "--help")
    assert status == 0 and out.startswith(f"usage: chemie {command}")
    assert not _top(modules) & {"spacy", "pandas"}, modules


@pytest.mark.parametrize("argv", [
    ["run", "--workers", "0"], ["reactions"], ["score", "nonsense", "a", "b"],
    ["ner", "x.txt", "--format", "nope"], ["show"], ["no-such-command"],
])
def test_argument_errors_are_light(argv):
    status, _, modules, _ = _chemie(*argv)
    assert status == 2
    assert not _top(modules) & {"spacy", "pandas"}, modules


def test_a_run_leaves_spacy_cli_out_and_writes_everything(tmp_path):
    (tmp_path / "a.txt").write_text("Acetic acid (5 mL) was added to the amine. The "
                                    "mixture was stirred.\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    status, _, modules, placeholder = _chemie("run", "a.txt", "-o", str(out), "--format",
                                              "json", "-q", cwd=tmp_path)
    assert status == 0
    assert "spacy" in modules and not {"typer", "click"} & set(modules)
    assert placeholder == "_LazyPackage"  # the real spacy.cli was never needed
    [doc] = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert doc["id"] == "a" and doc["mentions"]
    # the exit status of a failed run comes through the quick ending too
    status, _, _, _ = _chemie("run", str(tmp_path / "missing.txt"))
    assert status == 2


def test_the_placeholder_imports_the_real_spacy_cli_when_used():
    code = ("from chemie import startup\nstartup.skip_spacy_cli()\nimport spacy, sys\n"
            "assert 'typer' not in sys.modules\nimport spacy.cli\n"
            "print(callable(spacy.cli.download), type(sys.modules['spacy.cli']).__name__)\n"
            "print(isinstance(spacy.info(), dict))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["True", "module", "True"]


def test_the_library_is_left_alone():
    """In-process callers (tests, notebooks) keep their collector: building a pipeline
    freezes nothing unless the process is the command line."""
    import gc

    from chemie import startup
    from chemie.scale.worker import Job, build

    assert not startup.active()
    frozen = gc.get_freeze_count()
    with startup.building():
        build(Job("tokenize", "run/json"))
    assert gc.isenabled() and gc.get_freeze_count() == frozen
