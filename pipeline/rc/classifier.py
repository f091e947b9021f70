"""The transparent rule classifier behind ``chemie rc``.

Rules (``rules/rc.yaml``) are tried in order on the context of an example; the first
rule whose conditions hold and whose direction agrees with the pair's known direction
decides the label and direction. Rules speak unified labels unless they are restricted
to a scheme; a unified decision is expressed in the target scheme through the label
mappings (``rules/rc_labels.yaml``, e.g. RESULT(system, metric) -> SciERC
EVALUATE-FOR(metric, system)). When no rule fires the back-off
(:mod:`chemie.rc.backoff`, mined cue counts) votes, decision rule ``backoff``; when it
has no evidence either, the default label is used (rule ``default``).
"""

from __future__ import annotations

from chemie.formats.rc_labels import mapping
from chemie.model.rc import Decision, RCExample
from chemie.rc import backoff as backoff_model
from chemie.rc.features import context
from chemie.rc.rules import Rule, RuleSet, load

DEFAULT_RULE = "default"
BACKOFF_RULE = "backoff"


class RuleClassifier:
    """Decides a label and a direction for each example, naming the rule."""

    def __init__(self, rules: RuleSet | None = None, scheme: str = "unified",
                 backoff: backoff_model.Backoff | None = None, use_backoff: bool = True):
        self.rules = rules or load()
        self.scheme = scheme
        self.table = mapping(scheme)
        self.backoff = (backoff or backoff_model.load()) if use_backoff else None

    def _native(self, rule: Rule, reverse: bool) -> tuple[str, bool] | None:
        """A rule's label/direction in the target scheme (None: label not in the scheme)."""
        if rule.schemes:
            return (rule.label, reverse) if self.scheme in rule.schemes else None
        for source, entry in self.table.items():
            if entry is not None and entry.label == rule.label:
                return source, reverse != entry.swap
        return None

    def _default_reverse(self, label: str) -> bool:
        return self.rules.default_reverse.get(label, False)

    def decide(self, ex: RCExample) -> Decision:
        """The decision for one example (``ex.reverse`` None = direction unknown)."""
        ctx = context(ex)
        for rule in self.rules.rules:
            if not rule.applies_to(self.scheme):
                continue
            if not rule.matches(ctx):
                continue
            if rule.direction == "any":
                # the unified label's usual direction, or the known one
                reverse = self._default_reverse(rule.label)
                native = self._native(rule, reverse)
                if native is None:
                    continue
                if ex.reverse is not None:
                    native = (native[0], ex.reverse)
            else:
                native = self._native(rule, rule.direction == "reverse")
                if native is None or (ex.reverse is not None and native[1] != ex.reverse):
                    continue
            return Decision(native[0], native[1], rule.name)
        vote = self.backoff.vote(ctx, ex.reverse) if self.backoff is not None else None
        if vote is not None:
            native = self._native(Rule(BACKOFF_RULE, "", vote.label, "forward"), vote.reverse)
            if native is not None:
                reverse = native[1] if ex.reverse is None else ex.reverse
                return Decision(native[0], reverse, BACKOFF_RULE)
        fallback = Rule(DEFAULT_RULE, "", self.rules.default_label, "any")
        native = self._native(fallback, self._default_reverse(fallback.label))
        label, reverse = native if native is not None else (fallback.label, False)
        return Decision(label, ex.reverse if ex.reverse is not None else reverse, DEFAULT_RULE)

    def classify(self, examples: list[RCExample]) -> list[Decision]:
        """Decisions for a list of examples, in order."""
        return [self.decide(ex) for ex in examples]
