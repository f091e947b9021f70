"""The plausibility check of OPSIN's structures (chemie.structures.plausible) and its use by
the resolver: a refused reading is no structure, and the next spelling is tried."""

from __future__ import annotations

from test_structures_resolve import FakeOpsin

from chemie.structures.plausible import implausible
from chemie.structures.resolve import Resolver


def test_an_ion_alone_is_refused():
    # "methyl ...-3-carboxylate" cut to its anion; "... acid (4-fluorophenyl)amide" cut
    assert implausible("6-methylpyridazine-3-carboxylate", "Cc1ccc(C(=O)[O-])nn1") \
        == "implausible: an ion alone (net charge -1)"
    assert implausible("(4-fluoro-phenyl)-amide", "[NH-]c1ccc(F)cc1").startswith("implausible")
    # salts, zwitterions and nitro groups are neutral
    for smiles in ("[Na+].[OH-]", "C[N+](C)(C)CC(=O)[O-]", "O=[N+]([O-])c1ccccc1"):
        assert implausible("x", smiles) is None, smiles


def test_an_element_the_name_asks_for_must_be_there():
    assert implausible("4-chlorotoluene", "Cc1ccccc1") == "implausible: the name asks for Cl"
    assert implausible("phenyl methanesulfonate", "COc1ccccc1") == \
        "implausible: the name asks for S"
    assert implausible("4-chlorotoluene", "Cc1ccc(Cl)cc1") is None
    # a fluorenyl has no fluorine
    assert implausible("9-fluorenylmethanol", "OCC1c2ccccc2-c2ccccc21") is None


def test_the_resolver_refuses_an_implausible_reading_and_tries_the_next_spelling():
    fake = FakeOpsin({"methyl 4-bromobenzoate": "COC(=O)c1ccc(Br)cc1",
                      "4-bromobenzoate": "O=C([O-])c1ccc(Br)cc1"})
    r = Resolver(opsin=fake)
    cut, whole = r.resolve(["4-bromobenzoate", "methyl 4-bromobenzoate"])
    assert cut.how == "unresolved" and cut.reason == "implausible: an ion alone (net charge -1)"
    assert whole.how == "opsin"
