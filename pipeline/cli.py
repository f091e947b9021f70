"""The ``chemie`` command line: discovers subcommands in ``chemie.commands``."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from chemie import __version__, commands
from chemie.errors import InputError


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with one subparser per module in ``chemie.commands``."""
    parser = argparse.ArgumentParser(
        prog="chemie",
        description="Rule-based chemical information extraction and scoring.",
    )
    parser.add_argument("--version", action="version", version=f"chemie {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"chemie.commands.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a subcommand; bad input becomes one ``FILE:LINE: message`` line and exit 2.

    Files that cannot be read or written (a missing folder, no permission, a read-only
    disk) are reported the same way: one line naming the file, exit status 2.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except InputError as e:
        print(f"chemie: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        where = e.filename or "<output>"
        print(f"chemie: {where}: {e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("chemie: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
