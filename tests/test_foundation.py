"""The package skeleton: CLI discovery, errors, atomic output, the document model."""

from __future__ import annotations

import pytest

from chemie.cli import main
from chemie.errors import InputError, atomic_write, read_text
from chemie.model import Mention, tokens_from_words


def test_help_lists_commands(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "score" in out


def test_input_error_is_one_line(tmp_path):
    err = InputError(tmp_path / "a.jsonl", 3, "bad JSON")
    assert str(err) == f"{tmp_path / 'a.jsonl'}:3: bad JSON"


def test_read_text_rejects_non_utf8(tmp_path):
    p = tmp_path / "x.txt"
    p.write_bytes(b"ok\n\xff\xfe\n")
    with pytest.raises(InputError, match=r"x.txt:2: not valid UTF-8"):
        read_text(p)


def test_read_text_rejects_binary(tmp_path):
    p = tmp_path / "x.bin"
    p.write_bytes(b"\x00\x01")
    with pytest.raises(InputError, match="binary"):
        read_text(p)


def test_atomic_write_leaves_old_file_on_error(tmp_path):
    out = tmp_path / "out.txt"
    out.write_text("old")
    with pytest.raises(RuntimeError), atomic_write(out) as fh:
        fh.write("half")
        raise RuntimeError("boom")
    assert out.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_tokens_from_words_offsets():
    text, toks = tokens_from_words(["Compound", "5", "(", "1.5", "g", ")"])
    assert text == "Compound 5 ( 1.5 g )"
    assert [text[t.start : t.end] for t in toks] == ["Compound", "5", "(", "1.5", "g", ")"]


def test_mention_overlap_discontinuous():
    a = Mention("T1", ((0, 5), (10, 15)))
    b = Mention("T2", ((6, 9),))
    c = Mention("T3", ((14, 20),))
    assert not a.overlaps(b)
    assert a.overlaps(c)


def test_atomic_write_uses_umask_permissions(tmp_path):
    import os

    out = tmp_path / "page.html"
    old = os.umask(0o022)
    try:
        with atomic_write(out) as fh:
            fh.write("x")
    finally:
        os.umask(old)
    assert out.stat().st_mode & 0o777 == 0o644


def test_unwritable_output_is_one_line_error(tmp_path, capsys):
    blocker = tmp_path / "a.txt"
    blocker.write_text("not a folder")
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"doc_key": "1", "sentences": [["water"]]}\n')
    code = main(["score", "anaphora", str(gold), str(gold), "-o", str(blocker / "x.txt")])
    err = capsys.readouterr().err
    assert code == 3  # an output that cannot be written is not bad input (2)
    assert err.count("\n") == 1 and "a.txt" in err and "Traceback" not in err


def test_an_input_error_naming_no_file_is_just_its_message():
    from chemie.errors import InputError

    assert str(InputError(None, None, "--format csv needs an output")) == (
        "--format csv needs an output"
    )
    assert str(InputError(None, 3, "bad line")) == "<input>:3: bad line"
    assert str(InputError("a.txt", None, "no such file")) == "a.txt: no such file"


def test_every_rule_table_loads_as_the_pure_python_safe_loader_reads_it():
    import yaml

    from chemie.resources import load_rules, rules_path

    names = sorted(p.name for p in rules_path("coref.yaml").parent.glob("*.yaml"))
    assert "coref.yaml" in names
    for name in names:
        text = rules_path(name).read_text(encoding="utf-8")
        assert load_rules(name) == yaml.load(text, Loader=yaml.SafeLoader), name


@pytest.mark.parametrize("command", ["eval", "ner", "rc", "rc-eval", "run", "score", "show"])
def test_each_command_is_found_by_its_name(command, capsys):
    for argv in ([command, "--help"], [command, "-h"]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 0
        assert capsys.readouterr().out.startswith(f"usage: chemie {command} ")
