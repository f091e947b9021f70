"""Input hardening: no output overwrites an input, one size limit for every input format,
byte-order marks, and the bad inputs that were accepted silently or named wrongly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from chemie.cli import main
from chemie.errors import InputError
from chemie.formats.brat import read_brat_pair
from chemie.formats.chemdner import read_annotations, read_cem
from chemie.formats.chemu import parse_chemu_line
from chemie.formats.scierc import read as read_scierc
from chemie.formats.semeval import read_xml

TEXT = "Acetic acid (5 ml) was added to the amine. The mixture was stirred.\n"
IOB = "water\tB-Chemical\nwas\tO\nadded\tO\n"
ABSTRACTS = "101\tWater title\tAcetic acid was added to the amine.\n"


def _one_error(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def _link(kind: str, target: Path, link: Path) -> Path:
    """``link`` made to name ``target``: the same path, a symbolic link or a hard link."""
    if kind == "path":
        return target.parent / "." / target.name
    if kind == "symlink":
        link.symlink_to(target)
    else:
        os.link(target, link)
    return link


# --- outputs that would overwrite an input -------------------------------------------------


@pytest.mark.parametrize("kind", ["path", "symlink", "hardlink"])
def test_ner_text_output_that_is_the_input_is_refused(tmp_path, capsys, kind):
    src = tmp_path / "a.txt"
    src.write_text(TEXT)
    out = _link(kind, src, tmp_path / "out.tsv")
    assert main(["ner", str(src), "-o", str(out)]) == 2
    assert "output file is also an input" in _one_error(capsys)
    assert src.read_text() == TEXT


def test_ner_iob_output_that_is_the_input_is_refused(tmp_path, capsys):
    src = tmp_path / "x.tsv"
    src.write_text(IOB)
    assert main(["ner", str(src), "-o", str(src)]) == 2
    assert f"{src}: output file is also an input" in _one_error(capsys)
    assert src.read_text() == IOB


def test_ner_chemdner_prefix_that_names_the_input_is_refused(tmp_path, capsys):
    src = tmp_path / "abs.cem.tsv"
    src.write_text(ABSTRACTS)
    assert main(["ner", str(src), "-o", str(tmp_path / "abs"), "-q"]) == 2
    assert "output file is also an input" in _one_error(capsys)
    assert src.read_text() == ABSTRACTS


def test_ner_output_file_inside_an_input_folder_is_refused(tmp_path, capsys):
    folder = tmp_path / "texts"
    folder.mkdir()
    (folder / "a.txt").write_text(TEXT)
    (folder / "b.txt").write_text(TEXT)
    assert main(["ner", str(folder), "-o", str(folder / "b.txt"), "-q"]) == 2
    assert "is an input in the folder" in _one_error(capsys)
    assert (folder / "b.txt").read_text() == TEXT


@pytest.mark.parametrize("which", ["gold", "pred"])
def test_score_report_over_gold_or_prediction_is_refused(tmp_path, capsys, which):
    gold, pred = tmp_path / "gold.tsv", tmp_path / "pred.tsv"
    gold.write_text("101\tA\t0\t11\tAcetic acid\tTRIVIAL\n")
    pred.write_text("101\tA:0:11\t1\t0.9\n")
    before = {p: p.read_text() for p in (gold, pred)}
    out = gold if which == "gold" else pred
    assert main(["score", "cem", str(gold), str(pred), "-o", str(out)]) == 2
    assert "output file is also an input" in _one_error(capsys)
    assert {p: p.read_text() for p in (gold, pred)} == before


def test_rc_output_hard_linked_to_the_pairs_is_refused(fixtures, tmp_path, capsys):
    tokens, pairs = tmp_path / "tokens.txt", tmp_path / "pairs.txt"
    tokens.write_text((fixtures / "rc/cv-tokens.txt").read_text())
    pairs.write_text((fixtures / "rc/cv-pairs.txt").read_text())
    out = _link("hardlink", pairs, tmp_path / "out.txt")
    assert main(["rc", str(tokens), str(pairs), "-o", str(out)]) == 2
    assert "(" + str(pairs) + ", the same file)" in _one_error(capsys)


def test_run_brat_folder_that_holds_a_text_input_is_refused(tmp_path, capsys):
    src = tmp_path / "a.txt"
    src.write_text(TEXT)
    assert main(["run", str(src), "-o", str(tmp_path), "-q"]) == 2
    assert "output file is also an input" in _one_error(capsys)
    assert not (tmp_path / "a.ann").exists()
    assert main(["run", str(src), "-o", str(tmp_path / "brat"), "-q", "--workers", "1"]) == 0


def test_run_brat_folder_that_would_write_into_the_input_folder_is_refused(tmp_path, capsys):
    inner = tmp_path / "data" / "texts"
    (inner / "texts").mkdir(parents=True)  # data/texts/texts/a.txt -> data/texts/a.txt
    (inner / "texts" / "a.txt").write_text(TEXT)
    (inner / "a.txt").write_text("Water was added.\n")
    assert main(["run", str(inner), "-o", str(tmp_path / "data"), "-q"]) == 2
    assert "would write into the input folder" in _one_error(capsys)
    assert (inner / "a.txt").read_text() == "Water was added.\n"


def test_run_jsonl_output_through_a_symlink_to_the_input_is_refused(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text('{"doc_key": "a", "sentences": [["Water", "was", "added", "."]]}\n')
    out = _link("symlink", src, tmp_path / "out.jsonl")
    assert main(["run", str(src), "-o", str(out), "-q"]) == 2
    assert "output file is also an input" in _one_error(capsys)
    assert out.is_symlink()


def test_show_page_that_links_to_the_input_is_refused(tmp_path, capsys):
    src = tmp_path / "a.txt"
    src.write_text(TEXT)
    out = _link("symlink", src, tmp_path / "page.html")
    assert main(["show", str(src), "-o", str(out), "--no-run"]) == 2
    assert "output file is also an input" in _one_error(capsys)
    assert out.is_symlink() and src.read_text() == TEXT


# --- inputs that were accepted silently, or named wrongly ------------------------------------


def test_score_cdi_refuses_a_cem_prediction_file(tmp_path, capsys):
    gold, pred = tmp_path / "gold.tsv", tmp_path / "pred.tsv"
    gold.write_text("101\tA\t0\t11\tAcetic acid\tTRIVIAL\n")
    pred.write_text("101\tA:0:11\t1\t0.9\n")
    assert main(["score", "cdi", str(gold), str(pred)]) == 2
    assert f"{pred}:1: name 'A:0:11' is a CEM offset" in _one_error(capsys)
    assert read_cem(pred)[0].key == ("A", 0, 11)


@pytest.mark.parametrize("second", ["T1.1\tT1.2\tUSAGE", "T1.2\tT1.1"])
def test_rc_refuses_a_repeated_pair(tmp_path, capsys, second):
    tokens, pairs = tmp_path / "tokens.txt", tmp_path / "pairs.txt"
    tokens.write_text("T1\t0\t0\tparsers\tT1.1\nT1\t0\t1\tuse\tNO-ENTITY\nT1\t0\t2\tgrammars\tT1.2\n")
    pairs.write_text(f"T1.1\tT1.2\tUSAGE\n{second}\n")
    out = tmp_path / "pred.txt"
    assert main(["rc", str(tokens), str(pairs), "-o", str(out)]) == 2
    assert f"{pairs}:2: pair " in (err := _one_error(capsys)) and "repeats line 1" in err
    assert not out.exists()


XML = '<doc>\n<text id="X1"><title>{} <entity id="X1.1">parsers</entity></title></text>\n</doc>\n'


@pytest.mark.parametrize(
    "text, message",
    [
        ("AT&T", "'&' that starts no entity"),
        ("we use &foo; here", "unknown entity &foo;"),
        ("a &#0; b", "character reference &#0; is not an XML character"),
    ],
)
def test_semeval_xml_with_a_bad_entity_is_refused(tmp_path, text, message):
    path = tmp_path / "a.xml"
    path.write_text(XML.format(text))
    with pytest.raises(InputError, match=f"a.xml:2: {message}"):
        read_xml(path)


def test_semeval_xml_entities_and_character_references_are_decoded(tmp_path):
    path = tmp_path / "a.xml"
    path.write_text(XML.format("AT&amp;T&apos;s &#233;t&#xE9; &lt;b&gt;"))
    doc = read_xml(path)["X1"]
    assert doc.sentences[0][:5] == ["AT", "&", "T's", "été", "<"]


def test_reversed_ranges_are_called_reversed(tmp_path):
    txt, ann = tmp_path / "d.txt", tmp_path / "d.ann"
    txt.write_text("Water was added to the flask and stirred for one hour.")
    ann.write_text("T96\tENTITY 50 40\tx\n")
    with pytest.raises(InputError, match="T96: offsets 50 40 are reversed"):
        read_brat_pair(txt, ann)
    line = '{"doc_key": "a", "sentences": [["a", "b", "c", "d", "e", "f"]], ' \
        '"Coreference": [[[[5, 2]], [[0, 0]]]]}'
    with pytest.raises(InputError, match=r"token range \[5, 2\] is reversed"):
        parse_chemu_line(line)
    gold = tmp_path / "gold.tsv"
    gold.write_text("101\tA\t11\t0\tAcetic acid\tTRIVIAL\n")
    with pytest.raises(InputError, match="bad offsets 11-0: reversed"):
        read_annotations(gold)
    pred = tmp_path / "cem.tsv"
    pred.write_text("101\tA:11:0\t1\t0.9\n")
    with pytest.raises(InputError, match="bad offsets 11-0: reversed"):
        read_cem(pred)
    scierc = tmp_path / "s.json"
    scierc.write_text(json.dumps({"doc_key": "s", "sentences": [["a", "b", "c"]],
                                  "ner": [[[2, 1, "Task"]]], "relations": [[]]}) + "\n")
    with pytest.raises(InputError, match=r"span \[2, 1\] is reversed"):
        read_scierc(scierc)


