"""The rule-based chemical NER component (chemie_ner)."""

from __future__ import annotations

import json

import pytest
from spacy.tokens import Doc

from chemie.ner.component import CLASSES, SPANS_KEY, ChemicalNER, find_in_sentences
from chemie.ner.lexicon import LexEntry, default_index
from chemie.ner.rules import default_rules
from chemie.tokenizer.language import blank


@pytest.fixture(scope="module")
def nlp():
    nlp = blank()
    nlp.add_pipe("chemie_ner")
    return nlp


def _texts(doc) -> list[str]:
    return [s.text for s in doc.spans[SPANS_KEY]]


RULES = default_rules().rules


@pytest.mark.parametrize("rule", RULES, ids=[r.name for r in RULES])
def test_each_rule_fires_on_its_example(nlp, rule):
    doc = nlp(rule.example)
    fired = {s._.chem_rule for s in doc.spans[SPANS_KEY]}
    assert rule.name in fired, [(s.text, s._.chem_rule) for s in doc.spans[SPANS_KEY]]


def test_rule_table_is_complete():
    names = [r.name for r in RULES]
    assert len(names) == len(set(names))
    for r in RULES:
        assert r.comment and r.example and r.label in CLASSES and 0 <= r.confidence <= 1


def test_spans_carry_class_rule_and_confidence(nlp):
    doc = nlp("Tetrahydrofuran (THF) and K2CO3 were added to 2,4-dichloropyrimidine.")
    spans = doc.spans[SPANS_KEY]
    assert _texts(doc) == ["Tetrahydrofuran", "THF", "K2CO3", "2,4-dichloropyrimidine"]
    for s in spans:
        assert s.label_ in CLASSES
        assert isinstance(s._.chem_rule, str) and s._.chem_rule
        assert 0.0 <= s._.chem_conf <= 1.0
    assert spans[2].label_ == "FORMULA"
    assert spans[3].label_ == "SYSTEMATIC"


def test_patent_reagents_and_systematic_names(nlp):
    text = (
        "To a solution of (R)-3-aminoquinuclidine in DMF and THF was added K2CO3. "
        "The mixture was diluted with ethyl acetate, washed with brine, dried over "
        "sodium sulfate and concentrated to give "
        "4-(3-(4-(3H-imidazo[4,5-c]pyridin-6-yl)piperazine-1-carbonyl)-4-fluorobenzyl)"
        "phthalazin-1(2H)-one."
    )
    found = _texts(nlp(text))
    for name in ("(R)-3-aminoquinuclidine", "DMF", "THF", "K2CO3", "ethyl acetate", "brine",
                 "sodium sulfate"):
        assert name in found
    assert any(t.startswith("4-(3-(4-(3H-imidazo") and t.endswith("-one") for t in found)


def test_works_on_pretokenized_docs(nlp):
    words = ["Selegiline", "-", "induced", "hypotension", "after", "N", "-", "methyl", "-",
             "D", "-", "aspartate", "."]
    doc = Doc(nlp.vocab, words=words)
    doc = nlp.get_pipe("chemie_ner")(doc)
    assert _texts(doc) == ["Selegiline", "N - methyl - D - aspartate"]


def test_abbreviation_definition_propagates(nlp):
    doc = nlp("Cells were treated with xylomethazoline-7-ol (XMZ7). Later XMZ7 was washed out.")
    spans = doc.spans[SPANS_KEY]
    assert [s.text for s in spans] == ["xylomethazoline-7-ol", "XMZ7", "XMZ7"]
    assert spans[2]._.chem_rule == "abbreviation_definition"
    assert spans[2].label_ == "ABBREVIATION"


def test_abbreviation_window_limits_propagation():
    ner = ChemicalNER(abbreviation_window=5)
    words = "Tetrahydrofuran ( TTHX ) . a b c d e f g h i j k TTHX".split()
    found = [(f.start, f.end) for f in ner.find(words)]
    assert (2, 3) in found and (17, 18) not in found


def test_abbreviation_after_non_chemical_vetoes_weak_matches():
    index = default_index(derived=False)
    index.add("QZA", LexEntry("ABBREVIATION", "lexicon:test", 0.6), exact=True)
    index.build()
    ner = ChemicalNER(index=index)
    assert [f.rule for f in ner.find("we gave QZA".split())] == ["lexicon:test"]
    words = "patients with pancreatitis disease ( QZA ) received QZA".split()
    assert not [f for f in ner.find(words) if words[f.start] == "QZA"]


def test_bracketed_code_after_non_chemical_is_not_vetoed():
    ner = ChemicalNER(index=default_index(derived=False))
    words = "the HT1B receptor antagonist ( GR 55562 ) ; later GR 55562 was injected".split()
    found = [(words[f.start], f.rule) for f in ner.find(words)]
    assert found == [("GR", "spaced_code"), ("GR", "spaced_code")]


def test_quantity_in_brackets_is_not_an_abbreviation(nlp):
    assert "80 mL" not in _texts(nlp("It was dissolved in tetrahydrofuran (80 mL)."))


@pytest.mark.parametrize("text", ["I", "As", "In", "lead", "He"])
def test_false_friends_are_not_chemicals(nlp, text):
    assert _texts(nlp(f"{text} said that the result was good.")) == []


@pytest.mark.parametrize("text", ["PaO2", "PaCO2", "IC50", "SY5Y"])
def test_blood_gas_and_potency_notations_are_not_formulas(nlp, text):
    assert _texts(nlp(f"The {text} was 80 in both groups.")) == []


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("protected by farnesyl p - coumarate in vitro", "farnesyl p - coumarate"),
        ("agonist N ( 6 ) - cyclopentyl adenosine", "N ( 6 ) - cyclopentyl adenosine"),
        ("injection of triamcinolone dibutyrate was painful", "triamcinolone dibutyrate"),
    ],
)
def test_substituent_and_ester_words_join_the_name(text, name):
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    words = text.split()
    found = {" ".join(words[f.start : f.end]): f.rule for f in ner.find(words)}
    assert found.get(name) == "substituent_name", found


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Methyl isocyanate ( 2 mL ) was added .", "Methyl isocyanate"),
        ("a solution of benzyl azide in water", "benzyl azide"),
        ("with tert - butyl isocyanate at 0 °C", "tert - butyl isocyanate"),
        ("then 2 , 4 - dichlorophenyl isocyanate was", "2 , 4 - dichlorophenyl isocyanate"),
        ("added ethyl vinyl ketone dropwise", "ethyl vinyl ketone"),
        ("isopentyl nitrite and", "isopentyl nitrite"),
        ("treated with trimethyl orthoformate", "trimethyl orthoformate"),
        ("of hexamethylene diisocyanate", "hexamethylene diisocyanate"),
        ("with propan-2-yl formate", "propan-2-yl formate"),
    ],
)
def test_substituent_before_functional_class_word_is_one_name(text, name):
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    words = text.split()
    found = {" ".join(words[f.start : f.end]): f.rule for f in ner.find(words)}
    assert found.get(name) == "functional_class_name", found


FUNCTIONAL_CLASS_WORDS = next(
    r.requires for r in default_rules().table.rules if r.name == "functional_class_name"
)


@pytest.mark.parametrize("word", FUNCTIONAL_CLASS_WORDS)
def test_every_functional_class_word_joins_a_substituent(word):
    """Each word the rule requires is one its pattern accepts (and the reverse holds for
    the words tested above)."""
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    words = ["Then", "ethyl", word, "was", "added"]
    assert [(f.start, f.end, f.rule) for f in ner.find(words)] == [
        (1, 3, "functional_class_name")
    ]


@pytest.mark.parametrize(
    "text",
    ["an alkyl amine", "the aryl azide", "a diaryl ketone", "acyl cyanide", "heteroaryl amines"],
)
def test_generic_substituents_are_not_functional_class_names(text):
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    assert all(f.rule != "functional_class_name" for f in ner.find(text.split()))


@pytest.mark.parametrize(
    "name",
    ["N-Boc-prolinol", "N-Boc-L-prolinol", "N-Cbz-valinol", "Fmoc-serinol", "O-TBS-serinol",
     "N-Boc-D-prolinal", "O-TBDMS-glycidol", "N-Fmoc-leucinol", "Boc-anhydride"],
)
def test_protecting_group_before_a_name_is_one_chemical(nlp, name):
    doc = nlp(f"Then {name} (1.0 g) was added.")
    assert [(s.text, s._.chem_rule) for s in doc.spans[SPANS_KEY]] == [(name, "protected_name")]


def test_protected_name_on_pretokenized_words_and_after_locant_name():
    """Spaced tokens glue into one name; a name locant_name already takes keeps that rule."""
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    words = "of N - Boc - prolinol , O - TBS - N - Boc - serinol and N - Boc - glycine".split()
    found = [(" ".join(words[f.start : f.end]), f.rule) for f in ner.find(words)]
    assert found == [
        ("N - Boc - prolinol", "protected_name"),
        ("O - TBS - N - Boc - serinol", "protected_name"),
        ("N - Boc - glycine", "locant_name"),
    ]


@pytest.mark.parametrize(
    "text",
    ["the Boc-protected amine", "a Fmoc-based strategy", "N-Boc-protected intermediate",
     "SEM-images of the film", "the Z-isomer", "Boc-peptides were", "N-Boc-terminal"],
)
def test_protecting_group_before_an_english_word_is_not_protected_name(nlp, text):
    doc = nlp(text)
    assert all(s._.chem_rule != "protected_name" for s in doc.spans[SPANS_KEY])


def test_curated_formulas_are_element_symbols_with_counts():
    """A curated FORMULA is element symbols (or deuterium) with counts, brackets, a hydrate
    dot or a charge; Ac, Pr and Ts are read as the acetyl, propyl and tosyl groups (AcOH,
    Ac2O), so a name built with them or other group abbreviations is an ABBREVIATION."""
    import regex

    from chemie.ner.rules import ELEMENTS, symbols_of
    from chemie.resources import read_table

    symbols = [s for s in symbols_of(read_table(ELEMENTS)) if s not in ("Ac", "Pr", "Ts")]
    symbols += ["D"]
    e = "(?:" + "|".join(sorted(symbols, key=len, reverse=True)) + ")"
    unit = rf"(?:{e}\d*|\((?:{e}\d*)+\)\d*|\[(?:{e}\d*)+\]\d*)"
    formula = regex.compile(
        rf"\d*{unit}+(?:[·•∙.]\d*(?:{e}\d*)+)*(?:\d?[+\-−]{{1,2}}|\(\d?[+\-]\))?"
    )
    rows = read_table("chemicals_curated.tsv")
    assert [r[0] for r in rows if r[1] == "FORMULA" and not formula.fullmatch(r[0])] == []
    assert {r[0] for r in rows if r[1] == "FORMULA"} >= {"Na2SO4", "CH2Cl2", "CDCl3", "NaBH4"}


def test_group_abbreviation_names_are_abbreviations_not_formulas(nlp):
    doc = nlp("The residue in EtOAc and MeOH was treated with AcOH, iPrOH, DIPEA and Et3N, "
              "then dried over Na2SO4 and taken up in CH2Cl2.")
    classes = {s.text: s.label_ for s in doc.spans[SPANS_KEY]}
    assert classes == {
        "EtOAc": "ABBREVIATION", "MeOH": "ABBREVIATION", "AcOH": "ABBREVIATION",
        "iPrOH": "ABBREVIATION", "DIPEA": "ABBREVIATION", "Et3N": "ABBREVIATION",
        "Na2SO4": "FORMULA", "CH2Cl2": "FORMULA",
    }


def test_salt_words_stay_with_salt_extension():
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    words = "injection of lidocaine hydrochloride".split()
    assert [(f.start, f.end, f.rule) for f in ner.find(words)] == [(2, 4, "salt_extension")]


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("cyclosporine - or tacrolimus levels", ["cyclosporine", "tacrolimus"]),
        ("in alcohol - na ve rats", ["alcohol"]),
        ("( 2 ) cocaine - associated stroke", ["cocaine"]),
        ("( iv ) gabapentin reduced it", ["gabapentin"]),
        ("( 3 ) H - haloperidol binding", ["( 3 ) H - haloperidol"]),
        ("( S ) - methadone was given", ["( S ) - methadone"]),
    ],
)
def test_locant_name_stops_at_words_and_list_labels(text, names):
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    words = text.split()
    assert [" ".join(words[f.start : f.end]) for f in ner.find(words)] == names


def test_family_phrase_tags_its_chemical_word():
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    words = "reactive oxygen species and tricyclic antidepressants".split()
    assert [words[f.start] for f in ner.find(words)] == ["oxygen", "antidepressants"]


def test_bradykinin_receptor_subtype_is_not_part_of_the_name():
    ner = ChemicalNER()
    words = "activation of bradykinin B2 receptors".split()
    assert [(f.start, f.end) for f in ner.find(words)] == [(2, 3)]


def test_salt_word_alone_is_not_a_chemical_but_extends_a_name():
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    words = "with piperazine hydrobromide and lidocaine hydrochloride".split()
    assert [" ".join(words[f.start : f.end]) for f in ner.find(words)] == [
        "piperazine hydrobromide", "lidocaine hydrochloride"
    ]
    assert ner.find("the hydrochloride was dried".split()) == []


def test_curated_glycosaminoglycans_and_families():
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    words = "heparan sulphate , beta - lactam antibiotics and chlorofluorocarbons".split()
    assert [" ".join(words[f.start : f.end]) for f in ner.find(words)] == [
        "heparan sulphate", "beta - lactam", "chlorofluorocarbons"
    ]


def test_asa_physical_status_is_not_aspirin():
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    assert ner.find("elderly , ASA classification group II".split()) == []
    assert ner.find("patients ( ASA 3 / 4 )".split()) == []
    assert [f.rule for f in ner.find("low - dose ASA daily".split())] == [
        "lexicon:chemicals_curated"
    ]


def test_mm_hg_is_not_mercury():
    ner = ChemicalNER()
    assert ner.find(["120", "mm", "Hg"]) == []


def test_combination_is_two_mentions():
    ner = ChemicalNER()
    words = ["doxorubicin", "-", "cisplatin", "therapy"]
    assert [(f.start, f.end) for f in ner.find(words)] == [(0, 1), (2, 3)]


def test_name_and_bracketed_abbreviation_are_separate():
    ner = ChemicalNER()
    words = ["didanosine", "(", "ddI", ")", "in", "rats"]
    assert [(f.start, f.end) for f in ner.find(words)] == [(0, 1), (2, 3)]


def test_find_in_sentences_keeps_sentence_offsets():
    ner = ChemicalNER()
    per = find_in_sentences(ner, [["Cocaine", "kills", "."], ["We", "gave", "cocaine", "."]])
    assert [[(f.start, f.end) for f in fs] for fs in per] == [[(0, 1)], [(2, 3)]]


def test_lexicon_match_does_not_cross_sentences():
    ner = ChemicalNER()
    per = find_in_sentences(ner, [["with", "ethyl"], ["acetate", "."]])
    assert all((f.start, f.end) != (1, 3) for fs in per for f in fs)


def test_chemu_snippets_have_chemicals(nlp, corpus):
    path = corpus("chemu-ref/train.jsonl")
    with path.open(encoding="utf-8") as fh:
        docs = [json.loads(next(fh)) for _ in range(20)]
    counts = []
    for d in docs:
        words = [w for s in d["sentences"] for w in s]
        doc = nlp.get_pipe("chemie_ner")(Doc(nlp.vocab, words=words))
        counts.append(len(doc.spans[SPANS_KEY]))
    assert sum(1 for c in counts if c) >= 15


def test_span_extensions_survive_serialisation(nlp):
    doc = nlp("K2CO3 in THF")
    again = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    spans = again.spans[SPANS_KEY]
    assert [(s.text, s._.chem_rule) for s in spans] == [
        (s.text, s._.chem_rule) for s in doc.spans[SPANS_KEY]
    ]
    spans[0]._.chem_conf = 0.25
    assert again.spans[SPANS_KEY][0]._.chem_conf == 0.25


@pytest.mark.parametrize(
    "name",
    [
        "4-(2-hydroxyethyl)piperazine-1-ethanesulfonic acid",
        "(S)-2-amino-3-phenylpropanoic acid",
        "2-chloro-6-methylbenzoic acid",
    ],
)
def test_ic_acid_with_a_systematic_first_word_is_systematic(nlp, name):
    doc = nlp(f"The buffer contained {name} at pH 7.")
    assert [(s.text, s.label_, s._.chem_rule) for s in doc.spans[SPANS_KEY]] == [
        (name, "SYSTEMATIC", "systematic_acid")
    ]


def test_trivial_ic_acid_stays_trivial(nlp):
    doc = nlp("The extract contained chicoric acid.")
    assert [(s.text, s.label_) for s in doc.spans[SPANS_KEY]] == [("chicoric acid", "TRIVIAL")]


@pytest.mark.parametrize(
    "text",
    [
        "Endothermic peak top temperature in DSC: 195° C.",
        "The exothermic reaction was quenched.",
        "A hydrophobic and aromatic residue; a cyclic, isothermal, gaseous phase.",
        "Tetramethylic and dibenzylic positions are hydrolytically labile.",
    ],
)
def test_adjectives_ending_in_ic_or_ous_are_not_chemicals(nlp, text):
    assert _texts(nlp(text)) == []


def test_adjective_ending_guard_keeps_lexicon_names_and_acids(nlp):
    found = _texts(nlp("Arsenic and benzoic acid and hydrochloric acid were found."))
    assert found == ["Arsenic", "benzoic acid", "hydrochloric acid"]


@pytest.mark.parametrize(
    "word",
    ["medicine", "Medicines", "decline", "midline", "uterine", "intrauterine", "midpontine",
     "cytokines", "fractalkine", "neuroendocrine", "Argentine", "examines", "routine"],
)
def test_english_ine_words_are_not_ine_word_chemicals(word):
    ner = ChemicalNER(index=default_index(derived=False), nonchemical=[])
    assert ner.classifier.token(word) is None


@pytest.mark.parametrize(
    "word", ["glycoprotein", "lipoproteins", "methemoglobin", "corticotropin", "propose"]
)
def test_protein_and_hormone_words_are_not_morphology_chemicals(word):
    ner = ChemicalNER(index=default_index(derived=False, curated=False), nonchemical=[])
    assert ner.classifier.token(word) is None
    assert ner.classifier.token("hydroxyproline")[1] == "morphology_word"


@pytest.mark.parametrize(
    "word", ["bepridil", "terlipressin", "melperone", "zotarolimus", "clentiazem", "doxofylline"]
)
def test_inn_stems_pressin_dil_perone_rolimus_tiazem_fylline(word):
    ner = ChemicalNER(index=default_index(derived=False, curated=False), nonchemical=[])
    assert ner.classifier.token(word) is not None
    assert ner.classifier.token("chaperone") is None


@pytest.mark.parametrize("word", ["zorlafine", "tacrine", "ergonovine", "amsacrine"])
def test_ine_word_keeps_drug_names_next_to_english_stems(word):
    ner = ChemicalNER(index=default_index(derived=False, curated=False), nonchemical=[])
    assert ner.classifier.token(word)[1] == "ine_word"


def test_final_period_after_formula_ends_the_sentence(nlp):
    doc = nlp("The solid was treated with NaH. The mixture was filtered over Et3N.")
    assert "NaH" in _texts(doc) and "Et3N" in _texts(doc)
    assert len(list(doc.sents)) == 2


@pytest.mark.parametrize(
    "word",
    ["diethylnitrosamine", "landiolol", "cefzorilan", "zorlafine", "Endothermic", "the",
     "Medicines", "midpontine", "glycoprotein", "hydroxyproline",
     "K2CO3", "Sr2+", "7732-18-5", "SB203580", "MK-801", "2-methylpropan-1-ol", "5.0"],
)
def test_letter_and_other_token_rules_give_the_whole_tables_verdict(word):
    rules = default_rules()
    whole = rules.token_regex().fullmatch(word)
    split = (rules.letter_regex if word.isalpha() else rules.token_regex(False)).fullmatch(word)
    assert (whole and whole.lastgroup) == (split and split.lastgroup)


def test_ring_size_periods_glue_a_pretokenized_name():
    ner = ChemicalNER()
    words = "with 7 - oxabicyclo [ 2 . 2 . 1 ] heptane . The mixture".split()
    assert [(f.start, f.end, f.rule) for f in ner.find(words)] == [(1, 12, "locant_name")]


def test_results_do_not_depend_on_the_string_caches(monkeypatch, corpus):
    """The per-word and per-run caches only save work: emptied at every document (limit
    0), the mentions found on ChEMU-Ref snippets (tokenized and pre-tokenized) are the same."""
    import chemie.ner.component as ner_module

    path = corpus("chemu-ref/train.jsonl")
    with path.open(encoding="utf-8") as fh:
        docs = [json.loads(next(fh)) for _ in range(30)]
    tokenizer = blank(sentences=False)
    inputs = [[w for s in d["sentences"] for w in s] for d in docs]
    inputs += [[t.text for t in tokenizer(" ".join(words))] for words in inputs]
    warm = ChemicalNER()
    expected = [warm.find(words) for words in inputs + inputs]  # the second pass: warm caches
    monkeypatch.setattr(ner_module, "_CACHE_MAX", -1)
    cold = ChemicalNER()
    assert [cold.find(words) for words in inputs + inputs] == expected
    assert expected[: len(inputs)] == expected[len(inputs) :]


def _search_back(rule, text: str, at: int, length: int):
    """Reference for ``_match_back``: a backwards search over the whole window."""
    import regex

    from chemie.ner.rules import _SEQUENCE_WINDOW

    backwards = regex.compile(rule.pattern.pattern, rule.pattern.flags | regex.REVERSE)
    m = backwards.search(text, max(0, at - _SEQUENCE_WINDOW), min(len(text), at + length + 3))
    return None if m is None or m.end() < at + length else m.span()


@pytest.mark.parametrize(
    "text",
    [
        "the 2-methylpropanoic acid was added",
        "valproic acid , acetic anhydride and benzoic acids",
        "imidodicarbonic acid-1,3-diester and gastric acid",
        "4-(2-hydroxyethyl)piperazine-1-ethanesulfonic acid",
        "acid",
        "some ic acid",
        "Uptake of Rb + and Cs ( + ) was measured , K +",
        "Na+ and Ca ( 2 + ) or Mg 2 +",
        "tert - butyl isocyanate , methyl vinyl ketone and 2 , 4 - dichlorophenyl azides",
        "amine ethyl amine alkyl amine",
    ],
)
def test_anchored_sequence_rules_match_like_a_backwards_search(text):
    from chemie.ner.rules import _match_back

    tried = 0
    for rule, required, backwards, _ in default_rules().sequence:
        if backwards is None:
            continue
        lowered = text.lower()
        for word in required:
            at = lowered.find(word)
            while at >= 0:
                m = _match_back(backwards, text, at, len(word))
                assert (m and m.span("rule")) == _search_back(rule, text, at, len(word))
                tried += 1
                at = lowered.find(word, at + 1)
    assert tried


def test_resolve_is_one_greedy_pass_by_length_and_confidence():
    """``_resolve`` picks what one greedy pass over the candidates sorted by (length,
    confidence, start) picks, ties to the first, on random candidates."""
    import random

    from chemie.ner.component import _resolve

    def greedy(cands, n):
        occupied = [False] * n
        out = []
        for f in sorted(cands, key=lambda f: (f[0] - f[1], -f[4], f[0])):
            if not any(occupied[f[0] : f[1]]):
                occupied[f[0] : f[1]] = [True] * (f[1] - f[0])
                out.append(f)
        return out

    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 12)
        cands = []
        for k in range(rng.randint(0, 10)):
            s = rng.randrange(n)
            e = min(n, s + rng.choice((1, 1, 1, 2, 3)))
            cands.append((s, e, "TRIVIAL", f"r{k}", rng.choice((0.5, 0.7, 0.9))))
        assert sorted(_resolve(cands, n)) == sorted(greedy(cands, n))
