"""The ``chemie`` command line: discovers subcommands in ``chemie.commands``."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import sys

from chemie import __version__, commands, startup
from chemie.errors import InputError, OutputError


def _command_modules(argv: list[str]) -> list[str]:
    """The modules of ``chemie.commands`` to register: only the one named by the first
    argument when there is such a command (``rc-eval`` is ``rc_eval``), else all of them.
    Importing one command, not seven, saves about half a second at every start."""
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    first = next((a for a in argv if not a.startswith("-")), "")
    wanted = first.replace("-", "_")
    return [wanted] if wanted in names else names


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The top-level parser with one subparser per module in ``chemie.commands`` (only the
    chosen command's module when ``argv`` names one)."""
    parser = argparse.ArgumentParser(
        prog="chemie",
        description="Rule-based chemical information extraction and scoring.",
    )
    parser.add_argument("--version", action="version", version=f"chemie {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    for name in names if argv is None else _command_modules(argv):
        module = importlib.import_module(f"chemie.commands.{name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a subcommand; bad input becomes one ``FILE:LINE: message`` line and exit 2.

    Files that cannot be read (a missing folder, no permission) are reported the same way:
    one line naming the file, exit status 2; an output that cannot be written (no
    permission, a read-only or full disk) gives one line naming it and exit status 3.
    """
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    startup.parsed()
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except InputError as e:
        print(f"chemie: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader stopped early (``chemie run | head``): a quiet end
        _silence_stdout()
        return 0
    except OutputError as e:
        print(f"chemie: {e.filename or '<output>'}: {e.strerror or e}", file=sys.stderr)
        return 3
    except OSError as e:
        where = e.filename or "<output>"
        print(f"chemie: {where}: {e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("chemie: interrupted", file=sys.stderr)
        return 130


def entry() -> None:
    """The console script ``chemie`` and ``python -m chemie``: :func:`main`, started and
    ended quickly (:mod:`chemie.startup`), then the process ends with its status."""
    startup.begin()
    startup.finish(main())


def _silence_stdout() -> None:
    """Point stdout at the null device, so flushing it at exit cannot fail again."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


if __name__ == "__main__":
    entry()
