"""Time on huge or hostile input grows linearly: a 1 MB token or a 1 MB line of punctuation
takes a bounded multiple of what a 10 kB one takes (a ratio measured in one process, never an
absolute time), and the regexes rewritten for it give the verdicts of the plain ones."""

from __future__ import annotations

import importlib
import json
import queue
import random
import string
import subprocess
import sys
import threading

import pytest
import regex

import chemie
from chemie.resources import load_rules
from chemie.tokenizer.language import MAX_EDGE_RUN, _compiled, _search_suffix, tokenize

SMALL, BIG = 10_000, 1_000_000
# linear growth gives about BIG / SMALL = 100x; quadratic growth 10,000x (a 100 kB text is
# timed first, against a tenth of the limit, so that quadratic growth fails in seconds)
MAX_RATIO = 500
TEXTS = {"token": "z", "punctuation": string.punctuation}

# Times the pipeline (less the components named after the text) on three 10 kB texts (the
# best is kept; they differ, so the tokenizer's cache does not help), then on a 100 kB and a
# 1 MB text, printing each time as soon as it is known.
TIMER = """
import sys, time
import chemie
sizes, unit, skip = sys.argv[1].split(","), sys.argv[2], set(sys.argv[3:])
nlp = chemie.load()
def run(n, shift):
    text = (unit * ((n + shift) // len(unit) + 1))[shift : shift + n]
    start = time.perf_counter()
    doc = nlp.make_doc(text)
    for name, proc in nlp.pipeline:
        if name not in skip:
            doc = proc(doc)
    assert doc.text == text
    return time.perf_counter() - start
run(1000, 0)
print(min(run(int(sizes[0]) + k, k) for k in range(1, 4)), flush=True)
for size in sizes[1:]:
    print(run(int(size), 0), flush=True)
"""


def _ratio_within_limit(kind: str, skip: tuple[str, ...] = ()) -> None:
    """The 1 MB text takes at most ``MAX_RATIO`` times the 10 kB one, and the 100 kB one a
    tenth of that (a run is stopped as soon as it goes past its limit)."""
    sizes = (SMALL, BIG // 10, BIG)
    proc = subprocess.Popen(
        [sys.executable, "-c", TIMER, ",".join(map(str, sizes)), TEXTS[kind], *skip],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
    try:
        small = float(lines.get(timeout=600))
        for size in sizes[1:]:
            limit = MAX_RATIO * small * size / BIG
            try:
                took = float(lines.get(timeout=limit * 1.5 + 1))
            except queue.Empty:
                pytest.fail(f"{size:,} characters of {kind}: over {limit:.1f} s "
                            f"({limit / small:.0f}x the {small:.3f} s of {SMALL:,})")
            assert took <= limit, f"{size:,} of {kind}: {took:.2f} s, {SMALL:,}: {small:.4f} s"
    except queue.Empty:
        pytest.fail(f"no time for {SMALL:,} characters: {proc.stderr.read()[-2000:]}")
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(TEXTS))
def test_a_1_mb_text_takes_a_bounded_multiple_of_a_10_kb_one(kind):
    _ratio_within_limit(kind)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(TEXTS))
def test_without_the_mention_detector_a_1_mb_text_takes_a_bounded_multiple(kind):
    """The tokenizer, sentences, NER, actions, coreference and bridging (what is left of
    the pipeline without ``chemie_mentions``) on the same texts."""
    _ratio_within_limit(kind, ("chemie_mentions",))


def test_a_long_punctuation_run_is_cut_into_pieces_and_the_text_kept():
    run = "#" * (3 * MAX_EDGE_RUN + 5)
    text = f"Water was added. ({run} ) then {run}abc and ({run}"
    doc = chemie.load()(text)
    assert doc.text == text
    # each "#" is split off, in a run of any length (the pieces change nothing here)
    assert [t.text for t in doc] == [
        "Water", "was", "added", ".", "(", *run, ")", "then", *run, "abc", "and", "(", *run,
    ]
    assert tokenize("#" * MAX_EDGE_RUN) == ["#"] * MAX_EDGE_RUN


# the patterns of rules/tokenizer.yaml before they were written to run in linear time: the
# rewritten ones must give the same verdicts
PLAIN = {
    "formula": r"(?:(?:[A-Z][a-z]?|\((?:[A-Z][a-z]?\d*)+\)|\[(?:[A-Z][a-z]?\d*)+\])\d*){2,}"
    r"(?:[·•∙.]\d*(?:[A-Z][a-z]?\d*)+)*(?:\d*[+\-−]{1,2})?",
    "locant_hyphen": r"(?:^|[\-(\[{,])\d+(?:alpha|beta|gamma|[a-zA-Z])?['′″]*"
    r"(?:,\d+[a-zA-Z]?['′″]*)*-[A-Za-z(\[]",
    "attached_bracket": r"[A-Za-z0-9\]\)][(\[][^\s]*[)\]]|[)\]][A-Za-z0-9\-(\[]",
}
PIECES = list("CHNOSClBrNaKFe0123456789()[]{}·.+-−,'′abxz ") + [
    "alpha", "beta", "gamma", "Cl", "(OH)", "[Fe]", "2+", "·5H2O", "1,", ",2", "2a", "-a",
    "mmol", "mL", "°C", "...", "'s", "h", "min", "5.0g",
]


def _generated(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(PIECES, k=rng.randint(1, 14))) for _ in range(count)]


def _chemu_tokens(corpus) -> list[str]:
    path = corpus("chemu-ref/train.jsonl")
    with path.open(encoding="utf-8") as fh:
        return [w for line in fh for s in json.loads(line)["sentences"] for w in s]


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_the_linear_tokenizer_patterns_give_the_plain_patterns_verdicts(name):
    rule = next(r for r in load_rules("tokenizer.yaml")["keep_whole"] if r["name"] == name)
    plain, linear = regex.compile(PLAIN[name]), regex.compile(rule["pattern"])
    find = "fullmatch" if rule["kind"] == "full" else "search"
    texts = _generated(60_000, seed=len(name))
    verdicts = [getattr(plain, find)(t) is not None for t in texts]
    assert any(verdicts) and not all(verdicts)
    assert [getattr(linear, find)(t) is not None for t in texts] == verdicts


@pytest.mark.corpus
def test_the_linear_tokenizer_patterns_agree_on_chemu_ref_tokens(corpus):
    tokens = _chemu_tokens(corpus)
    rules = {r["name"]: r for r in load_rules("tokenizer.yaml")["keep_whole"]}
    for name, pattern in PLAIN.items():
        find = "fullmatch" if rules[name]["kind"] == "full" else "search"
        plain, linear = regex.compile(pattern), regex.compile(rules[name]["pattern"])
        assert [getattr(linear, find)(t) is not None for t in tokens] == [
            getattr(plain, find)(t) is not None for t in tokens
        ], name


def test_the_suffix_search_from_the_end_finds_what_a_search_from_the_start_finds():
    suffix = _compiled()["suffix"]
    texts = _generated(60_000, seed=7) + ["." * 40, "a" * 30 + "...", "x" * 50 + "5mmol"]
    spans = [(m.span() if (m := suffix.search(t)) else None) for t in texts]
    assert sum(s is not None and s[1] > s[0] for s in spans) > 1000
    assert [(m.span() if (m := _search_suffix(t)) else None) for t in texts] == spans


# regexes of the components rewritten to run in linear time, and their plain forms
PLAIN_COMPONENT_REGEXES = {
    "chemie.coref.component:_HAS_DIGIT_AND_LETTER": (r"(?=.*\d)(?=.*[A-Za-z])", "search"),
    "chemie.coref.rules:_AMOUNT": (
        r"(\d+(?:\.\d+)?)\s*(mmole?|[uµμ]mol|mol)\b", "search"
    ),
    "chemie.ner.rules:_LOCANT_GROUP": (
        r"\d+(?:alpha|beta|[A-Za-z])?['′]*(?:,\d+[A-Za-z]?['′]*)*-", "finditer"
    ),
}
COMPONENT_PIECES = list("0123456789.,-'′ \naAbZzmlo") + [
    "alpha", "beta", "mmol", "mol", "µmol", "mmole", "1,", ",2", "2a", "12", "1.5", " mmol",
]


def _found(pattern, how: str, text: str) -> object:
    if how == "finditer":
        return [m.span() for m in pattern.finditer(text)]
    m = pattern.search(text)
    return None if m is None else (m.span(), m.groups())


@pytest.mark.parametrize("where", sorted(PLAIN_COMPONENT_REGEXES))
def test_the_linear_component_regexes_find_what_the_plain_ones_find(where):
    module, name = where.split(":")
    linear = getattr(importlib.import_module(module), name)
    source, how = PLAIN_COMPONENT_REGEXES[where]
    plain = regex.compile(source, regex.V0)
    rng = random.Random(11)
    texts = ["".join(rng.choices(COMPONENT_PIECES, k=rng.randint(1, 16))) for _ in range(60_000)]
    found = [_found(plain, how, t) for t in texts]
    assert sum(bool(f) for f in found) > 1000
    assert [_found(linear, how, t) for t in texts] == found
