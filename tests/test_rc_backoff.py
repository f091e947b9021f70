"""The naive-Bayes back-off behind the cue rules and its derived count table."""

from __future__ import annotations

import io

import pytest
from test_rc_rules import example

from chemie.rc import backoff, build_backoff
from chemie.rc.classifier import BACKOFF_RULE, DEFAULT_RULE, RuleClassifier
from chemie.rc.features import context
from chemie.resources import rules_path

# a tiny hand-written table: "wug" (a made-up measure) goes with RESULT (reverse),
# "subset" with PART_WHOLE
TABLE = """\
# a comment line
feature\tPART_WHOLE>\tRESULT<\tUSAGE>
#prior\t2\t2\t6
h1=subset\t2\t0\t0
h2=wug\t0\t2\t0
b=blah\t0\t0\t5
"""


def _model() -> backoff.Backoff:
    return backoff.parse(TABLE.splitlines(keepends=True))


def test_features_are_head_words_and_close_between_words_and_pairs():
    ctx = context(example("the [[tagger]] reaches the [[accuracy]] .", "F"))
    assert backoff.features(ctx) == [
        "h1=tagger", "h2=accuracy", "b=reaches", "b=the", "bb=reaches_the"]
    far = " ".join(["w"] * (backoff.MAX_GAP + 1))
    ctx = context(example(f"[[a]] {far} [[b]]", "F"))
    assert backoff.features(ctx) == ["h1=a", "h2=b"]


def test_vote_follows_the_counts_and_the_known_direction():
    model = _model()
    ctx = context(example("a [[subset]] zz [[trees]]", "F"))
    assert model.vote(ctx, None) == backoff.Vote("PART_WHOLE", False)
    ctx = context(example("[[parser]] zz [[wug]]", "R"))
    assert model.vote(ctx, True) == backoff.Vote("RESULT", True)
    # the known direction leaves only USAGE> and PART_WHOLE> here
    assert model.vote(ctx, False).label in {"USAGE", "PART_WHOLE"}


def test_no_known_feature_means_no_vote():
    ctx = context(example("[[zorbles]] qq [[quuxes]]", "F"))
    assert _model().vote(ctx, None) is None


def test_classifier_falls_back_on_the_vote_then_the_default():
    clf = RuleClassifier(backoff=_model())
    decision = clf.decide(example("the [[parser]] zz [[wug]]", "R"))
    assert (decision.label, decision.reverse, decision.rule) == ("RESULT", True, BACKOFF_RULE)
    assert clf.decide(example("[[zorbles]] qq [[quuxes]]", "F")).rule == DEFAULT_RULE
    off = RuleClassifier(use_backoff=False).decide(example("the [[parser]] zz [[wug]]", "R"))
    assert off.rule == DEFAULT_RULE


def test_vote_is_expressed_in_scierc_labels():
    clf = RuleClassifier(scheme="scierc", backoff=_model())
    decision = clf.decide(example("the [[parser]] zz [[wug]]", "R"))
    # RESULT(parser, wug) is SciERC EVALUATE-FOR(wug, parser)
    assert (decision.label, decision.rule) == ("EVALUATE-FOR", BACKOFF_RULE)


def test_a_table_without_header_is_refused():
    with pytest.raises(ValueError, match="header"):
        backoff.parse(["h1=x\t1\n"])


def test_build_counts_classes_and_drops_rare_features():
    examples = [example("a [[subset]] of [[trees]]", "F"), example("a [[subset]] in [[x]]", "F")]
    for ex in examples:
        ex.label = "PART_WHOLE"
    prior, counts = build_backoff.count(examples)
    assert prior == {"PART_WHOLE>": 2}
    assert counts == {"h1=subset": {"PART_WHOLE>": 2}}
    out = io.StringIO()
    build_backoff.write(prior, counts, out)
    model = backoff.parse(out.getvalue().splitlines(keepends=True))
    assert model.classes == ["PART_WHOLE>"]
    assert "never edit by hand" in out.getvalue()


def test_shipped_table_is_the_built_one(corpus, tmp_path):
    data = corpus("sci-rc-unified/sample-train.txt").parent.parent
    out = tmp_path / "rc_backoff.tsv"
    assert build_backoff.main(["--data", str(data), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == rules_path(backoff.TABLE).read_text(
        encoding="utf-8")


def test_build_refuses_a_missing_corpus_in_one_line(tmp_path, capsys):
    out = tmp_path / "table.tsv"
    assert build_backoff.main(["--data", str(tmp_path), "-o", str(out)]) == 2
    assert "sample-train.txt: no such file" in capsys.readouterr().err
    assert not out.exists()
