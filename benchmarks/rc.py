"""Relation-classification benchmark: the rule classifier beside a majority baseline.

Prints the macro-F1 matrix (rows test sets, columns systems: ``rules``, ``majority``) in
each test set's own labels and in the unified labels, the per-class F1 tables, and the
target figure. Test sets (``../shared/data`` or $CHEMIE_DATA):

* ``unified-train``: sci-rc-unified/sample-train, the documents read while choosing cues
  (with their native SemEval / SciERC annotations: the tuning part of ``semeval-1.1`` and
  ``scierc-nlp``);
* ``unified-dev``: sci-rc-unified/sample-dev, never inspected (the target: macro-F1 >= 0.50;
  the majority class gives about 0.15-0.16);
* ``semeval-1.1`` / ``scierc-nlp``: the whole files, and their documents that are *not* in
  sample-train (``…-untuned``; 1.1 and SciERC abstracts overlap sample-train);
* ``semeval-1.2``: the noisy subtask (5 abstracts overlap sample-train).

The majority label is the most frequent label of sample-train. Tunes nothing.
Unified-label figures of SemEval/SciERC score the same native predictions mapped to the
unified labels (``chemie.scoring.rc.in_spaces``): predicted directions and predicted
dropped labels (OTHER) count, exactly as for an external system's prediction file.
``--rules`` prints each rule's hits and precision on sample-train and, in native labels
with the direction to be right as well, on the SemEval 1.1 and SciERC documents of
sample-train; ``--cues`` the label and direction counts of the short between-strings of
sample-train: the statistics the cues of rules/rc.yaml were chosen from (tuning documents
only). The back-off's counts (``rules/rc_backoff.tsv``, rule ``backoff``) are mined from
sample-train alone by ``python -m chemie.rc.build_backoff``, so the ``unified-train`` row
is an in-sample figure; ``--cv`` prints the honest tuning figure: 5-fold cross-validation
over the sample-train documents (back-off rebuilt from the other folds), beside the rules
without back-off.

    python benchmarks/rc.py [--data PATH] [--json] [--rules] [--cues] [--cv]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from chemie.corpora import data_dir
from chemie.formats import unified
from chemie.rc import backoff, build_backoff, tasks
from chemie.rc.classifier import RuleClassifier
from chemie.rc.features import context
from chemie.rc.harness import TestSet, evaluate, majority_label, to_text
from chemie.scoring.rc import align, macro_f1

FOLDS = 5

TARGET = 0.50


def testsets(root: Path) -> list[TestSet]:
    """The benchmark's test sets (those whose files exist)."""
    rc = root / "sci-rc-unified"
    train_docs = {d.id for d in unified.iter_tokens(rc / "sample-train.txt")}
    semeval_train = frozenset(d[len("semeval-"):] for d in train_docs if d.startswith("semeval-"))
    scierc_train = frozenset(d[len("scierc-"):] for d in train_docs if d.startswith("scierc-"))
    sem = root / "semeval2018-task7"
    sets = [
        TestSet("unified-train", rc / "sample-train.txt", rc / "sample-train-rel.txt"),
        TestSet("unified-dev", rc / "sample-dev.txt", rc / "sample-dev-rel.txt"),
        TestSet("semeval-1.1", sem / "1.1.text.xml", sem / "1.1.relations.txt"),
        TestSet("semeval-1.2", sem / "1.2.text.xml", sem / "1.2.relations.txt"),
        TestSet("scierc-nlp", root / "scierc/scierc_nlp.json"),
    ]
    untuned = [
        TestSet("semeval-1.1-untuned", sem / "1.1.text.xml", sem / "1.1.relations.txt",
                documents=_complement(sem / "1.1.text.xml", semeval_train)),
        TestSet("scierc-nlp-untuned", root / "scierc/scierc_nlp.json",
                documents=_complement(root / "scierc/scierc_nlp.json", scierc_train)),
    ]
    return [t for t in sets + untuned if t.path.exists()]


def _complement(path: Path, exclude: frozenset[str]) -> frozenset[str]:
    from chemie.rc import tasks

    fmt = tasks.detect(path)
    if fmt == "scierc":
        from chemie.formats import scierc

        ids = {doc.id for doc, _ in scierc.iter_documents(path)}
    else:
        from chemie.formats import semeval

        ids = {doc.id for doc in semeval.iter_xml(path)}
    return frozenset(ids - exclude)


def _rule_precision(title: str, task: tasks.RCTask, scheme: str) -> None:
    """Hits, correct decisions and precision of every rule that fired on ``task``."""
    hits: dict[str, list[int]] = {}
    decisions = RuleClassifier(scheme=scheme).classify(task.examples)
    for ex, pair, d in zip(task.examples, task.pairs, decisions, strict=True):
        reverse = pair.head != ex.e1.id
        hits.setdefault(d.rule, [0, 0])[d.label == pair.label and d.reverse == reverse] += 1
    print(f"== rules on {title}: hits, correct, precision ==")
    for name, (bad, good) in sorted(hits.items()):
        print(f"{name:26s} {good + bad:5d} {good:5d} {good / (good + bad):.3f}")


def train_statistics(root: Path, rules: bool, cues: bool) -> None:
    """Per-rule precision and between-string label counts on the tuning documents."""
    rc = root / "sci-rc-unified"
    task = tasks.load(rc / "sample-train.txt", rc / "sample-train-rel.txt")
    if rules:
        _rule_precision("sample-train", task, "unified")
        train_docs = {d.id for d in unified.iter_tokens(rc / "sample-train.txt")}
        sem = root / "semeval2018-task7"
        for title, path, pairs, prefix, scheme in (
            ("SemEval 1.1 documents of sample-train", sem / "1.1.text.xml",
             sem / "1.1.relations.txt", "semeval-", "semeval"),
            ("SciERC documents of sample-train", root / "scierc/scierc_nlp.json", None,
             "scierc-", "scierc"),
        ):
            if path.exists():
                docs = {d[len(prefix):] for d in train_docs if d.startswith(prefix)}
                _rule_precision(title, tasks.restrict(tasks.load(path, pairs), docs), scheme)
    if cues:
        counts: dict[str, dict[str, int]] = {}
        for ex in task.examples:
            between = context(ex).between
            if len(between.split()) <= 3:
                key = f"{ex.label}{'<' if ex.reverse else '>'}"
                row = counts.setdefault(between, {})
                row[key] = row.get(key, 0) + 1
        print("== between-strings (<= 3 words) on sample-train: label>/< (direction) counts ==")
        for between, row in sorted(counts.items(), key=lambda kv: -sum(kv[1].values()))[:60]:
            top = ", ".join(f"{k} {v}" for k, v in sorted(row.items(), key=lambda kv: -kv[1]))
            print(f"{between!r:32s} {sum(row.values()):4d}  {top}")


def cross_validation(root: Path) -> None:
    """Macro-F1 on sample-train, each fold's back-off mined from the other folds only."""
    rc = root / "sci-rc-unified"
    task = tasks.load(rc / "sample-train.txt", rc / "sample-train-rel.txt")
    docs = sorted({ex.doc_id for ex in task.examples})
    fold = {d: i % FOLDS for i, d in enumerate(docs)}
    plain = RuleClassifier(use_backoff=False)
    gold, with_backoff, without = [], [], []
    for k in range(FOLDS):
        prior, counts = build_backoff.count(
            [ex for ex in task.examples if fold[ex.doc_id] != k])
        clf = RuleClassifier(backoff=backoff.Backoff(sorted(prior), prior, counts))
        for ex, pair in zip(task.examples, task.pairs, strict=True):
            if fold[ex.doc_id] == k:
                gold.append(pair)
                for system, out in ((clf, with_backoff), (plain, without)):
                    d = system.decide(ex)
                    out.append(ex.pair(d.label, d.reverse, d.rule))
    print(f"== {FOLDS}-fold cross-validation on sample-train (documents), macro-F1 ==")
    for name, pred in (("rules without back-off", without), ("rules + back-off", with_backoff)):
        print(f"{name:24s} {macro_f1(align(gold, pred, None, None)):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None, help="shared data folder")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--rules", action="store_true", help="rule precision on sample-train")
    parser.add_argument("--cues", action="store_true", help="cue statistics of sample-train")
    parser.add_argument("--cv", action="store_true", help="cross-validation on sample-train")
    args = parser.parse_args()
    root = args.data or data_dir()
    if args.cv:
        cross_validation(root)
        return
    if args.rules or args.cues:
        train_statistics(root, args.rules, args.cues)
        return
    ev = evaluate(testsets(root), majority=majority_label(
        root / "sci-rc-unified/sample-train-rel.txt"))
    if args.json:
        print(json.dumps(ev.to_dict(), indent=2))
        return
    print(to_text(ev))
    native, uni = ev.matrix("native"), ev.matrix("unified")
    pairs = {(c.testset, c.space): c.pairs for c in ev.cells if c.system == "rules"}
    print("== figures (macro-F1, survey recipe; rules vs majority; native | unified labels) ==")
    for name in native.index:
        print(f"{name:22s} pairs {pairs[name, 'native']:5d}  rules {native.loc[name, 'rules']:.4f}"
              f"  majority {native.loc[name, 'majority']:.4f} | pairs "
              f"{pairs[name, 'unified']:5d}  rules {uni.loc[name, 'rules']:.4f}  "
              f"majority {uni.loc[name, 'majority']:.4f}")
    dev = native.loc["unified-dev", "rules"] if "unified-dev" in native.index else float("nan")
    verdict = "met" if dev >= TARGET else "NOT met"
    print(f"target: macro-F1 >= {TARGET:.2f} on sci-rc-unified/sample-dev: {dev:.4f} ({verdict})")


if __name__ == "__main__":
    main()
