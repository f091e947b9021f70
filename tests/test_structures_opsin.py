"""The OPSIN service: the bundled jar, one JVM per process, batches, cache, and every failure
path (a JVM that dies, hangs, answers out of step or cannot start; no java at all).

The failure paths run against a fake ``java`` (a small Python script that speaks OPSIN's
line protocol), so they are deterministic; the tests of the real jar skip where java is
missing (CI has it)."""

from __future__ import annotations

import os
import shutil
import stat
import sys
from pathlib import Path

import pytest

from chemie.structures import opsin as opsin_module
from chemie.structures.chem import canonical
from chemie.structures.opsin import Opsin, clean_name, find_jar

FAKE_JAVA = f"""#!{sys.executable}
# a stand-in for `java -jar opsin.jar -osmi -n`: answers "C<TAB>name" per line;
# a name containing DIE exits, HANG sleeps, SKEW echoes another name; the mode
# FAKE_OPSIN_MODE=exit exits at once (a JVM that cannot start)
import os, sys, time
if os.environ.get("FAKE_OPSIN_MODE") == "exit":
    sys.exit(1)
with open(os.environ["FAKE_OPSIN_LOG"], "a") as log:
    log.write("start\\n")
for line in sys.stdin:
    name = line.rstrip("\\n")
    if "DIE" in name:
        sys.exit(3)
    if "HANG" in name:
        time.sleep(600)
    print(("C\\t" + ("other" if "SKEW" in name else name)), flush=True)
"""


@pytest.fixture
def fake_java(tmp_path, monkeypatch):
    """Path of the fake java; ``FAKE_OPSIN_LOG`` counts its starts."""
    java = tmp_path / "bin" / "java"
    java.parent.mkdir()
    java.write_text(FAKE_JAVA, encoding="utf-8")
    java.chmod(java.stat().st_mode | stat.S_IXUSR)
    jar = tmp_path / "opsin.jar"
    jar.write_bytes(b"not a real jar")
    log = tmp_path / "starts.log"
    monkeypatch.setenv("FAKE_OPSIN_LOG", str(log))
    return java, jar, log


def _starts(log: Path) -> int:
    return log.read_text().count("start") if log.exists() else 0


def test_jar_is_found_inside_the_py2opsin_wheel(monkeypatch):
    monkeypatch.delenv("CHEMIE_OPSIN_JAR", raising=False)
    jar = find_jar()
    assert jar is not None and jar.is_file() and jar.suffix == ".jar"
    assert "py2opsin" in jar.parts
    monkeypatch.setenv("CHEMIE_OPSIN_JAR", "/some/where/opsin.jar")
    assert find_jar() == Path("/some/where/opsin.jar")


def test_names_are_cleaned_or_refused():
    assert clean_name(" ethyl\tacetate\n") == ("ethyl acetate", None)
    assert clean_name("a\u2028b") == ("a b", None)
    assert clean_name("a\x00b")[1] == "control character"
    assert clean_name("\ud800x")[1] == "control character"
    assert clean_name("  \t ")[1] == "empty name"
    assert clean_name("x" * 5000)[1] == "too long"


def test_fake_jvm_batches_cache_and_one_start(fake_java):
    java, jar, log = fake_java
    o = Opsin(jar=jar, java=str(java), batch_size=2)
    try:
        out = o.parse(["a", "b", "c", "a", "bad\x01name", "d\te"])
        assert [out[n].smiles for n in ("a", "b", "c")] == ["C", "C", "C"]
        assert out["bad\x01name"].reason == "control character"
        assert out["d\te"].smiles == "C"  # sent as "d e"
        sent = o.sent
        again = o.parse(["c", "b"])
        assert again["c"].smiles == "C" and o.sent == sent  # from the cache
        assert o.starts == 1 == _starts(log)
    finally:
        o.close()


def test_jvm_that_dies_is_restarted_and_only_the_fatal_name_is_lost(fake_java):
    java, jar, log = fake_java
    o = Opsin(jar=jar, java=str(java))
    try:
        out = o.parse(["a", "DIE here", "b", "c"])
        assert out["DIE here"].reason == "opsin died"
        assert [out[n].smiles for n in ("a", "b", "c")] == ["C", "C", "C"]
        assert o.starts == 2 == _starts(log)
        # a JVM killed between calls is noticed and replaced
        o._jvm.proc.kill()
        o._jvm.proc.wait()
        assert o.parse(["e"])["e"].smiles == "C"
        assert o.starts == 3
    finally:
        o.close()


def test_hanging_batch_times_out_and_the_next_batch_gets_a_new_jvm(fake_java):
    java, jar, log = fake_java
    o = Opsin(jar=jar, java=str(java), timeout=0.5)
    try:
        out = o.parse(["a", "HANG", "b"])
        assert out["a"].smiles == "C"  # answered before the hang
        assert out["HANG"].reason == "timeout" and out["b"].reason == "timeout"
        assert "b" not in o.cache  # a timeout is not cached: tried again next time
        assert o.parse(["b"])["b"].smiles == "C"
        assert o.starts == 2
    finally:
        o.close()


def test_answer_out_of_step_stops_the_batch(fake_java):
    java, jar, _ = fake_java
    o = Opsin(jar=jar, java=str(java))
    try:
        out = o.parse(["a", "SKEW", "b"])
        assert out["a"].smiles == "C"
        assert out["SKEW"].reason == out["b"].reason == "opsin out of step"
    finally:
        o.close()


def test_jvm_that_cannot_start(fake_java, monkeypatch):
    java, jar, _ = fake_java
    monkeypatch.setenv("FAKE_OPSIN_MODE", "exit")
    o = Opsin(jar=jar, java=str(java), start_timeout=5)
    out = o.parse(["a", "b"])
    assert out["a"].reason == out["b"].reason == "jvm failed to start"


def test_no_java_warns_once_and_leaves_every_name_unresolved(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))  # a folder without java
    monkeypatch.setattr(opsin_module, "_warned_no_java", False)
    first, second = Opsin(), Opsin()
    assert first.parse(["ethanol"])["ethanol"].reason == "no java"
    assert second.parse(["benzene", "x"])["x"].reason == "no java"
    err = capsys.readouterr().err
    assert err.count("warning: java not found") == 1


def test_missing_jar(fake_java, tmp_path):
    java, _, _ = fake_java
    o = Opsin(jar=tmp_path / "nope.jar", java=str(java))
    assert o.parse(["a"])["a"].reason == "no opsin jar"


def test_service_is_one_per_process(monkeypatch):
    monkeypatch.setattr(opsin_module, "_service", None)
    a = opsin_module.service()
    assert opsin_module.service() is a
    monkeypatch.setattr(os, "getpid", lambda: -1)  # as in a forked worker
    assert opsin_module.service() is not a


needs_java = pytest.mark.skipif(shutil.which("java") is None, reason="java is not installed")


@pytest.fixture(scope="module")
def real_opsin():
    o = Opsin()
    yield o
    o.close()


@needs_java
def test_real_opsin_answers_one_line_per_name_in_order(real_opsin):
    names = ["ethanol", "not a chemical", "2-chloropyridine", "ethyl acetate", "benzene",
             "", "acetic acid"]
    out = real_opsin.parse(names)
    assert canonical(out["ethanol"].smiles) == "CCO"
    assert out["not a chemical"].reason == "parse failure"
    assert canonical(out["2-chloropyridine"].smiles) == canonical("Clc1ccccn1")
    assert canonical(out["ethyl acetate"].smiles) == canonical("CCOC(C)=O")
    assert out[""].reason == "empty name"
    assert real_opsin.startup_seconds > 0


@needs_java
def test_real_opsin_large_batch_stays_aligned(real_opsin):
    singles = ["methanol", "propan-2-ol", "toluene", "2-methylpyridine", "3-methylpyridine",
               "4-methylpyridine"]
    alone = {n: real_opsin.parse([n])[n].smiles for n in singles}
    real_opsin.cache.clear()
    names = [singles[(i // 2) % 6] if i % 2 else f"nonsense{i}" for i in range(3000)]
    out = real_opsin.parse(names)
    assert {n: out[n].smiles for n in singles} == alone
    assert len({canonical(s) for s in alone.values()}) == 6
    assert all(out[n].reason == "parse failure" for n in names if n.startswith("nonsense"))


@needs_java
def test_real_opsin_sanitised_names(real_opsin):
    out = real_opsin.parse(["ethyl\tacetate", "benzoic\nacid"])
    assert canonical(out["ethyl\tacetate"].smiles) == canonical("CCOC(C)=O")
    assert canonical(out["benzoic\nacid"].smiles) == canonical("OC(=O)c1ccccc1")
