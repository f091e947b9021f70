"""The chemie tokenizer (rules/tokenizer.yaml) and sentence segmenter."""

from __future__ import annotations

from pathlib import Path

import pytest
import spacy

from chemie.extensions import TEXT
from chemie.resources import load_rules
from chemie.tokenizer.language import blank, bracket_partners, tokenize
from chemie.tokenizer.sentences import sentence_rules

CASES_FILE = Path(__file__).parent / "fixtures" / "ner" / "tokenizer_cases.tsv"


def _cases() -> list[tuple[str, list[str]]]:
    cases = []
    for line in CASES_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            text, expected = line.split("\t")
            cases.append((text, expected.split(" ")))
    return cases


CASES = _cases()


def test_at_least_sixty_hard_cases():
    assert len(CASES) >= 60


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_tokenizer_case(text, expected):
    assert tokenize(text) == expected


TOKENIZER_RULES = load_rules("tokenizer.yaml")


@pytest.mark.parametrize(
    "rule", TOKENIZER_RULES["keep_whole"], ids=[r["name"] for r in TOKENIZER_RULES["keep_whole"]]
)
def test_keep_whole_rule_keeps_its_example_whole(rule):
    assert tokenize(rule["example"]) == [rule["example"]]


SPLIT_RULES = [
    r for kind in ("prefixes", "suffixes", "infixes") for r in TOKENIZER_RULES[kind]
]


@pytest.mark.parametrize("rule", SPLIT_RULES, ids=[r["name"] for r in SPLIT_RULES])
def test_split_rule_splits_its_example(rule):
    tokens = tokenize(rule["example"])
    assert len(tokens) > 1
    assert "".join(tokens) == rule["example"]


@pytest.mark.parametrize("case", sorted(set(TOKENIZER_RULES["special_cases"])))
def test_special_cases_stay_one_token(case):
    assert tokenize(f"see {case} here")[1] == case


def test_registered_language_uses_the_chemie_tokenizer():
    nlp = spacy.blank("chemie")
    assert [t.text for t in nlp("K2CO3 (5.0g)")] == ["K2CO3", "(", "5.0", "g", ")"]


def test_bracket_partners():
    assert bracket_partners("Pd(PPh3)4") == {2: 7, 7: 2}
    assert bracket_partners("(a]") is None
    assert bracket_partners("a)") is None


SENTENCE_RULES = load_rules("tokenizer_sentences.yaml")["rules"]


def _sentences(text: str) -> list[str]:
    return [s.text.strip() for s in blank()(text).sents]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Heated at 100° C. for 1 hour. Water was added.",
         ["Heated at 100° C. for 1 hour.", "Water was added."]),
        ("It weighed 1.5 g and approx. 2 mL of THF, e.g. dry THF, was used.",
         ["It weighed 1.5 g and approx. 2 mL of THF, e.g. dry THF, was used."]),
        ("As shown in Fig. 3 and No. 5 it works. Then it stops.",
         ["As shown in Fig. 3 and No. 5 it works.", "Then it stops."]),
        ("Step 4 Synthesis of Compound 22\nTo a solution of 21 was added water.",
         ["Step 4 Synthesis of Compound 22", "To a solution of 21 was added water."]),
        ("Step 4 Synthesis of Compound 22 To a solution of 21 was added water.",
         ["Step 4 Synthesis of Compound 22", "To a solution of 21 was added water."]),
        ("It was made as in Step 2 above.", ["It was made as in Step 2 above."]),
        ("The oil was dried. 2-Methylpyridine was added.",
         ["The oil was dried.", "2-Methylpyridine was added."]),
        ("The solid was treated with NaH. The mixture was filtered.",
         ["The solid was treated with NaH.", "The mixture was filtered."]),
        ("Et3N was added to Et3N. CuSO4·5H2O. It was stirred ca. 2 h.",
         ["Et3N was added to Et3N.", "CuSO4·5H2O.", "It was stirred ca. 2 h."]),
    ],
)
def test_sentence_segmentation(text, expected):
    assert _sentences(text) == expected


def test_sentences_read_only_the_marked_tokens_when_the_text_is_known():
    """With the doc's text in user_data (as annotate puts it) and no line break in it, the
    segmenter looks up only the words around its marks: the same sentence starts."""
    nlp = blank()
    texts = [r["example"] for r in SENTENCE_RULES] + [
        "Step 2 Synthesis of 5 To the acid (2 g) was added THF. The mixture was stirred!",
        "Example 3. Prepared as in Example 2 The solid was dried? Yes . . Then it was 4 g.",
    ]
    for text in texts:
        plain, known = nlp.make_doc(text), nlp.make_doc(text)
        known.user_data[TEXT] = text
        for doc in (plain, known):
            nlp.get_pipe("chemie_sentences")(doc)
        assert [t.is_sent_start for t in known] == [t.is_sent_start for t in plain]


@pytest.mark.parametrize("rule", SENTENCE_RULES, ids=[r["name"] for r in SENTENCE_RULES])
def test_each_sentence_rule_fires_on_its_example(rule):
    doc = blank(sentences=False)(rule["example"])
    words = [t.text for t in doc]
    breaks = [i for i, w in enumerate(words) if "\n" in w and w.isspace()]
    assert rule["name"] in sentence_rules(words, breaks)
