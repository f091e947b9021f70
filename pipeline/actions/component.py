"""ChemicalTagger-style action parser (factory ``chemie_actions``).

Finds action triggers (``was added``, ``extracted with``, ``to give`` …) from the verb
classes in ``rules/actions.yaml``, attaches the mentions of the clause by role and
groups the text into steps (``Step 2``, ``Example 5`` headings) and phases (reaction,
then work-up from the first work-up action of a step). Writes
:class:`chemie.model.Action` objects into ``doc._.actions``; a step heading is an
action labelled ``Heading``.

Roles: ``object`` (the passive subject ``X was added`` or the active object ``added X``),
``product`` (``to give X``, ``X was obtained``) and one role per preposition after the
trigger (``with`` -> ``reagent``, ``in`` -> ``solvent`` or ``container`` for equipment …).
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from pathlib import Path

import regex
from spacy.language import Language
from spacy.tokens import Doc

from chemie.actions.table import ActionTable, action_table
from chemie.actions.views import MentionTable, mention_table
from chemie.context import HEADING, TokenTable, actions_of, token_table
from chemie.model import Action
from chemie.saving import SavesTables, rule_table, table_sources

_DIGIT = regex.compile(r"\d")
_MISSING = object()


class ActionParser(SavesTables):
    """Labels action phrases and their arguments; assigns steps and phases (``to_disk``
    saves the rule table, ``from_disk`` reads it back; the ``post_modifiers`` and
    ``partitives`` of the mention views stay those of ``rules/actions.yaml``)."""

    def __init__(self, rules: str | Path) -> None:
        self.table_files = table_sources(rules)
        self._build(action_table(rules))

    def load_tables(self, files: dict[str, Path]) -> None:
        """Use the rule table in ``files`` (see :class:`~chemie.saving.SavesTables`)."""
        self._build(action_table(rule_table(files)))

    def _build(self, table: ActionTable) -> None:
        """Compile the rule table ``table``."""
        self.table = table
        self.classes: list[tuple[str, regex.Pattern]] = [
            (label, regex.compile(rf"(?:{spec.pattern})", regex.IGNORECASE))
            for label, spec in table.classes.items()
        ]
        self.phase = {label: spec.phase for label, spec in table.classes.items()}
        self.heading = regex.compile(rf"(?:{table.step_heading})", regex.IGNORECASE)
        # classes that fire only near one of their words ("completion of the reaction")
        self.near: dict[str, frozenset[str]] = {
            label: spec.near for label, spec in table.classes.items() if spec.near
        }
        self._cache: dict[str, object] = {}
        # the class of each word as written (None: no class), filled as words are met; keyed
        # by the doc's own word strings (hash already known), a lookup per token stays cheap
        self._by_word: dict[str, str | None] = {}
        self._rules = {label: f"trigger:{label}" for label in self.phase}

    def classify(self, word: str) -> str | None:
        """The action class of a lowercased token (``HEADING`` for a step word), or None."""
        label = self._cache.get(word, _MISSING)
        if label is _MISSING:
            if self.heading.fullmatch(word):
                label = HEADING
            else:
                label = next((lab for lab, pat in self.classes if pat.fullmatch(word)), None)
            if len(self._cache) < 100_000:
                self._cache[word] = label
        return label

    def _is_heading(self, table: TokenTable, i: int) -> bool:
        word = table.text[i]
        if not word[:1].isupper():
            return False
        if i > 0 and table.lower[i - 1] in self.table.reference_before:
            return False  # "the compound from Example 8A": a reference, not a new step
        if i + 2 < len(table.text) and table.lower[i + 2] in self.table.auxiliaries:
            return False  # "... propan-1-ol Example 20A were then added": a compound's label
        nxt = table.text[i + 1] if i + 1 < len(table.text) else ""
        return bool(_DIGIT.match(nxt)) or (len(nxt) <= 3 and nxt.isalnum() and nxt.isupper())

    def _arguments(self, label: str, lower: list[str], mtable: MentionTable, i: int,
                   start: int, end: int) -> dict[str, list[str]]:
        """The mention arguments of trigger ``label`` at token ``i`` in the sentence
        ``start``..``end``: the subject of "X was added" or the object of "added X",
        then the one prepositional role ("with X", "in X", "over X", "into X")."""
        t = self.table
        auxiliaries = t.auxiliaries
        args: dict[str, list[str]] = {}
        if i > start and (lower[i - 1] in auxiliaries or (
                i > start + 1 and lower[i - 2] in auxiliaries
                and lower[i - 1].endswith("ly"))):
            aux = i - 1 if lower[i - 1] in auxiliaries else i - 2
            subject = mtable.ending.get(aux - 1)
            if subject is not None:
                args["product" if label == "Yield" else "object"] = [subject.id]
        else:
            firsts = mtable.firsts
            j = bisect_left(firsts, i + 1)
            if j < len(firsts) and firsts[j] <= i + 2 and firsts[j] < end:
                args["product" if label == "Yield" else "object"] = [mtable.views[j].id]
        roles = t.roles
        for p in range(i + 1, min(end, i + 6)):
            role = roles.get(lower[p])
            if role is None:
                continue
            firsts = mtable.firsts
            j = bisect_left(firsts, p + 1)
            if j < len(firsts) and firsts[j] <= p + 3:
                v = mtable.views[j]
                if role in ("solvent", "target") and v.head in t.containers:
                    role = "container"
                args[role] = [v.id]  # the one prepositional role (the scan stops here)
            break
        return args

    def __call__(self, doc: Doc) -> Doc:
        actions = actions_of(doc)
        table = token_table(doc)
        lower, text = table.lower, table.text
        by_word = self._by_word
        # the class of every word from the memo (_MISSING: not classified yet)
        labels = list(map(by_word.get, text, itertools.repeat(_MISSING)))
        # only the tokens with a class (or none known yet) are visited
        hits = list(itertools.compress(range(len(labels)), labels))
        if not hits:
            return doc  # no trigger word: the mentions are not needed
        mtable = mention_table(doc)
        covered = mtable.covered
        step, phase = 0, "reaction"
        ended = False  # the reaction was declared over (complete, quenched): additions are work-up
        classify, sents, starts = self.classify, table.sents, table.starts
        idx, near_words, phases, t = table.idx, self.near, self.phase, self.table
        after_end, reaction_end = t.after_end, t.reaction_end
        apparatus, manner_before = t.apparatus, t.manner_before
        arguments, rules = self._arguments, self._rules
        for i in hits:
            label = labels[i]
            if label is _MISSING:
                label = classify(lower[i])
                if len(by_word) < 100_000:
                    by_word[text[i]] = label
                if label is None:
                    continue
            k = bisect_right(starts, i) - 1
            start, end = sents[k]
            char = idx[i]
            if label == HEADING:
                if self._is_heading(table, i):
                    step, phase, ended = step + 1, "reaction", False
                    actions.append(Action(HEADING, char, char + len(text[i]), k,
                                          "heading:step", {}, phase, step))
                continue
            if covered[i]:
                continue
            near = near_words.get(label)
            if near is not None and near.isdisjoint(lower[max(start, i - 3) : i + 4]):
                continue  # "completion" not about the reaction ("completion of the addition")
            if ended and label in after_end:
                phase = "workup"  # "After completion of the reaction, water was added"
            elif (phases[label] != "any"
                    # "the ice bath was removed": an action on apparatus keeps the phase
                    and apparatus.isdisjoint(lower[max(start, i - 3) : i])
                    and not (i > start and lower[i - 1] in manner_before)):
                phase = phases[label]
                ended = ended and phase == "workup"
            ended = ended or label in reaction_end
            actions.append(Action(label, char, char + len(text[i]), k, rules[label],
                                  arguments(label, lower, mtable, i, start, end), phase, step))
        return doc


@Language.factory(
    "chemie_actions",
    default_config={"rules": "actions.yaml"},
    requires=["doc._.mentions"],
    assigns=["doc._.actions"],
)
def make_action_parser(nlp: Language, name: str, rules: str) -> ActionParser:
    """The action parser configured from a rule table in ``rules/``."""
    return ActionParser(rules)

