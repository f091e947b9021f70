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


def test_score_cdi_refuses_a_cem_prediction_file(tmp_path, capsys):
    gold, pred = tmp_path / "gold.tsv", tmp_path / "pred.tsv"
    gold.write_text("101\tA\t0\t11\tAcetic acid\tTRIVIAL\n")
    pred.write_text("101\tA:0:11\t1\t0.9\n")
    assert main(["score", "cdi", str(gold), str(pred)]) == 2
    assert f"{pred}:1: name 'A:0:11' is a CEM offset" in _one_error(capsys)
    assert read_cem(pred)[0].key == ("A", 0, 11)


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


