"""The notebooks execute from top to bottom (nbclient, in a temporary folder) and show results.

They read the development corpora (skipped when absent, like every corpus test); the
``CHEMIE_NOTEBOOK_DOCS`` environment variable limits them to a slice of the data.
"""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def _execute(name: str, tmp_path: Path, monkeypatch, data: Path, docs: int):
    monkeypatch.setenv("CHEMIE_DATA", str(data))
    monkeypatch.setenv("CHEMIE_NOTEBOOK_DOCS", str(docs))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.get("outputs"), f"{name}: commit notebooks without outputs"
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    return nb


def _outputs(nb) -> tuple[str, int]:
    """All text/plain and stream text of the executed notebook, and the number of images."""
    texts, images = [], 0
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                pytest.fail(f"{out['ename']}: {out['evalue']}")
            texts.append(out.get("text", ""))
            data = out.get("data", {})
            texts.append(data.get("text/plain", ""))
            images += "image/png" in data
    return "\n".join(texts), images


@pytest.mark.slow
def test_error_analysis_notebook(corpus, tmp_path, monkeypatch):
    path = corpus("chemu-ref/train.jsonl")
    nb = _execute("error_analysis.ipynb", tmp_path, monkeypatch, path.parents[1], 150)
    text, images = _outputs(nb)
    assert "150 development documents" in text
    for label in ("COREFERENCE", "WORK_UP", "overall"):  # per-type table
        assert label in text
    assert "wrong" in text and "precision" in text  # rules with most false positives
    assert "anaphor_head" in text  # missed gold links by pattern
    assert images == 2  # F1 per relation type, F1 per rule
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # writes nothing


@pytest.mark.slow
def test_ner_analysis_notebook(corpus, tmp_path, monkeypatch):
    path = corpus("bc5cdr-chem/devel.tsv")
    nb = _execute("ner_analysis.ipynb", tmp_path, monkeypatch, path.parents[1], 400)
    text, images = _outputs(nb)
    assert "400 sentences" in text
    assert "Chemical" in text and "overall" in text  # the official IOB table
    for heading in ("TRIVIAL", "precision", "boundary", "spurious", "lexicon:"):
        assert heading in text  # by class, by rule, error types
    assert images == 2  # per class, per rule
    assert sorted(p.name for p in tmp_path.iterdir()) == []
