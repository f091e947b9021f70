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
from chemie.limits import LINE_FACTOR, file_chars
from chemie.scale.errorlog import read_errors
from chemie.scale.sources import Item, iter_jsonl_items
from chemie.scale.worker import Job, process_item
from chemie.show.inputs import read_inputs

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


# --- one size limit -------------------------------------------------------------------------


def test_a_text_over_the_default_limit_gets_a_chemie_message_not_spacys(tmp_path, capsys):
    src = tmp_path / "big.txt"
    src.write_text("ethanolic " * 100_001)  # 1,000,010 characters
    assert main(["ner", str(src)]) == 2
    err = _one_error(capsys)
    assert f"{src}: document of 1,000,010 characters is over the limit of 1,000,000" in err
    assert "--max-chars" in err and "max_length" not in err


def test_max_chars_raises_the_limit_and_spacys_max_length(tmp_path, capsys):
    src = tmp_path / "big.txt"
    src.write_text("ethanol " * 125_001)  # 1,000,008 characters
    assert main(["ner", str(src), "--max-chars", "1100000"]) == 0
    assert capsys.readouterr().out.count("\tethanol\t") == 125_001


def test_a_builtin_job_sets_spacys_max_length_to_its_limit():
    text = "ethanolic " * 100_001
    item = Item("text", "big.txt", None, "big", text, 1)
    assert process_item(Job("tokenize", "chemu", max_chars=1_100_000), item).ok
    small = process_item(Job("tokenize", "chemu", max_chars=1000), item)
    assert small.bad_input and "over the limit of 1,000" in small.error


def test_run_fails_an_oversized_text_alone(tmp_path, capsys):
    (tmp_path / "a.txt").write_text(TEXT)
    (tmp_path / "b.txt").write_text("Water was added.\n")
    out = tmp_path / "out"
    argv = ["run", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "-o", str(out)]
    assert main([*argv, "-q", "--workers", "1", "--max-chars", "20"]) == 1
    [row] = read_errors(Path(f"{out}.errors.tsv"))
    assert (row["file"], row["id"], row["level"]) == (str(tmp_path / "a.txt"), "a", "error")
    assert f"document of {len(TEXT)} characters is over the limit of 20" in row["message"]
    assert (out / "b.ann").exists() and not (out / "a.ann").exists()


def test_a_jsonl_line_too_long_to_read_is_refused_unparsed(tmp_path):
    words = ["ethanolic"] * 30
    src = tmp_path / "in.jsonl"
    src.write_text(
        json.dumps({"doc_key": "big", "sentences": [words]}) + "\n"
        + json.dumps({"doc_key": "small", "sentences": [["Water"]]}) + "\n"
    )
    size = len(src.read_bytes().split(b"\n")[0]) + 1
    assert size > LINE_FACTOR * 10
    big, small = iter_jsonl_items(src, max_chars=10)  # lines of more than 100 bytes: unread
    assert (big.kind, big.line, big.key) == ("error", 1, "big")
    assert big.data.startswith(f"line of {size:,} bytes not read")
    assert small.kind == "jsonl"


def test_a_jsonl_document_over_the_limit_fails_alone(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(
        json.dumps({"doc_key": "long", "sentences": [["Acetic", "acid", "was", "added"]]}) + "\n"
        + json.dumps({"doc_key": "short", "sentences": [["Water", "."]]}) + "\n"
    )
    out = tmp_path / "out.jsonl"
    assert main(["run", str(src), "-o", str(out), "-q", "--max-chars", "10"]) == 1
    [row] = read_errors(Path(f"{out}.errors.tsv"))
    assert (row["line"], row["id"]) == ("1", "long")
    assert "document of 21 characters is over the limit of 10" in row["message"]
    assert [json.loads(x)["doc_key"] for x in out.read_text().splitlines()] == ["short"]


def test_a_chemdner_abstract_over_the_limit_fails_alone(tmp_path, capsys):
    src = tmp_path / "abs.tsv"
    src.write_text(ABSTRACTS + "102\tShort\tWater.\n")
    prefix = tmp_path / "pred"
    assert main(["ner", str(src), "-o", str(prefix), "-q", "--max-chars", "20"]) == 1
    [row] = read_errors(Path(f"{prefix}.errors.tsv"))
    assert (row["line"], row["id"]) == ("1", "101")
    assert "document of 47 characters is over the limit of 20" in row["message"]


def test_an_iob_sentence_over_the_limit_is_named_by_its_line(tmp_path, capsys):
    src = tmp_path / "x.tsv"
    src.write_text("Water\tB-Chemical\n\n" + IOB)
    assert main(["ner", str(src), "--max-chars", "10"]) == 2
    assert f"{src}:3: sentence of 15 characters is over the limit of 10" in _one_error(capsys)


def test_file_chars_counts_characters_not_bytes(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("\ufeffcafé → 2 °C", encoding="utf-8")
    assert file_chars(path) == len("\ufeffcafé → 2 °C")


# --- byte-order marks -----------------------------------------------------------------------


def test_offsets_of_a_text_with_a_bom_index_the_files_characters(tmp_path, capsys):
    src = tmp_path / "bom.txt"
    src.write_bytes(b"\xef\xbb\xbf" + TEXT.encode())
    chars = src.read_text(encoding="utf-8")  # the BOM is character 0
    assert main(["ner", str(src)]) == 0
    rows = [r.split("\t") for r in capsys.readouterr().out.splitlines()[1:]]
    assert rows and all(chars[int(a):int(b)] == text for _, a, b, text, *_ in rows)


def test_brat_output_of_a_text_with_a_bom_agrees_with_the_input(tmp_path):
    src = tmp_path / "bom.txt"
    src.write_bytes(b"\xef\xbb\xbf" + TEXT.encode())
    out = tmp_path / "brat"
    assert main(["run", str(src), "-o", str(out), "-q", "--workers", "1"]) == 0
    written = (out / "bom.txt").read_text(encoding="utf-8")
    chars = src.read_text(encoding="utf-8")
    assert written == " " + chars[1:]  # the BOM is read as a space: same length
    doc = read_brat_pair(out / "bom.txt", out / "bom.ann")
    assert doc.mentions
    for m in doc.mentions:
        (a, b), = m.spans
        assert written[a:b] == chars[a:b] == m.text


def test_show_reads_a_text_with_a_bom_as_the_brat_reader_does(tmp_path):
    src = tmp_path / "bom.txt"
    src.write_bytes(b"\xef\xbb\xbfWater was added.")
    [plain] = read_inputs(src)
    src.with_suffix(".ann").write_text("T1\tENTITY 1 6\tWater\n")
    [with_ann] = read_inputs(src)
    assert plain.text == with_ann.text == " Water was added."


def test_brat_annotations_counting_the_bom_are_read(tmp_path):
    txt, ann = tmp_path / "d.txt", tmp_path / "d.ann"
    txt.write_bytes(b"\xef\xbb\xbfWater was added.")
    ann.write_text("T1\tENTITY 1 6\tWater\n")
    doc = read_brat_pair(txt, ann)
    assert doc.span_text(doc.mentions[0].spans) == "Water"


# --- inputs that were accepted silently, or named wrongly ------------------------------------


def test_score_cdi_refuses_a_cem_prediction_file(tmp_path, capsys):
    gold, pred = tmp_path / "gold.tsv", tmp_path / "pred.tsv"
    gold.write_text("101\tA\t0\t11\tAcetic acid\tTRIVIAL\n")
    pred.write_text("101\tA:0:11\t1\t0.9\n")
    assert main(["score", "cdi", str(gold), str(pred)]) == 2
    assert f"{pred}:1: name 'A:0:11' is a CEM offset" in _one_error(capsys)
    assert read_cem(pred)[0].key == ("A", 0, 11)


RC_TOKENS = "T1\t0\t0\tparsers\tT1.1\nT1\t0\t1\tuse\tNO-ENTITY\nT1\t0\t2\tgrammars\tT1.2\n"


@pytest.mark.parametrize("second", ["T1.1\tT1.2\tRESULT", "T1.2\tT1.1\tUSAGE", "T1.2\tT1.1"])
def test_rc_refuses_a_pair_repeated_with_another_label_or_direction(tmp_path, capsys, second):
    tokens, pairs = tmp_path / "tokens.txt", tmp_path / "pairs.txt"
    tokens.write_text(RC_TOKENS)
    pairs.write_text(f"T1.1\tT1.2\tUSAGE\n{second}\n")
    out = tmp_path / "pred.txt"
    assert main(["rc", str(tokens), str(pairs), "-o", str(out)]) == 2
    assert f"{pairs}:2: pair " in (err := _one_error(capsys)) and "repeats line 1" in err
    assert not out.exists()


@pytest.mark.parametrize("label", ["\tUSAGE", ""])
def test_rc_classifies_a_verbatim_repeated_pair_once_per_line_with_a_warning(
        tmp_path, capsys, label):
    tokens, pairs = tmp_path / "tokens.txt", tmp_path / "pairs.txt"
    tokens.write_text(RC_TOKENS)
    pairs.write_text(f"T1.1\tT1.2{label}\nT1.1\tT1.2{label}\n")  # as public test files do
    out = tmp_path / "pred.txt"
    assert main(["rc", str(tokens), str(pairs), "-o", str(out)]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"chemie: warning: {pairs}:2: pair T1.1,T1.2 repeats line 1: classified "
                   "again"]
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and lines[0] == lines[1] and lines[0].startswith("T1.1\tT1.2\t")
    # the predictions score against the file with its repeat (counted once)
    gold = tmp_path / "gold.txt"
    gold.write_text("T1.1\tT1.2\tUSAGE\nT1.1\tT1.2\tUSAGE\n")
    assert main(["score", "rc", str(gold), str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["figures"]["pairs"] == 1


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


def test_errors_file_names_a_broken_jsonl_line_by_its_doc_key(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(
        '{"doc_key": "good", "sentences": [["Water", "."]]}\n'
        '{"doc_key": "nosent"}\n'
        '{"doc_key": "cut", "sentences": [["Wat\n'
        '{"sentences": [["Water"]], "doc_key": "later"\n'
    )
    out = tmp_path / "out.jsonl"
    assert main(["run", str(src), "-o", str(out), "-q"]) == 1
    rows = read_errors(Path(f"{out}.errors.tsv"))
    assert [(r["line"], r["id"]) for r in rows] == [("2", "nosent"), ("3", "cut"), ("4", "")]


def test_run_on_a_folder_names_the_jsonl_files_it_does_not_read(tmp_path, capsys):
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_text(TEXT)
    (folder / "x.jsonl").write_text('{"doc_key": "x", "sentences": [["Water"]]}\n')
    (folder / "sub" / "y.json").write_text("{}\n")
    assert main(["run", str(folder), "-o", str(tmp_path / "out"), "-q", "--workers", "1"]) == 0
    err = _one_error(capsys)
    assert err.startswith(f"chemie: warning: {folder}: 2 .jsonl/.json files not read")
    assert err.endswith("x.jsonl, sub/y.json")


def test_run_warns_about_bad_gold_pairs_it_does_not_use(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text(
        '{"doc_key": "a", "sentences": [["Water", "was", "added", "."]], '
        '"Coreference": [[[[0, 0]], [[9, 9]]]]}\n'
    )
    out = tmp_path / "out.jsonl"
    assert main(["run", str(src), "-o", str(out), "-q", "--workers", "1"]) == 0
    assert "warning: input pairs not read (they are not used): Coreference pair 0 " \
        "antecedent: token range [9, 9] out of range" in capsys.readouterr().err
    assert json.loads(out.read_text())["doc_key"] == "a"
