"""rules/mentions.yaml: the typed table, its alphabet, context steps, grammar and passes agree
with the code that uses them, and mistakes in it are reported as FILE: key: what is wrong."""

from __future__ import annotations

import copy
import itertools
import re
from pathlib import Path

import pytest
import yaml

from chemie.mentions import groups, passes
from chemie.mentions.detector import MentionDetector
from chemie.mentions.grammar import PLACEHOLDER, Grammar
from chemie.mentions.table import MentionTable, MentionTables
from chemie.mentions.tagger import Tagger, TokenClassifier
from chemie.nlp import load
from chemie.registry import stage_rules
from chemie.resources import load_rules
from chemie.tables import TableError, parse_table

TABLE = "mentions.yaml"
GUIDE = Path(__file__).resolve().parent.parent / "CONTRIBUTING.md"


def _tables(edit) -> MentionTables:
    """The mention table with ``edit`` applied to a copy of its raw YAML data."""
    data = copy.deepcopy(load_rules(TABLE))
    edit(data)
    return MentionTables.build(TABLE, parse_table(data, MentionTable, TABLE))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["alphabet"][3].update(wordz=["x"]),
         "rules/mentions.yaml: alphabet.3.wordz: unknown key (did you mean 'words'?)"),
        (lambda d: d.pop("shapes"), "rules/mentions.yaml: shapes: missing key"),
        (lambda d: d["alphabet"][0].update(shapes=["NO_SUCH_SHAPE"]),
         "rules/mentions.yaml: alphabet.0.shapes: unknown name 'NO_SUCH_SHAPE'"),
        (lambda d: d["alphabet"][0].update(letter="PP"),
         "rules/mentions.yaml: alphabet.0.letter: 'PP' is not one character"),
        (lambda d: d["passes"].append({"name": "no_such_rule"}),
         "rules/mentions.yaml: passes.18.name: 'no_such_rule' is no rule or filter"),
        (lambda d: d["shapes"].update(NUMBER="(unclosed"),
         "rules/mentions.yaml: shapes.NUMBER: bad regular expression"),
    ],
)
def test_mistakes_in_the_table_are_reported_with_their_key(edit, message):
    with pytest.raises(TableError) as e:
        _tables(edit)
    assert str(e.value).startswith(message)


def _fragment(d: dict, name: str) -> dict:
    """The entry of the grammar fragment ``name`` in the raw table ``d``."""
    entries = [*d["grammar"]["fragments"], *(f for r in d["rules"] for f in r.get("fragments", ()))]
    return next(f for f in entries if f["name"] == name)


def test_grammar_mistakes_are_reported_with_the_entry_that_holds_them():
    def unknown_placeholder(d):
        _fragment(d, "START")["pattern"] = "{NO_SUCH_FRAGMENT}"

    with pytest.raises(TableError, match=r"grammar.fragments.START: no fragment "
                                         r"\{NO_SUCH_FRAGMENT\}"):
        Grammar(_tables(unknown_placeholder))

    def unknown_in_a_rule(d):
        _fragment(d, "MIX_GROUP")["pattern"] = "(?P<mix>&{CORR})?"

    with pytest.raises(TableError, match=r"rules.mixture_of_components.fragments.MIX_GROUP: "
                                         r"no fragment \{CORR\}"):
        Grammar(_tables(unknown_in_a_rule))

    def cycle(d):
        _fragment(d, "START")["pattern"] = "{CORE}"
        _fragment(d, "CORE")["pattern"] = "{START}"

    with pytest.raises(TableError, match=r"grammar.fragments.CORE: \{START\} contains itself: "
                                         r"START > CORE > START"):
        Grammar(_tables(cycle))

    def twice(d):
        d["rules"][0]["fragments"] = [{"name": "CORE", "comment": "again", "pattern": "x"}]

    with pytest.raises(TableError, match=r"rules.chemical_np.fragments.CORE: also defined in "
                                         r"grammar.fragments.CORE"):
        Grammar(_tables(twice))

    def uncommented(d):
        _fragment(d, "LEAD")["comment"] = ""

    with pytest.raises(TableError, match=r"grammar.fragments.LEAD.comment: a fragment needs a "
                                         r"one-line comment"):
        Grammar(_tables(uncommented))


# The mention pattern as one line, as it was written before it was composed of the named
# fragments NP_BRANCH ... FITTINGS (the fragments it names are unchanged).
ONE_LINE_MENTION = (
    "{START}(?:{SOLUTION_LIST}|{GRADIENT}|{YIELD_STATEMENT}|{FUSED_BRANCH}(?:(?P<lead>{LEAD})|"
    "(?P<svp>{SOLUTION_PREFIX}))?(?P<core>{RATIO_CORE}{CORE}(?:O{LEAD}?{CORE}{MIX_GROUP})?"
    "{FROM}?)(?P<amt>(?<=[Kk])nU+(?:\\([^().]*\\))?)?{RATIO_GROUP}(?P<idp>{IDPAREN})?(?:(?:"
    "(?P<pid>\\((?:[CZXKWGbk]|[Kk]?[NZ]){1,3}P)(?=[^().]*[AU])[^().]*\\)|(?P<qp>(?:{QPAREN})+))"
    "(?P<idp2>{IDPAREN})?(?P<sol>(?!I(?:NU|[ADN])Y)(?:P?J|SDG)?I{LEAD}?{CORE}(?:{QPAREN})?"
    "{MORE_SOLVENTS})?|(?P<sol2>(?!I(?:NU|[ADN])Y)(?:P?J)?I{LEAD}?{CORE}(?:{QPAREN})?"
    "{MORE_SOLVENTS})|(?<=E)(?P<eqp>QS(?:P?&?D[WXCENSU-]+)+))?(?P<yld>{YIELD})?)"
)


def test_the_composed_mention_pattern_is_the_one_line_pattern():
    grammar = Grammar(MentionTables.load())
    names = sorted(grammar.variants)
    for k in range(len(names) + 1):
        for variants in itertools.combinations(names, k):
            composed = grammar.mention(frozenset(variants)).pattern
            assert composed == grammar.expand(ONE_LINE_MENTION, variants), variants
    assert len(grammar.template) < 100  # (the one line had 589 characters)


def test_every_grammar_fragment_has_a_one_line_comment():
    table = MentionTables.load().table
    entries = [*table.grammar.fragments, *(f for r in table.rules for f in r.fragments)]
    assert len(entries) > 30
    assert all(f.comment.strip() and "\n" not in f.comment for f in entries)


def test_code_and_table_list_the_same_context_steps_and_passes():
    def drop_step(d):
        d["context"] = [s for s in d["context"] if s["name"] != "gram_label"]

    with pytest.raises(TableError, match="gram_label"):
        Tagger(_tables(drop_step))

    def drop_pass(d):
        d["passes"] = [p for p in d["passes"] if p["name"] != "solvent_pair"]

    with pytest.raises(TableError, match="mentions rule functions without an entry: "
                                         "solvent_pair"):
        MentionDetector(_tables(drop_pass))


def test_the_mention_rules_with_code_are_on_the_one_registry():
    """Every pass and every grouped rule's check of the table is registered on
    ``stage_rules("mentions")`` with code of its kind, and every registered rule is listed."""
    data = load_rules(TABLE)
    coded = stage_rules("mentions")
    assert {p["name"] for p in data["passes"]} == {n for n, c in coded.items() if c.kind == "pass"}
    assert set(data["grammar"]["checks"]) == {n for n, c in coded.items() if c.kind == "group"}
    assert all(callable(c.code) for c in coded.values())
    assert coded["eluent_ratio"].code is groups.EluentRatio
    assert coded["solvent_pair"].code is passes.solvent_pair


def test_a_grouped_rule_needs_its_coded_group_rule():
    def grouped(d):
        d["rules"][0].update(group="ratio", fallback="no_ratio")
        d["grammar"]["checks"].append(d["rules"][0]["name"])

    with pytest.raises(TableError, match=r"rules: no mentions rule function for chemical_np"):
        MentionDetector(_tables(grouped))

    def check_as_pass(d):
        d["passes"].append({"name": "eluent_ratio"})

    with pytest.raises(TableError, match=r"passes.18.name: 'eluent_ratio' is coded as a group "
                                         r"rule, not a pass rule"):
        MentionDetector(_tables(check_as_pass))


def test_core_rules_name_groups_of_the_pattern_or_conditions():
    def bad_when(d):
        d["grammar"]["core_rules"][0]["when"] = "no_such_group"

    with pytest.raises(TableError, match=r"grammar.core_rules.0.when: 'no_such_group' is no"):
        MentionDetector(_tables(bad_when))


def test_every_letter_is_declared_with_a_comment_and_the_tagger_gives_it():
    tables = MentionTables.load()
    alphabet = tables.table.alphabet
    assert all(e.comment for e in alphabet)
    declared = {e.letter for e in alphabet}
    # the letters the grammar's character classes and the code compare with are declared
    grammar = Grammar(tables)
    pattern = grammar.mention(frozenset(grammar.variants)).pattern
    classes = "".join(re.findall(r"\[\^?((?:\\.|[^\]])*)\]", pattern))
    used = set(re.sub(r"\\.|[-^]", "", classes)) - set("\\")
    assert used <= declared | {"-"}, used - declared
    classify = Tagger(tables).classify
    assert classify(";") == "P" and classify(",") == "P"  # (the old docstring said ".")
    assert {classify(w) for w in ["the", "of", "in", "and", "yield", "12", "5%", "mg", "flask",
                                  "water", "was", "mixture", "compound", "DCM(15", "1b", "zz",
                                  "!", "×", "10:1"]} == set("DOI&YNAUECSGKVZWXxR")


def test_every_grammar_fragment_is_used():
    tables = MentionTables.load()
    grammar = Grammar(tables)
    reached: set[str] = set()
    todo = [grammar.template] + [v for o in grammar.variants.values() for v in o.values()]
    while todo:
        for name in PLACEHOLDER.findall(todo.pop()):
            if name not in reached:
                reached.add(name)
                todo.append(grammar.fragments[name])
    source = Path(passes.__file__).read_text(encoding="utf-8")
    compiled = set(re.findall(r'fragment\["([A-Z_]+)"\]', source))
    for name in compiled:
        reached |= {name, *PLACEHOLDER.findall(grammar.fragments[name])}
    assert set(grammar.fragments) - reached == set()


def _first_entry_letter(classifier: TokenClassifier, text: str) -> str:
    """The letter of the first alphabet entry that holds, tried one by one (the definition
    the classifier's dict lookups must agree with)."""
    low = text.lower()
    for e in classifier.entries:
        if (text in e.tokens or low in e.words
                or (e.hyphen_tail and low.rpartition("-")[2] in e.words) or e.matches(text)):
            return e.letter
    return "X"


@pytest.mark.parametrize("text", [
    "the", "The", "(", ")", "=", "x", "mmol", "2.5", "4-bromoaniline", "ethyl", "EtOAc",
    "flask", "solution", "compound", "3a", "DCM(15", "stirred", "a", "", "N-Boc-prolinol",
    "Pd/C", "1H", "°C", "—", "-", ":", "9-BBN", "white", "sat.", "aq", "Step",
])
def test_the_classifier_gives_the_letter_of_the_first_entry_that_holds(text):
    classifier = TokenClassifier(MentionTables.load())
    assert classifier(text) == _first_entry_letter(classifier, text)


def test_the_guide_s_mention_example_works_as_written():
    """CONTRIBUTING.md's "Change a mention pattern", applied to a copy of the table as the
    guide writes it, gives "a 1:1 mixture ..." its ratio (rule ratio_mixture)."""
    guide = GUIDE.read_text(encoding="utf-8")
    section = guide[guide.index("## 2. Change a mention pattern") :]
    section = section[: section.index("\n## ")]
    new_rule = yaml.safe_load(re.search(r"```yaml\n(.*?)```", section, re.S).group(1))[0]
    fragment, old, new = re.search(
        r"fragment `(\w+)`.*?replace `([^`]+)`\s+by `([^`]+)`", section, re.S
    ).groups()
    core_rule, before = re.search(r"put `- ([^`]+)` before the `(\w+)` entry", section).groups()
    core_rule = yaml.safe_load(core_rule)

    def apply(d):
        d["rules"].append(new_rule)
        entry = _fragment(d, fragment)
        assert old in entry["pattern"]
        entry["pattern"] = entry["pattern"].replace(old, new)
        rules = d["grammar"]["core_rules"]
        rules.insert(next(i for i, r in enumerate(rules) if r["rule"] == before), core_rule)

    nlp = load()
    text = "It was dissolved in a 1:1 mixture of THF and water (10 mL)."
    upto = [pipe for name, pipe in nlp.pipeline][: nlp.pipe_names.index("chemie_mentions")]
    doc = nlp.make_doc(text)
    for pipe in upto:
        doc = pipe(doc)
    doc = MentionDetector(_tables(apply))(doc)
    assert [(m.text, m.rule) for m in doc._.mentions] == [
        ("a 1:1 mixture of THF and water (10 mL)", "ratio_mixture")
    ]
