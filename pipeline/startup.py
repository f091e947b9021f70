"""What the ``chemie`` command line does to start and end quickly (not the library: only
:func:`chemie.cli.entry`, the console script, turns these on).

A one-snippet ``chemie run`` spends most of its time starting and ending, not annotating:

* ``import spacy`` imports ``spacy.cli`` (typer, click, every subcommand) for the one name
  ``spacy.info``; :func:`begin` puts a placeholder package there, which imports the real
  one the first time anything of it is used. The pipeline never uses it.
* Building the pipeline makes several hundred thousand objects that live as long as the
  process; the garbage collector scans them again and again while they are made. From
  :func:`begin` the collector waits: :func:`parsed` (after the arguments) and the end of
  :func:`building` (around making a pipeline) move what exists to the permanent generation
  (:func:`gc.freeze`) and let it run again.
* Tearing down the interpreter frees every object one by one; :func:`finish` flushes the
  outputs, runs the exit handlers (the OPSIN JVM is stopped by one) and ends the process.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import threading
import types
from collections.abc import Iterator

_ACTIVE = False  # set by begin(): this process is the command line


def active() -> bool:
    """Whether this process is the ``chemie`` command line (or one of its workers)."""
    return _ACTIVE


class _LazyPackage(types.ModuleType):
    """A placeholder for a package: the real one is imported on first attribute access."""

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(_real(self.__name__), name)


PLACEHOLDERS = ("spacy.cli", "spacy.cli.info")  # what ``import spacy`` gets instead


class _Placeholders(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds :data:`PLACEHOLDERS` as placeholder modules (then imported as any module is:
    ``spacy.cli`` is an attribute of ``spacy``), until :func:`_real` is asked for one."""

    def find_spec(self, name: str, path: object = None, target: object = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if name not in PLACEHOLDERS:
            return None
        spec = importlib.util.spec_from_loader(name, self, is_package=name == "spacy.cli")
        if spec is not None and name == "spacy.cli":
            spec.submodule_search_locations = [os.path.join(p, "cli") for p in path or ()]
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return _LazyPackage(spec.name)

    def exec_module(self, module: types.ModuleType) -> None:
        if module.__name__ == "spacy.cli.info":
            module.info = _info  # type: ignore[attr-defined]


_FINDER = _Placeholders()


def _real(name: str) -> types.ModuleType:
    """The real module ``name``, imported in place of the placeholders."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
        for placeholder in PLACEHOLDERS:
            if isinstance(sys.modules.get(placeholder), _LazyPackage):
                del sys.modules[placeholder]
    module = importlib.import_module(name)
    parent, _, child = name.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], child, module)
    return module


def _info(*args: object, **kwargs: object) -> object:
    """``spacy.info``, from the real ``spacy.cli``."""
    return _real("spacy.cli.info").info(*args, **kwargs)


def skip_spacy_cli() -> None:
    """Let ``import spacy`` leave out ``spacy.cli`` (see the module docstring); nothing
    when spaCy is imported already."""
    if "spacy" not in sys.modules and _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def begin() -> None:
    """The command line starts: leave ``spacy.cli`` out and let the collector wait."""
    global _ACTIVE
    _ACTIVE = True
    skip_spacy_cli()
    gc.disable()


def _settle() -> None:
    """Move every object made so far to the permanent generation; collect again."""
    gc.freeze()
    gc.enable()


def parsed() -> None:
    """The arguments are parsed: what the start made is kept (command line only)."""
    if _ACTIVE:
        _settle()


@contextlib.contextmanager
def building() -> Iterator[None]:
    """Around making a pipeline: no collection while it is built, then it is kept in the
    permanent generation (command line only; elsewhere nothing changes)."""
    if not _ACTIVE:
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        _settle()


def finish(code: int) -> None:
    """End the command-line process with status ``code`` as the interpreter would, without
    its teardown: flush the outputs, wait for the threads (and the shutdown hooks of
    ``concurrent.futures`` a process pool needs), run the exit handlers, then exit."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    threading._shutdown()  # type: ignore[attr-defined]  (the interpreter's first step)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
