"""The role lexicon is derived, never hand-edited: the build script reproduces it."""

from __future__ import annotations

from chemie.resources import lexicon_path
from chemie.roles_lexicon_build import LEXICON_FILE, main


def test_shipped_lexicon_has_a_provenance_header():
    head = lexicon_path(LEXICON_FILE).read_text(encoding="utf-8").splitlines()[:2]
    assert "python -m chemie.roles_lexicon_build" in head[0]
    assert "chemu2020/train documents 0:600" in head[1]


def test_shipped_lexicon_is_reproduced_from_the_development_documents(tmp_path, corpus):
    corpus("chemu2020/train")
    data = corpus("chemu-ref/train.jsonl").parent.parent
    out = tmp_path / LEXICON_FILE
    assert main(["--data", str(data), "--out", str(out)]) == 0
    shipped = lexicon_path(LEXICON_FILE).read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == shipped


def test_a_missing_corpus_is_one_line_and_status_2(tmp_path, capsys):
    assert main(["--data", str(tmp_path), "--out", str(tmp_path / "x.tsv")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert not (tmp_path / "x.tsv").exists()
