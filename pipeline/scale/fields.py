"""What each field of each output format means: ``(field, meaning)`` rows, given to the
formats of :mod:`chemie.scale.outputs` (``OutputFormat.fields``), from which the README's
field reference is generated (a test keeps it current, and checks that every column of a
table and every key of a JSON record is described here).

A table's columns are named ``TABLE.COLUMN`` (``mentions.doc_id``); a JSON field inside a
list of records ``LIST[].FIELD`` (``mentions[].spans``).
"""

from __future__ import annotations

Fields = tuple[tuple[str, str], ...]

_RULE = "the name of the rule that made it (`rules/*.yaml`; CONTRIBUTING.md says where)"

BRAT: Fields = (
    ("KEY.txt", "the document's text as read (a ChEMU-Ref document: its tokens joined by "
                "single spaces)"),
    ("T lines", "`T<n><TAB>ENTITY START END<TAB>TEXT`: a mention; discontinuous mentions "
                "list their ranges `START END;START END`"),
    ("R lines", "`R<n><TAB>LABEL Arg1:T<a> Arg2:T<b>`: an anaphoric link from the anaphor "
                "(Arg1) to its antecedent (Arg2); LABEL is one of the ChEMU 2021 labels "
                "COREFERENCE, TRANSFORMED, REACTION_ASSOCIATED, WORK_UP, CONTAINED"),
    ("# lines", "`#<n><TAB>AnnotatorNotes T<a>|R<a><TAB>rule=NAME confidence=P`: the rule "
                "that made the mention or link and its precision on the development data"),
)

CHEMU2020: Fields = (
    ("KEY.txt", "the document's text as read"),
    ("T lines", "`T<n><TAB>LABEL START END<TAB>TEXT`: a ChEMU 2020 label: REACTION_PRODUCT, "
                "STARTING_MATERIAL, REAGENT_CATALYST, SOLVENT, OTHER_COMPOUND, TIME, "
                "TEMPERATURE, YIELD_PERCENT, YIELD_OTHER, EXAMPLE_LABEL, or the trigger "
                "word of a step, REACTION_STEP or WORKUP"),
    ("R lines", "`R<n><TAB>ARG1|ARGM Arg1:T<trigger> Arg2:T<argument>`: what a trigger acts "
                "on, one line per argument, as the official event data: `ARG1` a compound, "
                "`ARGM` a condition or yield (`rules/events.md`)"),
    ("# lines", "`#<n><TAB>AnnotatorNotes T<a>|R<a><TAB>rule=NAME`: the rule that gave the "
                "label (`chemie_roles`, `rules/roles.yaml`) or the link (`chemie_events`, "
                "`rules/events.yaml`)"),
)

CHEMU: Fields = (
    ("doc_key", "the document's id: the input's `doc_key`, a paragraph's `id`, or a text "
                "file's name without `.txt`"),
    ("sentences", "the tokens, sentence by sentence (the input's own for ChEMU-Ref input; "
                  "chemie's for text)"),
    ("Coreference, Transformed, Reaction-associated, Work-up, Contained",
     "the links of each ChEMU 2021 label as `[ANAPHOR, ANTECEDENT]` pairs; a mention is a "
     "list of `[FIRST, LAST]` token ranges (inclusive, counted over the whole document)"),
)

JSON_DOCUMENT: Fields = (
    ("id", "the document's id"),
    ("text", "the document's text as read"),
    ("tokens[]", "`{text, start, end}`: character offsets into `text` (end exclusive)"),
    ("sentences", "`[FIRST, END)` token index ranges"),
    ("mentions[]", "`{id, spans, label, text, rule, confidence, attrs}`: a mention; `spans` "
                   "its `[START, END)` character ranges; `rule` " + _RULE + "; `confidence` "
                   "the rule's precision on the development data (README, Benchmarks)"),
    ("mentions[].attrs", "what the mention detector says of it: `kind` (chemical, generic, "
                         "reference, equipment, state), `head` (its head word), `sentence`, "
                         "`tokens` and `core` (first and last token, the name without "
                         "determiner and amounts), `det`, `quantity`, `ranges`, and "
                         "`chemdner_class` with `ner_rule` when the NER found a chemical in it"),
    ("relations[]", "`{label, head, tail, rule, id, confidence}`: a link from the anaphor "
                    "`head` to the antecedent `tail` (mention ids)"),
    ("meta", "what else the run knows: `actions` (the action parser's steps: label, "
             "offsets, sentence, rule, arguments by role, phase, step), `source` (the input "
             "file), the input's `path` and `line`"),
)

RUN_TABLES: Fields = (
    ("mentions.doc_id", "the document's id (every table joins on it)"),
    ("mentions.mention_id", "the mention's id in its document (`M1`, ...)"),
    ("mentions.start", "the character offset where the mention starts"),
    ("mentions.end", "where it ends (exclusive; a discontinuous mention: its last range's "
                     "end)"),
    ("mentions.spans", "every range, `START-END` joined by `;`"),
    ("mentions.text", "the text of the mention (ranges joined by a space)"),
    ("mentions.label", "`ENTITY`, or a CHEMDNER class for `chemie ner`"),
    ("mentions.kind", "chemical, generic, reference, equipment or state"),
    ("mentions.chemdner_class", "the CHEMDNER class of the NER chemical in it, if any"),
    ("mentions.rule", _RULE),
    ("mentions.confidence", "the rule's precision on the development data"),
    ("relations.doc_id", "the document's id"),
    ("relations.relation_id", "the link's id in its document"),
    ("relations.label", "the ChEMU 2021 label"),
    ("relations.head_id, head_start, head_end, head_spans, head_text, head_kind",
     "the anaphor: mention id, offsets, ranges, text and kind"),
    ("relations.tail_id, tail_start, tail_end, tail_spans, tail_text, tail_kind",
     "the antecedent, alike"),
    ("relations.rule", _RULE),
    ("relations.confidence", "the rule's exact precision on the development data"),
    ("roles.doc_id", "the document's id"),
    ("roles.role_id", "the role's id in its document (`T1`, ...)"),
    ("roles.start, end", "character offsets (end exclusive)"),
    ("roles.text", "the labelled text"),
    ("roles.label", "the ChEMU 2020 label (see `--format chemu2020`)"),
    ("roles.rule", "the `chemie_roles` rule that gave it (`rules/roles.yaml`)"),
    ("roles.args", "for a trigger: the ids of the roles it acts on, space-separated"),
    ("roles.arg_rules", "for a trigger: the `chemie_events` rule of each argument, in the "
                        "order of `args`, joined by `;`"),
)

NER_TSV: Fields = (
    ("document", "the input file (a folder input: its path)"),
    ("start, end", "character offsets of the mention in the file (end exclusive)"),
    ("text", "the mention as written"),
    ("class", "its CHEMDNER class: SYSTEMATIC, TRIVIAL, ABBREVIATION, FORMULA, FAMILY, "
              "IDENTIFIER, MULTIPLE"),
    ("confidence", "the precision of the rule or lexicon that found it"),
    ("rule", "that rule (`rules/ner.yaml`) or `lexicon:NAME` (`lexicons/`)"),
)

NER_JSON: Fields = (
    ("document", "the input file"),
    ("mentions[]", "`{start, end, text, class, confidence, rule}`, as the TSV columns"),
)

NER_TABLES: Fields = tuple((f, m) for f, m in RUN_TABLES if f.startswith("mentions."))

CHEMDNER: Fields = (
    ("OUT.cem.tsv", "`PMID<TAB>T|A:START:END<TAB>RANK<TAB>CONFIDENCE`: a mention in the "
                    "title (T) or the abstract (A), ranked by confidence"),
    ("OUT.cdi.tsv", "`PMID<TAB>NAME<TAB>RANK<TAB>CONFIDENCE`: each distinct name of the "
                    "abstract once"),
)

_COMPONENT = (
    "`{name, role, rule, start, end, mention, amount, structure, label_rule}`: `name` as "
    "written, its offsets, `role` (product, reactant, reagent, catalyst, solvent) with the "
    "`rule` of `rules/reactions.yaml` that gave it; `mention` the id of the mention it was "
    "read from (the components of a mixture, \"EtOAc/hexane\", share one mention id); "
    "`label_rule` the `chemie_roles` rule whose ChEMU 2020 label the role came from"
)

REACTIONS_JSONL: Fields = (
    ("id", "`DOC-N`: the document's id and the reaction's number in it, in text order"),
    ("doc_id", "the document's id"),
    ("rule", "how the record was cut from its document: `document_product` (the only "
             "reaction of the document), `section_product` (the reaction of a step, "
             "after a `Step N` heading, or the first one), `yield_then_stage` (a reaction "
             "that starts after a sentence stating the yield of the one before)"),
    ("products[], reactants[], reagents[], catalysts[], solvents[]", _COMPONENT),
    ("products[].rule", "a product's rule: `title_product` (the title's compound, in the "
                        "document's last reaction), `last_product` (no title compound: "
                        "the last product with a structure), or the label rule"),
    ("[].amount", "`{mass, volume, moles, equivalents, concentration}`, each "
                  "`{value, unit, text}` as written"),
    ("[].structure", "`{how, smiles, inchikey, reason, via, kind, rule}`: `how` is "
                     "dictionary, opsin, coreference (resolved through `via`, the name it "
                     "refers to) or unresolved (`reason`: compound label, reference, "
                     "generic phrase, parse failure, no java, ...); `kind` molecule or "
                     "material; `rule` the rule that chose the name resolved when it is "
                     "not the span as written. No `structure`: `--no-structures`"),
    ("yield", "`{percent, mass, moles, text}`"),
    ("conditions", "`{temperature, time, atmosphere, pressure}`: lists of `{kind, text, "
                   "rule, value, start, end}`, `value` a `{value, unit, text}`"),
    ("steps[]", "`{action, text, phase, rule, start, end, objects}`: an action of the "
                "reaction or its work-up (`phase`), `objects` its arguments `{role, text, "
                "mention}`"),
)

RSMI: Fields = (
    ("column 1", "the document's id (tabs and line breaks as spaces)"),
    ("column 2", "`reactants>reagents>products`, species joined by `.` (reagents, catalysts "
                 "and solvents are the reagents); a component without a structure is left "
                 "out of it"),
    ("column 3", "only on the line of a reaction with such components: `role=name` for each, "
                 "joined by `; ` (the summary line counts these reactions)"),
)

REACTION_TABLES: Fields = (
    ("reactions.doc_id, components.doc_id, steps.doc_id", "the document's id"),
    ("reactions.reaction_id, components.reaction_id, steps.reaction_id",
     "the reaction's id (`DOC-N`): the tables join on it"),
    ("reactions.rule", "how the record was cut (see the `jsonl` format's `rule`)"),
    ("reactions.rsmi", "`reactants>reagents>products` (empty with `--no-structures`)"),
    ("reactions.products, reactants, reagents, catalysts, solvents",
     "counts: how many components of each role the reaction has (the components "
     "themselves are rows of `components`)"),
    ("reactions.yield_percent", "the yield in percent"),
    ("reactions.yield_mass, yield_mass_unit, yield_moles, yield_moles_unit",
     "the amount of product obtained"),
    ("reactions.yield_text", "the yield as written"),
    ("reactions.temperature, time, atmosphere, pressure",
     "the conditions as written, joined by `; `"),
    ("reactions.steps", "a count: how many steps (rows of `steps`)"),
    ("components.component", "its number within the reaction: products, reactants, "
                              "reagents, catalysts, solvents"),
    ("components.role, rule", "its role and the rule that gave it"),
    ("components.name, start, end", "the name as written and its offsets"),
    ("components.mention", "the mention it was read from (shared by a mixture's components)"),
    ("components.smiles, inchikey", "its structure"),
    ("components.how, via, reason, kind", "how the structure was resolved (see the `jsonl` "
                                          "format's `structure`)"),
    ("components.mass, mass_unit, volume, volume_unit, moles, moles_unit, equivalents, "
     "equivalents_unit, concentration, concentration_unit", "its amount: value and unit"),
    ("steps.step", "its number within the reaction"),
    ("steps.action, text, phase, rule, start, end", "as the `jsonl` format's `steps`"),
    ("steps.objects", "its arguments as `role=text`, joined by `; `"),
)
