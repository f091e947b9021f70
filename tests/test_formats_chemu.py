"""ChEMU-Ref jsonl: reading, writing back, errors."""

from __future__ import annotations

import json

import pytest

from chemie.errors import InputError
from chemie.formats.chemu import (
    format_chemu_doc,
    iter_chemu,
    parse_chemu_line,
    read_chemu,
    spans_to_token_ranges,
    write_chemu,
)
from chemie.model import ANAPHORA_LABELS, Document, Mention, Relation, tokens_from_words


def _pairs(doc: Document) -> list[tuple[str, tuple, tuple]]:
    m = doc.mention_index()
    return [(r.label, m[r.head].spans, m[r.tail].spans) for r in doc.relations]


def _nonempty(obj: dict) -> dict:
    """The relation keys of a jsonl object without the pairs that have an empty argument."""
    return {k: [p for p in obj.get(k, []) if p[0] and p[1]] for k in ANAPHORA_LABELS.values()}


def test_reads_tokens_sentences_and_mentions(fixtures):
    docs = read_chemu(fixtures / "chemu" / "small.jsonl")
    assert [d.id for d in docs] == ["d1", "d2"]
    d1 = docs[0]
    words = [w for s in d1.meta["sentences"] for w in s]
    assert d1.text == " ".join(words)
    assert [t.text for t in d1.tokens] == words
    assert d1.sentences == [(0, 15), (15, 22), (22, 32)]
    by_text = {m.text: m for m in d1.mentions}
    assert set(by_text) == {
        "Compound 5 ( 1.5 g )",
        "mixture",
        "THF ( 8 mL )",
        "The mixture",
        "filtrate",
        "the title compound",
    }
    coref = [r for r in d1.relations if r.label == "COREFERENCE"]
    assert len(coref) == 1
    assert d1.mention(coref[0].head).text == "the title compound"
    assert d1.mention(coref[0].tail).text == "Compound 5 ( 1.5 g )"
    # the same token range is one mention, shared by several relations
    ra = [r for r in d1.relations if r.label == "REACTION_ASSOCIATED"]
    assert ra[0].head == ra[1].head
    assert len({m.id for m in d1.mentions}) == len(d1.mentions)


def test_discontinuous_mentions_and_dropped_pairs(fixtures):
    d2 = read_chemu(fixtures / "chemu" / "small.jsonl")[1]
    disc = [m for m in d2.mentions if len(m.spans) > 1]
    assert len(disc) == 1
    assert [d2.text[a:b] for a, b in disc[0].spans] == ["Ethyl acetate", "layers"]
    assert d2.meta["dropped_pairs"] == 1
    assert sorted(r.label for r in d2.relations) == ["CONTAINED", "WORK_UP"]


def test_round_trip_fixture(fixtures, tmp_path):
    src = fixtures / "chemu" / "small.jsonl"
    out = tmp_path / "out.jsonl"
    assert write_chemu(iter_chemu(src), out) == 2
    originals = [json.loads(line) for line in src.read_text().splitlines() if line.strip()]
    written = [json.loads(line) for line in out.read_text().splitlines()]
    for o, w in zip(originals, written, strict=True):
        assert w["doc_key"] == o["doc_key"]
        assert w["sentences"] == o["sentences"]
        assert _nonempty(w) == _nonempty(o)
    again = read_chemu(out)
    first = read_chemu(src)
    assert [_pairs(d) for d in again] == [_pairs(d) for d in first]
    assert [d.tokens for d in again] == [d.tokens for d in first]


def test_round_trip_corpus(corpus, tmp_path):
    src = corpus("chemu-ref/train.jsonl")
    out = tmp_path / "train.jsonl"
    write_chemu(iter_chemu(src), out)
    with open(src, encoding="utf-8") as a, open(out, encoding="utf-8") as b:
        for la, lb in zip(a, b, strict=True):
            o, w = json.loads(la), json.loads(lb)
            assert (w["doc_key"], w["sentences"]) == (o["doc_key"], o["sentences"])
            assert _nonempty(w) == _nonempty(o)
    for x, y in zip(iter_chemu(src), iter_chemu(out), strict=True):
        assert _pairs(x) == _pairs(y)
        assert x.tokens == y.tokens


def test_writes_docs_built_from_tokens():
    text, tokens = tokens_from_words(["The", "solid", "was", "dried", "."])
    doc = Document("x", text, tokens=tokens, sentences=[(0, 5)])
    doc.mentions = [Mention("A", ((0, 9),)), Mention("B", ((4, 9),))]
    doc.relations = [Relation("COREFERENCE", "A", "B")]
    obj = json.loads(format_chemu_doc(doc))
    assert obj["sentences"] == [["The", "solid", "was", "dried", "."]]
    assert obj["Coreference"] == [[[[0, 1]], [[1, 1]]]]
    assert obj["Work-up"] == []


def test_unaligned_mention_is_refused():
    text, tokens = tokens_from_words(["The", "solid", "was", "dried"])
    doc = Document("x", text, tokens=tokens)
    doc.mentions = [Mention("A", ((0, 6),)), Mention("B", ((4, 9),))]
    doc.relations = [Relation("WORK_UP", "A", "B")]
    with pytest.raises(ValueError, match=r"mention A: character range \(0, 6\) does not align"):
        format_chemu_doc(doc)


def test_unknown_relation_label_is_refused():
    text, tokens = tokens_from_words(["a", "b"])
    doc = Document("x", text, tokens=tokens)
    doc.mentions = [Mention("A", ((0, 1),)), Mention("B", ((2, 3),))]
    doc.relations = [Relation("USED-FOR", "A", "B")]
    with pytest.raises(ValueError, match="USED-FOR"):
        format_chemu_doc(doc)


def test_spans_to_token_ranges():
    text, tokens = tokens_from_words(["Ethyl", "acetate", "and", "water", "layers"])
    assert spans_to_token_ranges([(0, 13), (24, 30)], tokens) == [[0, 1], [4, 4]]
    with pytest.raises(ValueError, match="align"):
        spans_to_token_ranges([(1, 13)], tokens)


def test_snap_grows_ranges_to_touched_tokens():
    text, tokens = tokens_from_words(["Ethyl", "acetate", "and", "water", "layers"])
    # "thyl acet" touches tokens 0-1; "water layer" starts aligned, ends inside token 4
    assert spans_to_token_ranges([(1, 10), (18, 29)], tokens, snap=True) == [[0, 1], [3, 4]]
    with pytest.raises(ValueError, match="align"):
        spans_to_token_ranges([(5, 6)], tokens, snap=True)  # only the space between tokens
    doc = Document("x", text, tokens=tokens)
    doc.mentions = [Mention("A", ((1, 10),)), Mention("B", ((18, 23),))]
    doc.relations = [Relation("WORK_UP", "A", "B")]
    assert json.loads(format_chemu_doc(doc, snap=True))["Work-up"] == [[[[0, 1]], [[3, 3]]]]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"doc_key": "a", "sentences": [["x"]]', "malformed JSON"),
        ('["a"]', "expected a JSON object"),
        ('{"sentences": [["x"]]}', "missing key 'doc_key'"),
        ('{"doc_key": "a"}', "missing key 'sentences'"),
        ('{"doc_key": "a", "sentences": "x y"}', "'sentences' must be a list"),
        ('{"doc_key": "a", "sentences": [["x", 1]]}', "sentence 0 must be a list of strings"),
        (
            '{"doc_key": "a", "sentences": [["x", "y"]], "Work-up": [[[[0, 0]], [[1, 2]]]]}',
            r"Work-up pair 0 antecedent: token range \[1, 2\] out of range",
        ),
        (
            '{"doc_key": "a", "sentences": [["x"]], "Coreference": [[[[0, 0]]]]}',
            "Coreference pair 0: expected",
        ),
        ('{"doc_key": "a", "sentences": [["x"]], "Contained": {}}', "'Contained' must be a list"),
    ],
)
def test_bad_lines(tmp_path, line, message):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"doc_key": "ok", "sentences": [["fine"]]}\n\n' + line + "\n")
    with pytest.raises(InputError, match=message) as e:
        list(iter_chemu(p))
    assert (e.value.path, e.value.line) == (str(p), 3)


def test_iter_is_lazy(tmp_path):
    p = tmp_path / "lazy.jsonl"
    p.write_text('{"doc_key": "ok", "sentences": [["fine"]]}\nnot json\n')
    docs = iter_chemu(p)
    assert next(docs).id == "ok"
    with pytest.raises(InputError):
        next(docs)


def test_missing_file(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        list(iter_chemu(tmp_path / "nope.jsonl"))


def test_parse_line_without_path():
    doc = parse_chemu_line('{"doc_key": 7, "sentences": [["a", "b"]]}')
    assert (doc.id, doc.text, doc.relations) == ("7", "a b", [])


def test_parse_without_annotations_checks_pairs_but_makes_no_mentions(fixtures):
    text = (fixtures / "chemu" / "small.jsonl").read_text(encoding="utf-8")
    line = [x for x in text.splitlines() if x.strip()][1]  # d2: a pair is dropped
    full, bare = parse_chemu_line(line), parse_chemu_line(line, annotations=False)
    assert (bare.mentions, bare.relations) == ([], [])
    assert (bare.text, bare.tokens, bare.sentences) == (full.text, full.tokens, full.sentences)
    assert bare.meta == full.meta  # dropped_pairs counted too
    bad = '{"doc_key": "a", "sentences": [["x"]], "Work-up": [[[[0, 0]], [[0, 3]]]]}'
    with pytest.raises(InputError, match=r"Work-up pair 0 antecedent: token range \[0, 3\]"):
        parse_chemu_line(bad, annotations=False)


def test_a_non_utf8_line_is_named_by_its_own_line_number(tmp_path):
    good = '{"doc_key": "a", "sentences": [["Water", "was", "added", "."]]}\n'
    path = tmp_path / "in.jsonl"
    path.write_bytes(good.encode() + b'{"doc_key": "b", "sentences": [["caf\xe9"]]}\n')
    docs = iter_chemu(path)
    assert next(docs).id == "a"  # the first line is read before the bad one fails
    with pytest.raises(InputError, match=r"in\.jsonl:2: not valid UTF-8 \(byte 0xe9\)"):
        next(docs)


def test_json_whitespace_carriage_returns_and_a_bom_are_read_like_run_reads_them(tmp_path):
    path = tmp_path / "in.jsonl"
    line = '{"doc_key": "a",\r"sentences": [["Water", "was", "added", "."]]}'
    path.write_bytes(b"\xef\xbb\xbf" + line.encode() + b"\r\n\r\n" + line.replace('"a"', '"b"')
                     .encode() + b"\r\n")
    assert [(d.id, d.meta["line"], d.text) for d in iter_chemu(path)] == [
        ("a", 1, "Water was added ."), ("b", 3, "Water was added ."),
    ]


def test_escaped_characters_and_surrogate_pairs_are_read():
    line = '{"doc_key": "a", "sentences": [["\\u00b0C", "\\ud835\\udd18", "\\"x\\""]]}'
    assert parse_chemu_line(line).text == '°C 𝔘 "x"'


def test_a_chemie_json_line_is_refused_with_a_hint():
    line = '{"id": "a", "text": "Water", "tokens": [], "mentions": [], "relations": []}'
    with pytest.raises(InputError, match=r"p\.jsonl:1: missing key 'doc_key' .*--format chemu"):
        parse_chemu_line(line, "p.jsonl", 1)


def test_a_doc_key_with_a_lone_surrogate_is_bad_input():
    with pytest.raises(InputError, match=r"^in\.jsonl:3: 'doc_key': lone surrogate \\ud800"):
        parse_chemu_line('{"doc_key": "a\\ud800", "sentences": [["Water"]]}', "in.jsonl", 3)
    assert parse_chemu_line('{"doc_key": "\\u00e9", "sentences": [["Water"]]}').id == "é"
