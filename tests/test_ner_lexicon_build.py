"""The derived lexicons: deterministic, from training data only, with provenance."""

from __future__ import annotations

from chemie.formats.iob import parse_iob
from chemie.lexicon_build import (
    CHEMICALS_FILE,
    NONCHEMICAL_FILE,
    derive_chemicals,
    derive_nonchemical,
    main,
    write_lexicons,
)
from chemie.resources import lexicon_path

TRAIN = (
    "Cocaine\tB-Chemical\nkills\tO\nrats\tO\n.\tO\n\n"
    "5\tB-Chemical\n-\tI-Chemical\nfluorouracil\tI-Chemical\nkills\tO\nrats\tO\n\n"
    "lead\tB-Chemical\nlead\tO\nlead\tO\ncocaine\tB-Chemical\n\n"
    "the\tO\nrats\tO\nwere\tO\ntreated\tO\n"
)


def test_precision_filter_and_surface_form():
    sents = parse_iob(TRAIN)
    entries = {e.name: e for e in derive_chemicals(sents, min_precision=0.5)}
    assert set(entries) == {"5 - fluorouracil", "Cocaine"}
    assert entries["Cocaine"].count == 2 and entries["Cocaine"].occurrences == 2
    assert "lead" in {e.name for e in derive_chemicals(sents, min_precision=0.3)}


def test_stop_list_words_mostly_outside():
    words = derive_nonchemical(parse_iob(TRAIN), min_count=2)
    assert "rats" in words and "kills" in words
    assert "lead" not in words and "cocaine" not in words


def test_write_is_deterministic_with_header(tmp_path):
    train = tmp_path / "train.tsv"
    train.write_text(TRAIN, encoding="utf-8")
    a = write_lexicons(train, tmp_path / "a")
    b = write_lexicons(train, tmp_path / "b")
    for pa, pb in zip(a, b, strict=True):
        assert pa.read_bytes() == pb.read_bytes()
        head = pa.read_text(encoding="utf-8").splitlines()[:2]
        assert "python -m chemie.lexicon_build" in head[0]
        assert "train.tsv (training split only)" in head[1]


def test_shipped_lists_have_provenance_headers():
    for name in (CHEMICALS_FILE, NONCHEMICAL_FILE):
        head = lexicon_path(name).read_text(encoding="utf-8").splitlines()[:2]
        assert head[0].startswith("# Derived automatically")
        assert "bc5cdr-chem/train.tsv" in head[1]


def test_shipped_lists_are_reproduced_from_training(tmp_path, corpus):
    train = corpus("bc5cdr-chem/train.tsv")
    assert main(["--train", str(train), "--out", str(tmp_path)]) == 0
    for name in (CHEMICALS_FILE, NONCHEMICAL_FILE):
        assert (tmp_path / name).read_text(encoding="utf-8") == lexicon_path(name).read_text(
            encoding="utf-8"
        )
