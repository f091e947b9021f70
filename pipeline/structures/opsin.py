"""OPSIN name-to-structure through one long-lived JVM per process.

The OPSIN jar is the one the ``py2opsin`` wheel bundles (found through the wheel's file list
with :mod:`importlib.metadata`, which, unlike importing ``py2opsin``, runs no ``java
-version`` check; ``$CHEMIE_OPSIN_JAR`` overrides it). Nothing is downloaded.
py2opsin's own function is never called: it starts a JVM per call and writes a temp file in
the working directory.

Protocol: ``java -jar opsin.jar -osmi -n`` reads names from stdin, one per line, and answers
each with one line ``SMILES<TAB>NAME`` (SMILES empty when OPSIN cannot parse the name),
flushed per line. The echoed name keeps both sides in step: an answer that echoes another
name stops the batch (reason ``opsin out of step``). Stdout is read by a thread into a
queue, so a batch has a deadline; stdin is written by a thread, so a large batch cannot
deadlock on full pipes; stderr goes to DEVNULL, so it can never block.

Failures never raise; each name gets an :class:`OpsinResult` whose ``reason`` says why it
has no SMILES:

* ``parse failure``: OPSIN answered without a structure;
* ``timeout``: the batch passed its deadline; the JVM is killed and the unanswered names of
  the batch all get this reason (the next batch starts a new JVM);
* ``opsin died``: the JVM exited while reading this name; the names after it are sent
  again to a new JVM (at most :data:`MAX_RESTARTS` times per batch);
* ``no java`` (``java`` not on PATH; one warning per process), ``no opsin jar``,
  ``jvm failed to start``;
* ``empty name``, ``control character`` (names with tabs or line breaks are joined with
  spaces first; other control characters are refused), ``too long``.

Only ``parse failure`` and structures are cached (per :class:`Opsin` object, so per process
for :func:`service`); a timed-out name is tried again next time.
"""

from __future__ import annotations

import atexit
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

FLAGS = ("-osmi", "-n")  # SMILES output; echo the name (tab-separated) after it
# C1-only JIT: start-up 1.6 s instead of 2.4 s, and about half the CPU per name on batches
# of thousands of names (C2's compile time never pays back here); serial GC: one GC thread
JVM_OPTIONS = ("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Dfile.encoding=UTF-8")
MAX_NAME_LENGTH = 2000
MAX_RESTARTS = 3  # per batch, after the JVM died on a name
PROBE = "methane"  # sent at start-up: its answer says the JVM is ready
_LINE_BREAKS = re.compile(r"[\t\n\r\v\f\x85\u2028\u2029]+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_EOF = None

_warned_no_java = False


@dataclass(frozen=True)
class OpsinResult:
    """OPSIN's answer for one name: a SMILES, or None with the reason."""

    name: str
    smiles: str | None
    reason: str | None = None


def find_jar() -> Path | None:
    """The OPSIN jar: ``$CHEMIE_OPSIN_JAR``, else the one in the py2opsin wheel (or None)."""
    env = os.environ.get("CHEMIE_OPSIN_JAR")
    if env:
        return Path(env)
    try:
        files = metadata.files("py2opsin") or []
    except metadata.PackageNotFoundError:
        return None
    for f in files:
        if f.name.startswith("opsin") and f.name.endswith(".jar"):
            return Path(str(f.locate()))
    return None


def clean_name(name: str) -> tuple[str, str | None]:
    """The name as sent to OPSIN (line breaks and tabs become spaces, runs of spaces one),
    and the reason it cannot be sent, or None."""
    text = " ".join(_LINE_BREAKS.sub(" ", name).split())
    if not text:
        return text, "empty name"
    if _CONTROL.search(text):
        return text, "control character"
    if len(text) > MAX_NAME_LENGTH:
        return text, "too long"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text, "control character"  # a lone surrogate
    return text, None


def no_java_warned() -> None:
    """Note that a missing java was already reported (by the process that started this one,
    e.g. a command's parent process): this process gives no warning of its own."""
    global _warned_no_java
    _warned_no_java = True


def _warn_no_java() -> None:
    global _warned_no_java
    if not _warned_no_java:
        _warned_no_java = True
        print(
            "chemie: warning: java not found on PATH: names are not converted to structures "
            "by OPSIN (install Java 8 or later)",
            file=sys.stderr,
        )


class _Jvm:
    """One running OPSIN process, its stdout read into a queue by a thread."""

    def __init__(self, argv: list[str]):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.proc.stdout:
                self.lines.put(line)
        except (OSError, ValueError):
            pass
        self.lines.put(_EOF)

    def send(self, names: Sequence[str]) -> None:
        """Write the names (one per line) from a thread; a dead JVM just ends the writing."""
        data = "".join(n + "\n" for n in names).encode("utf-8")

        def write() -> None:
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (OSError, ValueError):
                pass

        threading.Thread(target=write, daemon=True).start()

    def next_line(self, deadline: float) -> bytes | None | bool:
        """The next output line, ``None`` at end of output, ``False`` past the deadline."""
        try:
            return self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return False

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass


class Opsin:
    """A long-lived OPSIN JVM with a cache: :meth:`parse` names in batches.

    ``timeout`` is the deadline of one batch of at most ``batch_size`` names (seconds,
    start-up excluded: the JVM gets ``start_timeout`` to answer its first name).
    """

    def __init__(
        self, jar: Path | None = None, java: str = "java", timeout: float = 60.0,
        batch_size: int = 2000, start_timeout: float = 60.0,
        jvm_options: Sequence[str] = JVM_OPTIONS,
    ):
        self.jar = jar if jar is not None else find_jar()
        self.java = java
        self.timeout = timeout
        self.batch_size = batch_size
        self.start_timeout = start_timeout
        self.jvm_options = tuple(jvm_options)
        self.cache: dict[str, OpsinResult] = {}
        self.starts = 0  # JVMs started
        self.startup_seconds = 0.0  # summed over starts: spawn until the probe's answer
        self.sent = 0  # names sent to OPSIN
        self._jvm: _Jvm | None = None
        self._unavailable: str | None = None
        self._lock = threading.Lock()  # one batch at a time on the JVM's pipes

    # -- availability and process -------------------------------------------------------

    def unavailable(self) -> str | None:
        """Why OPSIN cannot run here (``no java``, ``no opsin jar``), or None."""
        if self._unavailable is None:
            if shutil.which(self.java) is None:
                self._unavailable = "no java"
                _warn_no_java()
            elif self.jar is None or not Path(self.jar).is_file():
                self._unavailable = "no opsin jar"
            else:
                self._unavailable = ""
        return self._unavailable or None

    def _start(self) -> _Jvm | None:
        """A fresh JVM that has answered the probe, or None when it could not start."""
        self.close()
        java = shutil.which(self.java) or self.java
        t0 = time.monotonic()
        try:
            jvm = _Jvm([java, *self.jvm_options, "-jar", str(self.jar), *FLAGS])
        except OSError:
            return None
        self.starts += 1
        jvm.send([PROBE])
        line = jvm.next_line(t0 + self.start_timeout)
        self.startup_seconds += time.monotonic() - t0
        if not line or _split(line)[1] != PROBE:
            jvm.stop()
            return None
        self._jvm = jvm
        return jvm

    def ready(self) -> bool:
        """Start the JVM now unless it runs (so that its start-up is not paid inside the
        first batch's deadline or a document's time limit); whether it answers."""
        if self.unavailable():
            return False
        with self._lock:
            if self._jvm is not None and self._jvm.proc.poll() is None:
                return True
            return self._start() is not None

    def close(self) -> None:
        """Stop the JVM (a later :meth:`parse` starts a new one)."""
        if self._jvm is not None:
            self._jvm.stop()
            self._jvm = None

    # -- parsing ------------------------------------------------------------------------

    def parse(self, names: Iterable[str]) -> dict[str, OpsinResult]:
        """OPSIN's result for each distinct name (keys are the names as given)."""
        out: dict[str, OpsinResult] = {}
        todo: dict[str, list[str]] = {}  # cleaned name -> the given spellings
        for name in names:
            if name in out:
                continue
            text, reason = clean_name(name)
            if reason:
                out[name] = OpsinResult(name, None, reason)
            elif text in self.cache:
                out[name] = _renamed(self.cache[text], name)
            else:
                todo.setdefault(text, []).append(name)
                out[name] = OpsinResult(name, None, "pending")
        if todo:
            pending = list(todo)
            missing = self.unavailable()
            for i in range(0, len(pending), self.batch_size):
                batch = pending[i : i + self.batch_size]
                if missing:
                    results = {n: OpsinResult(n, None, missing) for n in batch}
                else:
                    with self._lock:
                        results = self._batch(batch)
                for text, result in results.items():
                    if result.smiles is not None or result.reason == "parse failure":
                        self.cache[text] = result
                    for name in todo[text]:
                        out[name] = _renamed(result, name)
        return out

    def _batch(self, batch: list[str]) -> dict[str, OpsinResult]:
        """Send one batch; after a death resend the names after the fatal one (to a new JVM),
        after a timeout give the unanswered names up."""
        results: dict[str, OpsinResult] = {}
        rest = batch
        for _ in range(MAX_RESTARTS + 1):
            jvm = self._jvm if self._jvm is not None and self._jvm.proc.poll() is None else None
            jvm = jvm or self._start()
            if jvm is None:
                results.update({n: OpsinResult(n, None, "jvm failed to start") for n in rest})
                return results
            try:
                outcome, answered = self._exchange(jvm, rest, results)
            except BaseException:  # interrupted (a document's time limit, Ctrl-C) mid-batch:
                self.close()  # the JVM's answers are out of step with the names from now on
                raise
            if outcome == "done":
                return results
            self.close()
            if outcome != "died":
                results.update({n: OpsinResult(n, None, outcome) for n in rest[answered:]})
                return results
            # the JVM died while reading rest[answered]: that name is the cause
            results[rest[answered]] = OpsinResult(rest[answered], None, "opsin died")
            rest = rest[answered + 1 :]
            if not rest:
                return results
        results.update({n: OpsinResult(n, None, "opsin died") for n in rest})
        return results

    def _exchange(
        self, jvm: _Jvm, names: list[str], results: dict[str, OpsinResult]
    ) -> tuple[str, int]:
        """Send ``names``, read their answers into ``results``; the outcome (``done``,
        ``timeout``, ``died``, ``opsin out of step``) and how many names were answered."""
        deadline = time.monotonic() + self.timeout
        jvm.send(names)
        self.sent += len(names)
        for i, name in enumerate(names):
            line = jvm.next_line(deadline)
            if line is False:
                return "timeout", i
            if line is _EOF:
                return "died", i
            smiles, echoed = _split(line)
            if echoed != name:
                return "opsin out of step", i
            results[name] = OpsinResult(name, smiles or None, None if smiles else "parse failure")
        return "done", len(names)


def _split(line: bytes) -> tuple[str, str]:
    """``SMILES<TAB>NAME`` -> (smiles, name); undecodable bytes are replaced."""
    text = line.decode("utf-8", errors="replace").rstrip("\r\n")
    smiles, _, echoed = text.partition("\t")
    return smiles.strip(), echoed


def _renamed(result: OpsinResult, name: str) -> OpsinResult:
    return result if result.name == name else OpsinResult(name, result.smiles, result.reason)


_service: tuple[int, Opsin] | None = None


def service() -> Opsin:
    """The process's OPSIN (one JVM per process: a forked worker gets its own)."""
    global _service
    if _service is None or _service[0] != os.getpid():
        _service = (os.getpid(), Opsin())
    return _service[1]


@atexit.register
def _stop_service() -> None:
    if _service is not None and _service[0] == os.getpid():
        _service[1].close()
