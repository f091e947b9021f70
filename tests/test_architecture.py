"""ARCHITECTURE.md stays true: every ``chemie.…`` name it gives imports, its stage table names
the stage packages (each declaring a component), and its layers table names exactly the
packages of the layers contract in setup.cfg (which ``lint-imports`` checks)."""

from __future__ import annotations

import configparser
import re
from pathlib import Path

import pytest
from test_contributing import _resolve

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
# a module or attribute of chemie (not a registered name such as "chemie.text_tier.v1")
DOTTED = re.compile(r"(?<![\w.])chemie(?:\.\w+)+(?<!\.v\d)(?![\w.])")


def _section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n## ", start + 1)
    return DOC[start:end if end > 0 else len(DOC)]


def _contract_layers() -> set[str]:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg", encoding="utf-8")
    layers = cfg["importlinter:contract:layers"]["layers"]
    return {m.strip() for line in layers.split("\n") for m in line.split("|") if m.strip()}


def test_the_document_names_modules():
    assert len(set(DOTTED.findall(DOC))) > 30


@pytest.mark.parametrize("name", sorted(set(DOTTED.findall(DOC)) - {"chemie.__main__"}))
def test_every_chemie_name_imports(name):
    _resolve(name)  # (chemie.__main__ is left out: importing it runs the command line)


def test_every_stage_of_the_table_is_a_package_that_declares_a_component():
    from chemie.nlp import FACTORY_MODULES

    stages = re.findall(r"^\| [\w ]+ \| `(chemie\.\w+)`", _section("## The data path"), re.M)
    assert len(stages) == 9
    for stage in stages:
        assert any(m.startswith(stage + ".") for m in FACTORY_MODULES.values()), stage
        if stage != "chemie.tokenizer":  # (its component is the sentence segmenter)
            assert (ROOT / "pipeline" / stage.removeprefix("chemie.") / "component.py").is_file()


def test_the_layers_table_names_the_packages_of_the_layers_contract():
    named = set(DOTTED.findall(_section("## The layers").split("\n\n", 2)[2].split("\n\n")[0]))
    top_level = {n for n in named if n.count(".") == 1}
    assert top_level == _contract_layers(), sorted(top_level ^ _contract_layers())
