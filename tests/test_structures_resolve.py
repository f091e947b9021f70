"""The resolver: dictionary first, then OPSIN (one batch per call), the reasons when neither.

A stand-in OPSIN (same ``parse`` interface) records the names it is asked, so the order of
lookups and the batching are checked without a JVM; one test uses the real OPSIN."""

from __future__ import annotations

import shutil

import pytest

from chemie.structures.chem import canonical
from chemie.structures.grounding import ground
from chemie.structures.opsin import OpsinResult
from chemie.structures.resolve import Resolver


class FakeOpsin:
    """Answers from a table; other names fail to parse (or all fail with ``reason``)."""

    def __init__(self, table: dict[str, str], reason: str | None = None):
        self.table = table
        self.reason = reason
        self.calls: list[list[str]] = []

    def parse(self, names):
        names = list(names)
        self.calls.append(names)
        if self.reason:
            return {n: OpsinResult(n, None, self.reason) for n in names}
        return {n: OpsinResult(n, self.table.get(n), None if n in self.table else
                               "parse failure") for n in names}


def test_dictionary_first_then_opsin_in_one_batch():
    fake = FakeOpsin({"2-chloropyridine": "ClC1=NC=CC=C1", "phenol": "OC1=CC=CC=C1"})
    r = Resolver(opsin=fake)
    out = r.resolve(["THF", "2-chloropyridine", "brine", "phenol", "nonsense"])
    assert [x.how for x in out] == ["dictionary", "opsin", "dictionary", "opsin", "unresolved"]
    assert out[0].smiles == canonical("C1CCOC1") and out[0].cls == "solvent"
    assert out[0].inchikey == "WYURNTSHIVDZCO-UHFFFAOYSA-N"
    assert out[1].smiles == canonical("Clc1ccccn1") and out[1].kind == "molecule"
    assert out[2].kind == "material" and out[2].smiles is None and out[2].resolved
    assert out[4].reason == "parse failure" and not out[4].resolved
    assert len(fake.calls) == 1  # one OPSIN batch for the whole call
    assert "THF" not in fake.calls[0] and "brine" not in fake.calls[0]


def test_spellings_are_tried_in_order_and_the_one_that_resolved_is_named():
    fake = FakeOpsin({"2-chloro-pyridine": "ClC1=NC=CC=C1"})
    (g,) = [ground("2 - chloro - pyridine ( 1 g )")]
    (res,) = Resolver(opsin=fake).resolve(list(g.names))
    assert res.how == "opsin" and res.spelling == "2-chloro-pyridine"
    assert res.name == "2 - chloro - pyridine"
    # the dictionary is tried on every spelling before OPSIN
    (dmf,) = Resolver(opsin=fake).resolve(list(ground("N , N-dimethylformamide").names))
    assert dmf.how == "dictionary" and dmf.spelling == "N,N-dimethylformamide"


def test_service_failure_is_the_reason_and_the_dictionary_still_works():
    fake = FakeOpsin({}, reason="no java")
    out = Resolver(opsin=fake).resolve(["nitrogen", "2-chloropyridine"])
    assert out[0].how == "dictionary" and out[0].smiles == "N#N"
    assert out[1].how == "unresolved" and out[1].reason == "no java"


def test_opsin_smiles_that_rdkit_cannot_read_is_a_reason():
    fake = FakeOpsin({"weird": "C1CC"})
    (res,) = Resolver(opsin=fake).resolve(["weird"])
    assert res.how == "unresolved" and res.reason == "RDKit cannot read OPSIN's SMILES"


def test_dictionary_only_resolver_never_calls_opsin():
    fake = FakeOpsin({"phenol": "OC1=CC=CC=C1"})
    out = Resolver(opsin=fake, use_opsin=False).resolve(["DCM", "phenol"])
    assert [x.how for x in out] == ["dictionary", "unresolved"]
    assert out[1].reason == "not in the dictionary" and fake.calls == []


def test_resolve_texts_grounds_and_resolves_a_document_in_one_batch():
    fake = FakeOpsin({"4-bromoaniline": "NC1=CC=C(Br)C=C1"})
    texts = ["213 mg of 4-bromoaniline", "EtOAc / hexane", "the title compound", "compound 5"]
    out = Resolver(opsin=fake).resolve_texts(texts)
    assert [[r.how for r in res] for _, res in out] == [["opsin"], ["dictionary"] * 2, [], []]
    assert [g.reason for g, _ in out] == [None, None, "reference", "compound label"]
    assert len(fake.calls) == 1


@pytest.mark.skipif(shutil.which("java") is None, reason="java is not installed")
def test_real_opsin_resolves_a_grounded_mention():
    out = Resolver().resolve_texts(["a solution of 4-methoxybenzoic acid ( 1 g ) in dry DMF"])
    (g, res) = out[0]
    assert [(r.name, r.how) for r in res] == [("4-methoxybenzoic acid", "opsin"),
                                             ("DMF", "dictionary")]
    assert res[0].smiles == canonical("COc1ccc(C(=O)O)cc1")
