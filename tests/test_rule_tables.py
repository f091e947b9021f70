"""Every rule table is read through its schema: a misspelt, missing or mistyped key is an
error naming the file and the key, not a silently empty list."""

from __future__ import annotations

import copy

import pytest

from chemie.actions.table import ActionTable
from chemie.bridging.table import BridgingTable
from chemie.characters import CharacterTable
from chemie.coref.features import CorefTable
from chemie.events.linker import EventTable
from chemie.formats.rc_labels import LabelTable
from chemie.mentions.table import MentionTable
from chemie.ner.rules import NerTable
from chemie.rc.rules import RcTable
from chemie.reactions.procedures_table import ProcedureTable
from chemie.reactions.table import ReactionTable
from chemie.resources import load_rules, rules_path
from chemie.roles.table import RoleTable
from chemie.structures.grounding import GroundingTable
from chemie.tables import TableError, load_table, parse_table
from chemie.tokenizer.language import TokenizerTable
from chemie.tokenizer.sentences import SentenceTable

SCHEMAS = {
    "actions.yaml": ActionTable,
    "characters.yaml": CharacterTable,
    "bridging.yaml": BridgingTable,
    "coref.yaml": CorefTable,
    "events.yaml": EventTable,
    "grounding.yaml": GroundingTable,
    "mentions.yaml": MentionTable,
    "ner.yaml": NerTable,
    "rc.yaml": RcTable,
    "rc_labels.yaml": LabelTable,
    "procedures.yaml": ProcedureTable,
    "reactions.yaml": ReactionTable,
    "roles.yaml": RoleTable,
    "tokenizer.yaml": TokenizerTable,
    "tokenizer_sentences.yaml": SentenceTable,
}
# the vocabularies are the lists the others reference
UNTYPED = {"vocabularies.yaml"}


def _item(items: list, name: str) -> dict:
    return next(x for x in items if x["name"] == name)


def _rename(record: dict, old: str, new: str) -> None:
    record[new] = record.pop(old)


# (table, change to its parsed YAML, the one line it must fail with)
CASES = [
    ("characters.yaml", lambda t: _rename(_item(t["rules"], "minus"), "becomes", "become"),
     "rules/characters.yaml: rules.minus.become: unknown key (did you mean 'becomes'?)"),
    ("actions.yaml", lambda t: _rename(t["classes"]["Add"], "pattern", "patern"),
     "rules/actions.yaml: classes.Add.patern: unknown key (did you mean 'pattern'?)"),
    ("bridging.yaml", lambda t: _rename(t, "state_heads", "state_haeds"),
     "rules/bridging.yaml: state_haeds: unknown key (did you mean 'state_heads'?)"),
    ("bridging.yaml", lambda t: _rename(t["rules"]["ra_previous_state"], "label", "lable"),
     "rules/bridging.yaml: rules.ra_previous_state.lable: unknown key (did you mean 'label'?)"),
    ("coref.yaml", lambda t: _rename(_item(t["rules"], "as_eluent"), "heads", "haeds"),
     "rules/coref.yaml: rules.as_eluent.haeds: unknown key (did you mean 'heads'?)"),
    ("coref.yaml", lambda t: _item(t["rules"], "as_eluent").update(name="as_elent"),
     "rules/coref.yaml: rules.as_elent.name: unknown name 'as_elent' (did you mean 'as_eluent'?)"),
    ("coref.yaml", lambda t: _item(t["rules"], "repeated_name").pop("removed"),
     "rules/coref.yaml: rules.repeated_name.removed: missing key"),
    ("coref.yaml", lambda t: _item(t["rules"], "repeated_name").update(min_length="eight"),
     "rules/coref.yaml: rules.repeated_name.min_length: expected int, got str 'eight'"),
    ("events.yaml", lambda t: _rename(_item(t["rules"], "inert_gas"), "words", "word"),
     "rules/events.yaml: rules.inert_gas.word: unknown key (did you mean 'words'?)"),
    ("grounding.yaml", lambda t: _rename(_item(t["splits"], "mixture_slash"), "guard", "gaurd"),
     "rules/grounding.yaml: splits.mixture_slash.gaurd: unknown key (did you mean 'guard'?)"),
    ("mentions.yaml", lambda t: _rename(_item(t["rules"], "chemical_np"), "comment", "coment"),
     "rules/mentions.yaml: rules.chemical_np.coment: unknown key (did you mean 'comment'?)"),
    ("ner.yaml", lambda t: _rename(_item(t["rules"], "formula"), "class", "clas"),
     "rules/ner.yaml: rules.formula.clas: unknown key (did you mean 'class'?)"),
    ("rc.yaml", lambda t: _rename(_item(t["rules"], "compare_correlation"), "before", "befor"),
     "rules/rc.yaml: rules.compare_correlation.befor: unknown key (did you mean 'before'?)"),
    ("rc_labels.yaml", lambda t: _rename(t["scierc"]["USED-FOR"], "swap", "swp"),
     "rules/rc_labels.yaml: scierc.USED-FOR.swp: unknown key (did you mean 'swap'?)"),
    ("procedures.yaml", lambda t: _rename(t["replacements"][0], "new_first", "new_frist"),
     "rules/procedures.yaml: replacements.instead_of.new_frist: unknown key (did you mean "
     "'new_first'?)"),
    ("reactions.yaml", lambda t: _rename(t["after_reaction"], "min_hours", "min_hour"),
     "rules/reactions.yaml: after_reaction.min_hour: unknown key (did you mean 'min_hours'?)"),
    ("roles.yaml", lambda t: _rename(_item(t["compounds"], "solvent_after_in"), "after", "afer"),
     "rules/roles.yaml: compounds.solvent_after_in.afer: unknown key (did you mean 'after'?)"),
    ("roles.yaml", lambda t: _item(t["compounds"], "layer").update(name="layers"),
     "rules/roles.yaml: compounds.layers.name: unknown name 'layers' (did you mean 'layer'?)"),
    ("roles.yaml", lambda t: _rename(_item(t["triggers"], "yield_step"), "needs_argument",
                                     "needs_arg"),
     "rules/roles.yaml: triggers.yield_step.needs_arg: unknown key (did you mean "
     "'needs_argument'?)"),
    ("tokenizer.yaml", lambda t: _rename(_item(t["keep_whole"], "formula"), "kind", "knd"),
     "rules/tokenizer.yaml: keep_whole.formula.knd: unknown key (did you mean 'kind'?)"),
    ("tokenizer_sentences.yaml", lambda t: _rename(t, "openers", "opener"),
     "rules/tokenizer_sentences.yaml: opener: unknown key (did you mean 'openers'?)"),
]


def test_every_rule_table_has_a_schema():
    names = {p.name for p in rules_path("coref.yaml").parent.glob("*.yaml")}
    assert names - UNTYPED == set(SCHEMAS)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_rule_table_matches_its_schema(name):
    assert isinstance(load_table(name, SCHEMAS[name]), SCHEMAS[name])


@pytest.mark.parametrize(("name", "change", "message"), CASES,
                         ids=[m.split(": ")[1] for _, _, m in CASES])
def test_a_misspelt_missing_or_mistyped_key_is_rejected(name, change, message):
    data = copy.deepcopy(load_rules(name))
    change(data)
    with pytest.raises(TableError) as e:
        parse_table(data, SCHEMAS[name], name)
    assert str(e.value) == message


def test_every_table_names_each_case():
    assert {name for name, _, _ in CASES} == set(SCHEMAS)
