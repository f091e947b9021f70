"""NER benchmark on BC5CDR-chem: accuracy on devel and tokenizer+NER throughput.

    python benchmarks/ner.py [--data DIR] [--repeats 3]

Lexicons are derived from ``bc5cdr-chem/train.tsv`` only (in memory, with the same code as
``python -m chemie.lexicon_build``); ``devel.tsv`` is tagged with its own tokenization and
scored with exact spans. Rows:

- dictionary baseline: longest match of the training mentions (exact case; also lowercased);
- chemie NER (BC5CDR setting): derived lexicons, words mostly tagged O in training veto
  every match (``--nonchemical-veto all``), abbreviations within 600 tokens;
- chemie NER (default setting): as shipped for patents (the veto only applies to rules);
- chemie NER without the derived lexicon (curated lexicons + rules only);
- the same BC5CDR setting on a held-out 20 % of train with lexicons from the other 80 %
  (the split used while developing the rules; devel was not used for tuning).

Throughput: raw text (devel sentences joined by spaces, 10 per document, and the ChEMU-Ref
snippets) through spaCy's blank English tokenizer and through the chemie tokenizer + NER
(and with the sentence segmenter too), each in a fresh pipeline (cold caches), best of
``--repeats`` runs, one process; rates use the process's CPU time (``time.process_time``),
so other load on the machine does not count against either side. Also ``chemie_ner``
alone on the ChEMU-Ref Docs built from the corpus tokens (cold and warm caches).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import spacy

from chemie.corpora import data_dir
from chemie.formats.iob import IOBSentence, iob_spans, read_iob
from chemie.lexicon_build import derive_chemicals, derive_nonchemical
from chemie.ner.component import ChemicalNER, Found, find_in_sentences
from chemie.ner.lexicon import default_index
from chemie.scoring.report import prf
from chemie.tokenizer.language import blank

WINDOW = 600


def score(gold: Sequence[IOBSentence], pred: Sequence[Sequence[tuple[int, int]]]) -> dict:
    tp = fp = fn = 0
    for s, p in zip(gold, pred, strict=True):
        g = {(a, b) for a, b, _ in iob_spans(s.tags)}
        q = set(p)
        tp += len(g & q)
        fp += len(q - g)
        fn += len(g - q)
    p_, r_, f_ = prf(tp, fp, fn)
    return {"tp": tp, "fp": fp, "fn": fn, "precision": p_, "recall": r_, "f1": f_}


def dictionary_baseline(
    train: Sequence[IOBSentence], test: Sequence[IOBSentence], lower: bool = False
) -> list[list[tuple[int, int]]]:
    """Greedy longest match of training mention token sequences (exact case by default)."""

    def norm(words: Sequence[str]) -> list[str]:
        return [w.lower() for w in words] if lower else list(words)

    names = {tuple(norm(s.words[a:b])) for s in train for a, b, _ in iob_spans(s.tags)}
    longest = max(len(n) for n in names)
    out = []
    for s in test:
        low = norm(s.words)
        spans, i = [], 0
        while i < len(low):
            for k in range(min(longest, len(low) - i), 0, -1):
                if tuple(low[i : i + k]) in names:
                    spans.append((i, i + k))
                    i += k
                    break
            else:
                i += 1
        out.append(spans)
    return out


def chemie_ner(
    train: Sequence[IOBSentence] | None, veto: str, derived: bool = True
) -> ChemicalNER:
    """The NER with lexicons derived in memory from ``train`` (or the shipped ones)."""
    if train is None or not derived:
        return ChemicalNER(
            index=default_index(derived=derived), nonchemical_veto=veto, abbreviation_window=WINDOW
        )
    rows = [(e.name, e.count, e.occurrences) for e in derive_chemicals(train)]
    return ChemicalNER(
        index=default_index(derived_rows=rows),
        nonchemical=derive_nonchemical(train),
        nonchemical_veto=veto,
        abbreviation_window=WINDOW,
    )


def tag(ner: ChemicalNER, sents: Sequence[IOBSentence]) -> list[list[tuple[int, int]]]:
    found: list[list[Found]] = find_in_sentences(ner, [s.words for s in sents])
    return [[(f.start, f.end) for f in fs] for fs in found]


def accuracy(data: Path) -> pd.DataFrame:
    train = read_iob(data / "bc5cdr-chem" / "train.tsv")
    devel = read_iob(data / "bc5cdr-chem" / "devel.tsv")
    rows = {
        "dictionary baseline (train)": score(devel, dictionary_baseline(train, devel)),
        "dictionary baseline, lowercased": score(
            devel, dictionary_baseline(train, devel, lower=True)
        ),
        "chemie NER, BC5CDR setting": score(devel, tag(chemie_ner(train, "all"), devel)),
        "chemie NER, default setting": score(devel, tag(chemie_ner(train, "rules"), devel)),
        "chemie NER, no derived lexicon": score(
            devel, tag(chemie_ner(train, "all", derived=False), devel)
        ),
    }
    cut = len(train) * 4 // 5
    fit, held = train[:cut], train[cut:]
    rows["held-out 20% of train: baseline"] = score(held, dictionary_baseline(fit, held))
    rows["held-out 20% of train: chemie NER"] = score(held, tag(chemie_ner(fit, "all"), held))
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "system (devel unless said)"
    return frame


def _texts(data: Path) -> dict[str, list[str]]:
    devel = read_iob(data / "bc5cdr-chem" / "devel.tsv")
    docs = [
        " ".join(" ".join(s.words) for s in devel[i : i + 10]) for i in range(0, len(devel), 10)
    ]
    chemu = []
    path = data / "chemu-ref" / "train.jsonl"
    if path.exists():
        with path.open(encoding="utf-8") as fh:
            chemu = [" ".join(" ".join(s) for s in json.loads(line)["sentences"]) for line in fh]
    return {"bc5cdr devel (raw text)": docs, "chemu-ref train (raw text)": chemu}


def _rate(make, texts: list[str], repeats: int) -> float:
    best = 0.0
    for _ in range(repeats):
        nlp = make()
        start = time.process_time()
        n = sum(len(doc) for doc in nlp.pipe(texts))
        best = max(best, n / (time.process_time() - start))
    return best


def _chemie(sentences: bool = True) -> spacy.Language:
    nlp = blank(sentences=sentences)
    nlp.add_pipe("chemie_ner")
    return nlp


def throughput(data: Path, repeats: int) -> pd.DataFrame:
    _chemie()("warm-up: loads rules and lexicons once")  # not timed
    rows = {}
    for name, texts in _texts(data).items():
        if not texts:
            continue
        base = _rate(lambda: spacy.blank("en"), texts, repeats)
        tok_ner = _rate(lambda: _chemie(sentences=False), texts, repeats)
        full = _rate(_chemie, texts, repeats)
        rows[name] = {
            "blank en tok/s": round(base),
            "chemie tokenizer+NER tok/s": round(tok_ner),
            "+sentences tok/s": round(full),
            "ratio (tokenizer+NER / blank en)": tok_ner / base,
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "text"
    return frame


def ner_alone(data: Path, repeats: int) -> pd.DataFrame:
    """``chemie_ner`` by itself on the ChEMU-Ref snippets as the anaphora pipeline gives
    them (Docs from the corpus tokens): a fresh component (cold caches) and a second
    pass over the same Docs (warm), best of ``repeats``, CPU time."""
    from chemie.formats.chemu import read_chemu  # noqa: PLC0415
    from chemie.nlp import doc_from_document  # noqa: PLC0415

    path = data / "chemu-ref" / "train.jsonl"
    if not path.exists():
        return pd.DataFrame()
    nlp = blank(sentences=False)
    docs = [doc_from_document(nlp, d) for d in read_chemu(path)]
    tokens = sum(len(d) for d in docs)
    cold = warm = float("inf")
    for _ in range(repeats):
        ner = blank(sentences=False).add_pipe("chemie_ner")
        for i in range(2):
            start = time.process_time()
            for doc in docs:
                ner(doc)
            spent = time.process_time() - start
            cold, warm = (min(cold, spent), warm) if i == 0 else (cold, min(warm, spent))
    rows = {
        name: {"docs": len(docs), "tok/s": round(tokens / t), "docs/s": round(len(docs) / t)}
        for name, t in (("cold caches", cold), ("warm caches", warm))
    }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "chemie_ner alone, chemu-ref train Docs"
    return frame


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, default=None, help="shared data folder")
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args(argv)
    data = args.data or data_dir()
    if not (data / "bc5cdr-chem" / "train.tsv").exists():
        print(f"bc5cdr-chem not found under {data}", file=sys.stderr)
        return 2
    pd.set_option("display.width", 160)
    acc = accuracy(data)
    print("== BC5CDR-chem exact-span P/R/F1 (lexicons from train only) ==")
    print(acc.to_string(float_format=lambda v: f"{v:.4f}"))
    speed = throughput(data, args.repeats)
    print("\n== Throughput, one core (CPU time), cold caches, best of", args.repeats, "==")
    print(speed.to_string(float_format=lambda v: f"{v:.2f}"))
    alone = ner_alone(data, args.repeats)
    if not alone.empty:
        print("\n== chemie_ner alone on pre-tokenized snippets (CPU time) ==")
        print(alone.to_string())
    f1 = acc.loc["chemie NER, BC5CDR setting", "f1"]
    base = acc.loc["dictionary baseline (train)", "f1"]
    rate = speed["chemie tokenizer+NER tok/s"].min()
    print(f"\ndevel F1 {f1:.4f} (target >= 0.88; dictionary baseline {base:.4f})")
    print(f"tokenizer+NER tokens/s (slowest text) {rate:,.0f} (target >= 200,000)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
