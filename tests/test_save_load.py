"""The chemie pipeline as a spaCy user handles one: factories that declare what they read
and write, found through entry points, and a pipeline saved with ``nlp.to_disk`` that
``spacy.load`` reads back in a fresh process with the same output."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
import sys
from importlib.metadata import entry_points

import pytest
import spacy
import yaml
from spacy.language import Language

import chemie
from chemie.context import CHEMICAL_SPANS
from chemie.errors import InputError
from chemie.ner.finder import ChemicalNER
from chemie.ner.lexicon import default_index
from chemie.nlp import OPTIONAL, PIPELINE
from chemie.resources import lexicon_path, rules_path
from chemie.tables import TableError

FACTORIES = ("chemie_sentences", *PIPELINE)

# Digests of the pipeline's output on each document of a ChEMU-Ref file, on its tokens and
# on its raw text (run here and, after spacy.load, in a fresh interpreter).
DIGESTS = '''
import hashlib

def digests(nlp, path):
    from chemie.formats.chemu import iter_chemu
    from chemie.model import Document
    from chemie.nlp import annotate

    out = []
    for doc in iter_chemu(path):
        doc.mentions.clear()
        doc.relations.clear()
        for d in (doc, Document(doc.id, doc.text)):
            a = annotate(nlp, d)
            state = (a.id, a.text, a.tokens, a.sentences, a.mentions, a.relations, a.roles,
                     a.meta)
            out.append(hashlib.sha256(repr(state).encode("utf-8")).hexdigest())
    return out
'''


def _fresh(script: str, *args: str) -> str:
    """Run ``script`` in a new interpreter (no chemie module imported); its stdout."""
    guard = "import sys\nassert not [m for m in sys.modules if m.startswith('chemie')]\n"
    done = subprocess.run(
        [sys.executable, "-c", guard + script, *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_spacy_factories_entry_points_name_every_chemie_factory():
    chemie.load()
    points = {
        ep.name: ep.value for ep in entry_points(group="spacy_factories")
        if ep.value.startswith("chemie.")
    }
    assert sorted(points) == sorted((*FACTORIES, *OPTIONAL))
    for name, value in points.items():
        module, function = value.split(":")
        assert getattr(importlib.import_module(module), function) is spacy.registry.factories.get(
            name
        )


def test_spacy_finds_the_language_and_the_factories_without_importing_chemie():
    text = "Water (5 mL) was added to the flask. The mixture was stirred for 2 h."
    script = (
        "import spacy\n"
        "nlp = spacy.blank('chemie')\n"
        "for name in sys.argv[2:]:\n"
        "    nlp.add_pipe(name)\n"
        "doc = nlp(sys.argv[1])\n"
        "print([t.text for t in doc], len(doc._.mentions), len(doc._.relations))\n"
    )
    doc = chemie.load()(text)
    expected = f"{[t.text for t in doc]} {len(doc._.mentions)} {len(doc._.relations)}\n"
    assert doc._.relations
    assert _fresh(script, text, *FACTORIES) == expected


def test_the_spacy_misc_entry_points_name_the_registered_functions():
    points = {
        ep.name: ep.value for ep in entry_points(group="spacy_misc")
        if ep.value.startswith("chemie.")
    }
    assert "chemie.text_tier.v1" in points
    for name, value in points.items():
        module, function = value.split(":")
        assert getattr(importlib.import_module(module), function) is spacy.registry.misc.get(
            name
        )


# 4-methylmorpholine: a starting material by the roles' own rules, a reagent by the text tier
# of the decision the reaction records share (a dictionary base)
BASE_TEXT = ("Example 9\n2-Chloro-5-nitropyridine (1.0 g) and 4-methylmorpholine (0.7 g) were "
             "heated in acetonitrile (10 mL) at 80 °C for 4 h to give the title compound "
             "(1.2 g).")


def test_a_blank_chemie_adds_chemie_roles_with_the_shared_decision_without_importing_chemie():
    """spaCy finds the decision ``chemie_roles``' config names through its entry point."""
    script = (
        "import json, spacy\n"
        "nlp = spacy.blank('chemie')\n"
        "for name in sys.argv[2:]:\n"
        "    nlp.add_pipe(name)\n"
        "roles = nlp(sys.argv[1])._.roles\n"
        "print(json.dumps([[r.start, r.end, r.label, r.rule] for r in roles]))\n"
    )
    roles = chemie.load(roles=True)(BASE_TEXT)._.roles
    expected = [[r.start, r.end, r.label, r.rule] for r in roles]
    assert [BASE_TEXT[s:e] for s, e, label, rule in expected
            if rule == "reagent_by_class"] == ["4-methylmorpholine"]
    assert json.loads(_fresh(script, BASE_TEXT, *FACTORIES, "chemie_roles")) == expected


@pytest.mark.parametrize("name", FACTORIES)
def test_each_factory_declares_what_it_assigns(name):
    chemie.load()
    assert Language.get_factory_meta(name).assigns


def test_analyze_pipes_reports_no_problem_for_the_pipeline():
    analysis = chemie.load().analyze_pipes()
    assert not any(analysis["problems"].values()), analysis["problems"]


def test_analyze_pipes_reports_a_missing_component():
    nlp = chemie.load()
    nlp.remove_pipe("chemie_actions")
    problems = nlp.analyze_pipes()["problems"]
    assert "doc._.actions" in problems["chemie_bridging"]
    assert "doc._.actions" not in problems["chemie_coref"]
    assert nlp.analyze_pipes()["summary"]["chemie_coref"]["assigns"] == ["doc._.relations"]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("saved") / "chemie"
    chemie.load().to_disk(path)
    return path


@pytest.fixture(scope="module")
def saved_roles(tmp_path_factory):
    """The pipeline with the opt-in ``chemie_roles``, saved."""
    path = tmp_path_factory.mktemp("saved_roles") / "chemie"
    chemie.load(roles=True).to_disk(path)
    return path


def test_the_saved_config_names_the_chemie_language_and_tokenizer(saved):
    config = spacy.util.load_config(saved / "config.cfg")
    assert config["nlp"]["lang"] == "chemie"
    assert config["nlp"]["tokenizer"] == {"@tokenizers": "chemie.tokenizer.v1"}
    assert config["nlp"]["pipeline"] == list(FACTORIES)


def test_the_tokenizer_round_trips_through_bytes_with_its_hooks():
    nlp = chemie.load()
    text = "(E)-but-2-ene (5.0g) in THF at 50°C for 2 h. Then (1R,2S)-2-aminocyclohexanol."
    before = [t.text for t in nlp.tokenizer(text)]
    fresh = chemie.load()
    fresh.tokenizer.from_bytes(nlp.tokenizer.to_bytes())
    assert [t.text for t in fresh.tokenizer(text)] == before
    assert fresh.tokenizer.token_match is nlp.tokenizer.token_match
    assert "h." not in fresh.tokenizer.rules  # the chemie special cases, not English's


@pytest.mark.corpus
@pytest.mark.slow
def test_a_saved_pipeline_loads_in_a_fresh_process_with_the_same_output(saved, corpus):
    path = corpus("chemu-ref/train.jsonl")
    namespace: dict = {}
    exec(DIGESTS, namespace)  # noqa: S102  (the same code as the fresh process runs)
    expected = namespace["digests"](chemie.load(), path)
    script = (
        "import json, spacy\n"
        "nlp = spacy.load(sys.argv[1])\n"
        + DIGESTS
        + "print(json.dumps(digests(nlp, sys.argv[2])))\n"
    )
    got = json.loads(_fresh(script, str(saved), str(path)))
    assert len(got) == len(expected) == 2 * 900
    differ = [i for i, (a, b) in enumerate(zip(got, expected, strict=True)) if a != b]
    assert not differ, f"{len(differ)} documents differ, first: {differ[0] // 2}"


@pytest.mark.parametrize(
    ("component", "source"),
    [
        ("chemie_sentences", rules_path("tokenizer_sentences.yaml")),
        ("chemie_ner", rules_path("ner.yaml")),
        ("chemie_ner", lexicon_path("chemicals_curated.tsv")),
        ("chemie_ner", lexicon_path("bc5cdr_chemicals.tsv")),
        ("chemie_ner", lexicon_path("blacklist.txt")),
        ("chemie_actions", rules_path("actions.yaml")),
        ("chemie_mentions", rules_path("mentions.yaml")),
        ("chemie_mentions", rules_path("vocabularies.yaml")),
        ("chemie_coref", rules_path("coref.yaml")),
        ("chemie_bridging", rules_path("bridging.yaml")),
    ],
)
def test_a_component_saves_the_tables_it_was_built_from(saved, component, source):
    copy = saved / component / source.name
    assert copy.read_bytes() == source.read_bytes()


@pytest.mark.parametrize(
    "source",
    [rules_path("roles.yaml"), rules_path("vocabularies.yaml"),
     lexicon_path("chemu2020_roles.tsv")],
)
def test_chemie_roles_saves_the_tables_it_was_built_from(saved_roles, source):
    config = spacy.util.load_config(saved_roles / "config.cfg")
    assert config["nlp"]["pipeline"] == [*FACTORIES, "chemie_roles", "chemie_events"]
    assert config["components"]["chemie_roles"]["decision"] == {"@misc": "chemie.text_tier.v1"}
    copy = saved_roles / "chemie_roles" / source.name
    assert copy.read_bytes() == source.read_bytes()


def test_chemie_reactions_saves_its_rule_table_and_reads_the_copy_back(tmp_path):
    nlp = chemie.load(reactions=True, reactions_config={"structures": False})
    nlp.to_disk(tmp_path / "chemie")
    for table in ("reactions.yaml", "procedures.yaml"):
        copy = tmp_path / "chemie" / "chemie_reactions" / table
        assert copy.read_bytes() == rules_path(table).read_bytes()
    text = ("4-Bromoaniline (1.0 g) was dissolved in THF (10 mL) and acetic anhydride (1.2 mL) "
            "was added. The mixture was stirred for 2 h to give N-(4-bromophenyl)acetamide "
            "(1.1 g, 90%).")
    expected = [r.to_dict() for r in nlp(text)._.reactions]
    assert expected
    assert [r.to_dict() for r in spacy.load(tmp_path / "chemie")(text)._.reactions] == expected
    # the loaded component runs on the copy: a broken copy is refused by name
    edited = tmp_path / "edited"
    shutil.copytree(tmp_path / "chemie", edited)
    _edit_yaml(edited / "chemie_reactions" / "reactions.yaml",
               lambda t: t.update(units={**t["units"], "speed": {"m/s": "m/s"}}))
    with pytest.raises(TableError, match="units.speed"):
        spacy.load(edited)


def _edit_yaml(path, change) -> None:
    table = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(table)
    path.write_text(yaml.safe_dump(table), encoding="utf-8")


def test_a_loaded_pipeline_runs_on_its_saved_tables(saved, tmp_path):
    """Editing the copies in a saved pipeline changes what spacy.load gives (the tables are
    read back by from_disk, not taken from the installed package)."""
    text = "Acetone was added to the flask. The mixture was stirred for 2 h."
    before = spacy.load(saved)(text)
    assert "Acetone" in [s.text for s in before.spans[CHEMICAL_SPANS]]
    assert len(list(before.sents)) == 2 and [a.label for a in before._.actions][0] == "Add"

    edited = tmp_path / "edited"
    shutil.copytree(saved, edited)
    with (edited / "chemie_ner" / "blacklist.txt").open("a", encoding="utf-8") as fh:
        fh.write("Acetone\n")
    _edit_yaml(edited / "chemie_sentences" / "tokenizer_sentences.yaml",
               lambda t: t.update(terminators=["!"]))
    _edit_yaml(edited / "chemie_actions" / "actions.yaml", lambda t: t["classes"].pop("Add"))
    after = spacy.load(edited)(text)
    assert "Acetone" not in [s.text for s in after.spans[CHEMICAL_SPANS]]
    assert len(list(after.sents)) == 1
    assert "Add" not in [a.label for a in after._.actions]
    assert [t.text for t in after] == [t.text for t in before]


def test_a_loaded_pipeline_labels_roles_by_its_saved_table(saved_roles, tmp_path):
    text = "Acetone was added to the flask. The mixture was stirred for 2 h."
    before = [(r.text, r.label) for r in spacy.load(saved_roles)(text)._.roles]
    assert ("2 h", "TIME") in before
    edited = tmp_path / "edited"
    shutil.copytree(saved_roles, edited)
    _edit_yaml(edited / "chemie_roles" / "roles.yaml", lambda t: t.update(
        conditions=[c for c in t["conditions"] if c["name"] != "time_units"]))
    after = spacy.load(edited)(text)
    assert "TIME" not in [r.label for r in after._.roles]
    assert "TEMPERATURE" not in [r.label for r in after._.roles]
    acetone = [x for x in before if x[0] == "Acetone"]
    assert acetone and [(r.text, r.label) for r in after._.roles if r.text == "Acetone"] == acetone


def test_chemie_events_saves_its_table_and_links_by_the_saved_copy(saved_roles, tmp_path):
    copy = saved_roles / "chemie_events" / "events.yaml"
    assert copy.read_bytes() == rules_path("events.yaml").read_bytes()
    text = "Acetone was added to the flask. The mixture was stirred for 2 h."
    stirred = [r for r in spacy.load(saved_roles)(text)._.roles if r.text == "stirred"]
    assert stirred and stirred[0].arg_rules == ["after_trigger"]
    edited = tmp_path / "edited"
    shutil.copytree(saved_roles, edited)
    _edit_yaml(edited / "chemie_events" / "events.yaml", lambda t: t.update(
        rules=[r for r in t["rules"] if r["name"] != "after_trigger"]))
    after = [r for r in spacy.load(edited)(text)._.roles if r.text == "stirred"]
    assert after and after[0].args == []


@pytest.mark.parametrize("text", [
    "4-Bromoaniline (1.0 g) and triethylamine (2 mL) were stirred in THF (5 mL) at 50 °C for 2 h. "
    "The mixture was extracted with ethyl acetate to give the title compound (0.8 g, 75%).",
    BASE_TEXT,
])
def test_a_saved_pipeline_with_roles_gives_the_same_roles_in_a_fresh_process(saved_roles, text):
    expected = [[r.start, r.end, r.label, r.rule] for r in chemie.load(roles=True)(text)._.roles]
    script = (
        "import json, spacy\n"
        "doc = spacy.load(sys.argv[1])(sys.argv[2])\n"
        "print(json.dumps([[r.start, r.end, r.label, r.rule] for r in doc._.roles]))\n"
    )
    assert len(expected) > 5
    assert json.loads(_fresh(script, str(saved_roles), text)) == expected


def test_a_saved_table_that_is_missing_is_named(saved, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(saved, broken)
    (broken / "chemie_actions" / "actions.yaml").unlink()
    with pytest.raises(InputError, match=r"chemie_actions/actions\.yaml: missing"):
        spacy.load(broken)


def test_a_ner_made_from_word_lists_in_python_has_no_tables_to_save(tmp_path):
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[], blacklist=["THF"])
    ner.to_disk(tmp_path / "ner")
    assert list((tmp_path / "ner").iterdir()) == []
    words = ["THF", "and", "acetone"]
    assert ner.from_disk(tmp_path / "ner").find(words) == ner.find(words)
    assert [f.start for f in ner.find(words)] == [2]


def test_a_saved_table_edited_in_place_gives_the_new_rules_in_the_same_process(tmp_path):
    """The tables of a saved pipeline are read afresh at each load (a cache keyed by their
    path would serve the rules as they were at the first load)."""
    path = tmp_path / "chemie"
    chemie.load(ner=False, reactions=True, reactions_config={"structures": False}).to_disk(path)
    text = "The mixture was stirred for 2 h. The flask was cooled."

    def flask_confidence() -> float:
        doc = spacy.load(path)(text)
        (found,) = [m.confidence for m in doc._.mentions if m.text.endswith("flask")]
        return found

    assert flask_confidence() == 0.69  # equipment_np, as rules/mentions.yaml says
    table = path / "chemie_mentions" / "mentions.yaml"
    _edit_yaml(table, lambda t: next(r for r in t["rules"] if r["name"] == "equipment_np")
               .update(confidence=0.5))
    assert flask_confidence() == 0.5
    # the reaction tables too: a copy edited in place is read again (here: refused by name)
    _edit_yaml(path / "chemie_reactions" / "reactions.yaml",
               lambda t: t.update(units={**t["units"], "speed": {"m/s": "m/s"}}))
    with pytest.raises(TableError, match="units.speed"):
        spacy.load(path)
